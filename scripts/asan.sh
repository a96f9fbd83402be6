#!/bin/bash
# The sanitizer run: builds the nginx module and video-ocr-worker with
# AddressSanitizer + UndefinedBehaviorSanitizer (Debian's clang) into
# build/asan/,
# runs the test suites against them, and fails on any sanitizer report.
#
#   scripts/asan.sh [build|nginx|worker|browser|lifecycle|all]
#                                                       (default: all)
#   scripts/asan.sh t/FILE.t...
#
# "all" is the nginx and worker suites (t/nginx/*.t; t/build, t/ocr, t/pool),
# then the lifecycle files again on PostgreSQL; "lifecycle" is those
# files (nginx's reloads, upgrades, kills and exits under load:
# t/nginx/010-lifecycle.t, 012-exit-threads.t, t/pool/115-storm-
# lifecycle.t) on SQLite, then on a throwaway PostgreSQL server
# (scripts/pg.sh); "browser"
# is the browser suite alone; "build" only builds; test files run alone
# (with prove, in the environment scripts/test.sh sets up).
#
# How the module runs under ASan in the stock /usr/sbin/nginx: the .so
# is compiled by clang with -fsanitize=address,undefined (nginx's
# configure --with-cc=clang, otherwise the flags of Debian's build); a
# sanitized shared object leaves the runtime to the executable, and
# needs it first in the process's library list, so nginx runs through a
# wrapper, build/asan/nginx-asan, that sets LD_PRELOAD to clang's shared
# ASan runtime (libclang_rt.asan-x86_64.so, UBSan included) and execs
# /usr/sbin/nginx.  The worker, an executable, has the runtime linked
# in.  Why clang and not gcc: with gcc's separate libasan and libubsan,
# UBSan ignores log_path and writes its reports to stderr, which for
# nginx is a test's error.log, overwritten by the next test.  The tests
# take it as NGINX_BIN (the harness, VideoOCR::Stack and
# t/nginx/020-conf-sites.t all start nginx through it).  nginx itself is not
# instrumented: ASan sees every heap access of the module's code, and
# malloc/free of the whole process, but not accesses inside nginx's own
# code; nginx's pool memory is one malloc'd block to ASan.
#
# Reports: ASAN_OPTIONS log_path writes each process's ASan and UBSan
# reports to build/asan/reports/asan.PID, whichever process it is
# (the nginx master, a worker process forked from it, a thread-pool
# thread, the worker supervisor or its children, the CLI), so no report
# is lost on a closed stderr.  Both halt on the first error.  The run
# fails when any report file exists afterwards, and prints them.
#
# Leaks: LeakSanitizer checks every exit of video-ocr-worker
# (scripts/lsan.supp lists the memory a process keeps to its exit by
# design, each entry with its reason).  In nginx it is off
# (detect_leaks=0): nginx leaves its cycle's memory to the exit of the
# process by design, and the stock binary has no symbols to tell its
# allocations from the module's.  The module's own
# malloc'd memory (vo_buf_t, SQLite) is checked by valgrind instead
# (scripts/valgrind.sh).
#
# The run uses its own port, server root and data directory, so it can
# run beside scripts/test.sh.  Environment: NGINX_BIN (the real nginx,
# default /usr/sbin/nginx), TEST_NGINX_PORT (default 1994).
set -euo pipefail
cd "$(dirname "$0")/.."

what=${1:-all}
lifecycle=(t/nginx/010-lifecycle.t t/nginx/012-exit-threads.t
           t/pool/115-storm-lifecycle.t)
lifecycle_pg=0

case "$what" in
    build|nginx|worker|browser|all) ;;
    lifecycle) set -- "${lifecycle[@]}"; what=files; lifecycle_pg=1 ;;
    *.t) what=files ;;
    *) echo "usage: $0 [build|nginx|worker|browser|lifecycle|all|FILE.t...]" >&2
       exit 2 ;;
esac
[ "$what" = all ] && lifecycle_pg=1

root=$PWD
asan=$root/build/asan
reports=$asan/reports
real_nginx=${NGINX_BIN:-/usr/sbin/nginx}

# -fsanitize-address-use-odr-indicator: the module, like every dynamic
# module, defines its own ngx_modules[] (2 entries); nginx exports the
# same name, so the module's reference resolves to nginx's array, and
# clang 14 without ODR indicators would poison the bytes past the
# module's 16 as a redzone of nginx's: a false global-buffer-overflow in
# ngx_cycle_modules() at every reload.  With them, ASan registers the
# module's own copy (gcc does so by default).
SAN="-fsanitize=address,undefined -fno-omit-frame-pointer"
SAN="$SAN -fsanitize-address-use-odr-indicator"
SAN_CFLAGS="-g -O1 $SAN"

