/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The ledger's part of the Prometheus metrics: read from the tables the
 * schema's triggers keep current (job_counts, event_counts, counters) and
 * two index probes for the oldest jobs, in one statement, so one short
 * read transaction.  In WAL mode a reader never blocks a writer nor waits
 * for one, and no query here scans jobs or events: a scrape costs the
 * same with ten jobs or ten million.  docs/operations.md describes every
 * metric.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vo_ledger.h"
#include "vo_ledger_int.h"


#define VO_METRIC_ROWS  512


typedef struct {
    char         what[8];     /* state, event, counter, oldest */
    char         name[40];    /* the state, event kind or counter */
    char         code[48];    /* events: the reason or op */
    char         step[24];    /* events: the step an attempt ended in */
    int64_t      value;
    int          null;
} vo_metric_row_t;


typedef struct {
    vo_metric_row_t  rows[VO_METRIC_ROWS];
    int              n;
} vo_metric_rows_t;


/* sums per key: PostgreSQL's triggers append rows (sql/schema_pg.sql);
 * also explained by vo_ledger_explain.c */
const char *const  vo_ledger_metrics_sql =
    "SELECT 'state', state, '', '', sum(jobs) FROM job_counts GROUP BY state"
    " UNION ALL SELECT 'event', kind, code, step, sum(events)"
    " FROM event_counts GROUP BY kind, code, step"
    " UNION ALL SELECT 'counter', name, '', '', sum(value) FROM counters"
    " GROUP BY name"
    " UNION ALL SELECT 'oldest', 'accepted', '', '',"
    " (SELECT min(created_at) FROM jobs WHERE state = 'accepted')"
    " UNION ALL SELECT 'oldest', 'running', '', '',"
    " (SELECT min(created_at) FROM jobs WHERE state = 'running')"
    /* an index probe (notifications_waiting), a small table */
    " UNION ALL SELECT 'hook', 'oldest', '', '',"
    " (SELECT min(created_at) FROM notifications"
    " WHERE state IN ('pending', 'held'))"
    " UNION ALL SELECT 'hook', 'disabled', '', '',"
    " (SELECT count(*) FROM webhook_endpoints WHERE disabled_at IS NOT NULL)";


static const char  *vo_job_states[] = {
    "accepted", "running", "done", "failed", "rejected", "cancelled", NULL
};

/* the events that end an attempt, and the outcome label they give (a
 * long job's first attempt ends in split; a part's in part_done, or
 * part_failed / part_rejected when its job fails or is rejected with it) */
static const char  *vo_attempt_ends[] = {
    "published", "retried", "failed", "rejected", "released", "lost",
    "split", "part_done", "part_failed", "part_rejected", NULL
};


static int64_t vo_metrics_sum(const vo_metric_rows_t *m, const char *what,
    const char *name);
static void vo_metrics_head(vo_buf_t *b, const char *name, const char *type,
    const char *help);
static void vo_metrics_label(vo_buf_t *b, const char *s);
static void vo_metrics_finished(vo_buf_t *b, const vo_metric_rows_t *m);
static void vo_metrics_sums(vo_buf_t *b, const vo_metric_rows_t *m);
static void vo_metrics_webhooks(vo_buf_t *b, const vo_metric_rows_t *m,
    int64_t now_ms);
static void vo_metrics_uploads(vo_buf_t *b, const vo_metric_rows_t *m);
static void vo_metrics_retention(vo_buf_t *b, const vo_metric_rows_t *m);


