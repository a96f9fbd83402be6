# lang "auto" (worker/ocr/vw_ocr_auto.c): each screen is read with the
# installed languages of the script Tesseract's script detection finds
# in it, and a line of another script with that script's.
#
#   1. A bilingual caption, a line of Chinese over a line of English, two
#      screens over a moving background: both lines of each read, as
#      well as --lang chi_sim+eng reads them.  The job begins with the
#      Latin languages, which drop the Chinese line; the detection of
#      the dropped line finds Han (or Japanese, whose jpn reading has
#      no kana and drops the line too: read again with chi_sim).
#   2. A Russian caption: read in Cyrillic, as --lang rus reads it (eng
#      reads "Mbl novgem").
#   3. An English caption: read as --lang eng reads it.

use strict;
use warnings;
use utf8;
use lib 't/lib';

use Test::More;
use VideoOCR::Media qw(run_worker worker_bin tmpdir make_video cer);

-x worker_bin() or BAIL_OUT('no worker binary at ' . worker_bin());

binmode Test::More->builder->$_, ':encoding(UTF-8)'
    for qw(output failure_output todo_output);

my $dir = tmpdir();

sub texts {
    my ($r) = @_;
    return [map { $_->{text} } @{ $r->{json}{segments} // [] }];
}

# 1. Chinese over English, 30 px CJK above the 28 px English line

my @screens = (
    ['我们明天早上一起去公园', 'We will go to the park tomorrow'],
    ['今天的天气非常好', 'The weather is very nice today'],
);
my @spans;
for my $i (0 .. $#screens) {
    my $start = 0.5 + 3 * $i;
    push @spans,
        { start => $start, end => $start + 2.3, text => $screens[$i][0],
          font => 'WenQuanYiZenHei', size => 30, y => 'h-th-72' },
        { start => $start, end => $start + 2.3, text => $screens[$i][1] };
}
my $video = make_video(path => "$dir/bilingual.mp4", duration => 6.5,
    background => 'moving', seed => 3, dir => $dir, spans => \@spans);

my $r = run_worker('ocr', $video, '--lang', 'auto');
is $r->{rc}, 0, 'bilingual: exit 0' or diag $r->{stderr};
my $got = texts($r);
my $right = texts(run_worker('ocr', $video, '--lang', 'chi_sim+eng'));
is scalar(@$got), 2, 'bilingual: one segment per screen' or diag explain $got;
for my $i (0 .. $#screens) {
    my @read = split /\n/, $got->[$i] // '';
    my @want = split /\n/, $right->[$i] // '';
    is scalar(@read), 2, "bilingual screen $i: both lines read"
        or diag explain \@read;
    # a line is found when at most a fifth of it is wrong (bench/ocr's
    # score_lines); and auto reads it as well as the right lang does
    for my $l (0, 1) {
        my $c = cer($read[$l] // '', $screens[$i][$l]);
        cmp_ok $c, '<=', 0.2, "bilingual screen $i, line $l: read"
            or diag $read[$l];
        cmp_ok $c, '<=', cer($want[$l] // '', $screens[$i][$l]),
            "bilingual screen $i, line $l: as well as with chi_sim+eng";
    }
}

# 2. Russian

my @ru = ('Мы пойдём гулять в парк', 'Сегодня очень хорошая погода');
$video = make_video(path => "$dir/russian.mp4", duration => 5,
    background => 'moving', seed => 4, dir => $dir, spans => [
        { start => 0.5, end => 2.3, text => $ru[0] },
        { start => 2.7, end => 4.5, text => $ru[1] }]);

$r = run_worker('ocr', $video, '--lang', 'auto');
is $r->{rc}, 0, 'russian: exit 0' or diag $r->{stderr};
$got = texts($r);
is scalar(@$got), 2, 'russian: two segments' or diag explain $got;
for my $i (0 .. 1) {
    # ё and е: Tesseract's rus reads the dots or not
    (my $want = $ru[$i]) =~ tr/ё/е/;
    (my $read = $got->[$i] // '') =~ tr/ё/е/;
    like $read, qr/^[\p{Cyrillic}\s]+$/, "russian $i: read in Cyrillic";
    cmp_ok cer($read, $want), '<=', 0.1, "russian $i: read right"
        or diag $read;
}

# 3. English

my @en = ('Library hours are extended', 'Trains are delayed in the north');
$video = make_video(path => "$dir/english.mp4", duration => 5,
    background => 'moving', seed => 5, dir => $dir, spans => [
        { start => 0.5, end => 2.3, text => $en[0] },
        { start => 2.7, end => 4.5, text => $en[1] }]);

$r = run_worker('ocr', $video, '--lang', 'auto');
is $r->{rc}, 0, 'english: exit 0' or diag $r->{stderr};
my $eng = run_worker('ocr', $video, '--lang', 'eng');
is_deeply texts($r), texts($eng), 'english: auto reads what eng reads';
is_deeply texts($r), \@en, 'english: read right';

done_testing();
