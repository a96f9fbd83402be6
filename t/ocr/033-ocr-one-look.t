# A screen shown for one look is kept (issue 36, shape 6): looks come
# every sixth of a second at 1 sample a second, so a word of a karaoke
# line shown for a quarter of a second, or a caption replaced in place
# after 0.23 s, is seen by one look; the look after it shows neither
# the reference's text nor the held look's.  Such a look used to be
# taken for the first blurred frames of the text after it, which stood
# in for it: every other karaoke word and every flash was lost, the
# text after it timed from the flash's start.  Now the look after
# stands in only when it grew out of the held one (its ink is where the
# held look's was: a fade, a wipe, the encoder's blur) or the held
# look's lines moved on (texture that drifts, credits, a marquee;
# vw_look_grew).  Asserted, over a picture that moves everywhere
# (testsrc2's bars and squares) and over a still one, read as a new
# user would (`video-ocr-worker ocr`, 1 sample a second):
#
# - every word of a line shown one word at a time, 0.24 s each, starts
#   a state of its own on its first frame (give or take two) and is
#   read as a segment of its own (over the moving squares, one word's
#   single look may read as nothing);
# - a caption shown for 0.23 s and then replaced in place is a segment
#   of its own, and the caption after it starts when it does;
# - a line that fades in over 0.5 s is one segment (the looks of its
#   fade stand in as before), and nothing but the texts shown is read.
#
# About 15 s of CPU.

use strict;
use warnings;
use lib 't/lib';

use Test::More;
use VideoOCR::Media qw(run_worker worker_bin tmpdir font_path cer);

-x worker_bin() or BAIL_OUT('no worker binary at ' . worker_bin());

my $dir = tmpdir();
my $font = font_path('DejaVuSans');

# the words one at a time from 0.5 s, then a pause; a flash at 3.4 s
# replaced in place at 3.63 s until 5.6 s; a line fading in from 6.4 s
my @words = qw(Morning comes slowly over these quiet hills);
my @spans;
my $t = 0.5;
for my $w (@words) {
    push @spans, { text => $w, start => $t, end => $t + 0.24, word => 1 };
    $t += 0.24;
}
push @spans,
    { text => 'The kitchen light is still on.', start => 3.4, end => 3.63,
      flash => 1 },
    { text => 'I never learned to swim.', start => 3.63, end => 5.6 },
    { text => 'Meet me by the harbour tonight', start => 6.4, end => 8.6,
      fade => 0.5 };

sub make {
    my (%a) = @_;
    my @f;
    my $n = 0;
    for my $s (@spans) {
        my $tf = "$dir/$a{name}-" . $n++ . '.txt';
        open my $fh, '>', $tf or die "$tf: $!";
        print {$fh} $s->{text};
        close $fh;
        # shown for frames with start <= t < end: the next text's first
        # frame is its own
        my $alpha = $s->{fade}
            ? ":alpha='min(1,(t-$s->{start})/$s->{fade})'" : '';
        push @f, "drawtext=fontfile=$font:textfile=$tf:expansion=none"
            . ':fontsize=36:fontcolor=white:borderw=3:bordercolor=black'
            . ":x=(w-tw)/2:y=h-80$alpha"
            . ":enable='gte(t,$s->{start})*lt(t,$s->{end})'";
    }
    push @f, 'format=yuv420p';
    my $path = "$dir/$a{name}.mp4";
    my @cmd = ('ffmpeg', '-nostdin', '-hide_banner', '-loglevel', 'error',
        '-y', '-f', 'lavfi', '-i', $a{source}, '-vf', join(',', @f),
        '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '20',
        '-threads', '1', $path);
    system(@cmd) == 0 or die "ffmpeg failed: @cmd\n";
    return $path;
}

my %videos = (
    # testsrc2 without its time code (drawn at the top: cut off)
    'moving' => 'testsrc2=s=854x776:r=25:d=9,crop=854:480:0:ih-480,'
              . 'hue=s=0.6,eq=brightness=-0.1',
    'still'  => 'color=c=0x405060:s=854x480:r=25:d=9,'
              . 'drawbox=x=100:y=60:w=300:h=200:color=0x8090a0:t=fill',
);

sub norm { my $s = lc shift; $s =~ s/[\s[:punct:]]+//g; return $s }

for my $name (sort keys %videos) {
    my $path = make(name => $name, source => $videos{$name});
    my $r = run_worker('ocr', $path, '--format', 'json', '--frames');
    is $r->{rc}, 0, "$name: read" or diag $r->{stderr};
    my @segs = @{ $r->{json} ? $r->{json}{segments} : [] };
    my @rows = @{ $r->{json} ? $r->{json}{frames} : [] };
    diag "$name: " . join(' | ', map {
        sprintf '%.2f-%.2f %s', $_->{start}, $_->{end},
            $_->{text} =~ s/\n/ \/ /gr } @segs);

    # each text starts a state of its own: a row placed on its first
    # frame, give or take two (0.08 s at 25 fps); not for the fade,
    # which starts once the layer sees it
    for my $s (grep { !$_->{fade} } @spans) {
        my @at = grep { $_->{exact} && !defined $_->{reused_from}
                        && abs($_->{pts} - $s->{start}) <= 0.081 } @rows;
        ok scalar(@at), sprintf '%s: a change at %.2f ("%s")', $name,
            $s->{start}, $s->{text};
    }

    # each text read: the segment around its time that holds it best
    my (%used, @unread);
    for my $s (@spans) {
        my ($best, $bc);
        for my $g (@segs) {
            next if $g->{end} <= $s->{start} - 0.1
                 || $g->{start} >= $s->{end} + 0.1;
            my $c = cer(norm($s->{text}), norm($g->{text}));
            ($best, $bc) = ($g, $c) if !defined $bc || $c < $bc;
        }
        if (!defined $bc || $bc > 0.2) {
            push @unread, $s;
            diag "$name: \"$s->{text}\" not read; best: "
                . ($best ? "$best->{text} (CER $bc)" : 'none');
            next;
        }
        $used{"$best->{start}"} = 1;
        next if $s->{fade};
        ok abs($best->{start} - $s->{start}) <= 0.081,
            sprintf '%s: "%s" a segment from %.2f (%.2f)', $name,
                $s->{text}, $best->{start}, $s->{start};
    }
    # a word read from one look over the moving squares can read as
    # nothing (its region takes in a square: "quiet" today); the
    # captions and the still picture's words are all read
    my @words_unread = grep { $_->{word} } @unread;
    ok !(grep { !$_->{word} } @unread)
        && @words_unread <= ($name eq 'moving' ? 1 : 0),
        "$name: every text read" . ($name eq 'moving'
                                    ? ' (but at most one word)' : '');
    my @other = grep { !$used{"$_->{start}"} } @segs;
    is scalar(@other), 0, "$name: nothing but the texts shown"
        or diag join ' | ', map { "$_->{start} $_->{text}" } @other;
}

done_testing();
