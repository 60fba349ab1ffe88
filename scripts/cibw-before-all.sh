#!/usr/bin/env bash
# cibuildwheel's before-all step: make librdkafka available to the wheel builds of one platform.
#
# Linux (manylinux: dnf/yum; musllinux: apk) and macOS: build the librdkafka release tarball
# into LIBRDKAFKA_PREFIX, which pkg-config then finds (pyproject.toml sets PKG_CONFIG_PATH).
#   - Linux links the distribution's OpenSSL, Cyrus SASL, zstd, lz4, zlib and curl; the wheel
#     repair step (auditwheel) copies them into the wheel.
#   - macOS lets librdkafka's configure build those dependencies from source as static
#     libraries (--install-deps --source-deps-only), so they honour MACOSX_DEPLOYMENT_TARGET;
#     delocate then bundles the one librdkafka dylib.
# Windows: unpack the librdkafka.redist NuGet package of the same version (prebuilt DLLs with
#   OpenSSL, zstd, lz4, zlib and curl inside) into C:/librdkafka/{include,lib,bin}; setup.py
#   reads LIBRDKAFKA_INCLUDE_DIR/LIBRDKAFKA_LIBRARY_DIR, delvewheel bundles the DLLs.
#
# Environment: LIBRDKAFKA_VERSION (default below), LIBRDKAFKA_PREFIX, and LIBRDKAFKA_TARBALL to
# build from a local copy of the release tarball instead of downloading it.
set -euo pipefail

VERSION="${LIBRDKAFKA_VERSION:-2.14.2}"
# SHA-256 of the release tarball; checked on download. Update together with VERSION.
SHA256="${LIBRDKAFKA_SHA256:-}"
PREFIX="${LIBRDKAFKA_PREFIX:-/usr/local}"
TARBALL_URL="https://github.com/confluentinc/librdkafka/archive/refs/tags/v${VERSION}.tar.gz"
NUGET_URL="https://www.nuget.org/api/v2/package/librdkafka.redist/${VERSION}"
JOBS="$( (nproc || sysctl -n hw.ncpu) 2>/dev/null || echo 2)"

log() { printf 'cibw-before-all: %s\n' "$*" >&2; }

fetch() {  # fetch URL FILE
    if command -v curl >/dev/null; then curl -fsSL --retry 3 -o "$2" "$1"; else wget -q -O "$2" "$1"; fi
}

check_sha256() {  # check_sha256 FILE
    [ -n "$SHA256" ] || { log "no LIBRDKAFKA_SHA256 given: not verifying $(basename "$1")"; return 0; }
    local got
    got="$( (sha256sum "$1" 2>/dev/null || shasum -a 256 "$1") | cut -d' ' -f1)"
    [ "$got" = "$SHA256" ] || { log "checksum mismatch for $1: $got"; exit 1; }
}

linux_build_deps() {
    if command -v dnf >/dev/null || command -v yum >/dev/null; then
        "$(command -v dnf || command -v yum)" install -y -q openssl-devel cyrus-sasl-devel \
            libzstd-devel lz4-devel zlib-devel libcurl-devel perl which >/dev/null
    elif command -v apk >/dev/null; then
        apk add --no-cache -q bash openssl-dev cyrus-sasl-dev zstd-dev lz4-dev zlib-dev \
            curl-dev perl linux-headers >/dev/null
    elif command -v apt-get >/dev/null; then
        local p missing=()
        for p in build-essential libssl-dev libsasl2-dev libzstd-dev liblz4-dev zlib1g-dev \
                 libcurl4-openssl-dev; do
            dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
                || missing+=("$p")
        done
        [ "${#missing[@]}" -eq 0 ] && return 0
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
            "${missing[@]}" >/dev/null
    else
        log "no known package manager to install librdkafka's build dependencies"; exit 1
    fi
}

unpack_source() {  # prints the unpacked source directory
    local work="$1" tarball="${LIBRDKAFKA_TARBALL:-}"
    if [ -z "$tarball" ]; then
        tarball="$work/librdkafka-$VERSION.tar.gz"
        log "downloading librdkafka $VERSION"
        fetch "$TARBALL_URL" "$tarball"
        check_sha256 "$tarball"
    fi
    # The top directory's name differs between archives (librdkafka-X.Y.Z, owner-repo-sha).
    mkdir -p "$work/src"
    tar -xzf "$tarball" -C "$work/src"
    find "$work/src" -maxdepth 1 -mindepth 1 -type d | head -n 1
}

build_unix() {
    local work src
    work="$(mktemp -d)"
    src="$(unpack_source "$work")"
    local opts=(--prefix="$PREFIX" --disable-debug-symbols --enable-ssl --enable-sasl
                --enable-zstd --enable-lz4-ext --enable-zlib --enable-curl)
    if [ "$(uname -s)" = Darwin ]; then
        # Static, source-built dependencies: nothing from Homebrew ends up in the wheel.
        opts+=(--install-deps --source-deps-only --disable-gssapi)
    fi
    log "building librdkafka $VERSION into $PREFIX"
    (cd "$src" && ./configure "${opts[@]}" >"$work/configure.log" 2>&1) \
        || { tail -n 40 "$work/configure.log"; exit 1; }
    make -C "$src/src" -j"$JOBS" >"$work/make.log" 2>&1 || { tail -n 40 "$work/make.log"; exit 1; }
    mkdir -p "$PREFIX"
    make -C "$src/src" install >"$work/install.log" 2>&1 || { tail -n 40 "$work/install.log"; exit 1; }
    if [ "$(uname -s)" = Linux ] && command -v ldconfig >/dev/null; then ldconfig 2>/dev/null || true; fi
    rm -rf "$work"
    log "librdkafka $VERSION installed: $(ls "$PREFIX"/lib*/librdkafka.* 2>/dev/null | tr '\n' ' ')"
}

install_windows() {
    local work dest="${LIBRDKAFKA_PREFIX:-C:/librdkafka}"
    work="$(mktemp -d)"
    log "downloading librdkafka.redist $VERSION"
    fetch "$NUGET_URL" "$work/redist.zip"
    (cd "$work" && unzip -q redist.zip -d redist)
    mkdir -p "$dest/include/librdkafka" "$dest/lib" "$dest/bin"
    cp "$work"/redist/build/native/include/librdkafka/*.h "$dest/include/librdkafka/"
    # The import library and the DLLs for 64-bit Windows (librdkafka and what it links).
    find "$work/redist" -ipath '*x64*' -iname 'librdkafka.lib' -exec cp {} "$dest/lib/" \;
    find "$work/redist/runtimes/win-x64/native" -iname '*.dll' -exec cp {} "$dest/bin/" \;
    [ -f "$dest/lib/librdkafka.lib" ] || { log "no x64 librdkafka.lib in the NuGet package"; exit 1; }
    rm -rf "$work"
    log "librdkafka $VERSION unpacked into $dest"
}

case "$(uname -s)" in
    Linux) linux_build_deps; build_unix ;;
    Darwin) build_unix ;;
    MINGW*|MSYS*|CYGWIN*) install_windows ;;
    *) log "unsupported platform $(uname -s)"; exit 1 ;;
esac
