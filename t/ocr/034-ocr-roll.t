# Rolling credits (pipeline/vw_read_roll.c): every look shows the lines
# of the screen read before it a few pixels higher, so every look is a
# new screen.  A screen whose read lines all moved one way since the
# screen read before it, their pixels with them, takes that reading,
# moved, and reads alone only the lines that came in since; no page
# reading.  Asserted, for white credits with a dark outline rolling up
# over black and over grey with strong noise, read as a new user would
# (`video-ocr-worker ocr --stats`, 1 sample a second):
#
# - every credit line is read, and none where it is not in the frame
#   (before it rolled in, after it rolled out at the top: a rolled
#   reading keeps only the lines still on the screen's lines);
# - the lines come out in the order they rolled in;
# - most screens were rolled over black (--stats' readings_rolled
#   against ocr_calls, the screens read whole), at least half as many
#   as were read whole over the noise;
# - resumed after sample 8 or 12, the text is the same (over the
#   noise, where readings of one line differ from look to look): a
#   screen takes a rolled reading only as a screen of the group before
#   it, and a resumed run begins again at that group's first screen
#   (9613cc4's worker, which rolled any screen, read otherwise resumed
#   at 12);
# - the same clip with a line that changes its text while it rolls:
#   the changed line is read (its pixels did not go with it).
#
# About 50 s of CPU.

use strict;
use warnings;
use lib 't/lib';

use JSON::PP ();
use Test::More;
use VideoOCR::Media qw(run_worker worker_bin tmpdir font_path cer);

-x worker_bin() or BAIL_OUT('no worker binary at ' . worker_bin());

my $dir = tmpdir();
my $font = font_path('DejaVuSans');

my @credits = ('Written by Mara Olsen', 'Camera Tomas Reyes',
               'Sound Ines Varga', 'Edited by Paul Kern',
               'Music Lena Ortiz', 'Produced by Ada Stone');

# the lines 60 pixels apart, rolling up at 60 pixels a second from the
# bottom edge of a 1280x720 frame (with noise: 40 apart at 40 a second
# in an 854x480 one, to keep its cost down); one drawtext per line
sub roll {
    my (%a) = @_;
    my ($step, $fs, $size) = $a{noise} ? (40, 24, '854x480')
                                       : (60, 32, '1280x720');
    my @f;
    for my $i (0 .. $#credits) {
        my $tf = "$dir/$a{name}-$i.txt";
        open my $fh, '>', $tf or die "$tf: $!";
        print {$fh} $credits[$i];
        close $fh;
        my $y = "h-$step*t+" . ($step * $i);
        push @f, "drawtext=fontfile=$font:textfile=$tf:expansion=none:"
               . "fontsize=$fs:fontcolor=white:borderw=2:bordercolor=black:"
               . "x=(w-tw)/2:y=$y"
               . ($a{enable} && $a{enable}[$i]
                  ? ":enable='$a{enable}[$i]'" : '');
    }
    if ($a{changed}) {
        my ($i, $text, $from) = @{ $a{changed} };
        my $tf = "$dir/$a{name}-changed.txt";
        open my $fh, '>', $tf or die "$tf: $!";
        print {$fh} $text;
        close $fh;
        push @f, "drawtext=fontfile=$font:textfile=$tf:expansion=none:"
               . "fontsize=32:fontcolor=white:borderw=2:bordercolor=black:"
               . "x=(w-tw)/2:y=h-60*t+" . (60 * $i)
               . ":enable='gte(t,$from)'";
    }
    my $out = "$dir/$a{name}.mp4";
    system('ffmpeg', '-nostdin', '-hide_banner', '-loglevel', 'error', '-y',
           '-f', 'lavfi', '-i', "color=c=$a{bg}:s=$size:r=25:d=14",
           '-vf', join(',', $a{noise} ? ('noise=alls=40:allf=t') : (), @f,
                       'format=yuv420p'),
           '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '20',
           '-threads', '1', $out) == 0 or die "ffmpeg failed: $?";
    return $out;
}

sub stats_of {
    my ($stderr) = @_;
    my ($line) = grep { /^\{"runs"/ } split /\n/, $stderr // '';
    return $line ? JSON::PP->new->decode($line)->{runs}[0] : {};
}

for my $bg ('black', 'gray') {
    my $f = roll(name => "roll-$bg", bg => $bg, noise => $bg eq 'gray');
    my $r = run_worker('ocr', $f, '--stats', '--format', 'json');
    is $r->{rc}, 0, "$bg: exit 0" or diag $r->{stderr};
    my @segs = @{ $r->{json} ? $r->{json}{segments} : [] };

    # each credit in some segment; none off the frame: line i's top is
    # at H - s t + s i (H 720, s 60; with noise 480 and 40), below the
    # frame until t = i, above it (its glyphs and outline gone) from
    # about t = 12.7 + i
    my (@at, @off);
    for my $c (0 .. $#credits) {
        for my $s (0 .. $#segs) {
            next unless grep { cer($_, $credits[$c]) <= 0.1 }
                        split /\n/, $segs[$s]{text};
            $at[$c] //= $s;
            push @off, "$credits[$c] at $segs[$s]{start}-$segs[$s]{end}"
                if $segs[$s]{end} <= $c || $segs[$s]{start} >= 12.7 + $c;
        }
    }
    ok !(grep { !defined } @at[0 .. $#credits]),
        "$bg: every credit read"
        or diag explain [map { $_->{text} } @segs];
    ok !@off, "$bg: no credit read where it is not in the frame"
        or diag explain \@off;
    ok !(grep { defined $at[$_] && defined $at[$_ - 1] && $at[$_] < $at[$_ - 1] }
         1 .. $#credits),
        "$bg: the credits in the order they rolled in";

    # over the noise, a rolled reading that is not the group's letter
    # for letter is not taken (the screen is read whole): fewer roll
    my $st = stats_of($r->{stderr});
    my $least = $bg eq 'gray' ? int($st->{ocr_calls} / 2)
                              : $st->{ocr_calls} + 1;
    ok $st->{readings_rolled} >= $least,
        "$bg: screens rolled ($st->{readings_rolled} rolled, "
        . "$st->{ocr_calls} read whole)";

    next if $bg ne 'gray';

    my $whole = run_worker('ocr', $f, '--format', 'txt')->{stdout};
    my @diff = grep {
        run_worker('ocr', $f, '--format', 'txt', '--debug-resume-at',
                   $_)->{stdout} ne $whole
    } 8, 12;
    is_deeply \@diff, [], "$bg: resumed at 8 or 12 samples, the same text";
}

# a line that changes as it rolls: "Sound Ines Varga" becomes "Sound
# Ines Varga Jr" from 5 s on (the old text hidden from then)
{
    my $f = roll(name => 'roll-changed', bg => 'black',
                 enable => [undef, undef, 'lt(t,5)'],
                 changed => [2, 'Sound Ines Varga Jr', 5]);
    my $r = run_worker('ocr', $f, '--format', 'json');
    is $r->{rc}, 0, 'changed: exit 0' or diag $r->{stderr};
    my @segs = grep { $_->{start} >= 5.2 }
               @{ $r->{json} ? $r->{json}{segments} : [] };
    ok @segs && (grep { cer($_, 'Sound Ines Varga Jr') <= 0.1 }
                 split /\n/, $segs[0]{text}),
        'changed: the changed line read as it is now'
        or diag explain [map { "$_->{start}: $_->{text}" } @segs];
}

done_testing();
