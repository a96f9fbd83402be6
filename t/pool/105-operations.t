# Operating it: metrics (checked by promtool and scraped by a real
# Prometheus), logs joined by job id and keyed hash, receipt expiry and
# media retention by the janitor, DELETE of a running job, and the
# operator's commands, each leaving its audit trail.

use strict;
use warnings;

use File::Temp qw(tempdir);
use IO::Socket::INET;
use JSON::PP;
use Test::More;
use Time::HiRes qw(sleep time);
use VideoOCR::Media qw(make_video tmpdir);
use VideoOCR::Stack;

my $dir = tmpdir();
my $secret_file = "$dir/secret";
open my $sf, '>', $secret_file or die $!;
print {$sf} "correct horse battery staple\n";
close $sf;

my $short = make_video(path => "$dir/short.mp4", duration => 2,
                       spans => [{ start => 0, end => 2,
                                   text => 'Metrics please' }]);
my @many = map { { start => $_ * 0.5, end => $_ * 0.5 + 0.45,
                   text => "Slide $_ of a long talk" } } 0 .. 59;
my $long = make_video(path => "$dir/long.mp4", duration => 30,
                      spans => \@many);
my $slurp = sub { local (@ARGV, $/) = $_[0]; <> };
my ($vshort, $vlong) = map { $slurp->($_) } $short, $long;

my $s = VideoOCR::Stack->new(
    workers => 1,
    http_config => 'video_ocr_key_hash_secret "correct horse battery staple";'
                 . ' video_ocr_receipt_ttl 3s;'
                 . ' log_format vo "key=$video_ocr_key_hash'
                 . ' job=$video_ocr_job_id admission=$video_ocr_admission";'
                 . " access_log %DIR%/logs/vo.log vo;",
    worker_args => ['--key-hash-secret-file', $secret_file,
                    '--janitor-interval', '300ms', '--media-retention', '0',
                    '--lease', '3s', '--heartbeat', '300ms']);

my $worker = $ENV{WORKER_BIN} // 'build/video-ocr-worker';
my $ledger = $s->ledger;

sub job_of { JSON::PP::decode_json($_[0]{body})->{job_id} }

sub metrics {
    my $r = $s->http(uri => '/metrics');
    my %m;
    for (split /\n/, $r->{body}) {
        next if /^#/;
        my ($k, $v) = /^(\S+) (\S+)$/ or next;
        $m{$k} = $v;
    }
    return (\%m, $r->{body}, $r);
}

# --- a scripted run: created, replayed, mismatch, not a video -------------

my $a = $s->upload('ops-a', $vshort);
my $job_a = job_of($a);
is($s->upload('ops-a', $vshort)->{headers}{'idempotent-replayed'}, 'true',
   'a replay');
is($s->upload('ops-a', $vshort . 'x')->{status}, 422, 'a mismatch');
is($s->upload('ops-b', "not a video at all\n" x 50)->{status}, 415,
   'not a video');

my $st = $s->wait_state($job_a, 'done|failed|rejected', 60);
is($st->{state}, 'done', 'the job is done');

my ($m, $text, $resp) = metrics();
is($resp->{headers}{'content-type'}, 'text/plain; version=0.0.4; charset=utf-8',
   'Prometheus text format');
is($m->{'video_ocr_intake_requests_total{outcome="created"}'}, 1, 'created');
is($m->{'video_ocr_intake_requests_total{outcome="replayed"}'}, 1,
   'replayed');
is($m->{'video_ocr_intake_requests_total{outcome="key-reused"}'}, 1,
   'mismatch');
is($m->{'video_ocr_intake_requests_total{outcome="not-a-video"}'}, 1,
   'not a video');
is($m->{'video_ocr_jobs{state="done"}'}, 1, 'one job done');
is($m->{'video_ocr_jobs_created_total'}, 1, 'one job created');
is($m->{'video_ocr_jobs_finished_total{state="done",reason=""}'}, 1,
   'one job finished');
cmp_ok($m->{video_ocr_ocr_calls_total}, '>=', 1, 'OCR calls counted');
is($m->{'video_ocr_artifact_bytes_total{class="input"}'}, length $vshort,
   'input bytes');
