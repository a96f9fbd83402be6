# Orientation (issue 19): the display matrix is applied before anything
# looks at a frame (a portrait phone video in HEVC 10-bit MOV with the
# -90 degree matrix an iPhone writes, one turned 180 degrees, one
# mirrored), crop is in the picture as shown, text still not upright
# (sideways or upside down, no matrix) is found once by orientation
# detection and read, a resumed job does as a whole run, and text that
# cannot be read ends with a text_unreadable warning, not a quiet empty
# result.
#
# ffmpeg 5.1 (Debian 12) has no option that writes a display matrix, so
# the test writes it into the MOV's tkhd box itself, as a camera does.

use strict;
use warnings;
use lib 't/lib';

use JSON::PP ();
use Test::More;
use VideoOCR::Media qw(run_worker worker_bin tmpdir font_path cer set_matrix);

-x worker_bin() or BAIL_OUT('no worker binary at ' . worker_bin());

my $dir = tmpdir();

# mk(path, size WxH as shown, text, filters that turn the shown picture
# into the stored one, codec args...)
sub mk {
    my ($path, $size, $text, $turn, @codec) = @_;
    my $font = font_path('DejaVuSans');
    my $tf = "$path.txt";
    open my $fh, '>', $tf or die "$tf: $!";
    print {$fh} $text;
    close $fh;
    my @cmd = ('ffmpeg', '-nostdin', '-hide_banner', '-loglevel', 'error',
        '-y', '-f', 'lavfi', '-i', "color=c=0x203050:s=$size:r=25:d=4",
        '-vf', "drawtext=fontfile=$font:textfile=$tf:fontsize=36:"
            . "fontcolor=white:borderw=2:bordercolor=black:x=(w-tw)/2:"
            . "y=h-th-60:enable='between(t,0.5,3.5)'"
            . ($turn ? ",$turn" : ''),
        @codec ? @codec : ('-c:v', 'libx264', '-preset', 'veryfast',
                           '-pix_fmt', 'yuv420p', '-g', '25'),
        $path);
    system(@cmd) == 0 or die "ffmpeg failed: @cmd";
    return $path;
}

