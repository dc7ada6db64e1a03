#!/usr/bin/env bash
# Installs an isoview Debian package for real, checks what it installed, and removes it again:
#
#   packaging/check-deb-package.sh PATH/isoview_VERSION_ARCH.deb
#
# 0. lintian on the .deb: any error (E:) or warning (W:) fails;
# 1. `apt-get install -y ./the.deb`: apt resolves its Depends (dpkg-shlibdeps' and the ones
#    added by hand) from the archive, so a dependency that does not exist fails here;
# 2. the installed programs, from /usr/bin, with no display: --version and --help of isoview,
#    isoview-cli, isoview-bench and isoview-label-bench (exit 0), and each one's manual page
#    (/usr/share/man/man1/PROGRAM.1.gz, made from this version); isoview-cli extracts the
#    installed sample at
#    isovalue 40 (a non-zero triangle count and a PLY); the installed viewer opens the installed
#    sample under xvfb-run (its log must name /usr/share/isoview/samples) and saves a non-empty
#    PNG;
# 3. the installed desktop entry (desktop-file-validate) and AppStream metadata
#    (appstreamcli validate --no-net), and the MIME database (rebuilt by shared-mime-info's dpkg
#    trigger) knowing the NRRD, MetaImage and NIfTI types;
# 4. `apt-get purge -y isoview`: /usr/bin/isoview-cli and the installed sample must be gone;
# 5. a report: the package's size, its file count and Installed-Size (dpkg-deb -I / -c).
#
# Runs as root where installing and removing a package is harmless: a scratch machine or the
# fresh-Debian root of packaging/check-fresh-debian.sh (which calls it). It refuses to run when
# isoview is already installed, so it never removes an installation it did not make. Needs
# apt, lintian, xvfb-run, desktop-file-validate, appstreamcli and update-mime-database
# (packaging/install-deps.sh installs them). Exits non-zero on the first failed check; the report is the last lines it prints.
set -euo pipefail

