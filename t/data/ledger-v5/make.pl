#!/usr/bin/perl
# Makes the ledgers of t/data/ledger-v5/ with the code of schema version 5
# (the nginx module and the worker pool of a build of that code, run for
# real), for t/pool/130-upgrade.t: the previous version's ledger, which
# this version must open with its rows intact.  Not run by the suites;
# kept to say how the fixtures were made:
#
#   git worktree add <v5> cda01f3 && make -C <v5> build BUILD=<v5>/build
#   MODULE_SO=<v5>/build/nginx/objs/ngx_http_video_ocr_module.so \
#   WORKER_BIN=<v5>/build/video-ocr-worker \
#       perl -It/lib -It/compat t/data/ledger-v5/make.pl  # ledger.db
#   (the same with VIDEO_OCR_TEST_PG=..., from "scripts/pg.sh start")
#                                                         # ledger_pg.sql
#
# (made on 2026-12-07 with main at cda01f3, the last commit of version 5.)
#
# What the ledger holds (facts.json lists what the test checks; v.mp4
# and w.mp4 are the uploads, made by the first run and uploaded again by
# the second, so that both ledgers hold the digests of these files):
#   k-done      done, with its frames, whose text is in two places at
#               once, and its results in the five formats (v.mp4,
#               fps=1), indexed for search by version 5's worker when it
#               published them (the search_* tables; facts.json keeps
#               the hits two searches gave then)
#   k-deleted   done, then deleted by its owner (DELETE): its result
#               rows and its search rows are gone, its job row says when
#               (w.mp4, fps=1)
#   k-rejected  rejected by the worker: the first third of v.mp4, a
#               truncated file, with its error code
#   k-running   claimed by a child (v.mp4, fps=2), then the whole pool
#               killed (SIGKILL) before it ended: running, with the
#               lease of a child that is gone, long expired when the
#               test runs
#   k-accepted  accepted, no worker ran after it (w.mp4, fps=0.5)
#   k-tus       a tus upload left incomplete, half its bytes sent, made
#               with Upload-Metadata (filename, filetype, lang), which
#               version 5 keeps (uploads.metadata): an upload the next
#               version must still finish (its partial file is not kept:
#               it is the first upload_offset bytes of v.mp4)
#   k-ietf      an IETF resumable upload completed: its upload row is
#               'completed' and points at k-ietf's job (accepted)
# Receipts and uploads live ten years (video_ocr_receipt_ttl and
# video_ocr_upload_ttl 3650d), so the test finds them whenever it runs.

use strict;
use warnings;

use File::Copy qw(copy);
use JSON::PP;
use MIME::Base64 qw(encode_base64);
use POSIX qw(WNOHANG);
use Time::HiRes qw(sleep time);
use VideoOCR::Media qw(make_video);
use VideoOCR::Stack;
use VideoOCR::Test ();

my $out = 't/data/ledger-v5';
my $pg = VideoOCR::Test::pg();

# the uploads, made by the first run (either backend) and kept for the
# other run and for the test's retries (a replay needs the same digest)
-e "$out/v.mp4" or make_video(path => "$out/v.mp4", duration => 4,
    spans => [{ start => 0.5, end => 3.5,
                text => 'Ledger of version five' },
              { start => 0.5, end => 3.5, y => 'top',
                text => 'Found by its words' }]);
-e "$out/w.mp4" or make_video(path => "$out/w.mp4", duration => 2,
    spans => [{ start => 0.2, end => 1.8, text => 'Deleted after reading' }]);
my $bytes = do { local (@ARGV, $/) = "$out/v.mp4"; <> };
my $obytes = do { local (@ARGV, $/) = "$out/w.mp4"; <> };

my $ledger = $pg ? VideoOCR::Test::new_pg_ledger('vo_ledger_v5_fixture')
                 : undef;
my $s = VideoOCR::Stack->new(workers => 1, ledger => $ledger,
                             http_config => 'video_ocr_receipt_ttl 3650d;'
                                            . ' video_ocr_upload_ttl 3650d;');
my %job;
my %upload;

sub admit {
    my ($key, $body, $args) = @_;
    my $r = $s->upload($key, $body, args => $args);
    die "$key: $r->{status} $r->{body}" unless $r->{status} == 202;
    return $job{$key} = decode_json($r->{body})->{job_id};
}

