# Screens joined in hindsight (worker/pipeline/vw_join.c): a caption over the
# noisy test pattern, whose light bar strong noise glues to the glyphs'
# outline in some looks and not in others, is one segment read once,
# not three readings of the same lines; a resumed run joins as an
# unbroken one does; and what is other text stays apart: a caption that
# gains a line, a word that changes, a caption after a blank.

use strict;
use warnings;
use lib 't/lib', 'bench/ocr/lib';

use Test::More;
use VideoOCR::Media qw(run_worker worker_bin tmpdir make_video cer);
use OCRTraits ();

-x worker_bin() or BAIL_OUT('no worker binary at ' . worker_bin());

my $dir = tmpdir();
my ($w, $h) = (1280, 720);
my $size = int($h * 0.07 + 0.5);
my $step = int($size * 1.35);

# captions as the second benchmark set makes them (bench/ocr/lib/
# OCRHard.pm, "caps"): lines centred in the middle of the picture, 7% of
# its height, every other one yellow, thick outlines; each caption is
# [start, end, lines...], its lines counted from $first (a line that
# joins a caption keeps the place it will have)
sub captions {
    my ($n, @caps) = @_;
    my @spans;
    for my $c (@caps) {
        my ($start, $end, @lines) = @$c;
        my $y0 = int(($h - $step * $n) / 2);
        push @spans, map { {
            start => $start, end => $end, text => $lines[$_],
            font => 'LiberationSerifBold', size => $size, style => 'outline',
            color => $_ % 2 ? '0xffe040' : 'white', border => 5,
            y => $y0 + $_ * $step } } 0 .. $#lines;
    }
    return \@spans;
}

sub video {
    my ($name, $n, @caps) = @_;
    return make_video(path => "$dir/$name.webm", size => "${w}x$h",
        duration => 5, background => 'busynoise', codec => 'libvpx-vp9',
        bitrate => '4M', seed => 0, dir => $dir, spans => captions($n, @caps));
}

