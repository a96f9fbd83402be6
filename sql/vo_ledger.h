/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The ledger: the narrow interface between video-ocr and its database.
 * Everything that speaks SQL lives behind it (sql/vo_ledger*.c): the
 * module and the worker do not know which database they use.  Two
 * backends: SQLite (a file path, the default) and PostgreSQL (a
 * "postgresql://" URI, for many hosts).  The states, transitions and
 * invariants it keeps are written once, in sql/schema.sql.
 *
 * A vo_ledger_t is one database connection with its prepared statements.
 * It belongs to one thread at a time and never crosses fork(): the nginx
 * module opens one per thread-pool thread, lazily, in the worker process,
 * and one more per worker process for its group commits;
 * each OCR child opens its own after exec.
 */

#ifndef _VO_LEDGER_H_INCLUDED_
#define _VO_LEDGER_H_INCLUDED_


#include <stddef.h>
#include <stdint.h>

#include "vo_job_id.h"
#include "vo_json.h"
#include "vo_query.h"
#include "vo_webhook.h"


#define VO_LEDGER_SCHEMA_VERSION  6
#define VO_DIGEST_HEX_LEN         64
#define VO_TENANT_MAX             255
#define VO_ERR_TEXT               256    /* enough for any ledger error */


typedef struct vo_ledger_s  vo_ledger_t;


typedef enum {
    VO_LEDGER_OK = 0,
    VO_LEDGER_NOT_FOUND,
    VO_LEDGER_NOT_READY,       /* the job has no result (yet) */
    VO_LEDGER_STALE,           /* the attempt no longer holds the job */
    VO_LEDGER_BUSY,            /* locked for longer than busy_timeout */
    VO_LEDGER_FULL,            /* the disk is full */
    VO_LEDGER_GONE,            /* the job was removed by the
                                  retention; its receipt still lives */
    VO_LEDGER_ERROR
} vo_ledger_rc_t;


typedef struct {
    int          busy_timeout_ms;
    int          sync_full;    /* synchronous=FULL, else NORMAL */
    int          migrate;      /* create the ledger, or migrate it, to
                                  VO_LEDGER_SCHEMA_VERSION */
} vo_ledger_conf_t;


/*
 * Opens a ledger: spec is a file path (SQLite) or a postgresql:// URI.
 * With conf->migrate the ledger is created when missing (an SQLite file
 * in WAL mode, or the tables in PostgreSQL) and brought to
 * VO_LEDGER_SCHEMA_VERSION; without it the ledger must already be at
 * that version.  A file that is not a database, a server that cannot be
 * reached, a newer schema, a ledger that cannot be written: refused with
 * a sentence in err that says what to fix; nothing is ever reset.
 */
vo_ledger_rc_t vo_ledger_open(const char *spec, const vo_ledger_conf_t *conf,
    vo_ledger_t **out, char *err, size_t err_size);

void vo_ledger_close(vo_ledger_t *l);

/* Whether spec names a PostgreSQL ledger (postgresql:// or postgres://). */
int vo_ledger_is_postgresql(const char *spec);

/* spec for messages and logs: a URI's password is replaced by "***". */
void vo_ledger_redact(const char *spec, char *buf, size_t size);

/* The kinds of ledger this build opens: "sqlite, postgresql", or "sqlite"
 * when it was built without libpq. */
extern const char *const  vo_ledger_kinds;


/* One admission: a receipt (when key is not NULL) and the job behind it. */
typedef struct {
    const char  *tenant;
    size_t       tenant_len;
    const char  *key;            /* NULL: no receipt, the job stands alone */
    size_t       key_len;
    const char  *input_digest;   /* VO_DIGEST_HEX_LEN hex digits */
    const char  *job_id;         /* the id to use if a job is created */
    const char  *options;        /* canonical options JSON */
    const char  *input_path;     /* relative to the store */
    int64_t      input_size;
    const char  *input_sha256;
    const char  *container;
    int64_t      now_ms;
    int64_t      receipt_ttl_ms;
    int          max_attempts;

    /* the job's webhook (video_ocr_webhook*), checked by the
     * caller; url NULL: none from nginx (the tenant's endpoint of
     * "webhooks add" applies, if any) */
    const char  *webhook_url;
    size_t       webhook_url_len;
    const char  *webhook_secret;     /* whsec_... */
    size_t       webhook_secret_len;
    int          webhook_accepted;   /* a job.accepted notification too */
    const char  *status_url;         /* the receipt's, for the payloads */
    size_t       status_url_len;
    const char  *upload_id;      /* a resumable upload's completion, or
                                    NULL: it is marked completed in the
                                    same transaction (invariant 13) */
    int64_t      upload_writer;  /* the completing append's token */
    const char  *upload_parts;   /* a tus final upload: its partial
                                    uploads' ids, by spaces, deleted in
                                    the same transaction (invariant 14);
                                    NULL: none */

    /* video_ocr_tenant_max_queued, 0: no cap.  A new job is
     * refused (VO_ADMIT_QUEUE_FULL, nothing written) while the tenant
     * has this many accepted jobs; a replay never is */
    int64_t      max_queued;
} vo_admission_t;


typedef enum {
    VO_ADMIT_NONE = 0,           /* no live receipt (lookup only) */
    VO_ADMIT_CREATED,
    VO_ADMIT_REPLAYED,
    VO_ADMIT_MISMATCH,
    VO_ADMIT_QUEUE_FULL          /* the tenant's queue is at its cap */
} vo_admit_outcome_t;


