/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * An append to a resumable upload (a PATCH, or the body of a creation),
 * once its claim made it the upload's writer (invariant 12):
 *
 *   event loop: the body is read unbuffered: each buffer is hashed into
 *   the upload's running SHA-256 and written to a chunk file of its own in
 *   client_body_temp_path, as nginx writes request bodies;
 *
 *   thread:     while reading goes on, every NGX_HTTP_VIDEO_OCR_STAGE_BYTES
 *               of the chunk are staged: copied into the partial file
 *               past the acknowledged offset, under the same locks and
 *               token check as a commit, and their writeback started.
 *               Bytes past the offset are nobody's until a commit
 *               (invariant 11), so a stage acknowledges nothing; it only
 *               takes the copy and most of the flush off the end of the
 *               request, where the client waits for them.  While a stage
 *               is in flight the request neither commits nor ends;
 *
 *   thread:     every NGX_HTTP_VIDEO_OCR_COMMIT_BYTES, at the body's end,
 *               and when the client goes away or falls silent for
 *               client_body_timeout (what arrived is kept), the chunk is
 *               committed: under the partial file's flock and (PostgreSQL)
 *               the row's lock, and only while the request's token is the
 *               upload's writer, the file is truncated to the acknowledged
 *               offset and what was staged, the rest of the chunk
 *               appended, fdatasync'd, and the offset
 *               advanced (invariant 11).  Reading waits meanwhile;
 *
 *   completion: the same task links the partial file into the store as
 *               the job's input and admits it through the group commit,
 *               exactly as a POST (invariant 13).
 *
 * A second append to the same upload claims it (writer + 1): this one's
 * next commit then finds its token stale, drops its chunk and ends the
 * request with 409, as the draft recommends (an in-flight append is
 * ended, never two writers on one file).  The event loop never waits on
 * the ledger, a flock or fsync.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE                     /* copy_file_range() */
#endif

#include <sys/file.h>

#include "ngx_http_video_ocr.h"


#define NGX_HTTP_VIDEO_OCR_COMMIT_BYTES  (8 * 1024 * 1024)
#define NGX_HTTP_VIDEO_OCR_STAGE_BYTES   (1024 * 1024)


static void ngx_http_video_ocr_append_body(ngx_http_request_t *r);
static void ngx_http_video_ocr_append_read(ngx_http_request_t *r);
static ngx_int_t ngx_http_video_ocr_append_consume(ngx_http_request_t *r,
    ngx_http_video_ocr_up_t *up, ngx_uint_t *outcome, const char **detail);
static void ngx_http_video_ocr_append_end(ngx_http_request_t *r,
    ngx_http_video_ocr_up_t *up);
static void ngx_http_video_ocr_append_cut(ngx_http_request_t *r,
    ngx_http_video_ocr_up_t *up);
static ngx_uint_t ngx_http_video_ocr_append_wait(ngx_http_request_t *r,
    ngx_http_video_ocr_up_t *up);
static void ngx_http_video_ocr_append_stage(ngx_http_request_t *r,
    ngx_http_video_ocr_up_t *up);
static void ngx_http_video_ocr_append_staged(ngx_http_request_t *r);
static ngx_int_t ngx_http_video_ocr_append_commit(ngx_http_request_t *r,
    ngx_uint_t final, ngx_uint_t complete);
static void ngx_http_video_ocr_append_admission(ngx_http_request_t *r,
    ngx_http_video_ocr_task_t *t);
static void ngx_http_video_ocr_append_committed(ngx_http_request_t *r);
static void ngx_http_video_ocr_append_done(ngx_http_request_t *r,
    ngx_http_video_ocr_ctx_t *ctx, ngx_http_video_ocr_task_t *t);

static void ngx_http_video_ocr_upload_stage(ngx_http_video_ocr_task_t *t,
    vo_ledger_t *l);
static void ngx_http_video_ocr_upload_commit(ngx_http_video_ocr_task_t *t,
    vo_ledger_t *l);
static int ngx_http_video_ocr_upload_write(ngx_http_video_ocr_task_t *t,
    int fd);
static void ngx_http_video_ocr_upload_sniff(ngx_http_video_ocr_task_t *t,
    int fd);
static void ngx_http_video_ocr_upload_complete(ngx_http_video_ocr_task_t *t,
    vo_ledger_t *l);
static void ngx_http_video_ocr_upload_receipt(ngx_http_video_ocr_task_t *t,
    vo_ledger_t *l);


void
ngx_http_video_ocr_append_start(ngx_http_request_t *r)
{
    ngx_int_t                   rc;
    ngx_temp_file_t            *tf;
    ngx_http_video_ocr_up_t    *up;
    ngx_http_video_ocr_ctx_t   *ctx;
    ngx_http_core_loc_conf_t   *clcf;

    ctx = ngx_http_get_module_ctx(r, ngx_http_video_ocr_module);
    up = ctx->up;
    clcf = ngx_http_get_module_loc_conf(r, ngx_http_core_module);

    if (vo_sha256_state_load(&up->sha, up->row.sha256_state,
                             ngx_strlen(up->row.sha256_state),
                             up->row.offset) != 0)
    {
        ngx_log_error(NGX_LOG_CRIT, r->connection->log, 0,
                      "video_ocr: upload %s: the ledger's SHA-256 state does "
                      "not fit its offset %L", up->id, up->row.offset);
        ngx_http_video_ocr_upload_end(r, NGX_HTTP_VIDEO_OCR_INTERNAL,
                                      "the upload's state is damaged");
        return;
    }

    SHA256_Init(&up->chunk_sha);

    tf = ngx_pcalloc(r->pool, sizeof(ngx_temp_file_t));
    if (tf == NULL) {
        ngx_http_finalize_request(r, NGX_HTTP_INTERNAL_SERVER_ERROR);
        return;
    }

    tf->file.fd = NGX_INVALID_FILE;
    tf->file.log = r->connection->log;
    tf->path = clcf->client_body_temp_path;
    tf->pool = r->pool;
    tf->warn = "an upload's chunk is buffered to a temporary file";
    tf->log_level = 0;
    tf->persistent = 1;
    tf->clean = 1;
    tf->access = 0660;

    up->chunk = tf;

    /* unbuffered: this module decides what becomes of every byte */

    r->request_body_no_buffering = 1;

    rc = ngx_http_read_client_request_body(r, ngx_http_video_ocr_append_body);

    if (rc >= NGX_HTTP_SPECIAL_RESPONSE) {
        ngx_http_finalize_request(r, rc);
        return;
    }

    /* the reference the body read took is the request's from now on */

    ngx_http_finalize_request(r, NGX_DONE);
}


