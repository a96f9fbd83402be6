/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * tus concatenation: a client sends a video as several partial uploads
 * at once (Upload-Concat: partial; appended as any upload is), then
 * creates the final upload (Upload-Concat: final;<their URLs>), whose
 * completion is the ordinary admission of the bytes joined in order.
 * One task does it, so that nothing of it waits on another request:
 *
 *   ledger:  the key's upload found or the final upload's row made (or,
 *            made before and not completed, claimed again), and the
 *            partial uploads checked: the tenant's, of the final upload's
 *            key, live and whole (vo_ledger_upload_final); a retry of a
 *            completed final upload answers its receipt;
 *   join:    the partial files copied, in order, into the job's input
 *            file (copy_file_range: a reflink, no copy, where the
 *            filesystem shares blocks; FICLONE for the first); the
 *            SHA-256 goes on from the first partial upload's saved
 *            state over the others' bytes, so the first is not read
 *            again, and the digest is the one of the whole byte stream,
 *            exactly as a POST of those bytes would have it;
 *   admit:   the admission as for a POST (ngx_http_video_ocr_admit_group)
 *            completes the final upload and takes its partial uploads in
 *            its transaction (invariant 14): one that expired or was
 *            deleted meanwhile fails it, naming that one.  Then the
 *            partial files go.
 *
 * concatenation-unfinished (a final upload made before its partial
 * uploads are complete) is not supported: the final upload's request is
 * where the receipt is answered, so its bytes must all be there.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE                     /* copy_file_range() */
#endif

#include <sys/ioctl.h>
#include <linux/fs.h>                   /* FICLONE */

#include "ngx_http_video_ocr_resumable.h"


static void ngx_http_video_ocr_concat_done(ngx_http_request_t *r);
static void ngx_http_video_ocr_concat_refused(ngx_http_request_t *r,
    ngx_http_video_ocr_concat_t *c);
static void ngx_http_video_ocr_concat_admitted(ngx_http_request_t *r,
    ngx_http_video_ocr_concat_t *c);
static void ngx_http_video_ocr_concat_thread(ngx_http_video_ocr_task_t *t);
static void ngx_http_video_ocr_concat_join(ngx_http_video_ocr_task_t *t,
    ngx_http_video_ocr_concat_t *c, vo_ledger_t *l);
static int ngx_http_video_ocr_concat_copy(ngx_http_video_ocr_task_t *t,
    ngx_http_video_ocr_concat_t *c, int out, SHA256_CTX *sha);
static void ngx_http_video_ocr_concat_gone(ngx_http_video_ocr_task_t *t,
    ngx_http_video_ocr_concat_t *c, vo_ledger_t *l);
static void ngx_http_video_ocr_concat_drop(ngx_http_video_ocr_task_t *t,
    ngx_http_video_ocr_concat_t *c, vo_ledger_t *l);
static void ngx_http_video_ocr_concat_remove(ngx_http_video_ocr_task_t *t,
    ngx_http_video_ocr_concat_t *c);


