# End to end: an upload through the real nginx with the module, the real
# worker pool claims it, decodes with FFmpeg, reads with Tesseract and
# publishes; the status endpoint shows the text.  Retries of the upload,
# during and after processing, create no work.

use strict;
use warnings;

use Test::More;
use VideoOCR::Media qw(make_video cer tmpdir);
use VideoOCR::Stack;

my $dir = tmpdir();
my @spans = (
    { start => 0.3, end => 2.6, text => 'The quick brown fox' },
    { start => 3.2, end => 5.8, text => 'jumps over the lazy dog' },
);
my $file = make_video(path => "$dir/e2e.mp4", duration => 6,
                      spans => \@spans);
my $bytes = do { local (@ARGV, $/) = $file; <> };

my $s = VideoOCR::Stack->new(workers => 2, worker_args => ['--verbose']);

my $first = $s->upload('e2e-1', $bytes, args => 'fps=2');
is($first->{status}, 202, 'upload accepted');
my $job = JSON::PP::decode_json($first->{body})->{job_id};

# a retry while the job is queued or running
my $retry = $s->upload('e2e-1', $bytes, args => 'fps=2');
is($retry->{status}, 202, 'retry during processing: 202');
is($retry->{headers}{'idempotent-replayed'}, 'true', 'a replay');

my $st = $s->wait_state($job, 'done|failed|rejected', 120);
is($st->{state}, 'done', 'the job is done') or diag(explain($st));
is($st->{attempts}, 1, 'in one attempt');
is($st->{progress}{frames_planned}, 12, '6 s at 2 fps: 12 frames planned');
is($st->{progress}{frames_done}, 12, 'all of them done');
is($st->{media}{codec}, 'h264', 'the inspection is recorded');

my @segments = @{ $st->{result}{segments} // [] };
is(scalar @segments, 2, 'two segments') or diag(explain(\@segments));

for my $i (0 .. $#spans) {
    my $seg = $segments[$i] or next;
    cmp_ok(cer($seg->{text}, $spans[$i]{text}), '<=', 0.05,
           "segment $i reads \"$spans[$i]{text}\"")
        or diag("read: \"$seg->{text}\"");
    cmp_ok(abs($seg->{start} - $spans[$i]{start}), '<=', 0.5,
           "segment $i starts within one sampling interval");
    cmp_ok(abs($seg->{end} - $spans[$i]{end}), '<=', 0.5,
           "segment $i ends within one sampling interval");
}

# a retry after the job is done: the same receipt, no new work
my $late = $s->upload('e2e-1', $bytes, args => 'fps=2');
is($late->{headers}{'idempotent-replayed'}, 'true', 'late retry: a replay');
is(JSON::PP::decode_json($late->{body})->{job_id}, $job, 'same job');

sleep 1;    # give an (unwanted) second claim time to show up

my ($n) = $s->rows('SELECT count(*) AS n FROM jobs');
is($n->{n}, 1, 'one job in the ledger');
my @claims = $s->rows("SELECT * FROM events WHERE kind IN"
                      . " ('claimed', 'taken_over')");
is(scalar @claims, 1, 'claimed once');
my @pub = $s->rows("SELECT * FROM events WHERE kind = 'published'");
is(scalar @pub, 1, 'published once');
my ($f) = $s->rows('SELECT count(*) AS n FROM frames WHERE job_id = ?'
                   . ' AND (flags & 8) = 0', $job);
is($f->{n}, 12, 'one frame row per planned sample');

my $ocr_lines = () = $s->worker_log =~ /job=$job attempt=1 key=\S+ frame=\d+ \S+ ocr/g;
my ($log_calls) = $s->worker_log =~ /job=$job .*event=published .*ocr_calls=(\d+)/;
ok(defined $log_calls, 'the published line reports the OCR calls');
is($ocr_lines, $log_calls, 'one frame line per OCR call');
cmp_ok($log_calls, '<', 12, 'near-identical frames were not OCR\'d again');

# the published formats
my $vtt = $s->status($job, 'vtt');
is($vtt->{status}, 200, 'vtt: 200');
like($vtt->{body}, qr/^WEBVTT\n/, 'vtt: a WebVTT file');
like($vtt->{body}, qr/00:00:0\d\.\d{3} --> 00:00:0\d\.\d{3}(?: [^\n]+)?\n.*quick/si,
     'vtt: cues with the text');
my $srt = $s->status($job, 'srt');
like($srt->{body}, qr/^1\n00:00:0\d,\d{3} --> 00:00:0\d,\d{3}\n/,
     'srt: numbered cues');
my $txt = $s->status($job, 'txt');
like($txt->{body}, qr/lazy dog/i, 'txt: the text');

# text the job cannot read (mirrored, issue 19): done, but the status's
# result says so, and the metrics count it
my $src = make_video(path => "$dir/upright.mp4", duration => 4,
                     spans => [ { start => 0.5, end => 3.5, size => 36,
                                  text => 'Mirror image words' } ]);
my $mir = "$dir/mirrored.mp4";
system('ffmpeg', '-nostdin', '-loglevel', 'error', '-y', '-i', $src, '-vf',
       'hflip', '-c:v', 'libx264', '-preset', 'veryfast', $mir) == 0
    or die "ffmpeg hflip failed";
my $mbytes = do { local (@ARGV, $/) = $mir; <> };
my $mup = $s->upload('e2e-mirror', $mbytes);
is($mup->{status}, 202, 'unreadable: accepted');
my $mjob = JSON::PP::decode_json($mup->{body})->{job_id};
my $mst = $s->wait_state($mjob, 'done|failed|rejected', 120);
is($mst->{state}, 'done', 'unreadable: done all the same');
my @warn = @{ $mst->{result}{warnings} // [] };
is(scalar @warn, 1, 'unreadable: the status\'s result has one warning')
    or diag(explain($mst->{result}));
is($warn[0]{code}, 'text_unreadable', 'unreadable: text_unreadable');
cmp_ok(scalar @{ $warn[0]{frames} // [] }, '>=', 1,
       'unreadable: with the frames concerned');
is_deeply($st->{result}{warnings}, [], 'the readable job has no warning');
my $metrics = $s->http(uri => '/metrics')->{body};
like($metrics, qr/^video_ocr_jobs_finished_total\{state="done",
                  reason="text_unreadable"\}[ ]1$/mx,
     'unreadable: the metric counts it');
like($metrics, qr/^video_ocr_jobs_finished_total\{state="done",reason=""\}
                  [ ]1$/mx, 'the readable job counts as done with no reason');

is($s->stop_worker, 0, 'the pool stops cleanly on SIGTERM');

# every line of the pool's log is one of its own: time, pid, message (a
# library's message to stderr would break log shippers' parsing)
my @foreign = grep { !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z \[\d+\] / }
              split /\n/, $s->worker_log;
is(scalar @foreign, 0, 'the log has only the pool\'s own lines')
    or diag(join "\n", @foreign[0 .. ($#foreign > 5 ? 5 : $#foreign)]);

done_testing();