/* The body's post handler, and where reading goes on after a commit. */

static void
ngx_http_video_ocr_append_body(ngx_http_request_t *r)
{
    ngx_int_t                  rc;
    ngx_uint_t                 outcome;
    const char                *detail;
    ngx_http_video_ocr_up_t   *up;
    ngx_http_video_ocr_ctx_t  *ctx;

    ctx = ngx_http_get_module_ctx(r, ngx_http_video_ocr_module);
    up = ctx->up;

    r->read_event_handler = ngx_http_video_ocr_append_read;

    for ( ;; ) {

        if (up->committing) {
            return;
        }

        if (up->error_rc) {
            /* the body was cut while a stage was in flight */
            ngx_http_video_ocr_append_cut(r, up);
            return;
        }

        if (ngx_http_video_ocr_append_consume(r, up, &outcome, &detail)
            != NGX_OK)
        {
            if (!ngx_http_video_ocr_append_wait(r, up)) {
                ngx_http_video_ocr_upload_end(r, outcome, detail);
            }

            return;
        }

        if (!r->reading_body) {
            if (!ngx_http_video_ocr_append_wait(r, up)) {
                up->body_done = 1;
                ngx_http_video_ocr_append_end(r, up);
            }

            return;
        }

        if (up->chunk_len >= NGX_HTTP_VIDEO_OCR_COMMIT_BYTES
            && !up->has_checksum)
        {
            if (!ngx_http_video_ocr_append_wait(r, up)) {
                (void) ngx_http_video_ocr_append_commit(r, 0, 0);
            }

            return;
        }

        ngx_http_video_ocr_append_stage(r, up);

        rc = ngx_http_read_unbuffered_request_body(r);

        if (rc >= NGX_HTTP_SPECIAL_RESPONSE) {

            /*
             * the client went away or fell silent: what arrived is kept
             * (not with a checksum, which covers the whole chunk only)
             */

            ngx_log_error(NGX_LOG_INFO, r->connection->log, 0,
                          "video_ocr: upload %s: the append ended after %O "
                          "bytes (%i); keeping them", up->id, up->received,
                          rc);

            up->error_rc = rc;

            /* what the last read brought before the end counts too */

            if (r->request_body->bufs != NULL
                && ngx_http_video_ocr_append_consume(r, up, &outcome,
                                                     &detail) != NGX_OK)
            {
                up->cut_drop = 1;
            }

            ngx_http_video_ocr_append_cut(r, up);
            return;
        }

        if (rc == NGX_AGAIN && r->request_body->bufs == NULL) {
            return;
        }
    }
}


/* The body ended early: what arrived is committed, or the request ends. */

static void
ngx_http_video_ocr_append_cut(ngx_http_request_t *r,
    ngx_http_video_ocr_up_t *up)
{
    if (ngx_http_video_ocr_append_wait(r, up)) {
        return;
    }

    if (up->chunk_len > 0 && !up->has_checksum && !up->cut_drop) {
        (void) ngx_http_video_ocr_append_commit(r, 1, 0);
        return;
    }

    ngx_http_finalize_request(r, up->error_rc);
}


/*
 * 1 while a stage is in flight: whatever the loop was about to do (a
 * commit, the end of the request) waits for it, and reading stops; the
 * stage's return runs the loop again, which comes to the same decision.
 */

static ngx_uint_t
ngx_http_video_ocr_append_wait(ngx_http_request_t *r,
    ngx_http_video_ocr_up_t *up)
{
    if (!up->staging) {
        return 0;
    }

    up->stage_wait = 1;
    up->committing = 1;

    if (r->connection->read->timer_set) {
        ngx_del_timer(r->connection->read);
    }

    return 1;
}


/*
 * Posts a stage of what the chunk holds beyond what is staged, once that
 * is NGX_HTTP_VIDEO_OCR_STAGE_BYTES.  Staging is only a head start for
 * the commit: when it cannot be posted or fails, the commit copies the
 * rest as it would have without it.
 */

