#!/bin/bash
# Builds the libFuzzer targets (fuzz/Makefile) and runs each one for a
# set time; fails when any of them finds a crash, a sanitizer report, a
# broken invariant, a leak, a timeout or an out-of-memory.
#
#   fuzz/run.sh [SECONDS [TARGET...]]
#
#   SECONDS   per target (default 60); "fuzz/run.sh 5" is the smoke run
#   TARGET    fuzz_key fuzz_options fuzz_sniff fuzz_json fuzz_webhook
#             fuzz_upload fuzz_query fuzz_result
#             fuzz_output fuzz_parts fuzz_script fuzz_media (default: all)
#
# Each target starts from its committed seeds (fuzz/corpus/NAME/, NAME
# without "fuzz_") plus what earlier runs on this machine found
# ($BUILD/fuzz/corpus/NAME/, where new inputs go), so longer runs build
# on each other.  A finding is saved as $BUILD/fuzz/artifacts/NAME/
# crash-* (or leak-, timeout-, oom-); the log of each run is
# $BUILD/fuzz/logs/NAME.log.  Reproduce one with
#
#   build/fuzz/fuzz_NAME build/fuzz/artifacts/NAME/crash-...
#
# and once fixed, add the input to fuzz/corpus/NAME/ as a regression.
set -euo pipefail
cd "$(dirname "$0")/.."

secs=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(fuzz_key fuzz_options fuzz_sniff
                                     fuzz_json fuzz_webhook fuzz_upload
                                     fuzz_query fuzz_result fuzz_output
                                     fuzz_parts fuzz_script fuzz_media)

: "${BUILD:=$PWD/build}"
export BUILD

case "$secs" in
    ''|*[!0-9]*) echo "usage: $0 [SECONDS [TARGET...]]" >&2; exit 2 ;;
esac

make --no-print-directory -C fuzz -j"$(nproc)" \
    $(printf "$BUILD/fuzz/%s " "${targets[@]}") >/dev/null

# Tesseract's OpenMP: one thread, as the worker runs it
export OMP_THREAD_LIMIT=1
san="abort_on_error=1:detect_leaks=1:allocator_may_return_null=1"
export ASAN_OPTIONS="$san${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
san="print_stacktrace=1:halt_on_error=1"
export UBSAN_OPTIONS="$san${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"

rc=0
# per target: execs, their rate, coverage (edges, features), corpus
# size, and findings (new files in the artifacts directory: libFuzzer
# stops at the first crash, leak, timeout or out-of-memory)
printf '%-13s %7s %10s %8s %6s %6s %7s %5s  %s\n' target seconds execs \
    exec/s cov ft corpus found result

for t in "${targets[@]}"; do
    name=${t#fuzz_}
    bin=$BUILD/fuzz/$t
    seeds=fuzz/corpus/$name
    work=$BUILD/fuzz/corpus/$name
    art=$BUILD/fuzz/artifacts/$name
    log=$BUILD/fuzz/logs/$name.log

    [ -d "$seeds" ] || { echo "$0: no seeds in $seeds" >&2; exit 2; }
    mkdir -p "$work" "$art" "$(dirname "$log")"

    # per input: how long one may take, how large it may be
    case "$name" in
        media)   opts=(-timeout=30 -max_len=32768 -rss_limit_mb=2560) ;;
        output)  opts=(-timeout=10 -max_len=4096) ;;
        json)    opts=(-timeout=10 -max_len=8192) ;;
        *)       opts=(-timeout=10 -max_len=1024) ;;
    esac

    before=$(find "$art" -type f | wc -l)
    result=ok
    if ! "$bin" "${opts[@]}" -max_total_time="$secs" -print_final_stats=1 \
            -artifact_prefix="$art/" "$work" "$seeds" >"$log" 2>&1; then
        result="FAILED (see $log)"
        rc=1
    fi

    # the last "#N ... cov: C ft: F corp: K/..." line and the final stats
    stat=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
    cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$stat")
    ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$stat")
    corp=$(sed -n 's/.* corp: \([0-9]*\).*/\1/p' <<<"$stat")
    found=$(( $(find "$art" -type f | wc -l) - before ))

    printf '%-13s %7s %10s %8s %6s %6s %7s %5s  %s\n' "$t" "$secs" \
        "${execs:--}" "${speed:--}" "${cov:--}" "${ft:--}" "${corp:--}" \
        "$found" "$result"

    if [ "$result" != ok ]; then
        grep -E 'ERROR|SUMMARY|check failed|runtime error' "$log" \
            | head -5 | sed 's/^/    /' >&2 || true
        ls "$art" | sed 's/^/    artifact: /' >&2 || true
    fi
done

exit "$rc"
