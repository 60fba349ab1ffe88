#!/usr/bin/env bash
# Install the programs that the programs tier (tests/programs) runs unchanged on this package
# (quixstreams, FastStream and OpenTelemetry's aiokafka and kafka-python instrumentations, with
# their dependencies pinned) into a directory of their own for one interpreter.
#
# Usage: scripts/install-programs.sh PYTHON DIR
#
# PYTHON is a virtualenv's interpreter: .venv's (this package), .compat-venv's (upstream 2.16.1)
# or .bench-venv's (the real aiokafka, for FastStream's aiokafka broker). DIR (e.g. .venv/programs)
# receives the programs and every one of their dependencies
# (pip --target), and tests/programs puts it on PYTHONPATH for the programs' processes only: the
# virtualenv itself is left as it was, so no other tier sees quixstreams' dependencies (orjson,
# for one, changes which JSON codec the serdes use). quixstreams declares confluent-kafka<2.13,
# which excludes both this package and upstream 2.16.1, so it is installed with --no-deps and its
# own dependencies come from tests/programs/requirements.txt; DIR is checked to hold no
# confluent_kafka, so the virtualenv's is the one the programs import.
# DIR/.programs-stamp is written on success; a DIR that has it is left alone (idempotent), any
# other DIR is made anew. Fails soft: on failure it says why and exits 0 without the stamp, and
# tests/programs skips, saying so.
set -uo pipefail

PYTHON="${1:?usage: install-programs.sh PYTHON DIR}"
DIR="${2:?usage: install-programs.sh PYTHON DIR}"
HERE="$(cd "$(dirname "$0")/.." && pwd)"
REQS="$HERE/tests/programs/requirements.txt"
NODEPS="$HERE/tests/programs/quixstreams.txt"
STAMP="$DIR/.programs-stamp"

log() { printf 'install-programs: %s\n' "$*" >&2; }
soft_fail() { log "$* -- tests/programs will skip"; rm -rf "$DIR"; exit 0; }

[ -x "$PYTHON" ] || { log "no interpreter at $PYTHON -- tests/programs will skip"; exit 0; }
inputs="$(cat "$REQS" "$NODEPS" | sha256sum | cut -d' ' -f1) $("$PYTHON" -c 'import sys; print(sys.version)' | head -1)"
if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$inputs" ]; then
    exit 0
fi
rm -rf "$DIR"
# pip's closing note that quixstreams wants confluent-kafka<2.13 is expected: left out.
pip_install() {
    "$PYTHON" -m pip install -q --disable-pip-version-check --target "$DIR" "$@" \
        2> >(grep -v -e "dependency resolver does not currently take" -e "^quixstreams .* requires confluent-kafka" >&2)
}
pip_install -r "$REQS" || soft_fail "pip could not install $REQS for $PYTHON"
pip_install --no-deps -r "$NODEPS" || soft_fail "pip could not install $NODEPS for $PYTHON"
for client in confluent_kafka aiokafka kafka; do
    # The client library is the interpreter's (or the facade's): never one a requirement pulled in.
    if [ -e "$DIR/$client" ]; then
        soft_fail "$DIR holds a $client of its own: a requirement pulled it in"
    fi
done
printf '%s\n' "$inputs" > "$STAMP"
log "the programs and their dependencies are in $DIR"
