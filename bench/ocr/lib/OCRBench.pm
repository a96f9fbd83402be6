package OCRBench;

# What the OCR benchmark shares between its pipelines and its scorer.
#
# merge_frames(): the worker's rule for turning per-sample texts into
# segments (worker/result/vw_segments.h), so that the baselines are
# scored on segments made the same way as ours: frames are taken in index order;
# a frame continues the open segment when no sample is missing between
# it and the previous one, its text is not empty and its Levenshtein
# distance (in characters) to the previous frame's text is at most 15%
# of the longer one; its text is that of its most confident frame (the
# earliest on a tie).  The frames are looks (plan version 2: `looks` to
# a sampling interval d = 1/fps, 1 for the baselines, which read samples
# only): a segment from look a to the next frame's look n spans
# [t_a - s/2, t_n - s/2] (s = d / looks; n is the next sample's look
# when that sample is missing or nothing follows) clamped to
# [0, duration].
#
# score(): how a pipeline's segments compare with a video's truth
# (bench/ocr/corpus.pl writes it).  The unit is the screen: an interval
# of the truth with a constant, non-empty text.
#
#   - For each screen, the candidates are the segments that overlap it
#     in time; the one with the lowest CER is its match (ties: the one
#     that overlaps it most).
#   - CER of a screen: VideoOCR::Media::cer(match text, screen text),
#     i.e. the Levenshtein distance in characters between the normalised
#     texts divided by the length of the normalised truth, capped at 1;
#     1 when no segment overlaps the screen.  Normalising maps
#     typographic quotes and dashes to ASCII and collapses white space
#     (line breaks included); case and punctuation count.
#   - Found: the screen has a match with CER <= 0.3 (FOUND_CER).
#   - False segments: segments that are the match of no screen (text
#     read where there is none, a screen read twice, fragments).
#   - Start error: |match start - screen start|, over the found screens.
#   - Timing in frames (frame_screens()): the screens again, each span
#     put on the frames drawtext draws it on (the first with t >= start
#     to the first with t > end); |match start - screen's first frame|
#     and |match end - the first frame after it| in frames of the
#     video, over the found screens (the end when the screen ends
#     before the video does).  Videos whose screens come out otherwise
#     on frames (two cuts on one frame) are left out of it.

use strict;
use warnings;
use utf8;

use Exporter 'import';
use Encode ();
use Unicode::Normalize ();
use VideoOCR::Media qw(cer normalise levenshtein);

our @EXPORT_OK = qw(merge_frames worker_looks score median mean screens
    frame_screens percentile FOUND_CER score_lines line_norm line_cer
    FOUND_LINE_CER LINE_SLACK rng);

use constant FOUND_CER      => 0.3;
use constant NEARLY_PERCENT => 15;
use constant FOUND_LINE_CER => 0.2;
use constant LINE_SLACK     => 0.5;

sub _chars {
    my ($s) = @_;
    $s = Encode::decode('UTF-8', $s) unless utf8::is_utf8($s);
    return $s;
}

sub nearly_same {
    my ($a, $b) = map { _chars($_) } @_;
    return 1 if $a eq $b;
    my $longer = length($a) > length($b) ? length($a) : length($b);
    return levenshtein($a, $b) * 100 <= $longer * NEARLY_PERCENT;
}

# The looks per sampling interval of the worker's plan (vw_plan.c):
# steps of at most VW_LOOK_US (170 ms), integer arithmetic as there.
sub worker_looks {
    my ($fps) = @_;
    my $milli = int($fps * 1000 + 0.5);
    my $l = int((int(1000000000 / 170000) + $milli - 1) / $milli);
    return $l < 1 ? 1 : $l;
}

