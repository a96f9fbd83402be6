# The OCR benchmark's own parts (bench/ocr), quickly: the corpus
# generator writes videos with a truth whose screens are right, the
# scorer counts what it claims to count, the real-like set's line
# scorer finds what issue 36 says is found, and the baselines' segments
# are merged by the same rule as the worker's (compared on the worker's
# own frames).  The benchmark itself (bench/ocr/run.sh) is not run here.

use strict;
use warnings;
use lib 't/lib', 'bench/ocr/lib';

use utf8;
use JSON::PP ();
use Test::More;
use VideoOCR::Media qw(run_worker worker_bin tmpdir);
use OCRBench qw(score merge_frames worker_looks score_lines line_cer
    line_norm);

-x worker_bin() or BAIL_OUT('no worker binary at ' . worker_bin());

my $dir = tmpdir();
my $name = 'sub-solid-360p-h264';

# the generator: one 8-second video and its truth

is system($^X, 'bench/ocr/corpus.pl', $dir, '--quick', '--only', $name), 0,
    'corpus.pl runs';
ok -s "$dir/$name.mp4", 'the video is there';
my $truth = do {
    local (@ARGV, $/) = "$dir/$name.json";
    JSON::PP->new->utf8->decode(<>);
};
is $truth->{duration}, 8, 'truth: duration';
ok $truth->{distinct_screens} >= 1, 'truth: at least one screen';
is $truth->{distinct_screens}, scalar @{ $truth->{screens} },
    'truth: distinct_screens counts the screens';
is scalar @{ $truth->{screens} }, scalar @{ $truth->{spans} },
    'truth: one screen per subtitle (they do not overlap)';
for my $i (0 .. $#{ $truth->{screens} }) {
    my ($sc, $sp) = ($truth->{screens}[$i], $truth->{spans}[$i]);
    is $sc->{text}, $sp->{text}, "screen $i: the subtitle's text";
    is $sc->{start}, $sp->{start}, "screen $i: starts with it";
    cmp_ok abs($sc->{end} - $sp->{end} - 0.04), '<', 0.011,
        "screen $i: ends one frame after its last frame's time";
}

# the scorer on made-up answers

my @screens = @{ $truth->{screens} };
my $n = @screens;
my $perfect = [map { { %$_ } } @screens];
my $s = score($perfect, $truth);
is $s->{found}, $n, 'perfect: every screen found';
is $s->{cer_sum}, 0, 'perfect: CER 0';
is $s->{false}, 0, 'perfect: no false segment';

$s = score([], $truth);
is $s->{found}, 0, 'nothing read: nothing found';
is $s->{cer_sum}, $n, 'nothing read: CER 1 per screen';

my $noisy = [@$perfect, { start => 7.9, end => 8, text => 'zzz' }];
$noisy->[0] = { %{ $noisy->[0] }, start => $noisy->[0]{start} + 0.5,
                text => substr($noisy->[0]{text}, 0, -1) };
$s = score($noisy, $truth);
is $s->{false}, 1, 'an extra segment is a false one';
is $s->{found}, $n, 'a missing character still finds the screen';
cmp_ok abs($s->{start_err}[0] - 0.5), '<', 1e-9, 'start error measured';
my $len = length $screens[0]{text};
cmp_ok abs($s->{cer_sum} - 1 / $len), '<', 1e-9, 'CER of one missing character';

# the line scorer (score_lines) on made-up answers: a line is found when
# a segment around its time holds it with at most 20 % of its characters
# wrong, case, spaces and punctuation aside

sub lines_of {
    my (@l) = @_;
    return { lines => [map { { start => $_->[0], end => $_->[1],
        text => $_->[2], shape => 'test', lang => 'eng',
        defined $_->[3] ? (key => $_->[3]) : () } } @l] };
}
sub seg { { start => $_[0], end => $_[1], text => $_[2] } }
sub found_in {
    my ($line, @segs) = @_;
    my $t = lines_of([1, 3, $line]);
    return score_lines([map { seg(0.5, 3.5, $_) } @segs], $t)->{found};
}

is found_in('Where did you put the old letters?',
            "A title\nWhere did you put the old letters?\nmore"), 1,
    'lines: found inside a segment that holds other lines too';
is found_in('Where did you put the old letters?',
            'WHERE DID YOU PUT THE OLD LETTERS'), 1,
    'lines: case and punctuation aside';
is found_in('Where did you put the old letters?',
            'Wheredidyouputtheold letters ?'), 1, 'lines: spaces aside';
is found_in('abcdefghij', 'abcdefgh'), 1,
    'lines: 2 of 10 characters wrong: found';
