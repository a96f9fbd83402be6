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
 * This file parses the headers (every malformed, repeated or out-of-range
 * one is a 400 with the reason, before anything is written), creates
 * uploads, answers HEAD, DELETE and OPTIONS, and writes the replies of
 * both protocols; ngx_http_video_ocr_append.c reads an append's body and
 * completes the upload through the ordinary admission.
 *
 * 104 (Upload Resumption Supported) is sent to HTTP/1.1 clients of
 * interop version 8 when a creation carries a body, the way nginx sends
 * its own "100 Continue" (one small write before the response, see
 * ngx_http_video_ocr_upload_104); nginx 1.22 gives a module no way to
 * send an interim HEADERS frame on HTTP/2, so HTTP/2 clients (and
 * browsers, whose fetch hides 1xx) use the 201 flow.
 */


#include <openssl/rand.h>

#include "ngx_http_video_ocr.h"


static ngx_int_t ngx_http_video_ocr_upload_parse(ngx_http_request_t *r,
    ngx_http_video_ocr_ctx_t *ctx, ngx_http_video_ocr_up_t *up);
static ngx_int_t ngx_http_video_ocr_upload_key(ngx_http_request_t *r,
    ngx_http_video_ocr_ctx_t *ctx, ngx_http_video_ocr_up_t *up);
static ngx_int_t ngx_http_video_ocr_upload_create(ngx_http_request_t *r,
    ngx_http_video_ocr_ctx_t *ctx, ngx_http_video_ocr_up_t *up);
static void ngx_http_video_ocr_upload_created(ngx_http_request_t *r);
static void ngx_http_video_ocr_upload_claimed(ngx_http_request_t *r);
static void ngx_http_video_ocr_upload_got(ngx_http_request_t *r);
static void ngx_http_video_ocr_upload_deleted(ngx_http_request_t *r);
static ngx_int_t ngx_http_video_ocr_upload_start(ngx_http_request_t *r,
    ngx_uint_t kind, ngx_http_event_handler_pt done);
static ngx_int_t ngx_http_video_ocr_upload_options(ngx_http_request_t *r);
static ngx_int_t ngx_http_video_ocr_upload_replay(ngx_http_request_t *r);
static void ngx_http_video_ocr_upload_104(ngx_http_request_t *r);
static ngx_table_elt_t *ngx_http_video_ocr_header_in(ngx_http_request_t *r,
    const char *name, ngx_uint_t *n);
static ngx_int_t ngx_http_video_ocr_header_num(ngx_http_request_t *r,
    const char *name, const char *value);
static ngx_int_t ngx_http_video_ocr_upload_limit(ngx_http_request_t *r,
    u_char *buf, size_t size);
static ngx_int_t ngx_http_video_ocr_has_body(ngx_http_request_t *r);
static ngx_int_t ngx_http_video_ocr_content_type(ngx_http_request_t *r,
    const char *type);
static int64_t ngx_http_video_ocr_now_ms(void);


#define NGX_HTTP_VIDEO_OCR_TUS_EXTENSIONS                                    \
    "creation,creation-with-upload,creation-defer-length,termination,"       \
    "expiration,checksum"


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
                   NGX_HTTP_VIDEO_OCR_TASK_UPLOAD_GET,
                   ngx_http_video_ocr_upload_got);
    }

    if (r->method & NGX_HTTP_DELETE) {
        rc = ngx_http_discard_request_body(r);
        if (rc != NGX_OK) {
            return rc;
        }

        return ngx_http_video_ocr_upload_start(r,
                   NGX_HTTP_VIDEO_OCR_TASK_UPLOAD_DELETE,
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
                   NGX_HTTP_VIDEO_OCR_TASK_UPLOAD_CLAIM,
                   ngx_http_video_ocr_upload_claimed);
    }

    return ngx_http_video_ocr_send_problem(r,
               NGX_HTTP_VIDEO_OCR_METHOD_NOT_ALLOWED,
               "an upload answers HEAD, PATCH, DELETE and OPTIONS", NULL);
}


/*
 * The protocol's headers, each at most once and exactly as specified;
 * the key and the options for a creation.  NGX_OK, or an error with the
 * refusal recorded (ngx_http_video_ocr_refuse sends it).
 */

