#!/usr/bin/env python3
"""Reads a PLY, STL or OBJ mesh with VTK's own readers (vtkPLYReader, vtkSTLReader,
vtkOBJReader), implementations independent of isoview's writers, and prints what VTK found,
one "key values..." line each:

    points N             points VTK built (vtkSTLReader merges coincident corners)
    cells M              cells of any kind
    triangles T          cells with exactly three points
    bounds x0 x1 y0 y1 z0 z1
    area A               vtkMassProperties' surface area
    volume V             vtkMassProperties' volume (always positive)
    signed_volume S      sum over triangles of p0 . (p1 x p2) / 6, in the order VTK read the
                         corners: positive when the triangles are wound counter-clockwise seen
                         from outside
    normals K            number of point normals VTK read (0 when the file has none)
    colors C r g b       number of distinct point colours and the first one ("colors 0" when
                         the file has none)

For STL, whose binary reader in VTK ignores the triangle count and the facet normals, the
script also reads the records itself (Python's struct, not isoview's code):

    stl_header TEXT      the 80-byte header up to its first zero byte
    stl_count N          the triangle count field; the file size must be 84 + 50 N
    stl_normal_mismatches K   facets whose stored normal is not a unit vector pointing to the
                         side from which the corners are counter-clockwise (degenerate facets
                         must store a zero normal)

With --points it then prints every point ("p x y z"), every point normal ("n x y z") and every
triangle's point ids ("t a b c"), with Python's repr (exact for VTK's float32 values).

Exits non-zero when VTK cannot read the file or reports an error (with a message on stderr).
The reader is chosen by the file name's extension (case-insensitive).

Usage: read_mesh_vtk.py FILE.{ply,stl,obj} [--points]
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vtk_bootstrap  # noqa: E402


def ensure_vtk():
    """Imports VTK, re-running the running script under the system Python when the current
    interpreter (e.g. a pyenv or venv one) has no VTK."""
    vtk_bootstrap.ensure_vtk(["vtkmodules.vtkIOGeometry", "vtkmodules.vtkIOPLY"])


def make_reader(path):
    from vtkmodules.vtkIOGeometry import vtkOBJReader, vtkSTLReader
    from vtkmodules.vtkIOPLY import vtkPLYReader

    extension = os.path.splitext(path)[1].lower()
    if extension == ".ply":
        reader = vtkPLYReader()
        if not reader.CanReadFile(path):
            raise RuntimeError("%s: vtkPLYReader says it cannot read this file" % path)
        return reader
    if extension == ".stl":
        return vtkSTLReader()
    if extension == ".obj":
        return vtkOBJReader()
    raise RuntimeError("%s: unknown mesh extension '%s'" % (path, extension))


def read_mesh(path):
    """Returns the vtkPolyData VTK read; raises RuntimeError on any reported error."""
    from vtkmodules.util.misc import calldata_type
    from vtkmodules.util.vtkConstants import VTK_STRING

    if not os.path.isfile(path):
        raise RuntimeError("%s: no such file" % path)
    reader = make_reader(path)
    errors = []

    # An observer turns VTK's printed errors into a result this script can act on.
    @calldata_type(VTK_STRING)
    def on_error(_caller, _event, message):
        errors.append(str(message).strip())

    reader.AddObserver("ErrorEvent", on_error)
    reader.SetFileName(path)
    reader.Update()
    if errors:
        raise RuntimeError("%s: VTK reported: %s" % (path, " | ".join(errors)))
    return reader.GetOutput()


def triangles_of(mesh):
    """Point-id triples of the triangle cells, in VTK's order."""
    from vtkmodules.vtkCommonCore import vtkIdList

    ids = vtkIdList()
    result = []
    for cell in range(mesh.GetNumberOfCells()):
        mesh.GetCellPoints(cell, ids)
        if ids.GetNumberOfIds() == 3:
            result.append((ids.GetId(0), ids.GetId(1), ids.GetId(2)))
    return result


def signed_volume(mesh, triangles):
    total = 0.0
    for a, b, c in triangles:
        p, q, r = mesh.GetPoint(a), mesh.GetPoint(b), mesh.GetPoint(c)
        cross = (q[1] * r[2] - q[2] * r[1], q[2] * r[0] - q[0] * r[2], q[0] * r[1] - q[1] * r[0])
        total += p[0] * cross[0] + p[1] * cross[1] + p[2] * cross[2]
    return total / 6.0


