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
    const char *kind, const char *code, const char *notify, const char *job_id,
    const char *reason, int64_t now_ms, char *state, size_t state_size,
    char *err, size_t err_size);


vo_ledger_rc_t
vo_ledger_list_jobs(vo_ledger_t *l, const vo_job_filter_t *f,
    vo_job_cb_pt cb, void *data, char *err, size_t err_size)
{
    int             rc;
    vo_stmt_t      *s;
    vo_job_row_t    row;
    vo_ledger_rc_t  lrc;

    static const char  *sql =
        "SELECT job_id, tenant, state, attempt, failures, max_attempts,"
        " lease_owner, lease_expires_at, frames_done, frames_planned,"
        " error_code, created_at, updated_at, parent_id, part, parts,"
        " parts_done FROM jobs"
        " WHERE (state = ?1 OR ?1 IS NULL) AND (tenant = ?2 OR ?2 IS NULL)"
        " AND (?3 = 0 OR (state = 'running' AND lease_expires_at < ?4)"
        " OR (state = 'accepted' AND not_before <= ?4 AND created_at < ?5))"
        " ORDER BY created_at DESC LIMIT ?6";

    s = vo_ledger_prepare(l, sql, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    if (f->state) {
        vo_bind_text(s, 1, f->state, -1);
    }

    if (f->tenant) {
        vo_bind_text(s, 2, f->tenant, -1);
    }

    vo_bind_int(s, 3, f->stuck);
    vo_bind_int(s, 4, f->now_ms);
    vo_bind_int(s, 5, f->now_ms - f->stuck_after_ms);
    vo_bind_int(s, 6, f->limit);

    lrc = VO_LEDGER_OK;

    while ((rc = vo_step(s)) == VO_ROW) {
        vo_ledger_copy_text(row.job_id, sizeof(row.job_id), s, 0);
        vo_ledger_copy_text(row.tenant, sizeof(row.tenant), s, 1);
        vo_ledger_copy_text(row.state, sizeof(row.state), s, 2);
        row.attempt = vo_column_int(s, 3);
        row.failures = vo_column_int(s, 4);
        row.max_attempts = vo_column_int(s, 5);
        vo_ledger_copy_text(row.lease_owner, sizeof(row.lease_owner), s, 6);
        row.lease_expires_at = vo_ledger_int_or(s, 7, -1);
        row.frames_done = vo_column_int64(s, 8);
        row.frames_planned = vo_ledger_int_or(s, 9, -1);
        vo_ledger_copy_text(row.error_code, sizeof(row.error_code), s, 10);
        row.created_at = vo_column_int64(s, 11);
        row.updated_at = vo_column_int64(s, 12);
        vo_ledger_copy_text(row.parent_id, sizeof(row.parent_id), s, 13);
        row.part = (int) vo_ledger_int_or(s, 14, 0);
        row.parts = vo_column_int(s, 15);
        row.parts_done = vo_column_int(s, 16);

        if (cb(data, &row) != 0) {
            break;
        }
    }

    if (rc != VO_ROW && rc != VO_DONE) {
        snprintf(err, err_size, "list jobs: %s", vo_ledger_errmsg(l));
        lrc = vo_ledger_rc(rc);
    }

    vo_stmt_finalize(s);

    return lrc;
}


vo_ledger_rc_t
vo_ledger_list_events(vo_ledger_t *l, const char *job_id,
    vo_event_cb_pt cb, void *data, char *err, size_t err_size)
{
    int             rc, n;
    vo_stmt_t      *s;
    vo_ledger_rc_t  lrc;

    static const char  *sql =
        "SELECT at, kind, attempt, coalesce(detail, '') FROM events"
        " WHERE job_id = ?1 ORDER BY id";

    s = vo_ledger_prepare(l, sql, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    vo_bind_text(s, 1, job_id, -1);

    n = 0;
    lrc = VO_LEDGER_OK;

    while ((rc = vo_step(s)) == VO_ROW) {
        n++;

        if (cb(data, vo_column_int64(s, 0),
               (const char *) vo_column_text(s, 1),
               vo_column_int(s, 2),
               (const char *) vo_column_text(s, 3))
            != 0)
        {
            break;
        }
    }

    if (rc != VO_ROW && rc != VO_DONE) {
        snprintf(err, err_size, "events: %s", vo_ledger_errmsg(l));
        lrc = vo_ledger_rc(rc);

    } else if (n == 0) {
        snprintf(err, err_size, "no events for job %s", job_id);
        lrc = VO_LEDGER_NOT_FOUND;
    }

    vo_stmt_finalize(s);

    return lrc;
}


vo_ledger_rc_t
vo_ledger_operator_retry(vo_ledger_t *l, const char *job_id,
    const char *reason, int64_t now_ms, char *state, size_t state_size,
    char *err, size_t err_size)
{
    /* failed, rejected, running or accepted (a stuck one: the lease is not
     * checked): back in line, fresh count;
     * attempt goes on growing (invariant 5), the media must be there */

    return vo_ledger_operator(l,
        "UPDATE jobs SET state = 'accepted', failures = 0, not_before = ?2,"
        " lease_owner = NULL, lease_expires_at = NULL, error_code = NULL,"
        " error = NULL, finished_at = NULL, parts = 0, parts_done = 0,"
        " updated_at = ?2"
        " WHERE job_id = ?1 AND state IN ('failed', 'rejected', 'running',"
        " 'accepted') AND media_deleted_at IS NULL AND parent_id IS NULL",
        "operator_retry", "operator", NULL, job_id, reason, now_ms, state,
        state_size, err, err_size);
}


vo_ledger_rc_t
vo_ledger_operator_abandon(vo_ledger_t *l, const char *job_id,
    const char *reason, int64_t now_ms, char *state, size_t state_size,
    char *err, size_t err_size)
{
    /* an unfinished job ends failed, with the operator's reason; a running
     * attempt's next fenced write then fails (invariant 6) */

    return vo_ledger_operator(l,
        "UPDATE jobs SET state = 'failed', error_code = 'abandoned',"
        " error = ?3, lease_owner = NULL, lease_expires_at = NULL,"
        " finished_at = ?2, updated_at = ?2"
        " WHERE job_id = ?1 AND state IN ('accepted', 'running')"
        " AND parent_id IS NULL",
        "failed", "abandoned", "job.failed", job_id, reason, now_ms, state,
        state_size,
        err, err_size);
}


/*
 * The common shape of an operator action: the conditional update (?1 job,
 * ?2 now, ?3 reason), and if it matched, an event of kind with code and
 * reason, and the notification of type notify (NULL: none).  NOT_FOUND
 * for an unknown job; NOT_READY when the job is in a state the action
 * does not apply to (state says which).
 */

static vo_ledger_rc_t
vo_ledger_operator(vo_ledger_t *l, const char *sql, const char *kind,
    const char *code, const char *notify, const char *job_id,
    const char *reason, int64_t now_ms,
    char *state, size_t state_size, char *err, size_t err_size)
{
    int             rc, changed;
    char           *detail;
    size_t          len;
    vo_buf_t        b;
    vo_stmt_t      *s;
    vo_ledger_rc_t  lrc;

    state[0] = '\0';

    lrc = vo_ledger_begin(l, err, err_size);
    if (lrc != VO_LEDGER_OK) {
        return lrc;
    }

    s = vo_ledger_prepare(l, sql, err, err_size);
    if (s == NULL) {
        lrc = VO_LEDGER_ERROR;
        goto failed;
    }

    vo_bind_text(s, 1, job_id, -1);
    vo_bind_int(s, 2, now_ms);
    vo_bind_text(s, 3, reason, -1);

    rc = vo_step(s);

    if (rc != VO_DONE) {
        snprintf(err, err_size, "%s: %s", kind, vo_ledger_errmsg(l));
        vo_stmt_finalize(s);
        lrc = vo_ledger_rc(rc);
        goto failed;
    }

    changed = (int) vo_ledger_changes(l);
    vo_stmt_finalize(s);

    /* the job's state now: what the action did, or why it did not */

    rc = VO_LEDGER_ERROR;
    s = vo_ledger_prepare(l, "SELECT state FROM jobs WHERE job_id = ?1",
                          err, err_size);
    if (s != NULL) {
        vo_bind_text(s, 1, job_id, -1);
        rc = vo_step(s);

        if (rc == VO_ROW) {
            vo_ledger_copy_text(state, state_size, s, 0);
        }

        vo_stmt_finalize(s);
    }

    if (rc != VO_ROW) {
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

    if (lrc == VO_LEDGER_OK) {
        /* a job read as parts leaves running: its parts go (invariant
         * 16; a retried one is split again when claimed) */
        lrc = vo_ledger_parts_drop(l, job_id, err, err_size);
    }

    if (lrc == VO_LEDGER_OK && notify != NULL) {
        /* invariant 10: a final state reached, its notification with it */
        lrc = vo_ledger_notify(l, job_id, notify, NULL, now_ms, err,
                               err_size);
    }

    if (lrc != VO_LEDGER_OK) {
        goto failed;
    }

    return vo_ledger_commit(l, err, err_size);

failed:

    vo_ledger_rollback(l);

    return lrc;
}
