package VideoOCR::Media;

# Test videos with known burned-in text, made at test time with ffmpeg's
# drawtext, and the measures the worker suite uses on what comes back.
#
#   my $dir  = VideoOCR::Media::tmpdir();
#   my $file = make_video(path => "$dir/a.mp4", duration => 4,
#       background => 'solid', spans => [
#           { start => 0.5, end => 2.5, text => 'Hello there' },
#           { start => 2.7, end => 4,   text => 'Good bye', font => 'DejaVuSerif' },
#       ]);
#   (more keys: size, rate, codec, bitrate, audio, extra, seed: the
#   moving backgrounds' gradients are random unless it is given,
#   noise_seed: the noise filters', and zoom: the seconds the fractal
#   takes to zoom in, the duration unless given, so that the first
#   seconds of a long video are made alone; see _background)
#   my $r = run_worker('ocr', $file, '--format', 'json');
#   is $r->{rc}, 0;  my $res = $r->{json};
#
# Character error rate: cer($got, $want) is the Levenshtein distance (in
# characters, after decoding UTF-8) between normalise($got) and
# normalise($want), divided by the length of normalise($want).
# normalise() maps the typographic quotes and dashes Tesseract likes to
# print to their ASCII forms, turns every run of white space (line breaks
# included) into one space and trims the ends.  Case and punctuation are
# kept: they are part of what a subtitle says.

use strict;
use warnings;
use utf8;

use Exporter 'import';
use File::Temp ();
use JSON::PP ();
use POSIX ();
use Digest::SHA ();
use Encode ();

our @EXPORT_OK = qw(tmpdir make_video seeds make_audio_only run_worker worker_bin
    normalise cer levenshtein font_path match_spans ffprobe_json set_matrix);

my %FONTS = (
    DejaVuSans      => '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
    DejaVuSerif     => '/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf',
    DejaVuSansMono  => '/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf',
    DejaVuSansBold  => '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf',
    LiberationSans  =>
        '/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf',
    LiberationSerif =>
        '/usr/share/fonts/truetype/liberation2/LiberationSerif-Regular.ttf',
    LiberationMono  =>
        '/usr/share/fonts/truetype/liberation2/LiberationMono-Regular.ttf',
    # the fonts of the benchmark's second set (bench/ocr/hard.pl)
    DejaVuSansCondensed  =>
        '/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed.ttf',
    DejaVuSerifCondensed =>
        '/usr/share/fonts/truetype/dejavu/DejaVuSerifCondensed.ttf',
    DejaVuSerifBold      =>
        '/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf',
    DejaVuSansMonoBold   =>
        '/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf',
    LiberationSansBold   =>
        '/usr/share/fonts/truetype/liberation2/LiberationSans-Bold.ttf',
    LiberationSerifBold  =>
        '/usr/share/fonts/truetype/liberation2/LiberationSerif-Bold.ttf',
    LiberationMonoBold   =>
        '/usr/share/fonts/truetype/liberation2/LiberationMono-Bold.ttf',
    # Han, kana and Hangul (the CJK traits of bench/ocr/lib/OCRTraits.pm)
    WenQuanYiZenHei      => '/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc',
);

sub font_path {
    my ($name) = @_;
    my $p = $FONTS{$name} or die "unknown font $name";
    -r $p or die "font $name not installed at $p";
    return $p;
}

sub worker_bin {
    return $ENV{WORKER_BIN} || 'build/video-ocr-worker';
}

my @KEEP;    # temp dirs live as long as the test

sub tmpdir {
    my $d = File::Temp->newdir('vocr-XXXXXX', TMPDIR => 1,
        CLEANUP => !$ENV{VOCR_KEEP});
    push @KEEP, $d;
    return $d->dirname;
}

# seeds(NAME, N): make_video's seed and noise_seed for the Nth other
# making of the video called NAME (0: the usual one): the gradients'
# seed from the name, the noise's ffmpeg's own (123457), each plus N.
sub seeds {
    my ($name, $add) = @_;
    $add //= 0;
    return (seed => hex(substr(Digest::SHA::sha1_hex($name), 0, 7)) + $add,
            noise_seed => 123457 + $add);
}