vo_ledger_rc_t
vo_ledger_metrics(vo_ledger_t *l, int64_t now_ms, vo_buf_t *b, char *err,
    size_t err_size)
{
    int                i, k, rc;
    vo_stmt_t         *s;
    vo_metric_row_t   *r;
    vo_metric_rows_t  *m;

    m = calloc(1, sizeof(vo_metric_rows_t));
    if (m == NULL) {
        snprintf(err, err_size, "metrics: out of memory");
        return VO_LEDGER_ERROR;
    }

    s = vo_ledger_prepare(l, vo_ledger_metrics_sql, err, err_size);
    if (s == NULL) {
        free(m);
        return VO_LEDGER_ERROR;
    }

    while ((rc = vo_step(s)) == VO_ROW && m->n < VO_METRIC_ROWS) {
        r = &m->rows[m->n++];

        for (k = 0; k < 4; k++) {
            const char  *v = (const char *) vo_column_text(s, k);
            char        *d[] = { r->what, r->name, r->code, r->step };
            size_t       z[] = { sizeof(r->what), sizeof(r->name),
                                 sizeof(r->code), sizeof(r->step) };

            snprintf(d[k], z[k], "%s", v ? v : "");
        }

        r->null = vo_column_null(s, 4);
        r->value = vo_column_int64(s, 4);
    }

    if (rc != VO_ROW && rc != VO_DONE) {
        snprintf(err, err_size, "metrics: %s", vo_ledger_errmsg(l));
        vo_stmt_finalize(s);
        free(m);
        return vo_ledger_rc(rc);
    }

    vo_stmt_finalize(s);

    vo_metrics_head(b, "video_ocr_jobs", "gauge",
                    "Jobs in the ledger by state.");

    for (k = 0; vo_job_states[k] != NULL; k++) {
        vo_buf_printf(b, "video_ocr_jobs{state=\"%s\"} %lld\n",
                      vo_job_states[k],
                      (long long) vo_metrics_sum(m, "state",
                                                 vo_job_states[k]));
    }

    vo_metrics_head(b, "video_ocr_queue_depth", "gauge",
                    "Jobs waiting for a worker (accepted, including those "
                    "waiting out a retry backoff).");
    vo_buf_printf(b, "video_ocr_queue_depth %lld\n",
                  (long long) vo_metrics_sum(m, "state", "accepted"));

    vo_metrics_head(b, "video_ocr_oldest_job_age_seconds", "gauge",
                    "Age of the oldest job in a state, 0 when there is "
                    "none.");

    for (i = 0; i < m->n; i++) {
        r = &m->rows[i];

        if (strcmp(r->what, "oldest") == 0) {
            vo_buf_printf(b, "video_ocr_oldest_job_age_seconds{state=\"%s\"} "
                          "%.3f\n", r->name,
                          r->null ? 0.0 : (double) (now_ms - r->value) / 1000);
        }
    }

    vo_metrics_head(b, "video_ocr_receipts", "gauge",
                    "Receipts kept for Idempotency-Keys (not yet expired).");
    vo_buf_printf(b, "video_ocr_receipts %lld\n",
                  (long long) vo_metrics_sum(m, "counter", "receipts"));

    vo_metrics_head(b, "video_ocr_jobs_created_total", "counter",
                    "Jobs created by admissions.");
    vo_buf_printf(b, "video_ocr_jobs_created_total %lld\n",
                  (long long) vo_metrics_sum(m, "event", "admitted"));

    vo_metrics_finished(b, m);
    vo_metrics_uploads(b, m);

    vo_metrics_head(b, "video_ocr_attempts_total", "counter",
                    "Worker attempts by how they ended and the step they "
                    "ended in.");

    for (k = 0; vo_attempt_ends[k] != NULL; k++) {
        for (i = 0; i < m->n; i++) {
            r = &m->rows[i];

            if (strcmp(r->what, "event") != 0
                || strcmp(r->name, vo_attempt_ends[k]) != 0)
            {
                continue;
            }

            vo_buf_printf(b, "video_ocr_attempts_total{outcome=\"%s\","
                          "step=\"", vo_attempt_ends[k]);
            vo_metrics_label(b, r->step);
            vo_buf_printf(b, "\"} %lld\n", (long long) r->value);
        }
    }

    vo_metrics_head(b, "video_ocr_lease_takeovers_total", "counter",
                    "Jobs claimed from an attempt whose lease had expired.");
    vo_buf_printf(b, "video_ocr_lease_takeovers_total %lld\n",
                  (long long) vo_metrics_sum(m, "event", "taken_over"));

    /* long videos in parts (sql/schema.sql, PARTS) */
    vo_metrics_head(b, "video_ocr_jobs_split_total", "counter",
                    "Jobs read as parts, split at their first claim.");
    vo_buf_printf(b, "video_ocr_jobs_split_total %lld\n",
                  (long long) vo_metrics_sum(m, "event", "split"));

    vo_metrics_head(b, "video_ocr_parts_total", "counter",
                    "Parts of long jobs by event: claimed, reclaimed "
                    "(taken over from an expired lease), finished, and "
                    "failed (out of attempts, or rejected).");
    vo_buf_printf(b, "video_ocr_parts_total{event=\"claimed\"} %lld\n",
                  (long long) vo_metrics_sum(m, "event", "part_claimed"));
    vo_buf_printf(b, "video_ocr_parts_total{event=\"reclaimed\"} %lld\n",
                  (long long) vo_metrics_sum(m, "event", "part_taken_over"));
    vo_buf_printf(b, "video_ocr_parts_total{event=\"finished\"} %lld\n",
                  (long long) vo_metrics_sum(m, "event", "part_done"));
    vo_buf_printf(b, "video_ocr_parts_total{event=\"failed\"} %lld\n",
                  (long long) (vo_metrics_sum(m, "event", "part_failed")
                               + vo_metrics_sum(m, "event",
                                                "part_rejected")));

    vo_metrics_head(b, "video_ocr_stale_writes_total", "counter",
                    "Writes refused because the attempt no longer held the "
                    "job, by operation.");

    for (i = 0; i < m->n; i++) {
        r = &m->rows[i];

        if (strcmp(r->what, "event") == 0
            && strcmp(r->name, "stale_write") == 0)
        {
            vo_buf_adds(b, "video_ocr_stale_writes_total{op=\"");
            vo_metrics_label(b, r->code);
            vo_buf_printf(b, "\"} %lld\n", (long long) r->value);
        }
    }

    vo_metrics_sums(b, m);
    vo_metrics_webhooks(b, m, now_ms);
    vo_metrics_retention(b, m);

    free(m);

    if (!vo_buf_ok(b)) {
        snprintf(err, err_size, "metrics: out of memory");
        return VO_LEDGER_ERROR;
    }

    return VO_LEDGER_OK;
}


