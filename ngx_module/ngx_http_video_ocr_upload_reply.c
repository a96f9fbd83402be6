/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The replies of the resumable protocols.  Every one carries the
 * protocol's own headers (tus: Tus-Resumable; the IETF draft:
 * Upload-Complete), and what the client needs to go on with the upload
 * as the request left it (Location, Upload-Offset, Upload-Length,
 * Upload-Limit, Upload-Expires, and once it is a job, which one); then
 * the status alone, the receipt of a completion, or the problem
 * (ngx_http_video_ocr_reply.c).
 */


#include "ngx_http_video_ocr_resumable.h"


static ngx_int_t ngx_http_video_ocr_upload_protocol_out(ngx_http_request_t *r,
    ngx_http_video_ocr_up_t *up, ngx_uint_t outcome, ngx_uint_t done);
static ngx_int_t ngx_http_video_ocr_upload_discovery(ngx_http_request_t *r,
    ngx_http_video_ocr_up_t *up);
static ngx_int_t ngx_http_video_ocr_upload_resource_out(ngx_http_request_t *r,
    ngx_http_video_ocr_up_t *up, ngx_uint_t done);
static ngx_int_t ngx_http_video_ocr_upload_concat(ngx_http_request_t *r,
    ngx_http_video_ocr_up_t *up);
static ngx_int_t ngx_http_video_ocr_upload_job(ngx_http_request_t *r,
    ngx_http_video_ocr_up_t *up);
static ngx_int_t ngx_http_video_ocr_upload_limit(ngx_http_request_t *r,
    u_char *buf, size_t size);
