# Invalid media is rejected with a reason a user can act on, in one
# attempt, without a retry loop; a transient failure is retried with a
# backoff until max_attempts, then the job is failed with the reason.

use strict;
use warnings;

use Test::More;
use VideoOCR::Media qw(make_video make_audio_only tmpdir);
use VideoOCR::Stack;

my $dir = tmpdir();
my $good = make_video(path => "$dir/good.mp4", duration => 2,
                      spans => [{ start => 0, end => 2, text => 'Hello' }]);
my $audio = make_audio_only(path => "$dir/audio.mp4", duration => 2);
my $slurp = sub { local (@ARGV, $/) = $_[0]; <> };
my $mp4 = $slurp->($good);

my %cases = (
    truncated => [substr($mp4, 0, int(length($mp4) / 3)), '',
                  qr/^(truncated|no_video_stream|not_a_video)$/],
    garbage => ["\0\0\0\x18ftypisom\0\0\x02\0isomiso2"
                . CORE::join('', map { chr(($_ * 31 + 7) % 256) } 1 .. 50000),
                '', qr/^(not_a_video|truncated)$/],
    audio_only => [$slurp->($audio), '', qr/^no_video_stream$/],
    unknown_language => [$mp4, 'lang=xyz', qr/^unknown_language$/],
);

my $s = VideoOCR::Stack->new(workers => 2,
                             worker_args => ['--retry-backoff', '100ms']);

my %job;
for my $name (sort keys %cases) {
    my ($body, $args, $code) = @{ $cases{$name} };
    my $r = $s->upload($name, $body, $args ? (args => $args) : ());
    is($r->{status}, 202, "$name: admitted (the edge only sniffs)");
    $job{$name} = JSON::PP::decode_json($r->{body})->{job_id};
}

for my $name (sort keys %cases) {
    my $code = $cases{$name}[2];
    my $st = $s->wait_state($job{$name}, 'done|failed|rejected', 60);
    is($st->{state}, 'rejected', "$name: rejected");
    like($st->{error}{code} // '', $code, "$name: code $st->{error}{code}");
    like($st->{error}{message} // '', qr/\w.{10,}/,
         "$name: a sentence: $st->{error}{message}");
    is($st->{attempts}, 1, "$name: one attempt, no retry loop");
    is($st->{failures}, 0, "$name: not counted as a failure");
}

# a transient failure: the stored input disappears before the claim
$s->stop_worker;
my $r = $s->upload('vanishing', $mp4);
my $vanishing = JSON::PP::decode_json($r->{body})->{job_id};
my ($row) = $s->rows('SELECT input_path FROM jobs WHERE job_id = ?',
                     $vanishing);
unlink $s->store . "/$row->{input_path}" or die "unlink: $!";
$s->start_worker;

my $st = $s->wait_state($vanishing, 'done|failed|rejected', 60);
is($st->{state}, 'failed', 'a job that fails on every attempt ends failed');
is($st->{error}{code}, 'input_missing', 'with the reason');
is($st->{attempts}, 3, 'after max_attempts (3) attempts');
is($st->{failures}, 3, 'three failures');
my @retried = $s->rows("SELECT * FROM events WHERE job_id = ?"
                       . " AND kind = 'retried'", $vanishing);
is(scalar @retried, 2, 'retried twice, then failed');

# A crash is a child killed by a signal other than the SIGTERM the
# supervisor sends when the pool stops: a child (the janitor, most
# often) stopped in its first milliseconds, before it has installed its
# handler, dies of it and is logged "killed by signal 15".
my $log = $s->worker_log;
unlike($log, qr/killed by signal (?!15 )/, 'no child crashed on bad media');

is($s->stop_worker, 0, 'the pool stops cleanly');

done_testing();
