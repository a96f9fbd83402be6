# Every lifecycle path of nginx under an admission storm (issue 35):
# while hundreds of clients upload (new keys, retries, reused keys,
# hang-ups), nginx is reloaded (SIGHUP), its binary upgraded in place
# (USR2 to the master, then WINCH and QUIT to the old one, as Debian's
# package does), worker processes are killed (SIGKILL) and stopped
# (SIGQUIT, the master starts another), and the ledger goes away for a
# moment: the PostgreSQL server is restarted, or another process holds
# SQLite's write lock.
#
# Afterwards: no nginx process exited on a signal the test did not send,
# every master logged its exit, no [alert] or [emerg]; no request waited
# for an answer until the client gave up, 30 s (no thread-pool task left
# blocked); every upload that got no answer (or a 503) is sent once more
# and answered by the workers now running; then, after the janitor's
# sweep of what the kills left, every invariant of VideoOCR::Storm
# (every acknowledged receipt is in the ledger with its file, one receipt
# per key, one job per receipt, the 422s, no orphan file).
#
# LIFECYCLE_ROUNDS repeats the sequence of disturbances (1 here, 20 in
# `make soak`); LIFECYCLE_CLIENTS (200) clients.

use strict;
use warnings;

use Test::More;
use Time::HiRes qw(sleep time);
use VideoOCR::Lifecycle;
use VideoOCR::Stack;
use VideoOCR::Storm;
use VideoOCR::Test ();

my $pg = VideoOCR::Test::pg();
my $san = $ENV{VIDEO_OCR_SANITIZER} // '';
my $rounds = $ENV{LIFECYCLE_ROUNDS} // 1;
my $clients = $ENV{LIFECYCLE_CLIENTS} // ($san eq 'valgrind' ? 16 : 200);
# how long a client waits for an answer: memcheck makes nginx 20-50
# times slower
my $wait = $san eq 'valgrind' ? 300 : 30;

plan skip_all => 'the PostgreSQL server is restarted with scripts/pg.sh,'
                 . ' which needs VIDEO_OCR_TEST_PG_DIR'
    if $pg && !$ENV{VIDEO_OCR_TEST_PG_DIR};

# the new binary of an upgrade keeps the sanitizers' and the preloads'
# settings (nginx passes on only the variables named by "env")
my $s = VideoOCR::Stack->new(
    no_worker => 1,
    main_config => join("\n", map { "env $_;" }
                        qw(LD_PRELOAD ASAN_OPTIONS UBSAN_OPTIONS
                           LSAN_OPTIONS)),
    http_config => 'video_ocr_busy_timeout 500ms;');
my $d = $s->dir;
my $master = $s->nginx_pid;
my @masters = ($master);

# the disturbances, in this order, each once the previous one is over
# and 0.3 s have passed; "ledger" is the server's restart or the lock
# (LIFECYCLE_PLAN="ledger kill ...": another sequence)
my @round = $ENV{LIFECYCLE_PLAN} ? split(' ', $ENV{LIFECYCLE_PLAN})
                                 : qw(reload kill quit reload upgrade kill
                                      ledger reload quit kill upgrade reload
                                      ledger kill reload);
my @plan = (@round) x $rounds;
my %want;
$want{$_}++ for @plan;
my (%done, %killed, @locks, $step, $next);
$next = time + 0.5;


# one tick of the current disturbance: true once it is over
my %do;

$do{reload} = sub { kill 'HUP', $master or die "SIGHUP: $!\n"; 1 };

$do{kill} = sub {
    my @w = grep { !$killed{$_} } VideoOCR::Lifecycle::workers_of($master)
        or return 0;
    my $w = $w[rand @w];

    # a worker that has just finished exiting: another one, next tick
    kill 'KILL', $w or return 0;
    $killed{$w} = 1;
};

$do{quit} = sub {
    my @w = VideoOCR::Lifecycle::workers_of($master) or return 0;
    kill 'QUIT', $w[rand @w] or return 0;
};

