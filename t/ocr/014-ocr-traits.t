# The traits corpus (bench/ocr/lib/OCRTraits.pm), its short videos: one
# per trait of the files people really upload (containers, codecs,
# scripts, captions of 3 and 4 lines), made here with ffmpeg, read with
# `video-ocr-worker ocr --lang LANG` and scored as the benchmark scores
# (OCRBench::score): for each trait, every screen found (CER <= 0.3), a
# mean CER of at most its target (0.05 for the languages, 0.10 for the
# rest) and no false segment (one that reads no screen: a screen cut in
# pieces leaves some).  The 20-minute lecture and 4K are the benchmark's only
# (bench/ocr/run.sh --traits).
#
# The traits this code does not read yet (known, with what was
# measured) run too, as TODO tests: their results are printed, a pass is
# news, a failure does not fail the suite.
#
# Each trait is the same video on every run (OCRTraits seeds its moving
# background by its name and encodes in one thread).  OCR_TRAITS_SEED=N
# makes other videos of the same traits, to look for the makings a
# change reads wrong:
#   for n in $(seq 1 20); do
#       OCR_TRAITS_SEED=$n prove t/ocr/014-ocr-traits.t; done

use strict;
use warnings;
use utf8;
use lib 't/lib', 'bench/ocr/lib';

use Test::More;
use VideoOCR::Media qw(run_worker worker_bin tmpdir);
use OCRTraits ();
use OCRBench qw(score);

-x worker_bin() or BAIL_OUT('no worker binary at ' . worker_bin());

my $dir = tmpdir();
my $seed = $ENV{OCR_TRAITS_SEED} // 0;
$seed =~ /^[0-9]{1,9}$/
    or BAIL_OUT("OCR_TRAITS_SEED: a number of up to 9 digits, not \"$seed\"");

# measured on this branch: why they are TODO (none since 2026-12-03,
# when Korean and Chinese began to read right)
my %known = ();

# Screens cut in pieces, so false segments (issue 13): every screen is
# found and read, but in two or three segments.  caps-3-4-lines, over
# strong noise (movingnoise), gives no false segment on the makings of
# OCR_TRAITS_SEED 0 to 6 and 9, 1 on 7 and 2 on 8 since screens whose
# readings agree letter for letter are joined (vw_join_read_same,
# 2026-12-05; 0, 2, 1, 0, 0, 1, 1, 1, 2 and 0 before, with screens joined
# in hindsight, worker/pipeline/vw_join.c; 1, 2, 3 and 2 on 0 to 3 before that):
# what is left are screens of two looks whose reading has a letter the
# noise made ("CHANGED I") or lacks lines.  caps-3-4-lines-busy (the
# noisy test pattern) gives none on makings 0 to 3 since screens are
# joined in hindsight (0, 1, 0 and 0 before): no longer a TODO.
my %cut = (
    'caps-3-4-lines' => 'over strong noise a 4-line caption is '
                      . 'sometimes cut in pieces',
);

for my $tr (grep { $_->{short} } OCRTraits::traits()) {
    my $t = OCRTraits::make_trait($tr, $dir, duration => 8,
                                  seed => $seed);
    my $r = run_worker('ocr', "$dir/$t->{file}", '--lang', $t->{lang},
                       '--format', 'json');
    my $segs = $r->{json} ? $r->{json}{segments} : [];
    my $sc = score($segs, $t);
    my $cer = $sc->{cer_sum} / ($sc->{screens} || 1);
    my $target = $tr->{target} // 0.10;
    my $why = $known{ $tr->{name} };

    diag sprintf '%-32s rc %d, %d of %d screens, CER %.3f, %d false%s',
        $tr->{name}, $r->{rc}, $sc->{found}, $sc->{screens}, $cer,
        $sc->{false}, $r->{rc} ? ": $r->{stderr}" : '';

    TODO: {
        local $TODO = $why;
        is $r->{rc}, 0, "$tr->{name}: read";
        is $sc->{found}, $sc->{screens}, "$tr->{name}: every screen found";
        cmp_ok $cer, '<=', $target, "$tr->{name}: mean CER at most $target";
    }

    TODO: {
        local $TODO = $why // $cut{ $tr->{name} };
        is $sc->{false}, 0, "$tr->{name}: no false segment";
    }

    # Korean writes spaces between words, and Tesseract cuts words at
    # syllables too: one space too many ("날씨 가") is a CER of 0.05
    # over the two screens, within the target, so the words are checked
    # (the spaces come from Tesseract's line text: worker/ocr/vw_script.c)
    if ($tr->{name} eq 'lang-kor') {
        my @words = map { split ' ' } map { $_->{text} } @$segs;
        my @want = map { split ' ' } map { $_->{text} } @{ $t->{screens} };
        is "@words", "@want", 'lang-kor: the words as written';
    }
}

done_testing();
