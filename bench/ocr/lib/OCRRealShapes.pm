package OCRRealShapes;

# The shapes of the real-like set (bench/ocr/lib/OCRReal.pm): for each,
# what goes on screen during a scene, as ASS events (drawn by libass,
# bench/ocr/lib/OCRRealMake.pm) and as truth lines.  A shape is the
# style, size, place and timing of the text; the picture under it is
# the scene's (OCRReal.pm chooses it for the shape: grey film under
# light text, line art under outlined text...).
#
#   fill($ctx, $shape, %opt)   adds the shape's events and lines for the
#                              scene from $ctx->{t0} to $ctx->{t1}
#   shapes()                   the names
#
# $ctx: rng, t0, t1, W, H (the frame), pic ([x, y, w, h]: the picture
# inside it, the frame unless letterboxed), half (tune or holdout: which
# half of each text pool, OCRRealText.pm), lang (the video's language:
# eng, spa, rus, chi_sim), move (the scene's), events and lines (what
# fill() appends to), and state the shapes keep from scene to scene
# (which entry of each pool comes next, the counter's value).
#
# A truth line: start, end (s: shown in the frames with start <= t <
# end, as libass shows an event; for moving text, the time it is whole
# on screen), text (one line as written; a subtitle wider than the
# frame wraps onto two rows, \q0, and is still one line), lang, shape,
# and key (the counter's value: a reading of the line without it is
# not the line).

use strict;
use warnings;
use utf8;

use Exporter 'import';
use OCRRealText qw(pool);
use OCRRealMake qw(colour);

our @EXPORT_OK = qw(fill shapes);

my %FONT = (eng => 'DejaVu Sans', spa => 'DejaVu Sans', rus => 'DejaVu Sans',
            chi_sim => 'WenQuanYi Zen Hei');

sub _r2 { sprintf('%.2f', $_[0]) + 0 }

sub _between {
    my ($c, $a, $b) = @_;
    return $a + ($b - $a) * $c->{rng}->();
}

# The next entry of a pool for this video (each video starts at an
# entry of its own and goes round)
sub _next {
    my ($c, $name) = @_;
    my $p = $c->{pools}{$name} //= do {
        my @e = pool($name, $c->{half});
        { e => \@e, i => int($c->{rng}->() * @e) };
    };
    return $p->{e}[ $p->{i}++ % @{ $p->{e} } ];
}

sub _event {
    my ($c, $start, $end, $text, %o) = @_;
    push @{ $c->{events} }, { start => _r2($start), end => _r2($end),
        text => $text, style => $o{style}, layer => $o{layer} };
}

sub _line {
    my ($c, $start, $end, $text, $shape, %o) = @_;
    push @{ $c->{lines} }, { start => _r2($start), end => _r2($end),
        text => $text, shape => $shape, lang => $o{lang} // $c->{lang},
        defined $o{key} ? (key => "$o{key}") : () };
}

