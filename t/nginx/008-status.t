# GET <video_ocr_jobs location>/<job_id>: the status document, the
# published result formats, and the refusals of the endpoint.

use Test::Nginx::Socket 'no_plan';
use VideoOCR::Test;
use VideoOCR::Blocks;

our $V = video_bytes(seed => 1);

no_shuffle();
run_tests();

__DATA__

=== TEST 1: a new job's status
--- request eval
"POST /upload?fps=0.5\n$::V"
--- more_headers
Idempotency-Key: status
--- error_code: 202
--- ledger_check eval
sub {
    my ($block, $r) = @_;
    my $job = $r->[0]{json}{job_id};
    my $resp = http_request(uri => "/jobs/$job");
    is($resp->{status}, 200, "status 200");
    is($resp->{headers}{'content-type'}, 'application/json', "JSON");
    is($resp->{headers}{'cache-control'}, 'no-store', "not cached");
    my $s = decode_json_body($resp);
    is($s->{job_id}, $job, "job_id");
    is($s->{state}, 'accepted', "state");
    is_deeply($s->{options}, { crop => undef, fps => 0.5, lang => 'eng' },
              "canonical options");
    is($s->{input}{bytes}, length $::V, "input size");
    is($s->{input}{sha256}, sha256_hex($::V), "input digest");
    is($s->{input}{container}, 'mp4', "container");
    is($s->{attempts}, 0, "no attempt yet");
    is($s->{failures}, 0, "no failure");
    is($s->{progress}{frames_done}, 0, "no frame done");
    ok(!defined $s->{progress}{frames_planned}, "nothing planned yet");
    ok(!defined $s->{result}, "no result");
    ok(!defined $s->{error}, "no error");
    like($s->{created_at}, qr/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/,
         "RFC 3339 time");
    is($s->{created_at}, $r->[0]{json}{created_at}, "as in the receipt");
    is($s->{receipt_expires_at}, $r->[0]{json}{expires_at},
       "receipt expiry as in the receipt");
    my $head = http_request(method => 'HEAD', uri => "/jobs/$job");
    is($head->{status}, 200, "HEAD: 200");
    is($head->{body}, '', "HEAD: no body");
}



=== TEST 2: unknown and malformed job ids: 404
--- request eval
["GET /jobs/0123456789abcdef0123456789abcdef", "GET /jobs/xyz", "GET /jobs/", "GET /jobs/0123456789ABCDEF0123456789ABCDEF"]
--- error_code eval
[404, 404, 404, 404]
--- response_body_like eval
[("urn:video-ocr:problem:no-such-job") x 4]



=== TEST 3: a result format before the job is done: 409; bad format: 400
--- request eval
"POST /upload\n$::V"
--- more_headers
Idempotency-Key: not-done
--- error_code: 202
--- ledger_check eval
sub {
    my ($block, $r) = @_;
    my $job = $r->[0]{json}{job_id};
    my $vtt = http_request(uri => "/jobs/$job?format=vtt");
    is($vtt->{status}, 409, "vtt before done: 409");
    like($vtt->{body}, qr/"type":"urn:video-ocr:problem:not-done".*the job is accepted/,
         "says the state");
    my $bad = http_request(uri => "/jobs/$job?format=pdf");
    is($bad->{status}, 400, "unknown format: 400");
    like($bad->{body}, qr/urn:video-ocr:problem:bad-format/, "bad-format");
    like($bad->{body}, qr/json, vtt, srt, txt or ass/, "lists the formats");
    my $ass = http_request(uri => "/jobs/$job?format=ass");
    is($ass->{status}, 409, "ass before done: 409");
    my $json = http_request(uri => "/jobs/$job?format=json");
    is($json->{status}, 200, "format=json is the status document");
}



=== TEST 4: published results are served in each format
--- request eval
"POST /upload\n$::V"
--- more_headers
Idempotency-Key: done
--- error_code: 202
--- ledger_check eval
sub {
    my ($block, $r) = @_;
    my $job = $r->[0]{json}{job_id};
    # what video-ocr-worker's publish writes (sql/vo_ledger_worker.c);
    # the worker itself is exercised end to end in t/pool/
    my $dbh = ledger_dbh(rw => 1);
    $dbh->do("UPDATE jobs SET state = 'done' WHERE job_id = ?", undef, $job);
    my %body = (json => '{"segments":[]}', vtt => "WEBVTT\n\n",
                srt => "1\n00:00:00,000 --> 00:00:01,000\nHI\n\n",
                txt => "HI\n",
                ass => "[Script Info]\nScriptType: v4.00+\n");
    $dbh->do("INSERT INTO results (job_id, format, body) VALUES (?, ?, ?)",
             undef, $job, $_, $body{$_}) for sort keys %body;
    $dbh->disconnect;
    my %type = (vtt => 'text/vtt; charset=utf-8',
                srt => 'application/x-subrip; charset=utf-8',
                txt => 'text/plain; charset=utf-8',
                ass => 'text/x-ssa; charset=utf-8');
    for my $f (qw(vtt srt txt ass)) {
        my $resp = http_request(uri => "/jobs/$job?format=$f");
        is($resp->{status}, 200, "$f: 200");
        is($resp->{headers}{'content-type'}, $type{$f}, "$f: content type");
        is($resp->{body}, $body{$f}, "$f: the published body");
    }
    my $s = decode_json_body(http_request(uri => "/jobs/$job"));
    is($s->{state}, 'done', "status: done");
    is_deeply($s->{result}, { segments => [] }, "status embeds the json");
}



=== TEST 5: the jobs endpoint takes GET, HEAD and DELETE
--- request
PUT /jobs/0123456789abcdef0123456789abcdef
x
--- error_code: 405
--- response_headers
Allow: GET, HEAD, DELETE



=== TEST 6: DELETE of an unknown job or another tenant's: 404
--- request
DELETE /jobs/0123456789abcdef0123456789abcdef
--- error_code: 404
--- response_body_like: no-such-job



=== TEST 7: a job published without ass (by a worker older than it): 404
--- request eval
"POST /upload\n$::V"
--- more_headers
Idempotency-Key: done-before-ass
--- error_code: 202
--- ledger_check eval
sub {
    my ($block, $r) = @_;
    my $job = $r->[0]{json}{job_id};
    my $dbh = ledger_dbh(rw => 1);
    $dbh->do("UPDATE jobs SET state = 'done' WHERE job_id = ?", undef, $job);
    $dbh->do("INSERT INTO results (job_id, format, body) VALUES (?, ?, ?)",
             undef, $job, $_, $_ eq 'json' ? '{}' : "x\n")
        for qw(json vtt srt txt);
    $dbh->disconnect;
    my $ass = http_request(uri => "/jobs/$job?format=ass");
    is($ass->{status}, 404, "ass: 404");
    like($ass->{body}, qr/"type":"urn:video-ocr:problem:no-such-format".*other formats/,
         "no-such-format: the others are there");
    is(http_request(uri => "/jobs/$job?format=vtt")->{status}, 200,
       "vtt: 200");
}
