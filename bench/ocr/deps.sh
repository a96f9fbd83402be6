#!/bin/sh
# The Debian packages the OCR benchmark needs beyond those of the build
# and the tests (scripts/deps.sh): GNU time for CPU time and peak RSS of
# process trees, Debian's python3 with OpenCV and tesserocr for the
# second baseline, gnuplot for the plots.  Idempotent, Debian only.
set -eu

NEED="time gnuplot-nox python3 python3-opencv python3-tesserocr ffmpeg
      tesseract-ocr tesseract-ocr-eng libjson-pp-perl"

missing=""
for p in $NEED; do
    status=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)
    case "$status" in
        ii*) ;;
        *) missing="$missing $p" ;;
    esac
done

[ -z "$missing" ] && exit 0

echo "bench deps: installing$missing"
SUDO=
[ "$(id -u)" -ne 0 ] && SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
# shellcheck disable=SC2086
$SUDO apt-get install -y -q --no-install-recommends $missing
