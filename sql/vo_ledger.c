/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The SQLite ledger: opening and migrating the file, and what the other
 * vo_ledger_*.c files share (statement cache, transactions, the audit
 * event).  The statements themselves are with the code that runs them:
 *
 *   vo_ledger_admit.c     admission (nginx), group commit included
 *   vo_ledger_jobs.c      job status, results, DELETE (nginx)
 *   vo_ledger_metrics.c   the ledger's metrics (nginx)
 *   vo_ledger_worker.c    claim, heartbeat, frames, publish (worker)
 *   vo_ledger_janitor.c   receipt expiry, media retention (worker)
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

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "vo_ledger.h"
#include "vo_ledger_int.h"
#include "vo_schema.h"


static const char  *vo_ledger_sql[VO_STMT_ADMIT_FIRST] = {

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

    /* VO_STMT_INSERT_EVENT */
    "INSERT INTO events (at, job_id, tenant, kind, attempt, detail)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
};


static vo_ledger_rc_t vo_ledger_migrate(vo_ledger_t *l, char *err,
    size_t err_size);
static vo_ledger_rc_t vo_ledger_pragma_int(vo_ledger_t *l, const char *sql,
    int64_t *value, char *err, size_t err_size);


vo_ledger_rc_t
vo_ledger_open(const char *path, const vo_ledger_conf_t *conf,
    vo_ledger_t **out, char *err, size_t err_size)
{
    int             flags, rc, sys;
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
        sys = l->db ? sqlite3_system_errno(l->db) : 0;

        snprintf(err, err_size, "ledger \"%s\": cannot open: %s%s%s%s",
                 path, l->db ? sqlite3_errmsg(l->db) : sqlite3_errstr(rc),
                 sys ? " (" : "", sys ? strerror(sys) : "",
                 sys == EACCES ? "): the file and its directory must be "
                 "readable and writable by this user" : sys ? ")" : "");
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
        /* never "fixed" by starting afresh: the receipts are the point */
        snprintf(err, err_size, "ledger \"%s\": %s%s", path,
                 sqlite3_errmsg(l->db),
                 (rc & 0xff) == SQLITE_NOTADB || (rc & 0xff) == SQLITE_CORRUPT
                 ? ": the file is damaged or not a video-ocr ledger, and is "
                   "left as it is; restore it from a backup "
                   "(docs/operations.md)" : "");
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
           != VO_LEDGER_OK
        /*
         * statement journals in memory: a batch of admissions is one
         * transaction of many statements, and each statement's journal
         * (the pages it changes that earlier ones changed, for its own
         * rollback) outgrows SQLite's 64 KiB spill threshold; on disk
         * that was a temporary file created, written and unlinked per
         * statement
         */
        || vo_ledger_exec(l, "PRAGMA temp_store=MEMORY", err, err_size)
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
    if (id < VO_STMT_ADMIT_FIRST) {
        return vo_ledger_sql[id];
    }

    if (id < VO_STMT_JOBS_FIRST) {
        return vo_ledger_admit_sql[id - VO_STMT_ADMIT_FIRST];
    }

    if (id < VO_STMT_WORKER_FIRST) {
        return vo_ledger_jobs_sql[id - VO_STMT_JOBS_FIRST];
    }

    if (id < VO_STMT_JANITOR_FIRST) {
        return vo_ledger_worker_sql[id - VO_STMT_WORKER_FIRST];
    }

    return vo_ledger_janitor_sql[id - VO_STMT_JANITOR_FIRST];
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
