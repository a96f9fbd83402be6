/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The operator's commands, on the ledger directly (no nginx needed):
 *
 *   video-ocr-worker jobs    --ledger FILE|URI [--state S] [--stuck]
 *                            [--tenant T] [--limit N] [--stuck-after T]
 *   video-ocr-worker events  --ledger FILE|URI JOB
 *   video-ocr-worker retry   --ledger FILE|URI JOB --reason TEXT
 *   video-ocr-worker abandon --ledger FILE|URI JOB --reason TEXT
 *   video-ocr-worker explain --ledger FILE|URI
 *
 * The two actions are recorded as audit events with the reason
 * (vo_ledger_admin.c); docs/operations.md says when to use them.
 */

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vo_ledger.h"
#include "vw_cmd.h"
#include "core/vw_core.h"


typedef struct {
    const char  *ledger;
    const char  *state;
    const char  *tenant;
    const char  *reason;
    const char  *job_id;
    int          stuck;
    int          limit;
    int64_t      stuck_after_ms;
    int64_t      now_ms;
} vw_admin_t;


static int vw_admin_parse(vw_admin_t *a, int argc, char **argv, int want_job,
    int want_reason);
static int vw_admin_job_row(void *data, const vo_job_row_t *row);
static int vw_admin_event_row(void *data, int64_t at, const char *kind,
    int attempt, const char *detail);
static int vw_admin_action(int argc, char **argv, int retry);
static void vw_age(char *buf, size_t size, int64_t ms);


int
vw_cmd_jobs(int argc, char **argv)
{
    char             err[VO_ERR_TEXT];
    vw_admin_t       a;
    vo_ledger_t     *l;
    vo_job_filter_t  f;

    if (vw_admin_parse(&a, argc, argv, 0, 0) != 0) {
        return VW_EXIT_USAGE;
    }

    l = vw_cmd_ledger(a.ledger);
    if (l == NULL) {
        return VW_EXIT_CONFIG;
    }

    f.state = a.state;
    f.tenant = a.tenant;
    f.stuck = a.stuck;
    f.now_ms = a.now_ms;
    f.stuck_after_ms = a.stuck_after_ms;
    f.limit = a.limit;

    printf("%-32s  %-9s  %7s  %-7s  %-30s  %9s  %-11s  %s\n", "JOB", "STATE",
           "AGE", "ATTEMPT", "LEASE", "LAST WRITE", "FRAMES", "ERROR OR PARTS");

    if (vo_ledger_list_jobs(l, &f, vw_admin_job_row, &a, err, sizeof(err))
        != VO_LEDGER_OK)
    {
        fprintf(stderr, VW_PROG " jobs: %s\n", err);
        vo_ledger_close(l);
        return VW_EXIT_FAILED;
    }

    vo_ledger_close(l);

    return VW_EXIT_OK;
}


int
vw_cmd_events(int argc, char **argv)
{
    int             rc;
    char            err[VO_ERR_TEXT];
    vw_admin_t      a;
    vo_ledger_t    *l;
    vo_ledger_rc_t  lrc;

    if (vw_admin_parse(&a, argc, argv, 1, 0) != 0) {
        return VW_EXIT_USAGE;
    }

    l = vw_cmd_ledger(a.ledger);
    if (l == NULL) {
        return VW_EXIT_CONFIG;
    }

    lrc = vo_ledger_list_events(l, a.job_id, vw_admin_event_row, &a, err,
                                sizeof(err));

    rc = VW_EXIT_OK;

    if (lrc != VO_LEDGER_OK) {
        fprintf(stderr, VW_PROG " events: %s\n", err);
        rc = lrc == VO_LEDGER_NOT_FOUND ? VW_EXIT_REJECTED : VW_EXIT_FAILED;
    }

    vo_ledger_close(l);

    return rc;
}


/* The plan of every statement of the ledger. */

int
vw_cmd_explain(int argc, char **argv)
{
    int             rc;
    char            err[VO_ERR_TEXT];
    vo_buf_t        out;
    vw_admin_t      a;
    vo_ledger_t    *l;
    vo_ledger_rc_t  lrc;

    if (vw_admin_parse(&a, argc, argv, 0, 0) != 0) {
        return VW_EXIT_USAGE;
    }

    l = vw_cmd_ledger(a.ledger);
    if (l == NULL) {
        return VW_EXIT_CONFIG;
    }

    vo_buf_init(&out);

    lrc = vo_ledger_explain(l, &out, err, sizeof(err));

    rc = VW_EXIT_OK;

    if (lrc != VO_LEDGER_OK) {
        fprintf(stderr, VW_PROG " explain: %s\n", err);
        rc = VW_EXIT_FAILED;

    } else {
        fwrite(out.data, 1, out.len, stdout);
    }

    vo_buf_free(&out);
    vo_ledger_close(l);

    return rc;
}


