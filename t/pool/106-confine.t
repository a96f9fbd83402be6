# The confinement of the pool (worker/pool/vw_confine.h), tested as root the
# way CI runs: the pool drops to nobody, lives in a network namespace of
# its own, its OCR children carry their resource limits, and hitting a
# limit ends the job with a clear code while the child lives on.  FFmpeg
# opens nothing but the job's own file: a playlist pointing at a local
# listener is refused and the listener sees no connection.

use strict;
use warnings;

use IO::Select;
use IO::Socket::INET;
use JSON::PP;
use Test::More;
use Time::HiRes qw(sleep time);
use VideoOCR::Media qw(make_video tmpdir);
use VideoOCR::Stack;

plan skip_all => 'the pool changes user and network only as root'
    if $> != 0;

# Under AddressSanitizer (scripts/asan.sh sets VIDEO_OCR_SANITIZER) a
# child cannot start under any address-space limit: ASan reserves
# terabytes for its shadow memory.  The pools run with --max-memory 0
# there, and the checks of that limit are skipped; all the others run.
my $sanitizer = $ENV{VIDEO_OCR_SANITIZER};

my $worker = $ENV{WORKER_BIN} // 'build/video-ocr-worker';
my $dir = tmpdir();
my $slurp = sub { local (@ARGV, $/) = $_[0]; <> };

sub proc_field {
    my ($pid, $file, $re) = @_;
    open my $fh, '<', "/proc/$pid/$file" or return;
    local $/;
    my $t = <$fh>;
    return $t =~ $re ? $1 : undef;
}

sub job_of { decode_json($_[0]{body})->{job_id} }

# a listener that counts the connections it was offered
my $listener = IO::Socket::INET->new(LocalAddr => '127.0.0.1', LocalPort => 0,
                                     Listen => 16, ReuseAddr => 1)
    or die "listen: $!";
my $lport = $listener->sockport;

sub connections {
    my $n = 0;
    my $sel = IO::Select->new($listener);
    while ($sel->can_read(0.2)) {
        my $c = $listener->accept or last;
        $n++;
        close $c;
    }
    return $n;
}

my $small = make_video(path => "$dir/small.mp4", duration => 2,
                       spans => [{ start => 0, end => 2,
                                   text => 'Confined but fine' }]);

# --- user, network, limits ------------------------------------------------

my @max_memory = $sanitizer ? () : ('--max-memory', '1g');
my $s = VideoOCR::Stack->new(workers => 1,
                             worker_args => [@max_memory,
                                             '--max-open-files', '128',
                                             '--max-file-size', '2g',
                                             '--retry-backoff', '100ms']);
sleep 0.5;
my %c = $s->children;
my $child = $c{0};
ok($child, "the OCR child runs: $child");

my $nobody = getpwnam('nobody');
is(proc_field($s->worker_pid, 'status', qr/^Uid:\s+(\d+)/m), $nobody,
   'the supervisor runs as nobody');
is(proc_field($child, 'status', qr/^Uid:\s+(\d+)\s+(\d+)\s+(\d+)/m), $nobody,
   'the child too');
is(proc_field($child, 'status', qr/^NoNewPrivs:\s+(\d+)/m), 1,
   'and can gain no privileges (no_new_privs)');
like($s->worker_log, qr/running as user "nobody"/, 'the log says so');

SKIP: {
    skip "no RLIMIT_AS under $sanitizer", 1 if $sanitizer;
    is(proc_field($child, 'limits', qr/^Max address space\s+(\d+)/m), 1 << 30,
       'RLIMIT_AS is --max-memory');
}
is(proc_field($child, 'limits', qr/^Max open files\s+(\d+)/m), 128,
   'RLIMIT_NOFILE is --max-open-files');
is(proc_field($child, 'limits', qr/^Max file size\s+(\d+)/m), 2 << 30,
   'RLIMIT_FSIZE is --max-file-size');

# the namespace: another one than ours, and nothing can be reached from it
# (a PostgreSQL ledger is reached over the network: the pool keeps it)
if (VideoOCR::Test::pg()) {
    is(readlink("/proc/$child/ns/net"), readlink('/proc/self/ns/net'),
       'a PostgreSQL ledger: the child keeps the host\'s network');
} else {
    isnt(readlink("/proc/$child/ns/net"), readlink('/proc/self/ns/net'),
         'the child has a network namespace of its own');
    my $probe = "perl -MIO::Socket::INET -e 'exit(IO::Socket::INET->new("
                . "PeerAddr => q(127.0.0.1:$lport), Timeout => 2) ? 0 : 1)'";
    is(system($probe), 0, 'from the host, the listener accepts connections');
    is(connections(), 1, '... one seen');
    isnt(system("nsenter --net=/proc/$child/ns/net $probe 2>/dev/null"), 0,
         'from the child\'s namespace, connecting to it fails');
    is(connections(), 0, '... none seen');
}

my $r = $s->upload('small', $slurp->($small));
my $st = $s->wait_state(job_of($r), 'done|failed|rejected', 60);
is($st->{state}, 'done', 'a job is done within these limits');

