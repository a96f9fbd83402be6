package VideoOCR::Stack;

# The whole product on one machine for the worker suites: the real nginx
# with the module on a private port and directory, and a real
# "video-ocr-worker run" pool on the same ledger and store.  Everything
# started here is stopped when the object goes away, whatever happens.
#
#   my $s = VideoOCR::Stack->new(workers => 2, worker_args => [...]);
#   my $r = $s->upload('key', $bytes, args => 'fps=1');
#   $s->wait_state($job_id, 'done', 60);
#   my @rows = $s->rows('SELECT ...');
#
# The ledger is an SQLite file in the stack's directory, or in a
# PostgreSQL run (VideoOCR::Test::pg) a fresh PostgreSQL ledger.  Several
# stacks may share one: ledger => $other->ledger, store => $other->store
# (two "hosts" of one deployment).
#
# For the lifecycle tests: worker_processes => N (default 2), main_config
# => '...' (directives of nginx's main context), nginx_env => { NAME =>
# value } (the environment nginx starts in, e.g. LD_PRELOAD).

use strict;
use warnings;

use Cwd qw(abs_path);
use File::Temp qw(tempdir);
use IO::Socket::INET;
use JSON::PP;
use POSIX qw(WNOHANG);
use Time::HiRes qw(sleep time);
use VideoOCR::Test ();

my $serial = 0;


