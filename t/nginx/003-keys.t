# The Idempotency-Key at the edge: every malformed key is refused with
# 400 problem+json before the body is stored, and leaves no row and no
# file.  The accepted spellings are in 002-admission.t.

use Test::Nginx::Socket 'no_plan';
use VideoOCR::Test;
use VideoOCR::Blocks;

our $V = video_bytes(seed => 1);

our $nothing_left = sub {
    my ($block, $r) = @_;
    is(ledger_count('requests'), 0, "no receipt");
    is(ledger_count('jobs'), 0, "no job");
    is_deeply([store_files()], [], "no stored file");
    is_deeply([temp_files()], [], "no temp file");
};

no_shuffle();
run_tests();

__DATA__

=== TEST 1: no key: 400 missing-key
--- request eval
"POST /upload\n$::V"
--- error_code: 400
--- response_headers
Content-Type: application/problem+json
--- response_body_like: "type":"urn:video-ocr:problem:missing-key","title":"Bad Request","status":400
--- ledger_check eval: $::nothing_left



=== TEST 2: empty key
--- request eval
"POST /upload\n$::V"
--- more_headers
Idempotency-Key:
--- error_code: 400
--- response_body_like: "type":"urn:video-ocr:problem:bad-key".*is empty
--- ledger_check eval: $::nothing_left



=== TEST 3: empty quoted key
--- request eval
"POST /upload\n$::V"
--- more_headers
Idempotency-Key: ""
--- error_code: 400
--- response_body_like: "type":"urn:video-ocr:problem:bad-key"
--- ledger_check eval: $::nothing_left



=== TEST 4: 256 characters is one too many
--- request eval
"POST /upload\n$::V"
--- more_headers eval
"Idempotency-Key: " . ("k" x 256)
--- error_code: 400
--- response_body_like: longer than 255 characters
--- ledger_check eval: $::nothing_left



=== TEST 5: 255 characters is accepted
--- request eval
"POST /upload\n$::V"
--- more_headers eval
"Idempotency-Key: " . ("k" x 255)
--- error_code: 202
--- ledger_check eval
sub {
    my ($req) = ledger_rows("SELECT length(request_key) AS n FROM requests");
    is($req->{n}, 255, "the whole key is kept");
}



=== TEST 6: a control character
--- request eval
"POST /upload\n$::V"
--- more_headers eval
"Idempotency-Key: abc\x01def"
--- error_code: 400
--- response_body_like: only visible ASCII
--- ledger_check eval: $::nothing_left



=== TEST 7: a control character inside quotes
--- request eval
"POST /upload\n$::V"
--- more_headers eval
"Idempotency-Key: \"abc\x7fdef\""
--- error_code: 400
--- response_body_like: only visible ASCII
--- ledger_check eval: $::nothing_left



=== TEST 8: non-ASCII (UTF-8) key
--- request eval
"POST /upload\n$::V"
--- more_headers eval
"Idempotency-Key: cl\xc3\xa9"
--- error_code: 400
--- response_body_like: only visible ASCII
--- ledger_check eval: $::nothing_left



=== TEST 9: a space is only allowed inside quotes
--- request eval
["POST /upload\n$::V", "POST /upload\n$::V"]
--- more_headers eval
["Idempotency-Key: two words", "Idempotency-Key: \"two words\""]
--- error_code eval
[400, 202]
--- ledger_check eval
sub {
    my ($req) = ledger_rows("SELECT request_key FROM requests");
    is($req->{request_key}, 'two words', "the quoted key");
    is(ledger_count('jobs'), 1, "only the quoted one admitted");
}



=== TEST 10: unterminated string, bad escape, parameters
--- request eval
["POST /upload\n$::V", "POST /upload\n$::V", "POST /upload\n$::V"]
--- more_headers eval
["Idempotency-Key: \"abc", "Idempotency-Key: \"a\\bc\"", "Idempotency-Key: \"abc\";v=1"]
--- error_code eval
[400, 400, 400]
--- response_body_like eval
["no closing quote", "invalid escape", "parameters are not supported"]
--- ledger_check eval: $::nothing_left



=== TEST 11: two keys in one request are ambiguous
--- request eval
"POST /upload\n$::V"
--- more_headers
Idempotency-Key: one
Idempotency-Key: two
--- error_code: 400
--- response_body_like: exactly one Idempotency-Key
--- ledger_check eval: $::nothing_left



=== TEST 12: video_ocr_key_required off: no key, a job without receipt
--- config
    location = /upload {
        video_ocr_intake;
        video_ocr_key_required off;
    }
--- request eval
["POST /upload\n$::V", "POST /upload\n$::V"]
--- error_code eval
[202, 202]
--- response_body_like eval
['"expires_at":null', '"expires_at":null']
--- ledger_check eval
sub {
    is(ledger_count('requests'), 0, "no receipt");
    is(ledger_count('jobs'), 2, "each request is its own job");
    is(scalar(() = store_files()), 2, "two files");
}



=== TEST 13: the key is never logged, its keyed hash is
--- http_config
    video_ocr_ledger $DATA/ledger.db;
    video_ocr_store $DATA/store;
    client_body_temp_path $DATA/tmp;
    video_ocr_key_hash_secret "s3cret";
    log_format vo 'key=$video_ocr_key_hash job=$video_ocr_job_id admission=$video_ocr_admission';
    access_log logs/vo.log vo;
--- request eval
["POST /upload\n$::V", "POST /upload\n$::V", "POST /upload\n$::V"]
--- more_headers eval
["Idempotency-Key: do-not-log-me", "Idempotency-Key: do-not-log-me", "Idempotency-Key: other-key"]
--- error_code eval
[202, 202, 202]
--- ledger_check eval
sub {
    my ($block, $r) = @_;
    my $log = Test::Nginx::Socket::server_root() . '/logs/vo.log';
    my @lines;
    wait_for(5, sub {
        open my $fh, '<', $log or return 0;
        @lines = <$fh>;
        return @lines == 3;
    });
    my $all = CORE::join('', @lines);
    unlike($all, qr/do-not-log-me/, "the raw key is not in the access log");
    my $h = substr(Digest::SHA::hmac_sha256_hex("\0do-not-log-me", "s3cret"), 0, 16);
    my $job = $r->[0]{json}{job_id};
    like($lines[0], qr/^key=$h job=$job admission=created$/, "first: created");
    like($lines[1], qr/^key=$h job=$job admission=replayed$/, "retry: replayed");
    unlike($lines[2], qr/key=$h/, "another key, another hash");
}
