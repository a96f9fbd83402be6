#!/bin/bash
# Runs the suites: "nginx" (Test::Nginx block files in t/), "worker"
# (t/worker/), or all of them.  Expects "make build" to have run; the
# Makefile exports NGINX, MODULE_SO, WORKER_BIN and BUILD.
set -euo pipefail
cd "$(dirname "$0")/.."

: "${NGINX:=/usr/sbin/nginx}"
: "${BUILD:=$PWD/build}"
: "${MODULE_SO:=$BUILD/nginx/objs/ngx_http_video_ocr_module.so}"
: "${WORKER_BIN:=$BUILD/video-ocr-worker}"

export TEST_NGINX_BINARY="$NGINX"
export TEST_NGINX_LOAD_MODULES="$MODULE_SO"
export TEST_NGINX_WORKER_BIN="$WORKER_BIN"
export WORKER_BIN MODULE_SO

# Our own helpers are always on the path; the Test::Nginx compatible
# harness only when the real Test::Nginx::Socket is not installed.
PERL5LIB="$PWD/t/lib${PERL5LIB:+:$PERL5LIB}"
if ! perl -MTest::Nginx::Socket -e 1 2>/dev/null; then
    PERL5LIB="$PWD/t/compat:$PERL5LIB"
fi
export PERL5LIB

what=${1:-all}
suites=()
case "$what" in
    nginx)  suites=(t/*.t) ;;
    worker) suites=(t/worker/*.t) ;;
    all)    suites=(t/*.t t/worker/*.t) ;;
    *)      echo "usage: $0 [nginx|worker|all]" >&2; exit 2 ;;
esac

exec prove -j1 --timer "${suites[@]}"
