package Test::Nginx::Socket;

# A small Test::Nginx::Socket compatible harness: runs .t files written in
# the block format of openresty's Test::Nginx::Socket (=== TEST n, ---
# config, --- request, --- response_body, --- error_log, ...) against the
# nginx in TEST_NGINX_BINARY.  Used only when the real Test::Nginx is not
# installed; scripts/test.sh puts t/compat on PERL5LIB in that case.
#
# This file: the block runner, the request builder, a raw-socket HTTP
# client and the checks, with the real harness's test names and counts.
# Test::Nginx::Util: settings, server root, nginx.conf, nginx processes.
# docs/testing.md: the supported sections and the known differences.

use strict;
use warnings;

use Test::Base -base;
use Test::Nginx::Util qw(:DEFAULT
    $ErrLogFilePos $NginxVersion $NoShuffle $RepeatEach
    $ServerName $ServerPort $ServerPortForClient @BlockPreprocessors
    canon_version cleanup error_log_data expand_env_in_text launch_nginx
    nginx_version parse_time setup_server_root start_nginx stop_nginx
    wait_for_pid_file write_config_file write_user_files
);

use HTTP::Response ();
use IO::Select ();
use IO::Socket::INET ();
use List::Util qw(min shuffle);
use POSIX qw(EAGAIN EWOULDBLOCK);
use Scalar::Util qw(looks_like_number);
use Test::More ();
use Time::HiRes qw(sleep);

our @EXPORT = (@Test::Nginx::Util::EXPORT,
               qw(run_tests add_response_body_check));

our @ResponseBodyChecks;

# Custom checks run after the response_body checks of every response:
# $check->($block, $body, $req_idx, $repeated_req_idx, $dry_run).
sub add_response_body_check ($) {
    push @ResponseBodyChecks, shift;
}

# Sections of the real harness that this one does not implement.  A block
# using one aborts the run rather than silently passing without the check.
my @Unsupported = qw(
    access_log charset curl curl_error curl_options curl_protocol
    error_log_file http09 http2 http3 no_access_log no_shutdown_error_log
    post_main_config quic_max_idle_timeout reload_fails request_eval
    response_body_eval response_body_filters server_addr_for_client
    server_name shutdown shutdown_error_log skip_nginx2 skip_openssl
    skip_slave stap stap_out stap_out_like stap_out_unlike tcp_listen
    tcp_no_close tcp_query tcp_query_len tcp_reply tcp_reply_delay
    tcp_shutdown tcp_shutdown_delay todo todo_nginx udp_listen udp_query
    udp_reply udp_reply_delay
);

# Whether a block has set up an nginx yet: a block without --- config
# uses the previous block's.
my $HaveServer;

sub run_tests () {
    $NginxVersion = nginx_version();
    $ENV{TEST_NGINX_SERVER_PORT} //= $ServerPort;

    my @blocks = Test::Base::blocks();
    @blocks = shuffle @blocks unless $NoShuffle;

    for my $block (@blocks) {
        $_->($block) for @BlockPreprocessors;
        run_block($block);
    }

    cleanup();
}

sub run_block {
    my $block = shift;
    my $name  = $block->name;

    for my $section (@Unsupported) {
        bail_out("$name - --- $section is not supported by the "
                 . "Test::Nginx compatible harness in t/compat")
            if exists $block->{$section};
    }

    local $Test::Nginx::Util::LogLevel =
        $block->log_level || $Test::Nginx::Util::LogLevel;

    my ($skip_count, $skip_reason) = skip_spec($block);

    # Without --- config the real harness keeps the previous block's nginx
    # running, untouched.
    my $config = $block->config;
    if (!defined $config && !$HaveServer) {
        bail_out("$name - No '--- config' section specified and could "
                 . "not get previous one.");
    }

    if (defined $config && !defined $skip_count) {
        $config = expand_env_in_text($config, $name);
        stop_nginx($name);
        setup_server_root();
        write_user_files($block);
        write_config_file($block, $config);
        $HaveServer = 1;

        return run_must_die($block) if defined $block->must_die;

        start_nginx($name);
    }

    if (my $init = $block->init) {
        eval "package Test::Nginx::Util; $init; 1"
            or bail_out("$name - init failed: $@");
    }

    $ErrLogFilePos = 0;
    for my $rep (0 .. $RepeatEach - 1) {
        write_user_files($block) if $rep > 0;
        if (defined $skip_count) {
            SKIP: {
                Test::More::skip("$name - $skip_reason", $skip_count);
            }
            next;
        }
        run_requests($block, $rep);
    }
}

