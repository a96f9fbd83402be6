/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The outbox (sql/schema.sql, invariant 10): the endpoint a
 * job's notifications go to, recorded at admission; the notification
 * row every final-state move inserts in its own transaction, under its
 * own fencing; and the deliverer's claims and outcomes.
 *
 * A notification is claimed like a job: the claim increments attempts
 * (the fencing token) and moves next_attempt_at to the end of the lease,
 * so nobody else finds it due while it is being sent, and a deliverer
 * that dies leaves it to the next claim after the lease.  The outcome is
 * recorded only while the row still carries that token; a deliverer that
 * lost it (stopped past its lease while another claim sent it again)
 * records its attempt as stale and changes nothing else.  PostgreSQL
 * takes the candidate FOR UPDATE SKIP LOCKED, as for jobs: two hosts'
 * deliverers never hold the same attempt.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vo_ledger.h"
#include "vo_ledger_int.h"


const char  *vo_ledger_webhooks_sql[VO_STMT_COUNT] = {

    [VO_STMT_HOOK_ENDPOINT_FIND] =
    "SELECT id, secret FROM webhook_endpoints WHERE tenant = ?1 AND url = ?2",

    /* nothing when another admission (another host) was first */
    [VO_STMT_HOOK_ENDPOINT_INSERT] =
    "INSERT INTO webhook_endpoints (tenant, url, secret, created_at,"
    " updated_at) VALUES (?1, ?2, ?3, ?4, ?4)"
    " ON CONFLICT (tenant, url) DO NOTHING RETURNING id",

    [VO_STMT_HOOK_ENDPOINT_ROTATE] =
    "UPDATE webhook_endpoints SET previous_secret = secret,"
    " previous_until = ?3, secret = ?2, updated_at = ?4"
    " WHERE id = ?1 AND secret <> ?2",

    /* the job's endpoint: nginx's, else the tenant's "webhooks add" */
    [VO_STMT_HOOK_TARGET] =
    "SELECT j.tenant, j.state, j.status_url, j.error_code, j.error,"
    " e.id, e.disabled_at FROM jobs j"
    " LEFT JOIN webhook_defaults d ON d.tenant = j.tenant"
    " LEFT JOIN webhook_endpoints e"
    " ON e.id = coalesce(j.webhook_endpoint, d.endpoint_id)"
    " WHERE j.job_id = ?1",

    [VO_STMT_HOOK_INSERT] =
    "INSERT INTO notifications (msg_id, job_id, tenant, endpoint_id, type,"
    " state, payload, next_attempt_at, created_at, updated_at)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8, ?8)",

    /* the same, outside a transaction: is there anything to claim? */
    [VO_STMT_HOOK_PROBE] =
    VO_HOOK_CANDIDATE_SQL,

    /* PostgreSQL: FOR UPDATE SKIP LOCKED */
    [VO_STMT_HOOK_CANDIDATE] =
    VO_HOOK_CANDIDATE_SQL,

    /* the attempt is the token; the lease is when it is due again */
    [VO_STMT_HOOK_CLAIM] =
    "UPDATE notifications SET attempts = attempts + 1, lease_owner = ?2,"
    " next_attempt_at = ?4, updated_at = ?3"
    " WHERE id = ?1 AND state = 'pending' AND next_attempt_at <= ?3"
    " RETURNING attempts, attempts - attempts_before, msg_id, job_id, tenant,"
    " type, endpoint_id, payload, created_at",

    [VO_STMT_HOOK_ENDPOINT_OF] =
    "SELECT url, secret, coalesce(previous_secret, ''),"
    " coalesce(previous_until, 0) FROM webhook_endpoints WHERE id = ?1",

    [VO_STMT_HOOK_ATTEMPT_START] =
    "INSERT INTO notification_attempts (notification_id, attempt, owner,"
    " started_at) VALUES (?1, ?2, ?3, ?4)",

    [VO_STMT_HOOK_ATTEMPT_END] =
    "UPDATE notification_attempts SET ended_at = ?3, outcome = ?4,"
    " reason = ?5, status = ?6, latency_ms = ?7, error = ?8"
    " WHERE notification_id = ?1 AND attempt = ?2 AND outcome = 'sending'",

    /*
     * under the token; a notification held (its endpoint disabled by
     * another attempt's 410) meanwhile stays held unless this one got
     * through
     */
    [VO_STMT_HOOK_DONE] =
    "UPDATE notifications SET"
    " state = CASE WHEN ?3 = 'delivered' THEN 'delivered'"
    " WHEN ?3 = 'failed' THEN 'failed'"
    " WHEN ?3 = 'gone' OR state = 'held' THEN 'held' ELSE 'pending' END,"
    " next_attempt_at = ?4, last_status = ?5, last_error = ?6,"
    " delivered_at = CASE WHEN ?3 = 'delivered' THEN ?7 END,"
    " lease_owner = NULL, updated_at = ?7"
    " WHERE id = ?1 AND attempts = ?2 AND state IN ('pending', 'held')",

    [VO_STMT_HOOK_DISABLE] =
    "UPDATE webhook_endpoints SET disabled_at = ?2, disabled_reason = ?3,"
    " updated_at = ?2 WHERE id = ?1 AND disabled_at IS NULL",

    [VO_STMT_HOOK_HOLD] =
    "UPDATE notifications SET state = 'held', updated_at = ?2"
    " WHERE endpoint_id = ?1 AND state = 'pending'",

    [VO_STMT_HOOK_OF_JOB] =
    "SELECT msg_id, type, state, attempts, created_at, delivered_at,"
    " last_status, last_error, next_attempt_at FROM notifications"
    " WHERE job_id = ?1 ORDER BY id",
};