def color_array(mesh):
    """The unsigned-char RGB point array vtkPLYReader makes from red/green/blue, or None."""
    data = mesh.GetPointData()
    for index in range(data.GetNumberOfArrays()):
        array = data.GetArray(index)
        if array is not None and array.GetNumberOfComponents() in (3, 4) and \
                array.GetDataTypeAsString() == "unsigned char":
            return array
    return None


def check_stl_records(path):
    """Reads a binary STL's header, count and facet normals; raises RuntimeError when the size
    does not match the count. Returns (header text, count, normal mismatches)."""
    import math
    import struct

    with open(path, "rb") as stream:
        data = stream.read()
    if len(data) < 84:
        raise RuntimeError("%s: %d bytes is too short for a binary STL" % (path, len(data)))
    header = data[:80].split(b"\0", 1)[0].decode("ascii", "replace")
    (count,) = struct.unpack_from("<I", data, 80)
    if len(data) != 84 + 50 * count:
        raise RuntimeError("%s: %d bytes, but a binary STL of %d triangles has %d"
                           % (path, len(data), count, 84 + 50 * count))
    mismatches = 0
    for index in range(count):
        values = struct.unpack_from("<12f", data, 84 + 50 * index)
        normal, a, b, c = values[0:3], values[3:6], values[6:9], values[9:12]
        u = [b[i] - a[i] for i in range(3)]
        v = [c[i] - a[i] for i in range(3)]
        cross = (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])
        length = math.sqrt(sum(x * x for x in cross))
        normal_length = math.sqrt(sum(x * x for x in normal))
        if length == 0.0:
            ok = normal_length == 0.0
        else:
            cosine = sum(normal[i] * cross[i] for i in range(3)) / length
            ok = abs(normal_length - 1.0) < 1e-5 and cosine > 0.999
        if not ok:
            mismatches += 1
    return header, count, mismatches


def mass_properties(mesh, triangle_count):
    if triangle_count == 0:
        return 0.0, 0.0
    from vtkmodules.vtkFiltersCore import vtkMassProperties

    properties = vtkMassProperties()
    properties.SetInputData(mesh)
    properties.Update()
    return properties.GetSurfaceArea(), properties.GetVolume()


def main(argv):
    args = [a for a in argv[1:] if a != "--points"]
    if len(args) != 1:
        sys.exit("usage: read_mesh_vtk.py FILE.{ply,stl,obj} [--points]")
    ensure_vtk()
    try:
        mesh = read_mesh(args[0])
        stl = check_stl_records(args[0]) if args[0].lower().endswith(".stl") else None
    except RuntimeError as error:
        sys.exit("error: %s" % error)

    triangles = triangles_of(mesh)
    area, volume = mass_properties(mesh, len(triangles))
    normals = mesh.GetPointData().GetNormals()
    colors = color_array(mesh)
    print("points %d" % mesh.GetNumberOfPoints())
    print("cells %d" % mesh.GetNumberOfCells())
    print("triangles %d" % len(triangles))
    print("bounds %r %r %r %r %r %r" % tuple(mesh.GetBounds()))
    print("area %r" % area)
    print("volume %r" % volume)
    print("signed_volume %r" % signed_volume(mesh, triangles))
    print("normals %d" % (normals.GetNumberOfTuples() if normals is not None else 0))
    if colors is None or colors.GetNumberOfTuples() == 0:
        print("colors 0")
    else:
        distinct = sorted({tuple(int(colors.GetComponent(i, c)) for c in range(3))
                           for i in range(colors.GetNumberOfTuples())})
        print("colors %d %d %d %d" % ((len(distinct),) + distinct[0]))

    if stl is not None:
        print("stl_header %s" % stl[0])
        print("stl_count %d" % stl[1])
        print("stl_normal_mismatches %d" % stl[2])

    if "--points" in argv:
        for index in range(mesh.GetNumberOfPoints()):
            print("p %r %r %r" % mesh.GetPoint(index))
        if normals is not None:
            for index in range(normals.GetNumberOfTuples()):
                print("n %r %r %r" % normals.GetTuple3(index))
        for triangle in triangles:
            print("t %d %d %d" % triangle)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