/* What a client is told; the same bytes on every replay. */
typedef struct {
    vo_admit_outcome_t  outcome;
    char                job_id[VO_JOB_ID_LEN + 1];
    int64_t             created_at;
    int64_t             expires_at;
} vo_receipt_t;


/*
 * Looks for a live receipt of (tenant, key) without taking the write lock.
 * Receipts never change once committed, so a hit is final: REPLAYED or
 * MISMATCH.  A miss (VO_ADMIT_NONE) must be confirmed by vo_ledger_admit
 * or vo_ledger_admit_batch.
 */
vo_ledger_rc_t vo_ledger_lookup(vo_ledger_t *l, const vo_admission_t *a,
    vo_receipt_t *r, char *err, size_t err_size);

/*
 * The admission transaction: BEGIN, find the receipt of (tenant, key) or
 * insert it with a new job, compare digests, COMMIT.
 * The caller has made the input durable at a->input_path beforehand and
 * removes it when the outcome is not CREATED or the call fails.
 * An expired receipt is deleted and the request admitted as new intent.
 */
vo_ledger_rc_t vo_ledger_admit(vo_ledger_t *l, const vo_admission_t *a,
    vo_receipt_t *r, char *err, size_t err_size);


/* The most admissions one batch may hold. */
#define VO_ADMIT_BATCH_MAX  256


/*
 * One admission of a batch, and what became of it.  in_doubt: the
 * batch's COMMIT failed on a server that may have committed it all the
 * same (PostgreSQL shut down or the connection lost as the COMMIT was
 * answered); rc is BUSY, and the caller keeps the upload the admission
 * names: a retry finds the receipt or admits anew, and the janitor
 * removes an upload that no job names (invariant 4).
 */
typedef struct {
    const vo_admission_t  *admission;
    vo_receipt_t          *receipt;
    vo_ledger_rc_t         rc;
    int                    in_doubt;
    char                  *err;
    size_t                 err_size;
} vo_admit_item_t;

/*
 * Group commit: the admissions of n items (at most VO_ADMIT_BATCH_MAX)
 * in ONE transaction (one WAL fsync for all), each in a savepoint so
 * that an item's failure leaves the others.  Every item gets its own rc
 * and receipt; if the transaction itself fails (busy, disk full at
 * COMMIT), every item gets that error and nothing of the batch is
 * committed.  Returns the transaction's outcome.  Items with the same
 * (tenant, key) are admitted in order: the first creates, the next see
 * its receipt.
 */
vo_ledger_rc_t vo_ledger_admit_batch(vo_ledger_t *l, vo_admit_item_t **items,
    size_t n);


/*
 * Renders the status document of job_id as tenant sees it (see
 * docs/http-api.md).  NOT_FOUND for unknown ids and for other tenants'
 * jobs alike; GONE for a job the retention removed whose receipt (of
 * this tenant) still names it.
 */
vo_ledger_rc_t vo_ledger_job_status(vo_ledger_t *l, const char *tenant,
    size_t tenant_len, const char *job_id, vo_buf_t *out, char *err,
    size_t err_size);


/*
 * DELETE of a job by its tenant: an unfinished job is cancelled (a worker
 * on it is fenced out at its next write), its frames and results are
 * deleted and the job is marked deleted; the receipt stays, so a retry
 * of the same key is answered and starts no new work.  An audit event
 * records it.  On success *input is set to the stored input to remove
 * (relative to the store; "" if the media was already gone) and the
 * job's status document is rendered into out.  Deleting twice is not an
 * error.  NOT_FOUND for unknown ids and other tenants' jobs; GONE as for
 * the status.
 */
vo_ledger_rc_t vo_ledger_delete_job(vo_ledger_t *l, const char *tenant,
    size_t tenant_len, const char *job_id, int64_t now_ms, char *input,
    size_t input_size, vo_buf_t *out, char *err, size_t err_size);


/*
 * The ledger's metrics in the Prometheus text format, appended to b
 * (docs/operations.md).  Cheap: reads a few dozen rows the schema's
 * triggers keep current, never a scan of jobs or events.
 */
vo_ledger_rc_t vo_ledger_metrics(vo_ledger_t *l, int64_t now_ms, vo_buf_t *b,
    char *err, size_t err_size);


/*
 * Search (vo_ledger_search.c; docs/http-api.md, "Search"): the segments
 * of tenant's published results that q matches, best first (q's tiers,
 * then newest first), from q's cursor on, at most q->limit, rendered as
 * the reply ({"hits":[...],"jobs":{...},"next":...}) into out; *hits
 * says how many.  A read: one snapshot, no write lock.  Only the
 * tenant's jobs are ever found (the index is ranged by tenant).
 */
vo_ledger_rc_t vo_ledger_search(vo_ledger_t *l, const char *tenant,
    size_t tenant_len, const vo_query_t *q, vo_buf_t *out, int *hits,
    char *err, size_t err_size);


/*
 * One published output of a done job: format is "json", "vtt", "srt" or
 * "txt".  NOT_FOUND and GONE as for the status; NOT_READY when the job
 * has no result, with its state copied to state.
 */
vo_ledger_rc_t vo_ledger_job_result(vo_ledger_t *l, const char *tenant,
    size_t tenant_len, const char *job_id, const char *format, vo_buf_t *out,
    char *state, size_t state_size, char *err, size_t err_size);


/*
 * The worker's side (vo_ledger_worker.c).  Every function that writes for
 * a claimed job takes the attempt it was claimed with and writes only if
 * the job is still running under that attempt; otherwise it changes
 * nothing, records a stale_write event and returns VO_LEDGER_STALE.
 */

