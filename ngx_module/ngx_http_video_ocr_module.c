/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * ngx_http_video_ocr_module: an idempotent video-OCR intake for nginx.
 * This file holds the directives, the configuration and its checks, and
 * the variables for access logs; docs/directives.md describes each
 * directive for operators.
 */


#include <pwd.h>
#include <grp.h>

#include "ngx_http_video_ocr.h"
#include "vo_version.h"


static ngx_int_t ngx_http_video_ocr_add_variables(ngx_conf_t *cf);
static ngx_int_t ngx_http_video_ocr_init(ngx_conf_t *cf);
static void *ngx_http_video_ocr_create_main_conf(ngx_conf_t *cf);
static char *ngx_http_video_ocr_init_main_conf(ngx_conf_t *cf, void *conf);
static void *ngx_http_video_ocr_create_loc_conf(ngx_conf_t *cf);
static char *ngx_http_video_ocr_merge_loc_conf(ngx_conf_t *cf, void *parent,
    void *child);
static ngx_int_t ngx_http_video_ocr_init_module(ngx_cycle_t *cycle);
static void ngx_http_video_ocr_exit_process(ngx_cycle_t *cycle);

static char *ngx_http_video_ocr_ledger(ngx_conf_t *cf, ngx_command_t *cmd,
    void *conf);
static char *ngx_http_video_ocr_store(ngx_conf_t *cf, ngx_command_t *cmd,
    void *conf);
static char *ngx_http_video_ocr_durability(ngx_conf_t *cf,
    ngx_command_t *cmd, void *conf);
static char *ngx_http_video_ocr_endpoint(ngx_conf_t *cf, ngx_command_t *cmd,
    void *conf);
static char *ngx_http_video_ocr_thread_pool(ngx_conf_t *cf,
    ngx_command_t *cmd, void *conf);
static char *ngx_http_video_ocr_containers(ngx_conf_t *cf,
    ngx_command_t *cmd, void *conf);
static char *ngx_http_video_ocr_jobs_url(ngx_conf_t *cf, ngx_command_t *cmd,
    void *conf);
static char *ngx_http_video_ocr_webhook_value(ngx_conf_t *cf,
    ngx_command_t *cmd, void *conf);
static ngx_int_t ngx_http_video_ocr_webhook_check(ngx_uint_t secret,
    ngx_str_t *v, char *err, size_t err_size);

static ngx_int_t ngx_http_video_ocr_check_ledger(ngx_conf_t *cf,
    ngx_http_video_ocr_main_conf_t *mcf);
static ngx_int_t ngx_http_video_ocr_open_ledger_once(ngx_conf_t *cf,
    ngx_http_video_ocr_main_conf_t *mcf);
static ngx_int_t ngx_http_video_ocr_worker_user(ngx_conf_t *cf,
    ngx_uid_t *uid, ngx_gid_t *gid);

static ngx_int_t ngx_http_video_ocr_variable(ngx_http_request_t *r,
    ngx_http_variable_value_t *v, uintptr_t data);


#define NGX_HTTP_VIDEO_OCR_ALL_CONTAINERS                                     \
    (((ngx_uint_t) 1 << VO_CONTAINER_LAST) - 2)


const ngx_http_video_ocr_endpoint_t
    ngx_http_video_ocr_endpoints[NGX_HTTP_VIDEO_OCR_ENDPOINTS] =
{
    [NGX_HTTP_VIDEO_OCR_NO_ENDPOINT] = { "", NULL, ngx_null_string },
    [NGX_HTTP_VIDEO_OCR_INTAKE] = { "intake",
        ngx_http_video_ocr_intake_handler, ngx_string("POST") },
    [NGX_HTTP_VIDEO_OCR_JOBS] = { "jobs",
        ngx_http_video_ocr_jobs_handler, ngx_string("GET, HEAD, DELETE") },
    [NGX_HTTP_VIDEO_OCR_METRICS] = { "metrics",
        ngx_http_video_ocr_metrics_handler, ngx_string("GET, HEAD") },
    [NGX_HTTP_VIDEO_OCR_SEARCH] = { "search",
        ngx_http_video_ocr_search_handler, ngx_string("GET, HEAD") }
};


