#!/usr/bin/env bash
# What isoview makes of every volume in the shared test data: for each file or series folder,
# isoview-cli --info's format, entries (series, volumes), dimensions, value type, warnings, or
# the error that refuses it. The figures behind the closing notes of the reader issues.
#
#   packaging/survey-shared-data.sh [BUILD_DIR] [SHARED_DATA_DIR]
#   (defaults: build/release, ../shared/data beside the checkout)
set -u
repo="$(cd "$(dirname "$0")/.." && pwd)"
cli="${1:-$repo/build/release}/isoview-cli"
data="${2:-$repo/../shared/data}"
[ -x "$cli" ] || { echo "survey: no isoview-cli at $cli (build first)" >&2; exit 2; }
[ -d "$data" ] || { echo "survey: no shared data at $data" >&2; exit 2; }
data="$(cd "$data" && pwd)"

sources=()
for d in "$data"/dicom/*/ "$data"/dicom/mosaic/*/; do
    case "$d" in */single/|*/mosaic/) continue ;; esac
    sources+=("${d%/}")
done
for f in "$data"/dicom/single/* "$data"/raw/*.raw "$data"/raw/*/*.mhd "$data"/nrrd/* \
         "$data"/nifti/*.nii; do
    sources+=("$f")
done

survey() { # path [extra options...]
    local path="$1"; shift
    local out rc
    out="$("$cli" "$path" --info "$@" 2>&1)"; rc=$?
    printf '%s' "${path#"$data"/}"
    [ $# -gt 0 ] && printf ' (%s)' "$*"
    if [ $rc -ne 0 ]; then
        printf '\n    REFUSED (exit %d): %s\n' "$rc" "$(printf '%s' "$out" | tr '\n' ' ')"
        return
    fi
    local format entries dims warnings
    format="$(printf '%s\n' "$out" | sed -n 's/^format: //p')"
    entries="$(printf '%s\n' "$out" | sed -n 's/^series: \([0-9]*\).*/\1/p')"
    dims="$(printf '%s\n' "$out" | sed -n 's/^dimensions: //p')"
    printf '\n    %s | %s entr%s | %s\n' "$format" "${entries:-1}" \
        "$([ "${entries:-1}" = 1 ] && echo y || echo ies)" "$dims"
    printf '%s\n' "$out" | grep -E '^  \[[0-9]+\]' | sed 's/^/    /'
    warnings="$(printf '%s\n' "$out" | grep -c '^warning: ')"
    printf '%s\n' "$out" | sed -n 's/^warning: /    warning: /p'
    [ "$warnings" -eq 0 ] && printf '    no warnings\n'
}

for s in "${sources[@]}"; do survey "$s"; done
# The slice folder carries no layout of its own but its name: what the window proposes, then
# what it loads with the parameters the data README gives.
survey "$data/raw/CThead_256x256x113_int16_be"
survey "$data/raw/CThead_256x256x113_int16_be" --raw-dims 256 256 113 --raw-type int16 \
    --big-endian
