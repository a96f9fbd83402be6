/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The operator's webhook commands, on the ledger directly (no nginx or
 * pool needed; sql/vo_ledger_hooks_admin.c):
 *
 *   webhooks list          --ledger L [--tenant T]
 *   webhooks add           --ledger L --tenant T --url URL [--secret-file F]
 *   webhooks remove        --ledger L --tenant T
 *   webhooks rotate-secret --ledger L (--endpoint ID | --tenant T)
 *                          [--secret-file F] [--keep-old 24h]
 *   webhooks enable        --ledger L --endpoint ID
 *   webhooks notifications --ledger L [--state S] [--job J] [--endpoint ID]
 *                          [--limit N]
 *   webhooks redeliver     --ledger L (WEBHOOK_ID | --failed [--endpoint ID])
 *   webhooks secret        a new whsec_ secret, for video_ocr_webhook_secret
 *
 * A secret is read from a file (never the command line, which every
 * process listing shows) or made here and printed once.  Exit codes as
 * for the other operator commands: 64 usage, 65 an unknown tenant,
 * endpoint or notification, or a state the action does not apply to.
 */

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vo_ledger.h"
#include "vw_cmd.h"
#include "core/vw_core.h"


typedef struct {
    const char  *cmd;
    const char  *ledger;
    const char  *tenant;
    const char  *url;
    const char  *state;
    const char  *job_id;
    const char  *msg_id;
    int64_t      endpoint;
    int64_t      keep_ms;
    int          failed;
    int          limit;
    int          generated;        /* the secret was made here */
    char         secret[VO_WEBHOOK_SECRET_BUF];
} vw_hooks_t;


static int vw_hooks_parse(vw_hooks_t *a, int argc, char **argv);
static int vw_hooks_secret_file(vw_hooks_t *a, const char *path);
static int vw_hooks_rc(const vw_hooks_t *a, vo_ledger_rc_t rc,
    const char *err);
static int vw_hooks_endpoint_row(void *data, const vo_endpoint_row_t *row);
static int vw_hooks_notification_row(void *data,
    const vo_notification_row_t *row);
static void vw_hooks_time(char *buf, size_t size, int64_t ms);
static void vw_hooks_usage(FILE *f);


