/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The ledger's shared core: choosing the backend, the statement cache,
 * the statement interface every vo_ledger_*.c file uses, transactions
 * and the audit event.  The statements themselves are with the code that
 * runs them:
 *
 *   vo_ledger_admit.c     admission (nginx), group commit included
 *   vo_ledger_jobs.c      job status, results, DELETE (nginx)
 *   vo_ledger_metrics.c   the ledger's metrics (nginx)
 *   vo_ledger_claim.c     the claim: fair between tenants (worker)
 *   vo_ledger_worker.c    heartbeat, frames, publish (worker)
 *   vo_ledger_janitor.c   receipt expiry, media retention (worker)
 *   vo_ledger_admin.c     the operator's commands (worker)
 *   vo_ledger_webhooks.c  the outbox: endpoints, notifications, the
 *                         deliverer's claims (nginx, worker)
 *   vo_ledger_hooks_admin.c  the operator's "webhooks" commands (worker)
 *   vo_ledger_upload.c    resumable uploads (nginx), their expiry (worker)
 *   vo_ledger_search_index.c  the search index: written at publish,
 *                         removed with the result (worker, nginx)
 *   vo_ledger_search.c    search queries (nginx)
 *
 * and the backends, which open, migrate and talk to a database:
 *
 *   vo_ledger_sqlite.c    a file path: SQLite
 *   vo_ledger_pg.c        a postgresql:// or postgres:// URI: PostgreSQL
 *   vo_ledger_nopg.c      the same, in a build without libpq: refuses
 *                         with a sentence
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vo_ledger.h"
#include "vo_ledger_int.h"


/* the statements every part of the ledger uses; BEGIN is per backend
 * (IMMEDIATE, an isolation level) */
static const char  *vo_ledger_sql[VO_STMT_COUNT] = {

    [VO_STMT_COMMIT] = "COMMIT",
    [VO_STMT_ROLLBACK] = "ROLLBACK",
    [VO_STMT_SAVEPOINT] = "SAVEPOINT item",
    [VO_STMT_ROLLBACK_TO] = "ROLLBACK TO item",
    [VO_STMT_RELEASE_TO] = "RELEASE item",

    [VO_STMT_INSERT_EVENT] =
    "INSERT INTO events (at, job_id, tenant, kind, attempt, detail)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
};


/* every file's table of shared texts: a statement is in exactly one */
static const char  **vo_ledger_texts[] = {
    vo_ledger_sql, vo_ledger_admit_sql, vo_ledger_jobs_sql,
    vo_ledger_worker_sql, vo_ledger_parts_sql, vo_ledger_claim_sql,
    vo_ledger_janitor_sql, vo_ledger_webhooks_sql,
    vo_ledger_upload_sql, vo_ledger_search_sql, NULL
};


int
vo_ledger_is_postgresql(const char *spec)
{
    return strncmp(spec, "postgresql://", sizeof("postgresql://") - 1) == 0
           || strncmp(spec, "postgres://", sizeof("postgres://") - 1) == 0;
}


void
vo_ledger_redact(const char *spec, char *buf, size_t size)
{
    size_t       n;
    const char  *scheme, *at, *colon, *slash;

    /* scheme://user:password@host...: the password becomes "***" */

    scheme = strstr(spec, "://");
    at = vo_ledger_is_postgresql(spec) ? strchr(spec, '@') : NULL;
    slash = scheme ? strchr(scheme + 3, '/') : NULL;

    if (at == NULL || (slash != NULL && at > slash)) {
        snprintf(buf, size, "%s", spec);
        return;
    }

    colon = memchr(scheme + 3, ':', (size_t) (at - scheme - 3));

    if (colon == NULL) {
        snprintf(buf, size, "%s", spec);
        return;
    }

    n = (size_t) (colon - spec);

    snprintf(buf, size, "%.*s:***%s", (int) n, spec, at);
}


vo_ledger_rc_t
vo_ledger_open(const char *spec, const vo_ledger_conf_t *conf,
    vo_ledger_t **out, char *err, size_t err_size)
{
    vo_ledger_t     *l;
    vo_ledger_rc_t   lrc;

    *out = NULL;

    l = calloc(1, sizeof(vo_ledger_t));
    if (l == NULL) {
        snprintf(err, err_size, "ledger: out of memory");
        return VO_LEDGER_ERROR;
    }

    l->be = vo_ledger_is_postgresql(spec) ? &vo_ledger_pg : &vo_ledger_sqlite;

    l->sync_full = conf->sync_full;

    lrc = l->be->open(l, spec, conf, err, err_size);
    if (lrc != VO_LEDGER_OK) {
        vo_ledger_close(l);
        return lrc;
    }

    *out = l;

    return VO_LEDGER_OK;
}


