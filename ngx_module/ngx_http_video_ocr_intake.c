/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The upload endpoint (video_ocr_intake).  In the event loop, in order:
 *
 *   1. edge checks that need no body: method, tenant, Idempotency-Key,
 *      options (400/403/405 before a byte of the body is stored);
 *   2. read the body; the body filter hashes and sniffs it on the way;
 *   3. compute the input digest, propose a job id, post ONE task to the
 *      thread pool (ngx_http_video_ocr_task.c) that makes the file durable
 *      in the store and runs the admission transaction;
 *   4. answer from the task's outcome: 202 + receipt, the same receipt with
 *      Idempotent-Replayed: true, 422, 503, 507.
 *
 * The event loop never waits on SQLite or fsync().
 */


#include <openssl/rand.h>

#include "ngx_http_video_ocr.h"


static void ngx_http_video_ocr_md_cleanup(void *data);
static void ngx_http_video_ocr_body_read(ngx_http_request_t *r);
static ngx_int_t ngx_http_video_ocr_post_admission(ngx_http_request_t *r,
    ngx_http_video_ocr_ctx_t *ctx);
static void ngx_http_video_ocr_admitted(ngx_http_request_t *r);
static void ngx_http_video_ocr_keep_temp_name(ngx_http_request_t *r,
    ngx_fd_t fd);


static ngx_str_t  ngx_http_video_ocr_key_header =
    ngx_string("Idempotency-Key");


