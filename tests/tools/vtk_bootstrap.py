"""Makes VTK's Python modules importable for the test scripts in this folder.

The Debian package python3-vtk9 installs VTK for the system interpreter only, so a script
started by another interpreter (a pyenv or venv one) is re-run under the system Python, once.

Contract: ensure_vtk(modules) returns when all named modules import; otherwise it replaces the
running process with "/usr/bin/python3 sys.argv[0] sys.argv[1:]" (the environment variable
ISOVIEW_VTK_REEXEC guards against a loop), or, when that is not possible, exits with an error
message. Call it from the script's main(), before any other VTK import.

Usage (the scripts are run as files, so their folder goes on sys.path first):

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import vtk_bootstrap
    vtk_bootstrap.ensure_vtk(["vtkmodules.vtkIOPLY"])
"""

import importlib
import os
import sys

SYSTEM_PYTHON = "/usr/bin/python3"


def ensure_vtk(modules):
    """Imports the named VTK modules, re-running the running script under the system Python
    when the current interpreter has no VTK."""
    try:
        for module in modules:
            importlib.import_module(module)
        return
    except ImportError as error:
        reason = str(error)
    script = os.path.abspath(sys.argv[0])
    if (os.path.exists(SYSTEM_PYTHON)
            and os.path.realpath(sys.executable) != os.path.realpath(SYSTEM_PYTHON)
            and not os.environ.get("ISOVIEW_VTK_REEXEC")):
        os.environ["ISOVIEW_VTK_REEXEC"] = "1"
        sys.stdout.flush()
        os.execv(SYSTEM_PYTHON, [SYSTEM_PYTHON, script] + sys.argv[1:])
    sys.exit("error: cannot import VTK's Python modules (%s); install python3-vtk9" % reason)
