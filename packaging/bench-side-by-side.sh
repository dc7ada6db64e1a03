#!/usr/bin/env bash
# isoview against HPMC, the HistoPyramid library of the method's authors, side by side on the
# same machine and the same volume: interleaved runs (HPMC, isoview, HPMC, isoview, ...), since
# shared machines drift by 10% and more between minutes; only ratios from one sitting count.
#
#   packaging/bench-side-by-side.sh [--rounds N] [--frames F] [--viewer] [--hpmc-kept-heap]
#                                   [--out FILE.md]
#
# Volume: the standard 256^3 uint8 blob of ../shared/anchors/hpmc (make_blob.py), at byte 127.5
# (HPMC's normalised 0.5), 250,428 triangles. Both render 1280x720 frames:
# - HPMC: its texture3d demo in a window under Xvfb (anchors/hpmc/run.sh), the median of F frames
#   (pyramid build with read-back, extraction, shading, swap, glFinish);
# - isoview: isoview-bench --json --size 1280x720 --runs F, headless EGL: build_ms, render_ms
#   and frame_ms (a new isovalue each frame: rebuild + extraction + shading + glFinish);
# - with --viewer also isoview-viewer-bench in the real window (Xvfb), "every frame" median,
#   with the 3D view alone (--layout 3d) and itself 1280x720 (--view);
# - with --hpmc-kept-heap HPMC runs a second time in each round with glibc keeping freed heap
#   as isoview's programs do (src/core/heap_reuse.h: MALLOC_TRIM_THRESHOLD_ 512 MB,
#   MALLOC_MMAP_THRESHOLD_ 32 MB), and a second ratio compares against that run: the part of
#   isoview's lead that is only the allocator setting, which any program could make.
# Prints every round and the median of the per-round ratios isoview / HPMC; --out appends a
# Markdown table (date, commit, renderer, figures) to FILE.md (docs/benchmarks/ keeps them).
#
# Environment: HPMC_DIR (default /var/tmp/hpmc-anchor), BENCH_DIR (default build/bench),
# SHARED_DIR (default ../shared beside the checkout). Needs a Release build (README command (b)
# or cmake --build --preset release) and python3-numpy for the blob generator.
set -euo pipefail

rounds=3
frames=40
viewer=0
kept_heap=0
out=""
while [ $# -gt 0 ]; do
    case "$1" in
    --rounds) rounds="$2"; shift 2 ;;
    --frames) frames="$2"; shift 2 ;;
    --viewer) viewer=1; shift ;;
    --out) out="$2"; shift 2 ;;
    --hpmc-kept-heap) kept_heap=1; shift ;;
    -h|--help) sed -n '2,29p' "$0"; exit 0 ;;
    *) echo "bench-side-by-side: unknown argument $1" >&2; exit 2 ;;
    esac
done

root="$(cd "$(dirname "$0")/.." && pwd)"
shared="$(cd "${SHARED_DIR:-$root/../shared}" && pwd)"
anchor="$shared/anchors/hpmc"
hpmc_dir="${HPMC_DIR:-/var/tmp/hpmc-anchor}"
bench_dir="${BENCH_DIR:-$root/build/bench}"
bench="$root/build/release/isoview-bench"
viewer_bench="$root/build/release/isoview-viewer-bench"
blob="$bench_dir/blob_256x256x256_uint8.raw"

[ -x "$bench" ] || { echo "bench-side-by-side: build first ($bench is missing)" >&2; exit 1; }
mkdir -p "$bench_dir"
if [ ! -x "$hpmc_dir/build/texture3d" ]; then
    echo "== building HPMC into $hpmc_dir"
    bash "$anchor/build.sh" "$hpmc_dir" >/dev/null
fi
[ -f "$blob" ] || /usr/bin/python3 "$anchor/make_blob.py" "$blob" >/dev/null

field() { # field NAME TEXT: the number after NAME in a "name value" line
    sed -n "s/.*$1 \([0-9.]*\).*/\1/p" <<<"$2" | head -1
}

declare -a ratios=()
declare -a kept_ratios=()
declare -a window_ratios=()
rows=""
renderer=""
for ((r = 1; r <= rounds; r++)); do
    hpmc_line="$(HPMC_BIN="$hpmc_dir/build/texture3d" bash "$anchor/run.sh" "$blob" 256 256 256 0.5 \
        "$frames")"
    hpmc_total="$(field median_total_ms "$hpmc_line")"
    hpmc_build="$(field median_build_ms "$hpmc_line")"
    hpmc_er="$(field median_extract_render_ms "$hpmc_line")"
    hpmc_kept=""
    if [ "$kept_heap" -eq 1 ]; then
        kept_line="$(MALLOC_TRIM_THRESHOLD_=536870912 MALLOC_MMAP_THRESHOLD_=33554432 \
            HPMC_BIN="$hpmc_dir/build/texture3d" bash "$anchor/run.sh" "$blob" 256 256 256 0.5 \
            "$frames")"
        hpmc_kept="$(field median_total_ms "$kept_line")"
    fi

    json="$("$bench" --json --size 1280x720 --runs "$frames" "$blob" 127.5)"
    read -r iso_build iso_render iso_frame triangles renderer_now <<<"$(/usr/bin/python3 -c '