sub texts { [map { $_->{text} } @{ $_[0]{json}{segments} // [] }] }

# 1. one caption for 3.1 s: the looks after 2.3 s differ from the first
# (where the light bar under the second line is glued to it), and
# before the join came out as three segments, one of them without its
# first line

my @follow = ('FOLLOW THE', 'RED LIGHTS', 'TO THE EXIT');
my $one = video('one', 3, [0.8, 3.9, @follow]);
my $r = run_worker('ocr', $one, '--frames', '--stats');
is $r->{rc}, 0, 'one caption: exit 0' or diag $r->{stderr};
my $segs = $r->{json}{segments} // [];
is scalar(@$segs), 1, 'one caption: one segment' or diag explain texts($r);
cmp_ok cer($segs->[0]{text} // '', join("\n", @follow)), '<=', 0.05,
    'one caption: read right';
cmp_ok abs(($segs->[0]{start} // 0) - 0.8), '<=', 0.05,
    'one caption: from its first frame';
cmp_ok abs(($segs->[0]{end} // 0) - 3.92), '<=', 0.05,
    'one caption: to its last';
my @joined = grep { $_->{joined} } @{ $r->{json}{frames} // [] };
ok scalar(@joined) >= 1, 'one caption: screens joined the first ('
    . scalar(@joined) . ')';
my ($n) = $r->{stderr} =~ /"screens_joined":(\d+)/;
is $n, scalar(@joined), '--stats counts them';
cmp_ok $r->{json}{ocr_calls}, '<', 1 + scalar(@joined),
    'one caption: fewer OCR calls than screens';

# 2. a resumed run joins as an unbroken one does (the rows of a screen
# that may still be joined wait: none is known to a resumed run)

for my $mode ([], ['--no-refine']) {
    my $whole = run_worker('ocr', $one, '--frames', @$mode);
    my @diff = grep {
        run_worker('ocr', $one, '--frames', @$mode, '--debug-resume-at',
                   $_)->{stdout} ne $whole->{stdout}
    } 1 .. 4;
    is_deeply \@diff, [], "one caption @$mode: resumed at 1 to 4 samples,"
        . ' the same result';
}

# 3. other text is not joined: a caption that gains a line and one
# whose last word changes are each read, by a segment over their time
# (one caption joined to the other would carry the other's text: a
# line more or less, or EXIT for DOOR, is a CER above 0.1; noise may
# still cut a caption in pieces, which is not what is tested here),
# and the same caption after a blank is two segments

# the best reading among the segments over [start, end]
sub best {
    my ($segs, $start, $end, $want) = @_;
    my ($c) = sort { $a <=> $b } map { cer($_->{text}, $want) }
              grep { $_->{end} > $start && $_->{start} < $end } @$segs;
    return $c // 1;
}

my @door = ('FOLLOW THE', 'RED LIGHTS', 'TO THE DOOR');
for my $t (['a line more', [0.8, 2.4, @follow[0, 1]], [2.4, 4.6, @follow]],
           ['a word changes', [0.8, 2.4, @follow], [2.4, 4.6, @door]])
{
    my ($name, @caps) = @$t;
    (my $file = $name) =~ s/ /-/g;
    $r = run_worker('ocr', video($file, 3, @caps), '--format', 'json');
    is $r->{rc}, 0, "$name: exit 0" or diag $r->{stderr};
    for my $c (@caps) {
        my ($start, $end, @lines) = @$c;
        my $cer = best($r->{json}{segments} // [], $start, $end,
                       join("\n", @lines));
        cmp_ok $cer, '<=', 0.1, "$name: \"$lines[-1]\" read over its time"
            or diag explain texts($r);
    }
}

# words that go from the end of a line: the glyphs that stay are the
# first screen's, which has others beyond them, and what it read lies
# beyond what the second reads (vw_join_within): two segments

{
    my @spans = (
        { start => 0.5, end => 2.4, text => 'Please wait for the announcement' },
        { start => 2.4, end => 4.5, text => 'Please wait' },
    );
    my $f = make_video(path => "$dir/words.mp4", size => '854x480',
        duration => 5, background => 'moving', seed => 1, dir => $dir,
        spans => [map { { %$_, x => 120, size => 30 } } @spans]);
    $r = run_worker('ocr', $f, '--format', 'json');
    is $r->{rc}, 0, 'words go: exit 0' or diag $r->{stderr};
    for my $s (@spans) {
        cmp_ok best($r->{json}{segments} // [], $s->{start}, $s->{end},
                    $s->{text}), '<=', 0.1,
            "words go: \"$s->{text}\" read over its time"
            or diag explain texts($r);
    }
}

$r = run_worker('ocr', video('again', 3, [0.5, 2.0, @follow],
                                         [2.6, 4.6, @follow]), '--format',
                'json');
is $r->{rc}, 0, 'after a blank: exit 0' or diag $r->{stderr};
$segs = $r->{json}{segments} // [];
is scalar(@$segs), 2, 'after a blank: two segments' or diag explain texts($r);

# a stray reading (worker/pipeline/vw_read.c, vw_read_stray): the hard set's
# small subtitle over a zooming fractal (bench/ocr/lib/OCRHard.pm,
# hard-small-720p-h264: its first 4 s, the fractal zooming as over its
# 20), where a look that takes the fractal's bright edges for 7 lines
# of text reads one unsure line, a piece of the caption ("' The schvel
# burned dewe in May" at 55), between looks that find only the fractal
# and the screen that reads it whole: one segment, and the look left
# unread is said (text_unreadable)

{
    my $f = make_video(path => "$dir/stray.mp4", size => '1280x720',
        rate => 25, duration => 4, zoom => 20, background => 'fractal',
        codec => 'libx264', extra => ['-g', 250], bitrate => '4M',
        VideoOCR::Media::seeds('hard-small-720p-h264'), dir => $dir,
        spans => [{ start => 0.82, end => 3.36,
                    text => 'The school burned down in May.',
                    font => 'DejaVuSerifCondensed', size => 18,
                    style => 'outline', color => 'white', y => 'bottom' }]);
    $r = run_worker('ocr', $f, '--format', 'json');
    is $r->{rc}, 0, 'stray reading: exit 0' or diag $r->{stderr};
    $segs = $r->{json}{segments} // [];
    is scalar(@$segs), 1, 'stray reading: one segment'
        or diag explain texts($r);
    cmp_ok best($segs, 0.82, 3.36, 'The school burned down in May.'), '<=',
        0.3, 'stray reading: the caption read';
    ok((grep { $_->{code} eq 'text_unreadable' }
        @{ $r->{json}{warnings} // [] }),
       'stray reading: the look left unread is said')
        or diag explain $r->{json}{warnings};
}

# readings that agree letter for letter (vw_join_read_same): a caption
# of four lines over strong noise (the traits corpus's caps-3-4-lines,
# the making of OCR_TRAITS_SEED 1), whose means of two to four looks
# differ as much as a changed letter does, and one of which reads a
# quote mark and a dash more ("'THIS IS HOW / - A SMALL TOWN"): one
# segment per caption (four before), read right, and a run resumed at
# any sample reads the same segments

{
    my ($tr) = grep { $_->{name} eq 'caps-3-4-lines' } OCRTraits::traits();
    my $t = OCRTraits::make_trait($tr, $dir, duration => 8, seed => 1);
    my $f = "$dir/$t->{file}";
    $r = run_worker('ocr', $f, '--lang', $t->{lang}, '--format', 'json');
    is $r->{rc}, 0, 'letter for letter: exit 0' or diag $r->{stderr};
    $segs = $r->{json}{segments} // [];
    is scalar(@$segs), 2, 'letter for letter: one segment per caption'
        or diag explain texts($r);
    for my $c (@{ $t->{screens} }) {
        cmp_ok best($segs, $c->{start}, $c->{end}, $c->{text}), '<=', 0.1,
            "letter for letter: \"$c->{text}\" read" =~ s/\n/ \/ /gr;
    }

    # the texts, not the times: on this making a resumed run places the
    # second caption's first and last frame a frame or two apart from an
    # unbroken run's (resumed at 4 or 7 samples; at 4, 5 and 7 before the
# readings joined)
    my @diff = grep {
        my $j = run_worker('ocr', $f, '--lang', $t->{lang}, '--format',
                           'json', '--debug-resume-at', $_)->{json};
        join("\0", @{ texts({ json => $j }) }) ne join("\0", @{ texts($r) })
    } 1 .. 7;
    is_deeply \@diff, [], 'letter for letter: resumed at 1 to 7 samples,'
        . ' the same segments';
}

done_testing();