static ngx_command_t  ngx_http_video_ocr_commands[] = {

    { ngx_string("video_ocr_ledger"),
      NGX_HTTP_MAIN_CONF|NGX_CONF_TAKE1,
      ngx_http_video_ocr_ledger,
      NGX_HTTP_MAIN_CONF_OFFSET,
      0,
      NULL },

    { ngx_string("video_ocr_store"),
      NGX_HTTP_MAIN_CONF|NGX_CONF_TAKE1,
      ngx_http_video_ocr_store,
      NGX_HTTP_MAIN_CONF_OFFSET,
      0,
      NULL },

    { ngx_string("video_ocr_busy_timeout"),
      NGX_HTTP_MAIN_CONF|NGX_CONF_TAKE1,
      ngx_conf_set_msec_slot,
      NGX_HTTP_MAIN_CONF_OFFSET,
      offsetof(ngx_http_video_ocr_main_conf_t, busy_timeout),
      NULL },

    { ngx_string("video_ocr_durability"),
      NGX_HTTP_MAIN_CONF|NGX_CONF_TAKE1,
      ngx_http_video_ocr_durability,
      NGX_HTTP_MAIN_CONF_OFFSET,
      0,
      NULL },

    { ngx_string("video_ocr_receipt_ttl"),
      NGX_HTTP_MAIN_CONF|NGX_CONF_TAKE1,
      ngx_conf_set_sec_slot,
      NGX_HTTP_MAIN_CONF_OFFSET,
      offsetof(ngx_http_video_ocr_main_conf_t, receipt_ttl),
      NULL },

    { ngx_string("video_ocr_upload_ttl"),
      NGX_HTTP_MAIN_CONF|NGX_CONF_TAKE1,
      ngx_conf_set_sec_slot,
      NGX_HTTP_MAIN_CONF_OFFSET,
      offsetof(ngx_http_video_ocr_main_conf_t, upload_ttl),
      NULL },

    { ngx_string("video_ocr_max_attempts"),
      NGX_HTTP_MAIN_CONF|NGX_CONF_TAKE1,
      ngx_conf_set_num_slot,
      NGX_HTTP_MAIN_CONF_OFFSET,
      offsetof(ngx_http_video_ocr_main_conf_t, max_attempts),
      NULL },

    { ngx_string("video_ocr_key_hash_secret"),
      NGX_HTTP_MAIN_CONF|NGX_CONF_TAKE1,
      ngx_conf_set_str_slot,
      NGX_HTTP_MAIN_CONF_OFFSET,
      offsetof(ngx_http_video_ocr_main_conf_t, key_hash_secret),
      NULL },

    { ngx_string("video_ocr_intake"),
      NGX_HTTP_LOC_CONF|NGX_CONF_NOARGS,
      ngx_http_video_ocr_endpoint,
      NGX_HTTP_LOC_CONF_OFFSET,
      NGX_HTTP_VIDEO_OCR_INTAKE,
      NULL },

    { ngx_string("video_ocr_jobs"),
      NGX_HTTP_LOC_CONF|NGX_CONF_NOARGS,
      ngx_http_video_ocr_endpoint,
      NGX_HTTP_LOC_CONF_OFFSET,
      NGX_HTTP_VIDEO_OCR_JOBS,
      NULL },

    { ngx_string("video_ocr_metrics"),
      NGX_HTTP_LOC_CONF|NGX_CONF_NOARGS,
      ngx_http_video_ocr_endpoint,
      NGX_HTTP_LOC_CONF_OFFSET,
      NGX_HTTP_VIDEO_OCR_METRICS,
      NULL },

    { ngx_string("video_ocr_search"),
      NGX_HTTP_LOC_CONF|NGX_CONF_NOARGS,
      ngx_http_video_ocr_endpoint,
      NGX_HTTP_LOC_CONF_OFFSET,
      NGX_HTTP_VIDEO_OCR_SEARCH,
      NULL },

    { ngx_string("video_ocr_thread_pool"),
      NGX_HTTP_MAIN_CONF|NGX_HTTP_SRV_CONF|NGX_HTTP_LOC_CONF|NGX_CONF_TAKE1,
      ngx_http_video_ocr_thread_pool,
      NGX_HTTP_LOC_CONF_OFFSET,
      0,
      NULL },

    { ngx_string("video_ocr_tenant"),
      NGX_HTTP_MAIN_CONF|NGX_HTTP_SRV_CONF|NGX_HTTP_LOC_CONF|NGX_CONF_TAKE1,
      ngx_http_set_complex_value_slot,
      NGX_HTTP_LOC_CONF_OFFSET,
      offsetof(ngx_http_video_ocr_loc_conf_t, tenant),
      NULL },

    { ngx_string("video_ocr_key_required"),
      NGX_HTTP_MAIN_CONF|NGX_HTTP_SRV_CONF|NGX_HTTP_LOC_CONF|NGX_CONF_FLAG,
      ngx_conf_set_flag_slot,
      NGX_HTTP_LOC_CONF_OFFSET,
      offsetof(ngx_http_video_ocr_loc_conf_t, key_required),
      NULL },

    { ngx_string("video_ocr_containers"),
      NGX_HTTP_MAIN_CONF|NGX_HTTP_SRV_CONF|NGX_HTTP_LOC_CONF|NGX_CONF_1MORE,
      ngx_http_video_ocr_containers,
      NGX_HTTP_LOC_CONF_OFFSET,
      0,
      NULL },

    { ngx_string("video_ocr_uploads_max"),
      NGX_HTTP_MAIN_CONF|NGX_HTTP_SRV_CONF|NGX_HTTP_LOC_CONF|NGX_CONF_TAKE1,
      ngx_conf_set_num_slot,
      NGX_HTTP_LOC_CONF_OFFSET,
      offsetof(ngx_http_video_ocr_loc_conf_t, uploads_max),
      NULL },

    /* new jobs a tenant may have waiting (0: no cap) */
    { ngx_string("video_ocr_tenant_max_queued"),
      NGX_HTTP_MAIN_CONF|NGX_HTTP_SRV_CONF|NGX_HTTP_LOC_CONF|NGX_CONF_TAKE1,
      ngx_conf_set_num_slot,
      NGX_HTTP_LOC_CONF_OFFSET,
      offsetof(ngx_http_video_ocr_loc_conf_t, tenant_max_queued),
      NULL },

    { ngx_string("video_ocr_jobs_url"),
      NGX_HTTP_MAIN_CONF|NGX_HTTP_SRV_CONF|NGX_HTTP_LOC_CONF|NGX_CONF_TAKE1,
      ngx_http_video_ocr_jobs_url,
      NGX_HTTP_LOC_CONF_OFFSET,
      0,
      NULL },

    { ngx_string("video_ocr_webhook"),
      NGX_HTTP_MAIN_CONF|NGX_HTTP_SRV_CONF|NGX_HTTP_LOC_CONF|NGX_CONF_TAKE1,
      ngx_http_video_ocr_webhook_value,
      NGX_HTTP_LOC_CONF_OFFSET,
      offsetof(ngx_http_video_ocr_loc_conf_t, webhook),
      NULL },

    { ngx_string("video_ocr_webhook_secret"),
      NGX_HTTP_MAIN_CONF|NGX_HTTP_SRV_CONF|NGX_HTTP_LOC_CONF|NGX_CONF_TAKE1,
      ngx_http_video_ocr_webhook_value,
      NGX_HTTP_LOC_CONF_OFFSET,
      offsetof(ngx_http_video_ocr_loc_conf_t, webhook_secret),
      NULL },

    /* labelled by tenant only when the operator says so, to
     * bound the page's cardinality */
    { ngx_string("video_ocr_metrics_tenants"),
      NGX_HTTP_MAIN_CONF|NGX_HTTP_SRV_CONF|NGX_HTTP_LOC_CONF|NGX_CONF_FLAG,
      ngx_conf_set_flag_slot,
      NGX_HTTP_LOC_CONF_OFFSET,
      offsetof(ngx_http_video_ocr_loc_conf_t, metrics_tenants),
      NULL },

    { ngx_string("video_ocr_webhook_accepted"),
      NGX_HTTP_MAIN_CONF|NGX_HTTP_SRV_CONF|NGX_HTTP_LOC_CONF|NGX_CONF_FLAG,
      ngx_conf_set_flag_slot,
      NGX_HTTP_LOC_CONF_OFFSET,
      offsetof(ngx_http_video_ocr_loc_conf_t, webhook_accepted),
      NULL },

      ngx_null_command
};


