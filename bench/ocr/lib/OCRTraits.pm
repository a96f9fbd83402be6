package OCRTraits;

# The traits corpus: one short video per trait of the files people
# really upload (issue 19), each with its truth, made at bench or test
# time with ffmpeg and scored as the rest of the benchmark is
# (OCRBench::score: CER, found, false segments; CPU by bench.pl).
#
#   make_trait($trait, $dir)  makes $dir/NAME.EXT and returns the truth
#                             (the same fields as bench/ocr/corpus.pl's);
#                             options: duration, seed (below)
#   traits()                  the list, each a hash: name, ext, lang,
#                             short (runs in make test:
#                             t/ocr/014-ocr-traits.t), target (the CER
#                             it must reach)
#
# A trait is a video made by VideoOCR::Media::make_video (drawtext over a
# lavfi background), then, for the traits that are about the file rather
# than the picture, turned into that file by one more ffmpeg command
# ("post": a cover picture as stream 0, a live WebM written to a pipe,
# a rotation matrix...).
#
# The moving backgrounds' gradients are random unless seeded, so a
# trait is seeded by its name, and its encoders run in one thread
# (VideoOCR::Media::make_video says why): the same video on every run
# and every machine (ffmpeg's version aside), and a failure can be made
# again.  The seed option adds to that and to the noise's seed (ffmpeg's
# 123457), to make other videos of the same trait
# (t/ocr/014-ocr-traits.t takes it from OCR_TRAITS_SEED).

use strict;
use warnings;
use utf8;

use Exporter 'import';
use VideoOCR::Media qw(make_video seeds set_matrix);
use OCRBench qw(screens);

our @EXPORT_OK = qw(traits make_trait);

my @EN = ('Where are you going tonight?', 'Bring the blue box, please.',
          'The train leaves at 9:30', 'Meet me at the corner.',
          'How much is the ticket?', 'Give me two minutes.');

my %TEXT = (
    deu     => ['Grüße aus München', 'Die Brücke ist geöffnet.',
                'Wir fahren über Köln.', 'Schöne Äpfel, süße Birnen'],
    rus     => ['Где ты был вчера?', 'Поезд уходит в девять.',
                'Спасибо, до свидания!', 'Мы живём в Москве.'],
    chi_sim => ['我们的产品销量增长了', '今天天气很好',
                '请在这里等我', '明天早上八点出发'],
    jpn     => ['東京駅で待っています', 'ありがとうございました',
                'カメラを買いました', '明日は雨が降ります'],
    kor     => ['오늘 날씨가 좋습니다', '서울역에서 만나요',
                '감사합니다', '내일 다시 오세요'],
);

my @CAPS = (
    ['WHEN WE LEFT', 'THE HARBOUR', 'NOBODY WAVED'],
    ['THIS IS HOW', 'A SMALL TOWN', 'CHANGED', 'FOREVER'],
    ['ONE MORE TRY', 'AND THEN', 'WE GO HOME'],
    ['SHE TOLD ME', 'TO KEEP', 'THE SECRET', 'FOR 10 YEARS'],
);

