/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Resumable uploads on the intake location (docs/http-api.md, "Resumable
 * uploads"): the IETF draft (draft-ietf-httpbis-resumable-upload,
 * interop version 8, and 6 as tus-js-client 4.x's ietf-draft-05 sends
 * it) and tus 1.0, told apart by their headers:
 *
 *   Tus-Resumable                       tus 1.0
 *   Upload-Draft-Interop-Version or
 *   Upload-Complete                     the IETF draft
 *   neither, on the intake itself       the plain POST of
 *                                       ngx_http_video_ocr_intake.c
 *
 * An upload resource is "<intake URI>/<upload id>", below the intake
 * location when that is a prefix location; its id is 128 random bits.
 * This file takes the requests: it creates uploads, answers HEAD, DELETE
 * and OPTIONS, and claims an upload for an append, whose body
 * ngx_http_video_ocr_append.c reads and commits; the completion is the
 * ordinary admission.  The other files of the resumable uploads are
 * listed in ngx_http_video_ocr_resumable.h.
 *
 * 104 (Upload Resumption Supported) is sent to HTTP/1.1 clients of
 * interop version 8 when a creation carries a body, the way nginx sends
 * its own "100 Continue" (one small write before the response, see
 * ngx_http_video_ocr_upload_104); nginx 1.22 gives a module no way to
 * send an interim HEADERS frame on HTTP/2, so HTTP/2 clients (and
 * browsers, whose fetch hides 1xx) use the 201 flow.
 */


#include "ngx_http_video_ocr_resumable.h"


static ngx_int_t ngx_http_video_ocr_upload_create(ngx_http_request_t *r,
    ngx_http_video_ocr_ctx_t *ctx, ngx_http_video_ocr_up_t *up);
static void ngx_http_video_ocr_upload_created(ngx_http_request_t *r);
static void ngx_http_video_ocr_upload_claimed(ngx_http_request_t *r);
static void ngx_http_video_ocr_upload_got(ngx_http_request_t *r);
static void ngx_http_video_ocr_upload_deleted(ngx_http_request_t *r);
static ngx_int_t ngx_http_video_ocr_upload_start(ngx_http_request_t *r,
    ngx_http_video_ocr_upload_task_e kind, ngx_http_event_handler_pt done);
static ngx_int_t ngx_http_video_ocr_upload_back(ngx_http_request_t *r,
    const char *what);
static ngx_int_t ngx_http_video_ocr_upload_options(ngx_http_request_t *r);


