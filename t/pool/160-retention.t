# History that stays bounded (issue 17), the short version of
# `make soak-history`: with the retention windows cut to seconds, the
# janitor deletes the frame rows of a done job first, then the job with
# its results (once its media is gone, --media-retention), then its
# events, and keeps what must stay: the receipt
# (a retry still replays it; the job's URLs answer 410 job-gone), a job
# whose notification is still waiting to be delivered, and the audit
# events (a tenant's DELETE) past the ordinary event window.  The
# metrics count the rows deleted and the claims' latency, and with
# video_ocr_metrics_tenants on list each tenant's queue.  Both backends.

use strict;
use warnings;

use JSON::PP;
use MIME::Base64 qw(encode_base64);
use Test::More;
use Time::HiRes qw(sleep time);
use VideoOCR::Media qw(make_video tmpdir);
use VideoOCR::Stack;
use VideoOCR::Test ();

my $pg = VideoOCR::Test::pg();
my $dir = tmpdir();
my $video = make_video(path => "$dir/v.mp4", duration => 2,
                       spans => [{ start => 0, end => 2,
                                   text => 'Kept for a while' }]);
my $bytes = do { local (@ARGV, $/) = $video; <> };
my $secret = 'whsec_' . encode_base64('k' x 32, '');

# tenant "hooked": notifications to a port nobody listens on, retried an
# hour later, so one stays pending
my $conf = 'video_ocr_tenant $http_x_tenant; video_ocr_receipt_ttl 1h;'
    . ' map $http_x_tenant $vo_hook { default ""; hooked'
    . ' "http://127.0.0.1:9/hook"; }'
    . ' video_ocr_webhook $vo_hook;'
    . " video_ocr_webhook_secret $secret;";

sub upload {
    my ($s, $tenant, $key) = @_;
    my $r = $s->http(method => 'POST', uri => '/upload?fps=1',
                     headers => ['Idempotency-Key' => $key,
                                 'X-Tenant' => $tenant],
                     body => $bytes);
    return ($r, eval { decode_json($r->{body})->{job_id} });
}

sub get {
    my ($s, $tenant, $uri, $method) = @_;
    return $s->http(method => $method // 'GET', uri => $uri,
                    headers => ['X-Tenant' => $tenant]);
}

sub metrics {
    my ($s) = @_;
    my %m;
    for (split /\n/, $s->http(uri => '/metrics')->{body}) {
        next if /^#/;
        my ($k, $v) = /^(\S+) (\S+)$/ or next;
        $m{$k} = $v;
    }
    return \%m;
}

sub wait_until {
    my ($seconds, $cond) = @_;
    my $deadline = time + $seconds;
    while (time < $deadline) {
        return 1 if $cond->();
        sleep 0.2;
    }
    return $cond->();
}

sub count {
    my ($s, $sql, @bind) = @_;
    my ($r) = $s->rows("SELECT count(*) AS n FROM $sql", @bind);
    return $r->{n};
}

# --- per-tenant gauges: only when the operator turns them on ---------------

my $off = VideoOCR::Stack->new(no_worker => 1, http_config => $conf);
upload($off, 'alice', 'q-off');
unlike($off->http(uri => '/metrics')->{body}, qr/^video_ocr_tenant_/m,
       'no per-tenant series by default (video_ocr_metrics_tenants off)');
$off->stop_nginx;

my $s = VideoOCR::Stack->new(no_worker => 1, workers => 1,
    http_config => "$conf video_ocr_metrics_tenants on;",
    worker_args => ['--allow-network', '--webhook-allow', '127.0.0.1/32',
                    '--webhook-retry', '0,1h',
                    '--janitor-interval', '300ms',
                    '--media-retention', '3s', '--frame-retention', '0',
                    '--job-retention', '6s', '--event-retention', '6s',
                    '--audit-retention', '1h']);

my ($r, $a) = upload($s, 'alice', 'ret-a');
is($r->{status}, 202, 'alice: admitted');
my (undef, $a2) = upload($s, 'alice', 'ret-a2');
my (undef, $b) = upload($s, 'hooked', 'ret-b');
my (undef, $c) = upload($s, 'bob', 'ret-c');
sleep 1.1;

my $m = metrics($s);
is($m->{'video_ocr_tenant_jobs{tenant="alice",state="accepted"}'}, 2,
   'alice: 2 queued');
is($m->{'video_ocr_tenant_jobs{tenant="bob",state="accepted"}'}, 1,
   'bob: 1 queued');
cmp_ok($m->{'video_ocr_tenant_oldest_job_age_seconds{tenant="alice",'
           . 'state="accepted"}'}, '>=', 1, "alice: her oldest job's age");

