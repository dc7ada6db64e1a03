#!/usr/bin/env python3
"""isoview's label surfaces judged by VTK: for every label of the prostate phantom's label map
and some labels of the D99 atlas, the surface extractLabelSurfacesCpu makes (as printed by
isoview_label_surfaces_report) has the welded vertex count, triangle count and index-space
bounds of VTK's vtkDiscreteFlyingEdges3D on the label volume at that label; the voxel counts
are numpy's. Smoothed (--sigma): each prostate label's indicator blurred here by numpy (the
rule of smoothed_label_surfaces.h in float64: per axis sigma / spacing voxels, truncated at
ceil(3 sigma), normalised, 0 beyond the volume), then VTK's continuous vtkFlyingEdges3D at 0.5:
the welded points and bounds of extractSmoothedLabelSurfacesCpu must agree with it.

Usage (run by ctest): check_label_surfaces_with_vtk.py REPORT_TOOL SHARED_DATA_DIR

Both generate one point per grid edge with the label at one end only, at its midpoint: the
vertex sets, hence counts and bounds, must be equal. Triangles: each crossed cell's boundary
polygons are cut into (vertices - 2) triangles by both, so the counts are equal as long as
both resolve ambiguous cell faces alike. The volumes are read here by VTK (NIfTI) or by the
small NRRD reader below, not by isoview's loaders.
"""

import gzip
import os
import subprocess
import sys

sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vtk_bootstrap  # noqa: E402
from cli_runner import fail  # noqa: E402

PROSTATE = "nrrd/prostate_phantom_subvolume-label.nrrd"
D99 = "labels/D99_atlas_v2.0_right.nii.gz"
# D99: the first and last labels, two between, and 100, which the atlas lacks (its numbers have
# gaps): an empty surface for both. The labels with the fewest and the most voxels are added by
# the script.
D99_LABELS = [1, 2, 100, 300, 522]
TOOL_TIMEOUT_S = 300
NRRD_TYPES = {"short": "i2", "int16": "i2", "ushort": "u2", "uint16": "u2", "uchar": "u1",
              "unsigned char": "u1", "uint8": "u1", "int": "i4", "float": "f4"}


def read_nrrd(path):
    """A 3-D NRRD with its data attached (raw or gzip encoding) as a numpy array [z][y][x]."""
    import numpy as np
    with open(path, "rb") as f:
        raw = f.read()
    head, _, data = raw.partition(b"\n\n")
    fields = {}
    for line in head.decode("ascii").splitlines()[1:]:
        if line.startswith("#") or ": " not in line:
            continue
        key, value = line.split(": ", 1)
        fields[key.strip()] = value.strip()
    sizes = [int(n) for n in fields["sizes"].split()]
    if fields.get("encoding") == "gzip":
        data = gzip.decompress(data)
    elif fields.get("encoding") != "raw":
        fail("unsupported NRRD encoding in " + path)
    order = ">" if fields.get("endian") == "big" else "<"
    array = np.frombuffer(data, dtype=order + NRRD_TYPES[fields["type"]])
    return array.reshape(sizes[2], sizes[1], sizes[0])


def read_nifti(path):
    import vtk
    from vtk.util.numpy_support import vtk_to_numpy
    reader = vtk.vtkNIFTIImageReader()
    reader.SetFileName(path)
    reader.Update()
    if reader.GetQFac() < 0:
        fail("qfac -1: VTK would reverse the slices")
    nx, ny, nz = reader.GetOutput().GetDimensions()
    return vtk_to_numpy(reader.GetOutput().GetPointData().GetScalars()).reshape(nz, ny, nx)


def flying_edges(field, value, discrete):
    """(points, triangles, bounds) of VTK's Flying Edges on field at value, in index space:
    vtkDiscreteFlyingEdges3D (the voxels holding label `value`) or vtkFlyingEdges3D."""
    import vtk
    from vtk.util.numpy_support import numpy_to_vtk
    image = vtk.vtkImageData()
    image.SetDimensions(field.shape[2], field.shape[1], field.shape[0])
    image.GetPointData().SetScalars(numpy_to_vtk(field.ravel().astype("float32"), deep=True))
    surface = vtk.vtkDiscreteFlyingEdges3D() if discrete else vtk.vtkFlyingEdges3D()
    surface.SetInputData(image)
    surface.SetValue(0, float(value))
    surface.ComputeNormalsOff()
    surface.ComputeGradientsOff()
    surface.ComputeScalarsOff()
    surface.Update()
    output = surface.GetOutput()
    return output.GetNumberOfPoints(), output.GetNumberOfPolys(), output.GetBounds()


def vtk_surface(labels, label):
    """vtkDiscreteFlyingEdges3D at label."""
    return flying_edges(labels, label, True)


def nrrd_spacing(path):
    """The voxel spacing (x, y, z) of a NRRD's 'space directions' (axis-aligned ones)."""
    with open(path, "rb") as f:
        head = f.read(4096).partition(b"\n\n")[0].decode("ascii")
    for line in head.splitlines():
        if line.startswith("space directions:"):
            vectors = line.split(":", 1)[1].replace("(", " ").replace(")", " ").split()
            numbers = [abs(float(v)) for vector in vectors for v in vector.split(",")]
            return [max(numbers[0:3]), max(numbers[3:6]), max(numbers[6:9])]
    fail("no space directions in " + path)


