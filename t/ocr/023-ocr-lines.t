# Every line of a caption: when a screen's first reading has fewer
# lines than its text layer, the screen is read again from its glyphs
# alone, and the two readings are combined line by line
# (vw_ocr_result_merge): each line from the better of the two, the
# lines only one has added where they are.
#
#   1. A 4-line caption over the noisy test pattern (VP9): where the
#      pattern is as light as the white glyphs, the first reading drops
#      "CHANGED" (unsure), the glyphs' reading keeps it but drops
#      "THIS IS HOW"; before they were combined, the reading with more
#      lines won or the first stayed, and a line was lost without a
#      warning.
#   2. The same caption from 4.8 s: both readings read "CHANGED"
#      under the confidence a line needs, and drop it; read alike at
#      one place by both, it is kept (the vote).
#   3. A line that one reading has whole ("THE|HARBOUR", 88) and the
#      other without a word ("HARBOUR", 96) stays whole: a line with a
#      word more is the better reading when it is sure.
#   4. Two stacked lines of 18 px subtitles at 720p: the text layer
#      chains tall letters only (a glyph is 1/60 of the picture tall),
#      and finds the first line alone; the region read takes in a line
#      more above and below such small glyphs, so the second is read.
#   5. Three outlined Han characters over grass, read alone as a line:
#      a Han character counts as two letters against the layer's glyphs.
#   6. One karaoke word beside an astronaut's badge and patches, shown
#      for one look: read alone with confidence, it is published though
#      the layer took the suit for many more lines than were read.
#   7. Two Han characters of which the page layout reads one: the line
#      is read again alone, and its whole reading takes the place of
#      the part.
#   8. The karaoke word before "road", which its line read alone leaves
#      unsure: the glyphs' reading has it, and is weighed against the
#      glyphs of the lines it lies on, not the whole suit's.
#   9. Bilingual subtitles, Chinese over English: the Chinese line read
#      alone is unsure, and kept, as a line of the caption whose English
#      line the page reading has sure.

use strict;
use warnings;
use lib 't/lib', 'bench/ocr/lib';

use Test::More;
use VideoOCR::Media qw(run_worker worker_bin tmpdir make_video cer);
use OCRTraits ();
use OCRBench qw(score);

-x worker_bin() or BAIL_OUT('no worker binary at ' . worker_bin());

my $dir = tmpdir();

# 1, 2. the caption as the second benchmark set makes them (bench/ocr/
# lib/OCRHard.pm, "caps", as in t/ocr/022): centred lines 7% of the
# height, every other one yellow, thick outlines, on from 4 s and from
# 4.8 s (where the pattern's light bar lies under "CHANGED")

my ($w, $h) = (1280, 720);
my $size = int($h * 0.07 + 0.5);
my $step = int($size * 1.35);
my @lines = ('THIS IS HOW', 'A SMALL TOWN', 'CHANGED', 'FOREVER');
my $y0 = int(($h - $step * @lines) / 2);