#define VO_OPTIONS_MAX     256
#define VO_KEY_BUF         256
#define VO_INPUT_PATH_MAX  64


typedef struct {
    char         job_id[VO_JOB_ID_LEN + 1];
    char         tenant[VO_TENANT_MAX + 1];
    int          attempt;          /* the fencing token */
    int          failures;
    int          max_attempts;
    int          takeover;         /* claimed from an expired lease */
    char         options[VO_OPTIONS_MAX];
    char         input_path[VO_INPUT_PATH_MAX];
    int64_t      input_size;
    char         container[16];
    int64_t      created_at;
    char         key[VO_KEY_BUF];      /* Idempotency-Key (a part: its
                                          job's), "" if none: for the
                                          keyed hash in logs only */

    /* a part of a long job (sql/schema.sql, PARTS); parent_id "": the
     * claim is a job, read whole or split by this claim */
    char         parent_id[VO_JOB_ID_LEN + 1];
    int          part;
    uint32_t     first_sample;
    uint32_t     end_sample;
} vo_claim_t;


typedef struct {
    int64_t      frame_index;
    int64_t      pts_ms;
    char        *text;
    double       confidence;       /* 0..100 */
    int64_t      reused_from;      /* frame whose text was reused, or -1 */
    unsigned     flags;            /* the worker's, stored as they are */
    int          box[4];           /* x, y, w, h: where its text is, in
                                      pixels of the picture as shown;
                                      w = 0: not known (NULL columns) */
    int          lines;            /* lines of text in the box */
    char        *parts;            /* NULL, or where each part of the text
                                      is (the worker's vw_parts.h), stored
                                      as it is */
} vo_frame_row_t;


/*
 * What an attempt did, written into the event that ends it (published,
 * retried, failed, rejected, released, lost): the metrics sum them.
 */
typedef struct {
    const char  *step;             /* where it ended: start, inspect, plan,
                                      ocr, publish */
    uint32_t     frames;           /* frame rows this attempt stored */
    uint32_t     ocr_calls;
    uint32_t     reused;           /* frames that took a reference's text */
    int64_t      ocr_ms;
    int64_t      ms;               /* since the claim */
    int64_t      claim_ms;         /* what the claim took, -1:
                                      not measured */
    const char  *warning;          /* published: the result's first
                                      warning ("text_unreadable") or
                                      NULL; the event's code, so the
                                      metrics count done jobs by it */
} vo_attempt_stats_t;


typedef struct {
    const char  *format;           /* json, vtt, srt, txt */
    const char  *body;
    size_t       len;
} vo_result_body_t;


/*
 * How claims share the pool between tenants (sql/schema.sql,
 * "claims"): round-robin over the tenants with claimable work, a
 * tenant's turn lasting its weight in claims (1 unless listed), and at
 * most max_running running jobs per tenant (0: no cap).
 */
typedef struct {
    const char  *tenant;
    int          weight;           /* 1..1000 */
} vo_tenant_weight_t;

typedef struct {
    int                        max_running;
    const vo_tenant_weight_t  *weights;
    size_t                     nweights;
} vo_claim_policy_t;


/*
 * Claims a job for owner (vo_ledger_claim.c): first a running job whose
 * lease expired (a takeover, which counts the lost attempt as a failure;
 * a job out of attempts is failed instead), else the oldest claimable
 * job of the tenant whose turn it is (policy NULL: plain round-robin, no
 * cap).  Index probes only: the cost does not grow with the backlog.
 * NOT_FOUND when there is nothing to do.
 */
vo_ledger_rc_t vo_ledger_claim(vo_ledger_t *l, const char *owner,
    int64_t now_ms, int64_t lease_ms, const vo_claim_policy_t *policy,
    vo_claim_t *c, char *err, size_t err_size);

/* Extends the lease of a claimed job to now + lease_ms. */
vo_ledger_rc_t vo_ledger_heartbeat(vo_ledger_t *l, const vo_claim_t *c,
    int64_t now_ms, int64_t lease_ms, char *err, size_t err_size);

/* Records the frame plan and the media inspection (JSON). */
vo_ledger_rc_t vo_ledger_set_plan(vo_ledger_t *l, const vo_claim_t *c,
    int plan_version, int64_t frames_planned, const char *inspection,
    int64_t now_ms, int64_t lease_ms, char *err, size_t err_size);

/*
 * Stores one frame's text (kept if a row for that frame exists already:
 * a frame is read once), updates progress and extends the lease.
 */
vo_ledger_rc_t vo_ledger_put_frame(vo_ledger_t *l, const vo_claim_t *c,
    int plan_version, const vo_frame_row_t *f, int64_t now_ms,
    int64_t lease_ms, char *err, size_t err_size);

/* The frame rows of a job and plan, in frame order; free with
 * vo_ledger_free_frames. */
vo_ledger_rc_t vo_ledger_frames(vo_ledger_t *l, const char *job_id,
    int plan_version, vo_frame_row_t **rows, size_t *n, char *err,
    size_t err_size);
void vo_ledger_free_frames(vo_frame_row_t *rows, size_t n);

/*
 * Long videos in parts (vo_ledger_parts.c; sql/schema.sql, PARTS).
 */

typedef struct {
    char         job_id[VO_JOB_ID_LEN + 1];
    int          part;
    uint32_t     first_sample;
    uint32_t     end_sample;
    int          done;
    int64_t      seam_index;       /* done: where part seam_part takes */
    int          seam_part;        /* over; -1: its rows to the end */
} vo_part_t;

