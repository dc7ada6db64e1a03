#!/usr/bin/env bash
# README command (b): installs the Debian 12 dependencies, checks the code's habits (every C++
# file formatted by .clang-format, none over 900 lines), builds isoview (Release) and runs the
# whole test suite through ctest (the soak included), checks src/ and app/ with clang-tidy, then
# builds everything again with clang-14 under AddressSanitizer + UndefinedBehaviorSanitizer,
# runs the whole suite there (all but the soak) and fuzzes every parser for a bounded time
# (FUZZ_SECONDS, default 30 each). Needs no display server: the GUI tests run on a virtual one
# (Xvfb) started here; the GL engine tests use headless EGL. Run as root (or with sudo
# available).
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/install-deps.sh
bash packaging/check-code-habits.sh # formatting and file length: fails in seconds, not after the build
cmake --preset release
cmake --build --preset release
xvfb-run -a -s "-screen 0 1600x1200x24 -noreset" ctest --preset release
bash packaging/run-clang-tidy.sh build/release
bash packaging/run-sanitizers-and-fuzzers.sh
