#!/usr/bin/env bash
# Make a private CPython X.Y (or its free-threaded build X.Yt) available for the test matrix,
# built once and kept in a cache:
#
#   scripts/install-python.sh 3.14                 GIL build: CACHE/3.14/bin/python3.14
#   scripts/install-python.sh 3.14t                free-threaded: CACHE/3.14t/bin/python3.14t
#   scripts/install-python.sh 3.14 --disable-gil   the same as 3.14t
#
# CACHE is $CFL_PYTHONS_DIR, by default ${XDG_CACHE_HOME:-~/.cache}/confluent-kafka-pythons.
# Prints the interpreter's path on stdout (and nothing else); progress goes to stderr. A build
# whose CACHE/TAG/READY file exists and whose interpreter starts is reused, so a second run is a
# no-op. READY is written only once `python -m venv` and pip work in a scratch virtualenv.
#
# Where the interpreter comes from, first that works:
#   1. Debian's source package pythonX.Y, fetched with apt through a private sources.list (deb-src
#      lines for $PYTHON_SOURCE_SUITES, default "sid experimental forky trixie"; the machine's own
#      apt configuration is left alone). The pristine upstream tarball inside it (.orig.tar.xz) is
#      built with ./configure --prefix=CACHE/TAG [--disable-gil], no PGO, no LTO, make -j$JOBS.
#   2. Only for a GIL build, when no suite's source files can be downloaded: Debian's binary
#      packages (pythonX.Y, pythonX.Y-dev, pythonX.Y-venv and their libraries, from the same
#      suites), unpacked into CACHE/TAG/root and made to run on this machine's older C library
#      with patchelf (their own ld.so and an RPATH to the unpacked libraries). Debian builds no
#      free-threaded interpreter, so a free-threaded build has no such fallback: it fails, saying
#      so, and leaves CACHE/TAG/UNAVAILABLE with the reason.
#
# Environment: CFL_PYTHONS_DIR, PYTHON_SOURCE_SUITES, PYTHON_BUILD_JOBS (default 2),
#              PYTHON_NO_BINARY_FALLBACK=1 (never use route 2).
set -euo pipefail

usage() { echo "usage: $0 X.Y[t] [--disable-gil]" >&2; exit 2; }
log() { printf 'install-python: %s\n' "$*" >&2; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

[ $# -ge 1 ] || usage
spec="$1"; shift
freethreaded=0
case "$spec" in
    [0-9].[0-9]*t) freethreaded=1; minor="${spec%t}" ;;
    [0-9].[0-9]*) minor="$spec" ;;
    *) usage ;;
esac
[[ "$minor" =~ ^[0-9]+\.[0-9]+$ ]] || usage
for arg in "$@"; do
    case "$arg" in
        --disable-gil) freethreaded=1 ;;
        *) usage ;;
    esac
done
suffix=""; [ "$freethreaded" = 1 ] && suffix="t"
tag="$minor$suffix"
exe="python$minor$suffix"

root="${CFL_PYTHONS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/confluent-kafka-pythons}"
dest="$root/$tag"
SUITES="${PYTHON_SOURCE_SUITES:-sid experimental forky trixie}"
JOBS="${PYTHON_BUILD_JOBS:-2}"

if [ -f "$dest/READY" ] && "$dest/bin/$exe" -c 'import sys' 2>/dev/null; then
    log "CPython $tag already built: $dest/bin/$exe ($(head -n 1 "$dest/READY"))"
    echo "$dest/bin/$exe"
    exit 0
fi

# The libraries the standard library's extension modules need (ssl, ctypes, sqlite3, zlib, bz2,
# lzma, zstd, readline, curses, dbm, uuid, pyexpat), and patchelf for route 2.
build_deps=(build-essential pkg-config dpkg-dev xz-utils patchelf libssl-dev zlib1g-dev libffi-dev
            libbz2-dev liblzma-dev libzstd-dev libsqlite3-dev libreadline-dev libncurses-dev
            libgdbm-dev uuid-dev libexpat1-dev)
missing=()
for p in "${build_deps[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
    log "installing build dependencies: ${missing[*]}"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

mkdir -p "$root"
work="$(mktemp -d "$root/.work-$tag.XXXXXX")"
trap 'rm -rf "$work"' EXIT
rm -f "$dest/UNAVAILABLE"

# The Debian mirror URI and keyring of this machine's own apt configuration.
. "$(dirname "${BASH_SOURCE[0]}")/debian-mirror.sh"

# One private apt state for source and binary lists, shared by every run of this script and
# refreshed at most once a day ("apt-get update once").
aptdir="$root/.apt"
apt_opts=(-o "Dir::Etc::SourceList=$aptdir/sources.list" -o "Dir::Etc::SourceParts=$aptdir/none"
          -o "Dir::State::Lists=$aptdir/lists" -o "Dir::Cache=$aptdir/cache"
          -o "Dir::State::status=$aptdir/status" -o "APT::Sandbox::User=root"
          -o "Debug::NoLocking=1")