# --- skip_eval "N: perl code" and --- skip_nginx "N: op x.y.z[: reason]":
# (N, reason) when the block's N tests are to be skipped, else ().
sub skip_spec {
    my $block = shift;
    my $name  = $block->name;
    my ($count, $reason, $skip);

    if (defined(my $spec = $block->skip_eval)) {
        if ($spec =~ /^\s*(\d+)\s*:\s*(.*)/s) {
            ($count, $reason) = ($1, 'skip_eval');
            my $code = $2;
            $skip = eval "package Test::Nginx::Util; $code";
            bail_out("$name - skip_eval - failed to eval the Perl code "
                     . "\"$code\": $@") if $@;
        }
    }

    if (defined(my $spec = $block->skip_nginx)) {
        $spec =~ /^\s*(\d+)\s*:\s*([<>]=?)\s*(\d+)\.(\d+)\.(\d+)
                  (?:\s*:\s*(.*))?\s*$/x
            or bail_out("$name - Invalid --- skip_nginx spec: $spec");
        my ($op, $ver) = ($2, canon_version($3, $4, $5));
        ($count, $reason) = ($1, $6 || "nginx version $op $3.$4.$5");
        my %cmp = ('<'  => sub { $_[0] <  $_[1] },
                   '<=' => sub { $_[0] <= $_[1] },
                   '>'  => sub { $_[0] >  $_[1] },
                   '>=' => sub { $_[0] >= $_[1] });
        $skip ||= $cmp{$op}->($NginxVersion, $ver);
    }

    return $skip ? ($count, $reason) : ();
}

# --- must_die: nginx must fail to start, with the given exit code if the
# section has a number.  Instead of requests, only the error log checks
# run, once for each repeat_each.
sub run_must_die {
    my $block    = shift;
    my $name     = $block->name;
    my $expected = $block->must_die;

    $ErrLogFilePos = 0;
    for my $rep (0 .. $RepeatEach - 1) {
        my ($status, $stderr) = launch_nginx();
        if ($status >> 8 == 127 && $stderr =~ /^exec .* failed/) {
            Test::More::fail("$name - failed to execute the nginx command line");
        } elsif ($status & 127) {
            Test::More::fail("$name - nginx died of signal " . ($status & 127)
                             . ($status & 128 ? ' (core dumped)' : ''));
        } elsif (looks_like_number($expected)) {
            Test::More::is($status >> 8, $expected + 0,
                           "$name - die with the expected exit code");
        } else {
            Test::More::isnt($status, 0, "$name - die as expected");
        }

        check_error_log($block, $rep);

        if ($status == 0) {
            warn "WARNING: $name - nginx must die but it does not; "
                 . "killing it (req $rep)\n";
            wait_for_pid_file($name);
            stop_nginx($name);
        }
    }
}

# ---------------------------------------------------------------------------
# Requests.

