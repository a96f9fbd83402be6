# The configurations in conf.d/: nginx.conf.example and each site of
# conf.d/sites/ (front door, tenants by auth_request, tenants by
# auth_basic, TLS + HTTP/2) pass "nginx -t" with the module loaded, and
# then do what their comments say, on the real nginx with the module:
# uploads and job status through the front door, everything else to the
# application (a small HTTP server here), metrics reachable from
# 127.0.0.1 only, tenants from authentication only, HTTPS and HTTP/2.
#
# Each configuration is tested as shipped, with only the host-specific
# strings replaced (see localise()): paths under /var and /etc, the
# ports, the module's path.  curl is the client.

use strict;
use warnings;

use Cwd qw(abs_path);
use DBI;
use DBD::SQLite::Constants qw(:file_open);
use File::Path qw(make_path);
use File::Temp qw(tempdir);
use IO::Socket::INET;
use JSON::PP;
use POSIX qw(WNOHANG);
use Test::More;
use Time::HiRes qw(sleep);

my $repo   = abs_path('.');
my $nginx  = $ENV{NGINX_BIN} // '/usr/sbin/nginx';
my $module = (split ' ', $ENV{TEST_NGINX_LOAD_MODULES} // $ENV{MODULE_SO}
                         // '')[0]
             || "$repo/build/nginx/objs/ngx_http_video_ocr_module.so";
-e $module or plan skip_all => "$module is missing: run make build";
plan skip_all => 'the shipped sites use SQLite ledgers: tested in that run'
    if $ENV{VIDEO_OCR_TEST_PG};

my $dir = tempdir('video-ocr-sites-XXXXXX', TMPDIR => 1,
                  CLEANUP => !$ENV{VIDEO_OCR_KEEP});
chmod 0777, $dir;    # as root, nginx's workers run as www-data

my %port = map { $_ => free_port() } qw(http https app);
my @running;         # nginx master pids to stop at the end

END {
    local $?;
    stop_nginx($_) for @running;
}


# ---------- what every site needs ----------

# a self-signed certificate for the TLS site
make_path("$dir/tls");
run_ok('openssl', 'req', '-x509', '-newkey', 'ec', '-pkeyopt',
       'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
       '-subj', '/CN=videos.example.com',
       '-addext', 'subjectAltName=DNS:videos.example.com,IP:127.0.0.1',
       '-keyout', "$dir/tls/key.pem", '-out', "$dir/tls/cert.pem");

# the password file of tenants-basic.conf: alice and bob
{
    open my $fh, '>', "$dir/htpasswd" or die $!;
    for my $u (qw(alice bob)) {
        my $hash = `openssl passwd -apr1 '$u-password'`;
        chomp $hash;
        print {$fh} "$u:$hash\n";
    }
    close $fh;
    chmod 0644, "$dir/htpasswd";
}

# a small real video
my $video_file = "$dir/video.mp4";
run_ok('ffmpeg', '-nostdin', '-loglevel', 'error', '-y', '-f', 'lavfi',
       '-i', 'color=c=black:s=320x240:d=1', '-c:v', 'libx264',
       '-pix_fmt', 'yuv420p', $video_file);

# the application behind the front door
my $app_pid = start_app($port{app});


# ---------- nginx -t ----------

my %conf;
for my $name (qw(example front-door tenants tenants-basic tls)) {
    $conf{$name} = write_conf($name);
    my $out = `$nginx -t -p $dir/$name/ -c $conf{$name} 2>&1`;
    is($?, 0, "$name: nginx -t passes") or diag($out);
    like($out, qr/test is successful/, "$name: test is successful");
    unlike($out, qr/\[(?:warn|emerg|alert|crit)\]/, "$name: no warnings")
        or diag($out);
}


# ---------- the front door ----------

{
    start_nginx('front-door');

    my $r = curl("http://127.0.0.1:$port{http}/account/settings");
    is($r->{status}, 200, 'front door: other paths go to the application');
    like($r->{body}, qr{^app: GET /account/settings\b}m, '... as they are');
    like($r->{body}, qr/^x-forwarded-proto: http$/m, '... with the scheme');
    like($r->{body}, qr/^x-forwarded-for: 127\.0\.0\.1$/m,
         '... and the client address');

    $r = upload("http://127.0.0.1:$port{http}", 'front-1');
    is($r->{status}, 202, 'front door: nginx takes the upload');
    my $job = $r->{json}{job_id} // '';
    like($job, qr/^[0-9a-f]{32}$/, '... and answers with a receipt');
    is($r->{headers}{location}, "http://127.0.0.1:$port{http}/api/jobs/$job",
       '... its Location is the job under /api/jobs/');

    $r = upload("http://127.0.0.1:$port{http}", 'front-1');
    is($r->{headers}{'idempotent-replayed'}, 'true', 'a retry is a replay');
    is($r->{json}{job_id}, $job, '... of the same job');

    $r = curl("http://127.0.0.1:$port{http}/api/jobs/$job");
    is($r->{status}, 200, 'front door: job status');
    is($r->{json}{job_id}, $job, '... of that job');

    is(scalar(ledger('front-door', 'SELECT * FROM jobs')), 1,
       'one job in the ledger');

    $r = curl("http://127.0.0.1:$port{http}/account/avatar",
              '--data-binary', '@' . big_file(11 << 20),
              '-H', 'Content-Type: application/octet-stream');
    is($r->{status}, 413, 'the application gets bodies up to 10m only');

    metrics_only_local('front door', "http://127.0.0.1:$port{http}");

    stop_nginx(pop @running);
}


# ---------- tenants from the application (auth_request) ----------

{
    start_nginx('tenants');
    my $base = "http://127.0.0.1:$port{http}";
    my @alice = ('-H', 'Authorization: Bearer alice-token');
    my @bob = ('-H', 'Authorization: Bearer bob-token');

    my $r = curl("$base/");
    is($r->{status}, 200, 'tenants: the application\'s pages need no auth_request');

    $r = upload($base, 'same-key');
    is($r->{status}, 401, 'tenants: an upload without credentials: 401');
    $r = upload($base, 'same-key', '-H', 'X-Tenant: alice');
    is($r->{status}, 401, '... and a client-chosen X-Tenant is no credential');
    is(scalar(ledger('tenants', 'SELECT * FROM requests')), 0,
       '... nothing stored');

    $r = upload($base, 'same-key', '-H', 'Authorization: Bearer anon-token');
    is($r->{status}, 403, 'signed in without a tenant: 403');
    is($r->{json}{type}, 'urn:video-ocr:problem:no-tenant', '... no-tenant');

    $r = upload($base, 'same-key', @alice);
    is($r->{status}, 202, 'alice uploads');
    my $job = $r->{json}{job_id} // '';

    $r = curl("$base/api/jobs/$job", @alice);
    is($r->{status}, 200, 'alice sees her job');
    $r = curl("$base/api/jobs/$job", @bob);
    is($r->{status}, 404, 'bob does not');
    $r = curl("$base/api/jobs/$job", @bob, '-H', 'X-Tenant: alice');
    is($r->{status}, 404, '... even with "X-Tenant: alice" in his request');

    $r = upload($base, 'same-key', @bob, '-H', 'X-Tenant: alice');
    is($r->{status}, 202, 'bob uploads with the same key');
    ok(!$r->{headers}{'idempotent-replayed'}, '... no replay of alice\'s');
    isnt($r->{json}{job_id}, $job, '... a job of his own');

    is_deeply([ map { $_->{tenant} }
                ledger('tenants', 'SELECT tenant FROM jobs ORDER BY tenant') ],
              [qw(alice bob)], 'the ledger has one job per tenant');

    metrics_only_local('tenants', $base);
    stop_nginx(pop @running);
}


# ---------- tenants from a password file (auth_basic) ----------

{
    start_nginx('tenants-basic');
    my $base = "http://127.0.0.1:$port{http}";

    my $r = curl("$base/");
    is($r->{status}, 200, 'tenants-basic: the application needs no password');

    $r = upload($base, 'k1');
    is($r->{status}, 401, 'tenants-basic: an upload without a password: 401');
    $r = upload($base, 'k1', '-u', 'alice:wrong');
    is($r->{status}, 401, '... with a wrong one: 401');

    $r = upload($base, 'k1', '-u', 'alice:alice-password');
    is($r->{status}, 202, 'alice uploads');
    my $job = $r->{json}{job_id} // '';

    is(curl("$base/api/jobs/$job", '-u', 'alice:alice-password')->{status},
       200, 'alice sees her job');
    is(curl("$base/api/jobs/$job", '-u', 'bob:bob-password')->{status},
       404, 'bob does not');

    is_deeply([ map { $_->{tenant} } ledger('tenants-basic',
                                            'SELECT tenant FROM jobs') ],
              ['alice'], 'the tenant is the account');

    metrics_only_local('tenants-basic', $base);
    stop_nginx(pop @running);
}


# ---------- TLS + HTTP/2 ----------

{
    start_nginx('tls');
    my $https = "https://127.0.0.1:$port{https}";
    my @h2 = ('--http2', '--cacert', "$dir/tls/cert.pem");

    my $r = upload("http://127.0.0.1:$port{http}", 'tls-1');
    is($r->{status}, 308, 'tls: plain HTTP is redirected, as a POST');
    like($r->{headers}{location}, qr{^https://127\.0\.0\.1/api/videos\?},
         '... to https');

    $r = upload($https, 'tls-1', @h2);
    is($r->{proto}, 'HTTP/2', 'tls: the upload goes over HTTP/2');
    is($r->{status}, 202, '... and is admitted');
    my $job = $r->{json}{job_id} // '';
    is($r->{headers}{location}, "$https/api/jobs/$job",
       '... its Location is https');
    is($r->{headers}{'strict-transport-security'}, 'max-age=63072000',
       '... with HSTS');

    $r = upload($https, 'tls-1', @h2);
    is($r->{headers}{'idempotent-replayed'}, 'true', 'a retry over HTTP/2 is a replay');
    is($r->{json}{job_id}, $job, '... of the same job');

    $r = curl("$https/api/jobs/$job?format=json", @h2);
    is($r->{status}, 200, 'job status over HTTP/2');

    $r = curl("$https/dashboard", @h2);
    is($r->{status}, 200, 'the application over HTTP/2');
    like($r->{body}, qr/^x-forwarded-proto: https$/m, '... told it is https');

    metrics_only_local('tls', $https, @h2);
    stop_nginx(pop @running);
}

kill 'TERM', $app_pid;
waitpid $app_pid, 0;

done_testing();


# ---------- helpers ----------

sub free_port {
    my $s = IO::Socket::INET->new(LocalAddr => '127.0.0.1', LocalPort => 0,
                                  Listen => 1, ReuseAddr => 1)
        or die "no free port: $!\n";
    my $p = $s->sockport;
    close $s;
    return $p;
}


sub run_ok {
    my @cmd = @_;
    my $out = `@{[ join ' ', map { "'$_'" } @cmd ]} 2>&1`;
    die "@cmd failed: $out\n" if $?;
}


# The host-specific strings of the shipped files, for this test's
# directory and ports.
sub localise {
    my ($text, $name) = @_;
    my %map = (
        'modules/ngx_http_video_ocr_module.so'    => $module,
        '/var/lib/video-ocr'                      => "$dir/$name/lib",
        '/var/log/nginx'                          => "$dir/$name/logs",
        '/run/nginx.pid'                          => "$dir/$name/logs/nginx.pid",
        '/etc/ssl/certs/videos.example.com.pem'   => "$dir/tls/cert.pem",
        '/etc/ssl/private/videos.example.com.key' => "$dir/tls/key.pem",
        '/etc/nginx/video-ocr.htpasswd'           => "$dir/htpasswd",
        '127.0.0.1:3000'                          => "127.0.0.1:$port{app}",
    );
    for my $k (sort { length $b <=> length $a } keys %map) {
        $text =~ s/\Q$k\E/$map{$k}/g;
    }
    $text =~ s/^(\s*)listen 80;/${1}listen 127.0.0.1:$port{http};/mg;
    $text =~ s/^(\s*)listen 443 /${1}listen 127.0.0.1:$port{https} /mg;
    return $text;
}


# $dir/<name>/nginx.conf: nginx.conf.example, for a site with its server
# block replaced by "include conf.d/sites/<name>.conf", and a copy of
# conf.d/ next to it, all localised.
sub write_conf {
    my ($name) = @_;
    my $d = "$dir/$name";
    make_path("$d/conf.d/sites", "$d/logs", "$d/lib");
    chmod 0777, "$d/lib";

    for my $f (glob("$repo/conf.d/*.inc $repo/conf.d/*.conf"
                    . " $repo/conf.d/sites/*.conf")) {
        (my $rel = $f) =~ s{^\Q$repo\E/}{};
        write_file("$d/$rel", localise(read_file($f), $name));
    }

    my $conf = read_file("$repo/conf.d/nginx.conf.example");
    if ($name ne 'example') {
        -e "$repo/conf.d/sites/$name.conf" or die "no conf.d/sites/$name.conf";
        $conf =~ s/^    server \{\n.*?^    \}\n/    include conf.d\/sites\/$name.conf;\n/ms
            or die "nginx.conf.example: no server block to replace";
    }
    write_file("$d/nginx.conf", localise($conf, $name));

    return "$d/nginx.conf";
}


sub start_nginx {
    my ($name) = @_;
    my $out = `$nginx -p $dir/$name/ -c $conf{$name} 2>&1`;
    die "nginx ($name) did not start: $out\n" if $?;

    for (1 .. 100) {
        if (open my $fh, '<', "$dir/$name/logs/nginx.pid") {
            my $pid = <$fh> // '';
            if ($pid =~ /^(\d+)/) {
                push @running, $1;
                return;
            }
        }
        sleep 0.05;
    }
    die "nginx ($name) wrote no pid file\n";
}


sub stop_nginx {
    my ($pid) = @_;
    return unless $pid;
    kill 'QUIT', $pid;
    for (1 .. 200) {
        return unless kill 0, $pid;
        sleep 0.05;
    }
    kill 'KILL', $pid;
}


sub ledger {
    my ($name, $sql) = @_;
    my $dbh = DBI->connect("dbi:SQLite:dbname=$dir/$name/lib/ledger.db", '',
                           '', { RaiseError => 1, PrintError => 0,
                                 sqlite_open_flags => SQLITE_OPEN_READONLY });
    $dbh->sqlite_busy_timeout(5000);
    my $rows = $dbh->selectall_arrayref($sql, { Slice => {} });
    $dbh->disconnect;
    return @$rows;
}


# curl URL ARGS...: { status, proto, headers (lower-case names), body,
# json (when the body is JSON) }
sub curl {
    my ($url, @args) = @_;
    open my $fh, '-|', 'curl', '-s', '-S', '-i', '--max-time', '20',
        '-H', 'Expect:', @args, $url
        or die "curl: $!\n";
    local $/;
    my $raw = <$fh> // '';
    close $fh;

    my ($head, $body) = split /\r\n\r\n/, $raw, 2;
    my ($line, @lines) = split /\r\n/, $head // '';
    my ($proto, $status) = ($line // '') =~ m{^(HTTP/[\d.]+) (\d+)};
    my %h = map { my ($k, $v) = split /:\s*/, $_, 2; (lc $k, $v) } @lines;
    my $json = ($h{'content-type'} // '') =~ /json/
             ? eval { decode_json($body) } : undef;

    return { status => $status // 0, proto => $proto // '',
             headers => \%h, body => $body // '', json => $json };
}


sub upload {
    my ($base, $key, @args) = @_;
    return curl("$base/api/videos?lang=eng&fps=1",
                '-H', "Idempotency-Key: $key",
                '--data-binary', "\@$video_file", @args);
}


sub metrics_only_local {
    my ($what, $base, @args) = @_;
    my $r = curl("$base/metrics", @args);
    is($r->{status}, 200, "$what: /metrics answers 127.0.0.1");
    like($r->{body}, qr/^# TYPE video_ocr_\w+ /m,
         '... with the module\'s Prometheus text');
    $r = curl("$base/metrics", '--interface', '127.0.0.2', @args);
    is($r->{status}, 403, "$what: /metrics refuses 127.0.0.2");
}


sub big_file {
    my ($size) = @_;
    my $f = "$dir/big-$size";
    unless (-e $f) {
        open my $fh, '>', $f or die $!;
        truncate $fh, $size;
        close $fh;
    }
    return $f;
}


sub read_file {
    my ($f) = @_;
    open my $fh, '<', $f or die "$f: $!\n";
    local $/;
    return scalar <$fh>;
}


sub write_file {
    my ($f, $text) = @_;
    open my $fh, '>', $f or die "$f: $!\n";
    print {$fh} $text;
    close $fh or die "$f: $!\n";
}


# The application: one answer per connection.  GET /auth (the
# auth_request of tenants.conf) maps a bearer token to a tenant; every
# other request is echoed with the headers the front door added.
sub start_app {
    my ($port) = @_;
    my $srv = IO::Socket::INET->new(LocalAddr => '127.0.0.1',
                                    LocalPort => $port, Listen => 64,
                                    ReuseAddr => 1)
        or die "app: listen on $port: $!\n";

    my $pid = fork // die "fork: $!\n";
    return $pid if $pid;

    local $SIG{TERM} = sub { POSIX::_exit(0) };
    while (my $c = $srv->accept) {
        my $req = '';
        while ($req !~ /\r\n\r\n/) {
            my $n = sysread($c, my $buf, 65536) or last;
            $req .= $buf;
        }
        my ($method, $uri) = $req =~ /^(\S+) (\S+)/;
        my %h = $req =~ /^([\w-]+):[ \t]*(.*?)\r$/mg;
        %h = map { lc($_) => $h{$_} } keys %h;

        my ($status, @headers, $body) = ('200 OK');
        if (($uri // '') eq '/auth') {
            my ($token) = ($h{authorization} // '') =~ /^Bearer (\S+)$/;
            my %tenant = ('alice-token' => 'alice', 'bob-token' => 'bob');
            if ($token && $tenant{$token}) {
                ($status, @headers) = ('204 No Content',
                                       "X-Tenant: $tenant{$token}");
            } elsif (($token // '') eq 'anon-token') {
                $status = '204 No Content';
            } else {
                $status = '401 Unauthorized';
            }
            $body = '';
        } else {
            $body = "app: $method $uri\n"
                  . join('', map { "$_: $h{$_}\n" }
                                 grep { /^x-/ } sort keys %h);
        }

        print {$c} "HTTP/1.1 $status\r\n", map({ "$_\r\n" } @headers),
                   'Content-Length: ' . length($body) . "\r\n",
                   "Content-Type: text/plain\r\nConnection: close\r\n\r\n", $body;
        close $c;
    }
    POSIX::_exit(0);
}
