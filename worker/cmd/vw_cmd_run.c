/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The commands of the worker pool, "run" (the supervisor), "child",
 * "janitor" and "deliverer" (the processes it starts): their options
 * and entry points.
 */

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vo_ledger.h"
#include "ocr/vw_ocr.h"
#include "pool/vw_pool.h"
#include "vw_cmd.h"


static int vw_pool_parse(vw_pool_conf_t *conf, int argc, char **argv,
    int child);
static void vw_pool_defaults(vw_pool_conf_t *conf);
static int vw_pool_option(vw_pool_conf_t *conf, int opt, const char *name,
    const char *cmd, int child);
static int vw_pool_check(vw_pool_conf_t *conf, const char *cmd, int child,
    int frame_timeout_set);
static void vw_pool_usage(FILE *f);
static int vw_pool_tenant_weight(vw_pool_conf_t *conf, const char *cmd,
    const char *v);
static int vw_read_secret(vw_pool_conf_t *conf, const char *path,
    const char *cmd);


enum {
    VW_OPT_LEDGER = 256,
    VW_OPT_STORE,
    VW_OPT_WORKERS,
    VW_OPT_SLOT,
    VW_OPT_TIME,                   /* one of vw_pool_times */
    VW_OPT_BUSY_TIMEOUT,
    VW_OPT_LIMIT,
    VW_OPT_SECRET,
    VW_OPT_NO_JANITOR,
    VW_OPT_VERBOSE,
    VW_OPT_USER,
    VW_OPT_MAX_MEMORY,
    VW_OPT_MAX_FILE_SIZE,
    VW_OPT_MAX_OPEN_FILES,
    VW_OPT_NETWORK,
    VW_OPT_ONCE,
    VW_OPT_DELIVERERS,
    VW_OPT_WEBHOOK_ALLOW,
    VW_OPT_WEBHOOK_RETRY,
    VW_OPT_WEBHOOK_CA,
    VW_OPT_TENANT_WEIGHT,
    VW_OPT_TENANT_MAX_RUNNING,
    VW_OPT_HELP
};


#define VW_WEBHOOK_RETRY_DEFAULT  "0,5s,5m,30m,2h,5h,10h,10h"


static const struct option  vw_pool_options[] = {
    { "ledger",         required_argument, NULL, VW_OPT_LEDGER },
    { "store",          required_argument, NULL, VW_OPT_STORE },
    { "workers",        required_argument, NULL, VW_OPT_WORKERS },
    { "slot",           required_argument, NULL, VW_OPT_SLOT },
    { "lease",          required_argument, NULL, VW_OPT_TIME },
    { "heartbeat",      required_argument, NULL, VW_OPT_TIME },
    { "poll",           required_argument, NULL, VW_OPT_TIME },
    { "retry-backoff",  required_argument, NULL, VW_OPT_TIME },
    { "grace",          required_argument, NULL, VW_OPT_TIME },
    { "busy-timeout",   required_argument, NULL, VW_OPT_BUSY_TIMEOUT },
    { "max-duration",   required_argument, NULL, VW_OPT_LIMIT },
    { "max-pixels",     required_argument, NULL, VW_OPT_LIMIT },
    { "max-frames",     required_argument, NULL, VW_OPT_LIMIT },
    { "frame-timeout-ms", required_argument, NULL, VW_OPT_LIMIT },
    { "threads",        required_argument, NULL, VW_OPT_LIMIT },
    { "key-hash-secret-file", required_argument, NULL, VW_OPT_SECRET },
    { "no-janitor",     no_argument,       NULL, VW_OPT_NO_JANITOR },
    { "media-retention", required_argument, NULL, VW_OPT_TIME },
    { "frame-retention", required_argument, NULL, VW_OPT_TIME },
    { "job-retention",  required_argument, NULL, VW_OPT_TIME },
    { "event-retention", required_argument, NULL, VW_OPT_TIME },
    { "audit-retention", required_argument, NULL, VW_OPT_TIME },
    { "janitor-interval", required_argument, NULL, VW_OPT_TIME },
    { "orphan-age",     required_argument, NULL, VW_OPT_TIME },
    { "verbose",        no_argument,       NULL, VW_OPT_VERBOSE },
    { "user",           required_argument, NULL, VW_OPT_USER },
    { "max-memory",     required_argument, NULL, VW_OPT_MAX_MEMORY },
    { "max-file-size",  required_argument, NULL, VW_OPT_MAX_FILE_SIZE },
    { "max-open-files", required_argument, NULL, VW_OPT_MAX_OPEN_FILES },
    { "max-cpu",        required_argument, NULL, VW_OPT_TIME },
    { "part-seconds",   required_argument, NULL, VW_OPT_TIME },
    { "split-seconds",  required_argument, NULL, VW_OPT_TIME },
    { "allow-network",  no_argument,       NULL, VW_OPT_NETWORK },
    { "once",           no_argument,       NULL, VW_OPT_ONCE },
    { "deliverers",     required_argument, NULL, VW_OPT_DELIVERERS },
    { "webhook-allow",  required_argument, NULL, VW_OPT_WEBHOOK_ALLOW },
    { "webhook-retry",  required_argument, NULL, VW_OPT_WEBHOOK_RETRY },
    { "webhook-timeout", required_argument, NULL, VW_OPT_TIME },
    { "webhook-ca-file", required_argument, NULL, VW_OPT_WEBHOOK_CA },
    { "tenant-weight",  required_argument, NULL, VW_OPT_TENANT_WEIGHT },
    { "tenant-max-running", required_argument, NULL,
      VW_OPT_TENANT_MAX_RUNNING },
    { "help",           no_argument,       NULL, VW_OPT_HELP },
    { NULL, 0, NULL, 0 }
};


