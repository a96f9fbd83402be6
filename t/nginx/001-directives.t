# Configuration: nginx refuses to start on a misuse of the directives,
# with a message that names the fix.

use Test::Nginx::Socket 'no_plan';
use VideoOCR::Test;
use VideoOCR::Blocks;

no_shuffle();
run_tests();

__DATA__

=== TEST 1: the module loads and a minimal configuration works
--- request
GET /jobs/0123456789abcdef0123456789abcdef
--- error_code: 404
--- no_error_log
[error]
[warn]



=== TEST 2: video_ocr_intake without a ledger
--- http_config
--- config
    location = /upload {
        video_ocr_intake;
    }
--- must_die
--- error_log eval
qr/\[emerg\] .*"video_ocr_intake" needs a ledger: add "video_ocr_ledger \/var\/lib\/video-ocr\/ledger.db;" to the http block, in \S+nginx.conf:\d+/



=== TEST 3: video_ocr_jobs without a ledger
--- http_config
--- config
    location /jobs/ {
        video_ocr_jobs;
    }
--- must_die
--- error_log eval
qr/\[emerg\] .*"video_ocr_jobs" needs a ledger/



=== TEST 4: video_ocr_intake without a store
--- http_config
    video_ocr_ledger $DATA/ledger.db;
--- config
    location = /upload {
        video_ocr_intake;
    }
--- must_die
--- error_log eval
qr/\[emerg\] .*"video_ocr_intake" needs a store for the uploads: add "video_ocr_store/



=== TEST 5: video_ocr_intake twice in a location
--- config
    location = /upload {
        video_ocr_intake;
        video_ocr_intake;
    }
--- must_die
--- error_log eval
qr/\[emerg\] .*"video_ocr_intake" directive is duplicate/



=== TEST 6: intake and jobs in one location
--- config
    location /x {
        video_ocr_intake;
        video_ocr_jobs;
    }
--- must_die
--- error_log eval
qr/\[emerg\] .*"video_ocr_jobs" directive cannot share a location with another video_ocr endpoint/



=== TEST 7: intake in a location that already has a content handler
--- config
    location /x {
        proxy_pass http://127.0.0.1:1;
        video_ocr_intake;
    }
--- must_die
--- error_log eval
qr/\[emerg\] .*"video_ocr_intake" directive conflicts with another content handler/



=== TEST 8: an unknown thread pool
--- http_config
    video_ocr_ledger $DATA/ledger.db;
    video_ocr_store $DATA/store;
    video_ocr_thread_pool nosuchpool;
--- must_die
--- error_log eval
qr/\[emerg\] .*unknown thread pool "nosuchpool"/



=== TEST 9: a ledger directory that does not exist
--- skip_eval: 2: VideoOCR::Test::pg()
--- http_config
    video_ocr_ledger $DATA/missing/ledger.db;
    video_ocr_store $DATA/store;
--- must_die
--- error_log eval
qr/\[emerg\] .*video_ocr_ledger ".*\/missing\/ledger.db": stat\(".*\/missing"\) failed: No such file or directory: the directory must exist and be writable by nginx's worker processes/



=== TEST 10: a ledger that is not a database: refused, never reset
--- skip_eval: 2: VideoOCR::Test::pg()
--- http_config
    video_ocr_ledger $DATA/ledger.db;
    video_ocr_store $DATA/store;
--- must_die
--- error_log eval
qr/\[emerg\] .*ledger ".*ledger.db": file is not a database/
--- ledger_setup eval
sub {
    open my $fh, '>', data_dir() . '/ledger.db' or die $!;
    print {$fh} "this is not an SQLite file\n" x 100;
    close $fh;
}



=== TEST 11: a ledger made by a newer video-ocr
--- http_config
    video_ocr_ledger $DATA/ledger.db;
    video_ocr_store $DATA/store;
