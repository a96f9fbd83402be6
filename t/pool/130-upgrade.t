# Upgrades keep data: a ledger made by the code of schema version 1
# (t/data/ledger-v1/, made by its make.pl with that code, for real) is
# opened by this build, which migrates it to the current version; so are
# one made by the code of version 2 (t/data/ledger-v2/, the same way),
# one made by the code of version 3 (t/data/ledger-v3/), one made by the
# code of version 4 (t/data/ledger-v4/) and one made by the code of
# version 5 (t/data/ledger-v5/; these four at the end).  Its rows are
# intact, the schema is the one a new ledger gets (tables, columns,
# indexes, triggers), and the whole product works on it: the status of old
# jobs, replays of old receipts, a refused reuse of an old key, an old
# queued job done by today's worker (claimed by today's claim).  Both
# backends (the PostgreSQL run loads the dump the same code made there).
# Also: the old queues counted per tenant, requests without its foreign
# key, and (SQLite) the file's auto_vacuum kept until the operator's
# VACUUM, after which the janitor gives free pages back.  And (issue 41,
# version 5) the results published before the search index existed are
# found by search, indexed by the migration, as a new one's are; those
# version 5 indexed itself are found as it found them.  The version 5
# ledger also holds a rejected job, and a job left running by a killed
# pool, which today's worker takes over; and (issue 39, version 6) its
# old jobs are ordinary ones (no parent, no parts).

use strict;
use warnings;

use File::Copy qw(copy);
use JSON::PP;
use MIME::Base64 ();
use Test::More;
use VideoOCR::Stack;
use VideoOCR::Test ();

my $fixture = 't/data/ledger-v1';
my $pg = VideoOCR::Test::pg();
my $facts = do {
    local (@ARGV, $/) = $pg ? "$fixture/facts_pg.json" : "$fixture/facts.json";
    decode_json(<>);
};
my %job = %{ $facts->{jobs} };
my $bytes = sub { local (@ARGV, $/) = "$fixture/$_[0]"; <> };
my $bytes2 = sub { local (@ARGV, $/) = "$_[0]/$_[1]"; <> };

# the old ledger, where the stack will find it
my $s = VideoOCR::Stack->new(no_start => 1,
                             ledger => $pg ? load_pg('vo_upgrade_' . $$)
                                           : undef);
unless ($pg) {
    copy("$fixture/ledger.db", $s->ledger) or die "copy: $!";
    chmod 0666, $s->ledger;     # as root, nginx's workers are nobody
}

is(schema_version($s), 1, 'the fixture is a version 1 ledger');

# nginx migrates it when it starts (the worker would too)
$s->start_nginx;
my $current = current_version();
is(schema_version($s), $current, "nginx migrated it to version $current");

# every row is still there, every fact as the old code wrote it
for my $t (sort keys %{ $facts->{count} }) {
    my ($n) = map { $_->{n} } $s->rows("SELECT count(*) AS n FROM $t");
    is($n, $facts->{count}{$t}, "$t: $facts->{count}{$t} rows, as before");
}
for my $key (sort keys %job) {
    my ($row) = $s->rows('SELECT state, attempt, failures, options,'
        . ' input_sha256, input_size, created_at, finished_at, deleted_at,'
        . ' error_code FROM jobs WHERE job_id = ?', $job{$key});
    is_deeply($row, $facts->{job}{$key}, "$key: its job row is intact");
}

# the same tables, columns, indexes and triggers as a new ledger's
my $fresh = VideoOCR::Stack->new(no_worker => 1);
is_deeply(structure($s), structure($fresh),
          'the migrated schema is the one a new ledger gets');

# issue 17: the old queues are counted per tenant; a receipt may outlive
# its job (no foreign key left); SQLite keeps the file's auto_vacuum
# (NONE) until the operator's VACUUM of docs/operations.md
my ($tq) = $s->rows('SELECT sum(jobs) AS n FROM tenant_job_counts'
                    . " WHERE state = 'accepted'");
my ($jq) = $s->rows("SELECT count(*) AS n FROM jobs WHERE state = 'accepted'");
is($tq->{n}, $jq->{n}, 'the queued jobs of version 1, counted per tenant');
if ($pg) {
    my ($fk) = $s->rows('SELECT count(*) AS n FROM information_schema'
        . '.table_constraints WHERE table_schema = current_schema()'
        . " AND table_name = 'requests' AND constraint_type = 'FOREIGN KEY'");
    is($fk->{n}, 0, 'requests: no foreign key to jobs any more');
} else {
    my @fk = $s->rows('PRAGMA foreign_key_list(requests)');
    is(scalar @fk, 0, 'requests: no foreign key to jobs any more');
    is(($s->rows('PRAGMA auto_vacuum'))[0]{auto_vacuum}, 0,
       'the migrated file keeps auto_vacuum NONE (a VACUUM would switch it)');
    is(($fresh->rows('PRAGMA auto_vacuum'))[0]{auto_vacuum}, 2,
       'a new ledger is INCREMENTAL');
}

# issue 17: the claim's turn row, and the queued job's place in its
# tenant's line (not_before: when it became claimable, its admission)
my ($turn) = $s->rows('SELECT tenant, streak FROM claim_turn WHERE id = 1');
is_deeply($turn, { tenant => '', streak => 0 },
          'the migration made the claims\' turn row');
my ($line) = $s->rows('SELECT not_before >= created_at AS placed FROM jobs'
                      . ' WHERE job_id = ?', $job{'k-accepted'});