/* The options that are times, their bounds and where they go. */
typedef struct {
    const char  *name;
    int64_t      min_ms;
    int64_t      max_ms;
    size_t       offset;           /* of an int64_t in vw_pool_conf_t */
} vw_pool_time_t;


static const vw_pool_time_t  vw_pool_times[] = {
    { "lease", 1000, 86400000, offsetof(vw_pool_conf_t, lease_ms) },
    { "heartbeat", 100, 3600000, offsetof(vw_pool_conf_t, heartbeat_ms) },
    { "poll", 10, 600000, offsetof(vw_pool_conf_t, poll_ms) },
    { "retry-backoff", 0, 3600000, offsetof(vw_pool_conf_t, backoff_ms) },
    /* long videos in parts (sql/schema.sql, PARTS) */
    { "part-seconds", 0, 86400000, offsetof(vw_pool_conf_t, part_ms) },
    { "split-seconds", 1000, 30LL * 86400 * 1000,
      offsetof(vw_pool_conf_t, split_ms) },
    { "grace", 0, 3600000, offsetof(vw_pool_conf_t, grace_ms) },
    { "media-retention", 0, 3650LL * 86400 * 1000,
      offsetof(vw_pool_conf_t, media_retention_ms) },
    /* retention (the RETENTION section of sql/schema.sql) */
    { "frame-retention", 0, 3650LL * 86400 * 1000,
      offsetof(vw_pool_conf_t, frame_retention_ms) },
    { "job-retention", 0, 36500LL * 86400 * 1000,
      offsetof(vw_pool_conf_t, job_retention_ms) },
    { "event-retention", 0, 36500LL * 86400 * 1000,
      offsetof(vw_pool_conf_t, event_retention_ms) },
    { "audit-retention", 0, 36500LL * 86400 * 1000,
      offsetof(vw_pool_conf_t, audit_retention_ms) },
    { "janitor-interval", 100, 86400000,
      offsetof(vw_pool_conf_t, janitor_interval_ms) },
    { "orphan-age", 0, 30LL * 86400 * 1000,
      offsetof(vw_pool_conf_t, orphan_age_ms) },
    { "max-cpu", 0, 30LL * 86400 * 1000,
      offsetof(vw_pool_conf_t, confine.max_cpu_ms) },
    { "webhook-timeout", 100, 300000,
      offsetof(vw_pool_conf_t, webhook_timeout_ms) },
    { NULL, 0, 0, 0 }
};


/*
 * Parses the options of "run", "child", "janitor" and "deliverer"
 * (argv[0] is the subcommand).  Returns 0, or -1 after printing a
 * message that names the bad option.
 */
