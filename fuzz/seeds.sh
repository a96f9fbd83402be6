#!/bin/bash
# Makes the seed videos of the fuzz_media target: one small video (2 s,
# 192x108, a few KB) per container and codec family the intake accepts,
# with text that changes once, so that mutations reach the demuxers, the
# decoders, the glyph finder and Tesseract.  The committed
# fuzz/corpus/media/ was made with it (Debian 12's ffmpeg 5.1); run it
# again to refresh them:
#
#   fuzz/seeds.sh [DIR]     (default fuzz/corpus/media)
set -euo pipefail
cd "$(dirname "$0")/.."

dir=${1:-fuzz/corpus/media}
mkdir -p "$dir"

src="color=c=white:s=192x108:d=2:r=5"
text="drawtext=text='Hello':fontcolor=black:fontsize=28:x=16:y=36"
text="$text:enable='lt(t,1)',drawtext=text='Bye 42':fontcolor=black"
text="$text:fontsize=28:x=16:y=36:enable='gte(t,1)'"

# name  encoder options (the container follows the name's extension)
while read -r name opts; do
    # shellcheck disable=SC2086
    ffmpeg -nostdin -v error -y -f lavfi -i "$src" -vf "$text" \
        -pix_fmt yuv420p $opts "$dir/$name"
done <<'SEEDS'
h264.mp4          -c:v libx264 -preset ultrafast -crf 40 -g 5
h264-bframes.mp4  -c:v libx264 -preset medium -crf 45 -bf 2 -movflags +faststart
h264.mov          -c:v libx264 -preset ultrafast -crf 40 -g 5
h264.mkv          -c:v libx264 -preset ultrafast -crf 40 -g 5
h264.ts           -c:v libx264 -preset ultrafast -crf 40 -g 5
vp9.webm          -c:v libvpx-vp9 -b:v 40k -g 5
vp8.webm          -c:v libvpx -b:v 40k -g 5
mpeg4.avi         -c:v mpeg4 -q:v 20 -g 5
flv1.flv          -c:v flv1 -q:v 20 -g 5
theora.ogv        -c:v libtheora -q:v 1 -g 5
mpeg2.mpg         -c:v mpeg2video -q:v 20 -g 5
wmv2.asf          -c:v wmv2 -q:v 20 -g 5
vp8-live.webm     -c:v libvpx -b:v 40k -g 5 -live 1
prores.mov        -c:v prores_ks -profile:v 0 -pix_fmt yuv422p10le
prores.mxf        -c:v prores_aw -profile:v 0 -pix_fmt yuv422p10le -strict unofficial
dnxhr.mxf         -s 256x144 -c:v dnxhd -profile:v dnxhr_lb -pix_fmt yuv422p -strict unofficial
mpeg2.mxf         -c:v mpeg2video -q:v 20 -g 5 -strict unofficial
SEEDS

# written to a pipe: an MXF with an open header and no footer, whose
# duration only the packets tell (worker/media/vw_duration.c)
ffmpeg -nostdin -v error -y -f lavfi -i "$src" -vf "$text" -pix_fmt yuv420p \
    -c:v mpeg2video -q:v 20 -g 5 -strict unofficial -f mxf - \
    > "$dir/mpeg2-piped.mxf"

ls -l "$dir"
