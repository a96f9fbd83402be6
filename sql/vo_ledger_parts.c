/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Long videos in parts (sql/schema.sql, PARTS; docs/worker-pipeline.md,
 * "Long videos in parts"): the split of a claimed job into parts, the
 * rows of the part after a cut that the part before it compares its own
 * with, the finish of a part, which joins the parts' rows into the job's
 * and publishes the job when it is the last, and the end of a job that
 * a part of it failed or was rejected.  A part is a row of jobs, claimed
 * and fenced as a job is (vo_ledger_claim.c, vo_ledger_worker.c); only
 * what a job does not have is here.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "vo_frame_flags.h"
#include "vo_ledger.h"
#include "vo_ledger_int.h"


#define VO_FENCE  " WHERE job_id = ?1 AND state = 'running' AND attempt = ?2"

#define VO_FRAME_COLUMNS                                                     \
    "frame_index, pts_ms, text, confidence, reused_from, flags,"             \
    " box_x, box_y, box_w, box_h, lines, parts"


const char  *vo_ledger_parts_sql[VO_STMT_COUNT] = {

    /* fenced (invariant 6): the job gives up its lease, its parts do the
     * work; state stays 'running' (no takeover claims a NULL lease) */
    [VO_STMT_PART_SPLIT] =
    "UPDATE jobs SET parts = ?3, parts_done = 0, lease_owner = NULL,"
    " lease_expires_at = NULL, updated_at = ?4" VO_FENCE,

    /* part ?3 of job ?1 as job ?2: the job's input, options, tenant and
     * attempts; claimable at ?4 */
    [VO_STMT_PART_INSERT] =
    "INSERT INTO jobs (job_id, tenant, options, input_path, input_size,"
    " input_sha256, container, max_attempts, not_before, created_at,"
    " updated_at, plan_version, frames_planned, parent_id, part,"
    " first_sample, end_sample)"
    " SELECT ?2, tenant, options, input_path, input_size, input_sha256,"
    " container, max_attempts, ?4, created_at, ?5, plan_version,"
    " frames_planned, job_id, ?3, ?6, ?7 FROM jobs WHERE job_id = ?1",

    /* in no order: a plan may sort the few rows, which the query plans'
     * test refuses; the callers sort them */
    [VO_STMT_PARTS_OF] =
    "SELECT job_id, part, first_sample, end_sample, state, seam_index,"
    " seam_part FROM jobs WHERE parent_id = ?1",

    [VO_STMT_FRAMES_RANGE] =
    "SELECT " VO_FRAME_COLUMNS " FROM frames"
    " WHERE job_id = ?1 AND plan_version = ?2 AND frame_index >= ?3"
    " AND frame_index < ?4 ORDER BY frame_index",

    /* fenced (invariant 6); a part has no finished_at: it is no job's
     * history (retention never sees it) */
    [VO_STMT_PART_DONE] =
    "UPDATE jobs SET state = 'done', seam_index = ?3, seam_part = ?4,"
    " lease_owner = NULL, lease_expires_at = NULL, updated_at = ?5" VO_FENCE,

    /* the parent row, taken for this transaction before the part's
     * (VO_PART_LOCK_SQL): parts that finish at once count in turn */
    [VO_STMT_PART_COUNT] =
    "UPDATE jobs SET parts_done = parts_done + 1, updated_at = ?2"
    " WHERE job_id = ?1 AND state = 'running'"
    " RETURNING parts, parts_done, tenant, attempt",

    /* part ?2's rows ?4 <= frame_index < ?5 become job ?1's */
    [VO_STMT_PART_JOIN] =
    "INSERT INTO frames (job_id, plan_version, " VO_FRAME_COLUMNS ","
    " attempt, created_at)"
    " SELECT ?1, plan_version, " VO_FRAME_COLUMNS ", attempt, created_at"
    " FROM frames WHERE job_id = ?2 AND plan_version = ?3"
    " AND frame_index >= ?4 AND frame_index < ?5",

    /* the job's own fence is its state: no attempt holds it while its
     * parts run, and a cancelled or failed job is not published
     * (invariant 7: only in the transaction of the part that holds its
     * lease) */
    [VO_STMT_PART_PUBLISH] =
    "UPDATE jobs SET state = 'done', error_code = NULL, error = NULL,"
    " frames_done = (SELECT count(*) FROM frames WHERE job_id = ?1"
    " AND plan_version = ?3"
    " AND (flags & " VO_FRAME_SQL(VO_FRAME_BETWEEN) ") = 0),"
    " finished_at = ?2, updated_at = ?2"
    " WHERE job_id = ?1 AND state = 'running'",

    /* PostgreSQL: FOR UPDATE (VO_PART_LOCK_SQL says why) */
    [VO_STMT_PART_LOCK] =
    VO_PART_LOCK_SQL,

    [VO_STMT_PART_END] =
    "UPDATE jobs SET state = ?2, error_code = ?3, error = ?4,"
    " lease_owner = NULL, lease_expires_at = NULL, finished_at = ?5,"
    " updated_at = ?5 WHERE job_id = ?1 AND state = 'running'"
    " RETURNING tenant, attempt",

    /* PostgreSQL: FOR UPDATE (VO_PARTS_LOCK_SQL says why) */
    [VO_STMT_PARTS_LOCK] =
    VO_PARTS_LOCK_SQL,

    [VO_STMT_PARTS_DROP_FRAMES] =
    "DELETE FROM frames WHERE job_id IN"
    " (SELECT job_id FROM jobs WHERE parent_id = ?1)",

    [VO_STMT_PARTS_DROP] =
    "DELETE FROM jobs WHERE parent_id = ?1",
};


