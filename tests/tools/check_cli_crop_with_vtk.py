#!/usr/bin/env python3
"""isoview-cli --crop judged by VTK: the cropped surface has as many welded vertices as VTK's
Flying Edges finds on the same voxels (vtkExtractVOI of the same inclusive ranges), for boxes
inside the sample and touching its faces; a box beyond the volume is a clear error.

Usage (run by ctest): check_cli_crop_with_vtk.py ISOVIEW_CLI SAMPLE_XxYxZ_uint16.raw

Every crossed grid edge carries one vertex in both (isoview welds by grid edge, Flying Edges
generates one point per crossed edge), so the counts must be equal. The isovalue is not an
integer, so no voxel equals it and no inside rule can differ.
"""

import os
import re
import sys

sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import read_ply_vtk  # noqa: E402
from cli_runner import fail, run, run_ok  # noqa: E402

ISO = 40.5
BOXES = [(10, 100, 0, 127, 20, 60), (0, 127, 0, 127, 0, 84), (33, 34, 5, 90, 7, 70),
         (64, 127, 64, 127, 42, 84)]
CLI_TIMEOUT_S = 300


def crop_command(cli, sample, box):
    return [cli, sample, "--iso", str(ISO), "--crop"] + [str(n) for n in box]


def vtk_points(sample, box):
    import numpy as np
    import vtk
    from vtk.util.numpy_support import numpy_to_vtk
    dims = [int(n) for n in re.search(r"_(\d+)x(\d+)x(\d+)_uint16", sample).groups()]
    data = np.fromfile(sample, dtype="<u2")
    image = vtk.vtkImageData()
    image.SetDimensions(*dims)
    image.GetPointData().SetScalars(numpy_to_vtk(data.astype(np.float32), deep=True))
    voi = vtk.vtkExtractVOI()
    voi.SetInputData(image)
    voi.SetVOI(*box)
    surface = vtk.vtkFlyingEdges3D()
    surface.SetInputConnection(voi.GetOutputPort())
    surface.SetValue(0, ISO)
    surface.ComputeNormalsOff()
    surface.Update()
    return surface.GetOutput().GetNumberOfPoints()


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    cli, sample = argv[1:]
    read_ply_vtk.ensure_vtk()  # may re-run this script under the Python that has VTK
    for box in BOXES:
        result = run_ok(crop_command(cli, sample, box), CLI_TIMEOUT_S, " for --crop %s" % (box,))
        found = re.findall(r"^vertices:\s*(\d+)$", result.stdout, re.MULTILINE)
        if len(found) != 1:
            fail("expected one 'vertices: N' line")
        ours = int(found[0])
        theirs = vtk_points(sample, box)
        print("crop %s: isoview %d vertices, VTK Flying Edges %d points" % (box, ours, theirs))
        if ours != theirs:
            fail("welded vertex counts differ for --crop %s" % (box,))
        if ours == 0:
            fail("--crop %s should cut through the surface" % (box,))
    beyond = run(crop_command(cli, sample, (0, 128, 0, 127, 0, 84)), CLI_TIMEOUT_S)
    if beyond.returncode == 0 or "does not lie in the volume" not in beyond.stderr:
        fail("a crop beyond the volume must fail with a clear message:\n" + beyond.stderr)
    print("OK")


if __name__ == "__main__":
    main(sys.argv)
