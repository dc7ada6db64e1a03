"""VTK's Flying Edges (a CPU marching cubes of its own) on the test volumes, the independent
answer the end-to-end checks compare isoview's surfaces with. Import after vtk_bootstrap or
read_ply_vtk has made sure VTK is importable."""

import re


def flying_edges_on_raw(sample, iso):
    """(points, triangles) of Flying Edges' surface at iso on a raw file named
    name_XxYxZ_uint16.raw (little-endian, X fastest)."""
    import numpy as np
    import vtk
    from vtk.util.numpy_support import numpy_to_vtk
    dims = [int(n) for n in re.search(r"_(\d+)x(\d+)x(\d+)_uint16", sample).groups()]
    image = vtk.vtkImageData()
    image.SetDimensions(*dims)
    data = np.fromfile(sample, dtype="<u2").astype(np.float32)
    image.GetPointData().SetScalars(numpy_to_vtk(data, deep=True))
    surface = vtk.vtkFlyingEdges3D()
    surface.SetInputData(image)
    surface.SetValue(0, iso)
    surface.ComputeNormalsOff()
    surface.Update()
    return surface.GetOutput().GetNumberOfPoints(), surface.GetOutput().GetNumberOfCells()


def flying_edges_on_nifti(nifti, t, iso):
    """Flying Edges' surface (vtkPolyData in the reader's image coordinates) at iso on volume t
    of a NIfTI file, and the reader (its sform maps those coordinates to RAS millimetres)."""
    import vtk
    reader = vtk.vtkNIFTIImageReader()
    reader.SetFileName(nifti)
    reader.TimeAsVectorOn()
    extract = vtk.vtkImageExtractComponents()
    extract.SetInputConnection(reader.GetOutputPort())
    extract.SetComponents(t)
    surface = vtk.vtkFlyingEdges3D()
    surface.SetInputConnection(extract.GetOutputPort())
    surface.SetValue(0, iso)
    surface.ComputeNormalsOff()
    surface.Update()
    return surface.GetOutput(), reader
