#!/usr/bin/env bash
# Fails when the executable loads an OpenGL, EGL or GL-loader library (ldd lists what the
# dynamic linker would load, transitively). Usage: check_no_gl_libraries.sh EXECUTABLE
set -euo pipefail
exe="$1"
libs="$(ldd "$exe")"
found="$(grep -Ei 'lib(GL|EGL|GLX|OpenGL|GLdispatch|epoxy|gbm)[.-]' <<<"$libs" || true)"
if [ -n "$found" ]; then
    echo "$exe loads GL libraries:" >&2
    echo "$found" >&2
    exit 1
fi
echo "$(basename "$exe"): $(wc -l <<<"$libs") libraries, none of them GL"
