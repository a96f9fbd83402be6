# Resumable uploads on the intake location (issue 15): the IETF draft
# (interop version 8, and 6) and tus 1.0, their completion through the
# ordinary admission, the limits, the bad headers, cut and silent clients,
# a second append that takes over, the janitor (kill -9 of the nginx
# workers, and the worker pool reading the text: t/pool/143-resumable.t).
# Every block checks the ledger's uploads row, the partial file and the
# job as well as the replies; each runs on SQLite and (make test-pg) on
# PostgreSQL.

use Test::Nginx::Socket 'no_plan';
use VideoOCR::Test;
use VideoOCR::Blocks;
use IO::Socket::INET;
use Time::HiRes qw(sleep);
use Cwd ();
use File::Path ();

our $V = video_bytes(seed => 11, seconds => 2);
our $W = video_bytes(seed => 12, seconds => 2);
our $BIG = $V . ("\0" x (3 * 1024 * 1024));     # an mp4 with a long tail

# the intake as a prefix location: upload resources are URLs below it
$VideoOCR::Blocks::CONFIG = <<'EOF';
    location /upload {
        video_ocr_intake;
        video_ocr_jobs_url /jobs/;
        client_max_body_size 64m;
        client_body_timeout 2s;
        video_ocr_uploads_max 3;
    }

    location /jobs/ {
        video_ocr_jobs;
    }
EOF

our @IETF = ('Upload-Draft-Interop-Version' => 8);
our @TUS = ('Tus-Resumable' => '1.0.0');

