#!/usr/bin/env python3
"""End to end: isoview-viewer-bench on the bundled sample prints the lines
packaging/bench-side-by-side.sh parses (the header with the 3D view's size, "every frame" and
"drag at 200 Hz" with their medians and the GUI thread's CPU per frame), sizes the window so that the 3D view is exactly --view,
and refuses malformed options with exit code 2 and a message.

Usage: check_viewer_bench.py ISOVIEW_VIEWER_BENCH      (needs a display: ctest runs under
xvfb-run)
"""

import re
import subprocess
import sys

LINE = re.compile(r"^(every frame|drag at 200 Hz)\s+frames (\d+)\s+median fps ([\d.]+)\s+"
                  r"median frame ([\d.]+) ms.*median age ([\d.]+) ms\s+GUI CPU ([\d.]+) ms/frame"
                  r".*longest GUI block ([\d.]+) ms")


def run(bench, *args):
    return subprocess.run([bench, *args], capture_output=True, text=True, timeout=300)


def check_report(bench, args, expected_view):
    done = run(bench, *args)
    sys.stdout.write(done.stdout)
    sys.stderr.write(done.stderr)
    if done.returncode != 0:
        sys.exit(f"{' '.join(args)}: exited with {done.returncode}")
    header = re.search(r"^volume \S+, view (\d+)x(\d+), mode surface", done.stdout, re.M)
    if not header:
        sys.exit(f"{' '.join(args)}: no 'volume ..., view WxH' line")
    view = (int(header.group(1)), int(header.group(2)))
    if expected_view and view != expected_view:
        sys.exit(f"{' '.join(args)}: the 3D view is {view}, not {expected_view}")
    found = {}
    for line in done.stdout.splitlines():
        m = LINE.match(line)
        if m:
            found[m.group(1)] = (int(m.group(2)), float(m.group(4)), float(m.group(5)),
                                 float(m.group(6)), float(m.group(7)))
    for name in ("every frame", "drag at 200 Hz"):
        if name not in found:
            sys.exit(f"{' '.join(args)}: no '{name}' line")
        frames, frame_ms, age_ms, gui_cpu_ms, block_ms = found[name]
        # The GUI thread repaints the view for every frame: some CPU, and less than the frame;
        # its longest block is at least the 5 ms timer's period.
        if (frames < 5 or not 0.0 < frame_ms < 60000.0 or not 0.0 < age_ms < 60000.0
                or not 0.0 < gui_cpu_ms < 10.0 * frame_ms or not 4.0 < block_ms < 60000.0):
            sys.exit(f"{' '.join(args)}: implausible '{name}': {found[name]}")
    return view


def main():
    bench = sys.argv[1]
    # The default layout (2 x 2) gives the 3D view part of the window; --layout 3d --view
    # makes the view itself the size asked for, whatever the panels around it take.
    grid = check_report(bench, ["--frames", "6", "--size", "900x640"], None)
    alone = check_report(bench, ["--frames", "6", "--layout", "3d", "--view", "960x600"],
                         (960, 600))
    if grid[0] >= 900 or grid[1] >= 640:
        sys.exit(f"the 2 x 2 layout's view {grid} fills the whole 900x640 window")
    print(f"2 x 2 view {grid}, 3D-only view {alone}")

    for bad, says in ((["--view", "700"], "--view expects WxH"),
                      (["--size", "10x10"], "--size expects WxH"),
                      (["--layout", "4x4"], "--layout expects"),
                      (["--mode", "wire"], "--mode expects")):
        done = run(bench, *bad)
        if done.returncode != 2 or says not in done.stderr:
            sys.exit(f"{bad}: exit {done.returncode}, stderr {done.stderr!r}; expected 2 and "
                     f"{says!r}")
    print("malformed options refused")


if __name__ == "__main__":
    main()