int
vw_cmd_retry(int argc, char **argv)
{
    return vw_admin_action(argc, argv, 1);
}


int
vw_cmd_abandon(int argc, char **argv)
{
    return vw_admin_action(argc, argv, 0);
}


static int
vw_admin_action(int argc, char **argv, int retry)
{
    int             rc;
    char            err[VO_ERR_TEXT], state[16];
    vw_admin_t      a;
    vo_ledger_t    *l;
    vo_ledger_rc_t  lrc;

    if (vw_admin_parse(&a, argc, argv, 1, 1) != 0) {
        return VW_EXIT_USAGE;
    }

    l = vw_cmd_ledger(a.ledger);
    if (l == NULL) {
        return VW_EXIT_CONFIG;
    }

    lrc = retry ? vo_ledger_operator_retry(l, a.job_id, a.reason, a.now_ms,
                                           state, sizeof(state), err,
                                           sizeof(err))
                : vo_ledger_operator_abandon(l, a.job_id, a.reason, a.now_ms,
                                             state, sizeof(state), err,
                                             sizeof(err));

    switch (lrc) {

    case VO_LEDGER_OK:
        printf("job %s is now %s\n", a.job_id, state);
        rc = VW_EXIT_OK;
        break;

    case VO_LEDGER_NOT_FOUND:
    case VO_LEDGER_NOT_READY:
        fprintf(stderr, VW_PROG " %s: %s\n", argv[0], err);
        rc = VW_EXIT_REJECTED;
        break;

    default:
        fprintf(stderr, VW_PROG " %s: %s\n", argv[0], err);
        rc = VW_EXIT_FAILED;
        break;
    }

    vo_ledger_close(l);

    return rc;
}


static int
vw_admin_parse(vw_admin_t *a, int argc, char **argv, int want_job,
    int want_reason)
{
    int    opt;
    long   n;
    char  *end;

    static const struct option  options[] = {
        { "ledger",      required_argument, NULL, 'l' },
        { "state",       required_argument, NULL, 's' },
        { "tenant",      required_argument, NULL, 't' },
        { "stuck",       no_argument,       NULL, 'k' },
        { "stuck-after", required_argument, NULL, 'a' },
        { "limit",       required_argument, NULL, 'n' },
        { "reason",      required_argument, NULL, 'r' },
        { "help",        no_argument,       NULL, 'h' },
        { NULL, 0, NULL, 0 }
    };

    memset(a, 0, sizeof(vw_admin_t));
    a->limit = 50;
    a->stuck_after_ms = 600000;
    a->now_ms = vw_wall_ms();

    optind = 1;
    opterr = 0;

    while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
        switch (opt) {

        case 'l': a->ledger = optarg; break;
        case 's': a->state = optarg; break;
        case 't': a->tenant = optarg; break;
        case 'k': a->stuck = 1; break;
        case 'r': a->reason = optarg; break;

        case 'a':
            n = strtol(optarg, &end, 10);
            if (end == optarg || n < 0 || (*end != '\0' && *end != 's'
                                           && *end != 'm'))
            {
                fprintf(stderr, VW_PROG " %s: --stuck-after \"%s\": a "
                        "number of seconds, or 10m\n", argv[0], optarg);
                return -1;
            }

            a->stuck_after_ms = n * (*end == 'm' ? 60000 : 1000);
            break;

        case 'n':
            n = strtol(optarg, &end, 10);
            if (end == optarg || *end != '\0' || n < 1 || n > 100000) {
                fprintf(stderr, VW_PROG " %s: --limit \"%s\": 1 to 100000\n",
                        argv[0], optarg);
                return -1;
            }

            a->limit = (int) n;
            break;

        case 'h':
            printf("usage: " VW_PROG " jobs --ledger FILE|URI [--state S] "
                   "[--stuck] [--stuck-after T] [--tenant T] [--limit N]\n"
                   "       " VW_PROG " events --ledger FILE|URI JOB\n"
                   "       " VW_PROG " retry --ledger FILE|URI JOB --reason "
                   "TEXT\n"
                   "       " VW_PROG " abandon --ledger FILE|URI JOB "
                   "--reason TEXT\n"
                   "       " VW_PROG " explain --ledger FILE|URI\n");
            exit(VW_EXIT_OK);

        default:
            fprintf(stderr, VW_PROG " %s: unknown or incomplete option "
                    "\"%s\" (see --help)\n", argv[0], argv[optind - 1]);
            return -1;
        }
    }

    if (a->ledger == NULL) {
        fprintf(stderr, VW_PROG " %s: --ledger FILE|URI is required\n",
                argv[0]);
        return -1;
    }

    if (want_job) {
        if (optind != argc - 1
            || !vo_job_id_valid(argv[optind], strlen(argv[optind])))
        {
            fprintf(stderr, VW_PROG " %s: give one job id (32 hex "
                    "digits)\n", argv[0]);
            return -1;
        }

        a->job_id = argv[optind];

    } else if (optind != argc) {
        fprintf(stderr, VW_PROG " %s: unexpected argument \"%s\"\n", argv[0],
                argv[optind]);
        return -1;
    }

    if (want_reason && (a->reason == NULL || a->reason[0] == '\0')) {
        fprintf(stderr, VW_PROG " %s: --reason TEXT is required: it goes "
                "into the job's audit trail\n", argv[0]);
        return -1;
    }

    return 0;
}


