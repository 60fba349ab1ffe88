#!/usr/bin/env bash
# Build the extension and run the unit and mock-cluster tiers on every supported CPython, each in
# its own virtualenv (build/matrix/pyX.Y), then print a table of results and timings.
#
#   scripts/matrix.sh                                (make matrix)
#   MATRIX_VERSIONS="3.13 3.14t" scripts/matrix.sh
#
# Several invocations may run at once on different versions (each version has its own directory);
# give each its own MATRIX_RESULTS file (default build/matrix/results.md) for the rows it records.
#
# Interpreters: X.Y is the newest pyenv CPython X.Y.Z when pyenv has one; otherwise, and for
# every free-threaded X.Yt, scripts/install-python.sh builds it once into its cache (see there;
# the build's duration is shown when it happened in this run).
#
# Free-threaded builds: the "GIL" column is sys._is_gil_enabled() right after `import
# confluent_kafka` in a plain interpreter: "off", as the extension declares Py_MOD_GIL_NOT_USED.
# Were an import to turn the GIL back on (an extension without that declaration; CPython then
# prints a RuntimeWarning), the column would say "ON after import". The tests themselves always
# run with the GIL really off (PYTHON_GIL=0, which child interpreters inherit), and the column
# then says so ("tests: GIL off, forced").
# MATRIX_FT_DEFAULT_GIL=1 runs them with the interpreter's default behaviour instead.
#
# Requirements: the test extra from pyproject.toml. A requirement that has no wheel for a new
# interpreter (and would have to be compiled) is left out and listed at the end; the tests that
# need it skip. Exits non-zero if an interpreter is missing, the extension fails to build, or a
# test fails. Logs: build/matrix/pyX.Y/{interpreter,pip,build,test}.log
set -uo pipefail
cd "$(dirname "$0")/.."

VERSIONS="${MATRIX_VERSIONS:-3.10 3.11 3.12 3.13 3.14 3.15 3.13t 3.14t 3.15t}"
PYENV_ROOT="${PYENV_ROOT:-$HOME/.pyenv}"
TIMEOUT_S="${MATRIX_TEST_TIMEOUT:-1200}"
export PKG_CONFIG_PATH="/usr/local/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
PIP=(-m pip install -q --disable-pip-version-check)

log() { printf 'matrix: %s\n' "$*" >&2; }

# The newest pyenv CPython X.Y.Z for a minor version X.Y ("" if none).
pyenv_interpreter() {
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
block = re.sub(r"#.*", "", block)  # comments; several requirements may share a line
for req in re.findall(r'"([^"]+)"', block):
    print(req)
PY
}

# Installs the test requirements into a virtualenv, from wheels only, except that a package with
# no wheel for this interpreter may be built from its sdist alone (pure-Python packages that ship
# only an sdist, such as pyspark) when that takes under $SDIST_TIMEOUT_S seconds. A requirement
# that still cannot be installed is left out and its name printed on stdout.
SDIST_TIMEOUT_S="${MATRIX_SDIST_TIMEOUT:-240}"
# pip can backtrack through every release of a package looking for a wheel: bound each call.
PIP_TIMEOUT_S="${MATRIX_PIP_TIMEOUT:-600}"
install_requirements() {
    local py="$1"; shift
    local reqs=("$@") sources="" out spec name i req kept
    "$py" "${PIP[@]}" --only-binary=:all: 'setuptools>=77' wheel pytest hypothesis || return 1
    for i in 1 2 3 4 5 6 7 8 9 10; do
        if out="$(timeout "$PIP_TIMEOUT_S" "$py" "${PIP[@]}" --only-binary=:all: ${sources:+--no-binary="$sources"} "${reqs[@]}" 2>&1)"; then
            return 0
        fi
        echo "$out" >&2
        spec="$(echo "$out" | sed -n 's/^ERROR: No matching distribution found for //p' | head -n 1)"
        name="$(echo "$spec" | sed 's/[^A-Za-z0-9_.-].*//')"
        [ -n "$name" ] || break
        case ",$sources," in *",$name,"*) break ;; esac
        if timeout "$SDIST_TIMEOUT_S" "$py" "${PIP[@]}" --no-deps --no-binary="$name" "$spec" >&2 2>&1; then
            sources="${sources:+$sources,}$name"
            continue
        fi
        # Not buildable here: leave out the direct requirement that names it.
        kept=()
        for req in "${reqs[@]}"; do
            if [ "$(echo "${req%%[ ;<>=!~\[]*}" | tr 'A-Z_.' 'a-z--')" = "$(echo "$name" | tr 'A-Z_.' 'a-z--')" ]; then
                echo "$name"
            else
                kept+=("$req")
            fi
        done
        [ "${#kept[@]}" -lt "${#reqs[@]}" ] || break
        reqs=("${kept[@]}")
    done
    # A dependency of some requirement has no wheel: one requirement at a time.
    for req in "${reqs[@]}"; do
        timeout "$((PIP_TIMEOUT_S / 4))" "$py" "${PIP[@]}" --only-binary=:all: ${sources:+--no-binary="$sources"} "$req" >&2 2>&1 \
            || echo "${req%%[ ;<>=!~\[]*}"
    done
    return 0
}