static ngx_http_module_t  ngx_http_video_ocr_module_ctx = {
    ngx_http_video_ocr_add_variables,      /* preconfiguration */
    ngx_http_video_ocr_init,               /* postconfiguration */

    ngx_http_video_ocr_create_main_conf,   /* create main configuration */
    ngx_http_video_ocr_init_main_conf,     /* init main configuration */

    NULL,                                  /* create server configuration */
    NULL,                                  /* merge server configuration */

    ngx_http_video_ocr_create_loc_conf,    /* create location configuration */
    ngx_http_video_ocr_merge_loc_conf      /* merge location configuration */
};


ngx_module_t  ngx_http_video_ocr_module = {
    NGX_MODULE_V1,
    &ngx_http_video_ocr_module_ctx,        /* module context */
    ngx_http_video_ocr_commands,           /* module directives */
    NGX_HTTP_MODULE,                       /* module type */
    NULL,                                  /* init master */
    ngx_http_video_ocr_init_module,        /* init module */
    NULL,                                  /* init process */
    NULL,                                  /* init thread */
    NULL,                                  /* exit thread */
    ngx_http_video_ocr_exit_process,       /* exit process */
    NULL,                                  /* exit master */
    NGX_MODULE_V1_PADDING
};


enum {
    NGX_HTTP_VIDEO_OCR_VAR_JOB_ID = 0,
    NGX_HTTP_VIDEO_OCR_VAR_ADMISSION,
    NGX_HTTP_VIDEO_OCR_VAR_KEY_HASH
};


static ngx_http_variable_t  ngx_http_video_ocr_vars[] = {

    { ngx_string("video_ocr_job_id"), NULL, ngx_http_video_ocr_variable,
      NGX_HTTP_VIDEO_OCR_VAR_JOB_ID, NGX_HTTP_VAR_NOCACHEABLE, 0 },

    { ngx_string("video_ocr_admission"), NULL, ngx_http_video_ocr_variable,
      NGX_HTTP_VIDEO_OCR_VAR_ADMISSION, NGX_HTTP_VAR_NOCACHEABLE, 0 },

    { ngx_string("video_ocr_key_hash"), NULL, ngx_http_video_ocr_variable,
      NGX_HTTP_VIDEO_OCR_VAR_KEY_HASH, NGX_HTTP_VAR_NOCACHEABLE, 0 },

      ngx_http_null_variable
};


static ngx_int_t
ngx_http_video_ocr_add_variables(ngx_conf_t *cf)
{
    ngx_http_variable_t  *var, *v;

    for (v = ngx_http_video_ocr_vars; v->name.len; v++) {
        var = ngx_http_add_variable(cf, &v->name, v->flags);
        if (var == NULL) {
            return NGX_ERROR;
        }

        var->get_handler = v->get_handler;
        var->data = v->data;
    }

    return NGX_OK;
}


static ngx_int_t
ngx_http_video_ocr_variable(ngx_http_request_t *r,
    ngx_http_variable_value_t *v, uintptr_t data)
{
    ngx_http_video_ocr_ctx_t             *ctx;
    ngx_http_video_ocr_loc_conf_t        *vlcf;
    const ngx_http_video_ocr_outcome_t   *o;

    ctx = ngx_http_get_module_ctx(r->main, ngx_http_video_ocr_module);

    v->not_found = 1;

    if (ctx == NULL) {
        return NGX_OK;
    }

    switch (data) {

    case NGX_HTTP_VIDEO_OCR_VAR_JOB_ID:
        if (ctx->job_id[0] == '\0') {
            return NGX_OK;
        }

        v->data = (u_char *) ctx->job_id;
        v->len = VO_JOB_ID_LEN;
        break;

    case NGX_HTTP_VIDEO_OCR_VAR_ADMISSION:
        /* what the admission decided, else whether the upload was refused */
        vlcf = ngx_http_get_module_loc_conf(r->main,
                                            ngx_http_video_ocr_module);
        o = &ngx_http_video_ocr_outcomes[ctx->admitted ? ctx->admitted
                                                       : ctx->outcome];

        if (vlcf->endpoint != NGX_HTTP_VIDEO_OCR_INTAKE
            || o->admission.len == 0)
        {
            return NGX_OK;
        }

        v->data = o->admission.data;
        v->len = o->admission.len;
        break;

    default: /* NGX_HTTP_VIDEO_OCR_VAR_KEY_HASH */
        if (!ctx->has_key) {
            return NGX_OK;
        }

        v->data = ctx->key_hash;
        v->len = VO_KEY_HASH_LEN;
        break;
    }

    v->valid = 1;
    v->no_cacheable = 1;
    v->not_found = 0;

    return NGX_OK;
}


