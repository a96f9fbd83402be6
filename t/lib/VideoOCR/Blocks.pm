package VideoOCR::Blocks;

# Conventions for the Test::Nginx blocks of video-ocr:
#
#   - no block may log an [alert];
#   - every block gets a fresh ledger and store (VideoOCR::Test's
#     new_data_dir) and, unless it has its own http_config or config,
#     the standard ones below: /upload (intake) and /jobs/ (status);
#     "$DATA" in main_config, http_config and config is the data dir;
#   - in a PostgreSQL run (VideoOCR::Test::pg), every
#     "video_ocr_ledger $DATA/ledger.db;" names the block's PostgreSQL
#     ledger instead, so every block runs on both backends;
#   - "--- ledger_setup eval" holds "sub { my ($block) = @_; }" run in
#     the fresh data dir before nginx starts (to plant a bad ledger, say);
#   - "--- ledger_check eval" holds "sub { my ($block, $responses) = @_; }"
#     run after the block's last request, with every response of the block
#     (decoded JSON bodies and statuses, in order), to assert the ledger
#     rows and the stored files as well as the HTTP replies.
#
# Uses only add_block_preprocessor and add_response_body_check, which the
# real Test::Nginx::Socket has, so the same .t files run under both.

use strict;
use warnings;

use Test::More;
use Test::Nginx::Socket ();
use VideoOCR::Test;

our @responses;

our $HTTP_CONFIG = <<'EOF';
    video_ocr_ledger $DATA/ledger.db;
    video_ocr_store $DATA/store;
    client_body_temp_path $DATA/tmp;
EOF

our $CONFIG = <<'EOF';
    location = /upload {
        video_ocr_intake;
        video_ocr_jobs_url /jobs/;
        client_max_body_size 64m;
    }

    location /jobs/ {
        video_ocr_jobs;
    }
EOF


sub import {
    Test::Nginx::Socket::add_block_preprocessor(\&_preprocess);
    Test::Nginx::Socket::add_response_body_check(\&_check);

    # Test::Base compiles "--- ... eval" sections in the package
    # Test::Base::Filter: give the ledger_check subs the helpers by name
    no strict 'refs';
    for my $name (@VideoOCR::Test::EXPORT) {
        *{"Test::Base::Filter::$name"} = \&{"VideoOCR::Test::$name"};
    }
    for my $name (qw(ok is isnt like unlike is_deeply cmp_ok diag note)) {
        *{"Test::Base::Filter::$name"} = \&{"Test::More::$name"};
    }
}


sub _preprocess {
    my ($block) = @_;

    my $dir = new_data_dir();
    @responses = ();

    $block->set_value('http_config', $HTTP_CONFIG)
        unless defined $block->http_config;
    $block->set_value('config', $CONFIG)
        unless defined $block->config;

    # an [alert] is a bug in the module, whatever the block tests
    my $no = $block->no_error_log;
    if (!defined $no) {
        $block->set_value('no_error_log', "[alert]\n");
    } elsif (ref $no eq 'ARRAY') {
        push @$no, '[alert]';
    } else {
        $block->set_value('no_error_log', "$no\n[alert]\n");
    }

    my $ledger = ledger_spec();

    for my $section (qw(main_config http_config config)) {
        my $v = $block->$section;
        next unless defined $v;
        $v =~ s/(video_ocr_ledger\s+)\$DATA\/ledger\.db\s*;/$1"$ledger";/g
            if pg();
        $v =~ s/\$DATA\b/$dir/g;
        $block->set_value($section, $v);
    }

    my $setup = $block->can('ledger_setup') && $block->ledger_setup;
    $setup->($block) if $setup;
}


sub _check {
    my ($block, $body, $req_idx, $repeated_req_idx, $dry_run) = @_;

    return if $dry_run;

    push @responses, { body => $body,
                       json => scalar eval {
                           JSON::PP->new->decode($body) } };

    my $requests = $block->request // $block->raw_request;
    my $last = ref $requests eq 'ARRAY' ? $#$requests : 0;

    return unless $req_idx == $last;

    my $check = $block->can('ledger_check') && $block->ledger_check;
    return unless $check;

    die "ledger_check of \"" . $block->name . "\" is not a sub\n"
        unless ref $check eq 'CODE';

    $check->($block, [@responses]);
}


1;
