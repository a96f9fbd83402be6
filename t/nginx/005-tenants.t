# Tenant scoping: a key is scoped by tenant, and a job of tenant A is
# invisible to tenant B.  The tenant comes from video_ocr_tenant; these
# tests take it from a header for brevity, which a real deployment must
# never do (see conf.d/ for auth_basic and auth_request examples).

use Test::Nginx::Socket 'no_plan';
use VideoOCR::Test;
use VideoOCR::Blocks;

our $V = video_bytes(seed => 1);

$VideoOCR::Blocks::CONFIG = <<'EOF';
    video_ocr_tenant $http_x_tenant;

    location = /upload {
        video_ocr_intake;
        video_ocr_jobs_url /jobs/;
    }

    location /jobs/ {
        video_ocr_jobs;
    }
EOF

no_shuffle();
run_tests();

__DATA__

=== TEST 1: one key under two tenants: two jobs
--- request eval
["POST /upload\n$::V", "POST /upload\n$::V"]
--- more_headers eval
["Idempotency-Key: shared\nX-Tenant: alice", "Idempotency-Key: shared\nX-Tenant: bob"]
--- error_code eval
[202, 202]
--- response_headers eval
["!Idempotent-Replayed", "!Idempotent-Replayed"]
--- ledger_check eval
sub {
    my ($block, $r) = @_;
    isnt($r->[1]{json}{job_id}, $r->[0]{json}{job_id}, "two job ids");
    my @req = ledger_rows("SELECT tenant, request_key FROM requests"
                          . " ORDER BY tenant");
    is_deeply([map { "$_->{tenant}/$_->{request_key}" } @req],
              ['alice/shared', 'bob/shared'], "a receipt per tenant");
    is(ledger_count('jobs'), 2, "two jobs");
}



=== TEST 2: tenant B cannot read tenant A's job; A can
--- request eval
"POST /upload\n$::V"
--- more_headers
Idempotency-Key: private
X-Tenant: alice
--- error_code: 202
--- ledger_check eval
sub {
    my ($block, $r) = @_;
    my $job = $r->[0]{json}{job_id};
    my $bob = http_request(uri => "/jobs/$job",
                           headers => ['X-Tenant' => 'bob']);
    is($bob->{status}, 404, "bob: 404");
    like($bob->{body}, qr/"type":"urn:video-ocr:problem:no-such-job"/,
         "the same answer as for an unknown job");
    unlike($bob->{body}, qr/$job/, "nothing of the job leaks");
    my $alice = http_request(uri => "/jobs/$job",
                             headers => ['X-Tenant' => 'alice']);
    is($alice->{status}, 200, "alice: 200");
    is(decode_json_body($alice)->{job_id}, $job, "alice sees her job");
}



=== TEST 3: tenant B reusing A's key is new intent for B, not a mismatch
--- request eval
["POST /upload\n$::V", "POST /upload\n$::V" . "x"]
--- more_headers eval
["Idempotency-Key: k\nX-Tenant: alice", "Idempotency-Key: k\nX-Tenant: bob"]
--- error_code eval
[202, 202]
--- ledger_check eval
sub {
    is(ledger_count('jobs'), 2, "two jobs");
}



=== TEST 4: no tenant identity: 403, nothing stored
--- request eval
"POST /upload\n$::V"
--- more_headers
Idempotency-Key: anonymous
--- error_code: 403
--- response_body_like: "type":"urn:video-ocr:problem:no-tenant"
--- ledger_check eval
sub {
    is(ledger_count('jobs'), 0, "no job");
    is_deeply([store_files()], [], "no file");
}
