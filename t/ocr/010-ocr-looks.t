# The looks between samples (plan version 2) and the reading of a
# screen from the mean of its looks: text on screen for less than a
# sampling interval, between two samples, is found and read; one
# subtitle over a noisy moving background is one segment read once,
# from several looks; items that slide while they change are each read;
# captions of three and four big centred lines with thick outlines over
# a moving background are read whole; under strong temporal noise the
# chains of specks that one frame takes for lines do not join a look's
# text; items seen by one or two looks are read from the frames between
# them too; a line of small outlined text that reads as nothing is
# flagged.

use strict;
use warnings;
use lib 't/lib';

use Test::More;
use VideoOCR::Media qw(run_worker worker_bin tmpdir make_video cer);

-x worker_bin() or BAIL_OUT('no worker binary at ' . worker_bin());

my $dir = tmpdir();

sub found {
    my ($segs, $span) = @_;
    my ($best) = sort { $a->[1] <=> $b->[1] }
                 map { [$_, cer($_->{text}, $span->{text})] }
                 grep { $_->{end} > $span->{start} && $_->{start} < $span->{end} }
                 @$segs;
    return $best;
}

# 1. at 1 fps the samples are at 0, 1, 2, 3, 4 s: these lines of 0.35
# and 0.4 s fall between two of them

my @short = (
    { start => 1.3,  end => 1.7,  text => 'Stop right there' },
    { start => 3.35, end => 3.7,  text => 'Not a word more' },
);
my $file = make_video(path => "$dir/short.mp4", duration => 5,
    background => 'moving', seed => 1, spans => \@short, dir => $dir);
my $r = run_worker('ocr', $file, '--fps', '1', '--frames');
is $r->{rc}, 0, 'short: exit 0' or diag $r->{stderr};
for my $s (@short) {
    my $m = found($r->{json}{segments}, $s);
    ok $m && $m->[1] <= 0.05, "short: \"$s->{text}\" ($s->{start}-$s->{end} s,"
        . ' between two samples) is read' or diag explain $r->{json}{segments};
    ok $m && abs($m->[0]{start} - $s->{start}) <= 0.3
        && abs($m->[0]{end} - $s->{end}) <= 0.3,
        "short: \"$s->{text}\" within a look of its times";
}
is scalar(@{ $r->{json}{segments} }), 2, 'short: nothing else';
ok scalar(grep { $_->{between} } @{ $r->{json}{frames} }) >= 2,
    'short: the changes have rows of looks between samples';

# 2. one subtitle for 4 s over the busy test pattern under strong
# temporal noise: one segment, read once, from several looks

my @noisy = ({ start => 0.5, end => 4.5,
               text => 'She crossed alone in 41 days.' });
$file = make_video(path => "$dir/noisy.mp4", duration => 5,
    background => 'busynoise', spans => \@noisy, dir => $dir,
    bitrate => '1M');
$r = run_worker('ocr', $file, '--fps', '1', '--stats');
is $r->{rc}, 0, 'noisy: exit 0' or diag $r->{stderr};
my $segs = $r->{json}{segments};
is scalar(@$segs), 1, 'noisy: one segment' or diag explain $segs;
cmp_ok cer($segs->[0]{text}, $noisy[0]{text}), '<=', 0.05,
    "noisy: read right ($segs->[0]{text})";
is $r->{json}{ocr_calls}, 1, 'noisy: one OCR call';
cmp_ok $segs->[0]{looks}, '>=', 6, 'noisy: read from the mean of '
    . "$segs->[0]{looks} looks";
my ($combined) = $r->{stderr} =~ /"looks_combined":(\d+)/;
is $combined, $segs->[0]{looks}, 'noisy: --stats counts the looks combined';

# 3. a ticker: items of 0.5 s that slide left while they show

my @ticker;
my $t = 0.6;
for my $item ('Markets close higher', 'Rain expected Tuesday',
              'Port strike ends', 'New bridge opens today')
{
    push @ticker, { start => $t, end => $t + 0.46, text => $item,
                    x => "120-80*(t-$t)", y => 280, size => 26 };
    $t += 0.5;
}
$file = make_video(path => "$dir/ticker.mp4", duration => 3.5,
    background => 'moving', seed => 1, spans => \@ticker, dir => $dir);
