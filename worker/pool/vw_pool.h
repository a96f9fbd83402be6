/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The supervised worker pool ("video-ocr-worker run"): its configuration
 * and its four kinds of process.  The supervisor
 * (vw_super.c) fork+execs N children ("video-ocr-worker child", the same
 * options plus --slot), one janitor ("video-ocr-worker janitor") and M
 * webhook deliverers ("video-ocr-worker deliverer") and restarts them;
 * each child (vw_child.c) claims jobs from the ledger and runs the
 * pipeline on them; the janitor (vw_janitor.c) expires receipts and
 * deletes media past its retention; a deliverer (vw_deliver.c) sends the
 * outbox's notifications.  Children are
 * exec'd, not just forked, so no SQLite connection, Tesseract engine or
 * library thread ever crosses a fork().
 */

#ifndef _VW_POOL_H_INCLUDED_
#define _VW_POOL_H_INCLUDED_


#include <signal.h>
#include <stdint.h>

#include "vo_ledger.h"
#include "vw_confine.h"
#include "core/vw_plan.h"
#include "vo_webhook.h"


#define VW_ALLOW_MAX  64                 /* blocks of all --webhook-allow */
#define VW_WEIGHTS_MAX  64               /* --tenant-weight options */


/* long videos in parts (sql/schema.sql, PARTS; docs/worker.md): the
 * defaults of --part-seconds and --split-seconds, the shortest part */
#define VW_PART_MS      (150 * 1000)
#define VW_SPLIT_MS     (600 * 1000)
#define VW_PART_MIN_MS  (5 * 1000)


typedef struct {
    const char   *ledger;
    const char   *store;
    int           workers;
    int           slot;              /* child only: 0..workers-1 */
    int64_t       lease_ms;          /* how long a claim lasts unrenewed */
    int64_t       heartbeat_ms;      /* how often a child renews it */
    int64_t       poll_ms;           /* idle wait between claims */
    int64_t       backoff_ms;        /* first retry delay, doubles */
    int64_t       part_ms;           /* a long job's parts (0: none) */
    int64_t       split_ms;          /* a job this long or longer is
                                        read as parts */
    int64_t       grace_ms;          /* SIGTERM to SIGKILL at shutdown */
    int           busy_timeout_ms;
    int           verbose;
    vw_limits_t   limits;            /* media limits, as for "ocr" */
    char         *key_hash_secret;   /* as nginx's video_ocr_key_hash_secret */
    size_t        key_hash_secret_len;

    int           janitor;           /* run the janitor child */
    int           once;              /* janitor: one full pass, then exit */
    int64_t       media_retention_ms;
    int64_t       frame_retention_ms;  /* retention */
    int64_t       job_retention_ms;
    int64_t       event_retention_ms;
    int64_t       audit_retention_ms;
    int64_t       janitor_interval_ms;
    int64_t       orphan_age_ms;     /* store files without a job, older */

    vw_confine_conf_t  confine;      /* user, network, children's limits */

    /* the webhook deliverers (vw_deliver.c) */
    int           deliverers;        /* processes; 0: none on this host */
    vo_cidr_t     webhook_allow[VW_ALLOW_MAX];
    size_t        nwebhook_allow;
    int64_t       webhook_retry[VO_RETRY_MAX];   /* delay before attempt i */
    size_t        nwebhook_retry;
    int64_t       webhook_timeout_ms;
    const char   *webhook_ca_file;

    /* how claims share the pool between tenants */
    vo_tenant_weight_t  tenant_weights[VW_WEIGHTS_MAX];
    vo_claim_policy_t   claim_policy;    /* these weights, and the
                                            running cap (0: none) */
} vw_pool_conf_t;


/*
 * A process of the pool opens its ledger connection (after exec), and
 * while the database does not answer tries again every second, until
 * *stop; who prefixes the log line (vw_pool.c).  NULL with *exit_code
 * set when it gives up: VW_EXIT_CONFIG (a ledger that cannot be used,
 * or a janitor --once) or VW_EXIT_OK (stopped).
 */
vo_ledger_t *vw_pool_ledger(const vw_pool_conf_t *conf, const char *who,
    volatile sig_atomic_t *stop, int *exit_code);

/* The supervisor, the OCR child loop and the janitor. */
int vw_supervise(const vw_pool_conf_t *conf, int argc, char **argv);
int vw_child_main(const vw_pool_conf_t *conf);
int vw_janitor_main(const vw_pool_conf_t *conf);
int vw_deliver_main(const vw_pool_conf_t *conf);


#endif /* _VW_POOL_H_INCLUDED_ */