ok($line->{placed}, 'the old queued job is claimable since its admission');

# the product works on it
my $st = $s->status($job{'k-done'});
is($st->{state}, 'done', 'an old job: its status');
is($s->status($job{'k-done'}, 'txt')->{body}, $facts->{result},
   'and its published text, byte for byte');
is($s->status($job{'k-deleted'})->{state}, 'done', 'a deleted job');
ok($s->status($job{'k-deleted'})->{deleted_at}, 'still says it was deleted');
is($s->status($job{'k-failed'})->{error}{code}, 'abandoned',
   'the abandoned job says why');

# issue 41: its published result is searchable; the deleted job's is not
searchable($s, 'q=ledger+of+version+one', $job{'k-done'}, 'exact',
           'v1: the old result is found');
searchable($s, 'q=deleted+by+its+owner', undef, undef,
           'v1: the deleted job\'s text is not');

my $r = $s->upload('k-done', $bytes->('v.mp4'), args => 'fps=2');
is($r->{status}, 202, 'an old receipt replays');
is($r->{headers}{'idempotent-replayed'}, 'true', 'as a replay');
is(decode_json($r->{body})->{job_id}, $job{'k-done'}, 'of the same job');

$r = $s->upload('k-done', $bytes->('w.mp4'), args => 'fps=2');
is($r->{status}, 422, 'an old key with other bytes is refused');

$r = $s->upload('k-new', $bytes->('w.mp4'), args => 'fps=1');
is($r->{status}, 202, 'a new upload is admitted');
my $new = decode_json($r->{body})->{job_id};

# an old queued job and a new one, done by today's worker; the store
# comes through an upgrade as it is: the old job's input is where its row
# says (w.mp4, the fixture's upload)
my ($queued) = $s->rows('SELECT input_path FROM jobs WHERE job_id = ?',
                        $job{'k-accepted'});
my $input = $s->store . '/' . $queued->{input_path};
(my $sub = $input) =~ s{/[^/]+$}{};
mkdir $sub;
copy("$fixture/w.mp4", $input) or die "copy: $!";
chmod 0666, $input;
$s->start_worker;
is($s->wait_state($job{'k-accepted'}, 'done|failed|rejected', 120)->{state},
   'done', 'the job queued by the old code is done');
is($s->wait_state($new, 'done|failed|rejected', 120)->{state}, 'done',
   'and the new one');
like($s->status($new, 'txt')->{body}, qr/Deleted by its owner/,
     'with its text');
my @after = sort map { $_->{job_id} }
             @{ $s->search('q=deleted+by+its+owner')->{hits} };
is_deeply(\@after, [sort $job{'k-accepted'}, $new],
          'v1: the results published after the upgrade are found');
$fresh->stop_nginx;

# issue 17: the operator's switch (docs/operations.md, "Retention"): with
# nginx and the pool stopped, one VACUUM; the janitor then gives pages
# back
unless ($pg) {
    is($s->stop_worker, 0, 'the pool stops');
    $s->stop_nginx;
    my $cmd = "sqlite3 '" . $s->ledger . "'"
              . " 'PRAGMA auto_vacuum=INCREMENTAL; VACUUM;' 2>&1";
    my $out = `$cmd`;
    is($?, 0, "the operator's VACUUM runs") or diag($out);
    is(($s->rows('PRAGMA auto_vacuum'))[0]{auto_vacuum}, 2,
       'the file is auto_vacuum INCREMENTAL now');
    my $dbh = VideoOCR::Test::ledger_dbh(ledger => $s->ledger, rw => 1);
    # 2 MB of rows, then gone: their pages are free
    $dbh->do('CREATE TABLE pad (x BLOB)');
    $dbh->do('INSERT INTO pad SELECT randomblob(4000) FROM'
             . ' (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1'
             . ' FROM n WHERE i < 500) SELECT i FROM n)');
    $dbh->do('DROP TABLE pad');
    $dbh->disconnect;
    cmp_ok(($s->rows('PRAGMA freelist_count'))[0]{freelist_count}, '>', 400,
           'a deletion leaves free pages');
    my $jcmd = "$ENV{WORKER_BIN} janitor --once --ledger '" . $s->ledger
               . "' --store '" . $s->store . "' 2>&1";
    my $j = `$jcmd`;
    is($?, 0, 'a janitor pass') or diag($j);
    is(($s->rows('PRAGMA freelist_count'))[0]{freelist_count}, 0,
       'gives every free page back');
}

# --- a version 2 ledger ------------------------------------------------
#
# Its rows intact (the frames with no box: NULL in the new columns), its
# four published formats byte for byte, and no ass for a job published
# before there was one (404 no-such-format, not "not done"); the schema
# is a new ledger's; the job it had queued is done by today's worker,
# with boxes in its frame rows and its result in five formats.

