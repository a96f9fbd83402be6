# "nginx -t" refuses a ledger directory that nginx's worker processes
# cannot write.  Test::Nginx runs the workers as root (it writes
# "user root;" when run as root), so this file drives nginx -t itself,
# with the workers' user set to nobody.

use strict;
use warnings;

use File::Temp qw(tempdir);
use Test::More;

use VideoOCR::Test qw(nginx_t);

plan skip_all => 'an SQLite ledger\'s directory: nothing of PostgreSQL\'s'
    if $ENV{VIDEO_OCR_TEST_PG};

my $nginx = $ENV{TEST_NGINX_BINARY} // '/usr/sbin/nginx';
my ($module) = split ' ', $ENV{TEST_NGINX_LOAD_MODULES} // '';
my $dir = tempdir(CLEANUP => 1);

mkdir "$dir/$_" for qw(logs ledger store);
chmod 0755, $dir;
chmod 0555, "$dir/ledger";    # nobody (or we, if not root) cannot write

my $user = $> == 0 ? 'user nobody nogroup;' : '';

my %conf = (nginx => $nginx, module => $module, dir => $dir,
            ledger => "$dir/ledger/ledger.db", main => $user);
my ($rc, $out) = nginx_t(%conf);

isnt($rc, 0, "nginx -t fails");
like($out, qr/\[emerg\] (?:\d+#\d+: )?video_ocr_ledger "\Q$dir\E\/ledger\/ledger.db": "\Q$dir\E\/ledger" \(owner \d+, group \d+, mode 0555\) is not writable by user \S+ \(uid \d+\): the directory must exist and be writable by nginx's worker processes/,
     "the message names the directory, its owner and mode, and the user")
    or diag($out);
ok(!-e "$dir/ledger/ledger.db", "no ledger was created");

chmod 0777, "$dir/ledger";
($rc, $out) = nginx_t(%conf);
is($rc, 0, "once the directory is writable, nginx -t passes")
    or diag($out);
ok(-e "$dir/ledger/ledger.db", "and the ledger exists");

# a writable directory the user cannot reach is as good as none
unlink "$dir/ledger/ledger.db";
chmod 0700, $dir;
($rc, $out) = nginx_t(%conf);
SKIP: {
    skip "root reaches every directory: needs nginx started as root", 2
        unless $> == 0;

    isnt($rc, 0, "a ledger directory below a 0700 directory: fails");
    like($out, qr/"\Q$dir\E" \(owner \d+, group \d+, mode 0700\) cannot be entered by user nobody/,
         "and says which directory blocks the way") or diag($out);
}
chmod 0755, $dir;
($rc, $out) = nginx_t(%conf);
is($rc, 0, "reachable again: passes") or diag($out);

SKIP: {
    skip "the ownership hand-over happens only when nginx starts as root", 1
        unless $> == 0;

    my $uid = (stat "$dir/ledger/ledger.db")[4];
    is($uid, scalar getpwnam('nobody'), "owned by the workers' user");
}

done_testing();
