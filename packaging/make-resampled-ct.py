#!/usr/bin/python3
"""Writes the CT stand-in the benchmarks use for a 512x512x140 head CT: the Philips head phantom
of ../shared/data (512x512x28, 5 mm slices) read with VTK's DICOM reader (values in HU) and
linearly interpolated along z to 140 slices, as name_512x512x140_int16.raw, which isoview-bench
and isoview-cli open by name.

usage: packaging/make-resampled-ct.py [SHARED_DIR] [OUT_DIR] [--time-points N]
"""
import sys

import numpy as np
import vtk
from vtk.util.numpy_support import vtk_to_numpy

args = [a for a in sys.argv[1:] if not a.startswith("--") and not a.isdigit()]
shared = args[0] if len(args) > 0 else "../shared"
out_dir = args[1] if len(args) > 1 else "build/bench"
reader = vtk.vtkDICOMImageReader()
reader.SetDirectoryName(f"{shared}/data/dicom/ct_philips_head_phantom_5mm")
reader.Update()
image = reader.GetOutput()
x, y, z = image.GetDimensions()
# VTK's reader applies the rescale: the values are HU already.
hu = vtk_to_numpy(image.GetPointData().GetScalars()).reshape(z, y, x).astype(np.float32)
slices = 140
at = np.linspace(0, z - 1, slices)
below = np.floor(at).astype(int)
above = np.minimum(below + 1, z - 1)
t = (at - below)[:, None, None]
resampled = (hu[below] * (1 - t) + hu[above] * t).round().astype(np.int16)
path = f"{out_dir}/ct_phantom_resampled_{x}x{y}x{slices}_int16.raw"
resampled.tofile(path)
print(path, resampled.shape, int(resampled.min()), int(resampled.max()))

# --time-points N: also a 4-D NIfTI of N time points for playback (isoview-viewer-bench
# --play): time point t is the stand-in moved 2 t voxels along x (edges repeated), so each one's
# surface differs. NIfTI-1, int16, millimetres and seconds, 1 s apart, the grid in the sform.
if "--time-points" in sys.argv:
    n = int(sys.argv[sys.argv.index("--time-points") + 1])
    sx, sy, _ = image.GetSpacing()
    sz = 5.0 * (z - 1) / (slices - 1)
    header = np.zeros(1, dtype=[
        ("sizeof_hdr", "<i4"), ("unused1", "S35"), ("dim_info", "u1"), ("dim", "<i2", 8),
        ("intent", "<f4", 3), ("intent_code", "<i2"), ("datatype", "<i2"), ("bitpix", "<i2"),
        ("slice_start", "<i2"), ("pixdim", "<f4", 8), ("vox_offset", "<f4"),
        ("scl_slope", "<f4"), ("scl_inter", "<f4"), ("slice_end", "<i2"), ("slice_code", "u1"),
        ("xyzt_units", "u1"), ("cal", "<f4", 4), ("glmax", "<i4"), ("glmin", "<i4"),
        ("descrip", "S80"), ("aux_file", "S24"), ("qform_code", "<i2"), ("sform_code", "<i2"),
        ("quatern", "<f4", 6), ("srow", "<f4", 12), ("intent_name", "S16"), ("magic", "S4")])
    assert header.dtype.itemsize == 348
    h = header[0]
    h["sizeof_hdr"] = 348
    h["dim"] = [4, x, y, slices, n, 1, 1, 1]
    h["datatype"], h["bitpix"] = 4, 16  # int16
    h["pixdim"] = [1.0, sx, sy, sz, 1.0, 1, 1, 1]
    h["vox_offset"] = 352
    h["scl_slope"] = 1.0
    h["xyzt_units"] = 2 | 8  # mm, s
    h["descrip"] = b"isoview 4-D CT stand-in"
    h["sform_code"] = 1
    h["srow"] = [-sx, 0, 0, 0, 0, -sy, 0, 0, 0, 0, sz, 0]  # LPS index axes in RAS
    h["magic"] = b"n+1\0"
    path4d = f"{out_dir}/ct_phantom_resampled_{x}x{y}x{slices}x{n}_int16.nii"
    with open(path4d, "wb") as f:
        f.write(header.tobytes())
        f.write(b"\0\0\0\0")  # no extension
        for t in range(n):
            moved = np.concatenate([np.repeat(resampled[:, :, :1], 2 * t, axis=2),
                                    resampled[:, :, :x - 2 * t]], axis=2)
            moved.astype("<i2").tofile(f)
    print(path4d, n, "time points")
