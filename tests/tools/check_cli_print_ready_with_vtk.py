#!/usr/bin/env python3
"""isoview-cli's print preparation end to end on a real CT, judged by VTK's readers and filters.

Usage (run by ctest): check_cli_print_ready_with_vtk.py ISOVIEW_CLI CT_FOLDER OUT_DIR

Extracts the Philips CT head phantom (28 slices, 512 x 512) at 300 HU with --close-borders
--keep-largest --smooth 10 --decimate 0.2 to PLY, and without the decimation (the costly step,
checked once) to STL, and checks:
- the report: triangles after about 20 % of the kept raw surface, one piece kept, watertight,
  95 % of the points within 0.5 mm of the raw surface;
- VTK reads each file with the reported triangle count;
- vtkFeatureEdges finds no boundary and no non-manifold edge (watertight, independently);
- vtkMassProperties' volume equals the reported volume after (mL) within 0.5 %;
- the PLY header and the STL header record the steps applied.
Then a raw export of the same surface (no steps) must be open where the phantom meets the
field of view, so closing did something, and hold no zero-area triangle though 300 HU is a
stored value (vertices on voxel centres).
"""

import os
import re
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import read_mesh_vtk  # noqa: E402
from cli_runner import fail, run_ok  # noqa: E402

STEPS = ["--close-borders", "--keep-largest", "--smooth", "10", "--decimate", "0.2"]
WORDS = "close-borders keep-largest smooth=10 decimate=0.2"
STL_STEPS = STEPS[:4]
CLI_TIMEOUT_S = 600


def run_cli(cli, folder, out, steps):
    command = [cli, folder, "--iso", "300", "-o", out] + steps
    return run_ok(command, CLI_TIMEOUT_S).stdout


def field(report, key):
    found = re.findall(r"^%s:\s*(.*)$" % key, report, re.MULTILINE)
    if len(found) != 1:
        fail("expected one '%s:' line in the CLI's report" % key)
    return found[0]


def edges(mesh):
    from vtkmodules.vtkFiltersCore import vtkFeatureEdges

    counts = {}
    for kind in ("boundary", "non_manifold"):
        f = vtkFeatureEdges()
        f.SetInputData(mesh)
        f.BoundaryEdgesOff()
        f.FeatureEdgesOff()
        f.ManifoldEdgesOff()
        f.NonManifoldEdgesOff()
        if kind == "boundary":
            f.BoundaryEdgesOn()
        else:
            f.NonManifoldEdgesOn()
        f.Update()
        counts[kind] = f.GetOutput().GetNumberOfCells()
    return counts


def zero_area_triangles(mesh):
    from vtkmodules.util.numpy_support import vtk_to_numpy
    import numpy

    points = vtk_to_numpy(mesh.GetPoints().GetData()).astype(numpy.float64)
    t = numpy.array(read_mesh_vtk.triangles_of(mesh))
    cross = numpy.cross(points[t[:, 1]] - points[t[:, 0]], points[t[:, 2]] - points[t[:, 0]])
    return int((numpy.linalg.norm(cross, axis=1) == 0.0).sum())


def check_file(path, report):
    mesh = read_mesh_vtk.read_mesh(path)
    triangles = read_mesh_vtk.triangles_of(mesh)
    expected = int(field(report, "triangles_after"))
    if len(triangles) != expected:
        fail("%s: VTK read %d triangles, the CLI reported %d" % (path, len(triangles), expected))
    if path.endswith(".stl"):
        # vtkSTLReader merges coincident corners; the cap's zero-area corner triangles then
        # collapse, which the edge check below must not count as the file's fault.
        from vtkmodules.vtkFiltersCore import vtkCleanPolyData
        clean = vtkCleanPolyData()
        clean.SetInputData(mesh)
        clean.Update()
        mesh = clean.GetOutput()
    found = edges(mesh)
    print("%s: %d triangles, VTK edges %s" % (path, len(triangles), found))
    if found["boundary"] != 0 or found["non_manifold"] != 0:
        fail("%s is not watertight for VTK: %s" % (path, found))
    _, volume = read_mesh_vtk.mass_properties(mesh, len(triangles))
    reported = float(re.search(r"after ([0-9.]+)", field(report, "volume_ml")).group(1))
    print("%s: VTK volume %.3f mL, reported %.3f mL" % (path, volume / 1000.0, reported))
    if abs(volume / 1000.0 - reported) > 0.005 * reported:
        fail("%s: VTK's volume differs from the report by more than 0.5 %%" % path)


def main(argv):
    if len(argv) != 4:
        sys.exit(__doc__)
    read_mesh_vtk.ensure_vtk()  # may re-run this script under the Python that has VTK
    cli, folder, out_dir = argv[1:]
    os.makedirs(out_dir, exist_ok=True)
    ply = os.path.join(out_dir, "print_ready.ply")
    stl = os.path.join(out_dir, "print_ready.stl")
    raw = os.path.join(out_dir, "raw.ply")
    for path in (ply, stl, raw):
        if os.path.exists(path):
            os.remove(path)

    report = run_cli(cli, folder, ply, STEPS)
    if field(report, "processing") != WORDS:
        fail("the report names the steps '%s'" % field(report, "processing"))
    if not field(report, "watertight").startswith("yes"):
        fail("the CLI reports a mesh that is not watertight")
    before = int(field(report, "triangles_before")) + int(field(report, "cap_triangles"))
    after = int(field(report, "triangles_after"))
    if int(field(report, "pieces_before")) < 2 or after > 0.2 * before:
        fail("expected several pieces and at most 20 %% of %d triangles, got %d" % (before, after))
    p95 = float(re.match(r"p95 ([0-9.]+)", field(report, "distance_to_raw_mm")).group(1))
    if p95 > 0.5:
        fail("95 %% of the points should stay within 0.5 mm of the raw surface, p95 is %g" % p95)
    check_file(ply, report)
    with open(ply, "rb") as f:
        header = f.read(512).decode("ascii", "replace")
    if "comment isoview processing: " + WORDS not in header:
        fail("the PLY header does not record the steps")

    check_file(stl, run_cli(cli, folder, stl, STL_STEPS))
    with open(stl, "rb") as f:
        if b"processing: close-borders" not in f.read(80):
            fail("the STL header does not record the steps")

    open_report = run_cli(cli, folder, raw, [])
    mesh = read_mesh_vtk.read_mesh(raw)
    if edges(mesh)["boundary"] == 0:
        fail("the raw surface is already closed: this CT does not exercise --close-borders")
    # 300 HU is a stored value of this CT: vertices land on voxel centres, yet no exported
    # triangle may be without area (the CLI drops them and says how many).
    dropped = int(field(open_report, "zero_area_triangles_removed"))
    zero = zero_area_triangles(mesh)
    print("raw export: %d zero-area triangles dropped by the CLI, %d in the file" % (dropped, zero))
    if dropped == 0 or zero != 0:
        fail("expected zero-area triangles dropped and none written (%d, %d)" % (dropped, zero))
    print("OK")


if __name__ == "__main__":
    main(sys.argv)
