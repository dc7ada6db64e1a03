#!/usr/bin/env bash
# isoview's print preparation beside VTK's usual pipeline, in one sitting: the whole isoview-cli
# run (load, extraction, close, keep largest, smooth, decimate, measure, write; wall clock) against
# VTK's three filters alone (largest region, windowed-sinc smoothing, quadric decimation with
# volume preservation; packaging/vtk_print_pipeline.py) on the same closed surface, which
# isoview-cli writes first (untimed). Interleaved A, B, A, B so that a shared, noisy machine slows
# both alike. Prints each round, isoview's stage times and the medians.
#
#   packaging/bench-print-vs-vtk.sh BUILD_DIR VOLUME ISOVALUE [SMOOTH=20] [KEEP=0.1] [ROUNDS=3]
#
# e.g. packaging/bench-print-vs-vtk.sh build/release ../shared/data/dicom/ct_philips_head_phantom_5mm -400
# Needs Debian's python3-vtk9 (/usr/bin/python3).
set -euo pipefail
usage="usage: bench-print-vs-vtk.sh BUILD_DIR VOLUME ISOVALUE [SMOOTH] [KEEP] [ROUNDS]"
build="${1:?$usage}"
volume="${2:?$usage}"
iso="${3:?$usage}"
smooth="${4:-20}"
keep="${5:-0.1}"
rounds="${6:-3}"
here="$(cd "$(dirname "$0")" && pwd)"
cli="$build/isoview-cli"
[ -x "$cli" ] || { echo "bench-print-vs-vtk: no $cli (build the release preset)" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

"$cli" "$volume" --iso "$iso" --close-borders -o "$work/closed.ply" >/dev/null
iso_ms=()
vtk_ms=()
for ((round = 1; round <= rounds; round++)); do
    start=$(date +%s%N)
    "$cli" "$volume" --iso "$iso" --close-borders --keep-largest --smooth "$smooth" \
        --decimate "$keep" -o "$work/prepared.ply" >"$work/report.txt"
    ms=$((($(date +%s%N) - start) / 1000000))
    line="$(/usr/bin/python3 "$here/vtk_print_pipeline.py" "$work/closed.ply" "$smooth" "$keep")"
    vtk="$(awk '{print $3}' <<<"$line")"
    echo "round $round: isoview-cli ${ms} ms ($(grep -E '^triangles_after' "$work/report.txt")," \
        "$(grep -E '^distance_to_raw_mm' "$work/report.txt"))"
    echo "         $(grep -E '^stage_ms' "$work/report.txt")"
    echo "         ${line}"
    iso_ms+=("$ms")
    vtk_ms+=("$vtk")
done
/usr/bin/python3 - "${iso_ms[*]}" "${vtk_ms[*]}" <<'PY'
import statistics, sys
iso, vtk = ([float(x) for x in a.split()] for a in sys.argv[1:3])
i, v = statistics.median(iso), statistics.median(vtk)
print("medians: isoview-cli whole run %.0f ms; VTK's three filters %.0f ms" % (i, v))
print("isoview takes %.2f of VTK's time" % (i / v))
PY