/* Terminal states reached, by state and reason (the event's code). */

static void
vo_metrics_finished(vo_buf_t *b, const vo_metric_rows_t *m)
{
    int                     i, k;
    const vo_metric_row_t  *r;

    static const char  *kinds[][2] = {
        { "published", "done" }, { "failed", "failed" },
        { "rejected", "rejected" }, { "cancelled", "cancelled" },
        { NULL, NULL }
    };

    vo_metrics_head(b, "video_ocr_jobs_finished_total", "counter",
                    "Jobs that reached a terminal state, by state and "
                    "reason.");

    for (k = 0; kinds[k][0] != NULL; k++) {
        for (i = 0; i < m->n; i++) {
            r = &m->rows[i];

            if (strcmp(r->what, "event") != 0
                || strcmp(r->name, kinds[k][0]) != 0)
            {
                continue;
            }

            vo_buf_printf(b, "video_ocr_jobs_finished_total{state=\"%s\","
                          "reason=\"", kinds[k][1]);
            vo_metrics_label(b, r->code);
            vo_buf_printf(b, "\"} %lld\n", (long long) r->value);
        }
    }
}


/*
 * Resumable uploads, from their events: how many were
 * created, completed, deleted and expired, and so how many are open.
 */

static void
vo_metrics_uploads(vo_buf_t *b, const vo_metric_rows_t *m)
{
    int      k;
    int64_t  v[6];

    static const char  *kinds[] = {
        "upload_created", "upload_completed", "upload_deleted",
        "upload_expired", "upload_refused", "upload_joined"
    };

    vo_metrics_head(b, "video_ocr_uploads_total", "counter",
                    "Resumable uploads by what became of them: created, "
                    "completed (admitted as a job), deleted (by their "
                    "tenant, or not a video), expired (the janitor removed "
                    "them), refused (422: the key belongs to other bytes), "
                    "joined (a partial upload taken by its final upload).");

    for (k = 0; k < 6; k++) {
        v[k] = vo_metrics_sum(m, "event", kinds[k]);
        vo_buf_printf(b, "video_ocr_uploads_total{outcome=\"%s\"} %lld\n",
                      kinds[k] + 7, (long long) v[k]);
    }

    vo_metrics_head(b, "video_ocr_uploads_open", "gauge",
                    "Resumable uploads not completed, deleted, expired or "
                    "refused yet.");
    vo_buf_printf(b, "video_ocr_uploads_open %lld\n",
                  (long long) (v[0] - v[1] - v[2] - v[3] - v[4] - v[5]));
}