# The backgrounds, as lavfi sources for a given size, rate and duration.
# Each is the same picture every time it is made when a seed is given:
# gradients draws from its seed and takes every colour it uses from
# c0..c(n-1) (a colour left out is random whatever the seed), noise has
# a seed of its own, fixed (ffmpeg's default, 123457) unless noise_seed
# is given.  (movingnoise is not what its recipe says: ffmpeg 5.1
# negotiates its gradients as 16-bit RGBA, and the noise over them comes
# out as strong temporal noise on a flat colour, c4's green (a random
# one before c4 was named), the same frames for gradient seeds 1, 2 and
# 5; only noise_seed makes another picture.  Every hard-set number so
# far was measured on such a picture, so it stays.)
sub _background {
    my ($bg, $size, $rate, $dur, $seed, $noise_seed, $zoom) = @_;
    my $common = "s=$size:r=$rate:d=$dur";
    my $g = defined $seed ? ":seed=$seed" : '';     # the gradients'
    my $n = defined $noise_seed ? ":all_seed=$noise_seed" : '';
    return {
        solid  => "color=c=0x203050:$common",
        light  => "color=c=0xe8e4d8:$common",
        mid    => "color=c=0x8c8c8c:$common",
        noise  => "color=c=0x707070:$common,noise=alls=40:allf=t+u$n",
        moving => "gradients=$common$g:speed=0.05:c0=0x3060a0:c1=0xa0a0a0"
                  . ":c2=0x404040:c3=0x806040:n=4",
        bars   => "smptebars=$common",
        black  => "color=c=black:$common",
        grain  => "color=c=0x506070:$common,noise=alls=10:allf=t+u$n",
        busy   => _busy($size, $rate, $dur),
        # the harder backgrounds of the benchmark's second set
        # (bench/ocr/lib/OCRHard.pm): a zooming fractal with grain, the
        # busy test pattern under strong temporal noise, strong noise on
        # a flat green (see above), a dark noisy screen
        fractal   => "mandelbrot=s=$size:r=$rate:maxiter=96:start_scale=2"
                     . ":end_scale=0.05:end_pts=" . ($zoom // $dur)
                     . ":outer=normalized_iteration_count,trim=duration=$dur"
                     . ",noise=alls=20:allf=t+u$n",
        busynoise => _busy($size, $rate, $dur) . ",noise=alls=50:allf=t+u$n",
        movingnoise => "gradients=$common$g:speed=0.12:c0=0x2050c0:c1=0xd0d0d0"
                       . ":c2=0x303030:c3=0xc08040:c4=0x50a070:n=5"
                       . ",noise=alls=35:allf=t+u$n",
        darknoise => "color=c=0x303838:$common,noise=alls=45:allf=t+u$n",
    }->{$bg} // die "unknown background $bg";
}

# A picture that moves everywhere: testsrc2's bars, gradient and
# moving squares, without its time code (drawn at the top: made taller,
# then the top cut off), in muted colours.
sub _busy {
    my ($size, $rate, $dur) = @_;
    my ($w, $h) = split /x/, $size;
    my $th = 2 * int($h * 5 / 8);
    return "testsrc2=s=${w}x$th:r=$rate:d=$dur,crop=$w:$h:0:ih-$h,"
        . "hue=s=0.6,eq=brightness=-0.1";
}

# make_video(path => ..., spans => [...], ...): see the top of the file.
# Span keys: start, end (seconds; visible for frames with start <= t <=
# end), text, font (default DejaVuSans), size (default 28), style
# (outline: color, default white, with a black border, the default; box:
# white on a
# translucent black box; plain: the given color, default black), color,
# y (bottom, the default, or top, or middle, or a number of pixels or an
# expression), x (centred by default, or a number of pixels or an
# expression of t), border (outline width, default 2), boxcolor (of the
# box style, default black@0.75).
sub make_video {
    my %a = @_;
    my $path  = $a{path} or die 'path';
    my $size  = $a{size} // '640x360';
    my $rate  = $a{rate} // 25;
    my $dur   = $a{duration} // 4;
    my $bg    = $a{background} // 'solid';
    my $codec = $a{codec} // 'libx264';
    my $dir   = $a{dir} // tmpdir();

    my @filters;
    my $n = 0;
    for my $s (@{ $a{spans} // [] }) {
        my $tf = "$dir/span" . $n++ . '-' . int(rand(1e9)) . '.txt';
        open my $fh, '>:encoding(UTF-8)', $tf or die "$tf: $!";
        print {$fh} $s->{text};
        close $fh;

        my $font  = font_path($s->{font} // 'DejaVuSans');
        my $fsize = $s->{size} // 28;
        my $style = $s->{style} // 'outline';
        my $y     = $s->{y} // 'bottom';
        $y = $y eq 'bottom' ? 'h-th-24' : $y eq 'top' ? '24'
           : $y eq 'middle' ? '(h-th)/2' : $y;
        my $x = $s->{x} // '(w-tw)/2';

        my $look = $style eq 'outline'
            ? 'fontcolor=' . ($s->{color} // 'white')
              . ':borderw=' . ($s->{border} // 2) . ':bordercolor=black'
            : $style eq 'box'
            ? 'fontcolor=' . ($s->{color} // 'white') . ':box=1:boxcolor='
              . ($s->{boxcolor} // 'black@0.75') . ':boxborderw=8'
            : 'fontcolor=' . ($s->{color} // 'black');

        push @filters, "drawtext=fontfile=$font:textfile=$tf:"
            . "expansion=none:fontsize=$fsize:$look:"
            . "x='$x':y='$y':"
            . "enable='between(t,$s->{start},$s->{end})'";
    }
    push @filters, 'format=yuv420p';

    # bitrate (e.g. '2M'): a cap on the quality-driven rate, as streaming
    # encodes have (x264: capped CRF; VP9: constrained quality; MPEG-4:
    # average bit rate).  x264 in frame threads does not always give the
    # same stream twice (with a rate cap, never; without, 2 makings in 8
    # differed), so it runs in one thread: a seeded video is then the
    # same every time it is made.
    my $br = $a{bitrate};
    my @codec = $codec eq 'libx264'
        ? ('-c:v', 'libx264', '-preset', 'veryfast', '-crf', '20',
           '-threads', '1', $br ? ('-maxrate', $br, '-bufsize', $br) : ())
        : $codec eq 'libvpx-vp9'
        ? ('-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8',
           '-b:v', $br // '0', '-crf', '32', '-row-mt', '1')
        : $codec eq 'mpeg4'
        ? ('-c:v', 'mpeg4', $br ? ('-b:v', $br) : ('-q:v', '3'))
        : ('-c:v', $codec);

    my @cmd = ('ffmpeg', '-nostdin', '-hide_banner', '-loglevel', 'error',
        '-y', '-f', 'lavfi', '-i',
        _background($bg, $size, $rate, $dur, $a{seed}, $a{noise_seed},
                    $a{zoom}),
        @{ $a{audio} ? ['-f', 'lavfi', '-i',
                        "sine=frequency=440:duration=$dur"] : [] },
        '-vf', join(',', @filters), @codec,
        @{ $a{audio} ? ['-c:a', $a{audio_codec} // 'aac', '-shortest'] : [] },
        @{ $a{extra} // [] }, $path);

    system(@cmd) == 0 or die "ffmpeg failed ($?): @cmd";
    return $path;
}

sub make_audio_only {
    my %a = @_;
    my $path = $a{path} or die 'path';
    my $dur  = $a{duration} // 2;
    my @cmd = ('ffmpeg', '-nostdin', '-hide_banner', '-loglevel', 'error',
        '-y', '-f', 'lavfi', '-i', "sine=frequency=440:duration=$dur",
        '-c:a', $a{codec} // 'aac', @{ $a{extra} // [] }, $path);
    system(@cmd) == 0 or die "ffmpeg failed ($?): @cmd";
    return $path;
}

sub ffprobe_json {
    my ($path) = @_;
    my $out = qx(ffprobe -v error -of json -show_streams -show_format '$path');
    return JSON::PP->new->decode($out);
}

# run_worker(ARGS...): runs the worker binary, returns
# { rc, signal, stdout, stderr, json (stdout decoded when it is JSON) }.
sub run_worker {
    my @args = @_;
    my $dir = tmpdir();
    my ($out, $err) = ("$dir/stdout", "$dir/stderr");

    my $pid = fork // die "fork: $!";
    if ($pid == 0) {
        open STDOUT, '>', $out or POSIX::_exit(127);
        open STDERR, '>', $err or POSIX::_exit(127);
        exec worker_bin(), @args or POSIX::_exit(127);
    }
    waitpid $pid, 0;
    my $status = $?;

    my %r = (
        rc     => $status >> 8,
        signal => $status & 127,
        stdout => _slurp($out),
        stderr => _slurp($err),
    );
    if ($r{stdout} =~ /^\s*\{/) {
        $r{json} = eval { JSON::PP->new->utf8->decode($r{stdout}) };
    }
    return \%r;
}

sub _slurp {
    my ($f) = @_;
    open my $fh, '<:raw', $f or return '';
    local $/;
    my $s = <$fh>;
    return $s // '';
}

sub normalise {
    my ($s) = @_;
    $s = Encode::decode('UTF-8', $s) unless utf8::is_utf8($s);
    $s =~ s/[\x{2018}\x{2019}\x{201A}\x{2032}]/'/g;
    $s =~ s/[\x{201C}\x{201D}\x{201E}\x{2033}]/"/g;
    $s =~ s/[\x{2010}-\x{2014}\x{2212}]/-/g;
    $s =~ s/\s+/ /g;
    $s =~ s/^ //;
    $s =~ s/ $//;
    return $s;
}

sub levenshtein {
    my ($a, $b) = @_;
    my @a = split //, $a;
    my @b = split //, $b;
    my @prev = (0 .. @b);
    for my $i (1 .. @a) {
        my @cur = ($i);
        for my $j (1 .. @b) {
            my $sub = $prev[$j - 1] + ($a[$i - 1] eq $b[$j - 1] ? 0 : 1);
            my $del = $prev[$j] + 1;
            my $ins = $cur[$j - 1] + 1;
            my $m = $sub < $del ? $sub : $del;
            push @cur, $m < $ins ? $m : $ins;
        }
        @prev = @cur;
    }
    return $prev[-1];
}

sub cer {
    my ($got, $want) = @_;
    my ($g, $w) = (normalise($got // ''), normalise($want));
    return 0 if length($w) == 0 && length($g) == 0;
    return 1 if length($w) == 0;
    return levenshtein($g, $w) / length($w);
}

# match_spans($segments, $spans): for each truth span, the segment that
# overlaps it most (or undef).  Returns a list of
# { span, segment, cer, dstart, dend } and, as a second value, the
# segments that match no span (false positives).
sub match_spans {
    my ($segs, $spans) = @_;
    my (@out, %used);
    for my $s (@$spans) {
        my ($best, $bi, $bo) = (undef, -1, 0);
        for my $i (0 .. $#$segs) {
            my $g = $segs->[$i];
            my $o = _min($g->{end}, $s->{end}) - _max($g->{start}, $s->{start});
            if ($o > $bo) { ($best, $bi, $bo) = ($g, $i, $o) }
        }
        $used{$bi} = 1 if $best;
        push @out, {
            span    => $s,
            segment => $best,
            cer     => $best ? cer($best->{text}, $s->{text}) : 1,
            dstart  => $best ? abs($best->{start} - $s->{start}) : undef,
            dend    => $best ? abs($best->{end} - $s->{end}) : undef,
        };
    }
    my @extra = map { $segs->[$_] } grep { !$used{$_} } 0 .. $#$segs;
    return (\@out, \@extra);
}

sub _min { $_[0] < $_[1] ? $_[0] : $_[1] }
sub _max { $_[0] > $_[1] ? $_[0] : $_[1] }


# set_matrix(path, a, b, c, d): writes the display matrix of the video
# tkhd boxes of an MP4/MOV (ffmpeg 5.1 has no option that writes one) (x' = a x + c y, y' = b x + d y, as in FFmpeg's display.h), with
# the translation that keeps the picture in place
sub set_matrix {
    my ($path, $a, $b, $c, $d) = @_;
    open my $fh, '+<:raw', $path or die "$path: $!";
    my $buf = do { local $/; <$fh> };
    my (@at, $n);
    push @at, pos($buf) - 4 while $buf =~ /tkhd/g;
    for my $at (@at) {
        my $ver = ord substr($buf, $at + 4, 1);
        my $m = $at + 8 + ($ver == 1 ? 32 : 20) + 16;
        my ($w, $h) = map { $_ >> 16 } unpack 'NN', substr($buf, $m + 36, 8);
        next unless $w && $h;
        my $tx = ($a < 0 ? $w : 0) + ($c < 0 ? $h : 0);
        my $ty = ($b < 0 ? $w : 0) + ($d < 0 ? $h : 0);
        my @v = ($a << 16, $b << 16, 0, $c << 16, $d << 16, 0,
                 $tx << 16, $ty << 16, 1 << 30);
        substr($buf, $m, 36) = pack 'N9', map { $_ & 0xffffffff } @v;
        $n++;
    }
    $n or die "no video tkhd in $path";
    seek $fh, 0, 0;
    print {$fh} $buf;
    close $fh;
    return $path;
}

1;
