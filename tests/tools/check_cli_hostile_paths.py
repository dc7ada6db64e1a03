#!/usr/bin/env python3
"""isoview-cli against hostile paths, end to end (issue 13's cases):
- -o naming a FIFO, a link to a device, the input's data file or its header (through a hard or
  a symbolic link): refused before any extraction, and what was there is unchanged;
- -o naming a link to the process's own standard output (`ln -s /proc/self/fd/1`, what
  /dev/stdout is): written through to the file stdout was redirected to, the link kept (it once
  replaced the system's /dev/stdout with a regular file); to a pipe, refused;
- a FIFO as the volume: refused at once, never blocking;
- the file-size limit (ulimit -f) reached while writing: a clear "File too large", exit 2 and
  nothing left (SIGXFSZ once ended the CLI silently with a temporary file behind);
- SIGTERM, then SIGKILL, while the mesh is being written: the process ends by the signal and no
  temporary file is left beside the target (the file being written is unnamed until commit).

usage: check_cli_hostile_paths.py ISOVIEW_CLI SAMPLE.nhdr WORK_DIR
"""

import hashlib
import os
import resource
import shutil
import signal
import stat
import subprocess
import sys
import time

from cli_runner import fail, run


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def expect_refused(cli, args, needle, timeout_s=60):
    result = run([cli] + args, timeout_s)
    if result.returncode == 0:
        fail("isoview-cli %s succeeded; expected a refusal" % " ".join(args))
    if needle not in result.stderr:
        fail("the refusal does not say %r: %s" % (needle, result.stderr))
    return result


def main():
    cli, sample_header, work = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    # The sample and its data file, copied: the test may only ever harm its own copies.
    header = os.path.join(work, "head.nhdr")
    shutil.copy(sample_header, header)
    with open(sample_header) as f:
        data_name = [l.split(":", 1)[1].strip() for l in f if l.startswith("data file:")][0]
    data = os.path.join(work, data_name)
    shutil.copy(os.path.join(os.path.dirname(sample_header), data_name), data)
    before = digest(data), digest(header)

    fifo = os.path.join(work, "mesh.ply")
    os.mkfifo(fifo)
    expect_refused(cli, [header, "--iso", "40", "-o", fifo], "is a FIFO (named pipe)")
    if not stat.S_ISFIFO(os.lstat(fifo).st_mode):
        fail("the FIFO at the output path was replaced")

    device_link = os.path.join(work, "null.ply")
    os.symlink("/dev/null", device_link)
    expect_refused(cli, [header, "--iso", "40", "-o", device_link], "links to a character device")
    if not os.path.islink(device_link):
        fail("the link to /dev/null was replaced")

    stdout_link = os.path.join(work, "stdout.ply")
    os.symlink("/proc/self/fd/1", stdout_link)
    redirected = os.path.join(work, "redirected.txt")
    with open(redirected, "wb") as out:
        result = subprocess.run([cli, header, "--iso", "40", "-o", stdout_link], stdout=out,
                                stderr=subprocess.PIPE, text=False, timeout=120)
    if result.returncode != 0:
        fail("-o through a link to a redirected stdout failed: %s" % result.stderr)
    if not os.path.islink(stdout_link):
        fail("the link to /proc/self/fd/1 was replaced by a file")
    with open(redirected, "rb") as f:
        if not f.read(4) == b"ply\n":
            fail("the mesh did not reach the file standard output was redirected to")
    expect_refused(cli, [header, "--iso", "40", "-o", stdout_link], "links to a FIFO")

    # The volume's own files under mesh names: a hard link to the data, a symbolic link to the
    # header (written through, it would land on the header). Under their own names they are
    # refused even sooner, for naming no mesh format.
    hard = os.path.join(work, "hard.ply")
    os.link(data, hard)
    soft = os.path.join(work, "soft.stl")
    os.symlink(header, soft)
    for target in (hard, soft):
        started = time.monotonic()
        expect_refused(cli, [header, "--iso", "40", "-o", target],
                       "a file the open volume was read from")
        print("refused -o %s in %.2f s" % (os.path.basename(target), time.monotonic() - started))
    expect_refused(cli, [header, "--iso", "40", "-o", data], "cannot tell the mesh format")
    if (digest(data), digest(header)) != before:
        fail("the input volume's files changed")

    limited = os.path.join(work, "limited.ply")
    result = subprocess.run(
        [cli, header, "--iso", "40", "-o", limited], capture_output=True, text=True, timeout=120,
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (65536, 65536)))
    if result.returncode != 2 or "File too large" not in result.stderr:
        fail("past the file-size limit: exit %d, %r" % (result.returncode, result.stderr))
    left = [n for n in os.listdir(work) if n.startswith(".limited") or n == "limited.ply"]
    if left:
        fail("left behind past the file-size limit: %s" % left)

    fifo_volume = os.path.join(work, "volume.nrrd")
    os.mkfifo(fifo_volume)
    expect_refused(cli, [fifo_volume, "--iso", "1"], "is a FIFO (named pipe)", timeout_s=20)

    # A signal while writing. The file being written has no name (O_TMPFILE) but shows in the
    # process's open files as "<work>/#inode (deleted)"; the signal is sent once it is there.
    # The export is an ASCII PLY of noise (about 3 M triangles, well over half a second of
    # writing); a run that still ends before the signal, normally and with its file complete,
    # is tried again. A CLI that ignores SIGTERM fails every try.
    noise = os.path.join(work, "noise.nhdr")
    with open(os.path.join(work, "noise.raw"), "wb") as f:
        f.write(os.urandom(128 * 128 * 64))
    with open(noise, "w") as f:
        f.write("NRRD0004\ntype: uint8\ndimension: 3\nsizes: 128 128 64\n"
                "encoding: raw\ndata file: noise.raw\n")
    target = os.path.join(work, "big.ply")

    def writing(pid):
        try:
            for fd in os.listdir("/proc/%d/fd" % pid):
                link = os.readlink("/proc/%d/fd/%s" % (pid, fd))
                if link.startswith(work) and ("(deleted)" in link or ".tmp-" in link):
                    return link
        except OSError:
            pass
        return None

    for sig in (signal.SIGTERM, signal.SIGKILL):
        for attempt in range(1, 6):
            process = subprocess.Popen([cli, noise, "--iso", "127.5", "--ascii", "-o", target],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            deadline = time.monotonic() + 120
            temporary = None
            while temporary is None and process.poll() is None and time.monotonic() < deadline:
                temporary = writing(process.pid)
                time.sleep(0.001)
            if temporary is not None:
                process.send_signal(sig)
            process.wait(timeout=120)
            if process.returncode == -sig:
                break
            if process.returncode != 0 or time.monotonic() >= deadline:
                fail("isoview-cli ended with %d, not by signal %d" % (process.returncode, sig))
            print("try %d: the export ended before the signal; trying again" % attempt)
            os.remove(target)
        else:
            fail("isoview-cli never ended by signal %d in 5 tries" % sig)
        left = [n for n in os.listdir(work) if ".tmp-" in n or n == "big.ply"]
        if left:
            fail("left behind after signal %d: %s" % (sig, left))
        print("signal %d during the write of %s: ended by the signal, nothing left"
              % (sig, temporary))
    shutil.rmtree(work, ignore_errors=True)
    print("PASS")


if __name__ == "__main__":
    main()
