/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The admission transaction (nginx's thread pool): find the receipt of
 * (tenant, key), or insert the job, the receipt and the audit event; a
 * batch of admissions commits in one transaction with a savepoint each
 * (the group commit of ngx_module/vo_group.c).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vo_ledger.h"
#include "vo_ledger_int.h"


const char  *vo_ledger_admit_sql[VO_STMT_JOBS_FIRST - VO_STMT_ADMIT_FIRST] = {

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
};


static vo_ledger_rc_t vo_ledger_admit_one(vo_ledger_t *l,
    const vo_admission_t *a, vo_receipt_t *r, char *err, size_t err_size);


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