int
vw_cmd_webhooks(int argc, char **argv)
{
    int                        rc;
    char                       err[VO_ERR_TEXT];
    int64_t                    id, n;
    vw_hooks_t                 a;
    vo_ledger_t               *l;
    vo_ledger_rc_t             lrc;
    vo_notification_filter_t   f;

    if (argc < 2 || strcmp(argv[1], "--help") == 0) {
        vw_hooks_usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? VW_EXIT_USAGE : VW_EXIT_OK;
    }

    if (vw_hooks_parse(&a, argc - 1, argv + 1) != 0) {
        return VW_EXIT_USAGE;
    }

    if (strcmp(a.cmd, "secret") == 0) {
        printf("%s\n", a.secret);
        return VW_EXIT_OK;
    }

    l = vw_cmd_ledger(a.ledger);
    if (l == NULL) {
        return VW_EXIT_CONFIG;
    }

    err[0] = '\0';
    rc = VW_EXIT_OK;

    if (strcmp(a.cmd, "list") == 0) {
        printf("%-6s  %-16s  %-8s  %-16s  %-9s  %7s  %5s  %6s  %s\n", "ID",
               "TENANT", "DEFAULT", "SECRET", "STATE", "PENDING", "HELD",
               "FAILED", "URL");
        lrc = vo_ledger_list_endpoints(l, a.tenant, vw_hooks_endpoint_row,
                                       &a, err, sizeof(err));
        rc = vw_hooks_rc(&a, lrc, err);

    } else if (strcmp(a.cmd, "add") == 0) {
        lrc = vo_ledger_webhook_add(l, a.tenant, a.url, a.secret,
                                    vw_wall_ms(), &id, err, sizeof(err));
        rc = vw_hooks_rc(&a, lrc, err);

        if (lrc == VO_LEDGER_OK) {
            printf("endpoint %lld is tenant \"%s\"'s: %s\n", (long long) id,
                   a.tenant, a.url);

            if (a.generated) {
                printf("secret (shown once: give it to the receiver): %s\n",
                       a.secret);
            }
        }

    } else if (strcmp(a.cmd, "remove") == 0) {
        lrc = vo_ledger_webhook_remove(l, a.tenant, vw_wall_ms(), &id, err,
                                       sizeof(err));
        rc = vw_hooks_rc(&a, lrc, err);

        if (lrc == VO_LEDGER_OK) {
            printf("tenant \"%s\" has no endpoint of its own any more (it "
                   "was %lld); notifications already made for it are still "
                   "delivered\n", a.tenant, (long long) id);
        }

    } else if (strcmp(a.cmd, "rotate-secret") == 0) {
        lrc = VO_LEDGER_OK;
        id = a.endpoint;

        if (id == 0) {
            lrc = vo_ledger_webhook_default(l, a.tenant, &id, err,
                                            sizeof(err));
        }

        if (lrc == VO_LEDGER_OK) {
            lrc = vo_ledger_webhook_rotate(l, id, a.secret, a.keep_ms,
                                           vw_wall_ms(), err, sizeof(err));
        }

        rc = vw_hooks_rc(&a, lrc, err);

        if (lrc == VO_LEDGER_OK) {
            printf("endpoint %lld: new secret; the old one is signed with "
                   "too for %llds\n", (long long) id,
                   (long long) (a.keep_ms / 1000));

            if (a.generated) {
                printf("secret (shown once: give it to the receiver): %s\n",
                       a.secret);
            }
        }

    } else if (strcmp(a.cmd, "enable") == 0) {
        lrc = vo_ledger_webhook_enable(l, a.endpoint, vw_wall_ms(), &n, err,
                                       sizeof(err));
        rc = vw_hooks_rc(&a, lrc, err);

        if (lrc == VO_LEDGER_OK) {
            printf("endpoint %lld enabled: %lld held notification(s) are "
                   "sent now\n", (long long) a.endpoint, (long long) n);
        }

    } else if (strcmp(a.cmd, "notifications") == 0) {
        f.state = a.state;
        f.job_id = a.job_id;
        f.endpoint_id = a.endpoint;
        f.limit = a.limit;

        printf("%-36s  %-32s  %-13s  %-9s  %8s  %-24s  %s\n", "WEBHOOK ID",
               "JOB", "TYPE", "STATE", "ATTEMPTS", "CREATED", "LAST ERROR");
        lrc = vo_ledger_list_notifications(l, &f, vw_hooks_notification_row,
                                           &a, err, sizeof(err));
        rc = vw_hooks_rc(&a, lrc, err);

    } else {
        /* redeliver */
        lrc = vo_ledger_redeliver(l, a.msg_id, a.endpoint, vw_wall_ms(), &n,
                                  err, sizeof(err));
        rc = vw_hooks_rc(&a, lrc, err);

        if (lrc == VO_LEDGER_OK) {
            printf("%lld notification(s) to be sent again, each with its "
                   "webhook-id\n", (long long) n);
        }
    }

    vo_ledger_close(l);

    return rc;
}


