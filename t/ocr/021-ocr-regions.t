# Text in two places at once: a title at the top that stays while the
# subtitles under it change is one screen for the pipeline (read once a
# change) and two parts for the merger, so it comes out as separate,
# overlapping segments, each with its own box and times (the title's
# segment spans the whole video, each subtitle's starts and ends on its
# own frames), in every format; a resumed run gives the same; a
# two-line caption stays one segment.

use strict;
use warnings;
use lib 't/lib';

use Test::More;
use VideoOCR::Media qw(run_worker worker_bin tmpdir make_video cer);

-x worker_bin() or BAIL_OUT('no worker binary at ' . worker_bin());

my $dir = tmpdir();
my $fps = 25;
my $frame = 1 / $fps;

my @subs = (
    { start => 0.5, end => 2.5, text => 'Hello there my friend' },
    { start => 3.0, end => 5.5, text => 'Good bye for now' },
);
my $title = 'CHAPTER ONE';

# drawtext's between(t, a, b) shows the text on the frames whose time
# is in [a, b]: it is on screen from the first of them to the frame after
# the last
sub first_frame { my $t = shift; my $k = int($t * $fps - 1e-9) + 1;
                  $k-- if abs(($k - 1) / $fps - $t) < 1e-9; $k / $fps }
sub after_last  { my $t = shift; (int($t * $fps + 1e-9) + 1) / $fps }

my %video;
for my $bg ('solid', 'moving') {
    $video{$bg} = make_video(path => "$dir/two-$bg.mp4", duration => 6,
        size => '1280x720', rate => $fps, background => $bg, seed => 1,
        dir => $dir,
        extra => ['-g', '25'],
        spans => [
            { start => 0, end => 6, text => $title, y => 'top', size => 40 },
            map { { %$_ } } @subs,
        ]);
}

