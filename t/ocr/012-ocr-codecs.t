# The codecs real tools export are accepted and read, in the containers
# they come in: ProRes (every profile: 4:2:2 10-bit Proxy/LT/Standard/
# HQ, 4:4:4 4444 and XQ, which decode to 12 bits), DNxHD and DNxHR (LB
# and SQ 8-bit 4:2:2, HQX 10-bit 4:2:2, 444 10-bit), H.264 High 4:2:2,
# High 4:4:4 and High 10, HEVC 4:2:2, 4:4:4 12-bit, Main 10 and Main 12,
# AV1 10-bit and VP9 profile 2, in MOV, MXF and Matroska.  Each video is
# made here by ffmpeg with a line of text burned in, and ffprobe first
# confirms it is what the case says (codec, profile, pixel format), so
# the test cannot pass on a file that silently fell back to 8-bit 4:2:0.
# Last, a listed codec in a form the decoder cannot do is unsupported_codec,
# named.

use strict;
use warnings;
use lib 't/lib';

use Test::More;
use VideoOCR::Media qw(run_worker worker_bin tmpdir make_video cer
    ffprobe_json);

-x worker_bin() or BAIL_OUT('no worker binary at ' . worker_bin());

$ENV{SVT_LOG} = 1;      # SVT-AV1: errors only, no banner

my $dir = tmpdir();

my @x265 = ('-preset', 'ultrafast', '-x265-params', 'log-level=error');
my @x264 = ('-preset', 'ultrafast', '-crf', '18');