def blurred(indicator, spacing, sigma_mm):
    """The indicator [z][y][x] blurred by the Gaussian rule of smoothed_label_surfaces.h."""
    import math
    import numpy as np
    field = indicator.astype("float64")
    for axis, step in ((2, spacing[0]), (1, spacing[1]), (0, spacing[2])):
        sigma = sigma_mm / step
        radius = int(math.ceil(3.0 * sigma))
        weights = np.exp(-0.5 * (np.arange(-radius, radius + 1) / sigma) ** 2)
        weights /= weights.sum()
        padded = np.pad(field, [(radius, radius) if a == axis else (0, 0) for a in range(3)])
        out = np.zeros_like(field)
        n = field.shape[axis]
        for i, w in enumerate(weights):
            out += w * np.take(padded, range(i, i + n), axis=axis)
        field = out
    return field


def compare_smoothed(name, labels, spacing, rows, wanted, sigma_mm):
    failures = []
    compared = 0
    for label in wanted:
        ours = rows[label]
        points, triangles, bounds = flying_edges(blurred(labels == label, spacing, sigma_mm), 0.5, False)
        print("%s label %d smoothed %g mm: vertices %d (numpy + VTK %d); triangles %d (%d); "
              "bounds %s (%s)" % (name, label, sigma_mm, ours["vertices"], points,
                                  ours["triangles"], triangles, ours["bounds"], bounds))
        if points == 0 and ours["vertices"] == 0:
            continue  # blurred below 0.5 everywhere (the small labels 1 and 7): gone in both
        compared += 1
        # float32 blurring here and float in isoview: a value within rounding of 0.5 may fall
        # either side, so a few points in a thousand may differ; the bounds must not.
        if abs(ours["vertices"] - points) > max(2, points // 500):
            failures.append("%s label %d: smoothed vertex counts differ" % (name, label))
        if any(abs(a - b) > 1e-3 for a, b in zip(ours["bounds"], bounds)):
            failures.append("%s label %d: smoothed bounds differ" % (name, label))
    if compared < 2:
        failures.append("%s: fewer than two labels kept a smoothed surface" % name)
    return failures


def isoview_report(tool, path, labels, sigma_mm=0.0):
    command = [tool, path] + (["--sigma=%g" % sigma_mm] if sigma_mm else []) + \
        [str(n) for n in labels]
    print("running: " + " ".join(command))
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=TOOL_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        fail("the report tool did not finish within %d s" % TOOL_TIMEOUT_S)
    sys.stderr.write(result.stderr)
    if result.returncode != 0:
        fail("the report tool exited with status %d" % result.returncode)
    rows = {}
    for line in result.stdout.splitlines():
        if line.startswith("#"):
            continue
        f = line.split()
        rows[int(f[0])] = {"voxels": int(f[1]), "vertices": int(f[2]), "triangles": int(f[3]),
                           "bounds": (float(f[4]), float(f[7]), float(f[5]), float(f[8]),
                                      float(f[6]), float(f[9]))}
    return rows


def compare(name, labels, rows, wanted):
    import numpy as np
    failures = []
    for label in wanted:
        ours = rows.get(label)
        if ours is None:
            failures.append("%s label %d: missing from the report" % (name, label))
            continue
        voxels = int(np.count_nonzero(labels == label))
        points, triangles, bounds = vtk_surface(labels, label)
        print("%s label %d: %d voxels (numpy %d); vertices %d (VTK %d); triangles %d (VTK %d); "
              "bounds %s (VTK %s)" % (name, label, ours["voxels"], voxels, ours["vertices"], points,
                                      ours["triangles"], triangles, ours["bounds"], bounds))
        if ours["voxels"] != voxels:
            failures.append("%s label %d: voxel counts differ" % (name, label))
        if voxels == 0:  # absent: both empty (VTK's empty bounds are inverted)
            if ours["vertices"] != 0 or ours["triangles"] != 0 or points != 0:
                failures.append("%s label %d: absent, but a surface" % (name, label))
            continue
        if ours["vertices"] != points or ours["vertices"] == 0:
            failures.append("%s label %d: vertex counts differ" % (name, label))
        if ours["triangles"] != triangles:
            failures.append("%s label %d: triangle counts differ" % (name, label))
        if any(abs(a - b) > 1e-6 for a, b in zip(ours["bounds"], bounds)):
            failures.append("%s label %d: bounds differ" % (name, label))
    return failures


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    tool, shared = argv[1:]
    vtk_bootstrap.ensure_vtk(["vtkmodules.vtkFiltersGeneral", "vtkmodules.vtkIOImage"])
    import numpy as np

    prostate_path = os.path.join(shared, PROSTATE)
    prostate = read_nrrd(prostate_path)
    failures = compare("prostate", prostate, isoview_report(tool, prostate_path, []),
                       [1, 7, 8, 9])
    # 1 mm on 0.5 x 0.5 x 3 mm voxels: a wide blur in-plane, a narrow one across slices.
    failures += compare_smoothed("prostate", prostate, nrrd_spacing(prostate_path),
                                 isoview_report(tool, prostate_path, [], 1.0), [1, 7, 8, 9], 1.0)

    d99_path = os.path.join(shared, D99)
    d99 = read_nifti(d99_path)
    present, counts = np.unique(d99[d99 != 0], return_counts=True)
    wanted = sorted(set(D99_LABELS) | {int(present[np.argmin(counts)]),
                                       int(present[np.argmax(counts)])})
    failures += compare("D99", d99, isoview_report(tool, d99_path, wanted), wanted)
    if failures:
        fail("\n".join(failures))
    print("OK")


if __name__ == "__main__":
    main(sys.argv)
