# A recognition that runs past the per-frame limit is cancelled through
# Tesseract's monitor: the frame gets an empty text and the timed_out
# flag, the job does not fail.

use strict;
use warnings;
use lib 't/lib';

use Test::More;
use VideoOCR::Media qw(run_worker worker_bin tmpdir make_video);

-x worker_bin() or BAIL_OUT('no worker binary at ' . worker_bin());

my $dir = tmpdir();
my $file = make_video(path => "$dir/t.mp4", duration => 3,
    background => 'moving', seed => 1,
    spans => [{ start => 0, end => 3, text => 'A long enough line of words to read' }]);

my $r = run_worker('ocr', $file, '--frame-timeout-ms', '1', '--frames');
is $r->{rc}, 0, 'exit 0: a cancelled frame does not fail the job';
is $r->{signal}, 0, 'no crash';
my $res = $r->{json};
ok $res->{frames_timed_out} >= 1, 'frames are flagged timed_out';
is_deeply $res->{segments}, [], 'no text from cancelled frames';
for my $f (@{ $res->{frames} }) {
    is $f->{text}, '', "frame $f->{index}: empty text";
    ok $f->{timed_out} || defined $f->{reused_from},
        "frame $f->{index}: timed out (or reuses one that did)";
}

# and without the limit the same file reads fine
$r = run_worker('ocr', $file, '--frame-timeout-ms', '0');
is $r->{rc}, 0, 'no limit: exit 0';
is $r->{json}{frames_timed_out}, 0, 'no limit: nothing timed out';
is scalar(@{ $r->{json}{segments} }), 1, 'no limit: the text is read';

done_testing;