static vo_ledger_rc_t vo_parts_join(vo_ledger_t *l, const vo_claim_t *c,
    int plan_version, char *err, size_t err_size);
static vo_ledger_rc_t vo_parts_publish(vo_ledger_t *l, const vo_claim_t *c,
    int plan_version, const char *tenant, vo_render_pt render, void *data,
    int64_t now_ms, int *published, char *err, size_t err_size);
static int vo_parts_new_id(char *job_id);
static vo_ledger_rc_t vo_parts_lock(vo_ledger_t *l, int id,
    const char *key, const char *what, char *err, size_t err_size);
static int vo_parts_cmp(const void *a, const void *b);


vo_ledger_rc_t
vo_ledger_split(vo_ledger_t *l, const vo_claim_t *c, const uint32_t *firsts,
    size_t nparts, uint32_t samples, int64_t now_ms, char *err,
    size_t err_size)
{
    char             id[VO_JOB_ID_LEN + 1], detail[64];
    size_t           k;
    vo_stmt_t       *s;
    vo_ledger_rc_t   lrc;

    lrc = vo_ledger_fence_begin(l, c, VO_STMT_PART_SPLIT, &s, err, err_size);

    if (lrc == VO_LEDGER_OK) {
        vo_bind_int(s, 3, (int64_t) nparts);
        vo_bind_int(s, 4, now_ms);

        lrc = vo_ledger_fenced(l, c, s, "split", err, err_size);
    }

    for (k = 0; lrc == VO_LEDGER_OK && k < nparts; k++) {

        if (vo_parts_new_id(id) != 0) {
            snprintf(err, err_size, "split job %s: no random bytes",
                     c->job_id);
            lrc = VO_LEDGER_ERROR;
            break;
        }

        s = vo_ledger_stmt(l, VO_STMT_PART_INSERT, err, err_size);
        if (s == NULL) {
            lrc = VO_LEDGER_ERROR;
            break;
        }

        vo_bind_text(s, 1, c->job_id, -1);
        vo_bind_text(s, 2, id, -1);
        vo_bind_int(s, 3, (int64_t) k);

        /* the last part claimable first: the rows after each cut are
         * there when the part before it reads past the cut */
        vo_bind_int(s, 4, now_ms + (int64_t) (nparts - 1 - k));
        vo_bind_int(s, 5, now_ms);
        vo_bind_int(s, 6, firsts[k]);
        vo_bind_int(s, 7, k + 1 < nparts ? firsts[k + 1] : samples);

        lrc = vo_ledger_step_done(l, s, "insert part", err, err_size);
    }

    snprintf(detail, sizeof(detail), "{\"parts\":%zu}", nparts);

    return vo_ledger_fence_end(l, c, lrc, "split", "split", detail, now_ms,
                               err, err_size);
}


