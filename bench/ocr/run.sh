#!/bin/sh
# The OCR benchmark in one command: installs what it needs, builds the
# worker, makes the corpora (kept between runs when their recipe has not
# changed), runs every pipeline on them, and prints the comparison
# tables, the memory and the scaling figures; draws the plots.  The
# first set, then the second, harder one (bench/ocr/lib/OCRHard.pm),
# each reported on its own (table.md, table-hard.md).
#
#   bench/ocr/run.sh [--quick] [--first|--hard|--traits|--real]
#                    [bench.pl options: --pipelines worker,
#                    --before OTHER-WORKER-BINARY, --only NAME,...]
#
# --first, --hard: that set alone.  --traits: the traits corpus
# (bench/ocr/lib/OCRTraits.pm, issue 19) alone, worker only (the
# baselines read English only), 20-minute lecture and 4K included;
# not in the default run.  --real: the real-like set (issue 36,
# bench/ocr/lib/OCRReal.pm) alone, the worker and the videocr-style
# peer (OpenCV + tesserocr, whole frame, sparse text), each given the
# video's language, scored per line (table-real.md); with --quick, its
# clips of a few seconds per shape; not in the default run.
# --quick: 8-second videos and one run per video (a minute or two)
# instead of 30-second videos and the worker's median of three runs
# (about ten minutes, nearly all of it in the baselines).
#
# Each set's table ends with every pipeline beside the floor (ffmpeg
# decoding every frame in one thread, measured in the same run) and the
# worker's CPU by stage (its --stats); bench.pl --no-floor leaves it out.
#
# OCR_CORPUS_SEED=N: the corpora's Nth other making (corpus.pl --seed;
# the same texts and times over other moving pictures), in directories
# of their own (-seedN after the name).
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

sets="first hard"
case "${1:-}" in
--first) sets=first; shift ;;
--hard)  sets=hard; shift ;;
--traits) sets=traits; shift ;;
--real)  sets=real; shift ;;
esac

scripts/deps.sh bench
make --no-print-directory -C worker BUILD="$BUILD" >/dev/null

for set in $sets; do
    # the first set keeps its old names; the second's get -hard
    tag=${set#first}
    tag=${tag:+-$tag}
    seed=${OCR_CORPUS_SEED:-0}
    [ "$seed" = 0 ] || tag="$tag-seed$seed"
    corpus="$out/corpus$tag${quick:+-quick}"
    perl bench/ocr/corpus.pl "$corpus" --set "$set" $quick --seed "$seed"

    mkdir -p "$out"
    {
        echo "# OCR benchmark ($set set), $(date -u +%Y-%m-%dT%H:%MZ)," \
             "$(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
        echo
        WORKER_BIN="$BUILD/video-ocr-worker" perl bench/ocr/bench.pl \
            --corpus "$corpus" --out "$out/results$tag${quick:+-quick}" \
            --runs "$runs" $( [ "$set" = first ] && echo $scaling ) \
            $( [ "$set" = traits ] && echo --pipelines worker ) \
            $( [ "$set" = real ] && echo --pipelines worker,cv ) "$@"
    } | tee "$out/table$tag${quick:+-quick}.md"

    if command -v gnuplot >/dev/null 2>&1; then
        gnuplot -e "results='$out/results$tag${quick:+-quick}'" \
                -e "png='$out/ocr-cpu-vs-cer$tag${quick:+-quick}.png'" \
                -e "png2='$out/ocr-speed$tag${quick:+-quick}.png'" \
                bench/ocr/plot.gp
        echo "plots: $out/ocr-cpu-vs-cer$tag${quick:+-quick}.png" \
             "$out/ocr-speed$tag${quick:+-quick}.png"
    fi
done
