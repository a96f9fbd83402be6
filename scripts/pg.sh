#!/bin/bash
# A throwaway PostgreSQL server for the tests and the benchmarks: Debian's
# postgresql (scripts/deps.sh installs it), in a directory of its own,
# on 127.0.0.1 and a free port, stopped and removed afterwards.
#
#   scripts/pg.sh start          prints the directory; DIR/env holds
#                                VIDEO_OCR_TEST_PG=postgresql://... and
#                                VIDEO_OCR_TEST_PG_DIR=DIR
#   scripts/pg.sh stop DIR       stops the server and removes DIR
#   scripts/pg.sh down DIR       stops the server, keeps its data
#   scripts/pg.sh up DIR         starts it again (same port)
#
# The server runs as the "postgres" user when started by root (initdb
# and postgres refuse root), else as the caller.  Authentication is
# "trust" for every role on 127.0.0.1, except the role vo_password,
# which logs in with a password (scram-sha-256): the tests of a wrong
# password use it.  The database is "vo", its superuser "vo".  fsync is
# on: the benchmarks measure real commits.
set -euo pipefail

: "${PG_PORT_BASE:=25432}"

bindir() {
    local d
    d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    [ -x "$d/initdb" ] || {
        echo "pg.sh: no PostgreSQL server found: run scripts/deps.sh" \
             "(it installs Debian's postgresql)" >&2
        exit 1
    }
    echo "$d"
}

# as_owner CMD...: runs CMD as the server's owner
as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

port_free() {
    ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

start() {
    local bin dir port tries
    bin=$(bindir)
    dir=$(mktemp -d "${TMPDIR:-/tmp}/video-ocr-pg-XXXXXX")
    chmod 0755 "$dir"
    [ "$(id -u)" -ne 0 ] || chown postgres "$dir"

    as_owner "$bin/initdb" -D "$dir/data" -U vo -A trust -E UTF8 \
        --locale=C --no-sync > "$dir/initdb.log" 2>&1 || {
        cat "$dir/initdb.log" >&2
        exit 1
    }

    cat > "$dir/data/pg_hba.conf" <<HBA
local   all  all                       trust
host    all  vo_password  127.0.0.1/32 scram-sha-256
host    all  all          127.0.0.1/32 trust
HBA

    port=$((PG_PORT_BASE + $$ % 2000))
    for tries in $(seq 50); do
        echo "$port" > "$dir/port"
        port_free "$port" && up "$dir" && break
        port=$((port + 1))
        [ "$tries" -lt 50 ] || {
            cat "$dir/server.log" >&2
            exit 1
        }
    done

    as_owner "$bin/createdb" -h 127.0.0.1 -p "$port" -U vo vo
    # pg_trgm, which the search index needs (docs/operations.md): the
    # ledgers' roles may not create it themselves, as in production
    as_owner "$bin/psql" -X -q -h 127.0.0.1 -p "$port" -U vo -d vo \
        -c "CREATE ROLE vo_password LOGIN PASSWORD 'right'" \
        -c "CREATE EXTENSION pg_trgm"
    cat > "$dir/env" <<ENV
export VIDEO_OCR_TEST_PG=postgresql://vo@127.0.0.1:$port/vo
export VIDEO_OCR_TEST_PG_DIR=$dir
ENV
    echo "$dir"
}

up() {
    local dir=$1
    as_owner "$(bindir)/pg_ctl" -D "$dir/data" -w -l "$dir/server.log" \
        -o "-p $(cat "$dir/port") -k $dir -c listen_addresses=127.0.0.1 \
            -c max_connections=400 -c shared_buffers=128MB -c fsync=on" \
        start >/dev/null
}

down() {
    as_owner "$(bindir)/pg_ctl" -D "$1/data" -m fast -w stop >/dev/null
}

ours() {
    [ -f "$1/port" ] && [ -d "$1/data" ] || {
        echo "pg.sh: $1 is no server of ours" >&2
        exit 1
    }
}

case "${1:-}" in
    start) start ;;
    stop)  ours "${2:?pg.sh stop DIR}"; down "$2" 2>/dev/null || true
           rm -rf "$2" ;;
    down)  ours "${2:?pg.sh down DIR}"; down "$2" ;;
    up)    ours "${2:?pg.sh up DIR}"; up "$2" ;;
    *)     echo "usage: $0 start | stop DIR | down DIR | up DIR" >&2
           exit 2 ;;
esac
