#!/usr/bin/perl
# How well a confidence bound tells misreadings from right readings
# (the bound of "unsure" segments, VW_UNSURE_BELOW in
# worker/result/vw_segments.h).
#
#   perl bench/ocr/unsure.pl [--list] CORPUS:RESULTS...
#
# CORPUS is a corpus directory (bench/ocr/corpus.pl: NAME.json, the
# truth, beside its video), RESULTS a directory of the worker's JSON
# results named NAME.json: those missing are made first, one process a
# video, `$WORKER_BIN ocr VIDEO --fps 1 --lang LANG --format json` (the
# truth's lang, else eng; WORKER_BIN defaults to build/video-ocr-worker).
# Each segment is scored by
# how wrong its text is: the edit distance from its text to the nearest
# part of a truth text on screen within 0.5 s of it (a line, a span, a
# screen, or the lines on screen then together), over its own length,
# both normalised as the line scorer does (OCRBench::line_norm: NFKC,
# lower case, no spaces or punctuation), or, when less, the share of
# its characters in words found in no such text (text that moves, a
# marquee or a wipe, shows pieces of its lines in an order, and at
# times, no truth text has: a word is right when a text of the video
# holds it); 1 when no truth text is on screen then.  So a segment is
# judged on what it says, not on what it misses: a line read right
# beside another one missed is right, and so is the part of a line a
# wipe has shown.
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

use File::Path qw(make_path);
use JSON::PP ();
use OCRBench qw(line_norm line_cer LINE_SLACK FOUND_LINE_CER);

my @BOUNDS = (50, 60, 70, 75, 80, 85, 90, 95);

my $worker = $ENV{WORKER_BIN} // 'build/video-ocr-worker';
my $list = @ARGV && $ARGV[0] eq '--list' ? shift : 0;
@ARGV or die "usage: $0 [--list] CORPUS:RESULTS...\n";
binmode STDOUT, ':encoding(UTF-8)';

my @segs;
for my $pair (@ARGV) {
    my ($corpus, $results) = split /:/, $pair, 2;
    defined $results or die "$pair: not CORPUS:RESULTS\n";
    make_path($results);
    for my $t (sort glob "$corpus/*.json") {
        (my $name = $t) =~ s{.*/}{};
        $name =~ s/\.json\z//;
        my $truth = slurp_json($t) or die "$t: not JSON\n";
        my $r = "$results/$name.json";
        unless (-s $r) {
            system("$worker ocr '$corpus/$truth->{file}' --fps 1 --lang "
                   . ($truth->{lang} // 'eng') . " --format json > '$r.new'")
                == 0 or die "$name: the worker failed\n";
            rename "$r.new", $r or die "$r: $!";
        }
        my $out = slurp_json($r) or die "$r: not JSON\n";
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
    # words: text that moves (a marquee, a wipe) shows pieces of its
    # lines in an order, and at times, no truth text has; a word is
    # right when some text of the video holds it (a word of 1 or 2
    # characters: is one of its words)
    my @video = map { $_->{text} } (@{ $truth->{lines} // [] },
                                    @{ $truth->{spans} // [] });
    my %word = map { line_norm($_) => 1 } map { split /\s+/ } @video;
    my @whole = map { line_norm($_) } @video;
    my ($all, $bad) = (0, 0);
    for my $w (map { line_norm($_) } split /\s+/, $s->{text}) {
        next if $w eq '';
        $all += length $w;
        $bad += length $w unless length $w < 3 ? $word{$w}
                                 : grep { index($_, $w) >= 0 } @whole;
    }
    $wrong = $bad / $all if $all && $bad / $all < $wrong;
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
