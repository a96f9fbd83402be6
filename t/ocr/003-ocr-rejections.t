# Invalid input is rejected with exit 65, one line on stderr that names
# the reason (a stable code) and says what to do, and no crash: truncated
# files, garbage behind a valid magic, no video stream, huge declared
# dimensions (refused before any decoder runs), unknown language, ...

use strict;
use warnings;
use lib 't/lib';

use Test::More;
use VideoOCR::Media qw(run_worker worker_bin tmpdir make_video
    make_audio_only);

-x worker_bin() or BAIL_OUT('no worker binary at ' . worker_bin());

my $dir = tmpdir();

sub slurp { open my $f, '<:raw', $_[0] or die "$_[0]: $!"; local $/; <$f> }
sub spew  { open my $f, '>:raw', $_[0] or die "$_[0]: $!"; print {$f} $_[1]; close $f; $_[0] }

sub rnd {
    my ($n, $seed) = @_;
    srand($seed);
    return join '', map { chr(int(rand(256))) } 1 .. $n;
}

my @spans = ({ start => 0, end => 2, text => 'Some text' });
my $mp4  = make_video(path => "$dir/ok.mp4", duration => 2, spans => \@spans);
my $fast = make_video(path => "$dir/fast.mp4", duration => 2, spans => \@spans,
    extra => ['-movflags', '+faststart']);
my $webm = make_video(path => "$dir/ok.webm", duration => 2, spans => \@spans,
    codec => 'libvpx-vp9');
my $avi  = make_video(path => "$dir/ok.avi", duration => 2, spans => \@spans,
    codec => 'mpeg4');

my ($d, $i);

# truncated uploads: cut in the middle
for my $f ($mp4, $fast, $webm, $avi) {
    my $b = slurp($f);
    (my $t = $f) =~ s/ok|fast/cut-$&/;
    spew($t, substr($b, 0, int(length($b) * 0.6)));
}

# garbage behind a valid magic: a real "ftyp" box, then random bytes (the
# first byte of the next box's type made unprintable, so that the outcome
# does not depend on the draw); "RIFF....AVI " then random bytes
$d = slurp($mp4);
my $ftyp = unpack('N', $d);
my $junk = rnd(65536, 7);
substr($junk, 4, 1) = "\x01";
spew("$dir/garbage.mp4", substr($d, 0, $ftyp) . $junk);
spew("$dir/garbage.avi", 'RIFF' . pack('V', 65540) . 'AVI ' . rnd(65536, 8));

# no video stream
make_audio_only(path => "$dir/audio.mp4");
make_audio_only(path => "$dir/audio.ogg", codec => 'libvorbis');

# huge declared dimensions: patch the headers of small files
$d = slurp($avi);
$i = index($d, 'strf');
substr($d, $i + 12, 8) = pack('VV', 100000, 100000);   # BITMAPINFOHEADER
$i = index($d, 'avih');
substr($d, $i + 40, 8) = pack('VV', 100000, 100000);   # main header
spew("$dir/huge.avi", $d);

$d = slurp($fast);
$i = index($d, 'avc1', index($d, 'stsd'));
substr($d, $i + 28, 4) = pack('nn', 65535, 65535);     # visual sample entry
spew("$dir/huge.mp4", $d);

# not videos at all
spew("$dir/empty.mp4", '');
spew("$dir/text.mp4", "this is not a video\n" x 20);
system('ffmpeg', '-nostdin', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i',
    'color=c=red:s=64x64', '-frames:v', '1', "$dir/image.png") == 0 or die;
spew("$dir/image.mp4", slurp("$dir/image.png"));

# codecs we do not decode: JPEG 2000 in MXF (FFmpeg decodes it, the
# whitelist does not take it), Cinepak in MOV, and a ProRes MOV whose
# sample entry is patched to ProRes RAW's "aprn" (FFmpeg 5.1 has no
# decoder for it, nor a codec id)
system('ffmpeg', '-nostdin', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i',
    'color=c=red:s=64x64:d=1', '-c:v', 'jpeg2000', "$dir/j2k.mxf") == 0
    or die;
system('ffmpeg', '-nostdin', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i',
    'color=c=red:s=64x64:d=1', '-c:v', 'cinepak', "$dir/cinepak.mov") == 0
    or die;
