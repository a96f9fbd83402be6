#!/usr/bin/perl
# OCR quality and speed of "video-ocr-worker ocr" on generated videos.
# Every number docs/worker-pipeline.md quotes comes from this script:
#
#   perl bench/ocr/ocr-bench.pl quality [--baseline]   # ~2 min
#   perl bench/ocr/ocr-bench.pl speed                  # ~1 min
#
# WORKER_BIN names the binary (default build/video-ocr-worker); VOCR_KEEP=1
# keeps the generated videos.
#
# quality: 122 two-second 854x480 H.264 clips, one subtitle on screen
# from 0 to 0.6 s, sampled at 1 fps: frame 0 has the text (its CER is
# measured), frame 1 has none (any text read there is a false positive).
# Backgrounds: solid, light (dark text), noise (heavy grain), moving
# (gradients), bars (SMPTE bars, text on a translucent box), mid (dark
# text on mid grey), and coloured text (yellow, cyan, pink) on dark or
# moving backgrounds; six fonts; sizes 20-36.  --baseline also runs the
# stock tesseract CLI (--psm 3) on the grey frame, for comparison.
#
# speed: 30-second 25 fps clips with a new subtitle every 3 s, at 640x360
# and 1280x720, H.264 and VP9, sampled at 1 and 2 fps; reports video
# seconds per CPU second of the whole process (inspection, decoding,
# OCR), with the time spent decoding and in Tesseract.  The grain clip
# is there to show a decode-bound case: pure noise makes a VP9 stream of
# tens of Mbit/s.

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../../t/lib";

use JSON::PP ();
use VideoOCR::Media qw(make_video run_worker tmpdir cer normalise);

my $what = shift // 'quality';
my $baseline = grep { $_ eq '--baseline' } @ARGV;
my $dir = tmpdir();

my @fonts = qw(DejaVuSans DejaVuSerif DejaVuSansMono LiberationSans
    LiberationSerif LiberationMono);
my @texts = ('Where are you going tonight?', 'I have never seen it before.',
    'Bring the blue box, please', 'Meet me at the old station',
    'The train leaves at 9:30', 'Nobody knew what happened',
    "It's cold outside, isn't it?", "We'll talk about it later");

if ($what eq 'quality') {
    quality();
} elsif ($what eq 'speed') {
    speed();
} else {
    die "usage: $0 quality [--baseline] | speed\n";
}

