#!/bin/bash
# The backlog benchmark of issue 17: admission throughput and claim
# latency beside a ledger that already holds N queued jobs, for every N
# of one run (so the empty ledger is the baseline of the same run),
# while two claiming children (bench/backlog/claimer.c: vo_ledger_claim,
# WORK_MS of "work", vo_ledger_publish) claim and finish jobs.
#
#   bench/backlog/run.sh [seconds per run] [queued counts...]
#   bench/backlog/run.sh 10 0 1000 10000 100000 1000000    (the default)
#
# The queued jobs are seeded with one SQL statement (sqlite3) into the
# ledger nginx created: accepted, in 10 tenants, older than the
# uploads; DONE=N also seeds N finished jobs.  The load is the admission
# benchmark's (bench/admission/load.lua: 78 % new keys, 20 % replays,
# 2 % key reuse, every reply checked) at 4 KiB and 256 KiB (SIZES).
# Every ledger is seeded once; ROUNDS (4: even, so that each count runs
# as often first as last) rounds then run every count in turn on its own
# ledger (the order reversed every other round), so the load of this
# shared machine falls on all of them alike.  Prints one
# RESULT line per run and a table of medians: req/s and its ratio to
# the empty ledger's, and the claim latency (p50, p99 over both
# claimers' claims, BEGIN to COMMIT), also written as
# build/bench/backlog-BACKEND-doneN/medians.tsv for bench/backlog/plot.sh.
# Long: not part of make test.
#
# BACKEND=pg measures a PostgreSQL ledger instead (the server of
# VIDEO_OCR_TEST_PG: d=$(scripts/pg.sh start); source $d/env), each
# count in a schema of its own, reset before each run by deleting what
# the last one added.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD

: "${NGINX_BIN:=/usr/sbin/nginx}"
: "${BUILD:=$repo/build}"
: "${MODULE_SO:=$BUILD/nginx/objs/ngx_http_video_ocr_module.so}"
: "${CONNECTIONS:=16}"
: "${NGINX_WORKERS:=2}"
: "${PORT:=$((21000 + $$ % 1000))}"
: "${SIZES:=4096 262144}"
: "${DONE:=0}"
: "${ROUNDS:=4}"

secs=${1:-10}
shift || true
counts=("${@:-0 1000 10000 100000 1000000}")
# shellcheck disable=SC2206
counts=(${counts[@]})
# shellcheck disable=SC2206
sizes=($SIZES)

for f in "$MODULE_SO" /usr/bin/wrk /usr/bin/sqlite3 "$BUILD/worker/vo_ledger.o"; do
    [ -e "$f" ] || { echo "bench: $f is missing (make build; scripts/deps.sh bench)" >&2; exit 1; }
done

claimer=$BUILD/claimer
cc -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Isql -Ilib \
   -I"$BUILD/worker" -o "$claimer" bench/backlog/claimer.c \
   "$BUILD"/worker/vo_ledger*.o "$BUILD"/worker/vo_json.o \
   "$BUILD"/worker/vo_webhook.o "$BUILD"/worker/vo_upload.o \
   "$BUILD"/worker/vo_store.o "$BUILD"/worker/vo_options.o \
   "$BUILD"/worker/vo_key.o "$BUILD"/worker/vo_fold.o \
   "$BUILD"/worker/vo_query.o "$BUILD"/worker/vo_result.o -lsqlite3 -lpq -lcrypto -lpthread

work=$(mktemp -d "${TMPDIR:-/var/tmp}/video-ocr-backlog-XXXXXX")
chmod 0755 "$work"
nginx_pid=
trap '[ -z "$nginx_pid" ] || nginx_stop "$nginx_pid"; rm -rf "$work"' EXIT

# shellcheck source=bench/admission/common.sh
. bench/admission/common.sh

# PostgreSQL (BACKEND=pg, VIDEO_OCR_TEST_PG from scripts/pg.sh: the
# server's superuser URI): each count's ledger is a role and a schema of
# its own on that server
pg=0
if [ "${BACKEND:-sqlite}" = pg ]; then
    pg=1
    : "${VIDEO_OCR_TEST_PG:?BACKEND=pg needs VIDEO_OCR_TEST_PG (scripts/pg.sh start)}"
