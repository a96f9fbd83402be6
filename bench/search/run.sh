#!/bin/bash
# The search benchmark of issue 41 (docs/benchmarks.md, "Search"): a
# ledger of JOBS jobs (100000) of SEGMENTS segments (30) each, every
# result published through the ledger's own publish, which writes the
# search index (bench/search/fill.c says what the texts and the queries
# are); then each kind of query (common words, rare phrases, typos,
# pieces of Japanese lines) asked through nginx's video_ocr_search, by
# tenant t0 (half the jobs), by one client, one request after the other,
# for SECONDS_EACH (10) each after a warm-up pass (wrk -t1 -c1): p50 and
# p99, and the CPU time nginx's worker process spent per search (user +
# sys, from /proc: on a busy machine the latencies include the waits for
# a core, the CPU time does not), and PostgreSQL's backends (db_cpu_ms),
# beside the ledger's size with and without the index.
#
#   bench/search/run.sh [sqlite] [pg]          (default: both)
#   JOBS=10000 bench/search/run.sh sqlite      (a quicker look)
#   KEEP=1 bench/search/run.sh ...             (keeps its ledgers: the
#                                               directory it names)
#   REUSE=DIR bench/search/run.sh ...          (measures those again,
#                                               without filling)
#
# PostgreSQL: the server of VIDEO_OCR_TEST_PG (its superuser's URI, as
# scripts/pg.sh prints it), else one scripts/pg.sh starts and stops; the
# ledger is a database of its own made with LC_CTYPE C.UTF-8, as
# docs/operations.md asks of a ledger with text beyond ASCII (pg_trgm
# reads letters by the database's ctype).  Prints one RESULT line per
# measurement and a table.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD

: "${NGINX_BIN:=/usr/sbin/nginx}"
: "${BUILD:=$repo/build}"
: "${MODULE_SO:=$BUILD/nginx/objs/ngx_http_video_ocr_module.so}"
: "${JOBS:=100000}"
: "${SEGMENTS:=30}"
: "${SECONDS_EACH:=10}"
: "${SEED:=41}"
: "${PORT:=$((21000 + $$ % 1000))}"

backends=("${@:-sqlite pg}")
# shellcheck disable=SC2206
backends=(${backends[@]})

for f in "$MODULE_SO" /usr/bin/wrk /usr/bin/sqlite3 \
         "$BUILD/worker/vo_ledger_search.o"; do
    [ -e "$f" ] || { echo "bench: $f is missing (make build; scripts/deps.sh bench)" >&2; exit 1; }
done

if [ -n "${REUSE:-}" ]; then
    work=$REUSE
    KEEP=1
else
    work=$(mktemp -d "${TMPDIR:-/var/tmp}/video-ocr-search-XXXXXX")
fi
chmod 0755 "$work"
nginx_pid=
pg_dir=
pg_db=
cleanup() {
    [ -z "$nginx_pid" ] || nginx_stop "$nginx_pid"
    if [ -z "${KEEP:-}" ] && [ -n "$pg_db" ] && [ -z "$pg_dir" ]; then
        psql -X -q "$VIDEO_OCR_TEST_PG" -c "DROP DATABASE $pg_db" || true
    fi
    [ -z "$pg_dir" ] || scripts/pg.sh stop "$pg_dir"
    if [ -n "${KEEP:-}" ]; then
        echo "bench: the ledgers are in $work" >&2
    else
        rm -rf "$work"
    fi
}
trap cleanup EXIT

# shellcheck source=bench/admission/common.sh
. bench/admission/common.sh

fill=$work/fill
pq=
[ -e "$BUILD/worker/vo_ledger_pg.o" ] && pq=-lpq
# shellcheck disable=SC2086
cc -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Isql -Ilib \
   -I"$BUILD/worker" -o "$fill" bench/search/fill.c \
   "$BUILD"/worker/vo_*.o -lsqlite3 $pq -lcrypto -lpthread -lm

declare -A row

