/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The search endpoint (video_ocr_search, issue 41): GET <location>?q=...
 * answers the segments of the tenant's published results that q
 * matches, best first, with a cursor for the next page
 * (docs/http-api.md, "Search").  The request is parsed and folded at
 * the edge (lib/vo_query.c: a precise 400 or 414, no ledger work), the
 * query runs in the thread pool (vo_ledger_search), as the job status
 * does.  Its metrics are this nginx's, in a shared zone of their own:
 * searches by outcome, their hits, a latency histogram.
 */


#include "ngx_http_video_ocr.h"


/* what the thread reads and writes besides the task's own fields */
typedef struct {
    vo_query_t                  query;
    int                         hits;
} ngx_http_video_ocr_search_t;


/* the latency histogram's upper bounds, in milliseconds */
#define NGX_HTTP_VIDEO_OCR_SEARCH_BUCKETS  10

static const ngx_msec_t  ngx_http_video_ocr_search_le[
    NGX_HTTP_VIDEO_OCR_SEARCH_BUCKETS] =
{
    5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000
};


/* the outcomes a search may have besides ok: the metric's labels */
static const ngx_uint_t  ngx_http_video_ocr_search_outcomes[] = {
    NGX_HTTP_VIDEO_OCR_BAD_QUERY, NGX_HTTP_VIDEO_OCR_QUERY_TOO_LONG,
    NGX_HTTP_VIDEO_OCR_NO_TENANT, NGX_HTTP_VIDEO_OCR_METHOD_NOT_ALLOWED,
    NGX_HTTP_VIDEO_OCR_BUSY, NGX_HTTP_VIDEO_OCR_DISK_FULL,
    NGX_HTTP_VIDEO_OCR_INTERNAL, NGX_HTTP_VIDEO_OCR_ABORTED
};


typedef struct {
    ngx_atomic_t                requests[NGX_HTTP_VIDEO_OCR_OUTCOMES];
    ngx_atomic_t                ok;
    ngx_atomic_t                answered;        /* searches that ran */
    ngx_atomic_t                empty;           /* ... and found nothing */
    ngx_atomic_t                hits;
    ngx_atomic_t                le[NGX_HTTP_VIDEO_OCR_SEARCH_BUCKETS];
    ngx_atomic_t                ms;              /* the latencies' sum */
} ngx_http_video_ocr_search_shctx_t;


static ngx_int_t ngx_http_video_ocr_search_shm_init(ngx_shm_zone_t *zone,
    void *data);
static ngx_int_t ngx_http_video_ocr_search_log(ngx_http_request_t *r);
static void ngx_http_video_ocr_search_thread(ngx_http_video_ocr_task_t *t);
static void ngx_http_video_ocr_search_done(ngx_http_request_t *r);


static ngx_http_video_ocr_search_shctx_t  *ngx_http_video_ocr_search_sh;


