# Admission storm: 64 concurrent clients, 2048 uploads, retries, reused
# keys, keys many clients send at once, clients that hang up after the
# body.  Every invariant of VideoOCR::Storm must hold.  `make soak` runs
# the same with STORM_UPLOADS=50000.

use strict;
use warnings;

use Test::More;
use VideoOCR::Stack;
use VideoOCR::Storm;
use VideoOCR::Test qw(wait_for);

my $uploads = $ENV{STORM_UPLOADS} // 2048;

my $s = VideoOCR::Stack->new(no_worker => 1);

my $run = VideoOCR::Storm::run($s, clients => 64, uploads => $uploads);
my %stats;
my @problems = VideoOCR::Storm::check($s, $run, \%stats);

diag(VideoOCR::Storm::summary(\%stats));

is(scalar @problems, 0, 'every invariant holds')
    or diag(join("\n", @problems[0 .. ($#problems > 20 ? 20 : $#problems)]));
cmp_ok($stats{uploads}, '>=', $uploads - 64, 'every client did its share');
my $lost = grep { $_->{status} == 0 && !$_->{hangup} } @{ $run->{results} };
is($lost, 0, 'every client that waited got an answer');
cmp_ok($stats{'status 422'} // 0, '>', 0, 'reused keys were refused');
cmp_ok($stats{'status 202'} // 0, '>', $uploads / 2, 'most were admitted');
ok(wait_for(10, sub { !glob($s->store . '/.incoming/*') }),
   'no temp file left');

done_testing();
