#!/usr/bin/env bash
# Installs every Debian 12 package isoview needs to build, test and run.
# Idempotent and non-interactive; run as root (or through sudo).
set -euo pipefail

packages=(
  # toolchain
  build-essential cmake ninja-build pkg-config git
  # engine: GL loader, headless EGL + Mesa llvmpipe, math, logging
  libepoxy-dev libegl-dev libgl-dev libegl-mesa0 libgl1-mesa-dri libglm-dev libspdlog-dev libfmt-dev
  nlohmann-json3-dev
  # print-ready meshes: half-edge mesh, topology-preserving quadric decimation
  libopenmesh-dev
  # 3MF export (the 3MF Consortium's lib3mf: the package's ZIP and XML schema done right)
  lib3mf-dev
  # loaders
  libdcmtk-dev libopenjp2-7-dev zlib1g-dev libnifti2-dev
  # movies (src/video/): H.264 MP4 and PNG frames through FFmpeg's libraries, linked rather than
  # running the ffmpeg program: no program to find at run time, no pipe of raw frames to a
  # child process, errors per frame with libav's reason, and every file through isoview's
  # atomic writer (a custom AVIOContext), so no partial movie and no FIFO or input overwritten
  libavcodec-dev libavformat-dev libswscale-dev libavutil-dev
  # viewer
  qt6-base-dev qt6-base-dev-tools libqt6opengl6-dev
  # tests and benchmarks
  libgtest-dev libgmock-dev libbenchmark-dev xvfb xauth python3 python3-vtk9
  # ffprobe and ffmpeg: the independent decoder the movie tests read MP4s and PNGs back with
  ffmpeg
  # VTK's numpy_support (the screenshot and mesh checks); python3-vtk9 only recommends numpy
  python3-numpy
  # sanitizer and fuzzer builds (packaging/run-sanitizers-and-fuzzers.sh): clang-14, libFuzzer,
  # llvm-14 for llvm-symbolizer and libc6-dbg: the leak suppressions name functions of the
  # dynamic loader, which match only in symbolized stacks, and Debian's ld-linux is stripped,
  # its names only in libc6-dbg's detached symbols
  clang libclang-rt-14-dev llvm-14 libc6-dbg
  # static analysis of src/ and app/ (packaging/run-clang-tidy.sh): clang-tidy-14; the
  # formatting the build keeps (packaging/check-code-habits.sh): clang-format-14
  clang-tidy clang-format
  # the Debian package (cpack -G DEB: dpkg-shlibdeps computes its Depends, on the binaries
  # CPack picks out with file) and packaging/check-deb-package.sh (validators of its desktop
  # entry and AppStream metadata, the MIME database its types go into); the programs' manual
  # pages, written at build time from their --help (help2man), and Debian's package checker
  # (lintian), which the package check runs
  dpkg-dev file desktop-file-utils appstream shared-mime-info help2man lintian
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages already installed"
  exit 0
fi

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
echo "install-deps: installing ${missing[*]}"
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
