# Real encoded videos with known burned-in text: the text comes back with
# a character error rate of at most 5% per subtitle, each subtitle is one
# segment whose start and end are within one sampling interval of when
# it was on screen, and nothing else is read.
#
# CER: VideoOCR::Media::cer (Levenshtein distance over characters between
# the normalised texts, divided by the length of the normalised truth;
# normalising maps typographic quotes and dashes to ASCII and collapses
# white space, case and punctuation count).

use strict;
use warnings;
use lib 't/lib';

use Test::More;
use VideoOCR::Media qw(run_worker worker_bin tmpdir make_video match_spans
    normalise);

-x worker_bin() or BAIL_OUT('no worker binary at ' . worker_bin());

my $dir = tmpdir();

# container, codec, background, size, font, font size, style, spans
my @videos = (
    { name => 'h264.mp4', codec => 'libx264', background => 'solid',
      font => 'DejaVuSans', fsize => 28,
      texts => ['Where are you going tonight?', 'To the old station, I think.'] },
    { name => 'vp9.webm', codec => 'libvpx-vp9', background => 'noise',
      font => 'DejaVuSerif', fsize => 26,
      texts => ['Bring the blue box, please.', 'Nobody knew what happened.'] },
    { name => 'mpeg4.mkv', codec => 'mpeg4', background => 'moving',
      font => 'LiberationSans', fsize => 30,
      texts => ['The train leaves at 9:30', "It's cold outside, isn't it?"] },
    { name => 'h264.mov', codec => 'libx264', background => 'bars',
      font => 'DejaVuSansMono', fsize => 24, style => 'box',
      texts => ['Meet me at the corner', 'Keep the change, friend'] },
    { name => 'h264-720p.mkv', codec => 'libx264', background => 'moving',
      size => '1280x720', font => 'LiberationSerif', fsize => 44,
      texts => ['I have never seen it before.', 'Turn left after the bridge'] },
    { name => 'light.mp4', codec => 'libx264', background => 'light',
      font => 'LiberationMono', fsize => 26, style => 'plain',
      texts => ['Quiet, the baby is asleep', 'Open the window, it is hot'] },
    { name => 'yellow.webm', codec => 'libvpx-vp9', background => 'solid',
      font => 'DejaVuSansBold', fsize => 30, color => 'yellow',
      texts => ["Where's my coat?", 'Two lines of text\nin one subtitle'] },
    { name => 'small.mp4', codec => 'libx264', background => 'noise',
      font => 'LiberationSans', fsize => 20,
      texts => ['Small print is still readable', 'Even at twenty pixels high'] },
);

for my $v (@videos) {
    my @spans = (
        { start => 0.4, end => 2.3, text => $v->{texts}[0] },
        { start => 2.6, end => 4.6, text => $v->{texts}[1] },
    );

    for my $s (@spans) {
        $s->{text} =~ s/\\n/\n/g;
        $s->{$_} = $v->{$_} for grep { defined $v->{$_} } qw(style color);
        $s->{font} = $v->{font};
        $s->{size} = $v->{fsize};
    }

    my $file = make_video(path => "$dir/$v->{name}", duration => 5,
        codec => $v->{codec}, background => $v->{background}, seed => 1,
        size => $v->{size} // '640x360', dir => $dir, spans => \@spans);

    my $r = run_worker('ocr', $file, '--fps', '1');
    is $r->{rc}, 0, "$v->{name}: exit 0" or diag $r->{stderr};
    my $res = $r->{json} or do { fail "$v->{name}: no JSON"; next };

    my ($m, $extra) = match_spans($res->{segments}, \@spans);
    for my $i (0 .. $#$m) {
        my $x = $m->[$i];
        my $got = $x->{segment} ? normalise($x->{segment}{text}) : '(none)';
        note sprintf "%-14s span %d CER %.3f  start %+.2f end %+.2f  \"%s\"",
            $v->{name}, $i, $x->{cer},
            $x->{segment} ? $x->{segment}{start} - $x->{span}{start} : 0,
            $x->{segment} ? $x->{segment}{end} - $x->{span}{end} : 0, $got;
        cmp_ok $x->{cer}, '<=', 0.05, "$v->{name} span $i: CER <= 5%"
            or diag "got \"$got\" for \"" . normalise($x->{span}{text}) . '"';
        ok defined $x->{dstart} && $x->{dstart} <= 1.0,
            "$v->{name} span $i: start within one interval";
        ok defined $x->{dend} && $x->{dend} <= 1.0,
            "$v->{name} span $i: end within one interval";
    }
    is scalar(@$extra), 0, "$v->{name}: no text where there is none"
        or diag explain $extra;
    is scalar(@{ $res->{segments} }), 2, "$v->{name}: one segment per subtitle";
    is $res->{inspection}{duration_ms}, 5000, "$v->{name}: duration";
}

done_testing;
