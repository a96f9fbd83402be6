#!/usr/bin/perl
# How well a confidence bound tells misreadings from right readings
# (the bound of "unsure" segments, VW_UNSURE_BELOW in
# worker/result/vw_segments.h).
#
#   perl bench/ocr/unsure.pl [--list] CORPUS:RESULTS...
#
# CORPUS is a corpus directory (bench/ocr/corpus.pl: NAME.json, the
# truth), RESULTS a directory of the worker's JSON results named
# NAME.json (`video-ocr-worker ocr VIDEO --fps 1 --lang LANG`, the
# video's own lang for the real-like set).  Each segment is scored by
# how wrong its text is: the edit distance from its text to the nearest
# part of a truth text on screen within 0.5 s of it (a line, a span, a
# screen, or the lines on screen then together), over its own length,
# both normalised as the line scorer does (OCRBench::line_norm: NFKC,
# lower case, no spaces or punctuation); 1 when no truth text is on
# screen then.  So a segment is judged on what it says, not on what it
# misses: a line read right beside another one missed is right.
#
# Prints, per half of the sets ("tune", "holdout"; a corpus without
# halves is all "tune") and for each bound, how many segments of each
# kind are below it: wrong (more than a fifth of their characters),
# nearly right (some, up to a fifth) and exact.  --list prints every
# segment first: half, name, confidence, wrongness, text.

use strict;
use warnings;
use utf8;
use FindBin;
use lib "$FindBin::Bin/lib", "$FindBin::Bin/../../t/lib";

use JSON::PP ();
use OCRBench qw(line_norm line_cer LINE_SLACK FOUND_LINE_CER);

my @BOUNDS = (50, 60, 70, 75, 80, 85, 90, 95);

my $list = @ARGV && $ARGV[0] eq '--list' ? shift : 0;
@ARGV or die "usage: $0 [--list] CORPUS:RESULTS...\n";
binmode STDOUT, ':encoding(UTF-8)';

my @segs;
for my $pair (@ARGV) {
    my ($corpus, $results) = split /:/, $pair, 2;
    defined $results or die "$pair: not CORPUS:RESULTS\n";
    for my $r (sort glob "$results/*.json") {
        (my $name = $r) =~ s{.*/}{};
        $name =~ s/\.json\z//;
        -f "$corpus/$name.json" or next;
        my $truth = slurp_json("$corpus/$name.json");
        my $out = slurp_json($r) or next;
        push @segs, judge($name, $truth, $_) for @{ $out->{segments} };
    }
}

if ($list) {
    for my $s (sort { $a->{confidence} <=> $b->{confidence} } @segs) {
        (my $t = $s->{text}) =~ s/\n/ | /g;
        printf "%s\t%s\t%d\t%.2f\t%s\n", $s->{half}, $s->{name},
            $s->{confidence}, $s->{wrong}, $t;
    }
    print "\n";
}

for my $half ('tune', 'holdout', 'all') {
    my @h = grep { $half eq 'all' || $_->{half} eq $half } @segs;
    next unless @h;
    my @kind = (
        [ 'wrong', [ grep { $_->{wrong} > FOUND_LINE_CER } @h ] ],
        [ 'nearly right',
          [ grep { $_->{wrong} > 0 && $_->{wrong} <= FOUND_LINE_CER } @h ] ],
        [ 'exact', [ grep { $_->{wrong} == 0 } @h ] ],
    );
    printf "%s: %d segments (%s)\n\n", $half, scalar @h,
        join ', ', map { scalar(@{ $_->[1] }) . " $_->[0]" } @kind;
    print '| below | ', join(' | ', map { $_->[0] } @kind), " |\n";
    print '|---', '|---' x @kind, "|\n";
    for my $b (@BOUNDS) {
        print "| $b | ", join(' | ', map {
            my $all = @{ $_->[1] };
            my $n = grep { $_->{confidence} < $b } @{ $_->[1] };
            $all ? sprintf('%d of %d (%.0f %%)', $n, $all, 100 * $n / $all)
                 : '-';
        } @kind), " |\n";
    }
    print "\n";
}

# The segment's half, name, confidence, text and wrongness (above).
sub judge {
    my ($name, $truth, $s) = @_;
    my @shown = grep {
        $_->{end} > $s->{start} - LINE_SLACK
            && $_->{start} < $s->{end} + LINE_SLACK
    } (@{ $truth->{lines} // [] }, @{ $truth->{spans} // [] },
       @{ $truth->{screens} // [] });
    my @texts = map { line_norm($_->{text}) } @shown;
    push @texts, join '', @texts if @texts > 1;
    my $got = line_norm($s->{text});
    my $wrong = 1;
    for my $t (@texts) {
        my ($c) = line_cer($got, $t);
        $wrong = $c if $c < $wrong;
    }
    return { half => $truth->{half} // 'tune', name => $name,
             confidence => $s->{confidence}, text => $s->{text},
             wrong => $wrong };
}

sub slurp_json {
    my ($path) = @_;
    open my $fh, '<:raw', $path or die "$path: $!";
    local $/;
    my $s = <$fh>;
    return eval { JSON::PP->new->utf8->decode($s) };
}
