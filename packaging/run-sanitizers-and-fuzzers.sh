#!/usr/bin/env bash
# Builds isoview's loader tests and libFuzzer targets with clang-14, AddressSanitizer and
# UndefinedBehaviorSanitizer in a second build folder (CMake options ISOVIEW_SANITIZE=ON and
# ISOVIEW_BUILD_FUZZERS=ON), runs the loader tests, then runs every fuzzer for a bounded time on
# a scratch copy of its seed corpus (the checked-in corpus is never modified).
#
# Usage: packaging/run-sanitizers-and-fuzzers.sh [repo-root]      (default: this checkout)
# Environment:
#   FUZZ_SECONDS  seconds per fuzzer (default 30)
#   BUILD_DIR     the sanitizer build folder (default <repo-root>/build/sanitize)
#   FUZZERS       which targets to run (default: "nrrd_header metaimage_header raw_file_name dicom")
# Exit status: 0 when the tests pass and no fuzzer found anything; otherwise 1, after running
# everything. Inputs that crash, leak, hang or allocate absurdly are saved under
# <build>/fuzz-artifacts/ with the fuzzer's report in <build>/fuzz-logs/.
# Needs clang-14 and libclang-rt-14-dev (packaging/install-deps.sh installs them).
set -euo pipefail

root="$(cd "${1:-$(dirname "$0")/..}" && pwd)"
build="${BUILD_DIR:-$root/build/sanitize}"
seconds="${FUZZ_SECONDS:-30}"
fuzzers=(${FUZZERS:-nrrd_header metaimage_header raw_file_name dicom})

if ! command -v clang++-14 >/dev/null; then
    echo "run-sanitizers-and-fuzzers: clang++-14 is missing; run packaging/install-deps.sh" >&2
    exit 1
fi

echo "== configure $build (clang-14, ASan + UBSan, fuzzers)"
cmake -S "$root" -B "$build" -G Ninja \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_COMPILER=clang++-14 \
    -DISOVIEW_SANITIZE=ON \
    -DISOVIEW_BUILD_FUZZERS=ON \
    -DISOVIEW_BUILD_BENCHMARKS=OFF \
    -DISOVIEW_BUILD_APP=OFF

targets=(isoview_io_tests)
for f in "${fuzzers[@]}"; do targets+=("fuzz_$f"); done
echo "== build ${targets[*]}"
cmake --build "$build" --target "${targets[@]}"

# Leaks, use after return and every UB report fail the run.
export ASAN_OPTIONS="detect_leaks=1:detect_stack_use_after_return=1:strict_string_checks=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"

status=0
echo "== io tests"
if ! (cd "$build" && ./tests/isoview_io_tests --gtest_brief=1); then
    echo "run-sanitizers-and-fuzzers: io tests FAILED" >&2
    status=1
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$build/fuzz-artifacts" "$build/fuzz-logs"
for f in "${fuzzers[@]}"; do
    corpus="$work/$f"
    cp -r "$root/tests/fuzz/corpus/$f" "$corpus"
    dict=()
    case "$f" in
    nrrd_header) dict=(-dict="$root/tests/fuzz/nrrd.dict") ;;
    metaimage_header) dict=(-dict="$root/tests/fuzz/metaimage.dict") ;;
    esac
    log="$build/fuzz-logs/$f.log"
    binary="$build/tests/fuzz/fuzz_$f"
    [ -x "$binary" ] || binary="$build/fuzz/fuzz_$f"
    echo "== fuzz_$f for ${seconds}s (log: $log)"
    if "$binary" -max_total_time="$seconds" -timeout=25 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$build/fuzz-artifacts/$f-" "${dict[@]}" \
        "$corpus" >"$log" 2>&1; then
        grep -E "DONE|stat::number_of_executed_units" "$log" \
            | sed 's/^/   /' || true
    else
        echo "run-sanitizers-and-fuzzers: fuzz_$f found a problem:" >&2
        grep -E "ERROR:|SUMMARY:|Test unit written" "$log" | sed 's/^/   /' >&2 || true
        status=1
    fi
done

if [ "$status" -eq 0 ]; then
    echo "run-sanitizers-and-fuzzers: io tests passed, no fuzzer findings"
fi
exit "$status"
