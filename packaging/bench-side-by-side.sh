#!/usr/bin/env bash
# isoview against HPMC, the HistoPyramid library of the method's authors, and against VTK's
# Flying Edges (what a VTK/ParaView user gets), side by side on the same machine and the same
# volume: interleaved runs (HPMC, isoview, VTK frame, VTK extraction, HPMC, ...), since shared
# machines drift by 10% and more between minutes; only ratios from one sitting count.
#
#   packaging/bench-side-by-side.sh [--rounds N] [--frames F] [--viewer] [--hpmc-kept-heap]
#                                   [--no-vtk] [--ct] [--ct-frames C] [--out FILE.md]
#
# Volume: the standard 256^3 uint8 blob of ../shared/anchors/hpmc (make_blob.py), at byte 127.5
# (HPMC's normalised 0.5), 250,428 triangles. All render 1280x720 frames:
# - HPMC: its texture3d demo in a window under Xvfb (anchors/hpmc/run.sh), the median of F frames
#   less its first 10 (pyramid build with read-back, extraction, shading, swap, glFinish; F is
#   raised to 11 where smaller, the fewest run.sh takes);
# - isoview: isoview-bench --json --size 1280x720 --runs F, headless EGL: build_ms, render_ms
#   and frame_ms (a new isovalue each frame: rebuild + extraction + shading + glFinish); its
#   build_ms is the extraction (classify, pyramid, welded vertex and index passes);
# - VTK frame: anchors/vtk_frame.py in a 1280x720 window under Xvfb, F frames after its 5
#   dropped ones (vtkFlyingEdges3D with normals re-extracted for a new isovalue, VTK's OpenGL
#   render, glFinish); VTK extract: anchors/vtk_flying_edges.py, the median of F extractions
#   alone; ratios isoview frame / VTK frame and isoview build / VTK extract. A warning says so
#   where isoview's and VTK's triangle counts differ (the comparison needs the same surface);
#   --no-vtk leaves VTK out of the blob's rounds;
# - with --viewer also isoview-viewer-bench in the real window (Xvfb), "every frame" median,
#   with the 3D view alone (--layout 3d) and itself 1280x720 (--view);
# - with --hpmc-kept-heap HPMC runs a second time in each round with glibc keeping freed heap
#   as isoview's programs do (src/core/heap_reuse.h: MALLOC_TRIM_THRESHOLD_ 512 MB,
#   MALLOC_MMAP_THRESHOLD_ 32 MB), and a second ratio compares against that run: the part of
#   isoview's lead that is only the allocator setting, which any program could make.
# --ct: after the blob's rounds, as many interleaved rounds (isoview, VTK frame, VTK extraction)
# on the 512x512x140 int16 CT stand-in (packaging/make-resampled-ct.py, made if missing) at its
# skin, -400 HU (2,420,170 triangles, isoview's and VTK's), C frames per run (--ct-frames,
# default 8: on llvmpipe a frame there is ~0.45 s in isoview, ~1.3 s in VTK), and isoview's drag
# frame at half resolution (isoview-bench's preview_ms: what the window shows while the isovalue
# is dragged where full frames are slow). No HPMC: uint8 only.
# Prints every round and the median of the per-round ratios; --out appends a Markdown table
# (date, commit, renderer, figures) to FILE.md (docs/benchmarks/ keeps them), and a second one
# for the CT with --ct.
#
# Environment: HPMC_DIR (default /var/tmp/hpmc-anchor), BENCH_DIR (default build/bench),
# SHARED_DIR (default ../shared beside the checkout). Needs a Release build (README command (b)
# or cmake --build --preset release), python3-numpy for the blob generator and python3-vtk9 for
# the VTK runs and the CT stand-in.
set -euo pipefail

rounds=3
frames=40
viewer=0
kept_heap=0
vtk=1
ct=0
ct_frames=8
out=""
while [ $# -gt 0 ]; do
    case "$1" in
    --rounds) rounds="$2"; shift 2 ;;
    --frames) frames="$2"; shift 2 ;;
    --viewer) viewer=1; shift ;;
    --out) out="$2"; shift 2 ;;
    --hpmc-kept-heap) kept_heap=1; shift ;;
    --no-vtk) vtk=0; shift ;;
    --ct) ct=1; shift ;;
    --ct-frames) ct_frames="$2"; shift 2 ;;
    -h|--help) sed -n '2,41p' "$0"; exit 0 ;;
    *) echo "bench-side-by-side: unknown argument $1" >&2; exit 2 ;;
    esac
