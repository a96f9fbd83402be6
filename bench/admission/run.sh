#!/bin/bash
# The admission benchmark of issue 4: video-ocr's intake against bare
# nginx receiving the same uploads into files, same load generator (wrk
# with load.lua), same connections, measured back to back in one run.
#
#   bench/admission/run.sh [seconds per run] [sizes...]
#   bench/admission/run.sh 10 4096 262144 8388608      (the default)
#
# ROUNDS (default 3) alternates baseline and video-ocr runs per size; the
# table reports the median of each and their ratio, so a disturbance of
# this shared machine during one run does not decide the result.  Before
# each run the page cache is written back (sync), so the previous run's
# writes are not paid by the next.
#
# The baseline is Debian's nginx with the echo module:
# client_body_in_file_only on + echo_read_request_body, no ledger: every
# body lands in a file that is kept, as video-ocr keeps its uploads (but
# without fsync, hashing or sniffing).  video-ocr
# runs with its defaults: durability full (each batch's uploads syncfs'd
# and its receipts committed before the reply, SQLite synchronous=FULL).  Prints one RESULT line per
# run and a table with the ratios; then the largest nginx worker's RSS
# after a 1 s warm-up and at the end of each run (memory growth under
# load), and, unless SCALING=0, video-ocr at the first size with one
# nginx worker against NGINX_WORKERS (default 2).
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD

: "${NGINX_BIN:=/usr/sbin/nginx}"
: "${MODULE_SO:=$repo/build/nginx/objs/ngx_http_video_ocr_module.so}"
: "${ECHO_SO:=/usr/lib/nginx/modules/ngx_http_echo_module.so}"
: "${CONNECTIONS:=16}"
: "${NGINX_WORKERS:=2}"
: "${PORT:=$((20000 + $$ % 1000))}"
: "${ROUNDS:=3}"

secs=${1:-10}
shift || true
sizes=("${@:-4096 262144 8388608}")
# shellcheck disable=SC2206
sizes=(${sizes[@]})

for f in "$MODULE_SO" "$ECHO_SO" /usr/bin/wrk; do
    [ -e "$f" ] || { echo "bench: $f is missing (make build; scripts/deps.sh bench)" >&2; exit 1; }
done

work=$(mktemp -d "${TMPDIR:-/var/tmp}/video-ocr-bench-XXXXXX")
# nginx's worker processes (nobody) must reach the ledger and the store
chmod 0755 "$work"
trap 'stop_nginx; rm -rf "$work"' EXIT

# shellcheck source=bench/admission/common.sh
. bench/admission/common.sh

nginx_pid=
stop_nginx() {
    if [ -n "$nginx_pid" ]; then
        nginx_stop "$nginx_pid"
        nginx_pid=
    fi
}

# start_nginx MODE: a fresh directory, config and nginx for one run
start_nginx() {
    local mode=$1 d=$work/$1
    rm -rf "$d"
    mkdir -p "$d/logs" "$d/data" "$d/store"
    chmod 0777 "$d/data" "$d/store"

    if [ "$mode" = baseline ]; then
        cat > "$d/nginx.conf" <<CONF
load_module $ECHO_SO;
worker_processes $NGINX_WORKERS;
error_log $d/logs/error.log warn;
pid $d/logs/nginx.pid;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path $d/store/.incoming;
    server {
        listen 127.0.0.1:$PORT;
        location = /upload {
            client_max_body_size 64m;
            client_body_in_file_only on;
            add_header X-Key \$http_idempotency_key always;
            echo_read_request_body;
            echo ok;
        }
    }
}
CONF
    else
        video_ocr_conf "$d" "$PORT" "$d/data/ledger.db" "$d/store" \
                       "$d/store/.incoming"
    fi

    nginx_pid=$(nginx_start "$d")
}

# rss_kb: the resident memory of nginx's worker processes, the largest
rss_kb() {
    ps -o rss= --ppid "$nginx_pid" | sort -n | tail -1 | tr -d ' '
}

# one_run MODE SIZE: a fresh nginx, wrk for $secs, the RESULT line with
# the largest worker's RSS after a 1 s warm-up and at the end
one_run() {
    local mode=$1 size=$2 line rss0 rss1
    sync
    sleep 1
    start_nginx "$mode"
    BODY_SIZE=$size MODE=$mode RUN_ID=warm wrk -t"$CONNECTIONS" \
        -c"$CONNECTIONS" -d1s \
        -s bench/admission/load.lua "http://127.0.0.1:$PORT/upload" \
        > /dev/null
    rss0=$(rss_kb)
    line=$(BODY_SIZE=$size MODE=$mode RUN_ID=run wrk -t"$CONNECTIONS" \
               -c"$CONNECTIONS" -d"${secs}s" --latency --timeout 30s \
               -s bench/admission/load.lua \
               "http://127.0.0.1:$PORT/upload" | grep -E '^(RESULT|WRONG)')
    rss1=$(rss_kb)
    stop_nginx
    retire "$work/$mode"
    echo "$line rss_warm_kb=$rss0 rss_end_kb=$rss1 workers=$NGINX_WORKERS"
}