cmp_ok($m->{'video_ocr_artifact_bytes_total{class="result"}'}, '>', 0,
   'result bytes');
is($m->{'video_ocr_attempts_total{outcome="published",step="publish"}'}, 1,
   'one attempt, published');

SKIP: {
    skip 'promtool is not installed (Debian package prometheus)', 1
        unless -x '/usr/bin/promtool';
    my $tmp = "$dir/metrics.txt";
    open my $fh, '>', $tmp or die $!;
    print {$fh} $text;
    close $fh;
    my $out = `promtool check metrics < $tmp 2>&1`;
    is($? >> 8, 0, 'promtool check metrics accepts the page') or diag($out);
}

# --- logs: nginx's access log and the worker's lines join -----------------

my $vo = do { local (@ARGV, $/) = $s->dir . '/logs/vo.log'; <> } // '';
my ($hash) = $vo =~ /key=(\w+) job=$job_a admission=created/;
ok($hash, "the access log has the keyed hash $hash") or diag($vo);
like($s->worker_log, qr/job=$job_a attempt=1 key=$hash event=published/,
     'the worker logs the same job with the same keyed hash');
unlike($vo . $s->worker_log, qr/ops-a/, 'the raw key is in no log');

# --- a real Prometheus scrapes it ------------------------------------------

SKIP: {
    my $prom = '/usr/bin/prometheus';
    skip 'prometheus is not installed', 2 unless -x $prom;

    my $pport = $s->port + 1000;
    my $pdir = tempdir(CLEANUP => 1);
    open my $pc, '>', "$pdir/prometheus.yml" or die $!;
    print {$pc} "global:\n  scrape_interval: 1s\nscrape_configs:\n"
        . "  - job_name: video_ocr\n    metrics_path: /metrics\n"
        . "    static_configs:\n      - targets: ['127.0.0.1:" . $s->port
        . "']\n";
    close $pc;

    my $ppid = fork // die;
    if ($ppid == 0) {
        open STDOUT, '>', "$pdir/out.log";
        open STDERR, '>&', \*STDOUT;
        { exec $prom, "--config.file=$pdir/prometheus.yml",
               "--storage.tsdb.path=$pdir/data",
               "--web.listen-address=127.0.0.1:$pport"; }
        POSIX::_exit(127);
    }

    my $query = sub {
        my $r = VideoOCR::Stack::_request($pport, uri =>
            '/api/v1/query?query=' . $_[0]);
        my $j = eval { decode_json($r->{body}) } // {};
        my $v = $j->{data}{result}[0]{value}[1];
        return $v;
    };

    my $value;
    my $deadline = time + 30;
    while (time < $deadline) {
        $value = eval { $query->('video_ocr_jobs_created_total') };
        last if defined $value;
        sleep 0.5;
    }
    is($value, 1, 'Prometheus scraped video_ocr_jobs_created_total = 1');

    # the ratio the seed calls most revealing: jobs per accepted request
    my $ratio = $query->('sum(video_ocr_intake_requests_total%7Boutcome%3D%22created%22%7D)'
                         . '%2Fsum(video_ocr_intake_requests_total%7Boutcome%3D~%22created%7Creplayed%22%7D)');
    is($ratio, '0.5', 'jobs created per accepted request: 1 of 2');

    kill 'TERM', $ppid;
    waitpid $ppid, 0;
}

# --- receipts expire, media goes, results stay -----------------------------

my $deadline = time + 20;
my ($expired, $media);
while (time < $deadline) {
    ($m) = metrics();
    $expired = $m->{video_ocr_receipts_expired_total};
    $media = $m->{video_ocr_media_deleted_jobs_total};
    last if $expired >= 1 && $media >= 1;
    sleep 0.2;
}
is($expired, 1, 'the janitor expired the receipt after its 3 s ttl');
is($media, 1, 'and deleted the media of the finished job (retention 0)');
my $after = $s->status($job_a);
ok($after->{media_deleted_at}, 'the status shows when the media went');
is($after->{result}{segments}[0]{text}, 'Metrics please',
   'the result is kept');
