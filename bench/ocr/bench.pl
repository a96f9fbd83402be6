#!/usr/bin/perl
# Runs every OCR pipeline on the corpus, scores what each one read, and
# prints the comparison table.  bench/ocr/run.sh calls it after building
# the worker and generating the corpus; by hand:
#
#   perl bench/ocr/bench.pl --corpus DIR --out DIR [--fps F]
#        [--pipelines worker,cli,cv] [--runs N] [--scaling] [--only NAME,...]
#        [--before BIN] [--no-floor]
#
# Pipelines (each one command per video, all on the same files, one
# after the other, in this run):
#
#   worker  build/video-ocr-worker ocr VIDEO --fps F --stats
#   cli     bench/ocr/baseline-cli.sh VIDEO F (ffmpeg fps=F to PNGs, the
#           tesseract CLI per PNG)
#   cv      bench/ocr/baseline-cv.py VIDEO F | segments.pl (OpenCV loop,
#           tesserocr, unchanged frames skipped; on the real-like set
#           with the video's --lang and --psm 11, sparse text, the way
#           videocr-style tools read a whole frame)
#   before  --before BIN: another build of the worker run the same way
#           (the pipeline as it was before a change, for what it bought)
#
# The floor (unless --no-floor): ffmpeg -threads 1 -i VIDEO -an -sn -dn
# -f null -, every frame of the video decoded in one thread (the video
# stream ffmpeg picks, the largest: not a cover picture stored as stream
# 0, which -map 0:v:0 would take), right after the pipelines on each
# video.  The last table puts each pipeline's
# video s per CPU s beside the floor's, and the worker's CPU by stage
# (the sum of its --stats cpu_<stage>_ms; "process" is its CPU time, the
# process's start and end included) with the frames it decoded and
# skipped.
#
# CPU: every command runs under GNU time, whose user + system time is
# that of the whole process tree (ffmpeg, each tesseract, python, perl
# for the baselines; the worker process for ours), and whose maximum RSS
# is that of the largest process in it.  Speed is video seconds per CPU
# second.  --runs N runs the worker N times per video and keeps the run
# with the median CPU time (the baselines take minutes: once).
#
# --scaling: throughput (video seconds per wall second) of two worker
# processes running at once, each doing the whole corpus, against one
# doing it alone; the ratio should be close to 2 on 2 idle cores.  On a
# machine others load, wall time says little, so the ratio is also
# given from CPU times: 4 x (CPU of one process alone) / (CPU of the
# two together), i.e. 2 when a process beside another costs no more CPU
# (cache, memory bandwidth) than alone.
#
# Writes OUT/<pipeline>/<video>.json (results), OUT/results.tsv (one line
# per pipeline and video), OUT/speed.tsv (video s per CPU s, one column
# per pipeline) and OUT/summary.tsv (one line per pipeline), which
# plot.gp draws.
#
# The real-like set (truths of kind "real", bench/ocr/lib/OCRReal.pm) is
# scored per line (OCRBench::score_lines) and reported by report_real():
# mean line recall, mean line CER (means over the videos with text),
# CPU, false segments and text invented on the videos without text, for
# the whole set and each half, then per family, per shape (the lines of
# the shape pooled) and per video; every pipeline gets the video's
# --lang.

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib", "$FindBin::Bin/../../t/lib";

use File::Path qw(make_path);
use Getopt::Long;
use JSON::PP ();
use POSIX ();
use Time::HiRes ();
use OCRBench qw(score median mean percentile FOUND_CER score_lines
    FOUND_LINE_CER);

my $root = "$FindBin::Bin/../..";
my %o = (fps => 1, pipelines => 'worker,cli,cv', runs => 1,
         corpus => "$root/build/bench/ocr/corpus",
         out => "$root/build/bench/ocr/out");
GetOptions(\%o, 'corpus=s', 'out=s', 'fps=f', 'pipelines=s', 'runs=i',
    'scaling!', 'only=s', 'before=s', 'floor!') or die "bad options\n";
