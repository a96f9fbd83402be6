# Tenant isolation by every route the API offers, with a finished job:
# another tenant can neither read it (status and every format), nor
# delete it, nor learn that a key is in use (replay or mismatch), nor
# find it by guessing ids or by walking paths.  The tenant comes from a
# header here for brevity (conf.d/sites/ shows the real ways).

use strict;
use warnings;

use JSON::PP;
use Test::More;
use VideoOCR::Media qw(make_video tmpdir);
use VideoOCR::Stack;

my $dir = tmpdir();
my $video = make_video(path => "$dir/a.mp4", duration => 2,
                       spans => [{ start => 0, end => 2,
                                   text => 'Alice private notes' }]);
my $bytes = do { local (@ARGV, $/) = $video; <> };

my $s = VideoOCR::Stack->new(workers => 1,
                             http_config => 'video_ocr_tenant $http_x_tenant;');

sub as {
    my ($tenant, %a) = @_;
    push @{ $a{headers} }, 'X-Tenant' => $tenant;
    return $s->http(%a);
}

sub post_as {
    my ($tenant, $key, $body) = @_;
    return as($tenant, method => 'POST', uri => '/upload', body => $body,
              headers => ['Idempotency-Key' => $key]);
}

my $r = post_as('alice', 'alice-key', $bytes);
is($r->{status}, 202, 'alice uploads');
my $job = decode_json($r->{body})->{job_id};

$r = $s->http(uri => "/jobs/$job");
is($r->{status}, 403, 'no tenant: 403, not even the state');

my $deadline = time + 60;
my $alice;
do {
    $alice = as('alice', uri => "/jobs/$job");
    select undef, undef, undef, 0.1;
} until ($alice->{body} =~ /"state":"done"/ || time > $deadline);
like($alice->{body}, qr/"state":"done".*Alice private notes/s,
     'alice\'s job is done and she reads its text');

# an unknown job, for comparison: another tenant must get exactly this
my $unknown = 'f' x 32;

sub strip { my ($b) = @_; $b =~ s/[0-9a-f]{32}/ID/g; $b }

for my $format (undef, qw(json vtt srt txt ass)) {
    my $q = defined $format ? "?format=$format" : '';
    my $name = defined $format ? "format=$format" : 'status';

    my $mine = as('alice', uri => "/jobs/$job$q");
    is($mine->{status}, 200, "$name: alice 200");

    my $bob = as('bob', uri => "/jobs/$job$q");
    my $none = as('bob', uri => "/jobs/$unknown$q");
    is($bob->{status}, 404, "$name: bob 404");
    is(strip($bob->{body}), strip($none->{body}),
       "$name: the same answer as for a job that does not exist");
    unlike($bob->{body}, qr/Alice|$job/, "$name: nothing of the job leaks");
}

# delete: refused as unknown, the job untouched
$r = as('bob', method => 'DELETE', uri => "/jobs/$job");
is($r->{status}, 404, 'bob cannot DELETE it');
like(as('alice', uri => "/jobs/$job")->{body}, qr/"state":"done".*Alice/s,
     'the job and its result are untouched');

# keys: bob's use of alice's key is new intent, never a replay or a 422
$r = post_as('bob', 'alice-key', $bytes);
is($r->{status}, 202, 'bob with alice\'s key and bytes: 202');
ok(!$r->{headers}{'idempotent-replayed'}, '... not a replay of hers');
isnt(decode_json($r->{body})->{job_id}, $job, '... a job of his own');

$r = post_as('carol', 'alice-key', $bytes . 'other');
is($r->{status}, 202, 'carol with alice\'s key and other bytes: 202, not '
                      . '422 (which would tell her the key is in use)');

# the same key and bytes under alice again: her receipt
$r = post_as('alice', 'alice-key', $bytes);
ok($r->{headers}{'idempotent-replayed'}, 'alice still gets her receipt');
is(decode_json($r->{body})->{job_id}, $job, '... for her job');

# paths: the job id is checked, never joined into a path (nginx itself
# resolves dot segments first: "/jobs/ID/../ID" is the job, for its
# tenant only)
for my $path ("/jobs/%2e%2e/data/ledger.db",
              "/jobs/..%2f..%2fdata%2fledger.db", "/jobs/" . uc($job),
              "/jobs/$job%00", "/jobs/$job.vtt", "/jobs/${job}0",
              "/jobs/" . substr($job, 1), "/jobs/$job/input",
              "/jobs/%2fetc%2fpasswd", "/jobs/$job%2f..%2f..%2fledger.db")
{
    my $a = as('alice', uri => $path);
    like($a->{status}, qr/^(400|404)$/, "alice $path: $a->{status}");
    unlike($a->{body}, qr/SQLite format|root:|Alice/,
           "alice $path: no file content, no job");
}

for my $path ("/jobs/$job/../$job", "/jobs/x/../$job", "/jobs/./$job") {
    my $b = as('bob', uri => $path);
    is($b->{status}, 404, "bob $path: 404");
    unlike($b->{body}, qr/Alice/, "bob $path: nothing of the job");
}

# tenants are not paths either: the store holds only names made from ids
post_as('../../../tmp', 'traversal', $bytes . 'tenant');
my @files = map { s{^\Q${\ $s->store}\E/}{}r }
            grep { -f } glob($s->store . '/*/*');
ok(@files >= 3, scalar(@files) . ' stored files');
is(scalar(grep { !m{^[0-9a-f]{2}/[0-9a-f]{32}\.\w+$} } @files), 0,
   'every stored name is <2 hex>/<job id>.<ext>: none from a tenant or key');

# metrics: counts only, no tenant, key or job
my $m = $s->http(uri => '/metrics')->{body};
unlike($m, qr/alice|bob|carol|alice-key|$job/,
       'the metrics page names no tenant, key or job');

# job ids: the admission time in ms (48 bits, as in a UUIDv7: indexes on
# job_id then append), then 80 random bits; a counter would leave random
# bits that never change
my @ids;
for my $i (1 .. 200) {
    my $rr = post_as('ids', "id-$i", $bytes . "id $i");
    push @ids, decode_json($rr->{body})->{job_id};
}
my %seen;
is(scalar(grep { !$seen{$_}++ } @ids), 200, '200 distinct ids');
is(scalar(grep { !/^[0-9a-f]{32}$/ } @ids), 0, 'each 32 hex digits');
my @ms = do { no warnings "portable"; map { hex(substr($_, 0, 12)) } @ids };
is(scalar(grep { abs($_ - time() * 1000) > 600_000 } @ms), 0,
   'each begins with the admission time in ms');
is(scalar(grep { $ms[$_] < $ms[$_ - 1] } 1 .. $#ms), 0,
   'ids of later admissions sort after earlier ones');
my @ones = (0) x 128;
for my $id (@ids) {
    my @bits = split //, unpack('B128', pack('H32', $id));
    $ones[$_] += $bits[$_] for 48 .. 127;
}
my @stuck = grep { $ones[$_] < 50 || $ones[$_] > 150 } 48 .. 127;
is(scalar @stuck, 0, 'each of the last 80 bits is set in 25-75 % of them '
                     . '(random, not a counter): ' . "@stuck");

done_testing();
