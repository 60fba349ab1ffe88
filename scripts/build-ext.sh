#!/usr/bin/env bash
# Rebuild the extension in place (src/confluent_kafka/cimpl*.so) when any C source or header is
# newer than it, or when it does not exist yet. Usage: scripts/build-ext.sh [PYTHON]
set -euo pipefail
PYTHON="${1:-python3}"
cd "$(dirname "$0")/.."

so="$(ls -t src/confluent_kafka/cimpl*.so 2>/dev/null | head -n 1 || true)"
if [ -n "$so" ] && [ -z "$(find src/confluent_kafka/src setup.py -newer "$so" -type f 2>/dev/null)" ]; then
    exit 0
fi
echo "build-ext: building confluent_kafka.cimpl" >&2
"$PYTHON" setup.py -q build_ext --inplace --force
