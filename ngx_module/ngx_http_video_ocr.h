/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Types shared by the nginx files of ngx_http_video_ocr_module, from the
 * top down (a file calls only files below it, but for the module's own
 * hooks: ngx_http_video_ocr_module.c names the endpoints' handlers and
 * frees the group commit at exit):
 *
 *   ngx_http_video_ocr_intake.c   the upload endpoint (video_ocr_intake):
 *                                 the plain POST, or the resumable
 *                                 protocols' requests
 *   ngx_http_video_ocr_upload*.c, resumable uploads: the IETF draft and
 *   ngx_http_video_ocr_append.c,  tus 1.0 on the intake location, tus
 *   ngx_http_video_ocr_concat.c   concatenation (their own header:
 *                                 _resumable.h)
 *   ngx_http_video_ocr_jobs.c     the job endpoint (video_ocr_jobs):
 *                                 status, results, DELETE
 *   ngx_http_video_ocr_admit.c    the admission both ways share: the key,
 *                                 the input digest, the job id, the
 *                                 admission task, the receipt
 *   ngx_http_video_ocr_module.c   directives, configuration, variables,
 *                                 the endpoint table
 *   ngx_http_video_ocr_metrics.c  the metrics page (video_ocr_metrics) and
 *                                 the log-phase counters
 *   ngx_http_video_ocr_search.c   the search endpoint (video_ocr_search)
 *                                 and its metrics
 *   ngx_http_video_ocr_body.c     request body filter: SHA-256 + sniffing
 *   ngx_http_video_ocr_task.c     the thread-pool tasks: posting, and the
 *                                 threads' ledger connections
 *   ngx_http_video_ocr_reply.c    the request's context and tenant, the
 *                                 outcomes, JSON replies, problem+json
 *                                 errors and the problem filter
 *
 * A task's thread function lives with the endpoint it serves.  The
 * module also links, without nginx types: vo_group.[ch] (the group
 * commit of admissions), ../lib/ (edge parsers, JSON, the store) and
 * ../sql/ (the ledger); config lists every file.
 */

#ifndef _NGX_HTTP_VIDEO_OCR_H_INCLUDED_
#define _NGX_HTTP_VIDEO_OCR_H_INCLUDED_


#include <ngx_config.h>
#include <ngx_core.h>
#include <ngx_http.h>

#include <openssl/evp.h>

#include "vo_edge.h"
#include "vo_json.h"
#include "vo_ledger.h"
#include "vo_store.h"
#include "vo_upload.h"


#if !(NGX_THREADS)
#error ngx_http_video_ocr_module needs nginx built --with-threads
#endif


/* nginx 1.22 has no name for it and no reason phrase: see reply.c */
#ifndef NGX_HTTP_UNPROCESSABLE_ENTITY
#define NGX_HTTP_UNPROCESSABLE_ENTITY    422
#endif


#ifndef NGX_HTTP_CONFLICT
#define NGX_HTTP_CONFLICT                409
#endif


/* tus 1.0's checksum extension */
#define NGX_HTTP_VIDEO_OCR_CHECKSUM_FAILED  460

/* a job the retention removed (nginx names no 410) */
#define NGX_HTTP_VIDEO_OCR_GONE             410


#define NGX_HTTP_VIDEO_OCR_ERR_LEN       256
#define NGX_HTTP_VIDEO_OCR_TASK_TIMEOUT  60000


/* the event loop's cached time, in milliseconds */
#define ngx_http_video_ocr_now_ms()                                          \
    ((int64_t) ngx_timeofday()->sec * 1000 + (int64_t) ngx_timeofday()->msec)


