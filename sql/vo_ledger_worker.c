/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The worker's statements: every write a claimed attempt makes (plan,
 * frames, result, state; the claim is vo_ledger_claim.c's).  The fencing
 * rule of sql/schema.sql (invariants 5 to 8) is enforced here, in SQL: each
 * write's WHERE clause names the job, state 'running' and the attempt the
 * write is made for, and a write that matches nothing was made by a stale
 * attempt.  Such a write changes nothing, is recorded as a stale_write
 * event (so it is counted), and is reported as VO_LEDGER_STALE.  A move
 * to a final state inserts its notification (the outbox, invariant 10)
 * before the fence's transaction commits, so a stale attempt makes none.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vo_frame_flags.h"
#include "vo_ledger.h"
#include "vo_ledger_int.h"


#define VO_FENCE  " WHERE job_id = ?1 AND state = 'running' AND attempt = ?2"


const char  *vo_ledger_worker_sql[VO_STMT_COUNT] = {

    /* fenced (invariant 6) */
    [VO_STMT_HEARTBEAT] =
    "UPDATE jobs SET lease_expires_at = ?3, updated_at = ?4" VO_FENCE,

    /* fenced (invariant 6) */
    [VO_STMT_SET_PLAN] =
    "UPDATE jobs SET plan_version = ?3, frames_planned = ?4,"
    " inspection = ?5, lease_expires_at = ?6, updated_at = ?7" VO_FENCE,

    /* a frame row is written once, by the attempt that holds the job
     * (invariants 6, 8) */
    [VO_STMT_PUT_FRAME] =
    "INSERT INTO frames (job_id, plan_version, frame_index, pts_ms, text,"
    " confidence, reused_from, flags, attempt, created_at, box_x, box_y,"
    " box_w, box_h, lines, parts)"
    " SELECT ?1, ?3, ?4, ?5, ?6, ?7, ?8, ?10, ?2, ?9, ?11, ?12, ?13, ?14,"
    " ?15, ?16"
    " WHERE EXISTS (SELECT 1 FROM jobs" VO_FENCE ")"
    " ON CONFLICT DO NOTHING",

    /* fenced (invariant 6); samples only, not the rows of looks between
     * them */
    [VO_STMT_PROGRESS] =
    "UPDATE jobs SET frames_done = (SELECT count(*) FROM frames"
    " WHERE job_id = ?1 AND plan_version = ?3"
    " AND (flags & " VO_FRAME_SQL(VO_FRAME_BETWEEN) ") = 0),"
    " lease_expires_at = ?4, updated_at = ?5" VO_FENCE,

    [VO_STMT_FRAMES] =
    "SELECT frame_index, pts_ms, text, confidence, reused_from, flags,"
    " box_x, box_y, box_w, box_h, lines, parts"
    " FROM frames"
    " WHERE job_id = ?1 AND plan_version = ?2 ORDER BY frame_index",

    /* fenced; the results are inserted in the same transaction
     * (invariants 6, 7) */
    [VO_STMT_PUBLISH] =
    "UPDATE jobs SET state = 'done', lease_owner = NULL,"
    " lease_expires_at = NULL, error_code = NULL, error = NULL,"
    " finished_at = ?3, updated_at = ?3" VO_FENCE,

    /* only in VO_STMT_PUBLISH's transaction, after it moved the job
     * (invariant 7) */
    [VO_STMT_PUT_RESULT] =
    "INSERT INTO results (job_id, format, body) VALUES (?1, ?2, ?3)",

    /* fenced; the failure is counted (invariants 5, 6) */
    [VO_STMT_RETRY] =
    "UPDATE jobs SET failures = failures + 1,"
    " state = CASE WHEN failures + 1 >= max_attempts THEN 'failed'"
    " ELSE 'accepted' END,"
    " finished_at = CASE WHEN failures + 1 >= max_attempts THEN ?3 END,"
    " not_before = ?4, error_code = ?5, error = ?6, lease_owner = NULL,"
    " lease_expires_at = NULL, updated_at = ?3" VO_FENCE
    " RETURNING state",

    /* fenced (invariant 6) */
    [VO_STMT_REJECT] =
    "UPDATE jobs SET state = 'rejected', error_code = ?4, error = ?5,"
    " lease_owner = NULL, lease_expires_at = NULL, finished_at = ?3,"
    " updated_at = ?3" VO_FENCE,

    /* fenced (invariant 6) */
    [VO_STMT_RELEASE] =
    "UPDATE jobs SET state = 'accepted', not_before = ?3,"
    " lease_owner = NULL, lease_expires_at = NULL, updated_at = ?3"
    VO_FENCE,
};