ngx_int_t
ngx_http_video_ocr_search_handler(ngx_http_request_t *r)
{
    char                            err[NGX_HTTP_VIDEO_OCR_ERR_LEN];
    ngx_int_t                       rc;
    ngx_str_t                       tenant;
    vo_query_rc_t                   qrc;
    ngx_thread_task_t              *task;
    ngx_http_video_ocr_ctx_t       *ctx;
    ngx_http_video_ocr_task_t      *t;
    ngx_http_video_ocr_search_t    *s;
    ngx_http_video_ocr_loc_conf_t  *vlcf;

    rc = ngx_http_video_ocr_read_start(r, NGX_HTTP_GET|NGX_HTTP_HEAD,
                                       "search with GET <location>?q=...",
                                       &ctx);
    if (rc != NGX_DECLINED) {
        return rc;
    }

    vlcf = ngx_http_get_module_loc_conf(r, ngx_http_video_ocr_module);

    rc = ngx_http_video_ocr_tenant_or_refuse(r, vlcf, &tenant);
    if (rc != NGX_DECLINED) {
        return rc;
    }

    s = ngx_palloc(r->pool, sizeof(ngx_http_video_ocr_search_t));
    if (s == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    s->hits = 0;

    /* at the edge: a query the ledger would not take costs no thread */

    qrc = vo_query_parse((char *) r->args.data, r->args.len, &s->query, err,
                         sizeof(err));

    if (qrc != VO_QUERY_OK) {
        ngx_log_error(NGX_LOG_INFO, r->connection->log, 0,
                      "video_ocr: search refused: %s", err);

        return ngx_http_video_ocr_send_problem(r,
                   qrc == VO_QUERY_TOO_LONG
                   ? NGX_HTTP_VIDEO_OCR_QUERY_TOO_LONG
                   : NGX_HTTP_VIDEO_OCR_BAD_QUERY, err, NULL);
    }

    task = ngx_http_video_ocr_task_alloc(r, ngx_http_video_ocr_search_thread);
    if (task == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    t = task->ctx;
    t->tenant = (char *) tenant.data;
    t->tenant_len = tenant.len;
    t->search = s;

    ctx->task = t;

    rc = ngx_http_video_ocr_task_post(r, task,
                                      ngx_http_video_ocr_search_done);
    if (rc != NGX_OK) {
        return ngx_http_video_ocr_refuse(r);
    }

    r->main->count++;

    return NGX_DONE;
}


/* In a thread-pool thread: plain C only. */

static void
ngx_http_video_ocr_search_thread(ngx_http_video_ocr_task_t *t)
{
    vo_buf_t                      b;
    vo_ledger_t                  *l;
    ngx_http_video_ocr_search_t  *s = t->search;

    l = ngx_http_video_ocr_thread_ledger(t);
    if (l == NULL) {
        return;
    }

    vo_buf_init(&b);

    t->ledger_rc = vo_ledger_search(l, t->tenant, t->tenant_len, &s->query,
                                    &b, &s->hits, t->err, sizeof(t->err));

    if (t->ledger_rc != VO_LEDGER_OK) {
        vo_buf_free(&b);
        return;
    }

    t->body = vo_buf_detach(&b, &t->body_len);

    if (t->body == NULL) {
        t->ledger_rc = VO_LEDGER_ERROR;
        ngx_cpystrn((u_char *) t->err, (u_char *) "search: out of memory",
                    sizeof(t->err));
    }
}


static void
ngx_http_video_ocr_search_done(ngx_http_request_t *r)
{
    u_char                     *p;
    ngx_int_t                   rc;
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

    if (t->ledger_rc != VO_LEDGER_OK) {
        ngx_http_finalize_request(r,
            ngx_http_video_ocr_ledger_reply(r, t->ledger_rc,
                                            "the search could not be run",
                                            t->err));
        return;
    }

    p = ngx_pnalloc(r->pool, t->body_len);
    if (p == NULL) {
        ngx_http_finalize_request(r, NGX_HTTP_INTERNAL_SERVER_ERROR);
        return;
    }

    ngx_memcpy(p, t->body, t->body_len);

    h = ngx_list_push(&r->headers_out.headers);
    if (h == NULL) {
        ngx_http_finalize_request(r, NGX_HTTP_INTERNAL_SERVER_ERROR);
        return;
    }

    h->hash = 1;
    ngx_str_set(&h->key, "Cache-Control");
    ngx_str_set(&h->value, "no-store");

    rc = ngx_http_video_ocr_send_body(r, NGX_HTTP_OK, &json, p, t->body_len);

    ngx_http_finalize_request(r, rc);
}


/*
 * The metrics: a shared zone and a log phase handler (postconfiguration,
 * with a ledger configured), and their part of the metrics page.
 */

ngx_int_t
ngx_http_video_ocr_search_init(ngx_conf_t *cf)
{
    ngx_str_t                   name = ngx_string("video_ocr_search");
    ngx_shm_zone_t             *zone;
    ngx_http_handler_pt        *h;
    ngx_http_core_main_conf_t  *cmcf;

    zone = ngx_shared_memory_add(cf, &name, 8 * ngx_pagesize,
                                 &ngx_http_video_ocr_module);
    if (zone == NULL) {
        return NGX_ERROR;
    }

    zone->init = ngx_http_video_ocr_search_shm_init;

    cmcf = ngx_http_conf_get_module_main_conf(cf, ngx_http_core_module);

    h = ngx_array_push(&cmcf->phases[NGX_HTTP_LOG_PHASE].handlers);
    if (h == NULL) {
        return NGX_ERROR;
    }

    *h = ngx_http_video_ocr_search_log;

    return NGX_OK;
}


static ngx_int_t
ngx_http_video_ocr_search_shm_init(ngx_shm_zone_t *zone, void *data)
{
    ngx_slab_pool_t  *shpool;

    if (data) {
        /* a reload: the counters go on */
        zone->data = data;
        ngx_http_video_ocr_search_sh = data;
        return NGX_OK;
    }

    shpool = (ngx_slab_pool_t *) zone->shm.addr;

    ngx_http_video_ocr_search_sh = ngx_slab_calloc(shpool,
                                   sizeof(ngx_http_video_ocr_search_shctx_t));
    if (ngx_http_video_ocr_search_sh == NULL) {
        return NGX_ERROR;
    }

    zone->data = ngx_http_video_ocr_search_sh;

    return NGX_OK;
}


/* Counts each search once, whatever became of it, with its latency. */

static ngx_int_t
ngx_http_video_ocr_search_log(ngx_http_request_t *r)
{
    ngx_uint_t                          i;
    ngx_msec_int_t                      ms;
    ngx_time_t                         *tp;
    ngx_http_video_ocr_ctx_t           *ctx;
    ngx_http_video_ocr_search_t        *s;
    ngx_http_video_ocr_loc_conf_t      *vlcf;
    ngx_http_video_ocr_search_shctx_t  *sh;

    sh = ngx_http_video_ocr_search_sh;

    if (r != r->main || sh == NULL) {
        return NGX_OK;
    }

    vlcf = ngx_http_get_module_loc_conf(r, ngx_http_video_ocr_module);

    if (vlcf->endpoint != NGX_HTTP_VIDEO_OCR_SEARCH) {
        return NGX_OK;
    }

    ctx = ngx_http_get_module_ctx(r, ngx_http_video_ocr_module);

    /* a refusal, else the results sent, else the client left first */

    if (ctx != NULL && ctx->outcome) {
        (void) ngx_atomic_fetch_add(&sh->requests[ctx->outcome], 1);

    } else if (ctx != NULL && ctx->replied) {
        (void) ngx_atomic_fetch_add(&sh->ok, 1);

    } else {
        (void) ngx_atomic_fetch_add(
                   &sh->requests[NGX_HTTP_VIDEO_OCR_ABORTED], 1);
    }

    if (ctx == NULL || ctx->task == NULL
        || ctx->task->run != ngx_http_video_ocr_search_thread
        || ctx->task->ledger_rc != VO_LEDGER_OK)
    {
        return NGX_OK;
    }

    /* a search that ran: its time since the request came, its hits */

    s = ctx->task->search;

    tp = ngx_timeofday();
    ms = (ngx_msec_int_t) ((tp->sec - r->start_sec) * 1000
                           + (tp->msec - r->start_msec));
    ms = ngx_max(ms, 0);

    (void) ngx_atomic_fetch_add(&sh->answered, 1);
    (void) ngx_atomic_fetch_add(&sh->hits, (ngx_atomic_int_t) s->hits);
    (void) ngx_atomic_fetch_add(&sh->ms, (ngx_atomic_int_t) ms);

    if (s->hits == 0) {
        (void) ngx_atomic_fetch_add(&sh->empty, 1);
    }

    for (i = 0; i < NGX_HTTP_VIDEO_OCR_SEARCH_BUCKETS; i++) {
        if ((ngx_msec_t) ms <= ngx_http_video_ocr_search_le[i]) {
            (void) ngx_atomic_fetch_add(&sh->le[i], 1);
        }
    }

    return NGX_OK;
}


/* The search metrics of this nginx, in the Prometheus text format. */

void
ngx_http_video_ocr_search_metrics(vo_buf_t *b)
{
    ngx_uint_t                          i, o;
    ngx_http_video_ocr_search_shctx_t  *sh;

    sh = ngx_http_video_ocr_search_sh;

    if (sh == NULL) {
        return;
    }

    vo_buf_adds(b, "# HELP video_ocr_search_requests_total Search requests "
                "to this nginx, by outcome: ok, or the problem type of the "
                "refusal.\n"
                "# TYPE video_ocr_search_requests_total counter\n");

    vo_buf_printf(b, "video_ocr_search_requests_total{outcome=\"ok\"} %lu\n",
                  (unsigned long) sh->ok);

    for (i = 0; i < sizeof(ngx_http_video_ocr_search_outcomes)
                    / sizeof(ngx_http_video_ocr_search_outcomes[0]); i++)
    {
        o = ngx_http_video_ocr_search_outcomes[i];

        vo_buf_adds(b, "video_ocr_search_requests_total{outcome=\"");
        vo_buf_add(b, (char *) ngx_http_video_ocr_outcomes[o].type.data,
                   ngx_http_video_ocr_outcomes[o].type.len);
        vo_buf_printf(b, "\"} %lu\n", (unsigned long) sh->requests[o]);
    }

    vo_buf_printf(b, "# HELP video_ocr_search_hits_total Hits the searches "
                  "of this nginx answered.\n"
                  "# TYPE video_ocr_search_hits_total counter\n"
                  "video_ocr_search_hits_total %lu\n"
                  "# HELP video_ocr_search_empty_total Searches answered "
                  "without a hit.\n"
                  "# TYPE video_ocr_search_empty_total counter\n"
                  "video_ocr_search_empty_total %lu\n"
                  "# HELP video_ocr_search_seconds Time to answer a search, "
                  "from its request to its reply.\n"
                  "# TYPE video_ocr_search_seconds histogram\n",
                  (unsigned long) sh->hits, (unsigned long) sh->empty);

    for (i = 0; i < NGX_HTTP_VIDEO_OCR_SEARCH_BUCKETS; i++) {
        vo_buf_printf(b, "video_ocr_search_seconds_bucket{le=\"%g\"} %lu\n",
                      (double) ngx_http_video_ocr_search_le[i] / 1000,
                      (unsigned long) sh->le[i]);
    }

    vo_buf_printf(b, "video_ocr_search_seconds_bucket{le=\"+Inf\"} %lu\n"
                  "video_ocr_search_seconds_sum %.3f\n"
                  "video_ocr_search_seconds_count %lu\n",
                  (unsigned long) sh->answered, (double) sh->ms / 1000,
                  (unsigned long) sh->answered);
}
