package VideoOCR::Units;

# What systemd would do with an installed unit, for a machine where it
# does not run (a container, CI): start, stop and reload a service from
# its unit file in /lib/systemd/system, as its User=, the way the unit
# says.  The parts of systemd.service(5) and systemd.exec(5) honoured:
#
#   Type=simple (the default) and forking (with PIDFile=)
#   ExecStartPre=, ExecStart=, ExecReload=, ExecStop= (with a leading
#     "-": its failure is ignored), word splitting with '...' and "..."
#   EnvironmentFile= and Environment=: ${NAME} is one word, $NAME is split
#     on white space, as systemd does
#   User=, Group= (and the user's other groups, as systemd gives them),
#   UMask=, PrivateNetwork=yes (a network namespace of its own)
#   KillMode=mixed and control-group: SIGTERM to the main process, then,
#     after TimeoutStopSec=, SIGKILL to whatever is left of the service
#
# The rest of the hardening (ProtectSystem=, ...) is systemd's own and
# is not reproduced: a service that runs here may still lack a
# permission it gets under systemd, never the other way round.
#
#   my $u = VideoOCR::Units->new('video-ocr-worker', log => "$dir/pool.log");
#   $u->start;  $u->main_pid;  $u->pids;  $u->stop;  $u->reload;

use strict;
use warnings;

use POSIX qw(WNOHANG setsid);
use Time::HiRes qw(sleep time);

our $UNIT_DIR = '/lib/systemd/system';


sub new {
    my ($class, $name, %a) = @_;
    my $file = "$UNIT_DIR/$name.service";
    my $self = bless { name => $name, file => $file, log => $a{log},
                       unit => _parse($file) }, $class;
    return $self;
}


# systemd is the service manager here: the packages' own scripts start
# and restart the units, and this module must not
sub systemd_runs { return -d '/run/systemd/system' }


