# tus concatenation (issue 38): partial uploads (Upload-Concat: partial)
# sent side by side, joined by a final upload (Upload-Concat: final;<URLs>)
# whose completion is the ordinary admission: the digest of the bytes in
# order, as a POST of them would have it, the same receipt on a retry,
# 422 for a key reused with other bytes.  Partial uploads are the
# tenant's and their key's; one that is gone (deleted, expired, its file
# lost) fails the final upload with a precise error, and nothing is left
# behind: no row, no file.  Each block checks the uploads rows, the
# partial files and the jobs as well as the replies; each runs on SQLite
# and (make test-pg) PostgreSQL.

use Test::Nginx::Socket 'no_plan';
use VideoOCR::Test;
use VideoOCR::Blocks;
use Time::HiRes qw(sleep);

our $V = video_bytes(seed => 31, seconds => 2);
our $W = video_bytes(seed => 32, seconds => 2);

# the tenant is a header here, to try two of them
$VideoOCR::Blocks::CONFIG = <<'EOF';
    location /upload {
        video_ocr_intake;
        video_ocr_jobs_url /jobs/;
        video_ocr_tenant $http_x_tenant;
        client_max_body_size 64m;
    }

    location /jobs/ {
        video_ocr_jobs;
        video_ocr_tenant $http_x_tenant;
    }

    location = /metrics {
        video_ocr_metrics;
    }
EOF

our @TUS = ('Tus-Resumable' => '1.0.0', 'X-Tenant' => 'acme');

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

