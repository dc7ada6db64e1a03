#!/usr/bin/env bash
# The fresh-machine check: runs the README's two set-up commands on a Debian 12 root that has
# nothing but the base system (debootstrap), from a clean clone of this repository's HEAD, with
# ../shared beside it, as CI would, then builds the Debian package there and installs it. A
# package that only this machine has (installed by hand, or pulled in as a recommendation)
# shows up here as a failure.
#
#   packaging/check-fresh-debian.sh [--command a|b|deb|both] [--keep] [--reuse]
#
# --command   what to run (default both: (a), (b), then deb):
#               a, b  the README's set-up command (a) or (b)
#               deb   the Debian package: `cpack -G DEB` in the root's build/release (built
#                     first when no command ran before it), then packaging/check-deb-package.sh
#                     installs it with apt-get, runs the installed programs and purges it
#               gpu-bundle  the GPU check's bundle (packaging/gpu-check.sh bundle, made here
#                     first: build/gpu-bundle) run in the root with nothing of ours installed,
#                     only Mesa's runtime drivers standing in for a GPU's (libegl-mesa0,
#                     libgl1-mesa-dri): gpu-check.sh run --sizes "64 128" --runs 3
# --keep      leave the root in place afterwards (default: removed; the base tarball is kept)
# --reuse     start from the root a --keep run left (its packages and build folder), its clone
#             moved to this repository's HEAD, instead of a fresh one: `--command deb --reuse`
#             checks a packaging change in minutes
#
# Environment:
#   FRESH_DIR     where the root and the base tarball live (default /var/tmp/isoview-fresh)
#   SHARED_DIR    the shared data folder (default ../shared beside the checkout)
#   MIRROR        Debian mirror (default http://deb.debian.org/debian)
#   FUZZ_SECONDS  passed to command (b) (default 30, as in CI)
#
# The base system is made once into a tarball (debootstrap --make-tarball) and unpacked anew for
# every run but --reuse, so each run starts from the same fresh root. Runs as root (chroot,
# mounts). Prints a report at the end and exits non-zero when a command failed.
set -euo pipefail

command_choice="both"
keep=0
reuse=0
while [ $# -gt 0 ]; do
    case "$1" in
    --command) command_choice="$2"; shift 2 ;;
    --keep) keep=1; shift ;;
    --reuse) reuse=1; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 0 ;;
    *) echo "check-fresh-debian: unknown argument $1" >&2; exit 2 ;;
    esac
done
case "$command_choice" in a|b|deb|both|gpu-bundle) ;;
*) echo "--command takes a, b, deb, both or gpu-bundle" >&2; exit 2 ;; esac
if [ "$(id -u)" -ne 0 ]; then
    echo "check-fresh-debian: run as root (debootstrap, chroot and mounts need it)" >&2
    exit 2
fi

repo="$(cd "$(dirname "$0")/.." && pwd)"
shared="${SHARED_DIR:-$repo/../shared}"
fresh="${FRESH_DIR:-/var/tmp/isoview-fresh}"
mirror="${MIRROR:-http://deb.debian.org/debian}"
tarball="$fresh/bookworm-base.tgz"
root="$fresh/root"
[ -d "$shared" ] || { echo "check-fresh-debian: no shared data at $shared" >&2; exit 2; }
shared="$(cd "$shared" && pwd)"

if ! command -v debootstrap >/dev/null; then
    echo "== installing debootstrap on this machine"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap
fi

mkdir -p "$fresh"
if [ ! -f "$tarball" ]; then
    echo "== making the Debian 12 base tarball (once): $tarball"
    debootstrap --variant=minbase --make-tarball="$tarball.tmp" bookworm "$fresh/tarball-work" \
        "$mirror"
    mv "$tarball.tmp" "$tarball"
    rm -rf "$fresh/tarball-work"
fi

mounted=()
cleanup() {
    for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[$i]}" 2>/dev/null || true; done
    if [ "$keep" -eq 0 ] && [ -d "$root" ]; then
        # Only after every mount is gone: never delete through a bind mount.
        if ! grep -q " $root" /proc/mounts; then rm -rf "$root"; fi
    fi
}
trap cleanup EXIT

if grep -q " $root" /proc/mounts; then
    echo "check-fresh-debian: $root still has mounts from an earlier run; unmount them" >&2
    exit 2
fi
if [ "$reuse" -eq 1 ] && [ -d "$root/work/main/.git" ]; then
    # The kept clone moves to HEAD; its build folder (ignored by git) stays and builds on.
    echo "== reusing the kept root: $root"
    git -C "$root/work/main" fetch --quiet origin
    git -C "$root/work/main" checkout --quiet --force "$(git -C "$repo" rev-parse HEAD)"
else
    [ "$reuse" -eq 1 ] && echo "== no kept root at $root to reuse"
    rm -rf "$root"
    echo "== unpacking a fresh root: $root"
    debootstrap --variant=minbase --unpack-tarball="$tarball" bookworm "$root" "$mirror"
    chmod 755 "$root" # "/" world-readable, as on an installed system

    # The same suites as a stock installation (bookworm, -updates, -security).
    cat >"$root/etc/apt/sources.list" <<EOF
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
EOF

    # A clean clone of HEAD (what CI checks out), and the shared data read-only beside it.
    mkdir -p "$root/work/shared"
    git clone --quiet --no-local "$repo" "$root/work/main"
    git -C "$root/work/main" checkout --quiet "$(git -C "$repo" rev-parse HEAD)"
