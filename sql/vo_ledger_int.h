/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Inside the SQLite ledger: the connection type, the statement cache and
 * the helpers the vo_ledger*.c files share.  Not for the module or the
 * worker, which see only vo_ledger.h.
 */

#ifndef _VO_LEDGER_INT_H_INCLUDED_
#define _VO_LEDGER_INT_H_INCLUDED_


#include <sqlite3.h>

#include "vo_ledger.h"


/*
 * Every statement the ledger prepares.  The SQL texts are in the file
 * that uses them, each file's in one range, in this order: vo_ledger.c,
 * vo_ledger_admit.c, vo_ledger_jobs.c, vo_ledger_worker.c,
 * vo_ledger_janitor.c.
 */
typedef enum {
    VO_STMT_BEGIN = 0,
    VO_STMT_COMMIT,
    VO_STMT_ROLLBACK,
    VO_STMT_SAVEPOINT,
    VO_STMT_ROLLBACK_TO,
    VO_STMT_RELEASE_TO,
    VO_STMT_INSERT_EVENT,

    VO_STMT_ADMIT_FIRST,
    VO_STMT_FIND_RECEIPT = VO_STMT_ADMIT_FIRST,
    VO_STMT_DELETE_RECEIPT,
    VO_STMT_INSERT_JOB,
    VO_STMT_INSERT_RECEIPT,

    VO_STMT_JOBS_FIRST,
    VO_STMT_JOB_STATUS = VO_STMT_JOBS_FIRST,
    VO_STMT_JOB_RESULT,
    VO_STMT_DELETE_FIND,
    VO_STMT_DELETE_MARK,
    VO_STMT_DELETE_FRAMES,
    VO_STMT_DELETE_RESULTS,

    VO_STMT_WORKER_FIRST,
    VO_STMT_CLAIM_CANDIDATE = VO_STMT_WORKER_FIRST,
    VO_STMT_CLAIM,
    VO_STMT_GIVE_UP,
    VO_STMT_HEARTBEAT,
    VO_STMT_SET_PLAN,
    VO_STMT_PUT_FRAME,
    VO_STMT_PROGRESS,
    VO_STMT_FRAMES,
    VO_STMT_PUBLISH,
    VO_STMT_PUT_RESULT,
    VO_STMT_RETRY,
    VO_STMT_REJECT,
    VO_STMT_RELEASE,

    VO_STMT_JANITOR_FIRST,
    VO_STMT_EXPIRE_RECEIPTS = VO_STMT_JANITOR_FIRST,
    VO_STMT_MEDIA_DUE,
    VO_STMT_MEDIA_DELETED,
    VO_STMT_MEDIA_FRAMES,
    VO_STMT_MEDIA_OF,
    VO_STMT_COUNT
} vo_ledger_stmt_e;


extern const char  *vo_ledger_admit_sql[VO_STMT_JOBS_FIRST
                                        - VO_STMT_ADMIT_FIRST];
extern const char  *vo_ledger_jobs_sql[VO_STMT_WORKER_FIRST
                                       - VO_STMT_JOBS_FIRST];
extern const char  *vo_ledger_worker_sql[VO_STMT_JANITOR_FIRST
                                         - VO_STMT_WORKER_FIRST];
extern const char  *vo_ledger_janitor_sql[VO_STMT_COUNT
                                          - VO_STMT_JANITOR_FIRST];


struct vo_ledger_s {
    sqlite3       *db;
    sqlite3_stmt  *stmt[VO_STMT_COUNT];  /* prepared on first use, kept */
};


/* The cached statement id, prepared on first use; NULL + err on failure. */
sqlite3_stmt *vo_ledger_stmt(vo_ledger_t *l, int id, char *err,
    size_t err_size);
const char *vo_ledger_sql_text(int id);

/* Maps an SQLite result code to BUSY, FULL or ERROR. */
vo_ledger_rc_t vo_ledger_rc(int rc);

/* Steps a statement that returns no rows and resets it. */
vo_ledger_rc_t vo_ledger_step_done(vo_ledger_t *l, sqlite3_stmt *s,
    const char *what, char *err, size_t err_size);
vo_ledger_rc_t vo_ledger_exec(vo_ledger_t *l, const char *sql, char *err,
    size_t err_size);

/* BEGIN IMMEDIATE; COMMIT (rolls back when it fails); ROLLBACK if open. */
vo_ledger_rc_t vo_ledger_begin(vo_ledger_t *l, char *err, size_t err_size);
vo_ledger_rc_t vo_ledger_commit(vo_ledger_t *l, char *err, size_t err_size);
void vo_ledger_rollback(vo_ledger_t *l);

/* Appends one row to the audit trail, inside the caller's transaction. */
vo_ledger_rc_t vo_ledger_event(vo_ledger_t *l, int64_t at,
    const char *job_id, const char *tenant, size_t tenant_len,
    const char *kind, int attempt, const char *detail, char *err,
    size_t err_size);

int64_t vo_ledger_int_or(sqlite3_stmt *s, int col, int64_t dflt);
void vo_ledger_json_int_or_null(vo_buf_t *b, sqlite3_stmt *s, int col);
void vo_ledger_json_raw_or_null(vo_buf_t *b, sqlite3_stmt *s, int col);


#endif /* _VO_LEDGER_INT_H_INCLUDED_ */
