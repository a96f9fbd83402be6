#!/bin/bash
# Runs the suites: "nginx" (Test::Nginx block files in t/), "worker"
# (t/worker/), "browser" (t/browser/, the demo page in chromium), "fuzz"
# (a smoke of every libFuzzer target, FUZZ_SMOKE_SECONDS each, default
# 5; fuzz/run.sh builds them), or all of them.  Expects "make build" to
# have run; the Makefile exports NGINX_BIN, MODULE_SO, WORKER_BIN and BUILD.
set -euo pipefail
cd "$(dirname "$0")/.."

: "${NGINX_BIN:=/usr/sbin/nginx}"
: "${BUILD:=$PWD/build}"
: "${MODULE_SO:=$BUILD/nginx/objs/ngx_http_video_ocr_module.so}"
: "${WORKER_BIN:=$BUILD/video-ocr-worker}"
export NGINX_BIN BUILD MODULE_SO WORKER_BIN

# As root, nginx's worker processes and the worker pool run as nobody:
# they must reach the suites' server roots and ledgers (t/servroot*) and
# the demo page (conf.d/html).  A clone nobody cannot reach (under /root,
# or made in a "mktemp -d" directory, both 0700) runs its suites from a
# copy of the tree in /var/tmp, built files excepted: those stay where
# they are (root starts nginx and the worker, which need nothing from
# the clone once running).
if [ "$(id -u)" -eq 0 ] && [ -z "${VIDEO_OCR_TEST_COPY:-}" ] \
   && ! runuser -u nobody -- test -x "$PWD" 2>/dev/null
then
    copy=/var/tmp/video-ocr-test-$(printf %s "$PWD" | sha256sum | cut -c1-12)
    echo "test.sh: $PWD is not reachable by nobody; running in $copy"
    rm -rf "$copy"
    mkdir -p "$copy"
    tar -C "$PWD" --exclude=./.git --exclude=./build --exclude=./run \
        --exclude='./t/servroot*' -cf - . | tar -C "$copy" -xf -
    chmod -R a+rX "$copy"
    chmod 0755 "$copy"
    VIDEO_OCR_TEST_COPY=$PWD exec "$copy/scripts/test.sh" "$@"
fi

# Debian's nginx is built with --error-log-path=stderr, so errors at start
# (the "--- must_die" blocks) would reach only stderr; Test::Nginx looks
# for them in logs/error.log.  This wrapper points -e there, for the real
# Test::Nginx::Socket as for t/compat (which passes -e itself).
mkdir -p "$BUILD"
cat > "$BUILD/nginx-for-tests" <<WRAPPER
#!/bin/sh
exec "$NGINX_BIN" -e logs/error.log "\$@"
WRAPPER
chmod +x "$BUILD/nginx-for-tests"

export TEST_NGINX_BINARY="$BUILD/nginx-for-tests"
export TEST_NGINX_LOAD_MODULES="$MODULE_SO"
export TEST_NGINX_WORKER_BIN="$WORKER_BIN"

# Our own helpers are always on the path; the Test::Nginx compatible
# harness only when the real Test::Nginx::Socket is not installed.
PERL5LIB="$PWD/t/lib${PERL5LIB:+:$PERL5LIB}"
if ! perl -MTest::Nginx::Socket -e 1 2>/dev/null; then
    PERL5LIB="$PWD/t/compat:$PERL5LIB"
fi
export PERL5LIB

# The browser suite (t/browser/, node's test runner): Debian's chromium
# driven by playwright-core, pinned in t/browser/package-lock.json.
# "npm ci" runs only when that lockfile changed since the last install.
browser_suite() {
    local dir=t/browser stamp=t/browser/node_modules/.video-ocr-lock want
    for c in node npm; do
        command -v "$c" >/dev/null || {
            echo "$0: $c not found: run scripts/deps.sh browser" >&2
            return 1
        }
    done
    want=$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)
    if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
        (cd "$dir" && npm ci --prefer-offline --no-audit --no-fund) || return 1
        echo "$want" > "$stamp"
    fi
    NGINX_BIN="$NGINX_BIN" node --test "$dir"/*.test.mjs
}

what=${1:-all}
suites=()
case "$what" in
    nginx)   suites=(t/*.t) ;;
    worker)  suites=(t/worker/*.t) ;;
    browser) browser_suite; exit ;;
    fuzz)    exec fuzz/run.sh "${FUZZ_SMOKE_SECONDS:-5}" ;;
    all)     suites=(t/*.t t/worker/*.t) ;;
    # the storms and chaos runs of make test, longer (docs/reliability.md)
    soak)    export STORM_UPLOADS=${STORM_UPLOADS:-50000} \
                    CHAOS_VIDEOS=${CHAOS_VIDEOS:-24} \
                    CHAOS_SECONDS=${CHAOS_SECONDS:-1800}
             suites=(t/worker/110-storm.t t/worker/111-storm-chaos.t
                     t/worker/112-ocr-chaos.t) ;;
    *)       echo "usage: $0 [nginx|worker|browser|fuzz|soak|all]" >&2
             exit 2 ;;
esac

[ "$what" = all ] || exec prove -j1 --timer "${suites[@]}"

rc=0
prove -j1 --timer "${suites[@]}" || rc=$?
browser_suite || rc=$?
fuzz/run.sh "${FUZZ_SMOKE_SECONDS:-5}" || rc=$?
exit "$rc"
