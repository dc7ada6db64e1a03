#!/usr/bin/env python3
"""What the isoview-cli checks share: a failure that says why, and a run of the CLI under a time
limit whose output is echoed into ctest's log."""

import subprocess
import sys


def fail(message):
    print("FAIL: " + message, file=sys.stderr)
    sys.exit(1)


def run(command, timeout_s):
    """Runs command, echoes its output, returns the CompletedProcess; fails on a timeout."""
    print("running: " + " ".join(command))
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=timeout_s)
    except subprocess.TimeoutExpired:
        fail("the CLI did not finish within %d s" % timeout_s)
    sys.stdout.write(result.stdout)
    sys.stderr.write(result.stderr)
    return result


def run_ok(command, timeout_s, context=""):
    """run, and fail unless the exit status is 0 (context goes after the status)."""
    result = run(command, timeout_s)
    if result.returncode != 0:
        fail("the CLI exited with status %d%s" % (result.returncode, context))
    return result
