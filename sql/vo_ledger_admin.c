/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The operator's statements ("video-ocr-worker jobs|retry|abandon|
 * events"): listing jobs, a job's history, and the two actions on one
 * job.  Each action is a conditional update plus an audit event with the
 * operator's reason, in one transaction.  A worker still holding the job
 * is fenced out by the state change at its next write, as with any
 * takeover.  Run once per command, so the statements are not cached.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vo_json.h"
#include "vo_ledger.h"
#include "vo_ledger_int.h"


static vo_ledger_rc_t vo_ledger_operator(vo_ledger_t *l, const char *sql,
    const char *kind, const char *code, const char *job_id,
    const char *reason, int64_t now_ms, char *state, size_t state_size,
    char *err, size_t err_size);
static void vo_text(char *dst, size_t size, sqlite3_stmt *s, int col);


vo_ledger_rc_t
vo_ledger_list_jobs(vo_ledger_t *l, const vo_job_filter_t *f,
    vo_job_cb_pt cb, void *data, char *err, size_t err_size)
{
    int             rc;
    sqlite3_stmt   *s;
    vo_job_row_t    row;
    vo_ledger_rc_t  lrc;

    static const char  *sql =
        "SELECT job_id, tenant, state, attempt, failures, max_attempts,"
        " lease_owner, lease_expires_at, frames_done, frames_planned,"
        " error_code, created_at, updated_at FROM jobs"
        " WHERE (?1 IS NULL OR state = ?1) AND (?2 IS NULL OR tenant = ?2)"
        " AND (?3 = 0 OR (state = 'running' AND lease_expires_at < ?4)"
        " OR (state = 'accepted' AND not_before <= ?4 AND created_at < ?5))"
        " ORDER BY created_at DESC LIMIT ?6";

    rc = sqlite3_prepare_v2(l->db, sql, -1, &s, NULL);
    if (rc != SQLITE_OK) {
        snprintf(err, err_size, "list jobs: %s", sqlite3_errmsg(l->db));
        return vo_ledger_rc(rc);
    }

    if (f->state) {
        (void) sqlite3_bind_text(s, 1, f->state, -1, SQLITE_STATIC);
    }

    if (f->tenant) {
        (void) sqlite3_bind_text(s, 2, f->tenant, -1, SQLITE_STATIC);
    }

    (void) sqlite3_bind_int(s, 3, f->stuck);
    (void) sqlite3_bind_int64(s, 4, f->now_ms);
    (void) sqlite3_bind_int64(s, 5, f->now_ms - f->stuck_after_ms);
    (void) sqlite3_bind_int(s, 6, f->limit);

    lrc = VO_LEDGER_OK;

    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        vo_text(row.job_id, sizeof(row.job_id), s, 0);
        vo_text(row.tenant, sizeof(row.tenant), s, 1);
        vo_text(row.state, sizeof(row.state), s, 2);
        row.attempt = sqlite3_column_int(s, 3);
        row.failures = sqlite3_column_int(s, 4);
        row.max_attempts = sqlite3_column_int(s, 5);
        vo_text(row.lease_owner, sizeof(row.lease_owner), s, 6);
        row.lease_expires_at = vo_ledger_int_or(s, 7, -1);
        row.frames_done = sqlite3_column_int64(s, 8);
        row.frames_planned = vo_ledger_int_or(s, 9, -1);
        vo_text(row.error_code, sizeof(row.error_code), s, 10);
        row.created_at = sqlite3_column_int64(s, 11);
        row.updated_at = sqlite3_column_int64(s, 12);

        if (cb(data, &row) != 0) {
            break;
        }
    }

    if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
        snprintf(err, err_size, "list jobs: %s", sqlite3_errmsg(l->db));
        lrc = vo_ledger_rc(rc);
    }

    (void) sqlite3_finalize(s);

    return lrc;
}


vo_ledger_rc_t
vo_ledger_list_events(vo_ledger_t *l, const char *job_id,
    vo_event_cb_pt cb, void *data, char *err, size_t err_size)
{
    int             rc, n;
    sqlite3_stmt   *s;
    vo_ledger_rc_t  lrc;

    static const char  *sql =
        "SELECT at, kind, attempt, coalesce(detail, '') FROM events"
        " WHERE job_id = ?1 ORDER BY id";

    rc = sqlite3_prepare_v2(l->db, sql, -1, &s, NULL);
    if (rc != SQLITE_OK) {
        snprintf(err, err_size, "events: %s", sqlite3_errmsg(l->db));
        return vo_ledger_rc(rc);
    }

    (void) sqlite3_bind_text(s, 1, job_id, -1, SQLITE_STATIC);

    n = 0;
    lrc = VO_LEDGER_OK;

    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        n++;

        if (cb(data, sqlite3_column_int64(s, 0),
               (const char *) sqlite3_column_text(s, 1),
               sqlite3_column_int(s, 2),
               (const char *) sqlite3_column_text(s, 3))
            != 0)
        {
            break;
        }
    }

    if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
        snprintf(err, err_size, "events: %s", sqlite3_errmsg(l->db));
        lrc = vo_ledger_rc(rc);

    } else if (n == 0) {
        snprintf(err, err_size, "no events for job %s", job_id);
        lrc = VO_LEDGER_NOT_FOUND;
    }

    (void) sqlite3_finalize(s);

    return lrc;
}


