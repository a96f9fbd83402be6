# What only a PostgreSQL ledger has (the PostgreSQL run, make test-pg):
#
#   - a wrong or unreachable postgresql:// URI stops "nginx -t" and
#     "video-ocr-worker run" with a sentence naming the fix, never with
#     the password in it;
#   - sql/schema.sql and sql/schema_pg.sql agree: the same tables,
#     columns (order, NOT NULL), keys, indexes, foreign keys, triggers;
#   - the database goes down: uploads and status get 503 + Retry-After,
#     the workers wait; it comes back: the same nginx and workers carry
#     on, without a reload or a restart;
#   - the server has no connection to spare (its max_connections, the
#     role's CONNECTION LIMIT): 503 + Retry-After too, and a log line
#     that says what to raise; nginx -t says the same;
#   - the janitor folds the metric rows the triggers append.

use strict;
use warnings;

use File::Temp qw(tempdir);
use JSON::PP;
use Test::More;
use Time::HiRes qw(sleep time);
use VideoOCR::Stack;
use VideoOCR::Test qw(pg video_bytes wait_for ledger_rows);

plan skip_all => 'the PostgreSQL run (make test-pg)' unless pg();

my $nginx  = $ENV{NGINX_BIN} // '/usr/sbin/nginx';
my $module = (split ' ', $ENV{TEST_NGINX_LOAD_MODULES} // $ENV{MODULE_SO}
                         // '')[0];
my $worker = $ENV{WORKER_BIN} // 'build/video-ocr-worker';
my $dir    = tempdir('video-ocr-pg-t-XXXXXX', TMPDIR => 1, CLEANUP => 1);
my ($port) = $ENV{VIDEO_OCR_TEST_PG} =~ m{:(\d+)/};

chmod 0777, $dir;
mkdir "$dir/$_" for qw(logs store);


# "nginx -t" of a configuration with this video_ocr_ledger
sub nginx_t {
    my ($ledger) = @_;
    return VideoOCR::Test::nginx_t(nginx => $nginx, module => $module,
                                   dir => $dir, ledger => $ledger);
}


# --- a URI that does not work: nginx -t and the worker say what to fix -----

my @bad = (
    [ "postgresql://vo:hunter2\@127.0.0.1:1/vo", 'no server there',
      qr/cannot connect: Connection refused.*: check the URI, and that the server runs and lets this host in \(pg_hba\.conf\)/ ],
    [ "postgresql://vo_password:hunter2\@127.0.0.1:$port/vo",
      'a wrong password',
      qr/cannot connect: password authentication failed for user "vo_password"/ ],
    [ "postgresql://vo\@127.0.0.1:$port/nosuchdb", 'a wrong database',
      qr/cannot connect: database "nosuchdb" does not exist/ ],
    [ "postgresql://vo\@127.0.0.1:$port/vo?sslmode=sometimes",
      'a parameter libpq refuses',
      qr/cannot connect: invalid sslmode value: "sometimes"/ ],
);

for my $b (@bad) {
    my ($uri, $what, $re) = @$b;
    (my $shown = $uri) =~ s/:hunter2\@/:***\@/;

    my ($rc, $out) = nginx_t($uri);
    isnt($rc, 0, "nginx -t, $what: fails");
    like($out, qr/\[emerg\] .*video_ocr: |\[emerg\] .*ledger "\Q$shown\E": /,
         "nginx -t, $what: names the ledger") or diag($out);
    like($out, $re, "nginx -t, $what: says why and what to fix");
    unlike($out, qr/hunter2/, "nginx -t, $what: no password shown");

    $out = `$worker run --ledger '$uri' --store $dir/store --workers 1 2>&1`;
    is($? >> 8, 78, "video-ocr-worker run, $what: exits 78");
    like($out, $re, "video-ocr-worker run, $what: the same sentence");
    unlike($out, qr/hunter2/, "video-ocr-worker run, $what: no password");
}

my $right = "postgresql://vo_password:right\@127.0.0.1:$port/vo";
my ($rc, $out) = nginx_t($right);
isnt($rc, 0, 'the right password, but no schema the role may create in');
like($out, qr/\[emerg\] .*the role "vo_password" may not create the ledger's tables \(permission denied for schema public\): give it a schema of its own \(CREATE SCHEMA AUTHORIZATION vo_password\)/,
     'says so, and what to do') or diag($out);

VideoOCR::Test::pg_admin('CREATE SCHEMA AUTHORIZATION vo_password');
($rc, $out) = nginx_t($right);
is($rc, 0, 'with its schema: nginx -t is happy') or diag($out);

# a database without pg_trgm (the search index's), whose ledger role may
# not create it: what the operator must run, then it works
my $db = "notrgm_$$";
VideoOCR::Test::pg_admin("DROP DATABASE IF EXISTS $db", "CREATE DATABASE $db",
                         "DROP ROLE IF EXISTS $db", "CREATE ROLE $db LOGIN");
my $admin = sub {
    (my $uri = $ENV{VIDEO_OCR_TEST_PG}) =~ s{/[^/?]+$}{/$db};
    my $dbh = VideoOCR::Test::ledger_dbh(ledger => $uri, rw => 1);
    $dbh->do($_) for @_;
    $dbh->disconnect;
};
$admin->("CREATE SCHEMA AUTHORIZATION $db");
(my $notrgm = $ENV{VIDEO_OCR_TEST_PG}) =~ s{^(\w+://)[^@/]*@(.*)/[^/?]+$}{$1$db\@$2/$db};
($rc, $out) = nginx_t($notrgm);
isnt($rc, 0, 'no pg_trgm and no right to create it: nginx -t fails');
like($out, qr/\[emerg\] .*the role "$db" may not create pg_trgm, which search needs: run CREATE EXTENSION pg_trgm; in the database once, as its owner or a superuser/,
     'and says what to run') or diag($out);
$admin->('CREATE EXTENSION pg_trgm');
($rc, $out) = nginx_t($notrgm);
is($rc, 0, 'once it is there: nginx -t is happy') or diag($out);


# --- the two schemas agree ---------------------------------------------------

my $pgl = VideoOCR::Test::new_pg_ledger("schema_$$");
($rc, $out) = nginx_t("$dir/ledger.db");
is($rc, 0, 'nginx -t creates an SQLite ledger') or diag($out);
($rc, $out) = nginx_t($pgl);
is($rc, 0, 'and a PostgreSQL one') or diag($out);

my $lite = describe_sqlite("$dir/ledger.db");
my $pgd = describe_pg($pgl);

# the search's text index is each backend's own (sql/schema.sql,
# "SEARCH"): SQLite's FTS5 tables (and their tables) over
# search_segments, kept by search_segments' triggers; PostgreSQL's GIN
# indexes
delete $lite->{$_} for grep { /^search_(?:fts|tokens)(?:_\w+)?$/ }
                       keys %$lite;
$lite->{search_segments}{triggers} = [];
$pgd->{search_segments}{indexes} =
    [grep { !/^search_segments_(?:trgm|words)\(/ }
     @{ $pgd->{search_segments}{indexes} }];

is_deeply([sort keys %$pgd], [sort keys %$lite], 'the same tables');

for my $t (sort keys %$lite) {
    my $want = $lite->{$t};

    if ($t =~ /^(?:job_counts|event_counts|counters|tenant_job_counts)$/) {
        # by design (sql/schema_pg.sql): rows appended, summed per key
        is($pgd->{$t}{pk}, '', "table $t: no primary key in PostgreSQL");
        $want = { %$want, pk => '' };
    }

    is_deeply($pgd->{$t}, $want, "table $t: columns, keys, indexes,"
                                 . ' foreign keys, triggers agree');
}

my %v = map { $_->{version} => 1 }
        ledger_rows('SELECT version FROM video_ocr_schema', { ledger => $pgl });
is_deeply([keys %v], [6], 'PostgreSQL ledger at schema version 6');


# --- the database goes away and comes back -----------------------------------

my $s = VideoOCR::Stack->new(workers => 1,
                             worker_args => ['--janitor-interval', '1s']);
my $v = video_bytes(seed => 3001, seconds => 2);

sub job_of { (decode_json($_[0]{body} || '{}')->{job_id}) // '' }

my $before = job_of($s->upload('pg-before', $v, args => 'fps=1'));
ok($before, 'an upload');
is($s->wait_state($before, 'done|failed|rejected', 60)->{state}, 'done',
   'and its job is done');
my %kids = $s->children;

system('scripts/pg.sh', 'down', $ENV{VIDEO_OCR_TEST_PG_DIR}) == 0
    or BAIL_OUT('cannot stop the test server');

my $r = $s->upload('pg-during', $v . 'x', args => 'fps=1');
is($r->{status}, 503, 'the database is down: an upload gets 503');
is($r->{headers}{'retry-after'}, '1', 'with Retry-After');
like($r->{body}, qr/"type":"urn:video-ocr:problem:busy"/, 'problem+json');
is($s->http(uri => "/jobs/$before")->{status}, 503,
   'and so does a job status');
is(scalar(() = glob($s->store . '/*/*.video')), 1,
   'the refused upload left no file');

my $log = $s->error_log;
like($log, qr/\[warn\] .*video_ocr: ledger busy: .*(?:Connection refused|unreachable|terminat|closed)/,
     'nginx logs why');

sleep 2;
system('scripts/pg.sh', 'up', $ENV{VIDEO_OCR_TEST_PG_DIR}) == 0
    or BAIL_OUT('cannot start the test server again');

my @after = map { $s->upload("pg-after-$_", $v . $_, args => 'fps=1') }
            1 .. 6;
is(scalar(grep { $_->{status} == 202 } @after), 6,
   'it is back: every upload is admitted, no reload')
    or diag(join ' ', map { $_->{status} } @after);

my $during = job_of($s->upload('pg-during', $v . 'x', args => 'fps=1'));
ok($during, 'the refused upload, sent again with its key, is admitted');

my @jobs = ($during, map { job_of($_) } @after);
my $done = wait_for(120, sub {
    !grep { ($s->status($_)->{state} // '') ne 'done' } @jobs
});
ok($done, 'the same workers finish them');
my %now = $s->children;
is_deeply(\%now, \%kids, 'no child was restarted');
unlike($s->worker_log, qr/exited with code 78|fatal configuration/,
       'no child gave up');

# the janitor (every second here) folds the triggers' rows
ok(wait_for(20, sub {
    my ($row) = $s->rows('SELECT count(*) AS n FROM (SELECT state'
                         . ' FROM job_counts GROUP BY state'
                         . ' HAVING count(*) > 1) m');
    $row->{n} == 0;
}), 'the janitor folded job_counts: one row per state');
my $m = $s->http(uri => '/metrics')->{body};
like($m, qr/^video_ocr_jobs\{state="done"\} 8$/m,
     'the metrics count 8 jobs done');
like($m, qr/^video_ocr_jobs\{state="accepted"\} 0$/m, 'none waiting');
like($m, qr/^video_ocr_receipts 8$/m, '8 receipts');


# --- no connection to spare: a wait, not a failure ---------------------------

my $full = VideoOCR::Stack->new(no_worker => 1);
my ($role) = $full->ledger =~ m{://([^:@/]+)@};
VideoOCR::Test::pg_admin("ALTER ROLE $role CONNECTION LIMIT 0");

$r = $full->upload('pg-full', $v, args => 'fps=1');
is($r->{status}, 503,
   'the role may open no more connections: an upload gets 503, not 500');
is($r->{headers}{'retry-after'}, '1', 'with Retry-After');
like($r->{body}, qr/"type":"urn:video-ocr:problem:busy"/, 'problem+json');
is(scalar(() = glob($full->store . '/*/*.video')), 0, 'nothing stored');

$log = $full->error_log;
like($log, qr/\[warn\] .*video_ocr: ledger busy: .*too many connections for role .*: the server has no connection to spare: raise its max_connections \(or the role's CONNECTION LIMIT\), or give video-ocr fewer threads/,
     'nginx logs why, and what to raise') or diag($log);

($rc, $out) = $full->nginx_t;
isnt($rc, 0, 'nginx -t cannot check the ledger: fails');
like($out, qr/\[emerg\] .*too many connections for role .*: the server has no connection to spare/,
     'and says why') or diag($out);

VideoOCR::Test::pg_admin("ALTER ROLE $role CONNECTION LIMIT -1");

$r = $full->upload('pg-full', $v, args => 'fps=1');
is($r->{status}, 202, 'connections to spare again: the same upload is '
                      . 'admitted, without a reload') or diag($r->{body});

done_testing();


# table => { columns => [[name, notnull]], pk => 'a,b', unique => [...],
#            indexes => [...], fks => [...], triggers => [...] }

sub describe_sqlite {
    my ($file) = @_;
    my $dbh = VideoOCR::Test::ledger_dbh(ledger => $file);
    my %d;

    my $tables = $dbh->selectcol_arrayref("SELECT name FROM sqlite_master"
                                          . " WHERE type = 'table'");
    for my $t (@$tables) {
        my $cols = $dbh->selectall_arrayref("PRAGMA table_info($t)",
                                            { Slice => {} });
        my @pk = map { $_->{name} } sort { $a->{pk} <=> $b->{pk} }
                 grep { $_->{pk} } @$cols;
        my (@unique, @indexes);

        for my $ix (@{ $dbh->selectall_arrayref("PRAGMA index_list($t)",
                                                { Slice => {} }) })
        {
            my $c = join ',', map { $_->{name} } @{
                $dbh->selectall_arrayref("PRAGMA index_info($ix->{name})",
                                         { Slice => {} }) };
            push @unique, $c if $ix->{origin} eq 'u';
            push @indexes, "$ix->{name}($c)" if $ix->{origin} eq 'c';
        }

        $d{$t} = {
            columns  => [ map { [$_->{name}, ($_->{notnull} || $_->{pk})
                                             ? 1 : 0] } @$cols ],
            pk       => join(',', @pk),
            unique   => [sort @unique],
            indexes  => [sort @indexes],
            fks      => [sort map { "$_->{from}>$_->{table}.$_->{to}" } @{
                $dbh->selectall_arrayref("PRAGMA foreign_key_list($t)",
                                         { Slice => {} }) }],
            triggers => [sort @{ $dbh->selectcol_arrayref(
                "SELECT name FROM sqlite_master WHERE type = 'trigger'"
                . " AND tbl_name = ?", undef, $t) }],
        };
    }

    $dbh->disconnect;
    return \%d;
}


sub describe_pg {
    my ($uri) = @_;
    my $dbh = VideoOCR::Test::ledger_dbh(ledger => $uri);
    my %d;

    my $tables = $dbh->selectcol_arrayref(
        "SELECT table_name FROM information_schema.tables"
        . " WHERE table_schema = current_schema()"
        . " AND table_name <> 'video_ocr_schema'");

    # an index's columns, in order
    my $ixcols = "array_to_string(array(SELECT a.attname"
        . " FROM unnest(ix.indkey) WITH ORDINALITY k(attnum, n)"
        . " JOIN pg_attribute a ON a.attrelid = ix.indrelid"
        . " AND a.attnum = k.attnum ORDER BY k.n), ',')";

    for my $t (@$tables) {
        my $cols = $dbh->selectall_arrayref(
            "SELECT column_name, is_nullable FROM information_schema.columns"
            . " WHERE table_schema = current_schema() AND table_name = ?"
            . " ORDER BY ordinal_position", { Slice => {} }, $t);
        my $ix = $dbh->selectall_arrayref(
            "SELECT i.relname AS name, ix.indisprimary AS pk,"
            . " ix.indisunique AS uniq, $ixcols AS cols,"
            . " EXISTS (SELECT 1 FROM pg_constraint c"
            . " WHERE c.conindid = ix.indexrelid) AS constraint"
            . " FROM pg_index ix JOIN pg_class i ON i.oid = ix.indexrelid"
            . " WHERE ix.indrelid = ?::regclass", { Slice => {} }, $t);
        my $fks = $dbh->selectcol_arrayref(
            "SELECT a.attname || '>' || f.relname || '.' || fa.attname"
            . " FROM pg_constraint c"
            . " JOIN pg_class f ON f.oid = c.confrelid"
            . " JOIN pg_attribute a ON a.attrelid = c.conrelid"
            . " AND a.attnum = c.conkey[1]"
            . " JOIN pg_attribute fa ON fa.attrelid = c.confrelid"
            . " AND fa.attnum = c.confkey[1]"
            . " WHERE c.contype = 'f' AND c.conrelid = ?::regclass",
            undef, $t);

        $d{$t} = {
            columns  => [ map { [$_->{column_name},
                                 $_->{is_nullable} eq 'NO' ? 1 : 0] }
                          @$cols ],
            pk       => join(',', map { $_->{cols} } grep { $_->{pk} } @$ix),
            # a UNIQUE constraint; CREATE UNIQUE INDEX is an index, as
            # SQLite's index_list says (origin 'c')
            unique   => [sort map { $_->{cols} }
                         grep { $_->{uniq} && !$_->{pk} && $_->{constraint} }
                         @$ix],
            indexes  => [sort map { "$_->{name}($_->{cols})" }
                         grep { !$_->{constraint} } @$ix],
            fks      => [sort @$fks],
            triggers => [sort @{ $dbh->selectcol_arrayref(
                "SELECT tgname FROM pg_trigger WHERE NOT tgisinternal"
                . " AND tgrelid = ?::regclass", undef, $t) }],
        };
    }

    $dbh->disconnect;
    return \%d;
}