libasan=$(clang -print-file-name=libclang_rt.asan-x86_64.so)
[ -f "$libasan" ] || {
    echo "$0: clang's ASan runtime is missing (libclang-rt-dev)" >&2
    exit 1
}

# clang warns about the SQL statements' concatenated literals, on purpose
# (as fuzz/Makefile notes), and, unlike gcc, about a table's entries
# that leave their last fields to zero (the module's outcome table);
# nginx's configure and worker/Makefile put -Wextra after any flag we
# give them, so the exceptions go last
mkdir -p "$asan"
cat > "$asan/clang" <<'WRAPPER'
#!/bin/sh
exec clang "$@" -Wno-string-concatenation -Wno-missing-field-initializers
WRAPPER
chmod +x "$asan/clang"



# --- the module: as the Makefile's "module" target, with sanitizers ---

ngx=$asan/nginx
stamp=$ngx/.video-ocr-asan-flags
flags="clang $SAN_CFLAGS"

if [ ! -f "$ngx/objs/Makefile" ] \
   || [ "$(cat "$stamp" 2>/dev/null)" != "$flags" ] \
   || [ config -nt "$ngx/objs/Makefile" ] \
   || [ sql/schema.sql -nt "$ngx/objs/Makefile" ]
then
    rm -rf "$ngx"
    mkdir -p "$ngx"
    cp -a /usr/share/nginx/src/. "$ngx/"
    (
        cd "$ngx"
        # shellcheck disable=SC1091
        source ./conf_flags
        ./configure "${NGX_CONF_FLAGS[@]}" --with-cc="$asan/clang" \
            --with-cc-opt="$SAN_CFLAGS" --with-ld-opt="$SAN" \
            --add-dynamic-module="$root" > configure.log 2>&1 \
        || { cat configure.log; exit 1; }
    )
    echo "$flags" > "$stamp"
fi

make --no-print-directory -C "$ngx" -f objs/Makefile modules >/dev/null
module=$ngx/objs/ngx_http_video_ocr_module.so


# --- the worker: worker/Makefile takes CC/CFLAGS/LDFLAGS from the
# environment (on its command line they would replace its own flags) ---

if [ "$(cat "$asan/worker/.video-ocr-asan-flags" 2>/dev/null)" != "$flags" ]
then
    rm -rf "$asan/worker"
    mkdir -p "$asan/worker"
    echo "$flags" > "$asan/worker/.video-ocr-asan-flags"
fi
CC=$asan/clang CFLAGS="$SAN_CFLAGS" LDFLAGS="$SAN" \
    make --no-print-directory -C worker BUILD="$asan" >/dev/null
worker=$asan/video-ocr-worker


# --- nginx with the runtimes preloaded ---

cat > "$asan/nginx-asan" <<WRAPPER
#!/bin/sh
# $real_nginx with the ASan/UBSan runtime first (scripts/asan.sh)
LD_PRELOAD="$libasan\${LD_PRELOAD:+ \$LD_PRELOAD}" \\
    exec "$real_nginx" "\$@"
WRAPPER
chmod +x "$asan/nginx-asan"

# the module loads into the stock nginx
cat > "$asan/load-test.conf" <<CONF
load_module $module;
error_log stderr;
pid $asan/load-test.pid;
events {}
CONF
ASAN_OPTIONS=detect_leaks=0 "$asan/nginx-asan" -q -t -p "$asan" \
    -c "$asan/load-test.conf" -e /dev/stderr \
    || { echo "$0: nginx does not load $module" >&2; exit 1; }

echo "asan: module $module"
echo "asan: worker $worker"
[ "$what" = build ] && exit 0


# --- the suites ---

rc=0

rm -rf "$reports"
mkdir -p "$reports"
chmod 1777 "$reports"       # nginx's workers may run as nobody

common="halt_on_error=1:print_stacktrace=1"
ASAN_OPTIONS="log_path=$reports/asan:$common:detect_leaks=1"
ASAN_OPTIONS="$ASAN_OPTIONS:allocator_may_return_null=1"
export ASAN_OPTIONS
# UBSan reports through ASan's runtime, to ASan's log_path
export UBSAN_OPTIONS="$common"
# memory kept for the life of a process by design (each entry explained)
export LSAN_OPTIONS="suppressions=$root/scripts/lsan.supp:print_suppressions=0"
# Tesseract's OpenMP: one thread (the worker would exec itself for it)
export OMP_THREAD_LIMIT=1

