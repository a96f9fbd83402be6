# The five result formats are well-formed and say the same thing: JSON
# (the shape the job status endpoint publishes), WebVTT (escaped cue
# text), SubRip, plain text and ASS; UTF-8 throughout.  Where the text
# was: each segment's box within a few pixels of where drawtext put it
# (a known left or right edge and top), its lines, the frame size; the
# WebVTT cue settings and the ASS \an\pos derived from it; and the ASS
# read by real parsers: FFmpeg's (to SubRip, the same texts) and libass
# (rendering it onto the video through FFmpeg's ass filter).

use strict;
use warnings;
use utf8;
use lib 't/lib';

use Encode ();
use Test::More;
use VideoOCR::Media qw(run_worker worker_bin tmpdir make_video normalise cer);

-x worker_bin() or BAIL_OUT('no worker binary at ' . worker_bin());

my $dir = tmpdir();
# the first at a known top left corner, the second with a known right
# edge and top, the third (two lines) at the bottom, centred
my @spans = (
    { start => 0.3, end => 1.7, text => 'Fish & Chips', x => 60, y => 40 },
    { start => 2.2, end => 3.8, text => 'Grüße aus Köln', x => 'w-tw-50',
      y => 150 },
    { start => 3.9, end => 6.0, text => 'Two lines here' . "\n" . 'and there' },
);
my $file = make_video(path => "$dir/f.mkv", duration => 6, spans => \@spans,
    dir => $dir);

my %out;
for my $f (qw(json vtt srt txt ass)) {
    my $r = run_worker('ocr', $file, '--lang', 'deu+eng', '--format', $f);
    is $r->{rc}, 0, "$f: exit 0" or diag $r->{stderr};
    my $text = eval { Encode::decode('UTF-8', $r->{stdout}, Encode::FB_CROAK) };
    ok defined $text, "$f: valid UTF-8";
    $out{$f} = $text // '';
}

# JSON

my $res = $out{json} ne '' && eval { JSON::PP->new->decode($out{json}) };
ok $res, 'json: parses' or BAIL_OUT('no JSON');
is $res->{plan_version}, 2, 'json: plan_version';
is_deeply $res->{options}, { crop => undef, fps => 1, lang => 'deu+eng' },
    'json: canonical options';
is $res->{frames_planned}, 6, 'json: frames_planned';
is $res->{frames_done}, 6, 'json: frames_done';
is $res->{ocr_calls} + $res->{frames_reused} + $res->{frames_no_text},
    6 + $res->{frames_between},
    'json: every frame (the samples and the looks between them where the '
    . 'text changed) OCR\'d, reused or found empty';
for my $k (qw(container codec width height duration_ms frame_rate stream_index)) {
    ok defined $res->{inspection}{$k}, "json: inspection.$k";
}
is $res->{inspection}{container}, 'matroska', 'json: container';
is $res->{inspection}{codec}, 'h264', 'json: codec';
is_deeply [ @{ $res->{inspection} }{qw(width height)} ], [640, 360],
    'json: size';

my $segs = $res->{segments};
is scalar(@$segs), 3, 'json: three segments';
my $prev = -1;
for my $s (@$segs) {
    is_deeply [ sort keys %$s ],
        [qw(box confidence end lines looks start text)], 'json: segment keys';
    ok $s->{looks} >= 1, 'json: its text read from one look or more';
    ok $s->{start} >= $prev && $s->{start} < $s->{end}, 'json: in time order';
    ok $s->{confidence} >= 0 && $s->{confidence} <= 100, 'json: confidence 0..100';
    $prev = $s->{end};
}
for my $i (0 .. 2) {
    cmp_ok cer($segs->[$i]{text}, $spans[$i]{text}), '<=', 0.05,
        "json: segment $i text ($segs->[$i]{text})";
}
like $segs->[2]{text}, qr/\n/, 'json: a two-line subtitle keeps its line break';

# where the text was, in pixels of the 640x360 picture: drawtext's x and
# y are its text box's corner, a glyph's ink starts a pixel or three
# inside it (the bearing, less the 2-pixel outline)

