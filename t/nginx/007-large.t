# Large uploads are stored byte for byte, whether they arrive with a
# Content-Length or chunked, in memory or spilled to a temp file, and the
# digest computed while they streamed in is the digest of the file.

use Test::Nginx::Socket 'no_plan';
use VideoOCR::Test;
use VideoOCR::Blocks;

# 50 MB that the sniffer takes for an MP4 (an ftyp box), then bytes that
# are not all alike, so a lost or duplicated block would show
our $BIG = do {
    my $b = "\0\0\0\x18ftypisom\0\0\x02\0isomiso2";
    my $block = CORE::join('', map { chr(($_ * 7 + 3) % 256) } 0 .. 65535);
    my $i = 0;
    while (length $b < 50_000_000) {
        $b .= pack('N', $i++) . $block;
    }
    substr($b, 0, 50_000_000);
};

our $check_stored = sub {
    my ($block, $r) = @_;
    my ($job) = ledger_rows("SELECT input_path, input_size, input_sha256"
                            . " FROM jobs");
    my $want = sha256_hex($::BIG);
    is($job->{input_size}, length $::BIG, "size recorded");
    is($job->{input_sha256}, $want, "digest recorded = sha256 of the body");
    my $file = data_dir() . "/store/$job->{input_path}";
    open my $fh, '<:raw', $file or die "$file: $!";
    my $sha = Digest::SHA->new(256);
    $sha->addfile($fh);
    is($sha->hexdigest, $want, "the stored file is the body, byte for byte");
    is(-s $file, length $::BIG, "stored size");
    ok(wait_for(5, sub { !temp_files() }), "no temp file left");
};

no_shuffle();
run_tests();

__DATA__

=== TEST 1: 50 MB with Content-Length
--- request eval
"POST /upload\n$::BIG"
--- more_headers
Idempotency-Key: big-content-length
--- error_code: 202
--- timeout: 60
--- ledger_check eval: $::check_stored
--- error_log
body in a temp file



=== TEST 2: 50 MB chunked
--- request
GET /jobs/00000000000000000000000000000000
--- error_code: 404
--- timeout: 60
--- ledger_check eval
sub {
    my $resp = upload('big-chunked', $::BIG, chunked => 100_000);
    is($resp->{status}, 202, "chunked upload accepted");
    $::check_stored->(@_);
}



=== TEST 3: a small body stays in memory and is written by the task
--- config
    location = /upload {
        video_ocr_intake;
        client_body_buffer_size 1m;
    }
--- request eval
"POST /upload\n" . substr($::BIG, 0, 500_000)
--- more_headers
Idempotency-Key: small
--- error_code: 202
--- ledger_check eval
sub {
    my ($job) = ledger_rows("SELECT input_path, input_sha256 FROM jobs");
    is($job->{input_sha256}, sha256_hex(substr($::BIG, 0, 500_000)),
       "digest of the in-memory body");
    my $file = data_dir() . "/store/$job->{input_path}";
    is(-s $file, 500_000, "written to the store");
}
--- error_log
body in memory
--- no_error_log
body in a temp file