# search_conf DIR LEDGER: nginx with the search of tenant t0
search_conf() {
    local d=$1 ledger=$2
    mkdir -p "$d/logs" "$d/store"
    chmod 0777 "$d/store"
    cat > "$d/nginx.conf" <<CONF
load_module $MODULE_SO;
worker_processes 1;
error_log $d/logs/error.log warn;
pid $d/logs/nginx.pid;
events { worker_connections 64; }
http {
    access_log off;
    video_ocr_ledger "$ledger";
    video_ocr_store $d/store;
    server {
        listen 127.0.0.1:$PORT;
        location = /search {
            video_ocr_tenant t0;
            video_ocr_search;
        }
        location = /metrics {
            video_ocr_metrics;
        }
    }
}
CONF
}

# cpu_ticks PID...: the user + sys clock ticks of processes so far
cpu_ticks() {
    local p t=0
    for p in "$@"; do
        t=$((t + $(awk '{ print $14 + $15 }' "/proc/$p/stat")))
    done
    echo "$t"
}

# the PostgreSQL backends of nginx's connections to the ledger (the
# server runs on this machine)
pg_backends() {
    psql -X -At "$1" -c "SELECT pid FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid()"
}

# measure BACKEND DIR: the four kinds of query, after a warm-up pass
measure() {
    local backend=$1 d=$2 kind out worker t0 t1 s0 s1 n hz db=()
    search_conf "$d" "$3"
    nginx_pid=$(nginx_start "$d")
    worker=$(pgrep -P "$nginx_pid" | head -n 1)
    hz=$(getconf CLK_TCK)

    for kind in common phrase typo cjk; do
        PATHS=$d/$kind.txt wrk -t1 -c1 -d2s -s bench/search/paths.lua \
            "http://127.0.0.1:$PORT" > /dev/null
    done

    if [ "$backend" = pg ]; then
        mapfile -t db < <(pg_backends "$3")
    fi

    for kind in common phrase typo cjk; do
        t0=$(cpu_ticks "$worker")
        s0=$(cpu_ticks "${db[@]}")
        out=$(PATHS=$d/$kind.txt wrk -t1 -c1 -d"${SECONDS_EACH}s" --latency \
                  -s bench/search/paths.lua "http://127.0.0.1:$PORT")
        t1=$(cpu_ticks "$worker")
        s1=$(cpu_ticks "${db[@]}")
        line=$(grep '^CHECK' <<<"$out")
        n=$(sed -n 's/.*requests=\([0-9]*\).*/\1/p' <<<"$line")
        line="$line cpu_ms=$(echo "scale=2; ($t1 - $t0) * 1000 / $hz / $n" | bc)"
        line="$line db_cpu_ms=$(echo "scale=2; ($s1 - $s0) * 1000 / $hz / $n" | bc)"
        line="$line load=$(cut -d' ' -f1 /proc/loadavg)"
        echo "RESULT backend=$backend kind=$kind ${line#CHECK }"
        row[$backend.$kind]=$line
        case "$line" in
            *" not_200=0 "*) ;;
            *) echo "bench: $backend $kind: replies that are not 200" >&2
               grep -v '^CHECK' <<<"$out" >&2
               exit 1 ;;
        esac
    done

    nginx_stop "$nginx_pid"
    nginx_pid=
}

for backend in "${backends[@]}"; do
    d=$work/$backend
    mkdir -p "$d"
    chmod 0777 "$d"

    if [ -n "${REUSE:-}" ]; then
        ledger=$(cat "$d/ledger.uri")
        row[$backend.fill]=$(cat "$d/fill.out")
        row[$backend.size]=$(cat "$d/size.out")
        measure "$backend" "$d" "$ledger"
        continue
    fi

    if [ "$backend" = sqlite ]; then
        ledger=$d/ledger.db
    else
        if [ -z "${VIDEO_OCR_TEST_PG:-}" ]; then
            pg_dir=$(scripts/pg.sh start)
            # shellcheck disable=SC1091
            . "$pg_dir/env"
        fi
        pg_db=vo_search_$$
        psql -X -q -v ON_ERROR_STOP=1 "$VIDEO_OCR_TEST_PG" <<SQL
