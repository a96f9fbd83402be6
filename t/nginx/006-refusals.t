# Every refusal has a precise status and problem type, and leaves
# nothing behind: no receipt, no job, no stored file, no temp file.

use Test::Nginx::Socket 'no_plan';
use POSIX ();
use VideoOCR::Test;
use VideoOCR::Blocks;

our $V = video_bytes(seed => 1);
our $TEXT = "This is a text file, not a video.\n" x 30000;
our $PNG = "\x89PNG\r\n\x1a\n" . ("\0" x 2000);
our $BIG = "\0\0\0\x18ftypisom" . ("\x55" x (2 * 1024 * 1024));

# MXF: a real file (DNxHR in OP1a, by ffmpeg), and bytes that start with
# an MXF partition key that is not a header partition (a body
# partition's, byte 13 = 0x03): the sniffer takes only the first
our $MXF = do {
    my $f = "/tmp/vocr-006-$$.mxf";
    system('ffmpeg', '-nostdin', '-loglevel', 'error', '-y', '-f', 'lavfi',
        '-i', 'color=c=gray:s=320x180:d=1', '-c:v', 'dnxhd', '-profile:v',
        'dnxhr_lb', '-pix_fmt', 'yuv422p', $f) == 0 or die "ffmpeg: $?";
    open my $fh, '<:raw', $f or die "$f: $!";
    local $/;
    my $b = <$fh>;
    unlink $f;
    $b;
};
our $NOT_MXF = "\x06\x0e\x2b\x34\x02\x05\x01\x01\x0d\x01\x02\x01\x01\x03"
    . "\x04\x00" . ("\0" x 2000);

our $nothing_left = sub {
    is(ledger_count('requests'), 0, "no receipt");
    is(ledger_count('jobs'), 0, "no job");
    is_deeply([store_files()], [], "no stored file");
    ok(wait_for(5, sub { !temp_files() }), "no temp file");
};

# Holds the ledger's write lock from another process for $seconds;
# returns once the lock is taken.
sub lock_ledger {
    return hold_ledger_lock(@_);
}

no_shuffle();
run_tests();

__DATA__

=== TEST 1: a text file: 415 not-a-video, refused before the whole body
--- request eval
"POST /upload\n$::TEXT"
--- more_headers
Idempotency-Key: text
--- error_code: 415
--- response_headers
Content-Type: application/problem+json
--- response_body_like: "type":"urn:video-ocr:problem:not-a-video","title":"Unsupported Media Type","status":415
--- ledger_check eval: $::nothing_left
--- error_log
upload is not a known video container



=== TEST 2: a PNG renamed .mp4: 415
--- request eval
"POST /upload\n$::PNG"
--- more_headers
Idempotency-Key: png
Content-Type: video/mp4
--- error_code: 415
--- response_body_like: not-a-video
--- ledger_check eval: $::nothing_left



=== TEST 3: video_ocr_containers: only what the location accepts
--- config
    location = /upload {
        video_ocr_intake;
        video_ocr_containers webm matroska;
    }
--- request eval
"POST /upload\n$::V"
--- more_headers
Idempotency-Key: mp4-not-wanted
--- error_code: 415
--- response_body_like: does not accept this container
--- ledger_check eval: $::nothing_left



=== TEST 4: over client_max_body_size (Content-Length): 413 problem+json
--- config
    location = /upload {
        video_ocr_intake;
        client_max_body_size 1m;
    }
--- request eval
"POST /upload\n$::BIG"
--- more_headers
Idempotency-Key: too-big
--- error_code: 413
--- response_headers
Content-Type: application/problem+json
--- response_body_like: "type":"urn:video-ocr:problem:too-large","title":"Content Too Large","status":413
--- ledger_check eval: $::nothing_left
--- error_log
client intended to send too large body



=== TEST 5: over client_max_body_size (chunked): 413 problem+json
--- config
    location = /upload {
        video_ocr_intake;
        client_max_body_size 1m;
    }
--- request
GET /upload
--- error_code: 405
--- ledger_check eval
sub {
    my $resp = upload('too-big-chunked', $::BIG, chunked => 65536);
    is($resp->{status}, 413, "status 413");
    is($resp->{headers}{'content-type'}, 'application/problem+json',
       "problem+json");
    like($resp->{body}, qr/"type":"urn:video-ocr:problem:too-large"/,
         "too-large");
    $::nothing_left->();
}



=== TEST 6: an empty body: 400
--- request
POST /upload
--- more_headers
Idempotency-Key: empty
--- error_code: 400
--- response_body_like: "type":"urn:video-ocr:problem:empty-body"
--- ledger_check eval: $::nothing_left



=== TEST 7: wrong methods: 405 with Allow
--- request eval
["GET /upload", "PUT /upload\n$::V", "POST /jobs/00000000000000000000000000000000\nx"]
--- more_headers
Idempotency-Key: method
--- error_code eval
[405, 405, 405]
--- response_headers eval
["Allow: POST", "Allow: POST", "Allow: GET, HEAD, DELETE"]
--- response_body_like eval
["method-not-allowed", "method-not-allowed", "method-not-allowed"]
--- ledger_check eval: $::nothing_left



