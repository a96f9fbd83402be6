/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The janitor's statements (video-ocr-worker janitor): receipts past
 * their expires_at are forgotten, and finished jobs past the media
 * retention lose their stored input and frame rows (their results stay);
 * The retention removes the frame rows of done jobs, then whole
 * jobs, then old events (the RETENTION section of sql/schema.sql), in
 * batches of short transactions, and gives free pages back (SQLite).
 * Every pass leaves audit events that the metrics count.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vo_ledger.h"
#include "vo_ledger_int.h"


const char  *vo_ledger_janitor_sql[VO_STMT_COUNT] = {

    [VO_STMT_EXPIRE_RECEIPTS] =
    "DELETE FROM requests WHERE (tenant, request_key) IN"
    " (SELECT tenant, request_key FROM requests WHERE expires_at <= ?1"
    " LIMIT ?2)",

    [VO_STMT_MEDIA_DUE] =
    "SELECT job_id, input_path, input_size FROM jobs"
    " WHERE finished_at IS NOT NULL AND media_deleted_at IS NULL"
    " AND finished_at <= ?1 ORDER BY finished_at LIMIT ?2",

    /* after the file is gone, so that no job marked so keeps one
     * (invariant 9) */
    [VO_STMT_MEDIA_DELETED] =
    "UPDATE jobs SET media_deleted_at = ?2, updated_at = ?2"
    " WHERE job_id = ?1 AND media_deleted_at IS NULL",

    [VO_STMT_MEDIA_FRAMES] =
    "DELETE FROM frames WHERE job_id = ?1",

    [VO_STMT_MEDIA_OF] =
    "SELECT media_deleted_at IS NOT NULL FROM jobs WHERE job_id = ?1",

    /* VO_STMT_FOLD_COUNTERS: PostgreSQL's only; SQLite has nothing to
     * fold */

    /*
     * Issue 17: retention.  Each candidate query walks an index of its
     * own in order (jobs_frames_due, jobs_expired, events_by_age,
     * events_audit_by_age) and stops at its LIMIT.
     */

    [VO_STMT_RETAIN_FRAMES_DUE] = VO_RETAIN_FRAMES_DUE_SQL(""),

    /* at most ?2 rows of one job: a long video's thousands of frames
     * take several short transactions */
    [VO_STMT_RETAIN_FRAMES] =
    "DELETE FROM frames WHERE (job_id, plan_version, frame_index) IN"
    " (SELECT job_id, plan_version, frame_index FROM frames"
    " WHERE job_id = ?1 LIMIT ?2)",

    [VO_STMT_RETAIN_FRAMES_MARK] =
    "UPDATE jobs SET frames_deleted_at = ?2"
    " WHERE job_id = ?1 AND frames_deleted_at IS NULL",

    /* a notification still to send keeps its job: its row
     * names the job (a foreign key), which the status shows it with */
    [VO_STMT_RETAIN_JOBS_DUE] =
    "SELECT j.job_id FROM jobs j"
    " WHERE j.media_deleted_at IS NOT NULL AND j.finished_at <= ?1"
    " AND NOT EXISTS (SELECT 1 FROM notifications n"
    " WHERE n.job_id = j.job_id AND n.state IN ('pending', 'held'))"
    " ORDER BY j.finished_at LIMIT ?2",

    [VO_STMT_RETAIN_ATTEMPTS] =
    "DELETE FROM notification_attempts WHERE notification_id IN"
    " (SELECT id FROM notifications WHERE job_id = ?1)",

    [VO_STMT_RETAIN_NOTIFICATIONS] =
    "DELETE FROM notifications WHERE job_id = ?1"
    " AND state IN ('delivered', 'failed')",

    [VO_STMT_RETAIN_RESULTS] =
    "DELETE FROM results WHERE job_id = ?1",

    [VO_STMT_RETAIN_JOB_FRAMES] =
    "DELETE FROM frames WHERE job_id = ?1",

    /* the receipt, if it still lives, stays: the job's tombstone */
    [VO_STMT_RETAIN_JOB] =
    "DELETE FROM jobs WHERE job_id = ?1 AND media_deleted_at IS NOT NULL",

    [VO_STMT_RETAIN_EVENTS] =
    "DELETE FROM events WHERE id IN (SELECT id FROM events"
    " WHERE kind NOT IN " VO_AUDIT_KINDS " AND at <= ?1"
    " ORDER BY at LIMIT ?2)",

    [VO_STMT_RETAIN_AUDIT] =
    "DELETE FROM events WHERE id IN (SELECT id FROM events"
    " WHERE kind IN " VO_AUDIT_KINDS " AND at <= ?1"
    " ORDER BY at LIMIT ?2)",

    /* VO_STMT_FOLD_TENANTS: PostgreSQL's only, as FOLD_COUNTERS */
};


