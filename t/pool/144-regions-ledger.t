# Text in two places at once, through the real stack: the frame rows of
# a screen with a title at the top and a subtitle at the bottom keep its
# parts (frames.parts, the form of worker/result/vw_parts.h) in the ledger, and
# the result published from those rows has a segment per part, the
# title's overlapping both subtitles', in JSON and in WebVTT.

use strict;
use warnings;

use JSON::PP ();
use Test::More;
use VideoOCR::Media qw(make_video cer tmpdir);
use VideoOCR::Stack;

my $dir = tmpdir();
my $file = make_video(path => "$dir/two.mp4", duration => 6,
    size => '1280x720', dir => $dir, spans => [
        { start => 0, end => 6, text => 'CHAPTER ONE', y => 'top',
          size => 40 },
        { start => 0.5, end => 2.5, text => 'Hello there my friend' },
        { start => 3.0, end => 5.5, text => 'Good bye for now' },
    ]);
my $bytes = do { local (@ARGV, $/) = $file; <> };

my $s = VideoOCR::Stack->new(workers => 1);

my $up = $s->upload('regions-1', $bytes);
is($up->{status}, 202, 'upload accepted');
my $job = JSON::PP::decode_json($up->{body})->{job_id};

my $st = $s->wait_state($job, 'done|failed|rejected', 120);
is($st->{state}, 'done', 'the job is done') or diag(explain($st));

my @segs = @{ $st->{result}{segments} // [] };
is(scalar @segs, 3, 'three segments') or diag(explain(\@segs));
my ($title) = grep { cer($_->{text}, 'CHAPTER ONE') <= 0.1 } @segs;
my @subs = grep { $_ != ($title // 0) } @segs;
ok($title, 'the title is a segment of its own');
for my $sub (@subs) {
    ok($title && $sub->{start} >= $title->{start}
       && $sub->{end} <= $title->{end},
       "\"$sub->{text}\" overlaps the title's segment");
    cmp_ok($sub->{box}[1], '>', $title->{box}[1] + 500,
           "\"$sub->{text}\" placed below the title");
}

# the rows: the screens of two texts have their parts, the others none

my @rows = $s->rows('SELECT frame_index, text, parts FROM frames'
                    . ' WHERE job_id = ? ORDER BY frame_index', $job);
my @two = grep { defined $_->{parts} } @rows;
ok(scalar @two >= 2, 'rows with parts: ' . scalar @two);
for my $r (@two) {
    like($r->{parts}, qr/\A\d+ \d+ \d+ \d+ \d+ \d+;\d+ \d+ \d+ \d+ \d+ \d+\z/,
         "frame $r->{frame_index}: two parts ($r->{parts})");
    like($r->{text}, qr/\ACHAPTER ONE\n/, "frame $r->{frame_index}: the"
         . ' text kept whole');
}
ok(!(grep { !defined $_->{parts} && $_->{text} =~ /\n/ } @rows),
   'every row of two texts has its parts');

my $vtt = $s->status($job, 'vtt');
is($vtt->{status}, 200, 'vtt: 200');
my @cues = $vtt->{body} =~ /^\d\d:\d\d:\d\d\.\d{3} --> /mg;
is(scalar @cues, 3, 'vtt: three cues');

done_testing;
