/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Metrics.  Two sources, one Prometheus text page (video_ocr_metrics):
 *
 *   - this nginx's own counters, in a shared memory zone every worker
 *     process adds to with atomic increments: upload requests by outcome
 *     (counted once per request, in the log phase), bytes received, group
 *     commit batches;
 *   - the ledger's, shared by every nginx and worker on it: jobs by
 *     state, ages, attempts, OCR work, bytes, expiries (vo_ledger_metrics,
 *     read in the thread pool: a few rows the schema's triggers keep
 *     current, never a scan).
 *
 * A scrape therefore costs a few microseconds of the event loop and one
 * short read in a thread, and never holds a lock an admission waits for.
 */


#include "ngx_http_video_ocr.h"
#include "vo_version.h"


typedef struct {
    ngx_atomic_t   requests[NGX_HTTP_VIDEO_OCR_OUTCOMES];  /* by outcome */
    ngx_atomic_t   received_bytes;
    ngx_atomic_t   batches;
    ngx_atomic_t   batched;
    ngx_atomic_t   status_requests;
} ngx_http_video_ocr_shctx_t;


static ngx_int_t ngx_http_video_ocr_shm_init(ngx_shm_zone_t *shm_zone,
    void *data);
static ngx_int_t ngx_http_video_ocr_log_handler(ngx_http_request_t *r);
static void ngx_http_video_ocr_metrics_done(ngx_http_request_t *r);
static void ngx_http_video_ocr_metrics_thread(ngx_http_video_ocr_task_t *t);
static ngx_shm_zone_t  *ngx_http_video_ocr_shm_zone;
static ngx_http_video_ocr_shctx_t  *ngx_http_video_ocr_sh;


/*
 * The shared zone and the log phase handler; from postconfiguration,
 * when a ledger is configured.
 */

ngx_int_t
ngx_http_video_ocr_metrics_init(ngx_conf_t *cf)
{
    ngx_str_t                   name = ngx_string("video_ocr_metrics");
    ngx_http_handler_pt        *h;
    ngx_http_core_main_conf_t  *cmcf;

    ngx_http_video_ocr_shm_zone = ngx_shared_memory_add(cf, &name,
                                      8 * ngx_pagesize,
                                      &ngx_http_video_ocr_module);
    if (ngx_http_video_ocr_shm_zone == NULL) {
        return NGX_ERROR;
    }

    ngx_http_video_ocr_shm_zone->init = ngx_http_video_ocr_shm_init;

    cmcf = ngx_http_conf_get_module_main_conf(cf, ngx_http_core_module);

    h = ngx_array_push(&cmcf->phases[NGX_HTTP_LOG_PHASE].handlers);
    if (h == NULL) {
        return NGX_ERROR;
    }

    *h = ngx_http_video_ocr_log_handler;

    return NGX_OK;
}


static ngx_int_t
ngx_http_video_ocr_shm_init(ngx_shm_zone_t *shm_zone, void *data)
{
    ngx_slab_pool_t  *shpool;

    if (data) {
        /* a reload: the counters go on */
        shm_zone->data = data;
        ngx_http_video_ocr_sh = data;
        return NGX_OK;
    }

    shpool = (ngx_slab_pool_t *) shm_zone->shm.addr;

    ngx_http_video_ocr_sh = ngx_slab_calloc(shpool,
                                    sizeof(ngx_http_video_ocr_shctx_t));
    if (ngx_http_video_ocr_sh == NULL) {
        return NGX_ERROR;
    }

    shm_zone->data = ngx_http_video_ocr_sh;

    return NGX_OK;
}


/* Where the group commit adds its batches (NULL before the zone). */

ngx_atomic_t *
ngx_http_video_ocr_batch_counters(ngx_atomic_t **batched)
{
    if (ngx_http_video_ocr_sh == NULL) {
        *batched = NULL;
        return NULL;
    }

    *batched = &ngx_http_video_ocr_sh->batched;

    return &ngx_http_video_ocr_sh->batches;
}