static int
vw_pool_parse(vw_pool_conf_t *conf, int argc, char **argv, int child)
{
    int  opt, index, frame_timeout_set;

    vw_pool_defaults(conf);

    frame_timeout_set = 0;

    optind = 1;
    opterr = 0;

    while ((opt = getopt_long(argc, argv, "", vw_pool_options, &index))
           != -1)
    {
        if (opt == VW_OPT_HELP) {
            vw_pool_usage(stdout);
            exit(VW_EXIT_OK);
        }

        if (opt == '?' || opt == ':') {
            fprintf(stderr, "video-ocr-worker %s: unknown or incomplete "
                    "option \"%s\"\n", argv[0], argv[optind - 1]);
            vw_pool_usage(stderr);
            return -1;
        }

        if (vw_pool_option(conf, opt, vw_pool_options[index].name, argv[0],
                           child)
            != 0)
        {
            return -1;
        }

        if (opt == VW_OPT_LIMIT
            && strcmp(vw_pool_options[index].name, "frame-timeout-ms") == 0)
        {
            frame_timeout_set = 1;
        }
    }

    if (optind < argc) {
        fprintf(stderr, "video-ocr-worker %s: unexpected argument \"%s\"\n",
                argv[0], argv[optind]);
        return -1;
    }

    return vw_pool_check(conf, argv[0], child, frame_timeout_set);
}


/* What a pool gets without options. */

static void
vw_pool_defaults(vw_pool_conf_t *conf)
{
    memset(conf, 0, sizeof(vw_pool_conf_t));

    conf->workers = 2;
    conf->slot = -1;
    conf->lease_ms = 30000;
    conf->heartbeat_ms = 0;
    conf->poll_ms = 1000;
    conf->backoff_ms = 2000;
    conf->part_ms = VW_PART_MS;
    conf->split_ms = VW_SPLIT_MS;
    conf->grace_ms = 30000;
    conf->busy_timeout_ms = 5000;
    conf->janitor = 1;
    conf->media_retention_ms = 7LL * 86400 * 1000;
    conf->frame_retention_ms = 3600LL * 1000;
    conf->job_retention_ms = 90LL * 86400 * 1000;
    conf->event_retention_ms = 30LL * 86400 * 1000;
    conf->audit_retention_ms = 365LL * 86400 * 1000;
    conf->janitor_interval_ms = 60000;
    conf->orphan_age_ms = 3600 * 1000;
    conf->confine.max_memory = VW_DEFAULT_MAX_MEMORY;
    conf->confine.max_file_size = VW_DEFAULT_MAX_FILE_SIZE;
    conf->confine.max_open_files = 256;
    conf->confine.max_cpu_ms = 6 * 3600 * 1000;
    vw_limits_init(&conf->limits);
    conf->deliverers = 1;
    conf->webhook_timeout_ms = 15000;
    (void) vo_retry_schedule_parse(VW_WEBHOOK_RETRY_DEFAULT,
                                   sizeof(VW_WEBHOOK_RETRY_DEFAULT) - 1,
                                   conf->webhook_retry, VO_RETRY_MAX,
                                   &conf->nwebhook_retry, NULL, 0);
}


/*
 * One option (--name, its value in optarg) of the command cmd.  Returns 0,
 * or -1 after printing a message that names the option.
 */