static void
ngx_http_video_ocr_append_stage(ngx_http_request_t *r,
    ngx_http_video_ocr_up_t *up)
{
    ngx_str_t                   detail;
    ngx_uint_t                  outcome;
    ngx_http_video_ocr_ctx_t   *ctx;
    ngx_http_video_ocr_task_t  *t, *task;

    if (up->staging || up->stage_off || up->has_checksum
        || up->chunk_len - up->staged < NGX_HTTP_VIDEO_OCR_STAGE_BYTES)
    {
        return;
    }

    ctx = ngx_http_get_module_ctx(r, ngx_http_video_ocr_module);
    task = ctx->task;

    if (up->stage == NULL) {
        up->stage = ngx_http_video_ocr_upload_task_new(r,
                        NGX_HTTP_VIDEO_OCR_TASK_UPLOAD_STAGE);
        ctx->task = task;                 /* the commits' task stays so */

        if (up->stage == NULL) {
            up->stage_off = 1;
            return;
        }
    }

    t = up->stage->ctx;
    t->up = up->row;
    ngx_memcpy(t->up.upload_id, up->id, VO_UPLOAD_ID_LEN + 1);
    t->up_offset = up->row.offset;
    t->chunk_fd = up->chunk->file.fd;
    t->chunk_staged = up->staged;
    t->chunk_len = up->chunk_len;

    outcome = ctx->outcome;
    detail = ctx->problem_detail;

    if (ngx_http_video_ocr_task_post(r, up->stage,
                                     ngx_http_video_ocr_append_staged)
        != NGX_OK)
    {
        /* a full queue: not this request's problem while it only reads */
        ctx->outcome = outcome;
        ctx->problem_detail = detail;
        up->stage_off = 1;
        return;
    }

    up->staging = 1;
}


static void
ngx_http_video_ocr_append_staged(ngx_http_request_t *r)
{
    ngx_http_video_ocr_up_t    *up;
    ngx_http_video_ocr_ctx_t   *ctx;
    ngx_http_video_ocr_task_t  *t;

    if (r->aio) {
        return;
    }

    r->write_event_handler = ngx_http_request_empty_handler;

    ctx = ngx_http_get_module_ctx(r, ngx_http_video_ocr_module);
    up = ctx->up;
    t = up->stage->ctx;

    up->staging = 0;

    if (t->chunk_staged > up->staged && t->chunk_staged <= up->chunk_len) {
        up->staged = t->chunk_staged;

    } else {
        /* taken over, deleted, or the copy failed: the commit will say */
        up->stage_off = 1;
    }

    if (up->stage_wait) {
        up->stage_wait = 0;
        up->committing = 0;
        ngx_http_video_ocr_append_body(r);
    }
}


static void
ngx_http_video_ocr_append_read(ngx_http_request_t *r)
{
    ngx_http_video_ocr_ctx_t  *ctx;

    ctx = ngx_http_get_module_ctx(r, ngx_http_video_ocr_module);

    if (ctx->up->committing) {
        /* reading waits for the commit; it resumes when it is done */
        return;
    }

    ngx_http_video_ocr_append_body(r);
}


/*
 * The buffers read so far: hashed, checked against the upload's length
 * and size limit, written to the chunk file.  NGX_OK, or an error with
 * the outcome to answer.
 */

static ngx_int_t
ngx_http_video_ocr_append_consume(ngx_http_request_t *r,
    ngx_http_video_ocr_up_t *up, ngx_uint_t *outcome, const char **detail)
{
    off_t                      limit;
    size_t                     n;
    ssize_t                    written;
    ngx_buf_t                 *b;
    ngx_chain_t               *cl, one;
    ngx_http_core_loc_conf_t  *clcf;

    clcf = ngx_http_get_module_loc_conf(r, ngx_http_core_module);

    *detail = NULL;

    for (cl = r->request_body->bufs; cl; cl = cl->next) {
        b = cl->buf;
        n = b->last - b->pos;

        if (n == 0) {
            continue;
        }

        limit = up->row.length >= 0 ? up->row.length
                : (up->has_length ? up->length : -1);

        if (limit >= 0 && up->row.offset + up->chunk_len + (off_t) n > limit)
        {
            *outcome = NGX_HTTP_VIDEO_OCR_INCONSISTENT_LENGTH;
            *detail = "the append goes past the upload's length";
            return NGX_ERROR;
        }

        if (clcf->client_max_body_size
            && up->row.offset + up->chunk_len + (off_t) n
               > clcf->client_max_body_size)
        {
            *outcome = NGX_HTTP_VIDEO_OCR_TOO_LARGE;
            *detail = "the upload grows past what this endpoint accepts "
                      "(Upload-Limit max-size, client_max_body_size)";
            return NGX_ERROR;
        }

        one.buf = b;
        one.next = NULL;

        written = ngx_write_chain_to_temp_file(up->chunk, &one);

        if (written == NGX_ERROR) {
            *outcome = (ngx_errno == NGX_ENOSPC || ngx_errno == EDQUOT)
                       ? NGX_HTTP_VIDEO_OCR_DISK_FULL
                       : NGX_HTTP_VIDEO_OCR_INTERNAL;
            return NGX_ERROR;
        }

        /* hashed once written: a buffer whose write failed is still in
         * bufs, and the loop may come back to it (a stage was in flight,
         * ngx_http_video_ocr_append_wait); it must count once */

        SHA256_Update(&up->sha, b->pos, n);

        if (up->has_checksum) {
            SHA256_Update(&up->chunk_sha, b->pos, n);
        }

        up->chunk->offset += written;
        up->chunk_len += n;
        up->received += n;
        b->pos = b->last;
    }

    r->request_body->bufs = NULL;

    return NGX_OK;
}


/* The whole body is in: checksum, completeness, the last commit. */

