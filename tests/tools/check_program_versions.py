#!/usr/bin/env python3
"""Every program answers --version and --help with exit status 0, without a display: each runs
with DISPLAY and WAYLAND_DISPLAY removed (as on a server, or in the package check), and the
version printed is the one CMake's project(VERSION) gave.

Usage: check_program_versions.py VERSION PROGRAM [PROGRAM ...]
"""

import os
import subprocess
import sys


def fail(message):
    print("FAIL: " + message, file=sys.stderr)
    sys.exit(1)


def run(program, option, environment):
    command = [program, option]
    print("running: " + " ".join(command))
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=60,
                                env=environment)
    except subprocess.TimeoutExpired:
        fail("%s %s did not finish within 60 s" % (program, option))
    sys.stdout.write(result.stdout)
    sys.stderr.write(result.stderr)
    if result.returncode != 0:
        fail("%s %s exited with status %d" % (program, option, result.returncode))
    return result.stdout


def main():
    if len(sys.argv) < 3:
        fail("usage: check_program_versions.py VERSION PROGRAM [PROGRAM ...]")
    version = sys.argv[1]
    environment = {k: v for k, v in os.environ.items()
                   if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    for program in sys.argv[2:]:
        name = os.path.basename(program)
        expected = "%s %s" % (name, version)
        first_line = run(program, "--version", environment).strip().splitlines()
        if not first_line or first_line[0] != expected:
            fail("%s --version printed %r, expected %r" % (name, first_line[:1], expected))
        help_text = run(program, "--help", environment)
        if "usage" not in help_text.lower() or "--version" not in help_text:
            fail("%s --help shows no usage line or does not mention --version" % name)
    print("%d programs answer --version (%s) and --help without a display"
          % (len(sys.argv) - 2, version))


if __name__ == "__main__":
    main()
