/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The SQLite ledger: opening and migrating the file, the admission
 * transaction and the job status read.  The worker's statements (claim,
 * heartbeat, frames, publish) are in vo_ledger_worker.c; both share the
 * connection type and statement cache defined in vo_ledger_int.h.
 *
 * SQLite settings and why:
 *   journal_mode=WAL      readers (status, metrics, workers polling) never
 *                         block the admission writer, nor it them;
 *   synchronous=FULL      (default) a commit is on disk when COMMIT
 *                         returns, so a receipt a client saw survives a
 *                         power cut; NORMAL may lose the newest commits;
 *   busy_timeout          how long a writer waits for the lock before the
 *                         request is answered 503 + Retry-After;
 *   foreign_keys=ON       a receipt or a frame row cannot name a job that
 *                         does not exist.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "vo_ledger.h"
#include "vo_ledger_int.h"
#include "vo_schema.h"


static const char  *vo_ledger_sql[VO_STMT_WORKER_FIRST] = {

    /* in the order of vo_ledger_stmt_e, vo_ledger_int.h */

    /* VO_STMT_BEGIN */
    "BEGIN IMMEDIATE",

    /* VO_STMT_COMMIT */
    "COMMIT",

    /* VO_STMT_ROLLBACK */
    "ROLLBACK",

    /* VO_STMT_SAVEPOINT, VO_STMT_ROLLBACK_TO, VO_STMT_RELEASE_TO */
    "SAVEPOINT item",
    "ROLLBACK TO item",
    "RELEASE item",

    /* VO_STMT_FIND_RECEIPT */
    "SELECT input_digest, job_id, created_at, expires_at FROM requests"
    " WHERE tenant = ?1 AND request_key = ?2",

    /* VO_STMT_DELETE_RECEIPT */
    "DELETE FROM requests WHERE tenant = ?1 AND request_key = ?2"
    " AND expires_at <= ?3",

    /* VO_STMT_INSERT_JOB */
    "INSERT INTO jobs (job_id, tenant, options, input_path, input_size,"
    " input_sha256, container, max_attempts, created_at, updated_at)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9)",

    /* VO_STMT_INSERT_RECEIPT */
    "INSERT INTO requests (tenant, request_key, input_digest, job_id,"
    " created_at, expires_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",

    /* VO_STMT_INSERT_EVENT */
    "INSERT INTO events (at, job_id, tenant, kind, attempt, detail)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6)",

    /* VO_STMT_JOB_STATUS */
    "SELECT j.state, j.options, j.input_size, j.input_sha256, j.container,"
    " j.attempt, j.max_attempts, j.plan_version, j.frames_planned,"
    " j.frames_done, j.inspection, j.error_code, j.error,"
    " (SELECT body FROM results WHERE job_id = j.job_id AND format = 'json'),"
    " j.created_at, j.updated_at, j.started_at, j.finished_at,"
    " r.expires_at, j.failures"
    " FROM jobs j LEFT JOIN requests r ON r.job_id = j.job_id"
    " WHERE j.job_id = ?1 AND j.tenant = ?2",

    /* VO_STMT_JOB_RESULT */
    "SELECT j.state, res.body FROM jobs j"
    " LEFT JOIN results res ON res.job_id = j.job_id AND res.format = ?3"
    " WHERE j.job_id = ?1 AND j.tenant = ?2",
};


static vo_ledger_rc_t vo_ledger_admit_one(vo_ledger_t *l,
    const vo_admission_t *a, vo_receipt_t *r, char *err, size_t err_size);
static vo_ledger_rc_t vo_ledger_migrate(vo_ledger_t *l, char *err,
    size_t err_size);
static vo_ledger_rc_t vo_ledger_pragma_int(vo_ledger_t *l, const char *sql,
    int64_t *value, char *err, size_t err_size);


