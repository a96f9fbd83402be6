# tus 1.0 as other servers' test suites expect it (issue 38): the points
# where the module answered otherwise than the protocol says, each block
# with the exact request of the test vector that found it (lua-tus-server's
# t/suite.t, tusd's handler tests, the protocol's MUSTs), adapted only by
# the Idempotency-Key the module asks of a creation:
#
#   1. HEAD gives back Upload-Metadata as the creation sent it;
#   2. a successful DELETE answers 204 with Tus-Resumable;
#   3. a deferred length above Tus-Max-Size, given by a PATCH, is 413;
#   4. the checksum extension has sha1 (and sha256);
#   5. X-HTTP-Method-Override is obeyed;
#   6. a path under the intake that is no upload is 404, with
#      Tus-Resumable;
#   7. OPTIONS does not look at Tus-Resumable.
#
# Each block checks the ledger's row and the partial file as well.

use Test::Nginx::Socket 'no_plan';
use VideoOCR::Test;
use VideoOCR::Blocks;
use MIME::Base64 qw(encode_base64);
use Digest::SHA qw(sha1 sha256);

our $V = video_bytes(seed => 21, seconds => 2);

# a prefix intake (upload resources below it), Tus-Max-Size 1 MiB
$VideoOCR::Blocks::CONFIG = <<'EOF';
    location /upload {
        video_ocr_intake;
        video_ocr_jobs_url /jobs/;
        client_max_body_size 1m;
    }

    location /jobs/ {
        video_ocr_jobs;
    }
EOF

our @TUS = ('Tus-Resumable' => '1.0.0');

sub b64 { return encode_base64($_[0], '') }

# A tus creation (201); returns the response and the upload's path.
sub create {
    my (@h) = @_;
    my $r = http_request(method => 'POST', uri => '/upload',
                         headers => [@TUS, @h]);
    return ($r, $r->{headers}{location});
}

