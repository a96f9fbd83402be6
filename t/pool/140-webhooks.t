# Webhooks: a job's end told to the application, signed (Standard
# Webhooks), from the outbox, checked by a real receiver that verifies
# every delivery with the standardwebhooks package from npm.
#
#   1. nginx's video_ocr_webhook (a map on the tenant): job.accepted and
#      job.done of a real video, rejected, cancelled (DELETE) and failed
#      (abandon) jobs, each event once, for a job in that state, in order
#      per job; the status document lists them; a secret changed in
#      nginx's configuration is a rotation (both signatures).
#   2. The operator's endpoint of a tenant (webhooks add): it applies to
#      jobs nginx gave none; rotate-secret signs with both for a while,
#      then with the new one only; remove.
#   3. Receivers that misbehave: 5xx then redeliver, 410 (disabled, held,
#      enabled again), a redirect, a huge body, a huge 500, a slow one
#      (timeout), Retry-After, an untrusted TLS certificate and a trusted
#      one: each does what docs/operations.md says, and the log, the
#      attempts and the events say why.
#   4. Addresses the SSRF rule refuses without --webhook-allow: a name
#      that resolves to loopback, link-local (the metadata service),
#      private, IPv6 loopback, an odd spelling of 127.0.0.1: nothing
#      reaches the receiver.
#   5. The metrics.

use strict;
use warnings;

use JSON::PP;
use Test::More;
use Time::HiRes qw(sleep time);
use VideoOCR::Media qw(make_video tmpdir);
use VideoOCR::Receiver;
use VideoOCR::Stack;
use VideoOCR::Test qw(wait_for);

my $worker = $ENV{WORKER_BIN} // 'build/video-ocr-worker';
my $dir = tmpdir();

sub secret {
    my $s = `$worker webhooks secret`;
    chomp $s;
    die "webhooks secret: $s\n" unless $s =~ /^whsec_[A-Za-z0-9+\/]{43}=$/;
    return $s;
}

my @S = map { secret() } 0 .. 3;     # the receiver verifies with each
my $junk = "\0\0\0\x18ftypisom\0\0\x02\0isomiso2"
           . join('', map { chr(($_ * 31 + 7) % 256) } 1 .. 4000);

sub upload {
    my ($s, $tenant, $key, $body, @h) = @_;
    my $r = $s->http(method => 'POST', uri => '/upload?fps=1', body => $body,
                     headers => ['Idempotency-Key' => $key,
                                 'X-Tenant' => $tenant, @h]);
    die "upload $key: $r->{status} $r->{body}\n" unless $r->{status} == 202;
    return decode_json($r->{body})->{job_id};
}

sub status_as {
    my ($s, $tenant, $job) = @_;
    my $r = $s->http(uri => "/jobs/$job", headers => ['X-Tenant' => $tenant]);
    return eval { decode_json($r->{body}) } // {};
}

sub cli {
    my ($s, @args) = @_;
    my $out = `$worker webhooks @args --ledger '${\ $s->ledger }' 2>&1`;
    return ($? >> 8, $out);
}