vo_ledger_rc_t
vo_ledger_open(const char *path, const vo_ledger_conf_t *conf,
    vo_ledger_t **out, char *err, size_t err_size)
{
    int             flags, rc;
    char            sql[64];
    int64_t         version;
    const char     *mode;
    vo_ledger_t    *l;
    sqlite3_stmt   *stmt;
    vo_ledger_rc_t  lrc;

    *out = NULL;

    l = calloc(1, sizeof(vo_ledger_t));
    if (l == NULL) {
        snprintf(err, err_size, "ledger \"%s\": out of memory", path);
        return VO_LEDGER_ERROR;
    }

    flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;

    if (conf->migrate) {
        flags |= SQLITE_OPEN_CREATE;
    }

    rc = sqlite3_open_v2(path, &l->db, flags, NULL);
    if (rc != SQLITE_OK) {
        snprintf(err, err_size, "ledger \"%s\": cannot open: %s", path,
                 l->db ? sqlite3_errmsg(l->db) : sqlite3_errstr(rc));
        lrc = VO_LEDGER_ERROR;
        goto failed;
    }

    (void) sqlite3_extended_result_codes(l->db, 1);
    (void) sqlite3_busy_timeout(l->db, conf->busy_timeout_ms);

    if (sqlite3_db_readonly(l->db, "main") == 1) {
        snprintf(err, err_size, "ledger \"%s\" is read-only for this user: "
                 "the file and its directory must be writable", path);
        lrc = VO_LEDGER_ERROR;
        goto failed;
    }

    /* the first statement reads the header: a non-database fails here */

    rc = sqlite3_prepare_v2(l->db, "PRAGMA journal_mode=WAL", -1, &stmt,
                            NULL);
    if (rc == SQLITE_OK) {
        rc = sqlite3_step(stmt);
    }

    if (rc != SQLITE_ROW) {
        snprintf(err, err_size, "ledger \"%s\": %s", path,
                 sqlite3_errmsg(l->db));
        lrc = vo_ledger_rc(rc);
        (void) sqlite3_finalize(stmt);
        goto failed;
    }

    mode = (const char *) sqlite3_column_text(stmt, 0);

    if (mode == NULL || strcmp(mode, "wal") != 0) {
        snprintf(err, err_size, "ledger \"%s\": cannot switch to WAL mode "
                 "(journal_mode is \"%s\")", path, mode ? mode : "?");
        (void) sqlite3_finalize(stmt);
        lrc = VO_LEDGER_ERROR;
        goto failed;
    }

    (void) sqlite3_finalize(stmt);

    snprintf(sql, sizeof(sql), "PRAGMA synchronous=%s",
             conf->sync_full ? "FULL" : "NORMAL");

    if (vo_ledger_exec(l, sql, err, err_size) != VO_LEDGER_OK
        || vo_ledger_exec(l, "PRAGMA foreign_keys=ON", err, err_size)
           != VO_LEDGER_OK)
    {
        lrc = VO_LEDGER_ERROR;
        goto failed;
    }

    lrc = vo_ledger_pragma_int(l, "PRAGMA user_version", &version, err,
                               err_size);
    if (lrc != VO_LEDGER_OK) {
        goto failed;
    }

    if (version > VO_LEDGER_SCHEMA_VERSION) {
        snprintf(err, err_size, "ledger \"%s\" has schema version %lld, "
                 "newer than this build knows (%d): upgrade video-ocr",
                 path, (long long) version, VO_LEDGER_SCHEMA_VERSION);
        lrc = VO_LEDGER_ERROR;
        goto failed;
    }

    if (version < VO_LEDGER_SCHEMA_VERSION) {
        if (!conf->migrate) {
            snprintf(err, err_size, "ledger \"%s\" has schema version %lld, "
                     "expected %d: it is migrated when nginx or "
                     "video-ocr-worker starts", path, (long long) version,
                     VO_LEDGER_SCHEMA_VERSION);
            lrc = VO_LEDGER_ERROR;
            goto failed;
        }

        lrc = vo_ledger_migrate(l, err, err_size);
        if (lrc != VO_LEDGER_OK) {
            goto failed;
        }
    }

    *out = l;

    return VO_LEDGER_OK;

failed:

    vo_ledger_close(l);

    return lrc;
}


