# Tesseract's own doubt is said, not guessed away: a segment whose
# confidence is below the bound (VW_UNSURE_BELOW, vw_segments.h) has
# "unsure":true in the JSON, a NOTE block before its WebVTT cue and a
# Comment event before its ASS Dialogue (which FFmpeg's readers skip),
# and `ocr --stats` counts it; a segment read with confidence has none.
# A line read below the bound is said too, whatever its segment's mean:
# "unsure_lines" in the JSON, and in the NOTE and the Comment.
#
# The unsure reading is one Tesseract gets wrong from a clean picture:
# a line of glyphs that look alike ("Il1|", "O0o", "rn" and "m", "cl"
# and "d"), 28 px, white with a black outline on a flat colour; 5.3
# reads it as "11] OOo rn mcld" with confidence 61.  The sure ones are
# plain sentences in the same style, read right at 95-97.  The unsure
# line: Chinese over English subtitles (t/data/media/bilingual-stacked.mp4),
# "把灯关掉" kept at 66 beside "Turn off the light" at 97, a segment of
# 82 (the worker of a021c9d marks nothing there).
#
# About 5 s of CPU.

use strict;
use warnings;
use utf8;
use lib 't/lib';

use Test::More;
use JSON::PP ();
use VideoOCR::Media qw(run_worker worker_bin tmpdir make_video cer);

-x worker_bin() or BAIL_OUT('no worker binary at ' . worker_bin());

my $dir = tmpdir();
my $sure = 'Meet me at the old harbour';
my $alike = 'Il1| O0o rn m cl d';

# (file, [spans], the texts of the segments expected unsure)
my %video = (
    clean => make_video(path => "$dir/clean.mp4", duration => 5, dir => $dir,
        spans => [
            { start => 0.3, end => 2.2, text => $sure },
            { start => 2.8, end => 4.7, text => 'Bring the blue lantern' },
        ]),
    alike => make_video(path => "$dir/alike.mp4", duration => 5, dir => $dir,
        spans => [
            { start => 0.3, end => 2.2, text => $sure },
            { start => 2.8, end => 4.7, text => $alike },
        ]),
);