ngx_int_t
ngx_http_video_ocr_upload_handler(ngx_http_request_t *r)
{
    u_char                         *p, *last;
    ngx_int_t                       rc;
    ngx_uint_t                      n, resource;
    ngx_http_video_ocr_up_t        *up;
    ngx_http_video_ocr_ctx_t       *ctx;
    ngx_http_video_ocr_loc_conf_t  *vlcf;

    ctx = ngx_http_get_module_ctx(r, ngx_http_video_ocr_module);
    vlcf = ngx_http_get_module_loc_conf(r, ngx_http_video_ocr_module);

    /* "<intake>/<upload id>": an upload resource */

    last = r->uri.data + r->uri.len;
    p = last;

    while (p > r->uri.data && p[-1] != '/') {
        p--;
    }

    resource = (p > r->uri.data + 1
                && vo_upload_id_valid((char *) p, last - p));

    if (!resource && !(r->method & NGX_HTTP_OPTIONS)
        && ngx_http_video_ocr_header_in(r, "Tus-Resumable", &n) == NULL
        && ngx_http_video_ocr_header_in(r, "Upload-Draft-Interop-Version",
                                        &n) == NULL
        && ngx_http_video_ocr_header_in(r, "Upload-Complete", &n) == NULL)
    {
        return NGX_DECLINED;
    }

    up = ngx_pcalloc(r->pool, sizeof(ngx_http_video_ocr_up_t));
    if (up == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    ctx->up = up;
    up->length = -1;
    up->offset = -1;
    up->row.length = -1;
    vo_options_init(&up->meta.options);

    if (resource) {
        ngx_memcpy(up->id, p, VO_UPLOAD_ID_LEN);
        up->base.data = r->uri.data;
        up->base.len = p - 1 - r->uri.data;

    } else {
        up->base = r->uri;

        while (up->base.len > 1 && up->base.data[up->base.len - 1] == '/') {
            up->base.len--;
        }
    }

    rc = ngx_http_video_ocr_upload_parse(r, ctx, up);
    if (rc != NGX_OK) {
        return ngx_http_video_ocr_upload_reply(r, ctx->outcome,
                   ctx->problem_detail.data ? (char *) ctx->problem_detail.data
                                            : NULL);
    }

    if (r->method & NGX_HTTP_OPTIONS) {
        return ngx_http_video_ocr_upload_options(r);
    }

    rc = ngx_http_video_ocr_tenant(r, vlcf, &ctx->tenant);

    if (rc == NGX_ERROR) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    if (rc == NGX_DECLINED) {
        return ngx_http_video_ocr_send_problem(r,
                   NGX_HTTP_VIDEO_OCR_NO_TENANT, NULL, NULL);
    }

    /* where the job's notifications go, if this request completes it */

    if ((r->method & (NGX_HTTP_POST|NGX_HTTP_PATCH))
        && ngx_http_video_ocr_webhook(r, vlcf, ctx) != NGX_OK)
    {
        return ngx_http_video_ocr_upload_reply(r, NGX_HTTP_VIDEO_OCR_INTERNAL,
                   "the server's webhook configuration for this request "
                   "is not usable; its error log says why");
    }

    if (!resource) {
        if (!(r->method & NGX_HTTP_POST)) {
            return ngx_http_video_ocr_send_problem(r,
                       NGX_HTTP_VIDEO_OCR_METHOD_NOT_ALLOWED,
                       "create an upload with POST", NULL);
        }

        return ngx_http_video_ocr_upload_create(r, ctx, up);
    }

    if (r->method & (NGX_HTTP_HEAD|NGX_HTTP_GET)) {
        rc = ngx_http_discard_request_body(r);
        if (rc != NGX_OK) {
            return rc;
        }

        return ngx_http_video_ocr_upload_start(r,
                   NGX_HTTP_VIDEO_OCR_UPLOAD_GET,
                   ngx_http_video_ocr_upload_got);
    }

    if (r->method & NGX_HTTP_DELETE) {
        rc = ngx_http_discard_request_body(r);
        if (rc != NGX_OK) {
            return rc;
        }

        return ngx_http_video_ocr_upload_start(r,
                   NGX_HTTP_VIDEO_OCR_UPLOAD_DELETE,
                   ngx_http_video_ocr_upload_deleted);
    }

    if (r->method & NGX_HTTP_PATCH) {

        if (up->offset < 0) {
            return ngx_http_video_ocr_upload_reply(r,
                NGX_HTTP_VIDEO_OCR_BAD_UPLOAD_HEADER,
                "an append needs Upload-Offset: the offset it starts at");
        }

        if (!up->tus && !up->has_complete) {
            return ngx_http_video_ocr_upload_reply(r,
                NGX_HTTP_VIDEO_OCR_BAD_UPLOAD_HEADER,
                "an append needs Upload-Complete: ?1 when it ends the "
                "upload, else ?0");
        }

        if (ngx_http_video_ocr_content_type(r,
                up->tus ? "application/offset+octet-stream"
                        : "application/partial-upload") != NGX_OK)
        {
            return ngx_http_video_ocr_upload_reply(r,
                NGX_HTTP_VIDEO_OCR_BAD_CONTENT_TYPE, NULL);
        }

        return ngx_http_video_ocr_upload_start(r,
                   NGX_HTTP_VIDEO_OCR_UPLOAD_CLAIM,
                   ngx_http_video_ocr_upload_claimed);
    }

    return ngx_http_video_ocr_send_problem(r,
               NGX_HTTP_VIDEO_OCR_METHOD_NOT_ALLOWED,
               "an upload answers HEAD, PATCH, DELETE and OPTIONS", NULL);
}


static ngx_int_t
ngx_http_video_ocr_upload_create(ngx_http_request_t *r,
    ngx_http_video_ocr_ctx_t *ctx, ngx_http_video_ocr_up_t *up)
{
    vo_upload_row_t                *u;
    ngx_http_core_loc_conf_t       *clcf;
    ngx_http_video_ocr_main_conf_t *mcf;

    mcf = ngx_http_get_module_main_conf(r, ngx_http_video_ocr_module);
    clcf = ngx_http_get_module_loc_conf(r, ngx_http_core_module);

    if (up->has_length && clcf->client_max_body_size
        && up->length > clcf->client_max_body_size)
    {
        return ngx_http_video_ocr_upload_reply(r, NGX_HTTP_VIDEO_OCR_TOO_LARGE,
            "Upload-Length is more than this endpoint accepts (Upload-Limit "
            "max-size, client_max_body_size)");
    }

    if (ngx_http_video_ocr_has_body(r)
        && ngx_http_video_ocr_content_type(r, up->tus
               ? "application/offset+octet-stream" : NULL) != NGX_OK)
    {
        return ngx_http_video_ocr_upload_reply(r,
            NGX_HTTP_VIDEO_OCR_BAD_CONTENT_TYPE,
            "a tus creation with data needs Content-Type: "
            "application/offset+octet-stream");
    }

    u = &up->row;

    if (ngx_http_video_ocr_random_id(r, u->upload_id, VO_UPLOAD_ID_LEN / 2)
        != NGX_OK)
    {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    ngx_memcpy(up->id, u->upload_id, VO_UPLOAD_ID_LEN + 1);

    (void) ngx_cpystrn((u_char *) u->tenant, ctx->tenant.data,
                       ngx_min(ctx->tenant.len, VO_TENANT_MAX) + 1);
    u->tenant[ngx_min(ctx->tenant.len, VO_TENANT_MAX)] = '\0';
    u->has_key = ctx->has_key;
    ngx_memcpy(u->key, ctx->key, ctx->key_len);
    u->key[ctx->key_len] = '\0';
    (void) ngx_cpystrn((u_char *) u->protocol,
                       (u_char *) (up->tus ? "tus" : "ietf"), 5);
    (void) ngx_cpystrn((u_char *) u->options, (u_char *) ctx->options_json,
                       sizeof(u->options));
    (void) ngx_cpystrn((u_char *) u->filename, (u_char *) up->meta.filename,
                       sizeof(u->filename));
    u->length = up->has_length ? up->length : -1;
    u->expires_at = ngx_http_video_ocr_now_ms()
                    + (int64_t) mcf->upload_ttl * 1000;

    up->creation = 1;

    return ngx_http_video_ocr_upload_start(r,
               NGX_HTTP_VIDEO_OCR_UPLOAD_CREATE,
               ngx_http_video_ocr_upload_created);
}


/* From the content handler: the task holds a reference to the request. */

static ngx_int_t
ngx_http_video_ocr_upload_start(ngx_http_request_t *r,
    ngx_http_video_ocr_upload_task_e kind, ngx_http_event_handler_pt done)
{
    ngx_int_t                  rc;
    ngx_http_video_ocr_ctx_t  *ctx;

    rc = ngx_http_video_ocr_upload_post(r, kind, done);

    if (rc != NGX_OK) {
        ctx = ngx_http_get_module_ctx(r, ngx_http_video_ocr_module);
        return ngx_http_video_ocr_upload_reply(r, ctx->outcome, NULL);
    }

    r->main->count++;

    return NGX_DONE;
}


/*
 * The common start of a task's completion handler: NGX_AGAIN while the
 * task still runs, NGX_OK with the upload's row copied back, or the
 * ledger's failure answered.
 */

static ngx_int_t
ngx_http_video_ocr_upload_back(ngx_http_request_t *r, const char *what)
{
    ngx_http_video_ocr_ctx_t   *ctx;
    ngx_http_video_ocr_task_t  *t;

    if (r->aio) {
        return NGX_AGAIN;
    }

    r->write_event_handler = ngx_http_request_empty_handler;

    ctx = ngx_http_get_module_ctx(r, ngx_http_video_ocr_module);
    t = ctx->task;

    if (t->ledger_rc == VO_LEDGER_NOT_FOUND) {
        ngx_http_video_ocr_upload_end(r, NGX_HTTP_VIDEO_OCR_NO_SUCH_UPLOAD,
                                      NULL);
        return NGX_DONE;
    }

    if (t->ledger_rc != VO_LEDGER_OK && t->ledger_rc != VO_LEDGER_NOT_READY)
    {
        if (t->store_rc != VO_STORE_OK) {
            ngx_log_error(NGX_LOG_CRIT, r->connection->log, 0,
                          "video_ocr: upload %s: %s", ctx->up->id, t->err);
        }

        ngx_http_finalize_request(r,
            ngx_http_video_ocr_ledger_reply(r, t->ledger_rc, what, t->err));
        return NGX_DONE;
    }

    ctx->up->row = t->up;

    return NGX_OK;
}


static void
ngx_http_video_ocr_upload_created(ngx_http_request_t *r)
{
    ngx_http_video_ocr_up_t    *up;
    ngx_http_video_ocr_ctx_t   *ctx;
    ngx_http_video_ocr_task_t  *t;

    if (ngx_http_video_ocr_upload_back(r, "the upload could not be created")
        != NGX_OK)
    {
        return;
    }

    ctx = ngx_http_get_module_ctx(r, ngx_http_video_ocr_module);
    up = ctx->up;
    t = ctx->task;

    if (t->up_outcome == VO_UPLOAD_TOO_MANY) {
        ngx_http_video_ocr_upload_end(r, NGX_HTTP_VIDEO_OCR_TOO_MANY_UPLOADS,
                                      NULL);
        return;
    }

    if (t->up_outcome == VO_UPLOAD_EXISTS) {

        /* a retried creation: the same intent, or a key reused */

        ngx_memcpy(up->id, up->row.upload_id, VO_UPLOAD_ID_LEN + 1);

        if (ngx_strcmp(up->row.options, ctx->options_json) != 0
            || (up->has_length && up->row.length >= 0
                && up->row.length != up->length))
        {
            ngx_http_video_ocr_upload_end(r, NGX_HTTP_VIDEO_OCR_KEY_REUSED,
                "this Idempotency-Key belongs to an upload with other "
                "options or another length; use a new key for new intent");
            return;
        }

        if (up->row.completed) {
            ngx_http_finalize_request(r,
                                      ngx_http_video_ocr_upload_replay(r));
            return;
        }

        if (up->row.offset != 0 || !ngx_http_video_ocr_has_body(r)) {
            ngx_http_video_ocr_upload_end(r,
                NGX_HTTP_VIDEO_OCR_UPLOAD_CREATED, NULL);
            return;
        }

        /* the retry carries the body again, from 0: an append of it */

        up->offset = 0;

        if (ngx_http_video_ocr_upload_post(r,
                NGX_HTTP_VIDEO_OCR_UPLOAD_CLAIM,
                ngx_http_video_ocr_upload_claimed) != NGX_OK)
        {
            ngx_http_video_ocr_upload_end(r, ctx->outcome, NULL);
        }

        return;
    }

    ngx_log_error(NGX_LOG_INFO, r->connection->log, 0,
                  "video_ocr: upload %s created (%s)", up->id,
                  up->tus ? "tus" : "IETF draft");

    if (!ngx_http_video_ocr_has_body(r) && !up->complete) {
        ngx_http_video_ocr_upload_end(r, NGX_HTTP_VIDEO_OCR_UPLOAD_CREATED,
                                      NULL);
        return;
    }

    /* the creation's body is the first append, under writer token 0 */

    ngx_http_video_ocr_upload_104(r);

    up->offset = 0;
    ngx_http_video_ocr_append_start(r);
}


static void
ngx_http_video_ocr_upload_claimed(ngx_http_request_t *r)
{
    u_char                     *p;
    ngx_http_video_ocr_up_t    *up;
    ngx_http_video_ocr_ctx_t   *ctx;
    ngx_http_video_ocr_task_t  *t;

    if (ngx_http_video_ocr_upload_back(r, "the upload could not be read")
        != NGX_OK)
    {
        return;
    }

    ctx = ngx_http_get_module_ctx(r, ngx_http_video_ocr_module);
    up = ctx->up;
    t = ctx->task;

    if (t->ledger_rc == VO_LEDGER_NOT_READY) {

        if (up->row.completed) {
            /* the final response was lost: the receipt again */
            ngx_http_finalize_request(r,
                                      ngx_http_video_ocr_upload_replay(r));
            return;
        }

        p = ngx_pnalloc(r->pool, 80);
        if (p == NULL) {
            ngx_http_finalize_request(r, NGX_HTTP_INTERNAL_SERVER_ERROR);
            return;
        }

        ctx->problem_extra.data = p;
        ctx->problem_extra.len = ngx_sprintf(p, "\"expected-offset\":%L,"
                                             "\"provided-offset\":%L",
                                             up->row.offset, up->offset)
                                 - p;

        ngx_http_video_ocr_upload_end(r, NGX_HTTP_VIDEO_OCR_OFFSET_MISMATCH,
                                      NULL);
        return;
    }

    if (up->has_length && up->row.length >= 0
        && up->length != up->row.length)
    {
        ngx_http_video_ocr_upload_end(r,
            NGX_HTTP_VIDEO_OCR_INCONSISTENT_LENGTH,
            "this request's upload length is not the one the upload was "
            "given before");
        return;
    }

    ngx_http_video_ocr_append_start(r);
}


static void
ngx_http_video_ocr_upload_got(ngx_http_request_t *r)
{
    ngx_http_video_ocr_ctx_t  *ctx;

    if (ngx_http_video_ocr_upload_back(r, "the upload could not be read")
        != NGX_OK)
    {
        return;
    }

    ctx = ngx_http_get_module_ctx(r, ngx_http_video_ocr_module);

    if (ctx->up->row.completed) {
        ngx_memcpy(ctx->job_id, ctx->up->row.job_id, VO_JOB_ID_LEN + 1);
    }

    ngx_http_video_ocr_upload_end(r, NGX_HTTP_VIDEO_OCR_UPLOAD_OFFSET, NULL);
}


static void
ngx_http_video_ocr_upload_deleted(ngx_http_request_t *r)
{
    ngx_http_video_ocr_ctx_t  *ctx;

    if (ngx_http_video_ocr_upload_back(r, "the upload could not be deleted")
        != NGX_OK)
    {
        return;
    }

    ctx = ngx_http_get_module_ctx(r, ngx_http_video_ocr_module);

    ngx_log_error(NGX_LOG_INFO, r->connection->log, 0,
                  "video_ocr: upload %s deleted by its tenant", ctx->up->id);

    ctx->up->row.offset = -1;    /* no Upload-Offset for what is gone */

    ngx_http_finalize_request(r,
        ngx_http_video_ocr_send_empty(r, NGX_HTTP_NO_CONTENT));
}


/*
 * OPTIONS on the intake or an upload: what both protocols may ask
 * before they start (tus's discovery, the draft's Upload-Limit).
 */

static ngx_int_t
ngx_http_video_ocr_upload_options(ngx_http_request_t *r)
{
    ngx_int_t  rc;

    rc = ngx_http_discard_request_body(r);
    if (rc != NGX_OK) {
        return rc;
    }

    return ngx_http_video_ocr_upload_reply(r,
                                           NGX_HTTP_VIDEO_OCR_UPLOAD_OFFSET,
                                           NULL);
}
