#!/usr/bin/python3
"""Time VTK's vtkDiscreteFlyingEdges3D, what a VTK or 3D Slicer user runs to turn a label map
into surfaces, on every label of a label map at once.

usage: /usr/bin/python3 vtk_discrete_flying_edges.py LABELMAP.nii[.gz]|.mha|.mhd [REPEATS=3]
Prints one line:
  vtk_discrete_flying_edges median_ms M min_ms m labels L triangles T points P threads N
                            peak_rss_mib R
The label map is read (vtkNIFTIImageReader or vtkMetaImageReader) and its labels listed with
numpy once, untimed; each timed run is one Update() of the filter with every non-zero label as
a contour value, normals on (VTK's default), as isoview's label extraction also makes them.
Needs Debian's python3-vtk9 and python3-numpy.
"""
import resource
import statistics
import sys
import time

import numpy as np
import vtk
from vtk.util import numpy_support

path = sys.argv[1]
repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 3
reader = vtk.vtkNIFTIImageReader() if ".nii" in path else vtk.vtkMetaImageReader()
reader.SetFileName(path)
reader.Update()
image = reader.GetOutput()
values = numpy_support.vtk_to_numpy(image.GetPointData().GetScalars())
labels = [int(v) for v in np.unique(values) if v != 0]

dfe = vtk.vtkDiscreteFlyingEdges3D()
dfe.SetInputData(image)
dfe.SetNumberOfContours(len(labels))
for i, label in enumerate(labels):
    dfe.SetValue(i, label)
times = []
for _ in range(repeats):
    dfe.Modified()
    t = time.perf_counter()
    dfe.Update()
    times.append(1000.0 * (time.perf_counter() - t))
out = dfe.GetOutput()
peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0  # KiB on Linux
print("vtk_discrete_flying_edges median_ms %.1f min_ms %.1f labels %d triangles %d points %d "
      "threads %d peak_rss_mib %.0f"
      % (statistics.median(times), min(times), len(labels), out.GetNumberOfPolys(),
         out.GetNumberOfPoints(), vtk.vtkSMPTools.GetEstimatedNumberOfThreads(), peak_mib))