my %segs;
for my $bg (sort keys %video) {
    my $r = run_worker('ocr', $video{$bg}, '--format', 'json');
    is $r->{rc}, 0, "$bg: exit 0" or diag $r->{stderr};
    my @s = @{ $r->{json}{segments} // [] };
    $segs{$bg} = \@s;
    is scalar(@s), 3, "$bg: three segments, not one concatenated text"
        or diag explain \@s;

    my ($t) = grep { cer($_->{text}, $title) <= 0.1 } @s;
    ok $t, "$bg: the title is a segment of its own" or next;
    cmp_ok $t->{start}, '<=', $frame, "$bg: the title from the start";
    # (the last segment ends half a look step, 1/12 s, before the end)
    cmp_ok $t->{end}, '>=', 6 - 1 / 12 - 0.001, "$bg: to the end";
    is $t->{lines}, 1, "$bg: the title is one line";

    for my $i (0 .. $#subs) {
        my ($s) = grep { cer($_->{text}, $subs[$i]{text}) <= 0.05 } @s;
        ok $s, "$bg: subtitle $i is a segment ($subs[$i]{text})" or next;
        my $want_start = first_frame($subs[$i]{start});
        my $want_end = after_last($subs[$i]{end});
        cmp_ok abs($s->{start} - $want_start), '<=', $frame + 0.001,
            "$bg: subtitle $i starts on its frame ($s->{start}, $want_start)";
        cmp_ok abs($s->{end} - $want_end), '<=', $frame + 0.001,
            "$bg: subtitle $i ends on its frame ($s->{end}, $want_end)";
        ok $s->{start} >= $t->{start} && $s->{end} <= $t->{end},
            "$bg: subtitle $i overlaps the title's segment";
        is $s->{lines}, 1, "$bg: subtitle $i is one line";

        # where each was: the title 24 px from the top, the subtitles 24
        # px from the bottom (drawtext's text box; the ink a pixel or
        # three inside it), both centred
        my ($x, $y, $w, $h) = @{ $s->{box} // [0, 0, 0, 0] };
        cmp_ok abs($x + $w / 2 - 640), '<=', 4,
            "$bg: subtitle $i box centred (" . ($x + $w / 2) . ')';
        cmp_ok $y + $h, '<=', 720 - 24 + 1, "$bg: subtitle $i box bottom";
        cmp_ok $y + $h, '>', 720 - 24 - 8,
            "$bg: subtitle $i box at the bottom";
        cmp_ok $h, '<=', 32, "$bg: subtitle $i box one line tall ($h)";
    }

    # the title's box (on the moving background, the title-only screens'
    # layer may take in a few pixels of bright background: a looser
    # bound there)
    my $slack = $bg eq 'solid' ? 4 : 8;
    my ($x, $y, $w, $h) = @{ $t->{box} // [0, 0, 0, 0] };
    cmp_ok abs($x + $w / 2 - 640), '<=', $slack,
        "$bg: title box centred (" . ($x + $w / 2) . ')';
    cmp_ok abs($y - 24), '<=', $slack, "$bg: title box top ($y)";
    cmp_ok $h, '<=', 40 + $slack, "$bg: title box one line tall ($h)";

    my @starts = map { $_->{start} } @s;
    is_deeply \@starts, [sort { $a <=> $b } @starts], "$bg: in order of start";
}

# every format has the three, overlapping

my $file = $video{solid};
my %out;
for my $f (qw(vtt srt ass txt)) {
    my $r = run_worker('ocr', $file, '--format', $f);
    is $r->{rc}, 0, "$f: exit 0" or diag $r->{stderr};
    $out{$f} = $r->{stdout};
}
my $time = qr/\d\d:\d\d:\d\d\.\d{3}/;
my @cues = $out{vtt} =~ /^$time --> $time (\S+).*\n(.+)$/mg;
is scalar(@cues) / 2, 3, 'vtt: three cues' or diag $out{vtt};
my %line = @cues[map { 2 * $_ + 1, 2 * $_ } 0 .. @cues / 2 - 1];
like $line{$title} // '', qr/^line:[0-9.]+%$/,
    'vtt: the title placed by its top';
my ($top) = ($line{$title} // '') =~ /([0-9.]+)/;
cmp_ok $top // 100, '<', 10, 'vtt: near the top of the picture';
is scalar(grep { /^line:9[0-9.]+%,end$/ } values %line), 2,
    'vtt: the subtitles placed by their bottom, at the bottom'
    or diag explain \%line;
my @srt = $out{srt} =~ /^(\d+)\n\d\d:\d\d:\d\d,\d{3} --> /mg;
is_deeply \@srt, [1, 2, 3], 'srt: three cues';
my @dialogue = $out{ass} =~ /^Dialogue: /mg;
is scalar(@dialogue), 3, 'ass: three dialogue lines';
my @an = $out{ass} =~ /\{\\an(\d)/g;
ok((grep { $_ == 8 } @an) && (grep { $_ == 2 } @an),
   'ass: the title aligned at the top, the subtitles at the bottom (\an8, \an2)')
    or diag $out{ass};
is scalar(split /\n/, $out{txt}), 3, 'txt: three lines';

# the frames say where each part of their text is

my $clean = run_worker('ocr', $file, '--frames');
my @two = grep { $_->{parts} } @{ $clean->{json}{frames} // [] };
ok scalar(@two) >= 2, 'frames: the screens of two texts have parts';
for my $f (@two) {
    is scalar(@{ $f->{parts} }), 2, "frame $f->{index}: two parts";
    is join("\n", map { $_->{text} } @{ $f->{parts} }), $f->{text},
        "frame $f->{index}: its parts' texts make its text";
    cmp_ok $f->{parts}[0]{box}[1] + $f->{parts}[0]{box}[3], '<',
        $f->{parts}[1]{box}[1], "frame $f->{index}: the first part above";
}

# a resumed run: the same segments as an uninterrupted one

for my $at (2, 4) {
    my $r = run_worker('ocr', $file, '--frames', '--debug-resume-at', $at);
    is $r->{rc}, 0, "resumed at $at: exit 0" or diag $r->{stderr};
    is $r->{stdout}, $clean->{stdout},
        "resumed at $at: the same result as an uninterrupted run";
}

# a subtitle that joins a title between samples: a resumed run judges
# the looks after its first sample as an uninterrupted one does (which
# looks are seen whole starts again at every sample), with and without
# refine (a review found 3.083 s resumed for 3.250 s whole, --no-refine)
for my $st (2.3, 2.55, 3.1, 3.4) {
    my $f = make_video(path => "$dir/join.mp4", duration => 8,
        size => '1280x720', dir => $dir, extra => ['-g', '25'], spans => [
            { start => 0, end => 8, text => $title, y => 'top', size => 40 },
            { start => $st, end => 7, text => 'Hello there my friend' },
        ]);
    for my $mode ([], ['--no-refine']) {
        my $whole = run_worker('ocr', $f, '--frames', @$mode);
        my @diff = grep {
            run_worker('ocr', $f, '--frames', @$mode, '--debug-resume-at',
                       $_)->{stdout} ne $whole->{stdout}
        } 1 .. 5;
        is_deeply \@diff, [], "joins at $st s @$mode: resumed at 1 to 5"
            . ' samples, the same result';
    }
}

# the same text in two places, the top one gone first: each place is a
# segment of its own, and the one that goes on is the one still there
# (a merger matching by text alone carried the top segment on with the
# bottom's box, and ended the bottom's at 3 s)
{
    my $same = 'SAME WORDS HERE';
    my $f = make_video(path => "$dir/same.mp4", duration => 6,
        size => '1280x720', rate => $fps, dir => $dir, extra => ['-g', '25'],
        spans => [
            { start => 0.5, end => 2.9, text => $same, y => 'top', size => 40 },
            { start => 0.5, end => 5.5, text => $same },
        ]);
    my $r = run_worker('ocr', $f, '--format', 'json');
    is $r->{rc}, 0, 'same text twice: exit 0' or diag $r->{stderr};
    my @s = sort { $a->{box}[1] <=> $b->{box}[1] }
            grep { cer($_->{text}, $same) <= 0.1 } @{ $r->{json}{segments} // [] };
    is scalar(@s), 2, 'same text twice: two segments'
        or diag explain $r->{json}{segments};
    if (@s == 2) {
        my ($top, $bottom) = @s;
        cmp_ok $top->{box}[1] + $top->{box}[3], '<', 360,
            "the top one's box is at the top only ($top->{box}[1], h $top->{box}[3])";
        cmp_ok $bottom->{box}[1], '>', 360,
            "the bottom one's box at the bottom only ($bottom->{box}[1])";
        cmp_ok abs($top->{end} - after_last(2.9)), '<=', $frame + 0.001,
            "the top one ends when it goes ($top->{end})";
        cmp_ok abs($bottom->{end} - after_last(5.5)), '<=', $frame + 0.001,
            "the bottom one goes on to its end ($bottom->{end})";
    }
}

# a caption of two lines is one part; so are lines a line apart

my $two = make_video(path => "$dir/caption.mp4", duration => 3,
    size => '1280x720', dir => $dir, spans => [
        { start => 0.3, end => 2.7, text => "Two lines of one\ncaption here" },
    ]);
my $r = run_worker('ocr', $two, '--format', 'json');
is $r->{rc}, 0, 'caption: exit 0' or diag $r->{stderr};
my @c = @{ $r->{json}{segments} // [] };
is scalar(@c), 1, 'caption: one segment' or diag explain \@c;
is $c[0]{lines}, 2, 'caption: of two lines' if @c;

# a picture above 2560x1440 is read at half size (VW_FRAME_SHRINK_PIXELS):
# its boxes still come out in the picture's pixels, with a crop's offset
# added (the first crop is still above it); a crop of it small enough is
# read at full size, same boxes

my $big = make_video(path => "$dir/big.mp4", duration => 3,
    size => '2880x1620', dir => $dir, spans => [
        { start => 0, end => 3, text => $title, y => 'top', size => 80 },
        { start => 0.3, end => 2.7, text => 'Big picture words', size => 72 },
    ]);
for my $crop (undef, '200,120,2680,1500', '0,810,2880,810', '400,0,2080,1620') {
    my $name = defined $crop ? "big, crop $crop" : 'big';
    my $cy = defined $crop ? (split /,/, $crop)[1] : 0;
    my $r = run_worker('ocr', $big, '--format', 'json',
                       defined $crop ? ('--crop', $crop) : ());
    is $r->{rc}, 0, "$name: exit 0" or diag $r->{stderr};
    my @s = @{ $r->{json}{segments} // [] };
    my ($sub) = grep { cer($_->{text}, 'Big picture words') <= 0.05 } @s;
    ok $sub, "$name: the subtitle is read" or diag explain \@s;
    next unless $sub;
    my ($x, $y, $w, $h) = @{ $sub->{box} };
    cmp_ok abs($x + $w / 2 - 1440), '<=', 6,
        "$name: subtitle box centred in the picture (" . ($x + $w / 2) . ')';
    cmp_ok abs($y + $h - (1620 - 24)), '<=', 8,
        "$name: subtitle box bottom in the picture's pixels (" . ($y + $h) . ')';
    cmp_ok $h, '>=', 40, "$name: subtitle box its glyphs' height ($h)";
    cmp_ok $h, '<=', 72 + 8, "$name: and one line tall ($h)";
    next if defined $crop && $cy > 0;
    my ($t) = grep { cer($_->{text}, $title) <= 0.1 } @s;
    ok $t, "$name: the title is read" or next;
    cmp_ok abs($t->{box}[1] - 24), '<=', 8, "$name: title box top ($t->{box}[1])";
}

done_testing;
