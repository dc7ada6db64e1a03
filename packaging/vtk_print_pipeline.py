#!/usr/bin/python3
"""Time VTK's usual print preparation, what a VTK or ParaView user runs to make a surface
printable: the largest connected region (vtkPolyDataConnectivityFilter), windowed-sinc smoothing
(vtkWindowedSincPolyDataFilter) and quadric decimation with volume preservation
(vtkQuadricDecimation), on a mesh read from a PLY file (isoview-cli's closed raw surface).

usage: /usr/bin/python3 vtk_print_pipeline.py MESH.ply SMOOTH_ITERATIONS KEEP_FRACTION [REPEATS=1]
Prints one line:
  vtk_print_pipeline median_ms M triangles_in T0 triangles_out T1 open_edges E
                     nonmanifold_edges N
The file is read once, untimed; each timed run updates the three filters alone (the work
isoview-cli's processing_ms covers after its own closing). open_edges and nonmanifold_edges
are counted on the output by vtkFeatureEdges (untimed). Needs Debian's python3-vtk9.
"""
import statistics
import sys
import time

import vtk

path, iterations, keep = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
repeats = int(sys.argv[4]) if len(sys.argv) > 4 else 1
reader = vtk.vtkPLYReader()
reader.SetFileName(path)
reader.Update()
mesh = vtk.vtkPolyData()
mesh.DeepCopy(reader.GetOutput())

times = []
for _ in range(repeats):
    t = time.perf_counter()
    largest = vtk.vtkPolyDataConnectivityFilter()
    largest.SetInputData(mesh)
    largest.SetExtractionModeToLargestRegion()
    smooth = vtk.vtkWindowedSincPolyDataFilter()
    smooth.SetInputConnection(largest.GetOutputPort())
    smooth.SetNumberOfIterations(iterations)
    smooth.SetPassBand(0.1)
    smooth.NormalizeCoordinatesOn()
    smooth.BoundarySmoothingOff()
    smooth.FeatureEdgeSmoothingOff()
    decimate = vtk.vtkQuadricDecimation()
    decimate.SetInputConnection(smooth.GetOutputPort())
    decimate.SetTargetReduction(1.0 - keep)
    decimate.VolumePreservationOn()
    decimate.Update()
    times.append((time.perf_counter() - t) * 1000.0)
out = decimate.GetOutput()

edges = vtk.vtkFeatureEdges()
edges.SetInputData(out)
edges.BoundaryEdgesOn()
edges.NonManifoldEdgesOff()
edges.FeatureEdgesOff()
edges.ManifoldEdgesOff()
edges.Update()
open_edges = edges.GetOutput().GetNumberOfCells()
edges.BoundaryEdgesOff()
edges.NonManifoldEdgesOn()
edges.Update()
nonmanifold = edges.GetOutput().GetNumberOfCells()
print("vtk_print_pipeline median_ms %.1f triangles_in %d triangles_out %d open_edges %d "
      "nonmanifold_edges %d" % (statistics.median(times), mesh.GetNumberOfPolys(),
                                out.GetNumberOfPolys(), open_edges, nonmanifold))
