#!/bin/bash
# Resumable uploads against plain POSTs of the same bytes (issue 15):
# the same nginx with the module, durability full, one upload at a time,
# measured back to back in one run, ROUNDS times alternating which goes
# first; prints each upload's wall time and the medians' ratio.
#
#   bench/admission/resumable.sh [MiB] [append MiB]     (default 64 4)
#
# KEEP_LOG=FILE keeps the access log (method, status, $request_time,
# length of every request): where the server's time goes.
#
#   plain      curl --data-binary of the file in one POST
#   resumable  an IETF-draft creation (POST, Upload-Complete: ?0), then
#              the file in PATCHes of the append size (application/
#              partial-upload), the last one Upload-Complete: ?1
#
# Every upload has a key of its own, so each is admitted as a new job:
# the file moved into the store and the receipt committed, fsync'd.  The
# cost of the resumable path is the creation, one claim per append, and
# each append copied from its chunk file into the partial file
# (copy_file_range) and fdatasync'd before it is acknowledged.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD

: "${NGINX_BIN:=/usr/sbin/nginx}"
: "${MODULE_SO:=$repo/build/nginx/objs/ngx_http_video_ocr_module.so}"
: "${ROUNDS:=5}"
: "${PORT:=2117}"

mib=${1:-64}
part=${2:-4}

dir=$(mktemp -d /var/tmp/video-ocr-resumable-XXXXXX)
chmod 0777 "$dir"
trap '[ -z "${KEEP_LOG:-}" ] || cp "$dir/access.log" "$KEEP_LOG" || true; kill -QUIT "$(cat "$dir/logs/nginx.pid" 2>/dev/null)" 2>/dev/null || true; sleep 0.5; rm -rf "$dir"' EXIT
mkdir -p "$dir/logs" "$dir/store" "$dir/parts"
chmod 0777 "$dir/store"

# an MP4 header, then random bytes (nothing in between compresses them)
{ printf '\0\0\0\030ftypisom\0\0\2\0isomiso2'; head -c $((mib << 20)) /dev/urandom; } \
    | head -c $((mib << 20)) > "$dir/file"
split -b "${part}M" -d -a 3 "$dir/file" "$dir/parts/p"

access_log=off
[ -z "${KEEP_LOG:-}" ] || access_log="$dir/access.log t"
cat > "$dir/nginx.conf" <<EOF
load_module $MODULE_SO;
worker_processes 2;
error_log $dir/logs/error.log warn;
pid $dir/logs/nginx.pid;
thread_pool video_ocr threads=8;
events { worker_connections 256; }
http {
    log_format t "\$request_method \$status \$request_time \$request_length";
    access_log $access_log;
    video_ocr_ledger $dir/ledger.db;
    video_ocr_store $dir/store;
    video_ocr_thread_pool video_ocr;
    video_ocr_durability ${DURABILITY:-full};
    client_body_temp_path $dir/store/.incoming;
    server {
        listen 127.0.0.1:$PORT;
        location /upload {
            video_ocr_intake;
            client_max_body_size 4g;
            client_body_buffer_size 256k;
        }
    }
}
EOF
"$NGINX_BIN" -p "$dir" -c "$dir/nginx.conf" -e "$dir/logs/error.log"
sleep 0.3

url=http://127.0.0.1:$PORT/upload
now() { date +%s.%N; }

plain() {
    local t0
    t0=$(now)
    code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Expect:' -H "Idempotency-Key: plain-$1" \
                --data-binary @"$dir/file" "$url")
    [ "$code" = 202 ] || { echo "plain: $code" >&2; exit 1; }
    echo "$(now) - $t0" | bc
}

resumable() {
    local t0 loc off=0 last p i codes args=() urls=()
    # the appends' arguments are made before the clock starts (a shell
    # that forks a stat per part is not what is measured)
    last=$(ls "$dir/parts" | tail -n 1)
    for p in $(ls "$dir/parts"); do
        args+=("$p" "$off" "$([ "$p" = "$last" ] && echo '?1' || echo '?0')")
        off=$((off + $(stat -c %s "$dir/parts/$p")))
    done
    t0=$(now)
    loc=$(curl -s -D - -o /dev/null -X POST -H 'Upload-Draft-Interop-Version: 8' \
               -H 'Upload-Complete: ?0' -H "Idempotency-Key: res-$1" \
               -H "Upload-Length: $((mib << 20))" "$url" \
          | tr -d '\r' | sed -n 's/^[Ll]ocation: //p')
    [ -n "$loc" ] || { echo "resumable: no Location" >&2; exit 1; }
    # every append on one keep-alive connection, as a client would
    for ((i = 0; i < ${#args[@]}; i += 3)); do
        [ ${#urls[@]} = 0 ] || urls+=(--next)
        urls+=(-s -o /dev/null -w '%{http_code}\n' -X PATCH -H 'Expect:'
               -H 'Upload-Draft-Interop-Version: 8' -H "Upload-Offset: ${args[i + 1]}"
               -H "Upload-Complete: ${args[i + 2]}"
               -H 'Content-Type: application/partial-upload'
               --data-binary @"$dir/parts/${args[i]}" "http://127.0.0.1:$PORT$loc")
    done
    codes=$(curl "${urls[@]}" | sort -u | tr '\n' ' ')
    case "$codes" in "202 204 "|"202 ") ;; *) echo "resumable: PATCH $codes" >&2; exit 1 ;; esac
    echo "$(now) - $t0" | bc
}

median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

: > "$dir/plain.txt"
: > "$dir/res.txt"
for r in $(seq "$ROUNDS"); do
    sync
    if [ $((r % 2)) = 1 ]; then
        plain "$r" >> "$dir/plain.txt"; sync; resumable "$r" >> "$dir/res.txt"
    else
        resumable "$r" >> "$dir/res.txt"; sync; plain "$r" >> "$dir/plain.txt"
    fi
    echo "RESULT round $r plain $(tail -n 1 "$dir/plain.txt") s resumable $(tail -n 1 "$dir/res.txt") s"
done

p=$(median < "$dir/plain.txt")
q=$(median < "$dir/res.txt")
echo "| upload | median s | MiB/s |"
echo "|---|---:|---:|"
printf '| plain POST of %d MiB | %.3f | %.1f |\n' "$mib" "$p" "$(echo "$mib / $p" | bc -l)"
printf '| resumable, %d MiB appends | %.3f | %.1f |\n' "$part" "$q" "$(echo "$mib / $q" | bc -l)"
printf 'ratio (resumable throughput / plain): %.2f\n' "$(echo "$p / $q" | bc -l)"