static int
vw_hooks_parse(vw_hooks_t *a, int argc, char **argv)
{
    int      opt;
    char     err[256], *end;
    size_t   n;
    long     v;
    int64_t  ms[1];

    static const struct option  options[] = {
        { "ledger",      required_argument, NULL, 'l' },
        { "tenant",      required_argument, NULL, 't' },
        { "url",         required_argument, NULL, 'u' },
        { "secret-file", required_argument, NULL, 's' },
        { "keep-old",    required_argument, NULL, 'k' },
        { "endpoint",    required_argument, NULL, 'e' },
        { "state",       required_argument, NULL, 'S' },
        { "job",         required_argument, NULL, 'j' },
        { "failed",      no_argument,       NULL, 'f' },
        { "limit",       required_argument, NULL, 'n' },
        { "help",        no_argument,       NULL, 'h' },
        { NULL, 0, NULL, 0 }
    };

    static const char  *cmds[] = { "list", "add", "remove", "rotate-secret",
                                   "enable", "notifications", "redeliver",
                                   "secret", NULL };

    memset(a, 0, sizeof(vw_hooks_t));
    a->cmd = argv[0];
    a->keep_ms = 24LL * 3600 * 1000;
    a->limit = 50;

    for (n = 0; cmds[n] != NULL && strcmp(cmds[n], a->cmd) != 0; n++) {
        /* void */
    }

    if (cmds[n] == NULL) {
        fprintf(stderr, VW_PROG " webhooks: unknown command \"%s\"\n",
                a->cmd);
        vw_hooks_usage(stderr);
        return -1;
    }

    optind = 1;
    opterr = 0;

    while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
        switch (opt) {

        case 'l': a->ledger = optarg; break;
        case 't': a->tenant = optarg; break;
        case 'u': a->url = optarg; break;
        case 'S': a->state = optarg; break;
        case 'j': a->job_id = optarg; break;
        case 'f': a->failed = 1; break;

        case 's':
            if (vw_hooks_secret_file(a, optarg) != 0) {
                return -1;
            }
            break;

        case 'k':
            if (vo_retry_schedule_parse(optarg, strlen(optarg), ms, 1, &n,
                                        err, sizeof(err)) != 0)
            {
                fprintf(stderr, VW_PROG " webhooks %s: --keep-old \"%s\": a "
                        "time such as 0, 30m, 24h or 7d\n", a->cmd, optarg);
                return -1;
            }

            a->keep_ms = ms[0];
            break;

        case 'e':
        case 'n':
            errno = 0;
            v = strtol(optarg, &end, 10);

            if (end == optarg || *end != '\0' || errno != 0 || v < 1
                || v > (opt == 'n' ? 100000 : 0x7fffffffL))
            {
                fprintf(stderr, VW_PROG " webhooks %s: --%s \"%s\": a "
                        "number%s\n", a->cmd, opt == 'n' ? "limit"
                                                         : "endpoint",
                        optarg, opt == 'n' ? " from 1 to 100000"
                                           : " (webhooks list shows them)");
                return -1;
            }

            if (opt == 'n') {
                a->limit = (int) v;

            } else {
                a->endpoint = v;
            }

            break;

        case 'h':
            vw_hooks_usage(stdout);
            exit(VW_EXIT_OK);

        default:
            fprintf(stderr, VW_PROG " webhooks %s: unknown or incomplete "
                    "option \"%s\" (see webhooks --help)\n", a->cmd,
                    argv[optind - 1]);
            return -1;
        }
    }

    if (strcmp(a->cmd, "redeliver") == 0 && optind == argc - 1) {
        a->msg_id = argv[optind++];
    }

    if (optind != argc) {
        fprintf(stderr, VW_PROG " webhooks %s: unexpected argument \"%s\"\n",
                a->cmd, argv[optind]);
        return -1;
    }

    if (a->ledger == NULL && strcmp(a->cmd, "secret") != 0) {
        fprintf(stderr, VW_PROG " webhooks %s: --ledger FILE|URI is "
                "required\n", a->cmd);
        return -1;
    }

    if ((strcmp(a->cmd, "add") == 0 || strcmp(a->cmd, "remove") == 0)
        && (a->tenant == NULL || a->tenant[0] == '\0'
            || strlen(a->tenant) > VO_TENANT_MAX))
    {
        fprintf(stderr, VW_PROG " webhooks %s: --tenant T is required (the "
                "value of video_ocr_tenant for its uploads)\n", a->cmd);
        return -1;
    }

    if (strcmp(a->cmd, "add") == 0) {
        if (a->url == NULL) {
            fprintf(stderr, VW_PROG " webhooks add: --url URL is required\n");
            return -1;
        }

        if (vo_webhook_url_check(a->url, strlen(a->url), err, sizeof(err))
            != 0)
        {
            fprintf(stderr, VW_PROG " webhooks add: --url \"%s\": %s\n",
                    a->url, err);
            return -1;
        }
    }

    if (strcmp(a->cmd, "rotate-secret") == 0
        && (a->endpoint == 0) == (a->tenant == NULL))
    {
        fprintf(stderr, VW_PROG " webhooks rotate-secret: give --endpoint ID "
                "or --tenant T (its endpoint of webhooks add)\n");
        return -1;
    }

    if (strcmp(a->cmd, "enable") == 0 && a->endpoint == 0) {
        fprintf(stderr, VW_PROG " webhooks enable: --endpoint ID is "
                "required (webhooks list shows it)\n");
        return -1;
    }

    if (strcmp(a->cmd, "redeliver") == 0
        && (a->msg_id == NULL) == (a->failed == 0))
    {
        fprintf(stderr, VW_PROG " webhooks redeliver: give one WEBHOOK_ID "
                "(msg_...), or --failed for every failed one\n");
        return -1;
    }

    if (a->state != NULL && strcmp(a->state, "pending") != 0
        && strcmp(a->state, "held") != 0 && strcmp(a->state, "delivered") != 0
        && strcmp(a->state, "failed") != 0)
    {
        fprintf(stderr, VW_PROG " webhooks %s: --state is pending, held, "
                "delivered or failed\n", a->cmd);
        return -1;
    }

    if (a->secret[0] == '\0'
        && (strcmp(a->cmd, "add") == 0 || strcmp(a->cmd, "rotate-secret") == 0
            || strcmp(a->cmd, "secret") == 0))
    {
        if (vo_webhook_secret_new(a->secret) != 0) {
            fprintf(stderr, VW_PROG " webhooks %s: no random bytes for a "
                    "secret\n", a->cmd);
            return -1;
        }

        a->generated = 1;
    }

    return 0;
}


/* The secret in a file: one line, "whsec_..." (a trailing newline is not
 * part of it). */