static int
vw_pool_option(vw_pool_conf_t *conf, int opt, const char *name,
    const char *cmd, int child)
{
    char                   flag[32], err[160];
    long                   n;
    int64_t                ms;
    const vw_pool_time_t  *t;

    snprintf(flag, sizeof(flag), "--%s", name);

    switch (opt) {

    case VW_OPT_LEDGER:
        conf->ledger = optarg;
        return 0;

    case VW_OPT_STORE:
        conf->store = optarg;
        return 0;

    case VW_OPT_WORKERS:
        /* 0: a pool of deliverers only (checked in vw_pool_check) */
        if (vw_args_int(flag, optarg, 0, 256, &n) != 0) {
            return -1;
        }

        conf->workers = (int) n;
        return 0;

    case VW_OPT_SLOT:
        if (vw_args_int(flag, optarg, 0, 255, &n) != 0) {
            return -1;
        }

        conf->slot = (int) n;
        return 0;

    case VW_OPT_TIME:
        for (t = vw_pool_times; strcmp(t->name, name) != 0; t++) {
            /* void: every VW_OPT_TIME option has its row */
        }

        return vw_args_ms(flag, optarg, t->min_ms, t->max_ms,
                           (int64_t *) ((char *) conf + t->offset));

    case VW_OPT_BUSY_TIMEOUT:
        if (vw_args_ms(flag, optarg, 0, 600000, &ms) != 0) {
            return -1;
        }

        conf->busy_timeout_ms = (int) ms;
        return 0;

    case VW_OPT_LIMIT:
        /* the same limits, spelled the same, as "ocr" */
        if (vw_limits_flag(&conf->limits, flag, optarg, err, sizeof(err))
            < 0)
        {
            fprintf(stderr, "video-ocr-worker %s: %s\n", cmd, err);
            return -1;
        }

        return 0;

    case VW_OPT_NO_JANITOR:
        conf->janitor = 0;
        return 0;

    case VW_OPT_SECRET:
        /*
         * The pool's children get the secret from the supervisor, in the
         * environment: they run as --user, who need not be able to read
         * the file.
         */
        if (child && getenv("VIDEO_OCR_KEY_HASH_SECRET") != NULL) {
            return 0;
        }

        return vw_read_secret(conf, optarg, cmd);

    case VW_OPT_VERBOSE:
        conf->verbose = 1;
        return 0;

    case VW_OPT_USER:
        conf->confine.user = optarg;
        return 0;

    case VW_OPT_MAX_MEMORY:
        if (vw_args_size(optarg, &conf->confine.max_memory) != 0
            || (conf->confine.max_memory != 0
                && conf->confine.max_memory < 64 * 1024 * 1024))
        {
            fprintf(stderr, "video-ocr-worker %s: --max-memory \"%s\" must "
                    "be a size of at least 64m, such as 2g, or 0 for no "
                    "limit\n", cmd, optarg);
            return -1;
        }

        return 0;

    case VW_OPT_MAX_FILE_SIZE:
        if (vw_args_size(optarg, &conf->confine.max_file_size) != 0
            || (conf->confine.max_file_size != 0
                && conf->confine.max_file_size < 1024 * 1024))
        {
            fprintf(stderr, "video-ocr-worker %s: --max-file-size \"%s\" "
                    "must be a size of at least 1m, such as 16g, or 0 for "
                    "no limit\n", cmd, optarg);
            return -1;
        }

        return 0;

    case VW_OPT_MAX_OPEN_FILES:
        if (vw_args_int(flag, optarg, 0, 1048576, &n) != 0) {
            return -1;
        }

        if (n != 0 && n < 32) {
            fprintf(stderr, "video-ocr-worker %s: --max-open-files must be "
                    "at least 32, or 0 for no limit\n", cmd);
            return -1;
        }

        conf->confine.max_open_files = n;
        return 0;

    case VW_OPT_NETWORK:
        conf->confine.network = 1;
        return 0;

    case VW_OPT_DELIVERERS:
        if (vw_args_int(flag, optarg, 0, 64, &n) != 0) {
            return -1;
        }

        conf->deliverers = (int) n;
        return 0;

    case VW_OPT_WEBHOOK_ALLOW:
        if (vo_cidr_parse_list(optarg, strlen(optarg), conf->webhook_allow,
                               VW_ALLOW_MAX, &conf->nwebhook_allow, err,
                               sizeof(err))
            != 0)
        {
            fprintf(stderr, "video-ocr-worker %s: --webhook-allow \"%s\": "
                    "%s\n", cmd, optarg, err);
            return -1;
        }

        return 0;

    case VW_OPT_WEBHOOK_RETRY:
        if (vo_retry_schedule_parse(optarg, strlen(optarg),
                                    conf->webhook_retry, VO_RETRY_MAX,
                                    &conf->nwebhook_retry, err, sizeof(err))
            != 0)
        {
            fprintf(stderr, "video-ocr-worker %s: --webhook-retry \"%s\": "
                    "%s\n", cmd, optarg, err);
            return -1;
        }

        return 0;

    case VW_OPT_WEBHOOK_CA:
        /* the deliverer checks it again as the pool's user (vw_deliver.c) */
        if (!child && access(optarg, R_OK) != 0) {
            fprintf(stderr, "video-ocr-worker %s: --webhook-ca-file \"%s\": "
                    "%s\n", cmd, optarg, strerror(errno));
            return -1;
        }

        conf->webhook_ca_file = optarg;
        return 0;

    case VW_OPT_TENANT_WEIGHT:
        return vw_pool_tenant_weight(conf, cmd, optarg);

    case VW_OPT_TENANT_MAX_RUNNING:
        if (vw_args_int(flag, optarg, 0, 100000, &n) != 0) {
            return -1;
        }

        conf->claim_policy.max_running = (int) n;
        return 0;

    case VW_OPT_ONCE:
        if (strcmp(cmd, "janitor") != 0) {
            fprintf(stderr, "video-ocr-worker %s: --once is an option of "
                    "\"janitor\"\n", cmd);
            return -1;
        }

        conf->once = 1;
        return 0;
    }

    fprintf(stderr, "video-ocr-worker %s: option \"%s\" is not handled\n",
            cmd, flag);
    return -1;
}