/* The sums the counters table keeps. */

static void
vo_metrics_sums(vo_buf_t *b, const vo_metric_rows_t *m)
{
    int      k;
    int64_t  v;

    static const struct {
        const char  *counter;
        const char  *metric;
        const char  *labels;
        int          ms;          /* a time in ms, shown in seconds */
        const char  *help;        /* NULL: same metric as the one above */
    } sums[] = {
        { "ocr_calls", "video_ocr_ocr_calls_total", "", 0,
          "Frames sent to Tesseract by attempts that ended (a crashed "
          "attempt's are not counted)." },
        { "reused", "video_ocr_frames_reused_total", "", 0,
          "Frames that took the text of a near-identical frame instead of "
          "an OCR call." },
        { "frames", "video_ocr_frames_stored_total", "", 0,
          "Frame rows stored by attempts that ended." },
        { "ocr_ms", "video_ocr_ocr_seconds_total", "", 1,
          "Time spent in Tesseract by attempts that ended." },
        { "input_bytes", "video_ocr_artifact_bytes_total",
          "{class=\"input\"}", 0, "Bytes stored, by artifact class." },
        { "frame_bytes", "video_ocr_artifact_bytes_total",
          "{class=\"frame\"}", 0, NULL },
        { "result_bytes", "video_ocr_artifact_bytes_total",
          "{class=\"result\"}", 0, NULL },
        { "receipts_expired", "video_ocr_receipts_expired_total", "", 0,
          "Receipts the janitor removed after video_ocr_receipt_ttl." },
        { "media_jobs", "video_ocr_media_deleted_jobs_total", "", 0,
          "Jobs whose stored input and frames were deleted, by the media "
          "retention or a DELETE." },
        { "media_bytes", "video_ocr_media_deleted_bytes_total", "", 0,
          "Bytes of stored inputs deleted." },
        { NULL, NULL, NULL, 0, NULL }
    };

    for (k = 0; sums[k].counter != NULL; k++) {

        if (sums[k].help != NULL) {
            vo_metrics_head(b, sums[k].metric, "counter", sums[k].help);
        }

        v = vo_metrics_sum(m, "counter", sums[k].counter);

        if (sums[k].ms) {
            vo_buf_printf(b, "%s%s %.3f\n", sums[k].metric, sums[k].labels,
                          (double) v / 1000);

        } else {
            vo_buf_printf(b, "%s%s %lld\n", sums[k].metric, sums[k].labels,
                          (long long) v);
        }
    }
}


/*
 * Issue 16: the outbox, from the counters its triggers keep
 * ("webhook_...", sql/schema.sql) and the two probes above.
 */

