# Self-test of the Test::Nginx harness: every section and setting the
# compat harness in t/compat supports, against the stock nginx only (no
# project module), each used so that a harness bug fails a test.  Also
# valid under openresty's Test::Nginx::Socket; see docs/testing.md.

use Test::Nginx::Socket;
use IO::Socket::INET;

# An upstream that never answers: the kernel completes the handshakes on
# this listening socket, and nothing ever reads or writes on them.
our $Blackhole = IO::Socket::INET->new(
    Listen    => 16,
    LocalAddr => '127.0.0.1',
    LocalPort => 0,
    Proto     => 'tcp',
) or die "cannot listen on 127.0.0.1: $@";
$ENV{TEST_NGINX_BLACKHOLE_PORT} = $Blackhole->sockport;

# The real harness does not set this one itself.
$ENV{TEST_NGINX_HTML_DIR} ||= html_dir();

repeat_each(2);
worker_connections(128);
env_to_nginx('TEST_NGINX_HARNESS_ENV=on');

# Blocks named "master ..." run with a master process and a worker.
add_block_preprocessor(sub {
    my $block = shift;
    if ($block->name =~ /master/) {
        master_on();
    } else {
        master_off();
    }
});

# --- conf_has: lines the generated nginx.conf must contain, or (eval) an
# array of snippets it must contain; one test.
add_response_body_check(sub {
    my ($block, $body, $req_idx, $repeated_req_idx, $dry_run) = @_;
    my $want = $block->conf_has or return;
    open my $in, '<', server_root() . '/conf/nginx.conf'
        or die "cannot read nginx.conf: $!";
    my $conf = do { local $/; <$in> };
    my @missing = grep { index($conf, $_) < 0 }
                  ref $want ? @$want : split /\n/, $want;
    ok(!@missing, $block->name . " - nginx.conf has the expected lines "
                  . "(req $repeated_req_idx)")
        or diag("missing: @missing\n$conf");
});

# 109 tests per repeat (counting rules in docs/testing.md); a harness that
# counts differently from the real one fails the plan.
plan tests => repeat_each() * 109;

run_tests();

__DATA__

=== TEST 1: sanity
--- config
    location = /t {
        return 200 "hello\n";
    }
--- request
GET /t
--- response_body
hello
--- no_error_log
[error]
--- no_check_leak



=== TEST 2: request line defaults, comments, Host and Connection
--- config
    location = /echo {
        return 200 "$request_method $request_uri $server_protocol host=$http_host conn=$http_connection len=$http_content_length\n";
    }
--- request
# the harness drops comment lines before the request line
GET /echo?a=1
--- response_headers
Content-Type: text/plain
!X-Missing
--- response_body
GET /echo?a=1 HTTP/1.1 host=localhost conn=close len=



=== TEST 3: method only, the default root location and its index.html
--- config
--- request
GET
--- response_headers_like
Content-Type: text/html
Last-Modified: \w+, \d+ \w+ \d+ [\d:]+ GMT
--- response_body_like: ^<html>.*It works!.*</html>$



=== TEST 4: HTTP/1.0 request, raw response headers
--- config
    location = /echo {
        return 200 "$request_method $request_uri $server_protocol host=$http_host conn=$http_connection len=$http_content_length\n";
    }
--- request
GET /echo HTTP/1.0
--- error_code: 200
--- raw_response_headers_like: ^HTTP/1\.1 200 OK\r\nServer: nginx/
--- raw_response_headers_unlike: Transfer-Encoding
--- response_body
GET /echo HTTP/1.0 host=localhost conn=close len=



=== TEST 5: error_code, error_page, error_log lines, grep_error_log
--- config
    error_page 404 /custom404;
    location = /custom404 {
        internal;
        return 200 "custom not found\n";
    }
--- request
GET /nope.html
--- error_code: 404
--- response_body
custom not found
--- error_log
open() "
/nope.html" failed (2: No such file or directory)
--- no_error_log
[alert]
[crit]
--- grep_error_log: No such file or directory
--- grep_error_log_out
No such file or directory



=== TEST 6: error_log, no_error_log and grep_error_log with eval
--- config
    location = /t {
        return 200 "ok\n";
    }
--- request
GET /t
--- response_body
ok
--- error_log eval
[qr/\[debug\] \d+#\d+: \*\d+ http request line: "GET \/t HTTP\/1\.1"/,
 "http finalize request: 0"]
--- no_error_log eval
[qr/\[(?:error|crit|alert|emerg)\]/, "open() "]
--- grep_error_log eval
qr/http request line: "[^"]+"/
--- grep_error_log_out eval
["http request line: \"GET /t HTTP/1.1\"\n",
 "http request line: \"GET /t HTTP/1.1\"\n"]



=== TEST 7: per-block log_level
--- log_level: warn
--- config
--- request
GET /missing.txt
--- error_code: 404
--- error_log
No such file or directory
--- no_error_log
[debug]
[info]



