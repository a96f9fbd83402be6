# GET <video_ocr_search location>?q=...: what matches (words, phrases,
# any case, accents and full-width forms folded, pieces of CJK lines,
# one edit in the query or in the text), the order (tiers, then newest
# first), the hits (the segments as published, their highlights, their
# jobs), pages, tenants, hostile queries (a precise 400 or 414, or
# ordinary results; never a database error, never another tenant's
# job), DELETE, the metrics.
#
# The results are published through the ledger's own publish
# (VideoOCR::Test::publish_result, what video-ocr-worker calls), which
# writes the index; t/pool/150-search.t does it with the real worker.

use Test::Nginx::Socket 'no_plan';
use JSON::PP;
use VideoOCR::Test;
use VideoOCR::Blocks;

our $V = video_bytes(seed => 1);

$VideoOCR::Blocks::CONFIG = <<'EOF';
    video_ocr_tenant $http_x_tenant;

    location = /upload {
        video_ocr_intake;
        video_ocr_jobs_url /jobs/;
    }

    location /jobs/ {
        video_ocr_jobs;
    }

    location = /search {
        video_ocr_search;
    }

    location = /metrics {
        video_ocr_metrics;
    }
EOF


# The corpus: alice's jobs A (older) and B, bob's job C.
our %TEXTS = (
    A => ['The NEW price is 42 €', 'Émile Zola: ÉTUDES',
          '東京の価格は上がった', 'renewal notice',
          'ＦＵＬＬ－ＷＩＤＴＨ ｶﾀｶﾅ'],
    B => ['the prlce went up', 'price new', 'quarterly pricing update',
          'call 555-0123 now'],
    C => ['new price for bob', 'secret bob plan'],
);


# Uploads and publishes the corpus; returns { A => job id, ... }.
sub seed {
    my %job;

    for my $name (qw(A B C)) {
        my $tenant = $name eq 'C' ? 'bob' : 'alice';
        my $r = upload("seed-$name", $::V, headers => ['X-Tenant' => $tenant]);
        my $id = decode_json_body($r)->{job_id} or die "upload $name\n";
        my @segs;
        my $t = 0;

        for my $text (@{ $TEXTS{$name} }) {
            push @segs, { start => $t + 0.5, end => $t + 2, text => $text,
                          confidence => 90, looks => 2,
                          box => [10, 20, 300, 40], lines => 1 };
            $t += 2;
        }

        publish_result($id, JSON::PP->new->canonical->encode(
            { frame_size => [640, 360], segments => \@segs }));
        $job{$name} = $id;
    }

    return \%job;
}


