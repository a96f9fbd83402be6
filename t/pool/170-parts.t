# Long videos read by the whole pool (issue 39; sql/schema.sql, PARTS):
# a job whose video is --split-seconds or longer is made parts at its
# first claim, each a job of its own claimed by any child, and the part
# that finishes last joins their rows and publishes the job.
#
#   1. Two children: the job is done with the segments one whole run
#      gives (the same texts, the same times), its status counts its
#      parts, its parts and their rows are gone after, it is counted
#      once (job_counts, search, events), and both children read parts.
#   2. A child killed (SIGKILL) while it reads a part: the part is taken
#      over, resumes from the rows stored (never reading them again), and
#      the job ends done with the same segments.
#   3. DELETE while the parts run: the job is cancelled, every part and
#      its rows go, and the pool goes on.
#   4. A part that fails for good (its CPU budget, --max-cpu) rejects the
#      job with the part's reason, and its other parts go; parts that fail
#      on every attempt (their input gone) fail it.
#   5. Fairness: another tenant's short job, uploaded while the parts run,
#      is claimed before the long job's last parts.
#   6. (PostgreSQL) Two pools on one ledger share the parts of one job,
#      and one of them is killed (a host gone) while it holds a part:
#      the other takes it over, and the segments are those of one whole
#      run.
#
# Videos at 640x360 over a moving picture, keyframes every 2 s, parts of
# about 10 s (and one at 1280x720 for the CPU budget); some 40 s of CPU.

use strict;
use warnings;

use JSON::PP;
use Test::More;
use Time::HiRes qw(sleep time);
use VideoOCR::Media qw(make_video run_worker tmpdir worker_bin);
use VideoOCR::Stack;
use VideoOCR::Test qw(pg);

my $dir = tmpdir();

# captions of 1.3 to 3.9 s with gaps of 0 to 0.7 s: some cross every cut
my @words = qw(alpha bravo charlie delta echo foxtrot golf hotel india
               juliet kilo lima mike november oscar papa quebec romeo);
my @spans;
{
    my @len = (2.6, 1.3, 3.9, 2.2, 3.1, 1.8);
    my @gap = (0.4, 0, 0.7, 0.2, 0, 0.5, 0.3);
    my ($t, $i) = (0.5, 0);
    while ($t + 1.3 < 40 - 0.5) {
        my $end = $t + $len[ $i % @len ];
        $end = 39.5 if $end > 39.5;
        push @spans, { start => $t, end => $end, size => 26,
                       text => "Long video caption $words[$i % @words] $i" };
        $t = $end + $gap[ $i % @gap ];
        $i++;
    }
}

my $video = make_video(path => "$dir/long.mp4", size => '640x360',
                       duration => 40, background => 'busy',
                       codec => 'libx264', spans => \@spans,
                       extra => ['-g', '50', '-bf', '2'], dir => $dir);
my $bytes = do { local (@ARGV, $/) = $video; <> };

# what one whole run gives: the reference
my $whole = run_worker('ocr', $video, '--fps', '2', '--format', 'json');
is($whole->{rc}, 0, 'the video read whole by "ocr"')
    or diag($whole->{stderr});
my @want = segments($whole->{json});
cmp_ok(scalar @want, '>=', int(0.8 * @spans),
       'the whole run found most of the ' . scalar(@spans) . ' captions');

my @split = ('--split-seconds', '30', '--part-seconds', '10',
             '--lease', '3s', '--heartbeat', '500ms');

# a webhook for every job, never sent (--deliverers 0): the outbox says
# which jobs were told of their end
my $secret = `${\ worker_bin()} webhooks secret`;
chomp $secret;
my $hook = 'video_ocr_webhook "https://hooks.example/video-ocr";'
    . " video_ocr_webhook_secret $secret;";

# --- 1. two children ---------------------------------------------------------

my $s = VideoOCR::Stack->new(workers => 2, worker_args => [@split]);

my $r = $s->upload('long-1', $bytes, args => 'fps=2');
is($r->{status}, 202, 'the long video accepted');
my $job = decode_json($r->{body})->{job_id};

