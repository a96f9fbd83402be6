#!/usr/bin/perl
# The parts benchmark of issue 39: how much sooner one long video is
# done when the pool splits it into parts (time ranges at keyframes)
# that several children, and several hosts, read at once; and what the
# split costs in CPU.
#
#   make bench-parts          (builds, then runs this with its defaults)
#   bench/parts/run.pl [--minutes 10] [--rounds 3]
#                      [--runs unsplit:1,split:1,split:2,split:2+2]
#                      [--video-only]      (makes the video, then stops)
#
# The video (made once, cached in build/bench/parts/): MINUTES (and a
# second, to be over the default --split-seconds whatever the
# container's rounding) of 720p H.264 at 25 fps, 2 Mbit/s at most, a
# keyframe every 2 s (a fixed GOP, as streaming encodes have), over
# testsrc2's moving pattern (VideoOCR::Media's "busy"; PARTS_BACKGROUND
# names another), AAC stereo audio, in MP4 with its index in front
# (+faststart), as a web upload is.  A caption every 5 s (4.2 s on
# screen, 0.8 s apart, each a different text, one in four on two
# lines), placed so that one spans every multiple of 10 s: the part
# boundaries (150 s by default) fall inside captions.

# Each run is the whole product through nginx, timed from the first
# byte of the upload (POST /upload with an Idempotency-Key, as a client
# sends it) to the first status poll (every 0.2 s) that says "done":
#
#   unsplit:1   one pool of 1 child, --part-seconds 0: the baseline
#   split:N     one pool of N children (SQLite ledger, as `make run`)
#   split:2+2   two pools of 2 children on one PostgreSQL ledger and one
#               store, each with its own nginx (ports TEST_NGINX_PORT and
#               the next): two simulated hosts; the upload goes to the
#               first
#
# A pool starts right before the upload and is stopped (SIGTERM) right
# after "done"; the CPU of a run is user+sys of its pools' processes
# (supervisor, children, deliverer, janitor), from getrusage of the
# reaped children.  The segments of every run are compared with those of
# the first unsplit:1 run: the same texts, and start and end within one
# frame (1/25 s).  Each round runs every run once (in reverse order
# every other round); the table gives medians over the rounds.
#
# Environment: PART_SECONDS (150) and SPLIT_SECONDS (600) are passed as
# --part-seconds / --split-seconds to the split runs; a worker that has
# no --part-seconds (before issue 39) runs every run without them.  The
# "parts" column: the job's parts, from its status (progress.parts.count)
# or else from the pool's log (event=split parts=N); "-" when it was
# read whole.  POLL (100ms) is the pools' --poll.  IDLE_WAIT=S: before
# each run, wait up to S seconds for the rest of the machine to use
# less than IDLE_BELOW cores (0.3): a shared machine's other work makes
# the wall times say little (see the "others CPU s" and "child max CPU
# s" columns).
# VIDEO_OCR_TEST_PG: the PostgreSQL server of the two-pool run (else one
# is started with scripts/pg.sh and stopped at the end).  BUILD,
# WORKER_BIN, MODULE_SO, NGINX_BIN as for the tests.  To try it quickly:
#
#   PART_SECONDS=20 SPLIT_SECONDS=30 bench/parts/run.pl --minutes 1
#
# Writes build/bench/parts/run-STAMP/: table.md (what is printed), the
# RESULT lines (results.txt), each run's segments and worker logs.
# Long (about 3 times the time one child takes, per round): not part
# of make test.

use strict;
use warnings;
use utf8;

use FindBin;
BEGIN { chdir "$FindBin::Bin/../.." or die "chdir: $!\n" }
use lib 't/lib';

use Cwd qw(abs_path);
use Digest::SHA ();
use File::Copy qw(copy);
use File::Path qw(make_path remove_tree);
use Getopt::Long;
use JSON::PP;
use POSIX qw(strftime);
use Time::HiRes qw(sleep time);
use VideoOCR::Media qw(make_video match_spans normalise);
use VideoOCR::Stack;
use VideoOCR::Test ();

$| = 1;

my %o = (minutes => 10, rounds => 3,
         runs => 'unsplit:1,split:1,split:2,split:2+2');
GetOptions(\%o, 'minutes=f', 'rounds=i', 'runs=s', 'video-only')
    or die "usage: $0 [--minutes M] [--rounds N] [--runs LIST]"
         . " [--video-only]\n";