# name, ext, make_video arguments, post (ffmpeg arguments after the input,
# or a shell command with IN and OUT), lang, short, target
my @TRAITS = (
    { name => 'mpeg2-ts-interlaced-anamorphic', ext => 'ts',
      video => { size => '720x576', codec => 'mpeg2video', rate => 25,
                 audio => 1, audio_codec => 'mp2', bitrate => '5M',
                 extra => ['-flags', '+ilme+ildct', '-top', '1',
                           '-aspect', '16:9', '-f', 'mpegts'] },
      short => 1 },
    { name => 'vfr-444-screencast', ext => 'mkv', background => 'light',
      style => 'plain',
      post => ['-vf', 'mpdecimate', '-vsync', 'vfr', '-c:v', 'libx264',
               '-preset', 'veryfast', '-threads', '1', '-pix_fmt', 'yuv444p'],
      video => { size => '1280x720', rate => 30 }, short => 1 },
    { name => '240p-180k', ext => 'mp4',
      video => { size => '426x240', bitrate => '180k' }, short => 1 },
    { name => 'cover-stream0', ext => 'mkv',
      post => 'cover', video => { size => '640x360' }, short => 1 },
    { name => 'lang-deu', ext => 'mp4', lang => 'deu',
      video => { size => '854x480' }, short => 1, target => 0.05 },
    { name => 'lang-rus', ext => 'mp4', lang => 'rus',
      video => { size => '854x480' }, short => 1, target => 0.05 },
    { name => 'lang-chi_sim', ext => 'mp4', lang => 'chi_sim',
      font => 'WenQuanYiZenHei', video => { size => '854x480' },
      short => 1, target => 0.05 },
    { name => 'lang-jpn', ext => 'mp4', lang => 'jpn',
      font => 'WenQuanYiZenHei', video => { size => '854x480' },
      short => 1, target => 0.05 },
    { name => 'lang-kor', ext => 'mp4', lang => 'kor',
      font => 'WenQuanYiZenHei', video => { size => '854x480' },
      short => 1, target => 0.05 },
    { name => 'caps-3-4-lines', ext => 'mp4', kind => 'caps',
      background => 'movingnoise',
      video => { size => '1280x720', bitrate => '4M' }, short => 1 },
    { name => 'caps-3-4-lines-busy', ext => 'webm', kind => 'caps',
      background => 'busynoise',
      video => { size => '854x480', codec => 'libvpx-vp9', bitrate => '2M' },
      short => 1 },
    { name => 'lecture-20min', ext => 'mp4', kind => 'slides',
      background => 'light', style => 'plain', duration => 1200,
      video => { size => '1280x720', bitrate => '1M' } },
    { name => 'lecture-2min', ext => 'mp4', kind => 'slides',
      background => 'light', style => 'plain', duration => 120,
      video => { size => '1280x720', bitrate => '1M' } },
    { name => '4k-h264', ext => 'mp4',
      video => { size => '3840x2160', rate => 30, bitrate => '20M' } },
    { name => 'mjpeg-avi', ext => 'avi',
      video => { size => '640x360', codec => 'mjpeg',
                 extra => ['-q:v', '5'] }, short => 1 },
    { name => 'fmp4-high10', ext => 'mp4',
      video => { size => '1280x720', bitrate => '4M',
                 extra => ['-pix_fmt', 'yuv420p10le', '-profile:v', 'high10',
                           '-movflags',
                           '+frag_keyframe+empty_moov+default_base_moof'] },
      short => 1 },
    { name => 'av1', ext => 'mkv',
      video => { size => '854x480', codec => 'libsvtav1',
                 extra => ['-preset', '10', '-crf', '35'] }, short => 1 },
    # made to work on other branches (issue 19): in the corpus already
    { name => 'phone-hevc10-rotated', ext => 'mov', post => 'rotate',
      video => { size => '720x1280', rate => 30 }, short => 1 },
    { name => 'live-webm', ext => 'webm', post => 'live',
      video => { size => '640x360', codec => 'libvpx', audio => 1,
                 audio_codec => 'libopus', bitrate => '1M' },
      short => 1 },
    { name => 'prores-422-mov', ext => 'mov',
      video => { size => '1280x720', codec => 'prores_ks',
                 extra => ['-profile:v', '2', '-pix_fmt', 'yuv422p10le'] },
      short => 1 },
);

sub traits { return @TRAITS }

sub round2 { sprintf('%.2f', $_[0]) + 0 }