$r = run_worker('ocr', $file, '--fps', '1');
is $r->{rc}, 0, 'ticker: exit 0' or diag $r->{stderr};
for my $s (@ticker) {
    my $m = found($r->{json}{segments}, $s);
    ok $m && $m->[1] <= 0.1, "ticker: \"$s->{text}\" is read"
        or diag explain $r->{json}{segments};
}
cmp_ok $r->{json}{ocr_calls}, '<=', 6, 'ticker: an OCR call per item or so';

# 4. captions of three and four lines, each centred, big, with a thick
# outline, over a moving background

my @caps;
$t = 0.3;
for my $c (['WHEN WE LEFT', 'THE HARBOUR', 'NOBODY WAVED'],
           ['THIS IS HOW', 'A SMALL TOWN', 'CHANGED', 'FOREVER'])
{
    my $y0 = int((480 - 45 * @$c) / 2);
    push @caps, map { { start => $t, end => $t + 2.2, text => $c->[$_],
                        size => 34, border => 5, line => $_,
                        font => 'DejaVuSansBold', y => $y0 + 45 * $_,
                        color => $_ % 2 ? '0xffe040' : 'white' } } 0 .. $#$c;
    $t += 2.8;
}
$file = make_video(path => "$dir/caps.mp4", size => '854x480', duration => 6,
    background => 'moving', seed => 1, spans => \@caps, dir => $dir);
