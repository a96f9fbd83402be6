#!/usr/bin/perl
# Makes the ledgers of t/data/ledger-v1/ with the code of schema version 1
# (the build in build/, the nginx module and the worker pool, run for
# real), for t/pool/130-upgrade.t: a ledger made by the previous
# version of the code, which every later version must open with its rows
# intact.  Not run by the suites; kept to say how the fixtures were made:
#
#   perl -It/lib t/data/ledger-v1/make.pl                 # ledger.db
#   VIDEO_OCR_TEST_PG=... perl -It/lib t/data/ledger-v1/make.pl
#                                                         # ledger_pg.sql
#
# (with the environment scripts/test.sh sets up: NGINX_BIN, MODULE_SO,
# WORKER_BIN; for PostgreSQL, the env of "scripts/pg.sh start").
#
# What the ledger holds (facts.json lists what the test checks; v.mp4
# and w.mp4 are the uploads):
#   k-done      done, with its frames and results (v.mp4, fps=2)
#   k-rejected  rejected (the first half of v.mp4)
#   k-deleted   done, then DELETEd by its tenant (w.mp4)
#   k-accepted  accepted, no worker ran after it (w.mp4, fps=0.5, a crop)
#   k-failed    abandoned by the operator: failed (v.mp4)
# Receipts live ten years (video_ocr_receipt_ttl 3650d), so a retry
# replays them whenever the test runs.

use strict;
use warnings;

use File::Copy qw(copy);
use JSON::PP;
use VideoOCR::Media qw(make_video tmpdir);
use VideoOCR::Stack;
use VideoOCR::Test ();

my $out = 't/data/ledger-v1';
my $pg = VideoOCR::Test::pg();
my $dir = tmpdir();

my $video = make_video(path => "$dir/v.mp4", duration => 3, spans => [
    { start => 0.2, end => 2.8, text => 'Ledger of version one' } ]);
my $bytes = do { local (@ARGV, $/) = $video; <> };
my $other = make_video(path => "$dir/w.mp4", duration => 2, spans => [
    { start => 0.2, end => 1.8, text => 'Deleted by its owner' } ]);
my $obytes = do { local (@ARGV, $/) = $other; <> };

# the bytes, for the test's retries (a replay needs the same digest)
copy($video, "$out/v.mp4") or die "copy: $!";
copy($other, "$out/w.mp4") or die "copy: $!";

my $ledger = $pg ? VideoOCR::Test::new_pg_ledger('vo_ledger_v1_fixture')
                 : undef;
my $s = VideoOCR::Stack->new(workers => 1, ledger => $ledger,
                             http_config => 'video_ocr_receipt_ttl 3650d;');
my %job;

sub admit {
    my ($key, $body, $args) = @_;
    my $r = $s->upload($key, $body, args => $args);
    die "$key: $r->{status} $r->{body}" unless $r->{status} == 202;
    return $job{$key} = decode_json($r->{body})->{job_id};
}

admit('k-done', $bytes, 'fps=2');
die 'k-done not done' unless $s->wait_state($job{'k-done'}, 'done', 120)
                                ->{state} eq 'done';

admit('k-rejected', substr($bytes, 0, length($bytes) / 2), 'fps=1');
$s->wait_state($job{'k-rejected'}, 'rejected', 60)->{state} eq 'rejected'
    or die 'k-rejected not rejected';

admit('k-deleted', $obytes, 'fps=1&lang=eng');
$s->wait_state($job{'k-deleted'}, 'done', 60)->{state} eq 'done'
    or die 'k-deleted not done';
$s->http(method => 'DELETE', uri => "/jobs/$job{'k-deleted'}")->{status}
    == 200 or die 'DELETE failed';

$s->stop_worker;

admit('k-accepted', $obytes, 'fps=0.5&crop=0,180,640,180');
admit('k-failed', $bytes, 'fps=1');
system($ENV{WORKER_BIN}, 'abandon', '--ledger', $s->ledger,
       $job{'k-failed'}, '--reason', 'fixture: abandoned by the operator')
    == 0 or die 'abandon failed';

$s->stop_nginx;

# what the test checks the migrated ledger still says
my %facts = (jobs => \%job);
for my $key (sort keys %job) {
    my ($row) = $s->rows('SELECT state, attempt, failures, options,'
        . ' input_sha256, input_size, created_at, finished_at,'
        . ' deleted_at, error_code FROM jobs WHERE job_id = ?', $job{$key});
    $facts{job}{$key} = $row;
}
for my $t (qw(requests jobs frames results events)) {
    ($facts{count}{$t}) = map { $_->{n} }
        $s->rows("SELECT count(*) AS n FROM $t");
}
($facts{result}) = map { $_->{body} } $s->rows(
    "SELECT body FROM results WHERE job_id = ? AND format = 'txt'",
    $job{'k-done'});

if ($pg) {
    my $name = 'vo_ledger_v1_fixture';
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
