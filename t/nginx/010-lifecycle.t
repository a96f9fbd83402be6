# nginx's worker processes start, reload and stop cleanly with the
# module: no crash when a worker exits after its threads used the ledger
# (each thread's connection is closed by the exit hook, after the thread
# pools stopped), and the last close checkpoints SQLite's WAL.

use strict;
use warnings;

use Test::More;
use Time::HiRes qw(sleep);
use VideoOCR::Stack;
use VideoOCR::Test qw(video_bytes);

my $s = VideoOCR::Stack->new(no_worker => 1);
my $v = video_bytes(seed => 1);

for my $i (1 .. 8) {
    is($s->upload("lifecycle-$i", $v)->{status}, 202, "upload $i");
}

my $pid = $s->nginx_pid;
ok(kill('HUP', $pid), 'reload');
sleep 1;
is($s->upload('after-reload', $v)->{status}, 202, 'upload after reload');
is($s->upload('lifecycle-1', $v)->{headers}{'idempotent-replayed'}, 'true',
   'a replay after reload');

$s->stop_nginx;

open my $fh, '<', $s->dir . '/logs/error.log' or die $!;
my $log = do { local $/; <$fh> };
unlike($log, qr/exited on signal/, 'no worker process crashed');
unlike($log, qr/\[alert\]/, 'no alert');
ok(!-e $s->ledger . '-wal', 'the WAL was checkpointed by the last close')
    unless VideoOCR::Test::pg();

done_testing();