static ngx_int_t
ngx_http_video_ocr_upload_parse(ngx_http_request_t *r,
    ngx_http_video_ocr_ctx_t *ctx, ngx_http_video_ocr_up_t *up)
{
    int               b;
    char              err[VO_ERR_MAX];
    int64_t           v;
    ngx_uint_t        n;
    ngx_table_elt_t  *tus, *h;

    static const char  *names[] = {
        "Tus-Resumable", "Upload-Draft-Interop-Version", "Upload-Complete",
        "Upload-Offset", "Upload-Length", "Upload-Defer-Length",
        "Upload-Metadata", "Upload-Checksum", NULL
    };

    for (n = 0; names[n] != NULL; n++) {
        ngx_uint_t  count;

        if (ngx_http_video_ocr_header_in(r, names[n], &count) != NULL
            && count > 1)
        {
            (void) snprintf(err, sizeof(err), "%s is given %u times: send "
                            "it once", names[n], (unsigned) count);
            ngx_http_video_ocr_set_problem(r,
                NGX_HTTP_VIDEO_OCR_BAD_UPLOAD_HEADER, err);
            return NGX_ERROR;
        }
    }

    tus = ngx_http_video_ocr_header_in(r, "Tus-Resumable", &n);

    if (tus != NULL) {
        up->tus = 1;

        if (vo_tus_version((char *) tus->value.data, tus->value.len, err,
                           sizeof(err)) != 0)
        {
            ngx_http_video_ocr_set_problem(r, NGX_HTTP_VIDEO_OCR_TUS_VERSION,
                                           err);
            return NGX_ERROR;
        }

        if (ngx_http_video_ocr_header_in(r, "Upload-Complete", &n) != NULL
            || ngx_http_video_ocr_header_in(r,
                   "Upload-Draft-Interop-Version", &n) != NULL)
        {
            ngx_http_video_ocr_set_problem(r,
                NGX_HTTP_VIDEO_OCR_BAD_UPLOAD_HEADER,
                "the request has headers of both tus (Tus-Resumable) and "
                "the IETF draft (Upload-Complete, "
                "Upload-Draft-Interop-Version): use one protocol");
            return NGX_ERROR;
        }

    } else if (!(r->method & NGX_HTTP_OPTIONS)) {
        up->interop = VO_UPLOAD_INTEROP;

        h = ngx_http_video_ocr_header_in(r, "Upload-Draft-Interop-Version",
                                         &n);
        if (h != NULL) {
            if (vo_sf_offset("Upload-Draft-Interop-Version",
                             (char *) h->value.data, h->value.len, &v, err,
                             sizeof(err)) != 0)
            {
                goto bad;
            }

            if (v != VO_UPLOAD_INTEROP && v != VO_UPLOAD_INTEROP_OLD) {
                (void) snprintf(err, sizeof(err), "interop version %lld of "
                                "the resumable-upload draft is not spoken "
                                "here: use %d (or %d)", (long long) v,
                                VO_UPLOAD_INTEROP, VO_UPLOAD_INTEROP_OLD);
                goto bad;
            }

            up->interop = (unsigned) v;
        }

        h = ngx_http_video_ocr_header_in(r, "Upload-Complete", &n);
        if (h != NULL) {
            if (vo_sf_boolean("Upload-Complete", (char *) h->value.data,
                              h->value.len, &b, err, sizeof(err)) != 0)
            {
                goto bad;
            }

            up->has_complete = 1;
            up->complete = b;
        }
    }

    h = ngx_http_video_ocr_header_in(r, "Upload-Offset", &n);
    if (h != NULL) {
        if ((up->tus ? vo_tus_integer : vo_sf_offset)("Upload-Offset",
                (char *) h->value.data, h->value.len, &up->offset, err,
                sizeof(err)) != 0)
        {
            goto bad;
        }

        up->has_offset = 1;
    }

    h = ngx_http_video_ocr_header_in(r, "Upload-Length", &n);
    if (h != NULL) {
        if ((up->tus ? vo_tus_integer : vo_sf_offset)("Upload-Length",
                (char *) h->value.data, h->value.len, &up->length, err,
                sizeof(err)) != 0)
        {
            goto bad;
        }

        up->has_length = 1;
    }

    /* an IETF creation or append that says it ends: its length is known */

    if (!up->tus && up->complete && r->headers_in.content_length_n >= 0) {
        v = (up->offset > 0 ? up->offset : 0)
            + r->headers_in.content_length_n;

        if (up->has_length && up->length != v) {
            ngx_http_video_ocr_set_problem(r,
                NGX_HTTP_VIDEO_OCR_INCONSISTENT_LENGTH,
                "Upload-Length is not Upload-Offset plus the Content-Length "
                "of a request that completes the upload");
            return NGX_ERROR;
        }

        up->length = v;
        up->has_length = 1;
    }

    if (up->tus) {
        h = ngx_http_video_ocr_header_in(r, "Upload-Defer-Length", &n);
        if (h != NULL) {
            if (h->value.len != 1 || h->value.data[0] != '1') {
                ngx_http_video_ocr_set_problem(r,
                    NGX_HTTP_VIDEO_OCR_BAD_UPLOAD_HEADER,
                    "Upload-Defer-Length must be 1");
                return NGX_ERROR;
            }

            up->defer = 1;
        }

        h = ngx_http_video_ocr_header_in(r, "Upload-Metadata", &n);
        if (h != NULL
            && vo_tus_metadata((char *) h->value.data, h->value.len,
                               &up->meta, err, sizeof(err)) != 0)
        {
            goto bad;
        }

        h = ngx_http_video_ocr_header_in(r, "Upload-Checksum", &n);
        if (h != NULL) {
            if (vo_tus_checksum((char *) h->value.data, h->value.len,
                                up->checksum, err, sizeof(err)) != 0)
            {
                goto bad;
            }

            up->has_checksum = 1;
        }
    }

    if (!(r->method & NGX_HTTP_POST)) {
        return NGX_OK;
    }

    /* a creation: who, which options */

    if (up->tus && up->has_length == up->defer) {
        ngx_http_video_ocr_set_problem(r,
            NGX_HTTP_VIDEO_OCR_BAD_UPLOAD_HEADER,
            "a tus creation needs exactly one of Upload-Length and "
            "Upload-Defer-Length: 1");
        return NGX_ERROR;
    }

    if (!up->tus && !up->has_complete) {
        ngx_http_video_ocr_set_problem(r,
            NGX_HTTP_VIDEO_OCR_BAD_UPLOAD_HEADER,
            "an upload creation needs Upload-Complete: ?1 when the request "
            "carries the whole file, else ?0");
        return NGX_ERROR;
    }

    if (up->has_offset && up->offset != 0) {
        ngx_http_video_ocr_set_problem(r,
            NGX_HTTP_VIDEO_OCR_BAD_UPLOAD_HEADER,
            "a creation starts at offset 0: leave Upload-Offset out");
        return NGX_ERROR;
    }

    if (ngx_http_video_ocr_upload_key(r, ctx, up) != NGX_OK) {
        return NGX_ERROR;
    }

    ctx->options = up->meta.options;

    if (r->args.len && up->meta.has_options) {
        ngx_http_video_ocr_set_problem(r, NGX_HTTP_VIDEO_OCR_BAD_OPTIONS,
            "give the options in the query string or in Upload-Metadata, "
            "not in both");
        return NGX_ERROR;
    }

    if (vo_options_parse_query(&ctx->options, (char *) r->args.data,
                               r->args.len, err, sizeof(err)) != 0)
    {
        ngx_http_video_ocr_set_problem(r, NGX_HTTP_VIDEO_OCR_BAD_OPTIONS,
                                       err);
        return NGX_ERROR;
    }

    if (vo_options_canonical(&ctx->options, ctx->options_json,
                             sizeof(ctx->options_json)) == 0)
    {
        ngx_http_video_ocr_set_problem(r, NGX_HTTP_VIDEO_OCR_INTERNAL, NULL);
        return NGX_ERROR;
    }

    return NGX_OK;

bad:

    ngx_log_error(NGX_LOG_INFO, r->connection->log, 0,
                  "video_ocr: bad resumable-upload header: %s", err);
    ngx_http_video_ocr_set_problem(r, NGX_HTTP_VIDEO_OCR_BAD_UPLOAD_HEADER,
                                   err);
    return NGX_ERROR;
}


