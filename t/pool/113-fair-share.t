# Fair share between tenants (issue 17): claims go round-robin over the
# tenants with work, oldest first within a tenant, so a tenant with a big
# backlog does not starve the others; a tenant's turn lasts its
# --tenant-weight; --tenant-max-running caps its running jobs; and
# video_ocr_tenant_max_queued refuses a new upload past the cap with 429
# tenant-queue-full (Retry-After, nothing written, counted) while a retry
# of an admitted key still gets its receipt.  Both backends (the
# PostgreSQL run: VIDEO_OCR_TEST_PG).

use strict;
use warnings;

use JSON::PP;
use Test::More;
use VideoOCR::Media qw(make_video tmpdir);
use VideoOCR::Stack;
use VideoOCR::Test ();

my $dir = tmpdir();
my $video = make_video(path => "$dir/v.mp4", duration => 1,
                       spans => [{ start => 0, end => 1, text => 'HELLO' }]);
my $bytes = do { local (@ARGV, $/) = $video; <> };

my $tenant_conf = 'video_ocr_tenant $http_x_tenant;';

sub post_as {
    my ($s, $tenant, $key) = @_;
    return $s->http(method => 'POST', uri => '/upload?fps=1', body => $bytes,
                    headers => ['Idempotency-Key' => $key,
                                'X-Tenant' => $tenant]);
}

sub queue {
    my ($s, $tenant, $n) = @_;
    my $ok = 0;
    for my $i (1 .. $n) {
        $ok++ if post_as($s, $tenant, "$tenant-$i")->{status} == 202;
    }
    return $ok;
}

# every job's tenant and finish time (NULL: not finished), in that order
sub finished {
    my ($s) = @_;
    return $s->rows('SELECT tenant, finished_at FROM jobs'
                    . ' WHERE finished_at IS NOT NULL ORDER BY finished_at,'
                    . ' job_id');
}

sub wait_done {
    my ($s, $n, $seconds) = @_;
    my $deadline = time + $seconds;
    my $done = 0;
    while (time < $deadline) {
        ($done) = map { $_->{n} } $s->rows("SELECT count(*) AS n FROM jobs"
                                           . " WHERE state = 'done'");
        last if $done >= $n;
        select undef, undef, undef, 0.2;
    }
    return $done;
}

sub claims {
    my ($s, $n) = @_;
    return map { $_->{tenant} }
           $s->rows("SELECT tenant FROM events WHERE kind = 'claimed'"
                    . " ORDER BY id LIMIT $n");
}


# 1. a backlog of 500 does not starve a tenant who comes after it

{
    my $s = VideoOCR::Stack->new(workers => 2, no_worker => 1,
                                 http_config => $tenant_conf);

    is(queue($s, 'alice', 500), 500, 'alice queues 500 videos');
    is(queue($s, 'bob', 5), 5, 'then bob uploads 5');

    $s->start_worker;

    my $want = 25;
    cmp_ok(wait_done($s, $want, 240), q{>=}, $want, "$want jobs done") or
        diag($s->worker_log);

    my @order = finished($s);
    my @alice = grep { $_->{tenant} eq 'alice' } @order;
    my @bob = grep { $_->{tenant} eq 'bob' } @order;

    is(scalar @bob, 5, 'all 5 of bob\'s jobs are done');
    ok(@alice >= 20 && $bob[-1]{finished_at} <= $alice[19]{finished_at},
       'bob\'s last finished before alice\'s 20th did')
        or diag(join ' ', map { "$_->{tenant}:$_->{finished_at}" } @order);

    my @first = claims($s, 10);
    is(join(' ', @first), join(' ', ('alice', 'bob') x 5),
       'the first 10 claims alternate between them');

    # oldest first within a tenant: alice's jobs in the order she sent them
    my @sent = map { $_->{job_id} }
        $s->rows("SELECT job_id FROM jobs WHERE tenant = 'alice'"
                 . " ORDER BY created_at, job_id LIMIT 10");
    my @taken = map { $_->{job_id} }
        $s->rows("SELECT job_id FROM events WHERE kind = 'claimed'"
                 . " AND tenant = 'alice' ORDER BY id LIMIT 10");
    is_deeply(\@taken, \@sent, 'alice\'s jobs are claimed oldest first');

    $s->stop_worker;
    $s->stop_nginx;
}


# 2. a tenant's turn lasts its weight

{
    my $s = VideoOCR::Stack->new(workers => 2, no_worker => 1,
                                 http_config => $tenant_conf,
                                 worker_args => ['--tenant-weight',
                                                 'alice=3']);

    queue($s, 'alice', 12);
    queue($s, 'bob', 4);
    $s->start_worker;

    cmp_ok(wait_done($s, 8, 120), q{>=}, 8, 'weights: 8 jobs done');
    is(join(' ', claims($s, 8)),
       'alice alice alice bob alice alice alice bob',
       'alice=3: three claims of alice for one of bob');

    $s->stop_worker;
    $s->stop_nginx;
}