for my $case (['caption', 4.0], ['caption voted', 4.8]) {
    my ($name, $start) = @$case;
    my @spans = map { {
        start => $start, end => $start + 3, text => $lines[$_],
        font => 'LiberationSerifBold', size => $size, style => 'outline',
        color => $_ % 2 ? '0xffe040' : 'white', border => 5,
        y => $y0 + $_ * $step } } 0 .. $#lines;
    my $video = make_video(path => "$dir/changed-$start.webm",
        size => "${w}x$h", duration => $start + 4, background => 'busynoise',
        codec => 'libvpx-vp9', bitrate => '4M', seed => 0, dir => $dir,
        spans => \@spans);

    my $r = run_worker('ocr', $video);
    is $r->{rc}, 0, "$name: exit 0" or diag $r->{stderr};
    my @segs = @{ $r->{json}{segments} // [] };
    is scalar(@segs), 1, "$name: one segment"
        or diag explain [map { $_->{text} } @segs];
    my @read = split /\n/, $segs[0]{text} // '';
    is scalar(@read), scalar(@lines), "$name: every line read"
        or diag explain \@read;
    cmp_ok cer($read[2] // '', 'CHANGED'), '<=', 0.3,
        "$name: \"CHANGED\", the line the first reading dropped";
    cmp_ok cer($segs[0]{text} // '', join("\n", @lines)), '<=', 0.2,
        "$name: read right (CER at most 0.2)";
}

# 3. the busy captions of the traits corpus, the making where "THE
# HARBOUR" is two lines side by side in one reading (OCR_TRAITS_SEED 4)

my ($tr) = grep { $_->{name} eq 'caps-3-4-lines-busy' }
           OCRTraits::traits();
my $t = OCRTraits::make_trait($tr, $dir, duration => 8, seed => 4);
my $r = run_worker('ocr', "$dir/$t->{file}", '--format', 'json');
is $r->{rc}, 0, 'busy captions: exit 0' or diag $r->{stderr};
my $sc = score($r->{json}{segments} // [], $t);
is $sc->{found}, $sc->{screens}, 'busy captions: every screen found';
cmp_ok $sc->{cer_sum} / ($sc->{screens} || 1), '<=', 0.10,
    'busy captions: mean CER at most 0.10';
my @all = map { split /\n/, $_->{text} } @{ $r->{json}{segments} // [] };
ok scalar(grep { cer($_, 'THE HARBOUR') <= 0.1 } @all),
    'busy captions: "THE HARBOUR" is one line, whole' or diag explain \@all;

# 4. two stacked lines of small glyphs (the last subtitle of the hard
# set's hard-small-720p-h264, over a plain picture)

my @small = ('Three tickets, two adults.', 'Leave the engine running.');
my $small = make_video(path => "$dir/small.mp4", size => '1280x720',
    duration => 3, background => 'solid', dir => $dir,
    spans => [{ start => 0.5, end => 2.5, text => join("\n", @small),
                font => 'DejaVuSerifCondensed', size => 18,
                style => 'outline', color => 'white', y => 'bottom' }]);
$r = run_worker('ocr', $small, '--format', 'json');
is $r->{rc}, 0, 'small lines: exit 0' or diag $r->{stderr};
my @segs = @{ $r->{json}{segments} // [] };
is scalar(@segs), 1, 'small lines: one segment'
    or diag explain [map { $_->{text} } @segs];
cmp_ok cer($segs[0]{text} // '', join("\n", @small)), '<=', 0.1,
    'small lines: both lines read' or diag explain [map { $_->{text} } @segs];

# 5. three outlined Han characters over grass (t/data/media/README): the
# text layer sees 16 glyphs in their line (strokes, radicals and the
# breaks in their outline), the page layout reads nothing, and the line
# read alone reads "你是谁" at 91.  Three letters against 16 glyphs were
# "a few letters", no text: the screen came out empty and flagged
# text_unreadable.  A Han character now counts as two letters
# (VW_BLOCK_LETTERS).

$r = run_worker('ocr', 't/data/media/short-cjk-grass.mp4', '--lang',
                'chi_sim', '--format', 'json');
is $r->{rc}, 0, 'Han over grass: exit 0' or diag $r->{stderr};
@segs = @{ $r->{json}{segments} // [] };
ok scalar(@segs) == 1 && cer($segs[0]{text}, "\x{4f60}\x{662f}\x{8c01}") <= 0.2
    && $segs[0]{start} <= 0.5 && $segs[0]{end} >= 1.4,
    'Han over grass: the line read, from 0.25 to 1.58 s'
    or diag explain [$r->{json}{segments}, $r->{json}{warnings}];
ok !grep({ $_->{code} eq 'text_unreadable' } @{ $r->{json}{warnings} // [] }),
    'Han over grass: no screen flagged unreadable'
    or diag explain $r->{json}{warnings};

# 6. karaoke words, one at a time, over an astronaut's portrait
# (t/data/media/README): "road", 2.61-2.94 s, has a look of its own at
# 2.60 s, whose layer takes the badge, the patches and the folds of the
# suit for 7 lines of 43 glyphs.  The page reading says nothing sure;
# the word's line read alone reads "road" at 97.  Weighed against the 43
# glyphs, its letters made an unsure reading of one look, fewer lines
# than half the layer's: a stray one (vw_read_stray), dropped.  Weighed
# against the glyphs of the lines it lies on, as every reading's letters
# are, it says something.

$r = run_worker('ocr', 't/data/media/karaoke-badge.mp4', '--format', 'json');
is $r->{rc}, 0, 'karaoke word: exit 0' or diag $r->{stderr};
@segs = grep { $_->{text} =~ /\broad\b/ } @{ $r->{json}{segments} // [] };
ok scalar(@segs) == 1 && $segs[0]{start} >= 2.4 && $segs[0]{start} <= 2.7,
    'karaoke word: "road" read, from its own look'
    or diag explain $r->{json}{segments};

# 8. "before", 0.94-1.17 s in the same clip: the page reading of the
# screen's mean says nothing, its line read alone reads it under the
# confidence a line needs; the glyphs' reading has "., before" at 75,
# 6 letters: against the layer's 29 glyphs (the badge, the patches and
# the zipper taken for lines) too few to say something, against the 17
# of the line it lies on enough (vw_read_glyphs).

@segs = grep { $_->{text} =~ /\bbefore\b/ } @{ $r->{json}{segments} // [] };
ok scalar(@segs) == 1 && $segs[0]{start} >= 0.85 && $segs[0]{start} <= 1.1,
    'karaoke word: "before" read, from the glyphs\' reading'
    or diag explain $r->{json}{segments};

# 7. two-character lines over a drifting meadow (t/data/media/README):
# "真的", 3.74-4.81 s, is read by the page layout as "的" alone (at 96),
# a reading that lies on its line and so left it unread alone.  The
# letters of a reading that span less than two thirds of a line's width
# are a part of it (vw_read_line_short): read alone, it reads "真的"
# (94), which takes the part's place.

$r = run_worker('ocr', 't/data/media/short-cjk-two.mp4', '--lang', 'chi_sim',
                '--format', 'json');
is $r->{rc}, 0, 'Han in part: exit 0' or diag $r->{stderr};
@segs = grep { $_->{start} >= 3.4 } @{ $r->{json}{segments} // [] };
ok scalar(@segs) == 1 && $segs[0]{text} eq "\x{771f}\x{7684}"
    && $segs[0]{start} <= 4.0 && $segs[0]{end} >= 4.6,
    'Han in part: both characters read, from 3.74 to 4.81 s'
    or diag explain $r->{json}{segments};

# 9. Chinese over English, 0.33-3.53 s (t/data/media/README): the page
# reading has "Turn off the light" (97) and not the Chinese line above
# it, which read alone is "把灯关掉" at 66, under the confidence a line
# needs; it fits its glyphs and lies right over the sure English line,
# their middles together: a line of that caption (vw_read_line_beside).

$r = run_worker('ocr', 't/data/media/bilingual-stacked.mp4', '--lang',
                'chi_sim+eng', '--format', 'json');
is $r->{rc}, 0, 'bilingual: exit 0' or diag $r->{stderr};
@segs = @{ $r->{json}{segments} // [] };
ok scalar(@segs) == 1
    && $segs[0]{text} eq "\x{628a}\x{706f}\x{5173}\x{6389}\nTurn off the light"
    && $segs[0]{start} <= 0.5 && $segs[0]{end} >= 3.4,
    'bilingual: the unsure Chinese line kept over the sure English one'
    or diag explain $r->{json}{segments};

done_testing();
