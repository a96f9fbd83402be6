/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The request headers of the resumable protocols, read into the
 * request's upload before anything is written.  Every malformed, repeated
 * or out-of-range one is a 400 with the reason (412 for another tus
 * version); the values themselves are parsed by lib/vo_upload.c, which
 * the fuzz target runs.  In order:
 *
 *   1. no header of the protocols given twice;
 *   2. the protocol: tus (Tus-Resumable) or the IETF draft
 *      (Upload-Draft-Interop-Version, Upload-Complete), never both;
 *   3. Upload-Offset and Upload-Length, in the protocol's syntax;
 *   4. tus's own: Upload-Defer-Length, Upload-Metadata, Upload-Checksum
 *      and, for a creation, Upload-Concat;
 *   5. for a creation: the Idempotency-Key and the options.
 */


#include "ngx_http_video_ocr_resumable.h"


static ngx_int_t ngx_http_video_ocr_upload_once(ngx_http_request_t *r);
static ngx_int_t ngx_http_video_ocr_upload_protocol_in(ngx_http_request_t *r,
    ngx_http_video_ocr_up_t *up);
static ngx_int_t ngx_http_video_ocr_upload_sizes(ngx_http_request_t *r,
    ngx_http_video_ocr_up_t *up);
static ngx_int_t ngx_http_video_ocr_upload_tus(ngx_http_request_t *r,
    ngx_http_video_ocr_up_t *up);
static ngx_int_t ngx_http_video_ocr_upload_creation(ngx_http_request_t *r,
    ngx_http_video_ocr_ctx_t *ctx, ngx_http_video_ocr_up_t *up);
static ngx_int_t ngx_http_video_ocr_upload_key(ngx_http_request_t *r,
    ngx_http_video_ocr_ctx_t *ctx, ngx_http_video_ocr_up_t *up);
static ngx_int_t ngx_http_video_ocr_upload_bad(ngx_http_request_t *r,
    const char *err);


ngx_int_t
ngx_http_video_ocr_upload_parse(ngx_http_request_t *r,
    ngx_http_video_ocr_ctx_t *ctx, ngx_http_video_ocr_up_t *up)
{
    if (ngx_http_video_ocr_upload_once(r) != NGX_OK
        || ngx_http_video_ocr_upload_protocol_in(r, up) != NGX_OK
        || ngx_http_video_ocr_upload_sizes(r, up) != NGX_OK
        || (up->tus && ngx_http_video_ocr_upload_tus(r, up) != NGX_OK))
    {
        return NGX_ERROR;
    }

    if (!(r->method & NGX_HTTP_POST)) {
        return NGX_OK;
    }

    return ngx_http_video_ocr_upload_creation(r, ctx, up);
}


/* 1. A header of the protocols given twice could mean two things. */

static ngx_int_t
ngx_http_video_ocr_upload_once(ngx_http_request_t *r)
{
    char        err[VO_ERR_MAX];
    ngx_uint_t  i, n;

    static const char  *names[] = {
        "Tus-Resumable", "Upload-Draft-Interop-Version", "Upload-Complete",
        "Upload-Offset", "Upload-Length", "Upload-Defer-Length",
        "Upload-Metadata", "Upload-Checksum", "Upload-Concat",
        "X-HTTP-Method-Override", NULL
    };

    for (i = 0; names[i] != NULL; i++) {

        if (ngx_http_video_ocr_header_in(r, names[i], &n) != NULL && n > 1) {
            (void) snprintf(err, sizeof(err), "%s is given %u times: send "
                            "it once", names[i], (unsigned) n);
            ngx_http_video_ocr_set_problem(r,
                NGX_HTTP_VIDEO_OCR_BAD_UPLOAD_HEADER, err);
            return NGX_ERROR;
        }
    }

    return NGX_OK;
}


/* 2. tus 1.0.0, or the draft's interop version and Upload-Complete. */

