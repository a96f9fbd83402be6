package OCRRealMake;

# How a video of the real-like set (bench/ocr/lib/OCRReal.pm) is made:
# photographs from Debian's wallpaper and artwork packages, each one
# panned, zoomed or held still for a scene, the scenes cut one after the
# other, and the text drawn over them by libass (ffmpeg's `ass` filter)
# from an ASS script, then encoded as a real file is (H.264, HEVC or
# VP9, 8 or 10 bits, 4:2:0 or 4:2:2, with an audio track, a phone's
# rotation matrix).
#
#   make_video($v, $events, $dir, %o)   writes $dir/$v->{name}.$v->{ext};
#                                       returns the scenes' truth
#   photo($name)                        { file, package } or dies
#   check_fonts(@families)              dies unless fontconfig has them
#   script($w, $h, $events)             the ASS script that draws them
#   ass_time($s), colour('rrggbb', alpha)   ASS spellings
#
# A scene ($v->{scenes}[i]): photo (a name of %PHOTOS, or undef for a
# black picture), dur (s), move (still, pan-l, pan-r, pan-u, pan-d,
# zoom-in, zoom-out, drift), look (an ffmpeg filter chain applied to
# the photo once, before it moves: grey, lineart, cartoon, dim, white,
# lift, or a chain of its own), pic ([w, h]: the picture's size when it
# is smaller than the frame, letterboxed in its middle), inset ({photo,
# w, x, y}: a second photo framed in white over the first), grain (the
# strength of the temporal noise, 3 unless given; 0 for none).
#
# Everything random about the pictures (which way a pan goes, how fast,
# the grain) comes from the seed given (VideoOCR::Media::seeds), and the
# encoders run in one thread: the same video on every making.

use strict;
use warnings;
use utf8;

use Exporter 'import';
use File::Path qw(make_path);
use VideoOCR::Media qw(set_matrix);

our @EXPORT_OK = qw(make_video photo check_fonts ass_time colour script);

my $MATE = '/usr/share/backgrounds/mate/nature';
my $SKI  = '/usr/lib/python3/dist-packages/skimage/data';

# The photographs: what each shows, for the shapes that need it
my %PHOTOS = (
    aqua      => ["$MATE/Aqua.jpg", 'mate-backgrounds'],    # grey-blue water
    blinds    => ["$MATE/Blinds.jpg", 'mate-backgrounds'],  # a light leaf
    dune      => ["$MATE/Dune.jpg", 'mate-backgrounds'],    # sand, sea, sky
    flower    => ["$MATE/FreshFlower.jpg", 'mate-backgrounds'], # petals
    garden    => ["$MATE/Garden.jpg", 'mate-backgrounds'],  # flower, blur
    meadow    => ["$MATE/GreenMeadow.jpg", 'mate-backgrounds'], # grass
    ladybird  => ["$MATE/LadyBird.jpg", 'mate-backgrounds'], # foliage
    raindrops => ["$MATE/RainDrops.jpg", 'mate-backgrounds'], # leaves
    storm     => ["$MATE/Storm.jpg", 'mate-backgrounds'],   # grey sky, road
    wings     => ["$MATE/TwoWings.jpg", 'mate-backgrounds'], # seeds, bokeh
    wood      => ["$MATE/Wood.jpg", 'mate-backgrounds'],    # white wood
    yellow    => ["$MATE/YellowFlower.jpg", 'mate-backgrounds'],
    astronaut => ["$SKI/astronaut.png", 'python3-skimage'], # face, skin
    camera    => ["$SKI/camera.png", 'python3-skimage'],    # grey film
    coffee    => ["$SKI/coffee.png", 'python3-skimage'],    # white cup, wood
    rocket    => ["$SKI/rocket.jpg", 'python3-skimage'],    # lights at night
    cat       => ["$SKI/chelsea.png", 'python3-skimage'],   # fur, a face
    # a cluttered room
    garage    => ["$SKI/motorcycle_left.png", 'python3-skimage'],
    # points of light on black
    stars     => ["$SKI/hubble_deep_field.jpg", 'python3-skimage'],
);