fi

# ledger_of N: the ledger spec of count N
ledger_of() {
    if [ "$pg" = 1 ]; then
        # shellcheck disable=SC2001
        echo "$VIDEO_OCR_TEST_PG" | sed "s|://[^@/]*@|://vo_backlog_$1@|"
    else
        echo "$work/q$1/data/ledger.db"
    fi
}

# sql LEDGER: runs the SQL on stdin on the ledger
sql() {
    if [ "$pg" = 1 ]; then
        PGOPTIONS="-c client_min_messages=warning" \
            psql -X -q -v ON_ERROR_STOP=1 "$1" > /dev/null
    else
        sqlite3 -cmd '.timeout 10000' "$1" > /dev/null
    fi
}

# seed LEDGER N STATE: N jobs in STATE, created before now, in 10 tenants
seed() {
    local ledger=$1 n=$2 state=$3 t0 series hex
    [ "$n" -gt 0 ] || return 0
    t0=$(( $(date +%s) * 1000 - 86400000 ))
    if [ "$pg" = 1 ]; then
        sql "$ledger" <<SQL
INSERT INTO jobs (job_id, tenant, state, options, input_path, input_size,
                  input_sha256, container, created_at, updated_at,
                  not_before, finished_at)
SELECT '${state:0:4}' || lpad(to_hex(i), 28, '0'), 'tenant' || (i % 10),
       '$state', '{}', 'seeded', 1, repeat('0', 64), 'mp4', $t0 + i,
       $t0 + i, $t0 + i, CASE WHEN '$state' = 'done' THEN $t0 + i END
FROM generate_series(1, $n) AS g(i);
SQL
        return
    fi
    sqlite3 "$ledger" <<SQL
.timeout 10000
BEGIN IMMEDIATE;
WITH RECURSIVE g(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM g WHERE i < $n)
INSERT INTO jobs (job_id, tenant, state, options, input_path, input_size,
                  input_sha256, container, created_at, updated_at,
                  not_before, finished_at)
SELECT printf('%s%028x', '${state:0:4}', i), 'tenant' || (i % 10), '$state',
       '{}', 'seeded', 1, '$(printf '0%.0s' $(seq 64))', 'mp4', $t0 + i,
       $t0 + i, $t0 + i, CASE WHEN '$state' = 'done' THEN $t0 + i END
FROM g;
COMMIT;
SQL
}

# pct FILE P: the P-th percentile of the numbers in FILE
pct() {
    sort -n "$1" | awk -v p="$2" '{ v[NR] = $1 } END {
        if (NR == 0) { print "-"; exit }
        i = int(NR * p / 100); if (i < 1) i = 1; printf "%.3f", v[i] }'
}

# template: SQLite with DONE finished jobs: nginx creates one ledger,
# the finished jobs are seeded into it once, and every count's ledger
# starts as a copy of it (10^7 rows are minutes to seed, once)
template() {
    local d=$work/template s0
    [ "$pg" = 0 ] && [ "$DONE" -gt 0 ] || return 0
    mkdir -p "$d/logs" "$d/data" "$d/store"
    chmod 0777 "$d/data" "$d/store"
    video_ocr_conf "$d" "$PORT" "$d/data/ledger.db" "$d/store" "$d/store/.incoming"
    nginx_pid=$(nginx_start "$d")
    nginx_stop "$nginx_pid"
    nginx_pid=
    s0=$(date +%s.%N)
    seed "$d/data/ledger.db" "$DONE" done
    sqlite3 "$d/data/ledger.db" "PRAGMA wal_checkpoint(TRUNCATE)" > /dev/null
    echo "seeded $DONE done jobs in" \
         "$(awk -v a="$s0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s," \
         "$(du -m "$d/data/ledger.db" | cut -f1) MB"
}

