#!/usr/bin/perl
# Is every line of the real-like set's truth (bench/ocr/lib/OCRReal.pm)
# whole on screen while its truth says it is?  A line no reader can
# see whole can never be found, and only lowers every recall.
#
#   perl bench/ocr/fits.pl [--quick] [--only NAME,...] [--all]
#
# Each truth line's event (the one whose text has the line as a row and
# whose time covers the line's), alone in a script with the set's header
# (OCRRealMake::script) and its other rows transparent, is drawn by
# libass (ffmpeg's ass filter, as the set is) over a flat grey frame of
# the video's size at the line's first, middle and last frames; the
# ink's box (pixels 7 or more grey levels off the grey: fill, outline,
# shadow, glow) is ffmpeg's bbox filter's.  A line is cut when in one of
# them its ink touches an edge of the frame (or of its box, \clip) or
# there is none.  Prints
# the cut lines (--all: every line), then a count; exits 1 when a line
# is cut.  Lines drawn in a box that wipes in (\clip) are checked at
# their last frame and middle only, and faded lines out of their fades
# (\fad): the wipe and the fades are the shapes'.

use strict;
use warnings;
use utf8;
use FindBin;
use lib "$FindBin::Bin/lib", "$FindBin::Bin/../../t/lib";

use File::Temp qw(tempdir);
use POSIX qw(ceil);
use OCRReal ();
use OCRRealMake ();

binmode STDOUT, ':encoding(UTF-8)';
my ($quick, $all, %only);
while (my $a = shift) {
    if ($a eq '--quick') { $quick = 1 }
    elsif ($a eq '--all') { $all = 1 }
    elsif ($a eq '--only') { %only = map { $_ => 1 } split /,/, shift }
    else { die "usage: $0 [--quick] [--only NAME,...] [--all]\n" }
}

my $tmp = tempdir('fits-XXXXXX', TMPDIR => 1, CLEANUP => 1);
my ($n, $cut) = (0, 0);
for my $v ($quick ? OCRReal::quick() : OCRReal::videos()) {
    next if %only && !$only{ $v->{name} };
    my ($W, $H) = split /x/, $v->{size};
    my ($events, $lines) = OCRReal::plan($v);
    for my $l (@$lines) {
        $n++;
        my ($e, $row) = _event_of($events, $l);
        my $what = $e ? _look($v, $W, $H, $e, $row, $l)
                      : 'no event draws it';
        next unless $what || $all;
        $cut++ if $what;
        printf "%s\t%.2f-%.2f\t%s\t%s\t%s\n", $v->{name}, $l->{start},
            $l->{end}, $l->{shape}, $l->{text}, $what || 'fits';
    }
}
printf "%d of %d lines not whole on screen\n", $cut, $n;
exit($cut ? 1 : 0);

# The event drawing the line, and the line's row in it
sub _event_of {
    my ($events, $l) = @_;
    for my $e (@$events) {
        next if $e->{start} > $l->{start} + 0.005
             || $e->{end} < $l->{end} - 0.005;
        my @rows = split /\\N/, $e->{text} =~ s/\{[^}]*\}//gr;
        for my $i (0 .. $#rows) {
            return ($e, $i) if $rows[$i] eq $l->{text};
        }
    }
    return;
}

# '' when the line is whole in its frames, else what is wrong
sub _look {
    my ($v, $W, $H, $e, $row, $l) = @_;
    my $rate = $v->{rate};
    # whole seconds earlier: the frames fall where they fall in the video
    my $shift = int($e->{start});
    my @rows = split /\\N/, $e->{text};
    if (@rows > 1) {
        for my $i (0 .. $#rows) {
            my $a = $i == $row ? '00' : 'FF';
            $rows[$i] =~ s/^((?:\{[^}]*\})?)/$1\{\\alpha&H$a&\}/;
        }
    }
    my $one = { %$e, start => $e->{start} - $shift, end => $e->{end} - $shift,
                text => join('\N', @rows) };
    open my $fh, '>:encoding(UTF-8)', "$tmp/one.ass" or die "$tmp: $!";
    print {$fh} OCRRealMake::script($W, $H, [$one]);
    close $fh;
    my ($ls, $le) = ($l->{start} - $shift, $l->{end} - $shift);
    my $n0 = ceil($ls * $rate - 1e-6);
    my $n1 = ceil($le * $rate - 1e-6) - 1;
    return 'no frame' if $n1 < $n0;
    # a fade is the shape's: the frames in it are not looked at
    if (my ($in, $out) = $e->{text} =~ /\\fad\((\d+),(\d+)\)/) {
        my $a = ceil(($one->{start} + $in / 1000) * $rate - 1e-6);
        my $b = ceil(($one->{end} - $out / 1000) * $rate - 1e-6) - 1;
        $n0 = $a if $a > $n0;
        $n1 = $b if $b < $n1;
        return 'no frame out of its fades' if $n1 < $n0;
    }
    my %at = map { $_ => 1 } $n0, int(($n0 + $n1) / 2), $n1;
    delete $at{$n0} if $e->{text} =~ /\\clip/ && $n1 > $n0;
    my @at = sort { $a <=> $b } keys %at;
    my $sel = join '+', map { "eq(n\\,$_)" } @at;
    my $out = `ffmpeg -nostdin -hide_banner -loglevel info -f lavfi -i \\
        'color=c=0x808080:s=${W}x$H:r=$rate' -vf "ass=$tmp/one.ass,\\
        format=gray,lut=y='if(gt(abs(val-126),6),255,0)',select='$sel',\\
        bbox=min_val=128" -vsync 0 -frames:v ${\ scalar @at} -f null - 2>&1`;
    my %box;
    while ($out =~ /pts:(\d+) \S+(?: x1:(\d+) x2:(\d+) y1:(\d+) y2:(\d+))?/g) {
        $box{$1} = defined $2 ? [$2, $3, $4, $5] : undef;
    }
    # a line drawn in a box (\clip, the last one: where a wipe ends) is
    # cut by its edges as by the frame's
    my ($cx1, $cy1, $cx2, $cy2) = (0, 0, $W, $H);
    ($cx1, $cy1, $cx2, $cy2) = ($1, $2, $3, $4)
        while $e->{text} =~ /\\clip\((\d+),(\d+),(\d+),(\d+)\)/g;
    my @bad;
    for my $f (@at) {
        my $t = sprintf '%.2f s', ($f / $rate) + $shift;
        my $b = $box{$f};
        if (!$b) { push @bad, "$t: no ink"; next }
        my ($x1, $x2, $y1, $y2) = @$b;
        my @edge = ($x1 <= $cx1 ? 'left' : (),
                    $x2 >= $cx2 - 1 ? 'right' : (),
                    $y1 <= $cy1 ? 'top' : (), $y2 >= $cy2 - 1 ? 'bottom' : ());
        push @bad, "$t: cut at " . join('+', @edge)
            . " (ink x $x1-$x2, y $y1-$y2)" if @edge;
    }
    return join '; ', @bad;
}
