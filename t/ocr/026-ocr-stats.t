# ocr --stats: where the time goes.  Every stage's CPU time is printed
# (cpu_<stage>_ms), none is negative, and together they are at most the
# CPU time the process used, as the kernel counted it for the parent
# (times), and at most the run's own cpu_ms; they cover the run (it is
# single-threaded: one decoder thread, OMP_THREAD_LIMIT=1), and the
# decoding and the OCR are charged where they happen.  Frames decoded
# vs skipped: a video sampled at a look per frame is decoded whole (as
# many frames as ffprobe -count_frames counts); with refine every frame
# read is decoded; with --no-refine the B frames far from a look are
# read and skipped, and counted so.

use strict;
use warnings;
use lib 't/lib';

use JSON::PP ();
use List::Util qw(sum);
use POSIX ();
use Test::More;
use VideoOCR::Media qw(run_worker worker_bin tmpdir make_video);

-x worker_bin() or BAIL_OUT('no worker binary at ' . worker_bin());

my @stages = qw(inspect demux decode looks text_layer ocr merge other);

# the clock ticks times() counts in: the kernel truncates the children's
# user and system times to them, each
my $tick_ms = 1000 / POSIX::sysconf(POSIX::_SC_CLK_TCK());

my $dir = tmpdir();
my @spans = ({ start => 1.0, end => 4.5, text => 'Where the time goes' });

# x264 with its default B frames; 5 fps: a look every 1/6 s lands on
# every frame, the last look on the last one
my $v25 = make_video(path => "$dir/s25.mp4", duration => 6, rate => 25,
    spans => \@spans, background => 'noise', dir => $dir);
my $v5 = make_video(path => "$dir/s5.mp4", duration => 6, rate => 5,
    spans => \@spans, background => 'noise', dir => $dir);

for my $file ($v25, $v5) {
    my ($r, $child_ms) = timed_worker('ocr', $file, '--stats',
                                      '--format', 'txt');
    is $r->{rc}, 0, "$file: exit 0" or diag $r->{stderr};
    like $r->{stdout}, qr/Where the time goes/, "$file: the text read";

    my $s = stats($r)->[0];
    my @missing = grep { !exists $s->{"cpu_${_}_ms"} } @stages;
    is "@missing", '', "$file: every stage's CPU time is printed";
    my @bad = grep { ($s->{"cpu_${_}_ms"} // -1) !~ /^\d+\z/ } @stages;
    is "@bad", '', "$file: each a whole number of ms, not negative";

    my $stages = sum(map { $s->{"cpu_${_}_ms"} // 0 } @stages);
    my $run = $stages - $s->{cpu_merge_ms};
    cmp_ok $stages, '<=', $child_ms + 2 * $tick_ms,
        "$file: the stages ($stages ms) within the process's CPU time "
        . "($child_ms ms, to the clock tick)";
    cmp_ok $run, '<=', $s->{cpu_ms},
        "$file: the run's stages ($run ms) within its cpu_ms "
        . "($s->{cpu_ms})";
    cmp_ok $run, '>=', 0.9 * $s->{cpu_ms} - 5,
        "$file: and they account for it: one thread does the work";
    cmp_ok $s->{cpu_decode_ms}, '>', 0, "$file: decoding is decode's";
    cmp_ok $s->{cpu_ocr_ms}, '>', 0, "$file: Tesseract is ocr's";
    cmp_ok $s->{cpu_text_layer_ms}, '>', 0, "$file: the text layer is its own";

    my $count = frame_count($file);
    is $s->{frames_skipped}, 0, "$file: refine decodes every frame it reads";
    is $s->{frames_decoded} + $s->{frames_skipped} + $s->{decode_errors},
        $s->{packets}, "$file: decoded + skipped + errors = packets read";

    if ($file eq $v5) {
        is $s->{frames_decoded}, $count,
            "$file: every one of the video's $count frames decoded";
    } else {
        # the frames after the last look (1/6 s before the end) and the
        # decoder's reorder window past it are not read
        cmp_ok $s->{frames_decoded}, '<=', $count,
            "$file: no more frames decoded than the video has ($count)";
        cmp_ok $s->{frames_decoded}, '>=', $count - POSIX::ceil(25 / 6),
            "$file: all but those after the last look";
    }
}

# --no-refine: B frames between the looks are read and dropped
my $r = run_worker('ocr', $v25, '--stats', '--no-refine', '--format', 'txt');
is $r->{rc}, 0, 'no-refine: exit 0' or diag $r->{stderr};
my $s = stats($r)->[0];
cmp_ok $s->{frames_skipped}, '>', 0,
    "no-refine: frames skipped ($s->{frames_skipped} of $s->{packets})";
cmp_ok $s->{frames_skipped}, '<', $s->{packets},
    'no-refine: but not every frame';

done_testing;


# run_worker, and the CPU time (user + system, ms) the worker used
sub timed_worker {
    my @t0 = times;
    my $r = run_worker(@_);
    my @t1 = times;
    return ($r, 1000 * (($t1[2] - $t0[2]) + ($t1[3] - $t0[3])));
}

sub stats {
    my ($r) = @_;
    my ($line) = grep { /^\{"runs"/ } split /\n/, $r->{stderr};
    return JSON::PP->new->decode($line)->{runs};
}

sub frame_count {
    my ($file) = @_;
    my $n = qx(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 '$file');
    $n =~ s/\s+//g;
    $n =~ /^\d+\z/ or die "ffprobe -count_frames $file: \"$n\"";
    return $n;
}
