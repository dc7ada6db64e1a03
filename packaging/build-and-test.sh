#!/usr/bin/env bash
# README command (b): installs the Debian 12 dependencies, checks the code's habits (every C++
# file formatted by .clang-format, none over 900 lines), builds isoview (Release) and runs the
# whole test suite through ctest (the soak included), checks src/ and app/ with clang-tidy, then
# builds all but the viewer again with clang-14 under AddressSanitizer + UndefinedBehaviorSanitizer,
# runs its tests there (all but the soak) and fuzzes every parser for a bounded time
# (run-sanitizers-and-fuzzers.sh: FUZZ_SECONDS, SANITIZE_APP). Needs no display server: the GUI tests run on a virtual one
# (Xvfb) started here; the GL engine tests use headless EGL. Run as root (or with sudo
# available).
set -euo pipefail
cd "$(dirname "$0")/.."
# Each stage says how long it took: CI has 90 minutes, and the log shows where they go.
stage() {
    local name="$1" start=$SECONDS
    shift
    echo "== [stage] $name"
    "$@"
    echo "== [stage] $name: $((SECONDS - start)) s (total $SECONDS s)"
}
stage "dependencies" bash packaging/install-deps.sh
# formatting and file length: fails in seconds, not after the build
stage "code habits" bash packaging/check-code-habits.sh
stage "configure (Release)" cmake --preset release
stage "build (Release)" cmake --build --preset release
stage "tests (Release)" xvfb-run -a -s "-screen 0 1600x1200x24 -noreset" ctest --preset release
stage "clang-tidy" bash packaging/run-clang-tidy.sh build/release
stage "sanitizers and fuzzers" bash packaging/run-sanitizers-and-fuzzers.sh
