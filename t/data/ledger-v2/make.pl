#!/usr/bin/perl
# Makes the ledgers of t/data/ledger-v2/ with the code of schema version 2
# (the nginx module and the worker pool of a build of that code, run for
# real), for t/pool/130-upgrade.t: the previous version's ledger, which
# this version must open with its rows intact.  Not run by the suites;
# kept to say how the fixtures were made:
#
#   MODULE_SO=<v2>/build/nginx/objs/ngx_http_video_ocr_module.so \
#   WORKER_BIN=<v2>/build/video-ocr-worker \
#       perl -It/lib t/data/ledger-v2/make.pl             # ledger.db
#   (the same with VIDEO_OCR_TEST_PG=..., from "scripts/pg.sh start")
#                                                         # ledger_pg.sql
#
# (made on 2026-12-02 with main at 198aa02, the last commit of version 2.)
#
# What the ledger holds (facts.json lists what the test checks; v.mp4
# and w.mp4 are the uploads):
#   k-done      done, with its frames (no box: version 2 had none) and
#               its results in the four formats of version 2 (v.mp4,
#               fps=2)
#   k-crop      done, with a crop (w.mp4, fps=1)
#   k-accepted  accepted, no worker ran after it (w.mp4, fps=0.5)
# Receipts live ten years (video_ocr_receipt_ttl 3650d), so a retry
# replays them whenever the test runs.

use strict;
use warnings;

use File::Copy qw(copy);
use JSON::PP;
use VideoOCR::Media qw(make_video tmpdir);
use VideoOCR::Stack;
use VideoOCR::Test ();

my $out = 't/data/ledger-v2';
my $pg = VideoOCR::Test::pg();
my $dir = tmpdir();

my $video = make_video(path => "$dir/v.mp4", duration => 3, spans => [
    { start => 0.2, end => 2.8, text => 'Ledger of version two' } ]);
my $bytes = do { local (@ARGV, $/) = $video; <> };
my $other = make_video(path => "$dir/w.mp4", duration => 2, spans => [
    { start => 0.2, end => 1.8, text => 'Placed nowhere yet' } ]);
my $obytes = do { local (@ARGV, $/) = $other; <> };

# the bytes, for the test's retries (a replay needs the same digest)
copy($video, "$out/v.mp4") or die "copy: $!";
copy($other, "$out/w.mp4") or die "copy: $!";

my $ledger = $pg ? VideoOCR::Test::new_pg_ledger('vo_ledger_v2_fixture')
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
$s->wait_state($job{'k-done'}, 'done', 120)->{state} eq 'done'
    or die 'k-done not done';

admit('k-crop', $obytes, 'fps=1&crop=0,180,640,180');
$s->wait_state($job{'k-crop'}, 'done', 120)->{state} eq 'done'
    or die 'k-crop not done';

$s->stop_worker;

admit('k-accepted', $obytes, 'fps=0.5');

$s->stop_nginx;

# what the test checks the migrated ledger still says
my %facts = (jobs => \%job);
for my $key (sort keys %job) {
    my ($row) = $s->rows('SELECT state, attempt, failures, options,'
        . ' input_sha256, input_size, created_at, finished_at,'
        . ' deleted_at, error_code FROM jobs WHERE job_id = ?', $job{$key});
    $facts{job}{$key} = $row;
}
for my $t (qw(requests jobs frames results events notifications)) {
    ($facts{count}{$t}) = map { $_->{n} }
        $s->rows("SELECT count(*) AS n FROM $t");
}
for my $key ('k-done', 'k-crop') {
    for my $f (qw(json vtt srt txt)) {
        ($facts{result}{$key}{$f}) = map { $_->{body} } $s->rows(
            'SELECT body FROM results WHERE job_id = ? AND format = ?',
            $job{$key}, $f);
    }
    $facts{frames}{$key} = [$s->rows('SELECT frame_index, pts_ms, text,'
        . ' confidence, reused_from, flags FROM frames WHERE job_id = ?'
        . ' ORDER BY frame_index', $job{$key})];
}

if ($pg) {
    my $name = 'vo_ledger_v2_fixture';
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
