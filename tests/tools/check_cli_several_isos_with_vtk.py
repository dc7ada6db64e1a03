#!/usr/bin/env python3
"""isoview-cli with several --iso judged by VTK: an output-name pattern writes one PLY per
isovalue, each with the points and triangles of VTK's Flying Edges (a CPU marching cubes of
its own) at that isovalue; --merge-ply writes one PLY holding both surfaces, each vertex in its
surface's palette colour; the ways to misuse the options are clear errors.

Usage (run by ctest): check_cli_several_isos_with_vtk.py ISOVIEW_CLI SAMPLE_XxYxZ_uint16.raw OUTDIR

Flying Edges makes one point per crossed grid edge and isoview welds by grid edge; with
isovalues that no voxel equals, both count the same points and triangles.
"""

import os
import re
import shutil
import sys

sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import read_ply_vtk  # noqa: E402
import vtk_reference  # noqa: E402
from cli_runner import fail, run, run_ok  # noqa: E402

ISOS = [40.5, 120.5]
# SurfaceList::palette() in 8 bits: red, then blue.
COLORS = [(230, 89, 77), (77, 140, 242)]
CLI_TIMEOUT_S = 300


def read_colored_ply(path):
    import vtk
    from vtk.util.numpy_support import vtk_to_numpy
    reader = vtk.vtkPLYReader()
    reader.SetFileName(path)
    reader.Update()
    output = reader.GetOutput()
    colors = output.GetPointData().GetArray("RGB")
    if colors is None:
        fail("%s has no vertex colours" % path)
    return output.GetNumberOfPoints(), output.GetNumberOfCells(), vtk_to_numpy(colors)


def expect_error(command, status, text):
    result = run(command, CLI_TIMEOUT_S)
    if result.returncode != status or text not in result.stderr:
        fail("expected exit %d and '%s', got %d:\n%s" % (status, text, result.returncode,
                                                         result.stderr))


def main(argv):
    if len(argv) != 4:
        sys.exit(__doc__)
    cli, sample, outdir = argv[1:]
    read_ply_vtk.ensure_vtk()  # may re-run this script under the Python that has VTK
    shutil.rmtree(outdir, ignore_errors=True)
    os.makedirs(outdir)
    pattern = os.path.join(outdir, "surface_{iso}.ply")
    merged = os.path.join(outdir, "all.ply")
    command = [cli, sample]
    for iso in ISOS:
        command += ["--iso", str(iso)]
    result = run_ok(command + ["-o", pattern, "--merge-ply", merged], CLI_TIMEOUT_S)
    printed = [int(n) for n in re.findall(r"^triangles:\s*(\d+)$", result.stdout, re.MULTILINE)]
    if len(printed) != len(ISOS):
        fail("expected one 'triangles: N' line per surface, got %s" % printed)

    expected = []
    for iso, triangles in zip(ISOS, printed):
        path = pattern.replace("{iso}", "%g" % iso)
        points, cells = read_ply_vtk.read_ply(path)
        reference = vtk_reference.flying_edges_on_raw(sample, iso)
        print("iso %g: %s has %d points, %d triangles (printed %d); Flying Edges %d, %d"
              % (iso, path, points, cells, triangles, reference[0], reference[1]))
        if (points, cells) != reference or cells != triangles:
            fail("the surface at %g differs from Flying Edges' or from the printed count" % iso)
        expected.append(reference)

    points, cells, colors = read_colored_ply(merged)
    print("merged: %d points, %d triangles" % (points, cells))
    if points != sum(p for p, _ in expected) or cells != sum(c for _, c in expected):
        fail("the merged PLY should hold both surfaces, %s" % expected)
    first = expected[0][0]
    for name, part, color in (("first", colors[:first], COLORS[0]),
                              ("second", colors[first:], COLORS[1])):
        if not (part == color).all():
            fail("the %s surface's vertices should all be %s" % (name, color))

    several = command + ["-o", os.path.join(outdir, "one.ply")]
    expect_error(several, 1, "-o needs {iso} or {n}")
    twice = [cli, sample, "--iso", "40.5", "--iso", "40.50", "-o", pattern]
    expect_error(twice, 1, "would both write")
    clash = command + ["-o", os.path.join(outdir, "s_{n}.ply"), "--merge-ply",
                       os.path.join(outdir, ".", "s_2.ply")]
    expect_error(clash, 1, "would both write")
    expect_error(command + ["--merge-ply", os.path.join(outdir, "all.stl")], 1,
                 "--merge-ply writes PLY")
    onto_input = os.path.splitext(sample)[0] + ".raw"
    expect_error([cli, sample, "--iso", "40.5", "--merge-ply", onto_input], 2,
                 "the open volume was read from")
    print("OK")


if __name__ == "__main__":
    main(sys.argv)
