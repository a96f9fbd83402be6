#!/usr/bin/perl
# Decoding in decode order (issue 37): what skipping non-reference
# frames away from changes of text could save, on the OCR corpora.
#
#   make bench-decode [CORPUS="dir1 dir2"] [RUNS=N]
#   bench/decode/run.pl [--runs 3] [--window 0.35] [--only NAME,...] DIR...
#   bench/decode/run.pl --tables build/bench/decode/results.tsv
#
# Builds bench/decode/order.c into $BUILD/bench/decode (BUILD defaults
# to build/), then for every video of each DIR (bench/ocr/corpus.pl's
# layout: NAME.json beside the video, its "file", "screens" and, for
# the real-like set, "lines" with start and end) runs order in four
# modes, one thread each:
#
#   full     every frame (the reference for the ratios and the md5s)
#   nonref   every non-reference frame skipped: the floor of skipping
#   near     non-reference frames decoded only within --window s of a
#            change (every start and end of a screen or line)
#   anchor   non-reference frames decoded only for a mini-GOP whose
#            anchors enclose a change (order.c says more)
#
# CPU is user+sys of order from its first packet to the end (not the
# open and probe), the median of --runs runs; each round runs every mode
# once, so load that comes and goes falls on every mode alike.  One more
# run per mode writes the md5 of every output frame and every early
# picture: each must equal the full decode's output frame of the same
# pts.  Any difference is a mismatch, and the exit status is 1.
#
# Prints, and writes to $BUILD/bench/decode/table.md, one table per DIR
# and the medians per codec (H.264 with and without non-reference
# frames apart), then over all videos; results.tsv holds every video's
# numbers, and --tables prints the tables again from it.  Run it niced
# on a shared machine: nice -n 5 bench/decode/run.pl DIR...

use strict;
use warnings;

use FindBin;
BEGIN { chdir "$FindBin::Bin/../.." or die "chdir: $!\n" }

use Cwd qw(abs_path);
use File::Basename qw(basename);
use File::Path qw(make_path);
use Getopt::Long;
use JSON::PP ();
use POSIX qw(strftime);

$| = 1;

use constant NOPTS => '-9223372036854775808';    # AV_NOPTS_VALUE

my %o = (runs => 3, window => 0.35);
GetOptions(\%o, 'runs=i', 'window=f', 'only=s', 'tables=s')
    && (@ARGV || $o{tables}) && $o{runs} > 0
    or do {
        print STDERR "usage: $0 [--runs N] [--window S] [--only NAME,...]"
                   . " CORPUS-DIR...\n       $0 --tables RESULTS.tsv\n";
        exit 64;
    };

my %only = map { $_ => 1 } split /,/, $o{only} // '';
my @modes = qw(full nonref near anchor);
my @skips = grep { $_ ne 'full' } @modes;

my $build = $ENV{BUILD} // abs_path('.') . '/build';
my $out = "$build/bench/decode";
my $order = "$out/order";
make_path($out);

if ($o{tables}) {
    tables($o{tables});
    exit 0;
}

build();

open my $table, '>', "$out/table.md" or die "$out/table.md: $!\n";
open my $tsv, '>', "$out/results.tsv" or die "$out/results.tsv: $!\n";
print $tsv join("\t", qw(corpus video codec frames duration changes
    anchors), map({ ("cpu_$_", "frames_$_") } @modes), 'mismatches'), "\n";

my $avc = `pkg-config --modversion libavcodec`;
chomp $avc;
say_(sprintf "Decode order (issue 37), %s, %d cores, load %s, libavcodec"
     . " %s, median of %d runs, window %.2f s\n",
     strftime('%Y-%m-%dT%H:%MZ', gmtime), cores(), load(), $avc,
     $o{runs}, $o{window});

my (%all, $bad);

for my $dir (@ARGV) {
    my @rows = corpus($dir);
    next unless @rows;
    report(basename($dir), \@rows);
    push @{ $all{ kind($_) } }, $_ for @rows;
    $bad += $_->{mismatches} for @rows;
}

if (@ARGV > 1) {
    say_("All corpora, medians per codec\n");
    medians(\%all);
}

say_($bad ? "md5: $bad MISMATCHES\n" : "md5: every decoded frame and early"
     . " picture is identical to the full decode's\n");
exit($bad ? 1 : 0);


