#!/usr/bin/perl
# The OCR benchmark's corpus: videos with burned-in text made with
# ffmpeg's drawtext, and beside each one its ground truth.
#
#   perl bench/ocr/corpus.pl DIR [--quick] [--set first|hard]
#        [--only NAME,...] [--seed N]
#        (--set traits: bench/ocr/lib/OCRTraits.pm; --set real:
#        bench/ocr/lib/OCRReal.pm, the real-like set, whose --quick is
#        its clips of a few seconds per shape)
#
# Writes DIR/NAME.EXT and DIR/NAME.json for every video of the list
# below (--set first, the default) or of the harder second set
# (--set hard: bench/ocr/lib/OCRHard.pm, whose truths also say which
# half, "tune" or "holdout", each video belongs to).  A file already
# there with the same recipe is kept (the recipe's digest is in the
# JSON).  --quick makes every video 8 s long (for the smoke test and for
# trying the bench).  Deterministic: the same list gives the same
# videos with the same ffmpeg, frame for frame (MP4 and AVI byte for
# byte; Matroska and WebM differ only in the UIDs their muxer draws),
# each video's backgrounds seeded by its name (VideoOCR::Media::seeds).  --seed N (0 by default)
# adds N to every seed: other makings of the same corpus, the same
# texts at the same times over other moving pictures, to see how much
# a result owes to one making (docs/benchmarks.md "One making or
# several").
#
# The truth (NAME.json):
#
#   { "name": "sub-noise-480p-vp9", "file": "sub-noise-480p-vp9.webm",
#     "kind": "subtitles", "background": "noise", "size": "854x480",
#     "width": 854, "height": 480, "codec": "libvpx-vp9", "rate": 25,
#     "duration": 30,
#     "spans":   [ {"start": 0.7, "end": 3.4, "text": "...", "font": "...",
#                   "size": 26, "line": 0}, ... ],
#     "screens": [ {"start": 0.7, "end": 3.44, "text": "..."}, ... ],
#     "distinct_screens": 9, "recipe": "<sha1>" }
#
# spans are what drawtext drew: visible in the frames whose time t has
# start <= t <= end.  screens are the intervals in which the set of
# visible spans is constant and not empty, with their text top to bottom
# (lines joined by "\n"); end is extended by one frame (the last frame
# with the text is on screen until the next one).  distinct_screens
# counts them: each must be read at least once, so it is the floor of
# the OCR calls a pipeline needs.
#
# Encoding: x264 veryfast CRF 20 (keyframes every 250 frames), VP9
# realtime CRF 32, MPEG-4 part 2 at the bit rate; all capped at the
# streaming bit rate of their height (%BITRATE).
#
# Kinds: subtitles (one or two lines at the bottom, 1.6-4 s each, gaps
# of 0.3-1.5 s, outlined white or yellow text, or white on a box),
# slides (a title and three body lines, dark on light, 5-8 s each, cut
# from one to the next), titles (one large centred line, 2.5-4 s, with
# gaps).

use strict;
use warnings;
use utf8;
use FindBin;
use lib "$FindBin::Bin/lib", "$FindBin::Bin/../../t/lib";

use Digest::SHA qw(sha1_hex);
use File::Path qw(make_path);
use JSON::PP ();
use VideoOCR::Media qw(make_video);
use OCRHard ();
use OCRTraits ();
use OCRReal ();
use OCRBench qw(screens rng);

my $dir = shift
    or die "usage: $0 DIR [--quick] [--set first|hard|traits|real]"
         . " [--only NAME,...] [--seed N]\n";
