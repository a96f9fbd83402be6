#!/usr/bin/perl
# make soak-history (docs/reliability.md, "History that stays bounded"):
# a week of history at accelerated time, against the real pool
# ("video-ocr-worker run", whose janitor applies the retention) on a real
# ledger, to show that the ledger's size levels off.
#
# A simulated day lasts --day-seconds (6) real seconds; every retention
# window is scaled by the same factor, so the janitor sees exactly the
# week it would see in real time, only faster.  The history is written
# the way the product writes it, row for row (a done job with its receipt,
# frame rows, four result formats and its events; one in 50 deleted by
# its tenant, an audit event), straight into the ledger: OCRing a week of
# uploads is not the point, the rows they leave are.  Every simulated six
# hours it prints the ledger's size on disk and its rows.
#
#   bench/history/soak.pl [--days 7] [--day-seconds 6] [--jobs-per-day 4000]
#                         [--ledger postgresql://...] [--keep-all]
#
# --keep-all is the baseline: the same history with every retention
# window at 10 years (`make soak-history` runs both, one after the
# other).
#
# The retention (simulated time): frames 1 h after the finish, media 1 d,
# jobs 2 d (once their media is gone), events 1 d, audit events 3 d;
# receipts live 1 d.

use strict;
use warnings;

use DBI;
use File::Temp qw(tempdir);
use Getopt::Long;
use POSIX qw(WNOHANG);
use Time::HiRes qw(sleep time);

$| = 1;

my %o = (days => 7, 'day-seconds' => 6, 'jobs-per-day' => 4000);
GetOptions(\%o, 'days=i', 'day-seconds=f', 'jobs-per-day=i', 'ledger=s',
           'keep-all')
    or die "usage: $0 [--days N] [--day-seconds S] [--jobs-per-day N]"
         . " [--ledger URI] [--keep-all]\n";

my $worker = $ENV{WORKER_BIN} // 'build/video-ocr-worker';
my $dir = tempdir('video-ocr-soak-XXXXXX', TMPDIR => 1,
                  CLEANUP => !$ENV{VIDEO_OCR_KEEP});
mkdir "$dir/store";
chmod 0777, $dir, "$dir/store";      # as root, the pool runs as nobody
my $ledger = $o{ledger} // "$dir/ledger.db";
my $pg = $ledger =~ m{^postgres};
my $scale = $o{'day-seconds'} / 86400;          # real s per simulated s
my $ms = sub { int($_[0] * $scale * 1000) . 'ms' };   # simulated s -> option
# the baseline: the same history, every window 10 years (nothing goes
# but receipts)
$ms = sub { '3650d' } if $o{'keep-all'};

my $pid = fork // die "fork: $!\n";
if ($pid == 0) {
    open STDERR, '>', "$dir/worker.log" or die $!;
    exec $worker, 'run', '--ledger', $ledger, '--store', "$dir/store",
         '--workers', '1', '--poll', '1s', '--janitor-interval', '250ms',
         '--frame-retention', $ms->(3600), '--media-retention', $ms->(86400),
         '--job-retention', $ms->(2 * 86400),
         '--event-retention', $ms->(86400),
         '--audit-retention', $ms->(3 * 86400), '--orphan-age', '1h';
    die "exec $worker: $!\n";
}
END { if ($pid) { kill 'TERM', $pid; waitpid $pid, 0 } }

my $dbh = connect_ledger();

my @rows = qw(jobs frames results events requests notifications);
my $t0 = time;
my $end = $t0 + $o{days} * $o{'day-seconds'};
my $tick = 0.25;
my $per_tick = $o{'jobs-per-day'} * $tick / $o{'day-seconds'};
my $ttl = int(86400 * $scale * 1000);            # receipts: 1 simulated day
my ($made, $carry, $next_report, $serial) = (0, 0, $t0, 0);
my @report;

printf "%-6s %10s %10s %8s %8s %8s %8s %8s\n", 'day', 'file_MB', 'pages_MB',
       @rows[0 .. 3], 'receipts';

while (time < $end) {
    my $t = time;
    $carry += $per_tick;
    my $n = int($carry);
    $carry -= $n;
    write_jobs($n) if $n;
    $made += $n;

    if (time >= $next_report) {
        my $r = measure(($t - $t0) / $o{'day-seconds'});
        push @report, $r;
        printf "%-6.2f %10.2f %10.2f %8d %8d %8d %8d %8d\n", $r->{day},
               $r->{file} / 1e6, $r->{pages} / 1e6, @$r{@rows[0 .. 3]},
               $r->{requests};
        $next_report += $o{'day-seconds'} / 4;
    }

    my $left = $tick - (time - $t);
    sleep $left if $left > 0;
}

my $r = measure($o{days});
push @report, $r;
printf "%-6.2f %10.2f %10.2f %8d %8d %8d %8d %8d\n", $r->{day},
       $r->{file} / 1e6, $r->{pages} / 1e6, @$r{@rows[0 .. 3]}, $r->{requests};

# the figure: the size after the first three days (the longest ordinary
# window, jobs 2 d, has passed; half the run if it is shorter) against
# the end
my ($d3) = grep { $_->{day} >= ($o{days} >= 6 ? 3 : $o{days} / 2) } @report;
my ($rd) = `grep -c 'event=retention' $dir/worker.log` =~ /(\d+)/;
printf "\n%d jobs written over %d simulated days (%d real s), %s ledger,"
       . " %s\n", $made, $o{days}, time - $t0, $pg ? 'PostgreSQL' : 'SQLite',
       $o{'keep-all'} ? 'no retention (baseline)' : 'retention on';