sub build {
    my $src = 'bench/decode/order.c';
    return if -x $order && -M $order < -M $src;
    my $flags = `pkg-config --cflags --libs libavcodec libavformat libavutil`;
    $? == 0 or die "bench: pkg-config finds no libavcodec (scripts/deps.sh)\n";
    chomp $flags;
    my $cc = $ENV{CC} // 'cc';
    system("$cc -std=c11 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror"
           . " -o $order $src $flags -lm") == 0
        or die "bench: cannot build $src\n";
}


# Every video of one corpus: the runs, the md5 check; one row each.

sub corpus {
    my ($dir) = @_;
    my $json = JSON::PP->new->utf8;
    my $name = basename($dir);
    my $w = "$out/" . $name;
    my @rows;

    make_path($w);
    opendir my $dh, $dir or die "bench: $dir: $!\n";
    my @truths = sort grep { /\.json$/ } readdir $dh;
    closedir $dh;

    for my $t (@truths) {
        my $j = eval {
            open my $fh, '<:raw', "$dir/$t" or die "$!\n";
            local $/;
            $json->decode(<$fh>);
        } or do { warn "bench: $dir/$t: $@"; next };
        next unless $j->{file} && -e "$dir/$j->{file}";
        next if %only && !$only{ $j->{name} // '' };

        my $v = "$dir/$j->{file}";
        my $base = "$w/" . ($j->{name} // $j->{file});
        my %seen;
        my @chg = sort { $a <=> $b } grep { !$seen{$_}++ }
            map { sprintf '%.3f', $_ }
            map { my $s = $_; map { $s->{$_} // () } qw(start end) }
            map { @{ $j->{$_} // [] } } qw(screens lines);
        open my $ch, '>', "$base.chg" or die "bench: $base.chg: $!\n";
        print $ch map { "$_\n" } @chg;
        close $ch;

        my %cpu;
        for my $r (1 .. $o{runs}) {
            my @m = $r % 2 ? @modes : reverse @modes;
            for my $m (@m) {
                push @{ $cpu{$m} }, run($v, $m, $base)->{cpu};
            }
        }

        my %res = map { $_ => run($v, $_, $base, "$base.$_.md5") } @modes;
        my $full = md5s("$base.full.md5");
        my $mis = 0;
        for my $m (@modes) {
            $mis += mismatches($full, md5s("$base.$m.md5"));
        }

        my $f = $res{full};
        my $row = {
            video => $j->{name} // $j->{file}, codec => $f->{codec},
            frames => $f->{frames}, duration => $j->{duration} // 0,
            changes => scalar @chg, anchors => $res{anchor}{anchors},
            mismatches => $mis,
        };
        for (@modes) {
            $row->{"cpu_$_"} = median(@{ $cpu{$_} });
            $row->{"frames_$_"} = $res{$_}{frames};
        }
        push @rows, $row;

        print $tsv join("\t", $name, @$row{qw(video codec frames duration
            changes anchors)}, map({ @$row{"cpu_$_", "frames_$_"} } @modes),
            $mis), "\n";
        printf STDERR "%s: %s %.3f s%s\n", $name, $row->{video},
            $row->{cpu_full}, $mis ? ", $mis md5 MISMATCHES" : '';
    }

    return @rows;
}


sub run {
    my ($v, $mode, $base, $md5) = @_;
    my @cmd = ($order, $v, $mode);
    push @cmd, '-c', "$base.chg", '-w', $o{window} if $mode ne 'full';
    push @cmd, '-m', $md5 if $md5;
    open my $p, '-|', @cmd or die "bench: $order: $!\n";
    my $line = join '', <$p>;
    close $p;
    $? == 0 or die "bench: @cmd: exit " . ($? >> 8) . "\n";
    my %r = $line =~ /(\w+)=(\S+)/g;
    defined $r{cpu} or die "bench: @cmd: no result\n";
    return \%r;
}


# { out => { pts => md5 }, early => [ [pts, md5], ... ] }

sub md5s {
    my ($file) = @_;
    my %m = (out => {}, early => []);
    open my $fh, '<', $file or die "bench: $file: $!\n";
    while (my $l = <$fh>) {
        my ($k, $pts, $md5) = split ' ', $l;
        if ($k eq 'out') { $m{out}{$pts} //= $md5 }
        else { push @{ $m{early} }, [$pts, $md5] }
    }
    close $fh;
    return \%m;
}


# A frame of the run, output or early, whose pts the full decode did not
# output or whose md5 differs from that output's.  Frames without a pts
# (AVI with B frames, raw streams) cannot be matched and are left out.

sub mismatches {
    my ($full, $run) = @_;
    my $n = 0;
    for my $pts (keys %{ $run->{out} }) {
        next if $pts eq NOPTS;
        $n++ unless ($full->{out}{$pts} // '') eq $run->{out}{$pts};
    }
    for (@{ $run->{early} }) {
        next if $_->[0] eq NOPTS;
        $n++ unless ($full->{out}{ $_->[0] } // '') eq $_->[1];
    }
    return $n;
}


sub report {
    my ($name, $rows) = @_;
    my %kinds;

    say_("## $name\n");
    say_("| video | codec | frames | full CPU s | CPU nonref | near"
         . " | anchor | frames decoded nonref | near | anchor | anchors/s"
         . " | md5 mismatches |");
    say_('|' . '---|' x 12);
    for my $r (@$rows) {
        my $a = $r->{cpu_full};
        say_(sprintf "| %s | %s | %d | %.3f | %s | %s | %s | %d | %d | %d"
             . " | %.1f | %d |", @$r{qw(video codec frames)}, $a,
             (map { ratio($r->{"cpu_$_"}, $a) } @skips),
             (map { $r->{"frames_$_"} } @skips),
             $r->{duration} ? $r->{anchors} / $r->{duration} : 0,
             $r->{mismatches});
        push @{ $kinds{ kind($r) } }, $r;
    }
    say_('');
    medians(\%kinds);
}


# The codec, and whether skipping skipped anything: H.264 without B
# frames, and with, are apart.

sub kind {
    my ($r) = @_;
    return $r->{codec}
           . ($r->{frames_nonref} < $r->{frames_full} ? '' : ', no non-ref');
}


# Per codec, then over all: the median over the videos of each mode's
# CPU and decoded-frame ratios to the full decode; and the sums of CPU.

sub medians {
    my ($kinds) = @_;
    $kinds = { %$kinds, '(all)' => [ map { @$_ } values %$kinds ] };
    say_("| codec | videos | CPU nonref/full | near/full | anchor/full"
         . " | frames nonref/full | near/full | anchor/full"
         . " | CPU s full, anchor (sums) |");
    say_('|' . '---|' x 9);
    for my $k ((sort grep { $_ ne '(all)' } keys %$kinds), '(all)') {
        my @r = @{ $kinds->{$k} };
        my ($sa, $sn) = (0, 0);
        $sa += $_->{cpu_full}, $sn += $_->{cpu_anchor} for @r;
        say_(sprintf "| %s | %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f"
             . " | %.2f, %.2f |",
             $k, scalar @r,
             (map { my $m = $_; median(map { $_->{cpu_full} > 0
                 ? $_->{"cpu_$m"} / $_->{cpu_full} : 1 } @r) } @skips),
             (map { my $m = $_; median(map { $_->{frames_full} > 0
                 ? $_->{"frames_$m"} / $_->{frames_full} : 1 } @r) } @skips),
             $sa, $sn);
    }
    say_('');
}


# The tables again, from a results.tsv.

sub tables {
    my ($file) = @_;
    my (@names, %rows, @h);
    open my $fh, '<', $file or die "bench: $file: $!\n";
    while (my $l = <$fh>) {
        chomp $l;
        my @f = split /\t/, $l;
        if (!@h) { @h = @f; next }
        my %r;
        @r{@h} = @f;
        push @names, $r{corpus} unless $rows{ $r{corpus} };
        push @{ $rows{ $r{corpus} } }, \%r;
    }
    close $fh;
    open $table, '>', '/dev/null' or die;
    report($_, $rows{$_}) for @names;
}


sub ratio {
    my ($x, $a) = @_;
    return $a > 0 ? sprintf('%.2f', $x / $a) : '-';
}


sub median {
    my @x = sort { $a <=> $b } @_;
    return 0 unless @x;
    my $m = @x % 2 ? $x[$#x / 2] : ($x[@x / 2 - 1] + $x[@x / 2]) / 2;
    return sprintf '%.3f', $m;
}


sub cores {
    open my $fh, '<', '/proc/cpuinfo' or return 0;
    return scalar grep { /^processor\s*:/ } <$fh>;
}


sub load {
    open my $fh, '<', '/proc/loadavg' or return '?';
    return join ' ', (split ' ', <$fh>)[0 .. 2];
}


sub say_ {
    my ($s) = @_;
    print "$s\n";
    print $table "$s\n";
}