# 3. --tenant-max-running: one tenant's jobs never run side by side

{
    my $s = VideoOCR::Stack->new(workers => 2, no_worker => 1,
                                 http_config => $tenant_conf,
                                 worker_args => ['--tenant-max-running',
                                                 '1']);

    queue($s, 'alice', 4);
    queue($s, 'bob', 2);
    $s->start_worker;

    cmp_ok(wait_done($s, 6, 120), q{>=}, 6, 'running cap: all 6 jobs done');

    for my $t (qw(alice bob)) {
        my @j = $s->rows('SELECT started_at, finished_at FROM jobs'
                         . ' WHERE tenant = ? ORDER BY started_at', $t);
        my $overlap = grep { $j[$_]{started_at} < $j[$_ - 1]{finished_at} }
                      1 .. $#j;
        is($overlap, 0, "$t: at most one job running at a time");
    }

    my ($both) = $s->rows('SELECT count(*) AS n FROM jobs a, jobs b'
                          . " WHERE a.tenant = 'alice' AND b.tenant = 'bob'"
                          . ' AND a.started_at < b.finished_at'
                          . ' AND b.started_at < a.finished_at');
    ok($both->{n} > 0, 'while the two tenants ran side by side');

    $s->stop_worker;
    $s->stop_nginx;
}


# 4. video_ocr_tenant_max_queued

{
    my $s = VideoOCR::Stack->new(no_worker => 1,
                                 http_config => "$tenant_conf\n"
                                     . 'video_ocr_tenant_max_queued 3;');

    is(queue($s, 'alice', 3), 3, 'cap 3: three uploads admitted');

    my $files = () = glob($s->store . '/*/*');
    my ($jobs) = $s->rows('SELECT count(*) AS n FROM jobs');

    my $r = post_as($s, 'alice', 'alice-4');
    is($r->{status}, 429, 'the 4th: 429');
    is($r->{headers}{'retry-after'}, '10', 'with Retry-After');
    my $p = eval { decode_json($r->{body}) } // {};
    is($p->{type}, 'urn:video-ocr:problem:tenant-queue-full',
       'problem type tenant-queue-full');
    like($r->{headers}{'content-type'}, qr{^application/problem\+json},
         'as problem+json');

    my ($after) = $s->rows('SELECT count(*) AS n FROM jobs');
    is($after->{n}, $jobs->{n}, 'no job row written');
    my ($receipt) = $s->rows("SELECT count(*) AS n FROM requests"
                             . " WHERE request_key = 'alice-4'");
    is($receipt->{n}, 0, 'no receipt written');
    is(scalar(() = glob($s->store . '/*/*')), $files,
       'no file left in the store');

    $r = post_as($s, 'alice', 'alice-2');
    is($r->{status}, 202, 'a retry of an admitted key: its receipt');
    is($r->{headers}{'idempotent-replayed'}, 'true', 'replayed');

    is(post_as($s, 'bob', 'bob-1')->{status}, 202,
       'another tenant is not capped by alice\'s queue');

    my $m = $s->http(uri => '/metrics')->{body};
    like($m, qr/^video_ocr_intake_requests_total\{outcome="tenant-queue-full"\} 1$/m,
         'the refusal is counted');

    $s->stop_nginx;
}

# 5. PostgreSQL: two worker hosts on one ledger take turns too

SKIP: {
    skip 'two hosts share a PostgreSQL ledger (VIDEO_OCR_TEST_PG)', 3
        unless VideoOCR::Test::pg();

    my $one = VideoOCR::Stack->new(workers => 1, no_worker => 1,
                                   http_config => $tenant_conf);
    my $two = VideoOCR::Stack->new(workers => 1, no_worker => 1,
                                   ledger => $one->ledger,
                                   store => $one->store,
                                   http_config => $tenant_conf);

    queue($one, 'alice', 60);
    queue($two, 'bob', 5);
    $one->start_worker;
    $two->start_worker;

    cmp_ok(wait_done($one, 15, 240), q{>=}, 15, 'two hosts: 15 jobs done');

    my @order = finished($one);
    my @alice = grep { $_->{tenant} eq 'alice' } @order;
    my @bob = grep { $_->{tenant} eq 'bob' } @order;
    ok(@bob == 5 && @alice >= 10
       && $bob[-1]{finished_at} <= $alice[9]{finished_at},
       'two hosts: bob\'s 5 done before alice\'s 10th')
        or diag(join ' ', map { "$_->{tenant}:$_->{finished_at}" } @order);
    is(join(' ', claims($one, 10)), join(' ', ('alice', 'bob') x 5),
       'two hosts: their claims alternate between the tenants');

    $_->stop_worker for $one, $two;
    $_->stop_nginx for $one, $two;
}

done_testing();