# A partial upload of these bytes, sent whole: its path.
sub partial {
    my ($bytes, %a) = @_;
    my @h = (@{ $a{tus} // \@TUS }, 'Upload-Concat' => 'partial',
             'Upload-Length' => length $bytes,
             defined $a{key} ? ('Idempotency-Key' => $a{key}) : ());
    my $c = http_request(method => 'POST', uri => '/upload', headers => \@h);
    die "partial upload: $c->{status} $c->{body}" unless $c->{status} == 201;
    my $path = $c->{headers}{location};
    return $path if $a{empty};
    my $p = http_request(method => 'PATCH', uri => $path,
                         headers => [@{ $a{tus} // \@TUS }, 'Upload-Offset' => 0,
                                     'Content-Type' => 'application/offset+octet-stream'],
                         body => $bytes);
    die "partial append: $p->{status} $p->{body}" unless $p->{status} == 204;
    return $path;
}

# The bytes cut into n slices, as tus-js-client cuts them.
sub slices {
    my ($bytes, $n) = @_;
    my $size = int(length($bytes) / $n);
    return map { substr($bytes, $_ * $size, $_ == $n - 1 ? length($bytes) - $_ * $size : $size) }
           0 .. $n - 1;
}

sub final {
    my ($key, @paths) = @_;
    my $h = ref $paths[-1] eq 'ARRAY' ? pop @paths : [];
    return http_request(method => 'POST', uri => '/upload?lang=eng&fps=2',
                        headers => [@TUS, 'Upload-Concat' => 'final;' . CORE::join(' ', @paths),
                                    defined $key ? ('Idempotency-Key' => $key) : (),
                                    @$h]);
}

no_shuffle();
run_tests();

__DATA__

=== TEST 1: three partial uploads joined: 201 with the final upload's Location and its job, the digest of one POST of the same bytes, the partial uploads gone
--- request
GET /nowhere
--- error_code: 404
--- ledger_check eval
sub {
    my @s = main::slices($::V, 3);
    my @p = map { main::partial($_, key => 'cat-1') } @s;
    my @ids = map { main::id_of($_) } @p;
    my $h = http_request(method => 'HEAD', uri => $p[1], headers => [@::TUS]);
    is($h->{headers}{'upload-concat'}, 'partial', 'HEAD of a partial upload: Upload-Concat: partial');
    is($h->{headers}{'upload-offset'}, length $s[1], 'all its bytes');
    ok(!exists $h->{headers}{'video-ocr-job'}, 'and no job');
    is(ledger_count('jobs'), 0, 'a whole partial upload is no job');
    is(main::upload_row($ids[1])->{request_key}, undef, 'a partial upload has no receipt key of its own');
    is(main::upload_row($ids[1])->{partial_key}, 'cat-1', 'it is its final upload\'s key\'s');
    # the second one as an absolute URL, as tus-js-client sends them
    my $f = main::final('cat-1', $p[0], "http://localhost:1984$p[1]", $p[2],
                        ['Upload-Metadata' => 'filename Y2xpcC5tcDQ=']);
    is($f->{status}, 201, 'the final upload: 201');
    like($f->{headers}{location}, qr{^/upload/[0-9a-f]{32}$}, 'its Location');
    my $fid = main::id_of($f->{headers}{location});
    my ($job) = ledger_rows('SELECT * FROM jobs');
    is($f->{headers}{'video-ocr-job'}, $job->{job_id}, 'a header names the job');
    is($f->{headers}{link}, "</jobs/$job->{job_id}>; rel=\"status\"", 'and links its status');
    is($f->{headers}{'upload-length'}, length $::V, 'Upload-Length: the sum');
    is($job->{input_sha256}, sha256_hex($::V), 'the job\'s bytes: the partial uploads, in order');
    is($job->{input_size}, length $::V, 'all of them');
    is($job->{container}, 'mp4', 'sniffed');
    my $stored = data_dir() . "/store/$job->{input_path}";
    is(-s $stored, length $::V, 'its stored file');
    open my $fh, '<:raw', $stored or die $!;
    is(Digest::SHA->new(256)->addfile($fh)->hexdigest, sha256_hex($::V), 'holds exactly those bytes');
    my $post = upload('cat-post', $::V, uri => '/upload?lang=eng&fps=2', headers => ['X-Tenant' => 'acme']);
    my ($req) = ledger_rows('SELECT input_digest FROM requests WHERE job_id = ?', $job->{job_id});
    is($req->{input_digest}, decode_json_body($post)->{input_digest},
       'its input_digest is the one of a POST of the same bytes and options');
    for my $i (0 .. 2) {
        is(main::upload_row($ids[$i]), undef, "partial upload $i: its row is gone");
        ok(!-e main::part_file($ids[$i]), "and its file");
    }
    my $u = main::upload_row($fid);
    is($u->{state}, 'completed', 'the final upload: completed');
    is($u->{concat}, 'final', 'a final one');
    is($u->{parts}, CORE::join(' ', @ids), 'naming its partial uploads, in order');
    is($u->{job_id}, $job->{job_id}, 'and its job');
    is($u->{filename}, 'clip.mp4', 'the file name of its metadata');
    my $pj = decode_json_body($post)->{job_id};
    is_deeply([sort(store_files())],
              [sort(substr($job->{job_id}, -2) . "/$job->{job_id}.video",
                    substr($pj, -2) . "/$pj.video")],
              'the store holds the two jobs\' inputs, nothing else');
    my $hf = http_request(method => 'HEAD', uri => $f->{headers}{location}, headers => [@::TUS]);
    is($hf->{headers}{'upload-concat'}, 'final;' . CORE::join(' ', map { "/upload/$_" } @ids),
       'HEAD of the final upload: Upload-Concat: final;<its partial uploads>');
    is($hf->{headers}{'upload-offset'}, length $::V, 'Upload-Offset: all of it');
    is($hf->{headers}{'upload-metadata'}, 'filename Y2xpcC5tcDQ=', 'Upload-Metadata');
    is($hf->{headers}{'video-ocr-job'}, $job->{job_id}, 'and its job');
    my $m = http_request(uri => '/metrics');
    like($m->{body}, qr/^video_ocr_uploads_total\{outcome="joined"\} 3$/m, 'the metrics count the three joined');
    like($m->{body}, qr/^video_ocr_uploads_total\{outcome="completed"\} 1$/m, 'and the final one completed');
    like($m->{body}, qr/^video_ocr_uploads_open 0$/m, 'none open');
    is(ledger_count('events', "kind = 'upload_joined'"), 3, 'an upload_joined event each');
    my $x = http_request(method => 'PATCH', uri => $f->{headers}{location},
                         headers => [@::TUS, 'Upload-Offset' => length $::V,
                                     'Content-Type' => 'application/offset+octet-stream'],
                         body => '');
    is($x->{status}, 403, 'PATCH to a final upload: 403');
    is(decode_json_body($x)->{type}, 'urn:video-ocr:problem:final-upload', 'final-upload');
    is($x->{headers}{'tus-resumable'}, '1.0.0', 'with Tus-Resumable');
}



=== TEST 2: the final upload made again (a lost answer): the same upload and job; the key with other bytes: 422, and the partial uploads are gone
--- request
GET /nowhere
--- error_code: 404
--- ledger_check eval
sub {
    my @p = map { main::partial($_, key => 'again-1') } main::slices($::V, 2);
    my $f = main::final('again-1', @p);
    is($f->{status}, 201, 'made: 201');
    my $again = main::final('again-1', @p);
    is($again->{status}, 201, 'made again with the same partial uploads: 201');
    is($again->{headers}{location}, $f->{headers}{location}, 'the same final upload');
    is($again->{headers}{'video-ocr-job'}, $f->{headers}{'video-ocr-job'}, 'the same job');
    my $post = upload('again-1', $::V, uri => '/upload?lang=eng&fps=2', headers => ['X-Tenant' => 'acme']);
    is($post->{status}, 202, 'a POST of the same key and bytes: 202');
    is($post->{headers}{'idempotent-replayed'}, 'true', 'a replay');
    is(decode_json_body($post)->{job_id}, $f->{headers}{'video-ocr-job'}, 'of the final upload\'s job');
    # the same bytes again as new partial uploads of the key: a replay
    my @q = map { main::partial($_, key => 'again-1') } main::slices($::V, 3);
    my $same = main::final('again-1', @q);
    is($same->{status}, 201, 'new partial uploads of the same bytes for the key: 201');
    is($same->{headers}{'video-ocr-job'}, $f->{headers}{'video-ocr-job'}, 'the same job');
    is(ledger_count('uploads', "concat = 'partial'"), 0, 'their partial uploads are taken all the same');
    # other bytes for the key
    my @o = map { main::partial($_, key => 'again-1') } main::slices($::W, 2);
    my $m = main::final('again-1', @o);
    is($m->{status}, 422, 'other bytes under the key: 422');
    is(decode_json_body($m)->{job_id}, $f->{headers}{'video-ocr-job'}, 'naming the key\'s job');
    for my $p (@o) {
        is(main::upload_row(main::id_of($p)), undef, 'a partial upload of the refused bytes: gone');
        ok(!-e main::part_file(main::id_of($p)), 'its file too');
    }
    is(ledger_count('jobs'), 1, 'one job in all');
    my @x = map { main::partial($_, key => 'other-key') } main::slices($::W, 2);
    my $p2 = upload('posted-first', $::V, uri => '/upload?lang=eng&fps=2', headers => ['X-Tenant' => 'acme']);
    my $m2 = main::final('posted-first', @x);
    is($m2->{status}, 400, 'partial uploads of another key: 400');
    is(decode_json_body($m2)->{type}, 'urn:video-ocr:problem:not-a-partial-upload', 'not-a-partial-upload');
    like(decode_json_body($m2)->{detail}, qr{^the partial upload /upload/[0-9a-f]{32} was made for another Idempotency-Key},
         'naming it, and why');
    ok(main::upload_row(main::id_of($x[0])), 'they stay, for their own key');
    my @y = map { main::partial($_, key => 'posted-first') } main::slices($::W, 2);
    my $m3 = main::final('posted-first', @y);
    is($m3->{status}, 422, 'a key a POST used, joined with other bytes: 422');
    is(ledger_count('uploads', "request_key = 'posted-first'"), 0, 'no final upload row is left');
    is(ledger_count('jobs'), 2, 'the POST\'s job, and the first');
}



=== TEST 3: a partial upload is the tenant's: another tenant's final upload cannot name it (404), nor can a final upload name a whole upload (400)
--- request
GET /nowhere
--- error_code: 404
--- ledger_check eval
sub {
    my @p = map { main::partial($_, key => 'scope-1') } main::slices($::V, 2);
    my $f = http_request(method => 'POST', uri => '/upload',
                         headers => ['Tus-Resumable' => '1.0.0', 'X-Tenant' => 'other',
                                     'Idempotency-Key' => 'scope-1',
                                     'Upload-Concat' => "final;$p[0] $p[1]"]);
    is($f->{status}, 404, 'another tenant\'s final upload: 404');
    is(decode_json_body($f)->{type}, 'urn:video-ocr:problem:partial-upload-gone', 'partial-upload-gone');
    like(decode_json_body($f)->{detail}, qr{^the partial upload \Q$p[0]\E is gone}, 'naming the first');
    ok(main::upload_row(main::id_of($p[0])), 'the partial uploads are untouched');
    is(ledger_count('uploads', "concat = 'final'"), 0, 'no final upload row');
    my $c = http_request(method => 'POST', uri => '/upload',
                         headers => [@::TUS, 'Upload-Length' => 10, 'Idempotency-Key' => 'whole-1']);
    my $w = main::final('scope-1', $p[0], $c->{headers}{location});
    is($w->{status}, 400, 'a whole upload named as a partial one: 400');
    is(decode_json_body($w)->{type}, 'urn:video-ocr:problem:not-a-partial-upload', 'not-a-partial-upload');
    like(decode_json_body($w)->{detail}, qr/was not made with Upload-Concat: partial/, 'saying why');
    my $ok = main::final('scope-1', @p);
    is($ok->{status}, 201, 'the tenant\'s own final upload of them: 201');
}



=== TEST 4: a partial upload not yet complete: 400 (concatenation-unfinished is not supported); once complete, the final upload is made
--- request
GET /nowhere
--- error_code: 404
--- ledger_check eval
sub {
    my ($a, $b) = main::slices($::V, 2);
    my $pa = main::partial($a, key => 'unf-1');
    my $pb = main::partial($b, key => 'unf-1', empty => 1);
    http_request(method => 'PATCH', uri => $pb,
                 headers => [@::TUS, 'Upload-Offset' => 0,
                             'Content-Type' => 'application/offset+octet-stream'],
                 body => substr($b, 0, 100));
    my $f = main::final('unf-1', $pa, $pb);
    is($f->{status}, 400, 'a partial upload with 100 of its bytes: 400');
    is(decode_json_body($f)->{type}, 'urn:video-ocr:problem:partial-upload-unfinished', 'partial-upload-unfinished');
    like(decode_json_body($f)->{detail}, qr{\Q$pb\E has not all its bytes}, 'naming it');
    is(ledger_count('uploads', "concat = 'final'"), 0, 'no final upload row');
    is(ledger_count('jobs'), 0, 'no job');
    my $r = http_request(method => 'PATCH', uri => $pb,
                         headers => [@::TUS, 'Upload-Offset' => 100,
                                     'Content-Type' => 'application/offset+octet-stream'],
                         body => substr($b, 100));
    is($r->{status}, 204, 'the rest of it: 204');
    ok(!exists $r->{headers}{'video-ocr-job'}, 'a partial upload is no job when it is whole');
    my $ok = main::final('unf-1', $pa, $pb);
    is($ok->{status}, 201, 'then the final upload: 201');
    my ($job) = ledger_rows('SELECT * FROM jobs');
    is($job->{input_sha256}, sha256_hex($::V), 'of all the bytes');
}



=== TEST 5: a partial upload deleted, or whose file is lost, fails the final upload (404, naming it); the other partial uploads stay, no final row, no job, no file
--- request
GET /nowhere
--- error_code: 404
--- ledger_check eval
sub {
    my @p = map { main::partial($_, key => 'gone-1') } main::slices($::V, 3);
    my @ids = map { main::id_of($_) } @p;
    is(http_request(method => 'DELETE', uri => $p[1], headers => [@::TUS])->{status}, 204,
       'the second partial upload deleted');
    my $f = main::final('gone-1', @p);
    is($f->{status}, 404, 'the final upload: 404');
    is(decode_json_body($f)->{type}, 'urn:video-ocr:problem:partial-upload-gone', 'partial-upload-gone');
    like(decode_json_body($f)->{detail}, qr{^the partial upload \Q$p[1]\E is gone \(expired, deleted, or never made\)},
         'naming the one that is gone');
    is($f->{headers}{'tus-resumable'}, '1.0.0', 'with Tus-Resumable');
    ok(main::upload_row($ids[0]) && main::upload_row($ids[2]), 'the others stay');
    # the third one's file lost (its row still there): found by the join
    unlink main::part_file($ids[2]) or die $!;
    my $p1 = main::partial((main::slices($::V, 3))[1], key => 'gone-1');
    my $g = main::final('gone-1', $p[0], $p1, $p[2]);
    is($g->{status}, 404, 'a partial upload whose file is lost: 404');
    like(decode_json_body($g)->{detail}, qr{^the partial upload \Q$p[2]\E expired or was deleted while the final upload was made},
         'naming it');
    is(ledger_count('uploads', "concat = 'final'"), 0, 'no final upload row is left');
    is(ledger_count('jobs'), 0, 'no job');
    my @files = grep { !m{^uploads/} } store_files();
    is_deeply(\@files, [], 'no job input in the store');
    is(scalar(grep { m{^uploads/} } store_files()), 2, 'the two partial files that live, no other');
}



=== TEST 6: partial uploads expire as any upload: the final upload then fails (404); the janitor removes their rows and files, with an event each
--- http_config
    video_ocr_ledger $DATA/ledger.db;
    video_ocr_store $DATA/store;
    client_body_temp_path $DATA/tmp;
    video_ocr_upload_ttl 1s;
--- config
    location /upload {
        video_ocr_intake;
        video_ocr_tenant $http_x_tenant;
    }
--- request
GET /upload/00000000000000000000000000000000
--- more_headers
Tus-Resumable: 1.0.0
X-Tenant: acme
--- error_code: 404
--- ledger_check eval
sub {
    my @p = map { main::partial($_, key => 'exp-1') } main::slices($::V, 2);
    my @ids = map { main::id_of($_) } @p;
    sleep 1.2;
    my $f = main::final('exp-1', @p);
    is($f->{status}, 404, 'the final upload after the partial uploads expired: 404');
    like(decode_json_body($f)->{detail}, qr{^the partial upload \Q$p[0]\E is gone}, 'naming the first');
    my $out = `$ENV{TEST_NGINX_WORKER_BIN} janitor --once --ledger '@{[ ledger_spec() ]}' --store @{[ data_dir() ]}/store 2>&1`;
    for my $id (@ids) {
        like($out, qr/event=upload_expired upload=$id/, "the janitor expires partial upload $id");
        is(main::upload_row($id), undef, 'its row is gone');
        ok(!-e main::part_file($id), 'its file too');
    }
    is(ledger_count('events', "kind = 'upload_expired'"), 2, 'an upload_expired event each');
    is(scalar(() = store_files()), 0, 'nothing in the store');
}



=== TEST 7: joined bytes that are not a video: 415, and the final and partial uploads are removed; a partial upload is not sniffed alone
--- request
GET /nowhere
--- error_code: 404
--- ledger_check eval
sub {
    my $text = "just some text, not a video at all\n" x 40;
    my @p = map { main::partial($_, key => 'txt-1') } main::slices($text, 2);
    ok(main::upload_row(main::id_of($p[1])), 'a slice that does not start like a video is a partial upload all the same');
    my $f = main::final('txt-1', @p);
    is($f->{status}, 415, 'the final upload of text: 415');
    is(decode_json_body($f)->{type}, 'urn:video-ocr:problem:not-a-video', 'not-a-video');
    is(ledger_count('uploads'), 0, 'no upload row');
    is(ledger_count('jobs'), 0, 'no job');
    is_deeply([store_files()], [], 'no file');
}



=== TEST 8: malformed Upload-Concat, and what a final upload may not carry: a precise 400 each, nothing written
--- request
GET /nowhere
--- error_code: 404
--- ledger_check eval
sub {
    my $id = 'a' x 32;
    my @cases = (
        [['Upload-Concat' => 'parcel'], qr/Upload-Concat must be "partial", or "final;"/],
        [['Upload-Concat' => 'final;'], qr/a final upload names its partial uploads/],
        [['Upload-Concat' => 'final;/elsewhere/' . $id], qr{"/elsewhere/a{32}" is not an upload of this endpoint \(/upload/<upload id>\)}],
        [['Upload-Concat' => "final;/upload/$id /upload/$id"], qr/is given twice/],
        [['Upload-Concat' => 'final;' . CORE::join(' ', map { sprintf "/upload/%032x", $_ } 1 .. 33)], qr/at most 32 partial uploads/],
        [['Upload-Concat' => "final;/upload/$id", 'Upload-Length' => 10], qr/a final upload \(Upload-Concat: final\) has neither bytes nor Upload-Length/],
        [['Upload-Concat' => 'partial', 'Upload-Concat' => 'partial', 'Upload-Length' => 10], qr/Upload-Concat is given 2 times/],
    );
    for my $c (@cases) {
        my $r = http_request(method => 'POST', uri => '/upload',
                             headers => [@::TUS, 'Idempotency-Key' => 'bad-1', @{ $c->[0] }]);
        is($r->{status}, 400, "$c->[1]: 400");
        like(decode_json_body($r)->{detail} // '', $c->[1], 'the detail says why');
    }
    my $ietf = http_request(method => 'POST', uri => '/upload',
                            headers => ['Upload-Draft-Interop-Version' => 8, 'Upload-Complete' => '?0',
                                        'X-Tenant' => 'acme', 'Idempotency-Key' => 'bad-2',
                                        'Upload-Concat' => 'partial']);
    is($ietf->{status}, 400, 'Upload-Concat with the IETF draft: 400');
    like(decode_json_body($ietf)->{detail}, qr/Upload-Concat is tus's concatenation/, 'saying so');
    is(ledger_count('uploads'), 0, 'no upload created');
    is_deeply([store_files()], [], 'no file');
}



=== TEST 9: partial uploads that sum to more than the endpoint accepts: 413 at the final upload
--- config
    location /upload {
        video_ocr_intake;
        video_ocr_tenant $http_x_tenant;
        client_max_body_size 20k;
    }
--- request
GET /upload/00000000000000000000000000000000
--- more_headers
Tus-Resumable: 1.0.0
X-Tenant: acme
--- error_code: 404
--- ledger_check eval
sub {
    my $bytes = substr($::V . ("\0" x 30000), 0, 30000);
    my @p = map { main::partial($_, key => 'big-1') } main::slices($bytes, 2);
    my $f = main::final('big-1', @p);
    is($f->{status}, 413, '30000 bytes in two partial uploads of 15000, client_max_body_size 20k: 413');
    like(decode_json_body($f)->{detail}, qr/partial uploads are more than this endpoint accepts/, 'saying so');
    is(ledger_count('uploads', "concat = 'final'"), 0, 'no final upload row');
    is(ledger_count('uploads', "concat = 'partial'"), 2, 'the partial uploads stay');
}



=== TEST 10: $video_ocr_key_hash of the tenant's key is the same for a POST, a tus creation, a partial upload and its final upload
--- http_config
    video_ocr_ledger $DATA/ledger.db;
    video_ocr_store $DATA/store;
    client_body_temp_path $DATA/tmp;
    video_ocr_key_hash_secret "s3cret";
    log_format vo '$request_method key=$video_ocr_key_hash';
    access_log logs/vo.log vo;
--- request
GET /nowhere
--- error_code: 404
--- ledger_check eval
sub {
    upload('hash-1', $::V, headers => ['X-Tenant' => 'acme']);
    http_request(method => 'POST', uri => '/upload',
                 headers => [@::TUS, 'Idempotency-Key' => 'hash-1', 'Upload-Length' => 10]);
    my @p = map { main::partial($_, key => 'hash-2') } main::slices($::V, 2);
    main::final('hash-2', @p);
    my $log = Test::Nginx::Socket::server_root() . '/logs/vo.log';
    my @lines;
    wait_for(5, sub {
        open my $fh, '<', $log or return 0;
        @lines = grep { /^POST/ } <$fh>;
        return @lines == 5;
    });
    my $h1 = substr(Digest::SHA::hmac_sha256_hex("acme\0hash-1", 's3cret'), 0, 16);
    my $h2 = substr(Digest::SHA::hmac_sha256_hex("acme\0hash-2", 's3cret'), 0, 16);
    like($lines[0], qr/^POST key=$h1$/, 'the POST: the hash of tenant and key');
    like($lines[1], qr/^POST key=$h1$/, 'a tus creation of the key: the same (its tenant in it too)');
    like($lines[2], qr/^POST key=$h2$/, 'a partial upload: its key\'s');
    like($lines[4], qr/^POST key=$h2$/, 'its final upload: the same');
}