/*
 * The Idempotency-Key: the header, or (tus) the metadata's
 * idempotency-key; given both ways they must be the same key.
 */

static ngx_int_t
ngx_http_video_ocr_upload_key(ngx_http_request_t *r,
    ngx_http_video_ocr_ctx_t *ctx, ngx_http_video_ocr_up_t *up)
{
    ngx_http_video_ocr_loc_conf_t  *vlcf;

    vlcf = ngx_http_get_module_loc_conf(r, ngx_http_video_ocr_module);

    if (ngx_http_video_ocr_key(r, ctx, 0) != NGX_OK) {
        return NGX_ERROR;
    }

    if (up->meta.has_key) {
        if (ctx->has_key
            && (ctx->key_len != up->meta.key_len
                || ngx_memcmp(ctx->key, up->meta.key, ctx->key_len) != 0))
        {
            ngx_http_video_ocr_set_problem(r, NGX_HTTP_VIDEO_OCR_BAD_KEY,
                "the Idempotency-Key header and the idempotency-key of "
                "Upload-Metadata differ");
            return NGX_ERROR;
        }

        ngx_memcpy(ctx->key, up->meta.key, up->meta.key_len);
        ctx->key_len = up->meta.key_len;
        ctx->has_key = 1;
        ngx_http_video_ocr_key_hash(r, ctx);
    }

    if (!ctx->has_key && vlcf->key_required) {
        ngx_http_video_ocr_set_problem(r, NGX_HTTP_VIDEO_OCR_MISSING_KEY,
            "send an Idempotency-Key header (or, with tus, an "
            "idempotency-key in Upload-Metadata): one per upload intent");
        return NGX_ERROR;
    }

    return NGX_OK;
}