# name, file, encoder, encoder options, size, duration,
# ffprobe's codec, profile (a regexp), the decoder's pixel format
my @cases = (
    # ProRes: all six profiles in MOV (prores_ks), HQ and 4444 in MXF
    # (prores_aw: the MXF muxer needs the profile it sets), XQ in Matroska
    [ 'ProRes 422 Proxy', 'proxy.mov', 'prores_ks', ['-profile:v', '0'],
      undef, 2, 'prores', qr/^Proxy$/, 'yuv422p10le' ],
    [ 'ProRes 422 LT', 'lt.mov', 'prores_ks', ['-profile:v', '1'],
      undef, 2, 'prores', qr/^LT$/, 'yuv422p10le' ],
    [ 'ProRes 422', 'standard.mov', 'prores_ks', ['-profile:v', '2'],
      undef, 2, 'prores', qr/^Standard$/, 'yuv422p10le' ],
    [ 'ProRes 422 HQ', 'hq.mov', 'prores_ks', ['-profile:v', '3'],
      undef, 2, 'prores', qr/^HQ$/, 'yuv422p10le' ],
    [ 'ProRes 4444', '4444.mov', 'prores_ks',
      ['-profile:v', '4', '-pix_fmt', 'yuva444p10le'],
      undef, 2, 'prores', qr/^4444$/, 'yuva444p12le' ],
    [ 'ProRes 4444 XQ', 'xq.mov', 'prores_ks',
      ['-profile:v', '5', '-pix_fmt', 'yuv444p10le'],
      undef, 2, 'prores', qr/^XQ$/, 'yuv444p12le' ],
    [ 'ProRes 422 HQ in MXF', 'hq.mxf', 'prores_aw', ['-profile:v', '3'],
      undef, 2, 'prores', qr/^HQ$/, 'yuv422p10le' ],
    [ 'ProRes 4444 in MXF', '4444.mxf', 'prores_aw',
      ['-profile:v', '4', '-pix_fmt', 'yuv444p10le'],
      undef, 2, 'prores', qr/^4444$/, 'yuv444p12le' ],
    [ 'ProRes 4444 XQ in Matroska', 'xq.mkv', 'prores_ks',
      ['-profile:v', '5', '-pix_fmt', 'yuv444p10le'],
      undef, 2, 'prores', qr/^XQ$/, 'yuv444p12le' ],

    # DNxHD (fixed sizes and rates: 720p at 90 Mbit/s) and DNxHR
    [ 'DNxHD 720p in MXF', 'dnxhd.mxf', 'dnxhd', ['-b:v', '90M'],
      '1280x720', 1, 'dnxhd', qr/^DNXHD$/, 'yuv422p' ],
    [ 'DNxHR LB in MXF', 'lb.mxf', 'dnxhd',
      ['-profile:v', 'dnxhr_lb', '-pix_fmt', 'yuv422p'],
      undef, 2, 'dnxhd', qr/^DNXHR LB$/, 'yuv422p' ],
    [ 'DNxHR SQ in MOV', 'sq.mov', 'dnxhd',
      ['-profile:v', 'dnxhr_sq', '-pix_fmt', 'yuv422p'],
      undef, 2, 'dnxhd', qr/^DNXHR SQ$/, 'yuv422p' ],
    [ 'DNxHR HQX 10-bit in MOV', 'hqx.mov', 'dnxhd',
      ['-profile:v', 'dnxhr_hqx', '-pix_fmt', 'yuv422p10le'],
      undef, 2, 'dnxhd', qr/^DNXHR HQX$/, 'yuv422p10le' ],
    [ 'DNxHR 444 in Matroska', '444.mkv', 'dnxhd',
      ['-profile:v', 'dnxhr_444', '-pix_fmt', 'yuv444p10le'],
      undef, 2, 'dnxhd', qr/^DNXHR 444$/, 'yuv444p10le' ],

    # H.264 beyond 4:2:0 8-bit
    [ 'H.264 High 4:2:2 10-bit in MOV', 'h264-422.mov', 'libx264',
      [@x264, '-pix_fmt', 'yuv422p10le'],
      undef, 2, 'h264', qr/^High 4:2:2/, 'yuv422p10le' ],
    [ 'H.264 High 4:4:4 in Matroska', 'h264-444.mkv', 'libx264',
      [@x264, '-pix_fmt', 'yuv444p'],
      undef, 2, 'h264', qr/^High 4:4:4/, 'yuv444p' ],
    [ 'H.264 High 10 in MXF', 'h264-10.mxf', 'libx264',
      [@x264, '-pix_fmt', 'yuv420p10le'],
      undef, 2, 'h264', qr/^High 10/, 'yuv420p10le' ],

    # HEVC range extensions and 10/12-bit
    [ 'HEVC 4:2:2 10-bit in MOV', 'hevc-422.mov', 'libx265',
      [@x265, '-pix_fmt', 'yuv422p10le', '-tag:v', 'hvc1'],
      undef, 2, 'hevc', qr/^Rext$/, 'yuv422p10le' ],
    [ 'HEVC 4:4:4 12-bit in Matroska', 'hevc-444.mkv', 'libx265',
      [@x265, '-pix_fmt', 'yuv444p12le'],
      undef, 2, 'hevc', qr/^Rext$/, 'yuv444p12le' ],
    [ 'HEVC Main 10 in MOV', 'hevc-10.mov', 'libx265',
      [@x265, '-pix_fmt', 'yuv420p10le', '-tag:v', 'hvc1'],
      undef, 2, 'hevc', qr/^Main 10$/, 'yuv420p10le' ],
    [ 'HEVC Main 12 in Matroska', 'hevc-12.mkv', 'libx265',
      [@x265, '-pix_fmt', 'yuv420p12le'],
      undef, 2, 'hevc', qr/^Rext$/, 'yuv420p12le' ],

    # AV1 10-bit, VP9 profile 2
    [ 'AV1 10-bit in Matroska', 'av1-10.mkv', 'libsvtav1',
      ['-preset', '12', '-pix_fmt', 'yuv420p10le'],
      undef, 2, 'av1', qr/^Main$/, 'yuv420p10le' ],
    [ 'VP9 profile 2 in WebM', 'vp9-p2.webm', 'libvpx-vp9',
      ['-deadline', 'realtime', '-cpu-used', '8', '-b:v', '0', '-crf', '30',
       '-pix_fmt', 'yuv420p10le'],
      undef, 2, 'vp9', qr/^Profile 2$/, 'yuv420p10le' ],
);