my $build = $ENV{BUILD} // abs_path('build');
$ENV{WORKER_BIN} //= "$build/video-ocr-worker";
$ENV{MODULE_SO} //= "$build/nginx/objs/ngx_http_video_ocr_module.so";
for ($ENV{WORKER_BIN}, $ENV{MODULE_SO}) {
    -e $_ or die "bench: $_ is missing (make build)\n";
}

my $part_s = $ENV{PART_SECONDS} // 150;
my $split_s = $ENV{SPLIT_SECONDS} // 600;
my $poll = $ENV{POLL} // '100ms';
my $port = $ENV{TEST_NGINX_PORT} // 19000 + $$ % 500 * 2;
my $rate = 25;
my $idle_wait = $ENV{IDLE_WAIT} // 0;
my $idle_below = $ENV{IDLE_BELOW} // 0.3;

# an interrupted run stops what it started (exit runs the END blocks
# and the stacks' destructors: pools, nginx, the PostgreSQL server)
$SIG{INT} = $SIG{TERM} = sub { print STDERR "bench: interrupted\n"; exit 130 };

my $help = `$ENV{WORKER_BIN} run --help 2>&1`;
my $can_split = $help =~ /--part-seconds/;

my @runs = map {
    /^(unsplit|split):(\d+(?:\+\d+)*)$/
        or die "bench: a run is unsplit:N, split:N or split:N+M, not $_\n";
    { name => $_, split => $1 eq 'split', pools => [split /\+/, $2] }
} split /,/, $o{runs};

if ($o{'video-only'}) {
    print((make_bench_video($o{minutes}))[0], "\n");
    exit 0;
}

my $out = "$build/bench/parts/run-" . strftime('%Y%m%dT%H%MZ', gmtime);
make_path($out);
open my $table, '>', "$out/table.md" or die "$out/table.md: $!\n";
open my $results, '>', "$out/results.txt" or die "$out/results.txt: $!\n";

say_("# parts benchmark, " . strftime('%Y-%m-%dT%H:%MZ', gmtime)
     . ", $o{minutes} min video, " . `nproc` =~ s/\n//r . ' cores, load '
     . join(' ', (split ' ', `cat /proc/loadavg`)[0 .. 2])
     . ", worker $ENV{WORKER_BIN}");
say_($can_split
     ? "split runs: --part-seconds $part_s --split-seconds $split_s;"
       . " unsplit: --part-seconds 0"
     : "this worker has no --part-seconds: every run reads the video"
       . " whole (no split)");

my ($video, $spans) = make_bench_video($o{minutes});
open my $vfh, '<:raw', $video or die "$video: $!\n";
my $bytes = do { local $/; <$vfh> };
close $vfh;
say_(sprintf 'video: %s, %.1f MB, %d captions', $video,
     length($bytes) / 1e6, scalar @$spans);

my ($pg_url, $pg_dir);
if (grep { @{ $_->{pools} } > 1 } @runs) {
    $pg_url = $ENV{VIDEO_OCR_TEST_PG};
    unless ($pg_url) {
        $pg_dir = `scripts/pg.sh start`;
        chomp $pg_dir;
        $? == 0 && -d $pg_dir or die "bench: scripts/pg.sh start failed\n";
        ($pg_url) = `cat $pg_dir/env` =~ /VIDEO_OCR_TEST_PG=(\S+)/;
    }
}
END { system('scripts/pg.sh', 'stop', $pg_dir) if $pg_dir }

my (@all, $ref, $serial);
for my $round (1 .. $o{rounds}) {
    my @order = $round % 2 ? @runs : reverse @runs;
    for my $run (@order) {
        my $r = one_run($run, $round);
        $ref //= $r if $r->{name} eq 'unsplit:1' && $r->{state} eq 'done';
        push @all, $r;
    }
}

# compared once the reference is known (it may come late in a round)
compare($_, $ref) for @all;
for my $r (@all) {
    my $line = join ' ', 'RESULT', map { "$_=$r->{$_}" }
        qw(round name children state wall_s upload_s cpu_s other_cpu_s path_s
           parts segments
           read_exact same max_dt);
    say_($line);
    print {$results} "$line\n";
}

table();
close $table;
print "(in $out)\n";