vo_ledger_rc_t
vo_ledger_operator_retry(vo_ledger_t *l, const char *job_id,
    const char *reason, int64_t now_ms, char *state, size_t state_size,
    char *err, size_t err_size)
{
    /* failed, rejected, a stuck running job: back in line, fresh count */

    return vo_ledger_operator(l,
        "UPDATE jobs SET state = 'accepted', failures = 0, not_before = ?2,"
        " lease_owner = NULL, lease_expires_at = NULL, error_code = NULL,"
        " error = NULL, finished_at = NULL, updated_at = ?2"
        " WHERE job_id = ?1 AND state IN ('failed', 'rejected', 'running',"
        " 'accepted') AND media_deleted_at IS NULL",
        "operator_retry", "operator", job_id, reason, now_ms, state,
        state_size, err, err_size);
}


vo_ledger_rc_t
vo_ledger_operator_abandon(vo_ledger_t *l, const char *job_id,
    const char *reason, int64_t now_ms, char *state, size_t state_size,
    char *err, size_t err_size)
{
    /* an unfinished job ends failed, with the operator's reason */

    return vo_ledger_operator(l,
        "UPDATE jobs SET state = 'failed', error_code = 'abandoned',"
        " error = ?3, lease_owner = NULL, lease_expires_at = NULL,"
        " finished_at = ?2, updated_at = ?2"
        " WHERE job_id = ?1 AND state IN ('accepted', 'running')",
        "failed", "abandoned", job_id, reason, now_ms, state, state_size,
        err, err_size);
}


/*
 * The common shape of an operator action: the conditional update (?1 job,
 * ?2 now, ?3 reason), and if it matched, an event of kind with code and
 * reason.  NOT_FOUND for an unknown job; NOT_READY when the job is in a
 * state the action does not apply to (state says which).
 */

static vo_ledger_rc_t
vo_ledger_operator(vo_ledger_t *l, const char *sql, const char *kind,
    const char *code, const char *job_id, const char *reason, int64_t now_ms,
    char *state, size_t state_size, char *err, size_t err_size)
{
    int             rc, changed;
    char           *detail;
    size_t          len;
    vo_buf_t        b;
    sqlite3_stmt   *s;
    vo_ledger_rc_t  lrc;

    state[0] = '\0';

    lrc = vo_ledger_begin(l, err, err_size);
    if (lrc != VO_LEDGER_OK) {
        return lrc;
    }

    rc = sqlite3_prepare_v2(l->db, sql, -1, &s, NULL);
    if (rc != SQLITE_OK) {
        snprintf(err, err_size, "%s: %s", kind, sqlite3_errmsg(l->db));
        lrc = vo_ledger_rc(rc);
        goto failed;
    }

    (void) sqlite3_bind_text(s, 1, job_id, -1, SQLITE_STATIC);
    (void) sqlite3_bind_int64(s, 2, now_ms);
    (void) sqlite3_bind_text(s, 3, reason, -1, SQLITE_STATIC);

    rc = sqlite3_step(s);
    (void) sqlite3_finalize(s);

    if (rc != SQLITE_DONE) {
        snprintf(err, err_size, "%s: %s", kind, sqlite3_errmsg(l->db));
        lrc = vo_ledger_rc(rc);
        goto failed;
    }

    changed = sqlite3_changes(l->db);

    /* the job's state now: what the action did, or why it did not */

    rc = sqlite3_prepare_v2(l->db, "SELECT state FROM jobs WHERE job_id = ?1",
                            -1, &s, NULL);
    if (rc == SQLITE_OK) {
        (void) sqlite3_bind_text(s, 1, job_id, -1, SQLITE_STATIC);
        rc = sqlite3_step(s);

        if (rc == SQLITE_ROW) {
            vo_text(state, state_size, s, 0);
        }
    }

    (void) sqlite3_finalize(s);

    if (rc != SQLITE_ROW) {
        snprintf(err, err_size, "no job %s", job_id);
        lrc = VO_LEDGER_NOT_FOUND;
        goto failed;
    }

    if (!changed) {
        snprintf(err, err_size, "job %s is %s: %s does not apply", job_id,
                 state, kind);
        lrc = VO_LEDGER_NOT_READY;
        goto failed;
    }

    vo_buf_init(&b);
    vo_buf_printf(&b, "{\"code\":\"%s\",\"reason\":", code);
    vo_json_strz(&b, reason);
    vo_buf_adds(&b, "}");

    detail = vo_buf_detach(&b, &len);
    if (detail == NULL) {
        snprintf(err, err_size, "%s: out of memory", kind);
        lrc = VO_LEDGER_ERROR;
        goto failed;
    }

    lrc = vo_ledger_event(l, now_ms, job_id, NULL, 0, kind, 0, detail, err,
                          err_size);
    free(detail);

    if (lrc != VO_LEDGER_OK) {
        goto failed;
    }

    return vo_ledger_commit(l, err, err_size);

failed:

    vo_ledger_rollback(l);

    return lrc;
}


static void
vo_text(char *dst, size_t size, sqlite3_stmt *s, int col)
{
    const char  *v;

    v = (const char *) sqlite3_column_text(s, col);

    snprintf(dst, size, "%s", v ? v : "");
}