for my $name (qw(clean alike)) {
    my $r = run_worker('ocr', $video{$name}, '--format', 'json', '--stats');
    is $r->{rc}, 0, "$name: exit 0" or diag $r->{stderr};
    my $segs = $r->{json} ? $r->{json}{segments} : [];
    is scalar(@$segs), 2, "$name: two segments"
        or diag explain $segs;

    cmp_ok cer($segs->[0]{text} // '', $sure), '<=', 0.05,
        "$name: the sentence read ($segs->[0]{text})";
    ok !exists $segs->[0]{unsure},
        "$name: read with confidence $segs->[0]{confidence}, not unsure";

    my $want = $name eq 'alike' ? 1 : 0;
    my $second = $segs->[1] // {};

    if ($want) {
        is $second->{unsure}, JSON::PP::true,
            "alike: \"$second->{text}\" (confidence $second->{confidence}) "
            . 'is unsure';

    } else {
        ok !exists $second->{unsure}, "clean: \"$second->{text}\" "
            . "(confidence $second->{confidence}) is not unsure";
    }

    # the member is there only when true
    is scalar(grep { exists $_->{unsure} } @$segs), $want,
        "$name: $want segment(s) with the member";
    ok !grep({ exists $_->{unsure} && !$_->{unsure} } @$segs),
        "$name: never \"unsure\":false";

    # a one-line segment's line is as unsure as it is
    is_deeply [map { $_->{unsure_lines} // [] } @$segs],
        [[], $want ? [1] : []], "$name: the unsure lines";

    my ($line) = grep { /^\{"runs"/ } split /\n/, $r->{stderr};
    my $stats = eval { JSON::PP->new->decode($line // '') } // {};
    is $stats->{segments}, 2, "$name: --stats counts the segments";
    is $stats->{segments_unsure}, $want,
        "$name: --stats counts the unsure ones";
    is $stats->{lines_unsure}, $want, "$name: --stats counts their lines";

    # WebVTT: a NOTE block before the unsure cue, and only there

    $r = run_worker('ocr', $video{$name}, '--format', 'vtt');
    is $r->{rc}, 0, "$name vtt: exit 0";
    my @blocks = split /\n\n/, $r->{stdout};
    is shift(@blocks), 'WEBVTT', "$name vtt: header";
    my @notes = grep { /^NOTE/ } @blocks;
    my @cues = grep { /^\d\d:\d\d:\d\d\.\d{3} --> / } @blocks;
    is scalar(@cues), 2, "$name vtt: two cues";
    is scalar(@notes), $want, "$name vtt: $want NOTE block(s)";
    is scalar(@blocks), scalar(@cues) + scalar(@notes),
        "$name vtt: nothing but cues and notes";

    # ASS: a Comment event before the unsure Dialogue, and only there

    my $ass = run_worker('ocr', $video{$name}, '--format', 'ass');
    is $ass->{rc}, 0, "$name ass: exit 0";
    my @events = $ass->{stdout} =~ /^(Comment|Dialogue): (.*)$/mg;
    is join(' ', @events[grep { $_ % 2 == 0 } 0 .. $#events]),
        $want ? 'Dialogue Comment Dialogue' : 'Dialogue Dialogue',
        "$name ass: the events";

    next unless $want;

    # the unsure segment's marks

    like $notes[0], qr/\ANOTE unsure: read with confidence \d+ \(below \d+\)\z/,
        'alike vtt: the NOTE says why';
    my ($conf, $bound) = $notes[0] =~ /confidence (\d+) \(below (\d+)\)/;
    is $conf, $second->{confidence}, 'alike vtt: the confidence of the JSON';
    cmp_ok $conf, '<', $bound // 0, 'alike vtt: below the bound it names';
    unlike $notes[0], qr/-->/, 'alike vtt: no "-->" in the NOTE';
    my ($i) = grep { $blocks[$_] =~ /^NOTE/ } 0 .. $#blocks;
    like $blocks[$i + 1] // '', qr/\A[\d:.]+ --> [^\n]*\n\Q$second->{text}\E\n?\z/,
        'alike vtt: the NOTE is just before the unsure cue';

    # a real parser skips the NOTE: FFmpeg's WebVTT demuxer, to SubRip
    open my $fh, '>:raw', "$dir/alike.vtt" or die $!;
    print {$fh} $r->{stdout};
    close $fh;
    system('ffmpeg', '-nostdin', '-v', 'error', '-y', '-i', "$dir/alike.vtt",
           "$dir/alike.srt") == 0 or die 'ffmpeg failed';
    open $fh, '<:raw', "$dir/alike.srt" or die $!;
    my @srt = grep { /\S/ } split /\r?\n\r?\n/, do { local $/; <$fh> };
    is scalar(@srt), 2, 'alike vtt: FFmpeg reads two cues';
    like $srt[1] // '', qr/\n\Q$second->{text}\E\s*\z/,
        'alike vtt: the unsure cue\'s text, not the NOTE';
    unlike join('', @srt), qr/NOTE|unsure/, 'alike vtt: no NOTE in a cue';

    # the Comment event, which FFmpeg's ASS demuxer skips too
    my ($comment) = $ass->{stdout} =~ /^Comment: 0,([^,]+,[^,]+),Default,/m;
    my ($dialogue) = ($ass->{stdout} =~ /^Dialogue: 0,([^,]+,[^,]+),/mg)[1];
    is $comment, $dialogue, 'alike ass: the Comment has the times of the '
        . 'unsure Dialogue';
    like $ass->{stdout},
        qr/^Comment: .*,,unsure: read with confidence \Q$second->{confidence}\E \(below \d+\)$/m,
        'alike ass: the Comment says why';
    open my $ah, '>:raw', "$dir/alike.ass" or die $!;
    print {$ah} $ass->{stdout};
    close $ah;
    system('ffmpeg', '-nostdin', '-v', 'error', '-y', '-i', "$dir/alike.ass",
           "$dir/alike-ass.srt") == 0 or die 'ffmpeg failed';
    open $ah, '<:raw', "$dir/alike-ass.srt" or die $!;
    my $from_ass = do { local $/; <$ah> };
    is scalar(() = $from_ass =~ /-->/g), 2,
        'alike ass: FFmpeg reads two events, not the Comment';
    unlike $from_ass, qr/unsure/, 'alike ass: no Comment text in them';
}

# a sure segment with an unsure line: marked, and the line named

{
    my $clip = 't/data/media/bilingual-stacked.mp4';
    my $r = run_worker('ocr', $clip, '--lang', 'chi_sim+eng', '--format',
                       'json', '--stats');
    is $r->{rc}, 0, 'bilingual: exit 0' or diag $r->{stderr};
    my @segs = @{ $r->{json} ? $r->{json}{segments} : [] };
    my ($s) = grep { ($_->{text} // '') =~ /\n/ } @segs;
    ok $s, 'bilingual: a segment of two lines'
        or diag explain \@segs;
    $s //= {};
    my @lines = split /\n/, $s->{text} // '';
    cmp_ok cer($lines[1] // '', 'Turn off the light'), '<=', 0.1,
        "bilingual: the English line read ($lines[1])";
    cmp_ok $s->{confidence} // 0, '>=', 80,
        "bilingual: the segment is sure on the whole ($s->{confidence})";
    is $s->{unsure}, JSON::PP::true, 'bilingual: the segment is unsure';
    is_deeply $s->{unsure_lines}, [1], 'bilingual: its first line is';
    my ($line) = grep { /^\{"runs"/ } split /\n/, $r->{stderr};
    my $stats = eval { JSON::PP->new->decode($line // '') } // {};
    is $stats->{lines_unsure}, scalar(map { @{ $_->{unsure_lines} // [] } }
                                      @segs),
        'bilingual: --stats counts the unsure lines';

    my $vtt = run_worker('ocr', $clip, '--lang', 'chi_sim+eng', '--format',
                         'vtt');
    my $note = "NOTE unsure: read with confidence $s->{confidence}, "
               . 'line 1 below ';
    my $bytes = $s->{text} // '';
    utf8::encode($bytes);           # stdout is the worker's bytes
    like $vtt->{stdout},
        qr/\n\Q$note\E\d+\n\n[\d:.]+ --> [^\n]*\n\Q$bytes\E\n/,
        'bilingual vtt: the NOTE names the line, before its cue';
    my $ass = run_worker('ocr', $clip, '--lang', 'chi_sim+eng', '--format',
                         'ass');
    my $comment = "unsure: read with confidence $s->{confidence}, line 1 "
                  . 'below ';
    like $ass->{stdout}, qr/^Comment: .*,,\Q$comment\E\d+$/m,
        'bilingual ass: the Comment names the line';
}

done_testing;