{
    my $fx = 't/data/ledger-v2';
    my ($s2, $f2) = open_fixture(2);
    my %j2 = %{ $f2->{jobs} };
    for my $key (sort keys %{ $f2->{frames} }) {
        my @rows = $s2->rows('SELECT frame_index, pts_ms, text, confidence,'
            . ' reused_from, flags FROM frames WHERE job_id = ?'
            . ' ORDER BY frame_index', $j2{$key});
        is_deeply(\@rows, $f2->{frames}{$key},
                  "v2: $key: its frame rows are intact");
        my ($nb) = $s2->rows('SELECT count(*) AS n FROM frames'
            . ' WHERE job_id = ? AND box_x IS NULL AND box_y IS NULL'
            . ' AND box_w IS NULL AND box_h IS NULL AND lines IS NULL',
            $j2{$key});
        is($nb->{n}, scalar @rows, "v2: $key: no box in them");
        for my $f (sort keys %{ $f2->{result}{$key} }) {
            my $r = $s2->status($j2{$key}, $f);
            is($f eq 'json' ? $r->{status} : $r->{body},
               $f eq 'json' ? 200 : $f2->{result}{$key}{$f},
               "v2: $key: its published $f"
               . ($f eq 'json' ? ' is served' : ', byte for byte'));
        }
        my ($body) = map { $_->{body} } $s2->rows('SELECT body FROM results'
            . " WHERE job_id = ? AND format = 'json'", $j2{$key});
        is($body, $f2->{result}{$key}{json}, "v2: $key: its json row too");
        my $ass = $s2->status($j2{$key}, 'ass');
        is($ass->{status}, 404, "v2: $key: ?format=ass: 404");
        like($ass->{body}, qr/no-such-format/, 'v2: no-such-format');
    }

    my $new2 = VideoOCR::Stack->new(no_worker => 1);
    is_deeply(structure($s2), structure($new2),
              'v2: the migrated schema is the one a new ledger gets');
    $new2->stop_nginx;

    my $r2 = $s2->upload('k-done', $bytes2->($fx, 'v.mp4'), args => 'fps=2');
    is($r2->{headers}{'idempotent-replayed'}, 'true',
       'v2: an old receipt replays');
    searchable($s2, 'q=LEDGER+OF+VERSION+TWO', $j2{'k-done'}, 'exact',
               'v2: the old result is found');

    my ($q) = $s2->rows('SELECT input_path FROM jobs WHERE job_id = ?',
                        $j2{'k-accepted'});
    my $in2 = $s2->store . '/' . $q->{input_path};
    (my $sub2 = $in2) =~ s{/[^/]+$}{};
    mkdir $sub2;
    copy("$fx/w.mp4", $in2) or die "copy: $!";
    chmod 0666, $in2;
    $s2->start_worker;
    my $st2 = $s2->wait_state($j2{'k-accepted'}, 'done|failed|rejected', 120);
    is($st2->{state}, 'done', 'v2: the job it had queued is done');
    my ($boxed) = $s2->rows('SELECT count(*) AS n FROM frames'
        . ' WHERE job_id = ? AND box_w > 0 AND lines >= 1',
        $j2{'k-accepted'});
    cmp_ok($boxed->{n}, '>', 0, 'v2: its frame rows have boxes');
    my $seg = $st2->{result}{segments}[0] // {};
    is(ref $seg->{box}, 'ARRAY', 'v2: its segment has a box');
    my $ass2 = $s2->status($j2{'k-accepted'}, 'ass');
    is($ass2->{status}, 200, 'v2: and its result has ass');
    like($ass2->{body}, qr/^Dialogue: 0,.*\\pos\(\d+,\d+\)\}Placed nowhere/m,
         'v2: placed');
    is($s2->stop_worker, 0, 'v2: the pool stops');
    $s2->stop_nginx;
}

# --- a version 3 ledger ------------------------------------------------
#
# Its rows intact, the frames' boxes and lines and the change placed on
# its frame (VO_FRAME_EXACT, 0x100) too, with no parts (NULL in the new
# column: each text one part, as it was read); its five published formats
# byte for byte, ass included; the schema is a new ledger's; an old
# receipt replays; the job it had queued and a new upload are done by
# today's worker.