my $st = $s->wait_state($job, 'done|failed|rejected|cancelled', 300);
is($st->{state}, 'done', 'the job is done') or diag(explain($st));
is_deeply($st->{progress}{parts}, { count => 4, done => 4 },
          'its status: read as 4 parts, all done');
is($st->{progress}{frames_done}, $st->{progress}{frames_planned},
   "progress: every sample ($st->{progress}{frames_planned})");
same_segments([segments($st->{result})], \@want,
              'the segments are those of one whole run');
is_deeply([@{ $st->{result} }{qw(warnings frames_between frames_no_text)}],
          [@{ $whole->{json} }{qw(warnings frames_between frames_no_text)}],
          'its warnings and counts of rows are the whole run\'s');

my ($split) = $s->rows("SELECT detail FROM events WHERE job_id = ?"
                       . " AND kind = 'split'", $job);
is(decode_json($split->{detail} // '{}')->{parts}, 4,
   'the first claim split it: an event says into how many parts');
my @claims = $s->rows("SELECT detail FROM events WHERE kind = 'part_claimed'");
is(scalar @claims, 4, 'each part claimed once');
my %owners = map { decode_json($_->{detail})->{owner} => 1 } @claims;
is(scalar keys %owners, 2, 'by both children');

is(count($s, 'SELECT count(*) AS n FROM jobs WHERE parent_id IS NOT NULL'),
   0, 'the parts are gone once the job is done');
is(count($s, 'SELECT count(*) AS n FROM frames WHERE job_id <> ?', $job), 0,
   'and their rows');
is(count($s, 'SELECT count(*) AS n FROM frames WHERE job_id = ?'
          . ' AND (flags & 8) = 0', $job), $st->{progress}{frames_planned},
   "the job's rows: one per sample, joined from the parts");
is(count($s, "SELECT coalesce(sum(jobs), 0) AS n FROM job_counts"
          . " WHERE state = 'done'"), 1, 'job_counts: one job done');
is(count($s, "SELECT coalesce(sum(jobs), 0) AS n FROM job_counts"
          . " WHERE state <> 'done'"), 0, 'and none in another state');
is(count($s, "SELECT count(*) AS n FROM events WHERE kind = 'published'"),
   1, 'published once');
my $metrics = $s->http(uri => '/metrics')->{body} // '';
my %m = $metrics
    =~ /^(video_ocr_(?:parts_total\{event="\w+"\}|jobs_split_total)) (\d+)$/mg;
is_deeply([@m{'video_ocr_jobs_split_total',
              'video_ocr_parts_total{event="claimed"}',
              'video_ocr_parts_total{event="finished"}'}], [1, 4, 4],
          'metrics: one job split, 4 parts claimed, 4 finished')
    or diag(join("\n", grep { /split|parts_total/ } split /\n/, $metrics));
like($metrics,
     qr/^video_ocr_jobs_finished_total\{state="done",reason="[^"]*"\} 1$/m,
     'and one job done');
my $hits = $s->search("q=caption+$words[3]");
ok(grep({ $_->{job_id} eq $job } @{ $hits->{hits} // [] }),
   'search finds the joined text');

# --- 2. a child killed while it reads a part -------------------------------

$r = $s->upload('long-2', $bytes, args => 'fps=2');
my $job2 = decode_json($r->{body})->{job_id};

# a part with rows, and the child that holds it; its last row not in a
# group of joined screens cut short (VO_FRAME_JOINING, 1024), after which
# a resumed run must read the group again (worker-pipeline.md, Resuming)
my ($victim, $stored);
my $deadline = time + 120;
while (time < $deadline && !$victim) {
    for my $p ($s->rows("SELECT j.job_id, j.lease_owner, (SELECT count(*)"
                        . " FROM frames f WHERE f.job_id = j.job_id"
                        . " AND (f.flags & 8) = 0) AS n, (SELECT f.flags"
                        . " FROM frames f WHERE f.job_id = j.job_id"
                        . " ORDER BY f.frame_index DESC LIMIT 1) AS last"
                        . " FROM jobs j WHERE j.parent_id = ?"
                        . " AND j.state = 'running'", $job2))
    {
        next unless $p->{n} >= 6 && !(($p->{last} // 0) & 1024)
                    && ($p->{lease_owner} // '') =~ /:(\d+)\//;
        ($victim, $stored) = ($p, $p->{n});
        kill 'KILL', $1;
        last;
    }
    sleep 0.05;
}
ok($victim, "a child killed while its part had $stored samples' rows")
    or BAIL_OUT('no part to kill a child in');

# what a user and an operator see of a job whose parts run
$st = $s->status($job2);
ok($st->{state} eq 'running' && $st->{progress}{parts}{count} == 4
   && $st->{progress}{parts}{done} < 4,
   'its status while its parts run: running, 4 parts, not all done')
    or diag(explain($st->{progress}));
cmp_ok($st->{progress}{frames_done}, '>=', $stored,
       'its samples done count its parts\'');
my $jobs = run_worker('jobs', '--ledger', $s->ledger);
like($jobs->{stdout}, qr/^$victim->{job_id} .* part \d of $job2$/m,
     '"jobs" lists its parts, each with its job');

$st = $s->wait_state($job2, 'done|failed|rejected|cancelled', 300);
is($st->{state}, 'done', 'the job is done after all');
same_segments([segments($st->{result})], \@want,
              'with the segments of one whole run');
ok($s->rows("SELECT 1 FROM events WHERE job_id = ? AND kind ="
            . " 'part_taken_over'", $victim->{job_id}),
   'the part was taken over');
my ($known) = $s->worker_log
    =~ /job=$victim->{job_id}\ attempt=2\ \S+\ event=(?:part_done|published)
        \ .*\ known=(\d+)/x;
cmp_ok($known // -1, '>=', $stored,
       'the attempt that took it over knew the samples stored before: it '
       . 'did not read them again')
    or diag(join "\n", grep { /$victim->{job_id}/ } split /\n/,
                             $s->worker_log);

# --- 3. DELETE while the parts run -----------------------------------------

$r = $s->upload('long-3', $bytes, args => 'fps=2');
my $job3 = decode_json($r->{body})->{job_id};
$deadline = time + 60;
sleep 0.1 while time < $deadline
    && count($s, "SELECT count(*) AS n FROM frames f JOIN jobs j"
                 . " ON j.job_id = f.job_id WHERE j.parent_id = ?", $job3) < 4;

my $del = $s->http(method => 'DELETE', uri => "/jobs/$job3");
ok($del->{status} == 200 || $del->{status} == 204,
   "DELETE while its parts run: $del->{status}");
$st = $s->status($job3);
is($st->{state}, 'cancelled', 'the job is cancelled');
is(count($s, 'SELECT count(*) AS n FROM jobs WHERE parent_id = ?', $job3),
   0, 'its parts are gone');
sleep 2;      # the children that held its parts write once more
is(count($s, 'SELECT count(*) AS n FROM jobs WHERE parent_id = ?', $job3),
   0, 'and stay gone: their children\'s writes were refused');
is(count($s, 'SELECT count(*) AS n FROM frames WHERE job_id NOT IN'
          . ' (SELECT job_id FROM jobs)'), 0, 'no row left without a job');

$r = $s->upload('long-4', $bytes, args => 'fps=1');
my $job4 = decode_json($r->{body})->{job_id};
$st = $s->wait_state($job4, 'done|failed|rejected|cancelled', 300);
is($st->{state}, 'done', 'the pool goes on: the next long job is done');

$s->stop_worker;

# --- 4. a part out of its CPU budget ----------------------------------------

{
    # parts of 20 s at 1280x720: some 2 s of CPU each, the first claim
    # (which only inspects and plans) a few ms
    my $big = make_video(path => "$dir/big.mp4", size => '1280x720',
                         duration => 40, background => 'busy',
                         codec => 'libx264', spans => [@spans[0 .. 3]],
                         extra => ['-g', '50'], dir => $dir);
    my $bb = do { local (@ARGV, $/) = $big; <> };
    my $c = VideoOCR::Stack->new(workers => 2, http_config => $hook,
                                 worker_args => ['--split-seconds', '30',
                                                 '--part-seconds', '20',
                                                 '--max-cpu', '1s',
                                                 '--deliverers', '0']);
    my $cr = $c->upload('cpu-1', $bb, args => 'fps=2');
    my $cj = decode_json($cr->{body})->{job_id};
    my $cs = $c->wait_state($cj, 'done|failed|rejected|cancelled', 120);
    is($cs->{state}, 'rejected', 'a part used its CPU budget: the job is '
       . 'rejected');
    is($cs->{error}{code}, 'cpu_limit', 'with the part\'s reason')
        or diag(explain($cs->{error}));
    like($cs->{error}{message} // '', qr/CPU budget/, 'and its message');
    is(count($c, 'SELECT count(*) AS n FROM jobs WHERE parent_id = ?', $cj),
       0, 'its parts are gone');
    is_deeply([map { $_->{type} } $c->rows("SELECT type FROM notifications")],
              ['job.rejected'], 'one notification: the job\'s, rejected');
    $c->stop_worker;
}

# --- 4b. parts that fail on every attempt ------------------------------------

{
    # the input gone once the job is split: the parts not yet claimed
    # fail to open it (a transient failure) on each of their attempts
    my $g = VideoOCR::Stack->new(workers => 2, http_config => $hook,
                                 worker_args => [@split, '--retry-backoff',
                                                 '100ms', '--deliverers',
                                                 '0']);
    my $gr = $g->upload('gone-1', $bytes, args => 'fps=2');
    my $gj = decode_json($gr->{body})->{job_id};
    my $until = time + 60;
    sleep 0.05 while time < $until
        && count($g, 'SELECT count(*) AS n FROM jobs WHERE parent_id = ?',
                 $gj) < 4;
    my ($in) = $g->rows('SELECT input_path FROM jobs WHERE job_id = ?', $gj);
    unlink $g->store . "/$in->{input_path}" or die "unlink: $!";

    my $gs = $g->wait_state($gj, 'done|failed|rejected|cancelled', 120);
    is($gs->{state}, 'failed', 'a part out of attempts fails its job');
    is($gs->{error}{code}, 'input_missing', 'with the part\'s reason')
        or diag(explain($gs->{error}));
    ok(count($g, "SELECT count(*) AS n FROM events WHERE kind = 'retried'")
       >= 2, 'after the part was retried');
    is(count($g, 'SELECT count(*) AS n FROM jobs WHERE parent_id = ?', $gj),
       0, 'its parts are gone');
    is_deeply([map { "$_->{job_id} $_->{type}" }
               $g->rows("SELECT job_id, type FROM notifications")],
              ["$gj job.failed"], 'one notification: the job\'s, failed');
    $g->stop_worker;
}

# --- 5. another tenant's short job is not kept waiting -----------------------

{
    my $short = make_video(path => "$dir/short.mp4", duration => 2,
                           spans => [{ start => 0, end => 2,
                                       text => 'SHORT JOB' }]);
    my $sb = do { local (@ARGV, $/) = $short; <> };
    my $f = VideoOCR::Stack->new(workers => 2, worker_args => [@split],
                                 http_config =>
                                     'video_ocr_tenant $http_x_tenant;');
    my $post = sub {
        my ($tenant, $key, $body) = @_;
        my $x = $f->http(method => 'POST', uri => '/upload?fps=2',
                         body => $body,
                         headers => ['Idempotency-Key' => $key,
                                     'X-Tenant' => $tenant]);
        return decode_json($x->{body})->{job_id};
    };

    my $long = $post->('acme', 'long', $bytes);
    my $until = time + 60;
    sleep 0.05 while time < $until
        && count($f, "SELECT count(*) AS n FROM jobs WHERE parent_id = ?"
                     . " AND state = 'running'", $long) < 2;
    my $quick = $post->('beta', 'short', $sb);

    $until = time + 300;
    sleep 0.2 while time < $until
        && count($f, "SELECT count(*) AS n FROM jobs WHERE job_id IN (?, ?)"
                     . " AND state = 'done'", $long, $quick) < 2;

    my @order = map { $_->{job_id} }
        $f->rows("SELECT job_id FROM events WHERE kind IN ('claimed',"
                 . " 'part_claimed') ORDER BY id");
    my ($at) = grep { $order[$_] eq $quick } 0 .. $#order;
    ok(defined $at && $at < $#order,
       'the other tenant\'s job was claimed before the long job\'s last '
       . 'part') or diag(join(' ', map { substr($_, 0, 6) } @order));
    $f->stop_worker;
}

# --- 6. two pools on one PostgreSQL ledger -----------------------------------

SKIP: {
    skip 'two hosts on one ledger: the PostgreSQL run', 6 unless pg();

    my $a = VideoOCR::Stack->new(workers => 1, worker_args => [@split]);
    my $b = VideoOCR::Stack->new(workers => 1, worker_args => [@split],
                                 ledger => $a->ledger, store => $a->store);

    my $ar = $a->upload('hosts-1', $bytes, args => 'fps=2');
    my $aj = decode_json($ar->{body})->{job_id};

    # host B is gone (SIGKILL, supervisor and children) while it reads
    # a part: host A takes the part over when its lease expires
    my %bchild;
    my $until = time + 120;
    my $held;
    while (!$held && time < $until) {
        %bchild = $b->children;
        for my $p ($a->rows("SELECT lease_owner FROM jobs WHERE parent_id = ?"
                            . " AND state = 'running'", $aj))
        {
            my ($pid) = ($p->{lease_owner} // '') =~ /:(\d+)\//;
            $held = 1 if $pid && grep { $_ == $pid } values %bchild;
        }
        sleep 0.05 unless $held;
    }
    ok($held, 'host B holds a part');
    kill 'KILL', $b->worker_pid, values %bchild;

    my $as = $a->wait_state($aj, 'done|failed|rejected|cancelled', 300);
    is($as->{state}, 'done', 'two pools, one of them gone: the job is done');
    same_segments([segments($as->{result})], \@want,
                  'with the segments of one whole run');
    ok(count($a, "SELECT count(*) AS n FROM events"
                 . " WHERE kind = 'part_taken_over'"),
       'host A took over the part host B held');

    my %pools;
    for my $e ($a->rows("SELECT detail FROM events"
                        . " WHERE kind = 'part_claimed'"))
    {
        my ($pid) = decode_json($e->{detail})->{owner} =~ /:(\d+)\//;
        for my $p ([a => $a], [b => $b]) {
            my %child = $p->[1]->children;
            $pools{$p->[0]}++ if grep { $_ == $pid } values %child;
        }
    }
    ok($pools{a}, 'pool A read parts');
    ok($pools{b}, 'pool B read parts');
    $a->stop_worker;
    $b->stop_worker;
}

done_testing();


sub segments {
    my ($res) = @_;
    return map { [$_->{text}, $_->{start}, $_->{end}] }
           @{ ($res // {})->{segments} // [] };
}

# the same texts, the same times within one frame (25 fps)
sub same_segments {
    my ($got, $want, $name) = @_;
    my @bad;
    for my $i (0 .. ($#$got > $#$want ? $#$got : $#$want)) {
        my ($g, $w) = ($got->[$i], $want->[$i]);
        next if $g && $w && $g->[0] eq $w->[0]
                && abs($g->[1] - $w->[1]) <= 0.04
                && abs($g->[2] - $w->[2]) <= 0.04;
        push @bad, sprintf("%d: got %s, want %s", $i,
                           $g ? "\"$g->[0]\" $g->[1]-$g->[2]" : 'none',
                           $w ? "\"$w->[0]\" $w->[1]-$w->[2]" : 'none');
    }
    ok(!@bad && @$got == @$want, $name . ' (' . scalar(@$want) . ')')
        or diag(join("\n", @bad[0 .. ($#bad > 9 ? 9 : $#bad)]));
}

sub count {
    my ($stack, $sql, @bind) = @_;
    my ($row) = $stack->rows($sql, @bind);
    return $row->{n};
}