/* renders the result of rows (n of them, the job's in frame order) into
 * bodies (room for VO_RESULT_FORMATS; *nbodies set, each valid until
 * the call that called it returns); *warning as vo_attempt_stats_t's;
 * 0, or -1 (err filled) */
#define VO_RESULT_FORMATS  5

typedef int (*vo_render_pt)(void *data, const vo_frame_row_t *rows,
    size_t n, vo_result_body_t *bodies, size_t *nbodies,
    const char **warning, char *err, size_t err_size);

/*
 * The claimed job c is read as parts (fenced): firsts[k] is the first
 * sample of part k, samples the job's; the parts are inserted as jobs of
 * their own (the last one claimable first), and the job keeps running
 * with no lease until they are done.
 */
vo_ledger_rc_t vo_ledger_split(vo_ledger_t *l, const vo_claim_t *c,
    const uint32_t *firsts, size_t nparts, uint32_t samples, int64_t now_ms,
    char *err, size_t err_size);

/* The parts of job parent_id, part k at [k] (*parts: free()); none: *n 0;
 * a part missing: VO_LEDGER_ERROR. */
vo_ledger_rc_t vo_ledger_parts(vo_ledger_t *l, const char *parent_id,
    vo_part_t **parts, size_t *n, char *err, size_t err_size);

/* The frame rows of a job and plan with lo <= frame_index < hi. */
vo_ledger_rc_t vo_ledger_frames_range(vo_ledger_t *l, const char *job_id,
    int plan_version, int64_t lo, int64_t hi, vo_frame_row_t **rows,
    size_t *n, char *err, size_t err_size);

/*
 * The claimed part c is done (fenced): seam_index is the frame index from
 * which the rows of part seam_part (a later one) are the job's, -1 when
 * this part's are to the end.  If it was the job's last part undone, in
 * the same transaction: the parts' rows are joined into the job's at their
 * seams, render makes the result of them, and the job is published as
 * vo_ledger_publish does (invariants 7, 10, 15) unless it stopped
 * running; its parts are deleted.  *published says whether it was.
 */
vo_ledger_rc_t vo_ledger_part_done(vo_ledger_t *l, const vo_claim_t *c,
    int plan_version, int64_t seam_index, int seam_part, vo_render_pt render,
    void *data,
    const vo_attempt_stats_t *st, int64_t now_ms, int *published, char *err,
    size_t err_size);

/* Publishes the result in every format and moves the job to done. */
vo_ledger_rc_t vo_ledger_publish(vo_ledger_t *l, const vo_claim_t *c,
    const vo_result_body_t *bodies, size_t n, const vo_attempt_stats_t *st,
    int64_t now_ms, char *err, size_t err_size);

/*
 * A transient failure: counts it, and puts the job back for another
 * attempt after not_before_ms, or fails it when no attempts are left
 * (*failed is then set).
 */
vo_ledger_rc_t vo_ledger_retry(vo_ledger_t *l, const vo_claim_t *c,
    const char *code, const char *message, const vo_attempt_stats_t *st,
    int64_t now_ms, int64_t not_before_ms, int *failed, char *err,
    size_t err_size);

/* Invalid media: the job ends rejected with a reason a user can act on. */
vo_ledger_rc_t vo_ledger_reject(vo_ledger_t *l, const vo_claim_t *c,
    const char *code, const char *message, const vo_attempt_stats_t *st,
    int64_t now_ms, char *err, size_t err_size);

/* Gives the job back untouched (the worker is stopping): no failure. */
vo_ledger_rc_t vo_ledger_release(vo_ledger_t *l, const vo_claim_t *c,
    const vo_attempt_stats_t *st, int64_t now_ms, char *err,
    size_t err_size);

/*
 * The attempt lost the job (another attempt holds it, or it was
 * cancelled): records what it did, as an event only; it changes nothing
 * of the job.
 */
vo_ledger_rc_t vo_ledger_lost(vo_ledger_t *l, const vo_claim_t *c,
    const vo_attempt_stats_t *st, int64_t now_ms, char *err,
    size_t err_size);


/*
 * The janitor's side (vo_ledger_janitor.c).
 */

typedef struct {
    char         job_id[VO_JOB_ID_LEN + 1];
    char         input_path[VO_INPUT_PATH_MAX];
    int64_t      input_size;
} vo_media_t;


typedef enum {
    VO_MEDIA_NO_JOB = 0,           /* no job has this id */
    VO_MEDIA_LIVE,                 /* the job's input is kept */
    VO_MEDIA_DELETED               /* the job's input should be gone */
} vo_media_state_e;


/*
 * Forgets up to limit receipts whose expires_at has passed (the same key
 * is new intent from then on); *n says how many, an event records it.
 */
vo_ledger_rc_t vo_ledger_expire_receipts(vo_ledger_t *l, int64_t now_ms,
    int limit, int *n, char *err, size_t err_size);

/* Finished jobs (done, failed, rejected, cancelled) whose media is due:
 * finished at or before before_ms, input not yet deleted. */
vo_ledger_rc_t vo_ledger_media_due(vo_ledger_t *l, int64_t before_ms,
    vo_media_t *rows, size_t max, size_t *n, char *err, size_t err_size);

/* After the input file is gone: frame rows deleted, the job marked, an
 * event with the bytes freed. */
vo_ledger_rc_t vo_ledger_media_deleted(vo_ledger_t *l, const vo_media_t *m,
    int64_t now_ms, char *err, size_t err_size);

/* For a file found in the store: whether its job keeps it. */
vo_ledger_rc_t vo_ledger_media_of(vo_ledger_t *l, const char *job_id,
    int *state, char *err, size_t err_size);

