# A frame whose text is near-identical to the last OCR'd one's is not
# OCR'd again: it takes that frame's text and records where it came
# from; a frame with no glyph at all is not OCR'd either (no_text).
# Counted with the result's ocr_calls / frames_reused / frames_no_text
# and the per-frame reused_from.

use strict;
use warnings;
use lib 't/lib';

use Test::More;
use VideoOCR::Media qw(run_worker worker_bin tmpdir make_video cer);

-x worker_bin() or BAIL_OUT('no worker binary at ' . worker_bin());

my $dir = tmpdir();

# fps 2 over 6 s: 12 samples, each interval cut into 3 looks (plan
# version 2).  Samples 0-5 (t = 0 .. 2.5) show A, sample 6 (t = 3.0)
# nothing, samples 7-11 (t = 3.5 .. 5.5) B; the looks between them see
# A end (after 2.7 s) and B begin (after 3.3 s) and have rows there.
# Three pictures, so two OCR calls and one look found empty without
# Tesseract; every other sample reuses one of those three; on a still
# background, under heavy film grain (every pixel changes in every
# frame), and after VP9 and MPEG-4 compression.
my @spans = (
    { start => 0,   end => 2.7, text => 'The first subtitle' },
    { start => 3.3, end => 6,   text => 'And then the second' },
);

for my $v (['solid', 'libx264', 'mp4'], ['noise', 'libvpx-vp9', 'webm'],
           ['noise', 'mpeg4', 'avi'])
{
    my ($bg, $codec, $ext) = @$v;
    my $name = "$bg-$codec.$ext";
    my $file = make_video(path => "$dir/$name", duration => 6,
        background => $bg, codec => $codec, spans => \@spans, dir => $dir);

    my $r = run_worker('ocr', $file, '--fps', '2', '--frames', '--stats');
    is $r->{rc}, 0, "$name: exit 0" or diag $r->{stderr};
    my $res = $r->{json};
    my $f = $res->{frames};
    my %by = map { $_->{index} => $_ } @$f;
    my @samples = grep { !$_->{between} } @$f;

    is $res->{frames_planned}, 12, "$name: 12 frames planned";
    is scalar(@samples), 12, "$name: a row for every sample";
    is $res->{ocr_calls}, 2, "$name: 2 OCR calls for 2 texts";
    is $res->{frames_no_text}, 1, "$name: 1 picture without text";
    my ($empty) = grep { $_->{no_text} } @$f;
    ok $empty && $empty->{t} > 2.7 && $empty->{t} <= 3.0,
        "$name: it is the first look after A ends";
    is $samples[6]{text}, '', "$name: sample 6 has no text";
    my ($calls) = $r->{stderr} =~ /"ocr_calls":(\d+)/;
    is $calls, 2, "$name: the run made 2 calls to Tesseract";

    my @read = grep { !defined $_->{reused_from} && !$_->{no_text} } @$f;
    is scalar(@read), 2, "$name: two rows read by Tesseract";
    is $res->{frames_reused}, 12 - grep({ !defined $_->{reused_from} }
                                        @samples),
        "$name: every other sample reuses one";
    for my $x (@samples) {
        next unless defined $x->{reused_from};
        is $x->{text}, $by{ $x->{reused_from} }{text},
            "$name: frame $x->{index} has the text of $x->{reused_from}";
    }

    is scalar(@{ $res->{segments} }), 2, "$name: two segments";
    cmp_ok cer($res->{segments}[$_]{text}, $spans[$_]{text}), '<=', 0.05,
        "$name: segment $_ text" for 0 .. 1;
}

# a moving background changes every pixel of every frame, but not the
# text: it is read once, the other frames reuse it, and it comes out
# right
my $file = make_video(path => "$dir/moving.mp4", duration => 3,
    background => 'moving', seed => 1, spans => [$spans[0]], dir => $dir);
my $r = run_worker('ocr', $file, '--fps', '2');
is $r->{rc}, 0, 'moving: exit 0';
is $r->{json}{ocr_calls}, 1, 'moving: the text is read once';
is $r->{json}{frames_reused}, 5, 'moving: the other frames reuse it';
is scalar(@{ $r->{json}{segments} }), 1, 'moving: one segment';
cmp_ok cer($r->{json}{segments}[0]{text}, $spans[0]{text}), '<=', 0.05,
    'moving: the text';

# the same text over a moving background, and then a different one at
# the same place: a new reading
$file = make_video(path => "$dir/moving2.mp4", duration => 4,
    background => 'moving', seed => 1, dir => $dir, spans => [
        { start => 0, end => 1.9, text => 'Where are you going tonight?' },
        { start => 2, end => 4, text => 'Where are you going tomorrow?' },
    ]);
$r = run_worker('ocr', $file, '--fps', '2');
is $r->{rc}, 0, 'moving, changed: exit 0';
is $r->{json}{ocr_calls}, 2, 'moving, changed: read twice';
is $r->{json}{frames_reused}, 6, 'moving, changed: reused 6 times';

done_testing;