import json, sys
r = json.load(sys.stdin); v = r["volumes"][0]
print("%.1f %.1f %.1f %d %s" % (v["build_ms"]["median"], v["render_ms"]["median"],
      v["frame_ms"]["median"], v["triangles"], r["renderer"].replace(" ", "_")))' <<<"$json")"
    renderer="${renderer_now//_/ }"

    window=""
    if [ "$viewer" -eq 1 ]; then
        # The 3D view alone at HPMC's 1280x720 (the window around it is larger): the default
        # 2x2 layout would give the view a quarter of the pixels HPMC shades.
        vb="$(xvfb-run -a -s "-screen 0 2560x1600x24" "$viewer_bench" "$blob" --iso 127.5 \
            --layout 3d --view 1280x720 --frames "$frames" 2>/dev/null |
            grep -E "^every frame" || true)"
        window="$(sed -n 's/.*median frame \([0-9.]*\) ms.*/\1/p' <<<"$vb")"
    fi
    if [ "$viewer" -eq 1 ] && [ -z "$window" ]; then
        echo "bench-side-by-side: isoview-viewer-bench gave no 'every frame' line" >&2
        exit 1
    fi
    ratio="$(/usr/bin/python3 -c "print('%.3f' % ($iso_frame / $hpmc_total))")"
    ratios+=("$ratio")
    window_ratio=""
    if [ -n "$window" ]; then
        window_ratio="$(/usr/bin/python3 -c "print('%.3f' % ($window / $hpmc_total))")"
        window_ratios+=("$window_ratio")
    fi
    kept_ratio=""
    if [ -n "$hpmc_kept" ]; then
        kept_ratio="$(/usr/bin/python3 -c "print('%.3f' % ($iso_frame / $hpmc_kept))")"
        kept_ratios+=("$kept_ratio")
    fi
    printf "round %d: HPMC frame %s ms (build %s, extract+render %s) | isoview frame %s ms " \
        "$r" "$hpmc_total" "$hpmc_build" "$hpmc_er" "$iso_frame"
    printf "(build %s, render %s)%s | ratio %s%s\n" "$iso_build" "$iso_render" \
        "${window:+ | window $window ms, ratio $window_ratio}" "$ratio" \
        "${hpmc_kept:+ | HPMC with kept heap $hpmc_kept ms, ratio $kept_ratio}"
    rows+="| $r | $hpmc_total | $hpmc_build | $hpmc_er | $iso_frame | $iso_build | $iso_render | ${window:--} | $ratio | ${window_ratio:--} |"
    [ "$kept_heap" -eq 1 ] && rows+=" $hpmc_kept | $kept_ratio |"
    rows+=$'\n'
done

median_of() {
    printf "%s\n" "$@" | /usr/bin/python3 -c '
import statistics, sys
print("%.3f" % statistics.median(float(x) for x in sys.stdin))'
}
median_ratio="$(median_of "${ratios[@]}")"
echo "triangles $triangles; renderer $renderer"
echo "median ratio isoview frame / HPMC frame: $median_ratio (target <= 0.333)"
window_median=""
if [ "$viewer" -eq 1 ]; then
    window_median="$(median_of "${window_ratios[@]}")"
    echo "median ratio isoview window frame / HPMC frame: $window_median (target <= 0.333)"
fi
kept_median=""
if [ "$kept_heap" -eq 1 ]; then
    kept_median="$(median_of "${kept_ratios[@]}")"
    echo "median ratio isoview frame / HPMC frame with kept heap: $kept_median"
fi

if [ -n "$out" ]; then
    commit="$(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet || echo +)"
    {
        echo
        echo "## $(date -u +%Y-%m-%d) — commit $commit — $renderer"
        echo
        echo "256³ uint8 blob at 127.5 ($triangles triangles), 1280×720, $frames frames per run," \
             "medians in ms; rounds interleaved (HPMC, then isoview)."
        echo
        if [ "$kept_heap" -eq 1 ]; then
            echo "| round | HPMC frame | HPMC build | HPMC extract+render | isoview frame | isoview build | isoview render | isoview window | ratio | window ratio | HPMC frame, kept heap | ratio to it |"
            echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
        else
            echo "| round | HPMC frame | HPMC build | HPMC extract+render | isoview frame | isoview build | isoview render | isoview window | ratio | window ratio |"
            echo "|---|---|---|---|---|---|---|---|---|---|"
        fi
        printf "%s" "$rows"
        echo
        if [ "$viewer" -eq 1 ]; then
            echo "The window: isoview-viewer-bench, 3D view alone at 1280×720" \
                "(\`--layout 3d --view 1280x720\`), \"every frame\" median."
            echo
        fi
        echo "Median ratio isoview / HPMC: **$median_ratio**${window_median:+; in the window: **$window_median**}${kept_median:+; against HPMC with the kept heap: **$kept_median**}."
    } >>"$out"
    echo "appended to $out"
fi