# prepare N: the directory of the ledger with N queued jobs: nginx
# creates the ledger (or it is the template's copy), the jobs are
# seeded, nginx stops; the file is kept as pristine.db, which every run
# starts from
prepare() {
    local n=$1 d=$work/q$1 s0 l
    l=$(ledger_of "$n")
    mkdir -p "$d/logs" "$d/data" "$d/store"
    chmod 0777 "$d/data" "$d/store"
    if [ "$pg" = 1 ]; then
        sql "$VIDEO_OCR_TEST_PG" <<SQL
DROP SCHEMA IF EXISTS vo_backlog_$n CASCADE;
DROP ROLE IF EXISTS vo_backlog_$n;
CREATE ROLE vo_backlog_$n LOGIN;
CREATE SCHEMA AUTHORIZATION vo_backlog_$n;
SQL
    elif [ "$DONE" -gt 0 ]; then
        cp "$work/template/data/ledger.db" "$l"
        chmod 0666 "$l"
    fi
    video_ocr_conf "$d" "$PORT" "$l" "$d/store" "$d/store/.incoming"
    nginx_pid=$(nginx_start "$d")
    s0=$(date +%s.%N)
    [ "$pg" = 0 ] || seed "$l" "$DONE" done
    seed "$l" "$n" accepted
    nginx_stop "$nginx_pid"
    nginx_pid=
    if [ "$pg" = 1 ]; then
        psql -X -q "$l" -c "VACUUM ANALYZE" > /dev/null 2>&1
    else
        sqlite3 "$l" "PRAGMA wal_checkpoint(TRUNCATE)" > /dev/null
        mv "$l" "$d/pristine.db"
    fi
    echo "seeded $n queued jobs (and $DONE done) in" \
         "$(awk -v a="$s0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s"
}

# one_run N SIZE: nginx on the ledger of N queued jobs, two claimers, wrk
one_run() {
    local n=$1 size=$2 d=$work/q$1 line queued l
    l=$(ledger_of "$n")
    # every run starts from the seeded ledger: exactly N queued
    # (PostgreSQL: what the last run added goes, what it claimed is
    # accepted again, the metric rows are folded)
    if [ "$pg" = 1 ]; then
        sql "$l" <<SQL
DELETE FROM notifications; DELETE FROM requests; DELETE FROM events;
DELETE FROM results; DELETE FROM frames;
DELETE FROM jobs WHERE input_path <> 'seeded';
UPDATE jobs SET state = 'accepted', attempt = 0, failures = 0,
    lease_owner = NULL, lease_expires_at = NULL, started_at = NULL
    WHERE input_path = 'seeded' AND state = 'running'
       OR input_path = 'seeded' AND state = 'done' AND finished_at > $(( $(date +%s) * 1000 - 3600000 ));
UPDATE jobs SET finished_at = NULL WHERE state = 'accepted'
    AND finished_at IS NOT NULL;
DELETE FROM job_counts;
INSERT INTO job_counts SELECT state, count(*) FROM jobs GROUP BY state;
DELETE FROM counters; DELETE FROM event_counts;
UPDATE claim_turn SET tenant = '', streak = 0;
SQL
        psql -X -q "$l" -c "VACUUM ANALYZE" > /dev/null 2>&1
        # the reset's and the last run's writes out of the way: without
        # this the second run of a round paid for the first one's
        # checkpoint (the first of each round was 1.5x faster)
        psql -X -q "$VIDEO_OCR_TEST_PG" -c "CHECKPOINT" > /dev/null
    else
        rm -f "$l-wal" "$l-shm"
        cp "$d/pristine.db" "$l"
        chmod 0666 "$l"
    fi
    sync
    nginx_pid=$(nginx_start "$d")

    "$claimer" "$l" $((secs + 2)) c1 "$d/c1.lat" \
        > "$d/c1.out" &
    local c1=$!
    "$claimer" "$l" $((secs + 2)) c2 "$d/c2.lat" \
        > "$d/c2.out" &
    local c2=$!

    BODY_SIZE=$size MODE=video-ocr RUN_ID="warm$RANDOM" wrk -t"$CONNECTIONS" \
        -c"$CONNECTIONS" -d1s -s bench/admission/load.lua \
        "http://127.0.0.1:$PORT/upload" > /dev/null
    line=$(BODY_SIZE=$size MODE=video-ocr RUN_ID="run$RANDOM" \
               wrk -t"$CONNECTIONS" -c"$CONNECTIONS" -d"${secs}s" --latency \
               --timeout 30s -s bench/admission/load.lua \
               "http://127.0.0.1:$PORT/upload" | grep -E '^(RESULT|WRONG)')
    wait "$c1" "$c2"

    queued=$(if [ "$pg" = 1 ]; then
                 psql -X -qAt "$l" -c "SELECT sum(jobs) FROM job_counts
                                       WHERE state = 'accepted'"
             else
                 sqlite3 "$l" "SELECT jobs FROM job_counts
                               WHERE state = 'accepted'"
             fi)
    cat "$d/c1.lat" "$d/c2.lat" > "$d/all.lat"
    echo "$line queued=$n queued_after=$queued" \
         "claims=$(wc -l < "$d/all.lat")" \
         "claim_p50_ms=$(pct "$d/all.lat" 50)" \
         "claim_p99_ms=$(pct "$d/all.lat" 99)" \
         "claim_max_ms=$(pct "$d/all.lat" 100)"

    nginx_stop "$nginx_pid"
    nginx_pid=
    # the uploads' files go (truncated, see retire), the ledger stays
    find "$d/store" -type f -exec truncate -s 0 {} +
}