sub quality {
    my @clips;
    my $i = 0;
    for my $bg (qw(solid light noise moving bars)) {
        for my $font (@fonts) {
            for my $size (20, 28, 36) {
                my $style = $bg eq 'light' ? 'plain'
                          : $bg eq 'bars' ? 'box' : 'outline';
                push @clips, [$bg, $bg, $font, $size, $style, undef,
                    $texts[$i++ % @texts]];
            }
        }
    }
    for my $v (['mid', 'plain', 'black'], ['moving', 'outline', 'yellow'],
               ['solid', 'outline', 'cyan'], ['moving', 'outline', '0xffb0b0'])
    {
        for my $font (@fonts[0, 1, 3, 4]) {
            for my $size (22, 32) {
                push @clips, ["$v->[0]-$v->[2]", $v->[0], $font, $size,
                    $v->[1], $v->[2], $texts[$i++ % @texts]];
            }
        }
    }

    my (%cer, %base);
    my ($bad, $bbad, $fp, $cpu) = (0, 0, 0, 0);
    for my $n (0 .. $#clips) {
        my ($cat, $bg, $font, $size, $style, $color, $text) = @{ $clips[$n] };
        my $f = make_video(path => "$dir/q$n.mp4", size => '854x480',
            duration => 2, background => $bg, dir => $dir, seed => $n,
            spans => [{ start => 0, end => 0.6, text => $text, font => $font,
                        size => $size, style => $style, color => $color }]);

        my $r = run_worker('ocr', $f, '--frames', '--stats');
        die "q$n: $r->{stderr}" if $r->{rc};
        # the samples at 0 and 1 s; the list also holds the frames the
        # worker placed the change at ("between"), in time order
        my @samples = grep { !$_->{between} } @{ $r->{json}{frames} };
        my ($f0) = grep { $_->{t} == 0 } @samples;
        my ($f1) = grep { $_->{t} == 1 } @samples;
        die "q$n: no samples at 0 and 1 s" unless $f0 && $f1;
        my $c = cer($f0->{text}, $text);
        push @{ $cer{$cat} }, $c;
        $bad++ if $c > 0.05;
        if ($f1->{text} ne '') {
            $fp++;
            printf "q%-3d %-16s %-16s %2d read on the empty frame: %s\n",
                $n, $cat, $font, $size, normalise($f1->{text});
        }
        $cpu += ($r->{stderr} =~ /"cpu_ms":(\d+)/)[0];
        printf "q%-3d %-16s %-16s %2d %.3f %s\n", $n, $cat, $font, $size, $c,
            normalise($f0->{text}) if $c > 0.05 || $ENV{VERBOSE};

        if ($baseline) {
            system('ffmpeg', '-nostdin', '-loglevel', 'error', '-y', '-i', $f,
                '-frames:v', '1', '-vf', 'format=gray', "$dir/q$n.png") == 0
                or die;
            my $t = qx(OMP_THREAD_LIMIT=1 tesseract $dir/q$n.png - --psm 3 2>/dev/null);
            my $bc = cer($t, $text);
            push @{ $base{$cat} }, $bc;
            $bbad++ if $bc > 0.05;
        }
    }

    printf "\n%-18s %6s %9s %s\n", 'background', 'clips', 'mean CER',
        $baseline ? 'baseline (tesseract CLI on the grey frame)' : '';
    for my $cat (sort keys %cer) {
        printf "%-18s %6d %8.1f%% %s\n", $cat, scalar @{ $cer{$cat} },
            100 * mean($cer{$cat}),
            $baseline ? sprintf('%8.1f%%', 100 * mean($base{$cat})) : '';
    }
    my @all = map { @$_ } values %cer;
    printf "%-18s %6d %8.1f%% %s\n", 'all', scalar @all, 100 * mean(\@all),
        $baseline ? sprintf('%8.1f%%', 100 * mean([map { @$_ } values %base]))
                  : '';
    printf "clips above 5%% CER: %d%s; text read on empty frames: %d; "
        . "worker CPU: %.1f s\n", $bad,
        $baseline ? " (baseline: $bbad)" : '', $fp, $cpu / 1000;
}

sub speed {
    my @subs = map { { start => 3 * $_ + 0.2, end => 3 * $_ + 2.8,
                       text => $texts[$_ % @texts] } } 0 .. 9;
    printf "%-28s %4s %6s %5s %8s %8s %6s %6s %8s\n", 'clip', 'fps',
        'frames', 'OCR', 'decode s', 'OCR s', 'cpu s', 'wall s',
        'video s / cpu s';
    for my $c (['640x360', 'libx264', 'mp4', 'solid'],
               ['640x360', 'libx264', 'mp4', 'moving'],
               ['1280x720', 'libx264', 'mp4', 'moving'],
               ['1280x720', 'libvpx-vp9', 'webm', 'moving'],
               ['640x360', 'libvpx-vp9', 'webm', 'noise'])
    {
        my ($size, $codec, $ext, $bg) = @$c;
        my $f = make_video(path => "$dir/s-$size-$bg.$ext", size => $size,
            duration => 30, codec => $codec, background => $bg, dir => $dir,
            seed => 1, spans => \@subs);
        for my $fps (1, 2) {
            my $r = run_worker('ocr', $f, '--fps', $fps, '--stats');
            die $r->{stderr} if $r->{rc};
            my ($line) = grep { /^\{"runs"/ } split /\n/, $r->{stderr};
            my $s = JSON::PP->new->decode($line)->{runs}[0];
            printf "%-28s %4s %6d %5d %8.2f %8.2f %6.2f %6.2f %8.1f\n",
                "$size $codec $bg", $fps, $s->{frames_planned},
                $s->{ocr_calls}, $s->{decode_ms} / 1000, $s->{ocr_ms} / 1000,
                $s->{cpu_ms} / 1000, $s->{total_ms} / 1000,
                30 / ($s->{cpu_ms} / 1000);
        }
    }
}

sub mean {
    my ($a) = @_;
    my $s = 0;
    $s += $_ for @$a;
    return @$a ? $s / @$a : 0;
}
