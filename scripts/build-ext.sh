#!/usr/bin/env bash
# Rebuild the extension in place (src/confluent_kafka/cimpl.<abi>.so for the given Python) when
# any C source or header is newer than it, or when it does not exist yet.
# Usage: scripts/build-ext.sh [PYTHON]      (CFL_FORCE_BUILD=1 rebuilds even when up to date)
# Each interpreter gets its own module (the file name carries its ABI tag), so builds for
# several Python versions live side by side. The new module replaces the old one by rename,
# never by rewriting it: a process that has the old one loaded keeps a consistent copy.
set -euo pipefail
PYTHON="${1:-python3}"
cd "$(dirname "$0")/.."

suffix="$("$PYTHON" -c 'import importlib.machinery as m; print(m.EXTENSION_SUFFIXES[0])')"
so="src/confluent_kafka/cimpl$suffix"
if [ -z "${CFL_FORCE_BUILD:-}" ] && [ -f "$so" ] && [ -z "$(find src/confluent_kafka/src setup.py -newer "$so" -type f 2>/dev/null)" ]; then
    exit 0
fi
echo "build-ext: building confluent_kafka.cimpl for $("$PYTHON" -c 'import platform; print(platform.python_version())')" >&2
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
"$PYTHON" setup.py -q build_ext --force --build-temp "$out/tmp" --build-lib "$out/lib" >/dev/null
built="$out/lib/confluent_kafka/cimpl$suffix"
cp "$built" "$so.tmp.$$"
mv -f "$so.tmp.$$" "$so"