my ($quick, %only, $set, $seed_add);
$set = 'first';
$seed_add = 0;
while (my $a = shift) {
    if ($a eq '--quick') { $quick = 1 }
    elsif ($a eq '--only') { %only = map { $_ => 1 } split /,/, shift }
    elsif ($a eq '--set') { $set = shift // '' }
    elsif ($a eq '--seed') { $seed_add = shift // '' }
    else { die "unknown option $a\n" }
}
$set =~ /^(first|hard|traits|real)$/
    or die "--set: first, hard, traits or real\n";
$seed_add =~ /^[0-9]{1,9}$/ or die "--seed: a number of up to 9 digits\n";
make_path($dir);

# the traits (bench/ocr/lib/OCRTraits.pm): their own videos and truths
if ($set eq 'traits') {
    my $jt = JSON::PP->new->canonical->utf8;
    for my $tr (OCRTraits::traits()) {
        next if %only && !$only{ $tr->{name} };
        my %o = $quick ? (duration => 8) : ();
        # the 20-minute lecture stays 20 minutes: it is what it measures
        %o = () if ($tr->{duration} // 0) > 60;
        $o{seed} = $seed_add;
        my $recipe = sha1_hex($jt->encode([$tr->{video}, $tr->{name},
            $tr->{post} // '', $o{duration} // $tr->{duration} // 8,
            scalar(`ffmpeg -version 2>/dev/null | head -1`), 2, $seed_add]));
        my $tpath = "$dir/$tr->{name}.json";
        my $old = -s $tpath ? eval { $jt->decode(slurp($tpath)) } : undef;
        if ($old && ($old->{recipe} // '') eq $recipe && -s "$dir/$old->{file}") {
            print "corpus: $tr->{name}: kept\n";
            next;
        }
        my $truth = OCRTraits::make_trait($tr, $dir, %o);
        $truth->{recipe} = $recipe;
        open my $fh, '>', $tpath or die "$tpath: $!";
        print {$fh} $jt->encode($truth), "\n";
        close $fh;
        printf "corpus: %s: %s, %d s, %d screens\n", $tr->{name},
            $truth->{size}, $truth->{duration}, $truth->{distinct_screens};
    }
    exit 0;
}

# the real-like set (bench/ocr/lib/OCRReal.pm): its recipe is the
# video's entry, the code that draws it and the ffmpeg that makes it
if ($set eq 'real') {
    my $jt = JSON::PP->new->canonical->utf8;
    my $code = join '', map { slurp("$FindBin::Bin/lib/$_.pm") }
        qw(OCRReal OCRRealShapes OCRRealMake OCRRealText);
    my $ff = `ffmpeg -version 2>/dev/null | head -1`;
    for my $v ($quick ? OCRReal::quick() : OCRReal::videos()) {
        next if %only && !$only{ $v->{name} };
        my $recipe = sha1_hex($jt->encode([$v, sha1_hex($code), $ff, 1,
                                           $seed_add]));
        my $tpath = "$dir/$v->{name}.json";
        my $old = -s $tpath ? eval { $jt->decode(slurp($tpath)) } : undef;
        if ($old && ($old->{recipe} // '') eq $recipe
            && -s "$dir/$old->{file}")
        {
            print "corpus: $v->{name}: kept\n";
            next;
        }
        my $truth = OCRReal::make_real($v, $dir, seed => $seed_add);
        $truth->{recipe} = $recipe;
        open my $fh, '>', $tpath or die "$tpath: $!";
        print {$fh} $jt->encode($truth), "\n";
        close $fh;
        printf "corpus: %s: %s %s, %.0f s, %d lines\n", $v->{name},
            $truth->{size}, $truth->{codec}, $truth->{duration},
            scalar @{ $truth->{lines} };
    }
    exit 0;
}

# name, kind, background, size, codec, container, font, rate, style, color
my @VIDEOS = (
    ['sub-solid-360p-h264',   'subtitles', 'solid',  '640x360',   'libx264',
     'mp4',  'DejaVuSans',      25, 'outline', undef],
    ['sub-noise-480p-vp9',    'subtitles', 'noise',  '854x480',   'libvpx-vp9',
     'webm', 'DejaVuSerif',     25, 'outline', undef],
    ['sub-noise-360p-mpeg4',  'subtitles', 'noise',  '640x360',   'mpeg4',
     'avi',  'LiberationMono',  25, 'outline', undef],
    ['sub-moving-720p-h264',  'subtitles', 'moving', '1280x720',  'libx264',
     'mp4',  'LiberationSans',  25, 'outline', undef],
    ['sub-grain-720p-vp9',    'subtitles', 'grain',  '1280x720',  'libvpx-vp9',
     'webm', 'DejaVuSansBold',  30, 'outline', 'yellow'],
    ['sub-busy-1080p-h264',   'subtitles', 'busy',   '1920x1080', 'libx264',
     'mp4',  'DejaVuSans',      25, 'outline', undef],
    ['sub-moving-1080p-vp9',  'subtitles', 'moving', '1920x1080', 'libvpx-vp9',
     'webm', 'LiberationSerif', 24, 'outline', undef],
    ['sub-bars-720p-mpeg4',   'subtitles', 'bars',   '1280x720',  'mpeg4',
     'mkv',  'DejaVuSansMono',  25, 'box',     undef],
    ['slides-light-720p-h264', 'slides',   'light',  '1280x720',  'libx264',
     'mp4',  'DejaVuSerif',     25, 'plain',   undef],
    ['slides-mid-1080p-mpeg4', 'slides',   'mid',    '1920x1080', 'mpeg4',
     'mkv',  'LiberationSans',  25, 'plain',   undef],
    ['titles-moving-480p-h264', 'titles',  'moving', '854x480',   'libx264',
     'mov',  'DejaVuSansBold',  25, 'outline', undef],
    ['titles-busy-1080p-vp9', 'titles',    'busy',   '1920x1080', 'libvpx-vp9',
     'webm', 'LiberationSerif', 25, 'outline', undef],
);

# The bit rate caps of streaming encodes (about what video sites ask
# for): without them the grain and noise backgrounds make streams of
# tens of Mbit/s that no real upload has, and every pipeline is then
# measuring the decoder alone.
my %BITRATE = (360 => '1M', 480 => '2M', 720 => '4M', 1080 => '8M');

my @LINES = (
    'Where are you going tonight?', 'To the old station, I think.',
    'Bring the blue box, please.', 'Nobody knew what happened.',
    'The train leaves at 9:30', "It's cold outside, isn't it?",
    "We'll talk about it later.", 'Meet me at the corner.',
    'Keep the change, friend.', 'I have never seen it before.',
    'Turn left after the bridge.', 'Quiet, the baby is asleep.',
    'Open the window, it is hot.', "Where's my coat?",
    'She said she would call at 7.', 'How much is the ticket?',
    'Twelve euros, or fifteen with the museum.', 'Do you hear that noise?',
    'It came from the kitchen.', 'Give me two minutes.',
    'The market opens at dawn.', 'Why did you lie to me?',
    'I did not lie, I forgot.', 'Look at the map again.',
    'We are lost, admit it.', 'Follow the river north.',
    'The bakery closed in 1998.', 'Call the doctor, now!',
    'Everything will be fine.', 'Not if we wait any longer.',
    'Who left the door open?', 'My brother, as usual.',
    'Take the first exit.', 'The answer is 42.',
    'Nice to meet you, Anna.', 'The pleasure is mine.',
    'Is this seat taken?', 'Sorry, my friend is coming.',
    'We should go back home.', 'Not before the fireworks.',
);

my @TITLES = (
    'Chapter One', 'The Long Road North', 'Three Years Later',
    'Paris, 1962', 'The Harbour at Night', 'Part Two: Return',
    'Epilogue', 'A Film by Nobody', 'Winter Comes Early',
    'Based on a True Story', 'The End', 'Twelve Days in May',
);

my @SLIDES = (
    ['Quarterly Results', 'Revenue grew by 14 percent',
     'Costs fell in every region', 'Two new offices opened'],
    ['Project Timeline', 'Design review in March',
     'First release in June', 'Support ends in 2029'],
    ['How the Cache Works', 'Keys are hashed with SHA-256',
     'Entries expire after one hour', 'Misses go to the database'],
    ['Next Steps', 'Hire two more engineers',
     'Move the servers to Frankfurt', 'Write the user guide'],
    ['Open Questions', 'Who owns the billing code?',
     'Can we drop the old API?', 'What does support need?'],
    ['Lessons Learned', 'Measure before you optimise',
     'Small changes ship faster', 'Tests catch real bugs'],
);

my $json = JSON::PP->new->canonical->utf8;

my @list = $set eq 'hard' ? OCRHard::videos() : map {
    my ($name, $kind, $bg, $size, $codec, $ext, $font, $rate, $style,
        $color) = @$_;
    my ($w, $h) = split /x/, $size;
    { name => $name, kind => $kind, background => $bg, size => $size,
      codec => $codec, ext => $ext, rate => $rate,
      spans => sub {
          my ($rng, $dur) = @_;
          $kind eq 'slides' ? slides($rng, $dur, $w, $h, $font)
          : $kind eq 'titles' ? titles($rng, $dur, $w, $h, $font, $style)
          : subtitles($rng, $dur, $w, $h, $font, $style, $color);
      } }
} @VIDEOS;

for my $v (@list) {
    my ($name, $kind, $bg, $size, $codec, $ext, $rate) =
        @$v{qw(name kind background size codec ext rate)};
    next if %only && !$only{$name};

    # the second set's videos are 20 s: its backgrounds are slow to make
    my $dur = $quick ? 8 : $set eq 'hard' ? 20 : 30;
    my ($w, $h) = split /x/, $size;
    my %seeds = VideoOCR::Media::seeds($name);
    my $rng = rng($seeds{seed});        # the texts and times: every making

    my @spans = $v->{spans}->($rng, $dur);

    my %truth = (name => $name, file => "$name.$ext", kind => $kind,
        background => $bg, size => $size, width => $w + 0, height => $h + 0,
        codec => $codec, rate => $rate, duration => $dur,
        $v->{half} ? (half => $v->{half}) : (),
        spans => [map { { start => $_->{start}, end => $_->{end},
                          text => $_->{text}, font => $_->{font},
                          size => $_->{size}, line => $_->{line} } } @spans]);
    my $screens = screens(\@spans, $dur, 1 / $rate);
    $truth{screens} = $screens;
    $truth{distinct_screens} = scalar @$screens;

    my @extra = $codec eq 'libx264' ? ('-g', 250) : ();
    my $bitrate = $BITRATE{$h} or die "no bit rate for ${h}p";
    $truth{bitrate} = $bitrate;
    my $recipe = sha1_hex($json->encode([\%truth, \@spans, \@extra, 4,
                                         $seed_add]));
    $truth{recipe} = $recipe;

    my $path = "$dir/$name.$ext";
    my $tpath = "$dir/$name.json";
    if (-s $path && -s $tpath) {
        my $old = eval { $json->decode(slurp($tpath)) };
        if ($old && ($old->{recipe} // '') eq $recipe) {
            print "corpus: $name: kept\n";
            next;
        }
    }

    make_video(path => $path, size => $size, rate => $rate,
        duration => $dur, background => $bg, codec => $codec,
        VideoOCR::Media::seeds($name, $seed_add),
        dir => VideoOCR::Media::tmpdir(),
        spans => \@spans, extra => \@extra, bitrate => $bitrate);

    open my $fh, '>', $tpath or die "$tpath: $!";
    print {$fh} $json->encode(\%truth), "\n";
    close $fh;
    printf "corpus: %s: %s %s %s, %d s, %d screens\n", $name, $size,
        $codec, $bg, $dur, scalar @$screens;
}

sub pick {
    my ($rng, $list) = @_;
    return $list->[int($rng->() * @$list)];
}

sub round2 { sprintf('%.2f', $_[0]) + 0 }

sub subtitles {
    my ($rng, $dur, $w, $h, $font, $style, $color) = @_;
    my $fsize = int($h * 0.055 + 0.5);
    $fsize = 20 if $fsize < 20;
    my @spans;
    my $t = 0.3 + $rng->();
    my $n = int($rng->() * @LINES);
    while (1) {
        my $len = 1.6 + 2.4 * $rng->();
        last if $t + $len > $dur - 0.3;
        my $text = $LINES[$n++ % @LINES];
        if ($rng->() < 0.25) {
            $text .= "\n" . $LINES[$n++ % @LINES];      # two lines
        }
        push @spans, { start => round2($t), end => round2($t + $len),
            text => $text, font => $font, size => $fsize, style => $style,
            color => $color, y => 'bottom', line => 0 };
        $t += $len + 0.3 + 1.2 * $rng->();
    }
    return @spans;
}

sub titles {
    my ($rng, $dur, $w, $h, $font, $style) = @_;
    my $fsize = int($h * 0.11 + 0.5);
    my @spans;
    my $t = 0.5 + $rng->();
    my $n = int($rng->() * @TITLES);
    while (1) {
        my $len = 2.5 + 1.5 * $rng->();
        last if $t + $len > $dur - 0.3;
        push @spans, { start => round2($t), end => round2($t + $len),
            text => $TITLES[$n++ % @TITLES], font => $font, size => $fsize,
            style => $style, y => 'middle', line => 0 };
        $t += $len + 1 + 1.5 * $rng->();
    }
    return @spans;
}

sub slides {
    my ($rng, $dur, $w, $h, $font) = @_;
    my $tsize = int($h * 0.075 + 0.5);
    my $bsize = int($h * 0.05 + 0.5);
    my $x = int($w * 0.08);
    my @spans;
    my $t = 0;
    my $n = int($rng->() * @SLIDES);
    while ($t < $dur - 0.5) {
        my $len = 5 + 3 * $rng->();
        my $end = $t + $len > $dur - 1.5 ? $dur : $t + $len;
        my $s = $SLIDES[$n++ % @SLIDES];
        # drawtext shows a frame when start <= t <= end: the next slide
        # starts one frame later
        my ($a, $b) = (round2($t + ($t > 0 ? 0.04 : 0)), round2($end));
        push @spans, { start => $a, end => $b, text => $s->[0],
            font => $font, size => $tsize, style => 'plain',
            color => '0x202020', x => $x, y => int($h * 0.1), line => 0 };
        for my $i (1 .. 3) {
            push @spans, { start => $a, end => $b, text => $s->[$i],
                font => $font, size => $bsize, style => 'plain',
                color => '0x303030', x => $x + int($w * 0.03),
                y => int($h * (0.25 + 0.13 * $i)), line => $i };
        }
        $t = $end;
    }
    return @spans;
}

sub slurp {
    my ($f) = @_;
    open my $fh, '<:raw', $f or return '';
    local $/;
    return scalar <$fh>;
}