# --- the runs ---------------------------------------------------------------

sub one_run {
    my ($run, $round) = @_;
    my @pools = @{ $run->{pools} };
    my $pg = @pools > 1;
    my $tag = $run->{name} =~ s/\W/-/gr . "-r$round";
    my @flags = !$can_split ? ()
              : $run->{split} ? ('--part-seconds', $part_s,
                                 '--split-seconds', $split_s)
              : ('--part-seconds', 0);

    # one ledger for all pools: PostgreSQL for several, else SQLite
    delete local $ENV{VIDEO_OCR_TEST_PG};
    $ENV{VIDEO_OCR_TEST_PG} = $pg_url if $pg;
    my $role = 'vo_parts_' . $$ . '_' . ++$serial;
    my $ledger = $pg ? VideoOCR::Test::new_pg_ledger($role) : undef;

    my @stacks;
    for my $i (0 .. $#pools) {
        push @stacks, VideoOCR::Stack->new(
            no_worker => 1, workers => $pools[$i], port => $port + $i,
            worker_args => ['--poll', $poll, @flags],
            $i ? (ledger => $stacks[0]->ledger, store => $stacks[0]->store)
               : $ledger ? (ledger => $ledger) : ());
    }

    my %r = (round => $round, name => $run->{name}, tag => $tag,
             parts => '-', children => 0, state => '?');
    $r{children} += $_ for @pools;

    wait_idle() if $idle_wait;

    my @t0 = times;
    my $busy0 = machine_busy();
    $_->start_worker for @stacks;

    my $t_up = time;
    my $up = $stacks[0]->upload("bench-parts-$$-$tag", $bytes);
    $r{upload_s} = sprintf '%.2f', time - $t_up;
    my $job = $up->{status} == 202
        ? eval { decode_json($up->{body})->{job_id} } : undef;

    my $st = {};
    if ($job) {
        my $deadline = time + 7200;
        while (time < $deadline) {
            $st = $stacks[0]->status($job);
            my $p = $st->{progress}{parts};
            $r{parts} = $p->{count} if ref $p eq 'HASH' && $p->{count}
                && ($r{parts} eq '-' || $p->{count} > $r{parts});
            last if ($st->{state} // '')
                    =~ /^(?:done|failed|rejected|cancelled)$/;
            sleep 0.2;
        }
        $r{state} = $st->{state} // '?';
    } else {
        $r{state} = "upload-$up->{status}";
        print STDERR "bench: upload: $up->{status} $up->{body}\n";
    }
    $r{wall_s} = sprintf '%.2f', time - $t_up;

    $_->stop_worker(60) for @stacks;
    my @t1 = times;
    my $cpu = $t1[2] + $t1[3] - $t0[2] - $t0[3];
    $r{cpu_s} = sprintf '%.2f', $cpu;
    $r{other_cpu_s} = sprintf '%.2f', machine_busy() - $busy0 - $cpu;

    print STDERR "bench: $run->{name} round $round: job $r{state}: "
                 . encode_json($st->{error} // {}) . "\n"
        unless $r{state} eq 'done';

    $r{segs} = $st->{result}{segments} // [];
    $r{segments} = @{ $r{segs} };
    my ($m) = match_spans($r{segs}, $spans);
    $r{read_exact} = grep { $_->{segment}
                            && normalise($_->{segment}{text})
                               eq normalise($_->{span}{text}) } @$m;

    open my $fh, '>', "$out/segments-$tag.json" or die "$out: $!\n";
    print {$fh} JSON::PP->new->utf8->canonical->pretty->encode($r{segs});
    close $fh;
    $r{path_s} = $job ? busiest_child([map { $_->worker_log } @stacks], $job)
                      : 0;
    for my $i (0 .. $#stacks) {
        copy($stacks[$i]->dir . '/logs/worker.log',
             "$out/worker-$tag-pool$i.log");
        # a status without "parts": the pool's log says how many
        $r{parts} = $1 if $job && $r{parts} eq '-' && $stacks[$i]->worker_log
                          =~ /job=\Q$job\E .*event=split parts=(\d+)/;
    }

    # the uploads are large: their directories go now, not at exit
    my @dirs = map { $_->dir } @stacks;
    undef @stacks;
    remove_tree(@dirs);
    VideoOCR::Test::pg_admin("DROP SCHEMA $role CASCADE", "DROP ROLE $role")
        if $pg;

    printf "%s round %d: %s in %s s (upload %s s), CPU %s s (others %s s),"
           . " parts %s, %d segments\n", $r{name}, $round, $r{state},
           $r{wall_s}, $r{upload_s}, $r{cpu_s}, $r{other_cpu_s}, $r{parts},
           $r{segments};
    return \%r;
}


# The CPU of the job's busiest child (s): each child's cpu_ms of the
# parts (or the whole job) it finished, from the pools' logs, summed per
# child.  With a core for each child that is when the job would have
# been done, whatever else the machine ran meanwhile (the claims' waits
# and the upload left out).
sub busiest_child {
    my ($logs, $job) = @_;
    my %cpu;
    for (map { split /\n/ } @$logs) {
        next unless /event=(?:part_done|published|failed|retry)\b/
                    && /\bjob=\Q$job\E\b/;
        my ($pid) = /\[(\d+)\]/;
        my ($ms) = /\bcpu_ms=(\d+)/;
        $cpu{$pid} += $ms / 1000 if $pid && defined $ms;
    }
    my ($max) = sort { $b <=> $a } values %cpu;
    return sprintf '%.2f', $max // 0;
}


# IDLE_WAIT=S: before a run, wait (S seconds at most) until the rest of
# the machine has used less than IDLE_BELOW cores (0.3) for 5 s
sub wait_idle {
    my $deadline = time + $idle_wait;
    while (time < $deadline) {
        my ($b0, $t0) = (machine_busy(), time);
        sleep 5;
        my $load = (machine_busy() - $b0) / (time - $t0);
        return if $load < $idle_below;
        printf "waiting for the machine: others use %.2f cores\n", $load;
    }
}


# The CPU time the whole machine has spent so far (s), from /proc/stat:
# during a run, what is not the pools' is the others' (nginx, this
# script, PostgreSQL, and whatever else runs on the machine)
sub machine_busy {
    open my $fh, '<', '/proc/stat' or return 0;
    my ($u, $n, $s, $idle, $io, $irq, $soft, $steal) = split ' ',
        (<$fh> =~ s/^cpu\s+//r);
    return ($u + $n + $s + $irq + $soft + $steal)
           / POSIX::sysconf(POSIX::_SC_CLK_TCK);
}


# same: yes when every segment of the run has one of the reference's
# with the same text, start and end within one frame, and none is left
# over on either side; else no(N), N the segments of either side left
# without such a twin.  Each segment of the reference is paired with the
# unpaired segment of the run of the same text nearest in time; max_dt
# is the largest time difference of those pairs (s).  What differs is
# written to diff-TAG.txt.
sub compare {
    my ($r, $ref) = @_;
    if (!$ref) {
        @$r{qw(same max_dt)} = ('no-ref', '-');
        return;
    }
    my $frame = 1 / $rate + 1e-6;
    my @got = @{ $r->{segs} };
    my (%used, @diff);
    my ($dt, $differ) = (0, 0);
    for my $w (@{ $ref->{segs} }) {
        my ($best, $bd);
        for my $i (0 .. $#got) {
            next if $used{$i} || $got[$i]{text} ne $w->{text};
            my $d = abs($got[$i]{start} - $w->{start});
            my $e = abs($got[$i]{end} - $w->{end});
            $d = $e if $e > $d;
            ($best, $bd) = ($i, $d) if !defined $bd || $d < $bd;
        }
        if (!defined $best) {
            $differ++;
            push @diff, sprintf "only in unsplit:1: %.3f-%.3f %s",
                                @$w{qw(start end)}, _q($w->{text});
            next;
        }
        $used{$best} = 1;
        $dt = $bd if $bd > $dt;
        next if $bd <= $frame;
        $differ++;
        push @diff, sprintf "times: %.3f-%.3f here, %.3f-%.3f in unsplit:1:"
                            . " %s", @{ $got[$best] }{qw(start end)},
                            @$w{qw(start end)}, _q($w->{text});
    }
    for my $i (grep { !$used{$_} } 0 .. $#got) {
        $differ++;
        push @diff, sprintf "only here: %.3f-%.3f %s",
                            @{ $got[$i] }{qw(start end)}, _q($got[$i]{text});
    }
    $r->{same} = $differ ? "no($differ)" : 'yes';
    $r->{max_dt} = sprintf '%.3f', $dt;
    return unless @diff;
    open my $fh, '>', "$out/diff-$r->{tag}.txt" or die "$out: $!\n";
    print {$fh} map { "$_\n" } @diff;
    close $fh;
}

sub _q { return JSON::PP->new->ascii->encode([$_[0]]) =~ s/^\[|\]$//gr }


# --- the table --------------------------------------------------------------

sub median {
    my @v = sort { $a <=> $b } @_;
    return @v % 2 ? $v[$#v / 2] : ($v[@v / 2 - 1] + $v[@v / 2]) / 2;
}

# the distinct values, "-" or numbers, joined by "/"
sub distinct {
    my %v = map { $_ => 1 } @_;
    return join '/', sort { ($a =~ /^\d+$/ && $b =~ /^\d+$/) ? $a <=> $b
                                                            : $a cmp $b }
                     keys %v;
}

sub table {
    my %m;
    for my $run (@runs) {
        my @r = grep { $_->{name} eq $run->{name} && $_->{state} eq 'done' }
                @all;
        next unless @r;
        $m{$run->{name}} = {
            wall => median(map { $_->{wall_s} } @r),
            cpu => median(map { $_->{cpu_s} } @r),
            other => median(map { $_->{other_cpu_s} } @r),
            path => median(map { $_->{path_s} } @r),
            upload => median(map { $_->{upload_s} } @r),
            n => scalar @r,
            parts => distinct(map { $_->{parts} } @r),
            segments => distinct(map { $_->{segments} } @r),
            read => median(map { $_->{read_exact} } @r),
            same => scalar(grep { $_->{same} eq 'yes' } @r) . "/" . @r,
            dt => (sort { $b <=> $a } map { $_->{max_dt} } @r)[0],
            children => $r[0]{children},
        };
    }
    my $base1 = $m{'split:1'};
    my $base0 = $m{'unsplit:1'};

    my $ratio = sub {
        my ($x, $b, $k, $inv) = @_;
        return '-' unless $b;
        return sprintf '%.2f', $inv ? $b->{$k} / $x->{$k} : $x->{$k} / $b->{$k};
    };
    my @cols = (
        ['run       ', sub { $_[1]{name} }],
        ['children', sub { $_[0]{children} }],
        ['parts', sub { $_[0]{parts} }],
        ['upload s', sub { sprintf '%.2f', $_[0]{upload} }],
        ['wall s', sub { sprintf '%.2f', $_[0]{wall} }],
        ['x split:1', sub { $ratio->($_[0], $base1, 'wall', 1) }],
        ['x unsplit:1', sub { $ratio->($_[0], $base0, 'wall', 1) }],
        ['CPU s', sub { sprintf '%.2f', $_[0]{cpu} }],
        ['CPU/unsplit', sub { $ratio->($_[0], $base0, 'cpu') }],
        ['others CPU s', sub { sprintf '%.2f', $_[0]{other} }],
        ['child max CPU s', sub { sprintf '%.2f', $_[0]{path} }],
        ['x split:1 by CPU', sub { $ratio->($_[0], $base1, 'path', 1) }],
        ['x unsplit:1 by CPU', sub { $ratio->($_[0], $base0, 'path', 1) }],
        ['segments', sub { $_[0]{segments} }],
        ['read ok', sub { "$_[0]{read}/" . @$spans }],
        ['same', sub { $_[0]{same} }],
        ['max dt', sub { $_[0]{dt} }],
    );
    my $row = sub {
        return '| ' . join(' | ', map { sprintf $_ ? '%*s' : '%-*s',
                                               length $cols[$_][0], $_[$_] }
                                      0 .. $#_) . ' |';
    };
    say_('');
    say_($row->(map { $_->[0] } @cols));
    say_('|' . join('|', map { '-' x (length($_->[0]) + 2) } @cols) . '|');
    for my $run (@runs) {
        my $x = $m{$run->{name}} or next;
        say_($row->(map { $_->[1]->($x, $run) } @cols));
    }
    say_('');
    say_("(medians of $o{rounds} round(s); wall: upload start to \"done\";"
         . ' x split:1 / x unsplit:1: that run\'s wall over this one\'s;'
         . ' CPU: user+sys of the pools; others: the rest of the'
         . ' machine\'s CPU meanwhile; child max CPU: the CPU of the'
         . ' job\'s busiest child (its wall with a core per child), and'
         . ' the ratios of those; read ok: captions whose text was'
         . ' read exactly; same: runs whose segments are unsplit:1\'s'
         . ' (texts, times within 1/25 s); max dt: the largest time'
         . ' difference from it, s)');
    for my $b (['split:1', $base1], ['unsplit:1', $base0]) {
        next unless $b->[1] && $m{'split:2'};
        my $x = $b->[1]{wall} / $m{'split:2'}{wall};
        my $y = $b->[1]{path} / $m{'split:2'}{path};
        say_(sprintf 'issue 39 target, split:2 at least 1.6x sooner than'
             . ' %s: %.2fx, %s (by the busiest child\'s CPU: %.2fx)',
             $b->[0], $x, $x >= 1.6 ? 'met' : 'NOT met', $y);
    }
}

sub say_ {
    my ($line) = @_;
    print "$line\n";
    print {$table} "$line\n";
}


# --- the video --------------------------------------------------------------

# The bench video and its captions (spans), made once per recipe: the
# file's name carries the recipe's digest.
sub make_bench_video {
    my ($minutes) = @_;
    # one second more: over SPLIT_SECONDS (600) whatever the rounding of
    # the container's duration
    my $dur = int($minutes * 60) + 1;
    my @spans = captions($dur);
    my %recipe = (dur => $dur, size => '1280x720', rate => $rate,
                  background => $ENV{PARTS_BACKGROUND} // 'busy', seed => 39,
                  bitrate => '2M', gop => 50,
                  spans => \@spans, v => 1);
    my $digest = substr(Digest::SHA::sha1_hex(
        JSON::PP->new->canonical->encode(\%recipe)), 0, 10);
    my $dir = "$build/bench/parts";
    my $file = "$dir/video-${minutes}min-$digest.mp4";
    return ($file, \@spans) if -s $file;

    make_path($dir);
    my $t0 = time;
    print "making $file (once) ...\n";
    make_video(path => "$file.tmp.mp4", duration => $dur,
               size => $recipe{size}, rate => $rate,
               background => $recipe{background}, seed => $recipe{seed},
               bitrate => $recipe{bitrate}, audio => 1,
               extra => ['-g', $recipe{gop}, '-keyint_min', $recipe{gop},
                         '-sc_threshold', 0,
                         '-ac', '2', '-ar', '48000', '-b:a', '128k',
                         '-movflags', '+faststart'],
               spans => \@spans);
    rename "$file.tmp.mp4", $file or die "rename $file: $!\n";
    printf "made in %.0f s\n", time - $t0;
    return ($file, \@spans);
}

# A caption every 5 s from 2.6 s, 4.2 s long: caption 2k-1 covers
# 10k-2.4 .. 10k+1.8, across every multiple of 10 s.  Each text is its
# number and four words drawn from a fixed list (an LCG, so the same on
# every machine); one in four has a second line.
sub captions {
    my ($dur) = @_;
    my @w = qw(amber anchor autumn balance basket beacon border bridge
        candle canyon carbon cellar circle cobalt copper cotton desert
        dragon engine falcon feather fierce forest garden ginger glacier
        harbor hollow island jacket jungle kettle ladder lantern marble
        meadow mirror mountain needle orange orchid paddle pepper pillow
        planet pocket quartz rabbit ribbon river rocket saddle silver
        spider summer timber tunnel velvet violet walnut window winter
        yellow);
    my $seed = 39;
    my $pick = sub {
        $seed = ($seed * 1103515245 + 12345) % 2147483648;
        return $w[($seed >> 8) % @w];
    };
    my @spans;
    for (my ($i, $t) = (0, 2.6); $t + 4.2 <= $dur; $i++, $t += 5) {
        my $text = sprintf 'Caption %d: %s %s %s %s', $i + 1,
            ucfirst $pick->(), $pick->(), $pick->(), $pick->();
        $text .= sprintf "\n%s %s and %s", ucfirst $pick->(), $pick->(),
            $pick->() if $i % 4 == 3;
        push @spans, { start => sprintf('%.1f', $t), end => sprintf('%.1f', $t + 4.2),
                       text => $text, size => 36, style => 'outline' };
    }
    return @spans;
}
