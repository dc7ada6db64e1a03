#!/usr/bin/env python3
"""isoview-cli --labels as a user runs it, judged by VTK and by the files themselves:

- the prostate phantom's label map (4 labels, both in-plane axes negative) exported one PLY per
  label in voxel space: VTK reads each file, and its points, triangles and bounds are those of
  vtkDiscreteFlyingEdges3D on the label volume at that label (the GPU made these, in one pass);
- --labels 8,9 --merge-ply: one PLY holding both labels' triangles, in two colours;
- --labels -o x.3mf: one 3MF (read with zipfile and xml.etree) with an object per label, named
  and coloured, in millimetres, each with VTK's triangle count;
- D99 --info --labels with its AFNI table: 365 lines 'label N: NAME, V voxels', names as the
  table gives them (quotes and trailing spaces gone);
- bad requests are clear errors that write nothing: a volume that is not a label map, a label
  listed twice, a label the volume lacks, several labels into one file, --labels with --iso.

Usage (run by ctest): check_cli_labels.py ISOVIEW_CLI SHARED_DATA_DIR WORK_DIR
"""

import os
import shutil
import struct
import sys
import xml.etree.ElementTree as ElementTree
import zipfile

sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vtk_bootstrap  # noqa: E402
from check_label_surfaces_with_vtk import read_nrrd, vtk_surface  # noqa: E402
from cli_runner import fail, run, run_ok  # noqa: E402

TIMEOUT_S = 300
PROSTATE = "nrrd/prostate_phantom_subvolume-label.nrrd"
D99 = "labels/D99_atlas_v2.0_right.nii.gz"
D99_TABLE = "labels/D99_v2.0_labels_semicolon.txt"


def read_ply(path):
    """(points, triangles, bounds, distinct colours) of a PLY as vtkPLYReader reads it."""
    from vtkmodules.vtkIOPLY import vtkPLYReader
    from vtkmodules.util.numpy_support import vtk_to_numpy
    reader = vtkPLYReader()
    reader.SetFileName(path)
    reader.Update()
    out = reader.GetOutput()
    colours = out.GetPointData().GetScalars()
    distinct = set()
    if colours is not None:
        distinct = {tuple(c) for c in vtk_to_numpy(colours).tolist()}
    return out.GetNumberOfPoints(), out.GetNumberOfCells(), out.GetBounds(), distinct


def table_names(path):
    """Label number -> name from the AFNI 'number;abbrev;name;...' table, read independently."""
    names = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            fields = [x.strip().strip('"').strip() for x in line.split(";")]
            if len(fields) >= 3 and fields[0].isdigit():
                names[int(fields[0])] = fields[2] or fields[1]
    return names


def expect_refused(command, status, words, work, what):
    before = set(os.listdir(work))
    result = run(command, TIMEOUT_S)
    if result.returncode != status:
        fail("%s: exit status %d, not %d" % (what, result.returncode, status))
    if words not in result.stderr:
        fail("%s: the message does not say '%s'" % (what, words))
    if set(os.listdir(work)) != before:
        fail("%s: files were written: %s" % (what, set(os.listdir(work)) - before))


