#!/usr/bin/python3
"""Writes the CT stand-in the benchmarks use for a 512x512x140 head CT: the Philips head phantom
of ../shared/data (512x512x28, 5 mm slices) read with VTK's DICOM reader (values in HU) and
linearly interpolated along z to 140 slices, as name_512x512x140_int16.raw, which isoview-bench
and isoview-cli open by name.

usage: packaging/make-resampled-ct.py [SHARED_DIR] [OUT_DIR]
"""
import sys

import numpy as np
import vtk
from vtk.util.numpy_support import vtk_to_numpy

shared = sys.argv[1] if len(sys.argv) > 1 else "../shared"
out_dir = sys.argv[2] if len(sys.argv) > 2 else "build/bench"
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
