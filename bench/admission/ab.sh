#!/bin/bash
# Two builds of the module against each other on the admission load:
# ROUNDS (default 5) rounds of one 10 s run of each, alternating which
# goes first, then the medians.  How the changes to the group commit
# were measured (docs/benchmarks.md, "Changes measured").
#
#   bench/admission/ab.sh A.so B.so [seconds per run] [body size]
#   bench/admission/ab.sh /tmp/before.so build/nginx/objs/ngx_http_video_ocr_module.so 10 4096
#
# Each RESULT line (bench/admission/load.lua) gets the run's batch size:
# admissions per ledger transaction, from the metrics page.  Settings as
# in run.sh: NGINX_BIN, CONNECTIONS (16), NGINX_WORKERS (2), PORT.
set -euo pipefail
cd "$(dirname "$0")/../.."

[ $# -ge 2 ] || { sed -n '2,12p' "$0" >&2; exit 2; }
a=$(realpath "$1")
b=$(realpath "$2")
secs=${3:-10}
size=${4:-4096}

: "${NGINX_BIN:=/usr/sbin/nginx}"
: "${CONNECTIONS:=16}"
: "${NGINX_WORKERS:=2}"
: "${PORT:=$((21000 + $$ % 1000))}"
: "${ROUNDS:=5}"

for f in "$a" "$b" /usr/bin/wrk; do
    [ -e "$f" ] || { echo "ab: $f is missing" >&2; exit 1; }
done

work=$(mktemp -d "${TMPDIR:-/var/tmp}/video-ocr-ab-XXXXXX")
chmod 0755 "$work"
nginx_pid=
trap '[ -z "$nginx_pid" ] || nginx_stop "$nginx_pid"; rm -rf "$work"' EXIT

# shellcheck source=bench/admission/common.sh
. bench/admission/common.sh

# metric NAME: a counter from the metrics page of the running nginx
metric() {
    curl -s "http://127.0.0.1:$PORT/metrics" | awk -v n="$1" '$1 == n { print $2 }'
}

# one_run LABEL MODULE: the RESULT line of a fresh nginx with MODULE
one_run() {
    local label=$1 d=$work/$1 line batches batched
    sync
    sleep 1
    mkdir -p "$d/data" "$d/store"
    chmod 0777 "$d/data" "$d/store"
    MODULE_SO=$2 video_ocr_conf "$d" "$PORT" "$d/data/ledger.db" "$d/store" \
                                "$d/store/.incoming"
    nginx_pid=$(nginx_start "$d")
    line=$(BODY_SIZE=$size MODE=video-ocr RUN_ID=$label wrk \
               -t"$CONNECTIONS" -c"$CONNECTIONS" -d"${secs}s" --latency \
               --timeout 30s -s bench/admission/load.lua \
               "http://127.0.0.1:$PORT/upload" | grep -E '^(RESULT|WRONG)')
    batches=$(metric video_ocr_admission_batches_total)
    batched=$(metric video_ocr_admission_batched_total)
    nginx_stop "$nginx_pid"
    nginx_pid=
    retire "$d"
    echo "${line/mode=video-ocr/mode=$label}" \
         "batch=$(awk -v a="$batched" -v b="$batches" 'BEGIN { printf "%.2f", b ? a / b : 0 }')"
}

results=()
echo "# A = $a"
echo "# B = $b"
echo "# $size-byte bodies, $CONNECTIONS connections, $NGINX_WORKERS nginx" \
     "workers, $ROUNDS rounds of ${secs}s, load average $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq "$ROUNDS"); do
    order="A B"
    [ $((round % 2)) = 0 ] && order="B A"
    for label in $order; do
        if [ "$label" = A ]; then so=$a; else so=$b; fi
        line=$(one_run "$label" "$so")
        echo "round=$round $line"
        results+=("$line")
    done
done

ra=$(median rps "mode=A ")
rb=$(median rps "mode=B ")
printf 'medians: A %s req/s (p99 %s ms, batch %s), B %s req/s (p99 %s ms, batch %s): B/A %.2f\n' \
       "$ra" "$(median p99_ms "mode=A ")" "$(median batch "mode=A ")" \
       "$rb" "$(median p99_ms "mode=B ")" "$(median batch "mode=B ")" \
       "$(awk -v a="$ra" -v b="$rb" 'BEGIN { print a ? b / a : 0 }')"
