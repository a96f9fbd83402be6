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
 *   thread:     (the upload's tasks, ngx_http_video_ocr_upload_task.c)
 *               while reading goes on, every NGX_HTTP_VIDEO_OCR_STAGE_BYTES
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
 *   completion: the admission is filled by the code that fills a POST's
 *               (ngx_http_video_ocr_admission), and the last commit's
 *               task links the partial file into the store as the job's
 *               input and admits it through the group commit, exactly as
 *               a POST (invariant 13).
 *
 * A second append to the same upload claims it (writer + 1): this one's
 * next commit then finds its token stale, drops its chunk and ends the
 * request with 409, as the draft recommends (an in-flight append is
 * ended, never two writers on one file).  The event loop never waits on
 * the ledger, a flock or fsync.
 */

#include "ngx_http_video_ocr_resumable.h"


#define NGX_HTTP_VIDEO_OCR_COMMIT_BYTES  (8 * 1024 * 1024)


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
static ngx_int_t ngx_http_video_ocr_append_admission(ngx_http_request_t *r,
    ngx_http_video_ocr_task_t *t);
static void ngx_http_video_ocr_append_committed(ngx_http_request_t *r);
static void ngx_http_video_ocr_append_done(ngx_http_request_t *r,
    ngx_http_video_ocr_ctx_t *ctx, ngx_http_video_ocr_task_t *t);


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

    if (up->has_checksum) {
        /* Upload-Checksum: the digest of this request's bytes */
        up->chunk_md = ngx_http_video_ocr_md(r,
                           up->checksum_algo == VO_CHECKSUM_SHA1
                           ? EVP_sha1() : EVP_sha256());
        if (up->chunk_md == NULL) {
            ngx_http_finalize_request(r, NGX_HTTP_INTERNAL_SERVER_ERROR);
            return;
        }
    }

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
                        ngx_http_video_ocr_upload_stage_thread);
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

        if (up->has_checksum
            && EVP_DigestUpdate(up->chunk_md, b->pos, n) != 1)
        {
            *outcome = NGX_HTTP_VIDEO_OCR_INTERNAL;
            return NGX_ERROR;
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
    unsigned int   n;
    unsigned char  sum[EVP_MAX_MD_SIZE];

    if (up->has_checksum) {
        if (EVP_DigestFinal_ex(up->chunk_md, sum, &n) != 1) {
            ngx_http_finalize_request(r, NGX_HTTP_INTERNAL_SERVER_ERROR);
            return;
        }

        if (ngx_memcmp(sum, up->checksum, n) != 0) {
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
        /* a partial upload whole is no job: its final upload joins it */
        complete = (length >= 0 && total == length
                    && ngx_strcmp(up->row.concat, "partial") != 0);

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
               ngx_http_video_ocr_upload_commit_thread);
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

    if (complete && ngx_http_video_ocr_append_admission(r, t) != NGX_OK) {
        /* the bytes are committed all the same, nothing is completed */
        t->up_complete = 0;
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


/*
 * The admission of a completing append, by the same code as a POST's:
 * the key and the options the upload was created with, the body's
 * SHA-256 from the running one.
 */

static ngx_int_t
ngx_http_video_ocr_append_admission(ngx_http_request_t *r,
    ngx_http_video_ocr_task_t *t)
{
    u_char                     digest[SHA256_DIGEST_LENGTH];
    SHA256_CTX                 fin;
    ngx_http_video_ocr_up_t   *up;
    ngx_http_video_ocr_ctx_t  *ctx;

    ctx = ngx_http_get_module_ctx(r, ngx_http_video_ocr_module);
    up = ctx->up;

    fin = up->sha;
    SHA256_Final(digest, &fin);

    (void) ngx_cpystrn((u_char *) ctx->options_json,
                       (u_char *) up->row.options,
                       sizeof(ctx->options_json));

    ctx->has_key = up->row.has_key;
    ctx->key_len = ngx_strlen(up->row.key);
    ngx_memcpy(ctx->key, up->row.key, ctx->key_len);

    if (ctx->has_key) {
        ngx_http_video_ocr_key_hash(r, ctx);
    }

    if (ngx_http_video_ocr_admission(r, t, digest, t->up.offset) != NGX_OK) {
        return NGX_ERROR;
    }

    t->admission.container = NULL;          /* the commit sniffs it */
    t->admission.upload_id = t->up.upload_id;
    t->admission.upload_writer = t->up.writer;

    return NGX_OK;
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


/*
 * The completion's admission decided: the receipt, a replay, 422, or
 * the tenant's queue is full (the upload stays, with all its bytes).
 */

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

    case VO_ADMIT_QUEUE_FULL:
        ngx_log_error(NGX_LOG_INFO, r->connection->log, 0,
                      "video_ocr: tenant \"%V\" has %i jobs waiting "
                      "(video_ocr_tenant_max_queued): upload %s not "
                      "completed", &ctx->tenant, t->admission.max_queued,
                      up->id);
        ctx->job_id[0] = '\0';
        ngx_http_video_ocr_upload_end(r,
            NGX_HTTP_VIDEO_OCR_TENANT_QUEUE_FULL, NULL);
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