static int
vw_hooks_secret_file(vw_hooks_t *a, const char *path)
{
    FILE           *f;
    char            buf[VO_WEBHOOK_SECRET_BUF + 2], err[256];
    size_t          n, klen;
    unsigned char   key[VO_WEBHOOK_KEY_MAX];

    f = fopen(path, "re");
    if (f == NULL) {
        fprintf(stderr, VW_PROG " webhooks %s: --secret-file \"%s\": %s\n",
                a->cmd, path, strerror(errno));
        return -1;
    }

    n = fread(buf, 1, sizeof(buf), f);
    fclose(f);

    while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r')) {
        n--;
    }

    if (n > VO_WEBHOOK_SECRET_MAX
        || vo_webhook_secret_parse(buf, n, key, &klen, err, sizeof(err)) != 0)
    {
        fprintf(stderr, VW_PROG " webhooks %s: --secret-file \"%s\": %s\n",
                a->cmd, path, n > VO_WEBHOOK_SECRET_MAX
                ? "longer than any webhook secret" : err);
        return -1;
    }

    memcpy(a->secret, buf, n);
    a->secret[n] = '\0';

    return 0;
}


static int
vw_hooks_rc(const vw_hooks_t *a, vo_ledger_rc_t rc, const char *err)
{
    switch (rc) {

    case VO_LEDGER_OK:
        return VW_EXIT_OK;

    case VO_LEDGER_NOT_FOUND:
    case VO_LEDGER_NOT_READY:
        fprintf(stderr, VW_PROG " webhooks %s: %s\n", a->cmd, err);
        return VW_EXIT_REJECTED;

    default:
        fprintf(stderr, VW_PROG " webhooks %s: %s\n", a->cmd, err);
        return VW_EXIT_FAILED;
    }
}


static int
vw_hooks_endpoint_row(void *data, const vo_endpoint_row_t *row)
{
    char  state[32];

    (void) data;

    if (row->disabled_at >= 0) {
        snprintf(state, sizeof(state), "disabled");

    } else if (row->previous_until > vw_wall_ms()) {
        snprintf(state, sizeof(state), "rotating");

    } else {
        snprintf(state, sizeof(state), "enabled");
    }

    printf("%-6lld  %-16.16s  %-8s  %-16s  %-9s  %7lld  %5lld  %6lld  %s\n",
           (long long) row->id, row->tenant, row->is_default ? "yes" : "-",
           row->fingerprint, state, (long long) row->pending,
           (long long) row->held, (long long) row->failed, row->url);

    if (row->disabled_at >= 0) {
        printf("        disabled: %s\n", row->disabled_reason);
    }

    return 0;
}


static int
vw_hooks_notification_row(void *data, const vo_notification_row_t *row)
{
    char  created[32];

    (void) data;

    vw_hooks_time(created, sizeof(created), row->created_at);

    printf("%-36s  %-32s  %-13s  %-9s  %8d  %-24s  %s\n", row->msg_id,
           row->job_id, row->type, row->state, row->attempts, created,
           row->last_error[0] ? row->last_error : "-");

    return 0;
}


static void
vw_hooks_time(char *buf, size_t size, int64_t ms)
{
    time_t     t;
    struct tm  tm;
    size_t     n;

    t = (time_t) (ms / 1000);
    (void) gmtime_r(&t, &tm);

    n = strftime(buf, size, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(buf + n, size - n, ".%03dZ", (int) (ms % 1000));
}


static void
vw_hooks_usage(FILE *f)
{
    fprintf(f,
        "usage: " VW_PROG " webhooks COMMAND --ledger FILE|URI [options]\n"
        "\n"
        "  list          [--tenant T]        endpoints, their state and "
        "what waits\n"
        "  add           --tenant T --url URL [--secret-file F]\n"
        "                                    the tenant's endpoint (for jobs "
        "nginx's\n"
        "                                    video_ocr_webhook gave none)\n"
        "  remove        --tenant T          no endpoint of its own any "
        "more\n"
        "  rotate-secret --endpoint ID | --tenant T [--secret-file F] "
        "[--keep-old 24h]\n"
        "                                    a new secret; the old one is "
        "signed with\n"
        "                                    too for --keep-old\n"
        "  enable        --endpoint ID       after a 410 Gone: deliver "
        "again\n"
        "  notifications [--state pending|held|delivered|failed] [--job J]\n"
        "                [--endpoint ID] [--limit N]\n"
        "  redeliver     WEBHOOK_ID | --failed [--endpoint ID]\n"
        "                                    send again, same webhook-id\n"
        "  secret                            print a new whsec_ secret\n"
        "\n"
        "A secret made by add or rotate-secret is printed once.  See "
        "docs/operations.md.\n");
}
