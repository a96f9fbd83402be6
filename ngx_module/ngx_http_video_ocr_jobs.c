/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The job status endpoint (video_ocr_jobs): GET <location>/<job_id>
 * answers the job's state, options, progress, media inspection, error and
 * result as JSON, read from the ledger in the thread pool.  A job of
 * another tenant is answered exactly like an unknown one: 404.
 */


#include "ngx_http_video_ocr.h"


static ngx_int_t ngx_http_video_ocr_job_id(ngx_http_request_t *r,
    u_char *job_id);
static ngx_int_t ngx_http_video_ocr_format(ngx_http_request_t *r,
    ngx_http_video_ocr_task_t *t);
static void ngx_http_video_ocr_status_done(ngx_http_request_t *r);
static void ngx_http_video_ocr_status_thread(ngx_http_video_ocr_task_t *t);
static void ngx_http_video_ocr_delete_thread(ngx_http_video_ocr_task_t *t);


/* ?format=: the status document (json) or one published result format */
static struct {
    ngx_str_t   name;
    ngx_str_t   content_type;
} ngx_http_video_ocr_formats[] = {
    { ngx_string("vtt"), ngx_string("text/vtt; charset=utf-8") },
    { ngx_string("srt"), ngx_string("application/x-subrip; charset=utf-8") },
    { ngx_string("txt"), ngx_string("text/plain; charset=utf-8") },
    { ngx_string("ass"), ngx_string("text/x-ssa; charset=utf-8") },
    { ngx_null_string, ngx_null_string }
};