# GET /search?<args> as $tenant: (status, decoded body, response).
sub search {
    my ($args, $tenant) = @_;
    my $r = http_request(uri => "/search?$args",
                         headers => ['X-Tenant' => $tenant // 'alice']);
    return ($r->{status}, decode_json_body($r), $r);
}


# The hits of a search as "<job name><segment>:<match>", e.g. "A0:exact".
sub hits {
    my ($job, $args, $tenant) = @_;
    my ($status, $b) = search($args, $tenant);
    my %name = reverse %$job;
    return "status $status" unless $status == 200;
    return join ' ', map { ($name{$_->{job_id}} // '?') . $_->{segment}
                           . ":$_->{match}" } @{ $b->{hits} };
}


# What a hit's highlights cover, by code points of its text (UTF-8).
sub marked {
    my ($hit) = @_;
    my $text = $hit->{text};
    utf8::decode($text);
    my @cp = split //, $text;
    my $marked = join '|', map { join '', @cp[$_->[0] .. $_->[1] - 1] }
                           @{ $hit->{highlights} };
    utf8::encode($marked);
    return $marked;
}


no_shuffle();
run_tests();

__DATA__

=== TEST 1: words and phrases, any case; best first: tiers, then newest
--- request
GET /search?q=x
--- more_headers
X-Tenant: alice
--- error_code: 200
--- response_headers
Content-Type: application/json
Cache-Control: no-store
--- response_body_like: ^\{"hits":\[\],"jobs":\{\},"next":null\}$
--- ledger_check eval
sub {
    my $j = ::seed();
    is(::hits($j, 'q=new+price'), 'A0:exact B1:words',
       'the exact phrase, then both words in another order');
    is(::hits($j, 'q=NEW%20PRICE'), 'A0:exact B1:words', 'any case');
    is(::hits($j, 'q=The+New+Price+Is'), 'A0:exact', 'a longer phrase');
    is(::hits($j, 'q=price'), 'B1:exact A0:exact B0:fuzzy',
       'whole words newest first, then a word one letter away');
    is(::hits($j, 'q=new'), 'B1:exact A0:exact A3:phrase',
       'then inside a longer word (renewal)');
    is(::hits($j, 'q=ice+is'), 'A0:phrase', 'a phrase that starts inside'
       . ' a word');
    is(::hits($j, 'q=notice+renewal'), 'A3:words', 'words in any order');
    is(::hits($j, 'q=bob'), '', "another tenant's words are not found");
    is(::hits($j, 'q=secret+plan', 'bob'), 'C1:words', 'bob finds his');
    is(::hits($j, 'q=price', 'bob'), 'C0:exact', 'and only his');
}



=== TEST 2: typos: a letter wrong, missing, added or swapped, in the query or in the text
--- request
GET /search?q=x
--- more_headers
X-Tenant: alice
--- ledger_check eval
sub {
    my $j = ::seed();
    is(::hits($j, 'q=prixe'), 'B1:fuzzy A0:fuzzy', 'a letter wrong');
    is(::hits($j, 'q=pice'), 'B1:fuzzy A0:fuzzy', 'a letter missing');
    is(::hits($j, 'q=priice'), 'B1:fuzzy A0:fuzzy', 'a letter added');
    is(::hits($j, 'q=prcie'), 'B1:fuzzy A0:fuzzy', 'two letters swapped');
    is(::hits($j, 'q=quartrely+pricing'), 'B2:fuzzy', 'in a phrase');
    is(::hits($j, 'q=quartrely+icing'), '', 'beside a typo, a word is found'
       . ' whole (not in "pricing")');
    is(::hits($j, 'q=the+new+prcie'), 'A0:fuzzy', 'beside right words');
    is(::hits($j, 'q=prlce'), 'B0:exact B1:fuzzy A0:fuzzy',
       "OCR's error in the text, found as written and as meant");
    is(::hits($j, 'q=pxxce'), '', 'two letters wrong: no');
    is(::hits($j, 'q=555-0124'), '', 'a number with a digit wrong is '
       . 'another number');
    is(::hits($j, 'q=555+0123'), 'B3:exact', 'a number as written');
    is(::hits($j, 'q=teh'), '', 'a word of three letters is not guessed');

    my (undef, $b) = ::search('q=quartrely+pricing');
    is(::marked($b->{hits}[0]), 'quarterly|pricing',
       'the highlights are the words as found');
}



=== TEST 3: accents, full-width and half-width forms folded, both ways
--- request
GET /search?q=x
--- more_headers
X-Tenant: alice
--- ledger_check eval
sub {
    my $j = ::seed();
    is(::hits($j, 'q=emile+zola'), 'A1:exact', 'accents in the text');
    is(::hits($j, 'q=%C3%A9tudes'), 'A1:exact', 'in both');
    is(::hits($j, 'q=%C3%89MILE'), 'A1:exact', 'capital accented');
    is(::hits($j, 'q=full+width'), 'A4:exact', 'full-width text');
    is(::hits($j, 'q=%EF%BC%AE%EF%BC%A5%EF%BC%B7+price'), 'A0:exact B1:words',
       'a full-width query');
    is(::hits($j, 'q=%E3%82%AB%E3%82%BF%E3%82%AB%E3%83%8A'), 'A4:exact',
       'full-width katakana finds half-width');

    my (undef, $b) = ::search('q=emile');
    is(::marked($b->{hits}[0]), 'Émile', 'highlighted as written');
}



=== TEST 4: pieces of a CJK line: one, two, three characters and more
--- request
GET /search?q=x
--- more_headers
X-Tenant: alice
--- ledger_check eval
sub {
    my $j = ::seed();
    is(::hits($j, 'q=%E4%BE%A1%E6%A0%BC'), 'A2:exact', 'two (価格)');
    is(::hits($j, 'q=%E4%BE%A1'), 'A2:exact', 'one (価)');
    is(::hits($j, 'q=%E4%BA%AC%E3%81%AE%E4%BE%A1'), 'A2:exact',
       'three across words (京の価)');
    is(::hits($j, 'q=%E6%9D%B1%E4%BA%AC%E3%81%AE%E4%BE%A1%E6%A0%BC%E3%81%AF'),
       'A2:exact', 'the line');
    is(::hits($j, 'q=%E6%9D%B1%E4%BA%AC%E4%BE%A1%E6%A0%BC'), '',
       'not what is not on it (東京価格)');
    is(::hits($j, 'q=%E4%BE%A1%E6%A0%BC+%E6%9D%B1%E4%BA%AC'), 'A2:words',
       'two pieces, any order (価格 東京)');

    my (undef, $b) = ::search('q=%E4%BE%A1%E6%A0%BC');
    is(::marked($b->{hits}[0]), '価格', 'highlighted');
}



=== TEST 5: a hit is its segment as published, with its job
--- request
GET /search?q=x
--- more_headers
X-Tenant: alice
--- ledger_check eval
sub {
    my $j = ::seed();
    my ($status, $b) = ::search('q=new+price');
    my $h = $b->{hits}[0];
    is($h->{job_id}, $j->{A}, 'job_id');
    is($h->{segment}, 0, 'segment: its index in the result');
    is($h->{match}, 'exact', 'match: the tier');
    is($h->{start}, 0.5, 'start');
    is($h->{end}, 2, 'end');
    is($h->{text}, 'The NEW price is 42 €', 'text');
    is_deeply($h->{box}, [10, 20, 300, 40], 'box');
    is($h->{confidence}, 90, 'and the rest of the segment');
    is_deeply($h->{highlights}, [[4, 13]], 'highlights: code points');
    my $job = $b->{jobs}{$j->{A}};
    ok($job, 'the hit\'s job comes along');
    like($job->{created_at}, qr/^\d{4}-\d\d-\d\dT/, 'created_at');
    like($job->{finished_at}, qr/^\d{4}-\d\d-\d\dT/, 'finished_at');
    is_deeply($job->{options}, { crop => undef, fps => 1, lang => 'eng' },
              'options');
    is_deeply($job->{frame_size}, [640, 360], 'frame_size');
    ok(exists $job->{filename} && !defined $job->{filename},
       'filename: null for a plain POST');
    is(scalar keys %{ $b->{jobs} }, 2, 'only the jobs of the hits');
    my $head = http_request(method => 'HEAD', uri => '/search?q=price',
                            headers => ['X-Tenant' => 'alice']);
    is($head->{status}, 200, 'HEAD: 200');
    is($head->{body}, '', 'HEAD: no body');
}



=== TEST 6: pages: limit and cursor, each hit once
--- request
GET /search?q=x
--- more_headers
X-Tenant: alice
--- ledger_check eval
sub {
    my $j = ::seed();
    my ($all) = ::hits($j, 'q=price');
    my (@got, $cursor, $pages);
    do {
        my ($status, $b) = ::search('q=price&limit=1'
                                    . ($cursor ? "&cursor=$cursor" : ''));
        is($status, 200, "page " . ++$pages);
        cmp_ok(scalar @{ $b->{hits} }, '<=', 1, 'at most limit hits');
        push @got, map { "$_->{job_id}/$_->{segment}" } @{ $b->{hits} };
        $cursor = $b->{next};
    } while ($cursor && $pages < 10);
    is($pages, 3, 'three pages of one');
    my @want = map { my ($n, $s) = /^(\w)(\d+)/; "$j->{$n}/$s" }
               split ' ', $all;
    is_deeply(\@got, \@want, 'the same hits in the same order');
    my ($status, $b) = ::search('q=price&limit=2');
    is(scalar @{ $b->{hits} }, 2, 'limit=2');
    ok($b->{next}, 'and a next page');
    ($status, $b) = ::search("q=price&limit=2&cursor=$b->{next}");
    is(scalar @{ $b->{hits} }, 1, 'the rest');
    ok(!defined $b->{next}, 'and no next page');
}



=== TEST 7: hostile queries: a precise 400 or 414, or ordinary results
--- request
GET /search?q=x
--- more_headers
X-Tenant: alice
--- ledger_check eval
sub {
    my $j = ::seed();
    my $bob = $j->{C};

    # the query languages' own syntax is folded away: ordinary results
    for my $q ('%22', '%22new+price', 'new*', 'NEAR(new+price)',
               'new+OR+price', 'new+AND+NOT+price', 'text:new',
               '%7Bfolded%7D:+new', 'new+%26+price', 'new+%7C+price',
               '!new', '%25', '_', '%25_%25', '%5C', '%27',
               "%27;+DROP+TABLE+jobs;+--", '%5Enew', 'new+-price',
               '(((((', ')', '%2B', '%22%22%22%22', '*', 'a' x 250,
               'bob', '%E2%80%8B', 'new%09price')
    {
        my ($status, $b, $r) = ::search("q=$q");
        ok($status == 200 || $status == 400, "q=$q: 200 or 400 ($status)");
        unlike($r->{body}, qr/$bob/, "q=$q: nothing of bob's");
        unlike($r->{body}, qr/sqlite|syntax|fts5|SQL/i,
               "q=$q: no database error");
    }

    my %refused = (
        ''                      => [400, 'bad-query', qr/q is missing/],
        'q='                    => [400, 'bad-query', qr/q is missing/],
        'q=%00'                 => [400, 'bad-query', qr/control/],
        'q=a%01b'               => [400, 'bad-query', qr/control/],
        'q=%FF%FE'              => [400, 'bad-query', qr/UTF-8/],
        'q=%'                   => [400, 'bad-query', qr/malformed/],
        'q=%2'                  => [400, 'bad-query', qr/malformed/],
        'q=%22%2A'              => [400, 'bad-query', qr/no letter/],
        'q=' . ('a+' x 33)      => [400, 'bad-query', qr/more than 32/],
        'q=' . ('a' x 257)      => [414, 'query-too-long', qr/256 bytes/],
        'q=a&q=b'               => [400, 'bad-query', qr/twice/],
        'q=a&limit=0'           => [400, 'bad-query', qr/limit/],
        'q=a&limit=101'         => [400, 'bad-query', qr/limit/],
        'q=a&limit=x'           => [400, 'bad-query', qr/limit/],
        'q=a&cursor=x'          => [400, 'bad-query', qr/cursor/],
        'q=a&cursor=7.1'        => [400, 'bad-query', qr/cursor/],
        'q=a&cursor=1.-5'       => [400, 'bad-query', qr/cursor/],
        'q=a&sort=new'          => [400, 'bad-query', qr/unknown parameter/],
    );

    for my $args (sort keys %refused) {
        my ($want, $type, $detail) = @{ $refused{$args} };
        my ($status, $b, $r) = ::search($args);
        is($status, $want, "?$args: $want");
        is($r->{headers}{'content-type'}, 'application/problem+json',
           "?$args: problem+json");
        is($b->{type}, "urn:video-ocr:problem:$type", "?$args: $type");
        like($b->{detail}, $detail, "?$args: says why");
    }

    # a cursor of another tenant's range gives this tenant's hits only
    my ($status, $b, $r) = ::search('q=price&cursor=0.9223372036854775807');
    is($status, 200, 'a cursor past the range');
    unlike($r->{body}, qr/$bob/, 'nothing of bob\'s');

    # a cursor inside bob's range, as alice: her hits only, never his
    my ($c) = ledger_rows('SELECT base FROM search_jobs WHERE job_id = ?',
                          $bob);
    ok($c && $c->{base} > 0, "bob's job is indexed");
    for my $cursor ('0.' . ($c->{base} - 1), "0.$c->{base}",
                    "3.$c->{base}", '0.' . ($c->{base} + 1))
    {
        my ($status, $b, $r) = ::search("q=price&cursor=$cursor");
        is($status, 200, "cursor $cursor in bob's range");
        unlike($r->{body}, qr/$bob/, "cursor $cursor: nothing of bob's");
        ok(!grep({ $_->{job_id} ne $j->{A} && $_->{job_id} ne $j->{B} }
                 @{ $b->{hits} }),
           "cursor $cursor: only alice's jobs");
    }
}



=== TEST 8: the search takes GET and HEAD; a tenant; nothing leaks
--- request eval
["POST /search?q=price\nx", "GET /search?q=price"]
--- more_headers eval
["X-Tenant: alice", ""]
--- error_code eval
[405, 403]
--- response_headers eval
["Allow: GET, HEAD", "Content-Type: application/problem+json"]
--- response_body_like eval
["method-not-allowed", "no-tenant"]



=== TEST 9: DELETE takes a job out of the search, its words too; cancellation
--- request
GET /search?q=x
--- more_headers
X-Tenant: alice
--- ledger_check eval
sub {
    my $j = ::seed();
    my $base = sub {
        my ($r) = ledger_rows('SELECT base FROM search_jobs WHERE job_id = ?',
                              $_[0]);
        return $r ? $r->{base} : undef;
    };
    my $word = sub {
        my ($r) = ledger_rows("SELECT w.base FROM search_words w"
            . " JOIN search_tenants t ON t.num = w.num"
            . " WHERE t.tenant = 'alice' AND w.word = ?", $_[0]);
        return $r ? $r->{base} : undef;
    };
    is(::hits($j, 'q=price'), 'B1:exact A0:exact B0:fuzzy', 'before');
    is($word->('price'), $base->($j->{A}), '"price": brought by A');
    my $d = http_request(method => 'DELETE', uri => "/jobs/$j->{A}",
                         headers => ['X-Tenant' => 'alice']);
    is($d->{status}, 200, 'DELETE A: 200');
    is(::hits($j, 'q=price'), 'B1:exact B0:fuzzy', 'A is out of the search');
    is($word->('price'), $base->($j->{B}), '"price": B has it now');
    ok(!defined $word->('emile'), '"emile", A\'s alone, is gone');
    is(ledger_count('search_segments'), 6, 'A\'s segments are gone (B, C)');
    is(ledger_count('search_jobs'), 2, 'and its job');
    $d = http_request(method => 'DELETE', uri => "/jobs/$j->{B}",
                      headers => ['X-Tenant' => 'alice']);
    is(::hits($j, 'q=price'), '', 'B too');
    my ($n) = map { $_->{n} } ledger_rows("SELECT count(*) AS n"
        . " FROM search_words w JOIN search_tenants t ON t.num = w.num"
        . " WHERE t.tenant = 'alice'");
    is($n, 0, 'alice has no word left');
    is(::hits($j, 'q=price', 'bob'), 'C0:exact', 'bob keeps his');
    my $r = upload('never-done', $::V, headers => ['X-Tenant' => 'alice']);
    my $id = decode_json_body($r)->{job_id};
    $d = http_request(method => 'DELETE', uri => "/jobs/$id",
                      headers => ['X-Tenant' => 'alice']);
    is(decode_json_body($d)->{state}, 'cancelled', 'a job cancelled');
    is(ledger_count('search_segments'), 2, 'had nothing in the search');
}



=== TEST 10: the metrics count searches, refusals, hits and latency
--- request
GET /search?q=x
--- more_headers
X-Tenant: alice
--- ledger_check eval
sub {
    my $j = ::seed();
    ::search('q=price') for 1 .. 3;
    ::search('q=zzzz');
    ::search('q=');
    ::search('q=' . ('a' x 300));
    my $m = http_request(uri => '/metrics')->{body};
    my %v = map { /^(\S+) (\S+)$/ ? ($1 => $2) : () } split /\n/, $m;
    # this block's first request (q=x) counts too
    is($v{'video_ocr_search_requests_total{outcome="ok"}'}, 5, 'ok: 5');
    is($v{'video_ocr_search_requests_total{outcome="bad-query"}'}, 1,
       'bad-query: 1');
    is($v{'video_ocr_search_requests_total{outcome="query-too-long"}'}, 1,
       'query-too-long: 1');
    is($v{'video_ocr_search_hits_total'}, 9, 'hits: 3 x 3');
    is($v{'video_ocr_search_empty_total'}, 2, 'searches with none: 2');
    is($v{'video_ocr_search_seconds_count'}, 5, 'latencies: 5');
    is($v{'video_ocr_search_seconds_bucket{le="+Inf"}'}, 5, '+Inf: 5');
    cmp_ok($v{'video_ocr_search_seconds_bucket{le="5"}'}, '==', 5,
           'every search under 5 s');
    like($m, qr/^# TYPE video_ocr_search_seconds histogram$/m, 'a histogram');
}



=== TEST 11: a stale attempt's publish indexes nothing: the index is fenced
--- request
GET /search?q=x
--- more_headers
X-Tenant: alice
--- ledger_check eval
sub {
    my $r = upload('stale', $::V, headers => ['X-Tenant' => 'alice']);
    my $id = decode_json_body($r)->{job_id};
    my $doc = '{"segments":[{"start":0,"end":1,"text":"stale words"}]}';
    publish_result($id, $doc, stale => 1);
    is(ledger_count('results'), 0, 'no result');
    is(ledger_count('search_segments'), 0, 'no index row');
    is(ledger_count('search_words'), 0, 'no word');
    my ($status, $b) = ::search('q=stale+words');
    is(scalar @{ $b->{hits} }, 0, 'nothing found');
    is(ledger_count('events', "kind = 'stale_write'"), 1,
       'the refusal is counted');
    publish_result($id, $doc);
    ($status, $b) = ::search('q=stale+words');
    is(scalar @{ $b->{hits} }, 1, 'the attempt that holds it publishes');
}



=== TEST 12: video_ocr_search shares no location with another endpoint
--- config
    location = /search {
        video_ocr_jobs;
        video_ocr_search;
    }
--- must_die
--- error_log
cannot share a location with another video_ocr endpoint
