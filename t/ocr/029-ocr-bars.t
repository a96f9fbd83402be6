# Letterbox and pillarbox bars (worker/image/vw_bars.c): a picture shown
# inside black bars is judged as the picture it is, not as a frame that
# is mostly black.  Each clip is a picture made with drawtext, then put
# in bars with ffmpeg's pad filter: dark text on a mid-grey picture in a
# vertical 720x1280 frame (two thirds of it black: judged as the whole
# frame, the median is black and dark ink was never looked for), a
# mid-grey picture in a 1280x720 frame with bars left and right, and a
# white subtitle set in the bottom bar under a moving picture (bright
# ink is looked for in the bars too); and white credits on a black
# vertical frame, whose dark rows around the text are no bars.
# Asserted: each line is read, and its box lies where it was drawn (in
# the picture, or in the bar).  (The worker of 9b5eeda reads neither
# grey picture nor the line in the bar.)  Last, a 19 px Chinese
# subtitle in the bar under a cluttered garage that drifts
# (t/data/media/bar-garage.mov): the lines of a look that stay in the
# frames beside it are judged by the picture inside the bars too (the
# worker of f4a3985 judged them by the 720x1280 frame, took the
# subtitle's 8 px glyphs for specks, and read it only at its end).

use strict;
use warnings;
use lib 't/lib';

use Test::More;
use VideoOCR::Media qw(run_worker worker_bin tmpdir make_video cer);

-x worker_bin() or BAIL_OUT('no worker binary at ' . worker_bin());

my $dir = tmpdir();

# the picture w x h drawn, then padded to the frame W x H at x, y
sub barred {
    my (%a) = @_;
    my $pic = make_video(path => "$dir/$a{name}-pic.mp4", size => $a{pic},
        duration => 3, background => $a{background}, seed => 1,
        spans => $a{spans}, dir => $dir);
    my ($W, $H, $x, $y) = @{ $a{pad} };
    my $out = "$dir/$a{name}.mp4";
    system('ffmpeg', '-nostdin', '-hide_banner', '-loglevel', 'error', '-y',
           '-i', $pic, '-vf', "pad=$W:$H:$x:$y:black,format=yuv420p",
           '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '20',
           '-threads', '1', $out) == 0 or die "ffmpeg pad failed: $?";
    return $out;
}

my @cases = (
    {   name => 'letterbox', pic => '720x404', background => 'mid',
        pad => [720, 1280, 0, 438],
        spans => [{ start => 0, end => 3, size => 26, style => 'plain',
                    text => 'Dark words on a grey picture', y => 'middle' }],
        want => 'Dark words on a grey picture',
        inside => [0, 438, 720, 404] },
    {   name => 'pillarbox', pic => '540x720', background => 'mid',
        pad => [1280, 720, 370, 0],
        spans => [{ start => 0, end => 3, size => 26, style => 'plain',
                    text => 'Inside the bars', y => 'middle' }],
        want => 'Inside the bars',
        inside => [370, 0, 540, 720] },
    {   name => 'in-the-bar', pic => '720x404', background => 'moving',
        pad => [720, 1280, 0, 438],
        want => 'Set in the black bar below',
        inside => [0, 842, 720, 80] },
);

# white lines on a black vertical frame (credits): dark rows around a
# few lines of text are no bars around a picture, and both are read
{
    my $f = make_video(path => "$dir/credits.mp4", size => '720x1280',
        duration => 3, background => 'black', dir => $dir,
        spans => [{ start => 0, end => 3, size => 30, y => 560,
                    text => 'Directed by Ana Lima' },
                  { start => 0, end => 3, size => 30, y => 640,
                    text => 'Music by Jon Park' }]);
    push @cases, { name => 'credits', file => $f,
                   want => "Directed by Ana Lima\nMusic by Jon Park",
                   inside => [0, 540, 720, 160] };
}

# the subtitle in the bar: the moving picture with no text, padded, and
# the line drawn on the padded frame under it
{
    my $c = $cases[2];
    my $pic = make_video(path => "$dir/bar-pic.mp4", size => $c->{pic},
        duration => 3, background => 'moving', seed => 1, dir => $dir);
    my $font = VideoOCR::Media::font_path('DejaVuSans');
    my $tf = "$dir/bar.txt";
    open my $fh, '>', $tf or die "$tf: $!";
    print {$fh} $c->{want};
    close $fh;
    system('ffmpeg', '-nostdin', '-hide_banner', '-loglevel', 'error', '-y',
           '-i', $pic, '-vf', 'pad=720:1280:0:438:black,'
           . "drawtext=fontfile=$font:textfile=$tf:expansion=none:"
           . 'fontsize=22:fontcolor=white:borderw=1:bordercolor=black:'
           . "x=(w-tw)/2:y=876,format=yuv420p",
           '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '20',
           '-threads', '1', "$dir/in-the-bar.mp4") == 0
        or die "ffmpeg failed: $?";
    $c->{file} = "$dir/in-the-bar.mp4";
}

for my $c (@cases) {
    my $f = $c->{file} // barred(%$c);
    my $r = run_worker('ocr', $f, '--format', 'json');
    is $r->{rc}, 0, "$c->{name}: exit 0" or diag $r->{stderr};
    my @segs = @{ $r->{json} ? $r->{json}{segments} : [] };
    my ($seg) = grep { cer($_->{text}, $c->{want}) <= 0.1 } @segs;
    (my $want = $c->{want}) =~ s/\n/ \/ /g;
    ok $seg, "$c->{name}: \"$want\" is read"
        or diag explain [map { $_->{text} } @segs];
    my ($x, $y, $w, $h) = @{ $c->{inside} };
    my ($bx, $by, $bw, $bh) = @{ $seg ? $seg->{box} : [-1, -1, 0, 0] };
    ok $bx >= $x && $by >= $y && $bx + $bw <= $x + $w && $by + $bh <= $y + $h,
        "$c->{name}: its box [$bx, $by, $bw, $bh] is where it was drawn";
}

# the subtitle under the garage, 0.21-2.81 s in the clip: read from its
# first looks
{
    my $want = "\x{4f60}\x{600e}\x{4e48}\x{4f1a}\x{5728}\x{8fd9}\x{91cc}";
    my $r = run_worker('ocr', 't/data/media/bar-garage.mov', '--lang',
                       'chi_sim', '--format', 'json');
    is $r->{rc}, 0, 'bar under a busy picture: exit 0' or diag $r->{stderr};
    my @segs = grep { index($_->{text}, $want) >= 0 }
               @{ $r->{json} ? $r->{json}{segments} : [] };
    ok @segs && $segs[0]{start} <= 0.5,
        'bar under a busy picture: the subtitle read from its first looks'
        or diag explain $r->{json}{segments};
}

done_testing();