# frames: [{index, text, confidence, pts, exact}], fps, duration (s, may
# be undef), looks (default 1: the frames are samples); a frame with
# exact starts or ends a segment at its pts, as the worker's do
# (refine, worker/result/vw_segments.h)
sub merge_frames {
    my ($frames, $fps, $duration, $looks) = @_;
    $looks ||= 1;
    my @f = sort { $a->{index} <=> $b->{index} } @$frames;
    my $step = 1 / $fps / $looks;
    my $sample = sub { int($_[0] / $looks) };
    my (@segs, $open, $prev, $best);
    for my $x (@f) {
        my $text = $x->{text} // '';
        my $gap = $prev && $sample->($x->{index}) > $sample->($prev->{index}) + 1;
        if ($open && ($text eq '' || $gap
                      || !nearly_same($prev->{text}, $text)))
        {
            $open->{end_look} = $gap ? ($sample->($prev->{index}) + 1) * $looks
                                     : $x->{index};
            $open->{end_at} = $x->{pts} if !$gap && $x->{exact};
            $open = undef;
        }
        $prev = $x;
        next if $text eq '';
        if (!$open) {
            $open = { first => $x->{index}, last => $x->{index},
                      text => $text, confidence => $x->{confidence} // 0,
                      sum => 0, n => 0,
                      start_at => $x->{exact} ? $x->{pts} : undef };
            $best = $x->{confidence} // 0;
            push @segs, $open;
        }
        $open->{last} = $x->{index};
        $open->{sum} += $x->{confidence} // 0;
        $open->{n}++;
        if (($x->{confidence} // 0) > $best) {
            $best = $x->{confidence};
            $open->{text} = $text;
        }
    }
    $open->{end_look} = ($sample->($prev->{index}) + 1) * $looks if $open;
    my $prev_end;
    return [map {
        my $s = $_->{first} * $step - $step / 2;
        my $e = $_->{end_look} * $step - $step / 2;
        $s = 0 if $s < 0;
        $e = $duration if defined $duration && $e > $duration;
        $s = 0 + sprintf('%.3f', $s);
        $e = 0 + sprintf('%.3f', $e);
        # a change the worker placed on its frame (frames' "exact")
        $s = $_->{start_at} if defined $_->{start_at};
        $s = $prev_end if defined $prev_end && $s < $prev_end;
        $e = $_->{end_at} if defined $_->{end_at} && $_->{end_at} > $s
            && (!defined $duration || $_->{end_at} <= $duration);
        $prev_end = $e;
        { start => $s, end => $e, text => $_->{text},
          confidence => int($_->{sum} / $_->{n} + 0.5) }
    } @segs];
}

# Returns { screens, found, cer_sum, false, start_err => [...],
#           per_screen => [{screen, segment, cer, found}] }
sub score {
    my ($segs, $truth) = @_;
    my (%used, @per, @start_err);
    my ($found, $cer_sum) = (0, 0);
    for my $s (@{ $truth->{screens} }) {
        my ($best, $bi, $bc, $bo) = (undef, -1, 2, 0);
        for my $i (0 .. $#$segs) {
            my $g = $segs->[$i];
            my $o = _min($g->{end}, $s->{end}) - _max($g->{start}, $s->{start});
            next if $o <= 0;
            my $c = cer($g->{text}, $s->{text});
            $c = 1 if $c > 1;
            if ($c < $bc || ($c == $bc && $o > $bo)) {
                ($best, $bi, $bc, $bo) = ($g, $i, $c, $o);
            }
        }
        my $c = $best ? $bc : 1;
        my $ok = $best && $c <= FOUND_CER;
        $used{$bi} = 1 if $best;
        $found++ if $ok;
        $cer_sum += $c;
        push @start_err, abs($best->{start} - $s->{start}) if $ok;
        push @per, { screen => $s, segment => $best, cer => $c,
                     found => $ok ? 1 : 0 };
    }
    my (@start_frames, @end_frames);
    my $fs = frame_screens($truth);
    if ($fs && @$fs == @per) {
        my $r = $truth->{rate};
        for my $i (0 .. $#per) {
            next unless $per[$i]{found};
            my $g = $per[$i]{segment};
            push @start_frames, abs($g->{start} - $fs->[$i]{start}) * $r;
            push @end_frames, abs($g->{end} - $fs->[$i]{end}) * $r
                if $fs->[$i]{end} < $truth->{duration};
        }
    }
    return {
        screens    => scalar @{ $truth->{screens} },
        found      => $found,
        cer_sum    => $cer_sum,
        false      => scalar(grep { !$used{$_} } 0 .. $#$segs),
        start_err  => \@start_err,
        start_frames => \@start_frames,
        end_frames => \@end_frames,
        per_screen => \@per,
    };
}

# score_lines(): the real-like set's measure (issue 36), per line of
# the truth's "lines" rather than per screen, as real footage is scored
# against its subtitles:
#
#   - A line is compared with the segments that overlap its time widened
#     by LINE_SLACK (0.5 s) on each side.
#   - Its CER against a segment (line_cer) is the edit distance between
#     the line and the part of the segment's text that matches it best
#     (any substring: a segment may hold other lines too), divided by
#     the line's length, capped at 1; both normalised by line_norm():
#     NFKC (full-width forms as ASCII), lower case, no white space and
#     no punctuation, so that case, spaces and punctuation aside each
#     character counts (every Han character is one).
#   - The line is found when its best CER is at most FOUND_LINE_CER
#     (0.2) and, for a line with a key (a counter's value), the key is
#     inside the part of the segment that matched.  A line cut across two
#     segments is found in neither unless one holds 80 % of it.
#   - Per video: recall (found lines / lines), line CER (the mean over
#     the lines of the best CER, 1 for a line no segment overlaps),
#     false segments (segments that are the best match of no line and
#     find none: text where the truth has none, a line read twice,
#     fragments) and, on a video without lines, invented segments (all
#     of them) and their characters.
#
# Returns { lines, found, cer_sum, recall, cer (undef without lines),
#           false, segments, invented, invented_chars,
#           per_line => [{line, cer, found, segment}] }
sub score_lines {
    my ($segs, $truth) = @_;
    my @lines = @{ $truth->{lines} // [] };
    my @norm = map { line_norm($_->{text}) } @$segs;
    my (%best_of, @per);
    my ($found, $cer_sum) = (0, 0);
    for my $l (@lines) {
        my $want = line_norm($l->{text});
        my $key = defined $l->{key} ? line_norm($l->{key}) : undef;
        my ($bc, $bi, $bok) = (1, -1, 0);
        for my $i (0 .. $#$segs) {
            my $g = $segs->[$i];
            next if $g->{end} <= $l->{start} - LINE_SLACK
                 || $g->{start} >= $l->{end} + LINE_SLACK;
            my ($c, $part) = line_cer($want, $norm[$i]);
            my $ok = $c <= FOUND_LINE_CER
                && (!defined $key || index($part, $key) >= 0) ? 1 : 0;
            # the best: found before not found, then the lower CER
            if ($bi < 0 || $ok > $bok || ($ok == $bok && $c < $bc)) {
                ($bc, $bi, $bok) = ($c, $i, $ok);
            }
        }
        $best_of{$bi} = 1 if $bi >= 0;
        $found += $bok;
        $cer_sum += $bc;
        push @per, { line => $l, cer => $bc, found => $bok,
                     segment => $bi >= 0 ? $segs->[$bi] : undef };
    }
    my $chars = 0;
    $chars += length $_ for @norm;
    my $n = @lines;
    return {
        lines => $n, found => $found, cer_sum => $cer_sum,
        recall => $n ? $found / $n : undef,
        cer => $n ? $cer_sum / $n : undef,
        false => scalar(grep { !$best_of{$_} } 0 .. $#$segs),
        segments => scalar @$segs,
        invented => $n ? 0 : scalar @$segs,
        invented_chars => $n ? 0 : $chars,
        per_line => \@per,
    };
}

# A text as the line scorer compares it: NFKC, lower case, no white
# space, no punctuation
sub line_norm {
    my ($s) = @_;
    $s = _chars($s // '');
    $s = lc Unicode::Normalize::NFKC($s);
    $s =~ s/[\s\p{P}]+//g;
    return $s;
}

# (CER, matched part): the edit distance from the normalised line $want
# to the substring of the normalised text $got nearest to it, over the
# line's length, capped at 1 (the semi-global alignment: the substring
# may start and end anywhere in $got, for free)
sub line_cer {
    my ($want, $got) = @_;
    my @w = split //, $want;
    my @g = split //, $got;
    return (length $got ? 1 : 0, '') unless @w;
    return (1, '') unless @g;
    # d[j]: the distance of w[0..i) to a substring ending at g[j);
    # s[j]: where that substring starts
    my @d = (0) x (@g + 1);
    my @s = (0 .. @g);
    for my $i (1 .. @w) {
        my @nd = ($i);
        my @ns = (0);
        for my $j (1 .. @g) {
            my $sub = $d[$j - 1] + ($w[$i - 1] eq $g[$j - 1] ? 0 : 1);
            my $del = $d[$j] + 1;
            my $ins = $nd[$j - 1] + 1;
            if ($sub <= $del && $sub <= $ins) {
                push @nd, $sub; push @ns, $s[$j - 1];
            } elsif ($del <= $ins) {
                push @nd, $del; push @ns, $s[$j];
            } else {
                push @nd, $ins; push @ns, $ns[$j - 1];
            }
        }
        @d = @nd;
        @s = @ns;
    }
    my $bj = 0;
    for my $j (1 .. @g) { $bj = $j if $d[$j] < $d[$bj] }
    my $c = $d[$bj] / @w;
    return ($c > 1 ? 1 : $c, join '', @g[$s[$bj] .. $bj - 1]);
}

# rng(SEED): a small deterministic generator of numbers in [0, 1), the
# same numbers on every perl (the corpora's texts and times)
sub rng {
    my ($state) = @_;
    $state ||= 1;
    return sub {
        $state = (1103515245 * $state + 12345) % 2147483648;
        return $state / 2147483648;
    };
}

# The truth's screens on frames: each span from its first frame (t >=
# start) to the first frame after its last (t > end), at the video's
# rate; undef without spans or a rate.
sub frame_screens {
    my ($truth) = @_;
    my $r = $truth->{rate} or return undef;
    my $spans = $truth->{spans} or return undef;
    my $eps = 1e-6;
    my @on = map { {
        %$_,
        start => _ceil($_->{start} * $r - $eps) / $r,
        end   => (int($_->{end} * $r + $eps) + 1) / $r - 1e-9,
    } } @$spans;
    my $fs = screens(\@on, $truth->{duration}, 0);
    $_->{end} += 1e-9 for @$fs;
    $_->{end} = $truth->{duration} for grep { $_->{end} > $truth->{duration} } @$fs;
    return $fs;
}

sub _ceil { my $i = int($_[0]); $i + ($_[0] > $i ? 1 : 0) }

# The p-th percentile (nearest rank) of a list.
sub percentile {
    my ($p, @v) = @_;
    @v = sort { $a <=> $b } @v;
    return undef unless @v;
    my $k = _ceil($p / 100 * @v) - 1;
    $k = 0 if $k < 0;
    return $v[$k];
}

sub median {
    my @v = sort { $a <=> $b } @_;
    return undef unless @v;
    return @v % 2 ? $v[$#v / 2] : ($v[@v / 2 - 1] + $v[@v / 2]) / 2;
}

sub mean {
    return undef unless @_;
    my $s = 0;
    $s += $_ for @_;
    return $s / @_;
}

# The intervals with a constant, non-empty set of visible spans.
sub screens {
    my ($spans, $dur, $frame) = @_;
    my %cut = (0 => 1, $dur => 1);
    for my $s (@$spans) {
        $cut{$s->{start}} = 1;
        $cut{$s->{end}} = 1;
    }
    my @cuts = sort { $a <=> $b } keys %cut;
    my @out;
    for my $i (0 .. $#cuts - 1) {
        my $mid = ($cuts[$i] + $cuts[$i + 1]) / 2;
        my @on = sort { $a->{line} <=> $b->{line} }
                 grep { $_->{start} <= $mid && $mid <= $_->{end} } @$spans;
        my $text = join "\n", map { $_->{text} } @on;
        next if $text eq '';
        if (@out && $out[-1]{text} eq $text
            && abs($out[-1]{end} - $cuts[$i]) < 1e-9)
        {
            $out[-1]{end} = $cuts[$i + 1];
            next;
        }
        push @out, { start => $cuts[$i], end => $cuts[$i + 1],
                     text => $text };
    }
    for my $s (@out) {
        $s->{end} = _round2($s->{end} + $frame) if $frame && $s->{end} < $dur;
        $s->{end} = $dur if $s->{end} > $dur;
    }
    return \@out;
}

sub _round2 { sprintf('%.2f', $_[0]) + 0 }

sub _min { $_[0] < $_[1] ? $_[0] : $_[1] }
sub _max { $_[0] > $_[1] ? $_[0] : $_[1] }

1;
