#!/usr/bin/env python3
"""Reads a PLY file with VTK's vtkPLYReader, an implementation independent of isoview's, and
prints what VTK found:

    points N
    cells M

Exits non-zero when VTK cannot read the file or reports an error (with a message on stderr;
note that VTK 9.1 crashes outright on some truncated files, which is also a non-zero exit).
Used by the PLY writer tests and by check_cli_ply_with_vtk.py.

Usage: read_ply_vtk.py FILE.ply
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vtk_bootstrap  # noqa: E402


def ensure_vtk():
    """Imports VTK, re-running the running script under the system Python when the current
    interpreter (e.g. a pyenv or venv one) has no VTK."""
    vtk_bootstrap.ensure_vtk(["vtkmodules.vtkIOPLY"])


def read_ply(path):
    """Returns (points, cells) as read by vtkPLYReader; raises RuntimeError on failure."""
    from vtkmodules.util.misc import calldata_type
    from vtkmodules.util.vtkConstants import VTK_STRING
    from vtkmodules.vtkIOPLY import vtkPLYReader

    if not os.path.isfile(path):
        raise RuntimeError("%s: no such file" % path)
    reader = vtkPLYReader()
    if not reader.CanReadFile(path):
        raise RuntimeError("%s: vtkPLYReader says it cannot read this file" % path)

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
    output = reader.GetOutput()
    return output.GetNumberOfPoints(), output.GetNumberOfCells()


def main(argv):
    if len(argv) != 2:
        sys.exit("usage: read_ply_vtk.py FILE.ply")
    ensure_vtk()
    try:
        points, cells = read_ply(argv[1])
    except RuntimeError as error:
        sys.exit("error: %s" % error)
    print("points %d" % points)
    print("cells %d" % cells)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
