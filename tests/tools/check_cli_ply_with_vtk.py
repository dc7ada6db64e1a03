#!/usr/bin/env python3
"""End-to-end check of isoview-cli on the bundled sample, judged by VTK.

Usage (run by ctest): check_cli_ply_with_vtk.py ISOVIEW_CLI SAMPLE.raw OUT.ply

Runs `ISOVIEW_CLI SAMPLE.raw --iso ISO -o OUT.ply`, which must exit 0 and print the lines
`triangles: N` and `vertices: N`; then reads OUT.ply with VTK's vtkPLYReader (an independent
implementation) and fails unless VTK finds exactly that many points and cells, the mesh has
more than 1000 triangles, and the PLY header has a comment stating space and units.
Then `-o -` must write the same bytes to standard output, with the report on standard error,
and `-o - --format stl` a binary STL of that many triangles.
"""

import os
import re
import subprocess
import sys

sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import read_ply_vtk  # noqa: E402
from cli_runner import fail, run_ok  # noqa: E402

# The skin surface of resources/samples/mr_head_128x128x85_uint16.raw, in stored units (see
# resources/samples/README.md).
ISO = 40
MIN_TRIANGLES = 1000
CLI_TIMEOUT_S = 300


def parse_count(name, text):
    matches = re.findall(r"^\s*%s:\s*(\d+)\s*$" % name, text, re.MULTILINE)
    if len(matches) != 1:
        fail("expected one line '%s: N' in the CLI's output, found %d:\n%s"
             % (name, len(matches), text))
    return int(matches[0])


def read_header(path):
    with open(path, "rb") as file:
        data = file.read(4096)
    end = data.find(b"end_header\n")
    if not data.startswith(b"ply\n") or end < 0:
        fail("%s does not start with a PLY header" % path)
    return data[:end].decode("ascii", errors="replace").splitlines()


def main(argv):
    if len(argv) != 4:
        sys.exit(__doc__)
    cli, sample, out_ply = argv[1:]
    read_ply_vtk.ensure_vtk()  # may re-run this script under the Python that has VTK

    if os.path.exists(out_ply):
        os.remove(out_ply)  # a stale file from an earlier run must not pass the check
    command = [cli, sample, "--iso", str(ISO), "-o", out_ply]
    run = run_ok(command, CLI_TIMEOUT_S)

    triangles = parse_count("triangles", run.stdout)
    vertices = parse_count("vertices", run.stdout)
    if not os.path.isfile(out_ply):
        fail("the CLI reported success but wrote no %s" % out_ply)

    header = read_header(out_ply)
    stated = [line for line in header
              if line.startswith("comment") and re.search(r"\bSPACE=\S+", line)
              and re.search(r"\bunits=\S+", line)]
    if not stated:
        fail("the PLY header has no comment stating SPACE=... units=...:\n" + "\n".join(header))

    try:
        points, cells = read_ply_vtk.read_ply(out_ply)
    except RuntimeError as error:
        fail(str(error))
    print("CLI: %d vertices, %d triangles; VTK: %d points, %d cells; header: %s"
          % (vertices, triangles, points, cells, stated[0]))
    if points != vertices:
        fail("VTK read %d points, the CLI reported %d vertices" % (points, vertices))
    if cells != triangles:
        fail("VTK read %d cells, the CLI reported %d triangles" % (cells, triangles))
    if triangles <= MIN_TRIANGLES:
        fail("only %d triangles at iso %d; the head surface has far more" % (triangles, ISO))

    with open(out_ply, "rb") as file:
        written = file.read()
    streamed = subprocess.run([cli, sample, "--iso", str(ISO), "-o", "-"], capture_output=True,
                              timeout=CLI_TIMEOUT_S)
    if streamed.returncode != 0 or streamed.stdout != written:
        fail("-o - did not write the PLY's bytes to standard output (status %d, %d bytes, "
             "expected %d)" % (streamed.returncode, len(streamed.stdout), len(written)))
    if parse_count("triangles", streamed.stderr.decode()) != triangles:
        fail("-o - did not report on standard error")
    stl = subprocess.run([cli, sample, "--iso", str(ISO), "-o", "-", "--format", "stl"],
                         capture_output=True, timeout=CLI_TIMEOUT_S)
    if stl.returncode != 0 or len(stl.stdout) != 84 + 50 * triangles or \
            int.from_bytes(stl.stdout[80:84], "little") != triangles:
        fail("-o - --format stl did not write a binary STL of %d triangles (%d bytes)"
             % (triangles, len(stl.stdout)))
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
