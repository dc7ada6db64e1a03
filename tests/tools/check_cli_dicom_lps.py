#!/usr/bin/env python3
"""End-to-end check that isoview-cli's mesh from a DICOM folder sits in patient LPS millimetres.

Usage (run by ctest): check_cli_dicom_lps.py ISOVIEW_CLI CT_FOLDER OUT.ply

Extracts the 300 HU surface of the Philips CT head phantom folder (28 axial slices, files
named I10..I280 so that lexical order is not slice order) and reads the PLY back with VTK's
vtkPLYReader. Per ../shared/data/README.md the slices lie at z = 696.21 .. 831.21 mm with
0.451171875 mm pixels: the mesh must lie inside those patient coordinates (index coordinates
would start at 0), span most of them, say SPACE=LPS units=mm, and have the counts the CLI
printed.
"""

import os
import re
import subprocess
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import read_ply_vtk  # noqa: E402

Z_FIRST, Z_LAST = 696.21, 831.21   # slice positions from the data README
IN_PLANE_EXTENT = 511 * 0.451171875  # mm across 512 pixels
TOLERANCE = 0.01


def fail(message):
    print("FAIL: " + message, file=sys.stderr)
    sys.exit(1)


def main(argv):
    if len(argv) != 4:
        sys.exit("usage: check_cli_dicom_lps.py ISOVIEW_CLI CT_FOLDER OUT.ply")
    read_ply_vtk.ensure_vtk()
    cli, folder, out = argv[1:]
    if os.path.exists(out):
        os.remove(out)
    run = subprocess.run([cli, folder, "--iso", "300", "-o", out], capture_output=True,
                         text=True, timeout=300)
    if run.returncode != 0:
        fail("isoview-cli exited %d: %s" % (run.returncode, run.stderr))
    counts = dict(re.findall(r"^(triangles|vertices): (\d+)$", run.stdout, re.M))
    if len(counts) != 2:
        fail("isoview-cli did not print triangles and vertices:\n" + run.stdout)

    with open(out, "rb") as f:
        header = f.read(512).split(b"end_header")[0].decode("ascii", "replace")
    if "SPACE=LPS units=mm" not in header:
        fail("the PLY header does not state LPS millimetres:\n" + header)

    from vtkmodules.vtkIOPLY import vtkPLYReader
    reader = vtkPLYReader()
    reader.SetFileName(out)
    reader.Update()
    mesh = reader.GetOutput()
    if mesh.GetNumberOfPoints() != int(counts["vertices"]) or \
            mesh.GetNumberOfCells() != int(counts["triangles"]):
        fail("VTK read %d points / %d cells, the CLI printed %s" %
             (mesh.GetNumberOfPoints(), mesh.GetNumberOfCells(), counts))
    x0, x1, y0, y1, z0, z1 = mesh.GetBounds()
    print("bounds x %.2f..%.2f y %.2f..%.2f z %.2f..%.2f" % (x0, x1, y0, y1, z0, z1))
    if z0 < Z_FIRST - TOLERANCE or z1 > Z_LAST + TOLERANCE:
        fail("z %.2f..%.2f leaves the slices' positions %.2f..%.2f" % (z0, z1, Z_FIRST, Z_LAST))
    if z1 - z0 < 0.75 * (Z_LAST - Z_FIRST):
        fail("the surface spans only %.1f mm of the %.1f mm stack" % (z1 - z0, Z_LAST - Z_FIRST))
    if x1 - x0 > IN_PLANE_EXTENT + TOLERANCE or y1 - y0 > IN_PLANE_EXTENT + TOLERANCE:
        fail("the surface is wider than the 512-pixel field of view")
    print("ok: %s triangles in patient LPS mm" % counts["triangles"])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