# The project is not pip-installed into the virtualenv (the tests import it from src/), so its
# console scripts ([project.scripts]; the CLI tests run `confluent-kafka`) are written here.
console_scripts() {
    "$1" - <<'PY'
import pathlib, re, sys
text = pathlib.Path("pyproject.toml").read_text()
block = re.search(r"^\[project\.scripts\]\n(.*?)(?:^\[|\Z)", text, re.S | re.M).group(1)
for name, target in re.findall(r'^([A-Za-z0-9_.-]+)\s*=\s*"([^"]+)"', block, re.M):
    module, func = target.split(":")
    path = pathlib.Path(sys.prefix) / "bin" / name
    path.write_text(f"#!{sys.executable}\nimport sys\nfrom {module} import {func}\nsys.exit({func}())\n")
    path.chmod(0o755)
PY
}

# sys._is_gil_enabled() after importing the package, and whether the import warned about it.
gil_after_import() {
    local py="$1" out
    out="$(PYTHONPATH="$PWD/src" "$py" -W always -c '
import sys, warnings
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    import confluent_kafka
warned = any("GIL" in str(w.message) for w in caught)
print(("ON" if sys._is_gil_enabled() else "off") + (" warned" if warned else ""))
' 2>&1 | tail -n 1)"
    echo "$out"
}

