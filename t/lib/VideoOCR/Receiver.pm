package VideoOCR::Receiver;

# The webhook receiver of the tests (t/webhooks/receiver.mjs, node): a
# real HTTP server that verifies every delivery with the standardwebhooks
# package from npm and logs it.  scripts/test.sh installs the package
# from t/webhooks/package-lock.json.
#
#   my $rx = VideoOCR::Receiver->new(secrets => [$s1, $s2]);
#   my $url = $rx->url('/ok');
#   my @d = $rx->answered;          # every answered delivery, in order
#   $rx->stop; $rx->start;          # down, then back on the same port

use strict;
use warnings;

use Cwd qw(abs_path);
use File::Temp qw(tempdir);
use JSON::PP;
use POSIX qw(WNOHANG);
use Time::HiRes qw(sleep time);

my $dir = abs_path('t/webhooks');


sub new {
    my ($class, %a) = @_;

    die "t/webhooks/node_modules is missing: scripts/test.sh installs it"
        . " (npm ci in t/webhooks)\n"
        unless -d "$dir/node_modules/standardwebhooks";

    my $self = bless {
        secrets => $a{secrets} // [],
        tmp     => tempdir('video-ocr-rx-XXXXXX', TMPDIR => 1,
                           CLEANUP => !$ENV{VOCR_KEEP}),
        port    => $a{port} // 0,
        tls     => $a{tls},             # [cert.pem, key.pem]: HTTPS
    }, $class;

    $self->{log} = "$self->{tmp}/deliveries.jsonl";
    $self->start;

    return $self;
}


sub start {
    my ($self) = @_;

    pipe(my $r, my $w) or die "pipe: $!";
    my $pid = fork // die "fork: $!";

    if ($pid == 0) {
        close $r;
        open STDOUT, '>&', $w or die $!;
        open STDERR, '>>', "$self->{tmp}/receiver.err" or die $!;
        exec 'node', "$dir/receiver.mjs", '--log', $self->{log},
             '--port', $self->{port},
             ($self->{tls} ? ('--tls-cert', $self->{tls}[0],
                              '--tls-key', $self->{tls}[1]) : ()),
             map { ('--secret', $_) } @{ $self->{secrets} }
            or POSIX::_exit(127);
    }

    close $w;
    my $line = <$r>;
    close $r;

    die "the receiver did not start: " . $self->stderr . "\n"
        unless $line && $line =~ /^listening (\d+)/;

    $self->{port} = $1;
    $self->{pid} = $pid;

    return $self;
}


sub stop {
    my ($self) = @_;
    my $pid = delete $self->{pid} or return;

    kill 'TERM', $pid;

    for (1 .. 100) {
        return if waitpid($pid, WNOHANG) == $pid;
        sleep 0.05;
    }

    kill 'KILL', $pid;
    waitpid $pid, 0;
}


sub DESTROY {
    my ($self) = @_;
    local ($?, $@);
    $self->stop;
}


sub port { $_[0]{port} }
sub url  { ($_[0]{tls} ? 'https' : 'http') . "://127.0.0.1:$_[0]{port}$_[1]" }

sub stderr {
    my ($self) = @_;
    open my $fh, '<', "$self->{tmp}/receiver.err" or return '';
    local $/;
    return <$fh> // '';
}


# Every log line, in order, as hashes.
sub lines {
    my ($self) = @_;
    my @lines;

    open my $fh, '<', $self->{log} or return ();
    while (<$fh>) {
        push @lines, decode_json($_);
    }
    close $fh;

    return @lines;
}

sub arrived  { grep { $_->{phase} eq 'arrived' } $_[0]->lines }
sub answered { grep { $_->{phase} eq 'answered' } $_[0]->lines }


# Waits until $cond->(answered lines) is true; returns its last value.
sub wait_for {
    my ($self, $seconds, $cond) = @_;
    my $deadline = time + $seconds;
    my $v;

    until (($v = $cond->($self->answered)) || time >= $deadline) {
        sleep 0.1;
    }

    return $v;
}


1;
