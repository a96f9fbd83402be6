#!/bin/bash
# Runs the suites: "nginx" (Test::Nginx block files in t/nginx/),
# "worker" (t/build/, t/ocr/, t/pool/), "browser" (t/browser/, the demo
# page in chromium), "pg" (t/nginx/ and t/pool/ again, every ledger on
# PostgreSQL), "fuzz"
# (a smoke of every libFuzzer target, FUZZ_SMOKE_SECONDS each, default
# 5; fuzz/run.sh builds them), or all of them.  "pg-nginx" and
# "pg-worker" run one suite on PostgreSQL.  Expects "make build" to have
# run; the Makefile exports NGINX_BIN, MODULE_SO, WORKER_BIN and BUILD.
set -euo pipefail
cd "$(dirname "$0")/.."

: "${NGINX_BIN:=/usr/sbin/nginx}"
: "${BUILD:=$PWD/build}"
: "${MODULE_SO:=$BUILD/nginx/objs/ngx_http_video_ocr_module.so}"
: "${WORKER_BIN:=$BUILD/video-ocr-worker}"
export NGINX_BIN BUILD MODULE_SO WORKER_BIN

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

# Root runs nginx's worker processes as nobody, which cannot reach a
# clone under /root or in a "mktemp -d" directory (mode 0700): the
# Test::Nginx blocks' ledgers and stores then go to a directory of
# their own under /var/tmp, removed at the end.  (The stacks of
# t/ocr, t/pool and t/browser live in /tmp already.)
data_base=
cleanup() {
    [ -z "$data_base" ] || rm -rf "$data_base"
}
trap cleanup EXIT
if [ "$(id -u)" -eq 0 ] && [ -z "${TEST_NGINX_DATA_BASE:-}" ] \
   && ! runuser -u nobody -- test -x "$PWD/t" 2>/dev/null; then
    data_base=$(mktemp -d /var/tmp/video-ocr-test-data-XXXXXX)
    chmod 0755 "$data_base"
    export TEST_NGINX_DATA_BASE=$data_base
fi

# npm packages of a test directory, pinned in its package-lock.json:
# "npm ci" runs only when that lockfile changed since the last install.
npm_deps() {
    local dir=$1 stamp=$1/node_modules/.video-ocr-lock want
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
}

# The browser suite (t/browser/, node's test runner): Debian's chromium
# driven by playwright-core.
browser_suite() {
    npm_deps t/browser || return 1
    NGINX_BIN="$NGINX_BIN" node --test t/browser/*.test.mjs
}

# The webhook receiver of the worker suites (t/webhooks/receiver.mjs)
# verifies deliveries with the standardwebhooks package.
receiver_deps() {
    npm_deps t/webhooks
}

# The PostgreSQL run: the same files on a throwaway server
# (scripts/pg.sh start/stop), each block or stack with a ledger of its
# own in it (t/lib/VideoOCR/Test.pm).  t/ocr runs "video-ocr-worker
# ocr", which has no ledger, and t/build builds: they run once, above.
pg_suites() {
    local dir rc=0
    dir=$(scripts/pg.sh start) || return 1
    # shellcheck disable=SC2064
    trap "scripts/pg.sh stop '$dir'; cleanup" EXIT
    echo "# PostgreSQL run: $(cat "$dir/env")"
    (
        # shellcheck disable=SC1091
        source "$dir/env"
        prove -j1 --timer "$@"
    ) || rc=$?
    scripts/pg.sh stop "$dir"
    trap cleanup EXIT
    return "$rc"
}

# The rooms of t/ (docs/testing.md): t/nginx the module in nginx,
# t/ocr "video-ocr-worker ocr" (no ledger), t/pool the pool on a ledger,
# t/build builds of the tree.  The two with a ledger, t/nginx and
# t/pool, run again on PostgreSQL.
nginx_tests=(t/nginx/*.t)
worker_tests=(t/build/*.t t/ocr/*.t t/pool/*.t)
pg_worker=(t/pool/*.t)
# nginx's reloads, upgrades, kills and exits under load: in the soak on
# both ledgers
soak_lifecycle=(t/nginx/012-exit-threads.t t/pool/115-storm-lifecycle.t)

what=${1:-all}
suites=()
case "$what" in
    nginx)     suites=("${nginx_tests[@]}") ;;
    worker)    suites=("${worker_tests[@]}") ;;
    browser)   browser_suite; exit ;;
    pg)        receiver_deps; pg_suites "${nginx_tests[@]}" "${pg_worker[@]}"; exit ;;
    pg-nginx)  pg_suites "${nginx_tests[@]}"; exit ;;
    pg-worker) receiver_deps; pg_suites "${pg_worker[@]}"; exit ;;
    fuzz)      exec fuzz/run.sh "${FUZZ_SMOKE_SECONDS:-5}" ;;
    lifecycle) prove -j1 --timer "${soak_lifecycle[@]}" || exit
               pg_suites "${soak_lifecycle[@]}"; exit ;;
    all)       suites=("${nginx_tests[@]}" "${worker_tests[@]}") ;;
    # the storms and chaos runs of make test, longer (docs/reliability.md)
    soak)      export STORM_UPLOADS=${STORM_UPLOADS:-50000} \
                      CHAOS_VIDEOS=${CHAOS_VIDEOS:-24} \
                      CHAOS_SECONDS=${CHAOS_SECONDS:-1800} \
                      CHAOS_DISTURBANCES=${CHAOS_DISTURBANCES:-1000000}
               export WEBHOOK_KILLS=${WEBHOOK_KILLS:-30} \
                      WEBHOOK_JOBS=${WEBHOOK_JOBS:-100}
               export LIFECYCLE_RELOADS=${LIFECYCLE_RELOADS:-1000} \
                      LIFECYCLE_ROUNDS=${LIFECYCLE_ROUNDS:-20}
               suites=(t/pool/110-storm.t t/pool/111-storm-chaos.t
                       t/pool/112-ocr-chaos.t
                       t/pool/141-webhooks-chaos.t
                       "${soak_lifecycle[@]}") ;;
    *)         echo "usage: $0 [nginx|worker|browser|pg|pg-nginx|pg-worker|fuzz|lifecycle|soak|all]" >&2
               exit 2 ;;
esac

case "$what" in
    worker|soak|all) receiver_deps ;;
esac

if [ "$what" = soak ]; then
    rc=0
    prove -j1 --timer "${suites[@]}" || rc=$?
    pg_suites "${soak_lifecycle[@]}" || rc=$?
    exit "$rc"
fi

[ "$what" = all ] || { prove -j1 --timer "${suites[@]}"; exit; }

rc=0
prove -j1 --timer "${suites[@]}" || rc=$?
browser_suite || rc=$?
pg_suites "${nginx_tests[@]}" "${pg_worker[@]}" || rc=$?
fuzz/run.sh "${FUZZ_SMOKE_SECONDS:-5}" || rc=$?
exit "$rc"