results=()

# everything printed also goes to $out/table.md; the medians per size to
# $out/throughput.tsv, plotted (gnuplot) as $out/admission-throughput.png
: "${BUILD:=$repo/build}"
out="$BUILD/bench/admission"
mkdir -p "$out"
exec > >(tee "$out/table.md")
echo "# admission benchmark, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores," \
     "load average $(cut -d' ' -f1-3 /proc/loadavg)"

for size in "${sizes[@]}"; do
  for round in $(seq "$ROUNDS"); do
    # alternate which goes first, so neither always follows the other
    modes="baseline video-ocr"
    [ $((round % 2)) = 0 ] && modes="video-ocr baseline"
    for mode in $modes; do
        line=$(one_run "$mode" "$size")
        echo "round=$round $line"
        results+=("$line")
    done
  done
done

# scaling: video-ocr at the first size with 1 nginx worker, beside the
# runs above with $NGINX_WORKERS
if [ "${SCALING:-1}" = 1 ] && [ "$NGINX_WORKERS" -gt 1 ]; then
  many=$NGINX_WORKERS
  for round in $(seq "$ROUNDS"); do
    NGINX_WORKERS=1
    line=$(one_run video-ocr "${sizes[0]}")
    NGINX_WORKERS=$many
    echo "round=$round ${line/mode=video-ocr/mode=video-ocr-1}"
    results+=("${line/mode=video-ocr/mode=video-ocr-1}")
  done
fi


# the table: one row per size, medians over the rounds
printf 'body\tbaseline_rps\tvideo_ocr_rps\tbaseline_mbps\tvideo_ocr_mbps\n' \
    > "$out/throughput.tsv"
printf '\n%-9s %11s %11s %7s %8s %8s %8s %6s\n' body "bare nginx" video-ocr \
       ratio "MB/s" "p50 ms" "p99 ms" wrong
for size in "${sizes[@]}"; do
    base=$(median rps "mode=baseline size=$size ")
    ours=$(median rps "mode=video-ocr size=$size ")
    wrong=$(printf '%s\n' "${results[@]}" | grep "mode=video-ocr size=$size " \
            | sed 's/.* wrong=\([0-9]*\).*/\1/' | awk '{ s += $1 } END { print s }')
    printf '%-9s %11s %11s %7s %8s %8s %8s %6s\n' "$size" "$base" "$ours" \
           "$(awk -v a="$ours" -v b="$base" 'BEGIN { printf "%.2f", a / b }')" \
           "$(median mbps "mode=video-ocr size=$size ")" "$(median p50_ms "mode=video-ocr size=$size ")" \
           "$(median p99_ms "mode=video-ocr size=$size ")" "$wrong"
    printf '%s\t%s\t%s\t%s\t%s\n' "$size" "$base" "$ours" \
           "$(median mbps "mode=baseline size=$size ")" "$(median mbps "mode=video-ocr size=$size ")" \
        >> "$out/throughput.tsv"
done
echo "(medians of $ROUNDS rounds of ${secs}s, $CONNECTIONS connections," \
     "$NGINX_WORKERS nginx workers; video-ocr: receipts committed, uploads syncfs'd)"

# memory: the largest nginx worker's RSS after the warm-up and at the end
echo
printf '%-9s %14s %14s %10s\n' body "RSS warm (KB)" "RSS end (KB)" "growth"
for size in "${sizes[@]}"; do
    w=$(median rss_warm_kb "mode=video-ocr size=$size ")
    e=$(median rss_end_kb "mode=video-ocr size=$size ")
    printf '%-9s %14s %14s %10s\n' "$size" "$w" "$e" "$((${e%.*} - ${w%.*})) KB"
done

if printf '%s\n' "${results[@]}" | grep -q "mode=video-ocr-1 "; then
    one=$(median rps "mode=video-ocr-1 size=${sizes[0]} ")
    two=$(median rps "mode=video-ocr size=${sizes[0]} ")
    echo
    echo "scaling at ${sizes[0]} bytes: 1 nginx worker $one req/s," \
         "$NGINX_WORKERS workers $two req/s:" \
         "$(awk -v a="$two" -v b="$one" 'BEGIN { printf "%.2f", a / b }')x"
fi

if command -v gnuplot >/dev/null 2>&1 && [ "${#sizes[@]}" -gt 1 ]; then
    gnuplot -e "tsv='$out/throughput.tsv'" \
            -e "png='$out/admission-throughput.png'" bench/admission/plot.gp
    echo
    echo "plot: $out/admission-throughput.png"
fi
