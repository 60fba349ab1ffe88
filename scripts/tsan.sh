#!/usr/bin/env bash
# Run the thread stress tests against a ThreadSanitizer build of the extension, on a
# free-threaded CPython (3.13t or later), so that threads really run the C core at once.
# Usage:
#   scripts/tsan.sh [PYTHON] [pytest args...]        (make tsan [TSAN_PYTHON=...])
# PYTHON is a free-threaded interpreter (or a virtualenv of one) that has pytest; by default the
# first python3.14t / python3.13t on PATH. The pytest args default to tests/mock/test_threads_stress.py.
#
# Only the extension is instrumented: CPython and librdkafka are not (no instrumented build of
# either ships anywhere), and the TSan runtime is preloaded into the interpreter. Two things
# follow, both handled here and in compat.h (CFL_TSAN):
# - TSan cannot see the locks CPython takes for us: a critical section's mutex lives in
#   libpython. compat.h marks every critical section's start and end for TSan
#   (__tsan_acquire/__tsan_release on the object), and marks the memory of objects the extension
#   allocates as new (CPython's allocator, mimalloc, reuses memory across threads without TSan
#   seeing it, which would otherwise look like a race with the memory's previous owner).
# - Reports can still come from uninstrumented code through TSan's interceptors (memcpy, free,
#   pthread calls made inside libpython or librdkafka). Those are suppressed by scripts/tsan.supp,
#   which names only CPython's and librdkafka's own functions, never ours.
# - librdkafka uses glibc's C11 threads (thrd_create, mtx_lock...), which bypass the pthread
#   calls TSan intercepts: GCC 12's TSan crashes in librdkafka's first thread. scripts/
#   tsan_c11threads.c, preloaded after the runtime, implements them on the public pthread calls.
# Every report left is read (scripts/tsan_reports.py): one with an access in the extension's
# sources (src/confluent_kafka/src) fails the run, as does a pytest failure; the others are
# counted and kept.
set -euo pipefail
PYTHON="${1:-}"
shift || true
cd "$(dirname "$0")/.."
root="$PWD"
if [ -z "$PYTHON" ]; then
    PYTHON="$(command -v python3.14t || command -v python3.13t || true)"
fi
if [ -z "$PYTHON" ] || ! "$PYTHON" -c 'import sys, sysconfig; sys.exit(0 if sysconfig.get_config_var("Py_GIL_DISABLED") else 1)'; then
    echo "tsan: needs a free-threaded CPython (python3.13t or later) with pytest: scripts/tsan.sh PYTHON" >&2
    exit 2
fi
command -v cmake >/dev/null || { echo "tsan: cmake not found (apt-get install cmake)" >&2; exit 2; }
runtime="$(gcc -print-file-name=libtsan.so)"
[ -e "$runtime" ] || { echo "tsan: the TSan runtime (libtsan) is not installed" >&2; exit 2; }

build="${TSAN_BUILD_DIR:-/tmp/cmk-tsan-$(id -u)}"
export PKG_CONFIG_PATH="/usr/local/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
# The interpreter itself (not a virtualenv's link to it) for CMake's FindPython.
base="$("$PYTHON" -c 'import sys; print(sys._base_executable)')"
cmake -S . -B "$build" -DCFL_TSAN=ON -DPython3_EXECUTABLE="$base" >/dev/null
cmake --build "$build" -j2 >/dev/null
shim="$build/libcfl_c11threads.so"
gcc -std=c11 -O1 -shared -fPIC -o "$shim" scripts/tsan_c11threads.c -lpthread

# The package, with the instrumented module in place of the normal one.
pkg="$(mktemp -d)"
logs="${TSAN_LOG_DIR:-$(mktemp -d)}"
trap 'rm -rf "$pkg"' EXIT
cp -r src/confluent_kafka "$pkg/"
rm -f "$pkg"/confluent_kafka/cimpl*.so
cp "$build"/confluent_kafka/cimpl*.so "$pkg/confluent_kafka/"
echo "tsan: module $(ls "$build"/confluent_kafka/cimpl*.so); reports in $logs" >&2

# exitcode=0: the reports are judged below (tsan_reports.py), not by the process's exit status.
export TSAN_OPTIONS="suppressions=$root/scripts/tsan.supp:log_path=$logs/tsan:halt_on_error=0:exitcode=0:second_deadlock_stack=1:history_size=4${TSAN_EXTRA_OPTIONS:+:$TSAN_EXTRA_OPTIONS}"
export PYTHON_GIL=0  # keep the GIL off whatever a module says

args=("$@")
[ ${#args[@]} -gt 0 ] || args=(tests/mock/test_threads_stress.py)
set +e
# TSan needs its runtime first in the process; ASLR off avoids "unexpected memory mapping" on
# kernels with high mmap entropy.
launcher=()
if command -v setarch >/dev/null && setarch "$(uname -m)" -R true 2>/dev/null; then
    launcher=(setarch "$(uname -m)" -R)
fi
LD_PRELOAD="$runtime $shim" PYTHONPATH="$pkg:$root/tests" \
    "${launcher[@]}" "$PYTHON" -m pytest -p no:cacheprovider -o pythonpath= -q "${args[@]}"
status=$?
set -e

set +e
"$PYTHON" scripts/tsan_reports.py "$logs"
reports=$?
set -e
echo "tsan: pytest exit $status" >&2
[ "$status" -eq 0 ] && [ "$reports" -eq 0 ]