done

root="$(cd "$(dirname "$0")/.." && pwd)"
shared="$(cd "${SHARED_DIR:-$root/../shared}" && pwd)"
anchor="$shared/anchors/hpmc"
vtk_frame_py="$shared/anchors/vtk_frame.py"
vtk_extract_py="$shared/anchors/vtk_flying_edges.py"
hpmc_dir="${HPMC_DIR:-/var/tmp/hpmc-anchor}"
bench_dir="${BENCH_DIR:-$root/build/bench}"
bench="$root/build/release/isoview-bench"
viewer_bench="$root/build/release/isoview-viewer-bench"
blob="$bench_dir/blob_256x256x256_uint8.raw"
ct_volume="$bench_dir/ct_phantom_resampled_512x512x140_int16.raw"
ct_iso=-400

[ -x "$bench" ] || { echo "bench-side-by-side: build first ($bench is missing)" >&2; exit 1; }
mkdir -p "$bench_dir"
if [ ! -x "$hpmc_dir/build/texture3d" ]; then
    echo "== building HPMC into $hpmc_dir"
    bash "$anchor/build.sh" "$hpmc_dir" >/dev/null
fi
[ -f "$blob" ] || /usr/bin/python3 "$anchor/make_blob.py" "$blob" >/dev/null
if [ "$ct" -eq 1 ] && [ ! -f "$ct_volume" ]; then
    echo "== making the CT stand-in $ct_volume"
    /usr/bin/python3 "$root/packaging/make-resampled-ct.py" "$shared" "$bench_dir" >/dev/null
    [ -f "$ct_volume" ] || { echo "bench-side-by-side: no $ct_volume was made" >&2; exit 1; }
fi
hpmc_frames=$((frames > 11 ? frames : 11))

field() { # field NAME TEXT: the number after NAME in a "name value" line
    sed -n "s/.*$1 \([0-9.]*\).*/\1/p" <<<"$2" | head -1
}

ratio() { # ratio A B: A / B to three places
    /usr/bin/python3 -c "print('%.3f' % ($1 / $2))"
}

median_of() {
    printf "%s\n" "$@" | /usr/bin/python3 -c '
import statistics, sys
print("%.3f" % statistics.median(float(x) for x in sys.stdin))'
}

# isoview VOLUME ISO RUNS: sets iso_build iso_render iso_frame iso_triangles iso_preview
# (the half-resolution drag frame, "—" for volumes without one) renderer
isoview() {
    local json renderer_now
    json="$("$bench" --json --size 1280x720 --runs "$3" "$1" "$2")"
    read -r iso_build iso_render iso_frame iso_triangles iso_preview renderer_now \
        <<<"$(/usr/bin/python3 -c '
import json, sys
r = json.load(sys.stdin); v = r["volumes"][0]
p = v.get("preview_frame_ms")
print("%.1f %.1f %.1f %d %s %s" % (v["build_ms"]["median"], v["render_ms"]["median"],
      v["frame_ms"]["median"], v["triangles"], "%.1f" % p["median"] if p else "—",
      r["renderer"].replace(" ", "_")))' <<<"$json")"
    renderer="${renderer_now//_/ }"
}

