# A full disk: the store (and the client body temp files, on the same
# filesystem) on a small tmpfs.  An upload that does not fit is answered
# 507 problem+json and leaves no file and no row; intake recovers by
# itself when space returns.  Needs root, to mount the tmpfs.

use strict;
use warnings;

use File::Temp qw(tempdir);
use Test::More;
use VideoOCR::Stack;
use VideoOCR::Test qw(wait_for);

plan skip_all => 'mounting a tmpfs needs root' unless $> == 0;

my $mnt = tempdir('video-ocr-full-XXXXXX', TMPDIR => 1, CLEANUP => 1);
system('mount', '-t', 'tmpfs', '-o', 'size=4m,mode=0777', 'tmpfs', $mnt) == 0
    or plan skip_all => "cannot mount a tmpfs on $mnt";

my $s;
END {
    undef $s;
    system('umount', $mnt) if $mnt;
}

$s = VideoOCR::Stack->new(no_worker => 1, store => "$mnt/store",
                          http_config => 'client_body_buffer_size 64k;');

sub mp4 { "\0\0\0\x18ftypisom\0\0\x02\0isomiso2" . ("\x42" x $_[0]) }

sub files {
    my @f = grep { -f } glob($s->store . '/*/* ' . $s->store . '/.incoming/*');
    return scalar @f;
}

sub jobs { ($s->rows('SELECT count(*) AS n FROM jobs'))[0]{n} }

# a filler leaves about 1.5 MB free
my $filler = "$mnt/filler";
open my $fh, '>', $filler or die "$filler: $!";
print {$fh} "\0" x (2_500_000);
close $fh;

my $ok = $s->upload('fits', mp4(500_000));
is($ok->{status}, 202, 'an upload that fits: 202');
is(files(), 1, 'one file');

# a body spilled to a temp file that does not fit: the temp write fails
my $big = $s->upload('too-big-for-the-disk', mp4(3_000_000));
is($big->{status}, 507, 'a body that fills the disk: 507');
is($big->{headers}{'content-type'}, 'application/problem+json',
   'problem+json');
like($big->{body}, qr/"type":"urn:video-ocr:problem:disk-full"/,
     'disk-full');
is($big->{headers}{'retry-after'}, '1', 'Retry-After');
# nginx deletes the temp file when the request ends, just after the reply
ok(wait_for(5, sub { files() == 1 }),
   'no partial file left, in the store or the temp dir');
is(jobs(), 1, 'no row');

# the disk completely full: a small body (held in memory) cannot be placed
open $fh, '>>', $filler or die "$filler: $!";
print {$fh} "\0" x 65536 while print {$fh} "\0" x 65536;
close $fh;

my $small = $s->upload('small-no-room', mp4(30_000));
is($small->{status}, 507, 'a small body with no room left: 507');
like($small->{body}, qr/disk-full/, 'disk-full');
is(files(), 1, 'no partial file left');
is(jobs(), 1, 'no row');

# space comes back: the same requests now succeed, nothing to restart
unlink $filler or die "unlink: $!";

my $again = $s->upload('small-no-room', mp4(30_000));
is($again->{status}, 202, 'space is back: the retry is admitted');
ok(!$again->{headers}{'idempotent-replayed'},
   'as new: the refused attempt left no receipt');
is(jobs(), 2, 'two jobs');

open my $log, '<', $s->dir . '/logs/error.log' or die $!;
my $text = do { local $/; <$log> };
like($text, qr/\[crit\].*No space left on device/,
     'the error log says why');
unlike($text, qr/\[alert\]/, 'no alert');

done_testing();
