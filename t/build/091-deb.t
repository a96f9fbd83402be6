# The Debian packages, installed on this machine as an operator would
# (it is root here: this test installs, checks and purges them):
#
#   - make deb builds both, lintian has no error, the module depends on
#     the nginx-abi of this nginx, the files are where Debian puts them;
#   - apt-get install ./*.deb, the pool started first (it makes the
#     ledger), the example site enabled, nginx started: upload -> text,
#     the pool running as video-ocr, the ledger, its -wal and -shm and the
#     store writable by both users and no one else;
#   - a newer version of both installed while uploads go on: no receipt
#     lost (every upload answered 202, every retry replayed, every job
#     done), nginx reloaded by the module's trigger, the pool restarted,
#     its running job resumed;
#   - remove keeps /var/lib/video-ocr, purge removes it, the user and the
#     group; nginx -t passes and nginx serves after each;
#   - installed again, nginx first (it makes the ledger): the pool writes
#     it, and the janitor deletes the media nginx placed.
#
# systemd does not run here (a container, CI): this test plays the
# service manager, with VideoOCR::Units, starting nginx.service and the
# two units from their unit files, ExecStart as User=, and doing what
# the packages' scripts leave to systemd (restart after an upgrade,
# stop before a removal) or to "invoke-rc.d nginx reload" (the nginx
# trigger; policy-rc.d forbids it in containers).  It skips, saying why,
# where it would disturb a real installation: not root, systemd running,
# the packages, the user or an nginx of /etc/nginx already there.
# (About 100 s of CPU, most of it the two package builds, made in
# parallel; 4 to 6 minutes on a 2-core machine shared with other work.)

use strict;
use warnings;

use Cwd qw(abs_path);
use File::Temp qw(tempdir);
use HTTP::Tiny;
use IO::Socket::INET;
use JSON::PP;
use POSIX qw(WNOHANG);
use Test::More;
use Time::HiRes qw(sleep time);
use VideoOCR::Units;

BEGIN { *slurp = \&VideoOCR::Units::slurp }

my $repo = abs_path('.');
my @PKGS = qw(libnginx-mod-http-video-ocr video-ocr-worker);
my $STATE = '/var/lib/video-ocr';
my $SITE = '/etc/nginx/sites-available/video-ocr';
my $SITE_LINK = '/etc/nginx/sites-enabled/video-ocr';
my $HOST = 'videos.example.com';

# --- may this run here? ---------------------------------------------------

plan skip_all => 'not root: this test installs and purges Debian packages'
    if $> != 0;
plan skip_all => 'systemd runs here: the packages start their units '
    . 'themselves, and this test plays the service manager where it does '
    . 'not run (containers, CI)'
    if VideoOCR::Units::systemd_runs();
for my $p (@PKGS) {
    my $st = `dpkg-query -W -f='\${db:Status-Abbrev}' $p 2>/dev/null`;
    plan skip_all => "$p is installed here ($st): this test would purge it"
        . ' (left by a run that was killed? apt purge it)'
        if $st =~ /^[a-z]i|^[a-z]c/;
}
plan skip_all => "the user video-ocr or $STATE exists: not this test's"
    if getpwnam('video-ocr') || -e $STATE || -e '/etc/video-ocr';
if (my $pid = slurp('/run/nginx.pid')) {
    plan skip_all => "an nginx of /etc/nginx/nginx.conf runs (pid $pid)"
        if $pid =~ /(\d+)/ && kill 0, $1;
}
plan skip_all => 'port 80 is in use: the example site listens there'
    if IO::Socket::INET->new(PeerAddr => '127.0.0.1:80', Timeout => 1);

# from here on this test owns the packages, the user, /var/lib/video-ocr
# and the site, and leaves none of them behind
our $OWNER = $$;
my $tmp = tempdir('video-ocr-deb-XXXXXX', TMPDIR => 1, CLEANUP => 1);
chmod 0755, $tmp;               # apt's _apt user reads the .deb files
my (%units, $nginx);
$SIG{INT} = $SIG{TERM} = sub { cleanup(); exit 1 };

# --- the packages -----------------------------------------------------------

