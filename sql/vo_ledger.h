/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The ledger: the narrow interface between video-ocr and its database.
 * Everything that speaks SQL lives behind it (sql/vo_ledger*.c), so that
 * another backend can replace SQLite without touching the module or the
 * worker.  The states, transitions and invariants it keeps are written
 * once, in sql/schema.sql.
 *
 * A vo_ledger_t is one database connection with its prepared statements.
 * It belongs to one thread at a time and never crosses fork(): the nginx
 * module opens one per thread-pool thread, lazily, in the worker process;
 * each OCR child opens its own after exec.
 */

#ifndef _VO_LEDGER_H_INCLUDED_
#define _VO_LEDGER_H_INCLUDED_


#include <stddef.h>
#include <stdint.h>

#include "vo_json.h"


#define VO_LEDGER_SCHEMA_VERSION  1
#define VO_DIGEST_HEX_LEN         64


typedef struct vo_ledger_s  vo_ledger_t;


typedef enum {
    VO_LEDGER_OK = 0,
    VO_LEDGER_NOT_FOUND,
    VO_LEDGER_BUSY,            /* locked for longer than busy_timeout */
    VO_LEDGER_FULL,            /* the disk is full */
    VO_LEDGER_ERROR
} vo_ledger_rc_t;


typedef struct {
    int          busy_timeout_ms;
    int          sync_full;    /* synchronous=FULL, else NORMAL */
    int          migrate;      /* create the file and apply the schema */
} vo_ledger_conf_t;


/*
 * Opens path.  With conf->migrate the file is created when missing, put in
 * WAL mode and brought to VO_LEDGER_SCHEMA_VERSION; without it the ledger
 * must already be at that version.  A file that is not a database, has a
 * newer schema or cannot be written is refused with a sentence in err;
 * nothing is ever reset.
 */
vo_ledger_rc_t vo_ledger_open(const char *path, const vo_ledger_conf_t *conf,
    vo_ledger_t **out, char *err, size_t err_size);

void vo_ledger_close(vo_ledger_t *l);


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
} vo_admission_t;


typedef enum {
    VO_ADMIT_NONE = 0,           /* no live receipt (lookup only) */
    VO_ADMIT_CREATED,
    VO_ADMIT_REPLAYED,
    VO_ADMIT_MISMATCH
} vo_admit_outcome_t;


/* What a client is told; the same bytes on every replay. */
typedef struct {
    vo_admit_outcome_t  outcome;
    char                job_id[VO_DIGEST_HEX_LEN / 2 + 1];
    int64_t             created_at;
    int64_t             expires_at;
} vo_receipt_t;


/*
 * Looks for a live receipt of (tenant, key) without taking the write lock.
 * Receipts never change once committed, so a hit is final: REPLAYED or
 * MISMATCH.  A miss (VO_ADMIT_NONE) must be confirmed by vo_ledger_admit.
 */
vo_ledger_rc_t vo_ledger_lookup(vo_ledger_t *l, const vo_admission_t *a,
    vo_receipt_t *r, char *err, size_t err_size);

/*
 * The admission transaction: BEGIN IMMEDIATE, find the receipt of
 * (tenant, key) or insert it with a new job, compare digests, COMMIT.
 * The caller has made the input durable at a->input_path beforehand and
 * removes it when the outcome is not CREATED or the call fails.
 * An expired receipt is deleted and the request admitted as new intent.
 */
vo_ledger_rc_t vo_ledger_admit(vo_ledger_t *l, const vo_admission_t *a,
    vo_receipt_t *r, char *err, size_t err_size);


/*
 * Renders the status document of job_id as tenant sees it (see
 * docs/http-api.md).  NOT_FOUND for unknown ids and for other tenants'
 * jobs alike.
 */
vo_ledger_rc_t vo_ledger_job_status(vo_ledger_t *l, const char *tenant,
    size_t tenant_len, const char *job_id, vo_buf_t *out, char *err,
    size_t err_size);


#endif /* _VO_LEDGER_H_INCLUDED_ */
