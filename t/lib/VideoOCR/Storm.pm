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
# nginx worker, reload nginx, ...).
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
                                   $hang))
                {
                    my ($status, $job, $replayed) = @$r;
                    print {$out} "$key $variant $size $status $job"
                                 . " $replayed $hang\n";
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
        sleep 0.1;
    }

    my @results;

    for my $c (0 .. $clients - 1) {
        open my $in, '<', "$dir/client-$c" or next;

        while (<$in>) {
            chomp;
            my %r;
            @r{qw(key variant size status job replayed hangup)} = split / /;
            push @results, \%r;
        }
    }

    return { results => \@results, seconds => time - $t0 };
}


# One upload to each of the ports, on new connections, all sent before
# any reply is read; [status, job_id, replayed] per port.  status 0: no
# reply (we hung up, or the connection was reset).
sub _upload {
    my ($ports, $key, $body, $hangup) = @_;
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
            push @out, [0, '-', 0];
            next;
        }

        my $raw = '';
        my $sel = IO::Select->new($s);

        while ($sel->can_read(30)) {
            my $n = sysread($s, my $buf, 16384);
            last unless $n;
            $raw .= $buf;
        }

        close $s;

        my ($status) = $raw =~ m{^HTTP/1\.1 (\d+)};
        my ($job) = $raw =~ /"job_id":"([0-9a-f]{32})"/;
        my $replayed = $raw =~ /^Idempotent-Replayed: true/mi ? 1 : 0;

        push @out, [$status // 0, $job // '-', $replayed];
    }

    return @out;
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
