# Two segments on adjacent looks meet and do not overlap, at a frame
# rate whose interval is not a whole number of microseconds.
#
# At --fps 1.088 the interval is 919117.6 us, cut into 6 looks of
# 153186.3 us (plan version 2): look j is at floor(j * 153186.3) us and
# a segment ends half a step before the look of the next row.  Rounded
# to milliseconds that once made two adjacent segments overlap by 1 ms
# (samples 8 and 9, when there were no looks between them), which
# players show as two cues at once (found by fuzz/fuzz_output; its input
# is fuzz/corpus/output/regress-overlap-1088).

use strict;
use warnings;
use lib 't/lib';

use Test::More;
use VideoOCR::Media qw(run_worker worker_bin tmpdir make_video);

-x worker_bin() or BAIL_OUT('no worker binary at ' . worker_bin());

my $dir = tmpdir();

# the text changes between sample 8 (7.353 s) and sample 9 (8.272 s)
my $file = make_video(path => "$dir/adjacent.mp4", duration => 10,
    spans => [{ start => 0, end => 7.8, size => 40, text => 'Alpha first' },
              { start => 7.8, end => 10, size => 40,
                text => 'Omega second' }],
    dir => $dir);

my $r = run_worker('ocr', $file, '--fps', '1.088', '--format', 'json');
is $r->{rc}, 0, 'exit 0' or diag $r->{stderr};
my $res = eval { JSON::PP->new->decode($r->{stdout}) };
ok $res, 'JSON parses' or BAIL_OUT('no JSON');

my $segs = $res->{segments};
is scalar(@$segs), 2, 'two segments'
    or diag explain $segs;
like $segs->[0]{text}, qr/Alpha/, 'the first reads Alpha';
like $segs->[1]{text}, qr/Omega/, 'the second reads Omega';

is $segs->[0]{start}, 0, 'the first starts at 0';
# the change at 7.8 s is seen by the first look after it (a look's frame
# is the last decoded one before it: at most 3 frames earlier)
my $step = 1 / 1.088 / 6;
cmp_ok abs($segs->[0]{end} - 7.8), '<=', $step + 0.12,
    'the first ends within a look of the change';
is $segs->[1]{start}, $segs->[0]{end}, 'the second starts where it ends';
cmp_ok $segs->[1]{start}, '<', $segs->[1]{end}, 'and is not empty';

# the same in the cue formats
$r = run_worker('ocr', $file, '--fps', '1.088', '--format', 'vtt');
is $r->{rc}, 0, 'vtt: exit 0';
my @times = $r->{stdout} =~ /^(\S+) --> (\S+)(?: .*)?$/mg;
is $times[1], $times[2], 'vtt: the first cue ends where the second starts';

done_testing;