ngx_int_t
ngx_http_video_ocr_jobs_handler(ngx_http_request_t *r)
{
    ngx_int_t                       rc;
    ngx_str_t                       tenant;
    ngx_thread_task_t              *task;
    ngx_http_video_ocr_ctx_t       *ctx;
    ngx_http_video_ocr_task_t      *t;
    ngx_http_video_ocr_loc_conf_t  *vlcf;

    rc = ngx_http_video_ocr_read_start(r,
             NGX_HTTP_GET|NGX_HTTP_HEAD|NGX_HTTP_DELETE,
             "read a job with GET, delete it with DELETE", &ctx);
    if (rc != NGX_DECLINED) {
        return rc;
    }

    vlcf = ngx_http_get_module_loc_conf(r, ngx_http_video_ocr_module);

    rc = ngx_http_video_ocr_tenant_or_refuse(r, vlcf, &tenant);
    if (rc != NGX_DECLINED) {
        return rc;
    }

    if (ngx_http_video_ocr_job_id(r, (u_char *) ctx->job_id) != NGX_OK) {
        ctx->job_id[0] = '\0';
        return ngx_http_video_ocr_send_problem(r,
                   NGX_HTTP_VIDEO_OCR_NO_SUCH_JOB, NULL, NULL);
    }

    task = ngx_http_video_ocr_task_alloc(r, (r->method & NGX_HTTP_DELETE)
                                            ? ngx_http_video_ocr_delete_thread
                                            : ngx_http_video_ocr_status_thread);
    if (task == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    t = task->ctx;
    t->now_ms = ngx_http_video_ocr_now_ms();

    if (ngx_http_video_ocr_format(r, t) != NGX_OK) {
        return ngx_http_video_ocr_send_problem(r,
                   NGX_HTTP_VIDEO_OCR_BAD_FORMAT, NULL, NULL);
    }

    t->tenant = (char *) tenant.data;
    t->tenant_len = tenant.len;
    ngx_memcpy(t->job_id, ctx->job_id, VO_JOB_ID_LEN + 1);

    ctx->task = t;

    rc = ngx_http_video_ocr_task_post(r, task, ngx_http_video_ocr_status_done);
    if (rc != NGX_OK) {
        return ngx_http_video_ocr_refuse(r);
    }

    r->main->count++;

    return NGX_DONE;
}


/* The last path segment of the URI, if it is a job id (32 hex digits). */

static ngx_int_t
ngx_http_video_ocr_job_id(ngx_http_request_t *r, u_char *job_id)
{
    u_char  *p, *last;

    last = r->uri.data + r->uri.len;
    p = last;

    while (p > r->uri.data && p[-1] != '/') {
        p--;
    }

    if (!vo_job_id_valid((const char *) p, last - p)) {
        return NGX_DECLINED;
    }

    ngx_memcpy(job_id, p, VO_JOB_ID_LEN);
    job_id[VO_JOB_ID_LEN] = '\0';

    return NGX_OK;
}


static ngx_int_t
ngx_http_video_ocr_format(ngx_http_request_t *r, ngx_http_video_ocr_task_t *t)
{
    ngx_str_t   value;
    ngx_uint_t  i;

    t->format = NULL;

    if (ngx_http_arg(r, (u_char *) "format", 6, &value) != NGX_OK) {
        return NGX_OK;
    }

    if (value.len == 4 && ngx_strncmp(value.data, "json", 4) == 0) {
        return NGX_OK;
    }

    for (i = 0; ngx_http_video_ocr_formats[i].name.len; i++) {
        if (value.len == ngx_http_video_ocr_formats[i].name.len
            && ngx_strncmp(value.data, ngx_http_video_ocr_formats[i].name.data,
                           value.len) == 0)
        {
            t->format = (char *) ngx_http_video_ocr_formats[i].name.data;
            return NGX_OK;
        }
    }

    return NGX_DECLINED;
}


static void
ngx_http_video_ocr_status_done(ngx_http_request_t *r)
{
    u_char                     *p, *last;
    ngx_int_t                   rc;
    ngx_str_t                  *type;
    ngx_uint_t                  i;
    ngx_table_elt_t            *h;
    ngx_http_video_ocr_ctx_t   *ctx;
    ngx_http_video_ocr_task_t  *t;

    static ngx_str_t  json = ngx_string("application/json");

    if (r->aio) {
        /* a write event while the task runs: keep waiting */
        return;
    }

    r->write_event_handler = ngx_http_request_empty_handler;

    ctx = ngx_http_get_module_ctx(r, ngx_http_video_ocr_module);
    t = ctx->task;

    if ((r->method & NGX_HTTP_DELETE) && t->err[0] != '\0'
        && t->ledger_rc == VO_LEDGER_OK)
    {
        /* deleted in the ledger, but the input file stayed */
        ngx_log_error(NGX_LOG_CRIT, r->connection->log, 0,
                      "video_ocr: job %s deleted, its input not: %s",
                      t->job_id, t->err);
    }

    switch (t->ledger_rc) {

    case VO_LEDGER_OK:
        if (r->method & NGX_HTTP_DELETE) {
            ngx_log_error(NGX_LOG_INFO, r->connection->log, 0,
                          "video_ocr: job %s deleted by its tenant",
                          t->job_id);
        }

        p = ngx_pnalloc(r->pool, t->body_len);
        if (p == NULL) {
            rc = NGX_HTTP_INTERNAL_SERVER_ERROR;
            break;
        }

        ngx_memcpy(p, t->body, t->body_len);

        h = ngx_list_push(&r->headers_out.headers);
        if (h == NULL) {
            rc = NGX_HTTP_INTERNAL_SERVER_ERROR;
            break;
        }

        h->hash = 1;
        ngx_str_set(&h->key, "Cache-Control");
        ngx_str_set(&h->value, "no-store");

        type = &json;

        for (i = 0; t->format && ngx_http_video_ocr_formats[i].name.len; i++)
        {
            if (ngx_strcmp(t->format,
                           ngx_http_video_ocr_formats[i].name.data) == 0)
            {
                type = &ngx_http_video_ocr_formats[i].content_type;
            }
        }

        rc = ngx_http_video_ocr_send_body(r, NGX_HTTP_OK, type, p,
                                          t->body_len);
        break;

    case VO_LEDGER_NOT_READY:
        if (ngx_strcmp(t->state, "done") == 0) {
            /* published by a worker that did not write this format */
            rc = ngx_http_video_ocr_send_problem(r,
                                          NGX_HTTP_VIDEO_OCR_NO_SUCH_FORMAT,
                                          NULL, NULL);
            break;
        }

        p = ngx_pnalloc(r->pool, 128);
        if (p == NULL) {
            rc = NGX_HTTP_INTERNAL_SERVER_ERROR;
            break;
        }

        last = ngx_snprintf(p, 127, "the job is %s; its text is published "
                            "when it is done", t->state);
        *last = '\0';

        rc = ngx_http_video_ocr_send_problem(r, NGX_HTTP_VIDEO_OCR_NOT_DONE,
                                             (char *) p, NULL);
        break;

    default:
        if (t->ledger_rc == VO_LEDGER_NOT_FOUND) {
            ctx->job_id[0] = '\0';
        }

        rc = ngx_http_video_ocr_ledger_reply(r, t->ledger_rc,
                                             "the job could not be read",
                                             t->err);
        break;
    }

    ngx_http_finalize_request(r, rc);
}


/* In a thread-pool thread from here on: plain C only. */


static void
ngx_http_video_ocr_status_thread(ngx_http_video_ocr_task_t *t)
{
    vo_buf_t      b;
    vo_ledger_t  *l;

    l = ngx_http_video_ocr_thread_ledger(t);
    if (l == NULL) {
        return;
    }

    vo_buf_init(&b);

    if (t->format == NULL) {
        t->ledger_rc = vo_ledger_job_status(l, t->tenant, t->tenant_len,
                                            t->job_id, &b, t->err,
                                            sizeof(t->err));

    } else {
        t->ledger_rc = vo_ledger_job_result(l, t->tenant, t->tenant_len,
                                            t->job_id, t->format, &b,
                                            t->state, sizeof(t->state),
                                            t->err, sizeof(t->err));
    }

    ngx_http_video_ocr_take_body(t, &b, "job ", t->job_id);
}


/*
 * DELETE: the ledger first (cancel, forget frames and results, keep the
 * receipt), then the stored input; a failure to unlink is reported and
 * left for the janitor, which removes inputs of deleted jobs.
 */

static void
ngx_http_video_ocr_delete_thread(ngx_http_video_ocr_task_t *t)
{
    char          input[VO_INPUT_PATH_MAX], err[64];
    vo_buf_t      b;
    vo_ledger_t  *l;

    l = ngx_http_video_ocr_thread_ledger(t);
    if (l == NULL) {
        return;
    }

    vo_buf_init(&b);

    t->ledger_rc = vo_ledger_delete_job(l, t->tenant, t->tenant_len,
                                        t->job_id, t->now_ms, input,
                                        sizeof(input), &b, t->err,
                                        sizeof(t->err));

    ngx_http_video_ocr_take_body(t, &b, "delete", "");

    if (t->ledger_rc != VO_LEDGER_OK) {
        return;
    }

    if (input[0] != '\0') {
        t->removed = (vo_store_remove(t->store, input, err, sizeof(err)) == 0);

        if (!t->removed) {
            snprintf(t->err, sizeof(t->err), "%s", err);
        }
    }
}
