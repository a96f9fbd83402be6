# Webhooks when things die: no notification is lost, a duplicate carries
# the same webhook-id (seed 002: a delivery whose answer was lost is
# sent again under its identity, never as a new event), nothing is told
# of a job that was not in that state, and each job's events arrive in
# order.  Real processes, real signals, the real receiver (every delivery
# verified with the npm package standardwebhooks).
#
#   1. kill -9 of the deliverer before its request is sent (claimed, in
#      the TLS handshake with a receiver that is stopped), during it (a
#      slow receiver), and after it (answered, the ledger locked so the
#      outcome cannot be recorded);
#   2. kill -9 at random moments while notifications flow (3 kills, 8
#      jobs; make soak: WEBHOOK_KILLS=30, WEBHOOK_JOBS=100);
#   3. the receiver down for a while, then back on the same port.

use strict;
use warnings;

use JSON::PP;
use Test::More;
use Time::HiRes qw(sleep time);
use VideoOCR::Media qw(tmpdir);
use VideoOCR::Receiver;
use VideoOCR::Stack;
use VideoOCR::Test qw(wait_for);

my $worker = $ENV{WORKER_BIN} // 'build/video-ocr-worker';
my $dir = tmpdir();
chmod 0755, $dir;

my $secret = `$worker webhooks secret`;
chomp $secret;

my $junk = "\0\0\0\x18ftypisom\0\0\x02\0isomiso2"
           . join('', map { chr(($_ * 31 + 7) % 256) } 1 .. 4000);

system("openssl req -x509 -newkey rsa:2048 -nodes -keyout $dir/ca.key -out"
       . " $dir/ca.pem -days 2 -subj /CN=vo-test-ca >/dev/null 2>&1"
       . " && openssl req -newkey rsa:2048 -nodes -keyout $dir/leaf.key -out"
       . " $dir/leaf.csr -subj /CN=127.0.0.1 >/dev/null 2>&1"
       . " && printf 'subjectAltName=IP:127.0.0.1' > $dir/leaf.ext"
       . " && openssl x509 -req -in $dir/leaf.csr -CA $dir/ca.pem -CAkey"
       . " $dir/ca.key -CAcreateserial -out $dir/leaf.pem -days 2 -extfile"
       . " $dir/leaf.ext >/dev/null 2>&1") == 0
    or die "openssl failed\n";
chmod 0644, glob("$dir/*.pem");

my $rx = VideoOCR::Receiver->new(secrets => [$secret]);
my $tls = VideoOCR::Receiver->new(secrets => [$secret],
                                  tls => ["$dir/leaf.pem", "$dir/leaf.key"]);

my $hooks = join ' ', map { "$_->[0] \"$_->[1]\";" }
    [during => $rx->url('/slow/1000')], [after => $rx->url('/slow/700')],
    [before => $tls->url('/ok')], [chaos => $rx->url('/slow/300')];

my $s = VideoOCR::Stack->new(workers => 1,
    http_config => "video_ocr_tenant \$http_x_tenant;"
        . " map \$http_x_tenant \$vo_hook { default \"" . $rx->url('/ok')
        . "\"; $hooks } video_ocr_webhook \$vo_hook;"
        . " video_ocr_webhook_secret $secret; video_ocr_webhook_accepted on;",
    worker_args => ['--allow-network', '--webhook-allow', '127.0.0.1/32',
                    '--lease', '2s', '--heartbeat', '300ms',
                    '--webhook-timeout', '1500ms', '--webhook-ca-file',
                    "$dir/ca.pem", '--webhook-retry',
                    '0,300ms,500ms,1s,1s,1s,1s,1s,1s,1s,1s,1s']);

sub upload {
    my ($tenant, $key, $body) = @_;
    my $r = $s->http(method => 'POST', uri => '/upload', body => $body,
                     headers => ['Idempotency-Key' => $key,
                                 'X-Tenant' => $tenant]);
    die "upload $key: $r->{status} $r->{body}\n" unless $r->{status} == 202;
    return decode_json($r->{body})->{job_id};
}

# the running deliverer's pid (the supervisor logs every start)
sub deliverer {
    my $pid;
    wait_for(10, sub {
        my @p = $s->worker_log =~ /slot \d+: started deliverer (\d+)/g;
        $pid = $p[-1];
        return $pid && kill(0, $pid)
               && $s->worker_log =~ /\[$pid\] deliverer: ready/;
    });
    return $pid;
}

sub kill9 {
    my ($pid) = @_;
    kill 'KILL', $pid;
    wait_for(5, sub { !kill(0, $pid) || zombie($pid) });
}

