/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * tus concatenation in the ledger: a final upload's creation, which
 * finds or makes its row and checks the partial uploads it names
 * (invariant 14 of sql/schema.sql).  The admission that completes the
 * final upload takes them (vo_ledger_upload_completing).  The nginx
 * module alone links this file: the worker never joins uploads.
 */

#include <stdio.h>
#include <string.h>

#include "vo_ledger.h"
#include "vo_ledger_int.h"


static vo_ledger_rc_t vo_final_parts(vo_ledger_t *l, const vo_upload_row_t *u,
    int64_t now_ms, vo_upload_final_t *f, char *err, size_t err_size);
static vo_ledger_rc_t vo_final_claim(vo_ledger_t *l, const vo_upload_row_t *u,
    int64_t total, int64_t now_ms, vo_upload_row_t *row, char *err,
    size_t err_size);
static vo_ledger_rc_t vo_final_insert(vo_ledger_t *l,
    const vo_upload_row_t *u, int64_t total, int64_t now_ms, int *inserted,
    char *err, size_t err_size);


vo_ledger_rc_t
vo_ledger_upload_final(vo_ledger_t *l, const vo_upload_row_t *u,
    int64_t now_ms, vo_upload_final_t *f, vo_upload_row_t *row, char *err,
    size_t err_size)
{
    int             found, inserted;
    vo_ledger_rc_t  lrc;

    f->forgot[0] = '\0';
    found = 0;

    lrc = vo_ledger_begin(l, err, err_size);
    if (lrc != VO_LEDGER_OK) {
        return lrc;
    }

    for ( ;; ) {

        if (u->has_key) {
            lrc = vo_ledger_upload_by_key(l, u, now_ms, row, &found,
                                          f->forgot, err, err_size);
            if (lrc != VO_LEDGER_OK) {
                goto failed;
            }
        }

        if (found && row->completed && strcmp(row->concat, "final") == 0
            && strcmp(row->parts, u->parts) == 0)
        {
            /* made already: its partial uploads are taken, its receipt
             * answers */
            f->outcome = VO_FINAL_DONE;
            return vo_ledger_commit(l, err, err_size);
        }

        if (found && !row->completed && strcmp(row->concat, "final") != 0) {
            f->outcome = VO_FINAL_KEY_TAKEN;
            vo_ledger_rollback(l);
            return VO_LEDGER_OK;
        }

        lrc = vo_final_parts(l, u, now_ms, f, err, err_size);
        if (lrc != VO_LEDGER_OK) {
            goto failed;
        }

        if (f->outcome != VO_FINAL_JOIN) {
            vo_ledger_rollback(l);
            return VO_LEDGER_OK;
        }

        if (found && row->completed) {
            f->outcome = VO_FINAL_AGAIN;
            return vo_ledger_commit(l, err, err_size);
        }

        if (found) {
            lrc = vo_final_claim(l, u, f->length, now_ms, row, err,
                                 err_size);
            if (lrc != VO_LEDGER_OK) {
                goto failed;
            }

            /* the parts, name and metadata are this request's */
            break;
        }

        lrc = vo_final_insert(l, u, f->length, now_ms, &inserted, err,
                              err_size);
        if (lrc != VO_LEDGER_OK) {
            goto failed;
        }

        if (inserted) {
            *row = *u;
            row->length = f->length;
            row->created_at = now_ms;
            row->updated_at = now_ms;
            break;
        }

        /* another creation of the key committed meanwhile: find it */
    }

    return vo_ledger_commit(l, err, err_size);

failed:

    vo_ledger_rollback(l);

    return lrc;
}


/*
 * The partial uploads: each the tenant's, made with Upload-Concat:
 * partial for u's key, live and whole, and all of them not longer than
 * f->max_length.  f->outcome is JOIN when they are, and their lengths'
 * sum is in f->length.
 */

