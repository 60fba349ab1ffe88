#!/usr/bin/env bash
# Build the extension and run the unit and mock-cluster tiers on every CPython 3.9-3.13 this
# machine has under pyenv, each in its own virtualenv (build/matrix/py3.X), then print a table.
#
#   scripts/matrix.sh                  (make matrix)
#   MATRIX_VERSIONS="3.9 3.13" scripts/matrix.sh
#
# The newest installed patch release of each minor version is used. Exits non-zero if any
# version is missing, fails to build, or fails a test. Logs: build/matrix/py3.X/{build,test}.log
set -uo pipefail
cd "$(dirname "$0")/.."

VERSIONS="${MATRIX_VERSIONS:-3.9 3.10 3.11 3.12 3.13}"
PYENV_ROOT="${PYENV_ROOT:-$HOME/.pyenv}"
TIMEOUT_S="${MATRIX_TEST_TIMEOUT:-1200}"
export PKG_CONFIG_PATH="/usr/local/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
PIP=(-m pip install -q --disable-pip-version-check)

log() { printf 'matrix: %s\n' "$*" >&2; }

# The newest pyenv CPython X.Y.Z for a minor version X.Y ("" if none).
interpreter() {
    local minor="$1" best=""
    for d in "$PYENV_ROOT"/versions/"$minor".*; do
        [[ -x "$d/bin/python$minor" && "$(basename "$d")" =~ ^$minor\.[0-9]+$ ]] || continue
        best="$(printf '%s\n%s\n' "$best" "$(basename "$d")" | sort -V | tail -n 1)"
    done
    [ -n "$best" ] && echo "$PYENV_ROOT/versions/$best/bin/python$minor"
}

# The test extra's requirements, read from pyproject.toml (markers are kept for pip).
requirements() {
    "$1" - <<'PY'
import re, pathlib
text = pathlib.Path("pyproject.toml").read_text()
block = re.search(r"^test = \[(.*?)^\]", text, re.S | re.M).group(1)
for req in re.findall(r'^\s*"([^"]+)",?\s*$', block, re.M):
    print(req)
PY
}

results=()
failed=0
for minor in $VERSIONS; do
    py="$(interpreter "$minor")"
    dir="build/matrix/py$minor"
    mkdir -p "$dir"
    if [ -z "$py" ]; then
        results+=("$minor|-|not installed|-")
        failed=1
        continue
    fi
    full="$("$py" -c 'import platform; print(platform.python_version())')"
    log "CPython $full"
    venv="$dir/venv"
    [ -x "$venv/bin/python" ] || "$py" -m venv "$venv" >"$dir/build.log" 2>&1
    mapfile -t reqs < <(requirements "$py")
    if ! { "$venv/bin/python" "${PIP[@]}" 'setuptools>=77' wheel "${reqs[@]}" \
            && CFL_FORCE_BUILD=1 scripts/build-ext.sh "$venv/bin/python"; } >>"$dir/build.log" 2>&1; then
        results+=("$minor|$full|build failed|see $dir/build.log")
        failed=1
        continue
    fi
    warnings="$(grep -c 'warning:' "$dir/build.log" || true)"
    # PYTHONPATH: tests that start a child interpreter need it to find the package too.
    PYTHONPATH="$PWD/src" timeout --foreground --signal=INT --kill-after=30 "$TIMEOUT_S" \
        "$venv/bin/python" -m pytest -p no:cacheprovider -q -o faulthandler_timeout=300 \
        tests/unit tests/mock >"$dir/test.log" 2>&1
    rc=$?
    summary="$(grep -E '^(=+ )?[0-9]+ (passed|failed).*' "$dir/test.log" | tail -n 1 | tr -d '=' | sed 's/^ *//; s/ *$//')"
    [ -n "$summary" ] || summary="no summary (exit $rc)"
    [ "$rc" -eq 0 ] || failed=1
    results+=("$minor|$full|$summary|$warnings compiler warnings")
done

printf '\n%-6s %-8s %-45s %s\n' "Python" "version" "unit + mock tiers" "build"
for row in "${results[@]}"; do
    IFS='|' read -r minor full summary extra <<<"$row"
    printf '%-6s %-8s %-45s %s\n' "$minor" "$full" "$summary" "$extra"
done
exit "$failed"