static void
vo_metrics_webhooks(vo_buf_t *b, const vo_metric_rows_t *m, int64_t now_ms)
{
    int                     i, k, t;
    char                    name[48];
    int64_t                 v;
    const char             *p;
    const vo_metric_row_t  *r;

    static const char  *types[] = { "job.accepted", "job.done", "job.failed",
                                    "job.rejected", "job.cancelled", NULL };
    static const char  *states[] = { "pending", "held", "failed", NULL };
    static const struct {
        const char  *counter;
        const char  *metric;
        const char  *help;
    } totals[] = {
        { "webhook_delivered", "video_ocr_webhook_delivered_total",
          "Notifications delivered (a 2xx answer), by event type." },
        { "webhook_retried", "video_ocr_webhook_retried_total",
          "Attempts that failed and were scheduled again, by event type." },
        { "webhook_failed", "video_ocr_webhook_failed_total",
          "Notifications that failed their last attempt, by event type." },
        { NULL, NULL, NULL }
    };
    static const int  buckets[] = { 50, 100, 250, 500, 1000, 2500, 5000,
                                    10000, 15000, 30000, 0 };

    vo_metrics_head(b, "video_ocr_webhook_notifications", "gauge",
                    "Notifications in the outbox by state (pending: to be "
                    "sent; held: their endpoint is disabled; failed: their "
                    "attempts ran out) and event type.");

    for (k = 0; states[k] != NULL; k++) {
        for (t = 0; types[t] != NULL; t++) {
            snprintf(name, sizeof(name), "webhook_state:%s:%s", states[k],
                     types[t]);
            vo_buf_printf(b, "video_ocr_webhook_notifications{state=\"%s\","
                          "type=\"%s\"} %lld\n", states[k], types[t],
                          (long long) vo_metrics_sum(m, "counter", name));
        }
    }

    for (k = 0; totals[k].counter != NULL; k++) {
        vo_metrics_head(b, totals[k].metric, "counter", totals[k].help);

        for (t = 0; types[t] != NULL; t++) {
            snprintf(name, sizeof(name), "%s:%s", totals[k].counter,
                     types[t]);
            vo_buf_printf(b, "%s{type=\"%s\"} %lld\n", totals[k].metric,
                          types[t],
                          (long long) vo_metrics_sum(m, "counter", name));
        }
    }

    vo_metrics_head(b, "video_ocr_webhook_attempts_total", "counter",
                    "Delivery attempts by how they ended: 2xx, 3xx "
                    "(redirect), 4xx, 410, 5xx, timeout, connect, dns, tls, "
                    "address (refused by the SSRF rule), too_large, ...");

    for (i = 0; i < m->n; i++) {
        r = &m->rows[i];

        if (strcmp(r->what, "counter") == 0
            && strncmp(r->name, "webhook_attempts:", 17) == 0)
        {
            vo_buf_adds(b, "video_ocr_webhook_attempts_total{reason=\"");
            vo_metrics_label(b, r->name + 17);
            vo_buf_printf(b, "\"} %lld\n", (long long) r->value);
        }
    }

    vo_metrics_head(b, "video_ocr_webhook_delivery_seconds", "histogram",
                    "Time of a delivery attempt that got to the receiver or "
                    "timed out, request sent to answer read.");

    for (k = 0; buckets[k] != 0; k++) {
        snprintf(name, sizeof(name), "webhook_latency_le:%d", buckets[k]);
        vo_buf_printf(b, "video_ocr_webhook_delivery_seconds_bucket"
                      "{le=\"%g\"} %lld\n", buckets[k] / 1000.0,
                      (long long) vo_metrics_sum(m, "counter", name));
    }

    v = vo_metrics_sum(m, "counter", "webhook_latency_count");
    vo_buf_printf(b, "video_ocr_webhook_delivery_seconds_bucket{le=\"+Inf\"} "
                  "%lld\n", (long long) v);
    vo_buf_printf(b, "video_ocr_webhook_delivery_seconds_sum %.3f\n",
                  (double) vo_metrics_sum(m, "counter", "webhook_latency_ms")
                  / 1000);
    vo_buf_printf(b, "video_ocr_webhook_delivery_seconds_count %lld\n",
                  (long long) v);

    vo_metrics_head(b, "video_ocr_webhook_oldest_pending_age_seconds",
                    "gauge", "Age of the oldest notification not delivered "
                    "yet (pending or held), 0 when there is none.");

    for (i = 0; i < m->n; i++) {
        r = &m->rows[i];
        p = r->name;

        if (strcmp(r->what, "hook") == 0 && strcmp(p, "oldest") == 0) {
            vo_buf_printf(b, "video_ocr_webhook_oldest_pending_age_seconds "
                          "%.3f\n", r->null ? 0.0
                          : (double) (now_ms - r->value) / 1000);
        }
    }

    vo_metrics_head(b, "video_ocr_webhook_endpoints_disabled", "gauge",
                    "Endpoints a 410 Gone disabled (webhooks enable turns "
                    "one on again).");
    vo_buf_printf(b, "video_ocr_webhook_endpoints_disabled %lld\n",
                  (long long) vo_metrics_sum(m, "hook", "disabled"));

    vo_metrics_head(b, "video_ocr_webhook_endpoints_disabled_total",
                    "counter", "Times a receiver's 410 Gone disabled its "
                    "endpoint.");
    vo_buf_printf(b, "video_ocr_webhook_endpoints_disabled_total %lld\n",
                  (long long) vo_metrics_sum(m, "event", "webhook_disabled"));
}


