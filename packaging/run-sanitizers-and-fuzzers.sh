#!/usr/bin/env bash
# Builds isoview's engine, loaders, CLI and their tests (the viewer and its GUI tests too with
# SANITIZE_APP=1) and the libFuzzer targets with clang-14, AddressSanitizer and
# UndefinedBehaviorSanitizer in a second build folder (CMake options ISOVIEW_SANITIZE=ON and
# ISOVIEW_BUILD_FUZZERS=ON), runs those tests there (GL tests on llvmpipe through EGL, GUI tests
# under Xvfb; the soak, label "soak", is left to the Release run, where it measures memory
# without the sanitizers' own), then runs every fuzzer for a bounded time on a scratch copy of
# its seed corpus (the checked-in corpus is never modified).
#
# Why CI leaves the viewer out: CI has 90 minutes, and the viewer's build and GUI tests under
# the sanitizers cost about 8 of them; the Release run tests it whole. A session that changes
# app/ runs this script with SANITIZE_APP=1 before it stops.
#
# Usage: packaging/run-sanitizers-and-fuzzers.sh [repo-root]      (default: this checkout)
# Environment:
#   FUZZ_SECONDS  seconds per fuzzer (default 10: CI's share; the seed corpora are also
#                 replayed by ctest in every build; run longer when a parser changes)
#   SANITIZE_APP  1: build and test the viewer (app/) under the sanitizers too (default 0)
#   BUILD_DIR     the sanitizer build folder (default <repo-root>/build/sanitize)
#   FUZZERS       which targets to run (default: every fuzz_* target tests/fuzz builds)
#   CTEST_ARGS    extra ctest arguments (e.g. "-R io" while working on the loaders)
# Exit status: 0 when the tests pass and no fuzzer found anything; otherwise 1, after running
# everything. Inputs that crash, leak, hang or allocate absurdly are
# saved under <build>/fuzz-artifacts/ with the fuzzer's report in <build>/fuzz-logs/.
# Needs clang-14, libclang-rt-14-dev, llvm-14 (llvm-symbolizer), libc6-dbg and xvfb
# (packaging/install-deps.sh installs them).
set -euo pipefail

root="$(cd "${1:-$(dirname "$0")/..}" && pwd)"
build="${BUILD_DIR:-$root/build/sanitize}"
seconds="${FUZZ_SECONDS:-10}"
app="$([ "${SANITIZE_APP:-0}" = 1 ] && echo ON || echo OFF)"

if ! command -v clang++-14 >/dev/null; then
    echo "run-sanitizers-and-fuzzers: clang++-14 is missing; run packaging/install-deps.sh" >&2
    exit 1
fi
# The leak suppressions (tests/sanitizers/lsan.supp) name functions, so stacks must be
# symbolized: without llvm-symbolizer the library-held blocks they name are reported as leaks.
symbolizer=/usr/lib/llvm-14/bin/llvm-symbolizer
[ -x "$symbolizer" ] || {
    echo "run-sanitizers-and-fuzzers: $symbolizer is missing (Debian package llvm-14;" \
        "packaging/install-deps.sh installs it)" >&2
    exit 1
}
export ASAN_SYMBOLIZER_PATH="$symbolizer"
# Debian's dynamic loader is stripped: the symbolizer finds its function names
# (_dl_map_object_deps, add_to_global_resize, ...) only in libc6-dbg's detached symbols.
if [ "$(dpkg-query -W -f='${Status}' libc6-dbg 2>/dev/null)" != "install ok installed" ]; then
    echo "run-sanitizers-and-fuzzers: libc6-dbg is missing (the dynamic loader's symbols, which" \
        "the leak suppressions name; packaging/install-deps.sh installs it)" >&2
    exit 1
fi

echo "== configure $build (clang-14, ASan + UBSan, fuzzers; the viewer: $app)"
cmake -S "$root" -B "$build" -G Ninja \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
    -DCMAKE_CXX_COMPILER=clang++-14 \
    -DISOVIEW_SANITIZE=ON \
    -DISOVIEW_BUILD_FUZZERS=ON \
    -DISOVIEW_BUILD_BENCHMARKS=OFF \
    -DISOVIEW_BUILD_APP="$app"

echo "== build everything"
cmake --build "$build"
# Every fuzz target the build made, unless FUZZERS names some: a new parser's fuzzer runs
# without anyone having to list it here.
default_fuzzers="$(find "$build/tests/fuzz" -maxdepth 1 -type f -executable -name 'fuzz_*' \
    -printf '%f\n' | sed 's/^fuzz_//' | sort | tr '\n' ' ')"
fuzzers=(${FUZZERS:-$default_fuzzers})
[ "${#fuzzers[@]}" -gt 0 ] || { echo "run-sanitizers-and-fuzzers: no fuzz targets built" >&2; exit 1; }

# Leaks, use after return and every UB report fail the run.
export ASAN_OPTIONS="detect_leaks=1:detect_stack_use_after_return=1:strict_string_checks=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
# Only leaks that libraries outside isoview keep until exit (each entry says why).
# use_tls=0: clang-14's leak checker reads glibc 2.36's dynamic TLS vector wrongly once enough
# loaded libraries have TLS (a bogus "DTLS 15 at 0x1575-0x1800002677", then "Tracer caught signal
# 11" and a failed test at exit, in about half the runs of a GL test); without TLS scanning, what
# libraries hold only through their thread-local pointers shows as leaks, suppressed by name.
export LSAN_OPTIONS="suppressions=$root/tests/sanitizers/lsan.supp:print_suppressions=0:use_tls=0"

# Libraries stay loaded in the test run (tests/sanitizers/keep_libraries_loaded.cpp says why).
keep_loaded="$build/keep_libraries_loaded.so"
c++ -shared -fPIC -O2 -o "$keep_loaded" "$root/tests/sanitizers/keep_libraries_loaded.cpp"

status=0
echo "== the test suite under ASan + UBSan (the viewer's: $app)"
# Two options differ from the fuzzers' here: strict_string_checks is off because libxkbcommon
# (under Qt's xcb platform) calls strndup on a buffer that is not NUL-terminated, which is valid
# C but what that option reports; allocator_may_return_null is on because the GPU
# out-of-memory tests make llvmpipe's allocations fail, and a driver must see NULL there as it
# would without the sanitizer (new still throws std::bad_alloc).
# shellcheck disable=SC2086 # CTEST_ARGS is a list of arguments
if ! ASAN_OPTIONS="detect_leaks=1:detect_stack_use_after_return=1:allocator_may_return_null=1" \
    LD_PRELOAD="$keep_loaded" \
    xvfb-run -a -s "-screen 0 1600x1200x24 -noreset" \
    ctest --test-dir "$build" --output-on-failure -j2 -LE soak ${CTEST_ARGS:-}; then
    echo "run-sanitizers-and-fuzzers: tests FAILED under the sanitizers" >&2
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
    transfer_function_json | session_json) dict=(-dict="$root/tests/fuzz/json.dict") ;;
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
    echo "run-sanitizers-and-fuzzers: the suite passed under ASan + UBSan, no fuzzer findings"
fi
exit "$status"
