# OCR children killed with SIGKILL, and stopped with SIGSTOP past their
# lease then continued, at random during a run of several videos.  Every
# job ends exactly once with one published result, the same text as a
# clean run of the same binary, exactly the clean run's OCR'd frames, and
# no write of a stale attempt lands.  `make soak` runs it longer
# (CHAOS_VIDEOS, CHAOS_SECONDS, CHAOS_DISTURBANCES).

use strict;
use warnings;

use JSON::PP;
use Test::More;
use Time::HiRes qw(sleep time);
use VideoOCR::Media qw(make_video tmpdir);
use VideoOCR::Stack;

my $videos = $ENV{CHAOS_VIDEOS} // 8;
my $worker = $ENV{WORKER_BIN} // 'build/video-ocr-worker';
my $dir = tmpdir();

my (@files, %clean);

# 40 s each: long enough that the jobs are still running when the chaos
# below has disturbed them twice (it goes on while a stopped child waits
# its 3 s)
for my $v (0 .. $videos - 1) {
    my @spans = map { { start => $_ * 2, end => $_ * 2 + 1.9,
                        text => sprintf('Video %d line %03d', $v, $_) } }
                0 .. 19;
    my $f = make_video(path => "$dir/v$v.mp4", duration => 40,
                       spans => \@spans);
    push @files, $f;

    # the clean run: the CLI, same binary, same options
    my $out = `$worker ocr $f --fps 2 --format json --stats 2>$dir/stats$v`;
    my $json = decode_json($out);
    my ($stats) = do { local (@ARGV, $/) = "$dir/stats$v"; <> } =~ /(\{.*\})/s;
    $clean{$v} = { text => [map { $_->{text} } @{ $json->{segments} }],
                   ocr => decode_json($stats)->{runs}[0]{ocr_calls} };

    # the comparison below is only worth what the clean run is: the
    # lines, each one glyph apart from the next, are read apart (a
    # merger that joined them once made one segment of 80 such lines)
    cmp_ok(scalar @{ $clean{$v}{text} }, '>=', 18, "video $v: the clean"
           . " run reads 9 lines in 10 apart at least");
}

# a job may be hit several times; it must not run out of attempts.  No
# OCR time limit: a child stopped (SIGSTOP) inside Tesseract that no
# other child takes over keeps its job when it continues, and with the
# limit (lease / 2 by default) that frame would end "timed out", empty,
# unlike the clean run: a limit doing its job, not a fault of the chaos
my $s = VideoOCR::Stack->new(workers => 2,
                             http_config => 'video_ocr_max_attempts 50;',
                             worker_args => ['--lease', '2s',
                                             '--heartbeat', '300ms',
                                             '--frame-timeout-ms', '0']);
my %job;

for my $v (0 .. $videos - 1) {
    my $body = do { local (@ARGV, $/) = $files[$v]; <> };
    my $r = $s->upload("chaos-$v", $body, args => 'fps=2');
    die "upload $v: $r->{status}\n" unless $r->{status} == 202;
    $job{$v} = decode_json($r->{body})->{job_id};
}

