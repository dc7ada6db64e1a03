#!/usr/bin/env bash
# The habits the build keeps, not goodwill (README command (b) runs this first, before the long
# build, so a difference fails in seconds):
#   1. every C++ file in src/ app/ tests/ is formatted as .clang-format says (clang-format 14,
#      Debian 12's; `bash packaging/check-code-habits.sh --fix` formats them in place);
#   2. no file in src/ app/ tests/ shaders/ is over 900 lines (one responsibility per file).
# Exits 1 naming every file that breaks one, 0 when none does.
set -euo pipefail
cd "$(dirname "$0")/.."

fix=false
[ "${1:-}" = "--fix" ] && fix=true

CLANG_FORMAT=${CLANG_FORMAT:-clang-format}
if ! command -v "$CLANG_FORMAT" >/dev/null; then
  echo "check-code-habits: $CLANG_FORMAT not found (packaging/install-deps.sh installs it)" >&2
  exit 1
fi

mapfile -t sources < <(git ls-files -- 'src/*.cpp' 'src/*.h' 'app/*.cpp' 'app/*.h' \
                                       'tests/*.cpp' 'tests/*.h')
failed=0

if $fix; then
  "$CLANG_FORMAT" -i "${sources[@]}"
else
  unformatted=()
  for f in "${sources[@]}"; do
    if ! "$CLANG_FORMAT" --dry-run --Werror "$f" >/dev/null 2>&1; then unformatted+=("$f"); fi
  done
  if [ ${#unformatted[@]} -gt 0 ]; then
    echo "check-code-habits: ${#unformatted[@]} file(s) differ from .clang-format" \
         "(fix: bash packaging/check-code-habits.sh --fix):"
    printf '  %s\n' "${unformatted[@]}"
    failed=1
  fi
fi

long=$(git ls-files -- src app tests shaders | while read -r f; do
  [ -f "$f" ] || continue
  case "$f" in *.png|*.raw|*.gz|*.nii|*.dcm|*/corpus/*) continue ;; esac
  n=$(wc -l < "$f")
  [ "$n" -gt 900 ] && echo "  $f ($n lines)"
done || true)
if [ -n "$long" ]; then
  echo "check-code-habits: files over 900 lines (split them by responsibility):"
  echo "$long"
  failed=1
fi

[ $failed -eq 0 ] && echo "check-code-habits: ${#sources[@]} C++ files formatted, none over 900 lines"
exit $failed