/*
 * What no single option can say: the required options, the secret from
 * the environment, the times that must fit together.
 */

static int
vw_pool_check(vw_pool_conf_t *conf, const char *cmd, int child,
    int frame_timeout_set)
{
    struct stat  st;

    if (conf->key_hash_secret == NULL
        && getenv("VIDEO_OCR_KEY_HASH_SECRET") != NULL)
    {
        conf->key_hash_secret = getenv("VIDEO_OCR_KEY_HASH_SECRET");
        conf->key_hash_secret_len = strlen(conf->key_hash_secret);
    }

    if (conf->ledger == NULL || conf->store == NULL) {
        fprintf(stderr, "video-ocr-worker %s: --ledger FILE|URI and --store "
                "DIR are required (the same as nginx's video_ocr_ledger and "
                "video_ocr_store)\n", cmd);
        return -1;
    }

    if (stat(conf->store, &st) == -1 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "video-ocr-worker %s: --store \"%s\" is not a "
                "directory\n", cmd, conf->store);
        return -1;
    }

    if (child && conf->slot < 0 && !conf->once) {
        fprintf(stderr, "video-ocr-worker %s: --slot is required; "
                "children are started by \"video-ocr-worker run\"%s\n",
                cmd, strcmp(cmd, "janitor") == 0
                ? " (or run one pass by hand with --once)" : "");
        return -1;
    }

    if (conf->workers == 0 && conf->deliverers == 0 && !child) {
        fprintf(stderr, "video-ocr-worker %s: --workers 0 makes a pool of "
                "webhook deliverers only: give --deliverers 1 or more\n",
                cmd);
        return -1;
    }

    if (conf->part_ms != 0 && conf->part_ms < VW_PART_MIN_MS) {
        fprintf(stderr, "video-ocr-worker %s: --part-seconds must be 0 (no "
                "split) or at least %ds\n", cmd, VW_PART_MIN_MS / 1000);
        return -1;
    }

    if (conf->heartbeat_ms == 0) {
        conf->heartbeat_ms = conf->lease_ms / 3;
    }

    if (conf->heartbeat_ms >= conf->lease_ms) {
        fprintf(stderr, "video-ocr-worker %s: --heartbeat must be shorter "
                "than --lease\n", cmd);
        return -1;
    }

    /* a short lease shortens the default OCR time limit with it */
    if (!frame_timeout_set && conf->limits.frame_timeout_ms >= conf->lease_ms)
    {
        conf->limits.frame_timeout_ms = (int) (conf->lease_ms / 2);
    }

    if (conf->limits.frame_timeout_ms >= conf->lease_ms) {
        fprintf(stderr, "video-ocr-worker %s: --frame-timeout-ms must be "
                "shorter than --lease, or a slow frame loses the job\n",
                cmd);
        return -1;
    }

    return 0;
}


