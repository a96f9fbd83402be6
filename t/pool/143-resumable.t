# Resumable uploads with the whole product: kill -9 of every nginx worker
# process after an acknowledged append loses no acknowledged byte (the
# offset holds, the client sends only the rest), and the job the upload
# becomes is read by the worker pool with the right text.  On SQLite and
# (make test-pg) PostgreSQL, where two nginx hosts share the ledger and
# the store: appends to one upload through both at once leave one
# writer's bytes, one job.

use strict;
use warnings;

use Test::More;
use Time::HiRes qw(sleep);
use VideoOCR::Media qw(make_video cer tmpdir);
use VideoOCR::Stack;
use VideoOCR::Test qw(sha256_hex wait_for parallel pg);

my $dir = tmpdir();
my $file = make_video(path => "$dir/resume.mp4", duration => 3,
                      spans => [{ start => 0.3, end => 2.7,
                                  text => 'Resumed after a kill' }]);
my $bytes = do { local (@ARGV, $/) = $file; <> };
my $cut = int(length($bytes) / 2);

my $s = VideoOCR::Stack->new(workers => 1, no_worker => 1);
my @ietf = ('Upload-Draft-Interop-Version' => 8);

my $c = $s->http(method => 'POST', uri => '/upload?fps=2',
                 headers => [@ietf, 'Upload-Complete' => '?0',
                             'Idempotency-Key' => 'kill-1',
                             'Upload-Length' => length $bytes]);
is($c->{status}, 201, 'created');
my $path = $c->{headers}{location};

my $a = $s->http(method => 'PATCH', uri => $path,
                 headers => [@ietf, 'Upload-Offset' => 0,
                             'Upload-Complete' => '?0',
                             'Content-Type' => 'application/partial-upload'],
                 body => substr($bytes, 0, $cut));
is($a->{headers}{'upload-offset'}, $cut, "acknowledged: $cut bytes");

my $master = $s->nginx_pid;
my @workers = split ' ', `pgrep -P $master`;
ok(@workers >= 1, 'nginx worker processes: ' . scalar @workers);
kill 'KILL', @workers;
ok(wait_for(10, sub {
    my @now = split ' ', `pgrep -P $master`;
    @now && !grep { my $w = $_; grep { $_ == $w } @workers } @now;
}), 'the master started new workers');

my $h;
wait_for(5, sub {
    $h = $s->http(method => 'HEAD', uri => $path, headers => \@ietf);
    $h->{status} == 204;
});
is($h->{headers}{'upload-offset'}, $cut,
   'after kill -9 the acknowledged offset holds');

my $f = $s->http(method => 'PATCH', uri => $path,
                 headers => [@ietf, 'Upload-Offset' => $cut,
                             'Upload-Complete' => '?1',
                             'Content-Type' => 'application/partial-upload'],
                 body => substr($bytes, $cut));
is($f->{status}, 202, 'only the rest sent: the receipt');
my $job = JSON::PP::decode_json($f->{body})->{job_id};

my ($row) = $s->rows('SELECT input_sha256 FROM jobs WHERE job_id = ?', $job);
is($row->{input_sha256}, sha256_hex($bytes), 'the job has exactly the file');

$s->start_worker;
my $st = $s->wait_state($job, 'done|failed|rejected', 120);
is($st->{state}, 'done', 'the worker read it');
my ($seg) = @{ $st->{result}{segments} // [] };
cmp_ok(cer($seg ? $seg->{text} : '', 'Resumed after a kill'), '<=', 0.1,
       'its text is right: "' . ($seg ? $seg->{text} : '') . '"');

# --- two hosts on PostgreSQL: the same upload appended through both ------

if (pg()) {
    my $hb = VideoOCR::Stack->new(no_worker => 1, ledger => $s->ledger,
                                  store => $s->store);
    my $big = $bytes . ("\0" x (12 << 20));   # past a commit (8 MiB)

    for my $round (1 .. 3) {
        my $cr = $s->http(method => 'POST', uri => '/upload',
                          headers => [@ietf, 'Upload-Complete' => '?0',
                                      'Idempotency-Key' => "hosts-$round"]);
        my $p = $cr->{headers}{location};
        my @out = parallel(2, sub {
            my $host = $_[0] ? $hb : $s;
            my $r = $host->http(method => 'PATCH', uri => $p,
                                headers => [@ietf, 'Upload-Offset' => 0,
                                    'Upload-Complete' => '?1',
                                    'Content-Type' => 'application/partial-upload'],
                                body => $big);
            return $r->{status};
        });
        my @jobs = $s->rows('SELECT j.input_sha256 FROM jobs j JOIN uploads u'
                            . ' ON u.job_id = j.job_id WHERE u.upload_id = ?',
                            ($p =~ m{([0-9a-f]{32})$})[0]);
        is(scalar @jobs, 1, "round $round: one job (the two answered @out)");
        is($jobs[0]{input_sha256}, sha256_hex($big),
           "round $round: its bytes are one writer's, whole");
        ok((grep { $_ == 202 } @out) >= 1, "round $round: one append completed it");
    }
    $hb->stop_nginx;
}

done_testing();