typedef struct {
    ngx_str_t                  ledger;         /* video_ocr_ledger, C str:
                                                  a path or a URI */
    ngx_str_t                  admit_lock;     /* "<ledger>-admit.lock",
                                                  none for PostgreSQL */
    ngx_path_t                *store;          /* video_ocr_store */
    ngx_msec_t                 busy_timeout;
    ngx_flag_t                 durable;        /* video_ocr_durability */
    time_t                     receipt_ttl;
    time_t                     upload_ttl;     /* video_ocr_upload_ttl */
    ngx_uint_t                 max_attempts;
    ngx_str_t                  key_hash_secret;

    /* client_body_temp_path of each intake location: the EXDEV check */
    ngx_array_t               *temp_paths;

    vo_ledger_conf_t           ledger_conf;    /* what the threads open */
} ngx_http_video_ocr_main_conf_t;


/* What a location is, by the one endpoint directive it may hold. */
typedef enum {
    NGX_HTTP_VIDEO_OCR_NO_ENDPOINT = 0,
    NGX_HTTP_VIDEO_OCR_INTAKE,                 /* video_ocr_intake */
    NGX_HTTP_VIDEO_OCR_JOBS,                   /* video_ocr_jobs */
    NGX_HTTP_VIDEO_OCR_METRICS,                /* video_ocr_metrics */
    NGX_HTTP_VIDEO_OCR_SEARCH,                 /* video_ocr_search */
    NGX_HTTP_VIDEO_OCR_ENDPOINTS
} ngx_http_video_ocr_endpoint_e;


typedef struct {
    const char                *name;           /* video_ocr_<name> */
    ngx_http_handler_pt        handler;
    ngx_str_t                  allow;          /* the methods, for a 405 */
} ngx_http_video_ocr_endpoint_t;


extern const ngx_http_video_ocr_endpoint_t
    ngx_http_video_ocr_endpoints[NGX_HTTP_VIDEO_OCR_ENDPOINTS];


typedef struct {
    ngx_uint_t                 endpoint;       /* ..._endpoint_e, not
                                                  inherited */
    ngx_thread_pool_t         *thread_pool;
    ngx_http_complex_value_t  *tenant;
    ngx_flag_t                 key_required;
    ngx_uint_t                 containers;     /* bit per vo_container_t */
    ngx_str_t                  jobs_url;
    ngx_int_t                  uploads_max;    /* video_ocr_uploads_max */
    ngx_int_t                  tenant_max_queued;  /* 0: none */

    /* where the job's notifications go, recorded at admission */
    ngx_http_complex_value_t  *webhook;        /* video_ocr_webhook */
    ngx_http_complex_value_t  *webhook_secret; /* video_ocr_webhook_secret */
    ngx_flag_t                 webhook_accepted;

    /* per-tenant gauges on the metrics page */
    ngx_flag_t                 metrics_tenants;

    u_char                    *file;           /* where the endpoint */
    ngx_uint_t                 line;           /* directive was written */
} ngx_http_video_ocr_loc_conf_t;


/*
 * How a request of this module ended: every reply it sends, and what the
 * log phase counts, is one of these.  The table in
 * ngx_http_video_ocr_reply.c gives each its problem type (also the label
 * of video_ocr_intake_requests_total), status, detail and Retry-After;
 * docs/http-api.md lists them for clients.
 */