vo_ledger_rc_t
vo_ledger_parts(vo_ledger_t *l, const char *parent_id, vo_part_t **parts,
    size_t *n, char *err, size_t err_size)
{
    int              rc;
    size_t           cap, k;
    const char      *state;
    vo_stmt_t       *s;
    vo_part_t       *p, *np;
    vo_ledger_rc_t   lrc;

    *parts = NULL;
    *n = 0;

    s = vo_ledger_stmt(l, VO_STMT_PARTS_OF, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    vo_bind_text(s, 1, parent_id, -1);

    p = NULL;
    cap = 0;
    lrc = VO_LEDGER_OK;

    while ((rc = vo_step(s)) == VO_ROW) {

        if (*n == cap) {
            cap = cap ? 2 * cap : 16;
            np = realloc(p, cap * sizeof(vo_part_t));
            if (np == NULL) {
                snprintf(err, err_size, "parts of %s: out of memory",
                         parent_id);
                lrc = VO_LEDGER_ERROR;
                break;
            }

            p = np;
        }

        vo_ledger_copy_text(p[*n].job_id, sizeof(p[*n].job_id), s, 0);
        p[*n].part = vo_column_int(s, 1);
        p[*n].first_sample = (uint32_t) vo_column_int64(s, 2);
        p[*n].end_sample = (uint32_t) vo_column_int64(s, 3);
        state = (const char *) vo_column_text(s, 4);
        p[*n].done = state != NULL && strcmp(state, "done") == 0;
        p[*n].seam_index = vo_ledger_int_or(s, 5, -1);
        p[*n].seam_part = (int) vo_ledger_int_or(s, 6, -1);
        (*n)++;
    }

    if (p != NULL) {
        qsort(p, *n, sizeof(vo_part_t), vo_parts_cmp);
    }

    for (k = 0; lrc == VO_LEDGER_OK && k < *n; k++) {
        if (p[k].part != (int) k) {
            snprintf(err, err_size, "parts of %s: part %d is missing",
                     parent_id, (int) k);
            lrc = VO_LEDGER_ERROR;
        }
    }

    if (lrc == VO_LEDGER_OK && rc != VO_DONE) {
        snprintf(err, err_size, "parts of %s: %s", parent_id,
                 vo_ledger_errmsg(l));
        lrc = vo_ledger_rc(rc);
    }

    vo_reset(s);

    if (lrc != VO_LEDGER_OK) {
        free(p);
        *n = 0;
        return lrc;
    }

    *parts = p;

    return VO_LEDGER_OK;
}


vo_ledger_rc_t
vo_ledger_frames_range(vo_ledger_t *l, const char *job_id, int plan_version,
    int64_t lo, int64_t hi, vo_frame_row_t **rows, size_t *n, char *err,
    size_t err_size)
{
    vo_stmt_t  *s;

    s = vo_ledger_stmt(l, VO_STMT_FRAMES_RANGE, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    vo_bind_text(s, 1, job_id, -1);
    vo_bind_int(s, 2, plan_version);
    vo_bind_int(s, 3, lo);
    vo_bind_int(s, 4, hi);

    return vo_ledger_frames_read(l, s, job_id, rows, n, err, err_size);
}


vo_ledger_rc_t
vo_ledger_part_done(vo_ledger_t *l, const vo_claim_t *c, int plan_version,
    int64_t seam_index, int seam_part, vo_render_pt render, void *data,
    const vo_attempt_stats_t *st, int64_t now_ms, int *published, char *err,
    size_t err_size)
{
    int              rc;
    char             detail[VO_DETAIL_MAX], tenant[VO_TENANT_MAX + 1];
    int64_t          parts, ndone;
    vo_stmt_t       *s, *count;
    vo_ledger_rc_t   lrc;

    *published = 0;
    parts = 0;
    ndone = 0;

    lrc = vo_ledger_fence_begin(l, c, VO_STMT_PART_DONE, &s, err, err_size);
    if (lrc != VO_LEDGER_OK) {
        goto done;
    }

    /* the job first (VO_PART_LOCK_SQL), counted as if the fence below
     * holds: if it does not, the transaction is rolled back */

    count = vo_ledger_stmt(l, VO_STMT_PART_COUNT, err, err_size);
    if (count == NULL) {
        lrc = VO_LEDGER_ERROR;
        goto done;
    }

    vo_bind_text(count, 1, c->parent_id, -1);
    vo_bind_int(count, 2, now_ms);

    rc = vo_step(count);

    if (rc == VO_ROW) {
        parts = vo_column_int64(count, 0);
        ndone = vo_column_int64(count, 1);
        vo_ledger_copy_text(tenant, sizeof(tenant), count, 2);
        (void) vo_step(count);

    } else if (rc == VO_DONE) {
        /* the job left running, and its parts with it: this attempt's
         * own fence fails below */
        lrc = VO_LEDGER_STALE;
        snprintf(err, err_size, "part done job %s: its job %s is no longer "
                 "running", c->job_id, c->parent_id);

    } else {
        snprintf(err, err_size, "part done: job %s: %s", c->parent_id,
                 vo_ledger_errmsg(l));
        lrc = vo_ledger_rc(rc);
    }

    vo_reset(count);

    if (lrc != VO_LEDGER_OK) {
        goto done;
    }

    if (seam_index >= 0) {
        vo_bind_int(s, 3, seam_index);
        vo_bind_int(s, 4, seam_part);

    } else {
        vo_bind_null(s, 3);
        vo_bind_null(s, 4);
    }

    vo_bind_int(s, 5, now_ms);

    lrc = vo_ledger_fenced(l, c, s, "part done", err, err_size);

    if (lrc == VO_LEDGER_OK && ndone >= parts) {
        lrc = vo_parts_publish(l, c, plan_version, tenant, render, data,
                               now_ms, published, err, err_size);
    }

done:

    vo_ledger_detail(detail, sizeof(detail), NULL, st);

    return vo_ledger_fence_end(l, c, lrc, "part done", "part_done", detail,
                               now_ms, err, err_size);
}


/*
 * The last part is done: the parts' rows joined into the job's, the
 * result rendered from them and published, the parts deleted; all in
 * the caller's transaction (invariants 7, 10, 15, 16).
 */
static vo_ledger_rc_t
vo_parts_publish(vo_ledger_t *l, const vo_claim_t *c, int plan_version,
    const char *tenant, vo_render_pt render, void *data, int64_t now_ms,
    int *published, char *err, size_t err_size)
{
    char                detail[96];
    size_t              nrows, nbodies;
    vo_stmt_t          *s;
    const char         *warning;
    vo_frame_row_t     *rows;
    vo_ledger_rc_t      lrc;
    vo_result_body_t    bodies[VO_RESULT_FORMATS];

    lrc = vo_parts_join(l, c, plan_version, err, err_size);
    if (lrc != VO_LEDGER_OK) {
        return lrc;
    }

    lrc = vo_ledger_frames(l, c->parent_id, plan_version, &rows, &nrows, err,
                           err_size);
    if (lrc != VO_LEDGER_OK) {
        return lrc;
    }

    warning = NULL;
    nbodies = 0;

    if (render(data, rows, nrows, bodies, &nbodies, &warning, err, err_size)
        != 0)
    {
        vo_ledger_free_frames(rows, nrows);
        return VO_LEDGER_ERROR;
    }

    vo_ledger_free_frames(rows, nrows);

    s = vo_ledger_stmt(l, VO_STMT_PART_PUBLISH, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    vo_bind_text(s, 1, c->parent_id, -1);
    vo_bind_int(s, 2, now_ms);
    vo_bind_int(s, 3, plan_version);

    lrc = vo_ledger_step_done(l, s, "publish job", err, err_size);
    if (lrc != VO_LEDGER_OK) {
        return lrc;
    }

    if (vo_ledger_changes(l) == 0) {
        /* can't happen: PART_COUNT found it running in this transaction */
        snprintf(err, err_size, "publish job %s: no longer running",
                 c->parent_id);
        return VO_LEDGER_STALE;
    }

    lrc = vo_ledger_put_results(l, c->parent_id, tenant, bodies, nbodies,
                                now_ms, err, err_size);
    if (lrc != VO_LEDGER_OK) {
        return lrc;
    }

    /* invariant 16 */
    lrc = vo_ledger_parts_drop(l, c->parent_id, err, err_size);
    if (lrc != VO_LEDGER_OK) {
        return lrc;
    }

    /* the job's own "published": its code the result's warning, so the
     * metrics count done jobs by it as they do whole ones; step "join" */
    snprintf(detail, sizeof(detail), "{\"code\":\"%.40s\",\"step\":"
             "\"join\"}", warning != NULL ? warning : "");

    lrc = vo_ledger_event(l, now_ms, c->parent_id, tenant, strlen(tenant),
                          "published", 0, detail, err, err_size);

    *published = (lrc == VO_LEDGER_OK);

    return lrc;
}


/*
 * The job's rows: part 0's up to its seam, then those of the part that
 * takes over there, up to its own seam, and so on; a part without a
 * seam gives its rows to the end.
 */
static vo_ledger_rc_t
vo_parts_join(vo_ledger_t *l, const vo_claim_t *c, int plan_version,
    char *err, size_t err_size)
{
    size_t           n, k;
    int64_t          from;
    vo_part_t       *parts;
    vo_stmt_t       *s;
    vo_ledger_rc_t   lrc;

    lrc = vo_ledger_parts(l, c->parent_id, &parts, &n, err, err_size);
    if (lrc != VO_LEDGER_OK) {
        return lrc;
    }

    from = 0;
    k = 0;

    while (k < n) {                     /* k grows: each seam is later */
        s = vo_ledger_stmt(l, VO_STMT_PART_JOIN, err, err_size);
        if (s == NULL) {
            lrc = VO_LEDGER_ERROR;
            break;
        }

        vo_bind_text(s, 1, c->parent_id, -1);
        vo_bind_text(s, 2, parts[k].job_id, -1);
        vo_bind_int(s, 3, plan_version);
        vo_bind_int(s, 4, from);
        vo_bind_int(s, 5, parts[k].seam_index >= 0 ? parts[k].seam_index
                                                   : INT64_MAX);

        lrc = vo_ledger_step_done(l, s, "join part", err, err_size);

        if (parts[k].seam_index < 0) {
            break;
        }

        if (lrc != VO_LEDGER_OK) {
            break;
        }

        /* a seam names a later part (vw_child_seam) */
        if (parts[k].seam_part <= parts[k].part
            || (size_t) parts[k].seam_part >= n)
        {
            snprintf(err, err_size, "join job %s: the seam of part %d "
                     "names part %d", c->parent_id, parts[k].part,
                     parts[k].seam_part);
            lrc = VO_LEDGER_ERROR;
            break;
        }

        from = parts[k].seam_index;
        k = (size_t) parts[k].seam_part;
    }

    free(parts);

    return lrc;
}


vo_ledger_rc_t
vo_ledger_parts_end(vo_ledger_t *l, const char *parent_id, const char *state,
    const char *code, const char *message, int64_t now_ms, char *err,
    size_t err_size)
{
    int              rc, attempt;
    char             tenant[VO_TENANT_MAX + 1], detail[96], event[32];
    vo_stmt_t       *s;
    vo_ledger_rc_t   lrc;

    s = vo_ledger_stmt(l, VO_STMT_PART_END, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    vo_bind_text(s, 1, parent_id, -1);
    vo_bind_text(s, 2, state, -1);
    vo_bind_text(s, 3, code, -1);
    vo_bind_text(s, 4, message, -1);
    vo_bind_int(s, 5, now_ms);

    rc = vo_step(s);

    if (rc == VO_DONE) {
        vo_reset(s);
        return VO_LEDGER_OK;            /* no longer running */
    }

    if (rc != VO_ROW) {
        snprintf(err, err_size, "end job %s: %s", parent_id,
                 vo_ledger_errmsg(l));
        vo_reset(s);
        return vo_ledger_rc(rc);
    }

    vo_ledger_copy_text(tenant, sizeof(tenant), s, 0);
    attempt = vo_column_int(s, 1);
    (void) vo_step(s);
    vo_reset(s);

    /* invariant 10: the move and its notification together */
    snprintf(event, sizeof(event), "job.%s", state);

    lrc = vo_ledger_notify(l, parent_id, event, NULL, now_ms, err, err_size);
    if (lrc != VO_LEDGER_OK) {
        return lrc;
    }

    /* invariant 16 */
    lrc = vo_ledger_parts_drop(l, parent_id, err, err_size);
    if (lrc != VO_LEDGER_OK) {
        return lrc;
    }

    snprintf(detail, sizeof(detail), "{\"code\":\"%.40s\",\"step\":"
             "\"part\"}", code);

    return vo_ledger_event(l, now_ms, parent_id, tenant, strlen(tenant),
                           state, attempt, detail, err, err_size);
}


vo_ledger_rc_t
vo_ledger_part_lock(vo_ledger_t *l, const char *job_id, char *err,
    size_t err_size)
{
    /* gone: the fence that follows says so */
    return vo_parts_lock(l, VO_STMT_PART_LOCK, job_id, "job", err,
                         err_size);
}


vo_ledger_rc_t
vo_ledger_parts_drop(vo_ledger_t *l, const char *parent_id, char *err,
    size_t err_size)
{
    vo_stmt_t       *s;
    vo_ledger_rc_t   lrc;

    /* the parts first (VO_PARTS_LOCK_SQL): no frame of theirs comes in
     * between the two deletions */
    lrc = vo_parts_lock(l, VO_STMT_PARTS_LOCK, parent_id, "parts of",
                        err, err_size);
    if (lrc != VO_LEDGER_OK) {
        return lrc;
    }

    s = vo_ledger_stmt(l, VO_STMT_PARTS_DROP_FRAMES, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    vo_bind_text(s, 1, parent_id, -1);

    lrc = vo_ledger_step_done(l, s, "drop parts' frames", err, err_size);
    if (lrc != VO_LEDGER_OK) {
        return lrc;
    }

    s = vo_ledger_stmt(l, VO_STMT_PARTS_DROP, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    vo_bind_text(s, 1, parent_id, -1);

    return vo_ledger_step_done(l, s, "drop parts", err, err_size);
}


/* Steps lock statement id (VO_PART_LOCK_SQL, VO_PARTS_LOCK_SQL) over the
 * rows of id: PostgreSQL locks each; no row is no error. */
static vo_ledger_rc_t
vo_parts_lock(vo_ledger_t *l, int id, const char *key, const char *what,
    char *err, size_t err_size)
{
    int         rc;
    vo_stmt_t  *s;

    s = vo_ledger_stmt(l, id, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    vo_bind_text(s, 1, key, -1);

    while ((rc = vo_step(s)) == VO_ROW) {
        /* void */
    }

    vo_reset(s);

    if (rc != VO_DONE) {
        snprintf(err, err_size, "lock %s %s: %s", what, key,
                 vo_ledger_errmsg(l));
        return vo_ledger_rc(rc);
    }

    return VO_LEDGER_OK;
}


static int
vo_parts_cmp(const void *a, const void *b)
{
    return ((const vo_part_t *) a)->part - ((const vo_part_t *) b)->part;
}


/* A part's id: 32 random lowercase hex digits, as a job's. */
static int
vo_parts_new_id(char *job_id)
{
    size_t          i;
    unsigned char   rnd[VO_JOB_ID_LEN / 2];

    static const char  hex[] = "0123456789abcdef";

    if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t) sizeof(rnd)) {
        return -1;
    }

    for (i = 0; i < sizeof(rnd); i++) {
        job_id[2 * i] = hex[rnd[i] >> 4];
        job_id[2 * i + 1] = hex[rnd[i] & 0x0f];
    }

    job_id[VO_JOB_ID_LEN] = '\0';

    return 0;
}