my %LOOKS = (
    grey    => 'format=gray,format=yuv420p',
    # white with dark lines (a drawing's outlines, a costume)
    lineart => 'format=gray,edgedetect=low=0.05:high=0.15:mode=wires,negate,'
               . 'format=yuv420p',
    # flat colours with dark outlines (a cartoon's fills and line art):
    # the photo blurred and its levels cut to four, times its edges
    # drawn dark (@ is the scene's number: the labels are its own)
    cartoon => 'split[ca@][cb@];[ca@]avgblur=3,format=gbrp,lutrgb='
               . join(':', map { "$_='bitand(val,192)+40'" } qw(r g b))
               . '[cc@];[cb@]format=gray,edgedetect=low=0.1:high=0.25,'
               . 'negate,format=gbrp[cd@];[cc@][cd@]blend=all_mode=multiply,'
               . 'format=yuv420p',
    dim     => 'eq=brightness=-0.22:saturation=0.8',
    white   => 'eq=brightness=0.38:contrast=0.45:saturation=0.3',
    lift    => 'eq=brightness=0.08:contrast=0.8',
);

sub photo {
    my ($name) = @_;
    my $p = $PHOTOS{$name} or die "no photo called $name";
    -r $p->[0] or die "photo $name: $p->[0] is missing: install the Debian "
        . "package $p->[1] (scripts/deps.sh"
        . ($p->[1] eq 'python3-skimage' ? ' bench' : '') . ")\n";
    return { file => $p->[0], package => $p->[1] };
}

sub check_fonts {
    my %seen;
    for my $f (grep { !$seen{$_}++ } @_) {
        my $got = `fc-match -f '%{family}' '$f' 2>/dev/null` // '';
        grep { $_ eq $f } split /,/, $got
            or die "font \"$f\" is not installed (fontconfig gives \"$got\"):"
                 . " run scripts/deps.sh\n";
    }
}

sub ass_time {
    my ($s) = @_;
    my $cs = int($s * 100 + 0.5);
    return sprintf '%d:%02d:%02d.%02d', int($cs / 360000),
        int($cs / 6000) % 60, int($cs / 100) % 60, $cs % 100;
}

# 'rrggbb' (and an opacity 0-1) as ASS's &HAABBGGRR
sub colour {
    my ($rgb, $alpha) = @_;
    my ($r, $g, $b) = $rgb =~ /^(..)(..)(..)$/ or die "colour $rgb";
    my $a = defined $alpha ? sprintf('%02X', int(255 * (1 - $alpha) + 0.5))
                           : '00';
    return uc "&H$a$b$g$r&";
}

my %BITRATE = (90 => '1M', 480 => '2M', 720 => '4M', 1080 => '8M',
               1280 => '4M');

# The script: one style for outlined or plain text and one for boxed
# (BorderStyle 3); everything else is in each event's override tags.
sub script {
    my ($w, $h, $events) = @_;
    my $s = "[Script Info]\nScriptType: v4.00+\nPlayResX: $w\nPlayResY: $h\n"
        . "WrapStyle: 2\nScaledBorderAndShadow: yes\nYCbCr Matrix: TV.709\n\n"
        . "[V4+ Styles]\nFormat: Name, Fontname, Fontsize, PrimaryColour, "
        . "SecondaryColour, OutlineColour, BackColour, Bold, Italic, "
        . "Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle,"
        . " Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding\n"
        . "Style: Default,DejaVu Sans,36,&H00FFFFFF,&H000000FF,&H00000000,"
        . "&H80000000,0,0,0,0,100,100,0,0,1,2,0,2,20,20,30,1\n"
        . "Style: Box,DejaVu Sans,36,&H00FFFFFF,&H000000FF,&H50000000,"
        . "&H50000000,0,0,0,0,100,100,0,0,3,6,0,2,20,20,30,1\n\n"
        . "[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, "
        . "MarginR, MarginV, Effect, Text\n";
    for my $e (sort { $a->{start} <=> $b->{start} } @$events) {
        $s .= sprintf "Dialogue: %d,%s,%s,%s,,0,0,0,,%s\n",
            $e->{layer} // 1, ass_time($e->{start}), ass_time($e->{end}),
            $e->{style} // 'Default', $e->{text};
    }
    return $s;
}