static vo_ledger_rc_t vo_ledger_attempt_end(vo_ledger_t *l,
    const vo_delivery_t *d, const vo_delivery_result_t *r,
    const char *outcome, int64_t now_ms, char *err, size_t err_size);
static vo_ledger_rc_t vo_ledger_endpoint_gone(vo_ledger_t *l,
    const vo_delivery_t *d, const vo_delivery_result_t *r, int64_t now_ms,
    char *err, size_t err_size);


static const char  *vo_delivery_outcomes[] = {
    [VO_DELIVERY_DELIVERED] = "delivered",
    [VO_DELIVERY_RETRY] = "retry",
    [VO_DELIVERY_FAILED] = "failed",
    [VO_DELIVERY_GONE] = "gone"
};


vo_ledger_rc_t
vo_ledger_admit_webhook(vo_ledger_t *l, const vo_admission_t *a,
    int64_t *endpoint_id, char *err, size_t err_size)
{
    int              rc, round;
    char             detail[96];
    const char      *kept;
    vo_stmt_t       *s;
    vo_ledger_rc_t   lrc;

    *endpoint_id = 0;

    if (a->webhook_url == NULL || a->webhook_url_len == 0) {
        return VO_LEDGER_OK;
    }

    /* the usual case: the endpoint is there with this secret, no write */

    for (round = 0; round < 2; round++) {
        s = vo_ledger_stmt(l, VO_STMT_HOOK_ENDPOINT_FIND, err, err_size);
        if (s == NULL) {
            return VO_LEDGER_ERROR;
        }

        vo_bind_text(s, 1, a->tenant, (int) a->tenant_len);
        vo_bind_text(s, 2, a->webhook_url, (int) a->webhook_url_len);

        rc = vo_step(s);

        if (rc == VO_ROW) {
            *endpoint_id = vo_column_int64(s, 0);
            kept = vo_column_text(s, 1);

            rc = (kept != NULL && strlen(kept) == a->webhook_secret_len
                  && memcmp(kept, a->webhook_secret, a->webhook_secret_len)
                     == 0);
            vo_reset(s);

            if (rc) {
                return VO_LEDGER_OK;
            }

            /* nginx's configuration has another secret: a rotation */

            s = vo_ledger_stmt(l, VO_STMT_HOOK_ENDPOINT_ROTATE, err,
                               err_size);
            if (s == NULL) {
                return VO_LEDGER_ERROR;
            }

            vo_bind_int(s, 1, *endpoint_id);
            vo_bind_text(s, 2, a->webhook_secret, (int) a->webhook_secret_len);
            vo_bind_int(s, 3, a->now_ms + VO_WEBHOOK_ROTATION_MS);
            vo_bind_int(s, 4, a->now_ms);

            lrc = vo_ledger_step_done(l, s, "rotate webhook secret", err,
                                      err_size);
            if (lrc != VO_LEDGER_OK || vo_ledger_changes(l) == 0) {
                return lrc;
            }

            snprintf(detail, sizeof(detail), "{\"code\":\"nginx\","
                     "\"endpoint\":%lld}", (long long) *endpoint_id);

            return vo_ledger_event(l, a->now_ms, NULL, a->tenant,
                                   a->tenant_len, "webhook_secret_rotated",
                                   0, detail, err, err_size);
        }

        vo_reset(s);

        if (rc != VO_DONE) {
            snprintf(err, err_size, "find webhook endpoint: %s",
                     vo_ledger_errmsg(l));
            return vo_ledger_rc(rc);
        }

        if (round == 1) {
            break;
        }

        s = vo_ledger_stmt(l, VO_STMT_HOOK_ENDPOINT_INSERT, err, err_size);
        if (s == NULL) {
            return VO_LEDGER_ERROR;
        }

        vo_bind_text(s, 1, a->tenant, (int) a->tenant_len);
        vo_bind_text(s, 2, a->webhook_url, (int) a->webhook_url_len);
        vo_bind_text(s, 3, a->webhook_secret, (int) a->webhook_secret_len);
        vo_bind_int(s, 4, a->now_ms);

        rc = vo_step(s);

        if (rc == VO_ROW) {
            *endpoint_id = vo_column_int64(s, 0);
            (void) vo_step(s);
            vo_reset(s);
            return VO_LEDGER_OK;
        }

        vo_reset(s);

        if (rc != VO_DONE) {
            snprintf(err, err_size, "insert webhook endpoint: %s",
                     vo_ledger_errmsg(l));
            return vo_ledger_rc(rc);
        }

        /* another host inserted it meanwhile: read it again */
    }

    snprintf(err, err_size, "the webhook endpoint another admission "
             "inserted is gone: try again");

    return VO_LEDGER_BUSY;
}