/*
 * Issue 17: the claim latency histogram (from the attempts' last events,
 * sql/schema.sql) and the rows the retention deleted.
 */

static void
vo_metrics_retention(vo_buf_t *b, const vo_metric_rows_t *m)
{
    int      k;
    char     name[48];
    int64_t  v;

    static const int  buckets[] = { 1, 2, 5, 10, 25, 50, 100, 250, 500,
                                    1000, 2500, 5000, 0 };
    static const char  *tables[] = { "frames", "jobs", "results",
                                     "notifications", "events", NULL };

    vo_metrics_head(b, "video_ocr_claim_seconds", "histogram",
                    "Time a worker child's claim took, from the call to the "
                    "committed claim (waits for the ledger's write lock "
                    "included), for the claims that got a job and whose "
                    "attempt ended.");

    for (k = 0; buckets[k] != 0; k++) {
        snprintf(name, sizeof(name), "claim_latency_le:%d", buckets[k]);
        vo_buf_printf(b, "video_ocr_claim_seconds_bucket{le=\"%g\"} %lld\n",
                      buckets[k] / 1000.0,
                      (long long) vo_metrics_sum(m, "counter", name));
    }

    v = vo_metrics_sum(m, "counter", "claim_latency_count");
    vo_buf_printf(b, "video_ocr_claim_seconds_bucket{le=\"+Inf\"} %lld\n",
                  (long long) v);
    vo_buf_printf(b, "video_ocr_claim_seconds_sum %.3f\n",
                  (double) vo_metrics_sum(m, "counter", "claim_latency_ms")
                  / 1000);
    vo_buf_printf(b, "video_ocr_claim_seconds_count %lld\n", (long long) v);

    vo_metrics_head(b, "video_ocr_retention_deleted_rows_total", "counter",
                    "Rows the janitor's retention deleted, by table "
                    "(--frame-retention, --job-retention, --event-retention, "
                    "--audit-retention).");

    for (k = 0; tables[k] != NULL; k++) {
        snprintf(name, sizeof(name), "retention_deleted:%s", tables[k]);
        vo_buf_printf(b, "video_ocr_retention_deleted_rows_total"
                      "{table=\"%s\"} %lld\n", tables[k],
                      (long long) vo_metrics_sum(m, "counter", name));
    }
}


/*
 * Per tenant (video_ocr_metrics_tenants on): the tenants with jobs queued
 * or running, from tenant_job_counts (summed: PostgreSQL appends), the
 * oldest of each an index probe (jobs_by_tenant_age).
 */

