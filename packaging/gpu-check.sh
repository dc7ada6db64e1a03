#!/usr/bin/env bash
# The GPU check: the engine's speed and exactness on a machine that has a GPU and its driver but
# none of our Debian packages, in one command that ends within a few minutes.
#
# Here (the build machine):
#   packaging/gpu-check.sh bundle [--build DIR] [--out DIR] [--archive]
#       copies isoview-bench, isoview-cli and isoview_gpu_tests (stripped), every shared library
#       ldd lists for them except the C library's own (libc, libm, ld.so, ...: the target's must
#       be used), the shared test volumes the GPU-vs-CPU tests read, and this script, into DIR
#       (default build/gpu-bundle). libstdc++ and libgcc_s go to lib/fallback/, used only when
#       the target's own are older than the build's. Defaults: --build build/release (README
#       command (b) or `cmake --build --preset release`), shared data from SHARED_DIR/data
#       (default ../shared beside the checkout). --archive also packs DIR.tar.xz (about 32 MB;
#       the folder is about 105 MB), to carry; unpack it there and run DIR/gpu-check.sh run.
#
# There (from the bundle alone):
#   DIR/gpu-check.sh run [--sizes "256 512 1024"] [--runs N] [--frame WxH] [--report DIR]
#                        [--skip-tests]
#       1. isoview-bench --size WxH (default 1024x1024, the full frame) on the synthetic blob at
#          each size, made in memory (uint8 up to 512, uint16 from 1024), at its surface value;
#          and the OpenGL 3.3 path (--gl33) on the first size below 1024;
#       2. the GPU-against-CPU-reference GL tests (both GL paths, bricked and not, label maps);
#       3. one table: triangles; pyramid build, static frame and new-isovalue frame (each ended
#          by glFinish: latency); frames per second back to back (a render loop's throughput)
#          while the isovalue changes every frame (drag) and while it does not (static), the drag
#          rate against the issue's target; GPU timer queries around the pyramid and the surface
#          (GPU time, with any wait for the CPU inside them); GPU bytes per voxel; then the
#          tests' count. The bench's own output (under --report) adds the drag frames' CPU time.
#       Writes the bench JSON, the tests' JSON and the log under --report (default
#       $OUT, else ./gpu-check-report). Exits non-zero when a bench or a test failed.
#
# The NVIDIA driver: when __EGL_VENDOR_LIBRARY_FILENAMES is unset and the driver's EGL vendor
# file is found (/usr/local/nvidia/share/glvnd/egl_vendor.d, /usr/share/glvnd/egl_vendor.d), it
# is named, and the driver's library folders are put on the library path after the bundle's.
# On a machine without a GPU the same run measures Mesa's llvmpipe (use --sizes "128 256").
set -uo pipefail

usage() { sed -n '2,/^set -uo/p' "$0" | grep -v '^set -uo'; }

bundle() {
    local root build out shared archive=0
    root="$(cd "$(dirname "$0")/.." && pwd)"
    build="$root/build/release"
    out="$root/build/gpu-bundle"
    while [ $# -gt 0 ]; do
        case "$1" in
        --build) build="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        --archive) archive=1; shift ;;
        *) echo "gpu-check: unknown argument $1" >&2; exit 2 ;;
        esac
    done
    shared="${SHARED_DIR:-$root/../shared}/data"
    local programs=("$build/isoview-bench" "$build/isoview-cli" "$build/tests/isoview_gpu_tests")
    for p in "${programs[@]}"; do
        [ -x "$p" ] || { echo "gpu-check: $p is missing: build first" >&2; exit 1; }
    done
    [ -d "$shared" ] || { echo "gpu-check: shared data $shared is missing" >&2; exit 1; }
    rm -rf "$out"
    mkdir -p "$out/bin" "$out/lib/fallback" "$out/data"
    for p in "${programs[@]}"; do
        strip -o "$out/bin/$(basename "$p")" "$p"
    done
    # Every library the loader resolves here, but the C library's: the target's glibc is the
    # one its kernel and driver were built against, and a newer one runs older programs.
    ldd "${programs[@]}" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' | sort -u |
        while read -r lib; do
            case "$(basename "$lib")" in
            libc.so.* | libm.so.* | libdl.so.* | libpthread.so.* | librt.so.* | ld-linux* | \
                libresolv.so.* | libutil.so.*) ;;
            libstdc++.so.* | libgcc_s.so.*) cp -L "$lib" "$out/lib/fallback/" ;;
            *) cp -L "$lib" "$out/lib/" ;;
            esac
        done
    # The GPU-vs-CPU tests' volumes (tests/gpu: neghip, tooth, CThead, a padded CT slice, the
    # label maps); only these travel.
    local files=(raw/neghip_64x64x64_uint8.raw raw/tooth_103x94x161_uint8.raw
        raw/CThead_256x256x113_int16_be
        dicom/single/CTImage.dcm_LittleEndianExplicitTransferSyntax_1.2.840.10008.1.2.1.dcm
        labels/D99_atlas_v2.0_right.nii.gz nrrd/prostate_phantom_subvolume-label.nrrd)
    for f in "${files[@]}"; do
        mkdir -p "$out/data/$(dirname "$f")"
        cp -r "$shared/$f" "$out/data/$f"
    done
    # DCMTK's data dictionary: without it no DICOM file can be read there.
    mkdir -p "$out/data/dcmtk"
    cp /usr/share/libdcmtk*/dicom.dic /usr/share/libdcmtk*/private.dic "$out/data/dcmtk/"
    cp "$0" "$out/gpu-check.sh"
    {
        echo "isoview GPU check bundle"
        echo "commit: $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
        echo "made: $(date -u +%Y-%m-%dT%H:%MZ) on $(uname -m)"
        echo "run: ./gpu-check.sh run"
    } >"$out/BUNDLE.txt"
    echo "gpu-check: bundle in $out ($(du -sh "$out" | cut -f1)); there: $out/gpu-check.sh run"
    if [ "$archive" -eq 1 ]; then
        tar -C "$(dirname "$out")" -cf - "$(basename "$out")" | xz -T0 -6 >"$out.tar.xz.part"
        mv "$out.tar.xz.part" "$out.tar.xz"
        echo "gpu-check: archive $out.tar.xz ($(du -sh "$out.tar.xz" | cut -f1))"
    fi
}

