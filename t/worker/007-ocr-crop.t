# --crop x,y,w,h: only that rectangle of the decoded picture is read; a
# crop running past the picture is clamped, one outside it is refused.

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

for my $crop (sort keys %want) {
    my $r = run_worker('ocr', $file, ($crop ne '' ? ('--crop', $crop) : ()));
    is $r->{rc}, 0, "crop '$crop': exit 0" or diag $r->{stderr};
    my @segs = @{ $r->{json}{segments} };
    my $text = join "\n", map { $_->{text} } @segs;
    if (@{ $want{$crop} }) {
        cmp_ok cer($text, join("\n", @{ $want{$crop} })), '<=', 0.05,
            "crop '$crop': reads \"$text\"";
    } else {
        is $text, '', "crop '$crop': reads nothing";
    }
}

my $r = run_worker('ocr', $file, '--crop', '640,0,10,10');
is $r->{rc}, 65, 'crop outside: exit 65';
like $r->{stderr}, qr/rejected: crop_outside: .*640x360 picture/, 'crop outside: says why';

done_testing;