{
    my $fx = 't/data/ledger-v3';
    my ($s3, $f3) = open_fixture(3);
    my %j3 = %{ $f3->{jobs} };
    for my $key (sort keys %{ $f3->{frames} }) {
        my @rows = $s3->rows('SELECT frame_index, pts_ms, text, confidence,'
            . ' reused_from, flags, box_x, box_y, box_w, box_h, lines'
            . ' FROM frames WHERE job_id = ? ORDER BY frame_index', $j3{$key});
        is_deeply(\@rows, $f3->{frames}{$key},
                  "v3: $key: its frame rows are intact, boxes and all");
        my ($np) = $s3->rows('SELECT count(*) AS n FROM frames'
            . ' WHERE job_id = ? AND parts IS NULL', $j3{$key});
        is($np->{n}, scalar @rows, "v3: $key: no parts in them (NULL)");
        for my $f (sort keys %{ $f3->{result}{$key} }) {
            my $r = $s3->status($j3{$key}, $f);
            is($f eq 'json' ? $r->{status} : $r->{body},
               $f eq 'json' ? 200 : $f3->{result}{$key}{$f},
               "v3: $key: its published $f"
               . ($f eq 'json' ? ' is served' : ', byte for byte'));
        }
        my ($body) = map { $_->{body} } $s3->rows('SELECT body FROM results'
            . " WHERE job_id = ? AND format = 'json'", $j3{$key});
        is($body, $f3->{result}{$key}{json}, "v3: $key: its json row too");
    }
    my ($exact) = grep { $_->{flags} & 0x100 && $_->{pts_ms} % 1000 }
                  @{ $f3->{frames}{'k-done'} };
    ok($exact, 'v3: k-done has a change placed on its frame (0x100)');
    like($s3->status($j3{'k-done'}, 'ass')->{body},
         qr/^Dialogue:\ 0,0:00:01\.32,.*\\pos\(\d+,\d+\)\}
            Ledger\ of\ version\ three/mx,
         'v3: k-done: its ass, placed and timed to the frame');

    my $new3 = VideoOCR::Stack->new(no_worker => 1);
    is_deeply(structure($s3), structure($new3),
              'v3: the migrated schema is the one a new ledger gets');
    $new3->stop_nginx;

    searchable($s3, 'q=ledger+of+version+three', $j3{'k-done'}, 'exact',
               'v3: the old result is found');
    searchable($s3, 'q=ledger+of+versoin+three', $j3{'k-done'}, 'fuzzy',
               'v3: and with a typo');

    my $r3 = $s3->upload('k-done', $bytes2->($fx, 'v.mp4'), args => 'fps=1');
    is($r3->{status}, 202, 'v3: an old receipt replays');
    is($r3->{headers}{'idempotent-replayed'}, 'true', 'v3: as a replay');
    is(decode_json($r3->{body})->{job_id}, $j3{'k-done'},
       'v3: of the same job');

    $r3 = $s3->upload('k-new', $bytes2->($fx, 'v.mp4'), args => 'fps=1');
    is($r3->{status}, 202, 'v3: a new upload is admitted');
    my $newjob = decode_json($r3->{body})->{job_id};

    my ($q) = $s3->rows('SELECT input_path FROM jobs WHERE job_id = ?',
                        $j3{'k-accepted'});
    my $in3 = $s3->store . '/' . $q->{input_path};
    (my $sub3 = $in3) =~ s{/[^/]+$}{};
    mkdir $sub3;
    copy("$fx/w.mp4", $in3) or die "copy: $!";
    chmod 0666, $in3;
    $s3->start_worker;
    is($s3->wait_state($j3{'k-accepted'}, 'done|failed|rejected', 120)
           ->{state}, 'done', 'v3: the job it had queued is done');
    is($s3->wait_state($newjob, 'done|failed|rejected', 120)->{state},
       'done', 'v3: and the new upload');
    like($s3->status($newjob, 'txt')->{body}, qr/Ledger of version three/,
         'v3: with its text');
    my $ass3 = $s3->status($newjob, 'ass');
    is($ass3->{status}, 200, 'v3: and its ass');
    like($ass3->{body}, qr/\\pos\(\d+,\d+\)\}Ledger of version three/m,
         'v3: placed');
    is($s3->stop_worker, 0, 'v3: the pool stops');
    $s3->stop_nginx;
}

# --- a version 4 ledger ------------------------------------------------
#
# Its rows intact, the frames' parts (text in two places at once) too;
# its five published formats byte for byte; its uploads as they were:
# the completed IETF upload pointing at its job, the tus upload left half
# sent with its Upload-Metadata's file name, which today's nginx finishes
# (HEAD gives the old offset, a PATCH of the rest gives the receipt); the
# schema is a new ledger's; an old receipt replays; the jobs it had queued
# are done by today's worker.

