package VideoOCR::Storm;

# An admission storm against a VideoOCR::Stack, and the check of its
# invariants against the ledger and the store:
#
#   my $r = VideoOCR::Storm::run($stack, clients => 64, uploads => 2048,
#                                chaos => sub { ... });
#   my @problems = VideoOCR::Storm::check($stack, $r);
#
# Each client process makes its share of uploads: a new key (78 %), a
# retry of one of its keys with the same body (15 %), one of its keys
# with another body (2 %), or one of a few keys every client uses at once
# with the same body (5 %: concurrent arrivals of one intent).  A share of
# the uploads hang up right after sending the body (the lost response).
# Bodies are small MP4-looking payloads of 1 to 32 KiB.  chaos, if given,
# is called every 100 ms in the parent while the clients run (kill -9 an
# nginx worker, reload nginx, ...).  until, if given, is called as
# often: once it returns true the clients stop after the upload they are
# making (uploads is then a ceiling).  backoff => S: a client that got a
# 503 waits S to 2S seconds before its next upload, as Retry-After asks.
# reply_timeout => S: how long a client waits for a byte of the answer
# (30 s).
#
# Several front ends on one ledger (ports => [$a->port, $b->port]): each
# upload goes to one of them at random; with twins => 1 each upload is
# sent to two of them at the same moment (both requests written before
# either reply is read), so every key races itself across front ends.
#
# What check verifies, by the numbers of the invariants at the top of
# sql/schema.sql:
#   4: every 202 any client saw is in the ledger (a receipt for its key
#      naming the job the client was told) and the job's input is in the
#      store with the recorded byte count: nothing acknowledged is lost;
#   1, 3: one receipt per key, one job per receipt;
#   2: for each key, every upload of the committed body got that receipt
#      (202) and every upload of another body got 422;
#   9: no file in the store belongs to no job (after the janitor's sweep,
#      where killed nginx workers left orphans).
# Each problem it returns names the invariant it breaks.

use strict;
use warnings;

use Digest::SHA qw(sha256_hex);
use File::Find;
use IO::Select;
use IO::Socket::INET;
use List::Util ();
use POSIX ();
use Time::HiRes qw(sleep time);


sub body {
    my ($key, $variant, $size) = @_;
    my $head = "\0\0\0\x18ftypisom\0\0\x02\0isomiso2";
    my $seed = sha256_hex("$key/$variant");
    my $fill = substr($seed x (int($size / 64) + 1), 0, $size - length $head);
    return $head . $fill;
}