vo_ledger_t *
vw_cmd_ledger(const char *spec)
{
    char              err[VO_ERR_TEXT];
    vo_ledger_t      *l;
    vo_ledger_conf_t  lconf;

    lconf.busy_timeout_ms = 5000;
    lconf.sync_full = 1;
    lconf.migrate = 0;

    if (vo_ledger_open(spec, &lconf, &l, err, sizeof(err)) != VO_LEDGER_OK) {
        fprintf(stderr, VW_PROG ": %s\n", err);
        return NULL;
    }

    return l;
}


static int
vw_admin_job_row(void *data, const vo_job_row_t *row)
{
    char         age[24], last[24], lease[64], left[24], frames[48];
    char         note[64];
    vw_admin_t  *a = data;

    vw_age(age, sizeof(age), a->now_ms - row->created_at);
    vw_age(last, sizeof(last), a->now_ms - row->updated_at);

    if (row->lease_owner[0] != '\0') {
        if (row->lease_expires_at >= a->now_ms) {
            vw_age(left, sizeof(left), row->lease_expires_at - a->now_ms);
            snprintf(lease, sizeof(lease), "%.22s %s left", row->lease_owner,
                     left);

        } else {
            snprintf(lease, sizeof(lease), "%.22s EXPIRED", row->lease_owner);
        }

    } else {
        snprintf(lease, sizeof(lease), "-");
    }

    if (row->frames_planned >= 0) {
        snprintf(frames, sizeof(frames), "%lld/%lld",
                 (long long) row->frames_done,
                 (long long) row->frames_planned);

    } else {
        snprintf(frames, sizeof(frames), "-");
    }

    /* the last column: the error, or what a long job's parts are */
    if (row->error_code[0] != '\0') {
        snprintf(note, sizeof(note), "%s", row->error_code);

    } else if (row->parent_id[0] != '\0') {
        snprintf(note, sizeof(note), "part %d of %s", row->part,
                 row->parent_id);

    } else if (row->parts > 0) {
        snprintf(note, sizeof(note), "parts %d/%d done", row->parts_done,
                 row->parts);

    } else {
        snprintf(note, sizeof(note), "-");
    }

    printf("%-32s  %-9s  %7s  %d/%d%*s  %-30s  %9s  %-11s  %s\n",
           row->job_id, row->state, age, row->attempt, row->max_attempts,
           row->attempt > 9 ? 2 : 3, "", lease, last, frames, note);

    return 0;
}


static int
vw_admin_event_row(void *data, int64_t at, const char *kind, int attempt,
    const char *detail)
{
    char       when[32];
    time_t     t;
    struct tm  tm;

    (void) data;

    t = (time_t) (at / 1000);
    (void) gmtime_r(&t, &tm);
    (void) strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S", &tm);

    printf("%s.%03dZ  %-16s  attempt=%d  %s\n", when, (int) (at % 1000),
           kind ? kind : "", attempt, detail ? detail : "");

    return 0;
}


/* 42s, 5m12s, 3h04m, 2d03h */

static void
vw_age(char *buf, size_t size, int64_t ms)
{
    int64_t  s;

    s = ms < 0 ? 0 : ms / 1000;

    if (s < 60) {
        snprintf(buf, size, "%llds", (long long) s);

    } else if (s < 3600) {
        snprintf(buf, size, "%lldm%02llds", (long long) (s / 60),
                 (long long) (s % 60));

    } else if (s < 86400) {
        snprintf(buf, size, "%lldh%02lldm", (long long) (s / 3600),
                 (long long) (s % 3600 / 60));

    } else {
        snprintf(buf, size, "%lldd%02lldh", (long long) (s / 86400),
                 (long long) (s % 86400 / 3600));
    }
}
