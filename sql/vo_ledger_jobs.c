/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * What the jobs endpoint reads and changes (nginx's thread pool): the
 * status document, a published result, and DELETE by the job's tenant.
 * Every query names the tenant: another tenant's job is not found.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vo_ledger.h"
#include "vo_ledger_int.h"


const char  *vo_ledger_jobs_sql[VO_STMT_COUNT] = {

    [VO_STMT_JOB_STATUS] =
    "SELECT j.state, j.options, j.input_size, j.input_sha256, j.container,"
    " j.attempt, j.max_attempts, j.plan_version, j.frames_planned,"
    /* a job read as parts: its parts' samples, each up to its range's
     * (a part reads a little past its cut to find the seam) */
    " CASE WHEN j.parts > 0 AND j.state = 'running'"
    " THEN (SELECT coalesce(sum(CASE"
    " WHEN p.frames_done < p.end_sample - p.first_sample THEN p.frames_done"
    " ELSE p.end_sample - p.first_sample END), 0) FROM jobs p"
    " WHERE p.parent_id = j.job_id) ELSE j.frames_done END,"
    " j.inspection, j.error_code, j.error,"
    " (SELECT body FROM results WHERE job_id = j.job_id AND format = 'json'),"
    " j.created_at, j.updated_at, j.started_at, j.finished_at,"
    " r.expires_at, j.failures, j.deleted_at, j.media_deleted_at,"
    " j.parts, j.parts_done"
    " FROM jobs j LEFT JOIN requests r ON r.job_id = j.job_id"
    " WHERE j.job_id = ?1 AND j.tenant = ?2 AND j.parent_id IS NULL",

    [VO_STMT_JOB_RESULT] =
    "SELECT j.state, res.body FROM jobs j"
    " LEFT JOIN results res ON res.job_id = j.job_id AND res.format = ?3"
    " WHERE j.job_id = ?1 AND j.tenant = ?2 AND j.parent_id IS NULL",

    [VO_STMT_DELETE_FIND] =
    "SELECT state, input_path, input_size, deleted_at, media_deleted_at"
    " FROM jobs WHERE job_id = ?1 AND tenant = ?2 AND parent_id IS NULL",

    /* unfinished jobs are cancelled on the way; the deletion is recorded
     * before the files go (invariant 9) */
    [VO_STMT_DELETE_MARK] =
    "UPDATE jobs SET"
    " state = CASE WHEN state IN ('accepted', 'running') THEN 'cancelled'"
    " ELSE state END,"
    " error_code = CASE WHEN state IN ('accepted', 'running')"
    " THEN 'cancelled' ELSE error_code END,"
    " error = CASE WHEN state IN ('accepted', 'running')"
    " THEN 'deleted by its owner before it finished' ELSE error END,"
    " lease_owner = NULL, lease_expires_at = NULL,"
    " finished_at = coalesce(finished_at, ?2), deleted_at = ?2,"
    " media_deleted_at = coalesce(media_deleted_at, ?2), updated_at = ?2"
    " WHERE job_id = ?1",

    [VO_STMT_DELETE_FRAMES] =
    "DELETE FROM frames WHERE job_id = ?1",

    [VO_STMT_DELETE_RESULTS] =
    "DELETE FROM results WHERE job_id = ?1",

    /* a job the retention removed, whose receipt lives on as
     * its tombstone (requests.job_id is unique: an index probe) */
    [VO_STMT_JOB_GONE] =
    "SELECT 1 FROM requests WHERE job_id = ?1 AND tenant = ?2",
};


static vo_ledger_rc_t vo_ledger_job_gone(vo_ledger_t *l, const char *tenant,
    size_t tenant_len, const char *job_id, char *err, size_t err_size);


vo_ledger_rc_t
vo_ledger_job_status(vo_ledger_t *l, const char *tenant, size_t tenant_len,
    const char *job_id, vo_buf_t *out, char *err, size_t err_size)
{
    int             rc;
    vo_stmt_t      *s;
    vo_ledger_rc_t  lrc;

    s = vo_ledger_stmt(l, VO_STMT_JOB_STATUS, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    vo_bind_text(s, 1, job_id, -1);
    vo_bind_text(s, 2, tenant, (int) tenant_len);

    rc = vo_step(s);

    if (rc == VO_DONE) {
        vo_reset(s);
        return vo_ledger_job_gone(l, tenant, tenant_len, job_id, err,
                                  err_size);
    }

    if (rc != VO_ROW) {
        snprintf(err, err_size, "job %s status: %s", job_id,
                 vo_ledger_errmsg(l));
        lrc = vo_ledger_rc(rc);
        goto done;
    }

    /*
     * options, inspection and result are JSON written by video-ocr
     * itself (the module and the worker), embedded as they are
     */

    vo_buf_adds(out, "{\"job_id\":");
    vo_json_strz(out, job_id);
    vo_buf_adds(out, ",\"state\":");
    vo_json_strz(out, (const char *) vo_column_text(s, 0));
    vo_buf_adds(out, ",\"options\":");
    vo_buf_adds(out, (const char *) vo_column_text(s, 1));
    vo_buf_printf(out, ",\"input\":{\"bytes\":%lld,\"sha256\":",
                  (long long) vo_column_int64(s, 2));
    vo_json_strz(out, (const char *) vo_column_text(s, 3));
    vo_buf_adds(out, ",\"container\":");
    vo_json_strz(out, (const char *) vo_column_text(s, 4));
    vo_buf_printf(out, "},\"attempts\":%d,\"failures\":%d,"
                  "\"max_attempts\":%d", vo_column_int(s, 5),
                  vo_column_int(s, 19), vo_column_int(s, 6));

    vo_buf_adds(out, ",\"progress\":{\"plan_version\":");
    vo_ledger_json_int_or_null(out, s, 7);
    vo_buf_adds(out, ",\"frames_planned\":");
    vo_ledger_json_int_or_null(out, s, 8);
    vo_buf_printf(out, ",\"frames_done\":%d", vo_column_int(s, 9));

    if (vo_column_int(s, 22) > 0) {
        /* read as parts (sql/schema.sql, PARTS) */
        vo_buf_printf(out, ",\"parts\":{\"count\":%d,\"done\":%d}",
                      vo_column_int(s, 22), vo_column_int(s, 23));
    }

    vo_buf_adds(out, "}");

    vo_buf_adds(out, ",\"media\":");
    vo_ledger_json_raw_or_null(out, s, 10);

    vo_buf_adds(out, ",\"error\":");
    if (vo_column_null(s, 11)) {
        vo_buf_adds(out, "null");

    } else {
        vo_buf_adds(out, "{\"code\":");
        vo_json_strz(out, (const char *) vo_column_text(s, 11));
        vo_buf_adds(out, ",\"message\":");
        vo_json_strz(out, (const char *) vo_column_text(s, 12));
        vo_buf_adds(out, "}");
    }

    vo_buf_adds(out, ",\"result\":");
    vo_ledger_json_raw_or_null(out, s, 13);

    vo_buf_adds(out, ",\"created_at\":");
    vo_json_time(out, vo_column_int64(s, 14));
    vo_buf_adds(out, ",\"updated_at\":");
    vo_json_time(out, vo_column_int64(s, 15));
    vo_buf_adds(out, ",\"started_at\":");
    vo_json_time(out, vo_ledger_int_or(s, 16, -1));
    vo_buf_adds(out, ",\"finished_at\":");
    vo_json_time(out, vo_ledger_int_or(s, 17, -1));
    vo_buf_adds(out, ",\"receipt_expires_at\":");
    vo_json_time(out, vo_ledger_int_or(s, 18, -1));
    vo_buf_adds(out, ",\"deleted_at\":");
    vo_json_time(out, vo_ledger_int_or(s, 20, -1));
    vo_buf_adds(out, ",\"media_deleted_at\":");
    vo_json_time(out, vo_ledger_int_or(s, 21, -1));

    vo_reset(s);

    /* what the job's webhooks did */
    lrc = vo_ledger_job_notifications(l, job_id, out, err, err_size);
    if (lrc != VO_LEDGER_OK) {
        return lrc;
    }

    vo_buf_adds(out, "}\n");

    lrc = out->failed ? VO_LEDGER_ERROR : VO_LEDGER_OK;

    if (out->failed) {
        snprintf(err, err_size, "job %s status: out of memory", job_id);
    }

done:

    vo_reset(s);

    return lrc;
}


vo_ledger_rc_t
vo_ledger_job_result(vo_ledger_t *l, const char *tenant, size_t tenant_len,
    const char *job_id, const char *format, vo_buf_t *out, char *state,
    size_t state_size, char *err, size_t err_size)
{
    int             rc;
    const char     *st;
    vo_stmt_t      *s;
    vo_ledger_rc_t  lrc;

    s = vo_ledger_stmt(l, VO_STMT_JOB_RESULT, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    vo_bind_text(s, 1, job_id, -1);
    vo_bind_text(s, 2, tenant, (int) tenant_len);
    vo_bind_text(s, 3, format, -1);

    rc = vo_step(s);

    if (rc == VO_DONE) {
        vo_reset(s);
        return vo_ledger_job_gone(l, tenant, tenant_len, job_id, err,
                                  err_size);
    }

    if (rc != VO_ROW) {
        snprintf(err, err_size, "job %s result: %s", job_id,
                 vo_ledger_errmsg(l));
        lrc = vo_ledger_rc(rc);
        goto done;
    }

    st = (const char *) vo_column_text(s, 0);
    snprintf(state, state_size, "%s", st ? st : "");

    if (vo_column_null(s, 1)) {
        lrc = VO_LEDGER_NOT_READY;
        goto done;
    }

    vo_ledger_json_raw_or_null(out, s, 1);

    lrc = out->failed ? VO_LEDGER_ERROR : VO_LEDGER_OK;

    if (out->failed) {
        snprintf(err, err_size, "job %s result: out of memory", job_id);
    }

done:

    vo_reset(s);

    return lrc;
}


vo_ledger_rc_t
vo_ledger_delete_job(vo_ledger_t *l, const char *tenant, size_t tenant_len,
    const char *job_id, int64_t now_ms, char *input, size_t input_size,
    vo_buf_t *out, char *err, size_t err_size)
{
    int             rc, unfinished, had_media;
    char            state[16], detail[128];
    int64_t         bytes;
    const char     *v;
    vo_stmt_t      *s;
    vo_ledger_rc_t  lrc;

    input[0] = '\0';

    lrc = vo_ledger_begin(l, err, err_size);
    if (lrc != VO_LEDGER_OK) {
        return lrc;
    }

    s = vo_ledger_stmt(l, VO_STMT_DELETE_FIND, err, err_size);
    if (s == NULL) {
        lrc = VO_LEDGER_ERROR;
        goto failed;
    }

    vo_bind_text(s, 1, job_id, -1);
    vo_bind_text(s, 2, tenant, (int) tenant_len);

    rc = vo_step(s);

    if (rc != VO_ROW) {
        if (rc == VO_DONE) {
            vo_reset(s);
            lrc = vo_ledger_job_gone(l, tenant, tenant_len, job_id, err,
                                     err_size);

        } else {
            snprintf(err, err_size, "delete job %s: %s", job_id,
                     vo_ledger_errmsg(l));
            lrc = vo_ledger_rc(rc);
        }

        vo_reset(s);
        goto failed;
    }

    v = (const char *) vo_column_text(s, 0);
    snprintf(state, sizeof(state), "%s", v ? v : "");
    unfinished = (strcmp(state, "accepted") == 0
                  || strcmp(state, "running") == 0);
    had_media = (vo_column_null(s, 4));
    bytes = vo_column_int64(s, 2);

    if (had_media) {
        v = (const char *) vo_column_text(s, 1);
        snprintf(input, input_size, "%s", v ? v : "");
    }

    if (!vo_column_null(s, 3)) {
        /* deleted already: nothing more to do */
        vo_reset(s);
        input[0] = '\0';
        goto status;
    }

    vo_reset(s);

    s = vo_ledger_stmt(l, VO_STMT_DELETE_MARK, err, err_size);
    if (s == NULL) {
        lrc = VO_LEDGER_ERROR;
        goto failed;
    }

    vo_bind_text(s, 1, job_id, -1);
    vo_bind_int(s, 2, now_ms);

    lrc = vo_ledger_step_done(l, s, "delete job", err, err_size);

    if (lrc == VO_LEDGER_OK) {
        /* a job read as parts: they go with it (invariant 16; their
         * children's next writes are refused as stale) */
        lrc = vo_ledger_parts_drop(l, job_id, err, err_size);
    }

    if (lrc == VO_LEDGER_OK) {
        s = vo_ledger_stmt(l, VO_STMT_DELETE_FRAMES, err, err_size);
        if (s != NULL) {
            vo_bind_text(s, 1, job_id, -1);
        }

        lrc = vo_ledger_step_done(l, s, "delete frames", err, err_size);
    }

    if (lrc == VO_LEDGER_OK) {
        s = vo_ledger_stmt(l, VO_STMT_DELETE_RESULTS, err, err_size);
        if (s != NULL) {
            vo_bind_text(s, 1, job_id, -1);
        }

        lrc = vo_ledger_step_done(l, s, "delete results", err, err_size);
    }

    if (lrc == VO_LEDGER_OK) {
        /* invariant 15: out of the search index with its result */
        lrc = vo_ledger_search_forget(l, job_id, err, err_size);
    }

    if (lrc == VO_LEDGER_OK && unfinished) {
        lrc = vo_ledger_event(l, now_ms, job_id, tenant, tenant_len,
                              "cancelled", 0, "{\"code\":\"deleted\"}",
                              err, err_size);
    }

    if (lrc == VO_LEDGER_OK && unfinished) {
        /* invariant 10: the cancellation's notification, in its move */
        lrc = vo_ledger_notify(l, job_id, "job.cancelled", NULL, now_ms, err,
                               err_size);
    }

    if (lrc == VO_LEDGER_OK) {
        snprintf(detail, sizeof(detail), "{\"code\":\"%s\",\"media_jobs\":"
                 "%d,\"media_bytes\":%lld}", state, had_media ? 1 : 0,
                 (long long) (had_media ? bytes : 0));

        lrc = vo_ledger_event(l, now_ms, job_id, tenant, tenant_len,
                              "deleted", 0, detail, err, err_size);
    }

    if (lrc != VO_LEDGER_OK) {
        goto failed;
    }

status:

    lrc = vo_ledger_job_status(l, tenant, tenant_len, job_id, out, err,
                               err_size);
    if (lrc != VO_LEDGER_OK) {
        goto failed;
    }

    lrc = vo_ledger_commit(l, err, err_size);
    if (lrc != VO_LEDGER_OK) {
        input[0] = '\0';
    }

    return lrc;

failed:

    vo_ledger_rollback(l);
    input[0] = '\0';

    return lrc;
}


/*
 * For a job_id no job row has: GONE if a live or expired receipt of the
 * tenant still names it (the retention removed the job), else
 * NOT_FOUND, as for an id that never was.
 */

static vo_ledger_rc_t
vo_ledger_job_gone(vo_ledger_t *l, const char *tenant, size_t tenant_len,
    const char *job_id, char *err, size_t err_size)
{
    int             rc;
    vo_stmt_t      *s;
    vo_ledger_rc_t  lrc;

    s = vo_ledger_stmt(l, VO_STMT_JOB_GONE, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    vo_bind_text(s, 1, job_id, -1);
    vo_bind_text(s, 2, tenant, (int) tenant_len);

    rc = vo_step(s);

    if (rc == VO_ROW) {
        lrc = VO_LEDGER_GONE;

    } else if (rc == VO_DONE) {
        lrc = VO_LEDGER_NOT_FOUND;

    } else {
        snprintf(err, err_size, "job %s: %s", job_id, vo_ledger_errmsg(l));
        lrc = vo_ledger_rc(rc);
    }

    vo_reset(s);

    return lrc;
}