# [Service] settings: the last of a key, or all of them (Exec*)
sub setting  { my ($self, $k) = @_; my $v = $self->{unit}{$k}; $v ? $v->[-1] : undef }
sub settings { my ($self, $k) = @_; @{ $self->{unit}{$k} // [] } }

sub main_pid { $_[0]{main_pid} }


# ExecStartPre lines, then ExecStart: a simple service's main process is
# the one started; a forking one's is read from PIDFile once the command
# has exited 0.  Dies when a command fails.
sub start {
    my ($self) = @_;

    for my $line ($self->settings('ExecStartPre')) {
        $self->_run_wait($line);
    }

    my ($line) = $self->settings('ExecStart');
    die "$self->{name}: no ExecStart\n" unless defined $line;

    my $type = $self->setting('Type') // 'simple';

    if ($type eq 'forking') {
        $self->_run_wait($line);
        my $pidfile = $self->setting('PIDFile')
            or die "$self->{name}: Type=forking without PIDFile\n";
        my $deadline = time + 10;
        my $pid;
        until (($pid = slurp($pidfile)) && kill(0, $pid =~ /(\d+)/)) {
            die "$self->{name}: no pid in $pidfile\n" if time > $deadline;
            sleep 0.05;
        }
        ($self->{main_pid}) = $pid =~ /(\d+)/;
        return $self->{main_pid};
    }

    $self->{main_pid} = $self->_spawn($line);
    return $self->{main_pid};
}


# ExecReload, or SIGHUP to the main process without one
sub reload {
    my ($self) = @_;
    my ($line) = $self->settings('ExecReload');

    if (defined $line) {
        $self->_run_wait($line);
    } else {
        kill 'HUP', $self->{main_pid};
    }
}


# ExecStop if there is one, then the KillMode: SIGTERM to the main
# process (mixed) or to all (control-group), SIGKILL to what is left
# after TimeoutStopSec.  Returns the main process's wait status when it
# was our child, else undef.
sub stop {
    my ($self) = @_;
    my $main = $self->{main_pid} or return;
    my @all = ($main, _descendants($main));

    for my $line ($self->settings('ExecStop')) {
        $self->_run_wait($line);
    }

    my $mode = $self->setting('KillMode') // 'control-group';
    kill 'TERM', $mode eq 'mixed' || $mode eq 'process' ? $main : @all;

    my $timeout = _seconds($self->setting('TimeoutStopSec') // '90s');
    my $deadline = time + $timeout;
    my $status;

    while (time < $deadline) {
        my $r = waitpid($main, WNOHANG);
        $status = $? if $r == $main;
        last if ($r == $main || $r == -1) && !grep { kill 0, $_ } @all;
        sleep 0.05;
    }

    kill 'KILL', grep { kill 0, $_ } @all;
    waitpid($main, 0) if !defined $status && waitpid($main, WNOHANG) == 0;
    delete $self->{main_pid};
    return $status;
}


# every live process of the service: the main one and its descendants
sub pids {
    my ($self) = @_;
    my $main = $self->{main_pid} or return ();
    return grep { kill 0, $_ } ($main, _descendants($main));
}


sub _run_wait {
    my ($self, $line) = @_;
    my ($prefix) = $line =~ /^([-@+!:]*)/;
    my $pid = $self->_spawn($line);
    my $ignore = $prefix =~ /-/;
    waitpid($pid, 0);
    die "$self->{name}: \"$line\" failed (status $?)\n" if $? && !$ignore;
    return $?;
}


# forks, sets up the process as the unit says, execs the command line;
# returns the pid
sub _spawn {
    my ($self, $line) = @_;
    $line =~ s/^[-@+!:]+//;
    my @argv = $self->_argv($line);

    my ($user, $group) = ($self->setting('User'), $self->setting('Group'));
    my @setpriv;
    if (defined $user) {
        @setpriv = ('setpriv', '--reuid', $user,
                    '--regid', $group // $user, '--init-groups', '--');
    }
    my @unshare = ($self->setting('PrivateNetwork') // 'no') =~ /^(yes|true|1)$/
        ? ('unshare', '--net', '--') : ();

    my %env = $self->_environment;
    my $umask = $self->setting('UMask');

    my $pid = fork // die "fork: $!\n";
    if ($pid == 0) {
        setsid();
        if ($self->{log}) {
            open STDOUT, '>>', $self->{log} or die "$self->{log}: $!\n";
            open STDERR, '>&', \*STDOUT or die "dup: $!\n";
        }
        open STDIN, '<', '/dev/null';
        umask oct($umask // '0022');            # systemd's default
        %ENV = (PATH => '/usr/local/sbin:/usr/local/bin:/usr/sbin:'
                        . '/usr/bin:/sbin:/bin', LANG => 'C.UTF-8', %env);
        chdir '/';
        exec @unshare, @setpriv, @argv;
        die "exec $argv[0]: $!\n";
    }
    return $pid;
}


# systemd's word splitting and variable expansion of a command line
sub _argv {
    my ($self, $line) = @_;
    my %env = $self->_environment;
    my @argv;

    while ($line =~ /\G\s*(?:'([^']*)'|"((?:[^"\\]|\\.)*)"|(\S+))/gc) {
        if (defined $1) { push @argv, $1; next }
        if (defined $2) { push @argv, _expand_one($2, \%env); next }
        my $w = $3;
        if ($w =~ /^\$(\w+)$/) {
            push @argv, split ' ', $env{$1} // '';
        } else {
            push @argv, _expand_one($w, \%env);
        }
    }
    return @argv;
}

sub _expand_one {
    my ($w, $env) = @_;
    $w =~ s/\$\{(\w+)\}/$env->{$1} \/\/ ''/ge;
    return $w;
}


sub _environment {
    my ($self) = @_;
    my %env;

    for my $f ($self->settings('EnvironmentFile')) {
        my $optional = $f =~ s/^-//;
        open my $fh, '<', $f or do {
            next if $optional;
            die "$self->{name}: EnvironmentFile $f: $!\n";
        };
        while (my $l = <$fh>) {
            next if $l =~ /^\s*([#;]|$)/;
            $l =~ /^\s*(\w+)\s*=\s*(.*?)\s*$/ or next;
            my ($k, $v) = ($1, $2);
            $v = $1 if $v =~ /^"(.*)"$/ || $v =~ /^'(.*)'$/;
            $env{$k} = $v;
        }
        close $fh;
    }
    for my $e ($self->settings('Environment')) {
        while ($e =~ /\G\s*(?:"(\w+)=([^"]*)"|(\w+)=(\S*))/gc) {
            $env{$1 // $3} = $2 // $4;
        }
    }
    return %env;
}


# the [Service] section, continuation lines joined
sub _parse {
    my ($file) = @_;
    open my $fh, '<', $file or die "$file: $!\n";
    my ($section, %unit, $pending) = ('');

    while (my $l = <$fh>) {
        chomp $l;
        if (defined $pending) { $l = $pending . $l; undef $pending }
        if ($l =~ s/\\$//) { $pending = "$l "; next }
        next if $l =~ /^\s*([#;]|$)/;
        if ($l =~ /^\[(.+)\]/) { $section = $1; next }
        next unless $section eq 'Service';
        $l =~ /^\s*(\w+)\s*=\s*(.*?)\s*$/ or next;
        push @{ $unit{$1} }, $2;
    }
    close $fh;
    return \%unit;
}


sub _descendants {
    my ($pid) = @_;
    my %kids;
    for my $stat (glob '/proc/[0-9]*/stat') {
        my $s = slurp($stat) // next;
        my ($p, $ppid) = $s =~ /^(\d+) \(.*\) \S (\d+)/s or next;
        push @{ $kids{$ppid} }, $p;
    }
    my @out;
    my @todo = ($pid);
    while (defined(my $p = shift @todo)) {
        for my $k (@{ $kids{$p} // [] }) { push @out, $k; push @todo, $k }
    }
    return @out;
}


sub _seconds {
    my ($v) = @_;
    return $1 * 60 if $v =~ /^(\d+)\s*min$/;
    return $1 if $v =~ /^(\d+)\s*s?$/;
    return 90;
}


# a whole file, or undef
sub slurp {
    my ($f) = @_;
    open my $fh, '<', $f or return undef;
    local $/;
    my $s = <$fh>;
    close $fh;
    return $s;
}

1;