# Puts the bundle's libraries and the GPU driver on the loader's path.
setup_libraries() {
    local here="$1"
    local path="$here/lib"
    for d in /usr/local/nvidia/lib64 /usr/local/nvidia/lib /usr/lib/x86_64-linux-gnu/nvidia; do
        [ -d "$d" ] && path="$path:$d"
    done
    export LD_LIBRARY_PATH="$path${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    if [ -z "${__EGL_VENDOR_LIBRARY_FILENAMES:-}" ]; then
        for f in /usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json \
            /usr/share/glvnd/egl_vendor.d/10_nvidia.json; do
            if [ -f "$f" ]; then
                export __EGL_VENDOR_LIBRARY_FILENAMES="$f"
                break
            fi
        done
    fi
    export DCMDICTPATH="$here/data/dcmtk/dicom.dic:$here/data/dcmtk/private.dic"
    # The build's C++ runtime only where the target's is older (or missing).
    if ! "$here/bin/isoview-bench" --version >/dev/null 2>&1; then
        export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$here/lib/fallback"
    fi
    if ! "$here/bin/isoview-bench" --version >/dev/null 2>&1; then
        echo "gpu-check: isoview-bench does not start from the bundle:" >&2
        "$here/bin/isoview-bench" --version >&2
        LD_LIBRARY_PATH="$LD_LIBRARY_PATH" ldd "$here/bin/isoview-bench" | grep -i "not found" >&2
        return 1
    fi
}

# One table row from isoview-bench's table output (its labels are the contract).
summarise_bench() {
    local name="$1" target="$2" file="$3"
    awk -v name="$name" -v target="$target" '
        $1 == "triangles" { triangles = $2 }
        $1 == "build_ms" { build = $3 }
        $1 == "render_ms" { render = $3 }
        $1 == "frame_ms" { frame = $3 }
        $1 == "gpu_extract" { gextract = $3 }
        $1 == "gpu_surface" { gsurface = $3 }
        $1 == "fps" { dragfps = $3; staticfps = $5; waitingfps = $7 }
        $1 == "gpu_bytes" { for (i = 1; i <= NF; ++i) if ($i == "=") bpv = $(i + 1);
                            for (i = 1; i <= NF; ++i) if ($i == "(pyramid") pyr = $(i + 1) }
        END {
            if (frame == "") { printf "| %s | failed | | | | | | | | | |\n", name; exit }
            printf "| %s | %d | %.3f | %.3f | %.3f | %.0f | %.0f | %.0f | %s %s | %.2f | %s / %s | %s / %s |\n",
                name, triangles, build, render, frame, dragfps, waitingfps, staticfps,
                (dragfps >= target ? ">=" : "<"), target, staticfps / dragfps,
                (gextract == "" ? "-" : gextract), (gsurface == "" ? "-" : gsurface), bpv, pyr
        }' "$file"
}

