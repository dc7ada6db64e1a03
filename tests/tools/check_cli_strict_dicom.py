#!/usr/bin/env python3
"""isoview-cli on a copy of a DICOM series with one slice cut short in its pixel data: by
default it loads the other slices and warns, naming the file and the gap it leaves; with
--strict it refuses with exit status 2 and the same reason, and --help lists the option.
Then a copy with one slice and one subfolder (holding another slice) that cannot be read
(mode 000; as root the CLI runs as nobody through setpriv, since root reads anything): by
default both are named and the rest loads; with --strict it refuses, naming them.

usage: check_cli_strict_dicom.py ISOVIEW_CLI SERIES_FOLDER"""

import os
import re
import shutil
import sys
import tempfile

from cli_runner import fail, run, run_ok


def share_sanitizer_files(folder):
    """Under the sanitizer suite the environment names files (a preloaded library, suppression
    lists) that nobody may not read where the checkout lies: copies of them in folder, readable
    by all, are named instead."""
    def shared(path):
        if not path or not os.path.isfile(path):
            return path
        copy = os.path.join(folder, "%d_%s" % (len(os.listdir(folder)), os.path.basename(path)))
        shutil.copy2(path, copy)
        os.chmod(copy, 0o755)
        return copy
    if os.environ.get("LD_PRELOAD"):
        os.environ["LD_PRELOAD"] = " ".join(shared(p) for p in os.environ["LD_PRELOAD"].split())
    for name in ("ASAN_OPTIONS", "LSAN_OPTIONS", "UBSAN_OPTIONS"):
        if name in os.environ:
            os.environ[name] = re.sub(r"(suppressions=)([^:]+)",
                                      lambda m: m.group(1) + shared(m.group(2)), os.environ[name])


def main():
    cli, series = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory(prefix="isoview-cli-strict-") as folder:
        for name in os.listdir(series):
            shutil.copyfile(os.path.join(series, name), os.path.join(folder, name))
        damaged = os.path.join(folder, "I140")  # instance 14 of 28, z = 761.21 mm
        with open(damaged, "r+b") as f:
            f.truncate(200000)

        lenient = run_ok([cli, folder, "--info"], 120)
        for expected in ("1 of 28 slices could not be read and were left out",
                         "I140' is truncated at byte 200000",
                         "a gap of 10 mm between slices 13 and 14 of 27",
                         "512x512x27"):
            if expected not in lenient.stdout + lenient.stderr:
                fail("the lenient load does not say '%s'" % expected)

        strict = run([cli, folder, "--info", "--strict"], 120)
        if strict.returncode != 2:
            fail("--strict exited with status %d, expected 2" % strict.returncode)
        if "isoview-cli: '" not in strict.stderr or "I140' is truncated at byte 200000" not in \
                strict.stderr:
            fail("--strict does not name the truncated file: %r" % strict.stderr)

    program_folder = None
    saved_environment = dict(os.environ)
    with tempfile.TemporaryDirectory(prefix="isoview-cli-unreadable-") as folder:
        os.chmod(folder, 0o755)
        for name in os.listdir(series):
            shutil.copyfile(os.path.join(series, name), os.path.join(folder, name))
        os.mkdir(os.path.join(folder, "sub"))
        os.rename(os.path.join(folder, "I20"), os.path.join(folder, "sub", "I20"))
        os.chmod(os.path.join(folder, "I180"), 0)
        os.chmod(os.path.join(folder, "sub"), 0)
        as_user = []
        user_cli = cli
        if os.geteuid() == 0:
            # nobody may not reach the build folder (a checkout under /root): a copy of the
            # program in the world-readable temporary folder runs instead.
            as_user = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
            program_folder = tempfile.mkdtemp(prefix="isoview-cli-program-")
            os.chmod(program_folder, 0o755)
            user_cli = os.path.join(program_folder, "isoview-cli")
            shutil.copy2(cli, user_cli)
            os.chmod(user_cli, 0o755)
            share_sanitizer_files(program_folder)
        lenient = run_ok(as_user + [user_cli, folder, "--info"], 120)
        for expected in ("cannot open '%s': Permission denied" % os.path.join(folder, "I180"),
                         "cannot list the folder '%s'" % os.path.join(folder, "sub"),
                         "512x512x26"):
            if expected not in lenient.stdout + lenient.stderr:
                fail("with unreadable files the lenient load does not say '%s': %s"
                     % (expected, lenient.stdout + lenient.stderr))
        strict = run(as_user + [user_cli, folder, "--info", "--strict"], 120)
        if strict.returncode != 2 or "refused (strict): 2 files or folders" not in strict.stderr \
                or "sub': Permission denied" not in strict.stderr:
            fail("--strict does not refuse unreadable files, naming them: status %d, %r"
                 % (strict.returncode, strict.stderr))

    if program_folder:
        os.environ.clear()
        os.environ.update(saved_environment)
        shutil.rmtree(program_folder)
    usage = run_ok([cli, "--help"], 30)
    if "--strict" not in usage.stdout + usage.stderr:
        fail("--help does not list --strict")
    print("OK")


if __name__ == "__main__":
    main()
