#!/usr/bin/env bash
# Install the Debian packages needed to build the extension and make a virtualenv.
# Only missing packages are installed, and `apt-get update` runs only when something is missing.
# Usage: scripts/install-system-deps.sh [PYTHON]   (the interpreter the virtualenv will use)
set -euo pipefail

PYTHON="${1:-python3}"

log() { printf 'install-system-deps: %s\n' "$*" >&2; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

wanted=(build-essential pkg-config)
# The native benchmark baseline and the sanitizer build use CMake.
command -v cmake >/dev/null 2>&1 || wanted+=(cmake)
# A Debian-packaged interpreter needs its venv and header packages; a self-built one has both.
if ! "$PYTHON" -c 'import venv, ensurepip' >/dev/null 2>&1; then
    wanted+=(python3-venv)
fi
if ! "$PYTHON" -c 'import os, sysconfig, sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' >/dev/null 2>&1; then
    wanted+=(python3-dev)
fi

missing=()
for p in "${wanted[@]}"; do installed "$p" || missing+=("$p"); done
if [ "${#missing[@]}" -eq 0 ]; then
    exit 0
fi
log "installing ${missing[*]}"
as_root apt-get update -qq
as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
