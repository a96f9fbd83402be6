# Unsure readings through the real stack: a job whose video has a line
# Tesseract misreads from a clean picture (look-alike glyphs, as in
# t/ocr/025-ocr-unsure.t) publishes, from its ledger rows, a result whose
# segment of that line has "unsure":true and the other none, and its
# line is named in "unsure_lines" (the rows' VO_FRAME_UNSURE_* bits, kept
# by the ledger); the WebVTT the job endpoint serves has a NOTE block
# just before that cue; a search hit on it carries the members.

use strict;
use warnings;

use JSON::PP ();
use Test::More;
use VideoOCR::Media qw(make_video cer tmpdir);
use VideoOCR::Stack;

my $dir = tmpdir();
my $file = make_video(path => "$dir/alike.mp4", duration => 5, dir => $dir,
    spans => [
        { start => 0.3, end => 2.2, text => 'Meet me at the old harbour' },
        { start => 2.8, end => 4.7, text => 'Il1| O0o rn m cl d' },
    ]);
my $bytes = do { local (@ARGV, $/) = $file; <> };

my $s = VideoOCR::Stack->new(workers => 1);

my $up = $s->upload('unsure-1', $bytes);
is($up->{status}, 202, 'upload accepted');
my $job = JSON::PP::decode_json($up->{body})->{job_id};

my $st = $s->wait_state($job, 'done|failed|rejected', 120);
is($st->{state}, 'done', 'the job is done') or diag(explain($st));

my @segs = @{ $st->{result}{segments} // [] };
is(scalar @segs, 2, 'two segments') or diag(explain(\@segs));
cmp_ok(cer($segs[0]{text} // '', 'Meet me at the old harbour'), '<=', 0.05,
       'the sentence read');
ok(!exists $segs[0]{unsure}, "the sentence (confidence "
   . ($segs[0]{confidence} // '?') . ') is not unsure');
is($segs[1]{unsure}, JSON::PP::true, "\"" . ($segs[1]{text} // '') . "\""
   . ' (confidence ' . ($segs[1]{confidence} // '?') . ') is unsure');
ok(!exists $segs[0]{unsure_lines}, 'the sentence has no unsure line');
is_deeply($segs[1]{unsure_lines}, [1],
          'the unsure one\'s line is, from its rows\' flags');

my $vtt = $s->status($job, 'vtt');
is($vtt->{status}, 200, 'vtt: 200');
like($vtt->{body}, qr/\n\nNOTE unsure: read with confidence \d+ \(below \d+\)\n\n[\d:.]+ --> [^\n]*\n\Q$segs[1]{text}\E\n/,
     'vtt: a NOTE just before the unsure cue');
is(scalar(() = $vtt->{body} =~ /^NOTE/mg), 1, 'vtt: one NOTE');

my $hits = $s->search('q=harbour');
is($hits->{status}, 200, 'search: 200');
my ($hit) = grep { ($_->{job_id} // '') eq $job } @{ $hits->{hits} // [] };
ok($hit && !exists $hit->{unsure}, 'search: the sure segment, no member');

# a word of the unsure reading, as Tesseract gave it
my ($word) = sort { length $b <=> length $a } ($segs[1]{text} // '') =~ /(\w{3,})/g;
$hits = $s->search('q=' . ($word // 'none'));
($hit) = grep { ($_->{job_id} // '') eq $job } @{ $hits->{hits} // [] };
is($hit && $hit->{segment}, 1, "search \"" . ($word // '') . "\": the unsure"
   . ' segment');
is($hit && $hit->{unsure}, JSON::PP::true, 'search: its hit is unsure');
is_deeply($hit && $hit->{unsure_lines}, [1], 'search: and names the line');

done_testing;
