#!/usr/bin/python3
"""isoview-bench --json end to end: runs the bench on a volume and checks that the report is
one JSON object with every figure a comparison needs, consistent with itself (no timing limits:
speed lives in the benchmark's numbers, never in a test's pass/fail).

usage: check_bench_json.py ISOVIEW_BENCH ISOVIEW_CLI VOLUME ISO
The triangle count must be the one isoview-cli extracts at ISO: the triangles it writes plus the
zero-area ones it drops before writing.
"""
import json
import re
import subprocess
import sys


def main():
    bench, cli, volume, iso = sys.argv[1:5]
    cli_out = subprocess.run([cli, volume, "--iso", iso], check=True, capture_output=True,
                             text=True, timeout=600).stdout
    expected = int(re.search(r"^triangles: (\d+)$", cli_out, re.M).group(1))
    dropped = re.search(r"^zero_area_triangles_removed: (\d+)$", cli_out, re.M)
    expected += int(dropped.group(1)) if dropped else 0
    out = subprocess.run([bench, "--runs", "3", "--size", "320x240", "--json", volume, iso],
                         check=True, capture_output=True, text=True, timeout=600).stdout
    report = json.loads(out)
    assert report["size"] == [320, 240], report["size"]
    assert report["runs"] == 3
    assert report["renderer"], "renderer missing"
    [v] = report["volumes"]
    assert v["triangles"] == expected, (v["triangles"], expected)
    d = v["dims"]
    assert v["cells"] == (d[0] - 1) * (d[1] - 1) * (d[2] - 1)
    for key in ("build_ms", "render_ms", "frame_ms", "capture_ms"):
        s = v[key]
        assert 0 < s["min"] <= s["median"] <= s["max"], (key, s)
    assert v["cells_per_s"] > 0
    for key in ("drag_fps", "static_fps", "drag_waiting_fps"):
        assert v[key] > 0, (key, v[key])
    total = v["volume_bytes"] + v["pyramid_bytes"]
    voxels = d[0] * d[1] * d[2]
    assert abs(v["bytes_per_voxel"] - total / voxels) < 1e-9
    assert abs(v["pyramid_bytes_per_voxel"] - v["pyramid_bytes"] / voxels) < 1e-9
    print("isoview-bench --json: %d triangles, frame median %.1f ms, %.2f bytes per voxel"
          % (v["triangles"], v["frame_ms"]["median"], v["bytes_per_voxel"]))


if __name__ == "__main__":
    main()