/* Counts each upload request once, whatever became of it. */

static ngx_int_t
ngx_http_video_ocr_log_handler(ngx_http_request_t *r)
{
    ngx_uint_t                      i;
    ngx_http_video_ocr_ctx_t       *ctx;
    ngx_http_video_ocr_loc_conf_t  *vlcf;

    if (r != r->main || ngx_http_video_ocr_sh == NULL) {
        return NGX_OK;
    }

    vlcf = ngx_http_get_module_loc_conf(r, ngx_http_video_ocr_module);

    if (vlcf->endpoint == NGX_HTTP_VIDEO_OCR_JOBS) {
        (void) ngx_atomic_fetch_add(&ngx_http_video_ocr_sh->status_requests,
                                    1);
        return NGX_OK;
    }

    if (vlcf->endpoint != NGX_HTTP_VIDEO_OCR_INTAKE) {
        return NGX_OK;
    }

    ctx = ngx_http_get_module_ctx(r, ngx_http_video_ocr_module);

    /* the refusal, else what the admission decided, else aborted */

    i = NGX_HTTP_VIDEO_OCR_ABORTED;

    if (ctx != NULL) {
        i = ctx->outcome ? ctx->outcome : ctx->admitted;

        (void) ngx_atomic_fetch_add(&ngx_http_video_ocr_sh->received_bytes,
                                    (ngx_atomic_int_t) ctx->received);
    }

    (void) ngx_atomic_fetch_add(&ngx_http_video_ocr_sh->requests[i], 1);

    return NGX_OK;
}


/* video_ocr_metrics: GET the page. */

