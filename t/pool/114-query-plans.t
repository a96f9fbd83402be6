# Every statement of the ledger is an index probe (issue 17): none scans a
# table that grows with the backlog or the history, none sorts in a temp
# B-tree (SQLite) or a Sort node (PostgreSQL).  The statements are the
# code's own, printed with their plans by "video-ocr-worker explain"
# (sql/vo_ledger_explain.c: the statement tables as this backend runs
# them, and the metrics scrape), on a real ledger made by nginx and
# seeded with jobs in every state, receipts, events, frames, results,
# notifications and long jobs' parts.  SQLite's plans are checked without
# statistics (as a ledger runs) and after ANALYZE; PostgreSQL's are its generic plans,
# seqscans discouraged, after ANALYZE.

use strict;
use warnings;

use Test::More;
use VideoOCR::Stack;
use VideoOCR::Test ();

my $pg = VideoOCR::Test::pg();
my $worker = $ENV{WORKER_BIN} // 'build/video-ocr-worker';

# Tables whose size is bounded by the configuration or the number of
# metric keys (tenant_job_counts: of tenants with work), not by the
# backlog: a scan of them is one page.
my %small = map { $_ => 1 } qw(job_counts event_counts counters claim_turn
                               webhook_defaults tenant_job_counts);

my $s = VideoOCR::Stack->new(no_worker => 1);
my $dbh = VideoOCR::Test::ledger_dbh(ledger => $s->ledger, rw => 1);

my @tables = $pg
    ? @{ $dbh->selectcol_arrayref("SELECT tablename FROM pg_tables"
                                  . " WHERE schemaname = current_schema()") }
    : @{ $dbh->selectcol_arrayref("SELECT name FROM sqlite_master"
                                  . " WHERE type = 'table'") };
my %table = map { $_ => 1 } @tables;
ok($table{jobs} && $table{claim_turn}, 'the ledger has its tables');

seed($dbh, 20000);

check('seeded, no statistics') unless $pg;

$dbh->do("ANALYZE $_") for @tables;
check('after ANALYZE');

# the check bites: without the claim's index its probes are caught
$dbh->do('DROP INDEX jobs_queued');
my @caught = grep { /FROM jobs WHERE state = 'accepted' AND tenant = /
                    && problems(split /\n/) }
             split /^(?=-- statement )/m, plans();
ok(scalar @caught, 'without jobs_queued the claim\'s probe is flagged');

$dbh->disconnect;
$s->stop_nginx;

done_testing();


# Runs explain, checks every statement's plan.
sub check {
    my ($when) = @_;

    my $out = plans();
    is($?, 0, "$when: explain ran") or diag($out);

    my @blocks = grep { /\S/ } split /^(?=-- statement )/m, $out;
    cmp_ok(scalar @blocks, '>=', 60, "$when: every statement explained ("
           . scalar(@blocks) . ')');

    my %hot = map { $_ => 0 } qw(claim admission heartbeat publish status
                                 metrics janitor);

    for my $b (@blocks) {
        my ($head, $sql, @plan) = split /\n/, $b;
        my @bad = problems(@plan);

        # SQLite's foreign key check of a new parent row lists a scan of
        # its children, which runs only while deferred violations are
        # outstanding: never here, the ledger's keys are immediate
        @bad = grep { !/^SCAN (jobs|webhook_defaults)$/ } @bad
            if !$pg && $sql =~ /^INSERT INTO webhook_endpoints/;

        ok(!@bad, "$when: $head: index probes only")
            or diag("$sql\n" . join("\n", @plan));

        $hot{claim}++ if $sql =~ /claim_turn|lease_expires_at </;
        $hot{admission}++ if $sql =~ /^INSERT INTO (jobs|requests) /;
        $hot{heartbeat}++ if $sql =~ /^UPDATE jobs SET lease_expires_at/;
        $hot{publish}++ if $sql =~ /^UPDATE jobs SET state = 'done'/;
        $hot{status}++ if $sql =~ /LEFT JOIN requests r ON r.job_id/;
        $hot{metrics}++ if $head =~ /\(metrics\)/;
        $hot{janitor}++ if $sql =~ /expires_at <= \?1/;
    }

    ok($hot{$_}, "$when: the $_ statements are among them ($hot{$_})")
        for sort keys %hot;
}


sub plans {
    return scalar `$worker explain --ledger '${\ $s->ledger }' 2>&1`;
}