mkdir -p "$aptdir/none" "$aptdir/lists/partial" "$aptdir/cache/archives/partial"
: >>"$aptdir/status"
{
    for s in $SUITES; do
        echo "deb-src [signed-by=$keyring] $mirror $s main"
        echo "deb [signed-by=$keyring arch=$(dpkg --print-architecture)] $mirror $s main"
    done
} >"$aptdir/sources.list.new"
if ! cmp -s "$aptdir/sources.list.new" "$aptdir/sources.list" \
    || [ -z "$(find "$aptdir/lists" -maxdepth 1 -name '*Sources*' -mmin -1440 2>/dev/null | head -n 1)" ]; then
    mv "$aptdir/sources.list.new" "$aptdir/sources.list"
    log "apt-get update ($SUITES)"
    apt-get "${apt_opts[@]}" update -qq >"$work/update.log" 2>&1 || { cat "$work/update.log" >&2; exit 1; }
else
    rm -f "$aptdir/sources.list.new"
fi

unavailable() {
    mkdir -p "$dest"
    printf '%s\n' "$@" >"$dest/UNAVAILABLE"
    log "$1"
    shift
    local line
    for line in "$@"; do log "  $line"; done
    exit 1
}

# Checks that a finished interpreter has the modules pip, venv and the tests need, then makes a
# scratch virtualenv and runs pip in it. Prints the checked details on success.
check_interpreter() {
    local py="$1"
    "$py" - <<'PY' || return 1
import sys, sysconfig, ssl, ctypes, sqlite3, zlib, bz2, lzma, decimal, uuid, pyexpat, readline, venv, ensurepip
gil = sys._is_gil_enabled() if hasattr(sys, "_is_gil_enabled") else True
ft = bool(sysconfig.get_config_var("Py_GIL_DISABLED"))
print(f"{sys.version.split()[0]} free-threaded={ft} gil-enabled={gil} {ssl.OPENSSL_VERSION}")
PY
    "$py" -m venv "$work/check-venv" >&2 || return 1
    "$work/check-venv/bin/python" -m pip --version >&2 || return 1
}

start=$SECONDS