=== TEST 8: malformed options: 400 bad-options with the reason
--- request eval
["POST /upload?fsp=1\n$::V", "POST /upload?fps=0\n$::V", "POST /upload?fps=1e3\n$::V", "POST /upload?fps=1&fps=2\n$::V", "POST /upload?crop=1,2,3\n$::V", "POST /upload?crop=0,0,0,10\n$::V", "POST /upload?lang=ENG\n$::V", "POST /upload?lang=../../etc\n$::V", "POST /upload?lang=%zz\n$::V", "POST /upload?fps\n$::V"]
--- more_headers
Idempotency-Key: options
--- error_code eval
[(400) x 10]
--- response_body_like eval
["unknown option ..fsp", "fps must be", "fps must be", "option ..fps.. is given more than once", "crop must be", "crop must be", "lang must be", "lang must be", "malformed %-escape", "option ..fps.. has no value"]
--- ledger_check eval: $::nothing_left



=== TEST 8b: lang "auto" joined to other languages: 400 that says to give it alone
--- request eval
["POST /upload?lang=eng+auto\n$::V", "POST /upload?lang=auto%2Bchi_sim\n$::V", "POST /upload?lang=deu+auto+eng\n$::V"]
--- more_headers
Idempotency-Key: auto-joined
--- error_code eval
[(400) x 3]
--- response_body_like eval
[("bad-options.*lang ..auto.. chooses the languages itself: give it alone, not joined to others") x 3]
--- ledger_check eval: $::nothing_left



=== TEST 9: the ledger is locked by another process: 503 + Retry-After
--- http_config
    video_ocr_ledger $DATA/ledger.db;
    video_ocr_store $DATA/store;
    client_body_temp_path $DATA/tmp;
    video_ocr_busy_timeout 300ms;
--- request
GET /jobs/00000000000000000000000000000000
--- error_code: 404
--- ledger_check eval
sub {
    my $pid = main::lock_ledger(3);
    my $t0 = Time::HiRes::time();
    my $resp = upload('locked', $::V);
    my $took = Time::HiRes::time() - $t0;
    is($resp->{status}, 503, "status 503");
    is($resp->{headers}{'retry-after'}, '1', "Retry-After");
    like($resp->{body}, qr/"type":"urn:video-ocr:problem:busy"/, "busy");
    cmp_ok($took, '<', 2.5, "answered within the busy timeout, not after "
                            . "the lock ($took s)");
    $::nothing_left->();
    waitpid $pid, 0;
    my $again = upload('locked', $::V);
    is($again->{status}, 202, "the same request succeeds once unlocked");
}
--- error_log
video_ocr: ledger busy



=== TEST 9b: while an upload waits on the locked ledger, nginx serves on
The admission waits in the thread pool, not on the event loop: with one
nginx worker process, a static file is served in milliseconds while an
upload is held by the lock for up to its busy timeout.
--- http_config
    video_ocr_ledger $DATA/ledger.db;
    video_ocr_store $DATA/store;
    client_body_temp_path $DATA/tmp;
    video_ocr_busy_timeout 2s;
--- config
    location = /upload {
        video_ocr_intake;
    }
    location = /static.txt {
        root $DATA;
    }
--- request
GET /jobs/00000000000000000000000000000000
--- error_code: 404
--- ledger_check eval
sub {
    open my $fh, '>', data_dir() . '/static.txt' or die $!;
    print {$fh} "served\n";
    close $fh;
    my $lock = main::lock_ledger(2.5);
    # the upload, from another process: it waits for the lock
    my $up = fork // die "fork: $!";
    if ($up == 0) {
        my $r = upload('waits', $::V);
        POSIX::_exit($r->{status} == 503 ? 0 : 1);
    }
    Time::HiRes::sleep(0.3);
    my ($ok, @took) = (0);
    my $until = Time::HiRes::time() + 1.2;
    while (Time::HiRes::time() < $until) {
        my $t0 = Time::HiRes::time();
        my $r = http_request(method => 'GET', uri => '/static.txt');
        push @took, Time::HiRes::time() - $t0;
        $ok++ if $r->{status} == 200 && $r->{body} eq "served\n";
    }
    ok(kill(0, $up) && waitpid($up, POSIX::WNOHANG()) == 0,
       "the upload was still waiting on the lock meanwhile");
    my $n = @took;
    @took = sort { $a <=> $b } @took;
    my ($median, $slowest) = map { sprintf('%.1f', $_ * 1000) }
                             $took[$n / 2], $took[-1];
    is($ok, $n, "$n static requests served while it waited");
    cmp_ok($n, '>=', 20, "many of them");
    # a blocked event loop would hold them until the lock went (2 s)
    cmp_ok($median, '<', 50, "median $median ms");
    cmp_ok($slowest, '<', 1000, "slowest $slowest ms, far below the wait");
    waitpid $up, 0;
    is($? >> 8, 0, "the upload got its 503 at the busy timeout");
    waitpid $lock, 0;
}
--- error_log
video_ocr: ledger busy