my ($v1) = slurp("$repo/lib/vo_version.h") =~ /^#define VO_VERSION\s+"([^"]+)"/m;
my $v2 = "$v1+upgrade";
my $arch = `dpkg --print-architecture`;
chomp $arch;

# v1 by "make deb" (into $tmp/v1/deb), and at once v2: a copy of the
# tree with the version of lib/vo_version.h raised, binaries only
my $src2 = "$tmp/src2";
mkdir $src2;
system("cd $repo && git ls-files -z -c -o --exclude-standard"
       . " | perl -0ne 'chomp; print \"\$_\\0\" if -f \$_'"
       . " | tar --null -T - -cf - | tar -C $src2 -xf -") == 0
    or die "copy of the tree failed\n";
system('sed', '-i', "s/^#define VO_VERSION .*/#define VO_VERSION  \"$v2\"/",
       "$src2/lib/vo_version.h") == 0 or die;

# (VIDEO_OCR_DEB_BUILT=DIR: the v1/deb and v2/deb of an earlier run,
# kept with VIDEO_OCR_DEB_KEEP=DIR, when only the rest is being worked on)
my $t0 = time;
if (my $built = $ENV{VIDEO_OCR_DEB_BUILT}) {
    system("cp -a $built/v1 $built/v2 $tmp/") == 0 or die;
    SKIP: { skip("packages of $built, not built here", 2) }
} else {
    my %builds = (
        v1 => bg("make -s -C $repo deb BUILD=$tmp/v1 > $tmp/v1.log 2>&1"),
        v2 => bg("$src2/scripts/deb.sh --binary-only $tmp/v2/deb"
                 . " > $tmp/v2.log 2>&1"),
    );
    for my $v (sort keys %builds) {
        waitpid($builds{$v}, 0);
        is($?, 0, "$v: the packages build") or diag(slurp("$tmp/$v.log"));
    }
    diag(sprintf('both builds: %.0f s', time - $t0));
    system("mkdir -p $ENV{VIDEO_OCR_DEB_KEEP} && cp -a $tmp/v1 $tmp/v2"
           . " $ENV{VIDEO_OCR_DEB_KEEP}/") if $ENV{VIDEO_OCR_DEB_KEEP};
}

my %deb;
for my $v (['v1', $v1], ['v2', $v2]) {
    for my $p (@PKGS) {
        $deb{$v->[0]}{$p} = "$tmp/$v->[0]/deb/${p}_$v->[1]_$arch.deb";
        ok(-f $deb{$v->[0]}{$p}, "$v->[0]: ${p}_$v->[1]_$arch.deb");
    }
}
BAIL_OUT('no packages') unless -f $deb{v1}{$PKGS[0]} && -f $deb{v2}{$PKGS[1]};

# lintian (make deb fails on an error); the warnings left are explained
my $lintian = slurp("$tmp/v1/deb/lintian.txt") // '';
like($lintian, qr/^lintian [\d.+~a-z]+: 0 errors, \d+ warnings$/m,
     'lintian ran: no error');
