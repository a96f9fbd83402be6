#!/bin/sh
# The worker with --lang $LANG_AS, whatever --lang it is given: how
# bench.pl's "before" pipeline measures lang=auto (or eng) against the
# right lang on the same videos (docs/benchmarks.md, "lang auto").
#
#   LANG_AS=auto perl bench/ocr/bench.pl --corpus DIR --out DIR \
#       --pipelines worker --before bench/ocr/lang-as.sh
#
# WORKER_BIN: the worker (default build/video-ocr-worker).
set -eu
: "${LANG_AS:?LANG_AS must name the lang to give}"
bin=${WORKER_BIN:-$(dirname "$0")/../../build/video-ocr-worker}
n=$#
prev=
while [ "$n" -gt 0 ]; do
    a=$1
    shift
    [ "$prev" = --lang ] && a=$LANG_AS
    set -- "$@" "$a"
    prev=$a
    n=$((n - 1))
done
exec "$bin" "$@"
