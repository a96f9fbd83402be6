#!/bin/sh
# The OCR benchmark in one command: installs what it needs, builds the
# worker, makes the corpus (kept between runs when its recipe has not
# changed), runs every pipeline on it, and prints the comparison table,
# the memory and the scaling figures; draws the plots.
#
#   bench/ocr/run.sh [--quick] [bench.pl options: --pipelines worker,
#                    --before OTHER-WORKER-BINARY, --only NAME,...]
#
# --quick: 8-second videos and one run per video (a minute or two)
# instead of 30-second videos and the worker's median of three runs
# (about ten minutes, nearly all of it in the baselines).
#
# Everything lands in $BUILD/bench/ocr (BUILD defaults to build/):
# corpus/ (videos and truth), results/ (each pipeline's output,
# results.tsv, summary.tsv), table.md (what is printed), *.png.
set -eu
cd "$(dirname "$0")/../.."
root=$PWD
: "${BUILD:=$root/build}"
out="$BUILD/bench/ocr"

quick=
runs=3
scaling=--scaling
if [ "${1:-}" = "--quick" ]; then
    quick=--quick
    runs=1
    scaling=
    shift
fi

scripts/deps.sh bench
make --no-print-directory -C worker BUILD="$BUILD" >/dev/null

corpus="$out/corpus${quick:+-quick}"
perl bench/ocr/corpus.pl "$corpus" $quick

mkdir -p "$out"
{
    echo "# OCR benchmark, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores," \
         "load average $(cut -d' ' -f1-3 /proc/loadavg)"
    echo
    WORKER_BIN="$BUILD/video-ocr-worker" perl bench/ocr/bench.pl \
        --corpus "$corpus" --out "$out/results${quick:+-quick}" \
        --runs "$runs" $scaling "$@"
} | tee "$out/table${quick:+-quick}.md"

if command -v gnuplot >/dev/null 2>&1; then
    gnuplot -e "results='$out/results${quick:+-quick}'" \
            -e "png='$out/ocr-cpu-vs-cer${quick:+-quick}.png'" \
            -e "png2='$out/ocr-speed${quick:+-quick}.png'" \
            bench/ocr/plot.gp
    echo "plots: $out/ocr-cpu-vs-cer${quick:+-quick}.png" \
         "$out/ocr-speed${quick:+-quick}.png"
fi