/*
 * Retention (vo_ledger_janitor.c; the RETENTION section of
 * sql/schema.sql).  Each call is one short transaction that deletes at
 * most limit rows (jobs, for vo_ledger_retain_jobs) that are due, adds
 * what it deleted to *st, records it in a "retention" event (an audit
 * kind; the metrics count the rows) and sets *more when more may be due:
 * the janitor calls again until it is 0, between other writers.
 */

typedef struct {
    int64_t      frames;           /* frame rows */
    int64_t      jobs;
    int64_t      results;          /* result rows (one per format) */
    int64_t      notifications;    /* delivered or failed ones, with
                                      their attempts */
    int64_t      events;
} vo_retention_stats_t;

/* The frame rows of done jobs finished at or before before_ms. */
vo_ledger_rc_t vo_ledger_retain_frames(vo_ledger_t *l, int64_t before_ms,
    int64_t now_ms, int limit, vo_retention_stats_t *st, int *more,
    char *err, size_t err_size);

/* Jobs finished at or before before_ms whose media is gone and that have
 * no notification waiting (pending or held), with their rows. */
vo_ledger_rc_t vo_ledger_retain_jobs(vo_ledger_t *l, int64_t before_ms,
    int64_t now_ms, int limit, vo_retention_stats_t *st, int *more,
    char *err, size_t err_size);

/* Events at or before before_ms, those of the audit kinds
 * (VO_AUDIT_KINDS) at or before audit_before_ms. */
vo_ledger_rc_t vo_ledger_retain_events(vo_ledger_t *l, int64_t before_ms,
    int64_t audit_before_ms, int64_t now_ms, int limit,
    vo_retention_stats_t *st, int *more, char *err, size_t err_size);

/*
 * Gives free pages back to the filesystem, at most pages of them
 * (SQLite with auto_vacuum INCREMENTAL: PRAGMA incremental_vacuum).
 * *mode is the file's auto_vacuum (0 NONE, 1 FULL, 2 INCREMENTAL; -1
 * for PostgreSQL, whose autovacuum reuses the space of deleted rows),
 * *freed the pages given back, *left the free pages that remain.
 */
vo_ledger_rc_t vo_ledger_reclaim(vo_ledger_t *l, int pages, int *mode,
    int64_t *freed, int64_t *left, char *err, size_t err_size);

/*
 * The per-tenant metrics (nginx's video_ocr_metrics_tenants on), in the
 * Prometheus text format, appended to b: for each tenant with jobs
 * queued or running, how many and the age of the oldest.  One read of
 * tenant_job_counts and an index probe per (tenant, state) listed.
 */
vo_ledger_rc_t vo_ledger_metrics_tenants(vo_ledger_t *l, int64_t now_ms,
    vo_buf_t *b, char *err, size_t err_size);


/*
 * PostgreSQL: folds the rows the metric triggers append (one per change,
 * so that concurrent writers never wait on one counter row) into one row
 * per key, which keeps a metrics scrape short.  SQLite updates its
 * counters in place: nothing to do.
 */
vo_ledger_rc_t vo_ledger_fold_counters(vo_ledger_t *l, char *err,
    size_t err_size);


/*
 * The operator's side (vo_ledger_admin.c).
 */

typedef struct {
    const char  *state;            /* NULL: any */
    const char  *tenant;           /* NULL: any */
    int          stuck;            /* only running jobs past their lease and
                                      accepted jobs waiting too long */
    int64_t      now_ms;
    int64_t      stuck_after_ms;   /* "too long" for accepted jobs */
    int          limit;
} vo_job_filter_t;


typedef struct {
    char         job_id[VO_JOB_ID_LEN + 1];
    char         tenant[VO_TENANT_MAX + 1];
    char         state[16];
    int          attempt;
    int          failures;
    int          max_attempts;
    char         lease_owner[128];
    int64_t      lease_expires_at;  /* -1: none */
    int64_t      frames_done;
    int64_t      frames_planned;    /* -1: not planned yet */
    char         error_code[32];
    int64_t      created_at;
    int64_t      updated_at;        /* the last write: claim, heartbeat... */
    char         parent_id[VO_JOB_ID_LEN + 1];  /* a part's job, or "" */
    int          part;
    int          parts;             /* a job read as parts: how many */
    int          parts_done;
} vo_job_row_t;


typedef int (*vo_job_cb_pt)(void *data, const vo_job_row_t *row);
typedef int (*vo_event_cb_pt)(void *data, int64_t at, const char *kind,
    int attempt, const char *detail);


/* Newest first; cb returns non-zero to stop. */
vo_ledger_rc_t vo_ledger_list_jobs(vo_ledger_t *l, const vo_job_filter_t *f,
    vo_job_cb_pt cb, void *data, char *err, size_t err_size);

/* A job's audit trail, oldest first; NOT_FOUND when it has none. */
vo_ledger_rc_t vo_ledger_list_events(vo_ledger_t *l, const char *job_id,
    vo_event_cb_pt cb, void *data, char *err, size_t err_size);

/*
 * retry: a failed, rejected, running or accepted job (meant for stuck ones:
 * not checked) goes back to accepted with its
 * failures reset (not once its media is deleted).  abandon: an unfinished
 * job ends failed with code "abandoned" and the reason as its message.
 * Both record an event with the reason.  NOT_FOUND for an unknown job,
 * NOT_READY when its state (copied to state) does not allow the action.
 */
vo_ledger_rc_t vo_ledger_operator_retry(vo_ledger_t *l, const char *job_id,
    const char *reason, int64_t now_ms, char *state, size_t state_size,
    char *err, size_t err_size);