sub _font { $FONT{ $_[0]{lang} } // 'DejaVu Sans' }

sub _bottom {
    my ($c, $frac) = @_;
    my ($x, $y, $w, $h) = @{ $c->{pic} };
    return (int($x + $w / 2), int($y + $h - $h * ($frac // 0.06)));
}

# Subtitles one after the other: the shapes that differ by their look
# only.  o: pool, size, font, tags (the look), pos ([x, y], bottom
# centre; the picture's bottom by default; an: another alignment), dur,
# gap ([min, max] s),
# fade, shape, two (the chance of a two-line subtitle)
sub _subs {
    my ($c, %o) = @_;
    my $t = $c->{t0} + _between($c, 0.15, 0.4);
    my ($x, $y) = @{ $o{pos} // [_bottom($c, $o{margin})] };
    my ($d0, $d1) = @{ $o{dur} // [1.8, 2.8] };
    my ($g0, $g1) = @{ $o{gap} // [0.25, 0.7] };
    my $font = $o{font} // _font($c);
    while (1) {
        my $len = _between($c, $d0, $d1);
        last if $t + $len > $c->{t1} - 0.1;
        my @text = $o{text} ? $o{text}->()
                            : _next($c, $o{pool} // $c->{lang});
        push @text, _next($c, $o{pool} // $c->{lang})
            if $o{two} && $c->{rng}->() < $o{two};
        my $tags = ref $o{tags} ? $o{tags}->() : $o{tags} // '';
        my $fade = $o{fade} ? '\fad(120,120)' : '';
        # (the first \an of an event is the one that counts; \q0: a
        # line wider than the frame wraps, as subtitles do, and stays
        # one line of the truth)
        _event($c, $t, $t + $len, "{\\an" . ($o{an} // 2) . "\\pos($x,$y)"
            . "\\q0\\fn$font\\fs$o{size}"
            . "$tags$fade}" . join('\N', @text));
        # the truth is the text without its tags (karaoke's \k)
        _line($c, $t, $t + $len, s/\{[^}]*\}//gr, $o{shape}) for @text;
        $t += $len + _between($c, $g0, $g1);
    }
}

my $WHITE = sub { my $c = shift; sub {
    # white of 235 to 255, no outline, at most a soft light shadow
    my $v = sprintf '%02x', 235 + int(20 * $c->{rng}->());
    my $shadow = $c->{rng}->() < 0.5
        ? '\shad1.5\4c' . colour('d8d8d8', 0.6) : '\shad0';
    "\\1c" . colour("$v$v$v") . "\\bord0$shadow\\blur0.6";
} };

my %SHAPES = (
    # 1. light text whose fill barely differs from what is behind it
    'light-plain' => sub {
        my ($c, %o) = @_;
        _subs($c, size => $o{size} // 38, tags => $WHITE->($c),
              shape => 'light-plain', fade => 1, two => 0.2, %o);
    },
    'light-cream' => sub {
        my ($c, %o) = @_;
        # cream (luma 200-215) with a glow of its own colour
        _subs($c, size => $o{size} // 36, shape => 'light-cream',
              tags => '\1c' . colour('e6d2a5') . '\3c' . colour('f0e0b8')
                      . '\bord1.5\blur3\shad0', fade => 1, %o);
    },
    'spaced-caps' => sub {
        my ($c, %o) = @_;
        # 12 px capitals (font size 18), 1 px strokes, spaced, no outline
        my ($x, $y, $w, $h) = @{ $c->{pic} };
        my $pool = { eng => 'caps', rus => 'rus_caps', spa => 'spa_caps' }
                   ->{ $c->{lang} } // 'caps';
        _subs($c, pool => $pool, size => 18, font => 'DejaVu Sans Light',
              an => 1, tags => '\1c' . colour('f4f4f4') . '\bord0\shad0\fsp3',
              pos => [int($x + 0.05 * $w), int($y + 0.9 * $h)],
              dur => [2.6, 4], gap => [0.4, 1], shape => 'spaced-caps',
              fade => 1, %o);
    },
    'outline-lineart' => sub {
        my ($c, %o) = @_;
        _subs($c, size => 38, tags => '\1c&HFFFFFF&\3c&H000000&\bord1\shad0',
              shape => 'outline-lineart', %o);
    },
    'cjk-glow' => sub {
        my ($c, %o) = @_;
        # 36 px, glowing for its first quarter second, then plain
        my ($x, $y, $w, $h) = @{ $c->{pic} };
        _subs($c, size => 36, pos => [int($x + $w / 2), int($y + 0.74 * $h)],
              tags => '\1c&HFFFFFF&\3c&HFFFFFF&\bord5\blur8\shad0'
                      . '\t(0,250,\bord0\blur0)', shape => 'cjk-glow', %o);
    },

    # 2. sizes in pixels in any frame
    'letterbox-19px' => sub {
        my ($c, %o) = @_;
        my ($x, $y, $w, $h) = @{ $c->{pic} };
        # inside the picture's bottom, or under it in the black
        my $below = $c->{rng}->() < 0.5;
        my $yy = $below ? $y + $h + 34 : $y + $h - 10;
        _subs($c, size => 19, pos => [int($x + $w / 2), int($yy)],
              tags => '\1c&HFFFFFF&\3c&H101010&\bord1\shad0.5',
              shape => 'letterbox-19px', %o);
    },
    'bottom-bar-18px' => sub {
        my ($c, %o) = @_;
        my ($W, $H) = @$c{qw(W H)};
        # a dark strip across the bottom, the line in it at the left
        _event($c, $c->{t0}, $c->{t1}, '{\an7\pos(0,' . ($H - 34) . ')\bord0'
            . '\shad0\1c&H000000&\1a&H50&\p1}m 0 0 l ' . "$W 0 $W 34 0 34"
            . '{\p0}', layer => 0);
        _subs($c, size => 18, pos => [24, $H - 8],
              an => 1, tags => '\1c' . colour('f0f0f0') . '\bord0\shad0',
              shape => 'bottom-bar-18px', %o);
    },
    'line-14px' => sub {
        my ($c, %o) = @_;
        _subs($c, size => 14, margin => 0.05,
              tags => '\1c&HFFFFFF&\3c&H000000&\bord1\shad0',
              shape => 'line-14px', %o);
    },
    'strip' => sub {
        my ($c, %o) = @_;
        _subs($c, size => 32, pos => [int($c->{W} / 2), $c->{H} - 28],
              tags => '\1c&HFFFFFF&\3c&H000000&\bord2\shad1',
              shape => 'strip', %o);
    },

    # 3. colours outside "bright on dark" and "dark on bright"
    'orange-on-black' => sub {
        my ($c, %o) = @_;
        my $font = $c->{lang} eq 'eng' ? 'Humor Sans' : 'Comic Neue';
        _subs($c, pool => "$c->{lang}_titles", size => 56, font => $font,
              pos => [int($c->{W} / 2), int($c->{H} * 0.56)],
              tags => '\1c' . colour('eb8c32') . '\bord0\shad0',
              dur => [2.5, 3.5], shape => 'orange-on-black', fade => 1, %o);
    },
    'black-on-orange-bar' => sub {
        my ($c, %o) = @_;
        my ($W, $H) = @$c{qw(W H)};
        my $bar = int($H * 0.78);
        my $bh = int($H * 0.075);
        _event($c, $c->{t0}, $c->{t1}, "{\\an7\\pos(0,$bar)\\bord0\\shad0"
            . '\1c' . colour('f09628')
            . "\\p1}m 0 0 l $W 0 $W $bh 0 ${bh}{\\p0}",
            layer => 0);
        my $fs = int($bh * 0.62);
        # black capitals on the bar and, above it, a white headline
        my $news = "$c->{lang}_news";
        my $t = $c->{t0} + 0.3;
        while ($t + 3 < $c->{t1}) {
            my $len = _between($c, 2.6, 3.6);
            my $cap = _next($c, "$c->{lang}_bars");
            my $head = _next($c, $news);
            _event($c, $t, $t + $len, "{\\an4\\pos(30," . int($bar + $bh / 2)
                . ")\\fnDejaVu Sans\\b1\\fs$fs\\1c&H000000&\\bord0\\shad0}"
                . $cap);
            _event($c, $t, $t + $len, "{\\an1\\pos(30," . ($bar - 12)
                . ")\\fnDejaVu Sans\\fs" . int($fs * 1.05) . '\1c&HFFFFFF&'
                . '\bord0\shad2\4c&H000000&\4a&H60&}' . $head);
            _line($c, $t, $t + $len, $cap, 'black-on-orange-bar');
            _line($c, $t, $t + $len, $head, 'white-beside-bar');
            $t += $len + _between($c, 0.2, 0.6);
        }
    },
    'white-in-black-bar' => sub {
        my ($c, %o) = @_;
        my ($W, $H) = @$c{qw(W H)};
        my $y = int($H * 0.8);
        my $bh = int($H * 40 / 720);
        _event($c, $c->{t0}, $c->{t1}, "{\\an7\\pos(0,$y)\\bord0\\shad0"
            . "\\1c&H000000&\\p1}m 0 0 l $W 0 $W $bh 0 ${bh}{\\p0}",
            layer => 0);
        _subs($c, size => int($bh * 0.68), pos => [int($W / 2), $y + $bh - 6],
              tags => '\1c&HFFFFFF&\bord0\shad0', shape => 'white-in-black-bar',
              %o);
    },

    # 4. busy pictures: the caption's look is ordinary, the picture is not
    (map { my $s = $_; ($s => sub {
        my ($c, %o) = @_;
        _subs($c, size => int($c->{H} * 0.058),
              tags => '\1c&HFFFFFF&\3c&H000000&\bord' . ($o{bord} // 1.5)
                      . '\shad0', shape => $s, two => 0.2, %o);
    }) } qw(busy-clutter busy-cartoon busy-lights busy-inset)),
    'title-over-small' => sub {
        my ($c, %o) = @_;
        my ($W, $H) = @$c{qw(W H)};
        my $t = $c->{t0} + 0.3;
        while ($t + 3 < $c->{t1}) {
            my $len = _between($c, 2.8, 3.8);
            my $title = _next($c, "$c->{lang}_titles");
            my $sub = _next($c, $c->{lang});
            _event($c, $t, $t + $len, '{\an2\pos(' . int($W / 2) . ','
                . int($H * 0.5) . ')\fnLiberation Serif\b1\fs60\1c&HFFFFFF&'
                . '\bord0\shad2\4c&H000000&\4a&H40&\fad(200,200)}' . $title);
            _event($c, $t, $t + $len, '{\an8\pos(' . int($W / 2) . ','
                . int($H * 0.5 + 10) . ')\fnDejaVu Sans\fs14\1c&HFFFFFF&'
                . '\3c&H000000&\bord1\shad0\fad(200,200)}' . $sub);
            _line($c, $t, $t + $len, $title, 'title-60px');
            _line($c, $t, $t + $len, $sub, 'small-under-title');
            $t += $len + _between($c, 0.4, 0.9);
        }
    },

    # 5. short lines
    'short-cjk' => sub {
        my ($c, %o) = @_;
        _subs($c, pool => 'cjk_short', size => 42, dur => [1.0, 1.6],
              tags => '\1c&HFFFFFF&\3c&H000000&\bord2\shad0',
              shape => 'short-cjk', %o);
    },
    'two-glyph-cjk' => sub {
        my ($c, %o) = @_;
        _subs($c, pool => 'cjk_two', size => 42, dur => [0.9, 1.5],
              tags => '\1c&HFFFFFF&\3c&H000000&\bord2\shad0',
              shape => 'two-glyph-cjk', %o);
    },
    'short-words' => sub {
        my ($c, %o) = @_;
        _subs($c, pool => "$c->{lang}_words", size => 44, dur => [0.8, 1.4],
              tags => '\1c&HFFFFFF&\3c&H000000&\bord2\shad1',
              shape => 'short-words', %o);
    },

    # 6. timing
    'karaoke-words' => sub {
        my ($c, %o) = @_;
        # one word at a time, 0.12-0.5 s each, phrases apart
        my ($x, $y, $w, $h) = @{ $c->{pic} };
        my ($px, $py) = (int($x + $w / 2), int($y + 0.68 * $h));
        my $fs = int($h * 0.06);
        my $t = $c->{t0} + 0.3;
        while ($t + 2.5 < $c->{t1}) {
            for my $word (split ' ', _next($c, $c->{lang})) {
                my $len = _between($c, 0.12, 0.5);
                _event($c, $t, $t + $len, "{\\an5\\pos($px,$py)\\fn"
                    . _font($c) . "\\b1\\fs$fs\\1c&HFFFFFF&\\3c&H000000&"
                    . "\\bord3\\shad0}$word");
                _line($c, $t, $t + $len, $word, 'karaoke-word');
                $t += $len;
            }
            $t += _between($c, 0.5, 1.0);
        }
    },
    'karaoke-sweep' => sub {
        my ($c, %o) = @_;
        # the phrase is there, its colour sweeps word by word (\k)
        _subs($c, size => int($c->{pic}[3] * 0.055), dur => [2.6, 3.4],
              tags => '\1c' . colour('ffe040') . '\2c&HFFFFFF&\3c&H000000&'
                      . '\bord2\shad0', shape => 'karaoke-sweep',
              text => sub {
                  my @w = split ' ', _next($c, $c->{lang});
                  my $k = int(240 / @w);
                  join ' ', map { "{\\k$k}$_" } @w;
              }, %o);
    },
    'flash-then-stay' => sub {
        my ($c, %o) = @_;
        # a caption of 0.23 s replaced in place by one that stays
        my ($x, $y) = _bottom($c);
        my $fs = int($c->{pic}[3] * 0.055);
        my $t = $c->{t0} + 0.4;
        while ($t + 3 < $c->{t1}) {
            my $stay = _between($c, 1.8, 2.4);
            for ([0.23, 'flash-0.23s'], [$stay, 'after-flash']) {
                my $text = _next($c, $c->{lang});
                _event($c, $t, $t + $_->[0], "{\\an2\\pos($x,$y)\\q0\\fn"
                    . _font($c) . "\\fs$fs\\1c&HFFFFFF&\\3c&H000000&"
                    . "\\bord2\\shad0}$text");
                _line($c, $t, $t + $_->[0], $text, $_->[1]);
                $t += $_->[0];
            }
            $t += _between($c, 0.4, 0.8);
        }
    },
    'wipe-lower-third' => sub {
        my ($c, %o) = @_;
        # a name and a title in a box, wiping in from the left over 0.8 s
        my ($W, $H) = @$c{qw(W H)};
        my ($x0, $y0) = (int($W * 0.06), int($H * 0.72));
        # half a landscape frame's width, nearly all a portrait one's (a
        # name of 60 px there needs it)
        my ($bw, $bh) = (int($W * ($W < $H ? 0.88 : 0.5)), int($H * 0.14));
        my $fs = int($bh * 0.34);
        my $t = $c->{t0} + 0.3;
        while ($t + 3.2 < $c->{t1}) {
            my $len = _between($c, 2.6, 3.4);
            my ($name, $what) = @{ _next($c, "$c->{lang}_names") };
            my $clip = "\\clip($x0,$y0,$x0," . ($y0 + $bh) . ')\t(0,800,\clip('
                . "$x0,$y0," . ($x0 + $bw) . ',' . ($y0 + $bh) . '))';
            _event($c, $t, $t + $len, "{\\an7\\pos($x0,$y0)$clip\\bord0\\shad0"
                . '\1c' . colour('1a3a6a') . '\1a&H30&\p1}'
                . "m 0 0 l $bw 0 $bw $bh 0 ${bh}{\\p0}", layer => 0);
            _event($c, $t, $t + $len, '{\an7\pos(' . ($x0 + 16) . ','
                . ($y0 + int($bh * 0.1)) . ")$clip\\fnDejaVu Sans\\b1\\fs$fs"
                . '\1c&HFFFFFF&\bord0\shad0}' . $name);
            _event($c, $t, $t + $len, '{\an7\pos(' . ($x0 + 16) . ','
                . ($y0 + int($bh * 0.55)) . ")$clip\\fnDejaVu Sans\\fs"
                . int($fs * 0.8) . '\1c' . colour('e0e8f0')
                . '\bord0\shad0}' . $what);
            _line($c, $t, $t + $len, $name, 'wipe-lower-third');
            _line($c, $t, $t + $len, $what, 'wipe-lower-third');
            $t += $len + _between($c, 0.6, 1.2);
        }
    },
    'one-char' => sub {
        my ($c, %o) = @_;
        # a one-character line for 0.5 s (a countdown, an answer)
        my @chars = $c->{lang} eq 'chi_sim' ? qw(好 走 停 是 对 嗯)
                                            : qw(3 7 9 4 X 2);
        my ($px, $py) = (int($c->{W} / 2), int($c->{H} * 0.55));
        my $fs = int($c->{pic}[3] * 0.09);
        my $t = $c->{t0} + 0.4;
        while ($t + 0.8 < $c->{t1}) {
            my $ch = $chars[ int($c->{rng}->() * @chars) ];
            _event($c, $t, $t + 0.5, "{\\an5\\pos($px,$py)\\fn" . _font($c)
                . "\\b1\\fs$fs\\1c&HFFFFFF&\\3c&H000000&\\bord3\\shad0}$ch");
            _line($c, $t, $t + 0.5, $ch, 'one-char-0.5s');
            $t += 0.5 + _between($c, 0.8, 1.4);
        }
    },

    # 7. one character changed in an otherwise identical line
    'counter' => sub {
        my ($c, %o) = @_;
        my ($W, $H) = @$c{qw(W H)};
        my $fmt = $o{format} // 'Caption %d of the long lecture';
        my $bh = int($H * 0.07);
        _event($c, $c->{t0}, $c->{t1}, '{\an7\pos(0,' . ($H - $bh)
            . ")\\bord0\\shad0\\1c&H000000&\\p1}m 0 0 l $W 0 $W $bh 0 $bh"
            . '{\p0}', layer => 0);
        $c->{counter} //= $o{from} // 20 + int(80 * $c->{rng}->());
        my $shape = $c->{move} eq 'still' ? 'counter-still' : 'counter-moving';
        my $t = $c->{t0};
        while ($t < $c->{t1} - 0.5) {
            my $end = $t + _between($c, 2.5, 4.5);
            $end = $c->{t1} if $end > $c->{t1} - 1.5;
            my $n = $c->{counter}++;
            my $text = sprintf $fmt, $n;
            _event($c, $t, $end, '{\an2\pos(' . int($W / 2) . ','
                . ($H - int($bh * 0.2)) . ')\fnDejaVu Sans\fs' . int($bh * 0.6)
                . '\1c&HFFFFFF&\bord0\shad0}' . $text);
            _line($c, $t, $end, $text, $shape, key => $n);
            $t = $end;
        }
    },

    # Chinese over English, as film subtitles often are
    'bilingual' => sub {
        my ($c, %o) = @_;
        my ($x, $y) = _bottom($c, 0.05);
        my $fs = int($c->{pic}[3] * 0.052);
        my $t = $c->{t0} + _between($c, 0.2, 0.6);
        while ($t + 2.6 < $c->{t1}) {
            my $len = _between($c, 2.4, 3.4);
            my ($zh, $en) = @{ _next($c, 'bilingual') };
            _event($c, $t, $t + $len, "{\\an2\\pos($x,$y)\\fnDejaVu Sans"
                . '\fs' . int($fs * 0.78) . '\1c&HFFFFFF&\3c&H000000&\bord1.5'
                . '\shad0}' . $en);
            _event($c, $t, $t + $len, "{\\an2\\pos($x," . ($y - int($fs * 0.95))
                . ")\\fnWenQuanYi Zen Hei\\fs$fs\\1c&HFFFFFF&\\3c&H000000&"
                . '\bord2\shad0}' . $zh);
            _line($c, $t, $t + $len, $zh, 'bilingual-zh', lang => 'chi_sim');
            _line($c, $t, $t + $len, $en, 'bilingual-en', lang => 'eng');
            $t += $len + _between($c, 0.3, 0.8);
        }
    },

    # credits rolling up, a role and a name per entry
    'credits' => sub {
        my ($c, %o) = @_;
        my ($W, $H) = @$c{qw(W H)};
        my $speed = $H * _between($c, 0.07, 0.09);     # px per s
        my ($rs, $ns) = (int($H * 0.034), int($H * 0.048));
        my $step = int($H * 0.2);
        my $x = int($W / 2);
        # preroll: the screen already full of credits when the scene starts
        my $t = $c->{t0} - ($o{preroll} ? $H * 0.8 / $speed : 0);
        while (1) {
            my ($role, $name) = @{ _next($c, "$c->{lang}_credits") };
            for ([$role, $rs, 'c8c8c8', 0], [$name, $ns, 'ffffff', $rs + 10]) {
                my ($text, $fs, $col, $dy) = @$_;
                # a line's bottom goes from H + fs to -fs; whole on
                # screen while it is between fs and H (its line is fs
                # high; 2 px inside, for the shadow and the rounding)
                my $t0 = $t + $dy / $speed;
                my $t1 = $t0 + ($H + 2 * $fs) / $speed;
                my ($s, $yb) = ($t0, $H + $fs);
                ($s, $yb) = ($c->{t0}, int($yb - ($c->{t0} - $t0) * $speed))
                    if $t0 < $c->{t0};
                next if $t1 <= $s + 0.5;
                _event($c, $s, $t1, "{\\an2\\move($x,$yb,$x,-$fs)\\fn"
                    . "DejaVu Sans\\fs$fs\\1c" . colour($col)
                    . '\bord0\shad1\4a&H80&}' . $text);
                my ($w0, $w1) = ($t0 + ($fs + 2) / $speed,
                                 $t0 + ($H - 2) / $speed);
                _line($c, $w0 < $s ? $s : $w0, $w1, $text, 'credits')
                    if $w1 > $s + 0.5;
            }
            $t += $step / $speed;
            last if $t + ($H * 0.5) / $speed > $c->{t1};
        }
    },

    # a ticker: items sliding right to left in a bar
    'marquee' => sub {
        my ($c, %o) = @_;
        my ($W, $H) = @$c{qw(W H)};
        my $bh = int($H * 0.075);
        my $fs = int($bh * 0.62);
        my $y = $H - int($bh * 0.22);
        _event($c, $c->{t0}, $c->{t1}, '{\an7\pos(0,' . ($H - $bh) . ')'
            . '\bord0\shad0\1c' . colour('14285a') . "\\p1}m 0 0 l $W 0 $W"
            . " $bh 0 ${bh}{\\p0}", layer => 0);
        my $speed = _between($c, 90, 130) * $W / 1280;
        # a ticker is running when the scene starts: its first item is
        # halfway across
        my $t = $c->{t0} - $W * 0.5 / $speed;
        while (1) {
            my $text = _next($c, "$c->{lang}_news");
            my $tw = _width($text, $fs);
            my $t1 = $t + ($W + $tw + 20) / $speed;
            last if $t > $c->{t1} - 0.5;
            my ($s, $x) = ($t, $W);
            ($s, $x) = ($c->{t0}, int($W - ($c->{t0} - $t) * $speed))
                if $t < $c->{t0};
            _event($c, $s, $t1, "{\\an1\\move($x,$y,-" . int($tw + 20)
                . ",$y)\\fnDejaVu Sans Condensed\\fs$fs\\1c&HFFFFFF&\\bord0"
                . "\\shad0}$text");
            # whole on screen from when its end comes in to when its
            # start goes out (its width estimated, _width)
            my $w0 = $t + $tw / $speed;
            _line($c, $w0 < $s ? $s : $w0, $t + $W / $speed, $text, 'marquee')
                if $tw < $W && $t + $W / $speed > $s + 0.5;
            $t += ($tw + $fs * 2.5) / $speed;
        }
    },

    # nothing: the video without text
    'none' => sub { },
);

# The width in pixels of a line of DejaVu Sans Condensed (libass's
# font size is the line's height; capitals and lower case average
# about half of it, narrower condensed)
sub _width {
    my ($text, $fs) = @_;
    my $w = 0;
    for my $ch (split //, $text) {
        $w += $ch =~ /\p{Han}/ ? $fs * 0.86 : $ch eq ' ' ? $fs * 0.27
            : $ch =~ /\p{Cyrillic}/ ? $fs * 0.52
            : $ch =~ /[ilI.,:;'!|]/ ? $fs * 0.24 : $fs * 0.47;
    }
    return int($w);
}

sub shapes { return sort keys %SHAPES }

sub fill {
    my ($c, $shape, %o) = @_;
    my $f = $SHAPES{$shape} or die "no shape called $shape";
    $f->($c, %o);
}

1;