sub new {
    my ($class, %a) = @_;

    my $self = bless {
        nginx   => $ENV{NGINX_BIN} // '/usr/sbin/nginx',
        module  => (split ' ', $ENV{TEST_NGINX_LOAD_MODULES}
                               // $ENV{MODULE_SO} // '')[0],
        worker  => $ENV{WORKER_BIN} // abs_path('build/video-ocr-worker'),
        dir     => tempdir('video-ocr-stack-XXXXXX', TMPDIR => 1,
                           CLEANUP => !$ENV{VIDEO_OCR_KEEP}),
        port    => $a{port} // _free_port(19000 + ($$ % 500) * 2 + $serial++),
        workers => $a{workers} // 2,
        store   => $a{store},
        ledger  => $a{ledger},
        wargs   => $a{worker_args} // [],
        nworkers => $a{worker_processes} // 2,
        main    => $a{main_config} // '',
        env     => $a{nginx_env} // {},
    }, $class;

    my $d = $self->{dir};
    $self->{store} //= "$d/store";
    $self->{ledger} //= VideoOCR::Test::pg()
        ? VideoOCR::Test::new_pg_ledger('s' . $$ . '_' . $serial)
        : "$d/data/ledger.db";
    mkdir "$d/$_" for qw(logs data);
    mkdir $self->{store};
    chmod 0777, $d, "$d/data", $self->{store};

    $self->write_conf($a{http_config} // '');
    return $self if $a{no_start};
    $self->start_nginx;
    $self->start_worker unless $a{no_worker};

    return $self;
}


# $want if nothing listens there, else a random free one: the machine
# may run other suites (or other people's) with the same scheme.
sub _free_port {
    my ($want) = @_;

    for my $try (0 .. 49) {
        my $port = $try ? 20000 + int(rand 5000) : $want;
        my $s = IO::Socket::INET->new(LocalAddr => '127.0.0.1',
                                      LocalPort => $port, Proto => 'tcp',
                                      Listen => 1, ReuseAddr => 1);
        next unless $s;
        close $s;
        return $port;
    }

    die "no free port for a test nginx\n";
}


sub dir    { $_[0]{dir} }
sub ledger { $_[0]{ledger} }
sub store  { $_[0]{store} }
sub port   { $_[0]{port} }


sub write_conf {
    my ($self, $extra) = @_;
    my $d = $self->{dir};
    my $main = $self->{main};

    s/%DIR%/$d/g for $extra, $main;

    # as root, nginx's workers run as nobody: the directories are 0777
    open my $fh, '>', "$d/nginx.conf" or die "$d/nginx.conf: $!";
    print {$fh} <<"CONF";
load_module $self->{module};
worker_processes $self->{nworkers};
$main
error_log $d/logs/error.log info;
pid $d/logs/nginx.pid;
events { worker_connections 256; }
http {
    access_log $d/logs/access.log;
    video_ocr_ledger "$self->{ledger}";
    video_ocr_store $self->{store};
    client_body_temp_path $self->{store}/.incoming;
    $extra
    server {
        listen 127.0.0.1:$self->{port};
        # a prefix location: resumable uploads are URLs below it
        location /upload {
            video_ocr_intake;
            client_max_body_size 256m;
        }
        location /jobs/ {
            video_ocr_jobs;
        }
        location = /metrics {
            video_ocr_metrics;
        }
        location = /search {
            video_ocr_search;
        }
    }
}
CONF
    close $fh;
}


# nginx -t on the configuration: (exit code, output)
sub nginx_t {
    my ($self) = @_;
    my $d = $self->{dir};
    my $out = `$self->{nginx} -p $d -c $d/nginx.conf -t 2>&1`;
    return ($? >> 8, $out);
}


sub start_nginx {
    my ($self) = @_;
    my $d = $self->{dir};

    local %ENV = (%ENV, %{ $self->{env} });
    my $out = `$self->{nginx} -p $d -c $d/nginx.conf 2>&1`;
    die "nginx did not start: $out\n" if $?;

    for (1 .. 100) {
        if (open my $fh, '<', "$d/logs/nginx.pid") {
            my $pid = <$fh>;
            if ($pid && $pid =~ /^(\d+)/) {
                # kept here: at global destruction the directory (and the
                # pid file) may already be gone
                $self->{nginx_pid} = $1;
                return;
            }
        }
        sleep 0.05;
    }

    die "nginx wrote no pid file\n";
}


sub nginx_pid { $_[0]{nginx_pid} }


# "video-ocr-worker run" in the background, its log in logs/worker.log.
sub start_worker {
    my ($self, @extra) = @_;
    my $d = $self->{dir};

    my $pid = fork // die "fork: $!\n";

    if ($pid == 0) {
        open STDOUT, '>>', "$d/logs/worker.out" or die $!;
        open STDERR, '>>', "$d/logs/worker.log" or die $!;
        exec $self->{worker}, 'run', '--ledger', $self->{ledger},
             '--store', $self->{store}, '--workers', $self->{workers},
             '--poll', '100ms', @{ $self->{wargs} }, @extra
            or POSIX::_exit(127);
    }

    $self->{worker_pid} = $pid;

    return $pid;
}


sub worker_pid { $_[0]{worker_pid} }


# The children of the supervisor, by slot, read from its log.
sub children {
    my ($self) = @_;
    my %slot;

    for ($self->worker_log) {
        $slot{$1} = $2 while /supervisor: slot (\d+): started child (\d+)/g;
    }

    return %slot;
}


sub worker_log { return _slurp("$_[0]{dir}/logs/worker.log") }
sub error_log  { return _slurp("$_[0]{dir}/logs/error.log") }

sub _slurp {
    my ($file) = @_;
    open my $fh, '<', $file or return '';
    local $/;
    return <$fh> // '';
}


# Stops the supervisor with SIGTERM and returns its exit status.
sub stop_worker {
    my ($self, $timeout) = @_;
    my $pid = delete $self->{worker_pid} or return;

    kill 'TERM', $pid;

    my $deadline = time + ($timeout // 30);
    while (time < $deadline) {
        my $r = waitpid $pid, WNOHANG;
        return $? if $r == $pid;
        sleep 0.05;
    }

    kill 'KILL', $pid;
    waitpid $pid, 0;
    return -1;
}


sub stop_nginx {
    my ($self) = @_;
    my $pid = delete $self->{nginx_pid} or return;

    kill 'QUIT', $pid;

    # 10 s, or more where the harness is told to wait longer (sanitizers)
    my $deadline = time + 3 * ($ENV{TEST_NGINX_TIMEOUT} // 3.4);

    while (time < $deadline) {
        return unless kill 0, $pid;
        sleep 0.05;
    }

    kill 'KILL', $pid;
}


sub DESTROY {
    my ($self) = @_;
    local ($?, $@);
    $self->stop_worker(5);
    $self->stop_nginx;
}


sub http {
    my ($self, %a) = @_;
    return _request($self->{port}, %a);
}


sub upload {
    my ($self, $key, $body, %a) = @_;
    my $uri = '/upload' . (defined $a{args} ? "?$a{args}" : '');
    return $self->http(method => 'POST', uri => $uri,
                       headers => ['Idempotency-Key' => $key],
                       body => $body);
}


sub status {
    my ($self, $job, $format) = @_;
    my $r = $self->http(uri => "/jobs/$job"
                               . ($format ? "?format=$format" : ''));
    return $format ? $r : (eval { decode_json($r->{body}) } // {});
}


# GET /search?$args: the decoded reply (its status in {status}).
sub search {
    my ($self, $args) = @_;
    my $r = $self->http(uri => "/search?$args");
    my $b = eval { decode_json($r->{body}) } // {};
    $b->{status} = $r->{status};
    return $b;
}


# Waits until the job is in one of the states (a regexp), returns its
# status document, or the last one seen on timeout.
sub wait_state {
    my ($self, $job, $states, $seconds) = @_;
    my $deadline = time + ($seconds // 60);
    my $s = {};

    while (time < $deadline) {
        $s = $self->status($job);
        return $s if ($s->{state} // '') =~ /^(?:$states)$/;
        sleep 0.1;
    }

    return $s;
}


sub rows {
    my ($self, $sql, @bind) = @_;
    return VideoOCR::Test::ledger_rows($sql, { ledger => $self->{ledger} },
                                       @bind);
}


sub _request {
    my ($port, %a) = @_;

    my $sock = IO::Socket::INET->new(PeerAddr => '127.0.0.1',
                                     PeerPort => $port, Proto => 'tcp',
                                     Timeout => 5)
        or die "connect to 127.0.0.1:$port: $!\n";

    my $body = $a{body};
    my @h = @{ $a{headers} // [] };
    my $req = ($a{method} // 'GET') . " $a{uri} HTTP/1.1\r\nHost: localhost"
              . "\r\nConnection: close\r\n";

    while (my ($k, $v) = splice(@h, 0, 2)) {
        $req .= "$k: $v\r\n";
    }

    $req .= defined $body ? 'Content-Length: ' . length($body)
                            . "\r\n\r\n$body"
                          : "\r\n";

    while (length $req) {
        my $n = syswrite($sock, $req) // die "write: $!\n";
        substr($req, 0, $n, '');
    }

    my $raw = '';
    while (sysread($sock, my $buf, 65536)) {
        $raw .= $buf;
    }
    close $sock;

    my ($head, $resp) = split /\r\n\r\n/, $raw, 2;
    my ($line, @lines) = split /\r\n/, $head // '';
    my ($status) = ($line // '') =~ /^HTTP\/1\.\d (\d+)/;
    my %headers = map { my ($k, $v) = split /:\s*/, $_, 2; (lc $k, $v) }
                  @lines;

    return { status => $status // 0, headers => \%headers,
             body => $resp // '' };
}


1;