# med FIELD SIZE N: the median of FIELD over the runs of SIZE and N
med() {
    printf '%s\n' "${results[@]}" | grep -E -- " size=$2 .* queued=$3 " \
        | sed "s/.* $1=\([0-9.]*\).*/\1/" | sort -n \
        | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

out="$BUILD/bench/backlog-${BACKEND:-sqlite}-done$DONE"
mkdir -p "$out"
exec > >(tee "$out/table.md")
echo "# backlog benchmark (${BACKEND:-sqlite}, $DONE finished jobs), $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores," \
     "load average $(cut -d' ' -f1-3 /proc/loadavg)"

template
for n in "${counts[@]}"; do
    prepare "$n"
done
rm -rf "$work/template"

# ROUNDS rounds; in each, every queued count in turn (the order reversed
# every other round), so that the machine's other load falls on all
results=()
for round in $(seq "$ROUNDS"); do
    order=("${counts[@]}")
    if [ $((round % 2)) = 0 ]; then
        order=()
        for ((i = ${#counts[@]} - 1; i >= 0; i--)); do
            order+=("${counts[$i]}")
        done
    fi
    for size in "${sizes[@]}"; do
        for n in "${order[@]}"; do
            line=$(one_run "$n" "$size")
            echo "round=$round $line"
            results+=("$line")
        done
    done
done

declare -A rps p50 p99
for size in "${sizes[@]}"; do
    for n in "${counts[@]}"; do
        rps[$size,$n]=$(med rps "$size" "$n")
        p50[$size,$n]=$(med claim_p50_ms "$size" "$n")
        p99[$size,$n]=$(med claim_p99_ms "$size" "$n")
    done
done

echo
printf 'body\tqueued\trps\tratio\tclaim_p50_ms\tclaim_p99_ms\n' > "$out/medians.tsv"
printf '%-8s %9s %10s %7s %14s %14s\n' body queued "req/s" ratio \
       "claim p50 ms" "claim p99 ms"
for size in "${sizes[@]}"; do
    base=${rps[$size,${counts[0]}]}
    for n in "${counts[@]}"; do
        ratio=$(awk -v a="${rps[$size,$n]}" -v b="$base" 'BEGIN { printf "%.2f", a / b }')
        printf '%-8s %9s %10s %7s %14s %14s\n' "$size" "$n" \
            "${rps[$size,$n]}" "$ratio" "${p50[$size,$n]}" "${p99[$size,$n]}"
        printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$size" "$n" "${rps[$size,$n]}" \
            "$ratio" "${p50[$size,$n]}" "${p99[$size,$n]}" >> "$out/medians.tsv"
    done
done
echo "(medians of $ROUNDS rounds of ${secs}s, $CONNECTIONS connections, $NGINX_WORKERS nginx" \
     "workers, two claimers with WORK_MS=${WORK_MS:-20}; ratio: to" \
     "${counts[0]} queued; $out/medians.tsv; bench/backlog/plot.sh draws them)"