sub id_of { my ($path) = @_; return ($path // '') =~ m{/([0-9a-f]{32})$} ? $1 : '' }

sub upload_row {
    my ($id) = @_;
    my ($row) = ledger_rows('SELECT * FROM uploads WHERE upload_id = ?', $id);
    return $row;
}

sub part_file {
    my ($id) = @_;
    return data_dir() . '/store/uploads/' . substr($id, -2) . "/$id.part";
}

no_shuffle();
run_tests();

__DATA__

=== TEST 1: HEAD returns Upload-Metadata exactly as the creation sent it (creation: "name dGVzdC50eHQ=,mimetype dGV4dC9wbGFpbg==")
--- request
GET /jobs/00000000000000000000000000000000
--- error_code: 404
--- ledger_check eval
sub {
    my $md = 'name dGVzdC50eHQ=,mimetype dGV4dC9wbGFpbg==';
    my ($c, $path) = main::create('Upload-Length' => 11, 'Upload-Metadata' => $md,
                                  'Idempotency-Key' => 'md-1');
    is($c->{status}, 201, 'creation with Upload-Metadata: 201');
    my $h = http_request(method => 'HEAD', uri => $path, headers => [@::TUS]);
    is($h->{status}, 204, 'HEAD: 204');
    is($h->{headers}{'upload-offset'}, 0, 'Upload-Offset');
    is($h->{headers}{'upload-length'}, 11, 'Upload-Length');
    is($h->{headers}{'upload-metadata'}, $md, 'Upload-Metadata, byte for byte');
    is($h->{headers}{'tus-resumable'}, '1.0.0', 'Tus-Resumable');
    is(main::upload_row(main::id_of($path))->{metadata}, $md, 'the ledger keeps it');
    is(main::upload_row(main::id_of($path))->{filename}, 'test.txt', 'and the file name of "name"');
    my ($c2, $p2) = main::create('Upload-Length' => 11, 'Idempotency-Key' => 'md-2');
    my $h2 = http_request(method => 'HEAD', uri => $p2, headers => [@::TUS]);
    ok(!exists $h2->{headers}{'upload-metadata'}, 'created without it: HEAD gives none');
    is(main::upload_row(main::id_of($p2))->{metadata}, undef, 'nor does the ledger keep any');
}



=== TEST 2: a successful DELETE answers 204 with Tus-Resumable: 1.0.0 (and no Upload-Offset of what is gone)
--- request
GET /jobs/00000000000000000000000000000000
--- error_code: 404
--- ledger_check eval
sub {
    my ($c, $path) = main::create('Upload-Length' => 100, 'Idempotency-Key' => 'del-1');
    my $id = main::id_of($path);
    ok(-e main::part_file($id), 'a partial file');
    my $d = http_request(method => 'DELETE', uri => $path, headers => [@::TUS]);
    is($d->{status}, 204, 'DELETE: 204');
    is($d->{headers}{'tus-resumable'}, '1.0.0', 'with Tus-Resumable: 1.0.0');
    ok(!exists $d->{headers}{'upload-offset'}, 'and no Upload-Offset');
    is(main::upload_row($id), undef, 'the row is gone');
    ok(!-e main::part_file($id), 'the file is gone');
    my $again = http_request(method => 'DELETE', uri => $path, headers => [@::TUS]);
    is($again->{status}, 404, 'DELETE again: 404');
    is($again->{headers}{'tus-resumable'}, '1.0.0', 'with Tus-Resumable too');
}



=== TEST 3: a deferred length set by PATCH above Tus-Max-Size (Upload-Length: 1048577, max 1048576) is 413, as at creation; nothing changes
--- request
GET /jobs/00000000000000000000000000000000
--- error_code: 404
--- ledger_check eval
sub {
    my $o = http_request(method => 'OPTIONS', uri => '/upload');
    is($o->{headers}{'tus-max-size'}, 1048576, 'Tus-Max-Size: 1048576');
    my ($c, $path) = main::create('Upload-Defer-Length' => 1, 'Idempotency-Key' => 'big-1');
    is($c->{status}, 201, 'creation with a deferred length: 201');
    my $id = main::id_of($path);
    my $p = http_request(method => 'PATCH', uri => $path,
                         headers => [@::TUS, 'Upload-Offset' => 0,
                                     'Upload-Length' => 1048577,
                                     'Content-Type' => 'application/offset+octet-stream'],
                         body => substr($::V, 0, 100));
    is($p->{status}, 413, 'PATCH with Upload-Length: 1048577: 413');
    is($p->{headers}{'tus-resumable'}, '1.0.0', 'with Tus-Resumable');
    my $u = main::upload_row($id);
    is($u->{upload_length}, undef, 'the length is still deferred');
    is($u->{upload_offset}, 0, 'no byte kept');
    is($u->{writer}, 0, 'the upload was not even claimed');
    is(-s main::part_file($id), 0, 'the partial file is empty');
    my $at = http_request(method => 'POST', uri => '/upload',
                          headers => [@::TUS, 'Upload-Length' => 1048577,
                                      'Idempotency-Key' => 'big-2']);
    is($at->{status}, 413, 'the same length at creation: 413 (as before)');
    my $ok = http_request(method => 'PATCH', uri => $path,
                          headers => [@::TUS, 'Upload-Offset' => 0,
                                      'Upload-Length' => 1048576,
                                      'Content-Type' => 'application/offset+octet-stream'],
                          body => substr($::V, 0, 100));
    is($ok->{status}, 204, 'Upload-Length: 1048576: accepted');
    is(main::upload_row($id)->{upload_length}, 1048576, 'and recorded');
}



=== TEST 4: the checksum extension has sha1, which a server that advertises it must have: a right sha1 keeps the chunk, a wrong one is 460 and keeps nothing
--- request
GET /jobs/00000000000000000000000000000000
--- error_code: 404
--- ledger_check eval
sub {
    my $o = http_request(method => 'OPTIONS', uri => '/upload');
    like($o->{headers}{'tus-extension'}, qr/(^|,)checksum(,|$)/, 'checksum advertised');
    is($o->{headers}{'tus-checksum-algorithm'}, 'sha1,sha256', 'Tus-Checksum-Algorithm: sha1,sha256');
    my ($c, $path) = main::create('Upload-Length' => length $::V, 'Idempotency-Key' => 'sha1-1');
    my $id = main::id_of($path);
    my $first = substr($::V, 0, 1000);
    my $bad = http_request(method => 'PATCH', uri => $path,
                           headers => [@::TUS, 'Upload-Offset' => 0,
                                       'Content-Type' => 'application/offset+octet-stream',
                                       'Upload-Checksum' => 'sha1 ' . main::b64(Digest::SHA::sha1('other'))],
                           body => $first);
    is($bad->{status}, 460, 'a wrong sha1: 460');
    is(main::upload_row($id)->{upload_offset}, 0, 'the chunk was not kept');
    my $p = http_request(method => 'PATCH', uri => $path,
                         headers => [@::TUS, 'Upload-Offset' => 0,
                                     'Content-Type' => 'application/offset+octet-stream',
                                     'Upload-Checksum' => 'sha1 ' . main::b64(Digest::SHA::sha1($first))],
                         body => $first);
    is($p->{status}, 204, 'Upload-Checksum: sha1 <base64 of the chunk\'s SHA-1>: 204');
    is($p->{headers}{'upload-offset'}, 1000, 'kept');
    my $rest = substr($::V, 1000);
    my $f = http_request(method => 'PATCH', uri => $path,
                         headers => [@::TUS, 'Upload-Offset' => 1000,
                                     'Content-Type' => 'application/offset+octet-stream',
                                     'Upload-Checksum' => 'sha256 ' . main::b64(Digest::SHA::sha256($rest))],
                         body => $rest);
    is($f->{status}, 204, 'sha256 still: the last PATCH, 204');
    my ($job) = ledger_rows('SELECT * FROM jobs');
    is($f->{headers}{'video-ocr-job'}, $job->{job_id}, 'the upload is a job');
    is($job->{input_sha256}, sha256_hex($::V), 'of the whole bytes');
    my $md5 = http_request(method => 'PATCH', uri => $path,
                           headers => [@::TUS, 'Upload-Offset' => 0,
                                       'Content-Type' => 'application/offset+octet-stream',
                                       'Upload-Checksum' => 'md5 ' . main::b64('x' x 16)],
                           body => $first);
    is($md5->{status}, 400, 'another algorithm: 400');
    like(decode_json_body($md5)->{detail}, qr/sha1 or sha256/, 'that says which there are');
}



=== TEST 5: X-HTTP-Method-Override: GET taken for OPTIONS
--- request
GET /upload
--- more_headers
X-HTTP-Method-Override: OPTIONS
--- error_code: 204
--- response_headers
Tus-Resumable: 1.0.0
Tus-Version: 1.0.0
Tus-Max-Size: 1048576



=== TEST 6: X-HTTP-Method-Override: POST taken for PATCH, HEAD and DELETE; an unknown method is 400
--- request
GET /jobs/00000000000000000000000000000000
--- error_code: 404
--- ledger_check eval
sub {
    my ($c, $path) = main::create('Upload-Length' => length $::V, 'Idempotency-Key' => 'ov-1');
    my $id = main::id_of($path);
    my $p = http_request(method => 'POST', uri => $path,
                         headers => [@::TUS, 'X-HTTP-Method-Override' => 'PATCH',
                                     'Upload-Offset' => 0,
                                     'Content-Type' => 'application/offset+octet-stream'],
                         body => substr($::V, 0, 700));
    is($p->{status}, 204, 'POST with X-HTTP-Method-Override: PATCH: 204, an append');
    is($p->{headers}{'upload-offset'}, 700, 'Upload-Offset: 700');
    is(main::upload_row($id)->{upload_offset}, 700, 'committed');
    is(-s main::part_file($id), 700, 'written');
    my $h = http_request(method => 'POST', uri => $path,
                         headers => [@::TUS, 'X-HTTP-Method-Override' => 'HEAD']);
    is($h->{status}, 204, 'POST taken for HEAD: 204');
    is($h->{headers}{'upload-offset'}, 700, 'with the offset');
    is($h->{body}, '', 'and no body');
    my $x = http_request(method => 'POST', uri => $path,
                         headers => [@::TUS, 'X-HTTP-Method-Override' => 'patch']);
    is($x->{status}, 400, 'an override that names no method (methods are case-sensitive): 400');
    like(decode_json_body($x)->{detail}, qr/X-HTTP-Method-Override must be one of/, 'saying which');
    is($x->{headers}{'tus-resumable'}, '1.0.0', 'with Tus-Resumable');
    my $d = http_request(method => 'POST', uri => $path,
                         headers => [@::TUS, 'X-HTTP-Method-Override' => 'DELETE']);
    is($d->{status}, 204, 'POST taken for DELETE: 204');
    is(main::upload_row($id), undef, 'the upload is gone');
    ok(!-e main::part_file($id), 'its file too');
}



=== TEST 7: a path under the intake that is not an upload id is 404 with Tus-Resumable, not 405
--- request
HEAD /upload/1234567890
--- more_headers
Tus-Resumable: 1.0.0
--- error_code: 404
--- response_headers
Tus-Resumable: 1.0.0
!Allow



=== TEST 8: the same for PATCH and DELETE; a plain POST below the intake is still the plain POST's
--- request
GET /jobs/00000000000000000000000000000000
--- error_code: 404
--- ledger_check eval
sub {
    for my $m ('PATCH', 'DELETE', 'GET') {
        my $r = http_request(method => $m, uri => '/upload/nothing-here', headers => [@::TUS]);
        is($r->{status}, 404, "$m /upload/nothing-here: 404");
        is(decode_json_body($r)->{type}, 'urn:video-ocr:problem:no-such-upload', 'no-such-upload');
        is($r->{headers}{'tus-resumable'}, '1.0.0', 'with Tus-Resumable');
    }
    my $plain = http_request(method => 'HEAD', uri => '/upload/1234567890');
    is($plain->{status}, 404, 'without any protocol header: 404 as well');
    is(ledger_count('uploads'), 0, 'nothing made');
    is_deeply([store_files()], [], 'nothing stored');
}



=== TEST 9: OPTIONS ignores Tus-Resumable (another version is no 412 there)
--- request
OPTIONS /upload
--- more_headers
Tus-Resumable: 0.2.2
--- error_code: 204
--- response_headers
Tus-Resumable: 1.0.0
Tus-Version: 1.0.0
Tus-Extension: creation,creation-with-upload,creation-defer-length,termination,expiration,checksum,concatenation
Tus-Checksum-Algorithm: sha1,sha256
