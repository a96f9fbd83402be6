# Cue times to the frame (refine, on by default): a change of text is
# placed on the frame it began on, found among the frames decoded
# between two looks with the text-layer comparison, no OCR.  On videos
# at 24, 25, 29.97 and 60 fps (H.264 with B frames, VP9, variable frame
# rate), a text that appears, one that replaces it on a cut and its end
# are asserted to the frame: the times of the frames ffprobe lists;
# and so at --fps 0.2, 0.5, 2 and 5 as at 1.
# --no-refine gives times to the look, with the same OCR calls.  Fades:
# a text fading in starts within its fade, one fading out ends within
# its fade.

use strict;
use warnings;
use lib 't/lib';

use Test::More;
use VideoOCR::Media qw(run_worker worker_bin tmpdir font_path cer);

-x worker_bin() or BAIL_OUT('no worker binary at ' . worker_bin());

my $dir = tmpdir();
my $font = font_path('DejaVuSans');

# A on [0.55, 2.3), B from 2.3 (a cut) to 4.1, nothing after
my @texts = (['Hello there world', 0.55, 2.3],
             ['Second line of text', 2.3, 4.1]);

sub make {
    my (%a) = @_;
    my @dt = map {
        "drawtext=fontfile=$font:text='$_->[0]':fontsize=34:fontcolor=white:"
        . "borderw=3:x=(w-tw)/2:y=h-80:enable='gte(t,$_->[1])*lt(t,$_->[2])'"
    } @texts;
    my $vf = join ',', @dt, @{ $a{filters} // [] }, 'format=yuv420p';
    my @cmd = ('ffmpeg', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i',
        VideoOCR::Media::_background('moving', '640x360', $a{rate}, 5, 1),
        '-vf', $vf, @{ $a{codec} }, @{ $a{extra} // [] }, $a{path});
    system(@cmd) == 0 or die "ffmpeg failed: @cmd\n";
    return $a{path};
}

# the presentation times of the video's frames, in seconds
sub frame_times {
    my ($file) = @_;
    open my $fh, '-|', 'ffprobe', '-v', 'error', '-select_streams', 'v:0',
        '-show_entries', 'frame=pts_time', '-of', 'csv=p=0', $file
        or die "ffprobe: $!";
    my @t = map { /([\d.]+)/ ? $1 + 0 : () } <$fh>;
    close $fh;
    return \@t;
}

# the time of the first frame shown at or after t
sub first_at {
    my ($times, $t) = @_;
    for my $x (@$times) {
        return $x if $x >= $t - 1e-6;
    }
    return undef;
}

my $x264 = ['-c:v', 'libx264', '-preset', 'veryfast', '-bf', '3', '-g', '250'];
my @videos = (
    { name => '24fps-h264', rate => 24, codec => $x264 },
    { name => '25fps-h264', rate => 25, codec => $x264 },
    { name => '29.97fps-h264', rate => '30000/1001', codec => $x264 },
    { name => '60fps-h264', rate => 60, codec => $x264 },
    { name => '25fps-vp9', rate => 25, ext => 'webm',
      codec => ['-c:v', 'libvpx-vp9', '-b:v', '1M', '-deadline', 'realtime',
                '-cpu-used', '8'] },
    # 60 fps with every other frame dropped in the first two seconds:
    # 30 then 60 frames a second
    { name => 'vfr-h264', rate => 60, codec => $x264,
      filters => ["select='gte(t,2)+not(mod(n,2))'"],
      extra => ['-fps_mode', 'vfr'] },
);

for my $v (@videos) {
    my $file = make(%$v, path => "$dir/$v->{name}." . ($v->{ext} // 'mp4'));
    my $times = frame_times($file);
    my @want = (first_at($times, 0.55), first_at($times, 2.3),
                first_at($times, 4.1));

    my $r = run_worker("ocr", $file, "--fps", "1", "--stats", "--frames");
    is $r->{rc}, 0, "$v->{name}: exit 0" or diag $r->{stderr};
    my $segs = $r->{json}{segments};
    is scalar(@$segs), 2, "$v->{name}: two segments"
        or diag explain [$segs, $r->{stderr}, $r->{json}{frames}];
    next unless @$segs == 2;

    cmp_ok cer($segs->[0]{text}, $texts[0][0]), '<=', 0.05,
        "$v->{name}: first read ($segs->[0]{text})";
    cmp_ok cer($segs->[1]{text}, $texts[1][0]), '<=', 0.05,
        "$v->{name}: second read ($segs->[1]{text})";

    # the times are milliseconds rounded down: within 1 ms of the frame's
    my @got = ($segs->[0]{start}, $segs->[0]{end}, $segs->[1]{start},
               $segs->[1]{end});
    my @exp = ($want[0], $want[1], $want[1], $want[2]);
    my @what = ('first start', 'first end (the cut)', 'second start',
                'second end');
    for my $i (0 .. 3) {
        ok abs($got[$i] - $exp[$i]) < 0.0015,
            "$v->{name}: $what[$i] on its frame ($got[$i] s, frame at "
            . "$exp[$i] s)";
    }

    my ($refined) = $r->{stderr} =~ /"boundaries":(\d+)/;
    cmp_ok $refined // 0, '>=', 3, "$v->{name}: --stats counts the "
        . 'changes placed';

    # to the look: other times, the same OCR calls
    my $n = run_worker('ocr', $file, '--fps', '1', '--no-refine');
    is $n->{rc}, 0, "$v->{name}: --no-refine exit 0" or diag $n->{stderr};
    is $n->{json}{ocr_calls}, $r->{json}{ocr_calls},
        "$v->{name}: refining makes no OCR call";
    my $off = 0;
    for my $s (@{ $n->{json}{segments} }) {
        $off++ if !grep { abs($s->{start} - $_) < 0.0015 } @want;
    }
    ok $off > 0, "$v->{name}: --no-refine gives the looks' times";
}

# the exactness at other rates of reading (fps keeps its meaning: how
# often text is read); the 25 fps H.264 video with B frames
{
    my $file = "$dir/25fps-h264.mp4";
    my $times = frame_times($file);
    my @exp = (first_at($times, 0.55), first_at($times, 2.3),
               first_at($times, 2.3), first_at($times, 4.1));
    for my $fps (qw(0.2 0.5 2 5)) {
        my $r = run_worker('ocr', $file, '--fps', $fps);
        is $r->{rc}, 0, "fps $fps: exit 0" or diag $r->{stderr};
        my $segs = $r->{json}{segments} // [];
        is scalar(@$segs), 2, "fps $fps: two segments"
            or diag explain $segs;
        next unless @$segs == 2;
        my @got = ($segs->[0]{start}, $segs->[0]{end}, $segs->[1]{start},
                   $segs->[1]{end});
        my @off = grep { abs($got[$_] - $exp[$_]) >= 0.0015 } 0 .. 3;
        is_deeply \@off, [], "fps $fps: every boundary on its frame"
            or diag explain [\@got, \@exp];
    }
}

# a keyframe just after a change: decoding that seeks to it (a resumed
# job; an uninterrupted run when nothing needs the frames before it)
# must still search the frames before it.  x264 with B frames and
# without, a keyframe forced at 1.88 s and 1.60 s, the text from 1.80 s
# and 1.52 s; --debug-resume-at 2 resumes after two rows
for my $k (['bframes', ['-bf', '3'], 1.80, 1.88],
           ['no-bframes', ['-bf', '0'], 1.52, 1.60])
{
    my ($name, $bf, $from, $key) = @$k;
    @texts = (['Keyframe after it', $from, 3.4]);
    my $file = make(rate => 25, path => "$dir/key-$name.mp4",
        codec => ['-c:v', 'libx264', '-preset', 'veryfast', @$bf,
                  '-g', '250', '-force_key_frames', $key]);
    my $want = first_at(frame_times($file), $from);
    my $clean = run_worker('ocr', $file, '--fps', '1');
    my $resumed = run_worker('ocr', $file, '--fps', '1',
        '--debug-resume-at', 2);
    is $clean->{rc}, 0, "key-$name: exit 0" or diag $clean->{stderr};
    is $resumed->{rc}, 0, "key-$name: resumed, exit 0"
        or diag $resumed->{stderr};
    my ($c) = @{ $clean->{json}{segments} };
    my ($r) = @{ $resumed->{json}{segments} };
    ok $c && abs($c->{start} - $want) < 0.0015,
        "key-$name: starts on its frame (" . ($c ? $c->{start} : '-')
        . " s, frame at $want s)";
    ok $r && abs($r->{start} - $want) < 0.0015,
        "key-$name: resumed, the same frame (" . ($r ? $r->{start} : '-')
        . ' s)';
}

# fades: in over 1.0-1.4 s, out over 3.0-3.4 s
{
    @texts = (['Fading words here', 0, 5]);
    my $alpha = "if(lt(t,1),0,if(lt(t,1.4),(t-1)/0.4,"
              . "if(lt(t,3),1,if(lt(t,3.4),(3.4-t)/0.4,0))))";
    my $file = "$dir/fade.mp4";
    my $vf = "drawtext=fontfile=$font:text='Fading words here':fontsize=34:"
           . "fontcolor=white:borderw=3:x=(w-tw)/2:y=h-80:alpha='$alpha',"
           . 'format=yuv420p';
    system('ffmpeg', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i',
        VideoOCR::Media::_background('moving', '640x360', 25, 5, 1), '-vf', $vf,
        @$x264, $file) == 0 or die 'ffmpeg failed';
    my $r = run_worker('ocr', $file, '--fps', '1');
    is $r->{rc}, 0, 'fade: exit 0' or diag $r->{stderr};
    my @segs = grep { cer($_->{text}, 'Fading words here') <= 0.1 }
               @{ $r->{json}{segments} };
    is scalar(@segs), 1, 'fade: read once' or diag explain $r->{json};
    if (@segs) {
        ok $segs[0]{start} >= 1.0 && $segs[0]{start} <= 1.4,
            "fade: starts within the fade in ($segs[0]{start} s)";
        ok $segs[0]{end} >= 3.0 && $segs[0]{end} <= 3.44,
            "fade: ends within the fade out ($segs[0]{end} s)";
    }
}

done_testing;
