#!/usr/bin/perl
# Makes the ledgers of t/data/ledger-v3/ with the code of schema version 3
# (the nginx module and the worker pool of a build of that code, run for
# real), for t/pool/130-upgrade.t: the previous version's ledger, which
# this version must open with its rows intact.  Not run by the suites;
# kept to say how the fixtures were made:
#
#   git worktree add <v3> b5dad83 && make -C <v3> build BUILD=<v3>/build
#   MODULE_SO=<v3>/build/nginx/objs/ngx_http_video_ocr_module.so \
#   WORKER_BIN=<v3>/build/video-ocr-worker \
#       perl -It/lib -It/compat t/data/ledger-v3/make.pl  # ledger.db
#   (the same with VIDEO_OCR_TEST_PG=..., from "scripts/pg.sh start")
#                                                         # ledger_pg.sql
#
# (made on 2026-12-02 with main at b5dad83, the last commit of version 3.)
#
# What the ledger holds (facts.json lists what the test checks; v.mp4
# and w.mp4 are the uploads, made by the first run and uploaded again by
# the second, so that both ledgers hold the digests of these files):
#   k-done      done, with its frames, which have boxes and lines
#               (version 3's columns) and a change placed on the frame
#               it began on (flags VO_FRAME_EXACT, 0x100, and that
#               frame's pts_ms: the text appears at 1.3 s, between two
#               samples at fps=1), and its results in the five formats
#               of version 3 (json, vtt, srt, txt, ass) (v.mp4, fps=1)
#   k-crop      done, with a crop (w.mp4, fps=1)
#   k-accepted  accepted, no worker ran after it (w.mp4, fps=0.5)
# Receipts live ten years (video_ocr_receipt_ttl 3650d), so a retry
# replays them whenever the test runs.

use strict;
use warnings;

use File::Copy qw(copy);
use JSON::PP;
use VideoOCR::Media qw(make_video);
use VideoOCR::Stack;
use VideoOCR::Test ();

my $out = 't/data/ledger-v3';
my $pg = VideoOCR::Test::pg();

# the uploads, made by the first run (either backend) and kept for the
# other run and for the test's retries (a replay needs the same digest)
-e "$out/v.mp4" or make_video(path => "$out/v.mp4", duration => 4,
    spans => [{ start => 1.3, end => 3.7,
                text => 'Ledger of version three' }]);
-e "$out/w.mp4" or make_video(path => "$out/w.mp4", duration => 2,
    spans => [{ start => 0.2, end => 1.8, text => 'Boxed before parts' }]);
my $bytes = do { local (@ARGV, $/) = "$out/v.mp4"; <> };
my $obytes = do { local (@ARGV, $/) = "$out/w.mp4"; <> };

my $ledger = $pg ? VideoOCR::Test::new_pg_ledger('vo_ledger_v3_fixture')
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

admit('k-done', $bytes, 'fps=1');
$s->wait_state($job{'k-done'}, 'done', 120)->{state} eq 'done'
    or die 'k-done not done';

admit('k-crop', $obytes, 'fps=1&crop=0,180,640,180');
$s->wait_state($job{'k-crop'}, 'done', 120)->{state} eq 'done'
    or die 'k-crop not done';

$s->stop_worker;

admit('k-accepted', $obytes, 'fps=0.5');

$s->stop_nginx;

# what version 3 adds must be in it, or the fixture tests nothing
my ($exact) = $s->rows('SELECT count(*) AS n FROM frames WHERE job_id = ?'
    . ' AND (flags & 256) <> 0 AND pts_ms % 1000 <> 0', $job{'k-done'});
die "k-done: no change row placed on its frame\n" unless $exact->{n};
for my $key ('k-done', 'k-crop') {
    my ($boxed) = $s->rows('SELECT count(*) AS n FROM frames WHERE job_id = ?'
        . ' AND box_w > 0 AND box_h > 0 AND lines >= 1', $job{$key});
    die "$key: no frame row with a box\n" unless $boxed->{n};
    my ($ass) = $s->rows('SELECT count(*) AS n FROM results'
        . " WHERE job_id = ? AND format = 'ass'", $job{$key});
    die "$key: no ass result\n" unless $ass->{n};
}

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
    for my $f (qw(json vtt srt txt ass)) {
        ($facts{result}{$key}{$f}) = map { $_->{body} } $s->rows(
            'SELECT body FROM results WHERE job_id = ? AND format = ?',
            $job{$key}, $f);
    }
    $facts{frames}{$key} = [$s->rows('SELECT frame_index, pts_ms, text,'
        . ' confidence, reused_from, flags, box_x, box_y, box_w, box_h,'
        . ' lines FROM frames WHERE job_id = ? ORDER BY frame_index',
        $job{$key})];
}

if ($pg) {
    my $name = 'vo_ledger_v3_fixture';
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