if [ $# -ne 1 ] || [ ! -f "$1" ]; then
    echo "usage: check-deb-package.sh PATH/isoview_VERSION_ARCH.deb" >&2
    exit 2
fi
deb="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
if [ "$(id -u)" -ne 0 ]; then
    echo "check-deb-package: run as root (it installs and purges the package)" >&2
    exit 2
fi
if dpkg-query -W -f='${Status}' isoview 2>/dev/null | grep -q "install ok installed"; then
    echo "check-deb-package: isoview is already installed here; remove it first" >&2
    exit 2
fi
for tool in apt-get lintian xvfb-run desktop-file-validate appstreamcli update-mime-database; do
    command -v "$tool" >/dev/null || {
        echo "check-deb-package: $tool is missing (bash packaging/install-deps.sh)" >&2
        exit 2
    }
done

fail() {
    echo "check-deb-package: FAILED: $*" >&2
    exit 1
}
step() { echo "== check-deb-package: $*"; }

work="$(mktemp -d)"
installed=0
cleanup() {
    # A failed check still removes the package it installed.
    if [ "$installed" -eq 1 ]; then
        DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq isoview >/dev/null 2>&1 || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

# Informational tags (I:) are left to the reader; an error or a warning, or lintian failing to
# run at all, fails the check.
step "lintian $(basename "$deb")"
if ! lintian --fail-on error,warning "$deb" >"$work/lintian.txt" 2>&1 \
    || grep -q '^[EW]: ' "$work/lintian.txt"; then
    cat "$work/lintian.txt"
    fail "lintian reports errors or warnings"
fi

step "installing $(basename "$deb") with apt-get (checks its Depends)"
installed=1
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$deb" >"$work/apt-install.log" 2>&1 \
    || { cat "$work/apt-install.log"; fail "apt-get install"; }
version="$(dpkg-query -W -f='${Version}' isoview)"

# The programs run from an empty folder with a home of their own and no display, so nothing of
# a source tree, a build folder or a desktop session helps them.
cd "$work"
clean_env=(env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME="$work/home" LANG=C.UTF-8)
mkdir -p "$work/home"

for program in isoview isoview-cli isoview-bench isoview-label-bench; do
    step "/usr/bin/$program --version, --help"
    [ -x "/usr/bin/$program" ] || fail "/usr/bin/$program is not installed"
    out="$("${clean_env[@]}" "/usr/bin/$program" --version)" \
        || fail "$program --version exited with $?"
    [ "$out" = "$program $version" ] || fail "$program --version printed '$out', not '$program $version'"
    "${clean_env[@]}" "/usr/bin/$program" --help >"$work/help.txt" \
        || fail "$program --help exited with $?"
    grep -qi usage "$work/help.txt" || fail "$program --help shows no usage"
    # help2man puts the program's --version line in the page's title line.
    page="/usr/share/man/man1/$program.1.gz"
    [ -f "$page" ] || fail "$page is not installed"
    zcat "$page" | grep -q "^\.TH ${program^^} \"1\" .* \"$program $version\"" \
        || fail "$page is not the page of $program $version"
done

sample=/usr/share/isoview/samples/mr_head.nhdr
step "isoview-cli on the installed sample: $sample --iso 40"
"${clean_env[@]}" /usr/bin/isoview-cli "$sample" --iso 40 -o "$work/sample.ply" >"$work/cli.txt" \
    || { cat "$work/cli.txt"; fail "isoview-cli on the installed sample"; }
triangles="$(sed -n 's/^triangles: //p' "$work/cli.txt")"
[ "${triangles:-0}" -gt 0 ] || fail "isoview-cli reported '${triangles:-no}' triangles"
[ -s "$work/sample.ply" ] || fail "isoview-cli wrote no PLY"
echo "   $triangles triangles, $(stat -c %s "$work/sample.ply") bytes of PLY"

step "the installed viewer on its default volume under xvfb-run --screenshot"
"${clean_env[@]}" xvfb-run -a -s "-screen 0 1600x1000x24" \
    /usr/bin/isoview --window-size 1280x800 --screenshot "$work/viewer.png" >"$work/viewer.txt" 2>&1 \
    || { cat "$work/viewer.txt"; fail "isoview --screenshot"; }
[ -s "$work/viewer.png" ] || fail "isoview --screenshot wrote no PNG"
log="$work/home/.local/share/isoview/isoview/logs/isoview.log"
grep -q "opened $sample " "$log" 2>/dev/null \
    || { cat "$log" 2>/dev/null || true; fail "the viewer did not open the installed sample $sample"; }
echo "   $(stat -c %s "$work/viewer.png") bytes of PNG; the viewer opened $sample"

step "desktop entry, AppStream metadata, MIME types"
desktop="$(dpkg -L isoview | grep '^/usr/share/applications/.*\.desktop$')"
metainfo="$(dpkg -L isoview | grep '^/usr/share/metainfo/.*\.metainfo\.xml$')"
desktop-file-validate "$desktop" || fail "desktop-file-validate $desktop"
appstreamcli validate --no-net "$metainfo" || fail "appstreamcli validate $metainfo"
for type in image/x-nrrd image/x-metaimage image/x-nifti image/x-compressed-nifti; do
    grep -q "^[0-9]*:$type:" /usr/share/mime/globs2 || fail "$type is not in the MIME database"
done

step "apt-get purge -y isoview"
DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq isoview >"$work/apt-purge.log" 2>&1 \
    || { cat "$work/apt-purge.log"; fail "apt-get purge"; }
installed=0
[ ! -e /usr/bin/isoview-cli ] || fail "/usr/bin/isoview-cli is still there after the purge"
[ ! -e "$sample" ] || fail "$sample is still there after the purge"

files="$(dpkg-deb -c "$deb" | grep -vc '/$')"
installed_kib="$(dpkg-deb -f "$deb" Installed-Size)"
echo
echo "== check-deb-package: $(basename "$deb") passed"
echo "   package: $(stat -c %s "$deb") bytes, $files files, Installed-Size $installed_kib KiB"
echo "   Depends: $(dpkg-deb -f "$deb" Depends)"
echo "   checked: lintian (no error or warning), install with apt-get, --version/--help and"
echo "            manual pages of 4 programs, isoview-cli on the installed sample"
echo "            ($triangles triangles), the viewer's screenshot, desktop entry, AppStream"
echo "            metadata, MIME types, purge"