# nginx: no leak check (see above); the worker keeps ASAN_OPTIONS
cat > "$asan/nginx-asan-tests" <<WRAPPER
#!/bin/sh
ASAN_OPTIONS="\$ASAN_OPTIONS:detect_leaks=0" exec "$asan/nginx-asan" "\$@"
WRAPPER
chmod +x "$asan/nginx-asan-tests"

# ASan reserves terabytes of address space for its shadow memory, so an
# OCR child cannot start under the pool's address-space limit
# (RLIMIT_AS, "run --max-memory", pool/vw_confine.c): the suites' pools run
# with --max-memory 0 (no limit), put first so that a test's own value
# still wins.  Tests of that limit itself can skip when
# VIDEO_OCR_SANITIZER is set.
cat > "$asan/video-ocr-worker-tests" <<WRAPPER
#!/bin/sh
# $worker, its pools without an address-space limit (scripts/asan.sh)
if [ "\$1" = run ]; then
    shift
    exec "$worker" run --max-memory 0 "\$@"
fi
exec "$worker" "\$@"
WRAPPER
chmod +x "$asan/video-ocr-worker-tests"
worker=$asan/video-ocr-worker-tests
export VIDEO_OCR_SANITIZER=asan

export NGINX_BIN=$asan/nginx-asan-tests
export MODULE_SO=$module
export WORKER_BIN=$worker
export BUILD=$asan
export TEST_NGINX_PORT=${TEST_NGINX_PORT:-1994}
export TEST_NGINX_SERVROOT=$asan/servroot
export TEST_NGINX_DATA_BASE=$asan/servroot-data
# sanitized code is slower: give the harness's waits more room
export TEST_NGINX_TIMEOUT=${TEST_NGINX_TIMEOUT:-10}

# A worker test that sets the address-space limit itself (--max-memory)
# cannot run sanitized children; unless it skips those checks when
# VIDEO_OCR_SANITIZER is set, it is left out here, loudly.
if [ "$what" = all ] || [ "$what" = worker ]; then
    [ "$what" = all ] && { scripts/test.sh nginx || rc=$?; }

    worker_files=()
    for f in t/build/*.t t/ocr/*.t t/pool/*.t; do
        if grep -q -- --max-memory "$f" \
           && ! grep -q VIDEO_OCR_SANITIZER "$f"
        then
            echo "asan: skipping $f: it sets RLIMIT_AS (--max-memory)," \
                 "under which ASan's shadow memory cannot be mapped" >&2
            continue
        fi
        worker_files+=("$f")
    done

    set -- "${worker_files[@]}"
    what=files
fi

# what scripts/test.sh exports, for the named files
prove_files() {
    cat > "$asan/nginx-for-tests" <<WRAPPER
#!/bin/sh
exec "$NGINX_BIN" -e logs/error.log "\$@"
WRAPPER
    chmod +x "$asan/nginx-for-tests"
    lib=$root/t/lib
    perl -MTest::Nginx::Socket -e 1 2>/dev/null || lib=$root/t/compat:$lib
    PERL5LIB="$lib${PERL5LIB:+:$PERL5LIB}" \
    TEST_NGINX_BINARY=$asan/nginx-for-tests \
    TEST_NGINX_LOAD_MODULES=$MODULE_SO \
    TEST_NGINX_WORKER_BIN=$WORKER_BIN \
        prove -j1 --timer "$@"
}

case "$what" in
    files)   prove_files "$@" || rc=$? ;;
    *)       scripts/test.sh "$what" || rc=$? ;;
esac

# the lifecycle files on PostgreSQL (unless the files ran on it already)
if [ "$lifecycle_pg" = 1 ] && [ -z "${VIDEO_OCR_TEST_PG:-}" ]; then
    pgdir=$(scripts/pg.sh start)
    echo "# asan: the lifecycle files on PostgreSQL: $(tr "\n" " " < "$pgdir/env")"
    (
        # shellcheck disable=SC1091
        source "$pgdir/env"
        prove_files "${lifecycle[@]}"
    ) || rc=$?
    scripts/pg.sh stop "$pgdir"
fi

shopt -s nullglob
found=("$reports"/*)
if [ ${#found[@]} -gt 0 ]; then
    echo
    echo "asan: ${#found[@]} sanitizer report(s) in $reports:"
    for f in "${found[@]}"; do
        echo "=== $f"
        head -60 "$f"
    done
    exit 1
fi

[ "$rc" = 0 ] && echo "asan: no sanitizer reports; suites passed" \
              || echo "asan: no sanitizer reports; suites FAILED (rc $rc)"
exit "$rc"