sub run {
    my ($stack, %a) = @_;

    my $clients = $a{clients} // 64;
    my $uploads = $a{uploads} // 2048;
    my $hangup  = $a{hangup} // 0.05;
    my @ports   = @{ $a{ports} // [$stack->port] };
    my $twins   = $a{twins} && @ports > 1;
    my $per     = int($uploads / $clients) || 1;
    my $dir     = $stack->dir . '/storm';
    my $t0      = time;

    mkdir $dir;

    my @pids;

    for my $c (0 .. $clients - 1) {
        my $pid = fork // die "fork: $!\n";

        if ($pid == 0) {
            srand($$ ^ time);
            open my $out, '>', "$dir/client-$c" or POSIX::_exit(1);
            my @mine;

            for my $i (1 .. $per) {
                last if $a{until} && -e "$dir/stop";

                my $r = rand;
                my ($key, $variant);

                if ($r < 0.05) {
                    $key = 'shared-' . int(rand 4);
                    $variant = 'A';
                } elsif ($r < 0.20 && @mine) {
                    $key = $mine[rand @mine];
                    $variant = 'A';
                } elsif ($r < 0.22 && @mine) {
                    $key = $mine[rand @mine];
                    $variant = 'B';
                } else {
                    $key = "c$c-$i";
                    $variant = 'A';
                    push @mine, $key;
                }

                # the size is a function of the key: retries resend it
                my $size = 1024 + hex(substr(sha256_hex($key), 0, 4)) % 31744;
                my $hang = rand() < $hangup ? 1 : 0;
                my @to = $twins ? (List::Util::shuffle(@ports))[0, 1]
                                : ($ports[rand @ports]);

                for my $r (_upload(\@to, $key, body($key, $variant, $size),
                                   $hang, $a{reply_timeout}))
                {
                    my ($status, $job, $replayed, $timeout) = @$r;
                    print {$out} "$key $variant $size $status $job"
                                 . " $replayed $hang $timeout\n";
                    sleep($a{backoff} * (1 + rand))
                        if $a{backoff} && $status == 503;
                }
            }

            close $out;
            POSIX::_exit(0);
        }

        push @pids, $pid;
    }

    my %left = map { $_ => 1 } @pids;

    while (%left) {
        for my $pid (keys %left) {
            delete $left{$pid} if waitpid($pid, POSIX::WNOHANG()) == $pid;
        }

        last unless %left;

        $a{chaos}->() if $a{chaos};

        if ($a{until} && !-e "$dir/stop" && $a{until}->()) {
            open my $stop, '>', "$dir/stop" or die "$dir/stop: $!\n";
            close $stop;
        }

        sleep 0.1;
    }

    return { results => [_results(map { "$dir/client-$_" }
                                  0 .. $clients - 1)],
             seconds => time - $t0 };
}


# The lines the clients wrote, one hash per upload.
sub _results {
    my (@files) = @_;
    my @results;

    for my $file (@files) {
        open my $in, '<', $file or next;

        while (<$in>) {
            chomp;
            my %r;
            @r{qw(key variant size status job replayed hangup timeout)}
                = split / /;
            push @results, \%r;
        }
    }

    return @results;
}


# One upload to each of the ports, on new connections, all sent before
# any reply is read; [status, job_id, replayed, timeout] per port.
# status 0: no reply (we hung up, or the connection was reset, or no
# byte came for $wait s, default 30: timeout 1).
sub _upload {
    my ($ports, $key, $body, $hangup, $wait) = @_;
    my @socks;

    my $req = "POST /upload HTTP/1.1\r\nHost: localhost\r\n"
              . "Connection: close\r\nIdempotency-Key: $key\r\n"
              . 'Content-Length: ' . length($body) . "\r\n\r\n$body";

    for my $port (@$ports) {
        my $s = IO::Socket::INET->new(PeerAddr => '127.0.0.1',
                                      PeerPort => $port, Proto => 'tcp',
                                      Timeout => 10);
        my $left = $req;

        while ($s && length $left) {
            my $n = syswrite($s, $left);
            undef $s unless defined $n;
            substr($left, 0, $n, '') if defined $n;
        }

        close $s if $s && $hangup;
        push @socks, $hangup ? undef : $s;
    }

    my @out;

    for my $s (@socks) {
        if (!$s) {
            push @out, [0, '-', 0, 0];
            next;
        }

        my ($raw, $timeout) = ('', 1);
        my $sel = IO::Select->new($s);

        while ($sel->can_read($wait // 30)) {
            my $n = sysread($s, my $buf, 16384);

            if (!$n) {
                $timeout = 0;
                last;
            }

            $raw .= $buf;
        }

        close $s;

        my ($status) = $raw =~ m{^HTTP/1\.1 (\d+)};
        my ($job) = $raw =~ /"job_id":"([0-9a-f]{32})"/;
        my $replayed = $raw =~ /^Idempotent-Replayed: true/mi ? 1 : 0;

        push @out, [$status // 0, $job // '-', $replayed, $timeout];
    }

    return @out;
}


# Sends once more, to $port (answers awaited $wait s, default 30), every
# upload of the run that got no answer
# or a 503 (a lost response, a request in a worker that was killed or
# exited, a refusal while the ledger was away), once per key and body,
# 16 at a time, and adds
# the answers to the run's results (checked by check like the others);
# returns them.
sub retry_unanswered {
    my ($run, $port, $dir, $wait) = @_;
    my %seen;
    my @todo = grep { ($_->{status} == 0 || $_->{status} == 503)
                      && !$seen{"$_->{key} $_->{variant}"}++ }
               @{ $run->{results} };
    my @pids;

    mkdir $dir;

    for my $c (0 .. 15) {
        my $pid = fork // die "fork: $!\n";

        if ($pid == 0) {
            open my $out, '>', "$dir/retry-$c" or POSIX::_exit(1);

            for (my $i = $c; $i < @todo; $i += 16) {
                my $t = $todo[$i];
                my ($r) = _upload([$port], $t->{key},
                                  body($t->{key}, $t->{variant}, $t->{size}),
                                  0, $wait);
                print {$out} join(' ', @$t{qw(key variant size)}, @$r[0 .. 2],
                                  0, $r->[3]), "\n";
            }

            close $out;
            POSIX::_exit(0);
        }

        push @pids, $pid;
    }

    waitpid $_, 0 for @pids;

    my @retries = _results(map { "$dir/retry-$_" } 0 .. 15);

    push @{ $run->{results} }, @retries;

    return @retries;
}


# One line of the counts check gave: uploads, time, receipts, statuses.
sub summary {
    my ($stats) = @_;
    return sprintf('%d uploads in %.1f s, %d receipts; %s', $stats->{uploads},
                   $stats->{seconds}, $stats->{receipts},
                   join(', ', map { "$_: $stats->{$_}" }
                              sort grep { /^status/ } keys %$stats));
}


# Returns a list of problems (empty: every invariant holds), and fills
# $stats with counts.
sub check {
    my ($stack, $run, $stats) = @_;
    my (@problems, %receipt, %jobs);

    for my $row ($stack->rows('SELECT r.request_key, r.job_id,'
                              . ' r.input_digest, j.input_path,'
                              . ' j.input_size, j.input_sha256,'
                              . ' j.media_deleted_at FROM requests r'
                              . ' JOIN jobs j ON j.job_id = r.job_id'))
    {
        push @problems, "invariant 1: two receipts for $row->{request_key}"
            if $receipt{$row->{request_key}};
        $receipt{$row->{request_key}} = $row;
    }

    for my $row ($stack->rows('SELECT job_id, input_path, input_size,'
                              . ' media_deleted_at FROM jobs'))
    {
        $jobs{$row->{job_id}} = $row;
    }

    push @problems, sprintf('invariant 3: %d jobs for %d receipts',
                            scalar keys %jobs,
                            scalar keys %receipt)
        if keys %jobs != keys %receipt;

    my %count;

    for my $r (@{ $run->{results} }) {
        $count{"status $r->{status}"}++;
        my $rec = $receipt{$r->{key}};

        if ($r->{status} == 202) {
            if (!$rec) {
                push @problems, "invariant 4: 202 for $r->{key} but no receipt";
                next;
            }

            push @problems, "invariant 4: 202 for $r->{key} named $r->{job},"
                            . " the receipt"
                            . " names $rec->{job_id}"
                if $r->{job} ne $rec->{job_id};

            my $want = sha256_hex(body($r->{key}, $r->{variant}, $r->{size}));
            push @problems, "invariant 2: 202 for $r->{key} variant"
                            . " $r->{variant}, but"
                            . " the stored body is another"
                if $want ne $rec->{input_sha256};

        } elsif ($r->{status} == 422) {
            my $want = sha256_hex(body($r->{key}, $r->{variant}, $r->{size}));
            push @problems, "invariant 2: 422 for $r->{key} variant"
                            . " $r->{variant}, which"
                            . " is the stored body"
                if $rec && $want eq $rec->{input_sha256};

        } elsif ($r->{status} != 0 && $r->{status} != 503) {
            push @problems, "unexpected $r->{status} for $r->{key}";
        }
    }

    # the store holds exactly the inputs of the jobs
    my %files;
    my $store = $stack->store;

    find({ no_chdir => 1, wanted => sub {
        return unless -f $_;
        my $rel = substr($File::Find::name, length($store) + 1);
        return if $rel =~ m{^\.incoming/};
        $files{$rel} = -s $_;
    } }, $store);

    for my $job (values %jobs) {
        next if $job->{media_deleted_at};

        if (!defined $files{$job->{input_path}}) {
            push @problems, "invariant 4: job $job->{job_id}: input"
                            . " $job->{input_path}"
                            . " missing";
        } elsif ($files{$job->{input_path}} != $job->{input_size}) {
            push @problems, "invariant 4: job $job->{job_id}: input has"
                            . " $files{$job->{input_path}} bytes, not"
                            . " $job->{input_size}";
        }

        delete $files{$job->{input_path}};
    }

    push @problems, "invariant 9: file $_ belongs to no job"
        for sort keys %files;

    if ($stats) {
        %$stats = (%count, receipts => scalar keys %receipt,
                   uploads => scalar @{ $run->{results} },
                   seconds => $run->{seconds});
    }

    return @problems;
}


1;
