package OCRReal;

# The real-like set (issue 36): videos that look like the footage people
# upload rather than like test patterns.  Photographs from Debian's
# wallpaper and artwork packages (mate-backgrounds; python3-skimage's
# sample pictures: a face, a grey film still, a cluttered garage, a
# rocket's lights at night), panned, zoomed, held still and cut one
# after the other; text drawn by libass from ASS scripts in the styles
# real subtitles use (outlines, soft shadows, glows, boxes and bars,
# karaoke, fades, moves, wipes, credits, tickers), in English, Spanish,
# Russian and Chinese, sized in pixels as real files have them.
# bench/ocr/lib/OCRRealShapes.pm draws the shapes, OCRRealMake.pm makes
# the pictures and the file, OCRRealText.pm has the lines.
#
#   videos()                 the set: 30 videos of 18-37 s, two or more
#                            per family, each in the "tune" or the
#                            "holdout" half (the holdout half is for
#                            reporting only, never for tuning)
#   quick()                  one clip of a few seconds per shape, over
#                            mate-backgrounds only (t/ocr/024-ocr-real.t
#                            reads them in make test)
#   make_real($v, $dir, %o)  makes $dir/NAME.EXT and returns its truth;
#                            o: seed (another making: the same texts at
#                            the same times over pictures moved otherwise),
#                            dry (the truth's lines only, no video)
#   plan($v)                 (ASS events, truth lines, duration): what
#                            goes on screen, without the video
#
# Every line of the truth is whole inside the frame while its truth
# says it is on screen (a subtitle wider than the frame wraps onto two
# rows and is still one line): bench/ocr/fits.pl draws each line alone
# with libass and checks it.
#
# The families, after issue 36's list of what real footage does:
#
#   light      light text barely brighter than what is behind it: white
#              without an outline over grey film, skin, sand; cream with
#              a glow; 12 px spaced capitals; thin outlines over line
#              art; 36 px Chinese glowing for its first 0.25 s, vertical
#   size       19 px subtitles in a vertical frame with a letterboxed
#              16:9 picture; an 18 px line in a bottom bar and a 14 px
#              line at 720p; a picture that is a 1120x90 strip
#   colour     orange lettering on black; black capitals on an orange
#              bar beside white text; white text in a thin black bar
#              across a mostly white frame
#   busy       a cluttered room, cartoon fills with line art, lights
#              touching the letters, a photo inset, a 60 px title over
#              a 14 px subtitle at 480p
#   short      2-5 Chinese characters, two-glyph lines, words of 1-4
#              letters
#   timing     one word at a time for 0.12-0.5 s, a karaoke sweep, a
#              0.23 s caption replaced in place, a lower third wiping in
#              over 0.8 s, a 0.5 s one-character line
#   counter    "Caption N of the long lecture", N up every 2.5-4.5 s,
#              over a still and then a moving picture
#   bilingual  Chinese over English
#   notext     no text at all
#   credits    credits rolling up
#   marquee    a ticker sliding sideways
#
# The truth (NAME.json): the fields of the other sets (name, file, kind
# "real", size, width, height, codec, rate, duration, spans, screens,
# distinct_screens, recipe) and family, half, lang (what to give
# --lang), pix_fmt, rotate, audio, scenes ([{start, end, photo, package,
# move, look}]) and lines ([{start, end, text, lang, shape, key}]: what
# OCRBench::score_lines scores; OCRRealShapes.pm says what each field
# means).

use strict;
use warnings;
use utf8;

use Exporter 'import';
use VideoOCR::Media qw(seeds);
use OCRRealShapes qw(fill);
use OCRRealMake qw(check_fonts);
use OCRBench qw(screens rng);

our @EXPORT_OK = qw(videos quick make_real plan);