static void
ngx_http_video_ocr_append_end(ngx_http_request_t *r,
    ngx_http_video_ocr_up_t *up)
{
    int64_t        total, length;
    ngx_uint_t     complete;
    unsigned char  sum[SHA256_DIGEST_LENGTH];

    if (up->has_checksum) {
        SHA256_Final(sum, &up->chunk_sha);

        if (ngx_memcmp(sum, up->checksum, sizeof(sum)) != 0) {
            ngx_log_error(NGX_LOG_INFO, r->connection->log, 0,
                          "video_ocr: upload %s: Upload-Checksum mismatch, "
                          "%O bytes dropped", up->id, up->chunk_len);
            ngx_http_video_ocr_upload_end(r,
                NGX_HTTP_VIDEO_OCR_CHECKSUM_MISMATCH, NULL);
            return;
        }
    }

    total = up->row.offset + up->chunk_len;
    length = up->row.length >= 0 ? up->row.length
             : (up->has_length ? up->length : -1);

    if (up->tus) {
        complete = (length >= 0 && total == length);

    } else {
        complete = up->complete;

        if (complete && length >= 0 && total != length) {
            ngx_http_video_ocr_upload_end(r,
                NGX_HTTP_VIDEO_OCR_INCONSISTENT_LENGTH,
                "the upload completes with fewer bytes than its length");
            return;
        }
    }

    if (complete && total == 0) {
        ngx_http_video_ocr_upload_end(r, NGX_HTTP_VIDEO_OCR_EMPTY_BODY,
                                      "the upload is empty: nothing to "
                                      "read text from");
        return;
    }

    if (ngx_http_video_ocr_append_commit(r, 1, complete) == NGX_ERROR) {
        ngx_http_finalize_request(r, NGX_HTTP_INTERNAL_SERVER_ERROR);
    }
}


/*
 * Posts the commit of the chunk so far (and, with complete, the
 * completion).  Reading waits until it is done.
 */

static ngx_int_t
ngx_http_video_ocr_append_commit(ngx_http_request_t *r, ngx_uint_t final,
    ngx_uint_t complete)
{
    ngx_int_t                   rc;
    ngx_connection_t           *c;
    ngx_thread_task_t          *task;
    ngx_http_video_ocr_up_t    *up;
    ngx_http_video_ocr_ctx_t   *ctx;
    ngx_http_video_ocr_task_t  *t;

    ctx = ngx_http_get_module_ctx(r, ngx_http_video_ocr_module);
    up = ctx->up;
    c = r->connection;

    /* the client_body_timeout of the read is not the commit's */

    if (c->read->timer_set) {
        ngx_del_timer(c->read);
    }

    task = ngx_http_video_ocr_upload_task_new(r,
               NGX_HTTP_VIDEO_OCR_TASK_UPLOAD_COMMIT);
    if (task == NULL) {
        return NGX_ERROR;
    }

    t = task->ctx;

    /* the row as it will be: the task only needs the old offset besides */

    t->up_offset = up->row.offset;
    t->up.offset = up->row.offset + up->chunk_len;

    if (up->row.length < 0 && up->has_length) {
        t->up.length = up->length;
    }

    if (complete && t->up.length < 0) {
        t->up.length = t->up.offset;
    }

    vo_sha256_state_save(&up->sha, t->up.sha256_state);

    t->chunk_fd = up->chunk->file.fd;
    t->chunk_len = up->chunk_len;
    t->chunk_staged = up->staged;
    t->up_complete = complete;

    if (complete) {
        ngx_http_video_ocr_append_admission(r, t);
    }

    up->committing = 1;
    up->body_done = final;

    rc = ngx_http_video_ocr_task_post(r, task,
                                      ngx_http_video_ocr_append_committed);

    if (rc != NGX_OK) {
        up->committing = 0;
        ngx_http_finalize_request(r, ngx_http_video_ocr_refuse(r));
        return NGX_DONE;
    }

    return NGX_OK;
}


/* The admission of a completing append, as a POST's is made. */

static void
ngx_http_video_ocr_append_admission(ngx_http_request_t *r,
    ngx_http_video_ocr_task_t *t)
{
    u_char                           digest[SHA256_DIGEST_LENGTH];
    SHA256_CTX                       fin;
    vo_admission_t                  *a;
    ngx_http_video_ocr_up_t         *up;
    ngx_http_video_ocr_ctx_t        *ctx;
    ngx_http_video_ocr_loc_conf_t   *vlcf;
    ngx_http_video_ocr_main_conf_t  *mcf;

    ctx = ngx_http_get_module_ctx(r, ngx_http_video_ocr_module);
    up = ctx->up;
    mcf = ngx_http_get_module_main_conf(r, ngx_http_video_ocr_module);

    fin = up->sha;
    SHA256_Final(digest, &fin);
    ngx_http_video_ocr_hex((u_char *) ctx->body_sha256, digest,
                           sizeof(digest));

    (void) ngx_cpystrn((u_char *) ctx->options_json,
                       (u_char *) up->row.options,
                       sizeof(ctx->options_json));

    SHA256_Init(&fin);
    SHA256_Update(&fin, "video-ocr/1\n", 12);
    SHA256_Update(&fin, ctx->body_sha256, VO_DIGEST_HEX_LEN);
    SHA256_Update(&fin, "\n", 1);
    SHA256_Update(&fin, ctx->options_json, ngx_strlen(ctx->options_json));
    SHA256_Final(digest, &fin);
    ngx_http_video_ocr_hex((u_char *) ctx->input_digest, digest,
                           sizeof(digest));

    if (ngx_http_video_ocr_new_job_id(r, ctx->job_id) != NGX_OK) {
        /* the bytes are committed all the same, nothing is completed */
        t->up_complete = 0;
        return;
    }

    ctx->has_key = up->row.has_key;
    ctx->key_len = ngx_strlen(up->row.key);
    ngx_memcpy(ctx->key, up->row.key, ctx->key_len);

    if (ctx->has_key) {
        ngx_http_video_ocr_key_hash(r, ctx);
    }

    vo_store_input_path(ctx->job_id, t->rel);

    a = &t->admission;
    a->tenant = (char *) ctx->tenant.data;
    a->tenant_len = ctx->tenant.len;
    a->key = ctx->has_key ? ctx->key : NULL;
    a->key_len = ctx->key_len;
    a->input_digest = ctx->input_digest;
    a->job_id = ctx->job_id;
    a->options = ctx->options_json;
    a->input_path = t->rel;
    a->input_size = t->up.offset;
    a->input_sha256 = ctx->body_sha256;
    a->container = NULL;                   /* the task sniffs it */
    a->now_ms = t->now_ms;
    a->receipt_ttl_ms = (int64_t) mcf->receipt_ttl * 1000;
    a->max_attempts = (int) mcf->max_attempts;
    a->upload_id = t->up.upload_id;
    a->upload_writer = t->up.writer;

    /* the job's notifications, as for a POST */

    vlcf = ngx_http_get_module_loc_conf(r, ngx_http_video_ocr_module);

    ctx->status_url.len = vlcf->jobs_url.len + VO_JOB_ID_LEN;
    ctx->status_url.data = ngx_pnalloc(r->pool, ctx->status_url.len);
    if (ctx->status_url.data == NULL) {
        t->up_complete = 0;
        return;
    }

    ngx_memcpy(ngx_cpymem(ctx->status_url.data, vlcf->jobs_url.data,
                          vlcf->jobs_url.len),
               ctx->job_id, VO_JOB_ID_LEN);

    a->status_url = (char *) ctx->status_url.data;
    a->status_url_len = ctx->status_url.len;

    if (ctx->webhook_url.len > 0) {
        a->webhook_url = (char *) ctx->webhook_url.data;
        a->webhook_url_len = ctx->webhook_url.len;
        a->webhook_secret = (char *) ctx->webhook_secret.data;
        a->webhook_secret_len = ctx->webhook_secret.len;
    }

    a->webhook_accepted = vlcf->webhook_accepted ? 1 : 0;
}


