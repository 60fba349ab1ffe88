#!/usr/bin/env bash
# Rebuild the extension in place (src/confluent_kafka/cimpl*.so) when any C source or header is
# newer than it, or when it does not exist yet. Usage: scripts/build-ext.sh [PYTHON]
# The new module replaces the old one by rename, never by rewriting it: a process that has the
# old one loaded keeps a consistent copy instead of crashing.
set -euo pipefail
PYTHON="${1:-python3}"
cd "$(dirname "$0")/.."

so="$(ls -t src/confluent_kafka/cimpl*.so 2>/dev/null | head -n 1 || true)"
if [ -n "$so" ] && [ -z "$(find src/confluent_kafka/src setup.py -newer "$so" -type f 2>/dev/null)" ]; then
    exit 0
fi
echo "build-ext: building confluent_kafka.cimpl" >&2
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
"$PYTHON" setup.py -q build_ext --force --build-lib "$out" >/dev/null
for built in "$out"/confluent_kafka/cimpl*.so; do
    dest="src/confluent_kafka/$(basename "$built")"
    cp "$built" "$dest.tmp.$$"
    mv -f "$dest.tmp.$$" "$dest"
done
