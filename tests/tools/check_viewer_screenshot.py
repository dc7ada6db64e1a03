#!/usr/bin/env python3
"""End to end: runs `isoview --screenshot FILE` (the viewer opens the bundled sample, shows its
surface and saves the window), then reads the PNG with VTK's vtkPNGReader, an implementation
independent of Qt's, and checks its size and that it shows something (the window is not one
flat colour and the 3D view's area holds many distinct colours).

Usage: check_viewer_screenshot.py ISOVIEW OUT.png      (needs a display: ctest runs under xvfb-run)
"""

import os
import subprocess
import sys


def main():
    isoview, out = sys.argv[1], sys.argv[2]
    if os.path.exists(out):
        os.remove(out)
    run = subprocess.run([isoview, "--size", "960x600", "--screenshot", out],
                         capture_output=True, text=True, timeout=300)
    sys.stdout.write(run.stdout)
    sys.stderr.write(run.stderr)
    if run.returncode != 0:
        sys.exit(f"isoview exited with {run.returncode}")
    if not os.path.exists(out):
        sys.exit("isoview reported success but wrote no screenshot")

    from vtkmodules.vtkIOImage import vtkPNGReader
    from vtkmodules.util.numpy_support import vtk_to_numpy
    reader = vtkPNGReader()
    reader.SetFileName(out)
    reader.Update()
    image = reader.GetOutput()
    width, height, _ = image.GetDimensions()
    if (width, height) != (960, 600):
        sys.exit(f"screenshot is {width}x{height}, expected the 960x600 window")
    pixels = vtk_to_numpy(image.GetPointData().GetScalars()).reshape(height, width, -1)
    # The 3D view is the left part of the window; the head sits in its middle.
    view = pixels[height // 4: 3 * height // 4, width // 8: width // 2, :3]
    distinct = len({tuple(p) for p in view.reshape(-1, 3)[::7]})
    print(f"screenshot {width}x{height}, {distinct} distinct colours in the view's centre")
    if distinct < 200:
        sys.exit("the 3D view looks empty (too few distinct colours)")


if __name__ == "__main__":
    main()