void
vo_ledger_close(vo_ledger_t *l)
{
    int  i;

    if (l == NULL) {
        return;
    }

    for (i = 0; i < VO_STMT_COUNT; i++) {
        (void) sqlite3_finalize(l->stmt[i]);
    }

    (void) sqlite3_close_v2(l->db);

    free(l);
}


vo_ledger_rc_t
vo_ledger_lookup(vo_ledger_t *l, const vo_admission_t *a, vo_receipt_t *r,
    char *err, size_t err_size)
{
    int             rc;
    const char     *digest;
    sqlite3_stmt   *s;
    vo_ledger_rc_t  lrc;

    r->outcome = VO_ADMIT_NONE;

    if (a->key == NULL) {
        return VO_LEDGER_OK;
    }

    s = vo_ledger_stmt(l, VO_STMT_FIND_RECEIPT, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    (void) sqlite3_bind_text(s, 1, a->tenant, (int) a->tenant_len,
                             SQLITE_STATIC);
    (void) sqlite3_bind_text(s, 2, a->key, (int) a->key_len, SQLITE_STATIC);

    rc = sqlite3_step(s);

    if (rc == SQLITE_DONE) {
        lrc = VO_LEDGER_OK;
        goto done;
    }

    if (rc != SQLITE_ROW) {
        snprintf(err, err_size, "find receipt: %s", sqlite3_errmsg(l->db));
        lrc = vo_ledger_rc(rc);
        goto done;
    }

    lrc = VO_LEDGER_OK;

    if (sqlite3_column_int64(s, 3) <= a->now_ms) {
        /* expired: the request is new intent, vo_ledger_admit says so */
        goto done;
    }

    digest = (const char *) sqlite3_column_text(s, 0);

    r->outcome = (digest != NULL && strcmp(digest, a->input_digest) == 0)
                 ? VO_ADMIT_REPLAYED : VO_ADMIT_MISMATCH;

    snprintf(r->job_id, sizeof(r->job_id), "%s",
             (const char *) sqlite3_column_text(s, 1));
    r->created_at = sqlite3_column_int64(s, 2);
    r->expires_at = sqlite3_column_int64(s, 3);

done:

    (void) sqlite3_reset(s);

    return lrc;
}


vo_ledger_rc_t
vo_ledger_admit(vo_ledger_t *l, const vo_admission_t *a, vo_receipt_t *r,
    char *err, size_t err_size)
{
    vo_admit_item_t   item, *items[1];

    item.admission = a;
    item.receipt = r;
    item.err = err;
    item.err_size = err_size;
    items[0] = &item;

    (void) vo_ledger_admit_batch(l, items, 1);

    return item.rc;
}


vo_ledger_rc_t
vo_ledger_admit_batch(vo_ledger_t *l, vo_admit_item_t **items, size_t n)
{
    size_t           i;
    char             err[VO_ERR_TEXT];
    vo_ledger_rc_t   lrc;
    vo_admit_item_t *it;

    lrc = vo_ledger_begin(l, err, sizeof(err));
    if (lrc != VO_LEDGER_OK) {
        goto failed;
    }

    for (i = 0; i < n; i++) {
        it = items[i];

        /* a savepoint per item: one item's error leaves the others */

        lrc = vo_ledger_step_done(l, vo_ledger_stmt(l, VO_STMT_SAVEPOINT,
                                                    err, sizeof(err)),
                                  "savepoint", err, sizeof(err));
        if (lrc != VO_LEDGER_OK) {
            goto failed;
        }

        it->rc = vo_ledger_admit_one(l, it->admission, it->receipt, it->err,
                                     it->err_size);

        if (it->rc != VO_LEDGER_OK) {
            it->receipt->outcome = VO_ADMIT_NONE;
            (void) vo_ledger_step_done(l,
                       vo_ledger_stmt(l, VO_STMT_ROLLBACK_TO, err,
                                      sizeof(err)),
                       "rollback to savepoint", err, sizeof(err));
        }

        lrc = vo_ledger_step_done(l, vo_ledger_stmt(l, VO_STMT_RELEASE_TO,
                                                    err, sizeof(err)),
                                  "release savepoint", err, sizeof(err));
        if (lrc != VO_LEDGER_OK) {
            goto failed;
        }
    }

    lrc = vo_ledger_commit(l, err, sizeof(err));
    if (lrc != VO_LEDGER_OK) {
        goto failed;
    }

    return VO_LEDGER_OK;

failed:

    /* the transaction is gone: nothing of it holds, for any item */

    vo_ledger_rollback(l);

    for (i = 0; i < n; i++) {
        it = items[i];
        it->rc = lrc;
        it->receipt->outcome = VO_ADMIT_NONE;
        snprintf(it->err, it->err_size, "%s", err);
    }

    return lrc;
}


/*
 * One admission inside the caller's transaction: find the receipt of
 * (tenant, key), or delete an expired one and insert the job, the
 * receipt and the audit event.
 */

static vo_ledger_rc_t
vo_ledger_admit_one(vo_ledger_t *l, const vo_admission_t *a,
    vo_receipt_t *r, char *err, size_t err_size)
{
    char            detail[128];
    sqlite3_stmt   *s;
    vo_ledger_rc_t  lrc;

    if (a->key != NULL) {

        /* under the write lock the answer of the lookup is final */

        lrc = vo_ledger_lookup(l, a, r, err, err_size);
        if (lrc != VO_LEDGER_OK || r->outcome != VO_ADMIT_NONE) {
            return lrc;
        }

        s = vo_ledger_stmt(l, VO_STMT_DELETE_RECEIPT, err, err_size);
        if (s == NULL) {
            return VO_LEDGER_ERROR;
        }

        (void) sqlite3_bind_text(s, 1, a->tenant, (int) a->tenant_len,
                                 SQLITE_STATIC);
        (void) sqlite3_bind_text(s, 2, a->key, (int) a->key_len,
                                 SQLITE_STATIC);
        (void) sqlite3_bind_int64(s, 3, a->now_ms);

        lrc = vo_ledger_step_done(l, s, "delete expired receipt", err,
                                  err_size);
        if (lrc != VO_LEDGER_OK) {
            return lrc;
        }
    }

    s = vo_ledger_stmt(l, VO_STMT_INSERT_JOB, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    (void) sqlite3_bind_text(s, 1, a->job_id, -1, SQLITE_STATIC);
    (void) sqlite3_bind_text(s, 2, a->tenant, (int) a->tenant_len,
                             SQLITE_STATIC);
    (void) sqlite3_bind_text(s, 3, a->options, -1, SQLITE_STATIC);
    (void) sqlite3_bind_text(s, 4, a->input_path, -1, SQLITE_STATIC);
    (void) sqlite3_bind_int64(s, 5, a->input_size);
    (void) sqlite3_bind_text(s, 6, a->input_sha256, -1, SQLITE_STATIC);
    (void) sqlite3_bind_text(s, 7, a->container, -1, SQLITE_STATIC);
    (void) sqlite3_bind_int(s, 8, a->max_attempts);
    (void) sqlite3_bind_int64(s, 9, a->now_ms);

    lrc = vo_ledger_step_done(l, s, "insert job", err, err_size);
    if (lrc != VO_LEDGER_OK) {
        return lrc;
    }

    if (a->key != NULL) {
        s = vo_ledger_stmt(l, VO_STMT_INSERT_RECEIPT, err, err_size);
        if (s == NULL) {
            return VO_LEDGER_ERROR;
        }

        (void) sqlite3_bind_text(s, 1, a->tenant, (int) a->tenant_len,
                                 SQLITE_STATIC);
        (void) sqlite3_bind_text(s, 2, a->key, (int) a->key_len,
                                 SQLITE_STATIC);
        (void) sqlite3_bind_text(s, 3, a->input_digest, -1, SQLITE_STATIC);
        (void) sqlite3_bind_text(s, 4, a->job_id, -1, SQLITE_STATIC);
        (void) sqlite3_bind_int64(s, 5, a->now_ms);
        (void) sqlite3_bind_int64(s, 6, a->now_ms + a->receipt_ttl_ms);

        lrc = vo_ledger_step_done(l, s, "insert receipt", err, err_size);
        if (lrc != VO_LEDGER_OK) {
            return lrc;
        }
    }

    snprintf(detail, sizeof(detail),
             "{\"input_size\":%lld,\"container\":\"%s\",\"keyed\":%s}",
             (long long) a->input_size, a->container,
             a->key ? "true" : "false");

    lrc = vo_ledger_event(l, a->now_ms, a->job_id, a->tenant, a->tenant_len,
                          "admitted", 0, detail, err, err_size);
    if (lrc != VO_LEDGER_OK) {
        return lrc;
    }

    r->outcome = VO_ADMIT_CREATED;
    snprintf(r->job_id, sizeof(r->job_id), "%s", a->job_id);
    r->created_at = a->now_ms;
    r->expires_at = a->key ? a->now_ms + a->receipt_ttl_ms : -1;

    return VO_LEDGER_OK;
}


vo_ledger_rc_t
vo_ledger_job_status(vo_ledger_t *l, const char *tenant, size_t tenant_len,
    const char *job_id, vo_buf_t *out, char *err, size_t err_size)
{
    int             rc;
    sqlite3_stmt   *s;
    vo_ledger_rc_t  lrc;

    s = vo_ledger_stmt(l, VO_STMT_JOB_STATUS, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    (void) sqlite3_bind_text(s, 1, job_id, -1, SQLITE_STATIC);
    (void) sqlite3_bind_text(s, 2, tenant, (int) tenant_len, SQLITE_STATIC);

    rc = sqlite3_step(s);

    if (rc == SQLITE_DONE) {
        lrc = VO_LEDGER_NOT_FOUND;
        goto done;
    }

    if (rc != SQLITE_ROW) {
        snprintf(err, err_size, "job %s status: %s", job_id,
                 sqlite3_errmsg(l->db));
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
    vo_json_strz(out, (const char *) sqlite3_column_text(s, 0));
    vo_buf_adds(out, ",\"options\":");
    vo_buf_adds(out, (const char *) sqlite3_column_text(s, 1));
    vo_buf_printf(out, ",\"input\":{\"bytes\":%lld,\"sha256\":",
                  (long long) sqlite3_column_int64(s, 2));
    vo_json_strz(out, (const char *) sqlite3_column_text(s, 3));
    vo_buf_adds(out, ",\"container\":");
    vo_json_strz(out, (const char *) sqlite3_column_text(s, 4));
    vo_buf_printf(out, "},\"attempts\":%d,\"failures\":%d,"
                  "\"max_attempts\":%d", sqlite3_column_int(s, 5),
                  sqlite3_column_int(s, 19), sqlite3_column_int(s, 6));

    vo_buf_adds(out, ",\"progress\":{\"plan_version\":");
    vo_ledger_json_int_or_null(out, s, 7);
    vo_buf_adds(out, ",\"frames_planned\":");
    vo_ledger_json_int_or_null(out, s, 8);
    vo_buf_printf(out, ",\"frames_done\":%d}", sqlite3_column_int(s, 9));

    vo_buf_adds(out, ",\"media\":");
    vo_ledger_json_raw_or_null(out, s, 10);

    vo_buf_adds(out, ",\"error\":");
    if (sqlite3_column_type(s, 11) == SQLITE_NULL) {
        vo_buf_adds(out, "null");

    } else {
        vo_buf_adds(out, "{\"code\":");
        vo_json_strz(out, (const char *) sqlite3_column_text(s, 11));
        vo_buf_adds(out, ",\"message\":");
        vo_json_strz(out, (const char *) sqlite3_column_text(s, 12));
        vo_buf_adds(out, "}");
    }

    vo_buf_adds(out, ",\"result\":");
    vo_ledger_json_raw_or_null(out, s, 13);

    vo_buf_adds(out, ",\"created_at\":");
    vo_json_time(out, sqlite3_column_int64(s, 14));
    vo_buf_adds(out, ",\"updated_at\":");
    vo_json_time(out, sqlite3_column_int64(s, 15));
    vo_buf_adds(out, ",\"started_at\":");
    vo_json_time(out, vo_ledger_int_or(s, 16, -1));
    vo_buf_adds(out, ",\"finished_at\":");
    vo_json_time(out, vo_ledger_int_or(s, 17, -1));
    vo_buf_adds(out, ",\"receipt_expires_at\":");
    vo_json_time(out, vo_ledger_int_or(s, 18, -1));
    vo_buf_adds(out, "}\n");

    lrc = out->failed ? VO_LEDGER_ERROR : VO_LEDGER_OK;

    if (out->failed) {
        snprintf(err, err_size, "job %s status: out of memory", job_id);
    }

done:

    (void) sqlite3_reset(s);

    return lrc;
}


vo_ledger_rc_t
vo_ledger_job_result(vo_ledger_t *l, const char *tenant, size_t tenant_len,
    const char *job_id, const char *format, vo_buf_t *out, char *state,
    size_t state_size, char *err, size_t err_size)
{
    int             rc;
    const char     *st;
    sqlite3_stmt   *s;
    vo_ledger_rc_t  lrc;

    s = vo_ledger_stmt(l, VO_STMT_JOB_RESULT, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    (void) sqlite3_bind_text(s, 1, job_id, -1, SQLITE_STATIC);
    (void) sqlite3_bind_text(s, 2, tenant, (int) tenant_len, SQLITE_STATIC);
    (void) sqlite3_bind_text(s, 3, format, -1, SQLITE_STATIC);

    rc = sqlite3_step(s);

    if (rc == SQLITE_DONE) {
        lrc = VO_LEDGER_NOT_FOUND;
        goto done;
    }

    if (rc != SQLITE_ROW) {
        snprintf(err, err_size, "job %s result: %s", job_id,
                 sqlite3_errmsg(l->db));
        lrc = vo_ledger_rc(rc);
        goto done;
    }

    st = (const char *) sqlite3_column_text(s, 0);
    snprintf(state, state_size, "%s", st ? st : "");

    if (sqlite3_column_type(s, 1) == SQLITE_NULL) {
        lrc = VO_LEDGER_NOT_READY;
        goto done;
    }

    vo_ledger_json_raw_or_null(out, s, 1);

    lrc = out->failed ? VO_LEDGER_ERROR : VO_LEDGER_OK;

    if (out->failed) {
        snprintf(err, err_size, "job %s result: out of memory", job_id);
    }

done:

    (void) sqlite3_reset(s);

    return lrc;
}


/* shared helpers, declared in vo_ledger_int.h */


sqlite3_stmt *
vo_ledger_stmt(vo_ledger_t *l, int id, char *err, size_t err_size)
{
    int  rc;

    if (l->stmt[id] != NULL) {
        return l->stmt[id];
    }

    rc = sqlite3_prepare_v3(l->db, vo_ledger_sql_text(id), -1,
                            SQLITE_PREPARE_PERSISTENT, &l->stmt[id], NULL);
    if (rc != SQLITE_OK) {
        snprintf(err, err_size, "prepare \"%.40s...\": %s",
                 vo_ledger_sql_text(id), sqlite3_errmsg(l->db));
        l->stmt[id] = NULL;
        return NULL;
    }

    return l->stmt[id];
}


const char *
vo_ledger_sql_text(int id)
{
    return id < VO_STMT_WORKER_FIRST ? vo_ledger_sql[id]
                                     : vo_ledger_worker_sql[id
                                                  - VO_STMT_WORKER_FIRST];
}


vo_ledger_rc_t
vo_ledger_rc(int rc)
{
    switch (rc & 0xff) {

    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return VO_LEDGER_BUSY;

    case SQLITE_FULL:
        return VO_LEDGER_FULL;

    default:
        return VO_LEDGER_ERROR;
    }
}


vo_ledger_rc_t
vo_ledger_step_done(vo_ledger_t *l, sqlite3_stmt *s, const char *what,
    char *err, size_t err_size)
{
    int  rc;

    if (s == NULL) {
        /* vo_ledger_stmt() failed and said why in err */
        return VO_LEDGER_ERROR;
    }

    rc = sqlite3_step(s);
    (void) sqlite3_reset(s);

    if (rc != SQLITE_DONE) {
        snprintf(err, err_size, "%s: %s", what, sqlite3_errmsg(l->db));
        return vo_ledger_rc(rc);
    }

    return VO_LEDGER_OK;
}


vo_ledger_rc_t
vo_ledger_exec(vo_ledger_t *l, const char *sql, char *err, size_t err_size)
{
    int    rc;
    char  *msg;

    msg = NULL;

    rc = sqlite3_exec(l->db, sql, NULL, NULL, &msg);
    if (rc != SQLITE_OK) {
        snprintf(err, err_size, "%.60s: %s", sql,
                 msg ? msg : sqlite3_errstr(rc));
        sqlite3_free(msg);
        return vo_ledger_rc(rc);
    }

    return VO_LEDGER_OK;
}


vo_ledger_rc_t
vo_ledger_begin(vo_ledger_t *l, char *err, size_t err_size)
{
    sqlite3_stmt  *s;

    s = vo_ledger_stmt(l, VO_STMT_BEGIN, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    return vo_ledger_step_done(l, s, "begin", err, err_size);
}


vo_ledger_rc_t
vo_ledger_commit(vo_ledger_t *l, char *err, size_t err_size)
{
    sqlite3_stmt    *s;
    vo_ledger_rc_t   lrc;

    s = vo_ledger_stmt(l, VO_STMT_COMMIT, err, err_size);
    if (s == NULL) {
        vo_ledger_rollback(l);
        return VO_LEDGER_ERROR;
    }

    lrc = vo_ledger_step_done(l, s, "commit", err, err_size);
    if (lrc != VO_LEDGER_OK) {
        vo_ledger_rollback(l);
    }

    return lrc;
}


void
vo_ledger_rollback(vo_ledger_t *l)
{
    char           err[64];
    sqlite3_stmt  *s;

    if (sqlite3_get_autocommit(l->db)) {
        return;
    }

    s = vo_ledger_stmt(l, VO_STMT_ROLLBACK, err, sizeof(err));
    if (s != NULL) {
        (void) sqlite3_step(s);
        (void) sqlite3_reset(s);
    }
}


vo_ledger_rc_t
vo_ledger_event(vo_ledger_t *l, int64_t at, const char *job_id,
    const char *tenant, size_t tenant_len, const char *kind, int attempt,
    const char *detail, char *err, size_t err_size)
{
    sqlite3_stmt  *s;

    s = vo_ledger_stmt(l, VO_STMT_INSERT_EVENT, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    (void) sqlite3_bind_int64(s, 1, at);
    (void) sqlite3_bind_text(s, 2, job_id, -1, SQLITE_STATIC);

    if (tenant != NULL) {
        (void) sqlite3_bind_text(s, 3, tenant, (int) tenant_len,
                                 SQLITE_STATIC);

    } else {
        (void) sqlite3_bind_null(s, 3);
    }

    (void) sqlite3_bind_text(s, 4, kind, -1, SQLITE_STATIC);
    (void) sqlite3_bind_int(s, 5, attempt);

    if (detail != NULL) {
        (void) sqlite3_bind_text(s, 6, detail, -1, SQLITE_STATIC);

    } else {
        (void) sqlite3_bind_null(s, 6);
    }

    return vo_ledger_step_done(l, s, "insert event", err, err_size);
}


int64_t
vo_ledger_int_or(sqlite3_stmt *s, int col, int64_t dflt)
{
    return sqlite3_column_type(s, col) == SQLITE_NULL
           ? dflt : sqlite3_column_int64(s, col);
}


void
vo_ledger_json_int_or_null(vo_buf_t *b, sqlite3_stmt *s, int col)
{
    if (sqlite3_column_type(s, col) == SQLITE_NULL) {
        vo_buf_adds(b, "null");
        return;
    }

    vo_buf_printf(b, "%lld", (long long) sqlite3_column_int64(s, col));
}


void
vo_ledger_json_raw_or_null(vo_buf_t *b, sqlite3_stmt *s, int col)
{
    if (sqlite3_column_type(s, col) == SQLITE_NULL) {
        vo_buf_adds(b, "null");
        return;
    }

    vo_buf_add(b, (const char *) sqlite3_column_text(s, col),
               (size_t) sqlite3_column_bytes(s, col));
}


/*
 * Brings the file to VO_LEDGER_SCHEMA_VERSION in one transaction.  Another
 * process (nginx's master, a worker) may be doing the same at the same
 * moment: the version is read again under the write lock.
 */

static vo_ledger_rc_t
vo_ledger_migrate(vo_ledger_t *l, char *err, size_t err_size)
{
    char            sql[64];
    int64_t         version;
    vo_ledger_rc_t  lrc;

    lrc = vo_ledger_exec(l, "BEGIN IMMEDIATE", err, err_size);
    if (lrc != VO_LEDGER_OK) {
        return lrc;
    }

    lrc = vo_ledger_pragma_int(l, "PRAGMA user_version", &version, err,
                               err_size);
    if (lrc != VO_LEDGER_OK) {
        goto failed;
    }

    if (version == 0) {
        lrc = vo_ledger_exec(l, vo_schema_v1, err, err_size);
        if (lrc != VO_LEDGER_OK) {
            goto failed;
        }
    }

    /* versions 2 and later: apply sql/migrations/NNN.sql here, in order */

    snprintf(sql, sizeof(sql), "PRAGMA user_version=%d",
             VO_LEDGER_SCHEMA_VERSION);

    lrc = vo_ledger_exec(l, sql, err, err_size);
    if (lrc != VO_LEDGER_OK) {
        goto failed;
    }

    return vo_ledger_exec(l, "COMMIT", err, err_size);

failed:

    (void) sqlite3_exec(l->db, "ROLLBACK", NULL, NULL, NULL);

    return lrc;
}


static vo_ledger_rc_t
vo_ledger_pragma_int(vo_ledger_t *l, const char *sql, int64_t *value,
    char *err, size_t err_size)
{
    int            rc;
    sqlite3_stmt  *s;

    rc = sqlite3_prepare_v2(l->db, sql, -1, &s, NULL);

    if (rc == SQLITE_OK) {
        rc = sqlite3_step(s);
    }

    if (rc != SQLITE_ROW) {
        snprintf(err, err_size, "%s: %s", sql, sqlite3_errmsg(l->db));
        (void) sqlite3_finalize(s);
        return vo_ledger_rc(rc);
    }

    *value = sqlite3_column_int64(s, 0);

    (void) sqlite3_finalize(s);

    return VO_LEDGER_OK;
}
