#!/usr/bin/env python3
"""End to end: `isoview --movie` records the bundled sample off screen with no window and exits,
and an independent decoder (FFmpeg's ffprobe and ffmpeg programs) reads the movie back.

- A turn as H.264 MP4: codec h264, the size asked for, every frame there, and frames that
  differ as a turn says (the first and the middle frame differ; the first and the second are
  closer than the first and the middle).
- An isovalue sweep as numbered PNGs: one lossless frame per step, and each frame's surface has
  the triangles of VTK's Flying Edges (a CPU marching cubes of its own) at that frame's
  isovalue, which the sweep puts at A, the midpoint and B.
- Time, on a 4-D NIfTI of the shared data: one frame per time point (no --frames), each with
  the triangles of VTK's Flying Edges on that volume of the file.
- Requests it cannot honour fail before the volume is read, with exit status 2 and a reason.

Usage: check_viewer_movie.py ISOVIEW SAMPLE_XxYxZ_uint16.raw SHARED_DATA_DIR OUTDIR   (needs a
display: ctest runs under xvfb-run)
"""

import os
import re
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import read_ply_vtk  # noqa: E402
import vtk_reference  # noqa: E402

TIMEOUT_S = 300
SIZE = (160, 120)
TURN_FRAMES = 36
# Isovalues no voxel of the sample equals (its values are whole): Flying Edges and isoview
# then count the same triangles.
SWEEP = (40.5, 120.5)


def fail(message):
    sys.exit("check_viewer_movie: " + message)


def tool(name):
    path = shutil.which(name)
    if path is None:
        fail(f"{name} is not installed (Debian package ffmpeg): the movie cannot be read back")
    return path


def run_isoview(isoview, arguments):
    run = subprocess.run([isoview] + arguments, capture_output=True, text=True, timeout=TIMEOUT_S)
    sys.stdout.write(run.stdout)
    sys.stderr.write(run.stderr[-2000:])
    return run


def probe(path):
    """(codec, width, height, frames counted by decoding) of the first video stream."""
    out = subprocess.run([tool("ffprobe"), "-v", "error", "-select_streams", "v:0", "-count_frames",
                          "-show_entries", "stream=codec_name,width,height,nb_read_frames",
                          "-of", "csv=p=0", path],
                         capture_output=True, text=True, timeout=TIMEOUT_S, check=True).stdout
    codec, width, height, frames = out.strip().split(",")
    return codec, int(width), int(height), int(frames)


def decoded_frames(path):
    """Every frame of the movie as RGB bytes, decoded by ffmpeg."""
    raw = subprocess.run([tool("ffmpeg"), "-v", "error", "-i", path, "-f", "rawvideo",
                          "-pix_fmt", "rgb24", "-"],
                         capture_output=True, timeout=TIMEOUT_S, check=True).stdout
    size = SIZE[0] * SIZE[1] * 3
    return [raw[i:i + size] for i in range(0, len(raw), size)]


def mean_difference(a, b):
    return sum(abs(x - y) for x, y in zip(a, b)) / len(a)


