/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Replies: JSON bodies, RFC 9457 problem details, and a header/body
 * filter that turns the error pages nginx itself produces in a
 * video_ocr_intake, video_ocr_jobs, video_ocr_metrics or video_ocr_search
 * location (413 from client_max_body_size, 415 and 507 decided in the
 * body filter, 408, 500, ...) into application/problem+json too, so a
 * client of the API sees one error format.  Error pages the operator
 * configured with error_page are left alone.
 */


#include "ngx_http_video_ocr.h"


static ngx_int_t ngx_http_video_ocr_send(ngx_http_request_t *r,
    ngx_uint_t status, ngx_str_t *content_type, ngx_buf_t *b);
static ngx_buf_t *ngx_http_video_ocr_problem_buf(ngx_http_request_t *r,
    ngx_uint_t status, const ngx_str_t *type, ngx_uint_t iana,
    ngx_str_t *detail, const char *job_id);
static ngx_uint_t ngx_http_video_ocr_nginx_outcome(ngx_uint_t status);
static const char *ngx_http_video_ocr_title(ngx_uint_t status);
static ngx_int_t ngx_http_video_ocr_retry_after(ngx_http_request_t *r,
    ngx_uint_t seconds);
static ngx_int_t ngx_http_video_ocr_allow(ngx_http_request_t *r);
static ngx_int_t ngx_http_video_ocr_header_filter(ngx_http_request_t *r);
static ngx_int_t ngx_http_video_ocr_output_filter(ngx_http_request_t *r,
    ngx_chain_t *in);


static ngx_http_output_header_filter_pt  ngx_http_next_header_filter;
static ngx_http_output_body_filter_pt    ngx_http_next_body_filter;


static ngx_str_t  ngx_http_video_ocr_json_type =
    ngx_string("application/json");
static ngx_str_t  ngx_http_video_ocr_problem_type =
    ngx_string("application/problem+json");


#define NGX_HTTP_VIDEO_OCR_NO_ROOM                                           \
    "the server has no room for this upload right now; retry later with "   \
    "the same Idempotency-Key"

/*
 * Every outcome of a request: its problem type (for an upload's outcomes,
 * counted, also the label of video_ocr_intake_requests_total), status,
 * the detail a reply has unless its caller words it more precisely,
 * $video_ocr_admission, and
 * whether a retry is worth it soon (Retry-After).  A problem's title is
 * the reason phrase of its status (ngx_http_video_ocr_title).
 */