vo_ledger_rc_t
vo_ledger_notify(vo_ledger_t *l, const char *job_id, const char *type,
    const char *result, int64_t now_ms, char *err, size_t err_size)
{
    int              rc, held;
    char             msg_id[VO_WEBHOOK_MSG_ID_LEN + 1];
    char             tenant[VO_TENANT_MAX + 1], state[16];
    char            *payload;
    size_t           len;
    int64_t          endpoint;
    vo_buf_t         b;
    vo_stmt_t       *s;
    vo_ledger_rc_t   lrc;

    s = vo_ledger_stmt(l, VO_STMT_HOOK_TARGET, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    vo_bind_text(s, 1, job_id, -1);

    rc = vo_step(s);

    if (rc != VO_ROW) {
        vo_reset(s);

        if (rc == VO_DONE) {
            snprintf(err, err_size, "notify %s of job %s: no such job", type,
                     job_id);
            return VO_LEDGER_ERROR;
        }

        snprintf(err, err_size, "notify %s of job %s: %s", type, job_id,
                 vo_ledger_errmsg(l));
        return vo_ledger_rc(rc);
    }

    if (vo_column_null(s, 5)) {
        /* no endpoint for this job: nothing to tell anyone */
        vo_reset(s);
        return VO_LEDGER_OK;
    }

    vo_ledger_copy_text(tenant, sizeof(tenant), s, 0);
    vo_ledger_copy_text(state, sizeof(state), s, 1);
    endpoint = vo_column_int64(s, 5);
    held = !vo_column_null(s, 6);

    /* the body, written once: every attempt sends these bytes */

    vo_buf_init(&b);
    vo_buf_adds(&b, "{\"type\":");
    vo_json_strz(&b, type);
    vo_buf_adds(&b, ",\"timestamp\":");
    vo_json_time(&b, now_ms);
    vo_buf_adds(&b, ",\"data\":{\"job_id\":");
    vo_json_strz(&b, job_id);
    vo_buf_adds(&b, ",\"tenant\":");
    vo_json_strz(&b, tenant);
    vo_buf_adds(&b, ",\"state\":");
    vo_json_strz(&b, state);
    vo_buf_adds(&b, ",\"status_url\":");
    vo_json_strz(&b, vo_column_text(s, 2));

    if (!vo_column_null(s, 3) && strcmp(type, "job.done") != 0
        && strcmp(type, "job.accepted") != 0)
    {
        vo_buf_adds(&b, ",\"error\":{\"code\":");
        vo_json_strz(&b, vo_column_text(s, 3));
        vo_buf_adds(&b, ",\"message\":");
        vo_json_strz(&b, vo_column_text(s, 4));
        vo_buf_adds(&b, "}");
    }

    if (result != NULL) {
        vo_buf_adds(&b, ",");
        vo_buf_adds(&b, result);
    }

    vo_buf_adds(&b, "}}");

    vo_reset(s);

    payload = vo_buf_detach(&b, &len);

    if (payload == NULL || vo_webhook_msg_id(now_ms, msg_id) != 0) {
        free(payload);
        snprintf(err, err_size, "notify %s of job %s: out of memory or no "
                 "random bytes", type, job_id);
        return VO_LEDGER_ERROR;
    }

    s = vo_ledger_stmt(l, VO_STMT_HOOK_INSERT, err, err_size);
    if (s == NULL) {
        free(payload);
        return VO_LEDGER_ERROR;
    }

    vo_bind_text(s, 1, msg_id, -1);
    vo_bind_text(s, 2, job_id, -1);
    vo_bind_text(s, 3, tenant, -1);
    vo_bind_int(s, 4, endpoint);
    vo_bind_text(s, 5, type, -1);
    vo_bind_text(s, 6, held ? "held" : "pending", -1);
    vo_bind_text(s, 7, payload, (int) len);
    vo_bind_int(s, 8, now_ms);

    lrc = vo_ledger_step_done(l, s, "insert notification", err, err_size);

    free(payload);

    return lrc;
}


vo_ledger_rc_t
vo_ledger_job_notifications(vo_ledger_t *l, const char *job_id,
    vo_buf_t *out, char *err, size_t err_size)
{
    int              rc, n;
    const char      *state;
    vo_stmt_t       *s;

    s = vo_ledger_stmt(l, VO_STMT_HOOK_OF_JOB, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    vo_bind_text(s, 1, job_id, -1);

    vo_buf_adds(out, ",\"notifications\":[");

    for (n = 0; (rc = vo_step(s)) == VO_ROW; n++) {
        state = vo_column_text(s, 2);

        vo_buf_adds(out, n ? ",{\"webhook_id\":" : "{\"webhook_id\":");
        vo_json_strz(out, vo_column_text(s, 0));
        vo_buf_adds(out, ",\"type\":");
        vo_json_strz(out, vo_column_text(s, 1));
        vo_buf_adds(out, ",\"state\":");
        vo_json_strz(out, state);
        vo_buf_printf(out, ",\"attempts\":%d,\"created_at\":",
                      vo_column_int(s, 3));
        vo_json_time(out, vo_column_int64(s, 4));
        vo_buf_adds(out, ",\"delivered_at\":");
        vo_json_time(out, vo_ledger_int_or(s, 5, -1));
        vo_buf_adds(out, ",\"last_status\":");
        vo_ledger_json_int_or_null(out, s, 6);
        vo_buf_adds(out, ",\"last_error\":");
        vo_json_strz(out, vo_column_text(s, 7));
        vo_buf_adds(out, ",\"next_attempt_at\":");
        vo_json_time(out, state != NULL && strcmp(state, "pending") == 0
                          ? vo_column_int64(s, 8) : -1);
        vo_buf_adds(out, "}");
    }

    vo_reset(s);

    vo_buf_adds(out, "]");

    if (rc != VO_DONE) {
        snprintf(err, err_size, "job %s notifications: %s", job_id,
                 vo_ledger_errmsg(l));
        return vo_ledger_rc(rc);
    }

    return VO_LEDGER_OK;
}


vo_ledger_rc_t
vo_ledger_claim_delivery(vo_ledger_t *l, const char *owner, int64_t now_ms,
    int64_t lease_ms, int64_t first_delay_ms, vo_delivery_t *d, char *err,
    size_t err_size)
{
    int              rc;
    int64_t          id, previous_until;
    const char      *v;
    vo_stmt_t       *s;
    vo_ledger_rc_t   lrc;

    memset(d, 0, sizeof(vo_delivery_t));

    /*
     * an idle deliverer polls: a read first, which takes no write lock
     * (SQLite) and no row lock (PostgreSQL) when there is nothing due
     */

    s = vo_ledger_stmt(l, VO_STMT_HOOK_PROBE, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    vo_bind_int(s, 1, now_ms);
    vo_bind_int(s, 2, now_ms - first_delay_ms);

    rc = vo_step(s);
    vo_reset(s);

    if (rc == VO_DONE) {
        return VO_LEDGER_NOT_FOUND;
    }

    if (rc != VO_ROW) {
        snprintf(err, err_size, "look for notifications: %s",
                 vo_ledger_errmsg(l));
        return vo_ledger_rc(rc);
    }

    lrc = vo_ledger_begin(l, err, err_size);
    if (lrc != VO_LEDGER_OK) {
        return lrc;
    }

    s = vo_ledger_stmt(l, VO_STMT_HOOK_CANDIDATE, err, err_size);
    if (s == NULL) {
        lrc = VO_LEDGER_ERROR;
        goto failed;
    }

    vo_bind_int(s, 1, now_ms);
    vo_bind_int(s, 2, now_ms - first_delay_ms);

    rc = vo_step(s);

    if (rc == VO_DONE) {
        vo_reset(s);
        lrc = vo_ledger_commit(l, err, err_size);
        return lrc == VO_LEDGER_OK ? VO_LEDGER_NOT_FOUND : lrc;
    }

    if (rc != VO_ROW) {
        snprintf(err, err_size, "claim a notification: %s",
                 vo_ledger_errmsg(l));
        vo_reset(s);
        lrc = vo_ledger_rc(rc);
        goto failed;
    }

    id = vo_column_int64(s, 0);
    vo_reset(s);

    s = vo_ledger_stmt(l, VO_STMT_HOOK_CLAIM, err, err_size);
    if (s == NULL) {
        lrc = VO_LEDGER_ERROR;
        goto failed;
    }

    vo_bind_int(s, 1, id);
    vo_bind_text(s, 2, owner, -1);
    vo_bind_int(s, 3, now_ms);
    vo_bind_int(s, 4, now_ms + lease_ms);

    rc = vo_step(s);

    if (rc != VO_ROW) {
        snprintf(err, err_size, "claim notification %lld: %s",
                 (long long) id, rc == VO_DONE ? "no longer due"
                                               : vo_ledger_errmsg(l));
        vo_reset(s);
        lrc = rc == VO_DONE ? VO_LEDGER_BUSY : vo_ledger_rc(rc);
        goto failed;
    }

    d->id = id;
    d->attempt = vo_column_int(s, 0);
    d->round_attempt = vo_column_int(s, 1);
    vo_ledger_copy_text(d->msg_id, sizeof(d->msg_id), s, 2);
    vo_ledger_copy_text(d->job_id, sizeof(d->job_id), s, 3);
    vo_ledger_copy_text(d->tenant, sizeof(d->tenant), s, 4);
    vo_ledger_copy_text(d->type, sizeof(d->type), s, 5);
    d->endpoint_id = vo_column_int64(s, 6);
    d->payload_len = (size_t) vo_column_bytes(s, 7);
    d->payload = malloc(d->payload_len + 1);
    d->created_at = vo_column_int64(s, 8);

    if (d->payload != NULL) {
        v = vo_column_text(s, 7);
        memcpy(d->payload, v ? v : "", d->payload_len);
        d->payload[d->payload_len] = '\0';
    }

    (void) vo_step(s);
    vo_reset(s);

    if (d->payload == NULL) {
        snprintf(err, err_size, "claim notification %lld: out of memory",
                 (long long) id);
        lrc = VO_LEDGER_ERROR;
        goto failed;
    }

    s = vo_ledger_stmt(l, VO_STMT_HOOK_ENDPOINT_OF, err, err_size);
    if (s == NULL) {
        lrc = VO_LEDGER_ERROR;
        goto failed;
    }

    vo_bind_int(s, 1, d->endpoint_id);

    rc = vo_step(s);

    if (rc != VO_ROW) {
        snprintf(err, err_size, "notification %s: endpoint %lld: %s",
                 d->msg_id, (long long) d->endpoint_id,
                 rc == VO_DONE ? "gone" : vo_ledger_errmsg(l));
        vo_reset(s);
        lrc = rc == VO_DONE ? VO_LEDGER_ERROR : vo_ledger_rc(rc);
        goto failed;
    }

    vo_ledger_copy_text(d->url, sizeof(d->url), s, 0);
    vo_ledger_copy_text(d->secret, sizeof(d->secret), s, 1);
    vo_ledger_copy_text(d->previous_secret, sizeof(d->previous_secret), s, 2);
    previous_until = vo_column_int64(s, 3);
    vo_reset(s);

    if (previous_until <= now_ms) {
        d->previous_secret[0] = '\0';
    }

    s = vo_ledger_stmt(l, VO_STMT_HOOK_ATTEMPT_START, err, err_size);
    if (s == NULL) {
        lrc = VO_LEDGER_ERROR;
        goto failed;
    }

    vo_bind_int(s, 1, id);
    vo_bind_int(s, 2, d->attempt);
    vo_bind_text(s, 3, owner, -1);
    vo_bind_int(s, 4, now_ms);

    lrc = vo_ledger_step_done(l, s, "record the attempt", err, err_size);
    if (lrc != VO_LEDGER_OK) {
        goto failed;
    }

    lrc = vo_ledger_commit(l, err, err_size);
    if (lrc != VO_LEDGER_OK) {
        vo_ledger_delivery_free(d);
    }

    return lrc;

failed:

    vo_ledger_rollback(l);
    vo_ledger_delivery_free(d);

    return lrc;
}


vo_ledger_rc_t
vo_ledger_delivery_done(vo_ledger_t *l, const vo_delivery_t *d,
    const vo_delivery_result_t *r, int64_t now_ms, char *err,
    size_t err_size)
{
    char             detail[160];
    const char      *outcome;
    vo_stmt_t       *s;
    vo_ledger_rc_t   lrc;

    outcome = vo_delivery_outcomes[r->outcome];

    lrc = vo_ledger_begin(l, err, err_size);
    if (lrc != VO_LEDGER_OK) {
        return lrc;
    }

    s = vo_ledger_stmt(l, VO_STMT_HOOK_DONE, err, err_size);
    if (s == NULL) {
        lrc = VO_LEDGER_ERROR;
        goto failed;
    }

    vo_bind_int(s, 1, d->id);
    vo_bind_int(s, 2, d->attempt);
    vo_bind_text(s, 3, outcome, -1);
    vo_bind_int(s, 4, r->outcome == VO_DELIVERY_RETRY ? r->next_attempt_at
                                                       : now_ms);

    if (r->status > 0) {
        vo_bind_int(s, 5, r->status);

    } else {
        vo_bind_null(s, 5);
    }

    vo_bind_text(s, 6, r->error, -1);
    vo_bind_int(s, 7, now_ms);

    lrc = vo_ledger_step_done(l, s, "record the delivery", err, err_size);
    if (lrc != VO_LEDGER_OK) {
        goto failed;
    }

    if (vo_ledger_changes(l) == 0) {
        /* another claim holds it now: this attempt changes nothing else */

        lrc = vo_ledger_attempt_end(l, d, r, "stale", now_ms, err, err_size);
        if (lrc != VO_LEDGER_OK) {
            goto failed;
        }

        lrc = vo_ledger_commit(l, err, err_size);

        if (lrc == VO_LEDGER_OK) {
            snprintf(err, err_size, "notification %s: attempt %d no longer "
                     "holds it", d->msg_id, d->attempt);
            lrc = VO_LEDGER_STALE;
        }

        return lrc;
    }

    lrc = vo_ledger_attempt_end(l, d, r, outcome, now_ms, err, err_size);

    if (lrc == VO_LEDGER_OK && r->outcome == VO_DELIVERY_GONE) {
        lrc = vo_ledger_endpoint_gone(l, d, r, now_ms, err, err_size);
    }

    if (lrc == VO_LEDGER_OK && r->outcome == VO_DELIVERY_FAILED) {
        snprintf(detail, sizeof(detail), "{\"code\":\"%.20s\",\"webhook_id\":"
                 "\"%s\",\"type\":\"%s\",\"attempts\":%d}",
                 r->reason ? r->reason : "", d->msg_id, d->type, d->attempt);

        lrc = vo_ledger_event(l, now_ms, d->job_id, d->tenant,
                              strlen(d->tenant), "webhook_failed", 0, detail,
                              err, err_size);
    }

    if (lrc != VO_LEDGER_OK) {
        goto failed;
    }

    return vo_ledger_commit(l, err, err_size);

failed:

    vo_ledger_rollback(l);

    return lrc;
}


void
vo_ledger_delivery_free(vo_delivery_t *d)
{
    free(d->payload);
    d->payload = NULL;
    d->payload_len = 0;
}


static vo_ledger_rc_t
vo_ledger_attempt_end(vo_ledger_t *l, const vo_delivery_t *d,
    const vo_delivery_result_t *r, const char *outcome, int64_t now_ms,
    char *err, size_t err_size)
{
    vo_stmt_t  *s;

    s = vo_ledger_stmt(l, VO_STMT_HOOK_ATTEMPT_END, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    vo_bind_int(s, 1, d->id);
    vo_bind_int(s, 2, d->attempt);
    vo_bind_int(s, 3, now_ms);
    vo_bind_text(s, 4, outcome, -1);
    vo_bind_text(s, 5, r->reason, -1);

    if (r->status > 0) {
        vo_bind_int(s, 6, r->status);

    } else {
        vo_bind_null(s, 6);
    }

    vo_bind_int(s, 7, r->latency_ms);
    vo_bind_text(s, 8, r->error, -1);

    return vo_ledger_step_done(l, s, "record the attempt's outcome", err,
                               err_size);
}


/* 410 Gone: the endpoint is disabled and what waits for it is held. */

static vo_ledger_rc_t
vo_ledger_endpoint_gone(vo_ledger_t *l, const vo_delivery_t *d,
    const vo_delivery_result_t *r, int64_t now_ms, char *err,
    size_t err_size)
{
    int              changed;
    char             reason[96];
    vo_buf_t         b;
    vo_stmt_t       *s;
    vo_ledger_rc_t   lrc;

    snprintf(reason, sizeof(reason), "the receiver answered %d to %s",
             r->status, d->msg_id);

    s = vo_ledger_stmt(l, VO_STMT_HOOK_DISABLE, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    vo_bind_int(s, 1, d->endpoint_id);
    vo_bind_int(s, 2, now_ms);
    vo_bind_text(s, 3, reason, -1);

    lrc = vo_ledger_step_done(l, s, "disable the endpoint", err, err_size);
    if (lrc != VO_LEDGER_OK) {
        return lrc;
    }

    changed = (int) vo_ledger_changes(l);

    s = vo_ledger_stmt(l, VO_STMT_HOOK_HOLD, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    vo_bind_int(s, 1, d->endpoint_id);
    vo_bind_int(s, 2, now_ms);

    lrc = vo_ledger_step_done(l, s, "hold the endpoint's notifications", err,
                              err_size);
    if (lrc != VO_LEDGER_OK || !changed) {
        return lrc;
    }

    vo_buf_init(&b);
    vo_buf_printf(&b, "{\"code\":\"gone\",\"endpoint\":%lld,\"status\":%d,"
                  "\"webhook_id\":\"%s\",\"url\":",
                  (long long) d->endpoint_id, r->status, d->msg_id);
    vo_json_strz(&b, d->url);
    vo_buf_adds(&b, "}");

    if (!vo_buf_ok(&b)) {
        vo_buf_free(&b);
        snprintf(err, err_size, "disable the endpoint: out of memory");
        return VO_LEDGER_ERROR;
    }

    lrc = vo_ledger_event(l, now_ms, d->job_id, d->tenant, strlen(d->tenant),
                          "webhook_disabled", 0, b.data, err, err_size);
    vo_buf_free(&b);

    return lrc;
}