$r = run_worker('ocr', $file, '--fps', '1');
is $r->{rc}, 0, 'captions: exit 0' or diag $r->{stderr};
$segs = $r->{json}{segments};
is scalar(@$segs), 2, 'captions: two segments' or diag explain $segs;
for my $i (0, 1) {
    my @lines = grep { abs($_->{start} - (0.3 + 2.8 * $i)) < 0.01 } @caps;
    my $want = join "\n", map { $_->{text} } @lines;
    cmp_ok cer($segs->[$i]{text} // '', $want), '<=', 0.05,
        "captions: all " . scalar(@lines) . ' lines read';
}

# six items of a ticker, each on screen for 0.46 s, sliding left
# The ticker over strong temporal noise at 720p (the hard set's
# movingnoise), its making-th making (the noise's seeds), as name.mp4.
sub noisy_ticker {
    my ($name, $making, $items) = @_;

    return make_video(path => "$dir/$name.mp4", size => '1280x720',
        duration => 4, background => 'movingnoise',
        VideoOCR::Media::seeds('ticker-noise', $making), spans => $items,
        dir => $dir, bitrate => '4M', extra => ['-g', 250]);
}


sub ticker_items {
    my ($t, @items) = (0.6);
    for my $item ('Festival draws record crowd', 'Wheat up 3%',
                  'Library hours extended', 'Trains delayed in north',
                  'Markets close higher', 'Port strike ends')
    {
        push @items, { start => $t, end => $t + 0.46, text => $item,
                       x => "300-80*(t-$t)", y => 576, size => 40,
                       font => 'DejaVuSansCondensed' };
        $t += 0.5;
    }
    return @items;
}

# 5. a ticker at 720p under strong temporal noise (the hard set's
# movingnoise): in most frames the noise makes chains of specks that the
# text layer takes for lines, anywhere in the picture; they are not in
# the frames beside it, so they go (vw_look_clean), and the looks that
# show an item have their box on the ticker's row.  On these three
# makings the worker before this gave 6, 3 and 4 such looks with a box
# spanning half the picture (and read 2, 4 and 3 of the 6 items).

for my $making (1, 3, 4) {
    my @items = ticker_items();
    $file = noisy_ticker("ticker-noise-$making", $making, \@items);
    $r = run_worker('ocr', $file, '--fps', '1', '--frames');
    is $r->{rc}, 0, "noisy ticker $making: exit 0" or diag $r->{stderr};

    my @showing = grep {
        my $f = $_;
        $f->{box} && grep { $f->{pts} >= $_->{start} && $f->{pts} <= $_->{end} }
                          @items
    } @{ $r->{json}{frames} };
    my @off = grep { $_->{box}[1] < 540 || $_->{box}[1] + $_->{box}[3] > 650 }
              @showing;
    cmp_ok scalar(@off), '<=', 1, "noisy ticker $making: the looks that show "
        . 'an item have their box on its row (' . scalar(@off) . ' of '
        . scalar(@showing) . ' do not)' or diag explain \@off;
    my $read = grep { my $m = found($r->{json}{segments}, $_);
                      $m && $m->[1] <= 0.1 } @items;
    diag "noisy ticker $making: $read of " . scalar(@items) . ' items read';
}

# 6. the same ticker, makings where an item is seen whole in one look
# only and reads, once the specks are gone, right but unsure (". Trains
# delayed in north'" at 60, 21 letters for 20 glyphs): such a reading
# fits its glyphs and is kept (vw_reading_fits).  The worker before that
# read 5 and 4 of the 6 items of these makings (CER <= 0.3 each, the
# benchmark's "found"); of makings 0 and 2-12, three still read 5 of 6
# (2, 6 and 7; before: 5, 4 and 4).

my %want = (0 => 6, 8 => 6);
for my $making (sort keys %want) {
    my @items = ticker_items();
    $file = noisy_ticker("ticker-unsure-$making", $making, \@items);
    $r = run_worker('ocr', $file, '--fps', '1');
    is $r->{rc}, 0, "unsure ticker $making: exit 0" or diag $r->{stderr};
    my @read = grep { my $m = found($r->{json}{segments}, $_);
                      $m && $m->[1] <= 0.3 } @items;
    cmp_ok scalar(@read), '>=', $want{$making},
        "unsure ticker $making: $want{$making} of 6 items read"
        or diag explain [map { $_->{text} } @{ $r->{json}{segments} }];
}

# 7. the same ticker, makings where an item is seen by one or two looks
# and read wrong or not at all from their mean: a screen of fewer than
# three looks is read from the frames decoded between them too
# (vw_between.c), every item right.  The worker before that read 5, 5
# and 5 of the 6 items of these makings at CER <= 0.1; over makings
# 0-12, 63 of 78 items against 71, mean CER 0.093 against 0.059.

for my $making (0, 2, 10) {
    my @items = ticker_items();
    $file = noisy_ticker("ticker-frames-$making", $making, \@items);
    $r = run_worker('ocr', $file, '--fps', '1', '--stats');
    is $r->{rc}, 0, "ticker frames $making: exit 0" or diag $r->{stderr};
    my @right = grep { my $m = found($r->{json}{segments}, $_);
                       $m && $m->[1] <= 0.1 } @items;
    is scalar(@right), 6, "ticker frames $making: 6 of 6 items read right"
        or diag explain [map { $_->{text} } @{ $r->{json}{segments} }];
    my ($fr) = $r->{stderr} =~ /"frame_readings":(\d+)/;
    cmp_ok $fr // 0, '>=', 1, "ticker frames $making: screens read from their"
        . ' frames (' . ($fr // 0) . ')';
}

# 7b. making 8, where noise beside the line makes the screens of one
# item differ (their means are told apart) and each reads it unsure,
# with other marks at its ends ("\" Markets close higher", "“Markets
# close higher «5°", "Markets close higher ~~ / 5 ~ / j"): two unsure
# readings that share a run of most of their letters are the same text
# (vw_join_read_same), so the item is one segment.  The worker before
# that gave those three segments.

{
    my @items = ticker_items();
    $file = noisy_ticker('ticker-unsure-8', 8, \@items);
    $r = run_worker('ocr', $file, '--fps', '1');
    is $r->{rc}, 0, 'ticker joined 8: exit 0' or diag $r->{stderr};
    # every segment that reads the item, even with a letter wrong
    my @markets = grep { cer($_->{text}, $items[4]{text}) <= 0.6 }
                  @{ $r->{json}{segments} };
    is scalar(@markets), 1, 'ticker joined 8: "Markets close higher" is one'
        . ' segment' or diag explain \@markets;
    my $m = found($r->{json}{segments}, $items[4]);
    ok $m && $m->[1] <= 0.5, 'ticker joined 8: and reads it'
        or diag explain \@markets;
}

# the frames are those kept for placing changes, the same wherever
# decoding began: a resumed run reads as an unbroken one (making 3; on
# makings 0, 2, 4-7, 9 and 10 a resumed run places some changes on other
# frames than an unbroken one, and so does the worker without the
# frames between looks, 8fd341f (and 20bc764 on making 2): not looked
# into yet)
{
    my @items = ticker_items();
    $file = noisy_ticker('ticker-frames-3', 3, \@items);
    # no deadline: Tesseract takes 2-4 s over a screen of this making's
    # noise, and on a loaded machine the 10 s deadline cut that reading
    # short in the unbroken run once (its row flagged timed_out, a
    # segment less), which is not what is tested here
    my @opt = ('--fps', '1', '--frames', '--frame-timeout-ms', '0');
    my $whole = run_worker('ocr', $file, @opt, '--stats');
    my ($fr) = $whole->{stderr} =~ /"frame_readings":(\d+)/;
    cmp_ok $fr // 0, '>=', 1, 'ticker frames 3: screens read from their'
        . ' frames (' . ($fr // 0) . ')';
    my @diff = grep {
        run_worker('ocr', $file, @opt, '--debug-resume-at', $_)->{stdout}
            ne $whole->{stdout}
    } 1 .. 3;
    is_deeply \@diff, [], 'ticker frames 3: resumed at 1 to 3 samples, the'
        . ' same result';
}

# 8. a line of small outlined text (18 px at 720p, light yellow, over the
# hard set's zooming fractal): the outline glues each word's letters
# into one glyph, so the layer finds a line of 7, and Tesseract reads it
# "Thejschool| burned down\in May:" at a line confidence of 44, below
# the 50 a line needs.  The job must not end with no text and no word
# of it: the screen, which stayed for seconds, is flagged
# text_unreadable (vw_read_line_lost).  The worker before that flagged
# only a noise screen at frame 0.  Reading it is a TODO.

my %school = (start => 0.82, end => 3.4,
    text => 'The school burned down in May.', font => 'DejaVuSerifCondensed',
    size => 18, style => 'outline', color => '0xfff0a0', y => 'bottom');
$file = make_video(path => "$dir/small-yellow.mp4", size => '1280x720',
    duration => 4, background => 'fractal',
    VideoOCR::Media::seeds('hard-small-720p-h264'), spans => [\%school],
    dir => $dir, bitrate => '4M', extra => ['-g', 250]);
$r = run_worker('ocr', $file, '--fps', '1', '--frames');
is $r->{rc}, 0, 'small yellow line: exit 0' or diag $r->{stderr};
{
    my $m = found($r->{json}{segments}, \%school);
    my $read = $m && $m->[1] <= 0.3;
    my %pts = map { $_->{index} => $_->{pts} } @{ $r->{json}{frames} };
    my ($w) = grep { $_->{code} eq 'text_unreadable' }
              @{ $r->{json}{warnings} // [] };
    my @flagged = grep { defined $pts{$_} && $pts{$_} >= $school{start}
                         && $pts{$_} <= $school{end} } @{ $w ? $w->{frames} : [] };
    ok $read || @flagged, 'small yellow line: read, or its screen flagged '
        . 'text_unreadable (not a quiet empty result)'
        or diag explain [$r->{json}{warnings}, $r->{json}{segments}];
    TODO: {
        local $TODO = 'read as "Thejschool| burned down\\in May:" at 44, '
            . 'a line confidence below 50';
        ok $read, 'small yellow line: read (CER <= 0.3)'
            or diag explain [map { $_->{text} } @{ $r->{json}{segments} }];
    }
}

done_testing;
