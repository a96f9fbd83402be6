# A changed character is a changed screen (issue 36, shape 7): a bottom
# bar that reads "Caption N of the long lecture", N going up every 2 to
# 3 s, white on a black bar, comes out as one segment per value, each
# with its own number and starting when it does: over a picture that
# moves everywhere (testsrc2's bars and squares, 720p, as the issue's
# report had it), over a photograph panned (720p), and over a still
# picture (480p).  Read as a new user would (`video-ocr-worker ocr`, 1
# sample a second).
#
# Over the panned photograph one look's text layer finds a few glyphs
# in the grass that the other's does not, so the two layers do not
# agree as a whole, and the glyph test of vw_text_same looked nowhere:
# the whole-line rules let one digit's change pass (55 to 56 joined, as
# 5 of 120 values were in the issue's 10-minute video).  It now also
# looks over the lines both layers agree on, as over steady layers when
# the other lines lie on rows of their own.  At 480p the glyphs are 11
# pixels tall, smaller than the test's least square of blocks: 98 to 99
# and 105 to 106 are joined (TODO: squares of cells told them, but split
# big outlined captions over noise, t/ocr/022).
#
# About 30 s of CPU (making the three videos, 74 s of video, is half).

use strict;
use warnings;
use lib 't/lib';

use Test::More;
use VideoOCR::Media qw(run_worker worker_bin tmpdir font_path cer);

-x worker_bin() or BAIL_OUT('no worker binary at ' . worker_bin());

my $dir = tmpdir();

# The values and their times: each shown for 2.0 to 3.0 s, in a fixed
# order of lengths, from $from on, until $dur.
sub counter_values {
    my ($from, $dur) = @_;
    my @len = (2.4, 3.0, 2.0, 2.7, 2.2, 2.9, 2.5);
    my ($t, $i, @v) = (0, 0);
    while ($t < $dur - 0.5) {
        my $end = $t + $len[ $i % @len ];
        $end = $dur if $end > $dur - 1.5;
        push @v, { n => $from + $i, start => $t, end => $end };
        $t = $end;
        $i++;
    }
    return @v;
}

# The video: the background (a lavfi source), a black bar across its
# bottom 7 %, the line centred in it, 0.6 of the bar's height.
sub make_counter {
    my (%a) = @_;
    my ($w, $h) = split /x/, $a{size};
    my $bar = int($h * 0.07);
    my $font = font_path('DejaVuSans');
    my @f = ("drawbox=x=0:y=ih-$bar:w=iw:h=$bar:color=black:t=fill");
    for my $v (@{ $a{values} }) {
        my $tf = "$dir/$a{name}-$v->{n}.txt";
        open my $fh, '>', $tf or die "$tf: $!";
        print {$fh} "Caption $v->{n} of the long lecture";
        close $fh;
        # shown for frames with start <= t < end: the next value's first
        # frame is its own
        push @f, "drawtext=fontfile=$font:textfile=$tf:expansion=none"
            . ':fontsize=' . int($bar * 0.6) . ':fontcolor=white'
            . ":x=(w-tw)/2:y=h-$bar+($bar-th)/2"
            . ":enable='gte(t,$v->{start})*lt(t,$v->{end})'";
    }
    push @f, 'format=yuv420p';
    my $path = "$dir/$a{name}.mp4";
    # a photograph is panned: cut from it at 25 fps, the window moving
    unshift @f, @{ $a{pan} // [] };
    my @in = $a{photo} ? ('-loop', '1', '-framerate', '25', '-t', $a{dur},
                          '-i', $a{photo})
                       : ('-f', 'lavfi', '-i', $a{source});
    my @cmd = ('ffmpeg', '-nostdin', '-hide_banner', '-loglevel', 'error',
        '-y', @in, '-vf', join(',', @f),
        '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '20',
        '-threads', '1', $path);
    system(@cmd) == 0 or die "ffmpeg failed ($?): @cmd";
    return $path;
}

my @cases = (
    # the issue's: a test pattern that moves everywhere, 720p
    { name => 'testsrc2', size => '1280x720', dur => 20, from => 23,
      source => 'testsrc2=s=1280x1152:r=25:d=20,crop=1280:720:0:432' },
    # a photograph panned (mate-backgrounds' meadow: its grass makes
    # glyph-sized specks the layer finds in some looks only)
    { name => 'meadow', size => '1280x720', dur => 30, from => 46,
      photo => '/usr/share/backgrounds/mate/nature/GreenMeadow.jpg',
      pan => ['scale=2400:-2', "crop=1600:900:x='20*t':y='10*t'",
              'scale=1280:720', 'setsar=1'] },
    # a still picture
    { name => 'still', size => '854x480', dur => 24, from => 97,
      source => 'smptebars=s=854x480:r=25:d=24' },
);

for my $c (@cases) {
    my @v = counter_values($c->{from}, $c->{dur});
    my $file = make_counter(%$c, values => \@v);
    my $r = run_worker('ocr', $file, '--format', 'json');
    is $r->{rc}, 0, "$c->{name}: read" or diag $r->{stderr};
    my @segs = @{ $r->{json} ? $r->{json}{segments} : [] };

    # the value read right, the line around it nearly so (a stray mark
    # at an end of the line is Tesseract's, not this test's business)
    my @got = map {
        my $x = $_->{text} // '';
        my ($n) = $x =~ /Caption\s*(\d+)\s*of the long lecture/;
        defined $n && cer($x, "Caption $n of the long lecture") <= 0.1
            ? $n + 0 : $x
    } @segs;
    # at 480p the glyphs are 11 pixels tall, under the glyph test's
    # least square of blocks (24 px): a digit that changed in part is
    # drowned in it (98 to 99: 57 levels on its worst block)
    local $TODO = $c->{name} eq 'still'
        ? '11-pixel glyphs: 98/99 and 105/106 joined' : undef;
    is_deeply \@got, [map { $_->{n} } @v],
        "$c->{name}: one segment per value ("
        . scalar(@v) . '), each with its own number'
        or diag explain [map { "$_->{start}-$_->{end} $_->{text}" } @segs];

    # each value's segment starts on its first frame (refine: within a
    # frame; 0.1 s allows for the rounding of times).  Over the meadow,
    # with glyphs of 6 px the grass makes a line of specks above the
    # counter's in some looks; the line both layers share was judged
    # at the line test's higher bar, which 55 to 56 stays under, and 56
    # was placed on the next look (25.36 s for 25.12): a layer that
    # differs only by lines on rows of their own is judged as a steady
    # one (vw_text_same.c)
    my @late = grep { $_ < @segs
                      && abs($segs[$_]{start} - $v[$_]{start}) > 0.1 }
               0 .. $#v;
    is_deeply [map { "$v[$_]{n} at $segs[$_]{start}, not $v[$_]{start}" }
               @late], [], "$c->{name}: each segment starts when its "
        . 'value does';
}

done_testing;
