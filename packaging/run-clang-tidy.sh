#!/usr/bin/env bash
# Runs clang-tidy (the checks in .clang-tidy) over every source file of src/ and app/ in the
# build's compile_commands.json. Any finding fails (WarningsAsErrors). README command (b) runs it
# after the tests; run it alone after a build:
#
#   packaging/run-clang-tidy.sh [build-dir]        (default: build/release)
#
# Environment: TIDY_JOBS (default: the number of cores). Needs clang-tidy-14
# (packaging/install-deps.sh installs it).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build/release}"
jobs="${TIDY_JOBS:-$(nproc)}"

if ! command -v run-clang-tidy-14 >/dev/null; then
    echo "run-clang-tidy: run-clang-tidy-14 is missing; run packaging/install-deps.sh" >&2
    exit 1
fi
if [ ! -f "$build/compile_commands.json" ]; then
    echo "run-clang-tidy: $build/compile_commands.json is missing; build first" >&2
    exit 1
fi

echo "== clang-tidy over src/ and app/ ($jobs jobs)"
log="$build/clang-tidy.log"
# The compile commands are GCC's: clang does not know some of its warning options.
if run-clang-tidy-14 -p "$build" -j "$jobs" -quiet \
    -extra-arg=-Wno-unknown-warning-option \
    "^$root/(src|app)/.*\.cpp\$" >"$log" 2>&1 \
    && ! grep -qE "(warning|error): " "$log"; then
    echo "run-clang-tidy: no findings ($(grep -c '^clang-tidy' "$log") files)"
    exit 0
fi
grep -E "(warning|error): " "$log" | sort -u >&2 || true
echo "run-clang-tidy: findings above (full log: $log)" >&2
exit 1
