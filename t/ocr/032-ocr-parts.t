# A long video read in parts is read as if it were read whole (issue 39,
# "No seam"): `ocr --debug-parts T` cuts the video at its keyframes into
# parts about T seconds long and reads each as a child of the pool will
# (the last first; each part before it reads past its cut until a unit's
# rows are those of the part after it), then joins the rows at those
# seams.  The result must be the whole run's, byte for byte, in JSON
# with every frame's row and in WebVTT: captions that cross a cut come
# out as one cue with the times one run gives them.
#
# Over a picture that moves everywhere (so no two parts begin on the
# same screen) in H.264 with B frames (MP4, with and without refine) and
# VP9 (WebM, whose cues give the keyframes); an MPEG-TS file has no
# index to cut at, and is read in one part.  And the part before a cut
# reads only a few samples past it, even when the run before the cut
# ran orientation detection and the part after it has no reason to
# (it is forgotten every 10 s of video, in every run).
#
# About 37 s of CPU.

use strict;
use warnings;
use lib 't/lib';

use Test::More;
use JSON::PP;
use VideoOCR::Media qw(run_worker worker_bin tmpdir make_video);

-x worker_bin() or BAIL_OUT('no worker binary at ' . worker_bin());

my $dir = tmpdir();

# Captions of 1.3 to 3.9 s with gaps of 0 to 0.7 s, so that some cross
# every cut, whatever the keyframes; the texts differ in one word.
my @words = qw(alpha bravo charlie delta echo foxtrot golf hotel india
               juliet kilo lima mike november oscar papa quebec romeo);
sub spans {
    my ($dur) = @_;
    my @len = (2.6, 1.3, 3.9, 2.2, 3.1, 1.8);
    my @gap = (0.4, 0, 0.7, 0.2, 0, 0.5, 0.3);
    my ($t, $i, @s) = (0.5, 0);
    while ($t + 1.3 < $dur - 0.5) {
        my $end = $t + $len[ $i % @len ];
        $end = $dur - 0.5 if $end > $dur - 0.5;
        push @s, { start => $t, end => $end, size => 30,
                   text => "Part test caption $words[$i % @words] $i" };
        $t = $end + $gap[ $i % @gap ];
        $i++;
    }
    return \@s;
}

my @videos = (
    { name => 'h264-mp4', size => '1280x720', dur => 32, codec => 'libx264',
      ext => 'mp4', parts => 7, extra => ['-g', '50', '-bf', '3'],
      cut => 1, refine => [1, 0] },
    { name => 'vp9-webm', size => '854x480', dur => 30, codec => 'libvpx-vp9',
      ext => 'webm', parts => 6, extra => ['-g', '50'], cut => 1,
      refine => [1] },
    { name => 'h264-ts', size => '640x360', dur => 16, codec => 'libx264',
      ext => 'ts', parts => 5, extra => ['-g', '50'], cut => 0,
      refine => [1] },
);

