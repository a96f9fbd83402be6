# ocr's progress line (worker/cmd/vw_cmd_progress.c): on a terminal,
# stderr carries one line rewritten in place ("\r", ESC [K) with the
# samples done of those planned and the video time reached of its
# duration, then the rate and the time left once a second has passed;
# the line is erased before the run ends, so the result on stdout and
# --stats' JSON on stderr come out clean.  When stderr is not a
# terminal, nothing of it is written.  The terminal is a real pseudo
# terminal (IO::Pty), the worker a real process.

use strict;
use warnings;
use lib 't/lib';

use IO::Pty ();
use JSON::PP ();
use Time::HiRes ();
use Test::More;
use VideoOCR::Media qw(run_worker worker_bin tmpdir make_video);

-x worker_bin() or BAIL_OUT('no worker binary at ' . worker_bin());

my $dir = tmpdir();
my @spans = map { { start => 4 * $_ + 0.5, end => 4 * $_ + 3.5,
                    text => "Progress line number $_" } } 0 .. 2;
my $video = make_video(path => "$dir/p.mp4", duration => 12, rate => 25,
    spans => \@spans, background => 'noise', dir => $dir);

# Runs the worker with stderr on a pseudo terminal and stdout into a
# file: (exit status, what the terminal got, stdout, wall seconds)
sub on_terminal {
    my @args = @_;
    my $pty = IO::Pty->new or die "pty: $!";
    my $out = "$dir/stdout";
    my $t0 = Time::HiRes::time();
    my $pid = fork // die "fork: $!";
    if (!$pid) {
        my $tty = $pty->slave;
        close $pty;
        open STDERR, '>&', $tty or die "stderr: $!";
        open STDOUT, '>', $out or die "$out: $!";
        exec worker_bin(), @args or die "exec: $!";
    }
    $pty->close_slave;
    my $got = '';
    while (1) {
        my $n = sysread $pty, my $buf, 65536;
        last if !$n;            # 0, or EIO once the worker closed it
        $got .= $buf;
    }
    waitpid $pid, 0;
    my $rc = $? >> 8;
    my $wall = Time::HiRes::time() - $t0;
    open my $fh, '<', $out or die "$out: $!";
    my $stdout = do { local $/; <$fh> };
    return ($rc, $got, $stdout, $wall);
}

# --fps 5: 60 samples, slow enough for a few redraws
my ($rc, $tty, $stdout, $wall) =
    on_terminal('ocr', $video, '--fps', '5', '--format', 'txt');
is $rc, 0, 'on a terminal: the run succeeds';

my @lines = $tty =~ /\r\e\[K(frames [^\r\e]*)/g;
ok scalar(@lines) >= 1, 'the progress line is drawn ('
    . scalar(@lines) . ' times)' or diag explain $tty;
my @bad = grep { !m{^frames \d+/60  video \d:\d\d/0:1[12](  \d+\.\dx(  left \d+:\d\d)?)?$} }
          @lines;
is_deeply \@bad, [], 'every line says frames, video time, and rate and '
    . 'time left when it has them';
my @done = map { m{^frames (\d+)} } @lines;
ok !(grep { $done[$_] < $done[$_ - 1] || $done[$_] > 60 } 1 .. $#done),
    'the samples done only grow, up to those planned';
like $tty, qr/\r\e\[K\z/, 'the line is erased at the end';
SKIP: {
    # a second of history is what the rate needs; a faster run has none
    skip sprintf('the run took %.1f s, no rate shown in its first second',
                 $wall), 1 if $wall < 2;
    ok scalar(grep { /x  left / || /\dx$/ } @lines),
        sprintf('a run of %.1f s shows its rate', $wall);
}
like $stdout, qr/Progress line number 2/, 'the result is on stdout';
unlike $stdout, qr/\e|\r/, 'and nothing of the line is in it';

# --stats on the terminal: its JSON starts on a clean line
($rc, $tty) = on_terminal('ocr', $video, '--format', 'txt', '--stats');
is $rc, 0, '--stats on a terminal: the run succeeds';
my ($json) = $tty =~ /\r\e\[K(\{.*\})\r?\n?\z/s;
ok $json && eval { JSON::PP::decode_json($json)->{runs} },
    'the stats are whole JSON after the erased line'
    or diag explain $tty;

# not a terminal: not a byte of it
my $r = run_worker('ocr', $video, '--fps', '5', '--format', 'txt');
is $r->{rc}, 0, 'stderr a file: the run succeeds';
is $r->{stderr}, '', 'and stderr is empty';

done_testing();
