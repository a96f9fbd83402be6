# The worker when the disk under the ledger fills up in the middle of a
# job: its frame writes fail, the attempt ends without a partial result,
# the pool stays up, and once space returns the job
# is done, every frame once, with the text of a clean run.  Needs root,
# to mount a small tmpfs under the ledger.

use strict;
use warnings;

use JSON::PP;
use Test::More;
use Time::HiRes qw(sleep time);
use VideoOCR::Media qw(make_video tmpdir);
use VideoOCR::Stack;

plan skip_all => "the disk under an SQLite ledger: PostgreSQL's full disk is the server's"
    if VideoOCR::Test::pg();

plan skip_all => 'mounting a tmpfs needs root' unless $> == 0;

my $dir = tmpdir();
my @spans = map { { start => $_ * 0.5, end => $_ * 0.5 + 0.45,
                    text => "Full disk line $_" } } 0 .. 119;
my $video = make_video(path => "$dir/a.mp4", duration => 60, spans => \@spans);
my $body = do { local (@ARGV, $/) = $video; <> };

my $s = VideoOCR::Stack->new(no_start => 1,
                             worker_args => ['--retry-backoff', '200ms',
                                             '--lease', '3s']);
my $data = $s->dir . '/data';
system('mount', '-t', 'tmpfs', '-o', 'size=3m,mode=0777', 'tmpfs', $data) == 0
    or plan skip_all => "cannot mount a tmpfs on $data";
END { undef $s; system('umount', $data) if $data }

$s->start_nginx;
my $r = $s->upload('full', $body, args => 'fps=2');
is($r->{status}, 202, 'admitted while there is room');
my $job = decode_json($r->{body})->{job_id};

$s->start_worker;
my $t0 = time;
sleep 0.02 until ($s->rows('SELECT count(*) AS n FROM frames'))[0]{n} >= 2
                 || time > $t0 + 20;
my ($frames) = $s->rows('SELECT count(*) AS n FROM frames');

# fill the filesystem, leaving no room for the worker's frame rows
my $filler = "$data/filler";
system("dd if=/dev/zero of=$filler bs=4k 2>/dev/null");
my $free = `df -B1 --output=avail $data | tail -1` + 0;
cmp_ok($free, '<', 8192, "the ledger's filesystem is full ($free bytes"
                         . " left) while the job runs ($frames->{n}"
                         . ' frames stored)');

my $deadline = time + 30;
my $log = '';
until ($log =~ /(put frame|heartbeat) failed: .*disk is full/ || time > $deadline) {
    sleep 0.2;
    $log = $s->worker_log;
}
like($log, qr/(put frame|heartbeat) failed: .*database or disk is full/,
     'the worker\'s frame writes fail, and it says why');


my ($row) = $s->rows('SELECT state FROM jobs WHERE job_id = ?', $job);
isnt($row->{state}, 'done', 'the job is not done');
my ($res) = $s->rows('SELECT count(*) AS n FROM results WHERE job_id = ?',
                     $job);
is($res->{n}, 0, 'no partial result was published');
ok(kill(0, $s->worker_pid), 'the pool is still up');

# space returns: the job is done without a restart of anything
unlink $filler or die "unlink: $!";
my $st = $s->wait_state($job, 'done|failed|rejected', 90);
is($st->{state}, 'done', 'once space returns the job is done');
my $worker = $ENV{WORKER_BIN} // 'build/video-ocr-worker';
my $clean = decode_json(`$worker ocr $video --fps 2 --format json`);
is_deeply([map { $_->{text} } @{ $st->{result}{segments} }],
          [map { $_->{text} } @{ $clean->{segments} }],
          'with the text of a clean run');

my ($dups) = $s->rows('SELECT count(*) AS n FROM (SELECT frame_index'
                      . ' FROM frames WHERE job_id = ? GROUP BY frame_index'
                      . ' HAVING count(*) > 1)', $job);
is($dups->{n}, 0, 'every frame stored once');
diag(scalar(() = $log =~ /disk is full/g) . ' full-disk errors logged, '
     . "attempts $st->{attempts}, failures $st->{failures}");

is($s->stop_worker, 0, 'the pool stops cleanly');

done_testing();
