# Crash: kill -9 the child working on a job.  The supervisor restarts it,
# the job's lease expires, a child takes it over and resumes from the
# frame rows already written: the job ends once, with the same text as a
# clean run, and the frames OCR'd for it are exactly those of a clean run.
#
# (An OCR call in flight at the moment of the kill is lost and made again
# by the next attempt; the ledger cannot see it, so the count below is of
# the frames OCR'd and kept, which is exact, plus the log of the calls.)

use strict;
use warnings;

use Test::More;
use Time::HiRes qw(sleep time);
use VideoOCR::Media qw(make_video tmpdir);
use VideoOCR::Stack;

my $dir = tmpdir();
my @words = qw(alpha bravo charlie delta echo foxtrot golf hotel india
               juliet kilo lima mike november oscar papa quebec romeo
               sierra tango uniform victor whiskey xray yankee zulu);
my @spans = map { { start => $_ * 0.5, end => $_ * 0.5 + 0.45,
                    text => sprintf('Line %02d %s', $_, $words[$_]) } }
            0 .. $#words;
my $file = make_video(path => "$dir/screens.mp4", duration => 13,
                      spans => \@spans);
my $bytes = do { local (@ARGV, $/) = $file; <> };

my $s = VideoOCR::Stack->new(workers => 2,
                             worker_args => ['--lease', '2s',
                                             '--heartbeat', '300ms']);

sub ocr_rows {
    my ($job) = @_;
    my ($r) = $s->rows('SELECT count(*) AS n FROM frames WHERE job_id = ?'
                       . ' AND reused_from IS NULL AND (flags & 7) = 0', $job);
    return $r->{n};
}

sub upload_job {
    my ($key) = @_;
    my $r = $s->upload($key, $bytes, args => 'fps=2');
    die "upload $key: $r->{status}\n" unless $r->{status} == 202;
    return JSON::PP::decode_json($r->{body})->{job_id};
}

# a clean run gives the reference
my $clean = upload_job('clean');
my $cst = $s->wait_state($clean, 'done|failed|rejected', 180);
is($cst->{state}, 'done', 'the clean run is done');
my $clean_ocr = ocr_rows($clean);
# one OCR call per distinct screen: frames without glyphs and repeats
# are not read
cmp_ok($clean_ocr, '>=', 12, "the clean run OCR'd $clean_ocr frames");

# the same video again, killed in the middle
my $job = upload_job('crash');
my $owner;
my $deadline = time + 60;
while (time < $deadline) {
    my ($j) = $s->rows('SELECT lease_owner, frames_done FROM jobs'
                       . ' WHERE job_id = ?', $job);
    if (($j->{frames_done} // 0) >= 5 && $j->{lease_owner}) {
        $owner = $j->{lease_owner};
        last;
    }
    sleep 0.02;
}
ok($owner, "the job is half done, held by $owner") or BAIL_OUT('no owner');
my ($pid) = $owner =~ /:(\d+)\//;
ok(kill('KILL', $pid), "kill -9 child $pid");
my $killed_at = time;

my $st = $s->wait_state($job, 'done|failed|rejected', 180);
is($st->{state}, 'done', 'the job is done');
is($st->{attempts}, 2, 'in two attempts');
is($st->{failures}, 1, 'the killed attempt counts as a failure');

is_deeply([map { $_->{text} } @{ $st->{result}{segments} }],
          [map { $_->{text} } @{ $cst->{result}{segments} }],
          'the same text as the clean run');

is(ocr_rows($job), $clean_ocr, "the frames OCR'd are those of a clean run");

my @pub = $s->rows("SELECT attempt FROM events WHERE job_id = ?"
                   . " AND kind = 'published'", $job);
is(scalar @pub, 1, 'published once');
is($pub[0]{attempt}, 2, 'by the second attempt');

my ($frames) = $s->rows('SELECT count(*) AS n, count(DISTINCT attempt) AS a'
                        . ' FROM frames WHERE job_id = ?'
                        . ' AND (flags & 8) = 0', $job);
is($frames->{n}, $st->{progress}{frames_planned}, 'one row per sample');
is($frames->{a}, 2, 'written partly by each attempt');

my $log = $s->worker_log;
like($log, qr/slot \d+: child $pid killed by signal 9/,
     'the supervisor saw the kill');
like($log, qr/job=$job attempt=2 key=\S+ event=taken_over/, 'a child took it over');
my ($known) = $log =~ /job=$job attempt=2 key=\S+ event=published .*known=(\d+)/;
cmp_ok($known // 0, '>=', 5, "the second attempt skipped the $known frames"
                             . " the first had stored");

is($s->stop_worker, 0, 'the pool stops cleanly');

done_testing();
