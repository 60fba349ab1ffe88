#!/usr/bin/env bash
# Run the unit and mock test tiers against an AddressSanitizer + UndefinedBehaviorSanitizer
# build of the extension, with LeakSanitizer on. Usage:
#   scripts/sanitize.sh [PYTHON] [pytest args...]     (make sanitize)
# The pytest args default to the unit and mock tiers: tests/unit tests/mock.
# Reports from CPython's own allocations and librdkafka's internals are suppressed
# (scripts/lsan.supp); a report in the project's code (src/confluent_kafka/src) fails the run.
# SANITIZE_LEAKS=0 turns leak detection off (ASan and UBSan only).
set -euo pipefail
PYTHON="${1:-.venv/bin/python}"
shift || true
cd "$(dirname "$0")/.."
root="$PWD"
build="${SANITIZE_BUILD_DIR:-/tmp/cmk-rel-$(id -u)}"
export PKG_CONFIG_PATH="/usr/local/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"

cmake -S . -B "$build" -DCFL_SANITIZE=ON -DPython3_EXECUTABLE="$(command -v "$PYTHON" || echo "$PYTHON")" >/dev/null
cmake --build "$build" -j2 >/dev/null

# The package, with the sanitized module in place of the normal one.
pkg="$(mktemp -d)"
logs="$(mktemp -d)"
trap 'rm -rf "$pkg"' EXIT
cp -r src/confluent_kafka "$pkg/"
rm -f "$pkg"/confluent_kafka/cimpl*.so
cp "$build"/confluent_kafka/cimpl*.so "$pkg/confluent_kafka/"

leaks="${SANITIZE_LEAKS:-1}"
# intercept_tls_get_addr=0: the __tls_get_addr interceptor of GCC <= 13's (and LLVM <= 16's)
# sanitizer runtime takes a dynamic TLS block whose address is 16 bytes past a 4 KiB boundary,
# which malloc gives now and then, for a glibc 2.19 block with a header, and records a range read
# from the two words before it. LeakSanitizer's tracer then dies on that range at exit ("Tracer
# caught signal 11", "DTLS ... at 0x000000001a38-0x002000002b3a" with log_threads=1), and the
# process leaves with LSan's exit code in place of its own: on GCC 12 / glibc 2.36, 2 of 37
# sanitized runs of tests/mock/test_cli_pipe.py's interrupted pipeline on a loaded machine ended
# "status 0 130" that way (google/sanitizers#1322). The blocks stay reachable without it: glibc
# allocates them with malloc and points at them from each thread's DTV, which the static TLS that
# LeakSanitizer scans points at.
export ASAN_OPTIONS="detect_leaks=$leaks:log_path=$logs/asan:abort_on_error=0:halt_on_error=1:intercept_tls_get_addr=0"
export LSAN_OPTIONS="suppressions=$root/scripts/lsan.supp:print_suppressions=0:exitcode=0"
export UBSAN_OPTIONS="print_stacktrace=1:log_path=$logs/ubsan"
export PYTHONMALLOC=malloc  # let ASan see every Python allocation
echo "sanitize: module $(ls "$build"/confluent_kafka/cimpl*.so); reports in $logs" >&2

args=("$@")
[ ${#args[@]} -gt 0 ] || args=(tests/unit tests/mock)
set +e
LD_PRELOAD="$(gcc -print-file-name=libasan.so)" PYTHONPATH="$pkg:$root/tests" \
    "$PYTHON" -m pytest -p no:cacheprovider -o pythonpath= -q "${args[@]}"
status=$?
set -e

# How many report files hold $1; each is shown on stderr, as "$2: FILE" and its first $3 lines.
reports_with() {
    local n=0 f
    for f in "$logs"/*; do
        [ -e "$f" ] || continue
        if grep -q "$1" "$f"; then
            echo "sanitize: $2: $f" >&2
            sed -n "1,${3}p" "$f" >&2
            n=$((n + 1))
        fi
    done
    echo "$n"
}
# Reports that name the project's sources are ours; the rest belong to CPython or librdkafka.
ours=$(reports_with "src/confluent_kafka/src/" "report in the project's code" 60)
# A LeakSanitizer that died (rather than reported) replaced its process's exit status with its
# own (0 here, LSAN_OPTIONS exitcode): a test that checked a child's status, or pytest's own
# status, can no longer be trusted. Say so, and fail.
crashed=$(reports_with "LeakSanitizer has encountered a fatal error" \
    "LeakSanitizer died in a process, which then exited with its status" 20)
total=$(ls "$logs" | wc -l)
echo "sanitize: pytest exit $status; $total report file(s), $ours naming src/confluent_kafka/src, $crashed LeakSanitizer crash(es)" >&2
[ "$status" -eq 0 ] && [ "$ours" -eq 0 ] && [ "$crashed" -eq 0 ]
