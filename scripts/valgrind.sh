#!/bin/bash
# The nginx suite (t/nginx/*.t) with every nginx under valgrind's memcheck,
# failing on any valgrind error: in the project's code (the module,
# ngx_module/, and what it links of lib/ and sql/) or in nginx and the
# libraries, less the leaks of stock nginx listed in
# scripts/valgrind.supp.
#
#   scripts/valgrind.sh [TEST_FILE...]      (default: t/nginx/*.t)
#   scripts/valgrind.sh lifecycle
#
# "lifecycle" runs the files of nginx's reloads, upgrades, kills and
# exits under load (t/nginx/010-lifecycle.t, 012-exit-threads.t,
# t/pool/115-storm-lifecycle.t, scaled down for memcheck) on SQLite,
# then again on a throwaway PostgreSQL server (scripts/pg.sh).
#
# Neither t/compat nor this script uses Test::Nginx's own valgrind mode
# (TEST_NGINX_USE_VALGRIND, which t/compat does not implement): nginx
# runs through a wrapper, build/valgrind/nginx-valgrind, given to the
# suite as NGINX_BIN, that execs
#
#   valgrind --log-file=build/valgrind/logs/vg.%p ... /usr/sbin/nginx
#
# so every nginx the suite starts (the harness's, VideoOCR::Stack's,
# t/nginx/020-conf-sites.t's "nginx -t") runs under memcheck with the
# configuration the test asks for (daemon, master and worker processes,
# the thread pool).  valgrind follows nginx's fork()s, so the master and
# each worker process write their own log, and its exec()s: the new
# binary of an in-place upgrade (USR2, t/pool/115-storm-lifecycle.t)
# runs under memcheck too.
#
# After the run every log is split into error records, and each is
# printed, as in project code when one of its frames is in the module's
# .so or names a function of ours (ngx_http_video_ocr_*, vo_*), as not
# in project code otherwise; any record fails the run.  Leaks count as
# "definitely lost" only; stock nginx's own (it leaves its cycle, its
# environment and its per-process state to the exit, by design) are
# suppressed by scripts/valgrind.supp, each entry an exact nginx-only
# stack, so a leak through the module is never hidden.  A failing test
# fails the run too; VALGRIND_STRICT=0 only reports it (memcheck makes
# nginx 20-50 times slower, and a few tests measure time).
#
# Environment: NGINX_BIN (default /usr/sbin/nginx), MODULE_SO (default:
# the Makefile's build/nginx/objs/ngx_http_video_ocr_module.so, built by
# "make module"), TEST_NGINX_PORT (default 1995).
set -euo pipefail
cd "$(dirname "$0")/.."

root=$PWD
vg=$root/build/valgrind
logs=$vg/logs
real_nginx=${NGINX_BIN:-/usr/sbin/nginx}

command -v valgrind >/dev/null || {
    echo "$0: valgrind is not installed (apt-get install valgrind)" >&2
    exit 1
}

if [ -z "${MODULE_SO:-}" ]; then
    make --no-print-directory module >/dev/null
    MODULE_SO=$root/build/nginx/objs/ngx_http_video_ocr_module.so
fi

rm -rf "$logs"
mkdir -p "$logs"
chmod 1777 "$logs"              # nginx's workers may run as nobody

cat > "$vg/nginx-valgrind" <<WRAPPER
#!/bin/sh
# $real_nginx under memcheck (scripts/valgrind.sh)
exec valgrind --tool=memcheck --log-file="$logs/vg.%p" \\
    --trace-children=yes --num-callers=40 --track-origins=yes --leak-check=full \\
    --show-leak-kinds=definite --errors-for-leak-kinds=definite \\
    --error-limit=no --suppressions="$root/scripts/valgrind.supp" \
    "$real_nginx" "\$@"
WRAPPER
chmod +x "$vg/nginx-valgrind"

lifecycle_pg=0
if [ "${1:-}" = lifecycle ]; then
    set -- t/nginx/010-lifecycle.t t/nginx/012-exit-threads.t \
        t/pool/115-storm-lifecycle.t
    lifecycle_pg=1
fi