--- must_die
--- error_log eval
qr/\[emerg\] .*has schema version 99, newer than this build knows \(6\): upgrade video-ocr/
--- ledger_setup eval
sub {
    set_schema_version(99);
}



=== TEST 12: an unknown container name
--- config
    location = /upload {
        video_ocr_intake;
        video_ocr_containers mp4 divx;
    }
--- must_die
--- error_log eval
qr/\[emerg\] .*unknown container "divx": use any of mp4, mov, matroska, webm, avi, mpegts, mpegps, flv, ogg, asf, mxf, or "any"/



=== TEST 13: video_ocr_jobs_url must end with a slash
--- config
    location = /upload {
        video_ocr_intake;
        video_ocr_jobs_url /api/jobs;
    }
--- must_die
--- error_log eval
qr/\[emerg\] .*"video_ocr_jobs_url" directive must end with "\/": the job id is appended to it/



=== TEST 14: video_ocr_durability takes full or off
--- http_config
    video_ocr_ledger $DATA/ledger.db;
    video_ocr_store $DATA/store;
    video_ocr_durability sometimes;
--- must_die
--- error_log eval
qr/\[emerg\] .*invalid value "sometimes" in "video_ocr_durability": use "full" \(every upload and its receipt on stable storage before the reply\) or "off"/



=== TEST 15: video_ocr_ledger outside the http block
--- config
    location = /upload {
        video_ocr_ledger /tmp/x.db;
    }
--- must_die
--- error_log eval
qr/\[emerg\] .*"video_ocr_ledger" directive is not allowed here/



=== TEST 16: the ledger is created with the schema (SQLite: in WAL mode)
--- request
GET /jobs/0123456789abcdef0123456789abcdef
--- error_code: 404
--- ledger_check eval
sub {
    my ($v, @t);
    if (pg()) {
        ($v) = ledger_rows('SELECT version AS user_version'
                           . ' FROM video_ocr_schema');
        @t = map { $_->{name} } ledger_rows(
            "SELECT table_name AS name FROM information_schema.tables"
            . " WHERE table_schema = current_schema()"
            . " AND table_name <> 'video_ocr_schema' ORDER BY 1");
    } else {
        ($v) = ledger_rows('PRAGMA user_version');
        my ($m) = ledger_rows('PRAGMA journal_mode');
        is($m->{journal_mode}, 'wal', "WAL mode");
        @t = map { $_->{name} } ledger_rows("SELECT name FROM sqlite_master"
                                    . " WHERE type = 'table' ORDER BY name");
    }
    is($v->{user_version}, 6, "schema version 6");
    # every table the backend's schema file creates, and no other (an
    # FTS5 table's own tables, <name>_data, ..., are its index)
    my $schema = pg() ? 'sql/schema_pg.sql' : 'sql/schema.sql';
    open(my $fh, '<', $schema) or die "$schema: $!";
    my @lines = <$fh>;
    my @want = sort map { /^CREATE (?:VIRTUAL )?TABLE (\w+)/ ? $1 : () }
               @lines;
    cmp_ok(scalar @want, '>=', 5, "tables named in $schema");
    my $fts = join '|', map { /^CREATE VIRTUAL TABLE (\w+) USING fts5/
                              ? $1 : () } @lines;
    @t = grep { !$fts || !/^(?:$fts)_(?:data|idx|config|docsize|content)$/ }
         @t;
    is_deeply([sort @t], \@want, "tables");
}



=== TEST 17: video_ocr_webhook needs a secret where it applies
--- config
    video_ocr_webhook https://app.example.com/hooks/video-ocr;
    location = /upload {
        video_ocr_intake;
    }
--- must_die
--- error_log eval
qr/\[emerg\] .*"video_ocr_webhook" needs "video_ocr_webhook_secret" where it applies: every notification is signed/



=== TEST 18: video_ocr_webhook: a URL without variables is checked by nginx -t
--- config
    video_ocr_webhook ftp://app.example.com/hooks;
    video_ocr_webhook_secret whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw;
    location = /upload {
        video_ocr_intake;
    }
