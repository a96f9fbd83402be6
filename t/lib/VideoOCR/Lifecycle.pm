package VideoOCR::Lifecycle;

# Helpers of the lifecycle tests (t/nginx/010-lifecycle.t,
# 012-exit-threads.t, t/pool/115-storm-lifecycle.t): nginx's processes,
# bursts of concurrent uploads, and the error log read for what must
# never be there.
#
#   my @w = workers_of($master);          # its worker processes
#   wait_gone(10, @pids);                 # until none of them exists
#   my @r = burst($stack, [keys...]);     # concurrent uploads, one each
#   my @bad = log_problems($stack->error_log, killed => \%pid);
#   my $so = exit_timing_so();            # t/lib/exit_timing.c, built

use strict;
use warnings;

use Cwd qw(abs_path);
use File::Basename qw(dirname);
use File::Temp qw(tempdir);
use POSIX ();
use Time::HiRes qw(sleep time);
use VideoOCR::Storm ();


# The children of $ppid (nginx's master: its worker processes, or a
# new master after USR2).
sub workers_of {
    my ($ppid) = @_;
    my @w;

    for my $stat (glob '/proc/[0-9]*/stat') {
        open my $fh, '<', $stat or next;
        my $line = <$fh> // next;
        my ($pid, $ppid_of) = $line =~ /^(\d+) \(.*\) \S (\d+)/ or next;
        push @w, $pid if $ppid_of == $ppid;
    }

    return @w;
}


# Whether process $pid runs (a zombie no longer does: a daemon's parent,
# init, may be slow to reap it, or never, in a container).
sub alive {
    my ($pid) = @_;
    return 0 unless kill 0, $pid;
    open my $fh, '<', "/proc/$pid/stat" or return 0;
    my $line = <$fh> // return 0;
    return $line !~ /^\d+ \(.*\) Z /;
}


# Waits until none of @pids runs, at most $seconds; returns those left.
sub wait_gone {
    my ($seconds, @pids) = @_;
    my $deadline = time + $seconds;
    my @left = @pids;

    while (@left && time < $deadline) {
        sleep 0.02;
        @left = grep { alive($_) } @left;
    }

    return @left;
}


# The pid in nginx's pid file $file, or undef.
sub pid_in {
    my ($file) = @_;
    open my $fh, '<', $file or return;
    my $pid = <$fh> // return;
    return $pid =~ /^(\d+)/ ? $1 : undef;
}


# One upload per key, all at once (a process each); returns
# { key, status, job, replayed } per key, in order.  The body is
# VideoOCR::Storm::body($key, 'A', $size).
sub burst {
    my ($stack, $keys, %a) = @_;
    my $size = $a{size} // 2048;
    my $dir = tempdir('burst-XXXXXX', DIR => $stack->dir, CLEANUP => 1);
    my @pids;

    for my $i (0 .. $#$keys) {
        my $pid = fork // die "fork: $!\n";

        if ($pid == 0) {
            my $key = $keys->[$i];
            my $r = eval {
                $stack->upload($key, VideoOCR::Storm::body($key, 'A', $size))
            } // { status => 0, body => '', headers => {} };
            my ($job) = $r->{body} =~ /"job_id":"([0-9a-f]{32})"/;
            open my $out, '>', "$dir/$i" or POSIX::_exit(1);
            print {$out} join(' ', $r->{status}, $job // '-',
                              ($r->{headers}{'idempotent-replayed'} // '')
                              eq 'true' ? 1 : 0), "\n";
            close $out;
            POSIX::_exit(0);
        }

        push @pids, $pid;
    }

    waitpid $_, 0 for @pids;

    my @out;

    for my $i (0 .. $#$keys) {
        my ($status, $job, $replayed) = (0, '-', 0);

        if (open my $in, '<', "$dir/$i") {
            ($status, $job, $replayed) = split ' ', (<$in> // '0 - 0');
        }

        push @out, { key => $keys->[$i], status => $status, job => $job,
                     replayed => $replayed };
    }

    return @out;
}


# What the error log must not hold, as a list of sentences: a process
# of nginx that exited on a signal the test did not send (the pids in
# %$killed got SIGKILL from it), any [alert] or [emerg] but nginx's
# report of those kills, a worker that did not finish its exit.
sub log_problems {
    my ($log, %a) = @_;
    my $killed = $a{killed} // {};
    my @problems;

    for my $line (split /\n/, $log) {
        if ($line =~ /worker process (\d+) exited on signal (\d+)/) {
            my ($pid, $sig) = ($1, $2);
            next if $sig == 9 && $killed->{$pid};
            push @problems, "a signal the test did not send: $line";
            next;
        }

        push @problems, $line if $line =~ /\[(?:alert|emerg)\]/;
    }

    return @problems;
}


# The masters in the log that did not log their "exit": a master process
# that died, or has not stopped yet.
sub masters_not_exited {
    my ($log, @masters) = @_;
    return grep { $log !~ /\b$_#$_: exit$/m } @masters;
}


# t/lib/exit_timing.c built as a shared object (in a directory of its
# own, removed at exit); dies when it does not build.
my $so;

sub exit_timing_so {
    return $so if $so;

    my $src = abs_path(dirname(__FILE__) . '/../exit_timing.c');
    my $dir = tempdir('exit-timing-XXXXXX', TMPDIR => 1, CLEANUP => 1);
    chmod 0755, $dir;

    my $cc = $ENV{CC} // 'cc';
    my $out = `$cc -shared -fPIC -O2 -Wall -Wextra -Werror -o $dir/exit_timing.so $src -ldl 2>&1`;
    die "exit_timing.c does not build: $out\n" if $?;

    return $so = "$dir/exit_timing.so";
}


1;
