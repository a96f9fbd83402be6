# Two hosts on one PostgreSQL ledger, on one machine: two nginx (two
# ports, two directories) and two worker pools, sharing the ledger and
# the store as two hosts would (docs/scaling.md).
#
#   1. An admission storm where every upload is sent to both nginx at
#      the same moment: one receipt and one job per key, every 202 of
#      either nginx names that job, every other body gets 422.
#   2. Real videos, each key sent to both nginx at once, then both pools
#      working: one pool is killed (SIGKILL, supervisor and children)
#      while it holds jobs.  The other takes them over once their
#      leases expire and finishes everything: every job done, published
#      exactly once, by one attempt.

use strict;
use warnings;

use JSON::PP;
use POSIX ();
use Test::More;
use Time::HiRes qw(sleep time);
use VideoOCR::Stack;
use VideoOCR::Storm;
use VideoOCR::Test qw(pg video_bytes wait_for);

plan skip_all => 'hosts sharing a ledger: the PostgreSQL run (make test-pg)'
    unless pg();

my @pool = (worker_args => ['--lease', '3s', '--heartbeat', '500ms']);

# --- 1. the same keys at both front ends at once ----------------------------

{
    my $ha = VideoOCR::Stack->new(no_worker => 1);
    my $hb = VideoOCR::Stack->new(no_worker => 1, ledger => $ha->ledger,
                                 store => $ha->store);

    my $run = VideoOCR::Storm::run($ha, clients => 32, uploads => 1024,
                                   ports => [$ha->port, $hb->port],
                                   twins => 1);
    my %stats;
    my @problems = VideoOCR::Storm::check($ha, $run, \%stats);

    diag(sprintf('%d uploads (each to both) in %.1f s, %d receipts; %s',
                 $stats{uploads} / 2, $stats{seconds}, $stats{receipts},
                 join(', ', map { "$_: $stats{$_}" } sort
                                grep { /^status/ } keys %stats)));

    is(scalar @problems, 0, 'one receipt and one job per key across both')
        or diag(join("\n", @problems[0 .. ($#problems > 20 ? 20
                                                         : $#problems)],
                     error_lines($ha, $hb)));

    my %by;
    for my $r (@{ $run->{results} }) {
        push @{ $by{$r->{key}} }, $r if $r->{status} == 202;
    }
    my $both = grep {
        my %j = map { $_->{job} => 1 } @{ $by{$_} };
        @{ $by{$_} } >= 2 && keys %j == 1
    } keys %by;
    cmp_ok($both, '>', 100, "$both keys got the same job from both at once");

    my %created;
    $created{$_->{job}}++ for grep { !$_->{replayed} } map { @$_ } values %by;
    is(scalar(grep { $created{$_} > 1 } keys %created), 0,
       'no job was "created" twice: the other front end replayed it');
}

# --- 2. two pools, one killed mid-run ---------------------------------------

# The pools start once every job is admitted: a job lasts a third of a
# second, so pools started before would have finished most of them
# while the uploads went on, and B might hold none by then.
my $ha = VideoOCR::Stack->new(workers => 2, @pool, no_worker => 1);
my $hb = VideoOCR::Stack->new(workers => 2, @pool, no_worker => 1,
                             ledger => $ha->ledger, store => $ha->store);

my $n = 12;
my @videos = map { video_bytes(seed => 1200 + $_, seconds => 4) } 1 .. $n;
my %job;

for my $i (1 .. $n) {
    my @out = VideoOCR::Test::parallel(2, sub {
        my $s = $_[0] ? $hb : $ha;
        my $r = $s->upload("multi-$i", $videos[$i - 1], args => 'fps=2');
        return "$r->{status} " . (decode_json($r->{body})->{job_id} // '-');
    });
    my %j = map { (split ' ')[1] => 1 } @out;
    ok(!grep({ !/^202 / } @out) && keys %j == 1,
       "video $i sent to both: one job") or diag("@out");
    $job{$i} = (keys %j)[0];
}

$hb->start_worker;
$ha->start_worker;

# Kill B while it holds jobs.  A job B was seen to hold may end before
# the kill, so B is stopped (SIGSTOP) first and its jobs read then: a
# stopped pool writes nothing, and its leases last 3 s, much longer
# than the read.  No job held: B goes on and is looked at again.
my $bsuper = $hb->worker_pid;
my (%bkids, @held);
wait_for(60, sub {
    %bkids = $hb->children;
    return 0 unless held_by($ha, \%bkids);
    kill 'STOP', $bsuper, values %bkids;
    @held = held_by($ha, \%bkids);
    kill 'CONT', $bsuper, values %bkids unless @held;
    return scalar @held;
});
ok(scalar @held, scalar(@held) . ' job(s) held by pool B when it is killed')
    or diag($hb->worker_log);

kill 'KILL', $bsuper, values %bkids;
waitpid $bsuper, 0;
delete $hb->{worker_pid};
ok(wait_for(10, sub { !grep { alive($_) } $bsuper, values %bkids }),
   'pool B is gone (SIGKILL)');

my $deadline = time + 180;
my %state;
while (time < $deadline) {
    %state = map { $_ => $ha->status($job{$_})->{state} // '?' } 1 .. $n;
    last unless grep { $state{$_} !~ /^(?:done|failed|rejected)$/ } 1 .. $n;
    sleep 0.5;
}
is(scalar(grep { $state{$_} eq 'done' } 1 .. $n), $n,
   'pool A finished every job') or diag(explain(\%state));

my %pub;
$pub{$_->{job_id}}++ for $ha->rows("SELECT job_id FROM events"
                                  . " WHERE kind = 'published'");
is(scalar(grep { ($pub{$job{$_}} // 0) == 1 } 1 .. $n), $n,
   'each published exactly once');

my %taken = map { $_->{job_id} => 1 }
            $ha->rows("SELECT job_id FROM events WHERE kind = 'taken_over'");
is(scalar(grep { $taken{$_} } @held), scalar @held,
   'every job pool B held was taken over by pool A')
    or diag(explain([\@held, [keys %taken]]));

my ($dup) = $ha->rows('SELECT count(*) AS n FROM (SELECT job_id, frame_index'
                     . ' FROM frames GROUP BY job_id, plan_version,'
                     . ' frame_index HAVING count(*) > 1) d');
is($dup->{n}, 0, 'no frame stored twice');

is($ha->stop_worker, 0, 'pool A stops cleanly');

done_testing();


# nginx's [error] and worse lines of the stacks, for a failure's diag
sub error_lines {
    my @lines;

    for my $s (@_) {
        push @lines, grep { /\[(?:error|crit|alert|emerg)\]/ }
                     split /^/m, $s->error_log;
    }

    chomp @lines;
    return @lines[0 .. ($#lines > 20 ? 20 : $#lines)];
}


# The jobs running under a lease of one of the children (slot => pid).
sub held_by {
    my ($s, $kids) = @_;
    my %pid = map { $_ => 1 } values %$kids;

    return map { $_->{job_id} }
           grep { my ($p) = ($_->{lease_owner} // '') =~ /:(\d+)\//;
                  $p && $pid{$p} }
           $s->rows("SELECT job_id, lease_owner FROM jobs"
                    . " WHERE state = 'running'");
}


# A process that exists and is not a zombie waiting for init.
sub alive {
    my ($pid) = @_;
    open my $fh, '<', "/proc/$pid/stat" or return 0;
    my ($state) = (<$fh> // '') =~ /^\d+ \(.*\) (\S)/;
    return ($state // 'Z') ne 'Z';
}