# The spans of a trait: subtitles (one line at a time, 2.4 s each with
# 0.6 s between), captions of 3 and 4 lines in the middle, or slides
# (a title and two lines, 6 s each, for the lectures).
sub spans {
    my ($tr, $dur, $w, $h) = @_;
    my $kind = $tr->{kind} // 'subtitles';
    my $font = $tr->{font} // 'DejaVuSans';
    my @s;
    if ($kind eq 'caps') {
        my $fs = int($h * 0.09 + 0.5);
        my $step = int($fs * 1.3);
        my ($t, $n) = (0.5, 0);
        while ($t + 3 <= $dur - 0.3) {
            my $c = $CAPS[$n++ % @CAPS];
            my $y0 = int(($h - $step * @$c) / 2);
            for my $i (0 .. $#$c) {
                push @s, { start => $t, end => $t + 3, text => $c->[$i],
                    font => 'DejaVuSansBold', size => $fs, border => 7,
                    color => $i % 2 ? '0xffe040' : 'white',
                    y => $y0 + $i * $step, line => $i };
            }
            $t += 3.6;
        }
    } elsif ($kind eq 'slides') {
        my ($t, $n) = (0, 0);
        while ($t < $dur - 0.5) {
            my $end = $t + 6 > $dur ? $dur : $t + 6;
            my $a = round2($t + ($t > 0 ? 0.04 : 0));
            my @l = ("Lecture part " . ($n + 1), $EN[$n % @EN],
                     $EN[($n + 3) % @EN]);
            for my $i (0 .. 2) {
                push @s, { start => $a, end => round2($end), text => $l[$i],
                    font => 'DejaVuSans', size => int($h * ($i ? 0.05 : 0.075)),
                    style => 'plain', color => '0x202020',
                    x => int($w * 0.08), y => int($h * (0.12 + 0.2 * $i)),
                    line => $i };
            }
            $n++;
            $t = $end;
        }
    } else {
        my $lines = $TEXT{ $tr->{lang} // '' } // \@EN;
        my $fs = int($h * 0.07 + 0.5);
        # and small enough that the longest line fits across (a portrait
        # picture is narrow; a glyph is about 0.6 of the size wide)
        my ($long) = sort { $b <=> $a } map { length } @$lines;
        my $fit = int(0.9 * $w / (0.6 * $long));
        $fs = $fit if $fs > $fit;
        $fs = 22 if $fs < 22;
        my ($t, $n) = (0.5, 0);
        while ($t + 2.4 <= $dur - 0.3) {
            push @s, { start => $t, end => round2($t + 2.4),
                text => $lines->[$n++ % @$lines], font => $font, size => $fs,
                style => $tr->{style} // 'outline',
                $tr->{style} ? (color => '0x202020') : (),
                y => 'bottom', line => 0 };
            $t = round2($t + 3);
        }
    }
    return @s;
}

# Makes the trait's video in $dir; returns its truth.
sub make_trait {
    my ($tr, $dir, %o) = @_;
    my $dur = $o{duration} // $tr->{duration} // 8;
    my %v = %{ $tr->{video} };
    my ($w, $h) = split /x/, $v{size};
    my $rate = $v{rate} // 25;
    my @spans = spans($tr, $dur, $w, $h);
    my $path = "$dir/$tr->{name}.$tr->{ext}";
    my $post = $tr->{post};
    my $made = $post ? "$dir/$tr->{name}.pre.mkv" : $path;

    make_video(%v, path => $made, duration => $dur, rate => $rate,
        background => $tr->{background} // 'moving', spans => \@spans,
        seeds($tr->{name}, $o{seed}),
        $post ? (extra => [@{ $v{extra} // [] }]) : ());

    my @ff = ('ffmpeg', '-nostdin', '-hide_banner', '-loglevel', 'error', '-y');
    if (ref $post) {
        system(@ff, '-i', $made, @$post, $path) == 0 or die "post: $?";
    } elsif ($post && $post eq 'cover') {
        # a cover picture as the file's stream 0: a one-frame MJPEG track
        # before the video (the MP4 muxer would put it last)
        my $cover = "$dir/$tr->{name}.cover.jpg";
        system(@ff, '-f', 'lavfi', '-i', 'color=c=0xc04020:s=300x300',
               '-frames:v', '1', $cover) == 0 or die "cover: $?";
        system(@ff, '-i', $cover, '-i', $made, '-map', '0', '-map', '1',
               '-c', 'copy', '-disposition:v:0', 'attached_pic',
               $path) == 0 or die "cover mux: $?";
        unlink $cover;
    } elsif ($post && $post eq 'rotate') {
        # a phone's portrait video: stored landscape (turned 90 degrees
        # counter-clockwise), HEVC Main 10, with the display matrix that
        # turns it back (ffmpeg 5.1's "rotate" tag writes none)
        system(@ff, '-i', $made, '-vf', 'transpose=2', '-c:v', 'libx265',
               '-preset', 'ultrafast',
               '-x265-params', 'log-level=error:pools=1:frame-threads=1',
               '-pix_fmt', 'yuv420p10le', '-tag:v', 'hvc1', $path) == 0
            or die "rotate: $?";
        set_matrix($path, 0, 1, -1, 0);
    } elsif ($post && $post eq 'live') {
        # what MediaRecorder writes: a WebM to a pipe, so no duration and
        # no cues
        my $cmd = join ' ', map { "'$_'" } @ff, '-i', $made, '-c', 'copy',
            '-f', 'webm', 'pipe:1';
        system("$cmd > '$path'") == 0 or die "live: $?";
    }
    unlink $made if $post;

    my $screens = screens(\@spans, $dur, 1 / $rate);
    return { name => $tr->{name}, file => "$tr->{name}.$tr->{ext}",
        kind => "trait", trait => $tr->{name}, lang => $tr->{lang} // 'eng',
        size => $v{size}, width => $w + 0, height => $h + 0,
        codec => $v{codec} // 'libx264', rate => $rate, duration => $dur,
        spans => [map { { start => $_->{start}, end => $_->{end},
                          text => $_->{text}, line => $_->{line} } } @spans],
        screens => $screens, distinct_screens => scalar @$screens,
        defined $tr->{target} ? (target => $tr->{target}) : () };
}

1;