# vtk_runs VOLUME ISO FRAMES: the VTK frame (FRAMES after vtk_frame.py's 5 dropped) and then
# Flying Edges' extraction alone (FRAMES repeats); sets vtk_frame vtk_frame_extract vtk_render
# vtk_frame_triangles vtk_extract vtk_triangles vtk_threads vtk_renderer
vtk_runs() {
    local frame_line extract_line
    frame_line="$(xvfb-run -a -s '-screen 0 1600x1200x24' /usr/bin/python3 "$vtk_frame_py" \
        "$1" "$2" "$(($3 + 5))" 1280x720)"
    frame_line="$(grep -E '^vtk_frame ' <<<"$frame_line" || true)"
    [ -n "$frame_line" ] || { echo "bench-side-by-side: vtk_frame.py gave no result" >&2; exit 1; }
    vtk_frame="$(field median_ms "$frame_line")"
    vtk_frame_extract="$(field extract_ms "$frame_line")"
    vtk_render="$(field render_ms "$frame_line")"
    vtk_frame_triangles="$(field triangles "$frame_line")"
    vtk_renderer="$(sed -n 's/.*renderer "\(.*\)".*/\1/p' <<<"$frame_line")"
    extract_line="$(/usr/bin/python3 "$vtk_extract_py" "$1" "$2" "$3")"
    extract_line="$(grep -E '^vtk_flying_edges ' <<<"$extract_line" || true)"
    [ -n "$extract_line" ] ||
        { echo "bench-side-by-side: vtk_flying_edges.py gave no result" >&2; exit 1; }
    vtk_extract="$(field median_ms "$extract_line")"
    vtk_triangles="$(field triangles "$extract_line")"
    vtk_threads="$(field threads "$extract_line")"
}

# same_surface WHAT: a loud warning (and a note for --out) where the triangle counts differ
declare -a warnings=()
same_surface() {
    if [ "$iso_triangles" != "$vtk_triangles" ] || [ "$iso_triangles" != "$vtk_frame_triangles" ]
    then
        local w="WARNING: $1: isoview has $iso_triangles triangles, VTK Flying Edges"
        w+=" $vtk_triangles (vtk_frame.py $vtk_frame_triangles), $((iso_triangles - vtk_triangles))"
        w+=" apart: not the same surface, the VTK ratios are not like for like"
        echo "$w" >&2
        echo "$w"
        warnings+=("$w")
    fi
}

declare -a ratios=()
declare -a kept_ratios=()
declare -a window_ratios=()
declare -a vtk_frame_ratios=()
declare -a vtk_extract_ratios=()
rows=""
renderer=""
vtk_threads=""
vtk_renderer=""
for ((r = 1; r <= rounds; r++)); do
    hpmc_line="$(HPMC_BIN="$hpmc_dir/build/texture3d" bash "$anchor/run.sh" "$blob" 256 256 256 0.5 \
        "$hpmc_frames")"
    hpmc_total="$(field median_total_ms "$hpmc_line")"
    hpmc_build="$(field median_build_ms "$hpmc_line")"
    hpmc_er="$(field median_extract_render_ms "$hpmc_line")"
    hpmc_kept=""
    if [ "$kept_heap" -eq 1 ]; then
        kept_line="$(MALLOC_TRIM_THRESHOLD_=536870912 MALLOC_MMAP_THRESHOLD_=33554432 \
            HPMC_BIN="$hpmc_dir/build/texture3d" bash "$anchor/run.sh" "$blob" 256 256 256 0.5 \
            "$hpmc_frames")"
        hpmc_kept="$(field median_total_ms "$kept_line")"
    fi

    isoview "$blob" 127.5 "$frames"
    triangles="$iso_triangles"

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

    vtk_frame_ratio=""
    vtk_extract_ratio=""
    if [ "$vtk" -eq 1 ]; then
        vtk_runs "$blob" 127.5 "$frames"
        same_surface "blob round $r"
        vtk_frame_ratio="$(ratio "$iso_frame" "$vtk_frame")"
        vtk_extract_ratio="$(ratio "$iso_build" "$vtk_extract")"
        vtk_frame_ratios+=("$vtk_frame_ratio")
        vtk_extract_ratios+=("$vtk_extract_ratio")
    fi

    ratio="$(ratio "$iso_frame" "$hpmc_total")"
    ratios+=("$ratio")
    window_ratio=""
    if [ -n "$window" ]; then
        window_ratio="$(ratio "$window" "$hpmc_total")"
        window_ratios+=("$window_ratio")
    fi
    kept_ratio=""
    if [ -n "$hpmc_kept" ]; then
        kept_ratio="$(ratio "$iso_frame" "$hpmc_kept")"
        kept_ratios+=("$kept_ratio")
    fi
    printf "round %d: HPMC frame %s ms (build %s, extract+render %s) | isoview frame %s ms " \
        "$r" "$hpmc_total" "$hpmc_build" "$hpmc_er" "$iso_frame"
    printf "(build %s, render %s)%s | ratio %s%s" "$iso_build" "$iso_render" \
        "${window:+ | window $window ms, ratio $window_ratio}" "$ratio" \
        "${hpmc_kept:+ | HPMC with kept heap $hpmc_kept ms, ratio $kept_ratio}"
    if [ "$vtk" -eq 1 ]; then
        printf " | VTK frame %s ms (extract %s, render %s), ratio %s | VTK extract %s ms," \
            "$vtk_frame" "$vtk_frame_extract" "$vtk_render" "$vtk_frame_ratio" "$vtk_extract"
        printf " build ratio %s" "$vtk_extract_ratio"
    fi
    printf "\n"
    rows+="| $r | $hpmc_total | $hpmc_build | $hpmc_er | $iso_frame | $iso_build | $iso_render | ${window:--} | $ratio | ${window_ratio:--} |"
    [ "$kept_heap" -eq 1 ] && rows+=" $hpmc_kept | $kept_ratio |"
    [ "$vtk" -eq 1 ] && rows+=" $vtk_frame | $vtk_extract | $vtk_frame_ratio | $vtk_extract_ratio |"
    rows+=$'\n'