static ngx_int_t
ngx_http_video_ocr_upload_create(ngx_http_request_t *r,
    ngx_http_video_ocr_ctx_t *ctx, ngx_http_video_ocr_up_t *up)
{
    u_char                          rnd[VO_UPLOAD_ID_LEN / 2];
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

    if (RAND_bytes(rnd, sizeof(rnd)) != 1) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    u = &up->row;
    ngx_http_video_ocr_hex((u_char *) u->upload_id, rnd, sizeof(rnd));
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
               NGX_HTTP_VIDEO_OCR_TASK_UPLOAD_CREATE,
               ngx_http_video_ocr_upload_created);
}


/*
 * Posts one of the upload tasks for the request's upload; done runs in
 * the event loop when it has finished.  NGX_OK, or the refusal recorded
 * (a full queue).
 */

ngx_int_t
ngx_http_video_ocr_upload_post(ngx_http_request_t *r, ngx_uint_t kind,
    ngx_http_event_handler_pt done)
{
    ngx_thread_task_t  *task;

    task = ngx_http_video_ocr_upload_task_new(r, kind);
    if (task == NULL) {
        ngx_http_video_ocr_set_problem(r, NGX_HTTP_VIDEO_OCR_INTERNAL, NULL);
        return NGX_ERROR;
    }

    return ngx_http_video_ocr_task_post(r, task, done);
}


/* A task for the request's upload, filled but not posted yet. */

ngx_thread_task_t *
ngx_http_video_ocr_upload_task_new(ngx_http_request_t *r, ngx_uint_t kind)
{
    ngx_thread_task_t               *task;
    ngx_http_video_ocr_up_t         *up;
    ngx_http_video_ocr_ctx_t        *ctx;
    ngx_http_video_ocr_task_t       *t;
    ngx_http_video_ocr_loc_conf_t   *vlcf;
    ngx_http_video_ocr_main_conf_t  *mcf;

    ctx = ngx_http_get_module_ctx(r, ngx_http_video_ocr_module);
    up = ctx->up;
    mcf = ngx_http_get_module_main_conf(r, ngx_http_video_ocr_module);
    vlcf = ngx_http_get_module_loc_conf(r, ngx_http_video_ocr_module);

    task = ngx_http_video_ocr_task_alloc(r);
    if (task == NULL) {
        return NULL;
    }

    t = task->ctx;
    t->kind = kind;
    t->up = up->row;
    t->tenant = (char *) ctx->tenant.data;
    t->tenant_len = ctx->tenant.len;
    t->now_ms = ngx_http_video_ocr_now_ms();
    t->up_offset = up->offset;
    t->up_max_open = vlcf->uploads_max;
    t->up_ttl_ms = (int64_t) mcf->upload_ttl * 1000;
    t->containers = vlcf->containers;
    t->chunk_fd = -1;

    ngx_memcpy(t->up.upload_id, up->id, VO_UPLOAD_ID_LEN + 1);
    vo_store_upload_path(up->id, t->part);

    ctx->task = t;

    return task;
}


