package VideoOCR::Test;

# Helpers for the Test::Nginx suites of video-ocr: a fresh ledger and
# store per test block, direct reads of the ledger and the store, a raw
# HTTP client for what Test::Nginx blocks cannot say (concurrent clients,
# a client that hangs up before the reply), and small real videos made
# with ffmpeg.  Works the same under the real Test::Nginx::Socket and
# under t/compat.
#
# The ledger's backend: SQLite files, or PostgreSQL when
# VIDEO_OCR_TEST_PG names a database where we may create roles
# (scripts/test.sh starts a server for the PostgreSQL run).  Each ledger
# is then a role and a schema of the same name: the role's default
# search_path puts the tables there, so one database holds them all.

use strict;
use warnings;

use Cwd qw(abs_path);
use DBI;
use DBD::SQLite::Constants qw(:file_open);
use Digest::SHA;
use Exporter qw(import);
use File::Find;
use File::Path qw(make_path remove_tree);
use IO::Select;
use IO::Socket::INET;
use JSON::PP;
use POSIX qw(WNOHANG);
use Time::HiRes qw(sleep time);

our @EXPORT = qw(
    new_data_dir data_dir ledger_rows ledger_count store_files temp_files
    http_request upload parallel video_bytes video_file sha256_hex
    decode_json_body wait_for pg ledger_spec ledger_dbh hold_ledger_lock
    set_schema_version sql_json_int publish_result
);
our @EXPORT_OK = qw(nginx_t);

my $base = $ENV{TEST_NGINX_DATA_BASE}
           // abs_path('.') . '/t/servroot-data';
my $serial = 0;


# A new empty directory for one block's ledger and store, exported to the
# nginx configuration as $TEST_NGINX_DATA.  World-writable because nginx's
# worker processes may run as nobody.  With PostgreSQL a new empty ledger
# too; $TEST_NGINX_LEDGER names the block's ledger (a path or a URI).
sub new_data_dir {
    my $dir = "$base/$$-" . ++$serial;

    remove_tree($dir);
    make_path("$dir/store", "$dir/tmp");
    chmod 0777, $dir, "$dir/store", "$dir/tmp";

    $ENV{TEST_NGINX_DATA} = $dir;
    $ENV{TEST_NGINX_LEDGER} = pg() ? new_pg_ledger("t${$}_$serial")
                                   : "$dir/ledger.db";

    return $dir;
}


sub data_dir {
    return $ENV{TEST_NGINX_DATA} // die "new_data_dir() was not called\n";
}


sub ledger_spec {
    data_dir();
    return $ENV{TEST_NGINX_LEDGER};
}


# Whether this run's ledgers are PostgreSQL's.
sub pg {
    return $ENV{VIDEO_OCR_TEST_PG} ? 1 : 0;
}


