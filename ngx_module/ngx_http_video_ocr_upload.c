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


/* where a request of the intake location goes */
#define NGX_HTTP_VIDEO_OCR_AT_INTAKE     0
#define NGX_HTTP_VIDEO_OCR_AT_UPLOAD     1
#define NGX_HTTP_VIDEO_OCR_BELOW_INTAKE  2


static ngx_uint_t ngx_http_video_ocr_upload_where(ngx_http_request_t *r,
    ngx_str_t *base, u_char **id);
static ngx_uint_t ngx_http_video_ocr_upload_protocol(ngx_http_request_t *r);
static ngx_int_t ngx_http_video_ocr_upload_override(ngx_http_request_t *r);
static ngx_int_t ngx_http_video_ocr_upload_resource(ngx_http_request_t *r,
    ngx_http_video_ocr_up_t *up);
static ngx_int_t ngx_http_video_ocr_upload_create(ngx_http_request_t *r,
    ngx_http_video_ocr_ctx_t *ctx, ngx_http_video_ocr_up_t *up);
static void ngx_http_video_ocr_upload_created(ngx_http_request_t *r);
static void ngx_http_video_ocr_upload_claimed(ngx_http_request_t *r);
static void ngx_http_video_ocr_upload_got(ngx_http_request_t *r);
static void ngx_http_video_ocr_upload_deleted(ngx_http_request_t *r);
static ngx_int_t ngx_http_video_ocr_upload_start(ngx_http_request_t *r,
    ngx_http_video_ocr_run_pt run, ngx_http_event_handler_pt done);
static ngx_int_t ngx_http_video_ocr_upload_back(ngx_http_request_t *r,
    const char *what);
static ngx_int_t ngx_http_video_ocr_upload_options(ngx_http_request_t *r);