# Everything below runs from one function, read whole before it starts: editing this file
# while a matrix runs cannot change the run.
main() {
results=()
skipped_reqs=()
failed=0
# Each row is also appended to this file as soon as it is known.
rows="${MATRIX_RESULTS:-build/matrix/results.md}"
mkdir -p build/matrix
: >"$rows"
add_row() { results+=("$1"); printf '%s\n' "$1" >>"$rows"; }
for spec in $VERSIONS; do
    minor="${spec%t}"
    ft=0; [ "$spec" != "$minor" ] && ft=1
    dir="build/matrix/py$spec"
    mkdir -p "$dir"
    py=""; origin=""; interp_s="-"
    if [ "$ft" = 0 ]; then py="$(pyenv_interpreter "$minor")"; origin="pyenv"; fi
    if [ -z "$py" ]; then
        cache="${CFL_PYTHONS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/confluent-kafka-pythons}/$spec"
        fresh=1; [ -f "$cache/READY" ] && fresh=0
        t0=$SECONDS
        py="$(scripts/install-python.sh "$spec" 2>"$dir/interpreter.log")" || py=""
        [ "$fresh" = 1 ] && [ -n "$py" ] && interp_s="$((SECONDS - t0))"
        if [ -z "$py" ]; then
            reason="$(grep -m1 -E 'cannot be made|failed|does not work' "$dir/interpreter.log" | sed 's/^install-python: //; s/:.*//')"
            if grep -q 'no suite of' "$cache/UNAVAILABLE" 2>/dev/null; then
                reason="no python$minor source package downloadable, and Debian builds no free-threaded binary (install-python.sh)"
            fi
            add_row "$spec|-|-|-|-|-|-|-|unavailable: ${reason:-see $dir/interpreter.log}"
            failed=1
            continue
        fi
        origin="built"
        grep -q relocated "$cache/READY" 2>/dev/null && origin="deb"
    fi
    full="$("$py" -c 'import platform; print(platform.python_version())')"
    log "CPython $full ($spec, $origin)"
    venv="$dir/venv"
    if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c '' 2>/dev/null; then
        rm -rf "$venv"
        "$py" -m venv "$venv" >"$dir/pip.log" 2>&1
    fi
    mapfile -t reqs < <(requirements "$py")
    if ! install_requirements "$venv/bin/python" "${reqs[@]}" >"$dir/missing.txt" 2>>"$dir/pip.log"; then
        add_row "$spec|$full|$origin|$interp_s|-|-|-|-|pip failed: see $dir/pip.log"
        failed=1
        continue
    fi
    mapfile -t missing <"$dir/missing.txt"
    for m in "${missing[@]}"; do skipped_reqs+=("$spec:$m"); done
    t0=$SECONDS
    if ! CFL_FORCE_BUILD=1 scripts/build-ext.sh "$venv/bin/python" >"$dir/build.log" 2>&1; then
        err="$(grep -m1 -E 'error:' "$dir/build.log" | sed 's/^ *//' | cut -c1-80)"
        add_row "$spec|$full|$origin|$interp_s|-|-|-|-|build failed: ${err:-see $dir/build.log}"
        failed=1
        continue
    fi
    ext_s="$((SECONDS - t0))"
    console_scripts "$venv/bin/python"
    warnings="$(grep -c 'warning:' "$dir/build.log" || true)"
    env_gil=()
    if [ "$ft" = 1 ]; then
        gil="$(gil_after_import "$venv/bin/python")"
        case "$gil" in
            off) gil="off" ;;
            "ON warned") gil="ON after import (RuntimeWarning)" ;;
            ON) gil="ON after import" ;;
            *) gil="? ($gil)" ;;
        esac
        if [ "${MATRIX_FT_DEFAULT_GIL:-0}" != 1 ]; then
            env_gil=(PYTHON_GIL=0)
            forced="$(PYTHON_GIL=0 PYTHONPATH="$PWD/src" "$venv/bin/python" -c \
                'import confluent_kafka, sys; print("on" if sys._is_gil_enabled() else "off")' 2>/dev/null)"
            [ "$gil" = "off" ] || gil="$gil; tests: GIL $forced, forced"
        fi
    else
        gil="n/a (GIL build)"
    fi
    t0=$SECONDS
    # PYTHONPATH: tests that start a child interpreter need it to find the package too.
    env "${env_gil[@]}" PYTHONPATH="$PWD/src" timeout --foreground --signal=INT --kill-after=30 "$TIMEOUT_S" \
        "$venv/bin/python" -m pytest -p no:cacheprovider -q -o faulthandler_timeout=300 \
        tests/unit tests/mock >"$dir/test.log" 2>&1
    rc=$?
    test_s="$((SECONDS - t0))"
    summary="$(grep -E '^(=+ )?[0-9]+ (passed|failed|error).*' "$dir/test.log" | tail -n 1 | tr -d '=' | sed 's/^ *//; s/ *$//; s/ in [0-9.]*s.*//')"
    [ -n "$summary" ] || summary="no summary (exit $rc)"
    [ "$rc" -eq 0 ] || failed=1
    add_row "$spec|$full|$origin|$interp_s|$ext_s|$warnings|$test_s|$gil|$summary"
done

printf '\n| Python | version | from | interpreter build s | extension build s | warnings | tests s | GIL | unit + mock tiers |\n'
printf '|---|---|---|---|---|---|---|---|---|\n'
for row in "${results[@]}"; do
    IFS='|' read -r spec full origin interp ext warn tests gil summary <<<"$row"
    printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$spec" "$full" "$origin" "$interp" "$ext" "$warn" "$tests" "$gil" "$summary"
done
if [ "${#skipped_reqs[@]}" -gt 0 ]; then
    printf '\nTest requirements without a wheel for that interpreter (not installed; their tests skip):\n'
    printf '%s\n' "${skipped_reqs[@]}" | awk -F: '{a[$1]=a[$1] " " $2} END {for (k in a) print "  " k ":" a[k]}' | sort
fi
return "$failed"
}

main "$@"
exit $?
