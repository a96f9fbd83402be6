# A ledger that is damaged or unusable at start: nginx -t, the worker pool
# and the operator's commands each refuse it with a sentence that says
# what is wrong and what to do, and the file is left byte for byte as it
# was: a ledger is never reset, since its receipts are the promise made
# to clients.

use strict;
use warnings;

use Digest::SHA qw(sha256_hex);
use File::Copy qw(copy);
use JSON::PP;
use Test::More;
use VideoOCR::Media qw(make_video tmpdir);
use VideoOCR::Stack;

plan skip_all => "a damaged SQLite file: nothing of PostgreSQL's"
    if VideoOCR::Test::pg();

my $worker = $ENV{WORKER_BIN} // 'build/video-ocr-worker';
my $dir = tmpdir();

# a real ledger with a job in it
my $video = make_video(path => "$dir/a.mp4", duration => 1,
                       spans => [{ start => 0, end => 1, text => 'Ledger' }]);
my $good = "$dir/good.db";
{
    my $s = VideoOCR::Stack->new(no_worker => 1);
    my $body = do { local (@ARGV, $/) = $video; <> };
    is($s->upload('one', $body)->{status}, 202, 'a ledger with a receipt');
    $s->stop_nginx;
    system("sqlite3 '${\ $s->ledger }' 'PRAGMA wal_checkpoint(TRUNCATE);'"
           . ' >/dev/null') == 0 or die "checkpoint failed\n";
    copy($s->ledger, $good) or die "copy: $!";
}
my $image = do { local (@ARGV, $/) = $good; <> };
cmp_ok(length $image, '>', 16384, 'of ' . length($image) . ' bytes');

my $nobody = getpwnam('nobody');

my %cases = (
    'not a database' => ["This is not an SQLite file.\n" x 200,
                         qr/file is not a database: the file is damaged or not a video-ocr ledger, and is left as it is; restore it from a backup/],
    'truncated'      => [substr($image, 0, 8192),
                         qr/database disk image is malformed: the file is damaged .* restore it from a backup/],
    'garbage pages'  => [substr($image, 0, 4096)
                         . join('', map { chr(($_ * 7) % 256) }
                                    1 .. length($image) - 4096),
                         qr/(malformed|not a database): the file is damaged .* restore it from a backup/],
    'unreadable'     => [$image, qr/Permission denied/, 0],
);

for my $name (sort keys %cases) {
    my ($bytes, $re, $mode) = @{ $cases{$name} };

    my $s = VideoOCR::Stack->new(no_start => 1);
    my $ledger = $s->ledger;
    open my $fh, '>', $ledger or die $!;
    print {$fh} $bytes;
    close $fh;
    chown $nobody, -1, $ledger;
    chmod $mode // 0644, $ledger;
    my $before = sha256_hex($bytes);

    my ($rc, $out) = $s->nginx_t;
    if ($name eq 'unreadable') {
        # nginx -t runs as root, who reads anything: the check is that
        # the worker processes' user can
        like($out, qr/\[emerg\].*ledger.*(Permission denied|readable|writable)/,
             "$name: nginx -t says why") or diag $out;
    } else {
        like($out, qr/\[emerg\].*$re/, "$name: nginx -t says why")
            or diag $out;
    }
    isnt($rc, 0, "$name: nginx -t fails");

    $out = `timeout 20 $worker run --ledger $ledger --store ${\ $s->store } 2>&1`;
    is($? >> 8, 78, "$name: the pool exits 78 (configuration)");
    like($out, $re, "$name: the pool says why") or diag $out;
    unlike($out, qr/started child/, "$name: no child was started");

    $out = `$worker jobs --ledger $ledger 2>&1`;
    if ($name eq 'unreadable') {
        # the operator is root here, and root may read it
        is($? >> 8, 0, "$name: video-ocr-worker jobs, as root, reads it");
        like($out, qr/accepted/, "$name: and lists the job");
    } else {
        is($? >> 8, 78, "$name: video-ocr-worker jobs exits 78");
        like($out, $re, "$name: and says why");
    }

    chmod 0644, $ledger;
    my $after = do { local (@ARGV, $/) = $ledger; <> };
    is(sha256_hex($after), $before, "$name: the file is left as it was");
}

# a missing ledger: the operator's commands do not create one
my $missing = "$dir/missing.db";
my $out = `$worker jobs --ledger $missing 2>&1`;
is($? >> 8, 78, 'jobs on a missing ledger: exit 78');
like($out, qr/cannot open/, 'says it cannot open it');
ok(!-e $missing, 'and creates no file');

done_testing();