printf "size at day %.2f: %.2f MB, at day %.2f: %.2f MB (x%.2f); rows at"
       . " the end: %d jobs, %d frames, %d events\n",
       $d3->{day}, $d3->{file} / 1e6, $r->{day}, $r->{file} / 1e6,
       $r->{file} / ($d3->{file} || 1), @$r{qw(jobs frames events)};
printf "janitor retention log lines: %d\n", $rd // 0;


sub connect_ledger {
    for (1 .. 100) {
        my $h = eval {
            if ($pg) {
                my ($user, $pass, $host, $port, $db) = $ledger =~
                    m{^postgres(?:ql)?://(?:([^:@/]*)(?::([^@/]*))?@)?
                      ([^:/?]*)(?::(\d+))?/([^?]*)}x;
                DBI->connect("dbi:Pg:host=$host;port=" . ($port // 5432)
                             . ";dbname=$db", $user, $pass // '',
                             { RaiseError => 1, PrintError => 0 });
            } else {
                die "not yet\n" unless -s $ledger;
                DBI->connect("dbi:SQLite:dbname=$ledger", '', '',
                             { RaiseError => 1, PrintError => 0 });
            }
        };
        if ($h) {
            my $ok = eval {
                $h->selectrow_array('SELECT count(*) FROM tenant_job_counts');
                1 };
            if ($ok) {
                $h->sqlite_busy_timeout(5000) unless $pg;
                return $h;
            }
        }
        sleep 0.1;
    }
    die "the pool did not create the ledger $ledger (see $dir/worker.log)\n";
}


# n done jobs, as admission, claim and publish leave them
sub write_jobs {
    my ($n) = @_;
    my $now = int(time * 1000);

    $dbh->begin_work;
    my $job = $dbh->prepare_cached('INSERT INTO jobs (job_id, tenant, state,'
        . ' options, input_path, input_size, input_sha256, container,'
        . ' attempt, plan_version, frames_planned, frames_done, inspection,'
        . ' created_at, updated_at, started_at, finished_at, deleted_at,'
        . ' media_deleted_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, 1, 30, 30,'
        . ' ?, ?, ?, ?, ?, ?, ?)');
    my $rcp = $dbh->prepare_cached('INSERT INTO requests VALUES'
                                   . ' (?, ?, ?, ?, ?, ?)');
    my $frame = $dbh->prepare_cached('INSERT INTO frames VALUES'
                                     . ' (?, 1, ?, ?, ?, 91.5, NULL, 0, 1, ?)');
    my $res = $dbh->prepare_cached('INSERT INTO results VALUES (?, ?, ?)');
    my $ev = $dbh->prepare_cached('INSERT INTO events (at, job_id, tenant,'
                                  . ' kind, attempt, detail)'
                                  . ' VALUES (?, ?, ?, ?, ?, ?)');

    for (1 .. $n) {
        my $id = sprintf '%016x%016x', $now, ++$serial;
        my $tenant = 'tenant' . ($serial % 20);
        my $deleted = $serial % 50 == 0;
        my $text = "Caption number $serial, a line of subtitle text";

        $job->execute($id, $tenant, $deleted ? 'cancelled' : 'done',
            '{"fps":1,"lang":"eng"}', substr($id, -2) . "/$id.video",
            1_500_000, 'ab' x 32, 'mp4',
            '{"duration_ms":30000,"width":1280,"height":720,"codec":"h264"}',
            $now, $now, $now, $now, $deleted ? $now : undef,
            $deleted ? $now : undef);
        $rcp->execute($tenant, "key-$serial", 'cd' x 32, $id, $now,
                      $now + $ttl);
        $ev->execute($now, $id, $tenant, 'admitted', 0,
                     '{"input_size":1500000,"container":"mp4","keyed":true}');
        $ev->execute($now, $id, $tenant, 'claimed', 1, '{}');

        if ($deleted) {
            $ev->execute($now, $id, $tenant, 'deleted', 0,
                         '{"media_jobs":1,"media_bytes":1500000}');
            next;
        }

        $frame->execute($id, $_, $_ * 1000, $text, $now) for 0 .. 29;
        $res->execute($id, 'json', '{"segments":[' . join(',', map {
            "{\"start_ms\":${\ ($_ * 3000)},\"end_ms\":${\ ($_ * 3000 + 2900)}"
            . ",\"text\":\"$text\",\"confidence\":91.5}" } 0 .. 9) . ']}');
        $res->execute($id, $_, join '', map { "$_\n00:00:0$_ --> 00:00:0$_\n"
                                              . "$text\n\n" } 0 .. 9)
            for qw(vtt srt);
        $res->execute($id, 'txt', "$text\n" x 10);
        $ev->execute($now, $id, $tenant, 'published', 1,
                     '{"code":"","step":"publish","frames":30,"ocr_calls":12,'
                     . '"reused":18,"ocr_ms":2400,"ms":3100,"claim_ms":2}');
    }

    $dbh->commit;
}


sub measure {
    my ($day) = @_;
    my %r = (day => $day);

    $r{$_} = $dbh->selectrow_array("SELECT count(*) FROM $_") for @rows;

    if ($pg) {
        $r{file} = $dbh->selectrow_array('SELECT sum(pg_total_relation_size('
            . 'c.oid)) FROM pg_class c JOIN pg_namespace n ON n.oid ='
            . " c.relnamespace WHERE n.nspname = current_schema()"
            . " AND c.relkind = 'r'");
        $r{pages} = $r{file};
    } else {
        $r{file} = (-s $ledger) + (-s "$ledger-wal" // 0);
        my ($pc) = $dbh->selectrow_array('PRAGMA page_count');
        my ($fl) = $dbh->selectrow_array('PRAGMA freelist_count');
        my ($ps) = $dbh->selectrow_array('PRAGMA page_size');
        $r{pages} = ($pc - $fl) * $ps;
    }

    return \%r;
}