static void
ngx_http_video_ocr_append_committed(ngx_http_request_t *r)
{
    ngx_http_video_ocr_up_t    *up;
    ngx_http_video_ocr_ctx_t   *ctx;
    ngx_http_video_ocr_task_t  *t;

    if (r->aio) {
        return;
    }

    r->write_event_handler = ngx_http_request_empty_handler;

    ctx = ngx_http_get_module_ctx(r, ngx_http_video_ocr_module);
    up = ctx->up;
    t = ctx->task;

    up->committing = 0;

    if (t->up_stale && t->up.completed) {
        /* completed meanwhile by another request: its receipt */
        up->row = t->up;
        ngx_memcpy(ctx->job_id, up->row.job_id, VO_JOB_ID_LEN + 1);
        ctx->admitted = NGX_HTTP_VIDEO_OCR_REPLAYED;
        ngx_memcpy(ctx->input_digest, up->row.input_digest,
                   VO_DIGEST_HEX_LEN + 1);
        ngx_http_video_ocr_upload_end(r, NGX_HTTP_VIDEO_OCR_REPLAYED, NULL);
        return;
    }

    if (t->up_stale) {
        ngx_log_error(NGX_LOG_INFO, r->connection->log, 0,
                      "video_ocr: upload %s: this append was superseded: %s",
                      up->id, t->err);

        if (up->error_rc) {
            ngx_http_finalize_request(r, up->error_rc);
            return;
        }

        up->row.offset = -1;
        ngx_http_video_ocr_upload_end(r,
            NGX_HTTP_VIDEO_OCR_UPLOAD_SUPERSEDED, NULL);
        return;
    }

    if (t->up_refused) {
        up->row.offset = -1;
        up->row.completed = 1;
        ngx_http_video_ocr_upload_end(r, NGX_HTTP_VIDEO_OCR_NOT_A_VIDEO,
                                      NULL);
        return;
    }

    if (t->store_rc != VO_STORE_OK || t->ledger_rc != VO_LEDGER_OK) {
        if (t->store_rc != VO_STORE_OK) {
            ngx_log_error(NGX_LOG_CRIT, r->connection->log, 0,
                          "video_ocr: upload %s: %s", up->id, t->err);
            ngx_http_video_ocr_upload_end(r,
                t->store_rc == VO_STORE_FULL ? NGX_HTTP_VIDEO_OCR_DISK_FULL
                                             : NGX_HTTP_VIDEO_OCR_INTERNAL,
                "the upload could not be stored");
            return;
        }

        ngx_http_finalize_request(r,
            ngx_http_video_ocr_ledger_reply(r, t->ledger_rc,
                "the upload could not be recorded", t->err));
        return;
    }

    up->row = t->up;
    up->chunk_len = 0;
    up->staged = 0;
    up->chunk->offset = 0;
    up->stage_off |= t->chunk_dirty;

    if (up->error_rc) {
        ngx_http_finalize_request(r, up->error_rc);
        return;
    }

    if (!up->body_done) {
        ngx_http_video_ocr_append_body(r);
        return;
    }

    if (!t->up_complete) {
        ngx_http_video_ocr_upload_end(r,
            up->creation ? NGX_HTTP_VIDEO_OCR_UPLOAD_CREATED
                         : NGX_HTTP_VIDEO_OCR_UPLOAD_APPENDED, NULL);
        return;
    }

    ngx_http_video_ocr_append_done(r, ctx, t);
}


/* The completion's admission decided: the receipt, a replay or 422. */

