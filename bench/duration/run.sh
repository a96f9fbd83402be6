#!/bin/bash
# The cost of measuring a duration from the packets
# (worker/media/vw_duration.c) on a long live WebM, against the same stream with a declared duration
# (the same packets remuxed by ffmpeg -c copy: Duration and Cues) and
# against decoding the whole file once (ffmpeg -threads 1 ... -f null,
# what no duration at all would force a planless reader to do).
#
#   bench/duration/run.sh [MINUTES [RUNS]]     (default 20 minutes, 3 runs)
#
# Prints the file sizes, the median inspect_ms and cpu_ms of
# "video-ocr-worker ocr --stats" (run with --max-frames 1, so that it
# stops right after the inspection: too_many_frames), their ratio, the
# pass's read rate, and the decode floor.
set -euo pipefail
cd "$(dirname "$0")/../.."

min=${1:-20}
runs=${2:-3}
: "${BUILD:=$PWD/build}"
worker=${WORKER_BIN:-$BUILD/video-ocr-worker}
dir=$(mktemp -d /tmp/vocr-duration-XXXXXX)
trap 'rm -rf "$dir"' EXIT

secs=$((min * 60))
font=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf

# a lecture-like stream: a moving test picture at 320x180, 10 fps,
# about 1 Mbit/s, a caption; live WebM as MediaRecorder writes it
ffmpeg -nostdin -loglevel error -y -f lavfi \
    -i "testsrc2=s=320x180:r=10:d=$secs" \
    -f lavfi -i "sine=frequency=440:duration=$secs" \
    -vf "drawtext=fontfile=$font:text='Lecture notes':fontsize=28:fontcolor=white:borderw=2:x=(w-tw)/2:y=h-th-24" \
    -c:v libvpx -deadline realtime -cpu-used 8 -b:v 1M -c:a libopus \
    -live 1 -f webm "$dir/live.webm"
ffmpeg -nostdin -loglevel error -y -i "$dir/live.webm" -c copy \
    "$dir/declared.webm"

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

measure() {     # file field -> median over $runs runs
    local f=$1 k=$2 i
    for ((i = 0; i < runs; i++)); do
        { "$worker" ocr "$f" --stats --max-frames 1 2>&1 >/dev/null || true; } \
            | grep -o "\"$k\":[0-9]*" | head -1 | cut -d: -f2
    done | median
}

check=$("$worker" ocr "$dir/live.webm" --stats --max-frames 1 2>&1 || true)
grep -q 'too_many_frames' <<<"$check" || { echo "unexpected: $check" >&2; exit 1; }

size_live=$(stat -c %s "$dir/live.webm")
size_decl=$(stat -c %s "$dir/declared.webm")
live_ms=$(measure "$dir/live.webm" inspect_ms)
live_cpu=$(measure "$dir/live.webm" cpu_ms)
decl_ms=$(measure "$dir/declared.webm" inspect_ms)
decl_cpu=$(measure "$dir/declared.webm" cpu_ms)

t0=$(date +%s%N)
ffmpeg -nostdin -loglevel error -threads 1 -i "$dir/live.webm" -an -f null -
t1=$(date +%s%N)
decode_ms=$(( (t1 - t0) / 1000000 ))

printf 'video: %d min, live.webm %d bytes, declared.webm %d bytes\n' \
    "$min" "$size_live" "$size_decl"
printf '%-34s %10s %10s\n' '' inspect_ms cpu_ms
printf '%-34s %10d %10d\n' 'declared duration (container)' "$decl_ms" "$decl_cpu"
printf '%-34s %10d %10d\n' 'live, measured from the packets' "$live_ms" "$live_cpu"
awk -v l="$live_ms" -v d="$decl_ms" -v s="$size_live" -v f="$decode_ms" \
    -v m="$min" 'BEGIN {
    pass = l - d; if (pass < 1) pass = 1
    printf "pass: %d ms (%.0f MB/s, %.2f ms per minute of video)\n", \
        pass, s / 1e6 / (pass / 1000), pass / m
    printf "decoding the video once (ffmpeg -threads 1 -f null): %d ms; " \
        "pass / decode = %.3f\n", f, pass / f
}'
