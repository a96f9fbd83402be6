#!/bin/bash
# tus concatenation against plain POSTs of the same bytes: the same nginx
# with the module, durability full, one upload at a time, ROUNDS times
# alternating which goes first; prints the wall time and the nginx
# workers' CPU time (user + sys, from /proc) of each, and the medians.
#
#   bench/admission/concat.sh [MiB] [parts]     (default 256 4)
#
#   plain   curl --data-binary of the file in one POST (the body hashed
#           as it comes, then renamed into the store)
#   parts   PARTS partial uploads (Upload-Concat: partial), each created
#           and sent in one PATCH, all at once
#   final   the final upload (Upload-Concat: final;...) alone: the join
#           of the partial files into the job's input (copy_file_range,
#           FICLONE for the first where the filesystem has reflinks),
#           the SHA-256 of all but the first part read again (the
#           first's is saved), the admission
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD

: "${NGINX_BIN:=/usr/sbin/nginx}"
: "${MODULE_SO:=$repo/build/nginx/objs/ngx_http_video_ocr_module.so}"
: "${ROUNDS:=5}"
: "${PORT:=2118}"

mib=${1:-256}
parts=${2:-4}

dir=$(mktemp -d /var/tmp/video-ocr-concat-XXXXXX)
chmod 0777 "$dir"
trap 'kill -QUIT "$(cat "$dir/logs/nginx.pid" 2>/dev/null)" 2>/dev/null || true; sleep 0.5; rm -rf "$dir"' EXIT
mkdir -p "$dir/logs" "$dir/store" "$dir/parts"
chmod 0777 "$dir/store"

# an MP4 header, then random bytes, cut in parts as tus-js-client cuts
{ printf '\0\0\0\030ftypisom\0\0\2\0isomiso2'; head -c $((mib << 20)) /dev/urandom; } \
    | head -c $((mib << 20)) > "$dir/file"
size=$((mib << 20))
each=$((size / parts))
for ((i = 0; i < parts; i++)); do
    n=$([ $i = $((parts - 1)) ] && echo $((size - i * each)) || echo $each)
    dd if="$dir/file" of="$dir/parts/$i" bs=1M iflag=skip_bytes,count_bytes \
       skip=$((i * each)) count="$n" status=none
done

cat > "$dir/nginx.conf" <<EOF
load_module $MODULE_SO;
worker_processes 2;
error_log $dir/logs/error.log warn;
pid $dir/logs/nginx.pid;
thread_pool video_ocr threads=8;
events { worker_connections 256; }
http {
    access_log off;
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
            video_ocr_uploads_max 1000;
        }
    }
}
EOF
"$NGINX_BIN" -p "$dir" -c "$dir/nginx.conf" -e "$dir/logs/error.log"
sleep 0.3

url=http://127.0.0.1:$PORT/upload
tus=(-H 'Tus-Resumable: 1.0.0')
now() { date +%s.%N; }

# the nginx workers' CPU seconds so far (user + sys)
cpu() {
    local pid t=0
    for pid in $(pgrep -P "$(cat "$dir/logs/nginx.pid")"); do
        t=$((t + $(awk '{ print $14 + $15 }' "/proc/$pid/stat")))
    done
    echo "$t / $(getconf CLK_TCK)" | bc -l
}

plain() {
    local t0 c0 code
    c0=$(cpu); t0=$(now)
    code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Expect:' -H "Idempotency-Key: plain-$1" \
                --data-binary @"$dir/file" "$url")
    [ "$code" = 202 ] || { echo "plain: $code" >&2; exit 1; }
    echo "$(echo "$(now) - $t0" | bc) $(echo "$(cpu) - $c0" | bc)"
}

concat() {
    local i t0 c0 t1 c1 code loc locs=()
    c0=$(cpu); t0=$(now)
    for ((i = 0; i < parts; i++)); do
        loc=$(curl -s -D - -o /dev/null -X POST "${tus[@]}" -H 'Upload-Concat: partial' \
                   -H "Idempotency-Key: cat-$1" -H "Upload-Length: $(stat -c %s "$dir/parts/$i")" "$url" \
              | tr -d '\r' | sed -n 's/^[Ll]ocation: //p')
        [ -n "$loc" ] || { echo "concat: no Location" >&2; exit 1; }
        locs+=("$loc")
    done
    for ((i = 0; i < parts; i++)); do
        curl -s -o /dev/null -w '%{http_code}\n' -X PATCH -H 'Expect:' "${tus[@]}" \
             -H 'Upload-Offset: 0' -H 'Content-Type: application/offset+octet-stream' \
             --data-binary @"$dir/parts/$i" "http://127.0.0.1:$PORT${locs[i]}" > "$dir/code.$i" &
    done
    wait
    grep -qv '^204$' "$dir"/code.* && { echo "concat: PATCH $(cat "$dir"/code.*)" >&2; exit 1; }
    c1=$(cpu); t1=$(now)
    code=$(curl -s -o /dev/null -w '%{http_code}' -X POST "${tus[@]}" \
                -H "Idempotency-Key: cat-$1" -H "Upload-Concat: final;${locs[*]}" "$url")
    [ "$code" = 201 ] || { echo "concat: final $code" >&2; exit 1; }
    echo "$(echo "$(now) - $t0" | bc) $(echo "$(cpu) - $c0" | bc)" \
         "$(echo "$(now) - $t1" | bc) $(echo "$(cpu) - $c1" | bc)"
}

median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

: > "$dir/plain.txt"
: > "$dir/concat.txt"
for r in $(seq "$ROUNDS"); do
    sync
    if [ $((r % 2)) = 1 ]; then
        plain "$r" >> "$dir/plain.txt"; sync; concat "$r" >> "$dir/concat.txt"
    else
        concat "$r" >> "$dir/concat.txt"; sync; plain "$r" >> "$dir/plain.txt"
    fi
    echo "RESULT round $r plain $(tail -n 1 "$dir/plain.txt") concat $(tail -n 1 "$dir/concat.txt")"
done

col() { awk -v c="$1" '{ print $c }' "$2" | median; }
echo "| $mib MiB | median wall s | median nginx CPU s |"
echo "|---|---:|---:|"
printf '| plain POST | %.3f | %.3f |\n' "$(col 1 "$dir/plain.txt")" "$(col 2 "$dir/plain.txt")"
printf '| %d partial uploads at once, then the final one | %.3f | %.3f |\n' "$parts" \
       "$(col 1 "$dir/concat.txt")" "$(col 2 "$dir/concat.txt")"
printf '| of which the final upload (join, digest, admission) | %.3f | %.3f |\n' \
       "$(col 3 "$dir/concat.txt")" "$(col 4 "$dir/concat.txt")"
