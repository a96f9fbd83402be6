# Two worker hosts on one PostgreSQL ledger, each with two deliverers
# (and two nginx), on one machine: the leases keep any attempt to one
# deliverer.  The receiver (standardwebhooks' verify on every delivery)
# counts the requests with the same webhook-id in flight at once: never
# two.  Every attempt the ledger records reached the receiver once; both
# hosts delivered; one host killed outright (SIGKILL, supervisor and
# deliverers) in the middle loses nothing: the other sends what it held
# once its leases expire, under the same webhook-ids.

use strict;
use warnings;

use JSON::PP;
use Test::More;
use Time::HiRes qw(sleep time);
use VideoOCR::Receiver;
use VideoOCR::Stack;
use VideoOCR::Test qw(pg wait_for);

plan skip_all => 'hosts sharing a ledger: the PostgreSQL run (make test-pg)'
    unless pg();

my $worker = $ENV{WORKER_BIN} // 'build/video-ocr-worker';
my $secret = `$worker webhooks secret`;
chomp $secret;

my $rx = VideoOCR::Receiver->new(secrets => [$secret]);
my $conf = 'video_ocr_webhook "' . $rx->url('/slow/150') . '";'
           . " video_ocr_webhook_secret $secret; video_ocr_webhook_accepted on;";
my @pool = (workers => 1, http_config => $conf,
            worker_args => ['--allow-network', '--webhook-allow',
                            '127.0.0.1/32', '--deliverers', '2',
                            '--webhook-timeout', '1s', '--lease', '2s',
                            '--webhook-retry', '0,200ms,500ms,1s,1s,1s']);

my $ha = VideoOCR::Stack->new(@pool);
my $hb = VideoOCR::Stack->new(@pool, ledger => $ha->ledger,
                             store => $ha->store);

my $junk = "\0\0\0\x18ftypisom\0\0\x02\0isomiso2"
           . join('', map { chr(($_ * 31 + 7) % 256) } 1 .. 4000);
my $n = $ENV{WEBHOOK_JOBS} // 30;
my @jobs;

for my $i (1 .. $n) {
    my $s = $i % 2 ? $ha : $hb;
    my $r = $s->upload("h-$i", $junk . $i);
    die "upload $i: $r->{status}\n" unless $r->{status} == 202;
    push @jobs, decode_json($r->{body})->{job_id};

    if ($i == int($n / 2)) {
        # host B goes away with whatever its deliverers hold, once three
        # deliverers of both hosts have made attempts (killed sooner, B's
        # may have made none, or A's one: a fresh clone's PostgreSQL run
        # saw 2 deliverers in all)
        my @d = $hb->worker_log =~ /started deliverer (\d+)/g;
        my %of_b = map { $_ => 1 } @d;
        ok(wait_for(10, sub {
            my %by = map { (split m{/}, $_->{owner})[0] => 1 }
                     $ha->rows('SELECT owner FROM notification_attempts');
            my $b = grep { $of_b{ (split /:/)[1] // '' } } keys %by;
            $rx->arrived >= 4 && keys %by >= 3 && $b >= 1
        }), 'deliveries under way, by three deliverers of both hosts');
        kill 'KILL', $hb->worker_pid, @d;
        waitpid $hb->worker_pid, 0;
        delete $hb->{worker_pid};
    }
}

sub pending {
    my ($r) = $ha->rows("SELECT count(*) AS n FROM notifications"
                        . " WHERE state <> 'delivered'");
    return $r->{n};
}

ok(wait_for(60, sub { pending() == 0 }), "all " . 2 * $n . " notifications"
   . " delivered") or diag(pending() . ' not');

my @arr = $rx->arrived;
my @ans = $rx->answered;
my ($max) = sort { $b <=> $a } map { $_->{inflight} } @arr;
is($max, 1, 'never two requests with the same webhook-id at once');
is(scalar(grep { !$_->{verified}[0] } @ans), 0, 'every one verified');

my @att = $ha->rows('SELECT a.owner, a.outcome, n.msg_id FROM'
                    . ' notification_attempts a JOIN notifications n'
                    . ' ON n.id = a.notification_id');
my %sent;
$sent{$_->{id}}++ for @arr;
my %rec;
$rec{$_->{msg_id}}++ for grep { $_->{outcome} ne 'sending' } @att;
my @more = grep { ($sent{$_} // 0) != $rec{$_} } keys %rec;
my @lost = grep { $_->{outcome} eq 'sending' } @att;
ok(!grep({ ($sent{$_} // 0) < $rec{$_} } keys %rec),
   'every recorded attempt reached the receiver');
cmp_ok(scalar @more, '<=', scalar @lost, 'and only the ' . scalar(@lost)
       . " attempt(s) the kill cut short reached it without a record");

my %owner = map { (split m{/}, $_->{owner})[0] => 1 } @att;
cmp_ok(scalar keys %owner, '>=', 3, scalar(keys %owner) . ' deliverers'
       . ' (of both hosts) made attempts');

my %by_job;
push @{ $by_job{$_->{job}} }, $_ for @ans;
my @disorder = grep {
    my @a = @{ $by_job{$_} };
    my ($last_acc) = sort { $b <=> $a } map { $_->{arrived} }
                     grep { $_->{type} eq 'job.accepted' } @a;
    grep { $_->{type} ne 'job.accepted' && $_->{arrived} < $last_acc } @a;
} keys %by_job;
is(scalar @disorder, 0, 'in order per job, across the hosts');

is($ha->stop_worker, 0, 'host A stops cleanly');

done_testing();