is_deeply $res->{frame_size}, [640, 360], 'json: frame_size';
my @box = map { $_->{box} } @$segs;
is scalar(grep { ref $_ eq 'ARRAY' && @$_ == 4 } @box), 3, 'json: boxes';
cmp_ok abs($box[0][0] - 60), '<=', 4, "json: box 0 left ($box[0][0])";
cmp_ok abs($box[0][1] - 40), '<=', 4, "json: box 0 top ($box[0][1])";
cmp_ok abs($box[1][0] + $box[1][2] - 590), '<=', 4,
    'json: box 1 right (' . ($box[1][0] + $box[1][2]) . ')';
cmp_ok abs($box[1][1] - 150), '<=', 4, "json: box 1 top ($box[1][1])";
cmp_ok abs($box[2][0] + $box[2][2] / 2 - 320), '<=', 3,
    'json: box 2 centred (' . ($box[2][0] + $box[2][2] / 2) . ')';
cmp_ok $box[2][1] + $box[2][3], '>', 300, 'json: box 2 at the bottom';
cmp_ok $box[2][1] + $box[2][3], '<=', 360 - 24, 'json: above drawtext\'s margin';
for my $i (0, 1) {
    # a glyph line of 28-pixel DejaVu Sans: 20 to 30 pixels tall
    cmp_ok $box[$i][3], '>=', 18, "json: box $i height ($box[$i][3])";
    cmp_ok $box[$i][3], '<=', 32, "json: box $i height, at most a line";
}
cmp_ok $box[2][3], '>=', 2 * 18, 'json: box 2 two lines tall';
is_deeply [ map { $_->{lines} } @$segs ], [1, 1, 2], 'json: lines';

# WebVTT

my $vtt = $out{vtt};
like $vtt, qr/\AWEBVTT\n\n/, 'vtt: header';
my @cues = $vtt =~ /^(\d\d:\d\d:\d\d\.\d{3}) --> (\d\d:\d\d:\d\d\.\d{3})((?: [^ \n]+)*)\n((?:[^\n]+\n)+)(?:\n|\z)/mg;
is scalar(@cues) / 4, 3, 'vtt: three cues';
like $vtt, qr/^Fish &amp; Chips$/m, 'vtt: & escaped';
unlike $vtt, qr/&(?!amp;|lt;|gt;)/, 'vtt: no bare &';
like $vtt, qr/^Grüße aus Köln$/m, 'vtt: UTF-8 text';
is vtt_time($cues[0]), $segs->[0]{start}, 'vtt: times as in JSON';
is vtt_time($cues[9]), $segs->[2]{end}, 'vtt: times as in JSON (end)';

# the cue settings: percentages of the frame size from the box; a box in
# the lower half is placed by its bottom edge (line ...,end)
for my $i (0 .. 2) {
    my %set = map { split /:/, $_, 2 } split ' ', $cues[4 * $i + 2];
    my ($x, $y, $w, $h) = @{ $box[$i] };
    my $bottom = 2 * $y + $h > 360;
    my $line = $bottom ? 100 * ($y + $h) / 360 : 100 * $y / 360;
    is_deeply [ sort keys %set ], [qw(align line position size)],
        "vtt: cue $i settings";
    is $set{align}, 'center', "vtt: cue $i align";
    like $set{line}, qr/^\d+(?:\.\d{1,3})?%${\($bottom ? ',end' : '')}\z/,
        "vtt: cue $i line is a percentage" . ($bottom ? ', end' : '');
    cmp_ok abs(pct($set{line}) - $line), '<', 0.001, "vtt: cue $i line";
    cmp_ok abs(pct($set{position}) - 100 * ($x + $w / 2) / 640), '<', 0.001,
        "vtt: cue $i position: the box's middle";
    cmp_ok abs(pct($set{size}) - 100 * $w / 640), '<', 0.001,
        "vtt: cue $i size: the box's width";
}

# SubRip

