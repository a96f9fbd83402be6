#!/bin/bash
# Admission throughput of one and two nginx front ends, on an SQLite
# ledger and on a PostgreSQL one, on this machine (docs/scaling.md):
# the load generator and the checks of bench/admission/run.sh (wrk with
# load.lua: new keys, replays that must name the same job, reused keys
# that must get 422), the same connections in every mode.
#
#   bench/admission/scaling.sh [seconds per run] [body size]
#   bench/admission/scaling.sh 10 4096           (the default)
#
# Modes, alternated within each round (ROUNDS, default 5), medians of
# the rounds in the table, so a disturbance of this shared machine
# during one run does not decide the result:
#
#   sqlite-1   one nginx, the SQLite ledger
#   sqlite-2   two nginx on the same SQLite file and store (possible on
#              one machine only: the file is not shared across hosts)
#   pg-1       one nginx, a PostgreSQL ledger (scripts/pg.sh: Debian's
#              PostgreSQL on this machine, fsync on)
#   pg-2       two nginx on that PostgreSQL ledger and the same store
#
# With two front ends the connections are split between them, one wrk
# each (RUN_ID keeps their keys apart), and their rates are added.
# Every nginx runs NGINX_WORKERS worker processes (default 2) and
# durability full: the uploads are syncfs'd and the receipts committed
# (SQLite synchronous=FULL, PostgreSQL synchronous_commit=on) before
# the reply.  Both front ends share this machine's cores: what two of
# them show here is whether the ledger lets them admit at once, not
# what a second host's CPUs would add.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD

: "${NGINX_BIN:=/usr/sbin/nginx}"
: "${MODULE_SO:=$repo/build/nginx/objs/ngx_http_video_ocr_module.so}"
: "${CONNECTIONS:=16}"
: "${NGINX_WORKERS:=2}"
: "${PORT:=$((21000 + $$ % 1000 * 2))}"
: "${ROUNDS:=5}"
: "${MODES:=sqlite-1 sqlite-2 pg-1 pg-2}"

secs=${1:-10}
size=${2:-4096}

for f in "$MODULE_SO" /usr/bin/wrk; do
    [ -e "$f" ] || { echo "scaling: $f is missing (make build; apt-get install wrk)" >&2; exit 1; }
done

work=$(mktemp -d "${TMPDIR:-/var/tmp}/video-ocr-scaling-XXXXXX")
chmod 0755 "$work"
pgdir=$(scripts/pg.sh start)
# shellcheck disable=SC1091
source "$pgdir/env"
trap 'stop_all; scripts/pg.sh stop "$pgdir"; rm -rf "$work"' EXIT

# shellcheck source=bench/admission/common.sh
. bench/admission/common.sh

pids=()
stop_all() {
    [ "${#pids[@]}" = 0 ] || nginx_stop "${pids[@]}"
    pids=()
}

# start_nginx DIR PORT LEDGER STORE: one front end, a temp directory of
# its own in the shared store (nginx makes the last directory of a temp
# path only)
start_nginx() {
    local d=$1 port=$2 ledger=$3 store=$4
    mkdir -p "$store/.incoming"
    video_ocr_conf "$d" "$port" "$ledger" "$store" "$store/.incoming/${d##*/}"
    pids+=("$(nginx_start "$d")")
}

# a new empty PostgreSQL ledger: a role and its schema
pg_ledger() {
    local name=$1
    psql -X -q "$VIDEO_OCR_TEST_PG" \
         -c "DROP SCHEMA IF EXISTS $name CASCADE" \
         -c "DROP ROLE IF EXISTS $name" \
         -c "CREATE ROLE $name LOGIN" \
         -c "CREATE SCHEMA AUTHORIZATION $name" 2>/dev/null
    echo "${VIDEO_OCR_TEST_PG/\/\/vo@/\/\/$name@}"
}

results=()
run=0

for round in $(seq "$ROUNDS"); do
  for mode in $MODES; do
    run=$((run + 1))
    d=$work/$mode
    mkdir -p "$d/data" "$d/store"
    chmod 0777 "$d/data" "$d/store"

    case "$mode" in
        sqlite-*) ledger=$d/data/ledger.db ;;
        pg-*)     ledger=$(pg_ledger "bench_$run") ;;
    esac

    fronts=${mode#*-}
    sync
    sleep 1

    for f in $(seq "$fronts"); do
        start_nginx "$d/nginx-$f" $((PORT + f - 1)) "$ledger" "$d/store"
    done

    per=$((CONNECTIONS / fronts))
    for f in $(seq "$fronts"); do
        BODY_SIZE=$size MODE=video-ocr RUN_ID="$run-$f" wrk -t"$per" \
            -c"$per" -d"${secs}s" --latency --timeout 30s \
            -s bench/admission/load.lua \
            "http://127.0.0.1:$((PORT + f - 1))/upload" \
            > "$d/wrk-$f.out" &
    done
    wait

    # one line per mode: rates added, the worse latency of the two
    line=$(cat "$d"/wrk-*.out | grep -E '^RESULT' | awk -v m="$mode" '
        { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
          rps += v["rps"]; wrong += v["wrong"]; errs += v["socket_errors"]
          if (v["p50_ms"] > p50) p50 = v["p50_ms"]
          if (v["p99_ms"] > p99) p99 = v["p99_ms"] }
        END { printf "RESULT mode=%s rps=%.0f p50_ms=%.2f p99_ms=%.2f wrong=%d socket_errors=%d\n",
                     m, rps, p50, p99, wrong, errs }')
    grep -h '^WRONG' "$d"/wrk-*.out | head -3 || true
    echo "round=$round $line"
    results+=("$line")

    stop_all
    retire "$d"
  done
done


printf '\n%-9s %10s %8s %8s %6s\n' mode "uploads/s" "p50 ms" "p99 ms" wrong
for mode in $MODES; do
    wrong=$(printf '%s\n' "${results[@]}" | grep "mode=$mode " \
            | sed 's/.* wrong=\([0-9]*\).*/\1/' | awk '{ s += $1 } END { print s }')
    printf '%-9s %10s %8s %8s %6s\n' "$mode" "$(median rps "mode=$mode ")" \
           "$(median p50_ms "mode=$mode ")" "$(median p99_ms "mode=$mode ")" "$wrong"
done
echo "(medians of $ROUNDS rounds of ${secs}s, $size-byte bodies," \
     "$CONNECTIONS connections in all, $NGINX_WORKERS worker processes" \
     "per nginx, $(nproc) cores; durability full)"