static void
ngx_http_video_ocr_append_done(ngx_http_request_t *r,
    ngx_http_video_ocr_ctx_t *ctx, ngx_http_video_ocr_task_t *t)
{
    ngx_http_video_ocr_up_t  *up;

    up = ctx->up;

    ngx_memcpy(ctx->job_id, t->receipt.job_id, VO_JOB_ID_LEN + 1);

    switch (t->receipt.outcome) {

    case VO_ADMIT_CREATED:
    case VO_ADMIT_REPLAYED:
        up->row.completed = 1;
        ngx_memcpy(up->row.job_id, ctx->job_id, VO_JOB_ID_LEN + 1);
        ngx_log_error(NGX_LOG_INFO, r->connection->log, 0,
                      "video_ocr: upload %s completed: job %s", up->id,
                      ctx->job_id);
        ctx->admitted = t->receipt.outcome == VO_ADMIT_CREATED
                        ? NGX_HTTP_VIDEO_OCR_CREATED
                        : NGX_HTTP_VIDEO_OCR_REPLAYED;
        ngx_http_video_ocr_upload_end(r, ctx->admitted, NULL);
        return;

    default: /* VO_ADMIT_MISMATCH */
        ngx_log_error(NGX_LOG_INFO, r->connection->log, 0,
                      "video_ocr: upload %s: its Idempotency-Key belongs to "
                      "another payload, job %s", up->id, ctx->job_id);
        ctx->admitted = NGX_HTTP_VIDEO_OCR_KEY_REUSED;
        up->row.offset = -1;
        ngx_http_video_ocr_upload_end(r, NGX_HTTP_VIDEO_OCR_KEY_REUSED,
                                      NULL);
        return;
    }
}


/* In a thread-pool thread from here on: plain C only. */


void
ngx_http_video_ocr_upload_task(ngx_http_video_ocr_task_t *t)
{
    char              forgot[VO_STORE_UPLOAD_REL_LEN + 1], err[64];
    vo_ledger_t      *l;
    vo_upload_row_t   row;

    t->store_rc = VO_STORE_OK;

    l = ngx_http_video_ocr_thread_ledger(t);
    if (l == NULL) {
        return;
    }

    switch (t->kind) {

    case NGX_HTTP_VIDEO_OCR_TASK_UPLOAD_CREATE:

        /* the file first: a row always has its file (invariant 11) */

        t->store_rc = vo_store_create_empty(t->store, t->part,
                                            t->mcf->durable, t->err,
                                            sizeof(t->err));
        if (t->store_rc != VO_STORE_OK) {
            t->ledger_rc = VO_LEDGER_ERROR;
            return;
        }

        t->ledger_rc = vo_ledger_upload_create(l, &t->up, t->up_max_open,
                                               t->now_ms, &row,
                                               (vo_upload_create_e *)
                                                   &t->up_outcome,
                                               t->up_forgot, t->err,
                                               sizeof(t->err));

        if (t->ledger_rc != VO_LEDGER_OK
            || t->up_outcome != VO_UPLOAD_CREATED)
        {
            (void) vo_store_remove(t->store, t->part, err, sizeof(err));
        }

        if (t->up_forgot[0]) {
            vo_store_upload_path(t->up_forgot, forgot);
            (void) vo_store_remove(t->store, forgot, err, sizeof(err));
        }

        if (t->ledger_rc == VO_LEDGER_OK
            && t->up_outcome != VO_UPLOAD_TOO_MANY)
        {
            t->up = row;
            ngx_http_video_ocr_upload_receipt(t, l);
        }

        return;

    case NGX_HTTP_VIDEO_OCR_TASK_UPLOAD_GET:
        t->ledger_rc = vo_ledger_upload_get(l, t->tenant, t->tenant_len,
                                            t->up.upload_id, t->now_ms,
                                            &t->up, t->err, sizeof(t->err));
        return;

    case NGX_HTTP_VIDEO_OCR_TASK_UPLOAD_CLAIM:
        t->ledger_rc = vo_ledger_upload_claim(l, t->tenant, t->tenant_len,
                                              t->up.upload_id, t->up_offset,
                                              t->now_ms, &t->up, t->err,
                                              sizeof(t->err));
        ngx_http_video_ocr_upload_receipt(t, l);
        return;

    case NGX_HTTP_VIDEO_OCR_TASK_UPLOAD_DELETE:
        t->ledger_rc = vo_ledger_upload_delete(l, t->tenant, t->tenant_len,
                                               t->up.upload_id, t->now_ms,
                                               &t->up, t->err,
                                               sizeof(t->err));

        if (t->ledger_rc == VO_LEDGER_OK && !t->up.completed) {
            (void) vo_store_remove(t->store, t->part, err, sizeof(err));
        }

        return;

    case NGX_HTTP_VIDEO_OCR_TASK_UPLOAD_STAGE:
        ngx_http_video_ocr_upload_stage(t, l);
        return;

    default: /* NGX_HTTP_VIDEO_OCR_TASK_UPLOAD_COMMIT */
        ngx_http_video_ocr_upload_commit(t, l);
        return;
    }
}


/* A completed upload's receipt, for a replay (ledger_rc kept). */

static void
ngx_http_video_ocr_upload_receipt(ngx_http_video_ocr_task_t *t,
    vo_ledger_t *l)
{
    char            err[VO_ERR_TEXT];
    vo_admission_t  a;

    t->receipt.outcome = VO_ADMIT_NONE;

    if (!t->up.completed || !t->up.has_key) {
        return;
    }

    ngx_memzero(&a, sizeof(a));
    a.tenant = t->up.tenant;
    a.tenant_len = ngx_strlen(t->up.tenant);
    a.key = t->up.key;
    a.key_len = ngx_strlen(t->up.key);
    a.input_digest = t->up.input_digest;
    a.now_ms = t->now_ms;

    if (vo_ledger_lookup(l, &a, &t->receipt, err, sizeof(err))
        != VO_LEDGER_OK)
    {
        t->receipt.outcome = VO_ADMIT_NONE;
    }
}