def check_turn(isoview, outdir):
    movie = os.path.join(outdir, "turn.mp4")
    run = run_isoview(isoview, ["--movie", movie, "--frames", str(TURN_FRAMES), "--size",
                                f"{SIZE[0]}x{SIZE[1]}"])
    if run.returncode != 0 or not os.path.exists(movie):
        fail(f"the turn exited with {run.returncode} and left {os.listdir(outdir)}")
    codec, width, height, frames = probe(movie)
    if (codec, width, height, frames) != ("h264", SIZE[0], SIZE[1], TURN_FRAMES):
        fail(f"the turn is {codec} {width}x{height} with {frames} frames")
    images = decoded_frames(movie)
    near = mean_difference(images[0], images[1])
    far = mean_difference(images[0], images[TURN_FRAMES // 2])
    print(f"turn: h264 {width}x{height}, {frames} frames; mean difference of frame 0 to 1: "
          f"{near:.2f}, to {TURN_FRAMES // 2}: {far:.2f}")
    if not (far > 2.0 and far > 1.5 * near):
        fail("the turn's frames do not change as a turn does")


def check_sweep(isoview, sample, outdir):
    pattern = os.path.join(outdir, "sweep_{n}.png")
    run = run_isoview(isoview, ["--movie", pattern, "--animate", f"iso:{SWEEP[0]}:{SWEEP[1]}",
                                "--frames", "3", "--size", f"{SIZE[0]}x{SIZE[1]}"])
    if run.returncode != 0:
        fail(f"the sweep exited with {run.returncode}")
    lines = re.findall(r"^isoview: frame (\d+) isovalue (\S+) triangles (\d+)$", run.stdout,
                       re.MULTILINE)
    if [int(f) for f, _, _ in lines] != [0, 1, 2]:
        fail(f"expected frames 0, 1 and 2 in the output, got {lines}")
    middle = (SWEEP[0] + SWEEP[1]) / 2
    for (frame, iso, triangles), expected_iso in zip(lines, (SWEEP[0], middle, SWEEP[1])):
        if abs(float(iso) - expected_iso) > 1e-9:
            fail(f"frame {frame} is at isovalue {iso}, expected {expected_iso}")
        reference = vtk_reference.flying_edges_on_raw(sample, expected_iso)[1]
        print(f"sweep frame {frame}: isovalue {iso}, {triangles} triangles "
              f"(VTK's Flying Edges: {reference})")
        if int(triangles) != reference:
            fail(f"frame {frame} has {triangles} triangles, Flying Edges {reference}")
        png = os.path.join(outdir, f"sweep_{int(frame):04d}.png")
        codec, width, height, frames = probe(png)
        if (codec, width, height, frames) != ("png", SIZE[0], SIZE[1], 1):
            fail(f"{png} is {codec} {width}x{height} with {frames} frames")
    if len(os.listdir(outdir)) != 4:  # turn.mp4 and three frames
        fail(f"unexpected files: {sorted(os.listdir(outdir))}")


def check_time(isoview, shared, outdir):
    nifti = os.path.join(shared, "nifti", "ax_int_36sl_12.nii")
    iso = 600.5
    movie = os.path.join(outdir, "time.mp4")
    run = run_isoview(isoview, [nifti, "--iso", str(iso), "--movie", movie, "--animate", "time",
                                "--size", f"{SIZE[0]}x{SIZE[1]}"])
    if run.returncode != 0:
        fail(f"the movie of time exited with {run.returncode}")
    lines = re.findall(r"^isoview: frame (\d+) isovalue \S+ triangles (\d+)$", run.stdout,
                       re.MULTILINE)
    if [int(f) for f, _ in lines] != [0, 1]:
        fail(f"expected one frame per time point (2), got {lines}")
    for frame, triangles in lines:
        surface, _ = vtk_reference.flying_edges_on_nifti(nifti, int(frame), iso)
        reference = surface.GetNumberOfCells()
        print(f"time point {int(frame) + 1}: {triangles} triangles (VTK's Flying Edges: "
              f"{reference})")
        if int(triangles) != reference:
            fail(f"time point {int(frame) + 1} has {triangles} triangles, Flying Edges "
                 f"{reference}")
    codec, width, height, frames = probe(movie)
    if (codec, frames) != ("h264", 2):
        fail(f"the movie of time is {codec} with {frames} frames")
    os.remove(movie)


def check_refusals(isoview, outdir):
    for arguments, reason in [
        (["--movie", os.path.join(outdir, "odd.mp4"), "--size", "161x120"], "even width"),
        (["--movie", os.path.join(outdir, "x.mp4"), "--animate", "spin"], "unknown animation"),
        (["--movie", os.path.join(outdir, "x.avi")], ".mp4, .png"),
        (["--movie", os.path.join(outdir, "none", "x.mp4")], "does not exist"),
        (["--frames", "3"], "--frames is for --movie"),
    ]:
        run = run_isoview(isoview, arguments)
        if run.returncode != 2 or reason not in run.stderr:
            fail(f"{arguments}: expected exit 2 and '{reason}', got {run.returncode}")
    if len(os.listdir(outdir)) != 4:
        fail(f"a refused movie left files: {sorted(os.listdir(outdir))}")


def main(argv):
    if len(argv) != 5:
        sys.exit(__doc__)
    isoview, sample, shared, outdir = argv[1:]
    read_ply_vtk.ensure_vtk()  # may re-run this script under the Python that has VTK
    shutil.rmtree(outdir, ignore_errors=True)
    os.makedirs(outdir)
    check_turn(isoview, outdir)
    check_sweep(isoview, sample, outdir)
    check_time(isoview, shared, outdir)
    check_refusals(isoview, outdir)
    print("check_viewer_movie: ok")


if __name__ == "__main__":
    main(sys.argv)