system('ffmpeg', '-nostdin', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i',
    'color=c=red:s=64x64:d=1', '-c:v', 'prores_ks', "$dir/prores.mov") == 0
    or die;
$d = slurp("$dir/prores.mov");
pos($d) = index($d, 'stsd');
$d =~ /\G.*?(?=ap(?:c[hnso]|4[hx]))/sg or die 'no ProRes sample entry';
substr($d, pos($d), 4) = 'aprn';
spew("$dir/raw.mov", $d);

my @cases = (
    ['cut-ok.mp4',   [], 'truncated', qr/ends at byte \d+, inside the "mdat" box/],
    ['cut-fast.mp4', [], 'truncated', qr/inside the "mdat" box/],
    ['cut-ok.webm',  [], 'truncated', qr/Matroska\/WebM segment/],
    ['cut-ok.avi',   [], 'truncated', qr/AVI header declares/],
    ['garbage.mp4',  [], 'not_a_video', qr/starts like an MP4\/MOV but its structure is broken at byte \d+/],
    ['garbage.avi',  [], 'not_a_video', qr/holds no streams at all; the file is damaged or not a video/],
    ['audio.mp4',    [], 'no_video_stream', qr/no video stream \(it holds audio aac\)/],
    ['audio.ogg',    [], 'no_video_stream', qr/no video stream \(it holds audio vorbis\)/],
    ['huge.avi',     [], 'too_large', qr/declared 100000x100000 exceeds the 8\.3 Mpx limit/],
    ['huge.mp4',     [], 'too_large', qr/declared 65535x65535 exceeds the 8\.3 Mpx limit/],
    ['ok.mp4', ['--max-pixels', '100000'], 'too_large', qr/declared 640x360 exceeds the 0\.1 Mpx limit/],
    ['empty.mp4',    [], 'not_a_video', qr/the file is empty/],
    ['text.mp4',     [], 'not_a_video', qr/not a video file/],
    ['image.mp4',    [], 'not_a_video', qr/looks like .*png/i],
    ['j2k.mxf',      [], 'unsupported_codec', qr/unsupported codec "jpeg2000"/],
    ['cinepak.mov',  [], 'unsupported_codec', qr/unsupported codec "cinepak"/],
    ['raw.mov',      [], 'unsupported_codec', qr/the video codec "aprn" is unknown/],
    ['ok.mp4', ['--lang', 'xyz'], 'unknown_language', qr/language "xyz" is not installed \(installed: [a-z_, ]+\)/],
    ['ok.mp4', ['--lang', 'eng+qqq'], 'unknown_language', qr/language "qqq" is not installed/],
    ['ok.mp4', ['--max-duration', '1'], 'too_long', qr/lasts 2 s, longer than the 1 s limit/],
    ['ok.mp4', ['--fps', '60', '--max-frames', '10'], 'too_many_frames', qr/makes 120 frames, more than the 10 frame limit/],
    ['ok.mp4', ['--crop', '700,0,10,10'], 'crop_outside', qr/crop 700,0,10,10 lies outside the 640x360 picture/],
);

for my $c (@cases) {
    my ($file, $args, $code, $re) = @$c;
    my $r = run_worker('ocr', "$dir/$file", '--stats', @$args);
    my $what = "$file @$args";

    is $r->{signal}, 0, "$what: no crash";
    is $r->{rc}, 65, "$what: exit 65";
    is $r->{stdout}, '', "$what: no result";

    my ($line, @rest) = grep { !/^\{"runs"/ } split /\n/, $r->{stderr};
    like $line, qr/^video-ocr-worker: rejected: \Q$code\E: \S.*$/,
        "$what: rejected: $code";
    like $line, $re, "$what: says why";
    is scalar(@rest), 0, "$what: one line" or diag explain \@rest;

    if ($code eq 'too_large') {
        my ($packets) = $r->{stderr} =~ /"packets":(\d+)/;
        my ($decoded) = $r->{stderr} =~ /"frames_decoded":(\d+)/;
        is $decoded, 0, "$what: refused before decoding a frame";
        is $packets, 0, "$what: refused before reading a packet";
    }
}

done_testing;