is found_in('abcdefghij', 'abcdefg'), 0, 'lines: 3 of 10 wrong: not found';
is found_in('我们明天再说吧', '我们明天再说'), 1,
    'lines: CJK, 1 of 7 characters missing: found';
is found_in('我们明天再说吧', '我们明天再'), 0,
    'lines: CJK, 2 of 7 missing: not found (every character counts)';
is found_in('好的', '好的。'), 1, 'lines: a two-glyph line, its punctuation aside';
is found_in('好的', '好'), 0, 'lines: a two-glyph line, one glyph: not found';
is found_in('OK', 'ＯＫ'), 1, 'lines: full-width letters are the letters';
is found_in('The bridge closes at midnight.', 'The bridge closes',
            'at midnight.'), 0,
    'lines: a line split across two segments is not found';
is found_in('The bridge closes at midnight.',
            "The bridge closes\nat midnight."), 1,
    'lines: a line broken in two in one segment is found';

my $t2 = lines_of([10, 12, 'Keep the change, friend.']);
is score_lines([seg(12.4, 14, 'Keep the change, friend.')], $t2)->{found}, 1,
    'lines: a segment within 0.5 s of the line counts';
is score_lines([seg(12.6, 14, 'Keep the change, friend.')], $t2)->{found}, 0,
    'lines: a segment 0.6 s after the line does not';

my $ct = lines_of([0, 5, 'Caption 25 of the long lecture', 25],
                  [5, 10, 'Caption 26 of the long lecture', 26]);
my $cs = score_lines([seg(0, 10, 'Caption 25 of the long lecture')], $ct);
is $cs->{found}, 1, 'lines: a counter joined to the value before: one found';
is $cs->{per_line}[1]{found}, 0,
    'lines: the next value is not found without its key, at a CER of 0.04';
$cs = score_lines([seg(0, 5, 'Caption 25 of the long lecture'),
                   seg(5, 10, 'Caption 26 of the long 1ecture')], $ct);
is $cs->{found}, 2, 'lines: each value read, a letter wrong: both found';

my $two = lines_of([0, 3, 'Where is your passport?'], [3, 6, 'Nobody knew.']);
my $ls = score_lines([seg(0, 3, 'Where is yuor passport?'),
                      seg(3.2, 4, 'Nob'), seg(4, 6, 'Nobody knew')], $two);
is $ls->{lines}, 2, 'lines: counted';
is $ls->{found}, 2, 'lines: both found';
cmp_ok abs($ls->{recall} - 1), '<', 1e-9, 'lines: recall 1';
cmp_ok abs($ls->{cer} - 2 / 19 / 2), '<', 1e-9,
    'lines: line CER, the mean of each line\'s best (2 of 19, and 0)';
is $ls->{false}, 1, 'lines: a fragment is a false segment';
$ls = score_lines([], $two);
is $ls->{found}, 0, 'lines: nothing read, nothing found';
is $ls->{cer}, 1, 'lines: nothing read, line CER 1';
$ls = score_lines([seg(0, 3, 'a long reading with none of its letters')],
                  lines_of([0, 3, 'XYZ']));
is $ls->{cer}, 1, 'lines: a reading with nothing of the line: line CER 1';

my $none = { lines => [] };
$ls = score_lines([seg(1, 2, 'lll'), seg(3, 4, 'WW')], $none);
is $ls->{invented}, 2, 'lines: on a video without text, every segment invented';
is $ls->{invented_chars}, 5, 'lines: and its characters counted';
is $ls->{recall}, undef, 'lines: no recall without lines';
is score_lines([], $none)->{invented}, 0,
    'lines: nothing read, nothing invented';

is_deeply [line_cer(line_norm('Old letters'), line_norm('xx Old lettars yy'))],
    [1 / 10, 'oldlettars'], 'line_cer: the best substring, and its CER';

# the merging rule, against the worker's on the worker's own frames

my $r = run_worker('ocr', "$dir/$name.mp4", '--fps', '2', '--frames');
is $r->{rc}, 0, 'worker: exit 0' or diag $r->{stderr};
my $mine = merge_frames($r->{json}{frames}, 2, $truth->{duration},
    worker_looks(2));
is_deeply [map { [@$_{qw(start end text)}] } @$mine],
          [map { [@$_{qw(start end text)}] } @{ $r->{json}{segments} }],
          'merge_frames makes the worker\'s segments';

# and the worker reads the corpus video: every screen found, each read
# once

$s = score($r->{json}{segments}, $truth);
is $s->{found}, $n, 'worker: every screen found';
cmp_ok $r->{json}{ocr_calls}, '<=', $n, 'worker: one OCR call per screen';

done_testing;
