#!/usr/bin/env bash
# README command (a): installs the Debian 12 dependencies, builds isoview (Release) and extracts
# the bundled sample's isosurface headless, writing mr_head.ply and printing its statistics.
# (When the viewer lands, this opens the window on the sample instead.)
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/install-deps.sh
cmake --preset release
cmake --build --preset release
# Isovalue 40 (stored units) is the skin surface, spacing 2 mm (resources/samples/README.md).
./build/release/isoview-cli resources/samples/mr_head_128x128x85_uint16.raw --iso 40 \
    --spacing 2 2 2 -o mr_head.ply
