# The resumption hooks, driven from the command line: --debug-resume-at N
# stops a first run after N frames (as a child that lost its lease) and
# lets a second run resume, told by row_known which frames are done.
# The second run must neither decode nor OCR those again, must make the
# same near-identical decisions as an uninterrupted run (same OCR calls in
# total) and the merged result must be byte for byte the uninterrupted one.

use strict;
use warnings;
use lib 't/lib';

use JSON::PP ();
use Test::More;
use VideoOCR::Media qw(run_worker worker_bin tmpdir make_video);

-x worker_bin() or BAIL_OUT('no worker binary at ' . worker_bin());

my $dir = tmpdir();
my @spans = (
    { start => 0.2, end => 3.7, text => 'Resume from here' },
    { start => 4.2, end => 8.0, text => 'Then carry on' },
);

# a keyframe every second so that the resumed run can seek past the
# frames it already has
my $mp4 = make_video(path => "$dir/r.mp4", duration => 8, spans => \@spans,
    extra => ['-g', '25'], dir => $dir);
my $mkv = make_video(path => "$dir/r.mkv", duration => 8, spans => \@spans,
    background => 'noise', codec => 'libvpx-vp9', extra => ['-g', '25'],
    dir => $dir);

for my $file ($mp4, $mkv) {
    my $clean = run_worker('ocr', $file, '--fps', '2', '--frames', '--stats');
    is $clean->{rc}, 0, "$file: clean run" or diag $clean->{stderr};
    my $cs = stats($clean)->[0];
    ok $cs->{frames_reused} > 0, "$file: the clean run reuses frames";

    for my $at (1, 3, 9, 15) {
        my $r = run_worker('ocr', $file, '--fps', '2', '--frames', '--stats',
            '--debug-resume-at', $at);
        is $r->{rc}, 0, "$file at $at: exit 0" or diag $r->{stderr};
        is $r->{stdout}, $clean->{stdout},
            "$file at $at: the same result as an uninterrupted run";

        my ($first, $second) = @{ stats($r) };
        is $first->{frames_done}, $at, "$file at $at: first run stopped after $at";
        is $second->{frames_known}, $at, "$file at $at: second run skipped $at known";
        is $second->{frames_done}, 16 - $at, "$file at $at: and did the rest";
        is $first->{ocr_calls} + $second->{ocr_calls}, $cs->{ocr_calls},
            "$file at $at: OCR calls as in a clean run ($cs->{ocr_calls})";
        is $second->{refs_restored}, 1,
            "$file at $at: decoded the reference picture once";
        if ($at >= 9) {
            ok $second->{seeks} >= 1, "$file at $at: seeked past the known frames";
            cmp_ok $second->{frames_decoded}, '<', $cs->{frames_decoded},
                "$file at $at: decoded less than a clean run";
        }
    }
}

done_testing;

sub stats {
    my ($r) = @_;
    my ($line) = grep { /^\{"runs"/ } split /\n/, $r->{stderr};
    return JSON::PP->new->decode($line)->{runs};
}
