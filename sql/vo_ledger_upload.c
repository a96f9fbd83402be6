/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Resumable uploads in the ledger: creation (with the
 * tenant's limit of incomplete uploads), an append's claim and commit,
 * DELETE, the janitor's expiry, and the upload's part of the admission
 * that completes it (invariants 11-13 of sql/schema.sql).  The partial
 * files are the module's (ngx_module/ngx_http_video_ocr_upload_task.c);
 * here are only the rows that say how much of them is acknowledged.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vo_ledger.h"
#include "vo_ledger_int.h"


const char  *vo_ledger_upload_sql[VO_STMT_COUNT] = {

    [VO_STMT_UPLOAD_BY_KEY] =
    "SELECT " VO_UPLOAD_COLUMNS " FROM uploads"
    " WHERE tenant = ?1 AND request_key = ?2",

    /* uploads_by_tenant: a range of the tenant's incomplete ones */
    [VO_STMT_UPLOAD_OPEN_COUNT] =
    "SELECT count(*) FROM uploads WHERE tenant = ?1"
    " AND state = 'incomplete' AND expires_at > ?2",

    /* nothing when another creation of the key was first (PostgreSQL) */
    [VO_STMT_UPLOAD_INSERT] =
    "INSERT INTO uploads (upload_id, tenant, request_key, protocol, options,"
    " filename, upload_offset, upload_length, sha256_state, created_at,"
    " updated_at, expires_at, metadata, concat, partial_key, parts)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, 0, ?7, '', ?8, ?8, ?9, ?10, ?11, ?12,"
    " ?13)"
    " ON CONFLICT DO NOTHING",

    [VO_STMT_UPLOAD_FORGET] =
    "DELETE FROM uploads WHERE upload_id = ?1 AND expires_at <= ?2",

    [VO_STMT_UPLOAD_GET] =
    "SELECT " VO_UPLOAD_COLUMNS " FROM uploads"
    " WHERE upload_id = ?1 AND tenant = ?2",

    /* invariant 12: the claim ends any append under an older token; a
     * final upload's bytes are its partial uploads', never appended */
    [VO_STMT_UPLOAD_CLAIM] =
    "UPDATE uploads SET writer = writer + 1, updated_at = ?4"
    " WHERE upload_id = ?1 AND tenant = ?2 AND upload_offset = ?3"
    " AND state = 'incomplete' AND expires_at > ?4"
    " AND coalesce(concat, '') <> 'final'"
    " RETURNING " VO_UPLOAD_COLUMNS,

    /* VO_STMT_UPLOAD_LOCK: VO_UPLOAD_LOCK_SQL, PostgreSQL adds FOR UPDATE */
    [VO_STMT_UPLOAD_LOCK] = VO_UPLOAD_LOCK_SQL,

    /* invariant 11: only the current writer, only from where it wrote */
    [VO_STMT_UPLOAD_ADVANCE] =
    "UPDATE uploads SET upload_offset = ?2, upload_length = ?3,"
    " sha256_state = ?4, container = ?5, updated_at = ?6, expires_at = ?7"
    " WHERE upload_id = ?1 AND writer = ?8 AND upload_offset = ?9"
    " AND state = 'incomplete'",

    /* invariant 13, in the admission's transaction */
    [VO_STMT_UPLOAD_COMPLETING] =
    "UPDATE uploads SET state = 'completed', updated_at = ?3"
    " WHERE upload_id = ?1 AND writer = ?2 AND state = 'incomplete'",

    [VO_STMT_UPLOAD_ADMITTED] =
    "UPDATE uploads SET job_id = ?2, input_digest = ?3, expires_at = ?4"
    " WHERE upload_id = ?1",

    [VO_STMT_UPLOAD_DELETE] =
    "DELETE FROM uploads WHERE upload_id = ?1 AND tenant = ?2"
    " RETURNING " VO_UPLOAD_COLUMNS,

    [VO_STMT_UPLOADS_DUE] =
    "SELECT upload_id, state FROM uploads WHERE expires_at <= ?1"
    " ORDER BY expires_at LIMIT ?2",

    [VO_STMT_UPLOAD_EXISTS] =
    "SELECT state FROM uploads WHERE upload_id = ?1",

    [VO_STMT_UPLOAD_EXPIRE] =
    "DELETE FROM uploads WHERE upload_id = ?1 AND expires_at <= ?2"
    " RETURNING state, tenant",

    /* a final upload made again: the latest request's, under a new
     * token (invariant 12: the older request's admission is STALE) */
    [VO_STMT_UPLOAD_FINAL_CLAIM] =
    "UPDATE uploads SET writer = writer + 1, options = ?3, filename = ?4,"
    " metadata = ?5, parts = ?6, upload_length = ?7, updated_at = ?8,"
    " expires_at = ?9"
    " WHERE upload_id = ?1 AND tenant = ?2 AND concat = 'final'"
    " AND state = 'incomplete'"
    " RETURNING " VO_UPLOAD_COLUMNS,

    /* invariant 14: a partial upload's bytes go to one final upload,
     * only while it lives and is whole */
    [VO_STMT_UPLOAD_PART_TAKE] =
    "DELETE FROM uploads WHERE upload_id = ?1 AND tenant = ?2"
    " AND concat = 'partial' AND state = 'incomplete'"
    " AND upload_offset = upload_length AND expires_at > ?3"
    " AND coalesce(partial_key, '') = ?4",
};


static void vo_upload_read(vo_stmt_t *s, vo_upload_row_t *u);
static void vo_upload_copy(char *dst, size_t size, vo_stmt_t *s, int col);
static void vo_upload_sync_back(vo_ledger_t *l);
static vo_ledger_rc_t vo_upload_take_parts(vo_ledger_t *l,
    const vo_admission_t *a, char *err, size_t err_size);


vo_ledger_rc_t
vo_ledger_upload_create(vo_ledger_t *l, const vo_upload_row_t *u,
    int64_t max_open, int64_t now_ms, vo_upload_row_t *row,
    vo_upload_create_e *outcome, char *forgot, char *err, size_t err_size)
{
    int             found;
    int64_t         open;
    vo_stmt_t      *s;
    vo_ledger_rc_t  lrc;

    forgot[0] = '\0';
    *outcome = VO_UPLOAD_CREATED;

    lrc = vo_ledger_begin(l, err, err_size);
    if (lrc != VO_LEDGER_OK) {
        return lrc;
    }

    for ( ;; ) {

        if (u->has_key) {
            lrc = vo_ledger_upload_by_key(l, u, now_ms, row, &found, forgot,
                                          err, err_size);
            if (lrc != VO_LEDGER_OK) {
                goto failed;
            }

            if (found) {
                *outcome = VO_UPLOAD_EXISTS;
                return vo_ledger_commit(l, err, err_size);
            }
        }

        if (max_open > 0) {
            s = vo_ledger_stmt(l, VO_STMT_UPLOAD_OPEN_COUNT, err, err_size);
            if (s == NULL) {
                lrc = VO_LEDGER_ERROR;
                goto failed;
            }

            vo_bind_text(s, 1, u->tenant, -1);
            vo_bind_int(s, 2, now_ms);

            if (vo_step(s) != VO_ROW) {
                snprintf(err, err_size, "count uploads: %s",
                         vo_ledger_errmsg(l));
                vo_reset(s);
                lrc = VO_LEDGER_ERROR;
                goto failed;
            }

            open = vo_column_int64(s, 0);
            vo_reset(s);

            if (open >= max_open) {
                *outcome = VO_UPLOAD_TOO_MANY;
                vo_ledger_rollback(l);
                return VO_LEDGER_OK;
            }
        }

        lrc = vo_ledger_upload_insert(l, u, u->length, now_ms, err,
                                      err_size);
        if (lrc != VO_LEDGER_OK) {
            goto failed;
        }

        if (vo_ledger_changes(l) == 1) {
            break;
        }

        if (!u->has_key) {
            snprintf(err, err_size, "upload %s exists already", u->upload_id);
            lrc = VO_LEDGER_ERROR;
            goto failed;
        }

        /* another creation of the key committed meanwhile: find it */
    }

    *row = *u;
    row->offset = 0;
    row->created_at = now_ms;
    row->updated_at = now_ms;

    lrc = vo_ledger_upload_event(l, now_ms, NULL, u->tenant,
                                 "upload_created", u->upload_id, u->protocol,
                                 err, err_size);
    if (lrc != VO_LEDGER_OK) {
        goto failed;
    }

    return vo_ledger_commit(l, err, err_size);

failed:

    vo_ledger_rollback(l);

    return lrc;
}


/*
 * Inserts u with this length (-1: not known yet), nothing when another
 * creation of its key was first (vo_ledger_changes() says which).
 */

vo_ledger_rc_t
vo_ledger_upload_insert(vo_ledger_t *l, const vo_upload_row_t *u,
    int64_t length, int64_t now_ms, char *err, size_t err_size)
{
    vo_stmt_t  *s;

    s = vo_ledger_stmt(l, VO_STMT_UPLOAD_INSERT, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    vo_bind_text(s, 1, u->upload_id, -1);
    vo_bind_text(s, 2, u->tenant, -1);
    vo_bind_text(s, 3, u->has_key ? u->key : NULL, -1);
    vo_bind_text(s, 4, u->protocol, -1);
    vo_bind_text(s, 5, u->options, -1);
    vo_bind_text(s, 6, u->filename[0] ? u->filename : NULL, -1);

    if (length >= 0) {
        vo_bind_int(s, 7, length);

    } else {
        vo_bind_null(s, 7);
    }

    vo_bind_int(s, 8, now_ms);
    vo_bind_int(s, 9, u->expires_at);
    vo_bind_text(s, 10, u->metadata[0] ? u->metadata : NULL, -1);
    vo_bind_text(s, 11, u->concat[0] ? u->concat : NULL, -1);
    vo_bind_text(s, 12, u->partial_key[0] ? u->partial_key : NULL, -1);
    vo_bind_text(s, 13, u->parts[0] ? u->parts : NULL, -1);

    return vo_ledger_step_done(l, s, "insert upload", err, err_size);
}


/*
 * The key's upload, if it lives (*found): completed, or not expired; an
 * expired one (the janitor has not been by) is forgotten, *forgot names
 * it: the key is new intent.  Inside the caller's transaction.
 */

vo_ledger_rc_t
vo_ledger_upload_by_key(vo_ledger_t *l, const vo_upload_row_t *u,
    int64_t now_ms, vo_upload_row_t *row, int *found, char *forgot,
    char *err, size_t err_size)
{
    vo_stmt_t      *s;
    vo_ledger_rc_t  lrc;

    s = vo_ledger_stmt(l, VO_STMT_UPLOAD_BY_KEY, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    vo_bind_text(s, 1, u->tenant, -1);
    vo_bind_text(s, 2, u->key, -1);

    lrc = vo_ledger_upload_one(l, s, row, found, "find upload by key", err,
                               err_size);

    if (lrc != VO_LEDGER_OK || !*found
        || row->completed || row->expires_at > now_ms)
    {
        return lrc;
    }

    *found = 0;

    s = vo_ledger_stmt(l, VO_STMT_UPLOAD_FORGET, err, err_size);
    if (s != NULL) {
        vo_bind_text(s, 1, row->upload_id, -1);
        vo_bind_int(s, 2, now_ms);
    }

    lrc = vo_ledger_step_done(l, s, "forget expired upload", err, err_size);
    if (lrc == VO_LEDGER_OK) {
        snprintf(forgot, 33, "%s", row->upload_id);
    }

    return lrc;
}


vo_ledger_rc_t
vo_ledger_upload_get(vo_ledger_t *l, const char *tenant, size_t tenant_len,
    const char *upload_id, int64_t now_ms, vo_upload_row_t *row, char *err,
    size_t err_size)
{
    int             found;
    vo_stmt_t      *s;
    vo_ledger_rc_t  lrc;

    s = vo_ledger_stmt(l, VO_STMT_UPLOAD_GET, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    vo_bind_text(s, 1, upload_id, -1);
    vo_bind_text(s, 2, tenant, (int) tenant_len);

    lrc = vo_ledger_upload_one(l, s, row, &found, "read upload", err, err_size);
    if (lrc != VO_LEDGER_OK) {
        return lrc;
    }

    if (!found || (!row->completed && row->expires_at <= now_ms)) {
        return VO_LEDGER_NOT_FOUND;
    }

    return VO_LEDGER_OK;
}


vo_ledger_rc_t
vo_ledger_upload_claim(vo_ledger_t *l, const char *tenant, size_t tenant_len,
    const char *upload_id, int64_t offset, int64_t now_ms,
    vo_upload_row_t *row, char *err, size_t err_size)
{
    int             found;
    vo_stmt_t      *s;
    vo_ledger_rc_t  lrc;

    /*
     * The claim need not be durable: after a crash no append of before
     * it is alive, and the token only has to grow while they are.  So it
     * costs no flush: the next durable commit writes it out with its own
     * (SQLite: synchronous=NORMAL for this one; PostgreSQL:
     * synchronous_commit off for this transaction).
     */

    if (!l->be->locks_rows && l->sync_full
        && vo_ledger_exec(l, "PRAGMA synchronous=NORMAL", err, err_size)
           != VO_LEDGER_OK)
    {
        return VO_LEDGER_ERROR;
    }

    lrc = vo_ledger_begin(l, err, err_size);

    if (lrc == VO_LEDGER_OK && l->be->locks_rows) {
        lrc = vo_ledger_exec(l, "SET LOCAL synchronous_commit TO off", err,
                             err_size);
    }

    s = lrc == VO_LEDGER_OK ? vo_ledger_stmt(l, VO_STMT_UPLOAD_CLAIM, err,
                                             err_size)
                            : NULL;
    if (s == NULL) {
        vo_ledger_rollback(l);
        vo_upload_sync_back(l);
        return lrc == VO_LEDGER_OK ? VO_LEDGER_ERROR : lrc;
    }

    vo_bind_text(s, 1, upload_id, -1);
    vo_bind_text(s, 2, tenant, (int) tenant_len);
    vo_bind_int(s, 3, offset);
    vo_bind_int(s, 4, now_ms);

    lrc = vo_ledger_upload_one(l, s, row, &found, "claim upload", err,
                               err_size);

    if (lrc == VO_LEDGER_OK) {
        lrc = vo_ledger_commit(l, err, err_size);

    } else {
        vo_ledger_rollback(l);
    }

    vo_upload_sync_back(l);

    if (lrc != VO_LEDGER_OK || found) {
        return lrc;
    }

    /* why not: another offset, completed, or no such upload */

    lrc = vo_ledger_upload_get(l, tenant, tenant_len, upload_id, now_ms, row,
                               err, err_size);

    return lrc == VO_LEDGER_OK ? VO_LEDGER_NOT_READY : lrc;
}


vo_ledger_rc_t
vo_ledger_upload_lock(vo_ledger_t *l, const char *upload_id,
    vo_upload_row_t *row, char *err, size_t err_size)
{
    int             found;
    vo_stmt_t      *s;
    vo_ledger_rc_t  lrc;

    if (l->be->locks_rows) {
        lrc = vo_ledger_begin(l, err, err_size);
        if (lrc != VO_LEDGER_OK) {
            return lrc;
        }
    }

    s = vo_ledger_stmt(l, VO_STMT_UPLOAD_LOCK, err, err_size);
    if (s == NULL) {
        vo_ledger_rollback(l);
        return VO_LEDGER_ERROR;
    }

    vo_bind_text(s, 1, upload_id, -1);

    lrc = vo_ledger_upload_one(l, s, row, &found, "lock upload", err, err_size);

    if (lrc == VO_LEDGER_OK && !found) {
        lrc = VO_LEDGER_NOT_FOUND;
    }

    if (lrc != VO_LEDGER_OK) {
        vo_ledger_rollback(l);
    }

    return lrc;
}


vo_ledger_rc_t
vo_ledger_upload_advance(vo_ledger_t *l, const vo_upload_row_t *row,
    int64_t old_offset, int64_t now_ms, int64_t ttl_ms, char *err,
    size_t err_size)
{
    vo_stmt_t      *s;
    vo_ledger_rc_t  lrc;

    if (!l->be->in_transaction(l)) {
        lrc = vo_ledger_begin(l, err, err_size);
        if (lrc != VO_LEDGER_OK) {
            return lrc;
        }
    }

    s = vo_ledger_stmt(l, VO_STMT_UPLOAD_ADVANCE, err, err_size);
    if (s != NULL) {
        vo_bind_text(s, 1, row->upload_id, -1);
        vo_bind_int(s, 2, row->offset);

        if (row->length >= 0) {
            vo_bind_int(s, 3, row->length);

        } else {
            vo_bind_null(s, 3);
        }

        vo_bind_text(s, 4, row->sha256_state, -1);
        vo_bind_text(s, 5, row->container[0] ? row->container : NULL, -1);
        vo_bind_int(s, 6, now_ms);
        vo_bind_int(s, 7, now_ms + ttl_ms);
        vo_bind_int(s, 8, row->writer);
        vo_bind_int(s, 9, old_offset);
    }

    lrc = vo_ledger_step_done(l, s, "advance upload", err, err_size);

    if (lrc == VO_LEDGER_OK && vo_ledger_changes(l) == 0) {
        snprintf(err, err_size, "upload %s: another append took it over, or "
                 "it was deleted or completed", row->upload_id);
        lrc = VO_LEDGER_STALE;
    }

    if (lrc != VO_LEDGER_OK) {
        vo_ledger_rollback(l);
        return lrc;
    }

    return vo_ledger_commit(l, err, err_size);
}


void
vo_ledger_upload_unlock(vo_ledger_t *l)
{
    vo_ledger_rollback(l);
}


vo_ledger_rc_t
vo_ledger_upload_delete(vo_ledger_t *l, const char *tenant,
    size_t tenant_len, const char *upload_id, int64_t now_ms,
    vo_upload_row_t *row, char *err, size_t err_size)
{
    int             found;
    vo_stmt_t      *s;
    vo_ledger_rc_t  lrc;

    lrc = vo_ledger_begin(l, err, err_size);
    if (lrc != VO_LEDGER_OK) {
        return lrc;
    }

    s = vo_ledger_stmt(l, VO_STMT_UPLOAD_DELETE, err, err_size);
    if (s == NULL) {
        vo_ledger_rollback(l);
        return VO_LEDGER_ERROR;
    }

    vo_bind_text(s, 1, upload_id, -1);
    vo_bind_text(s, 2, tenant, (int) tenant_len);

    lrc = vo_ledger_upload_one(l, s, row, &found, "delete upload", err,
                               err_size);

    if (lrc == VO_LEDGER_OK && !found) {
        lrc = VO_LEDGER_NOT_FOUND;
    }

    if (lrc == VO_LEDGER_OK && !row->completed) {
        lrc = vo_ledger_upload_event(l, now_ms, NULL, row->tenant,
                                     "upload_deleted", upload_id,
                                     row->protocol, err, err_size);
    }

    if (lrc != VO_LEDGER_OK) {
        vo_ledger_rollback(l);
        return lrc;
    }

    return vo_ledger_commit(l, err, err_size);
}


vo_ledger_rc_t
vo_ledger_uploads_due(vo_ledger_t *l, int64_t now_ms, char (*ids)[33],
    int *completed, size_t max, size_t *n, char *err, size_t err_size)
{
    int             rc;
    const char     *st;
    vo_stmt_t      *s;

    *n = 0;
    rc = VO_DONE;

    s = vo_ledger_stmt(l, VO_STMT_UPLOADS_DUE, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    vo_bind_int(s, 1, now_ms);
    vo_bind_int(s, 2, (int64_t) max);

    while (*n < max && (rc = vo_step(s)) == VO_ROW) {
        vo_upload_copy(ids[*n], 33, s, 0);
        st = vo_column_text(s, 1);
        completed[*n] = st != NULL && strcmp(st, "completed") == 0;
        (*n)++;
    }

    if (*n < max && rc != VO_DONE) {
        snprintf(err, err_size, "uploads due: %s", vo_ledger_errmsg(l));
        vo_reset(s);
        return vo_ledger_rc(rc);
    }

    vo_reset(s);

    return VO_LEDGER_OK;
}


vo_ledger_rc_t
vo_ledger_upload_expire(vo_ledger_t *l, const char *upload_id,
    int64_t now_ms, int *gone, char *err, size_t err_size)
{
    int             rc, incomplete;
    char            tenant[VO_TENANT_MAX + 1];
    const char     *st;
    vo_stmt_t      *s;
    vo_ledger_rc_t  lrc;

    *gone = 0;

    lrc = vo_ledger_begin(l, err, err_size);
    if (lrc != VO_LEDGER_OK) {
        return lrc;
    }

    s = vo_ledger_stmt(l, VO_STMT_UPLOAD_EXPIRE, err, err_size);
    if (s == NULL) {
        vo_ledger_rollback(l);
        return VO_LEDGER_ERROR;
    }

    vo_bind_text(s, 1, upload_id, -1);
    vo_bind_int(s, 2, now_ms);

    rc = vo_step(s);
    incomplete = 0;

    if (rc == VO_ROW) {
        *gone = 1;
        st = vo_column_text(s, 0);
        incomplete = st != NULL && strcmp(st, "incomplete") == 0;
        vo_upload_copy(tenant, sizeof(tenant), s, 1);
        rc = vo_step(s);
    }

    vo_reset(s);

    if (rc != VO_DONE) {
        snprintf(err, err_size, "expire upload %s: %s", upload_id,
                 vo_ledger_errmsg(l));
        vo_ledger_rollback(l);
        return vo_ledger_rc(rc);
    }

    if (incomplete) {
        lrc = vo_ledger_upload_event(l, now_ms, NULL, tenant,
                                     "upload_expired", upload_id, NULL, err,
                                     err_size);
        if (lrc != VO_LEDGER_OK) {
            vo_ledger_rollback(l);
            return lrc;
        }
    }

    return vo_ledger_commit(l, err, err_size);
}


vo_ledger_rc_t
vo_ledger_upload_exists(vo_ledger_t *l, const char *upload_id, int *exists,
    char *err, size_t err_size)
{
    int             rc;
    vo_stmt_t      *s;
    vo_ledger_rc_t  lrc;

    s = vo_ledger_stmt(l, VO_STMT_UPLOAD_EXISTS, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    vo_bind_text(s, 1, upload_id, -1);

    rc = vo_step(s);
    lrc = VO_LEDGER_OK;

    if (rc == VO_ROW || rc == VO_DONE) {
        *exists = (rc == VO_ROW);

    } else {
        snprintf(err, err_size, "upload %s: %s", upload_id,
                 vo_ledger_errmsg(l));
        lrc = vo_ledger_rc(rc);
    }

    vo_reset(s);

    return lrc;
}


/*
 * The upload's part of the admission that completes it (called by
 * vo_ledger_admit.c inside the item's savepoint): before, the mark that
 * only the completing writer of a still incomplete upload may make
 * (STALE otherwise: another request completed it, or took it over), and
 * for a tus final upload, its partial uploads taken (invariant 14:
 * NOT_FOUND, naming the first that is no longer there, whole and live);
 * after, the job it became, or, when its bytes are not the key's (422),
 * the row goes, as a refused POST leaves nothing.  a->upload_id is NULL
 * when partial uploads are joined for a key whose upload is completed
 * already: only they are taken.
 */

vo_ledger_rc_t
vo_ledger_upload_completing(vo_ledger_t *l, const vo_admission_t *a,
    char *err, size_t err_size)
{
    vo_stmt_t      *s;
    vo_ledger_rc_t  lrc;

    if (a->upload_id != NULL) {
        s = vo_ledger_stmt(l, VO_STMT_UPLOAD_COMPLETING, err, err_size);
        if (s != NULL) {
            vo_bind_text(s, 1, a->upload_id, -1);
            vo_bind_int(s, 2, a->upload_writer);
            vo_bind_int(s, 3, a->now_ms);
        }

        lrc = vo_ledger_step_done(l, s, "complete upload", err, err_size);

        if (lrc == VO_LEDGER_OK && vo_ledger_changes(l) == 0) {
            snprintf(err, err_size, "upload %s was completed or taken over "
                     "by another request", a->upload_id);
            return VO_LEDGER_STALE;
        }

        if (lrc != VO_LEDGER_OK) {
            return lrc;
        }
    }

    return a->upload_parts ? vo_upload_take_parts(l, a, err, err_size)
                           : VO_LEDGER_OK;
}


/*
 * Invariant 14: each partial upload of a->upload_parts deleted, if it is
 * still the tenant's, of the key, whole and live, with an upload_joined
 * event; NOT_FOUND naming the first that is not.
 */

static vo_ledger_rc_t
vo_upload_take_parts(vo_ledger_t *l, const vo_admission_t *a, char *err,
    size_t err_size)
{
    char            id[33], key[VO_KEY_BUF];
    const char     *p;
    vo_stmt_t      *s;
    vo_ledger_rc_t  lrc;

    snprintf(key, sizeof(key), "%.*s", a->key ? (int) a->key_len : 0,
             a->key ? a->key : "");

    for (p = a->upload_parts; *p; p += p[32] ? 33 : 32) {
        snprintf(id, sizeof(id), "%.32s", p);

        s = vo_ledger_stmt(l, VO_STMT_UPLOAD_PART_TAKE, err, err_size);
        if (s != NULL) {
            vo_bind_text(s, 1, id, -1);
            vo_bind_text(s, 2, a->tenant, (int) a->tenant_len);
            vo_bind_int(s, 3, a->now_ms);
            vo_bind_text(s, 4, key, -1);
        }

        lrc = vo_ledger_step_done(l, s, "take partial upload", err,
                                  err_size);
        if (lrc != VO_LEDGER_OK) {
            return lrc;
        }

        if (vo_ledger_changes(l) == 0) {
            snprintf(err, err_size, "%s", id);
            return VO_LEDGER_NOT_FOUND;
        }

        /* what became of it, for the uploads' counts */

        lrc = vo_ledger_upload_event(l, a->now_ms, NULL, a->tenant,
                                     "upload_joined", id, NULL, err,
                                     err_size);
        if (lrc != VO_LEDGER_OK) {
            return lrc;
        }
    }

    return VO_LEDGER_OK;
}


vo_ledger_rc_t
vo_ledger_upload_admitted(vo_ledger_t *l, const vo_admission_t *a,
    const vo_receipt_t *r, char *err, size_t err_size)
{
    int              found;
    vo_stmt_t       *s;
    vo_ledger_rc_t   lrc;
    vo_upload_row_t  row;

    if (r->outcome == VO_ADMIT_MISMATCH) {
        s = vo_ledger_stmt(l, VO_STMT_UPLOAD_DELETE, err, err_size);
        if (s == NULL) {
            return VO_LEDGER_ERROR;
        }

        vo_bind_text(s, 1, a->upload_id, -1);
        vo_bind_text(s, 2, a->tenant, (int) a->tenant_len);

        lrc = vo_ledger_upload_one(l, s, &row, &found, "drop upload", err,
                                   err_size);
        if (lrc != VO_LEDGER_OK) {
            return lrc;
        }

        return vo_ledger_upload_event(l, a->now_ms, r->job_id, a->tenant,
                                      "upload_refused", a->upload_id, NULL,
                                      err, err_size);
    }

    s = vo_ledger_stmt(l, VO_STMT_UPLOAD_ADMITTED, err, err_size);
    if (s != NULL) {
        vo_bind_text(s, 1, a->upload_id, -1);
        vo_bind_text(s, 2, r->job_id, -1);
        vo_bind_text(s, 3, a->input_digest, -1);
        vo_bind_int(s, 4, r->expires_at >= 0 ? r->expires_at
                                             : a->now_ms + a->receipt_ttl_ms);
    }

    lrc = vo_ledger_step_done(l, s, "record upload's job", err, err_size);
    if (lrc != VO_LEDGER_OK) {
        return lrc;
    }

    return vo_ledger_upload_event(l, a->now_ms, r->job_id, a->tenant,
                                  "upload_completed", a->upload_id, NULL,
                                  err, err_size);
}


/* Steps s, which returns at most one upload row, to its end. */

vo_ledger_rc_t
vo_ledger_upload_one(vo_ledger_t *l, vo_stmt_t *s, vo_upload_row_t *u,
    int *found, const char *what, char *err, size_t err_size)
{
    int  rc;

    *found = 0;

    rc = vo_step(s);

    if (rc == VO_ROW) {
        *found = 1;
        vo_upload_read(s, u);
        rc = vo_step(s);
    }

    vo_reset(s);

    if (rc != VO_DONE) {
        snprintf(err, err_size, "%s: %s", what, vo_ledger_errmsg(l));
        return vo_ledger_rc(rc);
    }

    return VO_LEDGER_OK;
}


static void
vo_upload_read(vo_stmt_t *s, vo_upload_row_t *u)
{
    const char  *st;

    memset(u, 0, sizeof(vo_upload_row_t));

    vo_upload_copy(u->upload_id, sizeof(u->upload_id), s, 0);
    u->has_key = !vo_column_null(s, 1);
    vo_upload_copy(u->key, sizeof(u->key), s, 1);
    vo_upload_copy(u->protocol, sizeof(u->protocol), s, 2);
    vo_upload_copy(u->options, sizeof(u->options), s, 3);
    vo_upload_copy(u->filename, sizeof(u->filename), s, 4);
    u->offset = vo_column_int64(s, 5);
    u->length = vo_ledger_int_or(s, 6, -1);
    vo_upload_copy(u->sha256_state, sizeof(u->sha256_state), s, 7);
    vo_upload_copy(u->container, sizeof(u->container), s, 8);
    u->writer = vo_column_int64(s, 9);
    st = vo_column_text(s, 10);
    u->completed = st != NULL && strcmp(st, "completed") == 0;
    vo_upload_copy(u->job_id, sizeof(u->job_id), s, 11);
    vo_upload_copy(u->input_digest, sizeof(u->input_digest), s, 12);
    u->created_at = vo_column_int64(s, 13);
    u->updated_at = vo_column_int64(s, 14);
    u->expires_at = vo_column_int64(s, 15);
    vo_upload_copy(u->tenant, sizeof(u->tenant), s, 16);
    vo_upload_copy(u->metadata, sizeof(u->metadata), s, 17);
    vo_upload_copy(u->concat, sizeof(u->concat), s, 18);
    vo_upload_copy(u->partial_key, sizeof(u->partial_key), s, 19);
    vo_upload_copy(u->parts, sizeof(u->parts), s, 20);
}


/* After a claim: SQLite commits with synchronous=FULL again. */

static void
vo_upload_sync_back(vo_ledger_t *l)
{
    char  err[64];

    if (!l->be->locks_rows && l->sync_full) {
        (void) vo_ledger_exec(l, "PRAGMA synchronous=FULL", err, sizeof(err));
    }
}


static void
vo_upload_copy(char *dst, size_t size, vo_stmt_t *s, int col)
{
    const char  *v;

    v = vo_column_null(s, col) ? NULL : vo_column_text(s, col);

    snprintf(dst, size, "%s", v ? v : "");
}


vo_ledger_rc_t
vo_ledger_upload_event(vo_ledger_t *l, int64_t at, const char *job_id,
    const char *tenant, const char *kind, const char *upload_id,
    const char *protocol, char *err, size_t err_size)
{
    char  detail[128];

    if (protocol != NULL) {
        snprintf(detail, sizeof(detail),
                 "{\"upload_id\":\"%s\",\"protocol\":\"%s\"}", upload_id,
                 protocol);

    } else {
        snprintf(detail, sizeof(detail), "{\"upload_id\":\"%s\"}",
                 upload_id);
    }

    return vo_ledger_event(l, at, job_id, tenant,
                           tenant ? strlen(tenant) : 0, kind, 0, detail, err,
                           err_size);
}