--- must_die
--- error_log eval
qr/\[emerg\] .*"video_ocr_webhook": a webhook URL starts with https:\/\/ \(or http:\/\/\)/



=== TEST 19: video_ocr_webhook_secret: the whsec_ format, 24 to 64 bytes
--- config
    video_ocr_webhook https://app.example.com/hooks;
    video_ocr_webhook_secret whsec_c2hvcnQ=;
    location = /upload {
        video_ocr_intake;
    }
--- must_die
--- error_log eval
qr/\[emerg\] .*"video_ocr_webhook_secret": the webhook secret holds 5 bytes: it must hold 24 to 64 random bytes/



=== TEST 20: a webhook URL from a variable is checked on every upload: 500, the reason in the log, nothing admitted
--- config
    location = /upload {
        video_ocr_intake;
        video_ocr_webhook $http_x_hook;
        video_ocr_webhook_secret whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw;
    }
--- more_headers
Idempotency-Key: hook-1
X-Hook: http://user:pw@app.example.com/h
--- request
POST /upload
ftypisom
--- error_code: 500
--- response_body_like: "type":"urn:video-ocr:problem:internal".*webhook configuration for this request is not usable
--- error_log eval
qr/\[error\] .*video_ocr_webhook evaluated to "http:\/\/user:pw\@app\.example\.com\/h": a webhook URL carries no user or password/
--- ledger_check eval
sub {
    is(ledger_count('jobs'), 0, 'no job');
    is(ledger_count('notifications'), 0, 'no notification');
}



=== TEST 21: an empty webhook URL (a map's default) is no webhook: admitted, nothing to notify
--- config
    location = /upload {
        video_ocr_intake;
        video_ocr_webhook $http_x_hook;
        video_ocr_webhook_secret whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw;
        video_ocr_webhook_accepted on;
    }
--- more_headers
Idempotency-Key: hook-2
--- request eval
"POST /upload\n\0\0\0\x18ftypisom\0\0\x02\0isomiso2" . ("x" x 100)
--- error_code: 202
--- ledger_check eval
sub {
    is(ledger_count('jobs', 'webhook_endpoint IS NULL'), 1,
       'a job without an endpoint');
    is(ledger_count('notifications'), 0, 'and no job.accepted');
}



=== TEST 22: video_ocr_webhook_accepted: job.accepted in the admission's transaction, signed with the endpoint's secret, kept once
--- config
    location = /upload {
        video_ocr_intake;
        video_ocr_webhook https://app.example.com/hooks/video-ocr;
        video_ocr_webhook_secret whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw;
        video_ocr_webhook_accepted on;
    }
--- more_headers
Idempotency-Key: hook-3
--- request eval
"POST /upload\n\0\0\0\x18ftypisom\0\0\x02\0isomiso2" . ("x" x 100)
--- error_code: 202
--- ledger_check eval
sub {
    my ($n) = ledger_rows('SELECT n.type, n.state, n.payload, e.url,'
                          . ' e.secret, j.status_url FROM notifications n'
                          . ' JOIN webhook_endpoints e ON e.id = n.endpoint_id'
                          . ' JOIN jobs j ON j.job_id = n.job_id');
    is($n->{type}, 'job.accepted', 'job.accepted');
    is($n->{state}, 'pending', 'waiting for a deliverer');
    is($n->{url}, 'https://app.example.com/hooks/video-ocr', 'its endpoint');
    like($n->{payload}, qr/"state":"accepted","status_url":"\/jobs\/[0-9a-f]{32}"/,
         'the body, written once');
    is(ledger_count('jobs', 'status_url IS NOT NULL'), 1,
       "the job keeps its status URL");
    unlike(CORE::join(' ', map { map { $_ // '' } values %$_ }
                          ledger_rows('SELECT * FROM jobs')),
           qr/whsec_/, 'and no secret');
}