int
vw_cmd_run(int argc, char **argv)
{
    vw_pool_conf_t  conf;

    if (vw_pool_parse(&conf, argc, argv, 0) != 0) {
        return VW_EXIT_USAGE;
    }

    /* what this host's Tesseract reads, for the upload page */
    if (vw_ocr_languages_publish(conf.store) != 0) {
        fprintf(stderr, VW_PROG " run: cannot write %s/languages.json: %s "
                "(the upload page offers its built-in languages)\n",
                conf.store, strerror(errno));
    }

    return vw_supervise(&conf, argc, argv);
}


int
vw_cmd_janitor(int argc, char **argv)
{
    vw_pool_conf_t  conf;

    if (vw_pool_parse(&conf, argc, argv, 1) != 0) {
        return VW_EXIT_CONFIG;
    }

    return vw_janitor_main(&conf);
}


int
vw_cmd_deliverer(int argc, char **argv)
{
    vw_pool_conf_t  conf;

    if (vw_pool_parse(&conf, argc, argv, 1) != 0) {
        return VW_EXIT_CONFIG;
    }

    return vw_deliver_main(&conf);
}


int
vw_cmd_child(int argc, char **argv)
{
    vw_pool_conf_t  conf;

    if (vw_pool_parse(&conf, argc, argv, 1) != 0) {
        return VW_EXIT_CONFIG;
    }

    return vw_child_main(&conf);
}


/*
 * The secret for the keyed hash of the logs, from a file (a secret on the
 * command line would be in every process listing); one trailing newline
 * is not part of it.
 */

static int
vw_read_secret(vw_pool_conf_t *conf, const char *path, const char *cmd)
{
    FILE    *f;
    char     buf[4096];
    size_t   n;

    f = fopen(path, "re");
    if (f == NULL) {
        fprintf(stderr, "video-ocr-worker %s: --key-hash-secret-file "
                "\"%s\": %s\n", cmd, path, strerror(errno));
        return -1;
    }

    n = fread(buf, 1, sizeof(buf), f);
    fclose(f);

    if (n > 0 && buf[n - 1] == '\n') {
        n--;
    }

    conf->key_hash_secret = malloc(n + 1);
    if (conf->key_hash_secret == NULL) {
        fprintf(stderr, "video-ocr-worker %s: out of memory\n", cmd);
        return -1;
    }

    memcpy(conf->key_hash_secret, buf, n);
    conf->key_hash_secret[n] = '\0';
    conf->key_hash_secret_len = n;

    return 0;
}


/* "30s", "500ms", "2m", "1h"; a bare number is seconds. */



/*
 * --tenant-weight NAME=W: NAME's turn lasts W claims in a row
 * (vo_ledger_claim.c).  The last '=' splits, so a tenant may contain one.
 */

static int
vw_pool_tenant_weight(vw_pool_conf_t *conf, const char *cmd, const char *v)
{
    long                 w;
    char                *end;
    size_t               n;
    const char          *eq;
    vo_tenant_weight_t  *tw;

    eq = strrchr(v, '=');
    n = conf->claim_policy.nweights;

    if (eq == NULL || eq == v || (size_t) (eq - v) > VO_TENANT_MAX) {
        fprintf(stderr, "video-ocr-worker %s: --tenant-weight \"%s\": "
                "expected NAME=WEIGHT, such as acme=3\n", cmd, v);
        return -1;
    }

    errno = 0;
    w = strtol(eq + 1, &end, 10);

    if (errno != 0 || end == eq + 1 || *end != '\0' || w < 1 || w > 1000) {
        fprintf(stderr, "video-ocr-worker %s: --tenant-weight \"%s\": the "
                "weight must be a whole number from 1 to 1000\n", cmd, v);
        return -1;
    }

    if (n == VW_WEIGHTS_MAX) {
        fprintf(stderr, "video-ocr-worker %s: more than %d --tenant-weight "
                "options\n", cmd, VW_WEIGHTS_MAX);
        return -1;
    }

    tw = &conf->tenant_weights[n];
    tw->tenant = strndup(v, (size_t) (eq - v));

    if (tw->tenant == NULL) {
        fprintf(stderr, "video-ocr-worker %s: out of memory\n", cmd);
        return -1;
    }

    tw->weight = (int) w;

    conf->claim_policy.weights = conf->tenant_weights;
    conf->claim_policy.nweights = n + 1;

    return 0;
}


