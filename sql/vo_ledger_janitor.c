/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The janitor's statements (video-ocr-worker janitor): receipts past
 * their expires_at are forgotten, and finished jobs past the media
 * retention lose their stored input and frame rows (their results stay).
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
};


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

    return vo_ledger_step_done(l, s, "fold counters", err, err_size);
}