=== TEST 8: request body with a computed Content-Length, more_headers
--- config
    location = /body {
        proxy_pass http://127.0.0.1:$TEST_NGINX_SERVER_PORT/echo;
        add_header X-Body "[$request_body]" always;
        add_header X-Got "$http_x_test" always;
    }
    location = /echo {
        return 200 "$request_method $request_uri $server_protocol host=$http_host conn=$http_connection len=$http_content_length\n";
    }
--- more_headers
X-Test: abc
# the harness drops comment lines in more_headers
--- request
POST /body
hello world
--- response_headers
X-Body: [hello world]
X-Got: abc
--- response_body
POST /echo HTTP/1.0 host=127.0.0.1:$ServerPort conn=close len=11



=== TEST 9: chunked request body: no Content-Length, body sent as is
--- config
    location = /body {
        proxy_pass http://127.0.0.1:$TEST_NGINX_SERVER_PORT/echo;
        add_header X-Body "[$request_body]" always;
    }
    location = /echo {
        return 200 "$request_method $request_uri\n";
    }
--- more_headers
Transfer-Encoding: chunked
--- request eval
"POST /body
5\r
hello\r
0\r
\r
"
--- response_headers
X-Body: [hello]
--- response_body_like: ^POST /echo$



=== TEST 10: several requests, with per-request expectations
--- config
    add_header X-N-Echo "$http_x_n" always;
    location = /echo {
        return 200 "n=$http_x_n\n";
    }
--- request eval
["GET /echo", "GET /missing.txt"]
--- more_headers eval
["X-N: zero", "X-N: one"]
--- error_code eval
[200, 404]
--- response_headers eval
["X-N-Echo: zero", "X-N-Echo: one"]
--- response_body eval
["n=zero\n", qr{<title>404 Not Found</title>}]
--- error_log
http request line



=== TEST 11: pipelined requests on one keep-alive connection
--- user_files
>>> p.txt
xxx
--- config
    location = /sub {
        alias $TEST_NGINX_HTML_DIR/p.txt;
        sub_filter 'x' 'y';
        sub_filter_once off;
        sub_filter_types *;
    }
    location = /echo {
        return 200 "$request_uri conn=$http_connection\n";
    }
--- pipelined_requests eval
["GET /sub", "GET /echo?p=2"]
--- response_headers eval
["Connection: keep-alive\nTransfer-Encoding: chunked", "Connection: close"]
--- response_body eval
["yyy\n", "/echo?p=2 conn=close\n"]
--- no_error_log
[error]



=== TEST 12: raw_request is sent as is
--- config
    location = /echo {
        return 200 "$request_method $request_uri $server_protocol host=$http_host conn=$http_connection len=$http_content_length\n";
    }
--- raw_request eval
"GET /echo HTTP/1.0\r\nHost: raw.example\r\n\r\n"
--- response_body
GET /echo HTTP/1.0 host=raw.example conn= len=



=== TEST 13: raw_request chunks are written separately, with a delay
--- config
    location = /echo {
        return 200 "host=$http_host conn=$http_connection\n";
    }
--- raw_request eval
["GET /echo HTTP/1.1\r\nHost: chunks.example\r\n",
 "Connection: close\r\n\r\n"]
--- raw_request_middle_delay: 0.1
--- response_body
host=chunks.example conn=close
--- grep_error_log eval
qr/recv: fd:\d+ \d+ of \d+/
--- grep_error_log_out eval
qr/\Arecv: fd:\d+ 42 of \d+\nrecv: fd:\d+ 21 of \d+\n\z/



=== TEST 14: a request in packets, one with delay_before
--- config
    location = /body {
        proxy_pass http://127.0.0.1:$TEST_NGINX_SERVER_PORT/echo;
        add_header X-Body "[$request_body]" always;
    }
    location = /echo {
        return 200 "len=$http_content_length\n";
    }
--- request eval
[["POST /body\nhel", {value => "lo", delay_before => 0.1}]]
--- response_headers
X-Body: [hello]
--- response_body
len=5
--- grep_error_log eval
qr/http client request body (?:preread|rest) \d+/
--- grep_error_log_out
http client request body preread 3
http client request body rest 2
http client request body rest 0



=== TEST 15: user_files with a date, TEST_NGINX_HTML_DIR, chunked response
--- user_files
>>> a.txt
hello world
>>> sub/b.txt 199801171935.33
dated
--- config
    location = /a {
        alias $TEST_NGINX_HTML_DIR/a.txt;
        sub_filter 'world' 'there';
        sub_filter_types *;
    }
    location = /b {
        alias $TEST_NGINX_HTML_DIR/sub/b.txt;
    }
--- request eval
["GET /a", "GET /b"]
--- response_headers eval
["Transfer-Encoding: chunked\n!Content-Length",
 "Last-Modified: Sat, 17 Jan 1998 19:35:33 GMT\nContent-Length: 6"]
--- response_body eval
["hello there\n", "dated\n"]



=== TEST 16: user_files from eval
--- user_files eval
[["c.txt", "from eval\n"]]
--- config
    location = /c {
        alias $TEST_NGINX_HTML_DIR/c.txt;
    }
--- request
GET /c
--- response_body
from eval



=== TEST 17: must_die on a configuration error, which error.log shows
--- config
    location = /t {
        bogus_directive_for_must_die;
    }
