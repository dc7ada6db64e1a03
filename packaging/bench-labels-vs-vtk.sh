#!/usr/bin/env bash
# isoview's label extraction beside VTK's, in one sitting: every label's surface of a label map
# by isoview-label-bench (one GPU pass; llvmpipe without a GPU) and by vtkDiscreteFlyingEdges3D
# (packaging/vtk_discrete_flying_edges.py), interleaved A, B, A, B so that a shared, noisy
# machine slows both alike. Prints each round and the medians; the ratio is VTK's time over
# isoview's capture (extraction plus the meshes on the CPU, as VTK hands over its output).
#
#   packaging/bench-labels-vs-vtk.sh BUILD_DIR LABELMAP [ROUNDS=3]
#
# e.g. packaging/bench-labels-vs-vtk.sh build/release ../shared/data/labels/D99_atlas_v2.0_right.nii.gz
# Needs Debian's python3-vtk9 and python3-numpy (/usr/bin/python3).
set -euo pipefail
build="${1:?usage: bench-labels-vs-vtk.sh BUILD_DIR LABELMAP [ROUNDS]}"
labelmap="${2:?usage: bench-labels-vs-vtk.sh BUILD_DIR LABELMAP [ROUNDS]}"
rounds="${3:-3}"
here="$(cd "$(dirname "$0")" && pwd)"
bench="$build/isoview-label-bench"
[ -x "$bench" ] || { echo "bench-labels-vs-vtk: no $bench (build the release preset)" >&2; exit 2; }

iso_extract=()
iso_capture=()
vtk_ms=()
for ((round = 1; round <= rounds; round++)); do
    json="$("$bench" --runs 3 --json "$labelmap")"
    read -r extract capture triangles peak < <(/usr/bin/python3 -c '
import json, sys
r = json.load(sys.stdin)
print(r["extract_ms"]["median"], r["capture_ms"]["median"], r["triangles"], r["peak_rss_mib"])' \
        <<<"$json")
    line="$(/usr/bin/python3 "$here/vtk_discrete_flying_edges.py" "$labelmap" 1)"
    vtk="$(awk '{print $3}' <<<"$line")"
    echo "round $round: isoview extract ${extract} ms, with meshes ${capture} ms," \
        "${triangles} triangles, peak ${peak} MiB | ${line}"
    iso_extract+=("$extract")
    iso_capture+=("$capture")
    vtk_ms+=("$vtk")
done
/usr/bin/python3 - "${iso_extract[*]}" "${iso_capture[*]}" "${vtk_ms[*]}" <<'PY'
import statistics, sys
extract, capture, vtk = ([float(x) for x in a.split()] for a in sys.argv[1:4])
e, c, v = statistics.median(extract), statistics.median(capture), statistics.median(vtk)
print("medians: isoview extract %.0f ms, with meshes %.0f ms; vtkDiscreteFlyingEdges3D %.0f ms"
      % (e, c, v))
print("isoview with meshes takes %.3f of VTK's time (VTK / isoview = %.1fx)" % (c / v, v / c))
PY