#define VO_RETAIN_JOBS_MAX  256


static vo_ledger_rc_t vo_ledger_retain_ids(vo_ledger_t *l, int id,
    int64_t before_ms, int limit, char (*ids)[VO_JOB_ID_LEN + 1], int *n,
    char *err, size_t err_size);
static vo_ledger_rc_t vo_ledger_retain_job(vo_ledger_t *l, int id,
    const char *job_id, int64_t arg, const char *what, int64_t *n,
    char *err, size_t err_size);
static vo_ledger_rc_t vo_ledger_retain_end(vo_ledger_t *l, vo_ledger_rc_t lrc,
    const vo_retention_stats_t *d, vo_retention_stats_t *st, int64_t now_ms,
    char *err, size_t err_size);


vo_ledger_rc_t
vo_ledger_expire_receipts(vo_ledger_t *l, int64_t now_ms, int limit, int *n,
    char *err, size_t err_size)
{
    char            detail[64];
    vo_stmt_t      *s;
    vo_ledger_rc_t  lrc;

    *n = 0;

    lrc = vo_ledger_begin(l, err, err_size);
    if (lrc != VO_LEDGER_OK) {
        return lrc;
    }

    s = vo_ledger_stmt(l, VO_STMT_EXPIRE_RECEIPTS, err, err_size);
    if (s != NULL) {
        vo_bind_int(s, 1, now_ms);
        vo_bind_int(s, 2, limit);
    }

    lrc = vo_ledger_step_done(l, s, "expire receipts", err, err_size);

    if (lrc == VO_LEDGER_OK) {
        *n = vo_ledger_changes(l);

        if (*n > 0) {
            snprintf(detail, sizeof(detail), "{\"receipts_expired\":%d}", *n);
            lrc = vo_ledger_event(l, now_ms, NULL, NULL, 0,
                                  "receipts_expired", 0, detail, err,
                                  err_size);
        }
    }

    if (lrc != VO_LEDGER_OK) {
        vo_ledger_rollback(l);
        *n = 0;
        return lrc;
    }

    return vo_ledger_commit(l, err, err_size);
}