--- must_die
--- error_log
[emerg]
unknown directive "bogus_directive_for_must_die"
--- no_error_log
[alert]



=== TEST 18: must_die with an exit code
--- http_config
    server {
        listen unix:/nonexistent-dir-for-harness-test/nginx.sock;
    }
--- config
--- must_die: 1
--- error_log
[emerg]
bind() to unix:/nonexistent-dir-for-harness-test/nginx.sock failed



=== TEST 19: timeout with abort: no response, no failure
--- config
    location = /slow {
        proxy_pass http://127.0.0.1:$TEST_NGINX_BLACKHOLE_PORT;
        proxy_connect_timeout 1500ms;
        proxy_read_timeout 1500ms;
    }
--- request
GET /slow
--- timeout: 0.5
--- abort
--- error_code:
--- error_log
client prematurely closed connection



=== TEST 20: wait before the error log checks
--- config
    location = /slow {
        proxy_pass http://127.0.0.1:$TEST_NGINX_BLACKHOLE_PORT;
        proxy_ignore_client_abort on;
        proxy_read_timeout 1s;
    }
--- request
GET /slow
--- timeout: 200ms
--- abort
--- wait: 1.5
--- error_code:
--- error_log
upstream timed out



=== TEST 21: master process, workers run as root
--- init
my $file = html_dir() . "/secret.txt";
open my $out, '>', $file or die "cannot write $file: $!";
print $out "root only\n";
close $out;
chmod 0600, $file or die "chmod: $!";
--- config
    location = /secret {
        alias $TEST_NGINX_HTML_DIR/secret.txt;
    }
--- request
GET /secret
--- response_body
root only
--- conf_has
master_process on;



=== TEST 22: nginx.conf layout, main_config and http_config
--- main_config
worker_rlimit_nofile 512;
--- http_config
    map $server_port $port_ok {
        $TEST_NGINX_SERVER_PORT yes;
        default no;
    }
--- config
    location = /t {
        return 200 "port_ok=$port_ok\n";
    }
--- request
GET /t
--- response_body
port_ok=yes
--- conf_has eval
my $root = Test::Nginx::Util::server_root();
my $port = $ENV{TEST_NGINX_SERVER_PORT};
[
    "worker_processes  1;\ndaemon on;\nmaster_process off;\n"
    . "error_log $root/logs/error.log debug;\n"
    . "pid       $root/logs/nginx.pid;\n",
    "env TEST_NGINX_HARNESS_ENV=on;",
    "worker_rlimit_nofile 512;",
    "http {\n    access_log $root/logs/access.log;",
    "default_type text/plain;\n    keepalive_timeout  68;",
    "    server {\n        listen          $port;\n"
    . "        server_name     'localhost';\n\n"
    . "        client_max_body_size 30M;\n",
    "        location / {\n            root $root/html;\n"
    . "            index index.html index.htm;\n        }\n    }\n}\n",
    "events {\n    accept_mutex off;\n\n    worker_connections  128;\n}\n",
    "env MOCKNOEAGAIN;\n" . ($> == 0 ? "user root;\n" : ''),
]



=== TEST 23: skip_nginx skips the block's tests
--- config
    location = /t {
        return 200 "not skipped\n";
    }
--- request
GET /t
--- response_body
this block must be skipped
--- skip_nginx: 2: >= 0.0.1



=== TEST 24: skip_nginx and skip_eval that do not skip
--- config
    location = /t {
        return 200 "not skipped\n";
    }
--- request
GET /t
--- response_body
not skipped
--- skip_nginx: 2: < 0.0.1
--- skip_eval: 2: 0



=== TEST 25: skip_eval skips the block's tests
--- config
    location = /t {
        return 200 "not skipped\n";
    }
--- request
GET /t
--- response_body
this block must be skipped
--- skip_eval: 2: $^O ne 'no-such-os'



=== TEST 26: ignore_response
--- config
    location = /t {
        return 500;
    }
--- request
GET /t
--- ignore_response
--- error_log
http request line



=== TEST 27: error_code_like, response_headers_like, response_body_unlike
--- config
    location = /t {
        add_header X-Num 12345;
        return 201 "created\n";
    }
--- request
GET /t
--- error_code_like: ^20[01]$
--- response_headers_like
X-Num: \d+
Server: nginx/[\d.]+
--- response_body_unlike: ^not



=== TEST 28: $ServerPort in expected headers, qr// response_body
--- config
    location = /t {
        add_header X-Port $server_port;
        return 200 "hello $server_port\n";
    }
--- request
GET /t
--- response_headers
X-Port: $ServerPort
--- response_body eval
qr/\Ahello \d+\n\z/



=== TEST 29: a SKIP block is not run
--- config
    location = /t {
        return 200 "ok\n";
    }
--- request
GET /t
--- response_body
this block must not run
--- SKIP



=== TEST 30: the LAST block
--- config
    location = /t {
        return 200 "last\n";
    }
--- request
GET /t
--- response_body
last
--- LAST



=== TEST 31: after LAST, never run
--- config
    location = /t {
        return 200 "ok\n";
    }
--- request
GET /t
--- response_body
this block must not run
