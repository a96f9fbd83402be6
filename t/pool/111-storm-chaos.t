# The admission storm while nginx worker processes are killed with
# SIGKILL every 200 ms and nginx is reloaded twice.  The master
# respawns its workers; nothing acknowledged is lost; every invariant
# holds once the janitor has swept what the killed workers left (temp
# files, uploads placed without a commit).

use strict;
use warnings;

use Test::More;
use Time::HiRes qw(sleep time);
use VideoOCR::Lifecycle ();
use VideoOCR::Stack;
use VideoOCR::Storm;

my $uploads = $ENV{STORM_UPLOADS} // 8192;

my $s = VideoOCR::Stack->new(no_worker => 1);
my $master = $s->nginx_pid;

my ($kills, $reloads, $next) = (0, 0, time + 0.2);
my $chaos = sub {
    return if time < $next;
    $next = time + 0.2;
    if (($kills == 2 && $reloads == 0) || ($kills == 5 && $reloads == 1)) {
        kill 'HUP', $master and $reloads++;
    }
    my @w = VideoOCR::Lifecycle::workers_of($master);
    if (@w) {
        kill 'KILL', $w[rand @w] and $kills++;
    }
};

my $run = VideoOCR::Storm::run($s, clients => 64, uploads => $uploads,
                               chaos => $chaos);

cmp_ok($kills, '>=', 6, "$kills nginx worker processes killed with SIGKILL");
is($reloads, 2, 'and nginx reloaded twice during the storm');

sleep 1;
my @w = VideoOCR::Lifecycle::workers_of($master);
is(scalar @w, 2, 'the master respawned its workers');
is($s->http(uri => '/jobs/00000000000000000000000000000000')->{status}, 404,
   'and they serve');

# the janitor sweeps what the killed workers left behind: one full pass
my $jout = `${\ ($ENV{WORKER_BIN} // 'build/video-ocr-worker') } janitor --once --ledger ${\ $s->ledger } --store ${\ $s->store } --orphan-age 0 2>&1`;
is($? >> 8, 0, 'the janitor made one pass');
my ($orphans) = $jout =~ /event=orphans_removed files=(\d+)/;
my ($temps) = $jout =~ /event=temp_files_removed files=(\d+)/;
diag(sprintf('the janitor removed %d uploads placed without a commit and'
             . ' %d temp files', $orphans // 0, $temps // 0));

my %stats;
my @problems = VideoOCR::Storm::check($s, $run, \%stats);

diag(VideoOCR::Storm::summary(\%stats));

is(scalar @problems, 0, 'every invariant holds: nothing acknowledged lost')
    or diag(join("\n", @problems[0 .. ($#problems > 20 ? 20 : $#problems)]));
my @left = glob($s->store . '/.incoming/*');
is(scalar @left, 0, 'no temp file left after the sweep')
    or diag(join "\n", map { "$_ " . (-s $_) . ' bytes, mtime '
                             . (stat $_)[9] } @left);

done_testing();