fi
cp /etc/resolv.conf "$root/etc/resolv.conf" # name resolution
for m in proc sys dev dev/pts; do
    mkdir -p "$root/$m"
    mount --bind "/$m" "$root/$m"
    mounted+=("$root/$m")
done
mount --bind "$shared" "$root/work/shared"
mount -o remount,bind,ro "$root/work/shared"
mounted+=("$root/work/shared")

run_in_root() {
    chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin \
        LANG=C.UTF-8 CI=true FUZZ_SECONDS="${FUZZ_SECONDS:-30}" \
        /bin/bash -c "cd /work/main && $1"
}

declare -A result
status=0
# A fresh minbase root has no git (the README's commands install it); nothing else is added.
if [ "$command_choice" = a ] || [ "$command_choice" = both ]; then
    echo "== README command (a): bash packaging/build-and-run-sample.sh"
    start=$(date +%s)
    if run_in_root "bash packaging/build-and-run-sample.sh" >"$fresh/command-a.log" 2>&1 \
        && [ -s "$root/work/main/isoview-sample.png" ]; then
        result[a]="passed in $(($(date +%s) - start)) s (isoview-sample.png written)"
    else
        result[a]="FAILED after $(($(date +%s) - start)) s (log: $fresh/command-a.log)"
        status=1
    fi
fi
if [ "$command_choice" = b ] || [ "$command_choice" = both ]; then
    echo "== README command (b): bash packaging/build-and-test.sh"
    start=$(date +%s)
    if run_in_root "bash packaging/build-and-test.sh" >"$fresh/command-b.log" 2>&1; then
        result[b]="passed in $(($(date +%s) - start)) s"
    else
        result[b]="FAILED after $(($(date +%s) - start)) s (log: $fresh/command-b.log)"
        status=1
    fi
    summary="$(grep -E "^[0-9]+% tests passed" "$fresh/command-b.log" | tail -1 || true)"
    [ -n "$summary" ] && result[b]="${result[b]}; ctest: $summary"
fi
if [ "$command_choice" = deb ] || [ "$command_choice" = both ]; then
    # After (a) or (b) the build is done and only cpack runs; alone, the stage builds first.
    echo "== Debian package: cpack -G DEB, then bash packaging/check-deb-package.sh"
    start=$(date +%s)
    rm -f "$root"/work/main/build/release/isoview_*.deb
    if run_in_root "bash packaging/install-deps.sh && cmake --preset release \
            && cmake --build --preset release && (cd build/release && cpack -G DEB) \
            && bash packaging/check-deb-package.sh build/release/isoview_*.deb" \
        >"$fresh/command-deb.log" 2>&1; then
        result[deb]="passed in $(($(date +%s) - start)) s"
    else
        result[deb]="FAILED after $(($(date +%s) - start)) s (log: $fresh/command-deb.log)"
        status=1
    fi
    # check-deb-package.sh's report: the package's size, file count and Installed-Size.
    summary="$(sed -n 's/^   package: //p' "$fresh/command-deb.log" | tail -1)"
    [ -n "$summary" ] && result[deb]="${result[deb]}; package: $summary"
fi

if [ "$command_choice" = gpu-bundle ]; then
    echo "== the GPU check's bundle, on Mesa's runtime drivers alone"
    start=$(date +%s)
    if [ ! -x "$repo/build/gpu-bundle/gpu-check.sh" ]; then
        result[gpu-bundle]="FAILED: no bundle (run packaging/gpu-check.sh bundle first)"
        status=1
    else
        rm -rf "$root/work/gpu-bundle"
        cp -r "$repo/build/gpu-bundle" "$root/work/gpu-bundle"
        if run_in_root "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y \
                -qq --no-install-recommends libegl-mesa0 libgl1-mesa-dri \
                && /work/gpu-bundle/gpu-check.sh run --sizes '64 128' --runs 3 \
                    --report /work/gpu-check-report" >"$fresh/command-gpu-bundle.log" 2>&1; then
            result[gpu-bundle]="passed in $(($(date +%s) - start)) s"
        else
            result[gpu-bundle]="FAILED after $(($(date +%s) - start)) s (log: $fresh/command-gpu-bundle.log)"
            status=1
        fi
        summary="$(grep -E '^GPU = CPU reference tests' "$fresh/command-gpu-bundle.log" | tail -1)"
        [ -n "$summary" ] && result[gpu-bundle]="${result[gpu-bundle]}; $summary"
    fi
fi

echo
echo "== fresh Debian 12 check of $(git -C "$repo" rev-parse --short HEAD)"
for k in a b deb gpu-bundle; do
    [ -n "${result[$k]:-}" ] && echo "   command ($k): ${result[$k]}"
done
if [ "$status" -ne 0 ]; then
    for k in a b deb gpu-bundle; do
        [ -f "$fresh/command-$k.log" ] && { echo "-- last lines of command ($k):"; tail -25 "$fresh/command-$k.log"; }
    done
fi
exit "$status"