admit('k-done', $bytes, 'fps=1');
$s->wait_state($job{'k-done'}, 'done', 120)->{state} eq 'done'
    or die 'k-done not done';

admit('k-deleted', $obytes, 'fps=1');
$s->wait_state($job{'k-deleted'}, 'done', 120)->{state} eq 'done'
    or die 'k-deleted not done';
my $d = $s->http(method => 'DELETE', uri => "/jobs/$job{'k-deleted'}");
die "k-deleted: DELETE $d->{status}\n" unless $d->{status} == 200
                                              || $d->{status} == 204;

admit('k-rejected', substr($bytes, 0, int(length($bytes) / 3)), 'fps=1');
$s->wait_state($job{'k-rejected'}, 'done|failed|rejected', 120)->{state}
    eq 'rejected' or die 'k-rejected not rejected';

$s->stop_worker;

# a job claimed, then the pool killed: the supervisor stopped first, so
# that it neither restarts the child nor, dying, has it release the job
admit('k-running', $bytes, 'fps=2');
my $pool = $s->start_worker;
my $owner;
my $deadline = time + 60;
while (time < $deadline && !$owner) {
    my ($j) = $s->rows('SELECT state, lease_owner FROM jobs'
                       . ' WHERE job_id = ?', $job{'k-running'});
    $owner = $j->{lease_owner} if $j->{state} eq 'running';
    sleep 0.01 unless $owner;
}
die "k-running: never claimed\n" unless $owner;
my ($child) = $owner =~ m{:(\d+)/};
kill 'STOP', $pool or die "STOP $pool: $!";
kill 'KILL', $child or die "KILL $child: $!";
kill 'KILL', $pool;
waitpid $pool, 0;
delete $s->{worker_pid};
my %slots = $s->children;
kill 'KILL', values %slots;     # the others (janitor, ...) if still there

admit('k-accepted', $obytes, 'fps=0.5');

# a tus upload, half sent
my $b64 = sub { encode_base64($_[0], '') };
my @tus = ('Tus-Resumable' => '1.0.0');
my $c = $s->http(method => 'POST', uri => '/upload',
    headers => [@tus, 'Idempotency-Key' => 'k-tus',
                'Upload-Length' => length $bytes,
                'Upload-Metadata' => join(',',
                    'filename ' . $b64->('clip five.mp4'),
                    'filetype ' . $b64->('video/mp4'),
                    'lang ' . $b64->('eng'))]);
die "k-tus: creation $c->{status} $c->{body}\n" unless $c->{status} == 201;
($upload{'k-tus'}) = $c->{headers}{location} =~ m{([0-9a-f]{32})$};
my $half = int(length($bytes) / 2);
my $p = $s->http(method => 'PATCH', uri => $c->{headers}{location},
    headers => [@tus, 'Upload-Offset' => 0,
                'Content-Type' => 'application/offset+octet-stream'],
    body => substr($bytes, 0, $half));
die "k-tus: PATCH $p->{status} $p->{body}\n" unless $p->{status} == 204;

# an IETF upload, completed: its row points at its job
my @ietf = ('Upload-Draft-Interop-Version' => 8);
$c = $s->http(method => 'POST', uri => '/upload?fps=2',
    headers => [@ietf, 'Upload-Complete' => '?0',
                'Idempotency-Key' => 'k-ietf',
                'Upload-Length' => length $obytes]);
die "k-ietf: creation $c->{status} $c->{body}\n" unless $c->{status} == 201;
($upload{'k-ietf'}) = $c->{headers}{location} =~ m{([0-9a-f]{32})$};
$p = $s->http(method => 'PATCH', uri => $c->{headers}{location},
    headers => [@ietf, 'Upload-Offset' => 0, 'Upload-Complete' => '?1',
                'Content-Type' => 'application/partial-upload'],
    body => $obytes);
die "k-ietf: PATCH $p->{status} $p->{body}\n" unless $p->{status} == 202;
$job{'k-ietf'} = decode_json($p->{body})->{job_id};

# what version 5's search said of k-done (the test asks again)
my %facts = (jobs => \%job, uploads => \%upload);
for my $q ('ledger+of+version+five', 'found+by+its+wrods') {
    my $b = $s->search("q=$q");
    die "search $q: $b->{status}\n" unless $b->{status} == 200;
    $facts{search}{$q} = $b->{hits};
}