/*
 * A stage: while this request's token is still the writer's and the
 * offset the one it was given, under the locks a commit takes, the chunk
 * from chunk_staged on is copied into the partial file past the
 * acknowledged offset (the first stage of a chunk truncates to it), and
 * its writeback started.  Nothing is acknowledged.
 *
 * The event loop goes on writing the chunk meanwhile (and, busy reading,
 * sees this task's end only when the socket runs dry), so the stage also
 * takes what was written since it was posted: up to the chunk file's
 * size, which the kernel raises only over bytes already written.
 * chunk_staged comes back as far as the copy got; the commit truncates
 * whatever a failed copy left past it.
 */

static void
ngx_http_video_ocr_upload_stage(ngx_http_video_ocr_task_t *t,
    vo_ledger_t *l)
{
    int              fd, pass;
    off_t            in, out, end, start;
    ssize_t          n;
    struct stat      st;
    vo_upload_row_t  now;

    fd = vo_store_open(t->store, t->part, O_RDWR, t->err, sizeof(t->err));
    if (fd == -1) {
        return;
    }

    while (flock(fd, LOCK_EX) == -1 && errno == EINTR) {
        /* void */
    }

    if (vo_ledger_upload_lock(l, t->up.upload_id, &now, t->err,
                              sizeof(t->err))
        != VO_LEDGER_OK)
    {
        goto done;
    }

    if (now.writer != t->up.writer || now.offset != t->up_offset
        || now.completed
        || (t->chunk_staged == 0 && ftruncate(fd, t->up_offset) == -1))
    {
        vo_ledger_upload_unlock(l);
        goto done;
    }

    in = t->chunk_staged;
    out = t->up_offset + in;
    end = t->chunk_len;

    for (pass = 0; pass < 16; pass++) {

        start = in;

        while (in < end) {
            n = copy_file_range(t->chunk_fd, &in, fd, &out,
                                (size_t) (end - in), 0);
            if (n <= 0) {
                /* another filesystem, or full: the commit copes */
                goto copied;
            }
        }

        if (t->mcf->durable) {
            (void) sync_file_range(fd, t->up_offset + start, in - start,
                                   SYNC_FILE_RANGE_WRITE);
        }

        if (fstat(t->chunk_fd, &st) == -1
            || st.st_size - in < NGX_HTTP_VIDEO_OCR_STAGE_BYTES / 4)
        {
            break;
        }

        end = st.st_size;
    }

copied:

    vo_ledger_upload_unlock(l);

    t->chunk_staged = in;

done:

    (void) flock(fd, LOCK_UN);
    (void) close(fd);
}


/*
 * The commit (invariants 11 and 12): the partial file's flock for this
 * host's processes, the row's lock for other hosts (PostgreSQL), the
 * token and the offset checked, then truncate to the offset and what was
 * staged, append the rest, fdatasync, and the offset advanced; then the
 * completion, if it is one.
 */

static void
ngx_http_video_ocr_upload_commit(ngx_http_video_ocr_task_t *t,
    vo_ledger_t *l)
{
    int              fd;
    char             err[64];
    vo_upload_row_t  now;

    fd = vo_store_open(t->store, t->part, O_RDWR, t->err, sizeof(t->err));

    if (fd == -1) {
        if (errno == ENOENT) {
            /* deleted (DELETE, the janitor) since the claim */
            t->up_stale = 1;
            t->ledger_rc = VO_LEDGER_OK;
            return;
        }

        t->store_rc = VO_STORE_ERROR;
        t->ledger_rc = VO_LEDGER_ERROR;
        return;
    }

    while (flock(fd, LOCK_EX) == -1 && errno == EINTR) {
        /* void */
    }

    t->ledger_rc = vo_ledger_upload_lock(l, t->up.upload_id, &now, t->err,
                                         sizeof(t->err));

    if (t->ledger_rc == VO_LEDGER_NOT_FOUND) {
        t->up_stale = 1;
        t->ledger_rc = VO_LEDGER_OK;
        goto done;
    }

    if (t->ledger_rc != VO_LEDGER_OK) {
        goto done;
    }

    if (now.writer != t->up.writer || now.offset != t->up_offset
        || now.completed)
    {
        vo_ledger_upload_unlock(l);
        snprintf(t->err, sizeof(t->err), "writer %lld at %lld, this one "
                 "%lld at %lld%s", (long long) now.writer,
                 (long long) now.offset, (long long) t->up.writer,
                 (long long) t->up_offset,
                 now.completed ? ", completed" : "");
        t->up_stale = 1;

        if (now.completed) {
            t->up = now;
            ngx_http_video_ocr_upload_receipt(t, l);
        }

        goto done;
    }

    if (ngx_http_video_ocr_upload_write(t, fd) != 0) {
        vo_ledger_upload_unlock(l);
        t->ledger_rc = VO_LEDGER_ERROR;
        goto done;
    }

    if (now.container[0]) {
        ngx_memcpy(t->up.container, now.container, sizeof(now.container));

    } else {
        ngx_http_video_ocr_upload_sniff(t, fd);

        if (t->up_refused) {
            vo_ledger_upload_unlock(l);
            (void) vo_ledger_upload_delete(l, t->tenant, t->tenant_len,
                                           t->up.upload_id, t->now_ms, &now,
                                           t->err, sizeof(t->err));
            (void) vo_store_remove(t->store, t->part, err, sizeof(err));
            t->ledger_rc = VO_LEDGER_OK;
            goto done;
        }
    }

    t->ledger_rc = vo_ledger_upload_advance(l, &t->up, t->up_offset,
                                            t->now_ms, t->up_ttl_ms, t->err,
                                            sizeof(t->err));

    if (t->ledger_rc == VO_LEDGER_STALE) {
        t->up_stale = 1;
        t->ledger_rc = VO_LEDGER_OK;
        goto done;
    }

    if (t->ledger_rc == VO_LEDGER_OK && t->chunk_fd != -1) {
        /* the chunk file starts over for the next part of the body; if
         * it keeps old bytes, no stage may take them for new ones */
        t->chunk_dirty = ftruncate(t->chunk_fd, 0) == -1;
    }

done:

    (void) flock(fd, LOCK_UN);
    (void) close(fd);

    if (t->ledger_rc == VO_LEDGER_OK && !t->up_stale && t->up_complete) {
        ngx_http_video_ocr_upload_complete(t, l);
    }
}