my ($f) = $s->rows('SELECT count(*) AS n FROM frames WHERE job_id = ?',
                   $job_a);
is($f->{n}, 0, 'frame rows deleted');
ok(!-e $s->store . '/' . substr($job_a, -2) . "/$job_a.video",
   'input file deleted');
my $again = $s->upload('ops-a', $vshort);
is($again->{status}, 202, 'after expiry the same key is new intent');
ok(!$again->{headers}{'idempotent-replayed'}, 'not a replay');
isnt(job_of($again), $job_a, 'a new job');
$s->wait_state(job_of($again), 'done', 60);

# --- DELETE of a running job -------------------------------------------------

my $lr = $s->upload('ops-long', $vlong, args => 'fps=2');
my $long_job = job_of($lr);
$deadline = time + 60;
while (time < $deadline) {
    my ($j) = $s->rows('SELECT frames_done FROM jobs WHERE job_id = ?',
                       $long_job);
    last if ($j->{frames_done} // 0) >= 3;
    sleep 0.05;
}
my $del = $s->http(method => 'DELETE', uri => "/jobs/$long_job");
is($del->{status}, 200, 'DELETE: 200');
my $ds = eval { decode_json($del->{body}) } // {};
is($ds->{state}, 'cancelled', 'a running job is cancelled');
ok($ds->{deleted_at}, 'and marked deleted');
ok(!-e $s->store . '/' . substr($long_job, -2) . "/$long_job.video",
   'its input is gone');
$deadline = time + 20;
while (time < $deadline) {
    last if $s->worker_log =~ /job=$long_job attempt=1 key=\S+ event=lost/;
    sleep 0.1;
}
like($s->worker_log, qr/job=$long_job attempt=1 key=\S+ event=lost/,
     'the worker stopped working on it at its next write');
my ($fr) = $s->rows('SELECT count(*) AS n FROM frames WHERE job_id = ?',
                    $long_job);
is($fr->{n}, 0, 'no frame row survives the delete');
my $retry = $s->upload('ops-long', $vlong, args => 'fps=2');
is($retry->{headers}{'idempotent-replayed'}, 'true',
   'a retry of the key gets the receipt (a tombstone): no new work');
is($s->http(method => 'DELETE', uri => "/jobs/$long_job")->{status}, 200,
   'deleting twice is fine');

# --- the operator's commands -------------------------------------------------

$s->stop_worker;
my $op = job_of($s->upload('ops-operator', $vshort));

my $list = `$worker jobs --ledger $ledger --state accepted`;
like($list, qr/^$op\s+accepted\s/m, 'jobs --state lists it');

my $out = `$worker abandon --ledger $ledger $op --reason 'customer asked' 2>&1`;
is($? >> 8, 0, 'abandon') or diag($out);
like($out, qr/is now failed/, 'the job is failed');
$out = `$worker abandon --ledger $ledger $op --reason again 2>&1`;
is($? >> 8, 65, 'abandoning a failed job is refused');
like($out, qr/is failed: failed does not apply/, 'with the reason');
$out = `$worker retry --ledger $ledger $op 2>&1`;
is($? >> 8, 64, 'retry without --reason is a usage error');
$out = `$worker retry --ledger $ledger $op --reason 'fixed the fonts' 2>&1`;
is($? >> 8, 0, 'retry') or diag($out);

$s->start_worker;
is($s->wait_state($op, 'done|failed|rejected', 60)->{state}, 'done',
   'the retried job is done');

my $events = `$worker events --ledger $ledger $op`;
like($events, qr/failed .*"code":"abandoned","reason":"customer asked"/,
     'events: the abandon with its reason');
like($events, qr/operator_retry .*"reason":"fixed the fonts"/,
     'events: the retry with its reason');
like($events, qr/published/, 'events: then the publish');

my $stuck = `$worker jobs --ledger $ledger --stuck`;
unlike($stuck, qr/^[0-9a-f]{32}/m, 'jobs --stuck: nothing is stuck');

is($s->stop_worker, 0, 'the pool stops cleanly');

done_testing();