sub stats {
    my ($r) = @_;
    my ($line) = grep { /^\{"runs"/ } split /\n/, $r->{stderr};
    return JSON::PP->new->decode($line)->{runs};
}

sub text_of {
    my ($res) = @_;
    return join ' ', map { $_->{text} } @{ $res->{segments} };
}

# --- the display matrix ---------------------------------------------------

my @cases = (
    {   name => 'portrait HEVC 10-bit MOV, -90 degree matrix',
        file => set_matrix(mk("$dir/portrait.mov", '360x640', 'Portrait words',
                   'transpose=cclock', '-c:v', 'libx265', '-x265-params',
                   'log-level=error', '-pix_fmt', 'yuv420p10le', '-tag:v',
                   'hvc1'), 0, 1, -1, 0),
        text => 'Portrait words', stored => [640, 360], shown => [360, 640],
        rotation => 90, mirror => JSON::PP::false, pix_fmt => 'yuv420p10le' },
    {   name => 'H.264 MOV turned 180 degrees',
        file => set_matrix(mk("$dir/r180.mov", '640x360', 'Upside down words',
                   'hflip,vflip'), -1, 0, 0, -1),
        text => 'Upside down words', stored => [640, 360],
        shown => [640, 360], rotation => 180, mirror => JSON::PP::false },
    {   name => 'H.264 MOV mirrored',
        file => set_matrix(mk("$dir/mirror.mov", '640x360',
                   'Mirror image words', 'hflip'), -1, 0, 0, 1),
        text => 'Mirror image words', stored => [640, 360],
        shown => [640, 360], rotation => 0, mirror => JSON::PP::true },
);

for my $c (@cases) {
    my $r = run_worker('ocr', $c->{file}, '--stats');
    is $r->{rc}, 0, "$c->{name}: exit 0" or diag $r->{stderr};
    my $res = $r->{json};
    my $in = $res->{inspection};
    is_deeply [ @$in{qw(width height)} ], $c->{stored},
        "$c->{name}: stored size @{ $c->{stored} }";
    is_deeply [ @$in{qw(display_width display_height)} ], $c->{shown},
        "$c->{name}: shown size @{ $c->{shown} }";
    is $in->{rotation}, $c->{rotation}, "$c->{name}: rotation $c->{rotation}";
    is $in->{mirror}, $c->{mirror}, "$c->{name}: mirror";
    is $in->{pix_fmt}, $c->{pix_fmt}, "$c->{name}: $c->{pix_fmt}"
        if $c->{pix_fmt};
    cmp_ok cer(text_of($res), $c->{text}), '<=', 0.1,
        "$c->{name}: reads \"$c->{text}\"" or diag text_of($res);
    is $res->{detected_rotation}, undef,
        "$c->{name}: the matrix sufficed, no orientation detection";
    is stats($r)->[0]{orient_tries}, 0, "$c->{name}: OSD never ran";
    is_deeply $res->{warnings}, [], "$c->{name}: no warning";
}

# crop is in the picture as shown: the portrait's text is near the bottom
# of its 360x640 picture (a region that is outside the stored 640x360 one)
{
    my $f = $cases[0]{file};
    my $r = run_worker('ocr', $f, '--crop', '0,500,360,140');
    is $r->{rc}, 0, 'crop in shown pixels: exit 0' or diag $r->{stderr};
    cmp_ok cer(text_of($r->{json}), 'Portrait words'), '<=', 0.1,
        'crop in shown pixels: the bottom of the portrait holds the text';

    $r = run_worker('ocr', $f, '--crop', '0,0,360,300');
    is $r->{rc}, 0, 'crop of the top: exit 0';
    is text_of($r->{json}), '', 'crop of the top: no text there';

    $r = run_worker('ocr', $f, '--crop', '400,0,100,100');
    is $r->{rc}, 65, 'crop beyond the shown width (inside the stored one): '
        . 'rejected';
    like $r->{stderr}, qr/crop_outside|outside the 360x640/,
        'crop beyond the shown width: says the shown size';
}

# --- no matrix, text not upright: orientation detection ------------------

my $side = mk("$dir/sideways.mp4", '360x640', 'Held sideways',
              'transpose=cclock');
my $down = mk("$dir/down.mp4", '640x360', 'Upside down words',
              'hflip,vflip');

for my $c ([$side, 'sideways, no matrix', 'Held sideways', 90],
           [$down, 'upside down, no matrix', 'Upside down words', 180])
{
    my ($f, $name, $text, $deg) = @$c;
    my $clean = run_worker('ocr', $f, '--fps', '2', '--frames', '--stats');
    is $clean->{rc}, 0, "$name: exit 0" or diag $clean->{stderr};
    my $res = $clean->{json};
    is $res->{inspection}{rotation}, 0, "$name: no matrix";
    is $res->{detected_rotation}, $deg, "$name: detected turn $deg";
    # the box is where the text is on the picture as played: sideways
    # text is a tall, narrow box in the right of the 640x360 picture
    # (drawn 60 pixels above the bottom of the picture before it was
    # turned a quarter counterclockwise), text upside down one at the top
    my ($bx) = map { $_->{box} } grep { $_->{box} } @{ $res->{segments} };
    if ($deg == 90) {
        ok $bx && $bx->[3] > 3 * $bx->[2] && $bx->[0] > 320,
            "$name: a tall box on the right (@{ $bx // [] })";
    } else {
        ok $bx && $bx->[2] > 3 * $bx->[3] && $bx->[1] < 100,
            "$name: a wide box at the top (@{ $bx // [] })";
    }
    cmp_ok cer(text_of($res), $text), '<=', 0.1, "$name: reads \"$text\""
        or diag text_of($res);
    is stats($clean)->[0]{orient_tries}, 1, "$name: OSD ran once";
    is_deeply $res->{warnings}, [], "$name: no warning";

    # the turn survives a takeover: a resumed run gives the same bytes
    my $planned = $res->{frames_planned};
    for my $at (1, 3, 5) {
        my $r = run_worker('ocr', $f, '--fps', '2', '--frames', '--stats',
            '--debug-resume-at', $at);
        is $r->{rc}, 0, "$name at $at: exit 0" or diag $r->{stderr};
        is $r->{stdout}, $clean->{stdout},
            "$name at $at: resumed, the same result as a whole run";
        my ($first, $second) = @{ stats($r) };
        is $first->{orient_tries} + $second->{orient_tries}, 1,
            "$name at $at: OSD ran once over both runs";
    }
}

# --- text that cannot be read: a warning, not a quiet empty result --------

{
    my $f = mk("$dir/mirrored.mp4", '640x360', 'Mirror image words',
               'hflip');
    my $r = run_worker('ocr', $f, '--frames');
    is $r->{rc}, 0, 'unreadable: still done (exit 0)' or diag $r->{stderr};
    my $res = $r->{json};
    my ($w) = @{ $res->{warnings} };
    is scalar @{ $res->{warnings} }, 1, 'unreadable: one warning';
    is $w->{code}, 'text_unreadable', 'unreadable: code text_unreadable';
    ok $w->{count} >= 1 && @{ $w->{frames} } == $w->{count},
        'unreadable: lists its frames';
    my %idx = map { $_->{index} => $_ } @{ $res->{frames} };
    ok((grep { !defined $idx{$_} || $idx{$_}{no_text} } @{ $w->{frames} })
        == 0, 'unreadable: the frames listed were read, not skipped');
    is $res->{detected_rotation}, 0,
        'unreadable: orientation detection ran and found no better turn';

    my $v = run_worker('ocr', $f, '--format', 'txt');
    is $v->{rc}, 0, 'unreadable: txt still served';
}

done_testing;