/*
 * Truncate to the acknowledged offset and the staged part of the chunk
 * (the token check before made sure nobody else wrote since the stages),
 * append the rest of the chunk, fdatasync.
 */

static int
ngx_http_video_ocr_upload_write(ngx_http_video_ocr_task_t *t, int fd)
{
    int       e;
    char     *buf;
    off_t     in, out;
    ssize_t   n, w;

    if (ftruncate(fd, t->up_offset + t->chunk_staged) == -1) {
        goto failed;
    }

    in = t->chunk_staged;
    out = t->up_offset + t->chunk_staged;

    while (in < t->chunk_len) {
        n = copy_file_range(t->chunk_fd, &in, fd, &out,
                            (size_t) (t->chunk_len - in), 0);

        if (n > 0) {
            continue;
        }

        if (n == 0) {
            errno = EIO;
            goto failed;
        }

        if (errno != EXDEV && errno != ENOSYS && errno != EINVAL) {
            goto failed;
        }

        /* client_body_temp_path on another filesystem: read and write */

        buf = malloc(256 * 1024);
        if (buf == NULL) {
            goto failed;
        }

        while (in < t->chunk_len) {
            n = pread(t->chunk_fd, buf, 256 * 1024, in);

            if (n <= 0) {
                e = n == 0 ? EIO : errno;
                free(buf);
                errno = e;
                goto failed;
            }

            w = pwrite(fd, buf, (size_t) n, out);

            if (w != n) {
                e = w == -1 ? errno : EIO;
                free(buf);
                errno = e;
                goto failed;
            }

            in += n;
            out += n;
        }

        free(buf);
    }

    if (t->mcf->durable && fdatasync(fd) == -1) {
        goto failed;
    }

    return 0;

failed:

    e = errno;
    t->store_rc = (e == ENOSPC || e == EDQUOT) ? VO_STORE_FULL
                                               : VO_STORE_ERROR;
    snprintf(t->err, sizeof(t->err), "upload %s: appending %lld bytes at "
             "%lld failed: %s", t->up.upload_id, (long long) t->chunk_len,
             (long long) t->up_offset, strerror(e));

    return -1;
}


/*
 * The container, from the upload's first bytes, once there are enough
 * of them (or the upload is complete): a refusal (415) ends the upload,
 * as a POST of those bytes would have been refused.
 */

static void
ngx_http_video_ocr_upload_sniff(ngx_http_video_ocr_task_t *t, int fd)
{
    ssize_t         n;
    unsigned char   head[VO_SNIFF_BYTES];
    vo_container_t  c;

    if (t->up.offset < VO_SNIFF_BYTES && !t->up_complete) {
        return;
    }

    n = pread(fd, head, sizeof(head), 0);
    if (n < 0) {
        return;
    }

    c = vo_sniff_container(head, (size_t) n, 1);

    if (c <= VO_CONTAINER_UNKNOWN
        || !(t->containers & ((ngx_uint_t) 1 << c)))
    {
        t->up_refused = 1;
        return;
    }

    snprintf(t->up.container, sizeof(t->up.container), "%s",
             vo_container_name(c));
}


/*
 * The completion: the partial file gets the job's input name (a link,
 * no copy) and the admission runs as for a POST, marking the upload
 * completed in its transaction (invariant 13).  A created job keeps the
 * link and the partial name goes; otherwise the link goes, and the
 * partial name too unless the admission failed (the client retries).
 */

static void
ngx_http_video_ocr_upload_complete(ngx_http_video_ocr_task_t *t,
    vo_ledger_t *l)
{
    char  err[64];

    t->admission.container = t->up.container;

    t->store_rc = vo_store_link(t->store, t->part, t->rel, t->err,
                                sizeof(t->err));
    if (t->store_rc != VO_STORE_OK) {
        t->ledger_rc = VO_LEDGER_ERROR;
        return;
    }

    ngx_http_video_ocr_admit_group(t);

    if (t->ledger_rc == VO_LEDGER_STALE) {
        /* another request completed it: answer with its receipt */
        t->up_stale = 1;
        t->ledger_rc = vo_ledger_upload_get(l, t->tenant, t->tenant_len,
                                            t->up.upload_id, t->now_ms,
                                            &t->up, t->err, sizeof(t->err));
        ngx_http_video_ocr_upload_receipt(t, l);
        return;
    }

    if (t->ledger_rc == VO_LEDGER_OK) {
        (void) vo_store_remove(t->store, t->part, err, sizeof(err));
        t->up.completed = (t->receipt.outcome != VO_ADMIT_MISMATCH);
    }
}
