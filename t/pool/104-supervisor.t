# The supervisor: a child that dies is restarted, no faster than once a
# second per slot and slower when it keeps dying; SIGTERM stops every
# child, which gives its job back; exit code 78 from a child stops the
# pool; a supervisor killed outright takes its children with it.

use strict;
use warnings;

use Test::More;
use Time::HiRes qw(sleep time);
use VideoOCR::Media qw(make_video tmpdir);
use VideoOCR::Stack;

# gone: no such process, or a zombie waiting for init to reap it
sub gone {
    my ($pid) = @_;
    return 1 unless kill 0, $pid;
    open my $fh, '<', "/proc/$pid/stat" or return 1;
    my $stat = <$fh> // '';
    return $stat =~ /^\d+ \(.*\) Z /;
}

sub wait_child {
    my ($s, $slot, $not, $seconds) = @_;
    my $deadline = time + ($seconds // 20);
    while (time < $deadline) {
        my %c = $s->children;
        return $c{$slot} if $c{$slot} && $c{$slot} != ($not // 0);
        sleep 0.01;
    }
    return;
}

my $dir = tmpdir();

# --- restarts, with throttling --------------------------------------------

my $s = VideoOCR::Stack->new(workers => 2);
my $first = wait_child($s, 0);
ok($first, "slot 0 runs child $first");

my $pid = $first;
for my $round (1 .. 3) {
    kill 'KILL', $pid;
    $pid = wait_child($s, 0, $pid, 30);
    ok($pid, "round $round: slot 0 restarted as $pid");
}

# the times slot 0 was started, from the supervisor's log
my @starts;
my $log = $s->worker_log;
while ($log =~ /^\S+T(\d\d):(\d\d):([\d.]+)Z \[\d+\] supervisor: slot 0: started/mg) {
    push @starts, $1 * 3600 + $2 * 60 + $3;
}
my @gaps = map { $starts[$_] - $starts[$_ - 1] } 1 .. $#starts;
is(scalar @gaps, 3, 'four starts of slot 0');
ok(!grep({ $_ < 0.95 } @gaps), sprintf('never two starts within a second'
                                       . ' (%s s apart)',
                                       CORE::join(', ', map { sprintf '%.1f', $_ } @gaps)));
cmp_ok($gaps[2], '>', $gaps[0] * 1.5,
       'a child that keeps dying young is restarted more slowly');
like($s->worker_log, qr/slot 0: child $first killed by signal 9/,
     'the death is logged with its cause');

my %c = $s->children;
ok(!gone($c{1}), 'slot 1 was left alone');

# --- SIGTERM: children release their job and exit -------------------------

my @spans = map { { start => $_ * 0.5, end => $_ * 0.5 + 0.45,
                    text => "Slide $_ of many" } } 0 .. 39;
my $file = make_video(path => "$dir/long.mp4", duration => 20,
                      spans => \@spans);
my $bytes = do { local (@ARGV, $/) = $file; <> };
my $r = $s->upload('long', $bytes, args => 'fps=2');
my $job = JSON::PP::decode_json($r->{body})->{job_id};

my $deadline = time + 60;
while (time < $deadline) {
    my ($j) = $s->rows('SELECT frames_done FROM jobs WHERE job_id = ?', $job);
    last if ($j->{frames_done} // 0) >= 2;
    sleep 0.05;
}

%c = $s->children;
my $status = $s->stop_worker(60);
is($status, 0, 'SIGTERM: the supervisor exits 0');
ok(!grep({ !gone($_) } values %c), 'no child is left running');

my ($j) = $s->rows('SELECT state, lease_owner, failures FROM jobs'
                   . ' WHERE job_id = ?', $job);
is($j->{state}, 'accepted', 'the running job was given back');
ok(!defined $j->{lease_owner}, 'no lease is left on it');
is($j->{failures}, 0, 'releasing is not a failure');
like($s->worker_log, qr/job=$job attempt=1 key=\S+ event=released/, 'logged');

# --- a fatal child exit code stops the pool ---------------------------------

$s->start_worker;
my $child = wait_child($s, 0, $c{0});
ok($child, "a new pool runs child $child in slot 0");
my $mend = VideoOCR::Test::break_ledger($s->ledger);
kill 'KILL', $child;
$deadline = time + 30;
my $exit;
while (time < $deadline) {
    my $w = waitpid $s->worker_pid, POSIX::WNOHANG();
    if ($w == $s->worker_pid) { $exit = $? >> 8; delete $s->{worker_pid}; last }
    sleep 0.05;
}
is($exit, 78, 'a child that cannot open the ledger exits 78: the pool stops');
like($s->worker_log, qr/a child reported a fatal configuration error/,
     'and says why');
$mend->();

# --- a supervisor killed outright takes its children with it --------------

$s->start_worker;
my $c0 = wait_child($s, 0, $child);
my $c1 = wait_child($s, 1, $c{1});
ok($c0 && $c1, 'a new pool runs');
kill 'KILL', $s->worker_pid;
waitpid $s->worker_pid, 0;
delete $s->{worker_pid};
$deadline = time + 10;
sleep 0.05 while time < $deadline && !(gone($c0) && gone($c1));
ok(gone($c0) && gone($c1), 'no orphan child is left');

done_testing();
