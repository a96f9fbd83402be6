#!/bin/bash
# Draws bench/backlog/run.sh's medians into one plot (plot.gp):
#
#   bench/backlog/plot.sh OUT.png TITLE=DIR/medians.tsv...
#
# e.g. bench/backlog/plot.sh docs/backlog.png \
#          SQLite=build/bench/backlog-sqlite-done0/medians.tsv \
#          PostgreSQL=build/bench/backlog-pg-done0/medians.tsv
# (a title is one word: use _ for a space)
set -euo pipefail
png=${1:?usage: plot.sh OUT.png TITLE=TSV...}
shift
files=() titles=()
for a in "$@"; do
    [ -r "${a#*=}" ] || { echo "plot.sh: ${a#*=}: no such file" >&2; exit 1; }
    titles+=("${a%%=*}")
    files+=("${a#*=}")
done
[ ${#files[@]} -gt 0 ] || { echo "usage: plot.sh OUT.png TITLE=TSV..." >&2; exit 2; }
gnuplot -e "files='${files[*]}'" -e "titles='${titles[*]}'" -e "png='$png'" \
        "$(dirname "$0")/plot.gp"
