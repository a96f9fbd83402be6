# Rolling credits (pipeline/vw_read_roll.c): every look shows the lines
# of the screen read before it a few pixels higher, so every look is a
# new screen.  A screen whose read lines all moved one way since the
# screen read before it, their pixels with them, takes that reading,
# moved, and reads alone only the lines that came in since; no page
# reading.  Asserted, for white credits rolling up over black and over
# a still grey picture with a dark outline, read as a new user would
# (`video-ocr-worker ocr --stats`, 1 sample a second):
#
# - every credit line is read, and none where it is not in the frame
#   (before it rolled in, after it rolled out at the top: a rolled
#   reading keeps only the lines still on the screen's lines);
# - the lines come out in the order they rolled in;
# - most screens were rolled (--stats' readings_rolled), fewer than
#   half were read whole (ocr_calls);
# - the same clip with a line that changes its text while it rolls:
#   the changed line is read (its pixels did not go with it).
#
# About 10 s of CPU.

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
# bottom edge of a 1280x720 frame; drawn one drawtext per line
sub roll {
    my (%a) = @_;
    my @f;
    for my $i (0 .. $#credits) {
        my $tf = "$dir/$a{name}-$i.txt";
        open my $fh, '>', $tf or die "$tf: $!";
        print {$fh} $credits[$i];
        close $fh;
        my $y = "h-60*t+" . (60 * $i);
        push @f, "drawtext=fontfile=$font:textfile=$tf:expansion=none:"
               . "fontsize=32:fontcolor=white:borderw=2:bordercolor=black:"
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
           '-f', 'lavfi', '-i', "color=c=$a{bg}:s=1280x720:r=25:d=14",
           '-vf', join(',', @f, 'format=yuv420p'),
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
    my $f = roll(name => "roll-$bg", bg => $bg);
    my $r = run_worker('ocr', $f, '--stats', '--format', 'json');
    is $r->{rc}, 0, "$bg: exit 0" or diag $r->{stderr};
    my @segs = @{ $r->{json} ? $r->{json}{segments} : [] };

    # each credit in some segment; none off the frame: line i's top is
    # at 720 - 60 t + 60 i, below the frame until t = i, above it (its
    # 32 px glyphs and outline gone) from t = 12.7 + i
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

    my $st = stats_of($r->{stderr});
    ok $st->{readings_rolled} > $st->{ocr_calls},
        "$bg: most screens rolled ($st->{readings_rolled} rolled, "
        . "$st->{ocr_calls} read whole)";
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