static ngx_int_t
ngx_http_video_ocr_init(ngx_conf_t *cf)
{
    ngx_http_video_ocr_main_conf_t  *mcf;

    if (ngx_http_video_ocr_body_filter_init(cf) != NGX_OK
        || ngx_http_video_ocr_problem_filter_init(cf) != NGX_OK)
    {
        return NGX_ERROR;
    }

    mcf = ngx_http_conf_get_module_main_conf(cf, ngx_http_video_ocr_module);

    if (mcf->ledger.len == 0) {
        return NGX_OK;
    }

    if (ngx_http_video_ocr_metrics_init(cf) != NGX_OK
        || ngx_http_video_ocr_search_init(cf) != NGX_OK)
    {
        return NGX_ERROR;
    }

    return ngx_http_video_ocr_check_ledger(cf, mcf);
}


static void *
ngx_http_video_ocr_create_main_conf(ngx_conf_t *cf)
{
    ngx_http_video_ocr_main_conf_t  *mcf;

    mcf = ngx_pcalloc(cf->pool, sizeof(ngx_http_video_ocr_main_conf_t));
    if (mcf == NULL) {
        return NULL;
    }

    /*
     * set by ngx_pcalloc():
     *
     *     mcf->ledger = { 0, NULL };
     *     mcf->store = NULL;
     *     mcf->key_hash_secret = { 0, NULL };
     */

    mcf->busy_timeout = NGX_CONF_UNSET_MSEC;
    mcf->durable = NGX_CONF_UNSET;
    mcf->receipt_ttl = NGX_CONF_UNSET;
    mcf->upload_ttl = NGX_CONF_UNSET;
    mcf->max_attempts = NGX_CONF_UNSET_UINT;

    mcf->temp_paths = ngx_array_create(cf->pool, 2, sizeof(ngx_path_t *));
    if (mcf->temp_paths == NULL) {
        return NULL;
    }

    return mcf;
}


static char *
ngx_http_video_ocr_init_main_conf(ngx_conf_t *cf, void *conf)
{
    ngx_http_video_ocr_main_conf_t  *mcf = conf;

    ngx_conf_init_msec_value(mcf->busy_timeout, 5000);
    ngx_conf_init_value(mcf->durable, 1);
    ngx_conf_init_value(mcf->receipt_ttl, 86400);
    ngx_conf_init_value(mcf->upload_ttl, 86400);

    if (mcf->upload_ttl <= 0) {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                           "\"video_ocr_upload_ttl\" must be positive");
        return NGX_CONF_ERROR;
    }
    ngx_conf_init_uint_value(mcf->max_attempts, 3);

    if (mcf->max_attempts == 0 || mcf->max_attempts > 100) {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                           "\"video_ocr_max_attempts\" must be 1..100");
        return NGX_CONF_ERROR;
    }

    if (mcf->receipt_ttl <= 0) {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                           "\"video_ocr_receipt_ttl\" must be positive");
        return NGX_CONF_ERROR;
    }

    mcf->ledger_conf.busy_timeout_ms = (int) ngx_min(mcf->busy_timeout,
                                                     NGX_MAX_INT32_VALUE);
    mcf->ledger_conf.sync_full = mcf->durable ? 1 : 0;
    mcf->ledger_conf.migrate = 0;

    return NGX_CONF_OK;
}


static void *
ngx_http_video_ocr_create_loc_conf(ngx_conf_t *cf)
{
    ngx_http_video_ocr_loc_conf_t  *vlcf;

    vlcf = ngx_pcalloc(cf->pool, sizeof(ngx_http_video_ocr_loc_conf_t));
    if (vlcf == NULL) {
        return NULL;
    }

    /*
     * set by ngx_pcalloc():
     *
     *     vlcf->endpoint = NGX_HTTP_VIDEO_OCR_NO_ENDPOINT;
     *     vlcf->jobs_url = { 0, NULL };
     *     vlcf->file = NULL;
     *     vlcf->line = 0;
     */

    vlcf->thread_pool = NGX_CONF_UNSET_PTR;
    vlcf->tenant = NGX_CONF_UNSET_PTR;
    vlcf->key_required = NGX_CONF_UNSET;
    vlcf->containers = NGX_CONF_UNSET_UINT;
    vlcf->webhook = NGX_CONF_UNSET_PTR;
    vlcf->webhook_secret = NGX_CONF_UNSET_PTR;
    vlcf->webhook_accepted = NGX_CONF_UNSET;
    vlcf->metrics_tenants = NGX_CONF_UNSET;
    vlcf->uploads_max = NGX_CONF_UNSET;
    vlcf->tenant_max_queued = NGX_CONF_UNSET;

    return vlcf;
}