static void vo_ledger_stale(vo_ledger_t *l, const vo_claim_t *c,
    const char *what, int64_t now_ms);
static void vo_ledger_result_summary(char *buf, size_t size,
    const vo_result_body_t *bodies, size_t n);


vo_ledger_rc_t
vo_ledger_heartbeat(vo_ledger_t *l, const vo_claim_t *c, int64_t now_ms,
    int64_t lease_ms, char *err, size_t err_size)
{
    vo_stmt_t       *s;
    vo_ledger_rc_t   lrc;

    s = vo_ledger_stmt(l, VO_STMT_HEARTBEAT, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    vo_bind_int(s, 3, now_ms + lease_ms);
    vo_bind_int(s, 4, now_ms);

    lrc = vo_ledger_fenced(l, c, s, "heartbeat", err, err_size);

    if (lrc == VO_LEDGER_STALE) {
        vo_ledger_stale(l, c, "heartbeat", now_ms);
    }

    return lrc;
}


vo_ledger_rc_t
vo_ledger_set_plan(vo_ledger_t *l, const vo_claim_t *c, int plan_version,
    int64_t frames_planned, const char *inspection, int64_t now_ms,
    int64_t lease_ms, char *err, size_t err_size)
{
    vo_stmt_t       *s;
    vo_ledger_rc_t   lrc;

    s = vo_ledger_stmt(l, VO_STMT_SET_PLAN, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    vo_bind_int(s, 3, plan_version);
    vo_bind_int(s, 4, frames_planned);
    vo_bind_text(s, 5, inspection, -1);
    vo_bind_int(s, 6, now_ms + lease_ms);
    vo_bind_int(s, 7, now_ms);

    lrc = vo_ledger_fenced(l, c, s, "set plan", err, err_size);

    if (lrc == VO_LEDGER_STALE) {
        vo_ledger_stale(l, c, "set_plan", now_ms);
    }

    return lrc;
}


vo_ledger_rc_t
vo_ledger_put_frame(vo_ledger_t *l, const vo_claim_t *c, int plan_version,
    const vo_frame_row_t *f, int64_t now_ms, int64_t lease_ms, char *err,
    size_t err_size)
{
    int              i;
    vo_stmt_t       *s;
    vo_ledger_rc_t   lrc;

    lrc = vo_ledger_fence_begin(l, c, VO_STMT_PUT_FRAME, &s, err, err_size);

    if (lrc == VO_LEDGER_OK && c->parent_id[0] != '\0') {
        /* a part's row before its frame (VO_PARTS_LOCK_SQL says why) */
        lrc = vo_ledger_part_lock(l, c->job_id, err, err_size);
    }

    if (lrc != VO_LEDGER_OK) {
        goto done;
    }

    /* ?1 and ?2 are bound; the insert checks the fence itself */

    vo_bind_int(s, 3, plan_version);
    vo_bind_int(s, 4, f->frame_index);
    vo_bind_int(s, 5, f->pts_ms);
    vo_bind_text(s, 6, f->text ? f->text : "", -1);
    vo_bind_double(s, 7, f->confidence);

    if (f->reused_from >= 0) {
        vo_bind_int(s, 8, f->reused_from);

    } else {
        vo_bind_null(s, 8);
    }

    vo_bind_int(s, 9, now_ms);
    vo_bind_int(s, 10, (int) f->flags);

    /* a row without a box has NULLs, like those made before boxes */

    for (i = 0; i < 5; i++) {
        if (f->box[2] > 0) {
            vo_bind_int(s, 11 + i, i < 4 ? f->box[i] : f->lines);

        } else {
            vo_bind_null(s, 11 + i);
        }
    }

    if (f->parts != NULL) {
        vo_bind_text(s, 16, f->parts, -1);

    } else {
        vo_bind_null(s, 16);
    }

    lrc = vo_ledger_step_done(l, s, "put frame", err, err_size);
    if (lrc != VO_LEDGER_OK) {
        goto done;
    }

    s = vo_ledger_stmt(l, VO_STMT_PROGRESS, err, err_size);
    if (s == NULL) {
        lrc = VO_LEDGER_ERROR;
        goto done;
    }

    vo_bind_int(s, 3, plan_version);
    vo_bind_int(s, 4, now_ms + lease_ms);
    vo_bind_int(s, 5, now_ms);

    lrc = vo_ledger_fenced(l, c, s, "progress", err, err_size);

done:

    return vo_ledger_fence_end(l, c, lrc, "put_frame", NULL, NULL, now_ms,
                               err, err_size);
}


vo_ledger_rc_t
vo_ledger_frames(vo_ledger_t *l, const char *job_id, int plan_version,
    vo_frame_row_t **rows, size_t *n, char *err, size_t err_size)
{
    vo_stmt_t  *s;

    *rows = NULL;
    *n = 0;

    s = vo_ledger_stmt(l, VO_STMT_FRAMES, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    vo_bind_text(s, 1, job_id, -1);
    vo_bind_int(s, 2, plan_version);

    return vo_ledger_frames_read(l, s, job_id, rows, n, err, err_size);
}


/* The rows a bound statement of VO_STMT_FRAMES' columns gives (of job_id,
 * for messages). */
vo_ledger_rc_t
vo_ledger_frames_read(vo_ledger_t *l, vo_stmt_t *s, const char *job_id,
    vo_frame_row_t **rows, size_t *n, char *err, size_t err_size)
{
    int              rc, i;
    size_t           count, cap;
    const char      *text, *parts;
    vo_frame_row_t  *r, *nr;
    vo_ledger_rc_t   lrc;

    *rows = NULL;
    *n = 0;
    r = NULL;
    count = 0;
    cap = 0;
    lrc = VO_LEDGER_OK;

    while ((rc = vo_step(s)) == VO_ROW) {

        if (count == cap) {
            cap = cap ? cap * 2 : 64;
            nr = realloc(r, cap * sizeof(vo_frame_row_t));
            if (nr == NULL) {
                snprintf(err, err_size, "frames of %s: out of memory",
                         job_id);
                lrc = VO_LEDGER_ERROR;
                break;
            }

            r = nr;
        }

        text = (const char *) vo_column_text(s, 2);
        parts = (const char *) vo_column_text(s, 11);

        r[count].frame_index = vo_column_int64(s, 0);
        r[count].pts_ms = vo_column_int64(s, 1);
        r[count].text = strdup(text ? text : "");
        r[count].confidence = vo_column_double(s, 3);
        r[count].reused_from = vo_ledger_int_or(s, 4, -1);
        r[count].flags = (unsigned) vo_column_int(s, 5);

        for (i = 0; i < 4; i++) {
            r[count].box[i] = (int) vo_ledger_int_or(s, 6 + i, 0);
        }

        r[count].lines = (int) vo_ledger_int_or(s, 10, 0);
        r[count].parts = parts != NULL ? strdup(parts) : NULL;

        if (r[count].text == NULL || (parts != NULL && r[count].parts == NULL))
        {
            free(r[count].text);
            free(r[count].parts);
            snprintf(err, err_size, "frames of %s: out of memory", job_id);
            lrc = VO_LEDGER_ERROR;
            break;
        }

        count++;
    }

    if (lrc == VO_LEDGER_OK && rc != VO_DONE) {
        snprintf(err, err_size, "frames of %s: %s", job_id,
                 vo_ledger_errmsg(l));
        lrc = vo_ledger_rc(rc);
    }

    vo_reset(s);

    if (lrc != VO_LEDGER_OK) {
        vo_ledger_free_frames(r, count);
        return lrc;
    }

    *rows = r;
    *n = count;

    return VO_LEDGER_OK;
}


void
vo_ledger_free_frames(vo_frame_row_t *rows, size_t n)
{
    size_t  i;

    for (i = 0; i < n; i++) {
        free(rows[i].text);
        free(rows[i].parts);
    }

    free(rows);
}


vo_ledger_rc_t
vo_ledger_publish(vo_ledger_t *l, const vo_claim_t *c,
    const vo_result_body_t *bodies, size_t n, const vo_attempt_stats_t *st,
    int64_t now_ms, char *err, size_t err_size)
{
    char             detail[VO_DETAIL_MAX];
    vo_stmt_t       *s;
    vo_ledger_rc_t   lrc;

    lrc = vo_ledger_fence_begin(l, c, VO_STMT_PUBLISH, &s, err, err_size);
    if (lrc != VO_LEDGER_OK) {
        goto done;
    }

    vo_bind_int(s, 3, now_ms);

    lrc = vo_ledger_fenced(l, c, s, "publish", err, err_size);

    if (lrc == VO_LEDGER_OK) {
        lrc = vo_ledger_put_results(l, c->job_id, c->tenant, bodies, n,
                                    now_ms, err, err_size);
    }

done:

    vo_ledger_detail(detail, sizeof(detail), st != NULL ? st->warning : NULL,
                     st);

    return vo_ledger_fence_end(l, c, lrc, "publish", "published", detail,
                               now_ms, err, err_size);
}


/*
 * A job's result goes in: its bodies, the search index of its json
 * (invariant 15) and its job.done notification (invariant 10), in the
 * transaction that moved the job to done (invariant 7).
 */
vo_ledger_rc_t
vo_ledger_put_results(vo_ledger_t *l, const char *job_id, const char *tenant,
    const vo_result_body_t *bodies, size_t n, int64_t now_ms, char *err,
    size_t err_size)
{
    char             summary[160];
    size_t           i;
    vo_stmt_t       *s;
    vo_ledger_rc_t   lrc;

    lrc = VO_LEDGER_OK;

    for (i = 0; lrc == VO_LEDGER_OK && i < n; i++) {
        s = vo_ledger_stmt(l, VO_STMT_PUT_RESULT, err, err_size);
        if (s == NULL) {
            return VO_LEDGER_ERROR;
        }

        vo_bind_text(s, 1, job_id, -1);
        vo_bind_text(s, 2, bodies[i].format, -1);
        vo_bind_text(s, 3, bodies[i].body, (int) bodies[i].len);

        lrc = vo_ledger_step_done(l, s, "put result", err, err_size);
    }

    for (i = 0; lrc == VO_LEDGER_OK && i < n; i++) {
        if (strcmp(bodies[i].format, "json") == 0) {
            lrc = vo_ledger_search_index(l, job_id, tenant, strlen(tenant),
                                         bodies[i].body, bodies[i].len, err,
                                         err_size);
        }
    }

    if (lrc != VO_LEDGER_OK) {
        return lrc;
    }

    vo_ledger_result_summary(summary, sizeof(summary), bodies, n);

    return vo_ledger_notify(l, job_id, "job.done", summary, now_ms, err,
                            err_size);
}


vo_ledger_rc_t
vo_ledger_retry(vo_ledger_t *l, const vo_claim_t *c, const char *code,
    const char *message, const vo_attempt_stats_t *st, int64_t now_ms,
    int64_t not_before_ms, int *failed, char *err, size_t err_size)
{
    int              rc;
    char             detail[VO_DETAIL_MAX];
    const char      *state;
    vo_stmt_t       *s;
    vo_ledger_rc_t   lrc;

    *failed = 0;

    lrc = vo_ledger_fence_begin(l, c, VO_STMT_RETRY, &s, err, err_size);

    if (lrc == VO_LEDGER_OK && c->parent_id[0] != '\0') {
        /* a part may end its job: the job is locked first */
        lrc = vo_ledger_part_lock(l, c->parent_id, err, err_size);
    }

    if (lrc != VO_LEDGER_OK) {
        goto done;
    }

    vo_bind_int(s, 3, now_ms);
    vo_bind_int(s, 4, not_before_ms);
    vo_bind_text(s, 5, code, -1);
    vo_bind_text(s, 6, message, -1);

    /* RETURNING the new state: failed when no attempts are left */

    rc = vo_step(s);

    if (rc == VO_ROW) {
        state = (const char *) vo_column_text(s, 0);
        *failed = (state != NULL && strcmp(state, "failed") == 0);
        rc = vo_step(s);
        lrc = VO_LEDGER_OK;

    } else if (rc == VO_DONE) {
        snprintf(err, err_size, "retry job %s: attempt %d no longer holds "
                 "it", c->job_id, c->attempt);
        lrc = VO_LEDGER_STALE;

    } else {
        snprintf(err, err_size, "retry job %s: %s", c->job_id,
                 vo_ledger_errmsg(l));
        lrc = vo_ledger_rc(rc);
    }

    vo_reset(s);

    if (lrc == VO_LEDGER_OK && *failed && c->parent_id[0] != '\0') {
        /* a part out of attempts fails its job, with its reason */
        lrc = vo_ledger_parts_end(l, c->parent_id, "failed", code, message,
                                  now_ms, err, err_size);

    } else if (lrc == VO_LEDGER_OK && *failed) {
        /* invariant 10: no attempts left, the job is failed */
        lrc = vo_ledger_notify(l, c->job_id, "job.failed", NULL, now_ms, err,
                               err_size);
    }

done:

    vo_ledger_detail(detail, sizeof(detail), code, st);

    /* a part's end is not its job's: the job's own event says that */
    return vo_ledger_fence_end(l, c, lrc, "retry",
                               !*failed ? "retried"
                               : c->parent_id[0] != '\0' ? "part_failed"
                               : "failed", detail, now_ms, err, err_size);
}


vo_ledger_rc_t
vo_ledger_reject(vo_ledger_t *l, const vo_claim_t *c, const char *code,
    const char *message, const vo_attempt_stats_t *st, int64_t now_ms,
    char *err, size_t err_size)
{
    char             detail[VO_DETAIL_MAX];
    vo_stmt_t       *s;
    vo_ledger_rc_t   lrc;

    lrc = vo_ledger_fence_begin(l, c, VO_STMT_REJECT, &s, err, err_size);

    if (lrc == VO_LEDGER_OK && c->parent_id[0] != '\0') {
        /* a part ends its job: the job is locked first */
        lrc = vo_ledger_part_lock(l, c->parent_id, err, err_size);
    }

    if (lrc == VO_LEDGER_OK) {
        vo_bind_int(s, 3, now_ms);
        vo_bind_text(s, 4, code, -1);
        vo_bind_text(s, 5, message, -1);

        lrc = vo_ledger_fenced(l, c, s, "reject", err, err_size);
    }

    if (lrc == VO_LEDGER_OK && c->parent_id[0] != '\0') {
        /* a part's input can never succeed: nor can its job's */
        lrc = vo_ledger_parts_end(l, c->parent_id, "rejected", code, message,
                                  now_ms, err, err_size);

    } else if (lrc == VO_LEDGER_OK) {
        /* invariant 10 */
        lrc = vo_ledger_notify(l, c->job_id, "job.rejected", NULL, now_ms,
                               err, err_size);
    }

    vo_ledger_detail(detail, sizeof(detail), code, st);

    return vo_ledger_fence_end(l, c, lrc, "reject",
                               c->parent_id[0] != '\0' ? "part_rejected"
                                                        : "rejected",
                               detail, now_ms, err, err_size);
}


vo_ledger_rc_t
vo_ledger_release(vo_ledger_t *l, const vo_claim_t *c,
    const vo_attempt_stats_t *st, int64_t now_ms, char *err,
    size_t err_size)
{
    char             detail[VO_DETAIL_MAX];
    vo_stmt_t       *s;
    vo_ledger_rc_t   lrc;

    lrc = vo_ledger_fence_begin(l, c, VO_STMT_RELEASE, &s, err, err_size);

    if (lrc == VO_LEDGER_OK) {
        vo_bind_int(s, 3, now_ms);

        lrc = vo_ledger_fenced(l, c, s, "release", err, err_size);
    }

    vo_ledger_detail(detail, sizeof(detail), NULL, st);

    return vo_ledger_fence_end(l, c, lrc, "release", "released", detail,
                               now_ms, err, err_size);
}


vo_ledger_rc_t
vo_ledger_lost(vo_ledger_t *l, const vo_claim_t *c,
    const vo_attempt_stats_t *st, int64_t now_ms, char *err,
    size_t err_size)
{
    char  detail[VO_DETAIL_MAX];

    vo_ledger_detail(detail, sizeof(detail), NULL, st);

    return vo_ledger_event(l, now_ms, c->job_id, c->tenant,
                           strlen(c->tenant), "lost", c->attempt, detail,
                           err, err_size);
}


/*
 * What a job.done notification says of the result: a summary, not the
 * result (the status URL gives it): its formats and the size of its text.
 */

static void
vo_ledger_result_summary(char *buf, size_t size,
    const vo_result_body_t *bodies, size_t n)
{
    int     k;
    size_t  i, text;

    text = 0;
    k = snprintf(buf, size, "\"result\":{\"formats\":[");

    for (i = 0; i < n && k > 0 && (size_t) k < size; i++) {
        k += snprintf(buf + k, size - (size_t) k, "%s\"%.8s\"", i ? "," : "",
                      bodies[i].format);

        if (strcmp(bodies[i].format, "txt") == 0) {
            text = bodies[i].len;
        }
    }

    if (k > 0 && (size_t) k < size) {
        snprintf(buf + k, size - (size_t) k, "],\"text_bytes\":%zu}", text);
    }
}


/* The detail JSON of an attempt's last event: its code and stats. */

void
vo_ledger_detail(char *buf, size_t size, const char *code,
    const vo_attempt_stats_t *st)
{
    int  n;

    n = snprintf(buf, size, "{\"code\":\"%.40s\"", code ? code : "");

    if (st != NULL && n > 0 && (size_t) n < size) {
        n += snprintf(buf + n, size - (size_t) n,
                      ",\"step\":\"%.20s\",\"frames\":%u,\"ocr_calls\":%u,"
                      "\"reused\":%u,\"ocr_ms\":%lld,\"ms\":%lld",
                      st->step ? st->step : "", (unsigned) st->frames,
                      (unsigned) st->ocr_calls, (unsigned) st->reused,
                      (long long) st->ocr_ms, (long long) st->ms);

        if (st->claim_ms >= 0 && n > 0 && (size_t) n < size) {
            /* the claim latency histogram's trigger reads it */
            n += snprintf(buf + n, size - (size_t) n, ",\"claim_ms\":%lld",
                          (long long) st->claim_ms);
        }
    }

    if (n > 0 && (size_t) n + 2 <= size) {
        buf[n++] = '}';
        buf[n] = '\0';

    } else {
        snprintf(buf, size, "{}");
    }
}


/*
 * The two ends of a fenced write transaction.  fence_begin opens it
 * (vo_ledger_begin: SQLite's BEGIN IMMEDIATE, PostgreSQL's READ
 * COMMITTED) and returns statement id with the fence bound: ?1 the
 * job, ?2 the attempt.  fence_end takes the outcome of what was done in
 * between: on success it appends the audit event kind (if any) and
 * commits; otherwise it rolls back and, for a stale attempt, records the
 * stale_write event.  It returns the final outcome.
 */

vo_ledger_rc_t
vo_ledger_fence_begin(vo_ledger_t *l, const vo_claim_t *c, int id,
    vo_stmt_t    **s, char *err, size_t err_size)
{
    vo_ledger_rc_t  lrc;

    lrc = vo_ledger_begin(l, err, err_size);
    if (lrc != VO_LEDGER_OK) {
        return lrc;
    }

    *s = vo_ledger_stmt(l, id, err, err_size);
    if (*s == NULL) {
        return VO_LEDGER_ERROR;
    }

    vo_bind_text(*s, 1, c->job_id, -1);
    vo_bind_int(*s, 2, c->attempt);

    return VO_LEDGER_OK;
}


vo_ledger_rc_t
vo_ledger_fence_end(vo_ledger_t *l, const vo_claim_t *c, vo_ledger_rc_t lrc,
    const char *what, const char *kind, const char *detail, int64_t now_ms,
    char *err, size_t err_size)
{
    if (lrc == VO_LEDGER_OK && kind != NULL) {
        lrc = vo_ledger_event(l, now_ms, c->job_id, c->tenant,
                              strlen(c->tenant), kind, c->attempt, detail,
                              err, err_size);
    }

    if (lrc == VO_LEDGER_OK) {
        return vo_ledger_commit(l, err, err_size);
    }

    vo_ledger_rollback(l);

    if (lrc == VO_LEDGER_STALE) {
        vo_ledger_stale(l, c, what, now_ms);
    }

    return lrc;
}


/*
 * Binds the fence (?1 job id, ?2 attempt) and steps a statement that must
 * change exactly one row; no row means the attempt is stale.
 */

vo_ledger_rc_t
vo_ledger_fenced(vo_ledger_t *l, const vo_claim_t *c, vo_stmt_t *s,
    const char *what, char *err, size_t err_size)
{
    vo_ledger_rc_t  lrc;

    vo_bind_text(s, 1, c->job_id, -1);
    vo_bind_int(s, 2, c->attempt);

    lrc = vo_ledger_step_done(l, s, what, err, err_size);
    if (lrc != VO_LEDGER_OK) {
        return lrc;
    }

    if (vo_ledger_changes(l) == 0) {
        snprintf(err, err_size, "%s job %s: attempt %d no longer holds it",
                 what, c->job_id, c->attempt);
        return VO_LEDGER_STALE;
    }

    return VO_LEDGER_OK;
}


/* Counts a refused write: an event of its own, outside any transaction. */

static void
vo_ledger_stale(vo_ledger_t *l, const vo_claim_t *c, const char *what,
    int64_t now_ms)
{
    char  err[64], detail[64];

    snprintf(detail, sizeof(detail), "{\"op\":\"%s\"}", what);

    (void) vo_ledger_event(l, now_ms, c->job_id, c->tenant,
                           strlen(c->tenant), "stale_write", c->attempt,
                           detail, err, sizeof(err));
}
