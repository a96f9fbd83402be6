/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * A worker child: claims a job, runs the pipeline on it with hooks that
 * write every row to the ledger under the claim's fencing token, and
 * publishes the result only while it still holds the attempt.  A long
 * video's first claim makes it parts instead (vw_child_split), each a job
 * of its own; a part's run stops at its seam with the next part's rows
 * (vw_child_seam), and the part that finishes last publishes the job
 * (vo_ledger_part_done).  One ledger connection and one set of Tesseract
 * engines per child, reused across jobs.  See docs/ledger.md for the
 * rules it follows.
 *
 * Signals: SIGTERM and SIGINT ask the child to stop; the pipeline's tick
 * hook sees it within a frame, the job is released (it goes back to
 * accepted without a failure counted) and the child exits.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "vo_edge.h"
#include "vo_ledger.h"
#include "core/vw_core.h"
#include "result/vw_output.h"
#include "result/vw_seam.h"
#include "pipeline/vw_pipeline.h"
#include "vw_pool.h"


typedef struct {
    const vw_pool_conf_t  *conf;
    vo_ledger_t          *ledger;
    vo_claim_t            claim;
    char                  owner[128];
    char                  err[256];

    vo_frame_row_t       *known;          /* rows of earlier attempts */
    size_t                nknown;

    const vo_options_t   *options;        /* the job's, for the result */
    vw_report_t          *run;            /* the run's report: its plan,
                                             inspection and cuts */
    vo_buf_t              bufs[VO_RESULT_FORMATS];  /* the rendered result */

    /* long videos in parts (sql/schema.sql, PARTS) */
    int                   split;          /* this claim made the job parts */
    vo_part_t            *parts;          /* a part's: its job's parts */
    size_t                nparts;
    int64_t               seam_index;     /* a part's: where a later part
                                             takes over, -1: not found */
    int                   seam_part;

    char                  key_hash[VO_KEY_HASH_LEN + 1];  /* or "-" */
    int64_t               started;        /* vw_now_ms() at the claim */
    int64_t               claim_ms;       /* how long the claim
                                             took, for the histogram */
    int64_t               next_heartbeat;
    int                   lost;           /* a write came back STALE */
    int                   failed;         /* a write failed otherwise */
    int                   cpu_limit;      /* the job used its CPU budget */
    uint32_t              stored;         /* rows written this attempt */
} vw_child_t;


static volatile sig_atomic_t  vw_child_stop;


static void vw_child_signal(int signo);
static void vw_child_job(vw_child_t *ch);
static void vw_child_begin(vw_child_t *ch);
static int vw_child_input(vw_child_t *ch, vo_options_t *options, int *fd,
    vw_err_t *err);
static int vw_child_run(vw_child_t *ch, int fd, const vo_options_t *options,
    vw_report_t *run, vw_err_t *err);
static void vw_child_finish(vw_child_t *ch, const vw_report_t *run,
    const char *step, vw_err_t *err);
static int vw_child_publish(vw_child_t *ch, vo_attempt_stats_t *st);
static int vw_child_part_done(vw_child_t *ch, vo_attempt_stats_t *st,
    int *published);
static int vw_child_render(void *data, const vo_frame_row_t *stored,
    size_t n, vo_result_body_t *bodies, size_t *nbodies,
    const char **warning, char *err, size_t err_size);
static int vw_child_split(vw_child_t *ch, const vw_plan_t *plan);
static int vw_child_seam(vw_child_t *ch, uint32_t u);
static int vw_child_unit(vw_child_t *ch, const char *job_id, uint32_t lo,
    uint32_t hi, vo_frame_row_t **stored, size_t *n, vw_row_t **rows);
static void vw_child_row(const vw_plan_t *plan, const vo_frame_row_t *r,
    vw_row_t *row);
static void vw_child_stats(vw_child_t *ch, const vw_report_t *run,
    const char *step, vo_attempt_stats_t *st);