=== TEST 10: the thread pool queue is full: 503 + Retry-After at once
--- main_config
    thread_pool tiny threads=1 max_queue=1;
--- http_config
    video_ocr_ledger $DATA/ledger.db;
    video_ocr_store $DATA/store;
    client_body_temp_path $DATA/tmp;
    video_ocr_thread_pool tiny;
    video_ocr_busy_timeout 2s;
--- request
GET /jobs/00000000000000000000000000000000
--- error_code: 404
--- ledger_check eval
sub {
    my $pid = main::lock_ledger(3);
    my @out = parallel(3, sub {
        my $i = shift;
        Time::HiRes::sleep(0.4 * $i);
        my $t0 = Time::HiRes::time();
        my $resp = upload("queue-$i", $::V . $i);
        return CORE::join(' ', $resp->{status},
                          $resp->{headers}{'retry-after'} // '-',
                          sprintf('%.1f', Time::HiRes::time() - $t0));
    });
    waitpid $pid, 0;
    like($out[2], qr/^503 1 0\.\d$/,
         "the third, with one running and one queued: 503 at once")
        or diag(CORE::join("\n", @out));
    ok(!grep({ !/^(202|503) / } @out), "the others: 202 or 503 busy")
        or diag(CORE::join("\n", @out));
    my $admitted = grep { /^202 / } @out;
    is(ledger_count('jobs'), $admitted, "a job per 202");
    is(scalar(() = store_files()), $admitted, "a file per 202");
    ok(wait_for(5, sub { !temp_files() }), "no temp file");
}
--- error_log
thread pool "tiny" queue overflow



=== TEST 11: store on another filesystem than the temp files: copied
--- http_config
    video_ocr_ledger $DATA/ledger.db;
    video_ocr_store /dev/shm/video-ocr-test-store;
    client_body_temp_path $DATA/tmp;
--- config
    location = /upload {
        video_ocr_intake;
        client_body_in_file_only clean;
    }
--- request eval
"POST /upload\n$::V"
--- more_headers
Idempotency-Key: exdev
--- error_code: 202
--- ledger_check eval
sub {
    my ($job) = ledger_rows("SELECT input_path, input_sha256 FROM jobs");
    my $file = "/dev/shm/video-ocr-test-store/$job->{input_path}";
    open my $fh, '<:raw', $file or die "$file: $!";
    my $bytes = do { local $/; <$fh> };
    is(sha256_hex($bytes), sha256_hex($::V), "stored byte for byte");
    ok(wait_for(5, sub { !temp_files() }), "the temp file is gone");
    File::Path::remove_tree('/dev/shm/video-ocr-test-store');
}
--- error_log
uploads will be copied into the store instead of renamed
upload copied into the store



=== TEST 12: the ledger cannot be opened at run time: 500, a clear log line
--- skip_eval: 7: VideoOCR::Test::pg()
--- request
GET /upload
--- error_code: 405
--- ledger_check eval
sub {
    my $ledger = data_dir() . '/ledger.db';
    # no thread has opened the ledger yet: replace it by a directory
    rename $ledger, "$ledger.moved" or die "rename: $!";
    mkdir $ledger or die "mkdir: $!";
    my $resp = upload('no-ledger', $::V);
    is($resp->{status}, 500, "status 500");
    like($resp->{body}, qr/"type":"urn:video-ocr:problem:internal"/,
         "problem+json");
    is_deeply([store_files()], [], "no stored file");
    ok(wait_for(5, sub { !temp_files() }), "no temp file");
    rmdir $ledger;
    rename "$ledger.moved", $ledger;
}
--- error_log eval
qr/\[error\] .*video_ocr: ledger: ledger ".*ledger.db": cannot open: unable to open database file/



=== TEST 13: MXF is a container of its own: admitted where listed
--- config
    location = /upload {
        video_ocr_intake;
        video_ocr_containers mxf;
    }
--- request eval
["POST /upload\n$::MXF", "POST /upload\n$::V"]
--- more_headers
Idempotency-Key: mxf
--- error_code eval
[202, 415]
--- ledger_check eval
sub {
    my @jobs = ledger_rows("SELECT * FROM jobs");
    is(scalar @jobs, 1, "one job, the MXF one");
    is($jobs[0]{container}, 'mxf', "container sniffed: mxf");
}



=== TEST 14: an MXF partition key that is no header partition: 415
--- request eval
"POST /upload\n$::NOT_MXF"
--- more_headers
Idempotency-Key: not-mxf
--- error_code: 415
--- response_body_like: not-a-video
--- ledger_check eval: $::nothing_left