tests=("$@")
[ ${#tests[@]} -gt 0 ] || tests=(t/nginx/*.t)

export NGINX_BIN=$vg/nginx-valgrind
export MODULE_SO
# the tests that run many processes scale their load down for memcheck
export VIDEO_OCR_SANITIZER=valgrind
export BUILD=$vg
export TEST_NGINX_PORT=${TEST_NGINX_PORT:-1995}
export TEST_NGINX_SERVROOT=$vg/servroot
export TEST_NGINX_DATA_BASE=$vg/servroot-data
# the harness's waits for nginx to start, answer and quit
export TEST_NGINX_TIMEOUT=${TEST_NGINX_TIMEOUT:-30}

suite=0
start=$(date +%s)
if [ $# -eq 0 ]; then
    scripts/test.sh nginx || suite=$?
else
    # named files: the environment scripts/test.sh nginx sets up
    cat > "$vg/nginx-for-tests" <<WRAPPER
#!/bin/sh
exec "$NGINX_BIN" -e logs/error.log "\$@"
WRAPPER
    chmod +x "$vg/nginx-for-tests"
    lib=$root/t/lib
    perl -MTest::Nginx::Socket -e 1 2>/dev/null || lib=$root/t/compat:$lib
    export PERL5LIB="$lib${PERL5LIB:+:$PERL5LIB}" \
        TEST_NGINX_BINARY=$vg/nginx-for-tests \
        TEST_NGINX_LOAD_MODULES=$MODULE_SO \
        TEST_NGINX_WORKER_BIN=${WORKER_BIN:-$root/build/video-ocr-worker} \
        WORKER_BIN=${WORKER_BIN:-$root/build/video-ocr-worker}
    prove -j1 --timer "${tests[@]}" || suite=$?

    if [ "$lifecycle_pg" = 1 ] && [ -z "${VIDEO_OCR_TEST_PG:-}" ]; then
        pgdir=$(scripts/pg.sh start)
        echo "# valgrind: again on PostgreSQL: $(tr "\n" " " < "$pgdir/env")"
        (
            # shellcheck disable=SC1091
            source "$pgdir/env"
            prove -j1 --timer "${tests[@]}"
        ) || suite=$?
        scripts/pg.sh stop "$pgdir"
    fi
fi
secs=$(( $(date +%s) - start ))

# --- the logs: error records, ours or not ---

perl -e '
    my ($so) = @ARGV[0];
    shift @ARGV;
    my ($ours, $other, $files) = (0, 0, 0);
    my %other_kind;
    for my $log (@ARGV) {
        open my $in, "<", $log or next;
        $files++;
        my (@rec, @recs);
        while (my $l = <$in>) {
            $l =~ s/^==\d+== ?//;
            if ($l =~ /^\s*$/) {
                push @recs, [@rec] if @rec;
                @rec = ();
                next;
            }
            push @rec, $l;
        }
        push @recs, [@rec] if @rec;
        for my $r (@recs) {
            my $head = $r->[0];
            # a "Thread N:" line is followed by the real head
            next unless $head =~ /^(?: Invalid\  | Conditional\ jump
                                     | Use\ of\ uninit | Syscall\ param
                                     | Mismatched\ free
                                     | Source\ and\ destination\ overlap
                                     | Argument\ .*\ of\ function
                                     | \S+\ bytes\ in\ \S+\ blocks\ are
                                       \ definitely\ lost
                                     | Thread\ \d+:$
                                     | Process\ terminating )/x;
            my $text = join "", @$r;
            if (grep { /(?:at|by)\ 0x[0-9A-F]+:\ .*
                        (?:ngx_http_video_ocr_|\bvo_\w+\ |\Q$so\E)/x } @$r)
            {
                $ours++;
                print "=== $log\n$text\n";
            } else {
                $other++;
                my ($kind) = $head =~ /definitely lost/ ? ("leak")
                           : $head =~ /^(\S+(?: \S+){0,2})/;
                $other_kind{$kind}++;
                print "=== $log (not in project code)\n$text\n";
            }
        }
    }
    my $kinds = join ", ", map { "$other_kind{$_} x $_" } sort keys %other_kind;
    printf "valgrind: %d log(s), %d error record(s) in project code, "
           . "%d elsewhere%s\n", $files, $ours, $other,
           $kinds ? " ($kinds)" : "";
    exit($ours + $other ? 1 : 0);
' "$(basename "$MODULE_SO")" "$logs"/vg.* && ours=0 || ours=$?

echo "valgrind: suite took ${secs}s, prove exit $suite; logs in $logs"

if [ "$ours" != 0 ]; then
    exit 1
fi

if [ "$suite" != 0 ] && [ "${VALGRIND_STRICT:-1}" = 1 ]; then
    exit "$suite"
fi

exit 0