const ngx_http_video_ocr_outcome_t
    ngx_http_video_ocr_outcomes[NGX_HTTP_VIDEO_OCR_OUTCOMES] =
{
    [NGX_HTTP_VIDEO_OCR_ABORTED] = {
        ngx_string("aborted"), 0, "", ngx_null_string, 0, 1 },

    [NGX_HTTP_VIDEO_OCR_CREATED] = {
        ngx_string("created"), NGX_HTTP_ACCEPTED, "",
        ngx_string("created"), 0, 1 },

    [NGX_HTTP_VIDEO_OCR_REPLAYED] = {
        ngx_string("replayed"), NGX_HTTP_ACCEPTED, "",
        ngx_string("replayed"), 0, 1 },

    [NGX_HTTP_VIDEO_OCR_KEY_REUSED] = {
        ngx_string("key-reused"), NGX_HTTP_UNPROCESSABLE_ENTITY,
        "this Idempotency-Key was already used for a different upload "
        "(other bytes or other options); use a new key for new intent",
        ngx_string("mismatch"), 0, 1 },

    [NGX_HTTP_VIDEO_OCR_MISSING_KEY] = {
        ngx_string("missing-key"), NGX_HTTP_BAD_REQUEST,
        "send an Idempotency-Key header: a unique value (such as a UUID) "
        "per upload, the same on every retry of it",
        ngx_string("rejected"), 0, 1 },

    [NGX_HTTP_VIDEO_OCR_BAD_KEY] = {
        ngx_string("bad-key"), NGX_HTTP_BAD_REQUEST,
        "send exactly one Idempotency-Key header",
        ngx_string("rejected"), 0, 1 },

    [NGX_HTTP_VIDEO_OCR_BAD_OPTIONS] = {
        ngx_string("bad-options"), NGX_HTTP_BAD_REQUEST,
        "the options of the query string are malformed",
        ngx_string("rejected"), 0, 1 },

    [NGX_HTTP_VIDEO_OCR_EMPTY_BODY] = {
        ngx_string("empty-body"), NGX_HTTP_BAD_REQUEST,
        "the request has no body: POST the video file as the request body",
        ngx_string("rejected"), 0, 1 },

    [NGX_HTTP_VIDEO_OCR_NOT_A_VIDEO] = {
        ngx_string("not-a-video"), NGX_HTTP_UNSUPPORTED_MEDIA_TYPE,
        "the body does not start like a video container (MP4/MOV, "
        "Matroska/WebM, AVI, MPEG-TS/PS, FLV, Ogg, ASF or MXF)",
        ngx_string("rejected"), 0, 1 },

    [NGX_HTTP_VIDEO_OCR_TOO_LARGE] = {
        ngx_string("too-large"), NGX_HTTP_REQUEST_ENTITY_TOO_LARGE,
        "the upload is larger than this endpoint accepts "
        "(client_max_body_size)",
        ngx_string("rejected"), 0, 1 },

    [NGX_HTTP_VIDEO_OCR_NO_TENANT] = {
        ngx_string("no-tenant"), NGX_HTTP_FORBIDDEN,
        "the request carries no identity",
        ngx_string("rejected"), 0, 1 },

    [NGX_HTTP_VIDEO_OCR_METHOD_NOT_ALLOWED] = {
        ngx_string("method-not-allowed"), NGX_HTTP_NOT_ALLOWED,
        "this method is not allowed here (see Allow)",
        ngx_string("rejected"), 0, 1 },

    [NGX_HTTP_VIDEO_OCR_BUSY] = {
        ngx_string("busy"), NGX_HTTP_SERVICE_UNAVAILABLE,
        "the ledger is busy; retry shortly (an upload: with the same "
        "Idempotency-Key)",
        ngx_string("rejected"), 1, 1 },

    [NGX_HTTP_VIDEO_OCR_DISK_FULL] = {
        ngx_string("disk-full"), NGX_HTTP_INSUFFICIENT_STORAGE,
        NGX_HTTP_VIDEO_OCR_NO_ROOM,
        ngx_string("rejected"), 1, 1 },

    [NGX_HTTP_VIDEO_OCR_BAD_REQUEST] = {
        ngx_string("bad-request"), NGX_HTTP_BAD_REQUEST,
        "the request is malformed (for instance its chunked encoding)",
        ngx_string("rejected"), 0, 1 },

    [NGX_HTTP_VIDEO_OCR_INTERNAL] = {
        ngx_string("internal"), NGX_HTTP_INTERNAL_SERVER_ERROR,
        "the request could not be completed",
        ngx_string("rejected"), 0, 1 },

    [NGX_HTTP_VIDEO_OCR_NO_SUCH_JOB] = {
        ngx_string("no-such-job"), NGX_HTTP_NOT_FOUND,
        "no job has this id", ngx_null_string, 0, 0 },

    [NGX_HTTP_VIDEO_OCR_NOT_DONE] = {
        ngx_string("not-done"), NGX_HTTP_CONFLICT,
        "the job is not done; its text is published when it is",
        ngx_null_string, 0, 0 },

    /* the job's history was removed by the retention; its
     * receipt still lives (and replays) */
    [NGX_HTTP_VIDEO_OCR_JOB_GONE] = {
        ngx_string("job-gone"), NGX_HTTP_VIDEO_OCR_GONE,
        "this job finished long ago and its record, results included, "
        "has been removed (the retention of the service)",
        ngx_null_string, 0, 0 },

    [NGX_HTTP_VIDEO_OCR_BAD_FORMAT] = {
        ngx_string("bad-format"), NGX_HTTP_BAD_REQUEST,
        "format must be json, vtt, srt, txt or ass", ngx_null_string, 0, 0 },

    /* a job published before its worker wrote this format (ass came
     * later): the others are there, and it is not made again */
    [NGX_HTTP_VIDEO_OCR_NO_SUCH_FORMAT] = {
        ngx_string("no-such-format"), NGX_HTTP_NOT_FOUND,
        "this job's result was published without this format (by an "
        "older worker); its other formats are there", ngx_null_string, 0,
        0 },

    /* the tenant's queue is full; its jobs drain at the
     * workers' pace, so the wait is seconds, not one */
    [NGX_HTTP_VIDEO_OCR_TENANT_QUEUE_FULL] = {
        ngx_string("tenant-queue-full"), NGX_HTTP_TOO_MANY_REQUESTS,
        "this tenant has as many jobs waiting as it may have "
        "(video_ocr_tenant_max_queued): retry later with the same "
        "Idempotency-Key", ngx_string("rejected"), 10, 1 },

    /* resumable uploads: docs/http-api.md, "Resumable uploads" */

    [NGX_HTTP_VIDEO_OCR_UPLOAD_CREATED] = {
        ngx_string("upload-created"), NGX_HTTP_CREATED, "",
        ngx_null_string, 0, 1 },

    [NGX_HTTP_VIDEO_OCR_UPLOAD_APPENDED] = {
        ngx_string("upload-appended"), NGX_HTTP_NO_CONTENT, "",
        ngx_null_string, 0, 1 },

    [NGX_HTTP_VIDEO_OCR_UPLOAD_OFFSET] = {
        ngx_string("upload-offset"), NGX_HTTP_NO_CONTENT, "",
        ngx_null_string, 0, 1 },

    [NGX_HTTP_VIDEO_OCR_OFFSET_MISMATCH] = {
        ngx_string("mismatching-upload-offset"), NGX_HTTP_CONFLICT,
        "Upload-Offset is not the upload's offset: ask for it with HEAD "
        "and send from there", ngx_string("rejected"), 0, 1, 1 },

    [NGX_HTTP_VIDEO_OCR_INCONSISTENT_LENGTH] = {
        ngx_string("inconsistent-upload-length"), NGX_HTTP_BAD_REQUEST,
        "the upload's length was given as two different values",
        ngx_string("rejected"), 0, 1, 1 },

    [NGX_HTTP_VIDEO_OCR_BAD_UPLOAD_HEADER] = {
        ngx_string("bad-upload-header"), NGX_HTTP_BAD_REQUEST,
        "a resumable-upload header is missing, repeated or malformed",
        ngx_string("rejected"), 0, 1 },

    [NGX_HTTP_VIDEO_OCR_NO_SUCH_UPLOAD] = {
        ngx_string("no-such-upload"), NGX_HTTP_NOT_FOUND,
        "no upload has this URL (it may have expired or been deleted)",
        ngx_string("rejected"), 0, 1 },

    [NGX_HTTP_VIDEO_OCR_TUS_VERSION] = {
        ngx_string("tus-version"), NGX_HTTP_PRECONDITION_FAILED,
        "this server speaks tus 1.0.0 (Tus-Version)",
        ngx_string("rejected"), 0, 1 },

    [NGX_HTTP_VIDEO_OCR_CHECKSUM_MISMATCH] = {
        ngx_string("checksum-mismatch"), NGX_HTTP_VIDEO_OCR_CHECKSUM_FAILED,
        "the chunk's digest is not the one of Upload-Checksum: it was not "
        "kept, send it again", ngx_string("rejected"), 0, 1 },

    [NGX_HTTP_VIDEO_OCR_TOO_MANY_UPLOADS] = {
        ngx_string("too-many-uploads"), NGX_HTTP_TOO_MANY_REQUESTS,
        "this tenant has as many incomplete uploads as it may have "
        "(video_ocr_uploads_max): finish or delete one first",
        ngx_string("rejected"), 1, 1 },

    [NGX_HTTP_VIDEO_OCR_UPLOAD_SUPERSEDED] = {
        ngx_string("upload-superseded"), NGX_HTTP_CONFLICT,
        "another request took this upload over (or deleted it) while this "
        "one was sending: its last bytes were not kept",
        ngx_string("rejected"), 0, 1 },

    [NGX_HTTP_VIDEO_OCR_BAD_CONTENT_TYPE] = {
        ngx_string("bad-content-type"), NGX_HTTP_UNSUPPORTED_MEDIA_TYPE,
        "an append's Content-Type must be application/partial-upload (IETF) "
        "or application/offset+octet-stream (tus)",
        ngx_string("rejected"), 0, 1 },

    [NGX_HTTP_VIDEO_OCR_FINAL_UPLOAD] = {
        ngx_string("final-upload"), NGX_HTTP_FORBIDDEN,
        "a final upload (Upload-Concat: final) takes no PATCH: its bytes "
        "are its partial uploads'", ngx_string("rejected"), 0, 1 },

    [NGX_HTTP_VIDEO_OCR_PARTIAL_GONE] = {
        ngx_string("partial-upload-gone"), NGX_HTTP_NOT_FOUND,
        "a partial upload that the final upload names is gone (expired, "
        "deleted, or never made): upload it again",
        ngx_string("rejected"), 0, 1 },

    [NGX_HTTP_VIDEO_OCR_PARTIAL_UNFINISHED] = {
        ngx_string("partial-upload-unfinished"), NGX_HTTP_BAD_REQUEST,
        "a partial upload that the final upload names has not all its "
        "bytes: make the final upload once every partial one is complete "
        "(concatenation-unfinished is not supported)",
        ngx_string("rejected"), 0, 1 },

    [NGX_HTTP_VIDEO_OCR_NOT_PARTIAL] = {
        ngx_string("not-a-partial-upload"), NGX_HTTP_BAD_REQUEST,
        "an upload that the final upload names is not a partial upload "
        "(Upload-Concat: partial) of its Idempotency-Key",
        ngx_string("rejected"), 0, 1 },

    /* search: docs/http-api.md, "Search" (the detail says what) */

    [NGX_HTTP_VIDEO_OCR_BAD_QUERY] = {
        ngx_string("bad-query"), NGX_HTTP_BAD_REQUEST,
        "the search's query string is malformed", ngx_null_string, 0, 0 },

    [NGX_HTTP_VIDEO_OCR_QUERY_TOO_LONG] = {
        ngx_string("query-too-long"), NGX_HTTP_REQUEST_URI_TOO_LARGE,
        "the search's query is too long", ngx_null_string, 0, 0 }
};