my $n = 0;
for my $c (@cases) {
    my ($what, $file, $enc, $opts, $size, $dur, $codec, $profile, $pix)
        = @$c;
    my $text = 'Export number ' . (11 + $n++);
    my $path = make_video(path => "$dir/$file", duration => $dur,
        size => $size // '320x180', codec => $enc, extra => $opts,
        dir => $dir,
        spans => [ { start => 0, end => $dur, text => $text, size => 26 } ]);

    # the file is what the case says
    my $probe = ffprobe_json($path);
    my ($v) = grep { $_->{codec_type} eq 'video' } @{ $probe->{streams} };
    is $v->{codec_name}, $codec, "$what: ffprobe sees $codec";
    like $v->{profile} // '', $profile, "$what: profile $v->{profile}";

    my $r = run_worker('ocr', $path, '--format', 'json');
    is $r->{rc}, 0, "$what: accepted" or diag $r->{stderr};
    my $res = $r->{json} // {};
    is $res->{inspection}{codec}, $codec, "$what: inspection.codec";
    is $res->{inspection}{pix_fmt}, $pix, "$what: decoded as $pix";
    my $got = join ' ', map { $_->{text} } @{ $res->{segments} // [] };
    cmp_ok cer($got, $text), '<=', 0.1, "$what: text read back ($got)";
}

# A listed codec in a form FFmpeg's decoder does not do: HEVC whose
# sequence parameter set says 11 bits (luma and chroma; FFmpeg decodes 8,
# 9, 10 and 12).  Made from a Main 12 file by rewriting the two
# exp-Golomb codes in place (ue 4 "00101" -> ue 3 "00100": the same
# length), in the SPS that Matroska's CodecPrivate holds.
{
    my $path = make_video(path => "$dir/h12.mkv", duration => 1,
        size => '64x64', codec => 'libx265', dir => $dir,
        extra => [@x265, '-pix_fmt', 'yuv420p12le']);
    my $d = do { open my $f, '<:raw', $path or die; local $/; <$f> };
    my $sps = index($d, "\x42\x01\x01");     # NAL type 33, one layer
    $sps > 0 or die 'no SPS';

    # the RBSP (emulation prevention bytes dropped) and where each of
    # its bytes is in the file
    my (@rbsp, @at);
    my ($j, $zeros) = ($sps + 2, 0);
    while (@rbsp < 48) {
        my $b = ord substr($d, $j, 1);
        if ($zeros >= 2 && $b == 3) { ($zeros, $j) = (0, $j + 1); next }
        push @rbsp, $b;
        push @at, $j++;
        $zeros = $b == 0 ? $zeros + 1 : 0;
    }
    my $bits = join '', map { sprintf '%08b', $_ } @rbsp;
    my $pos = 0;
    my $u  = sub { my $v = oct('0b' . substr($bits, $pos, $_[0])); $pos += $_[0]; $v };
    my $ue = sub {
        my $z = 0;
        $z++, $pos++ while substr($bits, $pos, 1) eq '0';
        $pos++;
        my $v = (1 << $z) - 1 + ($z ? oct('0b' . substr($bits, $pos, $z)) : 0);
        $pos += $z;
        return $v;
    };
    $u->(4); is $u->(3), 0, 'h11: one sub-layer'; $u->(1);
    $pos += 96;                             # profile_tier_level
    $ue->();                                # sps id
    my $chroma = $ue->();
    $u->(1) if $chroma == 3;
    $ue->(), $ue->();                       # width, height
    if ($u->(1)) { $ue->() for 1 .. 4 }     # conformance window
    for my $what (qw(luma chroma)) {
        is $ue->(), 4, "h11: $what bit depth 12 (minus 8) found";
        my $b = $pos - 1;                   # the code's last bit: 1 -> 0
        substr($d, $at[$b >> 3], 1) =
            chr(ord(substr($d, $at[$b >> 3], 1)) ^ (1 << (7 - ($b & 7))));
    }
    open my $f, '>:raw', "$dir/h11.mkv" or die; print {$f} $d; close $f;

    my $r = run_worker('ocr', "$dir/h11.mkv");
    is $r->{rc}, 65, 'HEVC 11-bit: rejected';
    like $r->{stderr}, qr/^video-ocr-worker: rejected: unsupported_codec: inspect "[^"]*h11\.mkv": the hevc decoder cannot read this stream/,
        'HEVC 11-bit: unsupported_codec, naming the codec';
    is scalar(() = $r->{stderr} =~ /\n/g), 1, 'HEVC 11-bit: one line';
}

done_testing;