my ($kills, $stops) = (0, 0);
my %stopped;            # pid => when it is continued
# each disturbance costs the run a lease or more: a few make the point
# in `make test`, `make soak` asks for many
my $disturbances = $ENV{CHAOS_DISTURBANCES} // 8;
my $deadline = time + ($ENV{CHAOS_SECONDS} // 240);
my $next = time;

sub pending {
    my ($n) = $s->rows("SELECT count(*) AS n FROM jobs WHERE state IN"
                       . " ('accepted', 'running')");
    return $n->{n};
}

while (time < $deadline && pending() > 0) {
    if (time >= $next && $kills + $stops < $disturbances) {
        $next = time + 0.4;
        # rows of killed children stay 'running' until their lease ends
        my @running = grep { kill 0, $_ }
                      map { /:(\d+)\// ? $1 : () }
                      map { $_->{lease_owner} // '' }
                      $s->rows("SELECT lease_owner FROM jobs"
                               . " WHERE state = 'running'");
        diag(sprintf("%.1f running=%d pending=%d", time, scalar @running, pending())) if $ENV{CHAOS_DEBUG};
        @running = grep { !$stopped{$_} } @running;
        if (@running) {
            my $pid = $running[rand @running];
            if (rand() < 0.5) {
                kill('KILL', $pid) and $kills++;
            } else {
                # continued 3 s later, past the 2 s lease: another child
                # takes over meanwhile, and the chaos goes on
                kill('STOP', $pid) and $stops++;
                $stopped{$pid} = time + 3;
            }
        }
    }
    for my $pid (grep { $stopped{$_} <= time } keys %stopped) {
        kill 'CONT', $pid;
        delete $stopped{$pid};
    }
    sleep 0.1;
}
kill 'CONT', $_ for keys %stopped;

diag("$kills children killed with SIGKILL, $stops stopped past their lease");
cmp_ok($kills + $stops, '>=', 2, 'the run was disturbed');
is(pending(), 0, 'every job ended');

my ($sum_rows, $sum_clean) = (0, 0);

for my $v (0 .. $videos - 1) {
    my $id = $job{$v};
    my $st = $s->status($id);
    is($st->{state}, 'done', "video $v: done");
    is_deeply([map { $_->{text} } @{ $st->{result}{segments} }],
              $clean{$v}{text}, "video $v: the clean run's text");

    my @pub = $s->rows("SELECT attempt FROM events WHERE job_id = ?"
                       . " AND kind = 'published'", $id);
    is(scalar @pub, 1, "video $v: published once");
    is($pub[0]{attempt}, $st->{attempts},
       "video $v: by the attempt that held it last");

    my ($ocr) = $s->rows('SELECT count(*) AS n FROM frames WHERE job_id = ?'
                         . ' AND reused_from IS NULL AND (flags & 7) = 0', $id);
    is($ocr->{n}, $clean{$v}{ocr}, "video $v: the clean run's OCR'd frames");
    $sum_rows += $ocr->{n};
    $sum_clean += $clean{$v}{ocr};

    # no frame row of an attempt after a later attempt claimed the job
    my @claims = $s->rows("SELECT attempt, at FROM events WHERE job_id = ?"
                          . " AND kind IN ('claimed', 'taken_over')"
                          . " ORDER BY attempt", $id);
    my %next_claim;
    for my $i (0 .. $#claims - 1) {
        $next_claim{$claims[$i]{attempt}} = $claims[$i + 1]{at};
    }
    my @late = grep { defined $next_claim{$_->{attempt}}
                      && $_->{created_at} > $next_claim{$_->{attempt}} }
               $s->rows('SELECT attempt, created_at FROM frames'
                        . ' WHERE job_id = ?', $id);
    is(scalar @late, 0, "video $v: no stale attempt's frame landed");
}

# OCR calls made, from the attempts' own accounts; a killed attempt's
# calls are not in the ledger, at most one per kill is lost in flight
my ($made) = $s->rows('SELECT coalesce(sum('
                      . VideoOCR::Test::sql_json_int('detail', 'ocr_calls')
                      . '), 0) AS n FROM events');
diag("OCR calls: clean $sum_clean, kept $sum_rows, reported by ending"
     . " attempts $made->{n}");
is($sum_rows, $sum_clean, 'OCR\'d frames kept = the clean run\'s');
cmp_ok($made->{n}, '<=', $sum_clean + $kills + $stops,
       'OCR calls within the clean run plus one per disturbance');

my ($stale) = $s->rows("SELECT count(*) AS n FROM events"
                       . " WHERE kind = 'stale_write'");
diag("stale writes refused: $stale->{n}");

is($s->stop_worker, 0, 'the pool stops cleanly');

done_testing();