static char *
ngx_http_video_ocr_merge_loc_conf(ngx_conf_t *cf, void *parent, void *child)
{
    ngx_http_video_ocr_loc_conf_t *prev = parent;
    ngx_http_video_ocr_loc_conf_t *conf = child;

    ngx_path_t                      **tp;
    ngx_http_core_loc_conf_t         *clcf;
    ngx_http_video_ocr_main_conf_t   *mcf;

    /* the endpoint (video_ocr_intake, _jobs, _metrics) is not inherited */

    ngx_conf_merge_ptr_value(conf->thread_pool, prev->thread_pool, NULL);
    ngx_conf_merge_ptr_value(conf->tenant, prev->tenant, NULL);
    ngx_conf_merge_value(conf->key_required, prev->key_required, 1);
    ngx_conf_merge_uint_value(conf->containers, prev->containers,
                              NGX_HTTP_VIDEO_OCR_ALL_CONTAINERS);
    ngx_conf_merge_str_value(conf->jobs_url, prev->jobs_url, "/jobs/");
    ngx_conf_merge_ptr_value(conf->webhook, prev->webhook, NULL);
    ngx_conf_merge_ptr_value(conf->webhook_secret, prev->webhook_secret,
                             NULL);
    ngx_conf_merge_value(conf->webhook_accepted, prev->webhook_accepted, 0);
    ngx_conf_merge_value(conf->metrics_tenants, prev->metrics_tenants, 0);

    /* video_ocr_webhook ""; turns an inherited one off */

    if (conf->webhook != NULL && conf->webhook_secret == NULL
        && !(conf->webhook->lengths == NULL && conf->webhook->value.len == 0))
    {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                           "\"video_ocr_webhook\" needs "
                           "\"video_ocr_webhook_secret\" where it applies: "
                           "every notification is signed (a secret is "
                           "\"whsec_\" and 24 to 64 random bytes in base64; "
                           "\"video-ocr-worker webhooks secret\" makes one)");
        return NGX_CONF_ERROR;
    }
    ngx_conf_merge_value(conf->uploads_max, prev->uploads_max, 100);
    ngx_conf_merge_value(conf->tenant_max_queued, prev->tenant_max_queued,
                         0);

    if (conf->tenant_max_queued < 0) {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                           "\"video_ocr_tenant_max_queued\" must be 0 (no "
                           "cap) or more");
        return NGX_CONF_ERROR;
    }

    if (conf->endpoint == NGX_HTTP_VIDEO_OCR_NO_ENDPOINT) {
        return NGX_CONF_OK;
    }

    mcf = ngx_http_conf_get_module_main_conf(cf, ngx_http_video_ocr_module);

    if (mcf->ledger.len == 0) {
        ngx_log_error(NGX_LOG_EMERG, cf->log, 0,
                      "\"video_ocr_%s\" needs a ledger: add "
                      "\"video_ocr_ledger /var/lib/video-ocr/ledger.db;\" "
                      "to the http block, in %s:%ui",
                      ngx_http_video_ocr_endpoints[conf->endpoint].name,
                      conf->file, conf->line);
        return NGX_CONF_ERROR;
    }

    if (conf->thread_pool == NULL) {
        conf->thread_pool = ngx_thread_pool_add(cf, NULL);
        if (conf->thread_pool == NULL) {
            return NGX_CONF_ERROR;
        }
    }

    if (conf->endpoint != NGX_HTTP_VIDEO_OCR_INTAKE) {
        return NGX_CONF_OK;
    }

    if (mcf->store == NULL) {
        ngx_log_error(NGX_LOG_EMERG, cf->log, 0,
                      "\"video_ocr_intake\" needs a store for the uploads: "
                      "add \"video_ocr_store /var/lib/video-ocr/store;\" "
                      "to the http block, in %s:%ui",
                      conf->file, conf->line);
        return NGX_CONF_ERROR;
    }

    /* remembered for the same-filesystem check in init_module */

    clcf = ngx_http_conf_get_module_loc_conf(cf, ngx_http_core_module);

    tp = ngx_array_push(mcf->temp_paths);
    if (tp == NULL) {
        return NGX_CONF_ERROR;
    }

    *tp = clcf->client_body_temp_path;

    return NGX_CONF_OK;
}


static char *
ngx_http_video_ocr_ledger(ngx_conf_t *cf, ngx_command_t *cmd, void *conf)
{
    ngx_http_video_ocr_main_conf_t *mcf = conf;

    ngx_str_t  *value;

    if (mcf->ledger.data) {
        return "is duplicate";
    }

    value = cf->args->elts;

    if (vo_ledger_is_postgresql((char *) value[1].data)) {

        /*
         * a PostgreSQL URI, as it is; no admit lock: the database takes
         * concurrent admissions, from this host and from others
         */

        mcf->ledger = value[1];

        return NGX_CONF_OK;
    }

    if (value[1].len == 0) {
        return "needs a file path, e.g. /var/lib/video-ocr/ledger.db, "
               "or a postgresql:// URI";
    }

    if (value[1].data[value[1].len - 1] == '/') {
        return "needs a file path, not a directory, "
               "e.g. /var/lib/video-ocr/ledger.db";
    }

    mcf->ledger = value[1];

    /* relative to the prefix, NUL-terminated for SQLite */

    if (ngx_conf_full_name(cf->cycle, &mcf->ledger, 0) != NGX_OK) {
        return NGX_CONF_ERROR;
    }

    /* the lock the group commit leaders of all workers take turns on */

    mcf->admit_lock.len = mcf->ledger.len + sizeof("-admit.lock") - 1;
    mcf->admit_lock.data = ngx_pnalloc(cf->pool, mcf->admit_lock.len + 1);
    if (mcf->admit_lock.data == NULL) {
        return NGX_CONF_ERROR;
    }

    ngx_sprintf(mcf->admit_lock.data, "%V-admit.lock%Z", &mcf->ledger);

    return NGX_CONF_OK;
}


static char *
ngx_http_video_ocr_store(ngx_conf_t *cf, ngx_command_t *cmd, void *conf)
{
    ngx_http_video_ocr_main_conf_t *mcf = conf;

    u_char      *p;
    ngx_str_t   *value;
    ngx_path_t  *path;

    if (mcf->store) {
        return "is duplicate";
    }

    value = cf->args->elts;

    path = ngx_pcalloc(cf->pool, sizeof(ngx_path_t));
    if (path == NULL) {
        return NGX_CONF_ERROR;
    }

    path->name = value[1];

    while (path->name.len > 1
           && path->name.data[path->name.len - 1] == '/')
    {
        path->name.len--;
    }

    if (ngx_conf_full_name(cf->cycle, &path->name, 0) != NGX_OK) {
        return NGX_CONF_ERROR;
    }

    /* a C string for the threads: the name above may not be terminated */

    p = ngx_pnalloc(cf->pool, path->name.len + 1);
    if (p == NULL) {
        return NGX_CONF_ERROR;
    }

    ngx_memcpy(p, path->name.data, path->name.len);
    p[path->name.len] = '\0';
    path->name.data = p;

    path->conf_file = cf->conf_file->file.name.data;
    path->line = cf->conf_file->line;

    /* nginx creates it at start and gives it to the worker processes' user */

    if (ngx_add_path(cf, &path) != NGX_OK) {
        return NGX_CONF_ERROR;
    }

    mcf->store = path;

    return NGX_CONF_OK;
}