static ngx_int_t ngx_http_video_ocr_header_num(ngx_http_request_t *r,
    const char *name, const char *value);


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
    ngx_int_t                  rc;
    ngx_uint_t                 status, done;
    ngx_http_video_ocr_up_t   *up;
    ngx_http_video_ocr_ctx_t  *ctx;

    ctx = ngx_http_get_module_ctx(r, ngx_http_video_ocr_module);
    up = ctx->up;
    status = ngx_http_video_ocr_outcomes[outcome].status;
    done = (outcome == NGX_HTTP_VIDEO_OCR_CREATED
            || outcome == NGX_HTTP_VIDEO_OCR_REPLAYED
            || outcome == NGX_HTTP_VIDEO_OCR_KEY_REUSED
            || outcome == NGX_HTTP_VIDEO_OCR_NOT_A_VIDEO
            || outcome == NGX_HTTP_VIDEO_OCR_EMPTY_BODY
            || up->row.completed);

    rc = ngx_http_video_ocr_upload_protocol_out(r, up, outcome, done);

    if (r->method & NGX_HTTP_OPTIONS) {
        rc |= ngx_http_video_ocr_upload_discovery(r, up);
    }

    if (up->id[0] && outcome != NGX_HTTP_VIDEO_OCR_NO_SUCH_UPLOAD
        && !(r->method & NGX_HTTP_DELETE)
        && (up->creation || (r->method & (NGX_HTTP_HEAD|NGX_HTTP_GET))
            || (r->method & NGX_HTTP_OPTIONS)
            || status < NGX_HTTP_SPECIAL_RESPONSE
            || outcome == NGX_HTTP_VIDEO_OCR_OFFSET_MISMATCH))
    {
        rc |= ngx_http_video_ocr_upload_resource_out(r, up, done);
    }

    if (rc != NGX_OK) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    if (outcome == NGX_HTTP_VIDEO_OCR_CREATED
        || outcome == NGX_HTTP_VIDEO_OCR_REPLAYED)
    {
        if (up->tus) {
            /* tus: 204 to the last PATCH, 201 to a final upload's
             * creation; the headers name the job */
            ctx->admitted = outcome;
            return ngx_http_video_ocr_send_empty(r, up->final
                                                    ? NGX_HTTP_CREATED
                                                    : NGX_HTTP_NO_CONTENT);
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
}


/* Tus-Resumable (and Tus-Version), or the draft's Upload-Complete. */

static ngx_int_t
ngx_http_video_ocr_upload_protocol_out(ngx_http_request_t *r,
    ngx_http_video_ocr_up_t *up, ngx_uint_t outcome, ngx_uint_t done)
{
    ngx_int_t  rc;

    if (r->method & NGX_HTTP_OPTIONS) {
        /* the discovery's headers say it all */
        return NGX_OK;
    }

    if (up->tus) {
        rc = ngx_http_video_ocr_header_num(r, "Tus-Resumable", "1.0.0");

        if (outcome == NGX_HTTP_VIDEO_OCR_TUS_VERSION) {
            rc |= ngx_http_video_ocr_header_num(r, "Tus-Version", "1.0.0");
        }

        return rc;
    }

    if (!(r->method & NGX_HTTP_DELETE)) {
        return ngx_http_video_ocr_header_num(r, "Upload-Complete",
                                             done ? "?1" : "?0");
    }

    return NGX_OK;
}


/* OPTIONS: what both protocols ask before they start. */

static ngx_int_t
ngx_http_video_ocr_upload_discovery(ngx_http_request_t *r,
    ngx_http_video_ocr_up_t *up)
{
    u_char                    *p, buf[128];
    size_t                     len;
    ngx_int_t                  rc;
    ngx_http_core_loc_conf_t  *clcf;

    clcf = ngx_http_get_module_loc_conf(r, ngx_http_core_module);
    len = ngx_sprintf(buf, "%O", clcf->client_max_body_size) - buf;
    buf[len] = '\0';

    rc = ngx_http_video_ocr_header_num(r, "Tus-Resumable", "1.0.0");
    rc |= ngx_http_video_ocr_header_num(r, "Tus-Version", "1.0.0");
    rc |= ngx_http_video_ocr_header_num(r, "Tus-Extension",
                                        NGX_HTTP_VIDEO_OCR_TUS_EXTENSIONS);
    rc |= ngx_http_video_ocr_header_num(r, "Tus-Checksum-Algorithm",
                                        VO_CHECKSUM_ALGORITHMS);
    rc |= ngx_http_video_ocr_header_num(r, "Tus-Max-Size", (char *) buf);

    up->row.expires_at = -1;
    len = ngx_http_video_ocr_upload_limit(r, buf, sizeof(buf));

    p = ngx_pnalloc(r->pool, len);
    if (p == NULL) {
        return NGX_ERROR;
    }

    ngx_memcpy(p, buf, len);

    return rc | ngx_http_video_ocr_add_header(r, "Upload-Limit", p, len);
}


/*
 * The upload resource as the request left it: where it is (a creation),
 * how much of it is acknowledged, its length, its limits and expiry,
 * and which job it became.
 */

static ngx_int_t
ngx_http_video_ocr_upload_resource_out(ngx_http_request_t *r,
    ngx_http_video_ocr_up_t *up, ngx_uint_t done)
{
    u_char     *p, buf[128];
    size_t      len;
    ngx_int_t   rc;

    rc = NGX_OK;

    if (up->creation && (!done || up->final)) {
        /* relative: it stays on the origin the client used */
        len = up->base.len + 1 + VO_UPLOAD_ID_LEN;
        p = ngx_pnalloc(r->pool, len);
        if (p == NULL) {
            return NGX_ERROR;
        }

        ngx_sprintf(p, "%V/%s", &up->base, up->id);
        rc |= ngx_http_video_ocr_add_header(r, "Location", p, len);
    }

    if (r->method & NGX_HTTP_OPTIONS) {
        return rc;
    }

    if (up->row.offset >= 0) {
        len = ngx_sprintf(buf, "%L", up->row.completed && up->row.length >= 0
                                     ? up->row.length : up->row.offset)
              - buf;
        buf[len] = '\0';
        rc |= ngx_http_video_ocr_header_num(r, "Upload-Offset", (char *) buf);
    }

    if (up->row.length >= 0) {
        len = ngx_sprintf(buf, "%L", up->row.length) - buf;
        buf[len] = '\0';
        rc |= ngx_http_video_ocr_header_num(r, "Upload-Length", (char *) buf);

    } else if (up->tus && (r->method & NGX_HTTP_HEAD)) {
        rc |= ngx_http_video_ocr_header_num(r, "Upload-Defer-Length", "1");
    }

    if (!up->tus && (up->creation || (r->method & NGX_HTTP_HEAD))) {
        len = ngx_http_video_ocr_upload_limit(r, buf, sizeof(buf));
        p = ngx_pnalloc(r->pool, len);
        if (p == NULL) {
            return NGX_ERROR;
        }

        ngx_memcpy(p, buf, len);
        rc |= ngx_http_video_ocr_add_header(r, "Upload-Limit", p, len);
    }

    if (up->tus && up->row.job_id[0] == '\0' && up->row.expires_at > 0) {
        p = ngx_pnalloc(r->pool, sizeof("Mon, 28 Sep 1970 06:00:00 GMT"));
        if (p == NULL) {
            return NGX_ERROR;
        }

        len = ngx_http_time(p, up->row.expires_at / 1000) - p;
        rc |= ngx_http_video_ocr_add_header(r, "Upload-Expires", p, len);
    }

    if (r->method & (NGX_HTTP_HEAD|NGX_HTTP_GET)) {
        rc |= ngx_http_video_ocr_header_num(r, "Cache-Control", "no-store");

        if (up->row.metadata[0]) {
            /* as the creation sent it (tus: HEAD must give it back) */
            rc |= ngx_http_video_ocr_header_num(r, "Upload-Metadata",
                                                up->row.metadata);
        }

        if (up->row.concat[0]) {
            rc |= ngx_http_video_ocr_upload_concat(r, up);
        }
    }

    if (up->row.completed && up->row.job_id[0]) {
        rc |= ngx_http_video_ocr_upload_job(r, up);
    }

    return rc;
}


/*
 * Upload-Concat: "partial", or "final;" and its partial uploads' URLs
 * (relative, as the Location of their creation was).
 */

static ngx_int_t
ngx_http_video_ocr_upload_concat(ngx_http_request_t *r,
    ngx_http_video_ocr_up_t *up)
{
    u_char      *p, *last;
    size_t       len, n;
    const char  *id;

    if (ngx_strcmp(up->row.concat, "final") != 0) {
        return ngx_http_video_ocr_header_num(r, "Upload-Concat",
                                             up->row.concat);
    }

    n = (ngx_strlen(up->row.parts) + 1) / (VO_UPLOAD_ID_LEN + 1);
    len = sizeof("final;") - 1 + n * (up->base.len + 1 + VO_UPLOAD_ID_LEN + 1);

    p = ngx_pnalloc(r->pool, len);
    if (p == NULL) {
        return NGX_ERROR;
    }

    last = ngx_cpymem(p, "final;", sizeof("final;") - 1);

    for (id = up->row.parts; n--; id += VO_UPLOAD_ID_LEN + 1) {
        last = ngx_sprintf(last, "%V/%*s%s", &up->base,
                           (size_t) VO_UPLOAD_ID_LEN, id, n ? " " : "");
    }

    return ngx_http_video_ocr_add_header(r, "Upload-Concat", p, last - p);
}


/* Which job the upload became, and where its status is. */

static ngx_int_t
ngx_http_video_ocr_upload_job(ngx_http_request_t *r,
    ngx_http_video_ocr_up_t *up)
{
    u_char                         *p;
    size_t                          len;
    ngx_int_t                       rc;
    ngx_http_video_ocr_ctx_t       *ctx;
    ngx_http_video_ocr_loc_conf_t  *vlcf;

    ctx = ngx_http_get_module_ctx(r, ngx_http_video_ocr_module);
    vlcf = ngx_http_get_module_loc_conf(r, ngx_http_video_ocr_module);

    ngx_memcpy(ctx->job_id, up->row.job_id, VO_JOB_ID_LEN + 1);
    rc = ngx_http_video_ocr_header_num(r, "Video-OCR-Job", up->row.job_id);

    len = vlcf->jobs_url.len + VO_JOB_ID_LEN + sizeof("<>; rel=\"status\"");
    p = ngx_pnalloc(r->pool, len);
    if (p == NULL) {
        return NGX_ERROR;
    }

    len = ngx_sprintf(p, "<%V%s>; rel=\"status\"", &vlcf->jobs_url,
                      up->row.job_id) - p;

    return rc | ngx_http_video_ocr_add_header(r, "Link", p, len);
}


ngx_int_t
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
 * 104 Upload Resumption Supported, to an HTTP/1.1 client of the draft's
 * current interop version, before the creation's body is read: written
 * as nginx writes "100 Continue" (ngx_http_test_expect), a small packet
 * on a connection that has nothing else pending, with the 100 itself
 * first when the client expects one.  Not on HTTP/2 (see the top).
 */

void
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