done

ct_rows=""
declare -a ct_frame_ratios=()
declare -a ct_extract_ratios=()
ct_triangles=""
ct_vtk_triangles=""
if [ "$ct" -eq 1 ]; then
    for ((r = 1; r <= rounds; r++)); do
        isoview "$ct_volume" "$ct_iso" "$ct_frames"
        ct_triangles="$iso_triangles"
        vtk_runs "$ct_volume" "$ct_iso" "$ct_frames"
        ct_vtk_triangles="$vtk_triangles"
        same_surface "CT round $r"
        frame_ratio="$(ratio "$iso_frame" "$vtk_frame")"
        extract_ratio="$(ratio "$iso_build" "$vtk_extract")"
        ct_frame_ratios+=("$frame_ratio")
        ct_extract_ratios+=("$extract_ratio")
        printf "CT round %d: HPMC — (uint8 only) | isoview frame %s ms (build %s, render %s, " \
            "$r" "$iso_frame" "$iso_build" "$iso_render"
        printf "drag frame at half resolution %s) " "$iso_preview"
        printf "| VTK frame %s ms (extract %s, render %s), ratio %s | VTK extract %s ms," \
            "$vtk_frame" "$vtk_frame_extract" "$vtk_render" "$frame_ratio" "$vtk_extract"
        printf " build ratio %s\n" "$extract_ratio"
        ct_rows+="| $r | $iso_frame | $iso_build | $iso_render | $iso_preview | $vtk_frame | $vtk_extract | $vtk_render | $frame_ratio | $extract_ratio |"
        ct_rows+=$'\n'
    done
fi

median_ratio="$(median_of "${ratios[@]}")"
echo "triangles $triangles; renderer $renderer"
echo "median ratio isoview frame / HPMC frame: $median_ratio (target <= 0.25, issue 27)"
window_median=""
if [ "$viewer" -eq 1 ]; then
    window_median="$(median_of "${window_ratios[@]}")"
    echo "median ratio isoview window frame / HPMC frame: $window_median (target <= 0.25, issue 27)"
fi
kept_median=""
if [ "$kept_heap" -eq 1 ]; then
    kept_median="$(median_of "${kept_ratios[@]}")"
    echo "median ratio isoview frame / HPMC frame with kept heap: $kept_median"
fi
vtk_frame_median=""
vtk_extract_median=""
if [ "$vtk" -eq 1 ]; then
    vtk_frame_median="$(median_of "${vtk_frame_ratios[@]}")"
    vtk_extract_median="$(median_of "${vtk_extract_ratios[@]}")"
    echo "VTK: $vtk_threads threads; renderer $vtk_renderer"
    echo "median ratio isoview frame / VTK frame: $vtk_frame_median"
    echo "median ratio isoview build / VTK extract: $vtk_extract_median"