static char *
ngx_http_video_ocr_durability(ngx_conf_t *cf, ngx_command_t *cmd,
    void *conf)
{
    ngx_http_video_ocr_main_conf_t *mcf = conf;

    ngx_str_t  *value;

    if (mcf->durable != NGX_CONF_UNSET) {
        return "is duplicate";
    }

    value = cf->args->elts;

    if (value[1].len == 4 && ngx_strncmp(value[1].data, "full", 4) == 0) {
        mcf->durable = 1;

    } else if (value[1].len == 3
               && ngx_strncmp(value[1].data, "off", 3) == 0)
    {
        mcf->durable = 0;

    } else {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                           "invalid value \"%V\" in \"%V\": use \"full\" "
                           "(every upload and its receipt on stable storage "
                           "before the reply) or \"off\" (leave it to the "
                           "OS)",
                           &value[1], &cmd->name);
        return NGX_CONF_ERROR;
    }

    return NGX_CONF_OK;
}


static char *
ngx_http_video_ocr_endpoint(ngx_conf_t *cf, ngx_command_t *cmd, void *conf)
{
    ngx_http_video_ocr_loc_conf_t *vlcf = conf;

    ngx_uint_t                 endpoint;
    ngx_http_core_loc_conf_t  *clcf;

    endpoint = cmd->offset;

    if (vlcf->endpoint == endpoint) {
        return "is duplicate";
    }

    if (vlcf->endpoint != NGX_HTTP_VIDEO_OCR_NO_ENDPOINT) {
        return "cannot share a location with another video_ocr endpoint: "
               "put video_ocr_intake, video_ocr_jobs, video_ocr_metrics "
               "and video_ocr_search in locations of their own";
    }

    clcf = ngx_http_conf_get_module_loc_conf(cf, ngx_http_core_module);

    if (clcf->handler != NULL) {
        return "conflicts with another content handler in this location "
               "(proxy_pass, root with try_files, ...): give it a location "
               "of its own";
    }

    vlcf->endpoint = endpoint;
    vlcf->file = cf->conf_file->file.name.data;
    vlcf->line = cf->conf_file->line;

    clcf->handler = ngx_http_video_ocr_endpoints[endpoint].handler;

    return NGX_CONF_OK;
}


static char *
ngx_http_video_ocr_thread_pool(ngx_conf_t *cf, ngx_command_t *cmd,
    void *conf)
{
    ngx_http_video_ocr_loc_conf_t *vlcf = conf;

    ngx_str_t  *value;

    if (vlcf->thread_pool != NGX_CONF_UNSET_PTR) {
        return "is duplicate";
    }

    value = cf->args->elts;

    /* an unknown name is reported by nginx once the whole file is read */

    vlcf->thread_pool = ngx_thread_pool_add(cf, &value[1]);
    if (vlcf->thread_pool == NULL) {
        return NGX_CONF_ERROR;
    }

    return NGX_CONF_OK;
}


static char *
ngx_http_video_ocr_containers(ngx_conf_t *cf, ngx_command_t *cmd, void *conf)
{
    ngx_http_video_ocr_loc_conf_t *vlcf = conf;

    ngx_str_t       *value;
    ngx_uint_t       i;
    vo_container_t   c;

    if (vlcf->containers != NGX_CONF_UNSET_UINT) {
        return "is duplicate";
    }

    value = cf->args->elts;
    vlcf->containers = 0;

    for (i = 1; i < cf->args->nelts; i++) {

        if (value[i].len == 3 && ngx_strncmp(value[i].data, "any", 3) == 0) {
            vlcf->containers = NGX_HTTP_VIDEO_OCR_ALL_CONTAINERS;
            continue;
        }

        c = vo_container_by_name((char *) value[i].data, value[i].len);

        if (c == VO_CONTAINER_UNKNOWN) {
            ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                               "unknown container \"%V\": use any of mp4, "
                               "mov, matroska, webm, avi, mpegts, mpegps, "
                               "flv, ogg, asf, mxf, or \"any\"", &value[i]);
            return NGX_CONF_ERROR;
        }

        vlcf->containers |= (ngx_uint_t) 1 << c;
    }

    return NGX_CONF_OK;
}


static char *
ngx_http_video_ocr_jobs_url(ngx_conf_t *cf, ngx_command_t *cmd, void *conf)
{
    ngx_http_video_ocr_loc_conf_t *vlcf = conf;

    ngx_str_t  *value;

    if (vlcf->jobs_url.data) {
        return "is duplicate";
    }

    value = cf->args->elts;

    if (value[1].len == 0 || value[1].data[value[1].len - 1] != '/') {
        return "must end with \"/\": the job id is appended to it, "
               "e.g. /api/jobs/";
    }

    vlcf->jobs_url = value[1];

    return NGX_CONF_OK;
}


/*
 * video_ocr_webhook and video_ocr_webhook_secret: complex values.  A
 * value without variables is checked here, so nginx -t says what is
 * wrong with it; one with variables is checked on every upload
 * (ngx_http_video_ocr_webhook).
 */