# Sends the block's requests for one repeat and runs the checks on each
# response.  The error log checks run after each response (each time on
# the lines logged since the previous check) and after --- wait.
sub run_requests {
    my ($block, $rep) = @_;
    my $name = $block->name;

    my $requests  = requests_of($block);
    my $pipelined = $block->pipelined_requests;
    my $nresp     = $pipelined ? @$pipelined : @$requests;
    my $need_array = $pipelined ? 1 : @$requests > 1;

    my $timeout = parse_time($block->timeout) // timeout();

    my $idx = 0;
    for my $packets (@$requests) {
        my $raw  = send_request($block, $packets, $timeout);
        my $head = join('', map { $_->{value} } @$packets) =~ /^\s*HEAD\s+/;

        # a pipelined request has all its responses on one connection
        my $responses = $pipelined ? $nresp : 1;
        for (1 .. $responses) {
            my $left;
            if (!defined $block->ignore_response) {
                my ($res, $raw_headers);
                ($res, $raw_headers, $left) =
                    parse_response($name, $raw // '', $head);
                check_response($block, $res, $raw_headers, $idx, $rep,
                               $need_array);
            }

            if ($pipelined) {
                $raw = $left;
            } elsif (defined $left && length $left) {
                (my $shown = $left)
                    =~ s/([\0-\037\200-\377])/sprintf('\x{%02x}', ord $1)/eg;
                warn "WARNING: $name - unexpected extra bytes after last "
                     . "chunk in response: \"$shown\"\n";
            }

            if ($idx < $nresp - 1) {
                sleep $block->wait if $block->wait;
                check_error_log($block, $rep);
            }
            $idx++;
        }
    }

    sleep $block->wait if $block->wait;
    check_error_log($block, $rep);
}

# The block's requests: a list of requests, each a list of packets
# ({value => bytes, delay_before => secs}) written with one syswrite each.
sub requests_of {
    my $block = shift;
    my $name  = $block->name;

    if (defined(my $raw = $block->raw_request)) {
        return [[map { +{ value => $_ } } ref $raw eq 'ARRAY' ? @$raw : $raw]];
    }

    my $more = $block->more_headers // '';

    if (defined(my $reqs = $block->pipelined_requests)) {
        bail_out("$name - invalid entries in --- pipelined_requests")
            unless ref $reqs eq 'ARRAY';
        my $all = '';
        for my $i (0 .. $#$reqs) {
            my $conn = $i == $#$reqs ? 'close' : 'keep-alive';
            my $req = build_request($name, more_headers_for($name, $more, $i),
                                    $conn, [{ value => $reqs->[$i] }]);
            $all .= join '', map { $_->{value} } @$req;
        }
        return [[{ value => $all }]];
    }

    my $request = $block->request;
    bail_out("$name - Request line should be non-empty")
        unless defined $request;

    if (!ref $request) {
        # leading blank and comment lines are not part of the request
        1 while $request =~ s/\A(?:\s*#[^\n]+\s+|\s+)//;
        return [build_request($name, more_headers_for($name, $more, 0),
                              'close', [{ value => $request }])];
    }

    bail_out("$name - invalid ---request : MUST be string or array of "
             . "requests") unless ref $request eq 'ARRAY';

    my @list;
    for my $i (0 .. $#$request) {
        my $one = $request->[$i];
        my @packets;
        if (!ref $one) {
            @packets = ({ value => $one });
        } elsif (ref $one eq 'ARRAY') {
            for my $p (@$one) {
                push @packets, !ref $p ? { value => $p }
                             : ref $p eq 'HASH' ? { %$p }
                             : bail_out("$name - Invalid syntax. $p should "
                                        . "be a string or hash with value.");
            }
        } else {
            bail_out("$name - Invalid syntax. $one should be a string or an "
                     . "array of packets.");
        }
        push @list, build_request($name, more_headers_for($name, $more, $i),
                                  'close', \@packets);
    }
    return \@list;
}

# --- more_headers for request $i: the section, or its $i-th element when
# it is an array (eval).  Returns the header lines and whether they ask
# for a chunked request body.
sub more_headers_for {
    my ($name, $more, $i) = @_;
    if (ref $more eq 'ARRAY') {
        $more = $more->[$i];
        bail_out("$name - --- more_headers lacks data for the request $i")
            unless defined $more;
    }

    my ($headers, $chunked) = ('', 0);
    for my $line (split /\n+/, $more) {
        next if $line =~ /^\s*#/;
        my ($key, $val) = split /:\s*/, $line, 2;
        $val //= '';
        $chunked = 1 if lc $key eq 'transfer-encoding' && $val eq 'chunked';
        $headers .= "$key: $val\r\n";
    }
    return { headers => $headers, chunked => $chunked };
}

# Turns "METHOD [URI [VERSION]]\n[body]", possibly split in packets, into
# an HTTP request: "METHOD URI VERSION" (defaults / and HTTP/1.1), Host
# and Connection unless more_headers has them, more_headers, and a
# Content-Length for the (then trimmed) body unless the request is chunked
# or more_headers has one.  The packets keep their boundaries: a boundary
# inside a rewritten part of the request moves with it.
sub build_request {
    my ($name, $more, $conn, $packets) = @_;
    my $hdr = $more->{headers};

    my $whole = join '', map { $_->{value} // '' } @$packets;
    my ($first, $content) = $whole =~ /\A([^\n]*\n?)(.*)\z/s;
    bail_out("$name - Request line should be non-empty") if $first eq '';
    $first =~ /^(\s*)(\S+)(\ *)(?:(\S+)(\ *))?(?:(\S+)(\ *))?(\s*)$/x
        or bail_out("$name - Request line is not valid. Should be 'meth "
                    . "[url [version]]' but got \"$first\".");
    my ($lead, $meth, $sp1, $uri, $sp2, $ver, $sp3, $eol) =
        ($1, $2, $3, $4, $5 // '', $6, $7 // '', $8);

    my $body_len = length($whole) - length($first);
    my $len_header = '';
    if (!$more->{chunked} && $content ne ''
        && $hdr !~ /(?:^|\n)Content-Length:/)
    {
        $content =~ s/^\s+|\s+$//g;
        $len_header = "Content-Length: " . length($content) . "\r\n";
    }

    $hdr =~ s/(?<!\r)\n/\r\n/g;
    my $headers = '';
    $headers .= "Host: $ServerName\r\n" if $hdr !~ /(?:^|\n)Host:/i;
    $headers .= "Connection: $conn\r\n" if $hdr !~ /(?:^|\n)Connection/i;
    $headers .= "$hdr$len_header\r\n";

    # [length in the original, replacement], in order
    my @parts = (
        [length $lead, ''],
        [length $meth, "$meth "],
        [length $sp1, ''],
        [length($uri // ''), ($uri // '/') . ' '],
        [length $sp2, ''],
        [length($ver // ''), ($ver // 'HTTP/1.1') . "\r\n"],
        [length($sp3) + length($eol), ''],
        [0, $headers],
        [$body_len, $content],
    );
    my $text = join '', map { $_->[1] } @parts;

    my @out;
    my ($from, $orig) = (0, 0);
    for my $i (0 .. $#$packets) {
        $orig += length($packets->[$i]{value} // '');
        my $to = $i == $#$packets ? length $text : new_offset(\@parts, $orig);
        push @out, { %{ $packets->[$i] },
                     value => substr($text, $from, $to - $from) };
        $from = $to;
    }
    return \@out;
}

# Where offset $at of the original request lands in the rewritten one:
# parts before it count whole, an insertion right at it goes before it,
# and a rewritten part it cuts keeps as many leading bytes.
sub new_offset {
    my ($parts, $at) = @_;
    my ($orig, $new) = (0, 0);
    for my $part (@$parts) {
        my ($len, $repl) = @$part;
        if ($orig + $len <= $at) {
            $orig += $len;
            $new += length $repl;
            next;
        }
        return $new + min($at - $orig, length $repl);
    }
    return $new;
}

# ---------------------------------------------------------------------------
# The HTTP client: one connection per request, the packets written in
# order (sleeping delay_before, or --- raw_request_middle_delay, before
# each but the first), then the response read until nginx closes the
# connection.  $timeout bounds the wait for each I/O event; when it
# expires the socket is closed and, unless --- abort, a test fails.

sub send_request {
    my ($block, $packets, $timeout) = @_;
    my $name = $block->name;

    my $sock = connect_server($name, $timeout) or return undef;
    $sock->blocking(0);
    local $SIG{PIPE} = 'IGNORE';

    my @queue  = @$packets;
    my $middle = $block->raw_request_middle_delay;
    my $buf    = (shift @queue)->{value} // '';
    my $off    = 0;
    my $writing = 1;
    my $resp   = '';
    my $sel    = IO::Select->new($sock);

    IO: while (1) {
        $! = 0;
        my ($readable, $writable) =
            IO::Select->select($sel, $writing ? $sel : undef, undef, $timeout);
        if (!defined $readable) {
            next IO if $!{EINTR};
            Test::More::fail("ERROR: client socket timed out - $name\n")
                unless defined $block->abort;
            last IO;
        }

        while ($writing && @$writable) {
            if ($off < length $buf) {
                my $n = syswrite $sock, $buf, length($buf) - $off, $off;
                if (!defined $n) {
                    last if $! == EAGAIN || $! == EWOULDBLOCK;
                    # the response may still be readable
                    warn "WARNING: $name - write failed: $!\n";
                    $writing = 0;
                    last;
                }
                $off += $n;
                next;
            }
            my $next = shift @queue;
            if (!$next) {
                $writing = 0;
                last;
            }
            my $delay = $next->{delay_before} // $middle;
            sleep $delay if $delay;
            ($buf, $off) = ($next->{value} // '', 0);
        }

        next IO unless @$readable;
        while (1) {
            my $n = sysread $sock, my $chunk, 4096;
            if (!defined $n) {
                next IO if $! == EAGAIN || $! == EWOULDBLOCK;
                warn "WARNING: $name - HTTP response read failure: $!\n";
                last IO;
            }
            last IO if $n == 0;
            $resp .= $chunk;
        }
    }

    close $sock;
    return $resp;
}

# Connects, retrying for a few seconds (nginx listens once it has written
# its pid file, but the retries cost nothing when it already does).
sub connect_server {
    my ($name, $timeout) = @_;
    my $addr = server_addr();
    my ($err, $tries) = ('', 20);
    for my $try (1 .. $tries) {
        my $sock = IO::Socket::INET->new(
            PeerAddr => $addr,
            PeerPort => $ServerPortForClient,
            Proto    => 'tcp',
            Timeout  => $timeout,
        );
        return $sock if $sock;
        $err = $@ || $!;
        sleep min(0.05 * $try, 0.5) if $try < $tries;
    }
    Test::More::fail("$name - Can't connect to $addr:$ServerPortForClient: "
                     . "$err (aborted)\n");
    return undef;
}

# ($response, $raw_headers, $bytes_after_the_response).  The body is
# de-chunked, or cut at Content-Length; a malformed chunked body fails a
# test and gives ().
sub parse_response {
    my ($name, $raw, $head) = @_;

    my $raw_headers = $raw =~ /\A(.*?\r\n)\r\n/s ? $1 : '';
    my $res = HTTP::Response->parse($raw);
    my $code = $res->code;
    $res->code(undef) if defined $code && $code !~ /^\d+$/;
    return ($res, $raw_headers)
        if $res->code && ($res->code == 304 || $res->code == 101);

    my $left;
    my $te   = $res->header('Transfer-Encoding');
    my $len  = $res->header('Content-Length');
    my $body = $res->content // '';

    if (defined $te && $te eq 'chunked') {
        my $decoded = decode_chunked($name, $body, \$left);
        return unless defined $decoded;
        $res->content($decoded);
    } elsif (defined $len && $len =~ /^\d+$/) {
        if (length $body < $len) {
            warn "WARNING: $name - response body truncated: $len expected, "
                 . "but got " . length($body) . "\n" unless $head;
        } elsif (length $body > $len) {
            $left = substr $body, $len;
            $res->content(substr $body, 0, $len);
        }
    }

    return ($res, $raw_headers, $left);
}

sub decode_chunked {
    my ($name, $raw, $left) = @_;
    my $out = '';
    while (1) {
        if ($raw !~ /\G[ \t]*([0-9A-Fa-f]+)[ \t]*(?:;[^\r\n]*)?\r\n/gc) {
            my $rest = substr $raw, pos($raw) // 0;
            Test::More::fail(length $rest
                ? "$name - invalid chunked body received: $rest"
                : "$name - no last chunk found - $raw");
            return undef;
        }
        my $size = hex $1;
        if ($size == 0) {
            1 while $raw =~ /\G[^\r\n]+\r\n/gc;      # trailer fields
            if ($raw !~ /\G\r\n/gc) {
                Test::More::fail("$name - no last chunk found - $raw");
                return undef;
            }
            $$left = substr $raw, pos $raw;
            return $out;
        }
        my $at = pos $raw;
        if (length($raw) - $at < $size) {
            Test::More::fail("$name - invalid chunked data received (not "
                             . "enough octets for the data section)");
            return undef;
        }
        $out .= substr $raw, $at, $size;
        pos($raw) = $at + $size;
        if ($raw !~ /\G\r\n/gc) {
            Test::More::fail("$name - invalid chunked data received "
                             . "(expected CRLF).");
            return undef;
        }
    }
}

# ---------------------------------------------------------------------------
# Checks on a response.

# The expected value for response $idx: with several responses the
# section must be an array (eval) with one element per response.
sub indexed {
    my ($name, $value, $idx, $need_array) = @_;
    if (ref $value eq 'ARRAY') {
        return $value->[$need_array ? $idx : 0];
    }
    bail_out("$name - You asked for many requests, the expected results "
             . "should be arrays as well.") if $need_array;
    return $value;
}

sub check_response {
    my ($block, $res, $raw_headers, $idx, $rep, $need_array) = @_;
    my $name = $block->name;
    # --- error_code / --- error_code_like (default: 200)
    my $code = ($res && $res->code) || '';
    if (defined $block->error_code_like) {
        my $pat = indexed($name, $block->error_code_like, $idx, $need_array);
        Test::More::like($code, qr/$pat/sm, "$name - status code ok");
    } elsif (defined $block->error_code) {
        Test::More::is($code, indexed($name, $block->error_code, $idx,
                                      $need_array), "$name - status code ok");
    } else {
        Test::More::is($code, 200, "$name - status code ok");
    }

    # --- raw_response_headers_like / _unlike: the status line and headers
    if (defined $block->raw_response_headers_like) {
        my $pat = indexed($name, $block->raw_response_headers_like, $idx,
                          $need_array);
        Test::More::like($raw_headers, qr/$pat/s,
                         "$name - raw resp headers like");
    }
    if (defined $block->raw_response_headers_unlike) {
        my $pat = indexed($name, $block->raw_response_headers_unlike, $idx,
                          $need_array);
        Test::More::unlike($raw_headers, qr/$pat/s,
                           "$name - raw resp headers unlike");
    }

    # --- response_headers ("Name: value", "!Name" for absent), else
    # --- response_headers_like ("Name: regex", anchored)
    if (defined $block->response_headers) {
        my $spec = indexed($name, $block->response_headers, $idx, $need_array);
        for my $h (parse_headers($spec)) {
            my ($key, $val) = @$h;
            if (!defined $val) {
                Test::More::unlike($raw_headers // '', qr/^\s*\Q$key\E\s*:/ms,
                    "$name - header $key not present in the raw headers");
                next;
            }
            $val = with_ports($val);
            my $got = $res ? $res->header($key) : undef;
            Test::More::is($got // '', $val, "$name - header $key ok");
        }
    } elsif (defined $block->response_headers_like) {
        my $spec = indexed($name, $block->response_headers_like, $idx,
                           $need_array);
        for my $h (parse_headers($spec)) {
            my ($key, $val) = @$h;
            my $got = $res ? $res->header($key) : undef;
            Test::More::like($got // '', qr/^$val$/,
                             "$name - header $key like ok");
        }
    }

    # --- response_body (a string, or a qr// with eval), else
    # --- response_body_like / --- response_body_unlike
    my $content = $res ? $res->content : undef;
    if (defined $block->response_body) {
        my $expected = indexed($name, $block->response_body, $idx,
                               $need_array);
        my $what = "(repeated req $rep, req $idx)";
        if (ref $expected) {
            Test::More::like($content, $expected,
                             "$name - response_body - like $what");
        } else {
            is_str($content, with_ports($expected),
                   "$name - response_body - response is expected $what");
        }
    } elsif (defined $block->response_body_like
             || defined $block->response_body_unlike)
    {
        my $type = defined $block->response_body_like ? 'like' : 'unlike';
        my $method = "response_body_$type";
        my $pat = with_ports(indexed($name, $block->$method, $idx,
                                     $need_array));
        my $summary = trim($content);
        my $cmp = $type eq 'like' ? \&Test::More::like : \&Test::More::unlike;
        $cmp->($content, qr/$pat/s,
               "$name - response_body_$type - response is expected ($summary)");
    }

    for my $check (@ResponseBodyChecks) {
        $check->($block, $content, $idx, $rep, 0);
    }
}

# Expected values may say $ServerPort and $ServerPortForClient.
sub with_ports {
    my $s = shift;
    return $s if !defined $s || ref $s;
    $s =~ s/\$ServerPort\b/$ServerPort/g;
    $s =~ s/\$ServerPortForClient\b/$ServerPortForClient/g;
    return $s;
}

# "Name: value" lines to [name, value] pairs, value undef for "!Name" (or
# a line without a colon); a repeated name keeps its last value.
sub parse_headers {
    my $spec = shift;
    my (@order, %value);
    for my $line (split /\n/, $spec) {
        $line =~ s/^\s+|\s+$//g;
        next if $line eq '';
        my ($key, $val);
        if ($line =~ s/^!\s*//) {
            $key = $line;
        } else {
            ($key, $val) = split /\s*:\s*/, $line, 2;
        }
        push @order, $key unless exists $value{$key};
        $value{$key} = $val;
    }
    return map { [$_, $value{$_}] } @order;
}

sub trim {
    my $s = shift;
    return '' unless defined $s;
    $s =~ s/^\s+|\s+$//g;
    $s =~ s/\n/ /g;
    $s =~ s/\s{2,}/ /g;
    return $s;
}

# ---------------------------------------------------------------------------
# Checks on the error log: --- grep_error_log/--- grep_error_log_out,
# --- error_log (each pattern must match a line), --- no_error_log (no
# pattern may match a line).  A string section holds one pattern a line,
# matched as a substring; with eval, a qr// or an array of strings and
# qr//s.  Only the lines logged since the previous check are looked at
# unless check_accum_error_log().

sub check_error_log {
    my ($block, $rep) = @_;
    my $name  = $block->name;
    my $lines = error_log_data();

    my $grep     = $block->grep_error_log;
    my $grep_out = $block->grep_error_log_out;
    if (defined $grep) {
        $grep = $grep->[$rep] if ref $grep eq 'ARRAY';
    } elsif (defined $grep_out) {
        bail_out("$name - No --- grep_error_log defined but "
                 . "--- grep_error_log_out is defined");
    }
    if (defined $grep) {
        bail_out("$name - No --- grep_error_log_out defined but "
                 . "--- grep_error_log is defined") unless defined $grep_out;
        my $expected = ref $grep_out eq 'ARRAY' ? $grep_out->[$rep]
                                                : $grep_out;
        my $matched = '';
        for my $line (@$lines) {
            my $hit = ref $grep ? ($line =~ $grep ? $& : undef)
                    : index($line, $grep) >= 0 ? $grep : undef;
            $matched .= "$hit\n" if defined $hit && $hit !~ /\n/;
        }
        is_str($matched, $expected, "$name - grep_error_log_out (req $rep)");
    }

    if (defined(my $pats = $block->error_log)) {
        for my $pat (patterns($pats)) {
            if (grep { line_matches($_, $pat) } @$lines) {
                Test::More::pass("$name - pattern \"$pat\" matches a line in "
                                 . "error.log (req $rep)");
            } else {
                Test::More::fail("$name - pattern \"$pat\" should match a line "
                                 . "in error.log (req $rep)");
            }
        }
    }

    if (defined(my $pats = $block->no_error_log)) {
        for my $pat (patterns($pats)) {
            my $p = fmt_str($pat);
            my @hits = grep { line_matches($lines->[$_], $pat) } 0 .. $#$lines;
            for my $i (@hits) {
                my $ln = fmt_str($lines->[$i]);
                my $after = join '', @$lines[$i + 1 .. min($i + 9, $#$lines)];
                Test::More::fail("$name - pattern \"$p\" should not match any "
                    . "line in error.log but matches line \"$ln\" (req $rep)\n"
                    . $after);
            }
            Test::More::pass("$name - pattern \"$p\" does not match a line in "
                             . "error.log (req $rep)") unless @hits;
        }
    }

    # Alerts, critical and emergency messages nobody asked about are shown.
    for my $level (qw(alert crit emerg)) {
        next if grep { defined && value_contains($_, "[$level") }
                $block->error_log, $block->no_error_log;
        for my $line (grep { /\[$level\]/ } @$lines) {
            warn "WARNING: $name - " . fmt_str($line) . "\n";
        }
    }

    for my $line (grep { /\bAssertion .*?failed\b/ } @$lines) {
        chomp(my $msg = $line);
        Test::More::fail("$name - $msg\n");
    }
}

sub patterns {
    my $v = shift;
    return grep { defined } @$v if ref $v eq 'ARRAY';
    return $v if ref $v;
    chomp $v;
    return split /\n+/, $v;
}

sub line_matches {
    my ($line, $pat) = @_;
    return ref $pat ? $line =~ $pat : index($line, $pat) >= 0;
}

sub value_contains {
    my ($val, $str) = @_;
    return grep { value_contains($_, $str) } @$val if ref $val eq 'ARRAY';
    return index("$val", $str) >= 0;
}

sub fmt_str {
    my $s = shift;
    chomp $s;
    $s =~ s/"/\\"/g;
    $s =~ s/\r/\\r/g;
    $s =~ s/\n/\\n/g;
    return $s;
}

1;