vo_ledger_rc_t vo_ledger_operator_abandon(vo_ledger_t *l, const char *job_id,
    const char *reason, int64_t now_ms, char *state, size_t state_size,
    char *err, size_t err_size);


/*
 * Webhooks (vo_ledger_webhooks.c): the deliverer's side of the outbox of
 * sql/schema.sql (invariant 10).  A notification is claimed with a
 * lease, like a job: the claim increments its attempts, which is the
 * token its outcome is recorded under; while claimed it is not due
 * before the lease ends, so a deliverer that dies leaves it to the
 * next claim after the lease, which sends it again with the same
 * webhook-id and body.
 */

typedef struct {
    int64_t      id;
    char         msg_id[VO_WEBHOOK_MSG_ID_LEN + 1];   /* webhook-id */
    char         job_id[VO_JOB_ID_LEN + 1];
    char         tenant[VO_TENANT_MAX + 1];
    char         type[16];
    int          attempt;          /* the fencing token */
    int          round_attempt;    /* 1 for the first since the event or
                                      the operator's redeliver */
    int64_t      endpoint_id;
    char         url[VO_WEBHOOK_URL_MAX + 1];
    char         secret[VO_WEBHOOK_SECRET_BUF];
    char         previous_secret[VO_WEBHOOK_SECRET_BUF];  /* "" if none or
                                                             past its time */
    char        *payload;          /* malloc'd: vo_ledger_delivery_free */
    size_t       payload_len;
    int64_t      created_at;
} vo_delivery_t;


typedef enum {
    VO_DELIVERY_DELIVERED = 0,     /* 2xx */
    VO_DELIVERY_RETRY,             /* again at next_attempt_at */
    VO_DELIVERY_FAILED,            /* the last attempt failed: it stays */
    VO_DELIVERY_GONE               /* 410: the endpoint is disabled */
} vo_delivery_outcome_e;


typedef struct {
    vo_delivery_outcome_e  outcome;
    const char            *reason;      /* 2xx, 4xx, 5xx, 410, redirect,
                                           timeout, connect, address, tls,
                                           dns, ... (a metric label) */
    int                    status;      /* HTTP status, 0: none came */
    int64_t                latency_ms;
    const char            *error;       /* a sentence, NULL on success */
    int64_t                next_attempt_at;   /* RETRY */
} vo_delivery_result_t;


/*
 * Claims the notification due first (pending, next_attempt_at passed,
 * the first attempt first_delay_ms after its creation, and no earlier
 * notification of its job still waiting: in order per job) for owner,
 * until now + lease_ms.  The attempt is recorded as "sending".
 * NOT_FOUND when none is due.
 */
vo_ledger_rc_t vo_ledger_claim_delivery(vo_ledger_t *l, const char *owner,
    int64_t now_ms, int64_t lease_ms, int64_t first_delay_ms,
    vo_delivery_t *d, char *err, size_t err_size);

/*
 * Records how the attempt ended and moves the notification on
 * (delivered, pending again, failed; for GONE the endpoint is disabled
 * and its pending notifications held, with an event).  STALE, with the
 * attempt recorded as such, when another claim holds it now.
 */
vo_ledger_rc_t vo_ledger_delivery_done(vo_ledger_t *l, const vo_delivery_t *d,
    const vo_delivery_result_t *r, int64_t now_ms, char *err,
    size_t err_size);

void vo_ledger_delivery_free(vo_delivery_t *d);


/* The operator's side ("video-ocr-worker webhooks ...",
 * vo_ledger_hooks_admin.c). */

typedef struct {
    int64_t      id;
    char         tenant[VO_TENANT_MAX + 1];
    char         url[VO_WEBHOOK_URL_MAX + 1];
    char         fingerprint[VO_WEBHOOK_FINGERPRINT + 1];  /* the secret's */
    int64_t      previous_until;   /* -1: no previous secret */
    int64_t      disabled_at;      /* -1: enabled */
    char         disabled_reason[256];
    int          is_default;       /* the tenant's "webhooks add" one */
    int64_t      pending;          /* notifications by state */
    int64_t      held;
    int64_t      failed;
} vo_endpoint_row_t;


typedef struct {
    const char  *state;            /* NULL: any */
    const char  *job_id;           /* NULL: any */
    int64_t      endpoint_id;      /* 0: any */
    int          limit;
} vo_notification_filter_t;


typedef struct {
    char         msg_id[VO_WEBHOOK_MSG_ID_LEN + 1];
    char         job_id[VO_JOB_ID_LEN + 1];
    char         type[16];
    char         state[16];
    int64_t      endpoint_id;
    int          attempts;
    int64_t      created_at;
    int64_t      next_attempt_at;
    int64_t      delivered_at;     /* -1: not delivered */
    int          last_status;      /* 0: none */
    char         last_error[256];
} vo_notification_row_t;


typedef int (*vo_endpoint_cb_pt)(void *data, const vo_endpoint_row_t *row);
typedef int (*vo_notification_cb_pt)(void *data,
    const vo_notification_row_t *row);

vo_ledger_rc_t vo_ledger_list_endpoints(vo_ledger_t *l, const char *tenant,
    vo_endpoint_cb_pt cb, void *data, char *err, size_t err_size);
vo_ledger_rc_t vo_ledger_list_notifications(vo_ledger_t *l,
    const vo_notification_filter_t *f, vo_notification_cb_pt cb, void *data,
    char *err, size_t err_size);