$o{floor} //= 1;

my $worker = $ENV{WORKER_BIN} || "$root/build/video-ocr-worker";
-x $worker or die "no worker binary at $worker (make build)\n";
-x '/usr/bin/time' or die "GNU time is needed: apt-get install time\n";

my $json = JSON::PP->new->utf8->canonical;
my @pipes = split /,/, $o{pipelines};
my %only = map { $_ => 1 } split /,/, $o{only} // '';
my %label = (worker => 'video-ocr-worker', cli => 'ffmpeg + tesseract CLI',
             cv => 'OpenCV + tesserocr',
             before => 'video-ocr-worker --before');
push @pipes, 'before' if $o{before} && !grep { $_ eq 'before' } @pipes;
-x ($o{before} // $worker) or die "no worker binary at $o{before}\n";

opendir my $dh, $o{corpus} or die "$o{corpus}: $!";
my @truths = map { $json->decode(slurp("$o{corpus}/$_")) }
             sort grep { /\.json$/ } readdir $dh;
closedir $dh;
@truths = grep { !%only || $only{$_->{name}} } @truths;
@truths or die "no videos in $o{corpus} (bench/ocr/corpus.pl makes them)\n";

make_path("$o{out}/$_") for @pipes, 'floor';
$ENV{OMP_THREAD_LIMIT} = 1;

my %res;     # pipeline -> name -> { cpu, wall, rss, calls, score }
my %floor;   # name -> CPU s of decoding every frame (ffmpeg)

for my $t (@truths) {
    my $video = "$o{corpus}/$t->{file}";
    for my $p (@pipes) {
        my @runs = map { run_pipeline($p, $video, $t) }
                   1 .. ($p eq 'worker' || $p eq 'before' ? $o{runs} : 1);
        @runs = sort { $a->{cpu} <=> $b->{cpu} } @runs;
        my $r = $runs[$#runs / 2];
        $r->{score} = score($r->{result}{segments}, $t);
        $res{$p}{ $t->{name} } = $r;
        if (real($t)) {
            my $l = $r->{lines} = score_lines($r->{result}{segments}, $t);
            printf STDERR "%-32s %-7s cpu %7.2f s  lines %2d/%-2d line CER "
                . "%s  segments %d\n", $t->{name}, $p, $r->{cpu},
                $l->{found}, $l->{lines},
                defined $l->{cer} ? sprintf('%.3f', $l->{cer}) : '-',
                $l->{segments};
            next;
        }
        printf STDERR "%-24s %-7s cpu %7.2f s  wall %7.2f s  rss %4d MB  "
            . "calls %3d/%-3d found %2d/%-2d CER %.3f\n", $t->{name}, $p,
            $r->{cpu}, $r->{wall}, $r->{rss} / 1024, $r->{result}{ocr_calls},
            $t->{distinct_screens}, $r->{score}{found}, $r->{score}{screens},
            $r->{score}{cer_sum} / ($r->{score}{screens} || 1);
    }
    if ($o{floor}) {
        $floor{ $t->{name} } = run_floor($video, $t);
        printf STDERR "%-24s floor   cpu %7.2f s\n", $t->{name},
            $floor{ $t->{name} };
    }
}

(grep { real($_) } @truths) ? report_real() : report();
report_floor() if $o{floor};
scaling() if $o{scaling};

sub real { ($_[0]{kind} // '') eq 'real' }

sub run_pipeline {
    my ($p, $video, $t) = @_;
    my $base = "$o{out}/$p/$t->{name}";
    my @cmd = $p eq 'worker' || $p eq 'before'
        ? ($p eq 'worker' ? $worker : $o{before}, 'ocr', $video, '--fps',
           $o{fps}, '--stats', $t->{lang} ? ('--lang', $t->{lang}) : ())
        : $p eq 'cli'
        ? ("$FindBin::Bin/baseline-cli.sh", $video, $o{fps})
        : $p eq 'cv'
        ? ('/bin/sh', '-c', '/usr/bin/python3 "$0" "$1" "$2" "$4" "$5" "$6"'
           . ' "$7" | perl "$3"', "$FindBin::Bin/baseline-cv.py", $video,
           $o{fps}, "$FindBin::Bin/segments.pl",
           real($t) ? ('--lang', $t->{lang}, '--psm', 11)
                    : ('--lang', 'eng', '--psm', 3))
        : die "unknown pipeline $p\n";

    my $t0 = Time::HiRes::time();
    my $pid = fork // die "fork: $!";
    if ($pid == 0) {
        open STDOUT, '>', "$base.json" or POSIX::_exit(127);
        open STDERR, '>', "$base.err" or POSIX::_exit(127);
        exec '/usr/bin/time', '-f', '%e %U %S %M', '-o', "$base.time", @cmd
            or POSIX::_exit(127);
    }
    waitpid $pid, 0;
    my $status = $?;
    my $wall = Time::HiRes::time() - $t0;
    if ($status && ($t->{kind} // '') eq 'trait') {
        # a trait a pipeline cannot read (an older worker that rejects
        # ProRes, say): scored as read nothing, and said so
        my ($msg) = (grep { !/^\{/ } split /\n/, slurp("$base.err"))[-1];
        $msg //= "exit status $status";
        print STDERR "$t->{name}: $p failed: $msg\n";
        return { cpu => 0, wall => $wall, rss => 0, failed => $msg,
                 result => { segments => [], ocr_calls => 0 } };
    }
    die "$p on $video failed ($status): " . slurp("$base.err") if $status;

    my ($e, $u, $s, $m) = (slurp("$base.time") =~ /([\d.]+) ([\d.]+) ([\d.]+) (\d+)\s*$/)
        or die "$base.time: no times";
    my $result = $json->decode(slurp("$base.json"));
    my ($stats) = grep { /^\{"runs"/ } split /\n/, slurp("$base.err");
    return { cpu => $u + $s, wall => $wall, rss => $m, result => $result,
             stats => $stats ? $json->decode($stats)->{runs}[0] : undef };
}

# The floor of one video: CPU s (user + system) of decoding every frame
sub run_floor {
    my ($video, $t) = @_;
    my $base = "$o{out}/floor/$t->{name}";
    system('/usr/bin/time', '-f', '%U %S', '-o', "$base.time", 'ffmpeg',
           '-nostdin', '-v', 'error', '-threads', '1', '-i', $video, '-an',
           '-sn', '-dn', '-f', 'null', '-') == 0
        or die "ffmpeg on $video failed ($?)\n";
    my ($u, $s) = slurp("$base.time") =~ /([\d.]+) ([\d.]+)\s*$/
        or die "$base.time: no times";
    return $u + $s;
}

# Each pipeline's speed beside the floor's, and the worker's CPU by stage
sub report_floor {
    my $dur = 0;
    $dur += $_->{duration} for @truths;
    my $fcpu = 0;
    $fcpu += $floor{ $_->{name} } for @truths;

    print "\nbeside the floor (ffmpeg -threads 1 -i VIDEO -an -sn -dn -f null"
        . " -: every frame decoded), this run:\n\n";
    print "| | CPU s | video s per CPU s, total | median | CPU / the floor's,"
        . " total | the worst video |\n|---|---|---|---|---|---|\n";
    printf "| the floor | %.1f | %.2f | %.2f | 1.00 | |\n", $fcpu,
        $dur / ($fcpu || 0.01), median(map { $_->{duration}
            / ($floor{ $_->{name} } || 0.01) } @truths);
    for my $p (grep { $res{$_} } @pipes) {
        my ($cpu, $worst, $wname) = (0, 0, '');
        for my $t (@truths) {
            my $c = $res{$p}{ $t->{name} }{cpu};
            $cpu += $c;
            my $x = $c / ($floor{ $t->{name} } || 0.01);
            ($worst, $wname) = ($x, $t->{name}) if $x > $worst;
        }
        printf "| %s | %.1f | %.2f | %.2f | **%.2f** | %.2f (%s) |\n",
            $label{$p}, $cpu, $dur / ($cpu || 0.01),
            median(map { $_->{duration}
                   / ($res{$p}{ $_->{name} }{cpu} || 0.01) } @truths),
            $cpu / ($fcpu || 0.01), $worst, $wname;
    }

    return unless $res{worker} && $res{worker}{ $truths[0]{name} }{stats};
    my @stages = qw(inspect demux decode looks text_layer ocr merge other);
    my (%ms, $cpu, $dec, $skip);
    for my $t (@truths) {
        my $r = $res{worker}{ $t->{name} };
        $ms{$_} += $r->{stats}{"cpu_${_}_ms"} // 0 for @stages;
        $cpu += $r->{cpu};
        $dec += $r->{stats}{frames_decoded};
        $skip += $r->{stats}{frames_skipped} // 0;
    }
    print "\nvideo-ocr-worker by stage (CPU s, the sum of --stats "
        . "cpu_<stage>_ms; share of the process's CPU):\n\n";
    print '| ', join(' | ', @stages, 'process'), " |\n|",
        '---|' x (@stages + 1), "\n";
    print '| ', join(' | ', (map { sprintf '%.2f (%.0f%%)', $ms{$_} / 1000,
                                   100 * $ms{$_} / 1000 / ($cpu || 0.01) }
                              @stages), sprintf('%.2f', $cpu)), " |\n";
    printf "\nframes decoded %d, skipped %d\n", $dec, $skip;
}

sub report {
    my (%sum, @tsv);
    my $dur = 0;
    $dur += $_->{duration} for @truths;
    my $screens = 0;
    $screens += $_->{distinct_screens} for @truths;

    for my $p (@pipes) {
        my (@speed, @err, @ratio, @sf, @ef);
        my ($cpu, $found, $cer, $false, $calls, $rss1080, $rss) =
            (0, 0, 0, 0, 0, 0, 0);
        for my $t (@truths) {
            my $r = $res{$p}{ $t->{name} };
            my $sc = $r->{score};
            $cpu += $r->{cpu};
            push @speed, $t->{duration} / ($r->{cpu} || 0.01);
            $found += $sc->{found};
            $cer += $sc->{cer_sum};
            $false += $sc->{false};
            push @err, @{ $sc->{start_err} };
            push @sf, @{ $sc->{start_frames} };
            push @ef, @{ $sc->{end_frames} };
            $calls += $r->{result}{ocr_calls};
            push @ratio, $r->{result}{ocr_calls} / $t->{distinct_screens};
            $rss = $r->{rss} if $r->{rss} > $rss;
            $rss1080 = $r->{rss} if $t->{height} >= 1080 && $r->{rss} > $rss1080;
            push @tsv, join("\t", $p, $t->{name}, $t->{duration}, $r->{cpu},
                $r->{cpu} / $t->{duration}, $sc->{cer_sum} / $sc->{screens},
                $sc->{found} / $sc->{screens}, $r->{result}{ocr_calls},
                $t->{distinct_screens}, $sc->{false}, $r->{rss});
        }
        $sum{$p} = { cpu => $cpu, speed => median(@speed),
            total_speed => $dur / $cpu, cer => $cer / $screens,
            recall => $found / $screens, false => $false,
            start => median(@err), calls => $calls,
            sf => [median(@sf), percentile(95, @sf)],
            ef => [median(@ef), percentile(95, @ef)],
            ratio => $calls / $screens, ratio_max => (sort { $b <=> $a } @ratio)[0],
            rss => $rss, rss1080 => $rss1080 };
    }

    printf "\nOCR corpus: %d videos, %.0f s of video, %d distinct text "
        . "screens, sampled at %s fps\n\n", scalar @truths, $dur, $screens,
        $o{fps};
    my @h = ('pipeline', 'CPU s', 'video s/CPU s (median)', '(total)',
             'mean CER', 'found', 'false segs', 'start err (median)',
             'OCR calls', 'calls/screens (max)', 'peak RSS MB');
    print '| ', join(' | ', @h), " |\n|", '---|' x @h, "\n";
    for my $p (@pipes) {
        my $s = $sum{$p};
        printf "| %s | %.1f | %.2f | %.2f | %.3f | %.1f%% | %d | %.2f s "
            . "| %d | %.2f (%.1f) | %d |\n", $label{$p}, $s->{cpu},
            $s->{speed}, $s->{total_speed}, $s->{cer}, 100 * $s->{recall},
            $s->{false}, $s->{start} // 0, $s->{calls}, $s->{ratio},
            $s->{ratio_max}, $s->{rss} / 1024;
    }

    # the second set: each half alone too (tuned on "tune", "holdout"
    # only reported)
    my %halves;
    push @{ $halves{ $_->{half} } }, $_ for grep { $_->{half} } @truths;
    for my $h (sort { $b cmp $a } keys %halves) {
        my @ts = @{ $halves{$h} };
        my ($hd, $hs) = (0, 0);
        $hd += $_->{duration} for @ts;
        $hs += $_->{distinct_screens} for @ts;
        printf "\nhalf \"%s\": %d videos, %d screens\n\n", $h, scalar @ts,
            $hs;
        print '| pipeline | CPU s | mean CER | found | false segs | OCR calls '
            . "| calls/screens |\n|---|---|---|---|---|---|---|\n";
        for my $p (@pipes) {
            my ($cpu, $cer, $found, $false, $calls) = (0, 0, 0, 0, 0);
            for my $t (@ts) {
                my $r = $res{$p}{ $t->{name} };
                $cpu += $r->{cpu};
                $cer += $r->{score}{cer_sum};
                $found += $r->{score}{found};
                $false += $r->{score}{false};
                $calls += $r->{result}{ocr_calls};
            }
            printf "| %s | %.1f | %.3f | %.1f%% | %d | %d | %.2f |\n",
                $label{$p}, $cpu, $cer / $hs, 100 * $found / $hs, $false,
                $calls, $calls / $hs;
        }
    }

    if ($sum{worker}) {
        print "\n";
        for my $b (grep { $_ ne 'worker' } @pipes) {
            printf "video-ocr-worker / %s: %.2fx the median video s per "
                . "CPU s, %.2fx in total\n", $label{$b},
                $sum{worker}{speed} / $sum{$b}{speed},
                $sum{worker}{total_speed} / $sum{$b}{total_speed};
        }
        printf "worker peak RSS on 1080p: %.0f MB\n",
            $sum{worker}{rss1080} / 1024;
    }

    print "\ncue times in frames of the video, median and 95th percentile "
        . "of |error| over the found screens (start; end):\n\n";
    print "| pipeline | start, median | start, p95 | end, median | end, p95 "
        . "|\n|---|---|---|---|---|\n";
    for my $p (@pipes) {
        my $s = $sum{$p};
        printf "| %s | %s | %s | %s | %s |\n", $label{$p},
            map { defined $_ ? sprintf('%.1f', $_) : '-' }
            @{ $s->{sf} }, @{ $s->{ef} };
    }
    print "\nper video (cue start; end in frames, median / p95):\n\n";
    my @th = ('video', 'fps', map { $label{$_} } @pipes);
    print '| ', join(' | ', @th), " |\n|", '---|' x @th, "\n";
    for my $t (@truths) {
        my @cells = ($t->{name}, $t->{rate} // '?');
        for my $p (@pipes) {
            my $sc = $res{$p}{ $t->{name} }{score};
            my @v = map { defined $_ ? sprintf('%.1f', $_) : '-' }
                median(@{ $sc->{start_frames} }),
                percentile(95, @{ $sc->{start_frames} }),
                median(@{ $sc->{end_frames} }),
                percentile(95, @{ $sc->{end_frames} });
            push @cells, "$v[0] / $v[1]; $v[2] / $v[3]";
        }
        print '| ', join(' | ', @cells), " |\n";
    }

    print "\nper video (video s per CPU s / mean CER / found / OCR calls "
        . "vs screens):\n\n";
    my @vh = ('video', 'duration', map { $label{$_} } @pipes);
    print '| ', join(' | ', @vh), " |\n|", '---|' x @vh, "\n";
    for my $t (@truths) {
        my @cells = ("$t->{name}", "$t->{duration} s");
        for my $p (@pipes) {
            my $r = $res{$p}{ $t->{name} };
            my $sc = $r->{score};
            push @cells, sprintf '%.1f / %.3f / %d of %d / %d vs %d',
                $t->{duration} / ($r->{cpu} || 0.01),
                $sc->{cer_sum} / $sc->{screens}, $sc->{found},
                $sc->{screens}, $r->{result}{ocr_calls},
                $t->{distinct_screens};
        }
        print '| ', join(' | ', @cells), " |\n";
    }

    plot_files(\@tsv, { map { $_ => [$sum{$_}{cpu} / $dur, $sum{$_}{cer},
                                      $sum{$_}{recall}] } @pipes },
               qw(cer recall screens));
    printf "\nfound: a segment overlapping the screen reads it with CER <= "
        . "%.1f; results in %s\n", FOUND_CER, $o{out};
}

# The real-like set's tables (see the top of the file)
sub report_real {
    my $dur = 0;
    $dur += $_->{duration} for @truths;
    my $nl = 0;
    $nl += @{ $_->{lines} } for @truths;
    printf "\nReal-like OCR set: %d videos, %.0f s of video, %d lines, "
        . "sampled at %s fps; a line is found when a segment around its "
        . "time holds it with CER <= %.1f\n", scalar @truths, $dur, $nl,
        $o{fps}, FOUND_LINE_CER;

    # the measures of a list of videos, for a pipeline
    my $sum = sub {
        my ($p, @ts) = @_;
        my (@rec, @cer);
        my ($cpu, $false, $inv, $invc, $notext) = (0, 0, 0, 0, 0);
        for my $t (@ts) {
            my $r = $res{$p}{ $t->{name} };
            my $l = $r->{lines};
            $cpu += $r->{cpu};
            $false += $l->{false};
            if ($l->{lines}) {
                push @rec, $l->{recall};
                push @cer, $l->{cer};
            } else {
                $notext++;
                $inv += $l->{invented};
                $invc += $l->{invented_chars};
            }
        }
        return { recall => mean(@rec), cer => mean(@cer), cpu => $cpu,
                 false => $false, invented => $inv, invented_chars => $invc,
                 notext => $notext, n => scalar @ts };
    };
    my $f3 = sub { defined $_[0] ? sprintf('%.3f', $_[0]) : '-' };

    my %half;
    push @{ $half{ $_->{half} // 'all' } }, $_ for @truths;
    my @parts = (['all', @truths], map { [$_, @{ $half{$_} }] }
                                   grep { $half{$_} } qw(tune holdout));
    print "\n| videos | pipeline | mean line recall | mean line CER | CPU s "
        . "| false segments | invented on the videos without text |\n"
        . "|---|---|---|---|---|---|---|\n";
    for my $part (@parts) {
        my ($h, @ts) = @$part;
        for my $p (@pipes) {
            my $s = $sum->($p, @ts);
            printf "| %s (%d) | %s | %s | %s | %.1f | %d | %s |\n", $h,
                scalar @ts, $label{$p}, $f3->($s->{recall}), $f3->($s->{cer}),
                $s->{cpu}, $s->{false}, $s->{notext}
                ? "$s->{invented} segments, $s->{invented_chars} characters "
                  . "($s->{notext} videos)" : '-';
        }
    }

    # per family: the mean line recall / mean line CER / CPU s
    my (%fam, @fams);
    for my $t (@truths) {
        push @fams, $t->{family} unless $fam{ $t->{family} };
        push @{ $fam{ $t->{family} } }, $t;
    }
    print "\nper family (mean line recall / mean line CER / CPU s; "
        . "segments invented on the videos without text):\n\n";
    my @fh = ('family', 'videos', map { $label{$_} } @pipes);
    print '| ', join(' | ', @fh), " |\n|", '---|' x @fh, "\n";
    for my $f (@fams) {
        my @ts = @{ $fam{$f} };
        print "| $f | ", scalar @ts;
        for my $p (@pipes) {
            my $s = $sum->($p, @ts);
            print ' | ', $s->{n} == $s->{notext}
                ? sprintf('%d invented / %.1f s', $s->{invented}, $s->{cpu})
                : sprintf('%s / %s / %.1f', $f3->($s->{recall}),
                          $f3->($s->{cer}), $s->{cpu});
        }
        print " |\n";
    }

    # per shape: the lines of the shape, pooled over the videos
    my (%shape, @shapes);
    for my $t (@truths) {
        for my $p (@pipes) {
            for my $pl (@{ $res{$p}{ $t->{name} }{lines}{per_line} }) {
                my $sh = $pl->{line}{shape};
                push @shapes, $sh unless $shape{$sh};
                my $e = $shape{$sh}{$p} //= { n => 0, found => 0, cer => 0,
                                              half => {} };
                $e->{n}++;
                $e->{found} += $pl->{found};
                $e->{cer} += $pl->{cer};
                $e->{half}{ $t->{half} // 'all' }{n}++;
                $e->{half}{ $t->{half} // 'all' }{found} += $pl->{found};
            }
        }
    }
    print "\nper shape (lines found of the shape's lines, all videos; "
        . "tune and holdout apart; mean line CER):\n\n";
    my @sh = ('shape', 'lines', map { $label{$_} } @pipes);
    print '| ', join(' | ', @sh), " |\n|", '---|' x @sh, "\n";
    for my $sh (@shapes) {
        print "| $sh | $shape{$sh}{ $pipes[0] }{n}";
        for my $p (@pipes) {
            my $e = $shape{$sh}{$p};
            my $hs = join ', ', map {
                "$_ $e->{half}{$_}{found}/$e->{half}{$_}{n}"
            } grep { $e->{half}{$_} } qw(tune holdout);
            printf ' | %d/%d (%s), %.3f', $e->{found}, $e->{n}, $hs,
                $e->{cer} / $e->{n};
        }
        print " |\n";
    }

    print "\nper video (lines found / line CER / CPU s / segments):\n\n";
    my @vh = ('video', 'half', 'family', 'lang', 'duration',
              map { $label{$_} } @pipes);
    print '| ', join(' | ', @vh), " |\n|", '---|' x @vh, "\n";
    my @tsv;
    for my $t (@truths) {
        my @cells = ($t->{name}, $t->{half} // '-', $t->{family}, $t->{lang},
                     "$t->{duration} s");
        for my $p (@pipes) {
            my $r = $res{$p}{ $t->{name} };
            my $l = $r->{lines};
            push @cells, sprintf '%d of %d / %s / %.1f / %d', $l->{found},
                $l->{lines}, $f3->($l->{cer}), $r->{cpu}, $l->{segments};
            push @tsv, join("\t", $p, $t->{name}, $t->{duration}, $r->{cpu},
                $r->{cpu} / $t->{duration}, $l->{cer}, $l->{recall},
                $r->{result}{ocr_calls}, $l->{lines}, $l->{false}, $r->{rss})
                if $l->{lines};
        }
        print '| ', join(' | ', @cells), " |\n";
    }

    # the files plot.gp draws (line CER and recall for CER and found)
    plot_files(\@tsv, { map { my $s = $sum->($_, @truths);
                              ($_ => [$s->{cpu} / $dur, $s->{cer} // 0,
                                      $s->{recall} // 0]) } @pipes },
               qw(line_cer line_recall lines));
    print "\nresults in $o{out}\n";
}

# The files plot.gp draws: results.tsv (the lines of @$tsv: pipeline,
# video, duration, CPU, CPU per video second, CER, recall, OCR calls,
# count, false segments, RSS), speed.tsv (video s per CPU s, a column
# per pipeline) and summary.tsv (per pipeline: CPU per video second,
# CER, recall); @names: what the CER, recall and count columns are
sub plot_files {
    my ($tsv, $sum, @names) = @_;
    my ($cer, $recall, $count) = @names;
    open my $fh, '>', "$o{out}/results.tsv" or die $!;
    print {$fh} "# pipeline\tvideo\tduration\tcpu_s\tcpu_per_video_s\t$cer"
        . "\t$recall\tocr_calls\t$count\tfalse\trss_kb\n", map { "$_\n" } @$tsv;
    close $fh;
    open $fh, '>', "$o{out}/speed.tsv" or die $!;
    print {$fh} join("\t", 'video', map { "\"$label{$_}\"" } @pipes), "\n";
    for my $t (@truths) {
        print {$fh} join("\t", $t->{name}, map {
            sprintf '%.2f', $t->{duration} / ($res{$_}{ $t->{name} }{cpu} || 0.01)
        } @pipes), "\n";
    }
    close $fh;
    open $fh, '>', "$o{out}/summary.tsv" or die $!;
    print {$fh} "# pipeline\tcpu_per_video_s\t$cer\t$recall\tlabel\n";
    printf {$fh} "%s\t%.5f\t%.4f\t%.4f\t\"%s\"\n", $_, @{ $sum->{$_} },
        $label{$_} for @pipes;
    close $fh;
}

sub scaling {
    my @videos = map { "$o{corpus}/$_->{file}" } @truths;
    my $dur = 0;
    $dur += $_->{duration} for @truths;
    my $one = sub {
        for my $v (@videos) {
            system("$worker ocr '$v' --fps $o{fps} >/dev/null 2>&1") == 0
                or die "worker failed on $v\n";
        }
    };
    # wall time and CPU time (of the children, user + system) of n
    # processes at once, each doing the whole corpus
    my $wall = sub {
        my ($n) = @_;
        my @c0 = (times)[2, 3];
        my $t0 = Time::HiRes::time();
        my @pids;
        for (1 .. $n) {
            my $pid = fork // die "fork: $!";
            if ($pid == 0) { $one->(); POSIX::_exit(0) }
            push @pids, $pid;
        }
        waitpid $_, 0 for @pids;
        my @c1 = (times)[2, 3];
        return (Time::HiRes::time() - $t0,
                $c1[0] - $c0[0] + $c1[1] - $c0[1]);
    };
    my $load0 = (split ' ', slurp('/proc/loadavg'))[0];
    my ($w1, $c1) = $wall->(1);
    my ($w2, $c2) = $wall->(2);
    my $load = (split ' ', slurp('/proc/loadavg'))[0];
    printf "\nscaling: 1 worker process: %.1f video s per wall s (%.1f s, "
        . "%.1f CPU s); 2 at once: %.1f (%.1f s, %.1f CPU s); ratio %.2fx "
        . "(load average %s before, %s after)\n",
        $dur / $w1, $w1, $c1, 2 * $dur / $w2, $w2, $c2, 2 * $w1 / $w2,
        $load0, $load;
    # each process alone on a core would take its own CPU time: what
    # the ratio is on two idle cores, whatever else the machine runs
    printf "scaling, from CPU time (2 x one process's CPU alone / its CPU "
        . "beside another): %.2fx\n", 4 * $c1 / $c2;
}

sub slurp {
    my ($f) = @_;
    open my $fh, '<:raw', $f or die "$f: $!";
    local $/;
    return scalar <$fh>;
}
