# The "ocr" command line: help, version, usage errors (exit 64) with the
# same messages the HTTP API gives for the same options.

use strict;
use warnings;
use lib 't/lib';

use Test::More;
use VideoOCR::Media qw(run_worker worker_bin tmpdir make_video);

-x worker_bin() or BAIL_OUT('no worker binary at ' . worker_bin());

my $r = run_worker('--version');
is $r->{rc}, 0, '--version exits 0';
like $r->{stdout}, qr/^video-ocr-worker \d+\.\d+\.\d+\n\z/, '--version';

$r = run_worker('--help');
is $r->{rc}, 0, '--help exits 0';
like $r->{stdout}, qr/^\s+ocr\s/m, '--help lists ocr';

$r = run_worker();
is $r->{rc}, 64, 'no command: 64';

$r = run_worker('frob');
is $r->{rc}, 64, 'unknown command: 64';
like $r->{stderr}, qr/unknown command "frob"/, 'names the command';

$r = run_worker('ocr', '--help');
is $r->{rc}, 0, 'ocr --help exits 0';
like $r->{stdout}, qr/--fps F.*--lang L.*--crop x,y,w,h.*--format F/s,
    'ocr --help lists the options';

$r = run_worker('ocr');
is $r->{rc}, 64, 'ocr without FILE: 64';
like $r->{stderr}, qr/needs a FILE/, 'says so';

my $dir = tmpdir();
my $file = make_video(path => "$dir/a.mp4", duration => 2, size => '320x240',
    spans => []);

# the messages are vo_options_set's, word for word what the module answers
my $fps  = qr/fps must be a decimal number of frames per second from 0\.01 to 60/;
my $lang = qr/lang must be Tesseract language names joined by '\+'/;
my $crop = qr/crop must be x,y,w,h in pixels, such as "0,600,1280,120"/;

my @bad = (
    [['--fps', '0'],          $fps],
    [['--fps', '61'],         $fps],
    [['--fps', '1.2345'],     $fps],
    [['--fps', 'abc'],        $fps],
    [['--fps=-1'],            $fps],
    [['--lang', 'ENG'],       $lang],
    [['--lang', 'eng+'],      $lang],
    [['--lang', 'eng deu'],   $lang],
    [['--lang', 'eng+auto'],  qr/lang "auto" chooses the languages itself: give it alone/],
    [['--crop', '1,2,3'],     $crop],
    [['--crop', '0,0,0,10'],  $crop],
    [['--crop', '0,0,10,x'],  $crop],
    [['--format', 'xml'],     qr/format must be json, vtt, srt, txt or ass, not "xml"/],
    [['--bogus'],             qr/unknown option "--bogus"/],
    [['--fps'],               qr/--fps needs a value/],
    [['--max-frames', 'many'], qr/--max-frames must be a whole number/],
    [['--frame-timeout-ms', '-5'], qr/--frame-timeout-ms must be a whole number/],
    [["$dir/other.mp4"],      qr/ocr takes one FILE/],
);

for my $b (@bad) {
    my ($args, $re) = @$b;
    my $r = run_worker('ocr', $file, @$args);
    is $r->{rc}, 64, "@$args: exit 64";
    like $r->{stderr}, $re, "@$args: message";
    is $r->{stdout}, '', "@$args: nothing on stdout";
}

$r = run_worker('ocr', "$dir/missing.mp4");
is $r->{rc}, 64, 'missing file: 64';
like $r->{stderr}, qr/cannot open ".*missing\.mp4": No such file/, 'names it';

# both spellings of a value flag, and canonical options in the result
$r = run_worker('ocr', $file, '--fps=2', '--lang', 'eng', '--crop=0,0,320,240');
is $r->{rc}, 0, '--flag=value works';
is_deeply $r->{json}{options},
    { crop => [0, 0, 320, 240], fps => 2, lang => 'eng' },
    'options echoed in canonical form';

done_testing;
