# The OCR benchmark's own parts (bench/ocr), quickly: the corpus
# generator writes videos with a truth whose screens are right, the
# scorer counts what it claims to count, and the baselines' segments are
# merged by the same rule as the worker's (compared on the worker's own
# frames).  The benchmark itself (bench/ocr/run.sh) is not run here.

use strict;
use warnings;
use lib 't/lib', 'bench/ocr/lib';

use JSON::PP ();
use Test::More;
use VideoOCR::Media qw(run_worker worker_bin tmpdir);
use OCRBench qw(score merge_frames worker_looks);

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