typedef enum {
    NGX_HTTP_VIDEO_OCR_ABORTED = 0,            /* none yet: the client left
                                                  before it was decided */
    NGX_HTTP_VIDEO_OCR_CREATED,
    NGX_HTTP_VIDEO_OCR_REPLAYED,
    NGX_HTTP_VIDEO_OCR_KEY_REUSED,
    NGX_HTTP_VIDEO_OCR_MISSING_KEY,
    NGX_HTTP_VIDEO_OCR_BAD_KEY,
    NGX_HTTP_VIDEO_OCR_BAD_OPTIONS,
    NGX_HTTP_VIDEO_OCR_EMPTY_BODY,
    NGX_HTTP_VIDEO_OCR_NOT_A_VIDEO,
    NGX_HTTP_VIDEO_OCR_TOO_LARGE,
    NGX_HTTP_VIDEO_OCR_NO_TENANT,
    NGX_HTTP_VIDEO_OCR_METHOD_NOT_ALLOWED,
    NGX_HTTP_VIDEO_OCR_BUSY,
    NGX_HTTP_VIDEO_OCR_DISK_FULL,
    NGX_HTTP_VIDEO_OCR_BAD_REQUEST,
    NGX_HTTP_VIDEO_OCR_INTERNAL,
    NGX_HTTP_VIDEO_OCR_NO_SUCH_JOB,            /* the status endpoint's */
    NGX_HTTP_VIDEO_OCR_NOT_DONE,
    NGX_HTTP_VIDEO_OCR_JOB_GONE,               /* retention */
    NGX_HTTP_VIDEO_OCR_BAD_FORMAT,
    NGX_HTTP_VIDEO_OCR_NO_SUCH_FORMAT,         /* published without it */
    NGX_HTTP_VIDEO_OCR_TENANT_QUEUE_FULL,

    /* resumable uploads (ngx_http_video_ocr_upload.c) */
    NGX_HTTP_VIDEO_OCR_UPLOAD_CREATED,
    NGX_HTTP_VIDEO_OCR_UPLOAD_APPENDED,
    NGX_HTTP_VIDEO_OCR_UPLOAD_OFFSET,          /* HEAD, OPTIONS, DELETE */
    NGX_HTTP_VIDEO_OCR_OFFSET_MISMATCH,
    NGX_HTTP_VIDEO_OCR_INCONSISTENT_LENGTH,
    NGX_HTTP_VIDEO_OCR_BAD_UPLOAD_HEADER,
    NGX_HTTP_VIDEO_OCR_NO_SUCH_UPLOAD,
    NGX_HTTP_VIDEO_OCR_TUS_VERSION,
    NGX_HTTP_VIDEO_OCR_CHECKSUM_MISMATCH,
    NGX_HTTP_VIDEO_OCR_TOO_MANY_UPLOADS,
    NGX_HTTP_VIDEO_OCR_UPLOAD_SUPERSEDED,
    NGX_HTTP_VIDEO_OCR_BAD_CONTENT_TYPE,

    NGX_HTTP_VIDEO_OCR_FINAL_UPLOAD,           /* tus concatenation */
    NGX_HTTP_VIDEO_OCR_PARTIAL_GONE,
    NGX_HTTP_VIDEO_OCR_PARTIAL_UNFINISHED,
    NGX_HTTP_VIDEO_OCR_NOT_PARTIAL,

    /* search (ngx_http_video_ocr_search.c) */
    NGX_HTTP_VIDEO_OCR_BAD_QUERY,
    NGX_HTTP_VIDEO_OCR_QUERY_TOO_LONG,
    NGX_HTTP_VIDEO_OCR_OUTCOMES
} ngx_http_video_ocr_outcome_e;


typedef struct {
    ngx_str_t                  type;           /* urn:video-ocr:problem:<type>,
                                                  and the metric's label */
    ngx_uint_t                 status;
    const char                *detail;         /* unless the caller says
                                                  more precisely */
    ngx_str_t                  admission;      /* $video_ocr_admission */
    unsigned                   retry_after:8;  /* "Retry-After: <this>"
                                                  seconds, 0: none */
    unsigned                   counted:1;      /* an upload's outcome: a
                                                  label of the metric */
    unsigned                   iana:1;         /* a type of the IANA HTTP
                                                  problem types registry */
} ngx_http_video_ocr_outcome_t;


extern const ngx_http_video_ocr_outcome_t
    ngx_http_video_ocr_outcomes[NGX_HTTP_VIDEO_OCR_OUTCOMES];


typedef struct ngx_http_video_ocr_task_s  ngx_http_video_ocr_task_t;

/* What a task does in its thread: the endpoint's own function. */
typedef void (*ngx_http_video_ocr_run_pt)(ngx_http_video_ocr_task_t *t);


/*
 * What a thread-pool task sees: plain C values only.  Filled by the event
 * loop before posting, read back by it after completion; while the task
 * runs nothing else touches it, and the request it belongs to stays
 * blocked, which keeps every pointer below alive.
 */