# the pids the supervisors of this stack started that still run
sub children_alive {
    my @p = $s->worker_log =~ /started (?:child|janitor|deliverer) (\d+)/g;
    return grep { kill(0, $_) && !zombie($_) } @p;
}

sub zombie {
    open my $fh, '<', "/proc/$_[0]/stat" or return 1;
    return ((<$fh> // '') =~ /^\d+ \(.*\) Z/) ? 1 : 0;
}

sub notes {
    my ($job) = @_;
    return $s->rows('SELECT * FROM notifications WHERE job_id = ? ORDER BY id',
                    $job);
}

sub attempts {
    my ($msg) = @_;
    return $s->rows('SELECT a.* FROM notification_attempts a JOIN'
                    . ' notifications n ON n.id = a.notification_id'
                    . ' WHERE n.msg_id = ? ORDER BY a.attempt', $msg);
}

sub all_delivered {
    my ($secs, @jobs) = @_;
    return wait_for($secs, sub {
        !grep { $_->{state} ne 'delivered' } map { notes($_) } @jobs;
    });
}

# every end of a job is told once it is delivered: the job's state and
# the bodies agree, each id's deliveries are one body, verified
sub check_job {
    my ($rcv, $job, $what) = @_;
    my @n = notes($job);
    my ($st) = $s->rows('SELECT state FROM jobs WHERE job_id = ?', $job);
    my %ids = map { $_->{msg_id} => $_ } @n;
    my @got = grep { ($_->{job} // '') eq $job } $rcv->answered;
    my @bad = grep { !$ids{$_->{id}} || !$_->{verified}[0]
                     || $_->{body} ne $ids{$_->{id}}{payload} } @got;
    is(scalar @bad, 0, "$what: every delivery verified, under a known"
                       . ' webhook-id, with its one body');
    my ($end) = grep { $_->{type} ne 'job.accepted' } @n;
    is(decode_json($end->{payload})->{data}{state}, $st->{state},
       "$what: told $end->{type} of a job that is $st->{state}");
    my ($acc) = grep { $_->{type} eq 'job.accepted' } @n;
    my @t_acc = map { $_->{arrived} } grep { $_->{id} eq $acc->{msg_id} } @got;
    my @t_end = map { $_->{arrived} } grep { $_->{id} eq $end->{msg_id} } @got;
    ok(@t_acc && @t_end && (sort { $b <=> $a } @t_acc)[0]
                           < (sort { $a <=> $b } @t_end)[0],
       "$what: in order: every job.accepted before its end");
    return @got;
}

# --- 1. before, during, after -------------------------------------------

# during: the receiver takes 1 s, the deliverer is killed half way
{
    my $pid = deliverer();
    my $job = upload('during', 'k-during', $junk . 'd');
    ok($rx->wait_for(20, sub { grep { ($_->{job} // '') eq $job } @_ }),
       'during: job.accepted delivered first');
    my $end;
    wait_for(20, sub { ($end) = grep { $_->{type} ne 'job.accepted' }
                                notes($job); $end });
    ok(wait_for(20, sub { grep { $_->{id} eq $end->{msg_id} } $rx->arrived }),
       'during: its end is being sent');
    sleep 0.4;
    kill9($pid);
    ok(all_delivered(30, $job), 'during: kill -9 mid-request, then delivered');
    my @got = grep { $_->{id} eq $end->{msg_id} } $rx->arrived;
    is(scalar @got, 2, 'sent twice, the same webhook-id both times');
    my @a = attempts($end->{msg_id});
    is_deeply([map { $_->{outcome} } @a], ['sending', 'delivered'],
              'the killed attempt stays "sending", the next one delivered');
    check_job($rx, $job, 'during');
}

# after: answered, but the ledger is locked: the outcome is never written
{
    my $pid = deliverer();
    my $job = upload('after', 'k-after', $junk . 'a');
    my $acc;
    wait_for(20, sub { ($acc) = notes($job); $acc });
    ok(wait_for(20, sub { grep { $_->{id} eq $acc->{msg_id} } $rx->arrived }),
       'after: job.accepted is being sent');
    my $lock = VideoOCR::Test::hold_ledger_lock(3, ledger => $s->ledger,
                   tables => 'notifications, notification_attempts');
    ok($rx->wait_for(5, sub { grep { $_->{id} eq $acc->{msg_id} } @_ }),
       'after: answered 200 while the ledger is locked');
    sleep 0.5;
    kill9($pid);
    waitpid $lock, 0;
    ok(all_delivered(30, $job), 'after: kill -9 before the outcome was'
                                . ' recorded, then delivered');
    my @got = grep { $_->{id} eq $acc->{msg_id} } $rx->answered;
    is(scalar @got, 2, 'the receiver got it twice: the lost answer,'
                       . ' then the same webhook-id again');
    is_deeply([map { $_->{outcome} } attempts($acc->{msg_id})],
              ['sending', 'delivered'], 'as the attempts say');
    check_job($rx, $job, 'after');
}

# before: claimed, connected, in the TLS handshake with a stopped receiver:
# no request was sent when the deliverer dies
{
    my $pid = deliverer();
    kill 'STOP', $tls->{pid};
    my $job = upload('before', 'k-before', $junk . 'b');
    my $acc;
    ok(wait_for(20, sub { ($acc) = notes($job);
                          $acc && attempts($acc->{msg_id}) }),
       'before: claimed (an attempt is "sending")');
    sleep 0.3;
    kill9($pid);
    kill 'CONT', $tls->{pid};
    ok(all_delivered(30, $job), 'before: kill -9 before the request went'
                                . ' out, then delivered');
    my @got = grep { $_->{id} eq $acc->{msg_id} } $tls->arrived;
    is(scalar @got, 1, 'the receiver saw it once: the killed attempt sent'
                       . ' nothing');
    is((attempts($acc->{msg_id}))[0]{outcome}, 'sending',
       'its attempt stays "sending"');
    check_job($tls, $job, 'before');
}

# --- 2. kills at random moments ------------------------------------------

my $kills = $ENV{WEBHOOK_KILLS} // 3;
my $count = $ENV{WEBHOOK_JOBS} // 8;
my @jobs = map { upload('chaos', "k-chaos-$_", $junk . "c$_") } 1 .. $count;
my @kills;

# the whole pool each time, the deliverer first (a supervisor restarting
# one slot again and again would back off for longer and longer)
for my $k (1 .. $kills) {
    my $pid = deliverer() or last;
    sleep 0.2 + rand(0.6);
    push @kills, time;
    kill9($pid);
    my $super = $s->worker_pid;
    kill 'KILL', $super;
    waitpid $super, 0;
    delete $s->{worker_pid};
    wait_for(10, sub { $s->worker_log !~ /slot 0: child ready/
                       || !grep { kill 0, $_ } children_alive() });
    $s->start_worker;
}

ok(all_delivered(60 + 5 * $kills, @jobs), "$kills kills at random moments: every"
   . " notification of $count jobs delivered");

my (%when, %dup);
for my $job (@jobs) {
    for my $d (check_job($rx, $job, "chaos $job")) {
        $dup{$d->{id}}++;
    }
}
# where each kill caught its attempt: before the request reached the
# receiver, while the receiver had it, or after its answer
my %at;
my @lines = $rx->lines;
for my $a ($s->rows("SELECT n.msg_id, a.started_at FROM notification_attempts"
                    . " a JOIN notifications n ON n.id = a.notification_id"
                    . " WHERE n.tenant = 'chaos' AND a.outcome = 'sending'")) {
    my ($k) = grep { $_ * 1000 >= $a->{started_at} } @kills;
    next unless $k;
    my ($arr) = grep { $_->{phase} eq 'arrived' && $_->{id} eq $a->{msg_id}
                       && $_->{arrived} >= $a->{started_at} } @lines;
    my ($ans) = grep { $_->{phase} eq 'answered' && $_->{id} eq $a->{msg_id}
                       && $_->{arrived} >= $a->{started_at} } @lines;
    $at{ !$arr || $arr->{arrived} > $k * 1000 ? 'before'
         : !$ans || $ans->{answered} > $k * 1000 ? 'during' : 'after' }++;
}
my $twice = grep { $_ > 1 } values %dup;
diag("chaos: $kills kills caught attempts "
     . join(', ', map { "$_ the send: " . ($at{$_} // 0) }
                  qw(before during after))
     . "; $twice notification(s) received more than once (same webhook-id)");

# --- 3. the receiver down, then back -------------------------------------

$rx->stop;
my @down = map { upload('down', "k-down-$_", $junk . "x$_") } 1 .. 8;
ok(wait_for(20, sub {
    my ($r) = $s->rows("SELECT count(*) AS n FROM notification_attempts a"
                       . " JOIN notifications n ON n.id = a.notification_id"
                       . " WHERE n.tenant = 'down' AND a.reason = 'connect'");
    $r->{n} >= 8 }), 'the receiver is down: attempts fail to connect');
like($s->worker_log, qr/outcome=retry reason=connect next=\d+ms error="[^"]+"/,
     'and the log says why');
sleep 2;
$rx->start;
ok(all_delivered(60, @down), 'back on the same port: everything pending'
                             . ' arrives');
check_job($rx, $_, "down $_") for @down;

is($s->stop_worker, 0, 'the pool stops cleanly');

done_testing();