fi
ct_frame_median=""
ct_extract_median=""
if [ "$ct" -eq 1 ]; then
    ct_frame_median="$(median_of "${ct_frame_ratios[@]}")"
    ct_extract_median="$(median_of "${ct_extract_ratios[@]}")"
    echo "CT: isoview $ct_triangles triangles, VTK $ct_vtk_triangles"
    echo "CT median ratio isoview frame / VTK frame: $ct_frame_median"
    echo "CT median ratio isoview build / VTK extract: $ct_extract_median"
fi
if [ ${#warnings[@]} -gt 0 ]; then
    echo "WARNING: ${#warnings[@]} run(s) with triangle counts that differ (see above)" >&2
fi

if [ -n "$out" ]; then
    commit="$(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet || echo +)"
    header="| round | HPMC frame | HPMC build | HPMC extract+render | isoview frame | isoview build | isoview render | isoview window | ratio | window ratio |"
    rule="|---|---|---|---|---|---|---|---|---|---|"
    if [ "$kept_heap" -eq 1 ]; then
        header+=" HPMC frame, kept heap | ratio to it |"
        rule+="---|---|"
    fi
    if [ "$vtk" -eq 1 ]; then
        header+=" VTK frame | VTK extract | isoview frame / VTK frame | isoview build / VTK extract |"
        rule+="---|---|---|---|"
    fi
    {
        echo
        echo "## $(date -u +%Y-%m-%d) — commit $commit — $renderer"
        echo
        order="HPMC, then isoview"
        [ "$vtk" -eq 1 ] && order+=", then VTK's frame and its extraction"
        echo "256³ uint8 blob at 127.5 ($triangles triangles), 1280×720, $frames frames per run," \
             "medians in ms; rounds interleaved ($order)."
        echo
        echo "$header"
        echo "$rule"
        printf "%s" "$rows"
        echo
        if [ "$viewer" -eq 1 ]; then
            echo "The window: isoview-viewer-bench, 3D view alone at 1280×720" \
                "(\`--layout 3d --view 1280x720\`), \"every frame\" median."
            echo
        fi
        if [ "$vtk" -eq 1 ]; then
            echo "VTK: \`vtk_frame.py\` (vtkFlyingEdges3D with normals re-extracted each frame," \
                "VTK's OpenGL render into a 1280×720 window under Xvfb, glFinish) and" \
                "\`vtk_flying_edges.py\` (the extraction alone), $vtk_threads threads, VTK's" \
                "renderer $vtk_renderer; isoview's build is its extraction."
            echo
        fi
        for w in "${warnings[@]}"; do
            echo "**$w.**"
            echo
        done
        medians="Median ratio isoview / HPMC: **$median_ratio**"
        medians+="${window_median:+; in the window: **$window_median**}"
        medians+="${kept_median:+; against HPMC with the kept heap: **$kept_median**}"
        medians+="${vtk_frame_median:+; isoview frame / VTK frame: **$vtk_frame_median**}"
        medians+="${vtk_extract_median:+; isoview build / VTK extract: **$vtk_extract_median**}"
        echo "$medians."
        if [ "$ct" -eq 1 ]; then
            echo
            echo "CT stand-in 512×512×140 int16 at $ct_iso HU (isoview $ct_triangles triangles," \
                "VTK $ct_vtk_triangles), 1280×720, $ct_frames frames per run, medians in ms;" \
                "rounds interleaved (isoview, then VTK's frame and its extraction). HPMC: —" \
                "(its demo takes uint8 volumes only)."
            echo
            echo "| round | isoview frame | isoview build | isoview render | isoview drag frame, half resolution | VTK frame | VTK extract | VTK render | frame ratio | extraction ratio |"
            echo "|---|---|---|---|---|---|---|---|---|---|"
            printf "%s" "$ct_rows"
            echo
            echo "Median ratio isoview frame / VTK frame: **$ct_frame_median**;" \
                "isoview build / VTK extract: **$ct_extract_median**."
        fi
    } >>"$out"
    echo "appended to $out"
fi