vo_ledger_rc_t
vo_ledger_media_due(vo_ledger_t *l, int64_t before_ms, vo_media_t *rows,
    size_t max, size_t *n, char *err, size_t err_size)
{
    int             rc;
    const char     *v;
    vo_stmt_t      *s;
    vo_ledger_rc_t  lrc;

    *n = 0;

    s = vo_ledger_stmt(l, VO_STMT_MEDIA_DUE, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    vo_bind_int(s, 1, before_ms);
    vo_bind_int(s, 2, (int64_t) max);

    while ((rc = vo_step(s)) == VO_ROW && *n < max) {
        v = (const char *) vo_column_text(s, 0);
        snprintf(rows[*n].job_id, sizeof(rows[*n].job_id), "%s",
                 v ? v : "");
        v = (const char *) vo_column_text(s, 1);
        snprintf(rows[*n].input_path, sizeof(rows[*n].input_path), "%s",
                 v ? v : "");
        rows[*n].input_size = vo_column_int64(s, 2);
        (*n)++;
    }

    lrc = VO_LEDGER_OK;

    if (rc != VO_ROW && rc != VO_DONE) {
        snprintf(err, err_size, "media due: %s", vo_ledger_errmsg(l));
        lrc = vo_ledger_rc(rc);
    }

    vo_reset(s);

    return lrc;
}


vo_ledger_rc_t
vo_ledger_media_deleted(vo_ledger_t *l, const vo_media_t *m, int64_t now_ms,
    char *err, size_t err_size)
{
    char            detail[96];
    vo_stmt_t      *s;
    vo_ledger_rc_t  lrc;

    lrc = vo_ledger_begin(l, err, err_size);
    if (lrc != VO_LEDGER_OK) {
        return lrc;
    }

    s = vo_ledger_stmt(l, VO_STMT_MEDIA_DELETED, err, err_size);
    if (s != NULL) {
        vo_bind_text(s, 1, m->job_id, -1);
        vo_bind_int(s, 2, now_ms);
    }

    lrc = vo_ledger_step_done(l, s, "mark media deleted", err, err_size);

    if (lrc == VO_LEDGER_OK && vo_ledger_changes(l) == 0) {
        /* someone else (a DELETE) was first: nothing to count */
        return vo_ledger_commit(l, err, err_size);
    }

    if (lrc == VO_LEDGER_OK) {
        s = vo_ledger_stmt(l, VO_STMT_MEDIA_FRAMES, err, err_size);
        if (s != NULL) {
            vo_bind_text(s, 1, m->job_id, -1);
        }

        lrc = vo_ledger_step_done(l, s, "delete frames", err, err_size);
    }

    if (lrc == VO_LEDGER_OK) {
        snprintf(detail, sizeof(detail), "{\"code\":\"retention\","
                 "\"media_jobs\":1,\"media_bytes\":%lld}",
                 (long long) m->input_size);

        lrc = vo_ledger_event(l, now_ms, m->job_id, NULL, 0,
                              "media_deleted", 0, detail, err, err_size);
    }

    if (lrc != VO_LEDGER_OK) {
        vo_ledger_rollback(l);
        return lrc;
    }

    return vo_ledger_commit(l, err, err_size);
}


vo_ledger_rc_t
vo_ledger_media_of(vo_ledger_t *l, const char *job_id, int *state,
    char *err, size_t err_size)
{
    int             rc;
    vo_stmt_t      *s;
    vo_ledger_rc_t  lrc;

    s = vo_ledger_stmt(l, VO_STMT_MEDIA_OF, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    vo_bind_text(s, 1, job_id, -1);

    rc = vo_step(s);
    lrc = VO_LEDGER_OK;

    if (rc == VO_ROW) {
        *state = vo_column_int(s, 0) ? VO_MEDIA_DELETED : VO_MEDIA_LIVE;

    } else if (rc == VO_DONE) {
        *state = VO_MEDIA_NO_JOB;

    } else {
        snprintf(err, err_size, "media of %s: %s", job_id,
                 vo_ledger_errmsg(l));
        lrc = vo_ledger_rc(rc);
    }

    vo_reset(s);

    return lrc;
}


vo_ledger_rc_t
vo_ledger_fold_counters(vo_ledger_t *l, char *err, size_t err_size)
{
    vo_stmt_t  *s;

    if (vo_ledger_sql_text(l, VO_STMT_FOLD_COUNTERS) == NULL) {
        return VO_LEDGER_OK;
    }

    s = vo_ledger_stmt(l, VO_STMT_FOLD_COUNTERS, err, err_size);

    if (vo_ledger_step_done(l, s, "fold counters", err, err_size)
        != VO_LEDGER_OK)
    {
        return VO_LEDGER_ERROR;
    }

    /* the per-tenant gauges, and the tenants gone to 0 */

    s = vo_ledger_stmt(l, VO_STMT_FOLD_TENANTS, err, err_size);

    return vo_ledger_step_done(l, s, "fold tenant counts", err, err_size);
}



/*
 * Issue 17: retention.  The frame rows of done jobs: up to limit rows in
 * one transaction, job by job in finish order; a job is marked once its
 * last row is gone, so the next pass starts at the next job.
 */

vo_ledger_rc_t
vo_ledger_retain_frames(vo_ledger_t *l, int64_t before_ms, int64_t now_ms,
    int limit, vo_retention_stats_t *st, int *more, char *err,
    size_t err_size)
{
    int                    i, n;
    int64_t                k, budget;
    vo_ledger_rc_t         lrc;
    vo_retention_stats_t   d;
    char                   ids[VO_RETAIN_JOBS_MAX][VO_JOB_ID_LEN + 1];

    memset(&d, 0, sizeof(d));
    *more = 0;

    lrc = vo_ledger_begin(l, err, err_size);
    if (lrc != VO_LEDGER_OK) {
        return lrc;
    }

    lrc = vo_ledger_retain_ids(l, VO_STMT_RETAIN_FRAMES_DUE, before_ms,
                               VO_RETAIN_JOBS_MAX, ids, &n, err, err_size);

    budget = limit;

    for (i = 0; lrc == VO_LEDGER_OK && i < n && budget > 0; i++) {
        lrc = vo_ledger_retain_job(l, VO_STMT_RETAIN_FRAMES, ids[i], budget,
                                   "retain frames", &k, err, err_size);
        if (lrc != VO_LEDGER_OK) {
            break;
        }

        d.frames += k;
        budget -= k;

        if (budget == 0) {
            /* this job may have more rows: the next call goes on */
            *more = 1;
            break;
        }

        lrc = vo_ledger_retain_job(l, VO_STMT_RETAIN_FRAMES_MARK, ids[i],
                                   now_ms, "mark frames deleted", &k, err,
                                   err_size);
    }

    if (lrc == VO_LEDGER_OK && n == VO_RETAIN_JOBS_MAX) {
        *more = 1;
    }

    return vo_ledger_retain_end(l, lrc, &d, st, now_ms, err, err_size);
}


/*
 * Jobs past the job retention, up to limit in one transaction, each with
 * what names it: delivered or failed notifications and their attempts,
 * results, frames (foreign keys to jobs).  Events keep their own window.
 */

vo_ledger_rc_t
vo_ledger_retain_jobs(vo_ledger_t *l, int64_t before_ms, int64_t now_ms,
    int limit, vo_retention_stats_t *st, int *more, char *err,
    size_t err_size)
{
    int                    i, n;
    int64_t                k;
    vo_ledger_rc_t         lrc;
    vo_retention_stats_t   d;
    char                   ids[VO_RETAIN_JOBS_MAX][VO_JOB_ID_LEN + 1];

    memset(&d, 0, sizeof(d));
    *more = 0;

    if (limit > VO_RETAIN_JOBS_MAX) {
        limit = VO_RETAIN_JOBS_MAX;
    }

    lrc = vo_ledger_begin(l, err, err_size);
    if (lrc != VO_LEDGER_OK) {
        return lrc;
    }

    lrc = vo_ledger_retain_ids(l, VO_STMT_RETAIN_JOBS_DUE, before_ms, limit,
                               ids, &n, err, err_size);

    for (i = 0; lrc == VO_LEDGER_OK && i < n; i++) {
        lrc = vo_ledger_retain_job(l, VO_STMT_RETAIN_ATTEMPTS, ids[i], -1,
                                   "retain attempts", &k, err, err_size);
        if (lrc == VO_LEDGER_OK) {
            lrc = vo_ledger_retain_job(l, VO_STMT_RETAIN_NOTIFICATIONS,
                                       ids[i], -1, "retain notifications",
                                       &k, err, err_size);
            d.notifications += k;
        }

        if (lrc == VO_LEDGER_OK) {
            /* invariant 15: out of the search index with its result */
            lrc = vo_ledger_search_forget(l, ids[i], err, err_size);
        }

        if (lrc == VO_LEDGER_OK) {
            lrc = vo_ledger_retain_job(l, VO_STMT_RETAIN_RESULTS, ids[i], -1,
                                       "retain results", &k, err, err_size);
            d.results += k;
        }

        if (lrc == VO_LEDGER_OK) {
            lrc = vo_ledger_retain_job(l, VO_STMT_RETAIN_JOB_FRAMES, ids[i],
                                       -1, "retain frames", &k, err,
                                       err_size);
            d.frames += k;
        }

        if (lrc == VO_LEDGER_OK) {
            lrc = vo_ledger_retain_job(l, VO_STMT_RETAIN_JOB, ids[i], -1,
                                       "retain job", &k, err, err_size);
            d.jobs += k;
        }
    }

    if (lrc == VO_LEDGER_OK && n == limit) {
        *more = 1;
    }

    return vo_ledger_retain_end(l, lrc, &d, st, now_ms, err, err_size);
}


vo_ledger_rc_t
vo_ledger_retain_events(vo_ledger_t *l, int64_t before_ms,
    int64_t audit_before_ms, int64_t now_ms, int limit,
    vo_retention_stats_t *st, int *more, char *err, size_t err_size)
{
    int                    k;
    vo_stmt_t             *s;
    vo_ledger_rc_t         lrc;
    vo_retention_stats_t   d;

    static const int  ids[] = { VO_STMT_RETAIN_EVENTS, VO_STMT_RETAIN_AUDIT };

    memset(&d, 0, sizeof(d));
    *more = 0;

    lrc = vo_ledger_begin(l, err, err_size);
    if (lrc != VO_LEDGER_OK) {
        return lrc;
    }

    for (k = 0; k < 2 && lrc == VO_LEDGER_OK; k++) {
        s = vo_ledger_stmt(l, ids[k], err, err_size);
        if (s != NULL) {
            vo_bind_int(s, 1, k == 0 ? before_ms : audit_before_ms);
            vo_bind_int(s, 2, limit);
        }

        lrc = vo_ledger_step_done(l, s, "retain events", err, err_size);

        if (lrc == VO_LEDGER_OK) {
            d.events += vo_ledger_changes(l);

            if (vo_ledger_changes(l) == limit) {
                *more = 1;
            }
        }
    }

    return vo_ledger_retain_end(l, lrc, &d, st, now_ms, err, err_size);
}


vo_ledger_rc_t
vo_ledger_reclaim(vo_ledger_t *l, int pages, int *mode, int64_t *freed,
    int64_t *left, char *err, size_t err_size)
{
    int             k, rc;
    char            sql[48];
    int64_t         v[3];
    vo_stmt_t      *s;
    vo_ledger_rc_t  lrc;

    static const char  *reads[] = { "PRAGMA auto_vacuum",
                                    "PRAGMA freelist_count" };

    *mode = -1;
    *freed = 0;
    *left = 0;

    if (l->be != &vo_ledger_sqlite) {
        return VO_LEDGER_OK;
    }

    for (k = 0; k < 3; k++) {

        if (k == 2) {
            if (v[0] != 2 || v[1] == 0) {
                v[2] = v[1];
                break;
            }

            /* autocommit: a write transaction of its own, as short as
             * the pages it moves */
            snprintf(sql, sizeof(sql), "PRAGMA incremental_vacuum(%d)",
                     pages);
            lrc = vo_ledger_exec(l, sql, err, err_size);
            if (lrc != VO_LEDGER_OK) {
                return lrc;
            }
        }

        s = vo_ledger_prepare(l, reads[k == 0 ? 0 : 1], err, err_size);
        if (s == NULL) {
            return VO_LEDGER_ERROR;
        }

        rc = vo_step(s);
        v[k] = rc == VO_ROW ? vo_column_int64(s, 0) : 0;
        vo_stmt_finalize(s);

        if (rc != VO_ROW) {
            snprintf(err, err_size, "reclaim: %s", vo_ledger_errmsg(l));
            return vo_ledger_rc(rc);
        }
    }

    *mode = (int) v[0];
    *left = v[2];
    *freed = v[1] - v[2];

    return VO_LEDGER_OK;
}


/* Up to limit job ids of a candidate query (?1 before, ?2 limit). */

static vo_ledger_rc_t
vo_ledger_retain_ids(vo_ledger_t *l, int id, int64_t before_ms, int limit,
    char (*ids)[VO_JOB_ID_LEN + 1], int *n, char *err, size_t err_size)
{
    int          rc;
    vo_stmt_t   *s;

    *n = 0;
    rc = VO_DONE;

    s = vo_ledger_stmt(l, id, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    vo_bind_int(s, 1, before_ms);
    vo_bind_int(s, 2, limit);

    while (*n < limit && (rc = vo_step(s)) == VO_ROW) {
        vo_ledger_copy_text(ids[*n], VO_JOB_ID_LEN + 1, s, 0);
        (*n)++;
    }

    vo_reset(s);

    if (*n < limit && rc != VO_DONE) {
        snprintf(err, err_size, "retention candidates: %s",
                 vo_ledger_errmsg(l));
        return vo_ledger_rc(rc);
    }

    return VO_LEDGER_OK;
}


/* One statement on one job (?1), with ?2 = arg unless arg is -1. */

static vo_ledger_rc_t
vo_ledger_retain_job(vo_ledger_t *l, int id, const char *job_id,
    int64_t arg, const char *what, int64_t *n, char *err, size_t err_size)
{
    vo_stmt_t       *s;
    vo_ledger_rc_t   lrc;

    *n = 0;

    s = vo_ledger_stmt(l, id, err, err_size);
    if (s != NULL) {
        vo_bind_text(s, 1, job_id, -1);

        if (arg != -1) {
            vo_bind_int(s, 2, arg);
        }
    }

    lrc = vo_ledger_step_done(l, s, what, err, err_size);

    if (lrc == VO_LEDGER_OK) {
        *n = vo_ledger_changes(l);
    }

    return lrc;
}


/* The end of a retention transaction: its event, then COMMIT. */

static vo_ledger_rc_t
vo_ledger_retain_end(vo_ledger_t *l, vo_ledger_rc_t lrc,
    const vo_retention_stats_t *d, vo_retention_stats_t *st, int64_t now_ms,
    char *err, size_t err_size)
{
    char  detail[192];

    if (lrc == VO_LEDGER_OK
        && d->frames + d->jobs + d->results + d->notifications + d->events
           > 0)
    {
        snprintf(detail, sizeof(detail), "{\"deleted_frames\":%lld,"
                 "\"deleted_jobs\":%lld,\"deleted_results\":%lld,"
                 "\"deleted_notifications\":%lld,\"deleted_events\":%lld}",
                 (long long) d->frames, (long long) d->jobs,
                 (long long) d->results, (long long) d->notifications,
                 (long long) d->events);

        lrc = vo_ledger_event(l, now_ms, NULL, NULL, 0, "retention", 0,
                              detail, err, err_size);
    }

    if (lrc == VO_LEDGER_OK) {
        lrc = vo_ledger_commit(l, err, err_size);
    }

    if (lrc != VO_LEDGER_OK) {
        vo_ledger_rollback(l);
        return lrc;
    }

    st->frames += d->frames;
    st->jobs += d->jobs;
    st->results += d->results;
    st->notifications += d->notifications;
    st->events += d->events;

    return VO_LEDGER_OK;
}
