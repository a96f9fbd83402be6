#!/bin/bash
# Runs the suites: "nginx" (Test::Nginx block files in t/), "worker"
# (t/worker/), or all of them.  Expects "make build" to have run; the
# Makefile exports NGINX_BIN, MODULE_SO, WORKER_BIN and BUILD.
set -euo pipefail
cd "$(dirname "$0")/.."

: "${NGINX_BIN:=/usr/sbin/nginx}"
: "${BUILD:=$PWD/build}"
: "${MODULE_SO:=$BUILD/nginx/objs/ngx_http_video_ocr_module.so}"
: "${WORKER_BIN:=$BUILD/video-ocr-worker}"

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
