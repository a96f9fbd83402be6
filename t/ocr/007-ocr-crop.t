# --crop x,y,w,h: only that rectangle of the decoded picture is read; a
# crop running past the picture is clamped, one outside it is refused.
# A segment's box is in pixels of the whole picture, whatever the crop.

use strict;
use warnings;
use lib 't/lib';

use Test::More;
use VideoOCR::Media qw(run_worker worker_bin tmpdir make_video cer);

-x worker_bin() or BAIL_OUT('no worker binary at ' . worker_bin());

my $dir = tmpdir();
my $file = make_video(path => "$dir/c.mp4", duration => 2, spans => [
    { start => 0, end => 2, text => 'Headline at the top', y => 'top' },
    { start => 0, end => 2, text => 'Subtitle at the bottom' },
], dir => $dir);

my %want = (
    ''                 => ['Headline at the top', 'Subtitle at the bottom'],
    '0,260,640,100'    => ['Subtitle at the bottom'],
    '0,0,640,90'       => ['Headline at the top'],
    '0,250,5000,5000'  => ['Subtitle at the bottom'],
    '0,120,640,100'    => [],
);

my %box;
for my $crop (sort keys %want) {
    my $r = run_worker('ocr', $file, ($crop ne '' ? ('--crop', $crop) : ()));
    is $r->{rc}, 0, "crop '$crop': exit 0" or diag $r->{stderr};
    my @segs = @{ $r->{json}{segments} };
    is_deeply $r->{json}{frame_size}, [640, 360],
        "crop '$crop': the frame size is the picture's";
    $box{$crop}{ $_->{text} } = $_->{box} for @segs;
    my $text = join "\n", map { $_->{text} } @segs;
    if (@{ $want{$crop} }) {
        cmp_ok cer($text, join("\n", @{ $want{$crop} })), '<=', 0.05,
            "crop '$crop': reads \"$text\"";
    } else {
        is $text, '', "crop '$crop': reads nothing";
    }
}

# the box of the text a crop keeps is where that text is in the whole
# picture (the crop's offset added): uncropped, the boxes together (of
# one screen of both texts, or of two) have the headline's top, the
# subtitle's bottom and the subtitle's (wider) sides
my $all;
for my $b (grep { $_ } values %{ $box{''} }) {
    $all //= [@$b];
    my ($x1, $y1) = ($all->[0] + $all->[2], $all->[1] + $all->[3]);
    $x1 = $b->[0] + $b->[2] if $b->[0] + $b->[2] > $x1;
    $y1 = $b->[1] + $b->[3] if $b->[1] + $b->[3] > $y1;
    $all->[0] = $b->[0] if $b->[0] < $all->[0];
    $all->[1] = $b->[1] if $b->[1] < $all->[1];
    @$all[2, 3] = ($x1 - $all->[0], $y1 - $all->[1]);
}
for my $crop ('0,260,640,100', '0,250,5000,5000', '0,0,640,90') {
    my ($b) = values %{ $box{$crop} };
    my $top = $crop eq '0,0,640,90';
    ok $all && $b && ($top ? abs($b->[1] - $all->[1]) <= 2
                           : abs($b->[1] + $b->[3] - $all->[1] - $all->[3])
                             <= 2
                             && abs($b->[0] - $all->[0]) <= 2
                             && abs($b->[2] - $all->[2]) <= 2),
        "crop '$crop': its box is in the whole picture's pixels"
        . " (@{ $b // [] }; uncropped @{ $all // [] })";
}

my $r = run_worker('ocr', $file, '--crop', '640,0,10,10');
is $r->{rc}, 65, 'crop outside: exit 65';
like $r->{stderr}, qr/rejected: crop_outside: .*640x360 picture/, 'crop outside: says why';

done_testing;