for my $v (@videos) {
    my $path = make_video(path => "$dir/$v->{name}.$v->{ext}",
        size => $v->{size}, duration => $v->{dur}, background => 'busy',
        codec => $v->{codec}, spans => spans($v->{dur}),
        extra => $v->{extra}, dir => $dir);

    for my $refine (@{ $v->{refine} }) {
        my @opt = $refine ? () : ('--no-refine');
        my $what = "$v->{name}" . ($refine ? '' : ', --no-refine');

        my $whole = run_worker('ocr', $path, '--format', 'json', '--frames',
                               @opt);
        is($whole->{rc}, 0, "$what: read whole") or diag $whole->{stderr};

        my $parts = run_worker('ocr', $path, '--format', 'json', '--frames',
                               '--debug-parts', $v->{parts}, '--stats', @opt);
        is($parts->{rc}, 0, "$what: read in parts") or diag $parts->{stderr};

        # the parts --stats printed: how many, and where each took over
        my ($line) = grep { /^\{"parts":/ } split /\n/, $parts->{stderr};
        my $info = eval { decode_json($line // '') } // { parts => [] };
        my $n = @{ $info->{parts} };

        if ($v->{cut}) {
            cmp_ok($n, '>=', 3, "$what: cut into $n parts at keyframes");
            my @seams = grep { $_->{next} >= 0 } @{ $info->{parts} };
            is(scalar @seams, $n - 1, "$what: every part before the last "
               . 'found its seam');
            seams_near($what, $info);

        } else {
            is($n, 1, "$what: no index to cut at, one part");
        }

        ok($parts->{stdout} eq $whole->{stdout},
           "$what: JSON with every frame as the whole run's, byte for byte")
            or diag_first_difference($whole->{stdout}, $parts->{stdout});

        if ($v->{cut} && $refine) {
            my $wv = run_worker('ocr', $path, '--format', 'vtt', @opt);
            my $pv = run_worker('ocr', $path, '--format', 'vtt',
                                '--debug-parts', $v->{parts}, @opt);
            ok($wv->{rc} == 0 && $pv->{stdout} eq $wv->{stdout},
               "$what: WebVTT as the whole run's");
        }

        # not vacuous: the run read the captions
        my $segs = $whole->{json}{segments} // [];
        my $spans = spans($v->{dur});
        cmp_ok(scalar @$segs, '>=', int(0.8 * @$spans),
               "$what: the whole run found most of the "
               . scalar(@$spans) . ' captions');
    }
}

# A screen that reads as nothing at the start (bars taken for glyphs)
# makes the whole run try orientation detection; nothing after the cut
# at 36 s gives the part after it a reason to.  Detection remembered for
# the whole video, every row after the cut differed in VO_FRAME_OSD and
# the part before read to the end.
{
    my @s = ({ start => 1, end => 4, size => 36,
               text => '||||| ||||| ||||| |||||' });
    for (my ($t, $i) = (6, 0); $t + 4 < 70; $t += 5, $i++) {
        push @s, { start => $t, end => $t + 4, size => 30,
                   text => "Caption $i $words[$i % @words] line" };
    }
    my $path = make_video(path => "$dir/osd-early.mp4", size => '640x360',
        duration => 70, background => 'solid', spans => \@s,
        extra => ['-g', '50'], dir => $dir);
    my $what = 'detection early, cut later';

    my $whole = run_worker('ocr', $path, '--format', 'json', '--frames',
                           '--stats');
    is($whole->{rc}, 0, "$what: read whole") or diag $whole->{stderr};
    my ($st) = grep { /^\{"runs":/ } split /\n/, $whole->{stderr};
    is(eval { decode_json($st)->{runs}[0]{orient_tries} }, 1,
       "$what: the whole run tried orientation detection once");

    my $parts = run_worker('ocr', $path, '--format', 'json', '--frames',
                           '--debug-parts', 35, '--stats');
    is($parts->{rc}, 0, "$what: read in parts") or diag $parts->{stderr};
    my ($line) = grep { /^\{"parts":/ } split /\n/, $parts->{stderr};
    my $info = eval { decode_json($line // '') } // { parts => [] };
    is(scalar @{ $info->{parts} }, 2, "$what: two parts");
    seams_near($what, $info);
    ok($parts->{stdout} eq $whole->{stdout},
       "$what: JSON with every frame as the whole run's, byte for byte")
        or diag_first_difference($whole->{stdout}, $parts->{stdout});
}

# every part before the last took over within 10 samples of its cut
# (a screen that crosses the cut is the run's before it: captions of
# 4 s at most here)
sub seams_near {
    my ($what, $info) = @_;
    my @p = @{ $info->{parts} };
    my @far = grep { $_->{next} < 0 || $_->{upto} > $_->{to} + 10 }
              @p[0 .. $#p - 1];
    is(scalar @far, 0, "$what: every seam within 10 samples of its cut")
        or diag explain $info;
}

sub diag_first_difference {
    my ($a, $b) = @_;
    my $i = 0;
    $i++ while $i < length($a) && $i < length($b)
               && substr($a, $i, 1) eq substr($b, $i, 1);
    diag 'first difference at byte ' . $i . ":\n  whole: "
        . substr($a, $i > 80 ? $i - 80 : 0, 200) . "\n  parts: "
        . substr($b, $i > 80 ? $i - 80 : 0, 200);
}

done_testing();