ngx_int_t
ngx_http_video_ocr_problem_filter_init(ngx_conf_t *cf)
{
    ngx_http_next_header_filter = ngx_http_top_header_filter;
    ngx_http_top_header_filter = ngx_http_video_ocr_header_filter;

    ngx_http_next_body_filter = ngx_http_top_body_filter;
    ngx_http_top_body_filter = ngx_http_video_ocr_output_filter;

    return NGX_OK;
}


ngx_int_t
ngx_http_video_ocr_send_json(ngx_http_request_t *r, ngx_uint_t status,
    u_char *body, size_t len)
{
    return ngx_http_video_ocr_send_body(r, status,
                                        &ngx_http_video_ocr_json_type, body,
                                        len);
}


ngx_int_t
ngx_http_video_ocr_send_body(ngx_http_request_t *r, ngx_uint_t status,
    ngx_str_t *content_type, u_char *body, size_t len)
{
    ngx_buf_t  *b;

    b = ngx_calloc_buf(r->pool);
    if (b == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    b->pos = body;
    b->last = body + len;
    b->memory = 1;

    return ngx_http_video_ocr_send(r, status, content_type, b);
}


/*
 * The request's context, made on its first use: where every endpoint
 * records what it decided, and how the request ended.
 */

ngx_http_video_ocr_ctx_t *
ngx_http_video_ocr_get_ctx(ngx_http_request_t *r)
{
    ngx_http_video_ocr_ctx_t  *ctx;

    ctx = ngx_http_get_module_ctx(r, ngx_http_video_ocr_module);

    if (ctx == NULL) {
        ctx = ngx_pcalloc(r->pool, sizeof(ngx_http_video_ocr_ctx_t));
        if (ctx == NULL) {
            return NULL;
        }

        ctx->container = VO_CONTAINER_NEED_MORE;

        ngx_http_set_ctx(r, ctx, ngx_http_video_ocr_module);
    }

    return ctx;
}


/*
 * The start the reading endpoints share (video_ocr_jobs, _metrics,
 * _search): a main request, with one of methods (else 405, how says what
 * to send), its context made (*ctx), its body discarded.  NGX_DECLINED:
 * go on; anything else is what the handler returns (a reply sent may
 * have returned NGX_OK).
 */

ngx_int_t
ngx_http_video_ocr_read_start(ngx_http_request_t *r, ngx_uint_t methods,
    const char *how, ngx_http_video_ocr_ctx_t **ctx)
{
    ngx_int_t  rc;

    if (r != r->main) {
        return NGX_HTTP_NOT_ALLOWED;
    }

    *ctx = ngx_http_video_ocr_get_ctx(r);
    if (*ctx == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    if (!(r->method & methods)) {
        return ngx_http_video_ocr_send_problem(r,
                   NGX_HTTP_VIDEO_OCR_METHOD_NOT_ALLOWED, how, NULL);
    }

    rc = ngx_http_discard_request_body(r);

    return rc == NGX_OK ? NGX_DECLINED : rc;
}


/*
 * The tenant the request acts for: video_ocr_tenant evaluated, or the
 * empty tenant when the directive is not set.  NGX_DECLINED when the
 * directive is set but yields nothing (no authenticated identity).
 */

ngx_int_t
ngx_http_video_ocr_tenant(ngx_http_request_t *r,
    ngx_http_video_ocr_loc_conf_t *vlcf, ngx_str_t *tenant)
{
    ngx_str_set(tenant, "");

    if (vlcf->tenant == NULL) {
        return NGX_OK;
    }

    if (ngx_http_complex_value(r, vlcf->tenant, tenant) != NGX_OK) {
        return NGX_ERROR;
    }

    if (tenant->len == 0 || tenant->len > 255) {
        return NGX_DECLINED;
    }

    return NGX_OK;
}


/*
 * The tenant, or the request refused: NGX_DECLINED, go on; anything else
 * is what the handler returns (500, or what sending the problem reply of
 * a request without a tenant returned).
 */

ngx_int_t
ngx_http_video_ocr_tenant_or_refuse(ngx_http_request_t *r,
    ngx_http_video_ocr_loc_conf_t *vlcf, ngx_str_t *tenant)
{
    ngx_int_t  rc;

    rc = ngx_http_video_ocr_tenant(r, vlcf, tenant);

    if (rc == NGX_ERROR) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    if (rc == NGX_DECLINED) {
        return ngx_http_video_ocr_send_problem(r,
                   NGX_HTTP_VIDEO_OCR_NO_TENANT, NULL, NULL);
    }

    return NGX_DECLINED;
}


/*
 * Sends the problem+json reply of an outcome.  Discards a body that was
 * not read, so a refusal at the edge costs no storage.
 */

ngx_int_t
ngx_http_video_ocr_send_problem(ngx_http_request_t *r, ngx_uint_t outcome,
    const char *detail, const char *job_id)
{
    ngx_str_t                            d;
    ngx_buf_t                           *b;
    ngx_http_video_ocr_ctx_t            *ctx;
    const ngx_http_video_ocr_outcome_t  *o;

    ctx = ngx_http_video_ocr_get_ctx(r);
    if (ctx == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    o = &ngx_http_video_ocr_outcomes[outcome];

    if (detail == NULL) {
        detail = o->detail;
    }

    ctx->outcome = outcome;

    if (ngx_http_discard_request_body(r) != NGX_OK) {
        r->keepalive = 0;
    }

    d.data = (u_char *) detail;
    d.len = ngx_strlen(detail);

    b = ngx_http_video_ocr_problem_buf(r, o->status,
                                       &o->type, o->iana, &d, job_id);
    if (b == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    if (o->retry_after
        && ngx_http_video_ocr_retry_after(r, o->retry_after) != NGX_OK)
    {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    if (o->status == NGX_HTTP_NOT_ALLOWED
        && ngx_http_video_ocr_allow(r) != NGX_OK)
    {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    if (o->status == NGX_HTTP_UNPROCESSABLE_ENTITY) {
        ngx_str_set(&r->headers_out.status_line, "422 Unprocessable Content");

    } else if (o->status == NGX_HTTP_VIDEO_OCR_CHECKSUM_FAILED) {
        /* tus's own status: nginx has no reason phrase for it */
        ngx_str_set(&r->headers_out.status_line, "460 Checksum Mismatch");
    }

    return ngx_http_video_ocr_send(r, o->status,
                                   &ngx_http_video_ocr_problem_type, b);
}


/* Sends the header and the one buffer of a reply this module writes. */

static ngx_int_t
ngx_http_video_ocr_send(ngx_http_request_t *r, ngx_uint_t status,
    ngx_str_t *content_type, ngx_buf_t *b)
{
    ngx_int_t                  rc;
    ngx_chain_t                out;
    ngx_http_video_ocr_ctx_t  *ctx;

    ctx = ngx_http_video_ocr_get_ctx(r);
    if (ctx == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    ctx->replied = 1;

    r->headers_out.status = status;
    r->headers_out.content_type = *content_type;
    r->headers_out.content_type_len = content_type->len;
    r->headers_out.content_type_lowcase = NULL;
    r->headers_out.content_length_n = b->last - b->pos;

    b->last_buf = (r == r->main) ? 1 : 0;
    b->last_in_chain = 1;

    rc = ngx_http_send_header(r);

    if (rc == NGX_ERROR || rc > NGX_OK || r->header_only) {
        return rc;
    }

    out.buf = b;
    out.next = NULL;

    return ngx_http_output_filter(r, &out);
}


ngx_int_t
ngx_http_video_ocr_refuse(ngx_http_request_t *r)
{
    ngx_http_video_ocr_ctx_t  *ctx;

    ctx = ngx_http_get_module_ctx(r, ngx_http_video_ocr_module);

    if (ctx == NULL || ctx->problem_detail.data == NULL) {
        return ngx_http_video_ocr_send_problem(r,
                   NGX_HTTP_VIDEO_OCR_INTERNAL, NULL, NULL);
    }

    return ngx_http_video_ocr_send_problem(r, ctx->outcome,
                                           (char *) ctx->problem_detail.data,
                                           NULL);
}


void
ngx_http_video_ocr_set_problem(ngx_http_request_t *r, ngx_uint_t outcome,
    const char *detail)
{
    size_t                     len;
    ngx_http_video_ocr_ctx_t  *ctx;

    ctx = ngx_http_video_ocr_get_ctx(r);
    if (ctx == NULL) {
        return;
    }

    if (detail == NULL) {
        detail = ngx_http_video_ocr_outcomes[outcome].detail;
    }

    ctx->outcome = outcome;

    /* the detail may live on the caller's stack: keep a copy */

    len = ngx_strlen(detail);

    ctx->problem_detail.data = ngx_pnalloc(r->pool, len + 1);
    if (ctx->problem_detail.data == NULL) {
        ngx_str_set(&ctx->problem_detail, "");
        return;
    }

    (void) ngx_cpystrn(ctx->problem_detail.data, (u_char *) detail, len + 1);
    ctx->problem_detail.len = len;
}


ngx_int_t
ngx_http_video_ocr_ledger_reply(ngx_http_request_t *r, vo_ledger_rc_t rc,
    const char *what, const char *err)
{
    switch (rc) {

    case VO_LEDGER_BUSY:
        ngx_log_error(NGX_LOG_WARN, r->connection->log, 0,
                      "video_ocr: ledger busy: %s", err);
        return ngx_http_video_ocr_send_problem(r, NGX_HTTP_VIDEO_OCR_BUSY,
                                               NULL, NULL);

    case VO_LEDGER_FULL:
        ngx_log_error(NGX_LOG_CRIT, r->connection->log, 0,
                      "video_ocr: ledger: %s", err);
        return ngx_http_video_ocr_send_problem(r,
                   NGX_HTTP_VIDEO_OCR_DISK_FULL, NULL, NULL);

    case VO_LEDGER_NOT_FOUND:
        return ngx_http_video_ocr_send_problem(r,
                   NGX_HTTP_VIDEO_OCR_NO_SUCH_JOB, NULL, NULL);

    case VO_LEDGER_GONE:
        return ngx_http_video_ocr_send_problem(r,
                   NGX_HTTP_VIDEO_OCR_JOB_GONE, NULL, NULL);

    default:
        ngx_log_error(NGX_LOG_ERR, r->connection->log, 0,
                      "video_ocr: ledger: %s", err);
        return ngx_http_video_ocr_send_problem(r,
                   NGX_HTTP_VIDEO_OCR_INTERNAL, what, NULL);
    }
}


/*
 * "Retry-After: N", N of the outcome: 1 for the waits behind a 503 or
 * 507, short or unknown
 */

static ngx_int_t
ngx_http_video_ocr_retry_after(ngx_http_request_t *r, ngx_uint_t seconds)
{
    u_char           *p;
    ngx_table_elt_t  *h;

    h = ngx_list_push(&r->headers_out.headers);
    if (h == NULL) {
        return NGX_ERROR;
    }

    h->hash = 1;
    ngx_str_set(&h->key, "Retry-After");

    p = ngx_pnalloc(r->pool, NGX_INT_T_LEN);
    if (p == NULL) {
        return NGX_ERROR;
    }

    h->value.data = p;
    h->value.len = ngx_sprintf(p, "%ui", seconds) - p;

    return NGX_OK;
}


static ngx_buf_t *
ngx_http_video_ocr_problem_buf(ngx_http_request_t *r, ngx_uint_t status,
    const ngx_str_t *type, ngx_uint_t iana, ngx_str_t *detail,
    const char *job_id)
{
    u_char                    *p;
    vo_buf_t                   j;
    ngx_buf_t                 *b;
    ngx_http_video_ocr_ctx_t  *ctx;

    vo_buf_init(&j);

    vo_buf_adds(&j, iana ? "{\"type\":\"https://iana.org/assignments/"
                           "http-problem-types#"
                         : "{\"type\":\"urn:video-ocr:problem:");
    vo_buf_add(&j, (char *) type->data, type->len);
    vo_buf_adds(&j, "\",\"title\":");
    vo_json_strz(&j, ngx_http_video_ocr_title(status));
    vo_buf_printf(&j, ",\"status\":%u,\"detail\":", (unsigned) status);
    vo_json_str(&j, (char *) detail->data, detail->len);

    if (job_id != NULL) {
        vo_buf_adds(&j, ",\"job_id\":");
        vo_json_strz(&j, job_id);
    }

    ctx = ngx_http_get_module_ctx(r, ngx_http_video_ocr_module);

    if (ctx != NULL && ctx->problem_extra.len) {
        vo_buf_addc(&j, ',');
        vo_buf_add(&j, (char *) ctx->problem_extra.data,
                   ctx->problem_extra.len);
    }

    vo_buf_adds(&j, "}\n");

    if (j.failed) {
        vo_buf_free(&j);
        return NULL;
    }

    b = ngx_create_temp_buf(r->pool, j.len);
    if (b == NULL) {
        vo_buf_free(&j);
        return NULL;
    }

    p = ngx_cpymem(b->pos, j.data, j.len);
    b->last = p;
    b->last_buf = (r == r->main) ? 1 : 0;
    b->last_in_chain = 1;

    vo_buf_free(&j);

    return b;
}


/* The outcome of an error page nginx made itself, by its status. */

static ngx_uint_t
ngx_http_video_ocr_nginx_outcome(ngx_uint_t status)
{
    switch (status) {
    case NGX_HTTP_REQUEST_ENTITY_TOO_LARGE:
        return NGX_HTTP_VIDEO_OCR_TOO_LARGE;
    case NGX_HTTP_INSUFFICIENT_STORAGE:
        return NGX_HTTP_VIDEO_OCR_DISK_FULL;
    case NGX_HTTP_BAD_REQUEST:
        return NGX_HTTP_VIDEO_OCR_BAD_REQUEST;
    default:
        return NGX_HTTP_VIDEO_OCR_INTERNAL;
    }
}


static const char *
ngx_http_video_ocr_title(ngx_uint_t status)
{
    switch (status) {
    case NGX_HTTP_BAD_REQUEST:              return "Bad Request";
    case NGX_HTTP_FORBIDDEN:                return "Forbidden";
    case NGX_HTTP_NOT_FOUND:                return "Not Found";
    case NGX_HTTP_NOT_ALLOWED:              return "Method Not Allowed";
    case NGX_HTTP_CONFLICT:                 return "Conflict";
    case NGX_HTTP_REQUEST_TIME_OUT:         return "Request Timeout";
    case NGX_HTTP_LENGTH_REQUIRED:          return "Length Required";
    case NGX_HTTP_PRECONDITION_FAILED:      return "Precondition Failed";
    case NGX_HTTP_REQUEST_ENTITY_TOO_LARGE: return "Content Too Large";
    case NGX_HTTP_REQUEST_URI_TOO_LARGE:    return "URI Too Long";
    case NGX_HTTP_UNSUPPORTED_MEDIA_TYPE:   return "Unsupported Media Type";
    case NGX_HTTP_UNPROCESSABLE_ENTITY:     return "Unprocessable Content";
    case NGX_HTTP_TOO_MANY_REQUESTS:        return "Too Many Requests";
    case NGX_HTTP_VIDEO_OCR_CHECKSUM_FAILED: return "Checksum Mismatch";
    case NGX_HTTP_INTERNAL_SERVER_ERROR:    return "Internal Server Error";
    case NGX_HTTP_NOT_IMPLEMENTED:          return "Not Implemented";
    case NGX_HTTP_SERVICE_UNAVAILABLE:      return "Service Unavailable";
    case NGX_HTTP_INSUFFICIENT_STORAGE:     return "Insufficient Storage";
    default:                                return "Error";
    }
}


static ngx_int_t
ngx_http_video_ocr_allow(ngx_http_request_t *r)
{
    ngx_table_elt_t                *h;
    ngx_http_video_ocr_loc_conf_t  *vlcf;

    vlcf = ngx_http_get_module_loc_conf(r, ngx_http_video_ocr_module);

    h = ngx_list_push(&r->headers_out.headers);
    if (h == NULL) {
        return NGX_ERROR;
    }

    h->hash = 1;
    ngx_str_set(&h->key, "Allow");

    h->value = ngx_http_video_ocr_endpoints[vlcf->endpoint].allow;

    return NGX_OK;
}


/*
 * The problem filter.  It acts only on the main request's error replies in
 * this module's locations that the module did not write itself (those are
 * nginx's special responses), replacing their HTML with problem+json.
 */

static ngx_int_t
ngx_http_video_ocr_header_filter(ngx_http_request_t *r)
{
    ngx_buf_t                           *b;
    ngx_http_video_ocr_ctx_t            *ctx;
    ngx_http_video_ocr_loc_conf_t       *vlcf;
    const ngx_http_video_ocr_outcome_t  *o;

    if (r != r->main || r->headers_out.status < NGX_HTTP_BAD_REQUEST) {
        return ngx_http_next_header_filter(r);
    }

    vlcf = ngx_http_get_module_loc_conf(r, ngx_http_video_ocr_module);

    if (vlcf->endpoint == NGX_HTTP_VIDEO_OCR_NO_ENDPOINT) {
        return ngx_http_next_header_filter(r);
    }

    ctx = ngx_http_get_module_ctx(r, ngx_http_video_ocr_module);

    if (ctx != NULL && ctx->replied) {
        return ngx_http_next_header_filter(r);
    }

    ctx = ngx_http_video_ocr_get_ctx(r);
    if (ctx == NULL) {
        return NGX_ERROR;
    }

    if (ctx->problem_detail.data == NULL) {
        /* an error page of nginx's own: 413 from client_max_body_size,
         * 408, 500, ... */
        ngx_http_video_ocr_set_problem(r,
            ngx_http_video_ocr_nginx_outcome(r->headers_out.status), NULL);
    }

    o = &ngx_http_video_ocr_outcomes[ctx->outcome];

    if (o->retry_after
        && ngx_http_video_ocr_retry_after(r, o->retry_after) != NGX_OK)
    {
        return NGX_ERROR;
    }

    b = ngx_http_video_ocr_problem_buf(r, r->headers_out.status,
                                       &o->type, o->iana,
                                       &ctx->problem_detail, NULL);
    if (b == NULL) {
        return NGX_ERROR;
    }

    ctx->replace_body = 1;
    ctx->replied = 1;
    ctx->problem = b;

    r->headers_out.content_type = ngx_http_video_ocr_problem_type;
    r->headers_out.content_type_len = ngx_http_video_ocr_problem_type.len;
    r->headers_out.content_type_lowcase = NULL;
    r->headers_out.charset.len = 0;
    r->headers_out.content_length_n = b->last - b->pos;

    if (r->headers_out.content_length) {
        r->headers_out.content_length->hash = 0;
        r->headers_out.content_length = NULL;
    }

    return ngx_http_next_header_filter(r);
}


static ngx_int_t
ngx_http_video_ocr_output_filter(ngx_http_request_t *r, ngx_chain_t *in)
{
    ngx_chain_t                *cl, out;
    ngx_http_video_ocr_ctx_t   *ctx;

    ctx = ngx_http_get_module_ctx(r, ngx_http_video_ocr_module);

    if (ctx == NULL || !ctx->replace_body) {
        return ngx_http_next_body_filter(r, in);
    }

    /* nginx's error page is consumed and dropped */

    for (cl = in; cl; cl = cl->next) {
        cl->buf->pos = cl->buf->last;
        cl->buf->file_pos = cl->buf->file_last;
    }

    if (ctx->body_replaced) {
        return NGX_OK;
    }

    ctx->body_replaced = 1;

    out.buf = ctx->problem;
    out.next = NULL;

    return ngx_http_next_body_filter(r, &out);
}