static char *
ngx_http_video_ocr_webhook_value(ngx_conf_t *cf, ngx_command_t *cmd,
    void *conf)
{
    char                              err[NGX_HTTP_VIDEO_OCR_ERR_LEN];
    ngx_str_t                        *value;
    ngx_http_complex_value_t        **cv;
    ngx_http_compile_complex_value_t  ccv;

    cv = (ngx_http_complex_value_t **) ((char *) conf + cmd->offset);

    if (*cv != NGX_CONF_UNSET_PTR) {
        return "is duplicate";
    }

    value = cf->args->elts;

    *cv = ngx_palloc(cf->pool, sizeof(ngx_http_complex_value_t));
    if (*cv == NULL) {
        return NGX_CONF_ERROR;
    }

    ngx_memzero(&ccv, sizeof(ngx_http_compile_complex_value_t));

    ccv.cf = cf;
    ccv.value = &value[1];
    ccv.complex_value = *cv;

    if (ngx_http_compile_complex_value(&ccv) != NGX_OK) {
        return NGX_CONF_ERROR;
    }

    if ((*cv)->lengths == NULL && value[1].len > 0
        && ngx_http_video_ocr_webhook_check(
               cmd->offset == offsetof(ngx_http_video_ocr_loc_conf_t,
                                       webhook_secret),
               &value[1], err, sizeof(err))
           != NGX_OK)
    {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0, "\"%V\": %s", &cmd->name,
                           err);
        return NGX_CONF_ERROR;
    }

    return NGX_CONF_OK;
}


static ngx_int_t
ngx_http_video_ocr_webhook_check(ngx_uint_t secret, ngx_str_t *v, char *err,
    size_t err_size)
{
    size_t         n;
    unsigned char  key[VO_WEBHOOK_KEY_MAX];

    if (secret) {
        return vo_webhook_secret_parse((char *) v->data, v->len, key, &n, err,
                                       err_size) == 0 ? NGX_OK : NGX_ERROR;
    }

    return vo_webhook_url_check((char *) v->data, v->len, err, err_size) == 0
           ? NGX_OK : NGX_ERROR;
}


ngx_int_t
ngx_http_video_ocr_webhook(ngx_http_request_t *r,
    ngx_http_video_ocr_loc_conf_t *vlcf, ngx_http_video_ocr_ctx_t *ctx)
{
    char  err[NGX_HTTP_VIDEO_OCR_ERR_LEN];

    ngx_str_null(&ctx->webhook_url);
    ngx_str_null(&ctx->webhook_secret);

    if (vlcf->webhook == NULL) {
        return NGX_OK;
    }

    if (ngx_http_complex_value(r, vlcf->webhook, &ctx->webhook_url)
        != NGX_OK)
    {
        return NGX_ERROR;
    }

    if (ctx->webhook_url.len == 0) {
        /* none for this request: the tenant's own endpoint, if any */
        return NGX_OK;
    }

    if (ngx_http_video_ocr_webhook_check(0, &ctx->webhook_url, err,
                                         sizeof(err))
        != NGX_OK)
    {
        ngx_log_error(NGX_LOG_ERR, r->connection->log, 0,
                      "video_ocr_webhook evaluated to \"%V\": %s",
                      &ctx->webhook_url, err);
        return NGX_ERROR;
    }

    if (ngx_http_complex_value(r, vlcf->webhook_secret, &ctx->webhook_secret)
        != NGX_OK)
    {
        return NGX_ERROR;
    }

    if (ngx_http_video_ocr_webhook_check(1, &ctx->webhook_secret, err,
                                         sizeof(err))
        != NGX_OK)
    {
        /* the secret itself stays out of the log */
        ngx_log_error(NGX_LOG_ERR, r->connection->log, 0,
                      "video_ocr_webhook_secret for \"%V\" (%uz bytes): %s",
                      &ctx->webhook_url, ctx->webhook_secret.len, err);
        return NGX_ERROR;
    }

    return NGX_OK;
}


/*
 * Opens the ledger once at configuration time, as the master process:
 * creates the file (or the PostgreSQL tables) and applies the schema, or
 * the migrations an older ledger needs, and proves that the worker
 * processes' user will be able to write it.  A failure here is a configuration error, so "nginx -t"
 * reports it and a reload keeps the running configuration.  The
 * connection is closed before returning: no database connection crosses
 * fork().
 */

static ngx_int_t
ngx_http_video_ocr_check_ledger(ngx_conf_t *cf,
    ngx_http_video_ocr_main_conf_t *mcf)
{
    int               existed, rc;
    char              err[NGX_HTTP_VIDEO_OCR_ERR_LEN];
    u_char           *dir, *slash;
    ngx_uid_t         uid;
    ngx_gid_t         gid;
    ngx_file_info_t   fi, di;

    if (vo_ledger_is_postgresql((char *) mcf->ledger.data)) {

        /* a server: reachable, the schema in place, the role allowed */

        return ngx_http_video_ocr_open_ledger_once(cf, mcf);
    }

    if (ngx_http_video_ocr_worker_user(cf, &uid, &gid) != NGX_OK) {
        return NGX_ERROR;
    }

    /* the ledger's directory; the name is absolute after full_name */

    dir = ngx_pnalloc(cf->pool, mcf->ledger.len + 1);
    if (dir == NULL) {
        return NGX_ERROR;
    }

    ngx_memcpy(dir, mcf->ledger.data, mcf->ledger.len);
    dir[mcf->ledger.len] = '\0';

    slash = dir + mcf->ledger.len;

    while (slash > dir && *slash != '/') {
        slash--;
    }

    *(slash == dir ? slash + 1 : slash) = '\0';

    rc = vo_dir_writable_by((char *) dir, uid, gid, err, sizeof(err));

    if (rc != 1) {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                           "video_ocr_ledger \"%V\": %s: the directory must "
                           "exist and be writable by nginx's worker "
                           "processes (SQLite creates its -wal and -shm "
                           "files next to the ledger)", &mcf->ledger, err);
        return NGX_ERROR;
    }

    existed = (ngx_file_info(mcf->ledger.data, &fi) != NGX_FILE_ERROR);

    if (ngx_http_video_ocr_open_ledger_once(cf, mcf) != NGX_OK) {
        return NGX_ERROR;
    }

    if (uid == (ngx_uid_t) NGX_CONF_UNSET_UINT || geteuid() != 0) {
        return NGX_OK;
    }

    if (!existed) {

        /*
         * a directory with the set-group-ID bit is shared through its
         * group (with the pool's user): the ledger keeps that group
         */

        if (ngx_file_info(dir, &di) != NGX_FILE_ERROR
            && (di.st_mode & S_ISGID))
        {
            gid = (ngx_gid_t) -1;
        }

        if (chown((char *) mcf->ledger.data, uid, gid) == -1) {
            ngx_conf_log_error(NGX_LOG_EMERG, cf, ngx_errno,
                               "chown(\"%V\") failed", &mcf->ledger);
            return NGX_ERROR;
        }

        return NGX_OK;
    }

    /* by its owner, its group (the workers' groups), or anyone */

    rc = vo_file_writable_by((char *) mcf->ledger.data, uid, gid, err,
                             sizeof(err));

    if (rc == -1) {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0, "video_ocr_ledger: %s", err);
        return NGX_ERROR;
    }

    if (rc == 0) {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                           "video_ocr_ledger \"%V\" is not writable by "
                           "nginx's worker processes (uid %d): chown it to "
                           "that user", &mcf->ledger, (int) uid);
        return NGX_ERROR;
    }

    return NGX_OK;
}