/*
 * add: the tenant's endpoint for jobs nginx gave none (NOT_READY when the
 * tenant has one: remove it first); remove: no more such endpoint (what
 * is in the outbox is still delivered); rotate: a new secret, the old one
 * signed with too until now + keep_ms; enable: an endpoint disabled by a
 * 410 takes deliveries again, its held notifications at once.  Each
 * records an audit event.  NOT_FOUND for an unknown tenant or endpoint.
 */
vo_ledger_rc_t vo_ledger_webhook_add(vo_ledger_t *l, const char *tenant,
    const char *url, const char *secret, int64_t now_ms, int64_t *id,
    char *err, size_t err_size);
vo_ledger_rc_t vo_ledger_webhook_remove(vo_ledger_t *l, const char *tenant,
    int64_t now_ms, int64_t *id, char *err, size_t err_size);
vo_ledger_rc_t vo_ledger_webhook_rotate(vo_ledger_t *l, int64_t id,
    const char *secret, int64_t keep_ms, int64_t now_ms, char *err,
    size_t err_size);
vo_ledger_rc_t vo_ledger_webhook_enable(vo_ledger_t *l, int64_t id,
    int64_t now_ms, int64_t *released, char *err, size_t err_size);

/* The endpoint of a tenant's "webhooks add"; NOT_FOUND when none. */
vo_ledger_rc_t vo_ledger_webhook_default(vo_ledger_t *l, const char *tenant,
    int64_t *id, char *err, size_t err_size);

/*
 * A delivered or failed notification (msg_id), or with msg_id NULL every
 * failed one (of endpoint_id, when not 0), is sent again from its first
 * attempt of a new round, under the same webhook-id.  *n says how many.
 */
vo_ledger_rc_t vo_ledger_redeliver(vo_ledger_t *l, const char *msg_id,
    int64_t endpoint_id, int64_t now_ms, int64_t *n, char *err,
    size_t err_size);


/*
 * Resumable uploads (vo_ledger_upload.c).  An upload resource
 * is a row of uploads and a partial file in the store whose first
 * offset bytes are the acknowledged ones (invariants 11-13 of
 * sql/schema.sql).  Every function scopes by tenant: another tenant's
 * upload is NOT_FOUND, like an unknown one.
 */

#define VO_UPLOAD_STATE_MAX     192
#define VO_UPLOAD_METADATA_MAX  2048    /* tus Upload-Metadata, + NUL */
#define VO_UPLOAD_PARTS_MAX     32      /* partial uploads of a final one */

typedef struct {
    char         upload_id[33];
    char         tenant[VO_TENANT_MAX + 1];
    char         key[VO_KEY_BUF];       /* "" when has_key is 0 */
    int          has_key;
    char         protocol[8];           /* "ietf" or "tus" */
    char         options[VO_OPTIONS_MAX];
    char         filename[256];
    int64_t      offset;
    int64_t      length;                /* -1: not known yet */
    char         sha256_state[VO_UPLOAD_STATE_MAX];
    char         container[16];         /* "" until sniffed */
    int64_t      writer;
    int          completed;
    char         job_id[VO_JOB_ID_LEN + 1];
    char         input_digest[VO_DIGEST_HEX_LEN + 1];
    int64_t      created_at;
    int64_t      updated_at;
    int64_t      expires_at;
    char         metadata[VO_UPLOAD_METADATA_MAX];  /* "": none kept */
    char         concat[8];             /* "", "partial" or "final" */
    char         partial_key[VO_KEY_BUF];   /* a partial's scope, "" none */
    char         parts[VO_UPLOAD_PARTS_MAX * 33];   /* a final's partial
                                                       uploads, by spaces */
} vo_upload_row_t;


typedef enum {
    VO_UPLOAD_CREATED = 0,
    VO_UPLOAD_EXISTS,          /* the key's upload: *row is it */
    VO_UPLOAD_TOO_MANY         /* the tenant has max_open incomplete ones */
} vo_upload_create_e;

/*
 * Creation: the upload of (tenant, key) if there is one (a retried
 * creation), else, when the tenant has fewer than max_open (0: no limit)
 * incomplete uploads, the new row u, with an upload_created event.  The
 * caller made u's (empty) partial file beforehand and removes it unless
 * the outcome is CREATED.  An expired upload of the key is forgotten
 * (*forgot names it, "" otherwise: the caller removes its file).
 */
vo_ledger_rc_t vo_ledger_upload_create(vo_ledger_t *l,
    const vo_upload_row_t *u, int64_t max_open, int64_t now_ms,
    vo_upload_row_t *row, vo_upload_create_e *outcome, char *forgot,
    char *err, size_t err_size);

/* The upload as it is (incomplete ones past their expiry are gone). */
vo_ledger_rc_t vo_ledger_upload_get(vo_ledger_t *l, const char *tenant,
    size_t tenant_len, const char *upload_id, int64_t now_ms,
    vo_upload_row_t *row, char *err, size_t err_size);

/*
 * An append's claim: writer + 1 if the upload is incomplete, live and at
 * offset, which ends any append still running (its token is stale).
 * NOT_READY when it is not (row then holds the upload as it is, to
 * answer 409 with its offset or replay a completed one's receipt).
 */
vo_ledger_rc_t vo_ledger_upload_claim(vo_ledger_t *l, const char *tenant,
    size_t tenant_len, const char *upload_id, int64_t offset,
    int64_t now_ms, vo_upload_row_t *row, char *err, size_t err_size);

/*
 * The append's commit, in three steps around the write of the partial
 * file: lock (PostgreSQL: BEGIN and the row FOR UPDATE; SQLite: a read,
 * the caller holds the file's flock), then advance (the offset, state,
 * length and container, under the writer token and the old offset:
 * STALE when either changed), or unlock to give up.
 */