CREATE DATABASE $pg_db TEMPLATE template0 ENCODING 'UTF8'
    LC_CTYPE 'C.UTF-8' LC_COLLATE 'C';
SQL
        ledger=$(echo "$VIDEO_OCR_TEST_PG" | sed "s|/[^/?]*\$|/$pg_db|")
        psql -X -q -v ON_ERROR_STOP=1 "$ledger" -c 'CREATE EXTENSION pg_trgm'
    fi

    echo "bench: filling the $backend ledger ($JOBS jobs of $SEGMENTS segments)" >&2
    out=$("$fill" "$ledger" "$JOBS" "$SEGMENTS" "$SEED" "$d")
    echo "RESULT backend=$backend $out"
    row[$backend.fill]=$out
    echo "$ledger" > "$d/ledger.uri"
    echo "$out" > "$d/fill.out"

    if [ "$backend" = sqlite ]; then
        sqlite3 "$ledger" 'PRAGMA wal_checkpoint(TRUNCATE)' > /dev/null
        # as root, nginx's worker processes are nobody
        chmod 0666 "$ledger"*
        total=$(stat -c %s "$ledger")
        index=$(sqlite3 "$ledger" "SELECT sum(pgsize) FROM dbstat
            WHERE name LIKE 'search%' OR name LIKE 'sqlite_autoindex_search%'
                OR name = 'uploads_by_job'")
    else
        total=$(psql -X -At "$ledger" -c "ANALYZE" -c "SELECT
            sum(pg_total_relation_size(c.oid)) FROM pg_class c
            WHERE c.relkind IN ('r', 'm')
            AND c.relnamespace = 'public'::regnamespace" | tail -n 1)
        index=$(psql -X -At "$ledger" -c "SELECT
            sum(pg_total_relation_size(c.oid)) FROM pg_class c
            WHERE c.relkind = 'r' AND c.relname LIKE 'search\_%'
            AND c.relnamespace = 'public'::regnamespace")
        index=$((index + $(psql -X -At "$ledger" -c \
            "SELECT pg_relation_size('uploads_by_job')")))
    fi

    echo "RESULT backend=$backend size_bytes=$total index_bytes=$index"
    row[$backend.size]="$total $index"
    echo "$total $index" > "$d/size.out"

    measure "$backend" "$d" "$ledger"
done

# the table

field() { sed -n "s/.* $2=\\([^ ]*\\).*/\\1/p" <<<"${row[$1]}"; }

printf '\n%-8s %-7s %9s %9s %9s %9s %8s %6s\n' backend query p50_ms \
    p99_ms cpu_ms db_cpu_ms no_hit load
for backend in "${backends[@]}"; do
    for kind in common phrase typo cjk; do
        printf '%-8s %-7s %9s %9s %9s %9s %8s %6s\n' "$backend" "$kind" \
            "$(field "$backend.$kind" p50_ms)" \
            "$(field "$backend.$kind" p99_ms)" \
            "$(field "$backend.$kind" cpu_ms)" \
            "$(field "$backend.$kind" db_cpu_ms)" \
            "$(( $(field "$backend.$kind" no_hit) * 100
                 / $(field "$backend.$kind" requests) ))%" \
            "$(field "$backend.$kind" load)"
    done
done

printf '\n%-8s %12s %12s %12s %8s %10s\n' backend with_MB without_MB \
    index_MB share publish_ms
for backend in "${backends[@]}"; do
    read -r total index <<<"${row[$backend.size]}"
    printf '%-8s %12.1f %12.1f %12.1f %7d%% %10s\n' "$backend" \
        "$(echo "$total / 1048576" | bc -l)" \
        "$(echo "($total - $index) / 1048576" | bc -l)" \
        "$(echo "$index / 1048576" | bc -l)" "$(( index * 100 / total ))" \
        "$(field "$backend.fill" publish_ms)"
done
