#!/bin/sh
# The obvious OCR pipeline: ffmpeg samples FPS frames per second into
# PNGs, the tesseract CLI reads each one (stock settings: --psm 3, the
# LSTM engine, eng), and the texts become segments by the same merging
# rule as the worker's (segments.pl).  Result JSON on stdout.
#
#   bench/ocr/baseline-cli.sh VIDEO [FPS]
#
# OMP_THREAD_LIMIT=1 (Tesseract's OpenMP threads otherwise spin on idle
# cores and double its CPU time: the fair setting for a batch job).
set -eu
video=$1
fps=${2:-1}
here=$(dirname "$0")
dir=$(mktemp -d "${TMPDIR:-/tmp}/ocr-cli-XXXXXX")
trap 'rm -rf "$dir"' EXIT

ffmpeg -nostdin -loglevel error -i "$video" -vf "fps=$fps" "$dir/%06d.png"

export OMP_THREAD_LIMIT=1
for png in "$dir"/*.png; do
    tesseract "$png" "${png%.png}" -l eng >/dev/null 2>&1
done

perl "$here/segments.pl" --txt "$dir" "$fps"