struct ngx_http_video_ocr_task_s {
    ngx_http_video_ocr_run_pt        run;
    ngx_http_video_ocr_main_conf_t  *mcf;
    const char                      *store;         /* NUL-terminated */

    /* admission */
    vo_admission_t                   admission;
    char                             rel[VO_STORE_REL_LEN + 1];
    int                              temp_fd;       /* -1: body in memory */
    const char                      *temp_path;
    vo_chunk_t                      *chunks;
    size_t                           nchunks;

    /* status */
    const char                      *tenant;
    size_t                           tenant_len;
    char                             job_id[VO_JOB_ID_LEN + 1];
    const char                      *format;        /* NULL: status JSON */
    int64_t                          now_ms;        /* metrics, DELETE */
    int                              tenants;       /* metrics: per-tenant
                                                       gauges too */
    char                             state[16];     /* when NOT_READY */
    int                              removed;       /* DELETE: input gone */

    /* resumable uploads (ngx_http_video_ocr_upload_task.c) */
    vo_upload_row_t                  up;            /* in and out */
    char                             part[VO_STORE_UPLOAD_REL_LEN + 1];
    int64_t                          up_offset;     /* the client's / where
                                                       the chunk goes */
    int64_t                          up_max_open;
    int64_t                          up_ttl_ms;
    int                              up_outcome;    /* vo_upload_create_e */
    char                             up_forgot[33];
    int                              chunk_fd;
    int64_t                          chunk_len;
    int64_t                          chunk_staged;  /* [0, this) of the
                                                       chunk is in the
                                                       partial file; a
                                                       stage's out too */
    ngx_uint_t                       containers;
    void                            *concat;        /* a tus final upload's:
                                                       _resumable.h */
    unsigned                         up_complete:1; /* complete it after */
    unsigned                         up_stale:1;    /* out: taken over,
                                                       deleted, completed */
    unsigned                         up_refused:1;  /* out: not a video */
    unsigned                         chunk_dirty:1; /* out: the chunk file
                                                       could not be emptied
                                                       (a stage reads it to
                                                       its size) */

    /* search: ngx_http_video_ocr_search.c's, in and out */
    void                            *search;

    /* results */
    vo_store_rc_t                    store_rc;
    int                              copied;
    int                              temp_moved;    /* the temp file's name
                                                       is no longer ours */
    vo_ledger_rc_t                   ledger_rc;
    vo_receipt_t                     receipt;
    char                            *body;          /* malloc'd */
    size_t                           body_len;
    char                             err[NGX_HTTP_VIDEO_OCR_ERR_LEN];
};


/* A request of the resumable protocols: ngx_http_video_ocr_resumable.h */
typedef struct ngx_http_video_ocr_up_s  ngx_http_video_ocr_up_t;


/* per request */
typedef struct {
    EVP_MD_CTX                      *md;            /* body SHA-256 */
    off_t                            received;
    u_char                           sniff[VO_SNIFF_BYTES];
    size_t                           sniff_len;
    vo_container_t                   container;

    ngx_str_t                        tenant;
    char                             key[VO_KEY_MAX];
    size_t                           key_len;
    u_char                           key_hash[VO_KEY_HASH_LEN + 1];
    vo_options_t                     options;
    char                             options_json[VO_OPTIONS_JSON_MAX];
    char                             body_sha256[VO_DIGEST_HEX_LEN + 1];
    char                             input_digest[VO_DIGEST_HEX_LEN + 1];
    char                             job_id[VO_JOB_ID_LEN + 1];

    ngx_str_t                        webhook_url;   /* none: len 0 */
    ngx_str_t                        webhook_secret;
    ngx_str_t                        status_url;

    ngx_http_video_ocr_task_t       *task;

    /* a resumable upload's request (NULL for the plain POST) */
    ngx_http_video_ocr_up_t         *up;

    /* how the request ended (ngx_http_video_ocr_outcome_e), and what the
     * admission decided: CREATED, REPLAYED, KEY_REUSED or nothing yet */
    ngx_uint_t                       outcome;
    ngx_uint_t                       admitted;

    /* a refusal decided in a filter, rendered by the problem filter */
    ngx_str_t                        problem_detail;
    ngx_str_t                        problem_extra; /* more members, JSON */
    ngx_buf_t                       *problem;       /* the replacement body */

    unsigned                         has_key:1;
    unsigned                         replied:1;     /* our own reply sent */
    unsigned                         replace_body:1;
    unsigned                         body_replaced:1;
} ngx_http_video_ocr_ctx_t;