ngx_int_t
ngx_http_video_ocr_concat_final(ngx_http_request_t *r)
{
    u_char                       *p;
    size_t                        i;
    ngx_thread_task_t            *task;
    ngx_http_video_ocr_up_t      *up;
    ngx_http_video_ocr_ctx_t     *ctx;
    ngx_http_video_ocr_task_t    *t;
    ngx_http_core_loc_conf_t     *clcf;
    ngx_http_video_ocr_concat_t  *c;

    ctx = ngx_http_get_module_ctx(r, ngx_http_video_ocr_module);
    up = ctx->up;
    clcf = ngx_http_get_module_loc_conf(r, ngx_http_core_module);

    c = ngx_pcalloc(r->pool, sizeof(ngx_http_video_ocr_concat_t));
    if (c == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    /* "id id id": the row's parts, which a retry is compared with */

    p = (u_char *) c->parts;

    for (i = 0; i < up->nparts; i++) {
        p = ngx_sprintf(p, i ? " %s" : "%s", up->parts[i]);
    }

    *p = '\0';

    (void) ngx_cpystrn((u_char *) up->row.parts, (u_char *) c->parts,
                       sizeof(up->row.parts));
    ngx_memcpy(up->row.concat, "final", sizeof("final"));

    c->final.ids = up->parts;
    c->final.n = up->nparts;
    c->final.max_length = clcf->client_max_body_size;
    c->final.parts = c->part;
    up->concat = c;

    task = ngx_http_video_ocr_upload_task_new(r,
                                          ngx_http_video_ocr_concat_thread);
    if (task == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    t = task->ctx;
    t->concat = c;

    /* the admission as for a POST; the digest comes with the join */

    if (ngx_http_video_ocr_admission(r, t, NULL, 0) != NGX_OK) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    if (ngx_http_video_ocr_task_post(r, task, ngx_http_video_ocr_concat_done)
        != NGX_OK)
    {
        return ngx_http_video_ocr_upload_reply(r, ctx->outcome, NULL);
    }

    r->main->count++;

    return NGX_DONE;
}


/* Back in the event loop: the final upload's answer. */

static void
ngx_http_video_ocr_concat_done(ngx_http_request_t *r)
{
    ngx_http_video_ocr_up_t      *up;
    ngx_http_video_ocr_ctx_t     *ctx;
    ngx_http_video_ocr_task_t    *t;
    ngx_http_video_ocr_concat_t  *c;

    if (r->aio) {
        return;
    }

    r->write_event_handler = ngx_http_request_empty_handler;

    ctx = ngx_http_get_module_ctx(r, ngx_http_video_ocr_module);
    up = ctx->up;
    t = ctx->task;
    c = t->concat;

    if (t->store_rc != VO_STORE_OK) {
        ngx_log_error(NGX_LOG_CRIT, r->connection->log, 0,
                      "video_ocr: final upload %s: %s", up->id, t->err);
        ngx_http_video_ocr_upload_end(r,
            t->store_rc == VO_STORE_FULL ? NGX_HTTP_VIDEO_OCR_DISK_FULL
                                         : NGX_HTTP_VIDEO_OCR_INTERNAL,
            "the partial uploads could not be joined");
        return;
    }

    if (t->ledger_rc != VO_LEDGER_OK) {
        ngx_http_finalize_request(r,
            ngx_http_video_ocr_ledger_reply(r, t->ledger_rc,
                "the final upload could not be recorded", t->err));
        return;
    }

    if (c->final.outcome == VO_FINAL_DONE || t->up_stale) {
        up->row = t->up;
        ngx_memcpy(up->id, up->row.upload_id, VO_UPLOAD_ID_LEN + 1);

        if (!up->row.completed) {
            /* another request made it again meanwhile, and joins it */
            ngx_http_video_ocr_upload_end(r,
                NGX_HTTP_VIDEO_OCR_UPLOAD_SUPERSEDED, NULL);
            return;
        }

        ngx_http_finalize_request(r, ngx_http_video_ocr_upload_replay(r));
        return;
    }

    if (c->final.outcome != VO_FINAL_JOIN
        && c->final.outcome != VO_FINAL_AGAIN)
    {
        ngx_http_video_ocr_concat_refused(r, c);
        return;
    }

    if (c->gone || c->refused) {
        ngx_http_video_ocr_concat_refused(r, c);
        return;
    }

    ngx_http_video_ocr_concat_admitted(r, c);
}


/* Why the partial uploads were not joined, or not admitted. */

static void
ngx_http_video_ocr_concat_refused(ngx_http_request_t *r,
    ngx_http_video_ocr_concat_t *c)
{
    u_char                   *p;
    ngx_uint_t                outcome;
    const char               *why;
    ngx_http_video_ocr_up_t  *up;
    ngx_http_video_ocr_ctx_t *ctx;

    ctx = ngx_http_get_module_ctx(r, ngx_http_video_ocr_module);
    up = ctx->up;
    up->id[0] = '\0';               /* no upload to tell the client of */

    if (c->refused) {
        ngx_http_video_ocr_upload_end(r, NGX_HTTP_VIDEO_OCR_NOT_A_VIDEO,
            "the joined partial uploads do not start like a video "
            "container: they are removed");
        return;
    }

    switch (c->final.outcome) {

    case VO_FINAL_KEY_TAKEN:
        ngx_http_video_ocr_upload_end(r, NGX_HTTP_VIDEO_OCR_KEY_REUSED,
            "this Idempotency-Key belongs to an upload in progress that is "
            "not this final upload; use a new key for new intent");
        return;

    case VO_FINAL_TOO_LONG:
        ngx_http_video_ocr_upload_end(r, NGX_HTTP_VIDEO_OCR_TOO_LARGE,
            "the partial uploads are more than this endpoint accepts "
            "(Tus-Max-Size, client_max_body_size)");
        return;

    default:
        break;
    }

    if (c->gone) {
        outcome = NGX_HTTP_VIDEO_OCR_PARTIAL_GONE;
        why = "expired or was deleted while the final upload was made: "
              "upload that part again";

    } else if (c->final.why == VO_PART_GONE) {
        outcome = NGX_HTTP_VIDEO_OCR_PARTIAL_GONE;
        why = "is gone (expired, deleted, or never made): upload that part "
              "again";

    } else if (c->final.why == VO_PART_UNFINISHED) {
        outcome = NGX_HTTP_VIDEO_OCR_PARTIAL_UNFINISHED;
        why = "has not all its bytes: make the final upload once every "
              "partial one is complete (concatenation-unfinished is not "
              "supported)";

    } else if (c->final.why == VO_PART_NOT_PARTIAL) {
        outcome = NGX_HTTP_VIDEO_OCR_NOT_PARTIAL;
        why = "was not made with Upload-Concat: partial";

    } else {
        outcome = NGX_HTTP_VIDEO_OCR_NOT_PARTIAL;
        why = "was made for another Idempotency-Key than the final upload's";
    }

    p = ngx_pnalloc(r->pool, 320 + up->base.len);
    if (p == NULL) {
        ngx_http_finalize_request(r, NGX_HTTP_INTERNAL_SERVER_ERROR);
        return;
    }

    (void) ngx_snprintf(p, 320 + up->base.len, "the partial upload %V/%s "
                        "%s%Z", &up->base, c->final.ids[c->final.bad], why);

    ngx_log_error(NGX_LOG_INFO, r->connection->log, 0,
                  "video_ocr: final upload refused: %s", p);

    ngx_http_video_ocr_upload_end(r, outcome, (char *) p);
}


/* The admission decided: created, replayed, 422, or the queue full. */

static void
ngx_http_video_ocr_concat_admitted(ngx_http_request_t *r,
    ngx_http_video_ocr_concat_t *c)
{
    ngx_http_video_ocr_up_t    *up;
    ngx_http_video_ocr_ctx_t   *ctx;
    ngx_http_video_ocr_task_t  *t;

    ctx = ngx_http_get_module_ctx(r, ngx_http_video_ocr_module);
    up = ctx->up;
    t = ctx->task;

    up->row = t->up;
    ngx_memcpy(up->id, up->row.upload_id, VO_UPLOAD_ID_LEN + 1);
    ngx_memcpy(ctx->job_id, t->receipt.job_id, VO_JOB_ID_LEN + 1);
    ngx_memcpy(ctx->input_digest, c->input_digest, VO_DIGEST_HEX_LEN + 1);
    ngx_memcpy(ctx->body_sha256, c->body_sha256, VO_DIGEST_HEX_LEN + 1);

    switch (t->receipt.outcome) {

    case VO_ADMIT_CREATED:
    case VO_ADMIT_REPLAYED:
        up->row.completed = 1;
        ngx_memcpy(up->row.job_id, ctx->job_id, VO_JOB_ID_LEN + 1);
        ngx_log_error(NGX_LOG_INFO, r->connection->log, 0,
                      "video_ocr: final upload %s of %uz partial uploads: "
                      "job %s", up->id, c->final.n, ctx->job_id);
        ctx->admitted = t->receipt.outcome == VO_ADMIT_CREATED
                        ? NGX_HTTP_VIDEO_OCR_CREATED
                        : NGX_HTTP_VIDEO_OCR_REPLAYED;

        /* 201 and the final upload's Location; the job named */
        ngx_http_video_ocr_upload_end(r, ctx->admitted, NULL);
        return;

    case VO_ADMIT_QUEUE_FULL:
        ctx->job_id[0] = '\0';
        ngx_http_video_ocr_upload_end(r,
            NGX_HTTP_VIDEO_OCR_TENANT_QUEUE_FULL, NULL);
        return;

    default: /* VO_ADMIT_MISMATCH */
        ngx_log_error(NGX_LOG_INFO, r->connection->log, 0,
                      "video_ocr: final upload %s: its Idempotency-Key "
                      "belongs to another payload, job %s", up->id,
                      ctx->job_id);
        ctx->admitted = NGX_HTTP_VIDEO_OCR_KEY_REUSED;
        up->id[0] = '\0';
        ngx_http_video_ocr_upload_end(r, NGX_HTTP_VIDEO_OCR_KEY_REUSED,
                                      NULL);
        return;
    }
}


/* In a thread-pool thread from here on: plain C only. */


static void
ngx_http_video_ocr_concat_thread(ngx_http_video_ocr_task_t *t)
{
    char                          err[64], forgot[VO_STORE_UPLOAD_REL_LEN + 1];
    vo_ledger_t                  *l;
    vo_upload_row_t               row;
    ngx_http_video_ocr_concat_t  *c;

    c = t->concat;

    l = ngx_http_video_ocr_thread_ledger(t);
    if (l == NULL) {
        return;
    }

    /* the file first: a row always has its file (invariant 11) */

    t->store_rc = vo_store_create_empty(t->store, t->part, t->mcf->durable,
                                        t->err, sizeof(t->err));
    if (t->store_rc != VO_STORE_OK) {
        t->ledger_rc = VO_LEDGER_ERROR;
        return;
    }

    t->ledger_rc = vo_ledger_upload_final(l, &t->up, t->now_ms, &c->final,
                                          &row, t->err, sizeof(t->err));

    if (t->ledger_rc != VO_LEDGER_OK || c->final.outcome != VO_FINAL_JOIN
        || ngx_strcmp(row.upload_id, t->up.upload_id) != 0)
    {
        (void) vo_store_remove(t->store, t->part, err, sizeof(err));
    }

    if (c->final.forgot[0]) {
        vo_store_upload_path(c->final.forgot, forgot);
        (void) vo_store_remove(t->store, forgot, err, sizeof(err));
    }

    if (t->ledger_rc != VO_LEDGER_OK) {
        return;
    }

    switch (c->final.outcome) {

    case VO_FINAL_DONE:
        t->up = row;
        ngx_http_video_ocr_upload_receipt(t, l);
        return;

    case VO_FINAL_JOIN:
    case VO_FINAL_AGAIN:
        t->up = row;
        vo_store_upload_path(row.upload_id, t->part);
        ngx_http_video_ocr_concat_join(t, c, l);
        return;

    default:
        return;
    }
}


/*
 * The join and the admission.  The job's input file (t->rel) is made
 * here, as a POST's is placed: the group's leader makes it durable with
 * the batch (invariant 4), and any outcome but CREATED removes it.
 */

static void
ngx_http_video_ocr_concat_join(ngx_http_video_ocr_task_t *t,
    ngx_http_video_ocr_concat_t *c, vo_ledger_t *l)
{
    int              out;
    char             err[64];
    u_char           sum[SHA256_DIGEST_LENGTH];
    SHA256_CTX       sha;
    vo_container_t   container;
    vo_admission_t  *a;

    out = vo_store_create(t->store, t->rel, &t->store_rc, t->err,
                          sizeof(t->err));
    if (out == -1) {
        t->ledger_rc = VO_LEDGER_ERROR;
        return;
    }

    if (ngx_http_video_ocr_concat_copy(t, c, out, &sha) != 0) {
        (void) close(out);
        (void) vo_store_remove(t->store, t->rel, err, sizeof(err));

        if (c->gone) {
            ngx_http_video_ocr_concat_gone(t, c, l);
        }

        return;
    }

    container = ngx_http_video_ocr_sniff_file(out, t->containers);

    (void) close(out);

    if (container <= VO_CONTAINER_UNKNOWN) {
        /* as a POST of these bytes: refused, nothing kept */
        c->refused = 1;
        (void) vo_store_remove(t->store, t->rel, err, sizeof(err));
        ngx_http_video_ocr_concat_drop(t, c, l);
        return;
    }

    SHA256_Final(sum, &sha);

    a = &t->admission;

    if (ngx_http_video_ocr_input_digest(sum, a->options, c->body_sha256,
                                        c->input_digest) != 0)
    {
        t->ledger_rc = VO_LEDGER_ERROR;
        snprintf(t->err, sizeof(t->err), "input digest failed");
        (void) vo_store_remove(t->store, t->rel, err, sizeof(err));
        return;
    }

    a->input_digest = c->input_digest;
    a->input_sha256 = c->body_sha256;
    a->input_size = c->final.length;
    a->container = vo_container_name(container);
    a->upload_parts = c->parts;

    if (c->final.outcome == VO_FINAL_JOIN) {
        a->upload_id = t->up.upload_id;
        a->upload_writer = t->up.writer;
    }

    ngx_http_video_ocr_admit_group(t);

    if (t->ledger_rc == VO_LEDGER_STALE) {
        /* another request made this final upload again: its answer */
        t->up_stale = 1;
        t->ledger_rc = vo_ledger_upload_get(l, t->tenant, t->tenant_len,
                                            t->up.upload_id, t->now_ms,
                                            &t->up, t->err, sizeof(t->err));
        ngx_http_video_ocr_upload_receipt(t, l);
        return;
    }

    if (t->ledger_rc == VO_LEDGER_NOT_FOUND) {
        /* invariant 14: a partial upload went meanwhile (t->err) */
        for (c->final.bad = 0; c->final.bad < c->final.n; c->final.bad++) {
            if (ngx_strcmp(c->final.ids[c->final.bad], t->err) == 0) {
                break;
            }
        }

        if (c->final.bad == c->final.n) {
            c->final.bad = 0;
        }

        ngx_http_video_ocr_concat_gone(t, c, l);
        return;
    }

    if (t->ledger_rc != VO_LEDGER_OK
        || t->receipt.outcome == VO_ADMIT_QUEUE_FULL)
    {
        /* nothing taken: the client makes the final upload again */
        return;
    }

    ngx_http_video_ocr_concat_remove(t, c);

    t->up.completed = (t->receipt.outcome != VO_ADMIT_MISMATCH);
}


/*
 * The partial files, in order, to out; the SHA-256 in sha: the first
 * partial upload's saved state, then the others' bytes.  0, or -1 with
 * the reason in t (a partial file gone is a partial upload gone).
 */

static int
ngx_http_video_ocr_concat_copy(ngx_http_video_ocr_task_t *t,
    ngx_http_video_ocr_concat_t *c, int out, SHA256_CTX *sha)
{
    int       in, e;
    char      rel[VO_STORE_UPLOAD_REL_LEN + 1];
    u_char   *buf;
    off_t     from, to, n;
    size_t    i;
    ssize_t   got;

    if (vo_sha256_state_load(sha, c->part[0].sha256_state,
                             ngx_strlen(c->part[0].sha256_state),
                             c->part[0].length) != 0)
    {
        t->ledger_rc = VO_LEDGER_ERROR;
        snprintf(t->err, sizeof(t->err), "partial upload %s: its SHA-256 "
                 "state does not fit its length", c->final.ids[0]);
        return -1;
    }

    buf = malloc(256 * 1024);
    if (buf == NULL) {
        t->store_rc = VO_STORE_ERROR;
        snprintf(t->err, sizeof(t->err), "join: out of memory");
        return -1;
    }

    to = 0;

    for (i = 0; i < c->final.n; i++) {

        vo_store_upload_path(c->final.ids[i], rel);

        in = vo_store_open(t->store, rel, O_RDONLY, t->err, sizeof(t->err));
        if (in == -1) {
            e = errno;
            goto failed;
        }

        from = 0;

        if (i == 0 && ioctl(out, FICLONE, in) == 0) {
            /* the filesystem shares the first one's blocks */
            from = c->part[0].length;
            to = from;

            if (ftruncate(out, to) == -1) {
                e = errno;
                (void) close(in);
                goto failed;
            }
        }

        if (vo_store_copy(in, &from, out, &to, c->part[i].length - from)
            != 0)
        {
            e = errno;
            (void) close(in);
            goto failed;
        }

        /* the first one's digest is saved; the others' bytes are hashed */

        for (from = 0; i > 0 && from < c->part[i].length; from += got) {
            n = c->part[i].length - from;
            got = pread(in, buf, n < 256 * 1024 ? (size_t) n : 256 * 1024,
                        from);

            if (got <= 0) {
                e = got == 0 ? EIO : errno;
                (void) close(in);
                goto failed;
            }

            SHA256_Update(sha, buf, (size_t) got);
        }

        (void) close(in);
    }

    free(buf);

    return 0;

failed:

    free(buf);

    if (e == ENOENT) {
        /* its file went with its row (DELETE, the janitor) */
        c->gone = 1;
        c->final.bad = i;
        return -1;
    }

    t->store_rc = (e == ENOSPC || e == EDQUOT) ? VO_STORE_FULL
                                               : VO_STORE_ERROR;
    snprintf(t->err, sizeof(t->err), "joining partial upload %s: %s",
             c->final.ids[i], strerror(e));

    return -1;
}


/*
 * A partial upload went (expired, deleted) before the final upload was
 * admitted: the final upload fails and goes too (a new one is made once
 * that part is uploaded again); the other partial uploads stay.
 */

static void
ngx_http_video_ocr_concat_gone(ngx_http_video_ocr_task_t *t,
    ngx_http_video_ocr_concat_t *c, vo_ledger_t *l)
{
    char             err[VO_ERR_TEXT];
    vo_upload_row_t  gone;

    c->gone = 1;
    t->ledger_rc = VO_LEDGER_OK;

    if (c->final.outcome != VO_FINAL_JOIN) {
        return;
    }

    (void) vo_ledger_upload_delete(l, t->tenant, t->tenant_len,
                                   t->up.upload_id, t->now_ms, &gone, err,
                                   sizeof(err));
    (void) vo_store_remove(t->store, t->part, err, sizeof(err));
}


/*
 * Joined bytes that are not a video: as a POST of them would be, the
 * final upload and its partial uploads are refused and removed.
 */

static void
ngx_http_video_ocr_concat_drop(ngx_http_video_ocr_task_t *t,
    ngx_http_video_ocr_concat_t *c, vo_ledger_t *l)
{
    char             err[VO_ERR_TEXT];
    size_t           i;
    vo_upload_row_t  gone;

    for (i = 0; i < c->final.n; i++) {
        (void) vo_ledger_upload_delete(l, t->tenant, t->tenant_len,
                                       c->final.ids[i], t->now_ms, &gone,
                                       err, sizeof(err));
    }

    if (c->final.outcome == VO_FINAL_JOIN) {
        (void) vo_ledger_upload_delete(l, t->tenant, t->tenant_len,
                                       t->up.upload_id, t->now_ms, &gone,
                                       err, sizeof(err));
    }

    ngx_http_video_ocr_concat_remove(t, c);
}


/* The partial files, and the final upload's own (empty) file. */

static void
ngx_http_video_ocr_concat_remove(ngx_http_video_ocr_task_t *t,
    ngx_http_video_ocr_concat_t *c)
{
    char    rel[VO_STORE_UPLOAD_REL_LEN + 1], err[64];
    size_t  i;

    for (i = 0; i < c->final.n; i++) {
        vo_store_upload_path(c->final.ids[i], rel);
        (void) vo_store_remove(t->store, rel, err, sizeof(err));
    }

    if (c->final.outcome == VO_FINAL_JOIN) {
        (void) vo_store_remove(t->store, t->part, err, sizeof(err));
    }
}
