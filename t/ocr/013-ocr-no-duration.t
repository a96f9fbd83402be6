# Streams that do not declare how long they are are read to their end:
# a live WebM as a browser's MediaRecorder writes it (VP8 or VP9 with
# Opus, no Duration, no Cues), a live Matroska, an MXF written to a pipe
# (open header, no footer), an FLV without duration metadata (and one
# whose last tag cannot be found from the end), an MPEG-TS and a
# fragmented MP4 without mehd or mfra.  The text appears only in the
# last seconds, so a duration that falls short loses it.
#
# And the limits hold against such streams: one that goes on past
# --max-duration is too_long having read only up to the limit (the
# message says at which byte of how many), one whose time stamps jump
# ten hours ahead is too_long at the jump, and --max-frames applies to
# the measured duration.

use strict;
use warnings;
use lib 't/lib';

use Test::More;
use VideoOCR::Media qw(run_worker worker_bin tmpdir make_video cer
    ffprobe_json);

-x worker_bin() or BAIL_OUT('no worker binary at ' . worker_bin());

my $dir = tmpdir();

sub slurp { open my $f, '<:raw', $_[0] or die "$_[0]: $!"; local $/; <$f> }
sub spew  { open my $f, '>:raw', $_[0] or die "$_[0]: $!"; print {$f} $_[1]; close $f; $_[0] }

my $text = 'Recorded live';
my @spans = ({ start => 4, end => 6, text => $text });
my @vp8 = ('-deadline', 'realtime', '-cpu-used', '8', '-b:v', '400k');

my @cases = (
    # name, file, make_video arguments, how the duration is known
    [ 'live WebM, VP8 + Opus', 'vp8.webm',
      { codec => 'libvpx', audio => 1, audio_codec => 'libopus',
        extra => [@vp8, '-live', '1'] }, 'packets' ],
    [ 'live WebM, VP9 + Opus', 'vp9.webm',
      { codec => 'libvpx-vp9', audio => 1, audio_codec => 'libopus',
        extra => ['-live', '1'] }, 'packets' ],
    [ 'live Matroska, H.264 + AAC', 'live.mkv',
      { audio => 1, extra => ['-live', '1'] }, 'packets' ],
    [ 'fragmented MP4 without mehd or mfra', 'frag.mp4',
      { extra => ['-g', '25', '-movflags',
                  'frag_keyframe+empty_moov+default_base_moof+skip_trailer'] },
      'container' ],
    [ 'MPEG-TS', 'a.ts', { audio => 1 }, 'container' ],
);

for my $c (@cases) {
    my ($what, $file, $args, $from) = @$c;
    make_video(path => "$dir/$file", duration => 6, spans => \@spans,
        dir => $dir, %$args);
}

# written to a pipe: FLV without duration or file size, MXF with an open
# header and no footer
for my $p (['flv', 'piped.flv', 'libx264'], ['mxf', 'piped.mxf', 'mpeg2video']) {
    my ($format, $file, $codec) = @$p;
    my @cmd = ('ffmpeg', '-nostdin', '-loglevel', 'error', '-y', '-f',
        'lavfi', '-i', 'color=c=0x203050:s=640x360:r=25:d=6', '-vf',
        'drawtext=fontfile=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf'
        . ":text='$text':fontsize=28:fontcolor=white:borderw=2"
        . ":x=(w-tw)/2:y=h-th-24:enable='between(t,4,6)'",
        '-c:v', $codec, '-f', $format, '-');
    my $pid = fork // die "fork: $!";
    if ($pid == 0) {
        open STDOUT, '>', "$dir/$file" or die "$dir/$file: $!";
        exec @cmd or die "exec: $!";
    }
    waitpid $pid, 0;
    $? == 0 or die "ffmpeg $format: $?";
}
push @cases,
    [ 'FLV written to a pipe', 'piped.flv', {}, 'container' ],
    [ 'MXF written to a pipe (open header, no footer)', 'piped.mxf', {},
      'packets' ];