void
vo_ledger_close(vo_ledger_t *l)
{
    int  i;

    if (l == NULL) {
        return;
    }

    for (i = 0; i < VO_STMT_COUNT; i++) {
        if (l->stmt[i] != NULL) {
            l->be->finalize(l->stmt[i]);
        }
    }

    l->be->close(l);

    free(l);
}


/* shared helpers, declared in vo_ledger_int.h */


vo_stmt_t *
vo_ledger_stmt(vo_ledger_t *l, int id, char *err, size_t err_size)
{
    const char  *sql;

    if (l->stmt[id] != NULL) {
        return l->stmt[id];
    }

    sql = vo_ledger_sql_text(l, id);

    if (sql == NULL) {
        /* can't happen: every statement has a text in some table */
        snprintf(err, err_size, "ledger statement %d has no SQL for %s", id,
                 l->be->name);
        return NULL;
    }

    l->stmt[id] = l->be->prepare(l, sql, 1, err, err_size);

    return l->stmt[id];
}


const char *
vo_ledger_sql_text(vo_ledger_t *l, int id)
{
    const char  ***t;

    if (l->be->sql != NULL && l->be->sql[id] != NULL) {
        return l->be->sql[id];
    }

    for (t = vo_ledger_texts; *t != NULL; t++) {
        if ((*t)[id] != NULL) {
            return (*t)[id];
        }
    }

    return NULL;
}


vo_stmt_t *
vo_ledger_prepare(vo_ledger_t *l, const char *sql, char *err,
    size_t err_size)
{
    return l->be->prepare(l, sql, 0, err, err_size);
}


void
vo_stmt_finalize(vo_stmt_t *s)
{
    s->ledger->be->finalize(s);
}


void
vo_bind_text(vo_stmt_t *s, int i, const char *v, int len)
{
    /* as sqlite3_bind_text(): a NULL pointer is an SQL NULL */

    if (v == NULL) {
        s->ledger->be->bind_null(s, i);
        return;
    }

    s->ledger->be->bind_text(s, i, v, len < 0 ? (int) strlen(v) : len);
}


void
vo_bind_int(vo_stmt_t *s, int i, int64_t v)
{
    s->ledger->be->bind_int(s, i, v);
}


void
vo_bind_double(vo_stmt_t *s, int i, double v)
{
    s->ledger->be->bind_double(s, i, v);
}


void
vo_bind_null(vo_stmt_t *s, int i)
{
    s->ledger->be->bind_null(s, i);
}


int
vo_step(vo_stmt_t *s)
{
    return s->ledger->be->step(s);
}


void
vo_reset(vo_stmt_t *s)
{
    s->ledger->be->reset(s);
}


int
vo_column_null(vo_stmt_t *s, int col)
{
    return s->ledger->be->column_null(s, col);
}


const char *
vo_column_text(vo_stmt_t *s, int col)
{
    return s->ledger->be->column_text(s, col);
}


int
vo_column_bytes(vo_stmt_t *s, int col)
{
    return s->ledger->be->column_bytes(s, col);
}


int64_t
vo_column_int64(vo_stmt_t *s, int col)
{
    return s->ledger->be->column_int64(s, col);
}


int
vo_column_int(vo_stmt_t *s, int col)
{
    return (int) s->ledger->be->column_int64(s, col);
}


double
vo_column_double(vo_stmt_t *s, int col)
{
    return s->ledger->be->column_double(s, col);
}


const char *
vo_ledger_errmsg(vo_ledger_t *l)
{
    return l->be->errmsg(l);
}


int64_t
vo_ledger_changes(vo_ledger_t *l)
{
    return l->be->changes(l);
}


vo_ledger_rc_t
vo_ledger_rc(int rc)
{
    return (rc == VO_ROW || rc == VO_DONE || rc == VO_LEDGER_OK)
           ? VO_LEDGER_ERROR : (vo_ledger_rc_t) rc;
}