vo_ledger_rc_t
vo_ledger_metrics_tenants(vo_ledger_t *l, int64_t now_ms, vo_buf_t *b,
    char *err, size_t err_size)
{
    int              k, rc;
    vo_buf_t         rows[2];
    vo_stmt_t       *s;
    const char      *tenant, *state;

    static const char  *sql =
        "SELECT c.tenant, c.state, c.n,"
        " (SELECT min(j.created_at) FROM jobs j"
        " WHERE j.tenant = c.tenant AND j.state = c.state)"
        " FROM (SELECT tenant, state, sum(jobs) AS n FROM tenant_job_counts"
        " GROUP BY tenant, state) c WHERE c.n > 0";

    s = vo_ledger_prepare(l, sql, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    /* two metrics from one read: the counts, then the ages */
    vo_buf_init(&rows[0]);
    vo_buf_init(&rows[1]);

    while ((rc = vo_step(s)) == VO_ROW) {
        tenant = (const char *) vo_column_text(s, 0);
        state = (const char *) vo_column_text(s, 1);

        for (k = 0; k < 2; k++) {
            vo_buf_adds(&rows[k], k == 0 ? "video_ocr_tenant_jobs{tenant=\""
                        : "video_ocr_tenant_oldest_job_age_seconds"
                          "{tenant=\"");
            vo_metrics_label(&rows[k], tenant ? tenant : "");
            vo_buf_printf(&rows[k], "\",state=\"%s\"} ",
                          state ? state : "");

            if (k == 0) {
                vo_buf_printf(&rows[k], "%lld\n",
                              (long long) vo_column_int64(s, 2));

            } else {
                vo_buf_printf(&rows[k], "%.3f\n", vo_column_null(s, 3) ? 0.0
                              : (double) (now_ms - vo_column_int64(s, 3))
                                / 1000);
            }
        }
    }

    vo_stmt_finalize(s);

    if (rc != VO_DONE) {
        snprintf(err, err_size, "tenant metrics: %s", vo_ledger_errmsg(l));
        vo_buf_free(&rows[0]);
        vo_buf_free(&rows[1]);
        return vo_ledger_rc(rc);
    }

    vo_metrics_head(b, "video_ocr_tenant_jobs", "gauge",
                    "Jobs of a tenant queued (accepted) or running "
                    "(video_ocr_metrics_tenants on).");
    vo_buf_add(b, rows[0].data, rows[0].len);
    vo_metrics_head(b, "video_ocr_tenant_oldest_job_age_seconds", "gauge",
                    "Age of a tenant's oldest job queued or running.");
    vo_buf_add(b, rows[1].data, rows[1].len);

    k = vo_buf_ok(&rows[0]) && vo_buf_ok(&rows[1]);

    vo_buf_free(&rows[0]);
    vo_buf_free(&rows[1]);

    if (!k || !vo_buf_ok(b)) {
        snprintf(err, err_size, "tenant metrics: out of memory");
        return VO_LEDGER_ERROR;
    }

    return VO_LEDGER_OK;
}


static int64_t
vo_metrics_sum(const vo_metric_rows_t *m, const char *what, const char *name)
{
    int      i;
    int64_t  v;

    v = 0;

    for (i = 0; i < m->n; i++) {
        if (strcmp(m->rows[i].what, what) == 0
            && strcmp(m->rows[i].name, name) == 0)
        {
            v += m->rows[i].value;
        }
    }

    return v;
}


static void
vo_metrics_head(vo_buf_t *b, const char *name, const char *type,
    const char *help)
{
    vo_buf_printf(b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}


/* A label value: backslash, quote and newline escaped. */

static void
vo_metrics_label(vo_buf_t *b, const char *s)
{
    for ( /* void */ ; *s; s++) {
        switch (*s) {
        case '\\': vo_buf_adds(b, "\\\\"); break;
        case '"':  vo_buf_adds(b, "\\\""); break;
        case '\n': vo_buf_adds(b, "\\n"); break;
        default:   vo_buf_addc(b, *s);
        }
    }
}
