#!/usr/bin/env python3
"""isoview-cli on Siemens MOSAIC series judged by VTK on dcm2niix's NIfTI answers.

Usage (run by ctest): check_cli_mosaic_with_vtk.py ISOVIEW_CLI SHARED_DATA_DIR OUT_DIR

For each of the three mosaic folders of the shared data (dicom/mosaic/, two time points each)
and each time point: `--info` lists two entries labelled "volume t of 2: time point t" of
64x64xN; the surface the CLI extracts from time point t (--series t) has as many welded
vertices as VTK's Flying Edges finds on volume t of the NIfTI file dcm2niix wrote from the same
files (vtkNIFTIImageReader), and its bounds, read back from the PLY by vtkPLYReader, lie within
half a voxel of Flying Edges' surface placed by the NIfTI sform (RAS, turned to LPS). Then
`--series all -o 'NAME_{t}.ply'` writes both time points in one run with the same counts.

Every crossed grid edge carries one vertex in both (isoview welds by grid edge, Flying Edges
makes one point per crossed edge), so the counts must be equal; dcm2niix flips the rows, which
changes no count. The isovalue is not an integer, so no voxel equals it and no inside rule can
differ.
"""

import os
import re
import sys

sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vtk_bootstrap  # noqa: E402
import vtk_reference  # noqa: E402
from cli_runner import fail, run_ok  # noqa: E402

ISO = 200.5
SERIES = [("cor_asc_35sl", "cor_asc_35sl_16.nii", 35),
          ("sag_asc_36sl", "sag_asc_36sl_19.nii", 36),
          ("ax_int_36sl", "ax_int_36sl_12.nii", 36)]
CLI_TIMEOUT_S = 300
HALF_VOXEL_MM = 0.5 * 3.25  # the in-plane spacing; slices are 3.6 mm apart


def flying_edges(nifti, t):
    """Point count and LPS bounds of Flying Edges' surface on volume t of a NIfTI file."""
    output, reader = vtk_reference.flying_edges_on_nifti(nifti, t, ISO)
    # The reader's image has the voxel spacing but not the rotation (and its slices reversed
    # when qfac is -1): its sform matrix maps the image's coordinates to RAS millimetres.
    sform = reader.GetSFormMatrix()
    points = output.GetPoints()
    low = [float("inf")] * 3
    high = [float("-inf")] * 3
    for n in range(points.GetNumberOfPoints()):
        p = points.GetPoint(n)
        ras = sform.MultiplyPoint([p[0], p[1], p[2], 1.0])
        lps = (-ras[0], -ras[1], ras[2])
        for a in range(3):
            low[a] = min(low[a], lps[a])
            high[a] = max(high[a], lps[a])
    return points.GetNumberOfPoints(), low, high


def ply_bounds(path):
    from vtkmodules.vtkIOPLY import vtkPLYReader
    reader = vtkPLYReader()
    reader.SetFileName(path)
    reader.Update()
    b = reader.GetOutput().GetBounds()
    return reader.GetOutput().GetNumberOfPoints(), [b[0], b[2], b[4]], [b[1], b[3], b[5]]


def main(argv):
    if len(argv) != 4:
        sys.exit(__doc__)
    vtk_bootstrap.ensure_vtk(["vtkmodules.vtkIOPLY", "vtkmodules.vtkIOImage",
                              "vtkmodules.vtkFiltersCore"])
    cli, shared, out_dir = argv[1:]
    os.makedirs(out_dir, exist_ok=True)
    for folder, nifti, slices in SERIES:
        path = os.path.join(shared, "dicom", "mosaic", folder)
        info = run_ok([cli, path, "--info"], CLI_TIMEOUT_S, " for --info")
        for t in range(2):
            entry = r"^\s*\[%d\] .* \| volume %d of 2: time point %d \| MR \| %d slices \| " \
                    r"64x64x%d" % (t, t + 1, t + 1, slices, slices)
            if not re.search(entry, info.stdout, re.MULTILINE):
                fail("--info does not list %s's time point %d as expected" % (folder, t + 1))
        if not re.search(r"^series: 2 \(default 0\)$", info.stdout, re.MULTILINE):
            fail("--info should list 2 series of %s, the first the default" % folder)
        for t in range(2):
            ply = os.path.join(out_dir, "%s_%d.ply" % (folder, t))
            result = run_ok([cli, path, "--series", str(t), "--iso", str(ISO), "-o", ply],
                            CLI_TIMEOUT_S, " for %s --series %d" % (folder, t))
            found = re.findall(r"^vertices:\s*(\d+)$", result.stdout, re.MULTILINE)
            if len(found) != 1:
                fail("expected one 'vertices: N' line")
            ours = int(found[0])
            theirs, low, high = flying_edges(os.path.join(shared, "nifti", nifti), t)
            read, ply_low, ply_high = ply_bounds(ply)
            print("%s time point %d: isoview %d vertices, VTK Flying Edges %d points" %
                  (folder, t + 1, ours, theirs))
            if ours != theirs or read != ours:
                fail("welded vertex counts differ (PLY read by VTK: %d)" % read)
            if ours < 1000:
                fail("the surface at %g should be large" % ISO)
            worst = max(max(abs(ply_low[a] - low[a]), abs(ply_high[a] - high[a]))
                        for a in range(3))
            print("  bounds agree within %.4f mm" % worst)
            for a in range(3):
                if abs(ply_low[a] - low[a]) > HALF_VOXEL_MM or \
                        abs(ply_high[a] - high[a]) > HALF_VOXEL_MM:
                    fail("bounds differ along axis %d: isoview %.3f..%.3f, Flying Edges on the "
                         "NIfTI %.3f..%.3f (mm, LPS)" %
                         (a, ply_low[a], ply_high[a], low[a], high[a]))
        # --series all: every time point in one run, one file each ({t} from 1), through the
        # engine's time-point path (values replaced, pyramid kept): the same counts.
        pattern = os.path.join(out_dir, folder + "_all_{t}.ply")
        result = run_ok([cli, path, "--series", "all", "--iso", str(ISO), "-o", pattern],
                        CLI_TIMEOUT_S, " for %s --series all" % folder)
        if len(re.findall(r"^time_point: \d of 2 ", result.stdout, re.MULTILINE)) != 2:
            fail("--series all should report 2 time points")
        for t in range(2):
            read, _, _ = ply_bounds(pattern.replace("{t}", str(t + 1)))
            theirs, _, _ = flying_edges(os.path.join(shared, "nifti", nifti), t)
            print("%s --series all, time point %d: %d vertices" % (folder, t + 1, read))
            if read != theirs:
                fail("--series all: time point %d has %d vertices, Flying Edges %d" %
                     (t + 1, read, theirs))
    print("OK")


if __name__ == "__main__":
    main(sys.argv)
