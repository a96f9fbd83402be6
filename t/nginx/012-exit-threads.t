# A worker process's exit while its thread-pool threads are still
# leaving (issue 35).  nginx's thread pool stops a thread by a flag the
# thread clears just before pthread_exit(); the worker then runs the
# exit hooks, unloads the module (and, with it, libpq and the Kerberos
# libraries libpq loads) and exits, while the thread may still run its
# thread-specific-data destructors, some of them code of those
# libraries.  The module's exit hook waits until those threads are gone.
#
# 1. Forced timing: nginx runs with t/lib/exit_timing.c preloaded, which
#    keeps the worker alive 300 ms after it unloaded the module, reports
#    every thread that had opened a ledger connection and still existed
#    then, and holds every exiting thread 20 ms at pthread_exit() (first
#    run; without the wait the module was unloaded under such threads at
#    every exit, on both ledgers) or 5 ms after each lock its destructors
#    release (second run; on a PostgreSQL ledger the module without the
#    wait lost 5 of 6 workers to signal 11).
# 2. Many exits: LIFECYCLE_RELOADS reloads (SIGHUP) of 4 worker
#    processes, each after a burst of concurrent uploads and replays
#    (`make soak`: 1000); every worker exits cleanly, every
#    acknowledged receipt is readable afterwards, one job per key.

use strict;
use warnings;

use File::Temp qw(tempdir);
use Test::More;
use Time::HiRes qw(sleep time);
use VideoOCR::Lifecycle qw();
use VideoOCR::Stack;
use VideoOCR::Test ();

my $pg = VideoOCR::Test::pg();
my $san = $ENV{VIDEO_OCR_SANITIZER} // '';
my $reloads = $ENV{LIFECYCLE_RELOADS}
              // ($san eq 'valgrind' ? 3 : $san ? 8 : 20);
my $burst = $san eq 'valgrind' ? 6 : 16;

# LIFECYCLE_CORES=1: a crashing worker leaves a core in logs/
my $cores = $ENV{LIFECYCLE_CORES}
            ? "worker_rlimit_core 4g;\nworking_directory %DIR%/logs;" : '';


# --- 1. forced timing ---

# nginx with exit_timing.so and the settings given; two rounds of a
# burst of uploads and a reload, then nginx stopped; what the preload
# reported, and the error log checked
sub forced {
    my ($name, %env) = @_;
    my $report = tempdir('exit-report-XXXXXX', TMPDIR => 1, CLEANUP => 1);
    chmod 0777, $report;

    my $s = VideoOCR::Stack->new(
        no_worker => 1, main_config => $cores,
        nginx_env => {
            %env,
            LD_PRELOAD => join(' ', grep { $_ }
                                   VideoOCR::Lifecycle::exit_timing_so(),
                                   $ENV{LD_PRELOAD}),
            EXIT_TIMING_DLCLOSE_US => 300000,
            EXIT_TIMING_LOG => "$report/log",
        });
    my $master = $s->nginx_pid;
    my $bad = 0;

    for my $round (1 .. 2) {
        my @w = VideoOCR::Lifecycle::workers_of($master);
        my @r = VideoOCR::Lifecycle::burst(
            $s, [map { "forced-$round-$_" } 1 .. $burst]);
        $bad += grep { $_->{status} != 202 } @r;

        kill 'HUP', $master;
        is(scalar VideoOCR::Lifecycle::wait_gone(60, @w), 0,
           "$name, round $round: the old workers exited after the reload");
    }

    is($bad, 0, "$name: every upload of the bursts was admitted");

    $s->stop_nginx;

    open my $fh, '<', "$report/log" or die "the preload reported nothing\n";
    my @lines = <$fh>;

    is_deeply([grep { /^alive/ } @lines], [],
              "$name: no thread that had opened a ledger connection still "
              . 'existed when its worker unloaded the module');
    is_deeply([VideoOCR::Lifecycle::log_problems($s->error_log)], [],
              "$name: no worker exited on a signal, no alert");

    return @lines;
}

# every exiting thread held 20 ms at pthread_exit, after nginx's pool
# has let the worker go on: the module's wait is all that keeps the
# worker from unloading it under them
my @lines = forced('held at pthread_exit', EXIT_TIMING_EXIT_US => 20000);
my $held = grep { /^held \d+ [1-9]/ } @lines;
cmp_ok($held, '>=', 2, "$held worker exits had threads held at "
                       . 'pthread_exit: the timing was forced');

# no hold at pthread_exit, but a 5 ms one after each unlock in a
# thread's destructors: on PostgreSQL libkrb5support's, which without
# the wait returned into the unloaded library (signal 11)
@lines = forced('held in a destructor', EXIT_TIMING_UNLOCK_US => 5000);

if ($pg) {
    my $unlocks = grep { /^unlock/ } @lines;
    cmp_ok($unlocks, '>', 0, "$unlocks exiting threads were held in a "
                             . 'destructor after its unlock');
}


# --- 2. many exits ---

{
    my $s = VideoOCR::Stack->new(no_worker => 1, worker_processes => 4,
                                 main_config => $cores);
    my $master = $s->nginx_pid;
    my (%job, @problems);
    my $t0 = time;

    for my $i (1 .. $reloads) {
        # new keys, and replays of the last round's
        my @keys = map { "loop-$i-$_" } 1 .. $burst / 2;
        push @keys, map { "loop-" . ($i - 1) . "-$_" } 1 .. $burst / 2
            if $i > 1;

        for my $r (VideoOCR::Lifecycle::burst($s, \@keys)) {
            if ($r->{status} != 202) {
                push @problems, "$r->{key}: $r->{status}";
                next;
            }

            push @problems, "$r->{key}: job $r->{job}, before $job{$r->{key}}"
                if $job{ $r->{key} } && $job{ $r->{key} } ne $r->{job};
            $job{ $r->{key} } = $r->{job};
        }

        kill 'HUP', $master;
        sleep(0.05 + rand(0.3));
    }

    # the last reload's old workers have finished before nginx stops
    sleep 1;
    $s->stop_nginx;

    is_deeply(\@problems, [], sprintf('%d reloads of 4 workers in %.0f s, '
                                      . 'every upload admitted or replayed '
                                      . 'with its job', $reloads,
                                      time - $t0));

    my $log = $s->error_log;
    my $exits = () = $log =~ /worker process \d+ exited with code 0/g;
    cmp_ok($exits, '>=', 4 * $reloads, "$exits worker processes exited");
    is_deeply([VideoOCR::Lifecycle::log_problems($log)], [],
              'none on a signal, no alert');
    is_deeply([VideoOCR::Lifecycle::masters_not_exited($log, $master)], [],
              'the master exited');

    # every receipt readable afterwards, one job per key
    my @rows = $s->rows('SELECT request_key, job_id FROM requests');
    my %in = map { $_->{request_key} => $_->{job_id} } @rows;
    is(scalar @rows, scalar keys %in, 'one receipt per key');
    is_deeply([grep { ($in{$_} // '') ne $job{$_} } sort keys %job], [],
              'every acknowledged receipt is in the ledger with its job');
    is(($s->rows('SELECT count(*) AS n FROM jobs'))[0]{n}, scalar keys %job,
       'one job per key');
}

done_testing();