ngx_int_t
ngx_http_video_ocr_intake_handler(ngx_http_request_t *r)
{
    char                            err[VO_ERR_MAX];
    ngx_int_t                       rc;
    ngx_pool_cleanup_t             *cln;
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

    cln = ngx_pool_cleanup_add(r->pool, 0);
    if (cln == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    ctx->md = EVP_MD_CTX_new();
    if (ctx->md == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    cln->handler = ngx_http_video_ocr_md_cleanup;
    cln->data = ctx->md;

    if (EVP_DigestInit_ex(ctx->md, EVP_sha256(), NULL) != 1) {
        ngx_log_error(NGX_LOG_ALERT, r->connection->log, 0,
                      "video_ocr: EVP_DigestInit_ex() failed");
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


/*
 * Finds and parses the Idempotency-Key header.  One header, one key: a
 * request with two keys is ambiguous and refused.  Returns NGX_OK, or
 * NGX_HTTP_BAD_REQUEST with the reason recorded for the reply.
 */

ngx_int_t
ngx_http_video_ocr_key(ngx_http_request_t *r, ngx_http_video_ocr_ctx_t *ctx,
    ngx_uint_t required)
{
    char              err[VO_ERR_MAX];
    ngx_uint_t        i;
    ngx_list_part_t  *part;
    ngx_table_elt_t  *h, *key;

    key = NULL;
    part = &r->headers_in.headers.part;
    h = part->elts;

    for (i = 0; /* void */ ; i++) {

        if (i >= part->nelts) {
            if (part->next == NULL) {
                break;
            }

            part = part->next;
            h = part->elts;
            i = 0;
        }

        if (h[i].key.len != ngx_http_video_ocr_key_header.len
            || ngx_strncasecmp(h[i].key.data,
                               ngx_http_video_ocr_key_header.data,
                               h[i].key.len) != 0)
        {
            continue;
        }

        if (key != NULL) {
            ngx_http_video_ocr_set_problem(r, NGX_HTTP_VIDEO_OCR_BAD_KEY,
                                           NULL);
            return NGX_HTTP_BAD_REQUEST;
        }

        key = &h[i];
    }

    if (key == NULL) {
        if (!required) {
            return NGX_OK;
        }

        ngx_http_video_ocr_set_problem(r, NGX_HTTP_VIDEO_OCR_MISSING_KEY,
                                       NULL);
        return NGX_HTTP_BAD_REQUEST;
    }

    if (vo_key_parse((char *) key->value.data, key->value.len, ctx->key,
                     &ctx->key_len, err, sizeof(err))
        != 0)
    {
        ngx_log_error(NGX_LOG_INFO, r->connection->log, 0,
                      "video_ocr: bad Idempotency-Key: %s", err);
        ngx_http_video_ocr_set_problem(r, NGX_HTTP_VIDEO_OCR_BAD_KEY, err);
        return NGX_HTTP_BAD_REQUEST;
    }

    ctx->has_key = 1;

    ngx_http_video_ocr_key_hash(r, ctx);

    return NGX_OK;
}


/*
 * $video_ocr_key_hash: HMAC-SHA256(video_ocr_key_hash_secret,
 * tenant NUL key), first 8 bytes in hex.  Joins log lines of one intent
 * without writing the key itself anywhere.
 */

void
ngx_http_video_ocr_key_hash(ngx_http_request_t *r,
    ngx_http_video_ocr_ctx_t *ctx)
{
    ngx_http_video_ocr_main_conf_t  *mcf;

    mcf = ngx_http_get_module_main_conf(r, ngx_http_video_ocr_module);

    vo_key_hash((char *) mcf->key_hash_secret.data,
                mcf->key_hash_secret.len, (char *) ctx->tenant.data,
                ctx->tenant.len, ctx->key, ctx->key_len,
                (char *) ctx->key_hash);
}


static void
ngx_http_video_ocr_md_cleanup(void *data)
{
    EVP_MD_CTX_free(data);
}


/* The post handler: the whole body is in memory or in the temp file. */

static void
ngx_http_video_ocr_body_read(ngx_http_request_t *r)
{
    u_char                     digest[EVP_MAX_MD_SIZE];
    unsigned int               len;
    EVP_MD_CTX                *md;
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

    ngx_http_video_ocr_hex((u_char *) ctx->body_sha256, digest, len);

    /*
     * input_digest = SHA-256("video-ocr/1\n" body-sha256-hex "\n"
     *                        canonical-options): what was asked, exactly
     */

    md = ctx->md;

    if (EVP_DigestInit_ex(md, EVP_sha256(), NULL) != 1
        || EVP_DigestUpdate(md, "video-ocr/1\n", 12) != 1
        || EVP_DigestUpdate(md, ctx->body_sha256, VO_DIGEST_HEX_LEN) != 1
        || EVP_DigestUpdate(md, "\n", 1) != 1
        || EVP_DigestUpdate(md, ctx->options_json,
                            ngx_strlen(ctx->options_json)) != 1
        || EVP_DigestFinal_ex(md, digest, &len) != 1)
    {
        ngx_log_error(NGX_LOG_ALERT, r->connection->log, 0,
                      "video_ocr: input digest failed");
        ngx_http_finalize_request(r, NGX_HTTP_INTERNAL_SERVER_ERROR);
        return;
    }

    ngx_http_video_ocr_hex((u_char *) ctx->input_digest, digest, len);

    /* no more hashing: the body filter lets the rest pass untouched */

    ctx->md = NULL;

    rc = ngx_http_video_ocr_post_admission(r, ctx);

    if (rc != NGX_OK) {
        ngx_http_finalize_request(r, ngx_http_video_ocr_refuse(r));
    }
}


/*
 * The job id: the admission's time in milliseconds (48 bits, big
 * endian), then 80 random bits, as in a UUIDv7.  Ids that grow with time
 * keep every index on job_id (jobs, requests, events) appending to its
 * last pages, so a batch of admissions dirties a few shared pages
 * instead of one random page per index and admission; 80 random bits
 * keep the id unguessable.  job_id holds VO_JOB_ID_LEN + 1 bytes.
 */

ngx_int_t
ngx_http_video_ocr_new_job_id(ngx_http_request_t *r, char *job_id)
{
    u_char       rnd[VO_JOB_ID_LEN / 2];
    size_t       n;
    uint64_t     ms;
    ngx_time_t  *tp;

    tp = ngx_timeofday();
    ms = (uint64_t) tp->sec * 1000 + tp->msec;

    for (n = 0; n < 6; n++) {
        rnd[n] = (u_char) (ms >> (40 - 8 * n));
    }

    if (RAND_bytes(rnd + 6, sizeof(rnd) - 6) != 1) {
        ngx_log_error(NGX_LOG_ALERT, r->connection->log, 0,
                      "video_ocr: RAND_bytes() failed");
        return NGX_ERROR;
    }

    ngx_http_video_ocr_hex((u_char *) job_id, rnd, sizeof(rnd));

    return NGX_OK;
}


static ngx_int_t
ngx_http_video_ocr_post_admission(ngx_http_request_t *r,
    ngx_http_video_ocr_ctx_t *ctx)
{
    size_t                           n;
    ngx_buf_t                       *b;
    ngx_chain_t                     *cl;
    vo_chunk_t                      *chunk;
    vo_admission_t                  *a;
    ngx_thread_task_t               *task;
    ngx_http_request_body_t         *rb;
    ngx_http_video_ocr_task_t       *t;
    ngx_http_video_ocr_loc_conf_t   *vlcf;
    ngx_http_video_ocr_main_conf_t  *mcf;

    mcf = ngx_http_get_module_main_conf(r, ngx_http_video_ocr_module);

    if (ngx_http_video_ocr_new_job_id(r, ctx->job_id) != NGX_OK) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    task = ngx_http_video_ocr_task_alloc(r);
    if (task == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    t = task->ctx;
    t->kind = NGX_HTTP_VIDEO_OCR_TASK_ADMIT;
    t->temp_fd = -1;

    vo_store_input_path(ctx->job_id, t->rel);

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

    a = &t->admission;
    a->tenant = (char *) ctx->tenant.data;
    a->tenant_len = ctx->tenant.len;
    a->key = ctx->has_key ? ctx->key : NULL;
    a->key_len = ctx->key_len;
    a->input_digest = ctx->input_digest;
    a->job_id = ctx->job_id;
    a->options = ctx->options_json;
    a->input_path = t->rel;
    a->input_size = ctx->received;
    a->input_sha256 = ctx->body_sha256;
    a->container = vo_container_name(ctx->container);
    a->now_ms = (int64_t) ngx_time() * 1000 + (int64_t) ngx_timeofday()->msec;
    a->receipt_ttl_ms = (int64_t) mcf->receipt_ttl * 1000;
    a->max_attempts = (int) mcf->max_attempts;

    /* the status URL as the receipt gives it, for the notifications */

    vlcf = ngx_http_get_module_loc_conf(r, ngx_http_video_ocr_module);

    ctx->status_url.len = vlcf->jobs_url.len + VO_JOB_ID_LEN;
    ctx->status_url.data = ngx_pnalloc(r->pool, ctx->status_url.len);
    if (ctx->status_url.data == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
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

    /* the tenant's queue cap, checked by the admission */
    a->max_queued = vlcf->tenant_max_queued;

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


/*
 * 202 Accepted, Location of the job, and the receipt: the same bytes for
 * the first answer and every replay of it.
 */

ngx_int_t
ngx_http_video_ocr_send_receipt(ngx_http_request_t *r,
    ngx_http_video_ocr_ctx_t *ctx, ngx_uint_t replayed)
{
    u_char                         *p, *last;
    size_t                          len;
    ngx_table_elt_t                *h;
    vo_buf_t                        b;
    ngx_http_video_ocr_task_t      *t;
    ngx_http_video_ocr_loc_conf_t  *vlcf;

    vlcf = ngx_http_get_module_loc_conf(r, ngx_http_video_ocr_module);
    t = ctx->task;

    len = vlcf->jobs_url.len + VO_JOB_ID_LEN;

    p = ngx_pnalloc(r->pool, len);
    if (p == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    last = ngx_cpymem(p, vlcf->jobs_url.data, vlcf->jobs_url.len);
    (void) ngx_cpymem(last, ctx->job_id, VO_JOB_ID_LEN);

    h = ngx_list_push(&r->headers_out.headers);
    if (h == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    h->hash = 1;
    ngx_str_set(&h->key, "Location");
    h->value.data = p;
    h->value.len = len;
    r->headers_out.location = h;

    if (replayed) {
        h = ngx_list_push(&r->headers_out.headers);
        if (h == NULL) {
            return NGX_HTTP_INTERNAL_SERVER_ERROR;
        }

        h->hash = 1;
        ngx_str_set(&h->key, "Idempotent-Replayed");
        ngx_str_set(&h->value, "true");
    }

    vo_buf_init(&b);
    vo_buf_adds(&b, "{\"job_id\":");
    vo_json_str(&b, ctx->job_id, VO_JOB_ID_LEN);
    vo_buf_adds(&b, ",\"status_url\":");
    vo_json_str(&b, (char *) p, len);
    vo_buf_adds(&b, ",\"input_digest\":");
    vo_json_str(&b, ctx->input_digest, VO_DIGEST_HEX_LEN);
    vo_buf_adds(&b, ",\"options\":");
    vo_buf_adds(&b, ctx->options_json);
    vo_buf_adds(&b, ",\"created_at\":");
    vo_json_time(&b, t->receipt.created_at);
    vo_buf_adds(&b, ",\"expires_at\":");
    vo_json_time(&b, ctx->has_key ? t->receipt.expires_at : -1);
    vo_buf_adds(&b, "}\n");

    if (b.failed) {
        vo_buf_free(&b);
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    p = ngx_pnalloc(r->pool, b.len);
    if (p == NULL) {
        vo_buf_free(&b);
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    ngx_memcpy(p, b.data, b.len);
    len = b.len;
    vo_buf_free(&b);

    return ngx_http_video_ocr_send_json(r, NGX_HTTP_ACCEPTED, p, len);
}


void
ngx_http_video_ocr_hex(u_char *dst, u_char *src, size_t len)
{
    dst = ngx_hex_dump(dst, src, len);
    *dst = '\0';
}
