# Frames no look uses are not decoded, and cue times stay exact to the
# frame (worker/media/vw_decode.c, docs/worker-pipeline.md "Cue times
# to the frame").  A 4K video at 30 fps keeps 2 frames before a look's
# (VW_KEPT_BYTES) and a look comes every 5 frames, so the non-reference
# frames no look uses are skipped: --stats says so.  The text begins on
# a non-reference B frame that one look keeps (the one before its
# frame): its segment starts at that frame's time, which a decoder that
# skipped it (as the looks of --no-refine do) could not give.

use strict;
use warnings;
use lib 't/lib';

use Test::More;
use VideoOCR::Media qw(run_worker worker_bin tmpdir font_path cer);

-x worker_bin() or BAIL_OUT('no worker binary at ' . worker_bin());

my $dir = tmpdir();
my $font = font_path('DejaVuSans');
my $text = 'Begins on a B frame';
my $begin = 39;                     # look 8 is frame 40: 39 is kept

# x264 with a fixed pattern of B frames (pyramid: the middle one of
# three is a reference, the two beside it are not)
my $file = "$dir/4k-bframes.mp4";
my @cmd = ('ffmpeg', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i',
    VideoOCR::Media::_background('moving', '3840x2160', 30, 2, 1),
    '-vf', "drawtext=fontfile=$font:text='$text':fontsize=120:"
           . "fontcolor=white:borderw=8:x=(w-tw)/2:y=h-320:"
           . "enable='gte(n,$begin)',format=yuv420p",
    '-c:v', 'libx264', '-preset', 'ultrafast', '-bf', '3',
    '-x264-params', 'b-adapt=0:scenecut=0:b-pyramid=normal', '-g', '250',
    $file);
system(@cmd) == 0 or die "ffmpeg failed: @cmd\n";

# the frames in the order shown: [pts_time, pict_type]; and the times of
# those a decoder that skips non-reference frames still gives
sub frames {
    my (@skip) = @_;
    open my $fh, '-|', 'ffprobe', '-v', 'error', @skip, '-select_streams',
        'v:0', '-show_entries', 'frame=pts_time,pict_type', '-of',
        'csv=p=0', $file or die "ffprobe: $!";
    my @f = map { /^([\d.]+),([A-Z])/ ? [$1 + 0, $2] : () } <$fh>;
    close $fh;
    return [sort { $a->[0] <=> $b->[0] } @f];
}

my $all = frames();
my %ref = map { sprintf('%.4f', $_->[0]) => 1 }
          @{ frames('-skip_frame', 'noref') };
my ($t, $type) = @{ $all->[$begin] };
is scalar(@$all), 60, 'the video has 60 frames';
is $type, 'B', "frame $begin is a B frame";
ok !$ref{sprintf('%.4f', $t)}, "frame $begin is not a reference";

my $r = run_worker('ocr', $file, '--fps', '1', '--stats');
is $r->{rc}, 0, 'exit 0' or diag $r->{stderr};

my ($decoded) = $r->{stderr} =~ /"frames_decoded":(\d+)/;
my ($skipped) = $r->{stderr} =~ /"frames_skipped":(\d+)/;
my ($packets) = $r->{stderr} =~ /"packets":(\d+)/;
cmp_ok $skipped // 0, '>', 0, '--stats: frames were skipped'
    or diag $r->{stderr};
is(($decoded // 0) + ($skipped // 0), $packets // -1,
    '--stats: decoded and skipped add up to the packets read');

my @segs = grep { cer($_->{text}, $text) <= 0.1 }
           @{ $r->{json}{segments} // [] };
is scalar(@segs), 1, 'the text is read once' or diag explain $r->{json};
ok @segs && abs($segs[0]{start} - $t) < 0.0015,
    'it starts on its frame, a skipped kind ('
    . (@segs ? $segs[0]{start} : '-') . " s, frame at $t s)";

done_testing();