my $srt = $out{srt};
my @blocks = split /\n\n/, $srt;
is scalar(@blocks), 3, 'srt: three blocks';
for my $i (0 .. $#blocks) {
    like $blocks[$i],
        qr/\A${\($i + 1)}\n\d\d:\d\d:\d\d,\d{3} --> \d\d:\d\d:\d\d,\d{3}\n.+/s,
        "srt: block $i numbered and timed";
}
like $srt, qr/^Fish & Chips$/m, 'srt: text as is';
like $srt, qr/\n\z/, 'srt: ends with a newline';

# plain text: one segment a line

my @lines = split /\n/, $out{txt};
is scalar(@lines), 3, 'txt: one line per segment';
is $lines[1], $segs->[1]{text}, 'txt: the segment text';
is $lines[2], join(' ', split /\n/, $segs->[2]{text}), 'txt: line breaks become spaces';

# ASS

my $ass = $out{ass};
like $ass, qr/\A\[Script Info\]\n/, 'ass: [Script Info] first';
like $ass, qr/^ScriptType: v4\.00\+$/m, 'ass: v4.00+';
like $ass, qr/^PlayResX: 640\nPlayResY: 360$/m, 'ass: PlayRes = frame size';
like $ass, qr/^\[V4\+ Styles\]\nFormat: Name, .*\nStyle: Default,/m,
    'ass: a default style';
my @ev = $ass =~ /^Dialogue: 0,(\d+:\d\d:\d\d\.\d\d),(\d+:\d\d:\d\d\.\d\d),Default,,0,0,0,,\{\\an(\d)\\pos\((\d+),(\d+)\)\}(.*)$/mg;
is scalar(@ev) / 6, 3, 'ass: three events, placed';
for my $i (0 .. 2) {
    my ($st, $en, $an, $px, $py, $t) = @ev[6 * $i .. 6 * $i + 5];
    my ($x, $y, $w, $h) = @{ $box[$i] };
    my $bottom = 2 * $y + $h > 360;
    is $an, $bottom ? 2 : 8, "ass: event $i \\an" . ($bottom ? 2 : 8);
    is $px, int((2 * $x + $w) / 2), "ass: event $i \\pos x: the box's middle";
    is $py, $bottom ? $y + $h : $y, "ass: event $i \\pos y: its edge";
    cmp_ok abs(vtt_time($st) - $segs->[$i]{start}), '<=', 0.005,
        "ass: event $i start";
    cmp_ok abs(vtt_time($en) - $segs->[$i]{end}), '<=', 0.005,
        "ass: event $i end";
    is $t, join('\\N', split /\n/, $segs->[$i]{text}),
        "ass: event $i text, line breaks as \\N";
}

# read by FFmpeg (ASS to SubRip) and rendered by libass

my $assf = "$dir/out.ass";
open my $afh, '>:raw', $assf or die "$assf: $!";
print {$afh} Encode::encode('UTF-8', $ass);
close $afh;
my $srt2 = `ffmpeg -nostdin -hide_banner -loglevel error -i '$assf' -f srt - 2>&1`;
is $?, 0, 'ass: FFmpeg reads it' or diag $srt2;
$srt2 = Encode::decode('UTF-8', $srt2);
my @texts = map { my @l = split /\r?\n/; join "\n", @l[2 .. $#l] }
            split /\r?\n\r?\n/, $srt2;
s/<[^>]*>|\{[^}]*\}//g for @texts;
is_deeply \@texts, [ map { $_->{text} } @$segs ],
    'ass: FFmpeg finds the same texts';
my $render = `ffmpeg -nostdin -hide_banner -loglevel error -i '$file' -vf 'ass=$assf' -f null - 2>&1`;
is $?, 0, 'ass: libass renders it onto the video';
is $render, '', 'ass: without a message' or diag $render;

done_testing;

sub pct {
    my ($v) = @_;
    $v =~ s/%.*//;
    return $v;
}

sub vtt_time {
    my ($t) = @_;
    my ($h, $m, $s) = split /:/, $t;
    return $h * 3600 + $m * 60 + $s + 0;
}