$s->stop_nginx;

# what version 5 adds must be in it, or the fixture tests nothing
my ($parts) = $s->rows('SELECT count(*) AS n FROM frames WHERE job_id = ?'
    . ' AND parts IS NOT NULL', $job{'k-done'});
die "k-done: no frame row with parts\n" unless $parts->{n};
my ($indexed) = $s->rows('SELECT segments FROM search_jobs'
                         . ' WHERE job_id = ?', $job{'k-done'});
die "k-done: not indexed\n" unless $indexed && $indexed->{segments};
for my $q (sort keys %{ $facts{search} }) {
    my @hits = grep { $_->{job_id} eq $job{'k-done'} }
               @{ $facts{search}{$q} };
    die "search $q: no hit of k-done\n" unless @hits;
}
my ($md) = $s->rows('SELECT metadata FROM uploads WHERE upload_id = ?',
                    $upload{'k-tus'});
die "k-tus: no metadata kept\n" unless $md->{metadata};
my ($run) = $s->rows('SELECT state, lease_owner FROM jobs WHERE job_id = ?',
                     $job{'k-running'});
die "k-running: $run->{state}, not running\n"
    unless $run->{state} eq 'running' && $run->{lease_owner};

# what the test checks the migrated ledger still says
for my $key (sort keys %job) {
    my ($row) = $s->rows('SELECT state, attempt, failures, options,'
        . ' input_sha256, input_size, created_at, finished_at,'
        . ' deleted_at, error_code FROM jobs WHERE job_id = ?', $job{$key});
    $facts{job}{$key} = $row;
}
($facts{lease}{'k-running'}) = $s->rows('SELECT lease_owner,'
    . ' lease_expires_at FROM jobs WHERE job_id = ?', $job{'k-running'});
for my $key (sort keys %upload) {
    my ($row) = $s->rows('SELECT tenant, request_key, protocol, options,'
        . ' filename, upload_offset, upload_length, sha256_state, container,'
        . ' writer, state, job_id, input_digest, created_at, updated_at,'
        . ' expires_at, metadata, concat, partial_key, parts FROM uploads'
        . ' WHERE upload_id = ?', $upload{$key});
    $facts{upload}{$key} = $row;
}
for my $t (qw(requests jobs frames results events notifications uploads
              search_tenants search_jobs search_segments search_words)) {
    ($facts{count}{$t}) = map { $_->{n} }
        $s->rows("SELECT count(*) AS n FROM $t");
}
for my $f (qw(json vtt srt txt ass)) {
    ($facts{result}{'k-done'}{$f}) = map { $_->{body} } $s->rows(
        'SELECT body FROM results WHERE job_id = ? AND format = ?',
        $job{'k-done'}, $f);
}
$facts{frames}{'k-done'} = [$s->rows('SELECT frame_index, pts_ms, text,'
    . ' confidence, reused_from, flags, box_x, box_y, box_w, box_h,'
    . ' lines, parts FROM frames WHERE job_id = ? ORDER BY frame_index',
    $job{'k-done'})];

if ($pg) {
    my $name = 'vo_ledger_v5_fixture';
    my ($dsn) = $ENV{VIDEO_OCR_TEST_PG};
    my $dump = `pg_dump --no-owner --no-privileges --inserts --schema=$name '$dsn'`;
    die "pg_dump failed\n" if $?;
    $dump =~ s/^CREATE SCHEMA .*\n//mg;
    $dump =~ s/\b$name\b/\@SCHEMA\@/g;
    open my $fh, '>', "$out/ledger_pg.sql" or die $!;
    print {$fh} $dump;
    close $fh;
    open $fh, '>', "$out/facts_pg.json" or die $!;
    print {$fh} JSON::PP->new->canonical->pretty->encode(\%facts);
} else {
    my $db = $s->ledger;
    system('sqlite3', $db, 'PRAGMA wal_checkpoint(TRUNCATE);') == 0
        or die 'checkpoint failed';
    copy($db, "$out/ledger.db") or die "copy: $!";
    open my $fh, '>', "$out/facts.json" or die $!;
    print {$fh} JSON::PP->new->canonical->pretty->encode(\%facts);
}
print "made $out (", $pg ? 'PostgreSQL' : 'SQLite', ")\n";
