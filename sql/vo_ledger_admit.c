/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The admission transaction (nginx's thread pool): find the receipt of
 * (tenant, key), or insert the job, the receipt and the audit event; a
 * batch of admissions commits in one transaction with a savepoint each
 * (the group commit of ngx_module/vo_group.c).
 *
 * One receipt per key (invariant 1) is the receipt's primary key, and
 * the receipt is inserted with ON CONFLICT DO NOTHING.  With SQLite the
 * transaction holds the one write lock from BEGIN IMMEDIATE, so the
 * lookup that precedes the insert is final and the conflict cannot
 * happen.  With PostgreSQL other hosts admit at the same time: an
 * admission of a key that another has in flight waits for it to commit
 * and inserts nothing; its item is rolled back to its savepoint (the job
 * it inserted goes) and the lookup, run again, finds the winner's
 * receipt: a replay or a mismatch, as for any retry.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vo_ledger.h"
#include "vo_ledger_int.h"


const char  *vo_ledger_admit_sql[VO_STMT_COUNT] = {

    [VO_STMT_FIND_RECEIPT] =
    "SELECT input_digest, job_id, created_at, expires_at FROM requests"
    " WHERE tenant = ?1 AND request_key = ?2",

    /* an expired receipt goes before its key is admitted again
     * (invariant 1) */
    [VO_STMT_DELETE_RECEIPT] =
    "DELETE FROM requests WHERE tenant = ?1 AND request_key = ?2"
    " AND expires_at <= ?3",

    /* the receipt's job, in the receipt's transaction, after the batch's
     * uploads are durable (invariants 3, 4); claimable from now on, its
     * place in its tenant's line */
    [VO_STMT_INSERT_JOB] =
    "INSERT INTO jobs (job_id, tenant, options, input_path, input_size,"
    " input_sha256, container, max_attempts, created_at, updated_at,"
    " webhook_endpoint, status_url, not_before)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9, ?10, ?11, ?9)",

    /* nothing when another admission was first: one receipt per key, its
     * digest and job written once (invariants 1, 2, 3, 4) */
    [VO_STMT_INSERT_RECEIPT] =
    "INSERT INTO requests (tenant, request_key, input_digest, job_id,"
    " created_at, expires_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)"
    " ON CONFLICT (tenant, request_key) DO NOTHING",
};


static vo_ledger_rc_t vo_ledger_admit_one(vo_ledger_t *l,
    const vo_admission_t *a, vo_receipt_t *r, char *err, size_t err_size);
static vo_ledger_rc_t vo_ledger_admit_item(vo_ledger_t *l,
    vo_admit_item_t *it);
static void vo_ledger_admit_order(vo_admit_item_t **items, size_t n);
static int vo_ledger_admit_cmp(const vo_admit_item_t *x,
    const vo_admit_item_t *y);
static vo_ledger_rc_t vo_ledger_admit_queued(vo_ledger_t *l,
    const vo_admission_t *a, vo_receipt_t *r, char *err, size_t err_size);
static vo_ledger_rc_t vo_ledger_admit_upload(vo_ledger_t *l,
    const vo_admission_t *a, vo_receipt_t *r, vo_ledger_rc_t lrc, char *err,
    size_t err_size);


vo_ledger_rc_t
vo_ledger_lookup(vo_ledger_t *l, const vo_admission_t *a, vo_receipt_t *r,
    char *err, size_t err_size)
{
    int             rc;
    const char     *digest;
    vo_stmt_t      *s;
    vo_ledger_rc_t  lrc;

    r->outcome = VO_ADMIT_NONE;

    if (a->key == NULL) {
        return VO_LEDGER_OK;
    }

    s = vo_ledger_stmt(l, VO_STMT_FIND_RECEIPT, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    vo_bind_text(s, 1, a->tenant, (int) a->tenant_len);
    vo_bind_text(s, 2, a->key, (int) a->key_len);

    rc = vo_step(s);

    if (rc == VO_DONE) {
        lrc = VO_LEDGER_OK;
        goto done;
    }

    if (rc != VO_ROW) {
        snprintf(err, err_size, "find receipt: %s", vo_ledger_errmsg(l));
        lrc = vo_ledger_rc(rc);
        goto done;
    }

    lrc = VO_LEDGER_OK;

    if (vo_column_int64(s, 3) <= a->now_ms) {
        /* expired: the request is new intent, vo_ledger_admit says so */
        goto done;
    }

    digest = (const char *) vo_column_text(s, 0);

    r->outcome = (digest != NULL && strcmp(digest, a->input_digest) == 0)
                 ? VO_ADMIT_REPLAYED : VO_ADMIT_MISMATCH;

    snprintf(r->job_id, sizeof(r->job_id), "%s",
             (const char *) vo_column_text(s, 1));
    r->created_at = vo_column_int64(s, 2);
    r->expires_at = vo_column_int64(s, 3);

done:

    vo_reset(s);

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
    int               committing;
    size_t            i;
    char              err[VO_ERR_TEXT];
    vo_ledger_rc_t    lrc;
    vo_admit_item_t  *it, *sorted[VO_ADMIT_BATCH_MAX];

    committing = 0;

    for (i = 0; i < n && i < VO_ADMIT_BATCH_MAX; i++) {
        items[i]->in_doubt = 0;
    }

    if (n > VO_ADMIT_BATCH_MAX) {
        snprintf(err, sizeof(err), "admission batch of %zu: more than %d",
                 n, VO_ADMIT_BATCH_MAX);
        lrc = VO_LEDGER_ERROR;
        goto failed;
    }

    memcpy(sorted, items, n * sizeof(vo_admit_item_t *));
    vo_ledger_admit_order(sorted, n);

    lrc = vo_ledger_begin(l, err, sizeof(err));
    if (lrc != VO_LEDGER_OK) {
        goto failed;
    }

    for (i = 0; i < n; i++) {
        lrc = vo_ledger_admit_item(l, sorted[i]);
        if (lrc != VO_LEDGER_OK) {
            snprintf(err, sizeof(err), "%s", sorted[i]->err);
            goto failed;
        }
    }

    committing = 1;

    lrc = vo_ledger_commit(l, err, sizeof(err));
    if (lrc != VO_LEDGER_OK) {
        goto failed;
    }

    return VO_LEDGER_OK;

failed:

    /*
     * the transaction is gone: nothing of it holds, for any item; unless
     * a server lost the answer to its COMMIT, which may have committed
     * (invariant 4: the uploads stay, in doubt)
     */

    vo_ledger_rollback(l);

    for (i = 0; i < n; i++) {
        it = items[i];
        it->rc = lrc;
        it->in_doubt = committing && lrc == VO_LEDGER_BUSY && l->be->remote;
        it->receipt->outcome = VO_ADMIT_NONE;
        snprintf(it->err, it->err_size, "%s", err);
    }

    return lrc;
}


/*
 * One item of a batch, in a savepoint of its own: its error leaves the
 * others.  Returns an error only when the transaction itself failed.
 */

static vo_ledger_rc_t
vo_ledger_admit_item(vo_ledger_t *l, vo_admit_item_t *it)
{
    int              undo;
    char             err[VO_ERR_TEXT];
    vo_ledger_rc_t   lrc;

    lrc = vo_ledger_step_done(l, vo_ledger_stmt(l, VO_STMT_SAVEPOINT, err,
                                                sizeof(err)),
                              "savepoint", err, sizeof(err));
    if (lrc != VO_LEDGER_OK) {
        snprintf(it->err, it->err_size, "%s", err);
        return lrc;
    }

    it->rc = vo_ledger_admit_one(l, it->admission, it->receipt, it->err,
                                 it->err_size);

    /* an error, or another admission's receipt came first (PostgreSQL) */

    undo = (it->rc != VO_LEDGER_OK
            || it->receipt->outcome == VO_ADMIT_NONE
            || it->receipt->outcome == VO_ADMIT_QUEUE_FULL);

    if (undo) {
        (void) vo_ledger_step_done(l,
                   vo_ledger_stmt(l, VO_STMT_ROLLBACK_TO, err, sizeof(err)),
                   "rollback to savepoint", err, sizeof(err));
    }

    if (it->rc == VO_LEDGER_OK && it->receipt->outcome == VO_ADMIT_NONE) {
        it->rc = vo_ledger_lookup(l, it->admission, it->receipt, it->err,
                                  it->err_size);

        if (it->rc == VO_LEDGER_OK
            && it->receipt->outcome == VO_ADMIT_NONE)
        {
            snprintf(it->err, it->err_size, "the receipt that another "
                     "admission committed first is gone: try again");
            it->rc = VO_LEDGER_BUSY;
        }
    }

    if (it->rc != VO_LEDGER_OK) {
        it->receipt->outcome = VO_ADMIT_NONE;
    }

    lrc = vo_ledger_step_done(l, vo_ledger_stmt(l, VO_STMT_RELEASE_TO, err,
                                                sizeof(err)),
                              "release savepoint", err, sizeof(err));
    if (lrc != VO_LEDGER_OK) {
        snprintf(it->err, it->err_size, "%s", err);
    }

    return lrc;
}


/*
 * Items in (tenant, key) order, keyless ones last, the same key in
 * arrival order: every batch takes the receipts' row locks in one order,
 * so two batches with the same keys (two hosts, PostgreSQL) wait for
 * each other instead of deadlocking.  An insertion sort: batches are
 * small, and it is stable.
 */

static void
vo_ledger_admit_order(vo_admit_item_t **items, size_t n)
{
    size_t            i, j;
    vo_admit_item_t  *it;

    for (i = 1; i < n; i++) {
        it = items[i];

        for (j = i; j > 0 && vo_ledger_admit_cmp(items[j - 1], it) > 0; j--) {
            items[j] = items[j - 1];
        }

        items[j] = it;
    }
}


static int
vo_ledger_admit_cmp(const vo_admit_item_t *x, const vo_admit_item_t *y)
{
    int                    rc;
    size_t                 n;
    const vo_admission_t  *a, *b;

    a = x->admission;
    b = y->admission;

    if (a->key == NULL || b->key == NULL) {
        return (a->key == NULL) - (b->key == NULL);
    }

    n = a->tenant_len < b->tenant_len ? a->tenant_len : b->tenant_len;
    rc = memcmp(a->tenant, b->tenant, n);

    if (rc != 0 || a->tenant_len != b->tenant_len) {
        return rc != 0 ? rc : (a->tenant_len < b->tenant_len ? -1 : 1);
    }

    n = a->key_len < b->key_len ? a->key_len : b->key_len;
    rc = memcmp(a->key, b->key, n);

    if (rc != 0 || a->key_len != b->key_len) {
        return rc != 0 ? rc : (a->key_len < b->key_len ? -1 : 1);
    }

    return 0;
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
    int64_t         endpoint;
    vo_stmt_t      *s;
    vo_ledger_rc_t  lrc;

    if (a->upload_id != NULL || a->upload_parts != NULL) {
        /* completing a resumable upload (invariant 13), taking partial
         * uploads (invariant 14) */
        lrc = vo_ledger_upload_completing(l, a, err, err_size);
        if (lrc != VO_LEDGER_OK) {
            return lrc;
        }
    }

    if (a->key != NULL) {

        /* under the write lock the answer of the lookup is final */

        lrc = vo_ledger_lookup(l, a, r, err, err_size);
        if (lrc != VO_LEDGER_OK || r->outcome != VO_ADMIT_NONE) {
            return vo_ledger_admit_upload(l, a, r, lrc, err, err_size);
        }
    }

    /* a new job past the tenant's queue cap is refused before
     * anything is written; a replay (above) never is */

    if (a->max_queued > 0) {
        lrc = vo_ledger_admit_queued(l, a, r, err, err_size);
        if (lrc != VO_LEDGER_OK || r->outcome == VO_ADMIT_QUEUE_FULL) {
            return lrc;
        }
    }

    if (a->key != NULL) {

        s = vo_ledger_stmt(l, VO_STMT_DELETE_RECEIPT, err, err_size);
        if (s == NULL) {
            return VO_LEDGER_ERROR;
        }

        vo_bind_text(s, 1, a->tenant, (int) a->tenant_len);
        vo_bind_text(s, 2, a->key, (int) a->key_len);
        vo_bind_int(s, 3, a->now_ms);

        lrc = vo_ledger_step_done(l, s, "delete expired receipt", err,
                                  err_size);
        if (lrc != VO_LEDGER_OK) {
            return lrc;
        }
    }

    /* the endpoint nginx named for the job's notifications */

    lrc = vo_ledger_admit_webhook(l, a, &endpoint, err, err_size);
    if (lrc != VO_LEDGER_OK) {
        return lrc;
    }

    s = vo_ledger_stmt(l, VO_STMT_INSERT_JOB, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    vo_bind_text(s, 1, a->job_id, -1);
    vo_bind_text(s, 2, a->tenant, (int) a->tenant_len);
    vo_bind_text(s, 3, a->options, -1);
    vo_bind_text(s, 4, a->input_path, -1);
    vo_bind_int(s, 5, a->input_size);
    vo_bind_text(s, 6, a->input_sha256, -1);
    vo_bind_text(s, 7, a->container, -1);
    vo_bind_int(s, 8, a->max_attempts);
    vo_bind_int(s, 9, a->now_ms);

    if (endpoint > 0) {
        vo_bind_int(s, 10, endpoint);

    } else {
        vo_bind_null(s, 10);
    }

    vo_bind_text(s, 11, a->status_url, (int) a->status_url_len);

    lrc = vo_ledger_step_done(l, s, "insert job", err, err_size);
    if (lrc != VO_LEDGER_OK) {
        return lrc;
    }

    if (a->key != NULL) {
        s = vo_ledger_stmt(l, VO_STMT_INSERT_RECEIPT, err, err_size);
        if (s == NULL) {
            return VO_LEDGER_ERROR;
        }

        vo_bind_text(s, 1, a->tenant, (int) a->tenant_len);
        vo_bind_text(s, 2, a->key, (int) a->key_len);
        vo_bind_text(s, 3, a->input_digest, -1);
        vo_bind_text(s, 4, a->job_id, -1);
        vo_bind_int(s, 5, a->now_ms);
        vo_bind_int(s, 6, a->now_ms + a->receipt_ttl_ms);

        lrc = vo_ledger_step_done(l, s, "insert receipt", err, err_size);
        if (lrc != VO_LEDGER_OK) {
            return lrc;
        }

        if (vo_ledger_changes(l) == 0) {
            /* another admission was first: the caller undoes this one */
            r->outcome = VO_ADMIT_NONE;
            return VO_LEDGER_OK;
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

    if (a->webhook_accepted) {
        /* invariant 10: job.accepted, if asked for, with the admission */
        lrc = vo_ledger_notify(l, a->job_id, "job.accepted", NULL, a->now_ms,
                               err, err_size);
        if (lrc != VO_LEDGER_OK) {
            return lrc;
        }
    }

    r->outcome = VO_ADMIT_CREATED;
    snprintf(r->job_id, sizeof(r->job_id), "%s", a->job_id);
    r->created_at = a->now_ms;
    r->expires_at = a->key ? a->now_ms + a->receipt_ttl_ms : -1;

    return vo_ledger_admit_upload(l, a, r, VO_LEDGER_OK, err, err_size);
}


/* The admission of a resumable upload also records its job. */

static vo_ledger_rc_t
vo_ledger_admit_upload(vo_ledger_t *l, const vo_admission_t *a,
    vo_receipt_t *r, vo_ledger_rc_t lrc, char *err, size_t err_size)
{
    if (lrc != VO_LEDGER_OK || a->upload_id == NULL
        || r->outcome == VO_ADMIT_NONE)
    {
        return lrc;
    }

    return vo_ledger_upload_admitted(l, a, r, err, err_size);
}


/*
 * The tenant's accepted jobs, counted up to the cap (VO_STMT_TENANT_QUEUED:
 * at most max_queued entries of jobs_queued): at the cap, QUEUE_FULL.
 * SQLite: under the write lock, exact.  PostgreSQL: admissions of the
 * same tenant on other hosts may commit meanwhile, so the cap may be
 * passed by as many as are in flight at once.
 */

static vo_ledger_rc_t
vo_ledger_admit_queued(vo_ledger_t *l, const vo_admission_t *a,
    vo_receipt_t *r, char *err, size_t err_size)
{
    int         rc;
    int64_t     queued;
    vo_stmt_t  *s;

    s = vo_ledger_stmt(l, VO_STMT_TENANT_QUEUED, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    vo_bind_text(s, 1, a->tenant, (int) a->tenant_len);
    vo_bind_int(s, 2, a->max_queued);

    rc = vo_step(s);

    if (rc != VO_ROW) {
        snprintf(err, err_size, "queued jobs of the tenant: %s",
                 vo_ledger_errmsg(l));
        vo_reset(s);
        return vo_ledger_rc(rc);
    }

    queued = vo_column_int64(s, 0);
    vo_reset(s);

    if (queued >= a->max_queued) {
        r->outcome = VO_ADMIT_QUEUE_FULL;
        r->job_id[0] = '\0';
    }

    return VO_LEDGER_OK;
}
