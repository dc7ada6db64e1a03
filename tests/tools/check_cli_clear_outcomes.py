#!/usr/bin/env python3
"""isoview-cli says what went wrong, early and truly, where it used to mislead (issue 26):

- an output folder that does not exist is refused before any extraction, also when -o is a
  pattern ({n}), not found after the work;
- an absurd voxel spacing (1e300 mm) is refused at load, not met as "non-finite" at export;
- a NIfTI whose scl_slope (3e38) sends real values past 32-bit floats is refused at load, not
  turned into empty surfaces;
- an isovalue beyond the volume's values warns that the surface is empty;
- --raw-dims on a NIfTI is refused (its header gives the size), not silently ignored;
- a raw file named name_XxYxZ_type_be.raw loads big-endian, as the names isoview proposes;
- --series past 2^64 is refused, not wrapped;
- a sparse raw file the GPU cannot hold (half this machine's available memory, uint8) is refused
  from its dimensions before it is read: the program's peak memory stays far below the file.

usage: check_cli_clear_outcomes.py ISOVIEW_CLI SAMPLE_uint16.raw NIFTI.nii"""

import os
import resource
import struct
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_runner import fail, run, run_ok  # noqa: E402

TIMEOUT_S = 120


def expect_refused(command, words, what):
    result = run(command, TIMEOUT_S)
    if result.returncode == 0 or words not in result.stderr:
        fail("%s: expected a refusal saying '%s', got status %d" % (what, words,
                                                                  result.returncode))
    return result


def available_memory_bytes():
    with open("/proc/meminfo") as meminfo:
        for line in meminfo:
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    fail("/proc/meminfo does not say MemAvailable")


def check_unholdable_raw_is_refused_unread(cli, folder):
    # Half the available memory as uint8: it fits in memory, but its texture and pyramids
    # (about 2.9 bytes a voxel) do not fit beside it. Sparse, so it costs no disk.
    side = 4096
    slices = max(1, available_memory_bytes() // 2 // (side * side))
    sparse = os.path.join(folder, "big_%dx%dx%d_uint8.raw" % (side, side, slices))
    with open(sparse, "wb") as f:
        f.truncate(side * side * slices)
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
    expect_refused([cli, sparse, "--iso", "1"], "of GPU memory", "a raw volume the GPU cannot hold")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
    if max(peak, before) > side * side * slices // 4:
        fail("the refused %d-byte raw volume was read first: peak memory %d bytes" %
             (side * side * slices, peak))


def main():
    cli, sample, nifti = sys.argv[1:4]
    with tempfile.TemporaryDirectory(prefix="isoview-cli-clear-") as folder:
        missing = os.path.join(folder, "no_such_folder", "m_{n}.ply")
        result = expect_refused([cli, sample, "--iso", "40", "--iso", "50", "-o", missing],
                                "does not exist", "a missing output folder")
        if "extraction_ms" in result.stdout:
            fail("the missing output folder was found only after the extraction")

        expect_refused([cli, sample, "--iso", "40", "--spacing", "1e300", "1", "1"],
                       "is not a scan's", "a spacing of 1e300 mm")

        with open(nifti, "rb") as f:
            header = bytearray(f.read())
        if struct.unpack_from("<i", header, 0)[0] != 348:
            fail("%s is not a little-endian NIfTI-1 file" % nifti)
        struct.pack_into("<ff", header, 112, 3e38, 0.0)  # scl_slope, scl_inter
        huge = os.path.join(folder, "huge_slope.nii")
        with open(huge, "wb") as f:
            f.write(header)
        expect_refused([cli, huge, "--info"], "beyond what 32-bit floating point holds",
                       "a NIfTI scl_slope of 3e38")

        empty = run_ok([cli, sample, "--iso", "5000"], TIMEOUT_S)
        if "the surface at 5000 is empty (the volume's values span 0 .. 964)" not in empty.stderr:
            fail("an isovalue above every value does not warn that the surface is empty")

        expect_refused([cli, nifti, "--raw-dims", "2", "2", "2", "--raw-type", "uint8", "--info"],
                       "whose header gives its size and type", "--raw-dims on a NIfTI")

        with open(sample, "rb") as f:
            little = f.read()
        swapped = bytearray(little)
        swapped[0::2], swapped[1::2] = little[1::2], little[0::2]
        big = os.path.join(folder, "head_128x128x85_uint16_be.raw")
        with open(big, "wb") as f:
            f.write(swapped)
        info = run_ok([cli, big, "--info"], TIMEOUT_S)
        if "value range: 0 .. 964" not in info.stdout:
            fail("a _be raw file is not read big-endian")

        expect_refused([cli, sample, "--series", "99999999999999999999999", "--info"],
                       "expects a whole number from 0", "--series past 2^64")

        check_unholdable_raw_is_refused_unread(cli, folder)
    print("OK")


if __name__ == "__main__":
    main()