unlike($lintian, qr/^E: /m, '  none listed');
my $explained = join '', map { slurp($_) // '' }
    glob("$repo/debian/*lintian-overrides $repo/debian/source/lintian-overrides"
         . " $repo/debian/README.source");
for my $tag ($lintian =~ /^W: \S+(?: \S+)?: (\S+)/mg) {
    like($explained, qr/\b\Q$tag\E\b/, "lintian warning $tag is explained in debian/");
}

my ($abi) = `dpkg-query -W -f='\${Provides}' nginx` =~ /(nginx-abi-[\w.+~-]+)/;
like(`dpkg-deb -f $deb{v1}{$PKGS[0]} Depends`, qr/(^|, )\Q$abi\E(,|$)/m,
     "the module depends on $abi, this nginx's");

my $mod_files = `dpkg-deb -c $deb{v1}{$PKGS[0]}`;
my $worker_files = `dpkg-deb -c $deb{v1}{$PKGS[1]}`;
for my $f ('/usr/lib/nginx/modules/ngx_http_video_ocr_module.so',
           '/usr/share/nginx/modules-available/mod-http-video-ocr.conf') {
    like($mod_files, qr/ \.\Q$f\E$/m, "module package: $f");
}
for my $f ('/usr/bin/video-ocr-worker',
           '/lib/systemd/system/video-ocr-worker.service',
           '/lib/systemd/system/video-ocr-deliverer.service',
           '/etc/video-ocr/video-ocr.conf', $SITE,
           '/usr/share/man/man1/video-ocr-worker.1.gz') {
    like($worker_files, qr/ \.\Q$f\E$/m, "worker package: $f");
}

# --- installed, the pool first --------------------------------------------

my $out = apt('install', $deb{v1}{$PKGS[0]}, $deb{v1}{$PKGS[1]});
like($out, qr/Setting up video-ocr-worker \(\Q$v1\E\)/,
     'apt-get install ./*.deb') or BAIL_OUT($out);

my @pw = getpwnam('video-ocr');
ok(@pw && $pw[2] < 1000 && $pw[8] =~ /nologin|false/,
   'a system user video-ocr, no login');
like(`id -Gn www-data`, qr/\bvideo-ocr\b/, 'www-data is in its group');
for my $d ($STATE, "$STATE/store", "$STATE/store/.incoming") {
    is(mode_owner($d), '2770 video-ocr video-ocr', "$d: 2770, video-ocr's");
}
isnt(system("runuser -u nobody -- ls $STATE 2>/dev/null"), 0,
     'anyone else cannot look into it');
is(readlink('/etc/nginx/modules-enabled/50-mod-http-video-ocr.conf'),
   '/usr/share/nginx/modules-available/mod-http-video-ocr.conf',
   'the module is enabled');
like(slurp('/usr/share/nginx/modules-available/mod-http-video-ocr.conf'),
     qr/^load_module modules\/ngx_http_video_ocr_module\.so;$/m,
     'by a load_module line');
ok(!-e $SITE_LINK && -f $SITE, 'the example site is there, disabled');
like(slurp($SITE), qr{video_ocr_ledger /var/lib/video-ocr/ledger\.db;.*video_ocr_store /var/lib/video-ocr/store;}s,
     'on /var/lib/video-ocr/ledger.db and /var/lib/video-ocr/store');
is(`systemctl is-enabled video-ocr-worker video-ocr-deliverer 2>&1`,
   "enabled\nenabled\n", 'both units are enabled');
($out) = run('systemd-analyze', 'verify', '--man=no',
             '/lib/systemd/system/video-ocr-worker.service',
             '/lib/systemd/system/video-ocr-deliverer.service');
is($out, '', 'systemd-analyze verify: the units and their binary');
is(mode_owner('/etc/video-ocr/key-hash-secret'), '0640 root video-ocr',
   'the key-hash secret, for the pool');
like(`/usr/bin/video-ocr-worker -V`, qr/^video-ocr-worker \Q$v1\E$/m,
     "video-ocr-worker -V: $v1");
nginx_t('with the module loaded and the site disabled');
like(nginx_notice(), qr/\[notice\] .*video_ocr\/\Q$v1\E \(ledgers: sqlite, postgresql\)/,
     "nginx logs the module's version, as its own, at notice");

# every command has its man page (in the package: a machine may leave
# /usr/share/man out), and the page every option of the command's --help
system("dpkg-deb -x $deb{v1}{$PKGS[1]} $tmp/x") == 0 or die;
my @cmds = grep { !/^(child|deliverer)$/ }
           map { /^  ([a-z]+)\s/ ? $1 : () } `/usr/bin/video-ocr-worker --help`;
ok(@cmds >= 10, 'the worker lists its commands') or diag("@cmds");
for my $c (@cmds) {
    my $f = "$tmp/x/usr/share/man/man1/video-ocr-worker-$c.1.gz";
    my $page = -f $f ? `zcat $f` : '';
    ok(length $page, "video-ocr-worker-$c(1)");
    # "janitor --help" prints the options of run, which it takes
    $page .= `zcat $tmp/x/usr/share/man/man1/video-ocr-worker-run.1.gz`
        if $c eq 'janitor';
    $page =~ s/\\-/-/g;
    my @opts = do { my %s; grep { !$s{$_}++ }
        `/usr/bin/video-ocr-worker $c --help 2>&1` =~ /(--[a-z][a-z-]*)/g };
    my @missing = grep { index($page, $_) < 0 && $_ ne '--help' } @opts;
    is("@missing", '', "  with every option of \"$c --help\"");
}

# the units as systemd would run them: the pool makes the ledger
$units{worker} = VideoOCR::Units->new('video-ocr-worker',
                                      log => "$tmp/worker.log");
$units{deliverer} = VideoOCR::Units->new('video-ocr-deliverer',
                                         log => "$tmp/deliverer.log");
$_->start for @units{qw(worker deliverer)};
ok(wait_for(20, sub { -s "$STATE/ledger.db" }), 'the pool made the ledger')
    or diag(slurp("$tmp/worker.log"));
is(mode_owner("$STATE/ledger.db"), '0660 video-ocr video-ocr',
   '  0660, the group video-ocr');
ok(wait_for(20, sub { $units{worker}->pids >= 4 }),
   'the pool runs: a supervisor, 2 OCR children, a janitor');
my @users = map { proc_user($_) } $units{worker}->pids,
                                 $units{deliverer}->pids;
is_deeply([sort { $a cmp $b } keys %{{ map { $_ => 1 } @users }}],
          ['video-ocr'], 'every process of both units runs as video-ocr');

symlink $SITE, $SITE_LINK or die "$SITE_LINK: $!";
nginx_t('with the site enabled, on the ledger the pool made');
$nginx = VideoOCR::Units->new('nginx', log => "$tmp/nginx.log");
$nginx->start;
ok(wait_for(10, sub { get('/')->{status} }), 'nginx answers on port 80');

my $video = make_video("$tmp/hello.mp4", 'PACKAGED TEXT', 3);
my $r = upload('deb-hello', $video);
is($r->{status}, 202, 'an upload: 202') or diag($r->{content});
my $job = eval { decode_json($r->{content})->{job_id} } // '';
my $st = wait_job($job, 90);
is($st->{state}, 'done', 'done') or diag(explain($st), slurp("$tmp/worker.log"));
like(get("/api/jobs/$job?format=txt")->{content}, qr/PACKAGED\s+TEXT/,
     'upload -> text');

for my $f ("$STATE/ledger.db-wal", "$STATE/ledger.db-shm") {
    like(mode_owner($f), qr/^0660 \S+ video-ocr$/, "$f: 0660, group video-ocr");
}
my ($input) = glob("$STATE/store/*/$job.video");
like(mode_owner($input), qr/^06[64]0 www-data video-ocr$/,
     'the stored upload: nginx\'s, readable by the group');
like(mode_owner($input =~ s{/[^/]+$}{}r), qr/^2770 www-data video-ocr$/,
     'its directory: the group may remove it (2770 under nginx\'s umask 022)');

like(get('/metrics')->{content},
     qr/^video_ocr_build_info\{version="\Q$v1\E",nginx="[\d.]+"\} 1$/m,
     "metrics: video_ocr_build_info{version=\"$v1\"}");
my ($key_nginx) = slurp('/var/log/nginx/video-ocr.log') =~ /key=(\w+) job=\Q$job\E/;
my ($key_pool) = slurp("$tmp/worker.log") =~ /job=\Q$job\E attempt=\d+ key=(\w+)/;
ok($key_nginx && $key_pool && $key_nginx eq $key_pool,
   'nginx and the pool log the same key hash (the secret made at install)')
    or diag("nginx $key_nginx, pool $key_pool");

# --- upgraded while uploads go on -----------------------------------------

my $long = make_video("$tmp/long.mp4", 'FRAME %{frame_num}', 120, 4);
my $small = make_video("$tmp/small.mp4", 'UPGRADE', 1);
my $client = start_client($small, "$tmp/client.txt", "$tmp/client.stop");
sleep 2;

$out = apt('install', $deb{v2}{$PKGS[0]}, $deb{v2}{$PKGS[1]});
like($out, qr/Setting up video-ocr-worker \(\Q$v2\E\)/, "upgraded to $v2")
    or diag($out);
like($out, qr/Setting up libnginx-mod-http-video-ocr \(\Q$v2\E\)/,
     '  both packages');
like($out, qr/Processing triggers for nginx/,
     'the module\'s upgrade triggers the nginx reload');
nginx_t('after the upgrade');
like(nginx_notice(), qr/video_ocr\/\Q$v2\E /, "  a new nginx logs $v2");
$nginx->reload;                                 # what the trigger does

# a job with a new text on every frame (240 to read), running when the
# pool restarts
$r = upload('deb-long', $long, 'fps=2');
my $long_job = eval { decode_json($r->{content})->{job_id} } // '';
ok(wait_for(30, sub { (status($long_job)->{progress}{frames_done} // 0) > 0 }),
   'a long job is running when the pool restarts')
    or diag(explain(status($long_job)));
for my $u (@units{qw(worker deliverer)}) {      # dh_installsystemd's restart
    $u->stop;
    $u->start;
}
sleep 3;
open my $stop, '>', "$tmp/client.stop" or die;
close $stop;
waitpid($client, 0);

my %sent = client_results("$tmp/client.txt");
ok(keys %sent >= 5, scalar(keys %sent) . ' uploads during the upgrade');
my @lost = grep { $sent{$_}{status} != 202 } sort keys %sent;
is("@lost", '', 'every one answered 202 (a client retries its key on 503)')
    or diag(slurp("$tmp/client.txt"));
my @not_replayed;
for my $k (sort keys %sent) {
    my $rr = upload($k, $small);
    push @not_replayed, $k
        unless $rr->{status} == 202
            && ($rr->{headers}{'idempotent-replayed'} // '') eq 'true'
            && $rr->{content} =~ /"job_id":"\Q$sent{$k}{job}\E"/;
}
is("@not_replayed", '', 'after the upgrade, every key replays its receipt');
my @not_done = grep { (wait_job($sent{$_}{job}, 120)->{state} // '') ne 'done' }
               sort keys %sent;
is("@not_done", '', 'and every job is done');
is(wait_job($long_job, 180)->{state}, 'done', 'the long job is done')
    or diag(slurp("$tmp/worker.log"));
my $events = `/usr/bin/video-ocr-worker events --ledger $STATE/ledger.db $long_job 2>&1`;
like($events, qr/released/, '  the old pool handed it back at SIGTERM');
cmp_ok(scalar(() = $events =~ /claimed|taken_over/g), '>=', 2,
       '  and the new one took it up') or diag($events);

like(`/usr/bin/video-ocr-worker -V`, qr/^video-ocr-worker \Q$v2\E$/m,
     "video-ocr-worker -V: $v2");
my @exe = map { readlink("/proc/$_/exe") // '' } $units{worker}->pids;
is_deeply([grep { $_ ne '/usr/bin/video-ocr-worker' } @exe], [],
          'the pool runs the new binary');
my $metrics = get('/metrics')->{content};
like($metrics, qr/^video_ocr_build_info\{version="\Q$v1\E"/m,
     'nginx runs the module it loaded: a reload keeps it (dlopen) until a restart');
$nginx->stop;
$nginx->start;
like(get('/metrics')->{content}, qr/^video_ocr_build_info\{version="\Q$v2\E"/m,
     "after nginx's restart: $v2");

# --- removed, then purged ---------------------------------------------------

$_->stop for @units{qw(worker deliverer)};      # dh_installsystemd's prerm
$out = apt('remove', @PKGS);
like($out, qr/Removing video-ocr-worker/, 'apt-get remove') or diag($out);
like($out, qr/disabled the nginx site \Q$SITE_LINK\E/,
     'the module\'s removal disables the example site');
ok(-s "$STATE/ledger.db" && getpwnam('video-ocr'),
   'remove keeps the ledger and the user');
ok(!-e '/etc/nginx/modules-enabled/50-mod-http-video-ocr.conf',
   'the module is not loaded any more');
nginx_t('after remove');
$nginx->reload;
is(get('/')->{status}, 200, 'nginx serves after remove');

$out = apt('purge', @PKGS);
like($out, qr/Purging configuration files for video-ocr-worker/, 'apt-get purge')
    or diag($out);
ok(!-e $STATE, "purge removes $STATE");
ok(!getpwnam('video-ocr') && !getgrnam('video-ocr'), 'the user and the group');
ok(!-e '/etc/video-ocr', 'and /etc/video-ocr');
unlike(`id -Gn www-data`, qr/video-ocr/, 'www-data is in no such group');
my @left = glob('/etc/nginx/modules-enabled/*video-ocr*');
is("@left", '', 'modules-enabled is clean');
nginx_t('after purge');
$nginx->reload;
is(get('/')->{status}, 200, 'nginx serves after purge');

# --- installed again, nginx first -----------------------------------------

$out = apt('install', $deb{v1}{$PKGS[0]}, $deb{v1}{$PKGS[1]});
like($out, qr/Setting up video-ocr-worker \(\Q$v1\E\)/, "installed again ($v1)")
    or BAIL_OUT($out);
symlink $SITE, $SITE_LINK or die "$SITE_LINK: $!";
nginx_t('nginx makes the ledger');
is(mode_owner("$STATE/ledger.db"), '0660 www-data video-ocr',
   '  0660, www-data\'s, the group video-ocr');
$nginx->stop;
$nginx->start;
$r = upload('deb-again', $video);
is($r->{status}, 202, 'an upload before the pool runs: 202');
$job = eval { decode_json($r->{content})->{job_id} } // '';
$units{worker}->start;
is(wait_job($job, 90)->{state}, 'done', 'the pool does it');
for my $f ("$STATE/ledger.db-wal", "$STATE/ledger.db-shm") {
    like(mode_owner($f), qr/^0660 \S+ video-ocr$/, "$f: 0660, group video-ocr");
}
($input) = glob("$STATE/store/*/$job.video");
ok($input && -f $input, 'the upload is in the store');
($out) = run('setpriv', '--reuid', 'video-ocr', '--regid', 'video-ocr',
             '--init-groups', '--', '/usr/bin/video-ocr-worker', 'janitor',
             '--once', '--ledger', "$STATE/ledger.db", '--store',
             "$STATE/store", '--media-retention', '0');
ok(!-e $input, 'the janitor, as video-ocr, deletes the media nginx placed')
    or diag($out);
$units{worker}->stop;
$nginx->stop;
undef $nginx;
$out = apt('purge', @PKGS);
ok(!-e $STATE && !getpwnam('video-ocr') && !-e $SITE_LINK,
   'purged: nothing left');

done_testing();


# --- helpers ------------------------------------------------------------------

sub apt {
    my ($what, @args) = @_;
    # (another apt on the machine: wait for its lock, as apt would)
    my ($out) = run('env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', '-y',
                    '-q', '-o', 'Dpkg::Use-Pty=0',
                    '-o', 'DPkg::Lock::Timeout=600',
                    $what eq 'install' ? ($what, map { "./$_" } @args)
                                       : ($what, @args));
    return $out;
}

sub nginx_t {
    my ($why) = @_;
    my ($out, $rc) = run('/usr/sbin/nginx', '-t', '-q');
    is($rc, 0, "nginx -t: $why") or diag($out);
}

# the notices of "nginx -t" (Debian's nginx.conf logs errors only)
sub nginx_notice {
    my ($out) = run('/usr/sbin/nginx', '-t', '-g', 'error_log stderr notice;');
    return $out;
}

sub run {
    my @cmd = @_;
    my $out = '';
    my $pid = open(my $fh, '-|') // die "fork: $!\n";
    if (!$pid) {
        open STDERR, '>&', \*STDOUT;
        chdir '/';
        exec @cmd or die "exec $cmd[0]: $!\n";
    }
    local $/;
    $out = <$fh> // '';
    close $fh;
    return ($out, $? >> 8);
}

sub bg {
    my ($cmd) = @_;
    my $pid = fork // die "fork: $!\n";
    if (!$pid) { exec 'bash', '-c', $cmd or die }
    return $pid;
}

sub mode_owner {
    my ($f) = @_;
    my @s = stat($f) or return "missing $f";
    return sprintf('%04o %s %s', $s[2] & 07777, scalar getpwuid($s[4]) // $s[4],
                   scalar getgrgid($s[5]) // $s[5]);
}

sub proc_user {
    my ($pid) = @_;
    my ($uid) = (slurp("/proc/$pid/status") // '') =~ /^Uid:\s+(\d+)/m;
    return defined $uid ? scalar getpwuid($uid) // $uid : 'gone';
}

sub wait_for {
    my ($seconds, $cond) = @_;
    my $deadline = time + $seconds;
    my $v;
    until (($v = $cond->()) || time >= $deadline) { sleep 0.1 }
    return $v;
}

sub http {
    my ($method, $path, %a) = @_;
    my $res = HTTP::Tiny->new(timeout => 30)->request($method,
        "http://$HOST$path",
        { peer => '127.0.0.1', headers => $a{headers} // {},
          defined $a{body} ? (content => $a{body}) : () });
    $res->{status} = 0 if $res->{status} == 599;
    return $res;
}

sub get { return http('GET', $_[0]) }

sub upload {
    my ($key, $file, $query) = @_;
    my $body = slurp($file);
    return http('POST', '/api/videos?lang=eng&' . ($query // 'fps=1'),
                headers => { 'Idempotency-Key' => $key }, body => $body);
}

sub status {
    my ($job) = @_;
    my $r = get("/api/jobs/$job");
    return eval { decode_json($r->{content}) } // {};
}

sub wait_job {
    my ($job, $seconds) = @_;
    my $st = {};
    wait_for($seconds, sub {
        $st = status($job);
        ($st->{state} // '') =~ /^(done|failed|rejected|cancelled)$/;
    });
    return $st;
}

# a video with TEXT burned in (drawtext's expansions allowed: a new text
# on every frame), $seconds long at $rate frames a second
sub make_video {
    my ($path, $text, $seconds, $rate) = @_;
    $rate //= 10;
    system('ffmpeg', '-nostdin', '-loglevel', 'error', '-y', '-f', 'lavfi',
           '-i', "color=c=black:s=480x270:r=$rate:d=$seconds",
           '-vf', 'drawtext=fontfile=/usr/share/fonts/truetype/dejavu/'
                  . "DejaVuSans-Bold.ttf:text='$text':fontcolor=white:"
                  . 'fontsize=40:x=30:y=110',
           '-c:v', 'libx264', '-pix_fmt', 'yuv420p', $path) == 0
        or die "ffmpeg failed for $path\n";
    chmod 0644, $path;
    return $path;
}

# uploads one video after another, each with a key of its own, until
# $stop exists; a key is sent again (the same key) after a 503 or a
# broken connection, as a client does; one line per key: key status job
sub start_client {
    my ($file, $log, $stop) = @_;
    my $pid = fork // die "fork: $!\n";
    return $pid if $pid;

    open my $fh, '>', $log or die "$log: $!\n";
    $fh->autoflush(1);
    for (my $i = 0; !-e $stop; $i++) {
        my $key = "deb-upgrade-$i";
        my $r;
        for my $try (1 .. 50) {
            $r = upload($key, $file);
            last unless $r->{status} == 0 || $r->{status} == 503;
            sleep 0.2;
        }
        my $job = eval { decode_json($r->{content})->{job_id} } // '-';
        print {$fh} "$key $r->{status} $job\n";
        sleep 0.1;
    }
    close $fh;
    POSIX::_exit(0);
}

sub client_results {
    my ($log) = @_;
    my %r;
    for (split /\n/, slurp($log) // '') {
        my ($k, $s, $j) = split ' ';
        $r{$k} = { status => $s, job => $j };
    }
    return %r;
}

# whatever happens above: nothing of this test is left running or
# installed, and the example site is not left enabled (only the process
# that passed the checks at the top, not a skipped run nor a child)
END { local $?; cleanup() }

sub cleanup {
    return unless defined $main::OWNER && $$ == $main::OWNER;
    for my $u (grep { defined } values %units) {
        eval { $u->stop };
    }
    if ($nginx) {
        eval { $nginx->stop };
        undef $nginx;
    }
    unlink $SITE_LINK if (readlink($SITE_LINK) // '') eq $SITE;
    for my $p (@PKGS) {
        my $st = `dpkg-query -W -f='\${db:Status-Abbrev}' $p 2>/dev/null`;
        if ($st =~ /^[a-z][ic]/) {
            system('DEBIAN_FRONTEND=noninteractive apt-get -y -q'
                   . " -o DPkg::Lock::Timeout=600 purge @PKGS >/dev/null 2>&1");
            last;
        }
    }
    unlink '/var/log/nginx/video-ocr.log';
    %units = ();
}