ngx_int_t
ngx_http_video_ocr_upload_handler(ngx_http_request_t *r)
{
    u_char                         *id;
    ngx_int_t                       rc;
    ngx_str_t                       base;
    ngx_uint_t                      n, where, protocol;
    ngx_http_video_ocr_up_t        *up;
    ngx_http_video_ocr_ctx_t       *ctx;
    ngx_http_video_ocr_loc_conf_t  *vlcf;

    ctx = ngx_http_get_module_ctx(r, ngx_http_video_ocr_module);
    vlcf = ngx_http_get_module_loc_conf(r, ngx_http_video_ocr_module);

    where = ngx_http_video_ocr_upload_where(r, &base, &id);
    protocol = ngx_http_video_ocr_upload_protocol(r);

    if (!protocol
        && (where == NGX_HTTP_VIDEO_OCR_AT_INTAKE
            || (where == NGX_HTTP_VIDEO_OCR_BELOW_INTAKE
                && (r->method & NGX_HTTP_POST))))
    {
        /* a plain POST, below the intake as well as to it */
        return NGX_DECLINED;
    }

    up = ngx_pcalloc(r->pool, sizeof(ngx_http_video_ocr_up_t));
    if (up == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    ctx->up = up;
    up->base = base;
    up->length = -1;
    up->offset = -1;
    up->row.length = -1;
    vo_options_init(&up->meta.options);

    if (id != NULL) {
        ngx_memcpy(up->id, id, VO_UPLOAD_ID_LEN);
    }

    if (ngx_http_video_ocr_upload_override(r) != NGX_OK
        || ngx_http_video_ocr_upload_parse(r, ctx, up) != NGX_OK)
    {
        up->tus = (ngx_http_video_ocr_header_in(r, "Tus-Resumable", &n)
                   != NULL);
        return ngx_http_video_ocr_upload_reply(r, ctx->outcome,
                   ctx->problem_detail.data ? (char *) ctx->problem_detail.data
                                            : NULL);
    }

    if (r->method & NGX_HTTP_OPTIONS) {
        return ngx_http_video_ocr_upload_options(r);
    }

    if (where == NGX_HTTP_VIDEO_OCR_BELOW_INTAKE) {
        /* a path under the intake that names no upload */
        return protocol ? ngx_http_video_ocr_upload_reply(r,
                              NGX_HTTP_VIDEO_OCR_NO_SUCH_UPLOAD, NULL)
                        : ngx_http_video_ocr_send_problem(r,
                              NGX_HTTP_VIDEO_OCR_NO_SUCH_UPLOAD, NULL, NULL);
    }

    rc = ngx_http_video_ocr_tenant_or_refuse(r, vlcf, &ctx->tenant);
    if (rc != NGX_DECLINED) {
        return rc;
    }

    if (ctx->has_key) {
        /* a creation's: the tenant is known now */
        ngx_http_video_ocr_key_hash(r, ctx);
    }

    /* where the job's notifications go, if this request completes it */

    if ((r->method & (NGX_HTTP_POST|NGX_HTTP_PATCH))
        && ngx_http_video_ocr_webhook(r, vlcf, ctx) != NGX_OK)
    {
        return ngx_http_video_ocr_upload_reply(r, NGX_HTTP_VIDEO_OCR_INTERNAL,
                   "the server's webhook configuration for this request "
                   "is not usable; its error log says why");
    }

    if (where == NGX_HTTP_VIDEO_OCR_AT_INTAKE) {
        if (!(r->method & NGX_HTTP_POST)) {
            return ngx_http_video_ocr_send_problem(r,
                       NGX_HTTP_VIDEO_OCR_METHOD_NOT_ALLOWED,
                       "create an upload with POST", NULL);
        }

        return ngx_http_video_ocr_upload_create(r, ctx, up);
    }

    return ngx_http_video_ocr_upload_resource(r, up);
}


/*
 * Where the request goes: the intake itself; an upload resource,
 * "<intake>/<upload id>" (its id into *id, the intake's URI into base); or
 * another path below an intake that is a prefix location, which names
 * no upload.
 */

static ngx_uint_t
ngx_http_video_ocr_upload_where(ngx_http_request_t *r, ngx_str_t *base,
    u_char **id)
{
    u_char                    *p, *last;
    ngx_str_t                  name;
    ngx_http_core_loc_conf_t  *clcf;

    last = r->uri.data + r->uri.len;
    p = last;

    while (p > r->uri.data && p[-1] != '/') {
        p--;
    }

    if (p > r->uri.data + 1 && vo_upload_id_valid((char *) p, last - p)) {
        *id = p;
        base->data = r->uri.data;
        base->len = p - 1 - r->uri.data;
        return NGX_HTTP_VIDEO_OCR_AT_UPLOAD;
    }

    *id = NULL;
    *base = r->uri;

    while (base->len > 1 && base->data[base->len - 1] == '/') {
        base->len--;
    }

    clcf = ngx_http_get_module_loc_conf(r, ngx_http_core_module);
    name = clcf->name;

    while (name.len > 1 && name.data[name.len - 1] == '/') {
        name.len--;
    }

    if (clcf->exact_match || clcf->named || clcf->noname
#if (NGX_PCRE)
        || clcf->regex
#endif
        || name.len == 0 || base->len <= name.len)
    {
        return NGX_HTTP_VIDEO_OCR_AT_INTAKE;
    }

    return NGX_HTTP_VIDEO_OCR_BELOW_INTAKE;
}


/*
 * Whether the request speaks one of the resumable protocols when it is
 * sent to the intake itself (an upload resource speaks nothing else).
 */

static ngx_uint_t
ngx_http_video_ocr_upload_protocol(ngx_http_request_t *r)
{
    ngx_uint_t  n;

    return (r->method & NGX_HTTP_OPTIONS)
           || ngx_http_video_ocr_header_in(r, "Tus-Resumable", &n) != NULL
           || ngx_http_video_ocr_header_in(r, "Upload-Draft-Interop-Version",
                                           &n) != NULL
           || ngx_http_video_ocr_header_in(r, "Upload-Complete", &n) != NULL
           || ngx_http_video_ocr_header_in(r, "X-HTTP-Method-Override", &n)
              != NULL;
}


/*
 * X-HTTP-Method-Override (tus 1.0): the request is taken for one of the
 * method it names, for clients behind proxies that pass only GET and
 * POST.  NGX_OK, or NGX_ERROR with the refusal recorded.
 */

static ngx_int_t
ngx_http_video_ocr_upload_override(ngx_http_request_t *r)
{
    char              err[VO_ERR_MAX];
    ngx_uint_t        n;
    vo_method_e       m;
    ngx_table_elt_t  *h;

    static ngx_uint_t  methods[] = {
        NGX_HTTP_GET, NGX_HTTP_HEAD, NGX_HTTP_POST, NGX_HTTP_PATCH,
        NGX_HTTP_DELETE, NGX_HTTP_OPTIONS
    };

    h = ngx_http_video_ocr_header_in(r, "X-HTTP-Method-Override", &n);
    if (h == NULL || n > 1) {
        /* given twice: the headers' check says so */
        return NGX_OK;
    }

    if (vo_method_override((char *) h->value.data, h->value.len, &m, err,
                           sizeof(err)) != 0)
    {
        ngx_http_video_ocr_set_problem(r,
            NGX_HTTP_VIDEO_OCR_BAD_UPLOAD_HEADER, err);
        return NGX_ERROR;
    }

    ngx_log_debug2(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                   "video_ocr: %V taken for %V", &r->method_name, &h->value);

    r->method = methods[m];
    r->method_name = h->value;

    return NGX_OK;
}


/* A request to an upload resource, by its method. */

static ngx_int_t
ngx_http_video_ocr_upload_resource(ngx_http_request_t *r,
    ngx_http_video_ocr_up_t *up)
{
    ngx_int_t                  rc;
    ngx_http_core_loc_conf_t  *clcf;

    if (r->method & (NGX_HTTP_HEAD|NGX_HTTP_GET|NGX_HTTP_DELETE)) {
        rc = ngx_http_discard_request_body(r);
        if (rc != NGX_OK) {
            return rc;
        }

        if (r->method & NGX_HTTP_DELETE) {
            return ngx_http_video_ocr_upload_start(r,
                       ngx_http_video_ocr_upload_delete_thread,
                       ngx_http_video_ocr_upload_deleted);
        }

        return ngx_http_video_ocr_upload_start(r,
                   ngx_http_video_ocr_upload_get_thread,
                   ngx_http_video_ocr_upload_got);
    }

    if (!(r->method & NGX_HTTP_PATCH)) {
        return ngx_http_video_ocr_send_problem(r,
                   NGX_HTTP_VIDEO_OCR_METHOD_NOT_ALLOWED,
                   "an upload answers HEAD, PATCH, DELETE and OPTIONS", NULL);
    }

    if (up->offset < 0) {
        return ngx_http_video_ocr_upload_reply(r,
            NGX_HTTP_VIDEO_OCR_BAD_UPLOAD_HEADER,
            "an append needs Upload-Offset: the offset it starts at");
    }

    if (!up->tus && !up->has_complete) {
        return ngx_http_video_ocr_upload_reply(r,
            NGX_HTTP_VIDEO_OCR_BAD_UPLOAD_HEADER,
            "an append needs Upload-Complete: ?1 when it ends the upload, "
            "else ?0");
    }

    clcf = ngx_http_get_module_loc_conf(r, ngx_http_core_module);

    if (up->has_length && clcf->client_max_body_size
        && up->length > clcf->client_max_body_size)
    {
        /* a deferred length given now, as at a creation */
        return ngx_http_video_ocr_upload_reply(r,
            NGX_HTTP_VIDEO_OCR_TOO_LARGE,
            "Upload-Length is more than this endpoint accepts "
            "(Tus-Max-Size, Upload-Limit max-size, client_max_body_size)");
    }

    if (ngx_http_video_ocr_content_type(r,
            up->tus ? "application/offset+octet-stream"
                    : "application/partial-upload") != NGX_OK)
    {
        return ngx_http_video_ocr_upload_reply(r,
            NGX_HTTP_VIDEO_OCR_BAD_CONTENT_TYPE, NULL);
    }

    return ngx_http_video_ocr_upload_start(r,
               ngx_http_video_ocr_upload_claim_thread,
               ngx_http_video_ocr_upload_claimed);
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
            "Upload-Length is more than this endpoint accepts (Tus-Max-Size, "
            "Upload-Limit max-size, client_max_body_size)");
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
    (void) ngx_cpystrn((u_char *) u->protocol,
                       (u_char *) (up->tus ? "tus" : "ietf"), 5);
    (void) ngx_cpystrn((u_char *) u->options, (u_char *) ctx->options_json,
                       sizeof(u->options));
    (void) ngx_cpystrn((u_char *) u->filename, (u_char *) up->meta.filename,
                       sizeof(u->filename));
    if (up->metadata.len) {
        ngx_memcpy(u->metadata, up->metadata.data, up->metadata.len);
        u->metadata[up->metadata.len] = '\0';
    }
    u->length = up->has_length ? up->length : -1;
    u->expires_at = ngx_http_video_ocr_now_ms()
                    + (int64_t) mcf->upload_ttl * 1000;

    if (up->partial) {
        /* no receipt of its own: the key is its final upload's, which
         * alone may join it (invariant 14) */
        ngx_memcpy(u->concat, "partial", sizeof("partial"));
        ngx_memcpy(u->partial_key, ctx->key, ctx->key_len);
        u->partial_key[ctx->key_len] = '\0';

    } else {
        u->has_key = ctx->has_key;
        ngx_memcpy(u->key, ctx->key, ctx->key_len);
        u->key[ctx->key_len] = '\0';
    }

    up->creation = 1;

    if (up->final) {
        return ngx_http_video_ocr_concat_final(r);
    }

    return ngx_http_video_ocr_upload_start(r,
               ngx_http_video_ocr_upload_create_thread,
               ngx_http_video_ocr_upload_created);
}


/* From the content handler: the task holds a reference to the request. */

static ngx_int_t
ngx_http_video_ocr_upload_start(ngx_http_request_t *r,
    ngx_http_video_ocr_run_pt run, ngx_http_event_handler_pt done)
{
    ngx_int_t                  rc;
    ngx_http_video_ocr_ctx_t  *ctx;

    rc = ngx_http_video_ocr_upload_post(r, run, done);

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
                ngx_http_video_ocr_upload_claim_thread,
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

        if (ngx_strcmp(up->row.concat, "final") == 0) {
            /* its bytes are its partial uploads' */
            ngx_http_video_ocr_upload_end(r, NGX_HTTP_VIDEO_OCR_FINAL_UPLOAD,
                                          NULL);
            return;
        }

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

    /* 204, with tus's Tus-Resumable: the reply of every tus request */

    ngx_http_video_ocr_upload_end(r, NGX_HTTP_VIDEO_OCR_UPLOAD_OFFSET, NULL);
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
