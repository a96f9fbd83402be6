# The admission matrix of seed 000: intent (the Idempotency-Key) and
# payload (body bytes + canonical options) varied independently.  Every
# block asserts the reply, the ledger rows and the stored files.

use Test::Nginx::Socket 'no_plan';
use VideoOCR::Test;
use VideoOCR::Blocks;

our $V1 = video_bytes(seed => 1);
our $V2 = video_bytes(seed => 2);

no_shuffle();
run_tests();

__DATA__

=== TEST 1: first upload: 202, receipt, Location, one row, one file
--- request eval
"POST /upload?lang=eng&fps=1\n$::V1"
--- more_headers
Idempotency-Key: first-upload-1
--- error_code: 202
--- response_headers_like
Location: .*/jobs/[0-9a-f]{32}$
Content-Type: application/json
--- response_headers
!Idempotent-Replayed
--- response_body_like: ^\{"job_id":"[0-9a-f]{32}","status_url":"/jobs/[0-9a-f]{32}","input_digest":"[0-9a-f]{64}","options":\{"crop":null,"fps":1,"lang":"eng"\},"created_at":"\d{4}-\d\d-\d\dT[\d:.]+Z","expires_at":"\d{4}-\d\d-\d\dT[\d:.]+Z"\}$
--- ledger_check eval
sub {
    my ($block, $r) = @_;
    my $job = $r->[0]{json}{job_id};
    my @req = ledger_rows("SELECT * FROM requests");
    is(scalar @req, 1, "one receipt");
    is($req[0]{request_key}, 'first-upload-1', "the key, unquoted");
    is($req[0]{job_id}, $job, "the receipt names the job replied");
    my @jobs = ledger_rows("SELECT * FROM jobs");
    is(scalar @jobs, 1, "one job");
    is($jobs[0]{state}, 'accepted', "accepted");
    is($jobs[0]{input_sha256}, sha256_hex($::V1), "body digest");
    is($jobs[0]{input_size}, length $::V1, "body size");
    is($jobs[0]{container}, 'mp4', "container sniffed");
    is_deeply([store_files()], ["$jobs[0]{input_path}"], "one stored file");
    is($jobs[0]{input_path}, substr($job, -2) . "/$job.video", "named by job");
    no warnings 'portable';    # 48-bit hex: fine on 64-bit perl
    cmp_ok(abs(hex(substr($job, 0, 12)) - $jobs[0]{created_at}), '<=', 1000,
           "the id begins with the admission time in ms");
    is_deeply([temp_files()], [], "no temp file left");
}
--- no_error_log
[error]



=== TEST 2: same key, same body, same options: the same receipt, replayed
--- request eval
["POST /upload?fps=1\n$::V1", "POST /upload?fps=1\n$::V1"]
--- more_headers
Idempotency-Key: same-intent
--- error_code eval
[202, 202]
--- response_headers eval
["!Idempotent-Replayed", "Idempotent-Replayed: true"]
--- ledger_check eval
sub {
    my ($block, $r) = @_;
    is($r->[1]{body}, $r->[0]{body}, "the replay is byte for byte the receipt");
    is(ledger_count('requests'), 1, "one receipt");
    is(ledger_count('jobs'), 1, "one job");
    is(scalar(() = store_files()), 1, "one file");
    is_deeply([temp_files()], [], "the replay's upload was dropped");
}
--- no_error_log
[error]



=== TEST 3: same key, another body: 422, nothing new kept
--- request eval
["POST /upload\n$::V1", "POST /upload\n$::V2"]
--- more_headers
Idempotency-Key: reused-key
--- error_code eval
[202, 422]
--- response_headers eval
["Content-Type: application/json", "Content-Type: application/problem+json"]
--- ledger_check eval
sub {
    my ($block, $r) = @_;
    is($r->[1]{json}{type}, 'urn:video-ocr:problem:key-reused', "problem type");
    is($r->[1]{json}{status}, 422, "problem status");
    is($r->[1]{json}{job_id}, $r->[0]{json}{job_id}, "names the first job");
    is(ledger_count('jobs'), 1, "one job");
    my ($job) = ledger_rows("SELECT * FROM jobs");
    is($job->{input_sha256}, sha256_hex($::V1), "the first body kept");
    is(scalar(() = store_files()), 1, "one file");
}



=== TEST 4: same key, same body, other options: 422
--- request eval
["POST /upload?fps=1\n$::V1", "POST /upload?fps=2\n$::V1"]
--- more_headers
Idempotency-Key: options-changed
--- error_code eval
[202, 422]
--- ledger_check eval
sub {
    is(ledger_count('jobs'), 1, "one job");
    is(scalar(() = store_files()), 1, "one file");
    is(ledger_count('requests'), 1, "one receipt");
}



