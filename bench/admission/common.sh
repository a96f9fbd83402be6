# shellcheck shell=bash
# Shell functions of the admission benchmarks (run.sh, scaling.sh, ab.sh),
# sourced
# after they set NGINX_BIN, MODULE_SO, NGINX_WORKERS and work (their
# temporary directory).

# video_ocr_conf DIR PORT LEDGER STORE BODY_TEMP: DIR/nginx.conf, the
# module on its defaults (durability full) behind one upload location,
# and its metrics page
video_ocr_conf() {
    local d=$1 port=$2 ledger=$3 store=$4 temp=$5
    mkdir -p "$d/logs"
    cat > "$d/nginx.conf" <<CONF
load_module $MODULE_SO;
worker_processes $NGINX_WORKERS;
error_log $d/logs/error.log warn;
pid $d/logs/nginx.pid;
thread_pool video_ocr threads=32 max_queue=65536;
events { worker_connections 1024; }
http {
    access_log off;
    video_ocr_ledger "$ledger";
    video_ocr_store $store;
    video_ocr_thread_pool video_ocr;
    client_body_temp_path $temp;
    server {
        listen 127.0.0.1:$port;
        location = /upload {
            client_max_body_size 64m;
            add_header X-Key \$http_idempotency_key always;
            video_ocr_intake;
        }
        location = /metrics {
            video_ocr_metrics;
        }
    }
}
CONF
}

# nginx_start DIR: starts nginx with DIR/nginx.conf, prints its master's pid
nginx_start() {
    local d=$1
    "$NGINX_BIN" -p "$d" -c "$d/nginx.conf"
    for _ in $(seq 100); do
        [ -s "$d/logs/nginx.pid" ] && break
        sleep 0.05
    done
    cat "$d/logs/nginx.pid"
}

# nginx_stop PID...: graceful stop, waiting up to 10 s for each
nginx_stop() {
    local p
    for p in "$@"; do
        kill -QUIT "$p" 2>/dev/null || true
    done
    for p in "$@"; do
        for _ in $(seq 100); do
            kill -0 "$p" 2>/dev/null || break
            sleep 0.1
        done
    done
}

# retire DIR: a finished run's directory is moved aside with its files
# emptied, not removed.  ext4 skips inodes freed in the last minutes when
# it allocates new ones (recently_deleted() in the kernel), scanning past
# them on every file creation: deleting a run's tens of thousands of files
# made the next runs' creates (the baseline's as much as ours) several
# times slower.  Truncating frees the data blocks but keeps the inodes;
# everything goes at exit.  (Callers may run in a subshell: the name
# comes from mktemp, not a counter.)
retire() {
    find "$1" -type f -exec truncate -s 0 {} +
    mv "$1" "$(mktemp -d "$work/retired-XXXXXX")/"
}

# median FIELD SELECTOR: the median of a RESULT field over the lines of
# the results array that contain SELECTOR (e.g. "mode=pg-1 ")
median() {
    printf '%s\n' "${results[@]}" | grep -F -- "$2" \
        | sed "s/.* $1=\([0-9.]*\).*/\1/" | sort -n \
        | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