# An IETF creation; returns (response, upload path).
sub create {
    my (%a) = @_;
    my $r = http_request(method => 'POST', uri => $a{uri} // '/upload',
                         headers => [@IETF, 'Upload-Complete' => '?0',
                                     @{ $a{headers} // [] }],
                         body => $a{body});
    return ($r, $r->{headers}{location});
}

sub patch {
    my ($path, $offset, $body, %a) = @_;
    return http_request(method => 'PATCH', uri => $path,
                        headers => [@{ $a{proto} // \@IETF },
                                    'Upload-Offset' => $offset,
                                    $a{tus} ? ()
                                    : ('Upload-Complete' => $a{complete}
                                                           ? '?1' : '?0'),
                                    'Content-Type' => $a{tus}
                                        ? 'application/offset+octet-stream'
                                        : 'application/partial-upload',
                                    @{ $a{headers} // [] }],
                        body => $body);
}

# The final response after the 1xx of a raw reply (http_request keeps
# the first head it sees).
sub final {
    my ($r) = @_;
    (my $raw = $r->{raw}) =~ s{^(?:HTTP/1\.1 1\d\d [^\r]*\r\n(?:[^\r]+\r\n)*\r\n)+}{};
    my ($head, $body) = split /\r\n\r\n/, $raw, 2;
    my ($line, @lines) = split /\r\n/, $head;
    my ($status) = $line =~ m{^HTTP/1\.[01] (\d{3})};
    my %h = map { my ($k, $v) = split /:\s*/, $_, 2; (lc $k => $v) } @lines;
    return { status => $status, headers => \%h, body => $body, raw => $raw };
}

sub head_of {
    my ($path, @h) = @_;
    return http_request(method => 'HEAD', uri => $path,
                        headers => [@h ? @h : @IETF]);
}

sub upload_row {
    my ($id) = @_;
    my ($row) = ledger_rows('SELECT * FROM uploads WHERE upload_id = ?',
                           $id);
    return $row;
}

sub part_file {
    my ($id) = @_;
    return data_dir() . '/store/uploads/' . substr($id, -2) . "/$id.part";
}

# the SHA-256 of the job's stored input file, read back (input_sha256 is
# the running digest of the bytes received, not of what the file holds)
sub stored_sha256 {
    my ($job) = @_;
    my $file = data_dir() . "/store/$job->{input_path}";
    open my $fh, '<:raw', $file or return "$file: $!";
    return Digest::SHA->new(256)->addfile($fh)->hexdigest;
}

sub id_of { my ($path) = @_; return ($path // '') =~ m{/([0-9a-f]{32})$} ? $1 : '' }

# Sends the head and the first $n bytes of an append, then keeps the
# connection open (returns the socket) or, with close, hangs up.
sub partial_append {
    my ($path, $offset, $body, $n, %a) = @_;
    my $s = IO::Socket::INET->new(PeerAddr => '127.0.0.1',
                                  PeerPort => Test::Nginx::Socket::server_port(),
                                  Proto => 'tcp') or die "connect: $!";
    my $req = "PATCH $path HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
              . "Upload-Draft-Interop-Version: 8\r\nUpload-Offset: $offset\r\n"
              . "Upload-Complete: " . ($a{complete} ? '?1' : '?0') . "\r\n"
              . "Content-Type: application/partial-upload\r\n"
              . "Content-Length: " . length($body) . "\r\n\r\n"
              . substr($body, 0, $n);
    my $off = 0;
    while ($off < length $req) {
        my $w = syswrite($s, $req, 65536, $off);
        die "write: $!" unless defined $w;
        $off += $w;
    }
    if ($a{close}) {
        close $s;
        return undef;
    }
    return $s;
}

no_shuffle();
run_tests();

__DATA__

=== TEST 1: IETF creation: 201, an unguessable Location below the intake, Upload-Limit, one row, an empty partial file
--- request
GET /jobs/00000000000000000000000000000000
--- error_code: 404
--- ledger_check eval
sub {
    my ($r, $path) = main::create(headers => ['Idempotency-Key' => 'c-1',
                                              'Upload-Length' => length $::V]);
    is($r->{status}, 201, '201 Created');
    like($path, qr{^/upload/[0-9a-f]{32}$}, 'Location: the intake/<128 random bits>');
    is($r->{headers}{'upload-complete'}, '?0', 'Upload-Complete: ?0');
    is($r->{headers}{'upload-offset'}, '0', 'Upload-Offset: 0');
    like($r->{headers}{'upload-limit'}, qr/^max-size=67108864, max-age=8639\d$/,
         'Upload-Limit: client_max_body_size and the expiry (24 h)');
    my $id = main::id_of($path);
    my $u = main::upload_row($id);
    is($u->{state}, 'incomplete', 'the row: incomplete');
    is($u->{request_key}, 'c-1', 'its key');
    is($u->{upload_length}, length $::V, 'its declared length');
    is($u->{upload_offset}, 0, 'offset 0');
    is(-s main::part_file($id), 0, 'an empty partial file');
    my ($again, $path2) = main::create(headers => ['Idempotency-Key' => 'c-1',
                                                   'Upload-Length' => length $::V]);
    is($again->{status}, 201, 'a retried creation: 201');
    is($path2, $path, 'the same upload resource, not a second one');
    is(ledger_count('uploads'), 1, 'one row');
    my ($bad) = main::create(headers => ['Idempotency-Key' => 'c-1',
                                         'Upload-Length' => 5 + length $::V]);
    is($bad->{status}, 422, 'the key with another length: 422');
}



=== TEST 2: IETF appends, HEAD, a wrong offset (409), completion (202 receipt), replays; a plain POST of the same key and bytes is the same job
--- request
GET /jobs/00000000000000000000000000000000
--- error_code: 404
--- ledger_check eval
sub {
    my ($r, $path) = main::create(headers => ['Idempotency-Key' => 'r-1']);
    my $id = main::id_of($path);
    my $a = main::patch($path, 0, substr($::V, 0, 1000));
    is($a->{status}, 204, 'an append: 204');
    is($a->{headers}{'upload-offset'}, '1000', 'acknowledged: Upload-Offset 1000');
    is(-s main::part_file($id), 1000, 'the partial file holds 1000 bytes');
    my $h = main::head_of($path);
    is($h->{status}, 204, 'HEAD: 204');
    is($h->{headers}{'upload-offset'}, '1000', 'HEAD: Upload-Offset');
    is($h->{headers}{'upload-complete'}, '?0', 'HEAD: Upload-Complete ?0');
    is($h->{headers}{'cache-control'}, 'no-store', 'HEAD: Cache-Control no-store');
    like($h->{headers}{'upload-limit'}, qr/max-size=67108864/, 'HEAD: Upload-Limit');
    my $c = main::patch($path, 500, substr($::V, 500));
    is($c->{status}, 409, 'a wrong offset: 409');
    is($c->{headers}{'upload-offset'}, '1000', 'with the right offset');
    my $p = decode_json_body($c);
    is($p->{type}, 'https://iana.org/assignments/http-problem-types#mismatching-upload-offset', 'the draft problem type');
    is($p->{'expected-offset'}, 1000, 'expected-offset');
    is($p->{'provided-offset'}, 500, 'provided-offset');
    is(main::upload_row($id)->{upload_offset}, 1000, 'nothing changed');
    my $f = main::patch($path, 1000, substr($::V, 1000), complete => 1);
    is($f->{status}, 202, 'the completing append: 202');
    is($f->{headers}{'upload-complete'}, '?1', 'Upload-Complete: ?1');
    my $rc = decode_json_body($f);
    like($rc->{job_id}, qr/^[0-9a-f]{32}$/, 'the receipt names the job');
    my ($job) = ledger_rows('SELECT * FROM jobs');
    is($job->{job_id}, $rc->{job_id}, 'the job of the receipt');
    is($job->{input_sha256}, sha256_hex($::V), 'the whole body, hashed without being read again');
    is(main::stored_sha256($job), sha256_hex($::V), 'the stored file is those bytes');
    is($job->{input_size}, length $::V, 'its size');
    is($job->{container}, 'mp4', 'sniffed');
    is_deeply([store_files()], [substr($job->{job_id}, -2) . "/$job->{job_id}.video"],
              'the job input in the store, the partial file gone');
    my $u = main::upload_row($id);
    is($u->{state}, 'completed', 'the upload: completed');
    is($u->{job_id}, $job->{job_id}, 'it names its job');
    my $again = main::patch($path, length $::V, '', complete => 1);
    is($again->{status}, 202, 'an append to a completed upload: the receipt');
    is($again->{headers}{'idempotent-replayed'}, 'true', 'Idempotent-Replayed: true');
    is($again->{body}, $f->{body}, 'byte for byte the same receipt');
    my $post = upload('r-1', $::V);
    is($post->{status}, 202, 'a plain POST, same key and bytes: 202');
    is($post->{headers}{'idempotent-replayed'}, 'true', 'a replay');
    is(decode_json_body($post)->{job_id}, $job->{job_id}, 'the same job');
    is(ledger_count('jobs'), 1, 'one job in all');
    my $hc = main::head_of($path);
    is($hc->{headers}{'upload-complete'}, '?1', 'HEAD of a completed upload: ?1');
    is($hc->{headers}{'video-ocr-job'}, $job->{job_id}, 'and which job it became');
}



=== TEST 3: a POST first, then the same key resumably: the same job; other bytes under the key: 422 at completion, the upload gone
--- request
GET /jobs/00000000000000000000000000000000
--- error_code: 404
--- ledger_check eval
sub {
    my $post = upload('p-1', $::V);
    is($post->{status}, 202, 'the POST: 202');
    my ($r, $path) = main::create(headers => ['Idempotency-Key' => 'p-1']);
    my $f = main::patch($path, 0, $::V, complete => 1);
    is($f->{status}, 202, 'the resumable upload completes: 202');
    is($f->{headers}{'idempotent-replayed'}, 'true', 'a replay of the POST');
    is(decode_json_body($f)->{job_id}, decode_json_body($post)->{job_id}, 'the same job');
    my ($r2, $path2) = main::create(headers => ['Idempotency-Key' => 'p-2']);
    is(upload('p-2', $::W)->{status}, 202, 'p-2 posted with other bytes');
    my $m = main::patch($path2, 0, $::V, complete => 1);
    is($m->{status}, 422, 'the key reused for other bytes: 422 at completion');
    is($m->{headers}{'upload-complete'}, '?1', 'Upload-Complete: ?1');
    is(main::upload_row(main::id_of($path2)), undef, 'its upload is gone');
    ok(!-e main::part_file(main::id_of($path2)), 'and its partial file');
    is(ledger_count('jobs'), 2, 'two jobs: p-1 and p-2');
}



=== TEST 4: a creation that carries everything (Upload-Complete ?1) gets the final response
--- request
GET /jobs/00000000000000000000000000000000
--- error_code: 404
--- ledger_check eval
sub {
    my $r = http_request(method => 'POST', uri => '/upload?fps=2',
                         headers => [@::IETF, 'Upload-Complete' => '?1',
                                     'Idempotency-Key' => 'w-1'],
                         body => $::V);
    like($r->{raw}, qr{^HTTP/1\.1 104 Upload Resumption Supported\r\nUpload-Draft-Interop-Version: 8\r\nLocation: /upload/[0-9a-f]{32}\r\nUpload-Limit: max-size=67108864, max-age=\d+\r\n\r\n},
         'HTTP/1.1, interop 8: 104 first, with the upload resource and its limits');
    $r = main::final($r);
    is($r->{status}, 202, '202: the receipt');
    is($r->{headers}{'upload-complete'}, '?1', 'Upload-Complete: ?1');
    like($r->{headers}{location}, qr{/jobs/[0-9a-f]{32}$}, 'Location: the job');
    my $j = decode_json_body($r);
    is($j->{options}{fps}, 2, 'the options of the query');
    my ($u) = ledger_rows('SELECT * FROM uploads');
    is($u->{state}, 'completed', 'an upload row, completed');
    is($u->{job_id}, $j->{job_id}, 'naming the job');
}



=== TEST 5: tus 1.0: OPTIONS, creation with metadata, a checksum mismatch (460, not kept), completion (204 naming the job), HEAD, 412
--- request
GET /jobs/00000000000000000000000000000000
--- error_code: 404
--- ledger_check eval
sub {
    use MIME::Base64 qw(encode_base64);
    use Digest::SHA qw(sha256);
    my $b64 = sub { encode_base64($_[0], '') };
    my $o = http_request(method => 'OPTIONS', uri => '/upload');
    is($o->{status}, 204, 'OPTIONS: 204');
    is($o->{headers}{'tus-version'}, '1.0.0', 'Tus-Version');
    like($o->{headers}{'tus-extension'}, qr/^creation,creation-with-upload,creation-defer-length,termination,expiration,checksum,concatenation$/, 'Tus-Extension');
    is($o->{headers}{'tus-max-size'}, 67108864, 'Tus-Max-Size');
    is($o->{headers}{'tus-checksum-algorithm'}, 'sha1,sha256', 'Tus-Checksum-Algorithm');
    my $md = CORE::join ',', 'filename ' . $b64->('clip one.mp4'), 'lang ' . $b64->('deu'),
                       'idempotency-key ' . $b64->('t-1'), 'filetype ' . $b64->('video/mp4');
    my $c = http_request(method => 'POST', uri => '/upload',
                         headers => [@::TUS, 'Upload-Length' => length $::V,
                                     'Upload-Metadata' => $md]);
    is($c->{status}, 201, 'creation: 201');
    is($c->{headers}{'tus-resumable'}, '1.0.0', 'Tus-Resumable');
    like($c->{headers}{'upload-expires'}, qr/GMT$/, 'Upload-Expires');
    my $path = $c->{headers}{location};
    my $id = main::id_of($path);
    my $u = main::upload_row($id);
    is($u->{filename}, 'clip one.mp4', 'the file name kept');
    is($u->{request_key}, 't-1', 'the key from the metadata');
    like($u->{options}, qr/"lang":"deu"/, 'the options from the metadata');
    my $p1 = main::patch($path, 0, substr($::V, 0, 700), tus => 1, proto => \@::TUS);
    is($p1->{status}, 204, 'PATCH: 204');
    is($p1->{headers}{'upload-offset'}, 700, 'Upload-Offset');
    my $bad = main::patch($path, 700, substr($::V, 700), tus => 1, proto => \@::TUS,
                          headers => ['Upload-Checksum' => 'sha256 ' . $b64->(sha256('other'))]);
    is($bad->{status}, 460, 'a checksum mismatch: 460');
    is(main::upload_row($id)->{upload_offset}, 700, 'the chunk was not kept');
    is(-s main::part_file($id), 700, 'nor written');
    my $ok = main::patch($path, 700, substr($::V, 700), tus => 1, proto => \@::TUS,
                         headers => ['Upload-Checksum' => 'sha256 ' . $b64->(sha256(substr($::V, 700)))]);
    is($ok->{status}, 204, 'the last PATCH: 204');
    is($ok->{headers}{'upload-offset'}, length $::V, 'the whole length');
    my ($job) = ledger_rows('SELECT * FROM jobs');
    is($ok->{headers}{'video-ocr-job'}, $job->{job_id}, 'a header names the job');
    is($ok->{headers}{link}, "</jobs/$job->{job_id}>; rel=\"status\"", 'and links its status');
    is($job->{input_sha256}, sha256_hex($::V), 'the bytes, whole');
    my $h = main::head_of($path, @::TUS);
    is($h->{headers}{'video-ocr-job'}, $job->{job_id}, 'HEAD says which job it became');
    is($h->{headers}{'upload-offset'}, length $::V, 'HEAD: the offset');
    my $v = http_request(method => 'HEAD', uri => $path, headers => ['Tus-Resumable' => '0.2.2']);
    is($v->{status}, 412, 'another Tus-Resumable: 412');
    is($v->{headers}{'tus-version'}, '1.0.0', 'with Tus-Version');
}



=== TEST 6: tus creation-defer-length and creation-with-upload, then termination
--- request
GET /jobs/00000000000000000000000000000000
--- error_code: 404
--- ledger_check eval
sub {
    my $c = http_request(method => 'POST', uri => '/upload',
                         headers => [@::TUS, 'Upload-Defer-Length' => 1,
                                     'Idempotency-Key' => 'd-1',
                                     'Content-Type' => 'application/offset+octet-stream'],
                         body => substr($::V, 0, 1200));
    is($c->{status}, 201, 'creation with upload: 201');
    is($c->{headers}{'upload-offset'}, 1200, 'its bytes acknowledged');
    my $path = $c->{headers}{location};
    my $id = main::id_of($path);
    is(main::upload_row($id)->{upload_length}, undef, 'no length yet');
    my $h = main::head_of($path, @::TUS);
    is($h->{headers}{'upload-defer-length'}, 1, 'HEAD: Upload-Defer-Length: 1');
    my $d = http_request(method => 'DELETE', uri => $path, headers => [@::TUS]);
    is($d->{status}, 204, 'DELETE: 204');
    is(main::upload_row($id), undef, 'the row gone');
    ok(!-e main::part_file($id), 'the partial file gone');
    is(main::head_of($path, @::TUS)->{status}, 404, 'then HEAD: 404');
    my $c2 = http_request(method => 'POST', uri => '/upload',
                          headers => [@::TUS, 'Upload-Defer-Length' => 1,
                                      'Idempotency-Key' => 'd-2']);
    my $p2 = $c2->{headers}{location};
    my $f = main::patch($p2, 0, $::V, tus => 1, proto => \@::TUS,
                        headers => ['Upload-Length' => length $::V]);
    is($f->{status}, 204, 'the length given with the last PATCH completes it');
    like($f->{headers}{'video-ocr-job'}, qr/^[0-9a-f]{32}$/, 'a job');
}



=== TEST 7: malformed, repeated or out-of-range headers: a precise 400 each, nothing written
--- request
GET /jobs/00000000000000000000000000000000
--- error_code: 404
--- ledger_check eval
sub {
    my @cases = (
        [[@::IETF, 'Upload-Complete' => '?2'], qr/Upload-Complete must be a structured-field boolean/],
        [[@::IETF, 'Upload-Complete' => '?0', 'Upload-Length' => '-5'], qr/Upload-Length must be a non-negative integer/],
        [[@::IETF, 'Upload-Complete' => '?0', 'Upload-Length' => '1', 'Upload-Length' => '2'], qr/Upload-Length is given 2 times/],
        [['Upload-Draft-Interop-Version' => 99, 'Upload-Complete' => '?0'], qr/interop version 99/],
        [[@::IETF, @::TUS, 'Upload-Complete' => '?0'], qr/both tus/],
        [[@::IETF], qr/needs Upload-Complete/],
        [[@::TUS], qr/exactly one of Upload-Length and Upload-Defer-Length/],
        [[@::TUS, 'Upload-Length' => 10, 'Upload-Metadata' => 'filename ***'], qr/Upload-Metadata: the value of "filename" is not base64/],
        [[@::TUS, 'Upload-Length' => 10, 'Upload-Metadata' => 'lang ZW5n,lang ZW5n'], qr/is given twice/],
        [[@::TUS, 'Upload-Length' => 10, 'Upload-Metadata' => 'lang ZW5nK2F1dG8='], qr/lang "auto" chooses the languages itself: give it alone/],
        [[@::TUS, 'Upload-Length' => 10, 'Upload-Defer-Length' => 2], qr/Upload-Defer-Length must be 1/],
        [[@::IETF, 'Upload-Complete' => '?0', 'Upload-Length' => 100000000], qr/more than this endpoint accepts/],
    );
    for my $c (@cases) {
        my $r = http_request(method => 'POST', uri => '/upload',
                             headers => ['Idempotency-Key' => 'h-1', @{ $c->[0] }]);
        my $p = decode_json_body($r);
        ok($r->{status} == 400 || $r->{status} == 413, "$c->[1]: $r->{status}");
        like($p->{detail} // '', $c->[1], "the detail says why");
    }
    my $r = http_request(method => 'POST', uri => '/upload', headers => [@::IETF, 'Upload-Complete' => '?0']);
    is(decode_json_body($r)->{type}, 'urn:video-ocr:problem:missing-key', 'no key: missing-key');
    is(ledger_count('uploads'), 0, 'no upload created');
    is(ledger_count('events'), 0, 'no event');
    is_deeply([store_files()], [], 'no file');
}



=== TEST 8: a tenant's incomplete uploads are limited (video_ocr_uploads_max 3): the fourth is 429 with Retry-After, nothing written
--- request
GET /jobs/00000000000000000000000000000000
--- error_code: 404
--- ledger_check eval
sub {
    for my $i (1 .. 3) {
        my ($r) = main::create(headers => ['Idempotency-Key' => "m-$i"]);
        is($r->{status}, 201, "upload $i: 201");
    }
    my ($r) = main::create(headers => ['Idempotency-Key' => 'm-4']);
    is($r->{status}, 429, 'the fourth: 429');
    is($r->{headers}{'retry-after'}, 1, 'Retry-After');
    is(decode_json_body($r)->{type}, 'urn:video-ocr:problem:too-many-uploads', 'too-many-uploads');
    is(ledger_count('uploads'), 3, 'three rows');
    is(scalar(() = store_files()), 3, 'three partial files');
    my ($again) = main::create(headers => ['Idempotency-Key' => 'm-2']);
    is($again->{status}, 201, 'a retried creation of one of the three is not refused');
}



=== TEST 9: a connection cut in an append keeps what arrived; the client resumes from the offset HEAD gives
--- request
GET /jobs/00000000000000000000000000000000
--- error_code: 404
--- ledger_check eval
sub {
    my ($r, $path) = main::create(headers => ['Idempotency-Key' => 'x-1']);
    my $id = main::id_of($path);
    main::partial_append($path, 0, $::BIG, 1_500_000, close => 1);
    my $off = wait_for(5, sub { my $u = main::upload_row($id); $u && $u->{upload_offset} > 0 ? $u->{upload_offset} : 0 });
    ok($off > 0 && $off <= 1_500_000, "what arrived before the cut is kept: $off bytes");
    my $h = main::head_of($path);
    is($h->{headers}{'upload-offset'}, $off, 'HEAD gives it');
    my $f = main::patch($path, $off, substr($::BIG, $off), complete => 1);
    is($f->{status}, 202, 'the rest, from there: 202');
    my ($job) = ledger_rows('SELECT * FROM jobs');
    is($job->{input_sha256}, sha256_hex($::BIG), 'the job has exactly the file');
    is(main::stored_sha256($job), sha256_hex($::BIG), 'and so does its stored file');
}



=== TEST 10: a client silent for client_body_timeout: the request ends, the bytes it sent are kept
--- request
GET /jobs/00000000000000000000000000000000
--- error_code: 404
--- ledger_check eval
sub {
    my ($r, $path) = main::create(headers => ['Idempotency-Key' => 's-1']);
    my $id = main::id_of($path);
    my $s = main::partial_append($path, 0, $::BIG, 700_000);
    my $off = wait_for(6, sub { main::upload_row($id)->{upload_offset} });
    is($off, 700_000, 'after client_body_timeout (2 s) the bytes sent are committed');
    close $s;
    my $f = main::patch($path, $off, substr($::BIG, $off), complete => 1);
    is($f->{status}, 202, 'and the upload completes from there');
}



=== TEST 11: a second append ends the first: never two writers, one job, the right bytes
--- request
GET /jobs/00000000000000000000000000000000
--- error_code: 404
--- ledger_check eval
sub {
    my ($r, $path) = main::create(headers => ['Idempotency-Key' => 'two-1']);
    my $id = main::id_of($path);
    # A sends half of its body and stays; B, from the same offset 0, all
    my $s = main::partial_append($path, 0, $::BIG, 400_000);
    ok(wait_for(5, sub { main::upload_row($id)->{writer} >= 1 }),
       'the first append claimed the upload');
    my $b = main::patch($path, 0, $::BIG, complete => 1);
    is($b->{status}, 202, 'the second append completes the upload');
    # A's last bytes arrive: its commit finds its token stale
    syswrite($s, substr($::BIG, 400_000));
    my $resp = '';
    while (sysread($s, my $buf, 65536)) { $resp .= $buf }
    like($resp, qr{^HTTP/1.1 (409|202)}, 'the first is ended (409) or, completed meanwhile, replayed');
    is(ledger_count('jobs'), 1, 'one job');
    my ($job) = ledger_rows('SELECT * FROM jobs');
    is($job->{input_sha256}, sha256_hex($::BIG), 'its bytes are the file');
    is(main::stored_sha256($job), sha256_hex($::BIG), 'and its stored file holds them');
}



=== TEST 12: bytes staged into the partial file while an append is read are not acknowledged: HEAD still says 0, a second append from 0 replaces them, the first's later stages and commit change nothing
--- request
GET /jobs/00000000000000000000000000000000
--- error_code: 404
--- ledger_check eval
sub {
    my ($r, $path) = main::create(headers => ['Idempotency-Key' => 'stage-1']);
    my $id = main::id_of($path);
    # A sends 1.5 MB of its 3 MiB and stays: its first MiB is staged
    my $s = main::partial_append($path, 0, $::BIG, 1_500_000);
    ok(wait_for(5, sub { (-s main::part_file($id) // 0) >= 1024 * 1024 }),
       'the partial file holds what A has staged (at least 1 MiB)');
    is(main::upload_row($id)->{upload_offset}, 0, 'the ledger acknowledges none of it');
    is(main::head_of($path)->{headers}{'upload-offset'}, 0, 'nor does HEAD');
    # B, from 0: the file's first MiB, then a MiB of other bytes than A's
    my $mine = substr($::BIG, 0, 1024 * 1024) . ("\x55" x (1024 * 1024));
    my $b = main::patch($path, 0, $mine);
    is($b->{status}, 204, 'B appends 2 MiB from 0');
    is(main::upload_row($id)->{upload_offset}, 2 * 1024 * 1024, 'B is acknowledged');
    # A's next MiB arrives (another stage), then the rest: stale, 409
    syswrite($s, substr($::BIG, 1_500_000));
    my $resp = '';
    while (sysread($s, my $buf, 65536)) { $resp .= $buf }
    like($resp, qr{^HTTP/1.1 409}, 'A is ended: superseded');
    is(main::upload_row($id)->{upload_offset}, 2 * 1024 * 1024, 'the offset is still B\'s');
    my $f = main::patch($path, 2 * 1024 * 1024, substr($::BIG, 2 * 1024 * 1024), complete => 1);
    is($f->{status}, 202, 'the rest completes the upload');
    my ($job) = ledger_rows('SELECT * FROM jobs WHERE input_size = ?', length $::BIG);
    ok($job, 'a job of the whole length');
    my $want = $mine . substr($::BIG, 2 * 1024 * 1024);
    is($job->{input_sha256}, sha256_hex($want), 'its digest is of B\'s bytes, then the rest');
    is(main::stored_sha256($job), sha256_hex($want), 'and so is its stored file: none of A\'s staged bytes');
}



=== TEST 13: an incomplete upload expires: the janitor removes its row and its file, an event and the metrics say so
--- http_config
    video_ocr_ledger $DATA/ledger.db;
    video_ocr_store $DATA/store;
    client_body_temp_path $DATA/tmp;
    video_ocr_upload_ttl 1s;
--- config
    location /upload { video_ocr_intake; }
    location = /metrics { video_ocr_metrics; }
--- request
GET /metrics
--- error_code: 200
--- ledger_check eval
sub {
    my ($r, $path) = main::create(headers => ['Idempotency-Key' => 'e-1']);
    my $id = main::id_of($path);
    like($r->{headers}{'upload-limit'}, qr/max-age=[01]$/, 'max-age announces the expiry');
    main::patch($path, 0, substr($::V, 0, 500));
    sleep 1.2;
    is(main::head_of($path)->{status}, 404, 'past its expiry: 404');
    my $out = `$ENV{TEST_NGINX_WORKER_BIN} janitor --once --ledger '@{[ ledger_spec() ]}' --store @{[ data_dir() ]}/store 2>&1`;
    like($out, qr/event=upload_expired upload=$id/, 'the janitor says so');
    is(main::upload_row($id), undef, 'the row is gone');
    ok(!-e main::part_file($id), 'the file is gone');
    is(ledger_count('events', "kind = 'upload_expired'"), 1, 'an upload_expired event');
    my $m = http_request(uri => '/metrics');
    like($m->{body}, qr/^video_ocr_uploads_total\{outcome="expired"\} 1$/m, 'the metric counts it');
    like($m->{body}, qr/^video_ocr_uploads_open 0$/m, 'none open');
    # a partial file no row names (its janitor died between the two)
    File::Path::make_path(data_dir() . '/store/uploads/ab');
    my $stray = data_dir() . '/store/uploads/ab/' . ('0' x 30) . 'ab.part';
    open my $fh, '>', $stray or die "$stray: $!"; close $fh;
    utime time - 7200, time - 7200, $stray;
    my $live = main::id_of((main::create(headers => ['Idempotency-Key' => 'e-2']))[1]);
    my $dbh = ledger_dbh(rw => 1);     # alive for an hour, whatever the ttl
    $dbh->do('UPDATE uploads SET expires_at = expires_at + 3600000 WHERE upload_id = ?', undef, $live);
    $dbh->disconnect;
    my $keep = main::part_file($live);
    utime time - 7200, time - 7200, $keep;
    $out = `$ENV{TEST_NGINX_WORKER_BIN} janitor --once --ledger '@{[ ledger_spec() ]}' --store @{[ data_dir() ]}/store 2>&1`;
    like($out, qr{event=orphan_removed file=uploads/ab/0{30}ab\.part reason=no_upload}, 'the janitor removes an orphan partial file');
    ok(!-e $stray, 'it is gone');
    ok(-e $keep, 'a partial file whose upload lives is kept');
}



=== TEST 14: the completion is the POST's admission: video_ocr_tenant_max_queued refuses it (429), the upload keeps its bytes, and completes once the queue has room
--- config
    location /upload {
        video_ocr_intake;
        video_ocr_jobs_url /jobs/;
        video_ocr_tenant_max_queued 1;
    }

    location /jobs/ {
        video_ocr_jobs;
    }
--- request
GET /jobs/00000000000000000000000000000000
--- error_code: 404
--- ledger_check eval
sub {
    my $first = upload('q-1', $::W);
    is($first->{status}, 202, 'a POST fills the queue of one');
    my ($r, $path) = main::create(headers => ['Idempotency-Key' => 'q-2']);
    my $id = main::id_of($path);
    my $f = main::patch($path, 0, $::V, complete => 1);
    is($f->{status}, 429, 'the completing append: 429, as a POST would be');
    is(decode_json_body($f)->{type}, 'urn:video-ocr:problem:tenant-queue-full', 'tenant-queue-full');
    is($f->{headers}{'retry-after'}, 10, 'Retry-After');
    my $u = main::upload_row($id);
    is($u->{state}, 'incomplete', 'the upload is not completed');
    is($u->{upload_offset}, length $::V, 'it keeps every byte');
    is(-s main::part_file($id), length $::V, 'and so does its partial file');
    is(ledger_count('jobs'), 1, 'no second job');
    my $job = decode_json_body($first)->{job_id};
    is(http_request(method => 'DELETE', uri => "/jobs/$job")->{status}, 200, 'the first job deleted: room in the queue');
    my $again = main::patch($path, length $::V, '', complete => 1);
    is($again->{status}, 202, 'the same completion again: 202');
    my ($j) = ledger_rows('SELECT * FROM jobs WHERE job_id = ?', decode_json_body($again)->{job_id});
    is($j->{input_sha256}, sha256_hex($::V), 'the job has the bytes');
    is(main::upload_row($id)->{state}, 'completed', 'the upload is completed');
}