# USR2; once the new master runs with its workers, WINCH to the old
# (its workers finish and exit); once they are gone, QUIT to the old
$do{upgrade} = sub {
    $step //= { at => 'usr2' };

    if ($step->{at} eq 'usr2') {
        kill 'USR2', $master or die "SIGUSR2: $!\n";
        @$step{qw(at since)} = ('new', time);
        return 0;
    }

    die "the upgrade is stuck at $step->{at}\n" if time - $step->{since} > 60;

    if ($step->{at} eq 'new') {
        my $new = VideoOCR::Lifecycle::pid_in("$d/logs/nginx.pid");
        return 0 unless $new && $new != $master
                        && VideoOCR::Lifecycle::workers_of($new) >= 2;
        $step->{new} = $new;
        push @masters, $new;
        kill 'WINCH', $master;
        $step->{at} = 'winch';
        return 0;
    }

    if ($step->{at} eq 'winch') {
        return 0 if VideoOCR::Lifecycle::workers_of($master)
                    > ($step->{new} ? 1 : 0);
        kill 'QUIT', $master;
        $step->{at} = 'quit';
        return 0;
    }

    return 0 if VideoOCR::Lifecycle::alive($master);

    $master = $step->{new};
    $s->{nginx_pid} = $master;     # the one Stack stops at the end
    undef $step;
    return 1;
};

$do{ledger} = sub {
    if ($pg) {
        my $dir = $ENV{VIDEO_OCR_TEST_PG_DIR};
        system('scripts/pg.sh', 'down', $dir) == 0 or die "pg.sh down\n";
        sleep 1;
        system('scripts/pg.sh', 'up', $dir) == 0 or die "pg.sh up\n";
    } else {
        push @locks, VideoOCR::Test::hold_ledger_lock(1.5,
                                                      ledger => $s->ledger);
    }
    1;
};

my $chaos = sub {
    return if !@plan || time < $next;

    if ($do{ $plan[0] }->()) {
        $done{ shift @plan }++;
        $next = time + 0.3;
    }
};

my $run = VideoOCR::Storm::run($s, clients => $clients,
                               uploads => $clients * 100_000,
                               chaos => $chaos,
                               until => sub { !@plan }, backoff => 0.2,
                               reply_timeout => $wait);
waitpid $_, 0 for @locks;

is(scalar @plan, 0, 'every disturbance took place during the storm')
    or diag("left: @plan");
diag(join ', ', map { "$_: $done{$_}" } sort keys %done);
my %what = (reload => 'nginx reloaded', upgrade => 'its binary upgraded '
             . 'in place', kill => 'workers killed', quit => 'workers '
             . 'stopped', ledger => $pg ? 'the PostgreSQL server restarted'
                                        : "the ledger's lock held");
is($done{$_} // 0, $want{$_}, "$what{$_}: $want{$_}") for sort keys %want;
is(scalar keys %killed, $want{kill} // 0, 'each kill another worker');

# the workers now running answer every upload that got no answer; the
# last reload's old workers finish first
my $deadline = time + ($san eq 'valgrind' ? 120 : 20);
sleep 0.1 while VideoOCR::Lifecycle::workers_of($master) != 2
                && time < $deadline;
is(scalar VideoOCR::Lifecycle::workers_of($master), 2,
   'the master runs its 2 workers');
my $timeouts = grep { $_->{timeout} } @{ $run->{results} };
is($timeouts, 0, "no request waited $wait s for an answer");

my @retries = VideoOCR::Storm::retry_unanswered($run, $s->port, "$d/retry",
                                                $wait);
my @odd = grep { $_->{status} != 202 && $_->{status} != 422 } @retries;
is(scalar @odd, 0, scalar(@retries) . ' uploads without an answer sent '
                   . 'again: each answered 202 or 422')
    or diag(join "\n", map { "$_->{key} $_->{status}" } @odd[0 .. 9]);

# the janitor sweeps what the kills left: one full pass
my $wbin = $ENV{WORKER_BIN} // 'build/video-ocr-worker';
my $ledger = $s->ledger;
my $store = $s->store;
my $jout = `$wbin janitor --once --ledger '$ledger' --store $store --orphan-age 0 2>&1`;
is($? >> 8, 0, 'the janitor made one pass') or diag($jout);

my %stats;
my @problems = VideoOCR::Storm::check($s, $run, \%stats);
diag(VideoOCR::Storm::summary(\%stats));
is(scalar @problems, 0, 'every invariant holds: every acknowledged '
                        . 'receipt readable, one job per key')
    or diag(join("\n", @problems[0 .. ($#problems > 20 ? 20 : $#problems)]));

$s->stop_nginx;

my $log = $s->error_log;
is_deeply([VideoOCR::Lifecycle::log_problems($log, killed => \%killed)], [],
          'no nginx process exited on a signal it was not sent; no alert');
is_deeply([VideoOCR::Lifecycle::masters_not_exited($log, @masters)], [],
          scalar(@masters) . ' masters, each logged its exit');

done_testing();