# ---- route 1: Debian's source package --------------------------------------------------------
fetch_source() {
    local suite
    mkdir -p "$work/src"
    for suite in $SUITES; do
        if (cd "$work/src" && apt-get "${apt_opts[@]}" source --download-only -qq "python$minor/$suite") \
                >"$work/source-$suite.log" 2>&1; then
            log "source package python$minor from $suite: $(cd "$work/src" && ls ./*.dsc)"
            echo "$suite"
            return 0
        fi
        log "no downloadable python$minor source in $suite: $(grep -m1 -E '^(E|W):' "$work/source-$suite.log" || echo '?')"
        rm -f "$work/src"/*
    done
    return 1
}

build_from_source() {
    local suite="$1" tarball srcdir
    tarball="$(ls "$work/src"/python"$minor"_*.orig.tar.* | grep -v '\.asc$' | head -n 1)"
    tar -xf "$tarball" -C "$work"
    srcdir="$(find "$work" -maxdepth 1 -type d -name 'Python-*' | head -n 1)"
    [ -n "$srcdir" ] || { log "no Python-* directory in $tarball"; return 1; }
    rm -rf "$dest"
    local conf=(--prefix="$dest" --with-ensurepip=install)
    [ "$freethreaded" = 1 ] && conf+=(--disable-gil)
    log "building $(basename "$srcdir")${suffix:+ (free-threaded)} into $dest: configure ${conf[*]}; make -j$JOBS"
    local logs="$root/logs/$tag"
    mkdir -p "$logs"
    (cd "$srcdir" && ./configure "${conf[@]}") >"$logs/configure.log" 2>&1 \
        || { tail -n 30 "$logs/configure.log" >&2; return 1; }
    (cd "$srcdir" && make -j"$JOBS") >"$logs/make.log" 2>&1 \
        || { grep -E 'error|Error' "$logs/make.log" | tail -n 30 >&2; return 1; }
    # Modules the build could not make are listed at the end of make's output.
    grep -A3 -E "necessary bits to build these optional modules were not found|Failed to build these modules" \
        "$logs/make.log" >&2 || true
    (cd "$srcdir" && make install) >"$logs/install.log" 2>&1 \
        || { tail -n 30 "$logs/install.log" >&2; return 1; }
    echo "source python$minor $(basename "$srcdir") from Debian $suite" >"$work/origin"
}

# ---- route 2: Debian's binary packages, relocated ---------------------------------------------
relocate_binaries() {
    local want=("python$minor" "python$minor-dev" "python$minor-venv" python3-pip-whl python3-setuptools-whl)
    local suite="" s
    for s in $SUITES; do
        if apt-cache "${apt_opts[@]}" show "python$minor/$s" >/dev/null 2>&1; then suite="$s"; break; fi
    done
    [ -n "$suite" ] || { log "no binary python$minor in $SUITES"; return 1; }
    # The dependency closure against an empty package status, i.e. everything the interpreter
    # needs from that suite (its C library included), downloaded without installing anything.
    local pkgs=()
    mapfile -t pkgs < <(apt-get "${apt_opts[@]}" -t "$suite" -s install --no-install-recommends "${want[@]}" 2>"$work/resolve.log" \
        | awk '/^Inst / {print $2}')
    [ "${#pkgs[@]}" -gt 0 ] || { cat "$work/resolve.log" >&2; return 1; }
    # Compilers, Perl and other headers are this machine's own; only runtime pieces are unpacked.
    local keep=() p
    for p in "${pkgs[@]}"; do
        case "$p" in
            gcc*|g++*|cpp*|binutils*|perl*|linux-libc-dev|rpcsvc-proto|libc6-dev|libcrypt-dev|libgcc-*-dev|libstdc++*-dev|libc-dev-bin|manpages*) ;;
            *-dev) case "$p" in libpython*|python*) keep+=("$p") ;; esac ;;
            *) keep+=("$p") ;;
        esac
    done
    log "fetching ${#keep[@]} binary packages of python$minor from Debian $suite: ${keep[*]}"
    mkdir -p "$work/debs"
    (cd "$work/debs" && apt-get "${apt_opts[@]}" -t "$suite" download -qq "${keep[@]}") >"$work/download.log" 2>&1 \
        || { tail -n 20 "$work/download.log" >&2; return 1; }
    rm -rf "$dest"
    mkdir -p "$dest/root"
    local deb
    for deb in "$work/debs"/*.deb; do dpkg-deb -x "$deb" "$dest/root"; done
    local r="$dest/root" multiarch ld
    multiarch="$(dpkg-architecture -qDEB_HOST_MULTIARCH)"
    ld="$(find "$r/usr/lib" "$r/usr/lib64" "$r/lib" "$r/lib64" -name 'ld-linux*.so.*' -type f 2>/dev/null | head -n 1)"
    [ -n "$ld" ] || { log "no dynamic loader in the unpacked packages"; return 1; }
    # CACHE/TAG/{bin,lib,include,share} are the unpacked /usr, so CACHE/TAG is sys.prefix.
    for d in bin lib include share; do ln -s "root/usr/$d" "$dest/$d"; done
    local libpath="$r/usr/lib/$multiarch:$r/lib/$multiarch"
    for f in "$r/usr/bin/python$minor" "$r/usr/lib/$multiarch"/libpython"$minor"*.so.*; do
        [ -f "$f" ] && [ ! -L "$f" ] || continue
        file -b "$f" 2>/dev/null | grep -q 'dynamically linked' || file -b "$f" | grep -q 'shared object' || continue
        if file -b "$f" | grep -q executable; then patchelf --set-interpreter "$ld" "$f"; fi
        patchelf --force-rpath --set-rpath "$libpath" "$f"
    done
    # Debian's pyconfig.h is a wrapper that includes the multiarch copy by a system path.
    local inc="$r/usr/include/python$minor" plat="$r/usr/include/$multiarch/python$minor/pyconfig.h"
    [ -f "$plat" ] && cp "$plat" "$inc/pyconfig.h"
    # ensurepip reads its wheels from a directory named at build time (/usr/share/python-wheels).
    local sc
    for sc in "$r/usr/lib/python$minor"/_sysconfigdata_*.py; do
        sed -i "s|'/usr/share/python-wheels/\\?'|'$r/usr/share/python-wheels/'|" "$sc"
    done
    echo "Debian $suite binary packages of python$minor, relocated (no source package downloadable)" >"$work/origin"
}

if suite="$(fetch_source)"; then
    build_from_source "$suite" || { log "build of CPython $tag failed"; exit 1; }
elif [ "$freethreaded" = 1 ]; then
    unavailable "CPython $tag cannot be made here: no suite of $SUITES has a downloadable python$minor source package," \
        "and Debian builds no free-threaded interpreter package to fall back on ($(date -u +%FT%TZ))." \
        "Free-threaded interpreters already in $root: $(cd "$root" && ls -d -- *t/READY 2>/dev/null | sed 's|/READY||' | tr '\n' ' ')"
elif [ "${PYTHON_NO_BINARY_FALLBACK:-0}" = 1 ]; then
    unavailable "CPython $tag: no downloadable python$minor source package, and PYTHON_NO_BINARY_FALLBACK=1"
else
    log "no python$minor source package could be downloaded: using Debian's binary packages instead"
    relocate_binaries || unavailable "CPython $tag: neither a source nor binary packages of python$minor could be used"
fi

[ -x "$dest/bin/$exe" ] || { log "no $dest/bin/$exe after the build"; exit 1; }
if ! details="$(check_interpreter "$dest/bin/$exe")"; then
    log "CPython $tag in $dest does not work (see above)"
    exit 1
fi
elapsed=$((SECONDS - start))
{
    echo "$details"
    cat "$work/origin"
    echo "build_seconds=$elapsed"
} >"$dest/READY"
log "CPython $tag ready in ${elapsed}s: $dest/bin/$exe ($details)"
echo "$dest/bin/$exe"