static vo_ledger_rc_t
vo_final_parts(vo_ledger_t *l, const vo_upload_row_t *u, int64_t now_ms,
    vo_upload_final_t *f, char *err, size_t err_size)
{
    int              found;
    size_t           i;
    vo_stmt_t       *s;
    vo_ledger_rc_t   lrc;
    vo_upload_row_t  p;

    f->length = 0;
    f->outcome = VO_FINAL_BAD_PART;

    for (i = 0; i < f->n; i++) {
        f->bad = i;

        s = vo_ledger_stmt(l, VO_STMT_UPLOAD_GET, err, err_size);
        if (s == NULL) {
            return VO_LEDGER_ERROR;
        }

        vo_bind_text(s, 1, f->ids[i], -1);
        vo_bind_text(s, 2, u->tenant, -1);

        lrc = vo_ledger_upload_one(l, s, &p, &found, "read partial upload",
                                   err, err_size);
        if (lrc != VO_LEDGER_OK) {
            return lrc;
        }

        if (!found || p.completed || p.expires_at <= now_ms) {
            f->why = VO_PART_GONE;
            return VO_LEDGER_OK;
        }

        if (strcmp(p.concat, "partial") != 0) {
            f->why = VO_PART_NOT_PARTIAL;
            return VO_LEDGER_OK;
        }

        if (strcmp(p.partial_key, u->has_key ? u->key : "") != 0) {
            f->why = VO_PART_OTHER_KEY;
            return VO_LEDGER_OK;
        }

        if (p.length < 0 || p.offset != p.length) {
            f->why = VO_PART_UNFINISHED;
            return VO_LEDGER_OK;
        }

        f->parts[i].length = p.length;
        memcpy(f->parts[i].sha256_state, p.sha256_state,
               sizeof(f->parts[i].sha256_state));
        f->length += p.length;
    }

    f->bad = f->n;
    f->outcome = (f->max_length > 0 && f->length > f->max_length)
                 ? VO_FINAL_TOO_LONG : VO_FINAL_JOIN;

    return VO_LEDGER_OK;
}


/*
 * An incomplete final upload of the key (*row) made again: u's parts,
 * name, metadata and options, under a new writer token; *row becomes
 * the upload as it is now.
 */

static vo_ledger_rc_t
vo_final_claim(vo_ledger_t *l, const vo_upload_row_t *u, int64_t total,
    int64_t now_ms, vo_upload_row_t *row, char *err, size_t err_size)
{
    int             found;
    char            id[33];
    vo_stmt_t      *s;
    vo_ledger_rc_t  lrc;

    snprintf(id, sizeof(id), "%s", row->upload_id);

    s = vo_ledger_stmt(l, VO_STMT_UPLOAD_FINAL_CLAIM, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    vo_bind_text(s, 1, id, -1);
    vo_bind_text(s, 2, u->tenant, -1);
    vo_bind_text(s, 3, u->options, -1);
    vo_bind_text(s, 4, u->filename[0] ? u->filename : NULL, -1);
    vo_bind_text(s, 5, u->metadata[0] ? u->metadata : NULL, -1);
    vo_bind_text(s, 6, u->parts, -1);
    vo_bind_int(s, 7, total);
    vo_bind_int(s, 8, now_ms);
    vo_bind_int(s, 9, u->expires_at);

    lrc = vo_ledger_upload_one(l, s, row, &found, "claim final upload", err,
                               err_size);

    if (lrc == VO_LEDGER_OK && !found) {
        snprintf(err, err_size, "final upload %s: gone while claimed", id);
        lrc = VO_LEDGER_BUSY;
    }

    return lrc;
}


/* A new final upload, of the length of its partial uploads. */

static vo_ledger_rc_t
vo_final_insert(vo_ledger_t *l, const vo_upload_row_t *u, int64_t total,
    int64_t now_ms, int *inserted, char *err, size_t err_size)
{
    vo_ledger_rc_t  lrc;

    lrc = vo_ledger_upload_insert(l, u, total, now_ms, err, err_size);
    if (lrc != VO_LEDGER_OK) {
        return lrc;
    }

    *inserted = (vo_ledger_changes(l) == 1);

    if (!*inserted) {
        return VO_LEDGER_OK;
    }

    return vo_ledger_upload_event(l, now_ms, NULL, u->tenant,
                                  "upload_created", u->upload_id,
                                  u->protocol, err, err_size);
}