# scenes: [photo, seconds, move, shape, look, more]
sub _v {
    my ($name, $family, $half, $size, $lang, $codec, %o) = @_;
    my @sc = map {
        my ($photo, $dur, $move, $shape, $look, $more) = @$_;
        { photo => $photo, dur => $dur, move => $move, shape => $shape,
          look => $look, %{ $more // {} } }
    } @{ delete $o{scenes} };
    my $ext = delete $o{ext} // { libx264 => 'mp4', libx265 => 'mp4',
                                  'libvpx-vp9' => 'webm' }->{$codec};
    return { name => $name, family => $family, half => $half, size => $size,
             lang => $lang, codec => $codec, ext => $ext, rate => 25,
             audio => 1, scenes => \@sc, %o };
}

my $LB = { pic => [720, 405] };         # a 16:9 picture in a 720x1280 frame
my $BOX = { pic => [1120, 90] };

my @VIDEOS = (
    _v('real-light-720p-h264', 'light', 'tune', '1280x720', 'eng', 'libx264',
       scenes => [['camera', 7, 'pan-r', 'light-plain'],
                  ['astronaut', 6, 'zoom-in', 'light-cream'],
                  ['dune', 9, 'drift', 'spaced-caps'],
                  ['blinds', 7, 'pan-l', 'outline-lineart', 'lineart']]),
    _v('real-light-720p-high10', 'light', 'holdout', '1280x720', 'spa',
       'libx264', pix_fmt => 'yuv420p10le', rate => 24,
       scenes => [['coffee', 6, 'pan-l', 'light-plain', 'lift'],
                  ['cat', 6, 'zoom-out', 'light-cream'],
                  ['storm', 9, 'pan-r', 'spaced-caps', 'lift'],
                  ['wings', 6, 'drift', 'outline-lineart', 'lineart']]),
    _v('real-light-cjk-720x1280-hevc', 'light', 'tune', '720x1280', 'chi_sim',
       'libx265', ext => 'mov', rotate => 1, rate => 30,
       scenes => [['astronaut', 6, 'zoom-in', 'cjk-glow'],
                  ['garden', 6, 'pan-u', 'cjk-glow'],
                  ['camera', 6, 'drift', 'cjk-glow']]),
    _v('real-light-cjk-720x1280-h264', 'light', 'holdout', '720x1280',
       'chi_sim', 'libx264', rate => 30,
       scenes => [['cat', 6, 'zoom-out', 'cjk-glow'],
                  ['coffee', 6, 'pan-d', 'cjk-glow'],
                  ['ladybird', 6, 'drift', 'cjk-glow', 'lift']]),

    _v('real-size-vertical-hevc', 'size', 'tune', '720x1280', 'chi_sim',
       'libx265', ext => 'mov', rotate => 1, rate => 30,
       scenes => [['meadow', 7, 'pan-r', 'letterbox-19px', undef, $LB],
                  ['storm', 7, 'zoom-in', 'letterbox-19px', undef, $LB],
                  ['garage', 7, 'drift', 'letterbox-19px', undef, $LB]]),
    _v('real-size-vertical-h264', 'size', 'holdout', '720x1280', 'eng',
       'libx264', rate => 30,
       scenes => [['raindrops', 7, 'pan-l', 'letterbox-19px', undef, $LB],
                  ['dune', 7, 'zoom-out', 'letterbox-19px', undef, $LB],
                  ['cat', 7, 'drift', 'letterbox-19px', undef, $LB]]),
    _v('real-size-small-720p-vp9', 'size', 'tune', '1280x720', 'eng',
       'libvpx-vp9',
       scenes => [['storm', 8, 'pan-r', 'line-14px'],
                  ['ladybird', 8, 'drift', 'bottom-bar-18px'],
                  ['aqua', 8, 'zoom-in', 'line-14px']]),
    _v('real-size-small-720p-h264', 'size', 'holdout', '1280x720', 'rus',
       'libx264',
       scenes => [['camera', 8, 'pan-l', 'bottom-bar-18px'],
                  ['yellow', 8, 'drift', 'line-14px'],
                  ['wings', 8, 'zoom-out', 'bottom-bar-18px']]),
    _v('real-size-strip-h264', 'size', 'tune', '1120x90', 'eng', 'libx264',
       audio => 0,
       scenes => [['dune', 8, 'pan-r', 'strip'],
                  ['meadow', 8, 'drift', 'strip'],
                  ['storm', 8, 'pan-l', 'strip']]),
    _v('real-size-strip-vp9', 'size', 'holdout', '1120x90', 'rus',
       'libvpx-vp9',
       scenes => [['garden', 8, 'pan-l', 'strip'],
                  ['aqua', 8, 'drift', 'strip'],
                  ['coffee', 8, 'pan-r', 'strip']]),

    _v('real-colour-720p-h264', 'colour', 'tune', '1280x720', 'eng', 'libx264',
       scenes => [[undef, 9, 'still', 'orange-on-black'],
                  ['meadow', 8, 'pan-r', 'black-on-orange-bar'],
                  ['wood', 8, 'drift', 'white-in-black-bar', 'white']]),
    _v('real-colour-1080p-vp9', 'colour', 'holdout', '1920x1080', 'spa',
       'libvpx-vp9',
       scenes => [[undef, 9, 'still', 'orange-on-black'],
                  ['garden', 8, 'zoom-in', 'black-on-orange-bar'],
                  ['aqua', 8, 'pan-l', 'white-in-black-bar', 'white']]),

    _v('real-busy-480p-h264', 'busy', 'tune', '854x480', 'eng', 'libx264',
       scenes => [['garage', 8, 'drift', 'busy-clutter'],
                  ['ladybird', 6, 'pan-r', 'busy-cartoon', 'cartoon'],
                  ['rocket', 6, 'zoom-in', 'busy-lights', undef,
                   { opt => { bord => 0.5 } }],
                  ['storm', 6, 'pan-l', 'busy-inset', undef,
                   { inset => { photo => 'coffee', w => 300, x => 480,
                                y => 250 } }],
                  ['dune', 7, 'drift', 'title-over-small', 'dim']]),
    _v('real-busy-480p-vp9', 'busy', 'holdout', '854x480', 'spa',
       'libvpx-vp9',
       scenes => [['raindrops', 8, 'zoom-out', 'busy-clutter'],
                  ['coffee', 6, 'drift', 'busy-cartoon', 'cartoon'],
                  ['stars', 6, 'pan-r', 'busy-lights', undef,
                   { opt => { bord => 0 } }],
                  ['meadow', 6, 'drift', 'busy-inset', undef,
                   { inset => { photo => 'astronaut', w => 260, x => 80,
                                y => 230 } }],
                  ['storm', 7, 'zoom-in', 'title-over-small']]),

    _v('real-short-cjk-720p-h264', 'short', 'tune', '1280x720', 'chi_sim',
       'libx264',
       scenes => [['camera', 6, 'pan-r', 'short-cjk'],
                  ['meadow', 6, 'drift', 'two-glyph-cjk'],
                  ['aqua', 6, 'zoom-in', 'short-cjk']]),
    _v('real-short-cjk-720x1280-hevc', 'short', 'holdout', '720x1280',
       'chi_sim', 'libx265', rate => 30,
       scenes => [['cat', 6, 'zoom-out', 'two-glyph-cjk'],
                  ['dune', 6, 'pan-u', 'short-cjk'],
                  ['storm', 6, 'drift', 'two-glyph-cjk']]),
    _v('real-short-words-720p-vp9', 'short', 'tune', '1280x720', 'eng',
       'libvpx-vp9',
       scenes => [['raindrops', 6, 'pan-l', 'short-words'],
                  ['storm', 6, 'drift', 'short-words'],
                  ['astronaut', 6, 'zoom-in', 'short-words']]),
    _v('real-short-words-1080p-h264', 'short', 'holdout', '1920x1080', 'spa',
       'libx264',
       scenes => [['garden', 6, 'pan-r', 'short-words'],
                  ['coffee', 6, 'drift', 'short-words'],
                  ['wings', 6, 'zoom-out', 'short-words']]),

    _v('real-timing-720x1280-h264', 'timing', 'tune', '720x1280', 'eng',
       'libx264', rate => 30,
       scenes => [['astronaut', 7, 'zoom-in', 'karaoke-words'],
                  ['dune', 9, 'pan-u', 'flash-then-stay'],
                  ['storm', 8, 'drift', 'wipe-lower-third'],
                  ['camera', 5, 'drift', 'one-char'],
                  ['meadow', 8, 'pan-d', 'karaoke-sweep']]),
    _v('real-timing-720p-hevc', 'timing', 'holdout', '1280x720', 'spa',
       'libx265', pix_fmt => 'yuv420p10le',
       scenes => [['cat', 7, 'zoom-in', 'karaoke-words'],
                  ['garden', 9, 'pan-r', 'flash-then-stay'],
                  ['aqua', 8, 'drift', 'wipe-lower-third'],
                  ['coffee', 5, 'pan-l', 'one-char'],
                  ['wings', 8, 'drift', 'karaoke-sweep']]),

    _v('real-counter-720p-h264', 'counter', 'tune', '1280x720', 'eng',
       'libx264',
       scenes => [['camera', 14, 'still', 'counter', undef, { grain => 0 }],
                  ['storm', 14, 'pan-r', 'counter']]),
    _v('real-counter-720p-vp9', 'counter', 'holdout', '1280x720', 'rus',
       'libvpx-vp9',
       scenes => [['wood', 14, 'still', 'counter', undef,
                   { grain => 0, opt => { format => 'Вопрос %d из 150' } }],
                  ['meadow', 14, 'drift', 'counter', undef,
                   { opt => { format => 'Вопрос %d из 150' } }]]),

    _v('real-bilingual-720p-h264', 'bilingual', 'tune', '1280x720',
       'chi_sim+eng', 'libx264',
       scenes => [['camera', 8, 'pan-r', 'bilingual'],
                  ['ladybird', 8, 'drift', 'bilingual'],
                  ['dune', 8, 'zoom-in', 'bilingual']]),
    _v('real-bilingual-1080p-hevc', 'bilingual', 'holdout', '1920x1080',
       'chi_sim+eng', 'libx265', ext => 'mkv',
       scenes => [['cat', 8, 'zoom-out', 'bilingual'],
                  ['storm', 8, 'pan-l', 'bilingual'],
                  ['aqua', 8, 'drift', 'bilingual']]),

    _v('real-notext-720p-h264', 'notext', 'tune', '1280x720', 'eng', 'libx264',
       scenes => [['garage', 6, 'drift', 'none'],
                  ['meadow', 6, 'pan-r', 'none'],
                  ['rocket', 6, 'zoom-in', 'none']]),
    _v('real-notext-720x1280-vp9', 'notext', 'holdout', '720x1280', 'eng',
       'libvpx-vp9',
       scenes => [['cat', 6, 'zoom-in', 'none'], ['storm', 6, 'pan-d', 'none'],
                  ['flower', 6, 'drift', 'none']]),

    _v('real-credits-720p-high422', 'credits', 'tune', '1280x720', 'eng',
       'libx264', pix_fmt => 'yuv422p',
       scenes => [['ladybird', 12, 'drift', 'credits',
                   'cartoon,eq=brightness=-0.25', { until_end => 1 }],
                  [undef, 10, 'still', 'none']]),
    _v('real-credits-1080p-vp9', 'credits', 'holdout', '1920x1080', 'spa',
       'libvpx-vp9',
       scenes => [['coffee', 12, 'pan-r', 'credits',
                   'cartoon,eq=brightness=-0.25', { until_end => 1 }],
                  [undef, 10, 'still', 'none']]),

    _v('real-marquee-720p-h264', 'marquee', 'tune', '1280x720', 'eng',
       'libx264',
       scenes => [['storm', 14, 'pan-r', 'marquee', undef, { until_end => 1 }],
                  ['garage', 10, 'drift', 'none']]),
    _v('real-marquee-480p-vp9', 'marquee', 'holdout', '854x480', 'rus',
       'libvpx-vp9',
       scenes => [['meadow', 14, 'pan-l', 'marquee', undef, { until_end => 1 }],
                  ['cat', 10, 'zoom-in', 'none']]),
);

# One clip per shape over mate-backgrounds (make test installs it; the
# python3-skimage pictures are the benchmark's only), two for line-14px
# (over a dark and a light picture): its name (the shape's, or the
# second clip's), the frame, the language, the scenes
sub _q {
    my ($shape, $size, $lang, @scenes) = @_;
    my $q = _v("quick-$shape", $shape, 'tune', $size, $lang, 'libx264',
               audio => 0, scenes => \@scenes);
    return $q;
}
my @QUICK = (
    _q('light-plain', '1280x720', 'eng', ['dune', 4, 'pan-r', 'light-plain']),
    _q('light-cream', '1280x720', 'eng', ['meadow', 4, 'drift', 'light-cream']),
    _q('spaced-caps', '1280x720', 'eng', ['aqua', 5, 'pan-l', 'spaced-caps']),
    _q('outline-lineart', '1280x720', 'eng',
       ['blinds', 4, 'pan-r', 'outline-lineart', 'lineart']),
    _q('cjk-glow', '720x1280', 'chi_sim', ['garden', 4, 'zoom-in', 'cjk-glow']),
    _q('letterbox-19px', '720x1280', 'eng',
       ['meadow', 4, 'pan-r', 'letterbox-19px', undef, $LB]),
    _q('bottom-bar-18px', '1280x720', 'eng',
       ['ladybird', 4, 'drift', 'bottom-bar-18px']),
    _q('line-14px', '1280x720', 'eng', ['storm', 4, 'pan-r', 'line-14px']),
    _q('line-14px-light', '1280x720', 'eng',
       ['aqua', 4, 'zoom-in', 'line-14px']),
    _q('strip', '1120x90', 'eng', ['dune', 4, 'pan-r', 'strip']),
    _q('orange-on-black', '1280x720', 'eng',
       [undef, 4, 'still', 'orange-on-black']),
    _q('black-on-orange-bar', '1280x720', 'eng',
       ['meadow', 4, 'pan-r', 'black-on-orange-bar']),
    _q('white-in-black-bar', '1280x720', 'eng',
       ['wood', 4, 'drift', 'white-in-black-bar', 'white']),
    _q('busy-clutter', '854x480', 'eng',
       ['raindrops', 4, 'drift', 'busy-clutter']),
    _q('busy-cartoon', '854x480', 'eng',
       ['ladybird', 4, 'pan-r', 'busy-cartoon', 'cartoon']),
    _q('busy-lights', '854x480', 'eng',
       ['wings', 4, 'zoom-in', 'busy-lights', undef,
        { opt => { bord => 0.5 } }]),
    _q('busy-inset', '854x480', 'eng',
       ['storm', 4, 'pan-l', 'busy-inset', undef,
        { inset => { photo => 'meadow', w => 300, x => 480, y => 250 } }]),
    _q('title-over-small', '854x480', 'eng',
       ['dune', 4, 'drift', 'title-over-small', 'dim']),
    _q('short-cjk', '1280x720', 'chi_sim', ['aqua', 4, 'zoom-in', 'short-cjk']),
    _q('two-glyph-cjk', '1280x720', 'chi_sim',
       ['meadow', 4, 'drift', 'two-glyph-cjk']),
    _q('short-words', '1280x720', 'eng',
       ['raindrops', 4, 'pan-l', 'short-words']),
    _q('karaoke-words', '720x1280', 'eng',
       ['garden', 4, 'zoom-in', 'karaoke-words']),
    _q('karaoke-sweep', '1280x720', 'eng',
       ['storm', 4, 'drift', 'karaoke-sweep']),
    _q('flash-then-stay', '1280x720', 'eng',
       ['dune', 4, 'pan-r', 'flash-then-stay']),
    _q('wipe-lower-third', '1280x720', 'eng',
       ['meadow', 4, 'drift', 'wipe-lower-third']),
    _q('one-char', '1280x720', 'eng', ['aqua', 4, 'pan-l', 'one-char']),
    _q('counter', '1280x720', 'eng',
       ['storm', 6, 'still', 'counter', undef, { grain => 0 }],
       ['meadow', 6, 'pan-r', 'counter']),
    _q('counter-light', '1280x720', 'eng',
       ['wood', 8, 'still', 'counter', undef, { grain => 0 }]),
    _q('bilingual', '1280x720', 'chi_sim+eng',
       ['ladybird', 4, 'drift', 'bilingual']),
    _q('notext', '1280x720', 'eng', ['raindrops', 3, 'drift', 'none'],
       ['flower', 3, 'zoom-in', 'none']),
    _q('credits', '1280x720', 'eng',
       ['yellow', 5, 'drift', 'credits', 'dim', { opt => { preroll => 1 } }]),
    _q('marquee', '1280x720', 'eng', ['storm', 5, 'pan-r', 'marquee']),
);

sub videos { return @VIDEOS }
sub quick  { return @QUICK }

# What goes on screen: (the ASS events, the truth's lines, the duration)
sub plan {
    my ($v) = @_;
    my ($w, $h) = split /x/, $v->{size};
    my $dur = 0;
    $dur += $_->{dur} for @{ $v->{scenes} };
    # the texts and times: from the name alone, the same in every making
    my %s = seeds($v->{name});
    my $c = { rng => rng($s{seed}), W => $w, H => $h, half => $v->{half},
              lang => $v->{lang} =~ s/\+.*//r, events => [], lines => [] };
    my $t = 0;
    for my $sc (@{ $v->{scenes} }) {
        my ($pw, $ph) = @{ $sc->{pic} // [$w, $h] };
        $c->{pic} = [int(($w - $pw) / 2), int(($h - $ph) / 2), $pw, $ph];
        $c->{t0} = $t;
        $c->{t1} = $sc->{until_end} ? $dur : $t + $sc->{dur};
        $c->{move} = $sc->{move} // 'still';
        fill($c, $sc->{shape}, %{ $sc->{opt} // {} });
        $t += $sc->{dur};
    }
    # what moves on past the end: whole on screen before it, or not a line
    my @lines = grep { $_->{start} < $dur - 0.3 } @{ $c->{lines} };
    $_->{end} = $dur for grep { $_->{end} > $dur } @lines;
    check_fonts(map { /\\fn([^\\}]+)/g } map { $_->{text} } @{ $c->{events} });
    return ($c->{events}, \@lines, $dur);
}

sub make_real {
    my ($v, $dir, %o) = @_;
    my ($w, $h) = split /x/, $v->{size};
    my ($events, $lines, $dur) = plan($v);
    my %p = seeds($v->{name}, $o{seed} // 0);
    my $scenes = $o{dry} ? [] : OCRRealMake::make_video($v, $events,
        $dir, rng => rng($p{seed}), noise_seed => $p{noise_seed});

    my $n = 0;
    my @spans = map { { %$_, line => $n++ } } @$lines;
    my $screens = screens(\@spans, $dur, 1 / $v->{rate});
    return { name => $v->{name}, file => "$v->{name}.$v->{ext}",
        kind => 'real', family => $v->{family}, half => $v->{half},
        lang => $v->{lang}, size => $v->{size}, width => $w + 0,
        height => $h + 0, codec => $v->{codec},
        pix_fmt => $v->{pix_fmt} // 'yuv420p', rate => $v->{rate},
        rotate => $v->{rotate} ? 90 : 0, audio => $v->{audio} ? 1 : 0,
        duration => $dur, scenes => $scenes, lines => $lines,
        spans => [map { { start => $_->{start}, end => $_->{end},
                          text => $_->{text}, line => $_->{line} } } @spans],
        screens => $screens, distinct_screens => scalar @$screens };
}

1;
