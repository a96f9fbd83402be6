#!/bin/sh
# Whether two workers give the same bytes on every video of the corpora
# given: for a change that must not change what the worker outputs (a
# move, a rename, a split), against the worker before it.
#
#   bench/ocr/same.sh [--all] BEFORE-WORKER AFTER-WORKER CORPUS-DIR...
#
# For every video of each corpus (NAME.json beside it, as
# bench/ocr/corpus.pl makes them; its "lang" is passed on):
#
#   video-ocr-worker ocr VIDEO --fps 1 --format json [--lang L] --stats
#
# and the counts of --stats (its times left out, as they differ from
# run to run).  --all adds, per video, --frames (every row, its flags
# and box), the vtt, srt, txt and ass formats, and --no-refine.  Prints
# one line per video that differs and a total; exits 1 if any does.
#
# Each worker's outputs are kept by the digest of its binary in
# $BUILD/bench/ocr/same/ (BUILD defaults to build/), so the one before
# is run once however often the one after is checked.
set -eu
cd "$(dirname "$0")/../.."
: "${BUILD:=$PWD/build}"

all=
if [ "${1:-}" = "--all" ]; then
    all=1
    shift
fi
[ $# -ge 3 ] || {
    echo "usage: $0 [--all] BEFORE-WORKER AFTER-WORKER CORPUS-DIR..." >&2
    exit 64
}
before=$1
after=$2
shift 2

# the runs of one worker on one video, into its directory
runs() {
    bin=$1 video=$2 lang=$3 out=$4
    set -- ocr "$video" --fps 1 ${lang:+--lang "$lang"}
    [ -s "$out/json" ] && return 0
    mkdir -p "$out"
    "$bin" "$@" --format json --stats > "$out/json.tmp" 2> "$out/stats" \
        || echo "exit $?" >> "$out/json.tmp"
    # the counts of --stats: every key but the times
    perl -ne 'print join("\n", grep { !/_ms"/ }
                         split /,/), "\n" if /^\{/' "$out/stats" \
        > "$out/counts"
    if [ -n "$all" ]; then
        for f in vtt srt txt ass; do
            "$bin" "$@" --format "$f" > "$out/$f" 2>&1 || echo "exit $?" >> "$out/$f"
        done
        "$bin" "$@" --format json --frames > "$out/frames" 2>&1 \
            || echo "exit $?" >> "$out/frames"
        "$bin" "$@" --format json --frames --no-refine > "$out/no-refine" 2>&1 \
            || echo "exit $?" >> "$out/no-refine"
    fi
    mv "$out/json.tmp" "$out/json"
}

tag() {
    sha256sum "$1" | cut -c1-16
}

store=$BUILD/bench/ocr/same
tb=$(tag "$before")
ta=$(tag "$after")
videos=0
differ=0

for corpus in "$@"; do
    set="$(basename "$corpus")"
    for truth in "$corpus"/*.json; do
        name=$(basename "$truth" .json)
        file=$(perl -MJSON::PP -0777 -ne \
               'my $t = decode_json($_); print "$t->{file} ", $t->{lang} // ""' \
               "$truth")
        lang=${file#* }
        video=$corpus/${file%% *}
        for side in "$tb:$before" "$ta:$after"; do
            runs "${side#*:}" "$video" "$lang" \
                 "$store/${side%%:*}${all:+-all}/$set/$name"
        done
        videos=$((videos + 1))
        if ! diff -r -x stats "$store/$tb${all:+-all}/$set/$name" \
                     "$store/$ta${all:+-all}/$set/$name" > /dev/null
        then
            differ=$((differ + 1))
            echo "differs: $set/$name" \
                 "($store/$tb${all:+-all}/$set/$name" \
                 "$store/$ta${all:+-all}/$set/$name)"
        fi
    done
done

echo "same.sh: $videos videos, $differ differ" \
     "(before $tb, after $ta${all:+, --all})"
[ "$differ" -eq 0 ]
