#!/usr/bin/env bash
# Make a librdkafka >= MIN_VERSION available to pkg-config.
#
# Uses the system copy when pkg-config already finds a new-enough one (a second run is a no-op).
# Otherwise builds the newest librdkafka source package from the Debian archive this machine's
# apt already points at (unstable first, then testing/trixie), and installs it under PREFIX.
# Debian stable's own librdkafka (2.0.x) is too old to talk to modern brokers, hence the build.
set -euo pipefail

MIN_VERSION="${LIBRDKAFKA_MIN_VERSION:-2.8.0}"
PREFIX="${LIBRDKAFKA_PREFIX:-/usr/local}"
SUITES="${LIBRDKAFKA_SUITES:-sid trixie}"
export PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"

log() { printf 'install-librdkafka: %s\n' "$*" >&2; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

if pkg-config --atleast-version="$MIN_VERSION" rdkafka 2>/dev/null; then
    log "librdkafka $(pkg-config --modversion rdkafka) already installed (>= $MIN_VERSION)"
    exit 0
fi

build_deps=(build-essential pkg-config dpkg-dev libssl-dev libsasl2-dev libzstd-dev liblz4-dev
            zlib1g-dev libcurl4-openssl-dev)
missing=()
for p in "${build_deps[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
    log "installing build dependencies: ${missing[*]}"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The Debian mirror URI and keyring of this machine's own apt configuration.
. "$(dirname "${BASH_SOURCE[0]}")/debian-mirror.sh"

apt_opts=(-o "Dir::Etc::SourceList=$work/sources.list" -o "Dir::Etc::SourceParts=$work/none"
          -o "Dir::State::Lists=$work/lists" -o "Dir::Cache=$work/cache" -o "APT::Sandbox::User=root")
mkdir -p "$work/none" "$work/lists/partial" "$work/cache/archives/partial" "$work/src"

fetched=""
for suite in $SUITES; do
    echo "deb-src [signed-by=$keyring] $mirror $suite main" > "$work/sources.list"
    if apt-get "${apt_opts[@]}" update -qq >/dev/null 2>&1 \
        && (cd "$work/src" && apt-get "${apt_opts[@]}" source -qq librdkafka >/dev/null 2>&1); then
        fetched="$suite"
        break
    fi
    log "no librdkafka source from $suite"
    rm -rf "$work/src"/* "$work/lists"/*_* 2>/dev/null || true
done
[ -n "$fetched" ] || { log "could not fetch librdkafka source"; exit 1; }

srcdir="$(find "$work/src" -maxdepth 1 -mindepth 1 -type d -name 'librdkafka-*' | head -n 1)"
log "building $(basename "$srcdir") from $fetched into $PREFIX"
cd "$srcdir"
# Debian regenerates the OpenTelemetry protobuf sources with nanopb and patches the include
# paths to match; revert that one patch so the pregenerated copies in the upstream tarball build.
for patch in debian/patches/*nanopb-generated-header-paths*.patch; do
    if [ -f "$patch" ] && patch -R -p1 -s --dry-run < "$patch" >/dev/null 2>&1; then
        patch -R -p1 -s < "$patch"
    fi
done
./configure --prefix="$PREFIX" --disable-debug-symbols --enable-ssl --enable-sasl --enable-zstd \
    --enable-lz4-ext --enable-zlib --enable-curl >"$work/configure.log" 2>&1 \
    || { tail -n 40 "$work/configure.log"; exit 1; }
make -j"$(nproc)" -C src >"$work/make.log" 2>&1 || { tail -n 40 "$work/make.log"; exit 1; }
as_root make -C src install >"$work/install.log" 2>&1 || { tail -n 40 "$work/install.log"; exit 1; }
as_root ldconfig
log "installed librdkafka $(pkg-config --modversion rdkafka)"