vo_ledger_rc_t
vo_ledger_step_done(vo_ledger_t *l, vo_stmt_t *s, const char *what,
    char *err, size_t err_size)
{
    int  rc;

    if (s == NULL) {
        /* vo_ledger_stmt() failed and said why in err */
        return VO_LEDGER_ERROR;
    }

    rc = vo_step(s);
    vo_reset(s);

    if (rc != VO_DONE) {
        snprintf(err, err_size, "%s: %s", what, vo_ledger_errmsg(l));
        return vo_ledger_rc(rc);
    }

    return VO_LEDGER_OK;
}


vo_ledger_rc_t
vo_ledger_exec(vo_ledger_t *l, const char *sql, char *err, size_t err_size)
{
    return l->be->exec(l, sql, err, err_size);
}


vo_ledger_rc_t
vo_ledger_begin(vo_ledger_t *l, char *err, size_t err_size)
{
    vo_stmt_t  *s;

    s = vo_ledger_stmt(l, VO_STMT_BEGIN, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    return vo_ledger_step_done(l, s, "begin", err, err_size);
}


vo_ledger_rc_t
vo_ledger_commit(vo_ledger_t *l, char *err, size_t err_size)
{
    vo_stmt_t       *s;
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
    char        err[64];
    vo_stmt_t  *s;

    if (!l->be->in_transaction(l)) {
        return;
    }

    s = vo_ledger_stmt(l, VO_STMT_ROLLBACK, err, sizeof(err));
    if (s != NULL) {
        (void) vo_step(s);
        vo_reset(s);
    }
}


const char *
vo_ledger_migration(const char *const *m, size_t n, int64_t v,
    const char *name, char *err, size_t err_size)
{
    if (v < 0 || (uint64_t) v >= n || m[v] == NULL) {
        snprintf(err, err_size, "ledger \"%s\": this build has no migration "
                 "to schema version %lld", name, (long long) v);
        return NULL;
    }

    return m[v];
}


vo_ledger_rc_t
vo_ledger_check_version(const char *name, int64_t version, int migrate,
    char *err, size_t err_size)
{
    if (version > VO_LEDGER_SCHEMA_VERSION) {
        snprintf(err, err_size, "ledger \"%s\" has schema version %lld, "
                 "newer than this build knows (%d): upgrade video-ocr",
                 name, (long long) version, VO_LEDGER_SCHEMA_VERSION);
        return VO_LEDGER_ERROR;
    }

    if (version < VO_LEDGER_SCHEMA_VERSION && !migrate) {
        snprintf(err, err_size, "ledger \"%s\" has schema version %lld, "
                 "expected %d: it is migrated when nginx or "
                 "\"video-ocr-worker run\" starts", name, (long long) version,
                 VO_LEDGER_SCHEMA_VERSION);
        return VO_LEDGER_ERROR;
    }

    return VO_LEDGER_OK;
}


vo_ledger_rc_t
vo_ledger_event(vo_ledger_t *l, int64_t at, const char *job_id,
    const char *tenant, size_t tenant_len, const char *kind, int attempt,
    const char *detail, char *err, size_t err_size)
{
    vo_stmt_t  *s;

    s = vo_ledger_stmt(l, VO_STMT_INSERT_EVENT, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    vo_bind_int(s, 1, at);
    vo_bind_text(s, 2, job_id, -1);
    vo_bind_text(s, 3, tenant, (int) tenant_len);
    vo_bind_text(s, 4, kind, -1);
    vo_bind_int(s, 5, attempt);
    vo_bind_text(s, 6, detail, -1);

    return vo_ledger_step_done(l, s, "insert event", err, err_size);
}


void
vo_ledger_copy_text(char *dst, size_t size, vo_stmt_t *s, int col)
{
    const char  *v;

    v = vo_column_text(s, col);

    snprintf(dst, size, "%s", v ? v : "");
}


int64_t
vo_ledger_int_or(vo_stmt_t *s, int col, int64_t dflt)
{
    return vo_column_null(s, col) ? dflt : vo_column_int64(s, col);
}


void
vo_ledger_json_int_or_null(vo_buf_t *b, vo_stmt_t *s, int col)
{
    if (vo_column_null(s, col)) {
        vo_buf_adds(b, "null");
        return;
    }

    vo_buf_printf(b, "%lld", (long long) vo_column_int64(s, col));
}


void
vo_ledger_json_raw_or_null(vo_buf_t *b, vo_stmt_t *s, int col)
{
    if (vo_column_null(s, col)) {
        vo_buf_adds(b, "null");
        return;
    }

    vo_buf_add(b, vo_column_text(s, col), (size_t) vo_column_bytes(s, col));
}