/* From the content handler: the task holds a reference to the request. */

static ngx_int_t
ngx_http_video_ocr_upload_start(ngx_http_request_t *r, ngx_uint_t kind,
    ngx_http_event_handler_pt done)
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
                NGX_HTTP_VIDEO_OCR_TASK_UPLOAD_CLAIM,
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


/* The receipt of a completed upload, replayed (Idempotent-Replayed). */

static ngx_int_t
ngx_http_video_ocr_upload_replay(ngx_http_request_t *r)
{
    ngx_http_video_ocr_ctx_t   *ctx;
    ngx_http_video_ocr_task_t  *t;

    ctx = ngx_http_get_module_ctx(r, ngx_http_video_ocr_module);
    t = ctx->task;

    ngx_memcpy(ctx->job_id, ctx->up->row.job_id, VO_JOB_ID_LEN + 1);
    ngx_memcpy(ctx->input_digest, ctx->up->row.input_digest,
               VO_DIGEST_HEX_LEN + 1);
    (void) ngx_cpystrn((u_char *) ctx->options_json,
                       (u_char *) ctx->up->row.options,
                       sizeof(ctx->options_json));
    ctx->has_key = ctx->up->row.has_key;

    if (t->receipt.outcome == VO_ADMIT_NONE) {
        /* keyless, or the receipt expired: what the row says */
        t->receipt.created_at = ctx->up->row.updated_at;
        t->receipt.expires_at = -1;
        ctx->has_key = 0;
    }

    ctx->admitted = NGX_HTTP_VIDEO_OCR_REPLAYED;

    return ngx_http_video_ocr_upload_reply(r, NGX_HTTP_VIDEO_OCR_REPLAYED,
                                           NULL);
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


/*
 * Every reply of the resumable protocols: the protocol's headers for the
 * upload as the request left it, then the status (no body), the receipt
 * (a completion) or the problem.  Finalizes the request.
 */

void
ngx_http_video_ocr_upload_end(ngx_http_request_t *r, ngx_uint_t outcome,
    const char *detail)
{
    ngx_http_finalize_request(r,
                              ngx_http_video_ocr_upload_reply(r, outcome,
                                                              detail));
}


ngx_int_t
ngx_http_video_ocr_upload_reply(ngx_http_request_t *r, ngx_uint_t outcome,
    const char *detail)
{
    u_char                          *p, buf[128];
    size_t                           len;
    ngx_int_t                        rc;
    ngx_uint_t                       status, done;
    ngx_http_video_ocr_up_t         *up;
    ngx_http_video_ocr_ctx_t        *ctx;
    ngx_http_core_loc_conf_t        *clcf;
    ngx_http_video_ocr_loc_conf_t   *vlcf;

    ctx = ngx_http_get_module_ctx(r, ngx_http_video_ocr_module);
    vlcf = ngx_http_get_module_loc_conf(r, ngx_http_video_ocr_module);
    up = ctx->up;
    status = ngx_http_video_ocr_outcomes[outcome].status;
    done = (outcome == NGX_HTTP_VIDEO_OCR_CREATED
            || outcome == NGX_HTTP_VIDEO_OCR_REPLAYED
            || outcome == NGX_HTTP_VIDEO_OCR_KEY_REUSED
            || outcome == NGX_HTTP_VIDEO_OCR_NOT_A_VIDEO
            || outcome == NGX_HTTP_VIDEO_OCR_EMPTY_BODY
            || up->row.completed);

    if (up->tus) {
        rc = ngx_http_video_ocr_header_num(r, "Tus-Resumable", "1.0.0");

        if (outcome == NGX_HTTP_VIDEO_OCR_TUS_VERSION
            || (r->method & NGX_HTTP_OPTIONS))
        {
            rc |= ngx_http_video_ocr_header_num(r, "Tus-Version", "1.0.0");
        }

    } else if (!(r->method & NGX_HTTP_OPTIONS)) {
        rc = ngx_http_video_ocr_header_num(r, "Upload-Complete",
                                           done ? "?1" : "?0");

    } else {
        rc = NGX_OK;
    }

    if (r->method & NGX_HTTP_OPTIONS) {
        clcf = ngx_http_get_module_loc_conf(r, ngx_http_core_module);
        len = ngx_sprintf(buf, "%O", clcf->client_max_body_size) - buf;
        buf[len] = '\0';

        rc |= ngx_http_video_ocr_header_num(r, "Tus-Resumable", "1.0.0");
        rc |= ngx_http_video_ocr_header_num(r, "Tus-Version", "1.0.0");
        rc |= ngx_http_video_ocr_header_num(r, "Tus-Extension",
                                            NGX_HTTP_VIDEO_OCR_TUS_EXTENSIONS);
        rc |= ngx_http_video_ocr_header_num(r, "Tus-Checksum-Algorithm",
                                            "sha256");
        rc |= ngx_http_video_ocr_header_num(r, "Tus-Max-Size", (char *) buf);

        up->row.expires_at = -1;
        len = ngx_http_video_ocr_upload_limit(r, buf, sizeof(buf));
        rc |= ngx_http_video_ocr_add_header(r, "Upload-Limit",
                                            ngx_pstrdup(r->pool,
                                            &(ngx_str_t) { len, buf }), len);
    }

    if (up->id[0] && outcome != NGX_HTTP_VIDEO_OCR_NO_SUCH_UPLOAD
        && (up->creation || (r->method & (NGX_HTTP_HEAD|NGX_HTTP_GET))
            || (r->method & NGX_HTTP_OPTIONS)
            || status < NGX_HTTP_SPECIAL_RESPONSE
            || outcome == NGX_HTTP_VIDEO_OCR_OFFSET_MISMATCH))
    {
        if (up->creation && !done) {
            /* relative: it stays on the origin the client used */
            len = up->base.len + 1 + VO_UPLOAD_ID_LEN;
            p = ngx_pnalloc(r->pool, len);
            if (p == NULL) {
                goto failed;
            }

            ngx_sprintf(p, "%V/%s", &up->base, up->id);
            rc |= ngx_http_video_ocr_add_header(r, "Location", p, len);
        }

        if (up->row.offset >= 0 && !(r->method & NGX_HTTP_OPTIONS)) {
            len = ngx_sprintf(buf, "%L", up->row.completed && up->row.length
                              >= 0 ? up->row.length : up->row.offset) - buf;
            buf[len] = '\0';
            rc |= ngx_http_video_ocr_header_num(r, "Upload-Offset",
                                                (char *) buf);
        }

        if (up->row.length >= 0 && !(r->method & NGX_HTTP_OPTIONS)) {
            len = ngx_sprintf(buf, "%L", up->row.length) - buf;
            buf[len] = '\0';
            rc |= ngx_http_video_ocr_header_num(r, "Upload-Length",
                                                (char *) buf);

        } else if (up->tus && (r->method & NGX_HTTP_HEAD)) {
            rc |= ngx_http_video_ocr_header_num(r, "Upload-Defer-Length",
                                                "1");
        }

        if (!up->tus && (up->creation || (r->method & NGX_HTTP_HEAD)))
        {
            len = ngx_http_video_ocr_upload_limit(r, buf, sizeof(buf));
            rc |= ngx_http_video_ocr_add_header(r, "Upload-Limit",
                                                ngx_pstrdup(r->pool,
                                                &(ngx_str_t) { len, buf }),
                                                len);
        }

        if (up->tus && !up->row.completed && up->row.expires_at > 0) {
            p = ngx_pnalloc(r->pool, sizeof("Mon, 28 Sep 1970 06:00:00 GMT"));
            if (p == NULL) {
                goto failed;
            }

            len = ngx_http_time(p, up->row.expires_at / 1000) - p;
            rc |= ngx_http_video_ocr_add_header(r, "Upload-Expires", p, len);
        }

        if (r->method & (NGX_HTTP_HEAD|NGX_HTTP_GET)) {
            rc |= ngx_http_video_ocr_header_num(r, "Cache-Control",
                                                "no-store");
        }

        if (up->row.completed && up->row.job_id[0]) {

            /* which job the upload became, and where its status is */

            ngx_memcpy(ctx->job_id, up->row.job_id, VO_JOB_ID_LEN + 1);
            rc |= ngx_http_video_ocr_header_num(r, "Video-OCR-Job",
                                                up->row.job_id);

            len = vlcf->jobs_url.len + VO_JOB_ID_LEN
                  + sizeof("<>; rel=\"status\"");
            p = ngx_pnalloc(r->pool, len);
            if (p == NULL) {
                goto failed;
            }

            len = ngx_sprintf(p, "<%V%s>; rel=\"status\"", &vlcf->jobs_url,
                              up->row.job_id) - p;
            rc |= ngx_http_video_ocr_add_header(r, "Link", p, len);
        }
    }

    if (rc != NGX_OK) {
        goto failed;
    }

    if (outcome == NGX_HTTP_VIDEO_OCR_CREATED
        || outcome == NGX_HTTP_VIDEO_OCR_REPLAYED)
    {
        if (up->tus) {
            /* tus: 204 to the final PATCH; the headers name the job */
            ctx->admitted = outcome;
            return ngx_http_video_ocr_send_empty(r, NGX_HTTP_NO_CONTENT);
        }

        return ngx_http_video_ocr_send_receipt(r, ctx,
                   outcome == NGX_HTTP_VIDEO_OCR_REPLAYED);
    }

    if (status < NGX_HTTP_SPECIAL_RESPONSE) {
        ctx->outcome = outcome;
        return ngx_http_video_ocr_send_empty(r, status);
    }

    return ngx_http_video_ocr_send_problem(r, outcome, detail,
               outcome == NGX_HTTP_VIDEO_OCR_KEY_REUSED && ctx->job_id[0]
               ? ctx->job_id : NULL);

failed:

    return NGX_HTTP_INTERNAL_SERVER_ERROR;
}


/*
 * 104 Upload Resumption Supported, to an HTTP/1.1 client of the draft's
 * current interop version, before the creation's body is read: written
 * as nginx writes "100 Continue" (ngx_http_test_expect), a small packet
 * on a connection that has nothing else pending, with the 100 itself
 * first when the client expects one.  Not on HTTP/2 (see the top).
 */

static void
ngx_http_video_ocr_upload_104(ngx_http_request_t *r)
{
    u_char                   *p, limit[128];
    size_t                    len;
    ssize_t                   n;
    ngx_http_video_ocr_up_t  *up;
    ngx_http_video_ocr_ctx_t *ctx;

    ctx = ngx_http_get_module_ctx(r, ngx_http_video_ocr_module);
    up = ctx->up;

    if (up->tus || up->interop != VO_UPLOAD_INTEROP
        || r->http_version != NGX_HTTP_VERSION_11
#if (NGX_HTTP_V2)
        || r->stream != NULL
#endif
        || r->headers_in.expect != NULL)
    {
        return;
    }

    len = ngx_http_video_ocr_upload_limit(r, limit, sizeof(limit));

    p = ngx_pnalloc(r->pool, 256 + up->base.len + len);
    if (p == NULL) {
        return;
    }

    len = ngx_sprintf(p, "HTTP/1.1 104 Upload Resumption Supported" CRLF
                      "Upload-Draft-Interop-Version: %d" CRLF
                      "Location: %V/%s" CRLF
                      "Upload-Limit: %*s" CRLF CRLF,
                      VO_UPLOAD_INTEROP, &up->base, up->id, len, limit) - p;

    n = r->connection->send(r->connection, p, len);

    if (n != (ssize_t) len) {
        /* as for 100 Continue: such a small packet is sent whole or the
         * connection is broken */
        r->connection->error = 1;
    }
}


/* "max-size=<client_max_body_size>, max-age=<seconds left>" */

static ngx_int_t
ngx_http_video_ocr_upload_limit(ngx_http_request_t *r, u_char *buf,
    size_t size)
{
    u_char                          *p;
    int64_t                          left;
    ngx_http_video_ocr_ctx_t        *ctx;
    ngx_http_core_loc_conf_t        *clcf;
    ngx_http_video_ocr_main_conf_t  *mcf;

    clcf = ngx_http_get_module_loc_conf(r, ngx_http_core_module);
    mcf = ngx_http_get_module_main_conf(r, ngx_http_video_ocr_module);
    ctx = ngx_http_get_module_ctx(r, ngx_http_video_ocr_module);

    left = ctx->up->row.expires_at > 0
           ? (ctx->up->row.expires_at - ngx_http_video_ocr_now_ms()) / 1000
           : (int64_t) mcf->upload_ttl;

    if (left < 0) {
        left = 0;
    }

    p = buf;

    if (clcf->client_max_body_size) {
        p = ngx_snprintf(p, size, "max-size=%O, ",
                         clcf->client_max_body_size);
    }

    p = ngx_snprintf(p, size - (p - buf), "max-age=%L", left);

    return p - buf;
}


/* A reply without a body (201, 204): the headers say it all. */

ngx_int_t
ngx_http_video_ocr_send_empty(ngx_http_request_t *r, ngx_uint_t status)
{
    ngx_int_t                  rc;
    ngx_http_video_ocr_ctx_t  *ctx;

    ctx = ngx_http_get_module_ctx(r, ngx_http_video_ocr_module);
    ctx->replied = 1;

    if (ngx_http_discard_request_body(r) != NGX_OK) {
        r->keepalive = 0;
    }

    r->headers_out.status = status;
    r->headers_out.content_length_n = 0;

    rc = ngx_http_send_header(r);

    if (rc == NGX_ERROR || rc > NGX_OK || r->header_only) {
        return rc;
    }

    return ngx_http_send_special(r, NGX_HTTP_LAST);
}


ngx_int_t
ngx_http_video_ocr_add_header(ngx_http_request_t *r, const char *name,
    u_char *value, size_t len)
{
    ngx_table_elt_t  *h;

    if (value == NULL) {
        return NGX_ERROR;
    }

    h = ngx_list_push(&r->headers_out.headers);
    if (h == NULL) {
        return NGX_ERROR;
    }

    h->hash = 1;
    h->key.data = (u_char *) name;
    h->key.len = ngx_strlen(name);
    h->value.data = value;
    h->value.len = len;

    return NGX_OK;
}


/* A header whose value is a C string that outlives the request. */

static ngx_int_t
ngx_http_video_ocr_header_num(ngx_http_request_t *r, const char *name,
    const char *value)
{
    ngx_str_t  v;

    v.data = (u_char *) value;
    v.len = ngx_strlen(value);

    return ngx_http_video_ocr_add_header(r, name, ngx_pstrdup(r->pool, &v),
                                         v.len);
}


/* The first request header of that name, and how many there are. */

static ngx_table_elt_t *
ngx_http_video_ocr_header_in(ngx_http_request_t *r, const char *name,
    ngx_uint_t *n)
{
    size_t            len;
    ngx_uint_t        i;
    ngx_list_part_t  *part;
    ngx_table_elt_t  *h, *first;

    len = ngx_strlen(name);
    first = NULL;
    *n = 0;

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

        if (h[i].key.len == len
            && ngx_strncasecmp(h[i].key.data, (u_char *) name, len) == 0)
        {
            if (first == NULL) {
                first = &h[i];
            }

            (*n)++;
        }
    }

    return first;
}


static ngx_int_t
ngx_http_video_ocr_has_body(ngx_http_request_t *r)
{
    return r->headers_in.content_length_n > 0 || r->headers_in.chunked;
}


/* Content-Type is type (parameters ignored); NULL: anything. */

static ngx_int_t
ngx_http_video_ocr_content_type(ngx_http_request_t *r, const char *type)
{
    size_t      len;
    ngx_str_t  *ct;

    if (type == NULL) {
        return NGX_OK;
    }

    if (r->headers_in.content_type == NULL) {
        return NGX_DECLINED;
    }

    ct = &r->headers_in.content_type->value;
    len = ngx_strlen(type);

    if (ct->len < len || ngx_strncasecmp(ct->data, (u_char *) type, len) != 0
        || (ct->len > len && ct->data[len] != ';' && ct->data[len] != ' '))
    {
        return NGX_DECLINED;
    }

    return NGX_OK;
}


static int64_t
ngx_http_video_ocr_now_ms(void)
{
    ngx_time_t  *tp;

    tp = ngx_timeofday();

    return (int64_t) tp->sec * 1000 + (int64_t) tp->msec;
}
