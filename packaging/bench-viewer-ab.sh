#!/usr/bin/env bash
# Two builds of the viewer side by side: isoview-viewer-bench of build A and of build B on the
# standard 256^3 blob at 127.5, the 3D view alone at 1280x720 (as bench-side-by-side.sh runs it),
# in ABBA order (A B, then B A, ...) so that neither build always runs first. Prints each run's
# "every frame" and "drag at 200 Hz" lines, then per figure both medians and the median of the
# per-round ratios B/A (the figure to compare: machines here are shared and noisy).
#
#   packaging/bench-viewer-ab.sh A/isoview-viewer-bench B/isoview-viewer-bench [ROUNDS] [FRAMES]
#
# Keep a copy of the old binary before rebuilding (it links everything statically but Qt, so a
# copy runs on its own). Needs Xvfb (README command (b) installs it) and Debian's python3.
set -euo pipefail
[ $# -ge 2 ] || { sed -n '2,10p' "$0"; exit 2; }
a="$1"; b="$2"; rounds="${3:-10}"; frames="${4:-60}"
root="$(cd "$(dirname "$0")/.." && pwd)"
shared="$(cd "${SHARED_DIR:-$root/../shared}" && pwd)"
work="${BENCH_DIR:-$root/build/bench}"
blob="$work/blob_256x256x256_uint8.raw"
mkdir -p "$work"
[ -f "$blob" ] || /usr/bin/python3 "$shared/anchors/hpmc/make_blob.py" "$blob" >/dev/null
log="$work/viewer-ab.txt"
: > "$log"
run() {
    xvfb-run -a -s "-screen 0 2560x1600x24" "$1" "$blob" --iso 127.5 --layout 3d \
        --view 1280x720 --frames "$frames" 2>/dev/null | grep -E '^(every frame|drag)' | tr '\n' '|'
}
for ((r = 1; r <= rounds; r++)); do
    if ((r % 2)); then order="A B"; else order="B A"; fi
    for side in $order; do
        bin="$a"; [ "$side" = B ] && bin="$b"
        line="round $r $side: $(run "$bin")"
        echo "$line" | tee -a "$log"
    done
done
/usr/bin/python3 - "$log" <<'PY'
import re, statistics as st, sys
runs = {}
pattern = (r'round (\d+) (\w): every frame.*?median frame ([\d.]+) ms.*?GUI CPU ([\d.]+) ms/frame'
           r'\|drag.*?median frame ([\d.]+) ms.*?median age ([\d.]+) ms.*?GUI CPU ([\d.]+) ms/frame')
for line in open(sys.argv[1]):
    m = re.match(pattern, line)
    if m:
        runs.setdefault(m.group(2), {})[int(m.group(1))] = [float(m.group(i)) for i in range(3, 8)]
if 'A' not in runs or 'B' not in runs:
    sys.exit("bench-viewer-ab: no complete runs (see the lines above)")
names = ['every frame: frame ms', 'every frame: GUI CPU ms', 'drag: frame ms', 'drag: age ms',
         'drag: GUI CPU ms']
rounds = sorted(set(runs['A']) & set(runs['B']))
for i, name in enumerate(names):
    a = [runs['A'][r][i] for r in rounds]
    b = [runs['B'][r][i] for r in rounds]
    ratio = st.median(bb / aa for aa, bb in zip(a, b))
    print(f"{name:24s} A {st.median(a):8.2f}  B {st.median(b):8.2f}  B/A {ratio:.3f}")
PY