# The lines of a plan that read a big table whole, or sort.
sub problems {
    my (@plan) = @_;
    my @bad;

    my @nodes = map { (my $l = $_) =~ s/^\s*(->\s+)?//; $l }
                grep { !/^-- statement/ } @plan;

    for my $i (0 .. $#nodes) {
        local $_ = $nodes[$i];

        if ($pg) {
            # the metric tables' appended rows, summed by key until the
            # janitor folds them (sql/schema_pg.sql): a sort of a small
            # table is a small sort
            my ($input) = grep { /^(Seq|Index|Bitmap)/ } @nodes[$i + 1 ..
                                                                $#nodes];
            my $small_sort = $input && $input =~ /^Seq Scan on (\w+)/
                             && $small{$1};

            push @bad, $_ if /^Seq Scan on (\w+)/ && !$small{$1};
            push @bad, $_ if /^(Incremental )?Sort\b/ && !$small_sort;
            push @bad, $_ if /^-- cannot explain/;

        } else {
            # an FTS5 table scanned by its MATCH (idxStr "M...": the
            # full-text index's own probe; "><" its rowid range) is the
            # search's index query, not a scan of a table
            push @bad, $_ if /^SCAN (\w+)/ && $table{$1} && !$small{$1}
                             && !/^SCAN \w+ VIRTUAL TABLE INDEX \d+:M/;
            push @bad, $_ if /TEMP B-TREE/;
            push @bad, $_ if /^-- cannot explain/;
        }
    }

    return @bad;
}


# $n jobs, most of them finished, with their receipts, events, frames,
# results and notifications; 50 tenants; some queued, some running.
sub seed {
    my ($dbh, $n) = @_;

    my $series = $pg
        ? "generate_series(1, $n) AS g(i)"
        : "(WITH RECURSIVE g(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM g"
          . " WHERE i < $n) SELECT i FROM g) AS g";
    my $hex = $pg ? "lpad(to_hex(i), 32, '0')" : "printf('%032x', i)";
    my $mod = sub { "(i % $_[0])" };

    $dbh->begin_work;

    $dbh->do("INSERT INTO jobs (job_id, tenant, state, options, input_path,"
        . " input_size, input_sha256, container, created_at, updated_at,"
        . " not_before, lease_expires_at, finished_at)"
        . " SELECT $hex, 'tenant' || ${\ $mod->(50)},"
        . " CASE WHEN i % 10 = 0 THEN 'accepted' WHEN i % 97 = 0"
        . " THEN 'running' ELSE 'done' END, '{}', 'in/' || $hex, 1000,"
        . " '" . (q{0} x 64) . "', 'mp4', 1000000 + i, 1000000 + i,"
        . " 1000000 + i,"
        . " CASE WHEN i % 97 = 0 THEN 2000000 + i END,"
        . " CASE WHEN i % 10 <> 0 AND i % 97 <> 0 THEN 1500000 + i END"
        . " FROM $series");

    # the running jobs read as parts (sql/schema.sql, PARTS): four each,
    # queued, running (leased) and done, so the claim runs beside them
    $dbh->do("INSERT INTO jobs (job_id, tenant, state, options, input_path,"
        . " input_size, input_sha256, container, created_at, updated_at,"
        . " not_before, lease_expires_at, parent_id, part, first_sample,"
        . " end_sample) SELECT 'p' || k.k || substr(j.job_id, 3), j.tenant,"
        . " CASE k.k WHEN 0 THEN 'accepted' WHEN 1 THEN 'running'"
        . " ELSE 'done' END, '{}', j.input_path, 1000, j.input_sha256,"
        . " 'mp4', j.created_at, j.updated_at, j.not_before,"
        . " CASE k.k WHEN 1 THEN j.lease_expires_at END, j.job_id, k.k,"
        . " 100 * k.k, 100 * k.k + 100 FROM jobs j,"
        . ($pg ? " generate_series(0, 3) AS k(k)"
               : " (SELECT 0 AS k UNION ALL SELECT 1 UNION ALL SELECT 2"
                 . " UNION ALL SELECT 3) AS k")
        . " WHERE j.state = 'running'");
    $dbh->do("UPDATE jobs SET parts = 4, lease_expires_at = NULL"
        . " WHERE state = 'running' AND parent_id IS NULL");

    $dbh->do("INSERT INTO requests SELECT 'tenant' || ${\ $mod->(50)},"
        . " 'key' || i, '" . (q{0} x 64) . "', $hex, 1000000 + i, 9000000 + i"
        . " FROM $series");

    $dbh->do("INSERT INTO events (at, job_id, tenant, kind, attempt, detail)"
        . " SELECT 1000000 + i, $hex, 'tenant' || ${\ $mod->(50)},"
        . " 'admitted', 0, '{}' FROM $series");

    $dbh->do("INSERT INTO frames (job_id, plan_version, frame_index, pts_ms,"
        . " text, confidence, reused_from, flags, attempt, created_at)"
        . " SELECT $hex, 1, f, f * 1000, 'text', 90,"
        . " NULL, 0, 1, 1000000 + i FROM $series,"
        . ($pg ? " generate_series(0, 3) AS f(f)"
               : " (SELECT 0 AS f UNION ALL SELECT 1 UNION ALL SELECT 2"
                 . " UNION ALL SELECT 3)")
        . " WHERE i % 10 <> 0");

    $dbh->do("INSERT INTO results SELECT $hex, 'json', '{}' FROM $series"
        . " WHERE i % 10 <> 0 AND i % 97 <> 0");

    $dbh->do("INSERT INTO webhook_endpoints (tenant, url, secret,"
        . " created_at, updated_at) SELECT 'tenant' || i,"
        . " 'https://example.com/hook', 'whsec_x', 1, 1 FROM"
        . ($pg ? " generate_series(0, 49) AS g(i)"
               : " (WITH RECURSIVE g(i) AS (SELECT 0 UNION ALL SELECT i + 1"
                 . " FROM g WHERE i < 49) SELECT i FROM g) AS g"));

    $dbh->do("INSERT INTO notifications (msg_id, job_id, tenant,"
        . " endpoint_id, type, state, payload, next_attempt_at, created_at,"
        . " updated_at) SELECT 'msg_' || $hex, $hex,"
        . " 'tenant' || ${\ $mod->(50)},"
        . " (SELECT id FROM webhook_endpoints LIMIT 1), 'job.done',"
        . " CASE WHEN i % 100 = 0 THEN 'pending' ELSE 'delivered' END, '{}',"
        . " 1000000 + i, 1000000 + i, 1000000 + i FROM $series");

    $dbh->commit;
}
