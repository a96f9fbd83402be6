# The four result formats are well-formed and say the same thing: JSON
# (the shape the job status endpoint publishes), WebVTT (escaped cue
# text), SubRip and plain text; UTF-8 throughout.

use strict;
use warnings;
use utf8;
use lib 't/lib';

use Encode ();
use Test::More;
use VideoOCR::Media qw(run_worker worker_bin tmpdir make_video normalise cer);

-x worker_bin() or BAIL_OUT('no worker binary at ' . worker_bin());

my $dir = tmpdir();
my @spans = (
    { start => 0.3, end => 1.7, text => 'Fish & Chips' },
    { start => 2.2, end => 3.8, text => 'Grüße aus Köln' },
    { start => 3.9, end => 6.0, text => 'Two lines here' . "\n" . 'and there' },
);
my $file = make_video(path => "$dir/f.mkv", duration => 6, spans => \@spans,
    dir => $dir);

my %out;
for my $f (qw(json vtt srt txt)) {
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
    is_deeply [ sort keys %$s ], [qw(confidence end looks start text)],
        'json: segment keys';
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

# WebVTT

my $vtt = $out{vtt};
like $vtt, qr/\AWEBVTT\n\n/, 'vtt: header';
my @cues = $vtt =~ /^(\d\d:\d\d:\d\d\.\d{3}) --> (\d\d:\d\d:\d\d\.\d{3})\n((?:[^\n]+\n)+)(?:\n|\z)/mg;
is scalar(@cues) / 3, 3, 'vtt: three cues';
like $vtt, qr/^Fish &amp; Chips$/m, 'vtt: & escaped';
unlike $vtt, qr/&(?!amp;|lt;|gt;)/, 'vtt: no bare &';
like $vtt, qr/^Grüße aus Köln$/m, 'vtt: UTF-8 text';
is vtt_time($cues[0]), $segs->[0]{start}, 'vtt: times as in JSON';
is vtt_time($cues[7]), $segs->[2]{end}, 'vtt: times as in JSON (end)';

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

done_testing;

sub vtt_time {
    my ($t) = @_;
    my ($h, $m, $s) = split /:/, $t;
    return $h * 3600 + $m * 60 + $s + 0;
}