/* Opens the ledger, creating or migrating its schema, and closes it. */

static ngx_int_t
ngx_http_video_ocr_open_ledger_once(ngx_conf_t *cf,
    ngx_http_video_ocr_main_conf_t *mcf)
{
    char              err[NGX_HTTP_VIDEO_OCR_ERR_LEN];
    vo_ledger_t      *l;
    vo_ledger_conf_t  lconf;

    lconf = mcf->ledger_conf;
    lconf.migrate = 1;

    if (vo_ledger_open((char *) mcf->ledger.data, &lconf, &l, err,
                       sizeof(err))
        != VO_LEDGER_OK)
    {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0, "%s", err);
        return NGX_ERROR;
    }

    vo_ledger_close(l);

    return NGX_OK;
}


/*
 * The user the worker processes will run as.  The "user" directive may
 * not have been applied yet (it is merged after the http block), so this
 * repeats nginx's rule: the directive's user, else NGX_USER when the
 * master runs as root, else whoever runs nginx.
 */

static ngx_int_t
ngx_http_video_ocr_worker_user(ngx_conf_t *cf, ngx_uid_t *uid,
    ngx_gid_t *gid)
{
    struct group     *gr;
    struct passwd    *pw;
    ngx_core_conf_t  *ccf;

    ccf = (ngx_core_conf_t *) ngx_get_conf(cf->cycle->conf_ctx,
                                           ngx_core_module);

    if (geteuid() != 0) {
        *uid = geteuid();
        *gid = getegid();
        return NGX_OK;
    }

    if (ccf->user != (ngx_uid_t) NGX_CONF_UNSET_UINT) {
        *uid = ccf->user;
        *gid = ccf->group;
        return NGX_OK;
    }

    pw = getpwnam(NGX_USER);
    gr = getgrnam(NGX_GROUP);

    if (pw == NULL || gr == NULL) {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                           "video_ocr_ledger: cannot find the default user "
                           "\"" NGX_USER "\" or group \"" NGX_GROUP "\": "
                           "set the \"user\" directive before the http block");
        return NGX_ERROR;
    }

    *uid = pw->pw_uid;
    *gid = gr->gr_gid;

    return NGX_OK;
}


/*
 * After nginx has created its paths: tell the operator when uploads will
 * be copied into the store instead of renamed (client_body_temp_path on
 * another filesystem); it works, but costs a second write of every body.
 */

static ngx_int_t
ngx_http_video_ocr_init_module(ngx_cycle_t *cycle)
{
    ngx_uint_t                        i;
    ngx_path_t                      **tp;
    ngx_file_info_t                   sfi, tfi;
    ngx_http_video_ocr_main_conf_t   *mcf;

    /* as nginx logs its own version: which module this cycle runs */

    ngx_log_error(NGX_LOG_NOTICE, cycle->log, 0,
                  "video_ocr/" VO_VERSION " (ledgers: %s)", vo_ledger_kinds);

    mcf = ngx_http_cycle_get_module_main_conf(cycle, ngx_http_video_ocr_module);

    if (mcf == NULL || mcf->store == NULL) {
        return NGX_OK;
    }

    if (ngx_file_info(mcf->store->name.data, &sfi) == NGX_FILE_ERROR) {
        ngx_log_error(NGX_LOG_EMERG, cycle->log, ngx_errno,
                      "video_ocr_store \"%V\": " ngx_file_info_n " failed",
                      &mcf->store->name);
        return NGX_ERROR;
    }

    tp = mcf->temp_paths->elts;

    for (i = 0; i < mcf->temp_paths->nelts; i++) {

        if (ngx_file_info(tp[i]->name.data, &tfi) == NGX_FILE_ERROR) {
            continue;
        }

        if (tfi.st_dev != sfi.st_dev) {
            ngx_log_error(NGX_LOG_WARN, cycle->log, 0,
                          "video_ocr_store \"%V\" is on another filesystem "
                          "than client_body_temp_path \"%V\": uploads will "
                          "be copied into the store instead of renamed; put "
                          "client_body_temp_path on the store's filesystem",
                          &mcf->store->name, &tp[i]->name);
        }
    }

    return NGX_OK;
}


/*
 * nginx calls the thread pool module's exit hook, which stops the pools,
 * before this one; the threads may still be exiting
 * (ngx_http_video_ocr_task.c).
 */

static void
ngx_http_video_ocr_exit_process(ngx_cycle_t *cycle)
{
    /* the group commit's semaphores only once no thread can use them */

    if (ngx_http_video_ocr_exit_threads(cycle->log) == NGX_OK) {
        ngx_http_video_ocr_admit_exit();
    }
}
