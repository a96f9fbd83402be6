package Test::Nginx::Util;

# Server side of the Test::Nginx compatible harness: the settings that a
# test file changes with exported functions (repeat_each, workers,
# log_level, ...), the server root in t/servroot, the generated nginx.conf
# and the life cycle of the nginx under test (start, stop, leftovers).
#
# Used only when openresty's Test::Nginx is not installed (scripts/test.sh
# puts t/compat on PERL5LIB in that case).  Written from the documented
# behaviour of Test::Nginx::Socket 0.29/0.30; the generated nginx.conf has
# the same layout, line for line, as the one of the real harness, so that
# "nginx.conf:NN" in error messages means the same thing under both.
# docs/testing.md lists what is supported and how it differs.

use strict;
use warnings;

use Exporter 'import';
use Carp qw(croak);
use File::Path qw(make_path remove_tree);
use File::Spec ();
use POSIX ();
use Test::LongString ();
use Test::More ();
use Time::HiRes qw(sleep time);

our @EXPORT = qw(
    add_block_preprocessor add_cleanup_handler bail_out
    check_accum_error_log env_to_nginx html_dir is_str log_level
    master_off master_on no_long_string no_root_location no_shuffle
    repeat_each server_addr server_port server_root timeout
    worker_connections workers
);

# For Test::Nginx::Socket, not for test files.
our @EXPORT_OK = qw(
    $ErrLogFilePos $NginxVersion $NoShuffle $RepeatEach
    $ServerName $ServerPort $ServerPortForClient
    @BlockPreprocessors
    canon_version cleanup error_log_data expand_env_in_text launch_nginx
    nginx_version parse_time setup_server_root start_nginx stop_nginx
    wait_for_pid_file write_config_file write_user_files
);

# ---------------------------------------------------------------------------
# Settings: environment defaults, changed by the exported functions.

our $NginxBinary       = $ENV{TEST_NGINX_BINARY} || 'nginx';
our $LoadModules       = $ENV{TEST_NGINX_LOAD_MODULES} // '';
our $ServerAddr        = '127.0.0.1';
our $ServerName        = 'localhost';
our $ServerPort        = $ENV{TEST_NGINX_SERVER_PORT} || $ENV{TEST_NGINX_PORT}
                         || 1984;
our $ServerPortForClient = $ENV{TEST_NGINX_CLIENT_PORT} || $ServerPort;
our $Timeout           = $ENV{TEST_NGINX_TIMEOUT} || 3;
our $TestNginxSleep    = $ENV{TEST_NGINX_SLEEP} || 0.015;
our $LogLevel          = $ENV{TEST_NGINX_LOG_LEVEL} || 'debug';
our $MasterProcess     = $ENV{TEST_NGINX_MASTER_PROCESS} || 'off';
our $NoShuffle         = $ENV{TEST_NGINX_NO_SHUFFLE} || 0;
our $CheckAccumErrLog  = $ENV{TEST_NGINX_CHECK_ACCUM_ERR_LOG};
our $WorkerUser        = $ENV{TEST_NGINX_WORKER_USER};
our $RepeatEach        = 1;
our $Workers           = 1;
our $WorkerConnections = 64;
our $NoLongString;
our $NoRootLocation;
our @EnvToNginx;
our @BlockPreprocessors;
our @CleanupHandlers;

if (defined $WorkerUser && $WorkerUser !~ /^\w+(?:\s+\w+)?$/) {
    die "Bad value in the env TEST_NGINX_WORKER_USER: $WorkerUser\n";
}

# ---------------------------------------------------------------------------
# The server root, emptied and recreated for each test block.

our $ServRoot = $ENV{TEST_NGINX_SERVROOT} || File::Spec->rel2abs('t/servroot');
$ENV{TEST_NGINX_SERVER_ROOT} = $ServRoot;

our $LogDir     = "$ServRoot/logs";
our $ErrLogFile = "$LogDir/error.log";
our $AccLogFile = "$LogDir/access.log";
our $HtmlDir    = "$ServRoot/html";
our $ConfDir    = "$ServRoot/conf";
our $ConfFile   = "$ConfDir/nginx.conf";
our $PidFile    = "$LogDir/nginx.pid";
# nginx's own stderr while it starts (its startup messages also go to
# error.log, see launch_nginx)
our $StartupStderr = "$LogDir/startup.stderr";

# nginx -V, as a number comparable to canon_version(): 1.022001 for 1.22.1
our $NginxVersion;

# where the unread part of error.log starts
our $ErrLogFilePos = 0;

my $OwnerPid = $$;

# ---------------------------------------------------------------------------
# Exported settings functions.  Like the real ones, a setter called
# without an argument returns the current value.