=== TEST 5: defaults and spellings: no options, fps=1.000, lang=eng are one intent
--- request eval
["POST /upload\n$::V1", "POST /upload?fps=1.000&lang=eng\n$::V1", "POST /upload?lang=eng&fps=1\n$::V1"]
--- more_headers
Idempotency-Key: canonical
--- error_code eval
[202, 202, 202]
--- response_headers eval
["!Idempotent-Replayed", "Idempotent-Replayed: true", "Idempotent-Replayed: true"]
--- ledger_check eval
sub {
    my ($block, $r) = @_;
    is($r->[1]{json}{job_id}, $r->[0]{json}{job_id}, "same job");
    is($r->[2]{json}{job_id}, $r->[0]{json}{job_id}, "same job");
    is(ledger_count('jobs'), 1, "one job");
}



=== TEST 6: new key, same bytes: a new job (deliberate reprocessing)
--- request eval
["POST /upload\n$::V1", "POST /upload\n$::V1"]
--- more_headers eval
["Idempotency-Key: one", "Idempotency-Key: two"]
--- error_code eval
[202, 202]
--- response_headers eval
["!Idempotent-Replayed", "!Idempotent-Replayed"]
--- ledger_check eval
sub {
    my ($block, $r) = @_;
    isnt($r->[1]{json}{job_id}, $r->[0]{json}{job_id}, "two jobs");
    is(ledger_count('jobs'), 2, "two job rows");
    is(ledger_count('requests'), 2, "two receipts");
    is(scalar(() = store_files()), 2, "two files");
    is($r->[1]{json}{input_digest}, $r->[0]{json}{input_digest},
       "same input digest: same bytes, same options");
}



=== TEST 7: "k" and k are the same key
--- request eval
["POST /upload\n$::V1", "POST /upload\n$::V1"]
--- more_headers eval
["Idempotency-Key: \"quoted-or-not\"", "Idempotency-Key: quoted-or-not"]
--- error_code eval
[202, 202]
--- response_headers eval
["!Idempotent-Replayed", "Idempotent-Replayed: true"]
--- ledger_check eval
sub {
    my ($block, $r) = @_;
    is($r->[1]{json}{job_id}, $r->[0]{json}{job_id}, "same job");
    my ($req) = ledger_rows("SELECT request_key FROM requests");
    is($req->{request_key}, 'quoted-or-not', "stored unquoted");
}



=== TEST 8: the input digest covers the body and the canonical options
--- request eval
"POST /upload?fps=0.50&crop=0,10,320,100\n$::V1"
--- more_headers
Idempotency-Key: digest
--- error_code: 202
--- ledger_check eval
sub {
    my ($block, $r) = @_;
    my $opts = '{"crop":[0,10,320,100],"fps":0.5,"lang":"eng"}';
    my $want = sha256_hex("video-ocr/1\n" . sha256_hex($::V1) . "\n" . $opts);
    is($r->[0]{json}{input_digest}, $want, "documented digest");
    my ($req) = ledger_rows("SELECT input_digest FROM requests");
    is($req->{input_digest}, $want, "stored digest");
    my ($job) = ledger_rows("SELECT options FROM jobs");
    is($job->{options}, $opts, "canonical options stored");
}



=== TEST 8b: lang=auto is an option of its own: admitted, stored as given, another intent than eng
--- request eval
["POST /upload?lang=auto\n$::V1", "POST /upload?lang=eng\n$::V1", "POST /upload?lang=auto&fps=1.0\n$::V1"]
--- more_headers
Idempotency-Key: auto
--- error_code eval
[202, 422, 202]
--- response_headers eval
["!Idempotent-Replayed", "!Idempotent-Replayed", "Idempotent-Replayed: true"]
--- ledger_check eval
sub {
    my ($block, $r) = @_;
    my $opts = '{"crop":null,"fps":1,"lang":"auto"}';
    my ($job) = ledger_rows("SELECT options FROM jobs");
    is($job->{options}, $opts, "canonical options keep auto");
    is($r->[0]{json}{input_digest},
       sha256_hex("video-ocr/1\n" . sha256_hex($::V1) . "\n" . $opts),
       "the digest covers auto, not eng");
    is(ledger_count('jobs'), 1, "one job");
}



=== TEST 9: a chunked retry of the same intent is a replay
--- request eval
"POST /upload\n$::V1"
--- more_headers
Idempotency-Key: transfer
--- error_code: 202
--- ledger_check eval
sub {
    my ($block, $r) = @_;
    my $resp = upload('transfer', $::V1, chunked => 4000);
    is($resp->{status}, 202, "chunked retry accepted");
    is($resp->{headers}{'idempotent-replayed'}, 'true', "as a replay");
    is(decode_json_body($resp)->{job_id}, $r->[0]{json}{job_id}, "same job");
    is(ledger_count('jobs'), 1, "one job");
    is(scalar(() = store_files()), 1, "one file");
}