ngx_int_t
ngx_http_video_ocr_metrics_handler(ngx_http_request_t *r)
{
    ngx_int_t                       rc;
    ngx_thread_task_t              *task;
    ngx_http_video_ocr_ctx_t       *ctx;
    ngx_http_video_ocr_task_t      *t;
    ngx_http_video_ocr_loc_conf_t  *vlcf;

    rc = ngx_http_video_ocr_read_start(r, NGX_HTTP_GET|NGX_HTTP_HEAD,
                                       "read the metrics with GET", &ctx);
    if (rc != NGX_DECLINED) {
        return rc;
    }

    task = ngx_http_video_ocr_task_alloc(r, ngx_http_video_ocr_metrics_thread);
    if (task == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    t = task->ctx;
    vlcf = ngx_http_get_module_loc_conf(r, ngx_http_video_ocr_module);
    t->tenants = vlcf->metrics_tenants ? 1 : 0;
    t->now_ms = ngx_http_video_ocr_now_ms();

    ctx->task = t;

    rc = ngx_http_video_ocr_task_post(r, task,
                                      ngx_http_video_ocr_metrics_done);
    if (rc != NGX_OK) {
        return ngx_http_video_ocr_refuse(r);
    }

    r->main->count++;

    return NGX_DONE;
}


static void
ngx_http_video_ocr_metrics_done(ngx_http_request_t *r)
{
    u_char                      *p;
    size_t                       len;
    ngx_int_t                    rc;
    ngx_uint_t                   i;
    vo_buf_t                     b;
    ngx_http_video_ocr_ctx_t    *ctx;
    ngx_http_video_ocr_task_t   *t;
    ngx_http_video_ocr_shctx_t  *sh;

    static ngx_str_t  type =
        ngx_string("text/plain; version=0.0.4; charset=utf-8");

    if (r->aio) {
        return;
    }

    r->write_event_handler = ngx_http_request_empty_handler;

    ctx = ngx_http_get_module_ctx(r, ngx_http_video_ocr_module);
    t = ctx->task;
    sh = ngx_http_video_ocr_sh;

    if (t->ledger_rc != VO_LEDGER_OK) {
        ngx_http_finalize_request(r,
            ngx_http_video_ocr_ledger_reply(r, t->ledger_rc,
                                            "the ledger could not be read",
                                            t->err));
        return;
    }

    vo_buf_init(&b);

    /* the code this worker process runs (a reload keeps a loaded .so) */

    vo_buf_adds(&b, "# HELP video_ocr_build_info The module that answers: "
                "its version and the nginx it runs in.\n"
                "# TYPE video_ocr_build_info gauge\n"
                "video_ocr_build_info{version=\"" VO_VERSION "\",nginx=\""
                NGINX_VERSION "\"} 1\n");

    vo_buf_adds(&b, "# HELP video_ocr_intake_requests_total Upload requests "
                "to this nginx, by outcome: created, replayed, or the "
                "problem type of the refusal.\n"
                "# TYPE video_ocr_intake_requests_total counter\n");

    for (i = 0; i < NGX_HTTP_VIDEO_OCR_OUTCOMES; i++) {
        if (!ngx_http_video_ocr_outcomes[i].counted) {
            continue;
        }

        vo_buf_adds(&b, "video_ocr_intake_requests_total{outcome=\"");
        vo_buf_add(&b, (char *) ngx_http_video_ocr_outcomes[i].type.data,
                   ngx_http_video_ocr_outcomes[i].type.len);
        vo_buf_printf(&b, "\"} %lu\n", (unsigned long) sh->requests[i]);
    }

    vo_buf_printf(&b, "# HELP video_ocr_intake_received_bytes_total Body "
                  "bytes received by upload requests.\n"
                  "# TYPE video_ocr_intake_received_bytes_total counter\n"
                  "video_ocr_intake_received_bytes_total %lu\n"
                  "# HELP video_ocr_admission_batches_total Ledger "
                  "transactions of the group commit.\n"
                  "# TYPE video_ocr_admission_batches_total counter\n"
                  "video_ocr_admission_batches_total %lu\n"
                  "# HELP video_ocr_admission_batched_total Admissions "
                  "committed in those transactions.\n"
                  "# TYPE video_ocr_admission_batched_total counter\n"
                  "video_ocr_admission_batched_total %lu\n"
                  "# HELP video_ocr_status_requests_total Job status "
                  "requests to this nginx.\n"
                  "# TYPE video_ocr_status_requests_total counter\n"
                  "video_ocr_status_requests_total %lu\n",
                  (unsigned long) sh->received_bytes,
                  (unsigned long) sh->batches, (unsigned long) sh->batched,
                  (unsigned long) sh->status_requests);

    ngx_http_video_ocr_search_metrics(&b);

    vo_buf_add(&b, t->body, t->body_len);

    if (!vo_buf_ok(&b)) {
        vo_buf_free(&b);
        ngx_http_finalize_request(r, NGX_HTTP_INTERNAL_SERVER_ERROR);
        return;
    }

    len = b.len;

    p = ngx_pnalloc(r->pool, len);
    if (p == NULL) {
        vo_buf_free(&b);
        ngx_http_finalize_request(r, NGX_HTTP_INTERNAL_SERVER_ERROR);
        return;
    }

    ngx_memcpy(p, b.data, len);
    vo_buf_free(&b);

    rc = ngx_http_video_ocr_send_body(r, NGX_HTTP_OK, &type, p, len);

    ngx_http_finalize_request(r, rc);
}


/* In a thread-pool thread from here on: plain C only. */


static void
ngx_http_video_ocr_metrics_thread(ngx_http_video_ocr_task_t *t)
{
    vo_buf_t      b;
    vo_ledger_t  *l;

    l = ngx_http_video_ocr_thread_ledger(t);
    if (l == NULL) {
        return;
    }

    vo_buf_init(&b);

    t->ledger_rc = vo_ledger_metrics(l, t->now_ms, &b, t->err,
                                     sizeof(t->err));

    if (t->ledger_rc == VO_LEDGER_OK && t->tenants) {
        /* video_ocr_metrics_tenants on */
        t->ledger_rc = vo_ledger_metrics_tenants(l, t->now_ms, &b, t->err,
                                                 sizeof(t->err));
    }

    ngx_http_video_ocr_take_body(t, &b, "metrics", "");
}