{
    my $fx = 't/data/ledger-v4';
    my ($s4, $f4) = open_fixture(4);
    my %j4 = %{ $f4->{jobs} };
    my @rows = $s4->rows('SELECT frame_index, pts_ms, text, confidence,'
        . ' reused_from, flags, box_x, box_y, box_w, box_h, lines, parts'
        . ' FROM frames WHERE job_id = ? ORDER BY frame_index', $j4{'k-done'});
    is_deeply(\@rows, $f4->{frames}{'k-done'},
              'v4: k-done: its frame rows are intact, parts and all');
    ok((grep { ($_->{parts} // '') =~ /;/ } @rows),
       'v4: k-done: a frame with its text in two parts');
    for my $f (sort keys %{ $f4->{result}{'k-done'} }) {
        my $r = $s4->status($j4{'k-done'}, $f);
        is($f eq 'json' ? $r->{status} : $r->{body},
           $f eq 'json' ? 200 : $f4->{result}{'k-done'}{$f},
           "v4: k-done: its published $f"
           . ($f eq 'json' ? ' is served' : ', byte for byte'));
    }
    ok($s4->status($j4{'k-deleted'})->{deleted_at},
       'v4: k-deleted still says it was deleted');

    # issue 41: its published text is searchable, both of its parts
    searchable($s4, 'q=two+places+at+once', $j4{'k-done'}, 'exact',
               'v4: the old result is found');
    searchable($s4, 'q=LEDGER+OF+VERSION+FOUR', $j4{'k-done'}, 'exact',
               'v4: its other part too');
    searchable($s4, 'q=ledger+of+versoin+four', $j4{'k-done'}, 'fuzzy',
               'v4: and with a typo');
    my $hit4 = $s4->search('q=two+places')->{hits}[0] // {};
    my $st4 = $s4->status($j4{'k-done'});
    is_deeply([$hit4->{start}, $hit4->{end}, $hit4->{text}],
              [@{ $st4->{result}{segments}[$hit4->{segment} // 0] }{
                  qw(start end text)}],
              'v4: at the times of its segment in the result');
    for my $key (sort keys %{ $f4->{upload} }) {
        my ($row) = $s4->rows('SELECT tenant, request_key, protocol, options,'
            . ' filename, upload_offset, upload_length, sha256_state,'
            . ' container, writer, state, job_id, input_digest, created_at,'
            . ' updated_at, expires_at FROM uploads WHERE upload_id = ?',
            $f4->{uploads}{$key});
        is_deeply($row, $f4->{upload}{$key},
                  "v4: $key: its upload row is intact");
    }

    my $new4 = VideoOCR::Stack->new(no_worker => 1);
    is_deeply(structure($s4), structure($new4),
              'v4: the migrated schema is the one a new ledger gets');
    $new4->stop_nginx;

    my $v = $bytes2->($fx, 'v.mp4');
    my $r4 = $s4->upload('k-done', $v, args => 'fps=1');
    is($r4->{headers}{'idempotent-replayed'}, 'true',
       'v4: an old receipt replays');
    is(decode_json($r4->{body})->{job_id}, $j4{'k-done'},
       'v4: of the same job');

    # the half-sent tus upload: its partial file where the old nginx left
    # it (uploads/<the id's last two digits>/<id>.part: the first
    # upload_offset bytes of v.mp4), then the rest
    my $tus = $f4->{upload}{'k-tus'};
    my $id = $f4->{uploads}{'k-tus'};
    my $part = $s4->store . '/uploads/' . substr($id, 30, 2) . "/$id.part";
    (my $pdir = $part) =~ s{/[^/]+$}{};
    system('mkdir', '-p', $pdir) == 0 or die "mkdir $pdir";
    open my $ph, '>', $part or die "$part: $!";
    print {$ph} substr($v, 0, $tus->{upload_offset});
    close $ph;
    chmod 0666, $part;
    system('chmod', '-R', 'a+rwX', $s4->store . '/uploads');
    my @tus = ('Tus-Resumable' => '1.0.0');
    my $h = $s4->http(method => 'HEAD', uri => "/upload/$id",
                      headers => \@tus);
    is($h->{status}, 204, 'v4: k-tus: HEAD answers');
    is($h->{headers}{'upload-offset'}, $tus->{upload_offset},
       'v4: k-tus: with the offset the old nginx acknowledged');
    my $p = $s4->http(method => 'PATCH', uri => "/upload/$id",
        headers => [@tus, 'Upload-Offset' => $tus->{upload_offset},
                    'Content-Type' => 'application/offset+octet-stream'],
        body => substr($v, $tus->{upload_offset}));
    is($p->{status}, 204, 'v4: k-tus: the rest sent: 204');
    my $tusjob = $p->{headers}{'video-ocr-job'} // '';
    like($tusjob, qr/^[0-9a-f]{32}$/, 'v4: k-tus: a header names its job');
    my ($tj) = $s4->rows('SELECT input_sha256 FROM jobs WHERE job_id = ?',
                         $tusjob);
    is($tj->{input_sha256}, VideoOCR::Test::sha256_hex($v),
       'v4: k-tus: its job has exactly the file');

    # version 5's columns (Upload-Metadata, tus concatenation): empty in
    # the rows of version 4, whose metadata that code did not keep, and
    # used by today's uploads on the migrated ledger
    my ($k5) = $s4->rows('SELECT metadata, concat, partial_key, parts'
                         . ' FROM uploads WHERE upload_id = ?', $id);
    is_deeply($k5, { metadata => undef, concat => undef,
                     partial_key => undef, parts => undef },
              'v4: k-tus: the columns of version 5 are empty in its row');
    ok(!exists $h->{headers}{'upload-metadata'},
       'v4: k-tus: HEAD gives no Upload-Metadata the old code did not keep');
    my $half = int(length($v) / 2);
    my @parts;
    for my $bytes (substr($v, 0, $half), substr($v, $half)) {
        my $c = $s4->http(method => 'POST', uri => '/upload',
            headers => [@tus, 'Upload-Concat' => 'partial',
                        'Upload-Length' => length $bytes,
                        'Idempotency-Key' => 'k5-concat']);
        $s4->http(method => 'PATCH', uri => $c->{headers}{location},
            headers => [@tus, 'Upload-Offset' => 0,
                        'Content-Type' => 'application/offset+octet-stream'],
            body => $bytes);
        push @parts, $c->{headers}{location};
    }
    my $md = 'filename ' . MIME::Base64::encode_base64('five.mp4', '');
    my $fin = $s4->http(method => 'POST', uri => '/upload?fps=1',
        headers => [@tus, 'Upload-Concat' => "final;@parts",
                    'Upload-Metadata' => $md,
                    'Idempotency-Key' => 'k5-concat']);
    is($fin->{status}, 201, 'v4: a final upload of two partial ones: 201');
    my $fh = $s4->http(method => 'HEAD', uri => $fin->{headers}{location},
                       headers => \@tus);
    is($fh->{headers}{'upload-metadata'}, $md,
       'v4: its HEAD gives its Upload-Metadata back');
    is($fh->{headers}{'upload-concat'}, "final;@parts",
       'v4: and its Upload-Concat');
    my ($fj) = $s4->rows('SELECT input_sha256 FROM jobs WHERE job_id = ?',
                         $fin->{headers}{'video-ocr-job'} // '');
    is($fj->{input_sha256}, VideoOCR::Test::sha256_hex($v),
       'v4: its job has the bytes of both, in order');
    my ($k5r) = $s4->rows('SELECT count(*) AS n FROM uploads'
                          . " WHERE concat = 'partial'");
    is($k5r->{n}, 0, 'v4: the partial uploads were taken');

    for my $key ('k-accepted', 'k-ietf') {
        my ($q) = $s4->rows('SELECT input_path FROM jobs WHERE job_id = ?',
                            $j4{$key});
        my $in = $s4->store . '/' . $q->{input_path};
        (my $sub4 = $in) =~ s{/[^/]+$}{};
        mkdir $sub4;
        copy("$fx/w.mp4", $in) or die "copy: $!";
        chmod 0666, $in;
    }
    $s4->start_worker;
    for my $key ('k-accepted', 'k-ietf') {
        is($s4->wait_state($j4{$key}, 'done|failed|rejected', 120)->{state},
           'done', "v4: $key, queued by the old code, is done");
    }
    is($s4->wait_state($tusjob, 'done|failed|rejected', 120)->{state},
       'done', 'v4: and the tus upload finished today');
    like($s4->status($tusjob, 'txt')->{body}, qr/Ledger of version four/,
         'v4: with its text');
    my $found = $s4->search('q=ledger+of+version+four&limit=100');
    ok((grep { $_->{job_id} eq $tusjob } @{ $found->{hits} }),
       'v4: the tus upload finished today is found');
    is($found->{jobs}{$tusjob}{filename}, $tus->{filename},
       'v4: with the file name of its Upload-Metadata');
    is($s4->stop_worker, 0, 'v4: the pool stops');
    $s4->stop_nginx;
}

# --- a version 5 ledger ------------------------------------------------
#
# Its rows intact, version 5's search index too (its tables' rows
# counted, and the searches version 5 answered give the same hits: the
# old result is found without being indexed again); k-done's frames and
# five formats byte for byte; the rejected job says why; the tus upload
# left half sent keeps its Upload-Metadata (HEAD gives it back, its job
# is found by that file name); the job left running with the lease of a
# killed pool is taken over by today's worker (one failure counted) and
# done, as are the jobs it had queued; the schema is a new ledger's; an
# old receipt replays.  From version 6 (issue 39, parts), the old jobs
# are whole ones: no parent, no part, no parts.

{
    my $fx = 't/data/ledger-v5';
    my ($s5, $f5) = open_fixture(5);
    my %j5 = %{ $f5->{jobs} };
    my @old = sort values %j5;

    # issue 39 (version 6): every old job is an ordinary one
    {
        my $in = join ', ', ('?') x @old;
        my @v6 = $s5->rows('SELECT job_id, parent_id, parts, parts_done'
            . " FROM jobs WHERE job_id IN ($in) ORDER BY job_id", @old);
        is_deeply(\@v6, [map { { job_id => $_, parent_id => undef,
                                 parts => 0, parts_done => 0 } } @old],
                  'v5: the old jobs have no parent, 0 parts, 0 done');
        my @v6n = $s5->rows('SELECT job_id, part, first_sample, end_sample,'
            . " seam_index, seam_part FROM jobs WHERE job_id IN ($in)"
            . " ORDER BY job_id", @old);
        is_deeply(\@v6n, [map { { job_id => $_, part => undef,
                                  first_sample => undef, end_sample => undef,
                                  seam_index => undef, seam_part => undef } }
                           @old],
                  'v5: and no part, samples or seam (NULL)');
    }

    my @rows = $s5->rows('SELECT frame_index, pts_ms, text, confidence,'
        . ' reused_from, flags, box_x, box_y, box_w, box_h, lines, parts'
        . ' FROM frames WHERE job_id = ? ORDER BY frame_index', $j5{'k-done'});
    is_deeply(\@rows, $f5->{frames}{'k-done'},
              'v5: k-done: its frame rows are intact');
    for my $f (sort keys %{ $f5->{result}{'k-done'} }) {
        my $r = $s5->status($j5{'k-done'}, $f);
        is($f eq 'json' ? $r->{status} : $r->{body},
           $f eq 'json' ? 200 : $f5->{result}{'k-done'}{$f},
           "v5: k-done: its published $f"
           . ($f eq 'json' ? ' is served' : ', byte for byte'));
    }

    # issue 41: what version 5 indexed is found as it was (an exact hit
    # and a fuzzy one), the deleted job's text is not
    my @member = qw(job_id segment match highlights start end text);
    for my $q (sort keys %{ $f5->{search} }) {
        my $b = $s5->search("q=$q");
        is_deeply([map { my $h = $_; +{ map { $_ => $h->{$_} } @member } }
                       @{ $b->{hits} // [] }],
                  [map { my $h = $_; +{ map { $_ => $h->{$_} } @member } }
                       @{ $f5->{search}{$q} }],
                  "v5: q=$q: the hits version 5 gave");
    }
    searchable($s5, 'q=deleted+after+reading', undef, undef,
               'v5: the deleted job\'s text is not found');
    ok($s5->status($j5{'k-deleted'})->{deleted_at},
       'v5: k-deleted still says it was deleted');

    my $rej = $s5->status($j5{'k-rejected'});
    is_deeply([$rej->{state}, $rej->{error}{code}],
              ['rejected', $f5->{job}{'k-rejected'}{error_code}],
              'v5: k-rejected: rejected, with its reason');

    # the killed pool's lease, as it was left: long expired
    my ($lease) = $s5->rows('SELECT lease_owner, lease_expires_at FROM jobs'
                            . ' WHERE job_id = ?', $j5{'k-running'});
    is_deeply($lease, $f5->{lease}{'k-running'},
              'v5: k-running: its lease is intact');
    cmp_ok($lease->{lease_expires_at}, '<', time * 1000,
           'v5: k-running: and expired');

    for my $key (sort keys %{ $f5->{upload} }) {
        my ($row) = $s5->rows('SELECT tenant, request_key, protocol, options,'
            . ' filename, upload_offset, upload_length, sha256_state,'
            . ' container, writer, state, job_id, input_digest, created_at,'
            . ' updated_at, expires_at, metadata, concat, partial_key, parts'
            . ' FROM uploads WHERE upload_id = ?', $f5->{uploads}{$key});
        is_deeply($row, $f5->{upload}{$key},
                  "v5: $key: its upload row is intact");
    }

    my $new5 = VideoOCR::Stack->new(no_worker => 1);
    is_deeply(structure($s5), structure($new5),
              'v5: the migrated schema is the one a new ledger gets');
    $new5->stop_nginx;

    my $v = $bytes2->($fx, 'v.mp4');
    my $r5 = $s5->upload('k-done', $v, args => 'fps=1');
    is($r5->{headers}{'idempotent-replayed'}, 'true',
       'v5: an old receipt replays');
    is(decode_json($r5->{body})->{job_id}, $j5{'k-done'},
       'v5: of the same job');

    # the half-sent tus upload: its partial file as the old nginx left
    # it (see v4), then the rest
    my $tus = $f5->{upload}{'k-tus'};
    my $id = $f5->{uploads}{'k-tus'};
    my $part = $s5->store . '/uploads/' . substr($id, 30, 2) . "/$id.part";
    (my $pdir = $part) =~ s{/[^/]+$}{};
    system('mkdir', '-p', $pdir) == 0 or die "mkdir $pdir";
    open my $ph, '>', $part or die "$part: $!";
    print {$ph} substr($v, 0, $tus->{upload_offset});
    close $ph;
    system('chmod', '-R', 'a+rwX', $s5->store . '/uploads');
    my @tus = ('Tus-Resumable' => '1.0.0');
    my $h = $s5->http(method => 'HEAD', uri => "/upload/$id",
                      headers => \@tus);
    is_deeply([$h->{status}, $h->{headers}{'upload-offset'},
               $h->{headers}{'upload-metadata'}],
              [204, $tus->{upload_offset}, $tus->{metadata}],
              'v5: k-tus: HEAD gives its offset and its Upload-Metadata');
    my $p = $s5->http(method => 'PATCH', uri => "/upload/$id",
        headers => [@tus, 'Upload-Offset' => $tus->{upload_offset},
                    'Content-Type' => 'application/offset+octet-stream'],
        body => substr($v, $tus->{upload_offset}));
    is($p->{status}, 204, 'v5: k-tus: the rest sent: 204');
    my $tusjob = $p->{headers}{'video-ocr-job'} // '';

    # the queued jobs' inputs and the running one's, where their rows say
    my %input = ('k-accepted' => 'w.mp4', 'k-ietf' => 'w.mp4',
                 'k-running' => 'v.mp4');
    for my $key (sort keys %input) {
        my ($q) = $s5->rows('SELECT input_path FROM jobs WHERE job_id = ?',
                            $j5{$key});
        my $in = $s5->store . '/' . $q->{input_path};
        (my $sub5 = $in) =~ s{/[^/]+$}{};
        mkdir $sub5;
        copy("$fx/$input{$key}", $in) or die "copy: $!";
        chmod 0666, $in;
    }
    $s5->start_worker;
    for my $key ('k-accepted', 'k-ietf') {
        is($s5->wait_state($j5{$key}, 'done|failed|rejected', 120)->{state},
           'done', "v5: $key, queued by the old code, is done");
    }
    my $run = $s5->wait_state($j5{'k-running'}, 'done|failed|rejected', 120);
    is_deeply([@$run{qw(state attempts failures)}], ['done', 2, 1],
              'v5: k-running, left running, is taken over and done'
              . ' (its dead attempt a failure)');
    like($s5->status($j5{'k-running'}, 'txt')->{body},
         qr/Ledger of version five/, 'v5: with its text');
    is($s5->wait_state($tusjob, 'done|failed|rejected', 120)->{state},
       'done', 'v5: and the tus upload finished today');
    my $found = $s5->search('q=ledger+of+version+five&limit=100');
    is_deeply([sort map { $_->{job_id} } @{ $found->{hits} }],
              [sort $j5{'k-done'}, $j5{'k-running'}, $tusjob],
              'v5: the old result and the two published today are found');
    is($found->{jobs}{$tusjob}{filename}, $tus->{filename},
       'v5: the tus upload with the file name of its Upload-Metadata');
    my @read = sort map { $_->{job_id} }
               @{ $s5->search('q=deleted+after+reading')->{hits} };
    is_deeply(\@read, [sort $j5{'k-accepted'}, $j5{'k-ietf'}],
              'v5: the queued jobs\' results are found');
    is($s5->stop_worker, 0, 'v5: the pool stops');
    $s5->stop_nginx;
}

done_testing();


# Issue 41: a search of $s finds exactly one hit, of $job, in the tier
# $match (or, $job undef, none).
sub searchable {
    my ($s, $args, $job, $match, $what) = @_;
    my $b = $s->search($args);
    my @hits = map { "$_->{job_id}:$_->{match}" } @{ $b->{hits} // [] };
    is($b->{status}, 200, "$what: 200");
    is_deeply(\@hits, defined $job ? ["$job:$match"] : [], $what);
}


# The schema version the ledger says it has.
# Opens the fixture of schema version v (t/data/ledger-vV/) with
# today's nginx, on this run's backend, and checks what every version's
# fixture must keep: it was at version v and is now at the current one,
# every table has the rows it had, every job row is as it was.  Returns
# the stack and the fixture's facts.
sub open_fixture {
    my ($v) = @_;
    my $fx = "t/data/ledger-v$v";
    my $f = do {
        local (@ARGV, $/) = $pg ? "$fx/facts_pg.json" : "$fx/facts.json";
        decode_json(<>);
    };
    my $s = VideoOCR::Stack->new(no_start => 1,
        ledger => $pg ? load_pg("vo_upgrade${v}_" . $$, $fx) : undef);
    unless ($pg) {
        copy("$fx/ledger.db", $s->ledger) or die "copy: $!";
        chmod 0666, $s->ledger;
    }

    is(schema_version($s), $v, "v$v: the fixture is a version $v ledger");
    $s->start_nginx;
    is(schema_version($s), $current, "v$v: nginx migrated it to $current");

    for my $t (sort keys %{ $f->{count} }) {
        my ($n) = map { $_->{n} } $s->rows("SELECT count(*) AS n FROM $t");
        is($n, $f->{count}{$t}, "v$v: $t: $f->{count}{$t} rows, as before");
    }
    for my $key (sort keys %{ $f->{jobs} }) {
        my ($row) = $s->rows('SELECT state, attempt, failures, options,'
            . ' input_sha256, input_size, created_at, finished_at,'
            . ' deleted_at, error_code FROM jobs WHERE job_id = ?',
            $f->{jobs}{$key});
        is_deeply($row, $f->{job}{$key}, "v$v: $key: its job row is intact");
    }

    return ($s, $f);
}

sub schema_version {
    my ($stack) = @_;
    my $sql = $pg ? 'SELECT max(version) AS v FROM video_ocr_schema'
                  : 'PRAGMA user_version';
    my ($row) = $stack->rows($sql);
    return $pg ? $row->{v} : $row->{user_version};
}

# VO_LEDGER_SCHEMA_VERSION, as this build has it.
sub current_version {
    open my $fh, '<', 'sql/vo_ledger.h' or die "sql/vo_ledger.h: $!";
    while (<$fh>) {
        return $1 if /^#define VO_LEDGER_SCHEMA_VERSION\s+(\d+)/;
    }
    die "no VO_LEDGER_SCHEMA_VERSION in sql/vo_ledger.h\n";
}

# The tables with their columns, the indexes and the triggers, as text.
sub structure {
    my ($stack) = @_;
    my %st;

    if ($pg) {
        # each ledger is a schema of its own: its name is not the structure
        my ($schema) = map { $_->{s} }
            $stack->rows('SELECT current_schema() AS s');
        my $unqualify = sub { (my $t = $_[0] // 'NULL') =~ s/\b\Q$schema\E\.//g;
                              return $t };

        for ($stack->rows('SELECT table_name, column_name, data_type,'
                 . ' is_nullable, column_default FROM information_schema.columns'
                 . ' WHERE table_schema = current_schema()'
                 . ' ORDER BY table_name, column_name'))
        {
            push @{ $st{columns}{ $_->{table_name} } },
                join ' ', map { $unqualify->($_) }
                    @$_{qw(column_name data_type is_nullable column_default)};
        }
        for ($stack->rows('SELECT indexname, indexdef FROM pg_indexes'
                          . ' WHERE schemaname = current_schema()'))
        {
            $st{indexes}{ $_->{indexname} } = $unqualify->($_->{indexdef});
        }
        for ($stack->rows('SELECT trigger_name, event_object_table,'
                 . ' event_manipulation FROM information_schema.triggers'
                 . ' WHERE trigger_schema = current_schema()'))
        {
            push @{ $st{triggers}{ $_->{trigger_name} } },
                "$_->{event_object_table} $_->{event_manipulation}";
        }
        $_ = [sort @$_] for values %{ $st{triggers} };
        return \%st;
    }

    for my $t (map { $_->{name} } $stack->rows("SELECT name FROM sqlite_master"
                   . " WHERE type = 'table' ORDER BY name"))
    {
        $st{columns}{$t} = [map { join ' ', map { $_ // 'NULL' }
                                      @$_{qw(name type notnull dflt_value pk)} }
                            $stack->rows("PRAGMA table_info($t)")];
    }
    for ($stack->rows("SELECT name, tbl_name FROM sqlite_master"
                      . " WHERE type = 'index' AND sql IS NOT NULL"))
    {
        $st{indexes}{ $_->{name} } = join ' ', $_->{tbl_name},
            map { $_->{name} // 'expr' }
                $stack->rows("PRAGMA index_info($_->{name})");
    }
    $st{triggers} = [map { "$_->{name} $_->{tbl_name}" } $stack->rows(
        "SELECT name, tbl_name FROM sqlite_master WHERE type = 'trigger'"
        . " ORDER BY name")];
    return \%st;
}

# A PostgreSQL ledger of its own, loaded from the dump of a fixture (the
# version 1 one unless another directory is given).
sub load_pg {
    my ($name, $dir) = @_;
    my $uri = VideoOCR::Test::new_pg_ledger($name);

    $dir //= $fixture;
    open my $in, '<', "$dir/ledger_pg.sql" or die "ledger_pg.sql: $!";
    my $sql = do { local $/; <$in> };
    $sql =~ s/\@SCHEMA\@/$name/g;

    # as its own role, so that what the dump creates belongs to it
    open my $psql, '|-', 'psql', '-q', '-v', 'ON_ERROR_STOP=1', '-o',
         '/dev/null', $ENV{VIDEO_OCR_TEST_PG} or die "psql: $!";
    print {$psql} "SET ROLE $name;\n$sql";
    close $psql or die "loading the dump of $dir failed ($?)\n";

    return $uri;
}