extern ngx_module_t  ngx_http_video_ocr_module;


ngx_int_t ngx_http_video_ocr_intake_handler(ngx_http_request_t *r);
ngx_int_t ngx_http_video_ocr_jobs_handler(ngx_http_request_t *r);

/* ngx_http_video_ocr_search.c: the endpoint, its
 * metrics (the zone and log handler; their part of the page) */
ngx_int_t ngx_http_video_ocr_search_handler(ngx_http_request_t *r);
ngx_int_t ngx_http_video_ocr_search_init(ngx_conf_t *cf);
void ngx_http_video_ocr_search_metrics(vo_buf_t *b);

/*
 * Resumable uploads on the intake location: NGX_DECLINED when the
 * request is a plain POST (no Tus-Resumable, Upload-Complete or
 * Upload-Draft-Interop-Version, and no upload resource in the URI).
 */
ngx_int_t ngx_http_video_ocr_upload_handler(ngx_http_request_t *r);

/*
 * ngx_http_video_ocr_admit.c, shared by the plain POST and the resumable
 * protocols: the Idempotency-Key, its hash ($video_ocr_key_hash), the
 * admission (see there), ids, the receipt; and the first request header
 * of a name with how many there are.
 */
ngx_int_t ngx_http_video_ocr_key(ngx_http_request_t *r,
    ngx_http_video_ocr_ctx_t *ctx, ngx_uint_t required);
ngx_table_elt_t *ngx_http_video_ocr_header_in(ngx_http_request_t *r,
    const char *name, ngx_uint_t *n);
void ngx_http_video_ocr_key_hash(ngx_http_request_t *r,
    ngx_http_video_ocr_ctx_t *ctx);
ngx_int_t ngx_http_video_ocr_admission(ngx_http_request_t *r,
    ngx_http_video_ocr_task_t *t, u_char *body_sha256, off_t size);
int ngx_http_video_ocr_input_digest(u_char *body_sha256,
    const char *options, char *body_hex, char *input_digest);
EVP_MD_CTX *ngx_http_video_ocr_md(ngx_http_request_t *r, const EVP_MD *type);
ngx_int_t ngx_http_video_ocr_new_job_id(ngx_http_request_t *r, char *job_id);
ngx_int_t ngx_http_video_ocr_random_id(ngx_http_request_t *r, char *id,
    size_t len);
ngx_int_t ngx_http_video_ocr_send_receipt(ngx_http_request_t *r,
    ngx_http_video_ocr_ctx_t *ctx, ngx_uint_t replayed);
void ngx_http_video_ocr_hex(u_char *dst, u_char *src, size_t len);

/* In a thread: a POST's admission; the group admission of t->rel. */
void ngx_http_video_ocr_admit_thread(ngx_http_video_ocr_task_t *t);
void ngx_http_video_ocr_admit_group(ngx_http_video_ocr_task_t *t);
/* At the worker's exit, after its threads: what the group commit left. */
void ngx_http_video_ocr_admit_exit(void);

ngx_int_t ngx_http_video_ocr_metrics_handler(ngx_http_request_t *r);
ngx_int_t ngx_http_video_ocr_metrics_init(ngx_conf_t *cf);
ngx_atomic_t *ngx_http_video_ocr_batch_counters(ngx_atomic_t **batched);

ngx_int_t ngx_http_video_ocr_body_filter_init(ngx_conf_t *cf);
ngx_int_t ngx_http_video_ocr_problem_filter_init(ngx_conf_t *cf);

