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
qr/\[emerg\] .*has schema version 99, newer than this build knows \(2\): upgrade video-ocr/
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
qr/\[emerg\] .*unknown container "divx": use any of mp4, mov, matroska, webm, avi, mpegts, mpegps, flv, ogg, asf, or "any"/



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
qr/\[emerg\] .*invalid value "sometimes" in "video_ocr_durability": use "full" \(fsync every upload and receipt before the reply\) or "off"/



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
    is($v->{user_version}, 2, "schema version 2");
    # every table the backend's schema file creates, and no other
    my $schema = pg() ? 'sql/schema_pg.sql' : 'sql/schema.sql';
    open(my $fh, '<', $schema) or die "$schema: $!";
    my @want = sort map { /^CREATE TABLE (\w+)/ ? $1 : () } <$fh>;
    cmp_ok(scalar @want, '>=', 5, "tables named in $schema");
    is_deeply([sort @t], \@want, "tables");
}
