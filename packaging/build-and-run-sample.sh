#!/usr/bin/env bash
# README command (a): installs the Debian 12 dependencies, builds isoview (Release) and opens the
# viewer on the bundled sample volume (an MR head; its skin surface shows at once). Extra
# arguments go to the viewer, e.g. `--mode both`.
# Without a display (no DISPLAY or WAYLAND_DISPLAY: a server, a container, CI) it runs the same
# viewer on a virtual X server and saves what the window shows to isoview-sample.png instead.
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/install-deps.sh
cmake --preset release
cmake --build --preset release --target isoview
if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
    exec ./build/release/isoview "$@"
fi
echo "build-and-run-sample: no display; rendering the window on Xvfb into isoview-sample.png"
xvfb-run -a -s "-screen 0 1600x1000x24" \
    ./build/release/isoview --window-size 1280x800 --screenshot isoview-sample.png "$@"