# A fresh PostgreSQL ledger named $name: a role that may log in and a
# schema it owns, nothing in it (nginx or the worker create the tables).
# Returns its URI.
sub new_pg_ledger {
    my ($name) = @_;

    pg_admin("DROP SCHEMA IF EXISTS $name CASCADE",
             "DROP ROLE IF EXISTS $name", "CREATE ROLE $name LOGIN",
             "CREATE SCHEMA AUTHORIZATION $name");

    (my $uri = $ENV{VIDEO_OCR_TEST_PG}) =~ s{^(\w+://)[^@/]*@}{$1$name\@};

    return $uri;
}


# Statements run as the test server's superuser.
sub pg_admin {
    my (@sql) = @_;

    my ($dsn, $user) = _pg_dsn($ENV{VIDEO_OCR_TEST_PG});
    my $dbh = DBI->connect($dsn, $user, '', { RaiseError => 1,
                                              PrintError => 0,
                                              PrintWarn => 0 });
    $dbh->do($_) for @sql;
    $dbh->disconnect;
}


# Makes a ledger impossible to open (SQLite: the file moves away;
# PostgreSQL: its role may no longer log in); returns a sub undoing it.
sub break_ledger {
    my ($spec) = @_;

    if ($spec =~ m{^postgres(?:ql)?://([^:@/]+)@}) {
        my $role = $1;
        pg_admin("ALTER ROLE $role NOLOGIN");
        return sub { pg_admin("ALTER ROLE $role LOGIN") };
    }

    rename $spec, "$spec.away" or die "rename $spec: $!\n";
    return sub { rename "$spec.away", $spec or die "rename $spec: $!\n" };
}


# A DBI handle on a ledger (default: the block's), read-only unless rw.
sub ledger_dbh {
    my (%a) = @_;
    my $spec = $a{ledger} // ledger_spec();

    if ($spec =~ m{^postgres(?:ql)?://}) {
        my ($dsn, $user, $pass) = _pg_dsn($spec);
        my $dbh = DBI->connect($dsn, $user, $pass // '',
                               { RaiseError => 1, PrintError => 0,
                                 AutoCommit => 1 });
        $dbh->do('SET default_transaction_read_only = on') unless $a{rw};
        return $dbh;
    }

    my $dbh = DBI->connect("dbi:SQLite:dbname=$spec", '', '',
                           { RaiseError => 1, PrintError => 0,
                             $a{rw} ? ()
                                    : (sqlite_open_flags =>
                                           SQLITE_OPEN_READONLY) });
    $dbh->sqlite_busy_timeout(5000);

    return $dbh;
}


# postgresql://user[:password]@host:port/db -> (DBI dsn, user, password)
sub _pg_dsn {
    my ($uri) = @_;

    my ($user, $pass, $host, $port, $db) =
        $uri =~ m{^postgres(?:ql)?://(?:([^:@/]*)(?::([^@/]*))?@)?
                  ([^:/?]*)(?::(\d+))?/([^?]*)}x
        or die "not a PostgreSQL URI: $uri\n";

    return ("dbi:Pg:host=$host;port=" . ($port // 5432) . ";dbname=$db",
            $user, $pass);
}


# Rows of a query on the block's ledger (or ledger => spec), as hashes.
sub ledger_rows {
    my ($sql, @bind) = @_;
    my %a;

    %a = %{ shift @bind } if ref $bind[0] eq 'HASH';

    my $dbh = ledger_dbh(%a);
    my $rows = $dbh->selectall_arrayref($sql, { Slice => {} }, @bind);

    $dbh->disconnect;

    return @$rows;
}


# Holds a lock that stops every admission from another process for
# $seconds (SQLite: the write lock; PostgreSQL: an EXCLUSIVE lock on the
# admission's tables, or on tables => 'a, b'); returns its pid once the
# lock is taken.
sub hold_ledger_lock {
    my ($seconds, %a) = @_;

    pipe(my $r, my $w) or die "pipe: $!";
    my $pid = fork // die "fork: $!";

    if ($pid == 0) {
        close $r;
        my $dbh = ledger_dbh(ledger => $a{ledger}, rw => 1);
        my $pg = ($a{ledger} // ledger_spec()) =~ m{^postgres};
        $dbh->do($pg ? 'BEGIN' : 'BEGIN EXCLUSIVE');
        $dbh->do('LOCK TABLE ' . ($a{tables} // 'jobs, requests')
                 . ' IN EXCLUSIVE MODE') if $pg;
        print {$w} "locked\n";
        close $w;
        sleep($seconds);
        $dbh->do('ROLLBACK');
        POSIX::_exit(0);
    }

    close $w;
    my $ready = <$r>;
    die "lock helper failed\n" unless $ready && $ready eq "locked\n";
    return $pid;
}


# Plants a schema version in the block's empty ledger, as if a newer
# video-ocr had made it.
sub set_schema_version {
    my ($version) = @_;
    my $dbh = ledger_dbh(rw => 1);

    if (pg()) {
        $dbh->do('CREATE TABLE video_ocr_schema (version BIGINT NOT NULL)');
        $dbh->do('INSERT INTO video_ocr_schema VALUES (?)', undef, $version);
    } else {
        $dbh->do("PRAGMA user_version = $version");
    }

    $dbh->disconnect;
}


# Publishes $json as the result of $job (an upload's job) through the
# ledger's own publish, as video-ocr-worker does when it has read a video
# (t/lib/publish.c, built once from the worker's objects): the search
# index is written by it.  Dies with the helper's message on failure.
# With stale => 1, publishes under an attempt that no longer holds the
# job, and dies unless the publish is refused.
sub publish_result {
    my ($job, $json, %a) = @_;
    my $spec = $a{ledger} // ledger_spec();
    my $bin = _publish_helper();

    open(my $p, '|-', $bin, $spec, $job, $a{stale} ? ('stale') : ())
        or die "run $bin: $!\n";
    print {$p} $json;
    close $p or die "publish $job: the helper failed ($?)\n";
}


sub _publish_helper {
    my $build = $ENV{BUILD} // abs_path('build');
    my $bin = "$build/test-publish";
    my $src = abs_path('t/lib/publish.c');
    my @objs = glob("$build/worker/vo_*.o");

    die "no ledger objects in $build/worker: make build first\n"
        unless @objs;

    return $bin if -x $bin && (stat $bin)[9] >= (stat $src)[9]
                   && !grep { (stat $_)[9] > (stat $bin)[9] } @objs;

    my $tmp = "$bin.$$";
    my @pq = -e "$build/worker/vo_ledger_pg.o" ? ('-lpq') : ();

    system('cc', '-O1', '-std=c11', '-D_GNU_SOURCE', '-Isql', '-Ilib',
           "-I$build/worker", '-o', $tmp, $src, @objs, '-lsqlite3', @pq,
           '-lcrypto', '-lpthread', '-lm') == 0
        or die "cannot build $src\n";
    rename $tmp, $bin or die "rename $tmp: $!\n";

    return $bin;
}


# SQL for an integer member of a JSON column, in the ledger's dialect.
sub sql_json_int {
    my ($column, $key) = @_;
    return pg() ? "(${column}::jsonb ->> '$key')::bigint"
                : "json_extract($column, '\$.$key')";
}


sub ledger_count {
    my ($table, $where, @bind) = @_;

    my ($row) = ledger_rows("SELECT count(*) AS n FROM $table"
                            . ($where ? " WHERE $where" : ''), @bind);
    return $row->{n};
}


# Files under the store (relative paths), the client body temp files left
# behind, sorted.
sub store_files { return _files(data_dir() . '/store') }
sub temp_files  { return _files(data_dir() . '/tmp') }

sub _files {
    my ($root) = @_;
    my @files;

    return () unless -d $root;

    find({ no_chdir => 1, wanted => sub {
        push @files, substr($File::Find::name, length($root) + 1) if -f $_;
    } }, $root);

    return sort @files;
}


# One HTTP/1.1 request on a new connection.
#   method, uri, headers => [name => value, ...], body,
#   chunked => chunk size (send the body with chunked encoding),
#   hangup => 1 (close right after sending, never read the reply),
#   timeout => seconds (default 30)
# Returns { status, headers => { lowercase name => value }, body, raw }.
sub http_request {
    my (%a) = @_;

    my $port = Test::Nginx::Socket::server_port();
    my $sock = IO::Socket::INET->new(PeerAddr => '127.0.0.1',
                                     PeerPort => $port, Proto => 'tcp',
                                     Timeout => 5)
        or die "connect to 127.0.0.1:$port: $!\n";

    my $body = $a{body} // '';
    my @h = @{ $a{headers} // [] };
    my $req = ($a{method} // 'GET') . " $a{uri} HTTP/1.1\r\n"
              . "Host: localhost\r\nConnection: close\r\n";

    while (my ($k, $v) = splice(@h, 0, 2)) {
        $req .= "$k: $v\r\n";
    }

    if ($a{chunked}) {
        $req .= "Transfer-Encoding: chunked\r\n\r\n";
        for (my $off = 0; $off < length $body; $off += $a{chunked}) {
            my $part = substr($body, $off, $a{chunked});
            $req .= sprintf("%x\r\n", length $part) . $part . "\r\n";
        }
        $req .= "0\r\n\r\n";

    } elsif (defined $a{body}) {
        $req .= 'Content-Length: ' . length($body) . "\r\n\r\n" . $body;

    } else {
        $req .= "\r\n";
    }

    _send_all($sock, $req);

    if ($a{hangup}) {
        close $sock;
        return { status => 0, headers => {}, body => '', raw => '' };
    }

    my $raw = '';
    my $sel = IO::Select->new($sock);
    my $deadline = time + ($a{timeout} // 30);

    while (time < $deadline) {
        last unless $sel->can_read($deadline - time);
        my $n = sysread($sock, my $buf, 65536);
        last unless $n;
        $raw .= $buf;
    }

    close $sock;

    my ($head, $resp_body) = split /\r\n\r\n/, $raw, 2;
    my ($status_line, @lines) = split /\r\n/, $head // '';
    my ($status) = ($status_line // '') =~ m{^HTTP/1\.[01] (\d{3})};
    my %headers = map { my ($k, $v) = split /:\s*/, $_, 2; (lc $k => $v) }
                  @lines;

    if (($headers{'transfer-encoding'} // '') =~ /chunked/i) {
        my $plain = '';
        while ($resp_body =~ s/^([0-9a-fA-F]+)\r\n//) {
            my $len = hex $1;
            last if $len == 0;
            $plain .= substr($resp_body, 0, $len, '');
            $resp_body =~ s/^\r\n//;
        }
        $resp_body = $plain;
    }

    return { status => $status // 0, headers => \%headers,
             body => $resp_body // '', raw => $raw };
}


# POST an upload to uri (default /upload) with an Idempotency-Key.
sub upload {
    my ($key, $body, %a) = @_;

    my @headers = defined $key ? ('Idempotency-Key' => $key) : ();
    push @headers, @{ $a{headers} } if $a{headers};

    return http_request(method => 'POST', uri => $a{uri} // '/upload',
                        headers => \@headers, body => $body,
                        chunked => $a{chunked}, hangup => $a{hangup});
}


# Runs $code->($i) in $n processes at once; returns their return values
# (strings), in order of $i.
sub parallel {
    my ($n, $code) = @_;
    my (%pipes, @out);

    for my $i (0 .. $n - 1) {
        pipe(my $r, my $w) or die "pipe: $!\n";
        my $pid = fork // die "fork: $!\n";

        if ($pid == 0) {
            close $r;
            my $v = eval { $code->($i) };
            $v = "died: $@" if $@;
            print {$w} $v // '';
            close $w;
            POSIX::_exit(0);
        }

        close $w;
        $pipes{$i} = [$pid, $r];
    }

    for my $i (0 .. $n - 1) {
        my ($pid, $r) = @{ $pipes{$i} };
        local $/;
        $out[$i] = <$r>;
        close $r;
        waitpid $pid, 0;
    }

    return @out;
}


# A small real video (H.264 in MP4 unless told otherwise), made once per
# run with ffmpeg and cached; distinct seeds give distinct bytes.
sub video_file {
    my (%a) = @_;

    my $seed = $a{seed} // 0;
    my $ext = $a{ext} // 'mp4';
    my $dir = "$base/videos";
    my $file = "$dir/sample-$seed.$ext";

    return $file if -s $file;

    make_path($dir);

    my $text = $a{text} // "SAMPLE $seed";
    my @cmd = ('ffmpeg', '-loglevel', 'error', '-y', '-f', 'lavfi',
               '-i', "color=c=black:s=320x240:d=" . ($a{seconds} // 2),
               '-vf', "drawtext=fontfile=/usr/share/fonts/truetype/dejavu/"
                      . "DejaVuSans.ttf:text='$text':fontcolor=white:"
                      . "fontsize=32:x=20:y=100",
               '-c:v', 'libx264', '-pix_fmt', 'yuv420p', "$file.tmp.$ext");

    system(@cmd) == 0 or die "ffmpeg failed: @cmd\n";
    rename "$file.tmp.$ext", $file or die "rename $file: $!\n";

    return $file;
}


sub video_bytes {
    my $file = video_file(@_);

    open my $fh, '<:raw', $file or die "$file: $!\n";
    local $/;
    my $bytes = <$fh>;
    close $fh;

    return $bytes;
}


sub sha256_hex {
    return Digest::SHA::sha256_hex($_[0]);
}


sub decode_json_body {
    my ($resp) = @_;
    return eval { JSON::PP->new->decode($resp->{body}) } // {};
}


# "nginx -t" of a minimal configuration in $a{dir} (with logs/ and
# store/): the module, the ledger $a{ledger}, one intake location, and
# $a{main} (e.g. a "user" line) at the top.  Returns (exit code, output).
sub nginx_t {
    my (%a) = @_;
    my $dir = $a{dir};
    my $main = $a{main} // '';

    open my $fh, '>', "$dir/nginx.conf" or die $!;
    print {$fh} <<"CONF";
load_module $a{module};
$main
error_log $dir/logs/error.log;
pid $dir/logs/nginx.pid;
events {}
http {
    video_ocr_ledger "$a{ledger}";
    video_ocr_store $dir/store;
    server {
        listen 127.0.0.1:1999;
        location = /upload { video_ocr_intake; }
    }
}
CONF
    close $fh;

    my $out = `$a{nginx} -t -p $dir -c $dir/nginx.conf 2>&1`;
    return ($? >> 8, $out);
}


# Polls $cond every 50 ms for up to $seconds; returns its last value.
sub wait_for {
    my ($seconds, $cond) = @_;
    my $deadline = time + $seconds;
    my $v;

    until (($v = $cond->()) || time >= $deadline) {
        sleep 0.05;
    }

    return $v;
}


sub _send_all {
    my ($sock, $data) = @_;

    while (length $data) {
        my $n = syswrite($sock, $data);
        die "write: $!\n" unless defined $n;
        substr($data, 0, $n, '');
    }
}


1;