sub repeat_each (@) {
    $RepeatEach = shift if @_;
    return $RepeatEach;
}

sub workers (@) {
    $Workers = shift if @_;
    return $Workers;
}

sub worker_connections (@) {
    $WorkerConnections = shift if @_;
    return $WorkerConnections;
}

sub log_level (@) {
    $LogLevel = shift if @_;
    return $LogLevel;
}

sub timeout (@) {
    $Timeout = shift if @_;
    return $Timeout;
}

sub server_port (@) {
    $ServerPort = shift if @_;
    return $ServerPort;
}

sub server_addr (@) {
    $ServerAddr = shift if @_;
    return $ServerAddr;
}

sub master_on ()  { $MasterProcess = 'on' }
sub master_off () { $MasterProcess = 'off' }

sub no_shuffle ()            { $NoShuffle = 1 }
sub no_long_string ()        { $NoLongString = 1 }
sub no_root_location ()      { $NoRootLocation = 1 }
sub check_accum_error_log () { $CheckAccumErrLog = 1 }

sub server_root () { $ServRoot }
sub html_dir ()    { $HtmlDir }

sub env_to_nginx (@) {
    croak "env_to_nginx: no arguments specified" unless @_;
    for my $v (@_) {
        croak "env_to_nginx: bad argument value: $v\n"
            if $v !~ /^[A-Za-z_]/ || $v =~ /\n/;
        push @EnvToNginx, $v;
    }
}

# The last preprocessor added runs first, as in the real harness.
sub add_block_preprocessor (&) { unshift @BlockPreprocessors, shift }
sub add_cleanup_handler ($)    { unshift @CleanupHandlers, shift }

# String comparison honouring no_long_string() and qr// expectations.
sub is_str (@) {
    my ($got, $expected, $desc) = @_;
    return Test::More::like($got, $expected, $desc)
        if ref $expected && ref $expected eq 'Regexp';
    return Test::More::is($got, $expected, $desc) if $NoLongString;
    return Test::LongString::is_string($got, $expected, $desc);
}

# Stops everything, then aborts the whole prove run.
sub bail_out (@) {
    cleanup();
    Test::More::BAIL_OUT(join '', @_);
}

# ---------------------------------------------------------------------------
# Helpers shared with Test::Nginx::Socket.

# "50ms", "0.5s" or "2" (seconds) to seconds.
sub parse_time {
    my $tm = shift;
    return $tm unless defined $tm;
    if ($tm =~ /^\s*([\d.]+)\s*ms\s*$/) {
        return $1 / 1000;
    }
    $tm =~ s/^\s*([\d.]+)\s*s?\s*$/$1/;
    return $tm;
}

# Replaces $TEST_NGINX_FOO by the value of that environment variable; an
# undefined one aborts the run, as in the real harness.
sub expand_env_in_text {
    my ($text, $name) = @_;
    return $text unless defined $text;
    $text =~ s{\$(TEST_NGINX_[_A-Z0-9]+)}{
        defined $ENV{$1} ? $ENV{$1}
                         : bail_out("$name - No environment $1 defined.\n")
    }eg;
    return $text;
}

sub canon_version {
    return sprintf "%d.%03d%03d", @_[0 .. 2];
}