# One scene's picture as a filter chain from input $k to [s$i]
sub _scene {
    my ($sc, $i, $k, $w, $h, $rate, $rng, $noise_seed) = @_;
    my ($pw, $ph) = @{ $sc->{pic} // [$w, $h] };
    my $n = int($sc->{dur} * $rate + 0.5);
    my $move = $sc->{move} // 'still';
    my $m = 1.18 + 0.1 * $rng->();          # room to move in
    my ($cw, $ch) = (_even($pw * $m), _even($ph * $m));
    my $look = join ',', '', map { $LOOKS{$_} // $_ } split /,(?![^,]*')/,
        $sc->{look} // '';
    $look =~ s/@/$i/g;
    my $f = $sc->{photo}
        ? "[$k:v]scale=$cw:$ch:force_original_aspect_ratio=increase,"
          . "crop=$cw:$ch,setsar=1,format=yuv420p$look"
        : "color=c=black:s=${cw}x$ch:r=$rate,trim=end_frame=1,format=yuv420p";
    my $d = $sc->{dur};
    my $dir = $rng->() < 0.5 ? 1 : -1;
    if ($move =~ /^zoom/) {
        my $z = 0.12 + 0.1 * $rng->();
        my $zx = $move eq 'zoom-in' ? "1+$z*on/$n" : "1+$z-$z*on/$n";
        $f .= ",zoompan=z='$zx':x='iw/2-iw/zoom/2':y='ih/2-ih/zoom/2'"
            . ":d=$n:s=${pw}x$ph:fps=$rate";
    } else {
        my ($x, $y) = ('(iw-ow)/2', '(ih-oh)/2');
        $x = "(iw-ow)*t/$d" if $move eq 'pan-r';
        $x = "(iw-ow)*(1-t/$d)" if $move eq 'pan-l';
        $y = "(ih-oh)*t/$d" if $move eq 'pan-d';
        $y = "(ih-oh)*(1-t/$d)" if $move eq 'pan-u';
        if ($move eq 'drift') {         # a hand-held camera
            my $p = sprintf '%.2f', 6.28 * $rng->();
            $x = "(iw-ow)/2+(iw-ow)*0.4*sin(0.9*t+$p)";
            $y = "(ih-oh)/2+(ih-oh)*0.3*sin(0.6*t*$dir+$p)";
        }
        $f .= ",loop=loop=" . ($n - 1) . ":size=1,setpts=N/$rate/TB"
            . ",crop=$pw:$ph:x='$x':y='$y'";
    }
    if (my $in = $sc->{inset}) {
        # filled in by make_video: the inset's own input
        $f .= "[b$i];[$in->{input}:v]scale=$in->{w}:-2,setsar=1,"
            . "format=yuv420p,pad=iw+8:ih+8:4:4:white[n$i];"
            . "[b$i][n$i]overlay=$in->{x}:$in->{y}";
    }
    $f .= ",pad=$w:$h:(ow-iw)/2:(oh-ih)/2:black" if $pw != $w || $ph != $h;
    my $g = $sc->{grain} // 3;
    $f .= ",noise=alls=$g:allf=t:all_seed=" . ($noise_seed + $i) if $g;
    return "$f,setsar=1,format=yuv420p,trim=end_frame=$n,"
        . "setpts=N/$rate/TB[s$i]";
}

sub _even { my $v = int($_[0] + 0.5); $v + ($v % 2) }

# Makes the video; returns [{start, end, photo, package, move, look}]
sub make_video {
    my ($v, $events, $dir, %o) = @_;
    my ($w, $h) = split /x/, $v->{size};
    my $rate = $v->{rate} // 25;
    my $rng = $o{rng} or die 'rng';
    my $path = "$dir/$v->{name}.$v->{ext}";
    my $tmp = "$dir/.$v->{name}.tmp";
    make_path($tmp);

    open my $fh, '>:encoding(UTF-8)', "$tmp/text.ass" or die "$tmp: $!";
    print {$fh} script($w, $h, $events);
    close $fh;

    my (@in, @chains, @truth);
    my $t = 0;
    for my $i (0 .. $#{ $v->{scenes} }) {
        my $sc = { %{ $v->{scenes}[$i] } };
        my $k;              # the photo's input (a black scene has none)
        if ($sc->{photo}) {
            push @in, '-i', photo($sc->{photo})->{file};
            $k = @in / 2 - 1;
        }
        if ($sc->{inset}) {
            $sc->{inset} = { %{ $sc->{inset} } };
            push @in, '-i', photo($sc->{inset}{photo})->{file};
            $sc->{inset}{input} = @in / 2 - 1;
        }
        push @chains, _scene($sc, $i, $k, $w, $h, $rate, $rng,
                             $o{noise_seed} // 123457);
        push @truth, { start => _r2($t), end => _r2($t + $sc->{dur}),
            photo => $sc->{photo} // 'black',
            package => $sc->{photo} ? photo($sc->{photo})->{package} : 'none',
            move => $sc->{move} // 'still', look => $sc->{look} // 'none',
            $sc->{inset} ? (inset => $sc->{inset}{photo}) : () };
        $t += $sc->{dur};
    }
    my $ns = @{ $v->{scenes} };
    my $graph = join(';', @chains) . ';'
        . join('', map { "[s$_]" } 0 .. $ns - 1)
        . "concat=n=$ns:v=1:a=0,ass=filename=$tmp/text.ass"
        . ($v->{rotate} ? ',transpose=2' : '')
        . ',format=' . ($v->{pix_fmt} // 'yuv420p') . '[v]';

    my $br = $BITRATE{$h} // $BITRATE{$w} // '4M';
    my $codec = $v->{codec} // 'libx264';
    my $pf = $v->{pix_fmt} // 'yuv420p';
    my @codec = $codec eq 'libx264'
        ? ('-c:v', 'libx264', '-preset', 'veryfast', '-crf', '21',
           '-threads', '1', '-maxrate', $br, '-bufsize', $br,
           $pf =~ /422/ ? ('-profile:v', 'high422')
           : $pf =~ /10/ ? ('-profile:v', 'high10') : ())
        : $codec eq 'libx265'
        ? ('-c:v', 'libx265', '-preset', 'veryfast', '-crf', '26',
           '-x265-params', 'log-level=error:pools=1:frame-threads=1',
           $v->{ext} =~ /^(mp4|mov)$/ ? ('-tag:v', 'hvc1') : ())
        : $codec eq 'libvpx-vp9'
        ? ('-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8',
           '-crf', '32', '-b:v', $br, '-threads', '1', '-row-mt', '0')
        : die "codec $codec";
    my @audio = $v->{audio}
        ? ('-f', 'lavfi', '-i', "anoisesrc=d=$t:c=pink:r=48000:a=0.05"
           . ':seed=' . ($o{noise_seed} // 1))
        : ();
    my $ai = @in / 2;
    my @cmd = ('ffmpeg', '-nostdin', '-hide_banner', '-loglevel', 'error',
        '-y', @in, @audio, '-filter_complex', $graph, '-map', '[v]',
        $v->{audio} ? ('-map', "$ai:a", '-c:a',
                       $v->{ext} eq 'webm' ? 'libopus' : 'aac', '-b:a', '96k',
                       '-shortest')
                    : (),
        '-r', $rate, @codec, '-t', $t, $path);
    system(@cmd) == 0 or die "ffmpeg failed ($?): @cmd\n";
    # a phone's portrait video: stored turned, shown upright
    set_matrix($path, 0, 1, -1, 0) if $v->{rotate};
    unlink "$tmp/text.ass";
    rmdir $tmp;
    return \@truth;
}

sub _r2 { sprintf('%.2f', $_[0]) + 0 }

1;
