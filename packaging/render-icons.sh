#!/usr/bin/env bash
# Renders resources/icons/isoview.svg into the PNG sizes the package installs in the hicolor
# theme (resources/icons/isoview-<size>.png). The PNGs are checked in, so the build needs no SVG
# renderer: run this after changing the SVG, and commit both. Needs rsvg-convert
# (librsvg2-bin).
set -euo pipefail
cd "$(dirname "$0")/../resources/icons"
command -v rsvg-convert >/dev/null || {
    echo "render-icons: rsvg-convert is missing (apt-get install librsvg2-bin)" >&2
    exit 2
}
for size in 16 32 48 64 128 256; do
    rsvg-convert --width "$size" --height "$size" --output "isoview-$size.png" isoview.svg
    echo "render-icons: resources/icons/isoview-$size.png"
done