static void vw_child_cpu(const vw_report_t *run, char *buf, size_t size);
static void vw_child_event(vw_child_t *ch, const char *event,
    const vo_attempt_stats_t *st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static int vw_child_ledger_rc(vw_child_t *ch, vo_ledger_rc_t rc,
    const char *what);
static int vw_hook_ready(void *data, const vw_inspection_t *in,
    const vw_plan_t *plan);
static int vw_hook_row_known(void *data, uint32_t index,
    vw_row_t  *known);
static int vw_hook_row_done(void *data, const vw_row_t *f);
static int vw_hook_tick(void *data);


int
vw_child_main(const vw_pool_conf_t *conf)
{
    int               exit_code;
    char              host[64], who[32];
    int64_t           t0;
    vw_child_t        ch;
    vo_ledger_rc_t    rc;
    struct sigaction  sa;

    memset(&ch, 0, sizeof(ch));
    ch.conf = conf;

    /* no SA_RESTART: a signal cuts the idle sleep short */
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = vw_child_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    vw_confine_cpu_handler();

    /* FFmpeg's own messages: kept for the job's error, printed only with
     * --verbose (a decoder's complaint is not a line of the pool's log) */
    vw_pipeline_init(conf->verbose);

    if (gethostname(host, sizeof(host)) != 0) {
        snprintf(host, sizeof(host), "localhost");
    }

    host[sizeof(host) - 1] = '\0';
    snprintf(ch.owner, sizeof(ch.owner), "%s:%ld/%d", host, (long) getpid(),
             conf->slot);

    snprintf(who, sizeof(who), "slot %d", conf->slot);

    ch.ledger = vw_pool_ledger(conf, who, &vw_child_stop, &exit_code);
    if (ch.ledger == NULL) {
        return exit_code;
    }

    vw_log("slot %d: child ready as %s", conf->slot, ch.owner);

    while (!vw_child_stop) {

        t0 = vw_now_ms();

        rc = vo_ledger_claim(ch.ledger, ch.owner, vw_wall_ms(),
                             conf->lease_ms, &conf->claim_policy, &ch.claim,
                             ch.err, sizeof(ch.err));

        /* recorded in the ledger with the attempt's last event
         * (video_ocr_claim_seconds, docs/operations.md) */
        ch.claim_ms = vw_now_ms() - t0;

        if (rc == VO_LEDGER_OK) {
            vw_child_job(&ch);
            continue;
        }

        if (rc != VO_LEDGER_NOT_FOUND) {
            vw_log("slot %d: claim failed: %s", conf->slot, ch.err);
        }

        vw_sleep_ms(conf->poll_ms);
    }

    vw_log("slot %d: stopping", conf->slot);

    vo_ledger_close(ch.ledger);
    vw_pipeline_shutdown();

    return VW_EXIT_OK;
}


static void
vw_child_signal(int signo)
{
    (void) signo;
    vw_child_stop = 1;
}


/*
 * One claimed job: its input opened, the pipeline run with the hooks
 * that write its rows, the result published (a long job: made parts; a
 * part: done, and the job published if it was the last); or the attempt
 * ended as lost, rejected, released or retried (vw_child_finish).
 */
static void
vw_child_job(vw_child_t *ch)
{
    int                 fd, rc, published;
    const char         *step;
    char                cpu[256];
    vw_err_t            err;
    vw_report_t         run;
    vo_options_t        options;
    vo_attempt_stats_t  st;

    fd = -1;
    step = "start";

    vw_err_clear(&err);
    memset(&run, 0, sizeof(run));

    vw_child_begin(ch);

    if (vw_child_input(ch, &options, &fd, &err) == 0) {
        rc = vw_child_run(ch, fd, &options, &run, &err);

        step = !run.inspected ? "inspect" : !run.planned ? "plan" : "ocr";

        if (ch->split && !ch->lost && !ch->failed) {
            /* the job is its parts' now: no lease, nothing to finish */
            vw_child_event(ch, "split", NULL, "parts=%u planned=%u",
                           run.ncuts + 1, run.plan.samples);
            goto done;
        }

        if (ch->claim.parent_id[0] != '\0' && !ch->lost && !ch->failed
            && (rc == 0 || ch->seam_index >= 0))
        {
            /* a part read to its seam, or to the end of the video */
            vw_child_stats(ch, &run, "publish", &st);

            if (vw_child_part_done(ch, &st, &published) == 0) {
                vw_child_cpu(&run, cpu, sizeof(cpu));
                vw_child_event(ch, published ? "published" : "part_done",
                               &st,
                               "job=%s part=%d seam=%lld planned=%u "
                               "known=%u restored=%u%s",
                               ch->claim.parent_id, ch->claim.part,
                               (long long) ch->seam_index, run.plan.samples,
                               run.stats.frames_known,
                               run.stats.refs_restored, cpu);
                goto done;
            }

            step = "publish";

        } else if (rc == 0 && !ch->lost && !ch->failed) {
            vw_child_stats(ch, &run, "publish", &st);

            if (vw_child_publish(ch, &st) == 0) {
                vw_child_cpu(&run, cpu, sizeof(cpu));
                vw_child_event(ch, "published", &st, "planned=%u known=%u "
                               "restored=%u warning=%s%s", run.plan.samples,
                               run.stats.frames_known,
                               run.stats.refs_restored,
                               st.warning != NULL ? st.warning : "-", cpu);
                goto done;
            }

            step = "publish";
        }
    }

    vw_child_finish(ch, &run, step, &err);

done:

    vw_confine_job_end(&ch->conf->confine);

    if (fd != -1) {
        (void) close(fd);
    }

    vo_ledger_free_frames(ch->known, ch->nknown);
    ch->known = NULL;
    ch->nknown = 0;
    free(ch->parts);
    ch->parts = NULL;
    ch->nparts = 0;
}


/* A claim begins: the attempt's counters, its CPU budget, the keyed
 * hash of its key for the logs, the "claimed" event. */
static void
vw_child_begin(vw_child_t *ch)
{
    int64_t      start;
    vo_claim_t  *c;

    c = &ch->claim;
    start = vw_now_ms();

    ch->lost = 0;
    ch->failed = 0;
    ch->cpu_limit = 0;
    ch->stored = 0;
    ch->known = NULL;
    ch->nknown = 0;
    ch->split = 0;
    ch->parts = NULL;
    ch->nparts = 0;
    ch->seam_index = -1;
    ch->seam_part = -1;
    ch->next_heartbeat = start + ch->conf->heartbeat_ms;

    (void) vw_confine_job(&ch->conf->confine);

    ch->started = start;

    if (c->key[0] != '\0') {
        vo_key_hash(ch->conf->key_hash_secret, ch->conf->key_hash_secret_len,
                    c->tenant, strlen(c->tenant), c->key, strlen(c->key),
                    ch->key_hash);

    } else {
        snprintf(ch->key_hash, sizeof(ch->key_hash), "-");
    }

    if (c->parent_id[0] != '\0') {
        vw_child_event(ch, c->takeover ? "part_taken_over" : "part_claimed",
                       NULL, "owner=%s job=%s part=%d samples=%u-%u",
                       ch->owner, c->parent_id, c->part, c->first_sample,
                       c->end_sample);
        return;
    }

    vw_child_event(ch, c->takeover ? "taken_over" : "claimed", NULL,
                   "owner=%s age=%llds", ch->owner,
                   (long long) ((vw_wall_ms() - c->created_at) / 1000));
}


/*
 * What the job reads: its stored options, its upload (*fd, the
 * caller's to close), and the rows earlier attempts stored (those
 * looks are not read again).  -1 with err filled when one is missing.
 */
static int
vw_child_input(vw_child_t *ch, vo_options_t *options, int *fd,
    vw_err_t *err)
{
    char             path[PATH_MAX];
    vo_claim_t      *c;
    vo_ledger_rc_t   lrc;

    c = &ch->claim;

    if (vo_options_from_canonical(options, c->options, strlen(c->options),
                                  err->msg, sizeof(err->msg))
        != 0)
    {
        return vw_fail(err, "bad_options", "job %s: stored options %s: %s",
                       c->job_id, c->options, err->msg);
    }

    snprintf(path, sizeof(path), "%s/%s", ch->conf->store, c->input_path);

    *fd = open(path, O_RDONLY | O_CLOEXEC);
    if (*fd == -1) {
        return vw_fail(err, errno == ENOENT ? "input_missing" : "io",
                       "job %s: open(\"%s\") failed: %s", c->job_id, path,
                       strerror(errno));
    }

    lrc = vo_ledger_frames(ch->ledger, c->job_id, VW_PLAN_VERSION,
                           &ch->known, &ch->nknown, ch->err,
                           sizeof(ch->err));
    if (lrc != VO_LEDGER_OK) {
        return vw_fail(err, "ledger", "job %s: %s", c->job_id, ch->err);
    }

    if (c->parent_id[0] != '\0') {
        /* whose rows take over after this part's cut (vw_child_seam) */
        lrc = vo_ledger_parts(ch->ledger, c->parent_id, &ch->parts,
                              &ch->nparts, ch->err, sizeof(ch->err));
        if (lrc != VO_LEDGER_OK) {
            return vw_fail(err, "ledger", "job %s: %s", c->job_id, ch->err);
        }
    }

    ch->options = options;

    return 0;
}


/* The pipeline on the job, its rows written by the hooks. */
static int
vw_child_run(vw_child_t *ch, int fd, const vo_options_t *options,
    vw_report_t *run, vw_err_t *err)
{
    char        name[64];
    vw_job_t    job;
    vw_hooks_t  hooks;

    snprintf(name, sizeof(name), "job %s", ch->claim.job_id);

    memset(&hooks, 0, sizeof(hooks));
    memset(&job, 0, sizeof(job));

    hooks.data = ch;
    hooks.ready = vw_hook_ready;
    hooks.row_known = vw_hook_row_known;
    hooks.row_done = vw_hook_row_done;
    hooks.tick = vw_hook_tick;

    job.name = name;
    job.fd = fd;
    job.options = options;
    job.limits = &ch->conf->limits;
    job.hooks = &hooks;

    if (ch->claim.parent_id[0] != '\0') {
        /* a part: a run that begins at its first sample */
        job.from = ch->claim.first_sample;

    } else if (ch->nknown == 0) {
        /* a job nothing was read of yet: read as parts if it is long
         * (the cuts, vw_cuts_find; the split, vw_child_split) */
        job.part_ms = ch->conf->part_ms;
        job.split_ms = ch->conf->split_ms;
    }

    ch->run = run;

    return vw_pipeline_run(&job, run, err);
}


/*
 * The attempt did not publish: it was lost (another attempt holds the
 * job, or it was cancelled), rejected (the input can never succeed, or
 * it used its CPU budget), released (the worker is stopping), or it
 * failed and is retried after a backoff (or failed for good).
 */
static void
vw_child_finish(vw_child_t *ch, const vw_report_t *run, const char *step,
    vw_err_t *err)
{
    int                 gave_up;
    size_t              n;
    int64_t             now, backoff;
    vo_claim_t         *c;
    vo_ledger_rc_t      lrc;
    vo_attempt_stats_t  st;

    c = &ch->claim;
    now = vw_wall_ms();
    vw_child_stats(ch, run, step, &st);

    if (ch->lost) {
        (void) vo_ledger_lost(ch->ledger, c, &st, now, ch->err,
                              sizeof(ch->err));
        vw_child_event(ch, "lost", &st, "this attempt's writes were "
                       "refused");
        return;
    }

    if (ch->cpu_limit) {
        /* the same file would take as long again: not worth a retry */
        vw_err_clear(err);
        (void) vw_reject(err, "cpu_limit", "job %s: used its CPU budget "
                         "of %llds (--max-cpu) at frame %u of %u", c->job_id,
                         (long long) (ch->conf->confine.max_cpu_ms / 1000),
                         run->stats.frames_done, run->plan.samples);
    }

    if (strcmp(err->code, "no_memory") == 0
        && ch->conf->confine.max_memory > 0)
    {
        /* most likely the child's own limit: say which */
        n = strlen(err->msg);

        snprintf(err->msg + n, sizeof(err->msg) - n, " (within "
                 "--max-memory %lldm)",
                 (long long) (ch->conf->confine.max_memory >> 20));
    }

    if (err->status == VW_REJECTED) {
        lrc = vo_ledger_reject(ch->ledger, c, err->code, err->msg, &st, now,
                               ch->err, sizeof(ch->err));
        if (vw_child_ledger_rc(ch, lrc, "reject") == 0) {
            vw_child_event(ch, "rejected", &st, "code=%s: %s", err->code,
                           err->msg);
        }

        return;
    }

    if (err->status == VW_STOPPED && vw_child_stop && !ch->failed) {
        lrc = vo_ledger_release(ch->ledger, c, &st, now, ch->err,
                                sizeof(ch->err));
        if (vw_child_ledger_rc(ch, lrc, "release") == 0) {
            vw_child_event(ch, "released", &st, "the worker is stopping");
        }

        return;
    }

    if (err->status == VW_OK || err->status == VW_STOPPED) {
        /* a hook stopped the run: a ledger write failed */
        (void) vw_fail(err, "ledger", "job %s: %s", c->job_id, ch->err);
    }

    /* a transient failure: back to accepted after a backoff, or failed */

    backoff = ch->conf->backoff_ms << (c->failures < 10 ? c->failures : 10);

    lrc = vo_ledger_retry(ch->ledger, c, err->code, err->msg, &st, now,
                          now + backoff, &gave_up, ch->err, sizeof(ch->err));

    if (vw_child_ledger_rc(ch, lrc, "retry") == 0) {
        vw_child_event(ch, gave_up ? "failed" : "retried", &st,
                       "code=%s: %s", err->code, err->msg);
    }
}


/*
 * Builds the result from every row of the job (those of earlier
 * attempts too), renders it in each format, and publishes it with the
 * move to done, under the fencing token.
 */
static int
vw_child_publish(vw_child_t *ch, vo_attempt_stats_t *st)
{
    int                 rc;
    size_t              n, nbodies;
    vo_frame_row_t     *stored;
    vo_ledger_rc_t      lrc;
    vo_result_body_t    bodies[VO_RESULT_FORMATS];

    lrc = vo_ledger_frames(ch->ledger, ch->claim.job_id, VW_PLAN_VERSION,
                           &stored, &n, ch->err, sizeof(ch->err));
    if (lrc != VO_LEDGER_OK) {
        return vw_child_ledger_rc(ch, lrc, "read rows");
    }

    rc = vw_child_render(ch, stored, n, bodies, &nbodies, &st->warning,
                         ch->err, sizeof(ch->err));

    vo_ledger_free_frames(stored, n);

    if (rc != 0) {
        ch->failed = 1;

    } else {
        lrc = vo_ledger_publish(ch->ledger, &ch->claim, bodies, nbodies, st,
                                vw_wall_ms(), ch->err, sizeof(ch->err));

        rc = vw_child_ledger_rc(ch, lrc, "publish");
    }

    for (n = 0; n < VO_RESULT_FORMATS; n++) {
        vo_buf_free(&ch->bufs[n]);
    }

    if (rc != 0 && !ch->lost) {
        /* the rows stay: a later attempt resumes and publishes */
        vw_child_event(ch, "publish_failed", NULL, "%s", ch->err);
    }

    return rc;
}


/*
 * A part is done (its rows are stored): the ledger records its seam and,
 * if it was the job's last part, joins the parts' rows and publishes the
 * job's result, rendered by vw_child_render, in the same transaction.
 */
static int
vw_child_part_done(vw_child_t *ch, vo_attempt_stats_t *st, int *published)
{
    int             rc;
    size_t          k;
    vo_ledger_rc_t  lrc;

    lrc = vo_ledger_part_done(ch->ledger, &ch->claim, VW_PLAN_VERSION,
                              ch->seam_index, ch->seam_part, vw_child_render,
                              ch, st, vw_wall_ms(), published, ch->err,
                              sizeof(ch->err));

    rc = vw_child_ledger_rc(ch, lrc, "part done");

    for (k = 0; k < VO_RESULT_FORMATS; k++) {
        vo_buf_free(&ch->bufs[k]);
    }

    if (rc != 0 && !ch->lost) {
        /* the part's rows stay: a later attempt finds them and is done */
        vw_child_event(ch, "publish_failed", NULL, "%s", ch->err);
    }

    return rc;
}


/*
 * The result of a job's rows (stored, in frame order) in every format,
 * into ch->bufs (the caller frees them) and bodies; the job's plan and
 * inspection are the run's (a part plans the whole video too).
 */
static int
vw_child_render(void *data, const vo_frame_row_t *stored, size_t n,
    vo_result_body_t *bodies, size_t *nbodies, const char **warning,
    char *err, size_t err_size)
{
    int           i, rc;
    size_t        k;
    vw_row_t     *rows;
    vw_child_t   *ch;
    vw_result_t   res;

    static const char  *formats[] = { "json", "vtt", "srt", "txt", "ass" };
    static const vw_format_t  kinds[] = { VW_FORMAT_JSON, VW_FORMAT_VTT,
                                          VW_FORMAT_SRT, VW_FORMAT_TXT,
                                          VW_FORMAT_ASS };

    ch = data;
    *nbodies = 0;

    for (i = 0; i < VO_RESULT_FORMATS; i++) {
        vo_buf_init(&ch->bufs[i]);
    }

    rows = calloc(n ? n : 1, sizeof(vw_row_t));
    if (rows == NULL) {
        snprintf(err, err_size, "publish: out of memory");
        return -1;
    }

    for (k = 0; k < n; k++) {
        vw_child_row(&ch->run->plan, &stored[k], &rows[k]);
    }

    res.plan = &ch->run->plan;
    res.options = ch->options;
    res.inspection = &ch->run->inspection;
    res.rows = rows;
    res.nrows = n;
    res.with_frames = 0;

    /* a done job that read nothing of plain text says so (metrics) */
    *warning = vw_result_warning(&res);

    rc = 0;

    for (i = 0; i < VO_RESULT_FORMATS; i++) {
        if (vw_result_write(&ch->bufs[i], kinds[i], &res) != 0
            || !vo_buf_ok(&ch->bufs[i]))
        {
            snprintf(err, err_size, "publish: cannot render %s",
                     formats[i]);
            rc = -1;
            break;
        }

        bodies[i].format = formats[i];
        bodies[i].body = ch->bufs[i].data ? ch->bufs[i].data : "";
        bodies[i].len = ch->bufs[i].len;
    }

    free(rows);

    if (rc == 0) {
        *nbodies = VO_RESULT_FORMATS;
    }

    return rc;
}


/* A row of the ledger as the pipeline's (its texts stay the ledger's). */
static void
vw_child_row(const vw_plan_t *plan, const vo_frame_row_t *r, vw_row_t *row)
{
    row->index = (uint32_t) r->frame_index;
    row->t_ms = vw_plan_time_ms(plan, row->index);
    row->pts_ms = r->pts_ms;
    row->text = r->text;
    row->confidence = (int) (r->confidence + 0.5);
    row->reused_from = r->reused_from;
    row->flags = r->flags;
    row->box = (vw_rect_t) { r->box[0], r->box[1], r->box[2], r->box[3] };
    row->lines = r->lines;
    row->parts = r->parts;
}


/*
 * The first claim of a long job (the run found cuts: vw_cuts_find) makes
 * it parts, one from each cut, and gives up the job (ch->split): the
 * parts are claimed as jobs, by any child of any pool.
 */
static int
vw_child_split(vw_child_t *ch, const vw_plan_t *plan)
{
    uint32_t        firsts[VW_CUTS_MAX + 1], k;
    vw_report_t    *run;
    vo_ledger_rc_t  lrc;

    run = ch->run;
    firsts[0] = 0;

    for (k = 0; k < run->ncuts; k++) {
        firsts[k + 1] = run->cuts[k];
    }

    lrc = vo_ledger_split(ch->ledger, &ch->claim, firsts, run->ncuts + 1,
                          plan->samples, vw_wall_ms(), ch->err,
                          sizeof(ch->err));

    if (vw_child_ledger_rc(ch, lrc, "split") != 0) {
        return -1;
    }

    ch->split = 1;

    return 1;                           /* the run stops: nothing to read */
}


/*
 * Unit u is past this part's cut and complete in its rows: if the part
 * whose range has u stored the same rows for it, with the same row at
 * their reference (vw_seam_same), that part takes over after it: 1 and
 * the seam recorded.  0: read on (the rows differ, or the other part has
 * not stored them yet); -1 on a ledger error.
 */
static int
vw_child_seam(vw_child_t *ch, uint32_t u)
{
    int              same, rc;
    size_t           k, na, nb, nra, nrb;
    uint32_t         looks, ref;
    vw_row_t        *a, *b, *ra, *rb;
    const vo_part_t *q;
    vo_frame_row_t  *sa, *sb, *sra, *srb;

    q = NULL;

    for (k = 0; k < ch->nparts; k++) {
        if (ch->parts[k].part > ch->claim.part
            && ch->parts[k].first_sample <= u && u < ch->parts[k].end_sample)
        {
            q = &ch->parts[k];
            break;
        }
    }

    if (q == NULL) {
        return 0;
    }

    looks = ch->run->plan.looks;
    same = 0;
    a = b = ra = rb = NULL;
    sa = sb = sra = srb = NULL;
    na = nb = nra = nrb = 0;

    rc = vw_child_unit(ch, ch->claim.job_id, u * looks, (u + 1) * looks,
                       &sa, &na, &a);

    if (rc == 0) {
        rc = vw_child_unit(ch, q->job_id, u * looks, (u + 1) * looks, &sb,
                           &nb, &b);
    }

    if (rc == 0 && na > 0 && nb > 0) {
        ref = vw_seam_ref(&a[na - 1]);
        rc = vw_child_unit(ch, ch->claim.job_id, ref, ref + 1, &sra, &nra,
                           &ra);
    }

    if (rc == 0 && nra > 0) {
        ref = vw_seam_ref(&b[nb - 1]);
        rc = vw_child_unit(ch, q->job_id, ref, ref + 1, &srb, &nrb, &rb);
    }

    if (rc == 0 && nra > 0 && nrb > 0) {
        same = vw_seam_same(a, na, ra, b, nb, rb);
    }

    free(a);
    free(b);
    free(ra);
    free(rb);
    vo_ledger_free_frames(sa, na);
    vo_ledger_free_frames(sb, nb);
    vo_ledger_free_frames(sra, nra);
    vo_ledger_free_frames(srb, nrb);

    if (rc != 0) {
        return -1;
    }

    if (same) {
        ch->seam_index = (int64_t) (u + 1) * looks;
        ch->seam_part = q->part;
    }

    return same;
}


/* The rows of job_id with lo <= index < hi: *stored (the ledger's, for
 * vo_ledger_free_frames) and *rows (the pipeline's over them, free()). */
static int
vw_child_unit(vw_child_t *ch, const char *job_id, uint32_t lo, uint32_t hi,
    vo_frame_row_t **stored, size_t *n, vw_row_t **rows)
{
    size_t          k;
    vo_ledger_rc_t  lrc;

    *rows = NULL;

    lrc = vo_ledger_frames_range(ch->ledger, job_id, VW_PLAN_VERSION, lo, hi,
                                 stored, n, ch->err, sizeof(ch->err));
    if (lrc != VO_LEDGER_OK) {
        return vw_child_ledger_rc(ch, lrc, "read seam rows");
    }

    *rows = calloc(*n ? *n : 1, sizeof(vw_row_t));
    if (*rows == NULL) {
        snprintf(ch->err, sizeof(ch->err), "seam: out of memory");
        ch->failed = 1;
        return -1;
    }

    for (k = 0; k < *n; k++) {
        vw_child_row(&ch->run->plan, &(*stored)[k], &(*rows)[k]);
    }

    return 0;
}


/* 0 for OK; notes a STALE (lost) or another failure and returns -1. */

static int
vw_child_ledger_rc(vw_child_t *ch, vo_ledger_rc_t rc, const char *what)
{
    if (rc == VO_LEDGER_OK) {
        return 0;
    }

    if (rc == VO_LEDGER_STALE) {
        if (!ch->lost) {
            vw_child_event(ch, "stale_write", NULL, "op=%s: refused", what);
        }

        ch->lost = 1;
        return -1;
    }

    vw_log("job=%s attempt=%d %s failed: %s", ch->claim.job_id,
           ch->claim.attempt, what, ch->err);
    ch->failed = 1;

    return -1;
}


/* What this attempt did, for its last event and its log line. */

static void
vw_child_stats(vw_child_t *ch, const vw_report_t *run, const char *step,
    vo_attempt_stats_t *st)
{
    st->step = step;
    st->warning = NULL;
    st->frames = ch->stored;
    st->ocr_calls = run->stats.ocr_calls;
    st->reused = run->stats.frames_reused;
    st->ocr_ms = run->stats.ocr_ms;
    st->ms = vw_now_ms() - ch->started;
    st->claim_ms = ch->claim_ms;
}


/* The run's CPU ms and its stages' (ocr --stats' names), for the log:
 * " cpu_ms=N cpu_inspect_ms=N ..." (merge: the result is the ledger's) */

static void
vw_child_cpu(const vw_report_t *run, char *buf, size_t size)
{
    int         n;
    size_t      len;
    vw_stage_t  k;

    n = snprintf(buf, size, " cpu_ms=%lld", (long long) run->stats.cpu_ms);
    len = n > 0 && (size_t) n < size ? (size_t) n : 0;

    for (k = 0; k < VW_STAGE_N && len < size; k++) {
        if (k == VW_STAGE_MERGE) {
            continue;
        }

        n = snprintf(buf + len, size - len, " cpu_%s_ms=%lld",
                     vw_stage_name(k), (long long) run->stats.cpu_stage_ms[k]);
        if (n < 0 || (size_t) n >= size - len) {
            break;
        }

        len += (size_t) n;
    }

    buf[len] = '\0';
}


/*
 * One log line per state change of a job: its id, the attempt, the keyed
 * hash of its Idempotency-Key (never the key), the event, and for the
 * end of an attempt the step it ended in, its duration and its work.
 */

static void
vw_child_event(vw_child_t *ch, const char *event,
    const vo_attempt_stats_t *st, const char *fmt, ...)
{
    char     what[600], work[160];
    va_list  args;

    va_start(args, fmt);
    (void) vsnprintf(what, sizeof(what), fmt, args);
    va_end(args);

    work[0] = '\0';

    if (st != NULL) {
        snprintf(work, sizeof(work), " step=%s ms=%lld frames=%u "
                 "ocr_calls=%u reused=%u", st->step, (long long) st->ms,
                 (unsigned) st->frames, (unsigned) st->ocr_calls,
                 (unsigned) st->reused);
    }

    vw_log("job=%s attempt=%d key=%s event=%s%s %s", ch->claim.job_id,
           ch->claim.attempt, ch->key_hash, event, work, what);
}


static int
vw_hook_ready(void *data, const vw_inspection_t *in, const vw_plan_t *plan)
{
    vw_child_t      *ch = data;
    vo_buf_t         b;
    vo_ledger_rc_t   rc;

    vo_buf_init(&b);
    vw_inspection_json(&b, in);

    if (!vo_buf_ok(&b)) {
        vo_buf_free(&b);
        snprintf(ch->err, sizeof(ch->err), "inspection: out of memory");
        ch->failed = 1;
        return -1;
    }

    rc = vo_ledger_set_plan(ch->ledger, &ch->claim, (int) plan->version,
                            plan->samples, b.data, vw_wall_ms(),
                            ch->conf->lease_ms, ch->err, sizeof(ch->err));
    vo_buf_free(&b);

    ch->next_heartbeat = vw_now_ms() + ch->conf->heartbeat_ms;

    if (vw_child_ledger_rc(ch, rc, "set plan") != 0) {
        return -1;
    }

    if (ch->claim.parent_id[0] == '\0' && ch->run->ncuts > 0) {
        return vw_child_split(ch, plan);
    }

    return 0;
}


static int
vw_hook_row_known(void *data, uint32_t index, vw_row_t *known)
{
    vw_child_t      *ch = data;
    size_t           lo, hi, mid;
    vo_frame_row_t  *r;

    /* the rows are in frame order: binary search */

    lo = 0;
    hi = ch->nknown;

    while (lo < hi) {
        mid = lo + (hi - lo) / 2;
        r = &ch->known[mid];

        if ((uint32_t) r->frame_index == index) {
            known->index = index;
            known->pts_ms = r->pts_ms;
            known->text = r->text;
            known->confidence = (int) (r->confidence + 0.5);
            known->reused_from = r->reused_from;
            known->flags = r->flags;
            known->box = (vw_rect_t) { r->box[0], r->box[1], r->box[2],
                                       r->box[3] };
            known->lines = r->lines;
            known->parts = r->parts;
            return 1;
        }

        if ((uint32_t) r->frame_index < index) {
            lo = mid + 1;

        } else {
            hi = mid;
        }
    }

    return 0;
}


static int
vw_hook_row_done(void *data, const vw_row_t *f)
{
    vw_child_t      *ch = data;
    vo_frame_row_t   row;
    vo_ledger_rc_t   rc;

    row.frame_index = f->index;
    row.pts_ms = f->pts_ms;
    row.text = (char *) f->text;
    row.confidence = f->confidence;
    row.reused_from = f->reused_from;
    row.flags = f->flags;
    row.box[0] = f->box.x;
    row.box[1] = f->box.y;
    row.box[2] = f->box.w;
    row.box[3] = f->box.h;
    row.lines = f->lines;
    row.parts = (char *) f->parts;

    rc = vo_ledger_put_frame(ch->ledger, &ch->claim, VW_PLAN_VERSION, &row,
                             vw_wall_ms(), ch->conf->lease_ms, ch->err,
                             sizeof(ch->err));

    if (vw_child_ledger_rc(ch, rc, "put frame") != 0) {
        return -1;
    }

    ch->stored++;
    ch->next_heartbeat = vw_now_ms() + ch->conf->heartbeat_ms;

    if (ch->conf->verbose) {
        vw_log("job=%s attempt=%d key=%s frame=%u t=%lldms %s%s",
               ch->claim.job_id, ch->claim.attempt, ch->key_hash, f->index,
               (long long) f->t_ms,
               f->reused_from >= 0 ? "reused"
               : (f->flags & VO_FRAME_NO_TEXT) ? "no_text"
               : (f->flags & VO_FRAME_JOINED) ? "joined" : "ocr",
               (f->flags & VO_FRAME_TIMED_OUT) ? " timed_out" : "");
    }

    if (ch->claim.parent_id[0] != '\0' && !(f->flags & VO_FRAME_BETWEEN)
        && f->index / ch->run->plan.looks >= ch->claim.end_sample)
    {
        /* past the part's cut, a unit complete (its sample's row comes
         * last): where the next part takes over, the run stops */
        return vw_child_seam(ch, f->index / ch->run->plan.looks);
    }

    return 0;
}


static int
vw_hook_tick(void *data)
{
    vw_child_t      *ch = data;
    int64_t          now;
    vo_ledger_rc_t   rc;

    if (vw_child_stop) {
        return -1;
    }

    if (vw_cpu_exceeded) {
        ch->cpu_limit = 1;
        return -1;
    }

    now = vw_now_ms();

    if (now < ch->next_heartbeat) {
        return 0;
    }

    rc = vo_ledger_heartbeat(ch->ledger, &ch->claim, vw_wall_ms(),
                             ch->conf->lease_ms, ch->err, sizeof(ch->err));

    ch->next_heartbeat = now + ch->conf->heartbeat_ms;

    return vw_child_ledger_rc(ch, rc, "heartbeat");
}
