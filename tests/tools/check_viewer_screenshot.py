#!/usr/bin/env python3
"""End to end: runs `isoview --screenshot FILE` (the viewer opens the bundled sample, shows its
surface and saves the window), then reads the PNG with VTK's vtkPNGReader, an implementation
independent of Qt's, and checks its size and that it shows something (the window is not one
flat colour and the 3D view's area holds many distinct colours). Then `--mode mip --screenshot
FILE --size 800x450 --transparent`: the 3D view alone at that size, whatever the window's, its
background transparent and the maximum intensity projection grey and opaque.

Usage: check_viewer_screenshot.py ISOVIEW OUT.png      (needs a display: ctest runs under xvfb-run)
"""

import os
import subprocess
import sys


def main():
    isoview, out = sys.argv[1], sys.argv[2]
    width, height, pixels = shoot(isoview, out, ["--window-size", "960x600"])
    if (width, height) != (960, 600):
        sys.exit(f"screenshot is {width}x{height}, expected the 960x600 window")
    # The 3D view is the left part of the window; the head sits in its middle.
    view = pixels[height // 4: 3 * height // 4, width // 8: width // 2, :3]
    distinct = len({tuple(p) for p in view.reshape(-1, 3)[::7]})
    print(f"screenshot {width}x{height}, {distinct} distinct colours in the view's centre")
    if distinct < 200:
        sys.exit("the 3D view looks empty (too few distinct colours)")

    width, height, pixels = shoot(isoview, out, ["--window-size", "960x600", "--mode", "mip",
                                                 "--size", "800x450", "--transparent"])
    if (width, height) != (800, 450) or pixels.shape[2] != 4:
        sys.exit(f"the picture is {width}x{height} with {pixels.shape[2]} channels, "
                 "expected 800x450 RGBA")
    corners = [pixels[0, 0], pixels[0, -1], pixels[-1, 0], pixels[-1, -1]]
    if any(int(c[3]) != 0 for c in corners):
        sys.exit(f"the background is not transparent: corners {corners}")
    centre = pixels[height // 2 - 20: height // 2 + 20, width // 2 - 20: width // 2 + 20]
    opaque = centre[centre[:, :, 3] == 255]
    if len(opaque) < 0.9 * centre.shape[0] * centre.shape[1]:
        sys.exit("the projection in the picture's centre is not opaque")
    if not (opaque[:, 0] == opaque[:, 1]).all() or not (opaque[:, 1] == opaque[:, 2]).all():
        sys.exit("the maximum intensity projection is not grey")
    if len({int(v) for v in opaque[:, 0]}) < 10:
        sys.exit("the maximum intensity projection shows no structure")
    print(f"MIP picture {width}x{height}, transparent corners, "
          f"{len(opaque)} opaque grey pixels in its centre")


def shoot(isoview, out, arguments):
    """Runs isoview --screenshot with the arguments; the PNG as (width, height, pixels)."""
    if os.path.exists(out):
        os.remove(out)
    run = subprocess.run([isoview, "--screenshot", out] + arguments,
                         capture_output=True, text=True, timeout=300)
    sys.stdout.write(run.stdout)
    sys.stderr.write(run.stderr)
    if run.returncode != 0:
        sys.exit(f"isoview {' '.join(arguments)} exited with {run.returncode}")
    if not os.path.exists(out):
        sys.exit("isoview reported success but wrote no screenshot")

    from vtkmodules.vtkIOImage import vtkPNGReader
    from vtkmodules.util.numpy_support import vtk_to_numpy
    reader = vtkPNGReader()
    reader.SetFileName(out)
    reader.Update()
    image = reader.GetOutput()
    width, height, _ = image.GetDimensions()
    pixels = vtk_to_numpy(image.GetPointData().GetScalars()).reshape(height, width, -1)
    return width, height, pixels


if __name__ == "__main__":
    main()
