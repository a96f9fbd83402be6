/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The upload endpoint (video_ocr_intake).  In the event loop, in order:
 *
 *   1. edge checks that need no body: method, tenant, Idempotency-Key,
 *      options (400/403/405 before a byte of the body is stored);
 *   2. read the body; the body filter hashes and sniffs it on the way;
 *   3. the admission (ngx_http_video_ocr_admit.c): the input digest, a
 *      job id, ONE task posted to the thread pool that makes the file
 *      durable in the store and runs the admission transaction;
 *   4. answer from the task's outcome: 202 + receipt, the same receipt with
 *      Idempotent-Replayed: true, 422, 503, 507.
 *
 * The event loop never waits on SQLite or fsync().
 */


#include "ngx_http_video_ocr.h"


static void ngx_http_video_ocr_body_read(ngx_http_request_t *r);
static ngx_int_t ngx_http_video_ocr_post_admission(ngx_http_request_t *r,
    ngx_http_video_ocr_ctx_t *ctx, u_char *body_sha256);
static void ngx_http_video_ocr_admitted(ngx_http_request_t *r);
static void ngx_http_video_ocr_keep_temp_name(ngx_http_request_t *r,
    ngx_fd_t fd);


ngx_int_t
ngx_http_video_ocr_intake_handler(ngx_http_request_t *r)
{
    char                            err[VO_ERR_MAX];
    ngx_int_t                       rc;
    ngx_http_video_ocr_ctx_t       *ctx;
    ngx_http_video_ocr_loc_conf_t  *vlcf;

    if (r != r->main) {
        return NGX_HTTP_NOT_ALLOWED;
    }

    ctx = ngx_http_video_ocr_get_ctx(r);
    if (ctx == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    /* the resumable protocols, told apart by their headers */

    rc = ngx_http_video_ocr_upload_handler(r);
    if (rc != NGX_DECLINED) {
        return rc;
    }

    if (!(r->method & NGX_HTTP_POST)) {
        return ngx_http_video_ocr_send_problem(r,
                   NGX_HTTP_VIDEO_OCR_METHOD_NOT_ALLOWED,
                   "upload the video with POST", NULL);
    }

    vlcf = ngx_http_get_module_loc_conf(r, ngx_http_video_ocr_module);

    rc = ngx_http_video_ocr_tenant(r, vlcf, &ctx->tenant);

    if (rc == NGX_ERROR) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    if (rc == NGX_DECLINED) {
        ngx_log_error(NGX_LOG_INFO, r->connection->log, 0,
                      "video_ocr: video_ocr_tenant is empty or longer than "
                      "255 bytes");
        return ngx_http_video_ocr_send_problem(r,
                   NGX_HTTP_VIDEO_OCR_NO_TENANT,
                   "the request carries no identity to file the upload "
                   "under", NULL);
    }

    rc = ngx_http_video_ocr_key(r, ctx, vlcf->key_required);
    if (rc != NGX_OK) {
        return ngx_http_video_ocr_refuse(r);
    }

    if (ctx->has_key) {
        ngx_http_video_ocr_key_hash(r, ctx);
    }

    /* where this job's notifications will go */

    if (ngx_http_video_ocr_webhook(r, vlcf, ctx) != NGX_OK) {
        return ngx_http_video_ocr_send_problem(r, NGX_HTTP_VIDEO_OCR_INTERNAL,
                   "the server's webhook configuration for this request "
                   "is not usable; its error log says why", NULL);
    }

    vo_options_init(&ctx->options);

    if (vo_options_parse_query(&ctx->options, (char *) r->args.data,
                               r->args.len, err, sizeof(err))
        != 0)
    {
        ngx_log_error(NGX_LOG_INFO, r->connection->log, 0,
                      "video_ocr: bad options: %s", err);
        return ngx_http_video_ocr_send_problem(r,
                   NGX_HTTP_VIDEO_OCR_BAD_OPTIONS, err, NULL);
    }

    if (vo_options_canonical(&ctx->options, ctx->options_json,
                             sizeof(ctx->options_json))
        == 0)
    {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    /* hash the body as it streams in: see ngx_http_video_ocr_body.c */

    ctx->md = ngx_http_video_ocr_md(r, EVP_sha256());
    if (ctx->md == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    /*
     * a named temp file that nginx deletes when the request ends unless
     * the admission task has renamed it into the store first
     */

    r->request_body_in_persistent_file = 1;
    r->request_body_in_clean_file = 1;
    r->request_body_file_group_access = 1;
    r->request_body_file_log_level = 0;

    rc = ngx_http_read_client_request_body(r, ngx_http_video_ocr_body_read);

    if (rc >= NGX_HTTP_SPECIAL_RESPONSE) {
        return rc;
    }

    return NGX_DONE;
}


/* The post handler: the whole body is in memory or in the temp file. */

static void
ngx_http_video_ocr_body_read(ngx_http_request_t *r)
{
    u_char                     digest[EVP_MAX_MD_SIZE];
    unsigned int               len;
    ngx_int_t                  rc;
    ngx_http_video_ocr_ctx_t  *ctx;

    ctx = ngx_http_get_module_ctx(r, ngx_http_video_ocr_module);

    if (ctx->received == 0) {
        ngx_http_finalize_request(r,
            ngx_http_video_ocr_send_problem(r, NGX_HTTP_VIDEO_OCR_EMPTY_BODY,
                                            NULL, NULL));
        return;
    }

    if (EVP_DigestFinal_ex(ctx->md, digest, &len) != 1) {
        ngx_log_error(NGX_LOG_ALERT, r->connection->log, 0,
                      "video_ocr: EVP_DigestFinal_ex() failed");
        ngx_http_finalize_request(r, NGX_HTTP_INTERNAL_SERVER_ERROR);
        return;
    }

    /* no more hashing: the body filter lets the rest pass untouched */

    ctx->md = NULL;

    rc = ngx_http_video_ocr_post_admission(r, ctx, digest);

    if (rc != NGX_OK) {
        ngx_http_finalize_request(r, ngx_http_video_ocr_refuse(r));
    }
}


/*
 * The admission task of the body, wherever nginx put it: the temp file,
 * or the buffers in memory.
 */

static ngx_int_t
ngx_http_video_ocr_post_admission(ngx_http_request_t *r,
    ngx_http_video_ocr_ctx_t *ctx, u_char *body_sha256)
{
    size_t                      n;
    ngx_buf_t                  *b;
    ngx_chain_t                *cl;
    vo_chunk_t                 *chunk;
    ngx_thread_task_t          *task;
    ngx_http_request_body_t    *rb;
    ngx_http_video_ocr_task_t  *t;

    task = ngx_http_video_ocr_task_alloc(r, ngx_http_video_ocr_admit_thread);
    if (task == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    t = task->ctx;

    if (ngx_http_video_ocr_admission(r, t, body_sha256, ctx->received)
        != NGX_OK)
    {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    t->admission.container = vo_container_name(ctx->container);

    rb = r->request_body;

    ngx_log_debug2(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                   "video_ocr admission: job %s, body in %s", ctx->job_id,
                   rb->temp_file ? "a temp file" : "memory");

    if (rb->temp_file) {
        /* the whole body is in the temp file */
        t->temp_fd = rb->temp_file->file.fd;
        t->temp_path = (char *) rb->temp_file->file.name.data;

    } else {
        n = 0;
        for (cl = rb->bufs; cl; cl = cl->next) {
            n++;
        }

        t->chunks = ngx_palloc(r->pool, n * sizeof(vo_chunk_t));
        if (t->chunks == NULL) {
            return NGX_HTTP_INTERNAL_SERVER_ERROR;
        }

        chunk = t->chunks;

        for (cl = rb->bufs; cl; cl = cl->next) {
            b = cl->buf;

            if (b->in_file || ngx_buf_size(b) == 0) {
                continue;
            }

            chunk->data = (char *) b->pos;
            chunk->len = b->last - b->pos;
            chunk++;
        }

        t->nchunks = chunk - t->chunks;
    }

    ctx->task = t;

    return ngx_http_video_ocr_task_post(r, task, ngx_http_video_ocr_admitted);
}


/* Runs in the event loop once the admission task is done. */

static void
ngx_http_video_ocr_admitted(ngx_http_request_t *r)
{
    ngx_int_t                   rc;
    ngx_http_video_ocr_ctx_t   *ctx;
    ngx_http_video_ocr_task_t  *t;

    if (r->aio) {
        /* a write event while the task runs: keep waiting */
        return;
    }

    r->write_event_handler = ngx_http_request_empty_handler;

    ctx = ngx_http_get_module_ctx(r, ngx_http_video_ocr_module);
    t = ctx->task;

    if (t->temp_moved) {
        ngx_http_video_ocr_keep_temp_name(r, t->temp_fd);
    }

    if (t->copied) {
        ngx_log_error(NGX_LOG_NOTICE, r->connection->log, 0,
                      "video_ocr: upload copied into the store: "
                      "client_body_temp_path is on another filesystem");
    }

    if (t->store_rc != VO_STORE_OK) {
        ngx_log_error(NGX_LOG_CRIT, r->connection->log, 0,
                      "video_ocr: store: %s", t->err);

        if (t->store_rc == VO_STORE_FULL) {
            rc = ngx_http_video_ocr_send_problem(r,
                     NGX_HTTP_VIDEO_OCR_DISK_FULL, NULL, NULL);

        } else {
            rc = ngx_http_video_ocr_send_problem(r,
                     NGX_HTTP_VIDEO_OCR_INTERNAL,
                     "the upload could not be stored", NULL);
        }

        ngx_http_finalize_request(r, rc);
        return;
    }

    if (t->ledger_rc != VO_LEDGER_OK) {
        ngx_http_finalize_request(r,
            ngx_http_video_ocr_ledger_reply(r, t->ledger_rc,
                "the upload could not be recorded", t->err));
        return;
    }

    ngx_memcpy(ctx->job_id, t->receipt.job_id, VO_JOB_ID_LEN + 1);

    switch (t->receipt.outcome) {

    case VO_ADMIT_CREATED:
        ctx->admitted = NGX_HTTP_VIDEO_OCR_CREATED;
        rc = ngx_http_video_ocr_send_receipt(r, ctx, 0);
        break;

    case VO_ADMIT_REPLAYED:
        ctx->admitted = NGX_HTTP_VIDEO_OCR_REPLAYED;
        rc = ngx_http_video_ocr_send_receipt(r, ctx, 1);
        break;

    case VO_ADMIT_QUEUE_FULL:
        ngx_log_error(NGX_LOG_INFO, r->connection->log, 0,
                      "video_ocr: tenant \"%V\" has %i jobs waiting "
                      "(video_ocr_tenant_max_queued): upload refused",
                      &ctx->tenant, t->admission.max_queued);
        ctx->job_id[0] = '\0';
        rc = ngx_http_video_ocr_send_problem(r,
                 NGX_HTTP_VIDEO_OCR_TENANT_QUEUE_FULL, NULL, NULL);
        break;

    default: /* VO_ADMIT_MISMATCH */
        ngx_log_error(NGX_LOG_INFO, r->connection->log, 0,
                      "video_ocr: Idempotency-Key reused with another "
                      "payload, job %s", ctx->job_id);
        ctx->admitted = NGX_HTTP_VIDEO_OCR_KEY_REUSED;
        rc = ngx_http_video_ocr_send_problem(r,
                 NGX_HTTP_VIDEO_OCR_KEY_REUSED, NULL, ctx->job_id);
        break;
    }

    ngx_http_finalize_request(r, rc);
}


/*
 * The body's temp file was renamed into the store: when the request
 * ends nginx would unlink its old name, which may by then be another
 * request's temp file (two nginx sharing a client_body_temp_path both
 * count their temp files from 1).  Its cleanup now only closes the file.
 */

static void
ngx_http_video_ocr_keep_temp_name(ngx_http_request_t *r, ngx_fd_t fd)
{
    ngx_pool_cleanup_t       *c;
    ngx_pool_cleanup_file_t  *cf;

    for (c = r->pool->cleanup; c; c = c->next) {

        if (c->handler != ngx_pool_delete_file) {
            continue;
        }

        cf = c->data;

        if (cf->fd == fd) {
            c->handler = ngx_pool_cleanup_file;
        }
    }
}