static ngx_int_t
ngx_http_video_ocr_upload_protocol_in(ngx_http_request_t *r,
    ngx_http_video_ocr_up_t *up)
{
    int               b;
    char              err[VO_ERR_MAX];
    int64_t           v;
    ngx_uint_t        n;
    ngx_table_elt_t  *h;

    h = ngx_http_video_ocr_header_in(r, "Tus-Resumable", &n);

    if (h != NULL) {
        up->tus = 1;

        if (r->method & NGX_HTTP_OPTIONS) {
            /* discovery: the client asks which versions there are */
            return NGX_OK;
        }

        if (vo_tus_version((char *) h->value.data, h->value.len, err,
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
            return ngx_http_video_ocr_upload_bad(r,
                "the request has headers of both tus (Tus-Resumable) and "
                "the IETF draft (Upload-Complete, "
                "Upload-Draft-Interop-Version): use one protocol");
        }

        return NGX_OK;
    }

    if (r->method & NGX_HTTP_OPTIONS) {
        return NGX_OK;
    }

    if (ngx_http_video_ocr_header_in(r, "Upload-Concat", &n) != NULL) {
        return ngx_http_video_ocr_upload_bad(r,
            "Upload-Concat is tus's concatenation: send it with "
            "Tus-Resumable: 1.0.0");
    }

    up->interop = VO_UPLOAD_INTEROP;

    h = ngx_http_video_ocr_header_in(r, "Upload-Draft-Interop-Version", &n);
    if (h != NULL) {
        if (vo_sf_offset("Upload-Draft-Interop-Version",
                         (char *) h->value.data, h->value.len, &v, err,
                         sizeof(err)) != 0)
        {
            return ngx_http_video_ocr_upload_bad(r, err);
        }

        if (v != VO_UPLOAD_INTEROP && v != VO_UPLOAD_INTEROP_OLD) {
            (void) snprintf(err, sizeof(err), "interop version %lld of the "
                            "resumable-upload draft is not spoken here: use "
                            "%d (or %d)", (long long) v, VO_UPLOAD_INTEROP,
                            VO_UPLOAD_INTEROP_OLD);
            return ngx_http_video_ocr_upload_bad(r, err);
        }

        up->interop = (unsigned) v;
    }

    h = ngx_http_video_ocr_header_in(r, "Upload-Complete", &n);
    if (h != NULL) {
        if (vo_sf_boolean("Upload-Complete", (char *) h->value.data,
                          h->value.len, &b, err, sizeof(err)) != 0)
        {
            return ngx_http_video_ocr_upload_bad(r, err);
        }

        up->has_complete = 1;
        up->complete = b;
    }

    return NGX_OK;
}


/*
 * 3. Upload-Offset and Upload-Length; an IETF request that says it ends
 * the upload gives its length by its Content-Length.
 */

static ngx_int_t
ngx_http_video_ocr_upload_sizes(ngx_http_request_t *r,
    ngx_http_video_ocr_up_t *up)
{
    char              err[VO_ERR_MAX];
    int64_t           v;
    ngx_uint_t        n;
    ngx_table_elt_t  *h;

    h = ngx_http_video_ocr_header_in(r, "Upload-Offset", &n);
    if (h != NULL) {
        if ((up->tus ? vo_tus_integer : vo_sf_offset)("Upload-Offset",
                (char *) h->value.data, h->value.len, &up->offset, err,
                sizeof(err)) != 0)
        {
            return ngx_http_video_ocr_upload_bad(r, err);
        }

        up->has_offset = 1;
    }

    h = ngx_http_video_ocr_header_in(r, "Upload-Length", &n);
    if (h != NULL) {
        if ((up->tus ? vo_tus_integer : vo_sf_offset)("Upload-Length",
                (char *) h->value.data, h->value.len, &up->length, err,
                sizeof(err)) != 0)
        {
            return ngx_http_video_ocr_upload_bad(r, err);
        }

        up->has_length = 1;
    }

    if (up->tus || !up->complete || r->headers_in.content_length_n < 0) {
        return NGX_OK;
    }

    v = (up->offset > 0 ? up->offset : 0) + r->headers_in.content_length_n;

    if (up->has_length && up->length != v) {
        ngx_http_video_ocr_set_problem(r,
            NGX_HTTP_VIDEO_OCR_INCONSISTENT_LENGTH,
            "Upload-Length is not Upload-Offset plus the Content-Length of "
            "a request that completes the upload");
        return NGX_ERROR;
    }

    up->length = v;
    up->has_length = 1;

    return NGX_OK;
}


/*
 * 4. Upload-Defer-Length, Upload-Metadata (kept as it is, for HEAD),
 * Upload-Checksum, and a creation's Upload-Concat (tus).
 */

static ngx_int_t
ngx_http_video_ocr_upload_tus(ngx_http_request_t *r,
    ngx_http_video_ocr_up_t *up)
{
    int               final;
    char              err[VO_ERR_MAX];
    ngx_uint_t        n;
    ngx_table_elt_t  *h;

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
    if (h != NULL) {
        if (h->value.len >= VO_UPLOAD_METADATA_MAX) {
            (void) snprintf(err, sizeof(err), "Upload-Metadata is longer "
                            "than %d bytes", VO_UPLOAD_METADATA_MAX - 1);
            return ngx_http_video_ocr_upload_bad(r, err);
        }

        if (vo_tus_metadata((char *) h->value.data, h->value.len,
                            &up->meta, err, sizeof(err)) != 0)
        {
            return ngx_http_video_ocr_upload_bad(r, err);
        }

        up->metadata = h->value;
    }

    h = ngx_http_video_ocr_header_in(r, "Upload-Checksum", &n);
    if (h != NULL) {
        if (vo_tus_checksum((char *) h->value.data, h->value.len,
                            &up->checksum_algo, up->checksum, err,
                            sizeof(err)) != 0)
        {
            return ngx_http_video_ocr_upload_bad(r, err);
        }

        up->has_checksum = 1;
    }

    h = ngx_http_video_ocr_header_in(r, "Upload-Concat", &n);
    if (h == NULL || !(r->method & NGX_HTTP_POST)) {
        return NGX_OK;
    }

    up->parts = ngx_palloc(r->pool,
                           VO_UPLOAD_PARTS_MAX * (VO_UPLOAD_ID_LEN + 1));
    if (up->parts == NULL) {
        return NGX_ERROR;
    }

    if (vo_tus_concat((char *) h->value.data, h->value.len,
                      (char *) up->base.data,
                      up->base.len == 1 ? 0 : up->base.len, &final,
                      up->parts, VO_UPLOAD_PARTS_MAX, &up->nparts, err,
                      sizeof(err)) != 0)
    {
        return ngx_http_video_ocr_upload_bad(r, err);
    }

    up->partial = !final;
    up->final = final;

    return NGX_OK;
}


/* 5. A creation: how it gives its length, who, which options. */

static ngx_int_t
ngx_http_video_ocr_upload_creation(ngx_http_request_t *r,
    ngx_http_video_ocr_ctx_t *ctx, ngx_http_video_ocr_up_t *up)
{
    char  err[VO_ERR_MAX];

    if (up->final) {
        if (up->has_length || up->defer
            || ngx_http_video_ocr_has_body(r))
        {
            ngx_http_video_ocr_set_problem(r,
                NGX_HTTP_VIDEO_OCR_BAD_UPLOAD_HEADER,
                "a final upload (Upload-Concat: final) has neither bytes "
                "nor Upload-Length or Upload-Defer-Length: its bytes are "
                "its partial uploads'");
            return NGX_ERROR;
        }

    } else if (up->tus && up->has_length == up->defer) {
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
    }

    if (!ctx->has_key && vlcf->key_required) {
        ngx_http_video_ocr_set_problem(r, NGX_HTTP_VIDEO_OCR_MISSING_KEY,
            "send an Idempotency-Key header (or, with tus, an "
            "idempotency-key in Upload-Metadata): one per upload intent");
        return NGX_ERROR;
    }

    return NGX_OK;
}


/* A malformed header: logged for the operator, 400 for the client. */

static ngx_int_t
ngx_http_video_ocr_upload_bad(ngx_http_request_t *r, const char *err)
{
    ngx_log_error(NGX_LOG_INFO, r->connection->log, 0,
                  "video_ocr: bad resumable-upload header: %s", err);
    ngx_http_video_ocr_set_problem(r, NGX_HTTP_VIDEO_OCR_BAD_UPLOAD_HEADER,
                                   err);
    return NGX_ERROR;
}


ngx_int_t
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