sub nginx_version {
    my $out = `$NginxBinary -V 2>&1`;
    if (!defined $out || $? != 0) {
        bail_out("Failed to run \"$NginxBinary -V\": " . ($out // $!));
    }
    if ($out =~ m{(?:nginx|openresty)[^/\s]*/(\d+)\.(\d+)\.(\d+)}) {
        return canon_version($1, $2, $3);
    }
    bail_out("Failed to parse the output of \"$NginxBinary -V\": $out");
}

# The lines of error.log written since the previous call (all of it with
# check_accum_error_log()).  The short sleep leaves nginx time to write
# what it logs after the response, as the real harness does.
sub error_log_data {
    sleep $TestNginxSleep * 3;
    open my $in, '<', $ErrLogFile or return [];
    seek $in, $ErrLogFilePos, 0 unless $CheckAccumErrLog;
    my @lines = <$in>;
    $ErrLogFilePos = tell $in unless $CheckAccumErrLog;
    close $in;
    return \@lines;
}

# ---------------------------------------------------------------------------
# Server root, user files and nginx.conf.

sub setup_server_root {
    if (-d $ServRoot) {
        # Remove only what the harness creates, so that a misused
        # TEST_NGINX_SERVROOT cannot wipe real data.
        remove_tree($ConfDir, $HtmlDir, $LogDir,
                    glob("$ServRoot/*_temp"), glob("$ServRoot/*_cache"));
        rmdir $ServRoot
            or bail_out("Can't remove $ServRoot (not empty?): $!");
    }
    for my $dir ($ServRoot, $LogDir, $HtmlDir, $ConfDir) {
        mkdir $dir or bail_out("Failed to do mkdir $dir: $!");
    }
    write_file("$HtmlDir/index.html", '<html><head><title>It works!</title>'
               . '</head><body>It works!</body></html>');
}

sub write_file {
    my ($path, $data) = @_;
    open my $out, '>', $path or bail_out("Can't open $path for writing: $!");
    binmode $out;
    print $out $data;
    close $out or bail_out("Can't write $path: $!");
}

# --- user_files: ">>> name [touch -t date]" lines, each followed by the
# file's content, or (with eval) [[name, content, date], ...].  Relative
# names are under html/.
sub write_user_files {
    my $block = shift;
    my $name  = $block->name;
    my $files = $block->user_files;
    return unless $files;

    if (!ref $files) {
        my @list;
        for my $line (split /^/, $files) {
            if ($line =~ /^>>> (\S+)(?:\s+(.+))?/) {
                push @list, [$1, '', $2];
            } elsif (@list) {
                $list[-1][1] .= $line;
            }
        }
        $files = \@list;
    } elsif (ref $files ne 'ARRAY') {
        bail_out("$name - wrong value type: ", ref $files,
                 ", only scalar or ARRAY are accepted");
    }

    for my $file (@$files) {
        my ($fname, $body, $date) = @$file;
        my $path = $fname =~ m{^/} ? $fname : "$HtmlDir/$fname";
        if ($path =~ m{^(.*)/} && !-d $1) {
            make_path($1) or bail_out("$name - Cannot create directory $1");
        }
        write_file($path, expand_env_in_text($body // '', $name));
        if ($date) {
            local $ENV{TZ} = 'GMT';
            system('touch', '-t', $date, $path) == 0
                or bail_out("$name - touch -t '$date' $path failed");
        }
    }
}

# Writes conf/nginx.conf for a block whose --- config is $config (already
# expanded).  Same layout and defaults as the real harness (without its
# HUP-reload, HTTP/2 and HTTP/3 extras); see docs/testing.md.
sub write_config_file {
    my ($block, $config) = @_;
    my $name = $block->name;

    my %section;
    for my $s (qw(main_config http_config)) {
        $section{$s} = expand_env_in_text($block->$s // '', $name);
    }

    my @modules = map { "load_module $_;" } grep { length } split /\s+/,
                  $LoadModules;

    my $env_lines = join '', map { /\s/ ? "env '$_';\n" : "env $_;\n" }
                    @EnvToNginx;

    my $root_location = $NoRootLocation ? '' : <<"_EOC_";
        location / {
            root $HtmlDir;
            index index.html index.htm;
        }
_EOC_

    my $user = defined $WorkerUser ? "user $WorkerUser;\n"
             : $> == 0             ? "user root;\n"
             :                       '';

    # The load_module line takes the place of an empty line, so line
    # numbers in nginx.conf do not depend on TEST_NGINX_LOAD_MODULES.
    my $modules_line = join ' ', @modules;

    write_file($ConfFile, <<"_EOC_");
worker_processes  $Workers;
daemon on;
master_process $MasterProcess;
error_log $ErrLogFile $LogLevel;
pid       $PidFile;
env MOCKEAGAIN_VERBOSE;
env MOCKEAGAIN;
env MOCKEAGAIN_WRITE_TIMEOUT_PATTERN;
env LD_PRELOAD;
env LD_LIBRARY_PATH;
env DYLD_INSERT_LIBRARIES;
env DYLD_FORCE_FLAT_NAMESPACE;
${env_lines}#env LUA_PATH;
#env LUA_CPATH;
$modules_line
$section{main_config}

http {
    access_log $AccLogFile;
    #access_log off;

    default_type text/plain;
    keepalive_timeout  68;

$section{http_config}

    server {
        listen          $ServerPort;
        server_name     '$ServerName';

        client_max_body_size 30M;
        #client_body_buffer_size 4k;


        # Begin preamble config...

        # End preamble config...

        # Begin test case config...
$config
        # End test case config.

${root_location}    }
}



#timer_resolution 100ms;

events {
    accept_mutex off;

    worker_connections  $WorkerConnections;
}
env ASAN_OPTIONS;
env MOCKNOEAGAIN_VERBOSE;
env MOCKNOEAGAIN;
$user
_EOC_
}

# ---------------------------------------------------------------------------
# nginx processes.

# True for a live process: kill 0 also succeeds on a zombie, and the init
# of some sandboxes reaps the daemonized nginx late.
sub is_running {
    my $pid = shift;
    return 0 unless $pid && kill 0, $pid;
    if (open my $in, '<', "/proc/$pid/stat") {
        my $stat = <$in> // '';
        return 0 if $stat =~ /^\d+ \(.*\) Z /s;
    }
    return 1;
}

sub wait_gone {
    my ($pid, $secs) = @_;
    my $deadline = time + $secs;
    while (is_running($pid)) {
        return 0 if time > $deadline;
        sleep 0.02;
    }
    return 1;
}

sub read_pid_file {
    open my $in, '<', $PidFile or return undef;
    my $pid = <$in>;
    close $in;
    return defined $pid && $pid =~ /^(\d+)$/ ? $1 : undef;
}

# Stops the nginx whose pid is in the pid file (the previous block's, or
# one left by an aborted run): QUIT, then TERM, then KILL to its process
# group.  A pid that is not (or no longer) an nginx is left alone.
sub stop_nginx {
    my $name = shift;
    my $pid = read_pid_file();
    if ($pid && is_running($pid) && is_nginx($pid)) {
        kill 'QUIT', $pid;
        if (!wait_gone($pid, $Timeout)) {
            warn "$name - nginx $pid did not quit in $Timeout s; "
                 . "sending TERM\n";
            kill 'TERM', $pid;
            if (!wait_gone($pid, 1)) {
                warn "$name - killing nginx $pid with force\n";
                kill 'KILL', (getpgrp($pid) == $pid ? -$pid : $pid);
                wait_gone($pid, 1);
            }
        }
    }
    unlink $PidFile;
}

sub is_nginx {
    my $pid = shift;
    open my $in, '<', "/proc/$pid/cmdline" or return 1;   # no /proc: trust it
    my $cmdline = <$in> // '';
    return $cmdline =~ /nginx/;
}

# Runs the nginx command once; returns its wait status and stderr.  With
# -e (nginx >= 1.19.5) the messages nginx logs before it has opened the
# configured error_log (e.g. configuration errors) also go to error.log:
# Debian's nginx is built with --error-log-path=stderr, and tests of
# startup errors expect them in error.log as with the default build.
sub launch_nginx {
    my @cmd = ($NginxBinary, '-p', "$ServRoot/", '-c', $ConfFile);
    push @cmd, '-e', $ErrLogFile if $NginxVersion >= canon_version(1, 19, 5);

    my $pid = fork;
    bail_out("fork() failed: $!") unless defined $pid;
    if ($pid == 0) {
        open STDIN,  '<', '/dev/null';
        open STDOUT, '>', '/dev/null';
        open STDERR, '>', $StartupStderr;
        exec { $cmd[0] } @cmd
            or print STDERR "exec $cmd[0] failed: $!\n";
        POSIX::_exit(127);
    }
    waitpid $pid, 0;
    my $status = $?;

    my $stderr = '';
    if (open my $in, '<', $StartupStderr) {
        local $/;
        $stderr = <$in> // '';
    }
    return ($status, $stderr, "@cmd");
}

# Starts nginx for a block, retrying a little while the port is still
# held (e.g. by a leftover of an aborted run); any other failure aborts
# the run, as in the real harness.  Returns once the pid file is there,
# i.e. once nginx listens.
sub start_nginx {
    my $name = shift;
    my $deadline = time + 10;
    my ($status, $stderr, $cmd);
    while (1) {
        ($status, $stderr, $cmd) = launch_nginx();
        last if $status == 0
             || $stderr !~ /Address already in use/ || time > $deadline;
        sleep 0.2;
    }
    bail_out("$name - Cannot start nginx using command \"$cmd\" "
             . "(status $status): $stderr") if $status != 0;
    wait_for_pid_file($name);
}

# nginx daemonizes before it writes its pid file, after it has opened its
# listening sockets.
sub wait_for_pid_file {
    my $name = shift;
    my $deadline = time + 10;
    until (is_running(read_pid_file())) {
        bail_out("$name - nginx started but wrote no pid in $PidFile")
            if time > $deadline;
        sleep 0.01;
    }
}

# Cleanup handlers, then nginx (unless TEST_NGINX_NO_CLEAN).
sub cleanup {
    return unless $$ == $OwnerPid;
    while (my $hdl = shift @CleanupHandlers) {
        $hdl->();
    }
    stop_nginx('cleanup') unless $ENV{TEST_NGINX_NO_CLEAN};
}

# Never leave an nginx behind, also when the test dies or is interrupted.
my %SigNum = (HUP => 1, INT => 2, TERM => 15);
for my $sig (keys %SigNum) {
    $SIG{$sig} ||= sub { cleanup(); exit 128 + $SigNum{$sig} };
}

END {
    local $?;
    cleanup();
}

1;