# FFmpeg opens nothing but the job's file: an HLS playlist and an SDP
# session naming the listener, behind an MP4 signature that passes the
# edge's sniffer
my %hostile = (
    hls => "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\n"
           . "http://127.0.0.1:$lport/seg0.ts\n#EXT-X-ENDLIST\n",
    sdp => "v=0\no=- 0 0 IN IP4 127.0.0.1\ns=x\nc=IN IP4 127.0.0.1\n"
           . "t=0 0\nm=video $lport RTP/AVP 96\na=rtpmap:96 H264/90000\n",
    concat => "ffconcat version 1.0\nfile 'http://127.0.0.1:$lport/a.mp4'\n",
);

for my $name (sort keys %hostile) {
    my $file = "$dir/$name.txt";
    open my $fh, '>', $file or die $!;
    print {$fh} $hostile{$name};
    close $fh;

    my $out = `$worker ocr $file 2>&1`;
    is($? >> 8, 65, "ocr $name: refused as invalid input");
    like($out, qr/not_a_video/, "ocr $name: not a video");

    $r = $s->upload("hostile-$name",
                    "\0\0\0\x18ftypisom\0\0\x02\0isomiso2" . $hostile{$name});
    is($r->{status}, 202, "$name behind an MP4 signature: admitted");
    $st = $s->wait_state(job_of($r), 'done|failed|rejected', 60);
    is($st->{state}, 'rejected', "$name: rejected by the worker");
}

is(connections(), 0, 'the listener saw no connection from FFmpeg');

# --- the memory limit -----------------------------------------------------

SKIP: {
    skip "no RLIMIT_AS under $sanitizer", 5 if $sanitizer;

    my $big = make_video(path => "$dir/big.mp4", duration => 2,
                         size => '3840x2160',
                         spans => [{ start => 0, end => 2, size => 80,
                                     text => 'A frame too big for 300m' }]);
    $s = VideoOCR::Stack->new(workers => 1,
                              worker_args => ['--max-memory', '300m',
                                              '--retry-backoff', '100ms']);
    sleep 0.5;
    %c = $s->children;
    $child = $c{0};

    $r = $s->upload('big', $slurp->($big));
    $st = $s->wait_state(job_of($r), 'done|failed|rejected', 120);
    is($st->{state}, 'failed', '4K frames in 300m of address space: failed');
    is($st->{error}{code}, 'no_memory', 'code no_memory');
    like($st->{error}{message}, qr/--max-memory 300m/,
         'the message names the limit');

    %c = $s->children;
    is($c{0}, $child, 'the child lived through it');
    $r = $s->upload('small', $slurp->($small));
    $st = $s->wait_state(job_of($r), 'done|failed|rejected', 60);
    is($st->{state}, 'done', 'and does the next job');
}

# --- the CPU budget -------------------------------------------------------

# about 6 s of CPU on this machine's cores (the CLI takes 1.9 s for a
# third of it)
my $long = make_video(path => "$dir/long.mp4", duration => 120,
                      size => '1280x720',
                      spans => [map { { start => $_ * 0.5,
                                        end => $_ * 0.5 + 0.45, size => 40,
                                        text => "Budget line $_ with a longer"
                                                . ' sentence to read' } }
                                0 .. 239]);
$s = VideoOCR::Stack->new(workers => 1, worker_args => ['--max-cpu', '1s']);
sleep 0.5;
%c = $s->children;
$child = $c{0};

$r = $s->upload('long', $slurp->($long), args => 'fps=2');
$st = $s->wait_state(job_of($r), 'done|failed|rejected', 120);
is($st->{state}, 'rejected', '240 frames in 1 s of CPU: rejected');
is($st->{error}{code}, 'cpu_limit', 'code cpu_limit');
like($st->{error}{message}, qr/CPU budget of 1s \(--max-cpu\) at frame \d+/,
     'the message says where: ' . ($st->{error}{message} // ''));
is($st->{attempts}, 1, 'not retried: it would take as long again');

%c = $s->children;
is($c{0}, $child, 'the child lived through it');
$r = $s->upload('small', $slurp->($small));
$st = $s->wait_state(job_of($r), 'done|failed|rejected', 60);
is($st->{state}, 'done', 'and does the next job within its own budget');
undef $s;

# --- bad values -----------------------------------------------------------

my $ledger = "$dir/ledger.db";
for my $case (['--user', 'no-such-user-here', 78, qr/no user "no-such-user-here"/],
              ['--user', 'nobody:no-such-group', 78, qr/no group/],
              ['--max-memory', '10k', 64, qr/at least 64m/],
              ['--max-memory', 'lots', 64, qr/--max-memory "lots"/],
              ['--max-cpu', '-1', 64, qr/--max-cpu/],
              ['--max-open-files', '8', 64, qr/at least 32/],
              ['--max-file-size', '2x', 64, qr/--max-file-size "2x"/])
{
    my ($flag, $value, $code, $re) = @$case;
    my $out = `timeout 10 $worker run --ledger $ledger --store $dir $flag $value 2>&1`;
    is($? >> 8, $code, "$flag $value: exit $code");
    like($out, $re, "$flag $value: says why");
}

done_testing();
