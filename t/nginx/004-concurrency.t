# Concurrent arrivals and lost responses: the uniqueness of the receipt,
# not lucky ordering, decides the outcome.  The first request of each
# block is an ordinary one; the concurrent clients run in ledger_check.

use Test::Nginx::Socket 'no_plan';
use VideoOCR::Test;
use VideoOCR::Blocks;

our $V = video_bytes(seed => 1);

# the uploads of a block, as "status job_id replayed" lines
sub summary {
    my ($resp) = @_;
    my $json = decode_json_body($resp);
    return join ' ', $resp->{status}, $json->{job_id} // '-',
                     $resp->{headers}{'idempotent-replayed'} // 'false';
}

no_shuffle();
run_tests();

__DATA__

=== TEST 1: 20 concurrent uploads, one key, one body: one job for all
--- request
GET /jobs/00000000000000000000000000000000
--- error_code: 404
--- ledger_check eval
sub {
    my @out = parallel(20, sub { main::summary(upload('storm', $::V)) });
    my %jobs = map { (split / /)[1] => 1 } @out;
    my @created = grep { / false$/ } @out;
    is(scalar(grep { /^202 / } @out), 20, "every client got 202")
        or diag(CORE::join("\n", @out));
    is(scalar keys %jobs, 1, "every response carries the same job_id");
    is(scalar @created, 1, "exactly one was not a replay");
    is(ledger_count('requests'), 1, "one receipt");
    is(ledger_count('jobs'), 1, "one job");
    is(scalar(() = store_files()), 1, "one stored file");
    is_deeply([temp_files()], [], "no temp file left");
    my ($job) = ledger_rows("SELECT job_id FROM jobs");
    is((keys %jobs)[0], $job->{job_id}, "the job replied is the job stored");
}



=== TEST 2: 20 concurrent uploads, 20 keys: 20 jobs
--- request
GET /jobs/00000000000000000000000000000000
--- error_code: 404
--- ledger_check eval
sub {
    my @out = parallel(20, sub { main::summary(upload("key-$_[0]", $::V)) });
    my %jobs = map { (split / /)[1] => 1 } @out;
    is(scalar(grep { /^202 \S+ false$/ } @out), 20, "20 created")
        or diag(CORE::join("\n", @out));
    is(scalar keys %jobs, 20, "20 job ids");
    is(ledger_count('requests'), 20, "20 receipts");
    is(ledger_count('jobs'), 20, "20 jobs");
    is(scalar(() = store_files()), 20, "20 files");
}



=== TEST 3: lost response: the client hangs up after the body, retries
--- request
GET /jobs/00000000000000000000000000000000
--- error_code: 404
--- ledger_check eval
sub {
    upload('lost-response', $::V, hangup => 1);
    ok(wait_for(10, sub { ledger_count('requests') == 1 }),
       "the first attempt was admitted although nobody read the reply");
    my $retry = upload('lost-response', $::V);
    is($retry->{status}, 202, "retry accepted");
    is($retry->{headers}{'idempotent-replayed'}, 'true', "as a replay");
    my ($req) = ledger_rows("SELECT job_id FROM requests");
    is(decode_json_body($retry)->{job_id}, $req->{job_id},
       "the receipt of the first attempt");
    is(ledger_count('jobs'), 1, "one job");
    is(scalar(() = store_files()), 1, "one file");
    is_deeply([temp_files()], [], "no temp file left");
}



=== TEST 4: lost response during a storm of retries with a reused key
--- request
GET /jobs/00000000000000000000000000000000
--- error_code: 404
--- ledger_check eval
sub {
    my $other = $::V . "trailing bytes change the digest";
    my @out = parallel(20, sub {
        my $i = shift;
        return main::summary(upload('mixed', $i % 4 == 3 ? $other : $::V,
                                    hangup => $i % 4 == 0));
    });
    my @lost = grep { /^0 / } @out;
    my @ok = grep { /^202 / } @out;
    my @mismatch = grep { /^422 / } @out;
    is(@lost + @ok + @mismatch, 20, "every answer is 202 or 422")
        or diag(CORE::join("\n", @out));
    is(ledger_count('jobs'), 1, "one job");
    is(ledger_count('requests'), 1, "one receipt");
    is(scalar(() = store_files()), 1, "one file");
    ok(wait_for(10, sub { !temp_files() }), "no temp file left");
    my ($job) = ledger_rows("SELECT input_sha256 FROM jobs");
    my $winner = $job->{input_sha256} eq sha256_hex($::V) ? 'V' : 'other';
    my $want = $winner eq 'V' ? 5 : 10;
    is(scalar @mismatch, $want, "every upload of the other payload got 422");
}