# bob deletes his before it runs: an audit event
is(get($s, 'bob', "/jobs/$c", 'DELETE')->{status}, 200, 'bob deletes his');

$s->start_worker;
for ([alice => $a], [alice => $a2], [hooked => $b]) {
    ok(wait_until(120, sub {
           (decode_json(get($s, $_->[0], "/jobs/$_->[1]")->{body})->{state}
            // '') eq 'done' }), "$_->[0]: job $_->[1] done");
}

# --- frames first, at once (--frame-retention 0), the job stays -----------

ok(wait_until(20, sub { count($s, 'frames WHERE job_id = ?', $a) == 0 }),
   'the frame rows of a done job go first');
my ($row) = $s->rows('SELECT frames_deleted_at FROM jobs WHERE job_id = ?',
                     $a);
ok($row && $row->{frames_deleted_at}, 'and the job says when');
$r = get($s, 'alice', "/jobs/$a?format=txt");
is($r->{status}, 200, 'its result is still served');
like($r->{body}, qr/Kept for a while/, 'the published text');

# --- then the job, its results and its events (--job-retention 6s) --------

ok(wait_until(40, sub { count($s, 'jobs WHERE job_id = ?', $a) == 0 }),
   'the job row goes after --job-retention');
is(count($s, 'results WHERE job_id = ?', $a), 0, 'with its results');
is(count($s, 'requests WHERE job_id = ?', $a), 1,
   'its receipt stays (it lives an hour)');

$r = get($s, 'alice', "/jobs/$a");
is($r->{status}, 410, 'the status of a removed job: 410');
like($r->{body}, qr/"type":"urn:video-ocr:problem:job-gone"/,
     'problem type job-gone');
is(get($s, 'alice', "/jobs/$a?format=txt")->{status}, 410,
   'its result: 410');
is(get($s, 'alice', "/jobs/$a", 'DELETE')->{status}, 410, 'DELETE: 410');
is(get($s, 'bob', "/jobs/$a")->{status}, 404,
   'for another tenant it is unknown: 404');

my $t_retry = int(time * 1000) - 1;
($r, my $again) = upload($s, 'alice', 'ret-a');
is($r->{status}, 202, 'a retry of its key');
is($r->{headers}{'idempotent-replayed'}, 'true', 'replays the receipt');
is($again, $a, 'of the same job');
is(count($s, 'jobs WHERE created_at >= ?', $t_retry), 0,
   'and starts no new work');

# --- what must stay --------------------------------------------------------

my ($n) = $s->rows("SELECT state FROM notifications WHERE job_id = ?"
                   . " AND type = 'job.done'", $b);
is($n->{state}, 'pending', "hooked: its job.done is not delivered");
is(count($s, 'jobs WHERE job_id = ?', $b), 1,
   'so its job is kept past --job-retention');

ok(wait_until(30, sub {
       count($s, "events WHERE job_id = ? AND kind <> 'deleted'", $c) == 0 }),
   "bob's job: its ordinary events go after --event-retention");
is(count($s, "events WHERE job_id = ? AND kind = 'deleted'", $c), 1,
   'the audit event of his DELETE stays (--audit-retention)');
ok(wait_until(30, sub { count($s, 'events WHERE job_id = ?', $a) == 0 }),
   "alice's job: no event left");

# --- what the metrics say --------------------------------------------------

ok(wait_until(10, sub { !grep { /^video_ocr_tenant_jobs\{/ }
                             keys %{ metrics($s) } }),
   'no per-tenant series once nothing is queued or running');
$m = metrics($s);
cmp_ok($m->{"video_ocr_retention_deleted_rows_total{table=\"$_->[0]\"}"},
       '>=', $_->[1], "rows deleted by retention: $_->[0]")
    for [frames => 2], [jobs => 2], [results => 8], [events => 6];
is($m->{'video_ocr_claim_seconds_count'}, 3,
   'the claim latency histogram: the 3 claims');
is($m->{'video_ocr_claim_seconds_bucket{le="+Inf"}'}, 3, 'all in +Inf');
like($s->worker_log, qr/janitor: event=retention frames=\d+ jobs=\d+/,
     'the janitor logs what it deleted');

unless ($pg) {
    my ($av) = $s->rows('PRAGMA auto_vacuum');
    is($av->{auto_vacuum}, 2, 'a new SQLite ledger is auto_vacuum '
       . 'INCREMENTAL');
    ok(wait_until(10, sub {
           ($s->rows('PRAGMA freelist_count'))[0]{freelist_count} == 0 }),
       'and the janitor leaves no free page in it');
}

is($s->stop_worker, 0, 'the pool stops cleanly');

done_testing();
