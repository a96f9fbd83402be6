#!/bin/bash
# "make deb": the Debian packages of this tree, made with Debian's own
# tools (debian/, debhelper, dh-sequence-nginx) into OUT (build/deb):
#   libnginx-mod-http-video-ocr_<version>_<arch>.deb
#   video-ocr-worker_<version>_<arch>.deb
# and the source package beside them, then lintian on all of it.
#
#   scripts/deb.sh [--binary-only] [OUT]
#
# --binary-only: the two .deb files alone, without the source package
# and lintian (the second version t/build/091-deb.t upgrades to).
#
# The version is VO_VERSION of lib/vo_version.h, the one place it is
# written; debian/changelog is made from it here (it is not in the tree).
# The build runs in a copy of the tree (OUT/video-ocr-<version>): the
# files git tracks and the new ones it does not ignore, as they are in
# the work tree now, or the whole tree without build outputs when this
# is not a git checkout.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
binary_only=
if [ "${1:-}" = --binary-only ]; then
    binary_only=yes
    shift
fi
out=${1:-${BUILD:-$repo/build}/deb}

version=$(sed -n 's/^#define VO_VERSION *"\([^"]*\)"$/\1/p' lib/vo_version.h)
case "$version" in
    [0-9]*) ;;
    *) echo "deb: no VO_VERSION in lib/vo_version.h" >&2; exit 1 ;;
esac

src=$out/video-ocr-$version
rm -rf "$out"
mkdir -p "$src"

if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files -z --cached --others --exclude-standard \
        | perl -0ne 'chomp; print "$_\0" if -f $_ || -l $_' \
        | tar --null -T - -cf - | tar -C "$src" -xf -
else
    tar --exclude=./build --exclude=./run --exclude='./t/servroot*' \
        --exclude=./node_modules --exclude='*/node_modules' \
        -cf - . | tar -C "$src" -xf -
fi

# the date of the newest commit (the work tree's files when uncommitted
# or not git): the changelog's date is the packages' SOURCE_DATE_EPOCH
if ! date=$(git log -1 --format=%cD 2>/dev/null) || [ -z "$date" ]; then
    date=$(date -R -r lib/vo_version.h)
fi
maintainer=$(sed -n 's/^Maintainer: *//p' debian/control)

cat > "$src/debian/changelog" <<EOF
video-ocr ($version) unstable; urgency=medium

  * video-ocr $version: the version of lib/vo_version.h.

 -- $maintainer  $date
EOF

# nothing of a calling make (make deb) reaches the build: its BUILD,
# MODULE_SO ... and MAKEFLAGS would point debian/rules elsewhere
unset BUILD MODULE_SO WORKER_BIN NGINX_BIN MAKEFLAGS MAKELEVEL MFLAGS

echo "deb: building video-ocr $version in $src"
(cd "$src" && dpkg-buildpackage -us -uc ${binary_only:+-b} \
     >../build.log 2>&1) || {
    tail -n 40 "$out/build.log" >&2
    echo "deb: dpkg-buildpackage failed: $out/build.log" >&2
    exit 1
}

if [ -n "$binary_only" ]; then
    rm -rf "$src"
    ls "$out"/*.deb
    exit 0
fi

# lintian's verdict on the source and both packages; the warnings left
# are explained in debian/*lintian-overrides or debian/README.source
changes=$(ls "$out"/video-ocr_"$version"_*.changes)
lintian --info --display-level '>=warning' "$changes" \
    > "$out/lintian.txt" 2>&1 || true
if grep -q '^E: ' "$out/lintian.txt"; then
    cat "$out/lintian.txt" >&2
    echo "deb: lintian reports errors" >&2
    exit 1
fi
summary="lintian $(lintian --print-version): $(grep -c '^E: ' \
    "$out/lintian.txt" || true) errors, $(grep -c '^W: ' "$out/lintian.txt" \
    || true) warnings"
echo "$summary" >> "$out/lintian.txt"
echo "deb: $summary ($out/lintian.txt)"

rm -rf "$src"
ls "$out"/*.deb
