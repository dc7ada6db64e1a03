#!/usr/bin/env python3
"""isoview-cli's 3MF on the bundled sample, judged by a reader that shares no code with lib3mf.

Usage (run by ctest): check_cli_3mf.py ISOVIEW_CLI SAMPLE.raw OUT.3mf

Runs `ISOVIEW_CLI SAMPLE.raw --iso 40 -o OUT.3mf`, which must exit 0 and print `triangles: N`
and `vertices: N`; then opens OUT.3mf with Python's zipfile and reads its 3D/3dmodel.model part
with xml.etree, and fails unless the model's unit is "millimeter", it holds exactly one object
with a name, exactly N triangles and N vertices whose indices are all in range, a base material
colouring it, and one build item.
"""

import os
import re
import sys
import xml.etree.ElementTree as ElementTree
import zipfile

sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_runner import fail, run_ok  # noqa: E402

ISO = 40  # the skin of resources/samples/mr_head_128x128x85_uint16.raw, in stored units
CLI_TIMEOUT_S = 300
CORE = "{http://schemas.microsoft.com/3dmanufacturing/core/2015/02}"


def parse_count(name, text):
    matches = re.findall(r"^\s*%s:\s*(\d+)\s*$" % name, text, re.MULTILINE)
    if len(matches) != 1:
        fail("expected one line '%s: N' in the CLI's output, found %d" % (name, len(matches)))
    return int(matches[0])


def main(argv):
    if len(argv) != 4:
        sys.exit(__doc__)
    cli, sample, out = argv[1:]
    if os.path.exists(out):
        os.remove(out)  # a stale file from an earlier run must not pass the check
    run = run_ok([cli, sample, "--iso", str(ISO), "-o", out], CLI_TIMEOUT_S)
    triangles = parse_count("triangles", run.stdout)
    vertices = parse_count("vertices", run.stdout)

    if not zipfile.is_zipfile(out):
        fail("%s is not a ZIP package" % out)
    with zipfile.ZipFile(out) as package:
        model = ElementTree.fromstring(package.read("3D/3dmodel.model"))
    if model.get("unit") != "millimeter":
        fail("unit is %r, not 'millimeter'" % model.get("unit"))
    objects = model.findall("%sresources/%sobject" % (CORE, CORE))
    if len(objects) != 1:
        fail("expected one object, found %d" % len(objects))
    found = objects[0]
    if not found.get("name") or found.get("pid") is None:
        fail("the object has no name or no material: %r" % found.attrib)
    mesh = found.find(CORE + "mesh")
    points = mesh.findall("%svertices/%svertex" % (CORE, CORE))
    faces = mesh.findall("%striangles/%striangle" % (CORE, CORE))
    if len(faces) != triangles or len(points) != vertices:
        fail("the 3MF holds %d triangles and %d vertices, the CLI reported %d and %d"
             % (len(faces), len(points), triangles, vertices))
    if any(int(f.get(v)) >= len(points) for f in faces for v in ("v1", "v2", "v3")):
        fail("a triangle refers to a vertex that does not exist")
    if len(model.findall("%sbuild/%sitem" % (CORE, CORE))) != 1:
        fail("expected one build item")
    print("PASS: %s: one object '%s', %d triangles, %d vertices, unit millimeter"
          % (out, found.get("name"), triangles, vertices))


if __name__ == "__main__":
    main(sys.argv)