# an FLV whose end is not a tag (bytes after it): no duration from the
# tail either
spew("$dir/tail.flv", slurp("$dir/piped.flv") . ("\0" x 100));
push @cases, [ 'FLV with bytes after its last tag', 'tail.flv', {}, 'packets' ];

for my $c (@cases) {
    my ($what, $file, undef, $from) = @$c;
    my $path = "$dir/$file";

    if ($from eq 'packets') {
        my $fmt = ffprobe_json($path)->{format};
        ok !defined $fmt->{duration} || $fmt->{duration} == 0,
            "$what: ffprobe finds no duration"
            or diag explain $fmt;
    }
    if ($file eq 'frag.mp4') {
        my $b = slurp($path);
        ok index($b, 'mehd') < 0 && index($b, 'mfra') < 0,
            "$what: no mehd, no mfra";
        cmp_ok scalar(() = $b =~ /moof/g), '>=', 5, "$what: fragmented";
    }

    my $r = run_worker('ocr', $path, '--format', 'json', '--stats');
    is $r->{rc}, 0, "$what: read" or diag $r->{stderr};
    my $in = $r->{json}{inspection} // {};
    is $in->{duration_from}, $from, "$what: duration from the $from";
    cmp_ok abs(($in->{duration_ms} // 0) - 6000), '<=', 120,
        "$what: duration $in->{duration_ms} ms";
    is $r->{json}{frames_planned}, 6, "$what: six frames planned";
    my @segs = @{ $r->{json}{segments} // [] };
    is scalar(@segs), 1, "$what: one segment";
    cmp_ok cer($segs[0]{text}, $text), '<=', 0.05,
        "$what: the text of the last seconds ($segs[0]{text})";
    cmp_ok abs(($segs[0]{start} // 0) - 4), '<=', 0.5,
        "$what: from 4 s ($segs[0]{start})";
}

# the limits

# 40 s of live WebM against a 10 s limit: the pass stops near a quarter
make_video(path => "$dir/long.webm", duration => 40, size => '320x180',
    rate => 10, codec => 'libvpx', dir => $dir,
    spans => [ { start => 0, end => 40, text => 'Going on and on' } ],
    extra => [@vp8, '-live', '1']);

my $size = -s "$dir/long.webm";
my $r = run_worker('ocr', "$dir/long.webm", '--max-duration', '10');
is $r->{rc}, 65, 'live stream past the limit: rejected';
like $r->{stderr}, qr/^video-ocr-worker: rejected: too_long: .*the webm file does not say how long the video is, and its video runs past the 10 s limit \(seen at byte (\d+) of $size\)/,
    'live stream past the limit: too_long, says where';
my ($at) = $r->{stderr} =~ /seen at byte (\d+)/;
cmp_ok $at, '<', $size / 2, "the pass stopped at byte $at of $size";

# time stamps that jump ten hours ahead after two seconds
make_video(path => "$dir/jump.webm", duration => 4, size => '160x90',
    codec => 'libvpx', dir => $dir, spans => [],
    extra => [@vp8, '-vf', "setpts='if(gte(N,50),PTS+36000/TB,PTS)'",
              '-live', '1']);
$r = run_worker('ocr', "$dir/jump.webm");
is $r->{rc}, 65, 'a jump of ten hours: rejected';
like $r->{stderr}, qr/rejected: too_long: .*runs past the 10800 s limit/,
    'a jump of ten hours: too_long under the default limit';

# --max-frames against the measured duration
$r = run_worker('ocr', "$dir/vp8.webm", '--fps', '10', '--max-frames', '20');
is $r->{rc}, 65, '--max-frames: rejected';
like $r->{stderr}, qr/rejected: too_many_frames: .*makes 60 frames, more than the 20 frame limit/,
    '--max-frames: too_many_frames from the measured duration';

# a live stream just under the limit is read
$r = run_worker('ocr', "$dir/long.webm", '--max-duration', '40', '--fps',
    '0.25', '--format', 'json');
is $r->{rc}, 0, 'live stream within the limit: read' or diag $r->{stderr};
cmp_ok abs(($r->{json}{inspection}{duration_ms} // 0) - 40000), '<=', 200,
    'live stream within the limit: 40 s measured';

done_testing;
