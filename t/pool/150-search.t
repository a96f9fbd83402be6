# Search through the real worker (issue 41): what video-ocr-worker reads
# and publishes is found by its tenant only, each hit at the times of its
# segment in the result; the index is written with the result and leaves
# with it: DELETE, then the job retention of the janitor.  Both backends.

use strict;
use warnings;

use JSON::PP;
use Test::More;
use Time::HiRes qw(sleep time);
use VideoOCR::Media qw(make_video tmpdir);
use VideoOCR::Stack;
use VideoOCR::Test ();

my $dir = tmpdir();
my %video = (
    a => make_video(path => "$dir/a.mp4", duration => 4, spans => [
             { start => 0, end => 2, text => 'Quarterly pricing update' },
             { start => 2, end => 4, text => 'The new price is final' }]),
    b => make_video(path => "$dir/b.mp4", duration => 2, spans => [
             { start => 0, end => 2, text => 'The new price is final' }]),
);
my %bytes = map { my $f = $video{$_}; $_ => do { local (@ARGV, $/) = $f; <> } }
            keys %video;

my $conf = 'video_ocr_tenant $http_x_tenant;';

sub upload {
    my ($s, $tenant, $key, $v) = @_;
    my $r = $s->http(method => 'POST', uri => '/upload?fps=2',
                     headers => ['Idempotency-Key' => $key,
                                 'X-Tenant' => $tenant],
                     body => $bytes{$v});
    return eval { decode_json($r->{body})->{job_id} };
}

sub get {
    my ($s, $tenant, $uri, $method) = @_;
    my $r = $s->http(method => $method // 'GET', uri => $uri,
                     headers => ['X-Tenant' => $tenant]);
    $r->{json} = eval { decode_json($r->{body}) };
    return $r;
}

sub search {
    my ($s, $tenant, $q) = @_;
    return get($s, $tenant, "/search?q=$q")->{json} // {};
}

sub jobs_of { [sort map { $_->{job_id} } @{ $_[0]{hits} // [] }] }

sub wait_until {
    my ($seconds, $cond) = @_;
    my $deadline = time + $seconds;
    while (time < $deadline) {
        return 1 if $cond->();
        sleep 0.2;
    }
    return $cond->();
}

sub count {
    my ($s, $sql, @bind) = @_;
    my ($r) = $s->rows("SELECT count(*) AS n FROM $sql", @bind);
    return $r->{n};
}


my $s = VideoOCR::Stack->new(workers => 1, http_config => $conf);

my $a = upload($s, 'alice', 'a', 'a');
my $b = upload($s, 'alice', 'b', 'b');
my $c = upload($s, 'bob', 'c', 'b');
ok($a && $b && $c, 'three uploads');

for ([alice => $a], [alice => $b], [bob => $c]) {
    ok(wait_until(180, sub {
           (get($s, $_->[0], "/jobs/$_->[1]")->{json}{state} // '') eq 'done'
       }), "$_->[0]: job $_->[1] done");
}

# --- what the worker published is found, by its tenant only ---------------

my $r = search($s, 'alice', 'new+price');
is_deeply(jobs_of($r), [sort $a, $b], 'alice: her two jobs with the phrase');
is_deeply(jobs_of(search($s, 'bob', 'new+price')), [$c],
          'bob: his own, alone');

for my $h (@{ $r->{hits} }) {
    my $st = get($s, 'alice', "/jobs/$h->{job_id}")->{json};
    my $seg = $st->{result}{segments}[$h->{segment}];
    is($h->{start}, $seg->{start}, "$h->{job_id}/$h->{segment}: the start"
       . ' of its segment in the result');
    is($h->{end}, $seg->{end}, '... its end');
    is($h->{text}, $seg->{text}, '... its text');
    is($h->{match}, 'exact', '... an exact match');
    like($h->{text}, qr/new price/i, '... which says it');
}

my ($q) = @{ search($s, 'alice', 'quarterly+pricing')->{hits} };
is($q && $q->{job_id}, $a, 'a phrase of the first screen');
cmp_ok($q && $q->{start}, '<', 1, 'at its time');
($q) = @{ search($s, 'alice', 'quartrely')->{hits} };
is($q && $q->{match}, 'fuzzy', 'and with a typo');

# --- the index is the results' -----------------------------------------------

is(count($s, "results WHERE format = 'json'"), 3, 'three results');
is(count($s, 'search_jobs'), 3, 'three jobs in the index');
is(count($s, "search_jobs s WHERE NOT EXISTS (SELECT 1 FROM results r"
           . " WHERE r.job_id = s.job_id AND r.format = 'json')"), 0,
   'each with its result');

# --- DELETE -------------------------------------------------------------------

is(get($s, 'alice', "/jobs/$b", 'DELETE')->{status}, 200, 'alice deletes b');
is_deeply(jobs_of(search($s, 'alice', 'new+price')), [$a],
          'b is no longer found');
is(count($s, 'search_jobs WHERE job_id = ?', $b), 0, 'nor indexed');
is_deeply(jobs_of(search($s, 'bob', 'new+price')), [$c], 'bob keeps his');
is($s->stop_worker, 0, 'the pool stops');

# --- the job retention: another host's janitor with short windows ---------

my $h2 = VideoOCR::Stack->new(workers => 1, http_config => $conf,
    ledger => $s->ledger, store => $s->store,
    worker_args => ['--janitor-interval', '300ms',
                    '--media-retention', '1s', '--frame-retention', '0',
                    '--job-retention', '2s']);

ok(wait_until(60, sub { count($s, 'jobs WHERE job_id IN (?, ?)', $a, $c)
                        == 0 }),
   'the retention removes the done jobs');
is(count($s, 'search_jobs'), 0, 'and their index rows');
is(count($s, 'search_segments'), 0, 'every segment');
is(count($s, 'search_words'), 0, 'every word');
is_deeply(jobs_of(search($s, 'alice', 'quarterly')), [],
          'alice finds nothing more');
is_deeply(jobs_of(search($s, 'bob', 'new+price')), [], 'nor bob');
is($h2->stop_worker, 0, 'the second pool stops');

done_testing();