vo_ledger_rc_t vo_ledger_upload_lock(vo_ledger_t *l, const char *upload_id,
    vo_upload_row_t *row, char *err, size_t err_size);
vo_ledger_rc_t vo_ledger_upload_advance(vo_ledger_t *l,
    const vo_upload_row_t *row, int64_t old_offset, int64_t now_ms,
    int64_t ttl_ms, char *err, size_t err_size);
void vo_ledger_upload_unlock(vo_ledger_t *l);

/*
 * DELETE by its tenant: the row goes (an upload_deleted event for an
 * incomplete one); the caller removes the partial file after.
 */
vo_ledger_rc_t vo_ledger_upload_delete(vo_ledger_t *l, const char *tenant,
    size_t tenant_len, const char *upload_id, int64_t now_ms,
    vo_upload_row_t *row, char *err, size_t err_size);

/*
 * The janitor: up to max uploads past their expires_at, oldest first
 * (ids into ids, 33 bytes each, completed[i] set for completed ones),
 * and forgetting one (an upload_expired event when it was incomplete;
 * nothing when an append moved its expiry meanwhile: *gone is 0).
 */
vo_ledger_rc_t vo_ledger_uploads_due(vo_ledger_t *l, int64_t now_ms,
    char (*ids)[33], int *completed, size_t max, size_t *n, char *err,
    size_t err_size);
vo_ledger_rc_t vo_ledger_upload_expire(vo_ledger_t *l, const char *upload_id,
    int64_t now_ms, int *gone, char *err, size_t err_size);

/* For a partial file found in the store: whether a row names it. */
vo_ledger_rc_t vo_ledger_upload_exists(vo_ledger_t *l, const char *upload_id,
    int *exists, char *err, size_t err_size);


/*
 * tus concatenation (vo_ledger_concat.c, linked by the module only).  A
 * partial upload is an upload like another (concat "partial", no
 * request_key, partial_key its scope) that no admission completes; a
 * final upload (concat "final") names partial uploads in order and its
 * admission takes them (invariant 14 of sql/schema.sql).
 */

typedef enum {
    VO_FINAL_JOIN = 0,         /* *row is the final upload, claimed under
                                  its writer token: join, then admit it */
    VO_FINAL_AGAIN,            /* the key's upload is completed, by other
                                  partial uploads: join these, and the
                                  admission (no upload to complete) says
                                  whether they are the key's bytes */
    VO_FINAL_DONE,             /* the key's final upload of these partial
                                  uploads is completed: *row, its receipt */
    VO_FINAL_KEY_TAKEN,        /* the key names an upload in progress that
                                  is no final upload (422) */
    VO_FINAL_BAD_PART,         /* ids[bad] is not one to join: why */
    VO_FINAL_TOO_LONG          /* the partial uploads sum to more than
                                  max_length */
} vo_upload_final_e;

typedef enum {
    VO_PART_GONE = 0,          /* no such partial upload of the tenant:
                                  expired, deleted, or never made */
    VO_PART_NOT_PARTIAL,       /* made without Upload-Concat: partial */
    VO_PART_OTHER_KEY,         /* made for another Idempotency-Key */
    VO_PART_UNFINISHED         /* some of its bytes have not come */
} vo_upload_part_e;

typedef struct {
    int64_t      length;
    char         sha256_state[VO_UPLOAD_STATE_MAX];    /* of all of it */
} vo_upload_part_t;

/* A final upload's creation: what it names, and what became of it. */
typedef struct {
    char               (*ids)[33];      /* the partial uploads, in order */
    size_t               n;
    int64_t              max_length;    /* 0: no limit */
    vo_upload_part_t    *parts;         /* out: n of them */
    int64_t              length;        /* out: their sum */
    vo_upload_final_e    outcome;       /* out */
    size_t               bad;           /* out, BAD_PART: which */
    vo_upload_part_e     why;           /* out, BAD_PART: why */
    char                 forgot[33];    /* out: an expired upload of the
                                           key, forgotten ("" none): the
                                           caller removes its file */
} vo_upload_final_t;

/*
 * A final upload's creation, in one transaction (u: its row as nginx
 * would make it, concat "final" and parts its partial uploads' ids by
 * spaces, as f->ids has them): the key's upload found
 * (DONE, KEY_TAKEN, AGAIN, or an incomplete final upload made again:
 * claimed, JOIN) or, when there is none, u inserted (JOIN); the partial
 * uploads f->ids checked, each the tenant's, of u's key (its
 * partial_key), whole and live, their lengths and SHA-256 states into
 * f->parts (BAD_PART or TOO_LONG otherwise, nothing written).  u's
 * length is ignored: the final upload's is the sum.  The caller made
 * u's (empty) partial file beforehand and removes it unless the outcome
 * is JOIN of u (row->upload_id is u's).
 */
vo_ledger_rc_t vo_ledger_upload_final(vo_ledger_t *l,
    const vo_upload_row_t *u, int64_t now_ms, vo_upload_final_t *f,
    vo_upload_row_t *row, char *err, size_t err_size);


/*
 * The plan of every statement of the ledger (the statement tables as
 * this backend runs them, and the metrics scrape), appended to out:
 * "-- statement N" and its SQL, then the plan, a line per node
 * (vo_ledger_explain.c says how each backend is asked).  Nothing is
 * executed.  For tests of the plans and for operators.
 */
vo_ledger_rc_t vo_ledger_explain(vo_ledger_t *l, vo_buf_t *out, char *err,
    size_t err_size);


#endif /* _VO_LEDGER_H_INCLUDED_ */