static void
vw_pool_usage(FILE *f)
{
    fprintf(f,
        "usage: video-ocr-worker run --ledger FILE|URI --store DIR [options]\n"
        "\n"
        "  --workers N          children to run (default 2)\n"
        "  --lease T            how long a claim lasts without renewal "
        "(30s)\n"
        "  --heartbeat T        how often a busy child renews it "
        "(lease/3)\n"
        "  --poll T             idle wait between claims (1s)\n"
        "  --part-seconds T     a long video is read as parts about this "
        "long, by\n"
        "                       any child of any pool (150; 0 = never "
        "split)\n"
        "  --split-seconds T    the length from which a video is split "
        "(600)\n"
        "  --retry-backoff T    delay before the 1st retry, doubling (2s)\n"
        "  --grace T            SIGTERM to SIGKILL at shutdown (30s)\n"
        "  --busy-timeout T     SQLite busy timeout (5s)\n"
        "  --key-hash-secret-file FILE\n"
        "                       the secret of nginx's video_ocr_key_hash_"
        "secret,\n"
        "                       for the key= field of the logs (or "
        "$VIDEO_OCR_KEY_HASH_SECRET)\n"
        "  --verbose            log every frame\n"
        "  --media-retention T  delete the input and frames of finished "
        "jobs\n"
        "                       this long after they finished (7d; 0 = at "
        "once)\n"
        "  --frame-retention T  delete the frame rows of done jobs this "
        "long\n"
        "                       after they finished (1h; 0 = at once)\n"
        "  --job-retention T    delete finished jobs and their results this "
        "long\n"
        "                       after they finished, once their media is "
        "gone (90d)\n"
        "  --event-retention T  delete events this old (30d)\n"
        "  --audit-retention T  delete the events of deletions and operator "
        "actions\n"
        "                       this old (365d)\n"
        "  --janitor-interval T how often the janitor runs (60s)\n"
        "  --orphan-age T       delete store files no job owns once this "
        "old (1h)\n"
        "  --no-janitor         run no janitor (another host runs it)\n"
        "\n"
        "Tenants (docs/operations.md, \"Fair share\"):\n"
        "  --tenant-weight NAME=W  NAME's turn lasts W claims in a row "
        "(1..1000;\n"
        "                       the others' 1); repeatable\n"
        "  --tenant-max-running N  at most N running jobs per tenant "
        "(0 = no cap)\n"
        "\n"
        "Webhooks (docs/operations.md):\n"
        "  --deliverers N       webhook deliverer processes (1; 0 = none "
        "here)\n"
        "  --webhook-allow CIDR let deliveries go to these loopback, "
        "private or\n"
        "                       link-local addresses (repeatable; none by "
        "default)\n"
        "  --webhook-retry LIST the delay before each attempt (the "
        "default:\n"
        "                       " VW_WEBHOOK_RETRY_DEFAULT ")\n"
        "  --webhook-timeout T  one attempt at most (15s)\n"
        "  --webhook-ca-file F  the CAs receivers' certificates are checked "
        "against\n"
        "                       (default: the system's)\n"
        "\n"
        "Confinement (vw_confine.h; docs/worker.md):\n"
        "  --user USER[:GROUP]  when started as root, run as this user "
        "(nobody)\n"
        "  --allow-network      as root, keep the host's network (default: "
        "none\n"
        "                       when the ledger is a file)\n"
        "  --max-memory SIZE    address space of an OCR child (4g; 0 = no "
        "limit)\n"
        "  --max-cpu T          CPU time of one job (6h; 0 = no limit)\n"
        "  --max-file-size SIZE largest file an OCR child writes, the "
        "ledger\n"
        "                       included (16g; 0 = no limit)\n"
        "  --max-open-files N   open files of an OCR child (256)\n"
        "\n"
        "T is a time: 500ms, 30s, 2m, 1h, 7d; a bare number is seconds.\n"
        "The media limits, as for \"ocr\" (the OCR time limit defaults "
        "to at most lease/2):\n");
    fputs(vw_limits_usage, f);
}