run_check() {
    local here sizes="256 512 1024" runs=20 frame=1024x1024 report="${OUT:-./gpu-check-report}"
    local skip_tests=0
    here="$(cd "$(dirname "$0")" && pwd)"
    while [ $# -gt 0 ]; do
        case "$1" in
        --sizes) sizes="$2"; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        --frame) frame="$2"; shift 2 ;;
        --report) report="$2"; shift 2 ;;
        --skip-tests) skip_tests=1; shift ;;
        *) echo "gpu-check: unknown argument $1" >&2; exit 2 ;;
        esac
    done
    mkdir -p "$report"
    exec > >(tee "$report/gpu-check.log") 2>&1
    cat "$here/BUNDLE.txt" 2>/dev/null
    echo "machine: $(uname -srm), $(nproc) cores"
    command -v nvidia-smi >/dev/null &&
        nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
    setup_libraries "$here" || exit 1
    local failed=0 rows=()
    for n in $sizes; do
        local spec="blob:$n" iso=127.5 target=2000
        [ "$n" -ge 512 ] && target=1000
        if [ "$n" -ge 1024 ]; then spec="blob:$n:uint16" iso=32767.5 target=100; fi
        echo "== isoview-bench $spec at $iso, frames $frame, $runs isovalues"
        local t0=$SECONDS
        timeout 240 "$here/bin/isoview-bench" --runs "$runs" --size "$frame" \
            --json-file "$report/bench_$n.json" "$spec" "$iso" | tee "$report/bench_$n.txt"
        [ "${PIPESTATUS[0]}" -eq 0 ] || failed=1
        echo "   ($((SECONDS - t0)) s)"
        rows+=("$(summarise_bench "$spec" "$target" "$report/bench_$n.txt")")
    done
    # The OpenGL 3.3 path (transform feedback, no compute) on the first size.
    local first="${sizes%% *}"
    if [ -n "$first" ] && [ "$first" -lt 1024 ]; then
        echo "== isoview-bench blob:$first --gl33"
        timeout 240 "$here/bin/isoview-bench" --gl33 --runs "$runs" --size "$frame" \
            --json-file "$report/bench_${first}_gl33.json" "blob:$first" 127.5 |
            tee "$report/bench_${first}_gl33.txt"
        [ "${PIPESTATUS[0]}" -eq 0 ] || failed=1
        rows+=("$(summarise_bench "blob:$first, GL 3.3" 2000 "$report/bench_${first}_gl33.txt")")
    fi
    local tests_line="skipped"
    if [ "$skip_tests" -eq 0 ]; then
        echo "== GPU against the CPU reference (isoview_gpu_tests)"
        local filter="Volumes/GpuVsCpuTest.*:GlPaths/HistoPyramidTest.*"
        filter="$filter:GlPaths/GpuKnownAnswersTest.*:GlPaths/BrickTest.BrickedSurface*"
        filter="$filter:GlPaths/MeshBufferTest.*:GlPaths/CropTest.*:GlPaths/GpuEdgeCaseTest.*"
        filter="$filter:GlPaths/LabelExtractionTest.*:GlPaths/SurfaceLayersTest.*:PaddingOnGpu.*"
        filter="$filter:SceneRendererTest.ADragFrameDrawnWithoutCounts*"
        local t0=$SECONDS
        ISOVIEW_SHARED_DATA_DIR="$here/data" timeout 300 "$here/bin/isoview_gpu_tests" \
            --gtest_filter="$filter" --gtest_output="json:$report/gpu_tests.json" \
            >"$report/gpu_tests.txt" 2>&1
        local rc=$?
        grep -E "^\[  (FAILED|PASSED) |^\[==========\] .* ran" "$report/gpu_tests.txt"
        [ "$rc" -eq 0 ] || failed=1
        tests_line="$(grep -E '^\[  PASSED  \]' "$report/gpu_tests.txt" | head -1)"
        tests_line="${tests_line:-none passed} $(grep -cE '^\[  FAILED  \] [A-Za-z]' \
            "$report/gpu_tests.txt") failed, exit $rc, $((SECONDS - t0)) s"
    fi
    local renderer
    renderer="$(grep -m1 '^renderer:' "$report"/bench_*.txt 2>/dev/null | head -1 | cut -d: -f3-)"
    echo
    echo "GPU check: $renderer, frames $frame, medians of $runs isovalues (ms)"
    echo
    echo "| volume | triangles | pyramid build | static frame | frame, new isovalue | fps, drag | fps, drag waiting for counts | fps, static | target (drag) | static / drag fps | GPU time: pyramid / surface | bytes per voxel (pyramid) |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
    printf '%s\n' "${rows[@]}"
    echo
    echo "GPU = CPU reference tests: $tests_line"
    exit "$failed"
}

case "${1:-}" in
bundle) shift; bundle "$@" ;;
run) shift; run_check "$@" ;;
-h | --help) usage ;;
*) usage >&2; exit 2 ;;
esac
