#!/bin/sh
# What reading a set costs at the least: CPU seconds (user + sys) per
# video of decoding it in one thread, whole and without B frames
# (ffmpeg -skip_frame bidir), of a worker start (a 0.2 s black video:
# the loader and Tesseract's engine), and of the workers given, with
# and without refine, all in one run so that a shared machine's load
# weighs on each alike.  docs/benchmarks.md, "The first set's floor".
#
#   bench/ocr/floor.sh CORPUS-DIR WORKER [OTHER-WORKER]
#
# Prints one line per video and the sums; needs ffmpeg and GNU time.
set -eu

dir=$1
now=$2
old=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# user + sys of one command, its output thrown away
cpu() {
    /usr/bin/time -f '%U %S' -o "$tmp/t" "$@" >/dev/null 2>&1 || true
    awk '{ printf "%.2f", $1 + $2 }' "$tmp/t"
}

decode() {
    cpu ffmpeg -nostdin -v error -threads 1 "$@" -map 0:v -f null -
}

ffmpeg -nostdin -v error -y -f lavfi -i color=c=black:s=320x240:d=0.2 \
    -c:v libx264 "$tmp/start.mp4"

printf '%-32s %7s %7s %7s %7s %7s %7s\n' video whole no-B start now \
    no-refine old
for f in "$dir"/*; do
    case "$f" in *.json) continue ;; esac
    whole=$(decode -i "$f")
    nob=$(decode -skip_frame bidir -i "$f")
    start=$(cpu "$now" ocr "$tmp/start.mp4" --fps 1)
    n=$(cpu "$now" ocr "$f" --fps 1)
    nr=$(cpu "$now" ocr "$f" --fps 1 --no-refine)
    o=-
    [ -z "$old" ] || o=$(cpu "$old" ocr "$f" --fps 1)
    printf '%-32s %7s %7s %7s %7s %7s %7s\n' "$(basename "$f")" "$whole" \
        "$nob" "$start" "$n" "$nr" "$o"
done | tee "$tmp/rows"

awk '{ for (i = 2; i <= 7; i++) s[i] += $i }
     END { printf "%-32s %7.2f %7.2f %7.2f %7.2f %7.2f %7.2f\n", "sum",
           s[2], s[3], s[4], s[5], s[6], s[7] }' "$tmp/rows"