# the deliveries of a job, answered, in order
sub of_job {
    my ($rx, $job) = @_;
    return grep { ($_->{job} // '') eq $job } $rx->answered;
}

sub secret_file {
    my ($name, $secret) = @_;
    open my $fh, '>', "$dir/$name" or die $!;
    print {$fh} "$secret\n";
    close $fh;
    return "$dir/$name";
}

my $rx = VideoOCR::Receiver->new(secrets => \@S);
my $pool = ['--allow-network', '--webhook-allow', '127.0.0.1/32',
            '--webhook-retry', '0,300ms,300ms', '--webhook-timeout', '1s'];

# --- 1. nginx's webhook, every kind of end ---------------------------------

my $hooks = join ' ', map { "$_->[0] \"" . $rx->url($_->[1]) . '";' }
    [alice => '/ok'], [t500 => '/flaky/3'], [t410 => '/gone/1'],
    [tredir => '/redirect'], [thuge => '/huge'], [thuge5 => '/huge500'],
    [tslow => '/slow/1500'], [tra => '/status/503?retry_after=2'];

my $conf = "video_ocr_tenant \$http_x_tenant;"
    . " map \$http_x_tenant \$vo_hook { default \"\"; $hooks }"
    . " map \$http_x_secret \$vo_hook_secret { default $S[0]; new $S[1]; }"
    . ' video_ocr_webhook $vo_hook;'
    . ' video_ocr_webhook_secret $vo_hook_secret;';

my $sa = VideoOCR::Stack->new(no_worker => 1, workers => 1,
    http_config => "$conf video_ocr_webhook_accepted on;",
    worker_args => $pool);

my $video = make_video(path => "$dir/hello.mp4", duration => 2,
                       spans => [{ start => 0, end => 2, text => 'Hello' }]);
my $vbytes = do { local (@ARGV, $/) = $video; <> };

# jobs that end before any worker runs: cancelled, abandoned
my $j_cancel = upload($sa, 'alice', 'a-cancel', $junk . 'c');
my $j_abandon = upload($sa, 'alice', 'a-abandon', $junk . 'a');
is($sa->http(method => 'DELETE', uri => "/jobs/$j_cancel",
            headers => ['X-Tenant' => 'alice'])->{status}, 200,
   'DELETE of an accepted job');
my $out = `$worker abandon --ledger '${\ $sa->ledger }' $j_abandon --reason 'test' 2>&1`;
is($? >> 8, 0, 'abandon of an accepted job') or diag($out);

is(scalar($rx->answered), 0, 'no deliverer yet: nothing delivered');
my ($n) = $sa->rows("SELECT count(*) AS n FROM notifications WHERE state = 'pending'");
is($n->{n}, 4, 'the outbox holds 2 job.accepted, job.cancelled, job.failed');

$sa->start_worker;

my $j_done = upload($sa, 'alice', 'a-done', $vbytes);
my $j_rej = upload($sa, 'alice', 'a-rejected', $junk);
my $j_none = upload($sa, 'nobody', 'n-1', $junk);     # no endpoint at all

sub wait_as {
    my ($s, $tenant, $job, $states, $secs) = @_;
    my $st = {};
    wait_for($secs, sub { $st = status_as($s, $tenant, $job);
                          ($st->{state} // '') =~ /^(?:$states)$/ });
    return $st;
}

for my $j ($j_done, $j_rej) {
    wait_as($sa, 'alice', $j, 'done|rejected|failed', 60);
}

my %want = ($j_cancel => [qw(job.accepted job.cancelled)],
            $j_abandon => [qw(job.accepted job.failed)],
            $j_done => [qw(job.accepted job.done)],
            $j_rej => [qw(job.accepted job.rejected)]);
ok($rx->wait_for(20, sub { (grep { $_->{status} == 200 } @_) >= 8 }),
   '8 notifications delivered') or diag($sa->worker_log);

for my $j (sort keys %want) {
    my @d = of_job($rx, $j);
    is_deeply([map { $_->{type} } @d], $want{$j},
              "job $j: @{ $want{$j} }, once each, in order");
    ok(!grep({ !$_->{verified}[0] } @d), 'each verified by standardwebhooks'
       . ' (Webhook.verify) with the secret of video_ocr_webhook_secret');
    my ($end) = grep { $_->{type} ne 'job.accepted' } @d;
    my $st = status_as($sa, 'alice', $j);
    is($end->{state}, $st->{state}, "its body's state is the job's:"
       . " $st->{state}");
    is(scalar @{ $st->{notifications} }, 2, 'the status lists both');
    ok(!grep({ $_->{state} ne 'delivered' || !$_->{delivered_at}
               || $_->{attempts} != 1 } @{ $st->{notifications} }),
       'delivered, when, in one attempt');
    is_deeply([map { $_->{webhook_id} } @{ $st->{notifications} }],
              [map { $_->{id} } @d], 'under the webhook-ids received');
}

my ($done) = grep { $_->{type} eq 'job.done' } of_job($rx, $j_done);
my $body = decode_json($done->{body});
is($body->{data}{status_url}, "/jobs/$j_done", 'job.done: the status URL');
is_deeply($body->{data}{result}{formats}, [qw(json vtt srt txt ass)],
          'and a summary of the result, not the result');
cmp_ok(length $done->{body}, '<', 600, 'a small body: '
       . length($done->{body}) . ' bytes');
like($done->{body}, qr/^\{"type":"job\.done","timestamp":"[\d-]+T[\d:.]+Z",/,
     'type, timestamp, data');
my ($rej) = grep { $_->{type} eq 'job.rejected' } of_job($rx, $j_rej);
like(decode_json($rej->{body})->{data}{error}{code}, qr/\w/,
     'job.rejected says why: ' . decode_json($rej->{body})->{data}{error}{code});
my ($ab) = grep { $_->{type} eq 'job.failed' } of_job($rx, $j_abandon);
is(decode_json($ab->{body})->{data}{error}{code}, 'abandoned',
   'job.failed of abandon: code abandoned');
is(scalar(of_job($rx, $j_none)), 0, 'a tenant without an endpoint: nothing');
is_deeply(status_as($sa, 'nobody', $j_none)->{notifications}, [],
          'and an empty list in its status');

my ($row) = $sa->rows('SELECT count(*) AS n FROM jobs WHERE webhook_endpoint'
                     . ' IS NOT NULL AND tenant = ?', 'alice');
is($row->{n}, 4, 'the jobs name their endpoint');
($row) = $sa->rows('SELECT count(*) AS n FROM webhook_endpoints');
is($row->{n}, 1, 'one endpoint row: the secret is kept once, not per job');

# fencing: a job abandoned while a worker reads it; the worker's later
# writes (its publish included) are refused, and make no event
my $long = make_video(path => "$dir/long.mp4", duration => 10,
                      spans => [map { { start => $_ / 4,
                                        end => $_ / 4 + 0.24,
                                        text => "Slide $_ of forty" } }
                                0 .. 39]);
my $rs = $sa->http(method => 'POST', uri => '/upload?fps=4',
                   body => do { local (@ARGV, $/) = $long; <> },
                   headers => ['Idempotency-Key' => 'a-stale',
                               'X-Tenant' => 'alice']);
my $j_stale = decode_json($rs->{body})->{job_id};
ok(wait_for(30, sub { my ($j) = $sa->rows('SELECT state, frames_done FROM'
                          . ' jobs WHERE job_id = ?', $j_stale);
                      $j->{state} eq 'running' && $j->{frames_done} >= 1 }),
   'a job being read by a worker');
$out = `$worker abandon --ledger '${\ $sa->ledger }' $j_stale --reason 'stop' 2>&1`;
is($? >> 8, 0, 'abandoned under it') or diag($out);
ok(wait_for(30, sub { $sa->rows("SELECT 1 FROM events WHERE job_id = ?"
                                . " AND kind IN ('lost', 'stale_write')",
                                $j_stale) }),
   "the worker's next write is refused (stale)");
ok($rx->wait_for(20, sub { grep { ($_->{job} // '') eq $j_stale
                                  && $_->{type} eq 'job.failed' } @_ }),
   'job.failed delivered');
sleep 1;
is_deeply([map { $_->{type} } $sa->rows('SELECT type FROM notifications'
                                        . ' WHERE job_id = ? ORDER BY id',
                                        $j_stale)],
          ['job.accepted', 'job.failed'],
          'and no job.done: the stale attempt made no event');

# a secret changed in nginx's configuration: a rotation
my $j_rot = upload($sa, 'alice', 'a-rot', $junk . 'r', 'X-Secret' => 'new');
ok($rx->wait_for(20, sub { grep { ($_->{job} // '') eq $j_rot
                                  && $_->{type} eq 'job.rejected' } @_ }),
   'after a new video_ocr_webhook_secret');
my ($rot) = grep { $_->{type} eq 'job.rejected' } of_job($rx, $j_rot);
ok($rot->{verified}[1] && $rot->{verified}[0],
   'signed with the new secret and the old one (a day long)');
is(scalar(split / /, $rot->{signature}), 2, 'two v1 signatures');
my @ev = $sa->rows("SELECT kind FROM events WHERE kind = 'webhook_secret_rotated'");
is(scalar @ev, 1, 'and an event says so');

# --- 2. the operator's endpoint of a tenant --------------------------------

my ($rc, $o) = cli($sa, 'add', '--tenant', 'bob', '--url', $rx->url('/ok'),
                   '--secret-file', secret_file('s2', $S[2]));
is($rc, 0, 'webhooks add --tenant bob') or diag($o);
($rc, $o) = cli($sa, 'add', '--tenant', 'bob', '--url', $rx->url('/ok'));
is($rc, 65, 'a second add is refused') or diag($o);
like($o, qr/has endpoint \d+ already: remove it first/, 'and says why');
($rc, $o) = cli($sa, 'add', '--tenant', 'bob', '--url', 'ftp://x/');
is($rc, 64, 'a bad URL is refused');
like($o, qr/https:\/\//, 'saying what a URL must be');

my $j_b1 = upload($sa, 'bob', 'b-1', $junk . 'b1');
ok($rx->wait_for(20, sub { grep { ($_->{job} // '') eq $j_b1
                                  && $_->{type} eq 'job.rejected' } @_ }),
   'a job of bob: notified');
my @b1 = of_job($rx, $j_b1);
is_deeply([map { $_->{type} } @b1], ['job.accepted', 'job.rejected'],
          'job.accepted (video_ocr_webhook_accepted) and its end');
ok($b1[-1]{verified}[2] && !$b1[-1]{verified}[0],
   "signed with bob's secret, not nginx's");

($rc, $o) = cli($sa, 'rotate-secret', '--tenant', 'bob', '--secret-file',
                secret_file('s3', $S[3]), '--keep-old', '1h');
is($rc, 0, 'rotate-secret --keep-old 1h') or diag($o);
my $j_b2 = upload($sa, 'bob', 'b-2', $junk . 'b2');
ok($rx->wait_for(20, sub { grep { ($_->{job} // '') eq $j_b2
                                  && $_->{type} eq 'job.rejected' } @_ }),
   'the next job of bob');
my ($b2) = grep { $_->{type} eq 'job.rejected' } of_job($rx, $j_b2);
ok($b2->{verified}[2] && $b2->{verified}[3], 'verifies with the old and the'
   . ' new secret');

($rc, $o) = cli($sa, 'rotate-secret', '--tenant', 'bob', '--keep-old', '0');
is($rc, 0, 'rotate-secret --keep-old 0 (a secret made here)') or diag($o);
my ($made) = $o =~ /(whsec_\S+)/;
ok($made, 'printed once');
($rc, $o) = cli($sa, 'list');
like($o, qr/bob\s+yes/, 'webhooks list: bob has an endpoint');
unlike($o, qr/whsec_/, 'and shows no secret, only its fingerprint');

($rc, $o) = cli($sa, 'remove', '--tenant', 'bob');
is($rc, 0, 'webhooks remove') or diag($o);
my $j_b3 = upload($sa, 'bob', 'b-3', $junk . 'b3');
wait_as($sa, 'bob', $j_b3, 'rejected', 30);
is_deeply(status_as($sa, 'bob', $j_b3)->{notifications}, [],
          'a job after remove: no notification');

# --- 3. receivers that misbehave --------------------------------------------

# the pool runs as nobody (when root): its files must be readable to it
chmod 0755, $dir;
my $ca = "$dir/ca";
system("openssl req -x509 -newkey rsa:2048 -nodes -keyout $ca.key -out"
       . " $ca.pem -days 2 -subj /CN=vo-test-ca >/dev/null 2>&1") == 0
    or die "openssl (CA) failed\n";
system("openssl req -newkey rsa:2048 -nodes -keyout $dir/leaf.key -out"
       . " $dir/leaf.csr -subj /CN=127.0.0.1 >/dev/null 2>&1"
       . " && printf 'subjectAltName=IP:127.0.0.1' > $dir/leaf.ext"
       . " && openssl x509 -req -in $dir/leaf.csr -CA $ca.pem -CAkey $ca.key"
       . " -CAcreateserial -out $dir/leaf.pem -days 2 -extfile $dir/leaf.ext"
       . " >/dev/null 2>&1"
       . " && openssl req -x509 -newkey rsa:2048 -nodes -keyout $dir/self.key"
       . " -out $dir/self.pem -days 2 -subj /CN=127.0.0.1"
       . " -addext subjectAltName=IP:127.0.0.1 >/dev/null 2>&1") == 0
    or die "openssl (certificates) failed\n";
chmod 0644, glob("$dir/*.pem");

my $tls_ok = VideoOCR::Receiver->new(secrets => \@S,
                                     tls => ["$dir/leaf.pem", "$dir/leaf.key"]);
my $tls_bad = VideoOCR::Receiver->new(secrets => \@S,
                                      tls => ["$dir/self.pem", "$dir/self.key"]);

my $bconf = $conf;
$bconf =~ s/\{ default ""; /{ default ""; ttlsok "${\ $tls_ok->url('\/ok') }"; ttls "${\ $tls_bad->url('\/ok') }"; /;
my $sb = VideoOCR::Stack->new(workers => 1, http_config => $bconf,
    worker_args => [@$pool, '--deliverers', '3',
                    '--webhook-ca-file', "$ca.pem"]);

my %bj = map { $_ => upload($sb, $_, "k-$_", $junk . $_) }
         qw(t500 t410 tredir thuge thuge5 tslow tra ttlsok ttls);

sub ends {
    my ($s, $job, $states, $secs) = @_;
    my $r;
    wait_for($secs, sub {
        ($r) = $s->rows('SELECT * FROM notifications WHERE job_id = ?', $job);
        return $r && $r->{state} =~ /^(?:$states)$/;
    });
    return $r // {};
}

sub attempts_of {
    my ($s, $msg) = @_;
    return $s->rows('SELECT a.* FROM notification_attempts a JOIN'
                    . ' notifications n ON n.id = a.notification_id'
                    . ' WHERE n.msg_id = ? ORDER BY a.attempt', $msg);
}

# 5xx three times: failed after the last attempt, then redeliver
my $n500 = ends($sb, $bj{t500}, 'failed', 20);
is($n500->{state}, 'failed', '503 on every attempt: failed after 3');
is($n500->{attempts}, 3, 'the schedule has 3 attempts');
my @a500 = attempts_of($sb, $n500->{msg_id});
is_deeply([map { $_->{status} } @a500], [503, 503, 503],
          'each attempt recorded with its status');
like($a500[-1]{error}, qr/the receiver answered 503/, 'and why');
is(scalar(grep { $_->{id} eq $n500->{msg_id} } $rx->arrived), 3,
   'the receiver saw 3 attempts, one webhook-id');
my @fe = $sb->rows("SELECT * FROM events WHERE kind = 'webhook_failed'"
                  . ' AND job_id = ?', $bj{t500});
is(scalar @fe, 1, 'an event: webhook_failed');
($rc, $o) = cli($sb, 'redeliver', $n500->{msg_id});
is($rc, 0, 'webhooks redeliver') or diag($o);
$n500 = ends($sb, $bj{t500}, 'delivered', 20);
is($n500->{state}, 'delivered', 'delivered by the 4th attempt');
my @r500 = grep { $_->{id} eq $n500->{msg_id} } $rx->answered;
is($r500[-1]{status}, 200, 'the same webhook-id, answered 200');
ok($r500[-1]{verified}[0], 'verified');

# 410: the endpoint is disabled, what comes next is held
my $n410 = ends($sb, $bj{t410}, 'held', 20);
is($n410->{last_status}, 410, '410 Gone: the notification is held');
my ($ep) = $sb->rows('SELECT * FROM webhook_endpoints WHERE id = ?',
                    $n410->{endpoint_id});
ok($ep->{disabled_at}, 'its endpoint is disabled');
like($ep->{disabled_reason}, qr/answered 410/, 'with the reason');
my @de = $sb->rows("SELECT * FROM events WHERE kind = 'webhook_disabled'");
is(scalar @de, 1, 'an event: webhook_disabled');
like($sb->worker_log, qr/webhook=$n410->{msg_id} .*status=410 .*outcome=endpoint_disabled/,
     'the log says so');
my $j410b = upload($sb, 't410', 'k-t410-2', $junk . 'x2');
my $h2 = ends($sb, $j410b, 'held', 20);
is($h2->{state}, 'held', 'the next one of that endpoint is held, not sent');
is($h2->{attempts}, 0, 'no attempt made');
($rc, $o) = cli($sb, 'enable', '--endpoint', $n410->{endpoint_id});
is($rc, 0, 'webhooks enable') or diag($o);
like($o, qr/2 held notification/, 'releases both');
is(ends($sb, $bj{t410}, 'delivered', 20)->{state}, 'delivered',
   'the held one is delivered');
is(ends($sb, $j410b, 'delivered', 20)->{state}, 'delivered', 'both');

# a redirect is not followed
my $nred = ends($sb, $bj{tredir}, 'failed', 20);
is($nred->{state}, 'failed', 'a redirect on every attempt: failed');
like($nred->{last_error},
     qr{302, a redirect to http://127\.0\.0\.1:\d+/ok: redirects are not},
     'the error says where it pointed');
ok(!grep({ $_->{id} eq $nred->{msg_id} && $_->{path} eq '/ok' } $rx->arrived),
   'and it was not followed');

# a huge 200: delivered, the body cut; a huge 500: retried
my $nhuge = ends($sb, $bj{thuge}, 'delivered', 20);
is($nhuge->{state}, 'delivered', 'an endless 200 body: delivered');
like($nhuge->{last_error}, qr/longer than 65536 bytes/, 'its body cut');
my ($ah) = attempts_of($sb, $nhuge->{msg_id});
cmp_ok($ah->{latency_ms}, '<', 1000, "not read to the end ($ah->{latency_ms} ms)");
my $nh5 = ends($sb, $bj{thuge5}, 'failed', 20);
like($nh5->{last_error}, qr/answered 500: "xxxx/, 'an endless 500: failed,'
     . ' with the start of its body');

# slow: the timeout
my $nslow = ends($sb, $bj{tslow}, 'failed', 30);
is($nslow->{state}, 'failed', 'slower than --webhook-timeout: failed');
my @as = attempts_of($sb, $nslow->{msg_id});
ok(!grep({ $_->{reason} ne 'timeout' } @as), 'each attempt a timeout');
like($as[0]{error}, qr/no answer within 1000 ms/, 'saying so');

# Retry-After: 2 s later, not the schedule's 300 ms
my $nra = ends($sb, $bj{tra}, 'failed', 30);
my @ra = sort { $a <=> $b } map { $_->{arrived} }
         grep { $_->{id} eq $nra->{msg_id} } $rx->arrived;
cmp_ok($ra[1] - $ra[0], '>=', 1900, 'Retry-After: 2 is honoured ('
       . ($ra[1] - $ra[0]) . ' ms between attempts)');

# TLS: a certificate of the CA given, and a self-signed one
is(ends($sb, $bj{ttlsok}, 'delivered', 20)->{state}, 'delivered',
   'https with a certificate the CA signed: delivered');
my ($tok) = $tls_ok->answered;
ok($tok && $tok->{verified}[0], 'and verified by the receiver');
my $ntls = ends($sb, $bj{ttls}, 'failed', 20);
like($ntls->{last_error}, qr/^TLS: .*certificate/i,
     'a self-signed certificate: refused (TLS verification is on)');
is(scalar($tls_bad->answered), 0, 'that receiver got nothing');

# --- 4. addresses the SSRF rule refuses ----------------------------------

my $port = $rx->port;
my $cconf = "video_ocr_tenant \$http_x_tenant; map \$http_x_tenant \$vo_hook {"
    . " default \"\"; name \"http://localhost:$port/ok\";"
    . " meta \"http://169.254.169.254/latest/meta-data/\";"
    . " private \"http://10.255.0.1/\"; v6 \"http://[::1]:$port/ok\";"
    . " odd \"http://0x7f000001:$port/ok\"; }"
    . " video_ocr_webhook \$vo_hook; video_ocr_webhook_secret $S[0];";
my $c = VideoOCR::Stack->new(workers => 1, http_config => $cconf,
    worker_args => ['--allow-network', '--webhook-retry', '0',
                    '--webhook-timeout', '1s']);
my $seen = scalar $rx->arrived;
my %cj = map { $_ => upload($c, $_, "c-$_", $junk . $_) }
         qw(name meta private v6 odd);
my %class = (name => 'loopback', meta => 'link-local', private => 'private',
             v6 => 'loopback', odd => 'loopback');

for my $t (sort keys %cj) {
    my $r = ends($c, $cj{$t}, 'failed', 20);
    like($r->{last_error} // '', qr/^refused to connect to \S+, a $class{$t}/,
         "$t: refused: " . ($r->{last_error} // 'nothing'));
    my ($at) = attempts_of($c, $r->{msg_id});
    is($at->{reason}, 'address', "$t: reason address");
}
is(scalar($rx->arrived), $seen, 'the receiver saw none of them');
like($c->worker_log, qr/refused to connect to 169\.254\.169\.254, a link-local address/,
     'the log says why');

# --- 5. the metrics -------------------------------------------------------

my $m = $sb->http(uri => '/metrics')->{body};
my %m = map { /^(\S+) (\S+)$/ ? ($1, $2) : () } grep { !/^#/ } split /\n/, $m;
cmp_ok($m{'video_ocr_webhook_delivered_total{type="job.rejected"}'}, '>=', 5,
       'delivered_total by type');
cmp_ok($m{'video_ocr_webhook_failed_total{type="job.rejected"}'}, '>=', 4,
       'failed_total');
cmp_ok($m{'video_ocr_webhook_retried_total{type="job.rejected"}'}, '>=', 6,
       'retried_total');
cmp_ok($m{'video_ocr_webhook_attempts_total{reason="5xx"}'}, '>=', 3,
       'attempts by reason: 5xx');
cmp_ok($m{'video_ocr_webhook_attempts_total{reason="timeout"}'}, '>=', 3,
       'timeout');
cmp_ok($m{'video_ocr_webhook_attempts_total{reason="redirect"}'}, '>=', 3,
       'redirect');
cmp_ok($m{'video_ocr_webhook_attempts_total{reason="tls"}'}, '>=', 3, 'tls');
is($m{'video_ocr_webhook_endpoints_disabled_total'}, 1, 'one disabled by 410');
is($m{'video_ocr_webhook_endpoints_disabled'}, 0, 'none disabled now');
cmp_ok($m{'video_ocr_webhook_delivery_seconds_count'}, '>=', 20,
       'the latency histogram counts the attempts');
cmp_ok($m{'video_ocr_webhook_delivery_seconds_bucket{le="+Inf"}'}, '==',
       $m{'video_ocr_webhook_delivery_seconds_count'}, '+Inf = count');
ok(exists $m{'video_ocr_webhook_oldest_pending_age_seconds'},
   'the age of the oldest pending one');
is($m{'video_ocr_webhook_notifications{state="failed",type="job.rejected"}'},
   5, 'notifications failed, now');

SKIP: {
    skip 'promtool is not installed (Debian package prometheus)', 1
        unless -x '/usr/bin/promtool';
    open my $fh, '>', "$dir/metrics.txt" or die $!;
    print {$fh} $m;
    close $fh;
    my $p = `promtool check metrics < $dir/metrics.txt 2>&1`;
    is($? >> 8, 0, 'promtool check metrics accepts the page') or diag($p);
}

($rc, $o) = cli($sb, 'notifications', '--state', 'failed');
is($rc, 0, 'webhooks notifications --state failed');
is(scalar(() = $o =~ /^msg_/mg), 5, 'lists the 5 failed ones');

# bad values of the pool's webhook options: exit 64 and a sentence
for my $bad (['--webhook-allow', '10.1.2.3/8', qr/has bits set past its prefix/],
             ['--webhook-allow', 'example.com', qr/is not an IPv4 or IPv6 address/],
             ['--webhook-retry', '0,5x', qr/attempt 2 of the retry schedule, "5x", is not a delay/],
             ['--webhook-timeout', '0', qr/--webhook-timeout "0" must be a time/],
             ['--workers', '0', qr/--workers 0 makes a pool of webhook deliverers only/,
              '--deliverers', '0']) {
    my ($flag, $v, $re, @more) = @$bad;
    my $out = `$worker run --ledger ${\ $sb->ledger } --store ${\ $sb->store } $flag '$v' @more 2>&1`;
    is($? >> 8, 64, "run $flag $v: exit 64");
    like($out, $re, 'saying why');
}

for my $s ($sa, $sb, $c) {
    is($s->stop_worker, 0, 'the pool stops cleanly');
}

done_testing();
