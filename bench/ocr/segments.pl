#!/usr/bin/perl
# Per-sample texts in, segments out: the last step of the baseline
# pipelines, with the worker's merging rule (OCRBench::merge_frames).
#
#   perl bench/ocr/segments.pl --txt DIR FPS    # DIR/000001.txt ... (the
#                                               # tesseract CLI's output;
#                                               # file n is sample n-1)
#   perl bench/ocr/segments.pl < frames.json    # {"fps":1,"duration":30,
#                                               #  "ocr_calls":12,"frames":
#                                               #  [{"index":0,"text":"",
#                                               #    "confidence":0}, ...]}
#
# Prints {"frames_planned":N,"ocr_calls":N,"segments":[{"start":..,
# "end":..,"text":..,"confidence":..}, ...]} on stdout, the shape of
# "video-ocr-worker ocr --format json" that the scorer reads.

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib", "$FindBin::Bin/../../t/lib";

use JSON::PP ();
use OCRBench qw(merge_frames);

my $json = JSON::PP->new->utf8->canonical;
my $in;

if (@ARGV && $ARGV[0] eq '--txt') {
    my (undef, $dir, $fps) = @ARGV;
    opendir my $dh, $dir or die "$dir: $!";
    my @files = sort grep { /^\d+\.txt$/ } readdir $dh;
    closedir $dh;
    my @frames;
    for my $f (@files) {
        open my $fh, '<:raw', "$dir/$f" or die "$dir/$f: $!";
        local $/;
        my $t = <$fh> // '';
        close $fh;
        $t =~ s/\f//g;                 # tesseract ends a page with \f
        $t =~ s/^\s+|\s+$//g;
        $t =~ s/\n\s*\n/\n/g;          # blank lines between blocks
        my ($n) = $f =~ /^(\d+)/;
        push @frames, { index => $n - 1, text => $t, confidence => 0 };
    }
    $in = { fps => $fps, ocr_calls => scalar @frames, frames => \@frames };
} else {
    local $/;
    $in = $json->decode(<STDIN>);
}

my $segs = merge_frames($in->{frames}, $in->{fps}, $in->{duration});
print $json->encode({ frames_planned => scalar @{ $in->{frames} },
    ocr_calls => $in->{ocr_calls}, segments => $segs }), "\n";