ngx_http_video_ocr_ctx_t *ngx_http_video_ocr_get_ctx(ngx_http_request_t *r);

ngx_int_t ngx_http_video_ocr_tenant(ngx_http_request_t *r,
    ngx_http_video_ocr_loc_conf_t *vlcf, ngx_str_t *tenant);
ngx_int_t ngx_http_video_ocr_tenant_or_refuse(ngx_http_request_t *r,
    ngx_http_video_ocr_loc_conf_t *vlcf, ngx_str_t *tenant);
ngx_int_t ngx_http_video_ocr_read_start(ngx_http_request_t *r,
    ngx_uint_t methods, const char *how, ngx_http_video_ocr_ctx_t **ctx);

/*
 * The webhook of this request (video_ocr_webhook and _secret evaluated
 * and checked) into ctx; no webhook when the URL is empty.  NGX_OK, or
 * NGX_ERROR after logging why the configured values are not usable.
 */
ngx_int_t ngx_http_video_ocr_webhook(ngx_http_request_t *r,
    ngx_http_video_ocr_loc_conf_t *vlcf, ngx_http_video_ocr_ctx_t *ctx);

/*
 * Posts task to the location's thread pool; resume runs when it is done.
 * NGX_OK, or an HTTP status with the reason recorded (see refuse).
 */
ngx_int_t ngx_http_video_ocr_task_post(ngx_http_request_t *r,
    ngx_thread_task_t *task, ngx_http_event_handler_pt resume);
ngx_thread_task_t *ngx_http_video_ocr_task_alloc(ngx_http_request_t *r,
    ngx_http_video_ocr_run_pt run);
ngx_int_t ngx_http_video_ocr_exit_threads(ngx_log_t *log);

/*
 * In a thread: its own ledger connection, and the one its group commits
 * go through (NULL with t->err set when it cannot be opened); the reply
 * body a ledger call wrote into b becomes t->body.
 */
vo_ledger_t *ngx_http_video_ocr_thread_ledger(ngx_http_video_ocr_task_t *t);
vo_ledger_t *ngx_http_video_ocr_group_ledger(ngx_http_video_ocr_task_t *t);
void ngx_http_video_ocr_take_body(ngx_http_video_ocr_task_t *t, vo_buf_t *b,
    const char *what, const char *name);

ngx_int_t ngx_http_video_ocr_send_json(ngx_http_request_t *r,
    ngx_uint_t status, u_char *body, size_t len);
ngx_int_t ngx_http_video_ocr_send_body(ngx_http_request_t *r,
    ngx_uint_t status, ngx_str_t *content_type, u_char *body, size_t len);

/*
 * The problem+json reply of outcome, with detail (NULL: the table's) and
 * the job it names (NULL: none).  Discards a body that was not read.
 */
ngx_int_t ngx_http_video_ocr_send_problem(ngx_http_request_t *r,
    ngx_uint_t outcome, const char *detail, const char *job_id);

/*
 * Records a refusal decided before there is a reply to send (in a filter,
 * in a step that returns a status), for refuse and the problem filter.
 */
void ngx_http_video_ocr_set_problem(ngx_http_request_t *r,
    ngx_uint_t outcome, const char *detail);

/* Sends the refusal set_problem recorded; "internal" when none was. */
ngx_int_t ngx_http_video_ocr_refuse(ngx_http_request_t *r);

/*
 * The reply to a ledger result that is neither OK nor NOT_READY: BUSY is
 * 503 busy, FULL 507 disk-full, NOT_FOUND 404 no-such-job, the rest 500
 * internal with what ("the job could not be read") as its detail.  err,
 * the ledger's message, goes to the error log.
 */
ngx_int_t ngx_http_video_ocr_ledger_reply(ngx_http_request_t *r,
    vo_ledger_rc_t rc, const char *what, const char *err);


#endif /* _NGX_HTTP_VIDEO_OCR_H_INCLUDED_ */
