# A host without libpq builds an SQLite-only module and worker: both are
# built here as such a host would (VIDEO_OCR_PQ=no for config, VW_PQ=no
# for worker/Makefile), link no libpq, say what they are, open SQLite
# ledgers, and refuse a postgresql:// ledger with a sentence that says
# why.  (About 10 s: an nginx configure and two builds at -O0.)

use strict;
use warnings;

use Cwd qw(abs_path);
use File::Temp qw(tempdir);
use Test::More;
use VideoOCR::Test ();

my $repo = abs_path('.');
my $src = $ENV{NGX_SRC} // '/usr/share/nginx/src';
my $nginx = $ENV{NGINX_BIN} // '/usr/sbin/nginx';
my $dir = tempdir('video-ocr-nopq-XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $pg = 'postgresql://vo:secret@127.0.0.1:9/vo';

sub run {
    my ($cmd) = @_;
    my $out = `$cmd 2>&1`;
    return ($? >> 8, $out);
}

# --- the worker -------------------------------------------------------

my ($rc, $out) = run("CFLAGS=-O0 make -s -C $repo/worker BUILD=$dir/w"
                     . " VW_PQ=no -j2");
is($rc, 0, 'the worker builds without libpq') or diag($out);
my $w = "$dir/w/video-ocr-worker";

($rc, $out) = run("ldd $w");
like($out, qr/libsqlite3/, 'it links SQLite');
unlike($out, qr/libpq/, 'and not libpq');
($rc, $out) = run("$w -V");
like($out, qr/^ledgers: sqlite$/m, '-V says: SQLite ledgers only');

($rc, $out) = run("$w jobs --ledger '$pg'");
is($rc, 78, 'a postgresql:// ledger: a configuration error (78)');
like($out, qr/ledger "postgresql:\/\/vo:\*\*\*\@127\.0\.0\.1:9\/vo": this build has no PostgreSQL support \(libpq was not found when it was built: install libpq-dev and build again\), only SQLite ledgers/,
     'that says why, the password hidden');

# as root the pool runs as nobody, who must reach the ledger's directory
mkdir "$dir/store";
chmod 0777, $dir, "$dir/store";
($rc, $out) = run("$w run --ledger $dir/ledger.db --store $dir/store"
                  . " --workers 1 --no-janitor & sleep 2; kill \$!; wait");
ok(-s "$dir/ledger.db", 'an SQLite ledger it makes and uses') or diag($out);
($rc, $out) = run("$w jobs --ledger $dir/ledger.db");
is($rc, 0, 'and reads') or diag($out);

# --- the module -------------------------------------------------------

my $ngx = "$dir/nginx";
# as the Makefile does it (conf_flags is bash)
open my $sh, '>', "$dir/configure.sh" or die $!;
print {$sh} <<"SH";
set -e
cp -a $src/. $ngx
cd $ngx
. ./conf_flags
VIDEO_OCR_PQ=no ./configure "\${NGX_CONF_FLAGS[@]}" --add-dynamic-module=$repo
SH
close $sh;
($rc, $out) = run("bash $dir/configure.sh");
is($rc, 0, 'nginx configures the module without libpq') or diag($out);
like($out, qr/video_ocr: building with SQLite ledgers only: no libpq/,
     'and configure says so');

($rc, $out) = run("make -s -C $ngx -f objs/Makefile modules");
is($rc, 0, 'the module builds') or diag($out);
my $so = "$ngx/objs/ngx_http_video_ocr_module.so";
($rc, $out) = run("ldd $so");
like($out, qr/libsqlite3/, 'it links SQLite');
unlike($out, qr/libpq/, 'and not libpq');

# nginx -t of a minimal configuration with this module and the ledger
my $n = "$dir/n";
mkdir $_, 0777 for $n, "$n/logs", "$n/store";
chmod 0777, $n, "$n/store";     # as root, nginx's workers are nobody
sub nginx_t {
    return VideoOCR::Test::nginx_t(dir => $n, module => $so,
                                   nginx => $nginx, ledger => $_[0]);
}

($rc, $out) = nginx_t($pg);
isnt($rc, 0, 'nginx -t refuses a postgresql:// ledger');
like($out, qr/\[emerg\] .*this build has no PostgreSQL support \(libpq was not found when it was built: install libpq-dev and build again\), only SQLite ledgers/,
     'with the same sentence');
unlike($out, qr/secret/, 'never the password');

($rc, $out) = nginx_t("$n/ledger.db");
is($rc, 0, 'an SQLite ledger is fine') or diag($out);

done_testing();