def main(argv):
    if len(argv) != 4:
        sys.exit(__doc__)
    cli, shared, work = argv[1:]
    vtk_bootstrap.ensure_vtk(["vtkmodules.vtkFiltersGeneral", "vtkmodules.vtkIOPLY"])
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    prostate_path = os.path.join(shared, PROSTATE)
    failures = []

    # One file per label, in voxel space so VTK's index-space surfaces compare directly.
    run_ok([cli, prostate_path, "--labels", "--voxel-space", "-o",
            os.path.join(work, "prostate_{label}.ply")], TIMEOUT_S)
    labels = read_nrrd(prostate_path)
    for label in (1, 7, 8, 9):
        points, triangles, bounds, _ = read_ply(os.path.join(work, "prostate_%d.ply" % label))
        vtk_points, vtk_triangles, vtk_bounds = vtk_surface(labels, label)
        print("label %d: points %d (VTK %d), triangles %d (VTK %d), bounds %s (VTK %s)"
              % (label, points, vtk_points, triangles, vtk_triangles, bounds, vtk_bounds))
        if (points, triangles) != (vtk_points, vtk_triangles) or \
                any(abs(a - b) > 1e-4 for a, b in zip(bounds, vtk_bounds)):
            failures.append("label %d differs from VTK's" % label)

    package = os.path.join(work, "prostate.3mf")
    run_ok([cli, prostate_path, "--labels", "-o", package], TIMEOUT_S)
    core = "{http://schemas.microsoft.com/3dmanufacturing/core/2015/02}"
    with zipfile.ZipFile(package) as z:
        model = ElementTree.fromstring(z.read("3D/3dmodel.model"))
    objects = model.findall("%sresources/%sobject" % (core, core))
    found = {o.get("name"): len(o.findall("%smesh/%striangles/%striangle" % (core, core, core)))
             for o in objects}
    expected = {"label %d" % label: vtk_surface(labels, label)[1] for label in (1, 7, 8, 9)}
    colours = {o.get("pid") is not None for o in objects}
    print("3MF objects %s (VTK %s), unit %s" % (found, expected, model.get("unit")))
    if found != expected or colours != {True} or model.get("unit") != "millimeter":
        failures.append("the 3MF of every label: %s, unit %s" % (found, model.get("unit")))

    merged = os.path.join(work, "prostate_8_9.ply")
    run_ok([cli, prostate_path, "--labels", "8,9", "--merge-ply", merged], TIMEOUT_S)
    _, triangles, _, colours = read_ply(merged)
    expected = vtk_surface(labels, 8)[1] + vtk_surface(labels, 9)[1]
    if triangles != expected or len(colours) != 2:
        failures.append("merged PLY: %d triangles (expected %d), %d colours (expected 2)"
                        % (triangles, expected, len(colours)))

    # Smoothing: label 9 blurred by 1 mm has fewer triangles than its voxels' own surface, and
    # the report and the file's header say so.
    smoothed = os.path.join(work, "smoothed_9.ply")
    result = run_ok([cli, prostate_path, "--labels", "9", "--label-smoothing", "1", "-o",
                     smoothed], TIMEOUT_S)
    _, smooth_triangles, _, _ = read_ply(smoothed)
    with open(smoothed, "rb") as f:
        header = f.read(2048).partition(b"end_header")[0].decode("ascii", "replace")
    print("smoothed label 9: %d triangles (plain %d)" % (smooth_triangles,
                                                         vtk_surface(labels, 9)[1]))
    if "sigma 1 mm" not in result.stdout or "label-smoothing=1mm" not in header or \
            not 0 < smooth_triangles < vtk_surface(labels, 9)[1]:
        failures.append("--label-smoothing 1: %d triangles, report or header without it"
                        % smooth_triangles)

    result = run_ok([cli, os.path.join(shared, D99), "--info", "--labels", "--label-table",
                     os.path.join(shared, D99_TABLE)], TIMEOUT_S)
    names = table_names(os.path.join(shared, D99_TABLE))
    rows = [line for line in result.stdout.splitlines() if line.startswith("label ")]
    if len(rows) != 365:
        failures.append("D99: %d label lines, not 365" % len(rows))
    for row in rows:
        number, rest = row[len("label "):].split(": ", 1)
        name, voxels = rest.rsplit(", ", 1)
        if name != names.get(int(number), "") or not voxels.endswith(" voxels"):
            failures.append("D99: '%s' (table: '%s')" % (row, names.get(int(number))))
            break

    # A compact label's closed surface encloses its voxels' volume within 1 % (D99's largest,
    # 0.25 mm voxels): marching cubes at 0.5 of the indicator cuts corners only by so much.
    voxels = {int(r.split()[1].rstrip(":")): int(r.rsplit(", ", 1)[1].split()[0]) for r in rows}
    largest = max(voxels, key=voxels.get)
    result = run_ok([cli, os.path.join(shared, D99), "--labels", str(largest), "--close-borders",
                     "-o", os.path.join(work, "d99_{label}.ply")], TIMEOUT_S)
    enclosed = float(result.stdout.split("volume_ml: before ")[1].split(",")[0])
    counted = voxels[largest] * 0.25 ** 3 / 1000.0
    print("D99 label %d: %.4f mL enclosed, %.4f mL by its voxels" % (largest, enclosed, counted))
    if abs(enclosed - counted) > 0.01 * counted:
        failures.append("D99 label %d encloses %.4f mL, its voxels %.4f mL" % (largest, enclosed,
                                                                             counted))

    # A float volume holding 0.5 is no label map (raw, named by the convention).
    not_labels = os.path.join(work, "half_4x4x4_float32.raw")
    with open(not_labels, "wb") as f:
        f.write(struct.pack("<64f", *([0.0] * 63 + [0.5])))
    out = os.path.join(work, "x_{label}.ply")
    expect_refused([cli, not_labels, "--labels", "-o", out], 2, "not a whole number", work,
                   "a float volume")
    expect_refused([cli, prostate_path, "--labels", "8,8", "-o", out], 1, "twice", work,
                   "a label listed twice")
    expect_refused([cli, prostate_path, "--labels", "5", "-o", out], 2,
                   "label 5 is not in the volume", work, "an absent label")
    expect_refused([cli, prostate_path, "--labels", "-o", os.path.join(work, "one.ply")], 2,
                   "{label}", work, "several labels into one file")
    expect_refused([cli, prostate_path, "--labels", "--iso", "3"], 1, "--iso", work,
                   "--labels with --iso")
    expect_refused([cli, prostate_path, "--labels", "--label-smoothing", "9", "-o", out], 2,
                   "label smoothing sigma must be from 0 to 8", work, "a blur of 18 voxels")
    expect_refused([cli, prostate_path, "--iso", "3", "--label-smoothing", "1"], 1,
                   "--labels", work, "--label-smoothing without --labels")
    if failures:
        fail("\n".join(failures))
    print("OK")


if __name__ == "__main__":
    main(sys.argv)
