/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The operator's webhook statements ("video-ocr-worker webhooks ..."):
 * listing endpoints and notifications, a tenant's endpoint added or
 * removed, a secret rotated, an endpoint a 410 disabled enabled again,
 * notifications sent again.  Every change is one transaction with its
 * audit event.  Run once per command, so the statements are not cached.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vo_ledger.h"
#include "vo_ledger_int.h"


static vo_ledger_rc_t vo_hooks_run(vo_ledger_t *l, const char *sql,
    const char *what, const char *t1, int64_t i2, int64_t i3, int64_t i4,
    const char *t5, int64_t *changed, char *err, size_t err_size);
static vo_ledger_rc_t vo_hooks_event(vo_ledger_t *l, int64_t now_ms,
    const char *tenant, const char *kind, int64_t endpoint, const char *more,
    char *err, size_t err_size);
static void vo_hooks_bind(vo_stmt_t *s, const char *sql, int i,
    const char *text, int64_t v);


vo_ledger_rc_t
vo_ledger_list_endpoints(vo_ledger_t *l, const char *tenant,
    vo_endpoint_cb_pt cb, void *data, char *err, size_t err_size)
{
    int                 rc;
    const char         *secret;
    vo_stmt_t          *s;
    vo_ledger_rc_t      lrc;
    vo_endpoint_row_t   row;

    static const char  *sql =
        "SELECT e.id, e.tenant, e.url, e.secret, e.previous_until,"
        " e.disabled_at, coalesce(e.disabled_reason, ''),"
        " EXISTS (SELECT 1 FROM webhook_defaults d"
        " WHERE d.endpoint_id = e.id),"
        " (SELECT count(*) FROM notifications n WHERE n.endpoint_id = e.id"
        " AND n.state = 'pending'),"
        " (SELECT count(*) FROM notifications n WHERE n.endpoint_id = e.id"
        " AND n.state = 'held'),"
        " (SELECT count(*) FROM notifications n WHERE n.endpoint_id = e.id"
        " AND n.state = 'failed')"
        " FROM webhook_endpoints e WHERE (e.tenant = ?1 OR ?1 IS NULL)"
        " ORDER BY e.tenant, e.id";

    s = vo_ledger_prepare(l, sql, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    vo_bind_text(s, 1, tenant, -1);

    lrc = VO_LEDGER_OK;

    while ((rc = vo_step(s)) == VO_ROW) {
        memset(&row, 0, sizeof(row));
        row.id = vo_column_int64(s, 0);
        vo_ledger_copy_text(row.tenant, sizeof(row.tenant), s, 1);
        vo_ledger_copy_text(row.url, sizeof(row.url), s, 2);
        secret = vo_column_text(s, 3);
        vo_webhook_secret_fingerprint(secret ? secret : "",
                                      secret ? strlen(secret) : 0,
                                      row.fingerprint);
        row.previous_until = vo_ledger_int_or(s, 4, -1);
        row.disabled_at = vo_ledger_int_or(s, 5, -1);
        vo_ledger_copy_text(row.disabled_reason,
                            sizeof(row.disabled_reason), s, 6);
        row.is_default = vo_column_int(s, 7);
        row.pending = vo_column_int64(s, 8);
        row.held = vo_column_int64(s, 9);
        row.failed = vo_column_int64(s, 10);

        if (cb(data, &row) != 0) {
            break;
        }
    }

    if (rc != VO_ROW && rc != VO_DONE) {
        snprintf(err, err_size, "list endpoints: %s", vo_ledger_errmsg(l));
        lrc = vo_ledger_rc(rc);
    }

    vo_stmt_finalize(s);

    return lrc;
}


vo_ledger_rc_t
vo_ledger_list_notifications(vo_ledger_t *l,
    const vo_notification_filter_t *f, vo_notification_cb_pt cb, void *data,
    char *err, size_t err_size)
{
    int                     rc;
    vo_stmt_t              *s;
    vo_ledger_rc_t          lrc;
    vo_notification_row_t   row;

    static const char  *sql =
        "SELECT msg_id, job_id, type, state, endpoint_id, attempts,"
        " created_at, next_attempt_at, delivered_at, last_status,"
        " coalesce(last_error, '') FROM notifications"
        " WHERE (state = ?1 OR ?1 IS NULL) AND (job_id = ?2 OR ?2 IS NULL)"
        " AND (endpoint_id = ?3 OR ?3 = 0)"
        " ORDER BY id DESC LIMIT ?4";

    s = vo_ledger_prepare(l, sql, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    vo_bind_text(s, 1, f->state, -1);
    vo_bind_text(s, 2, f->job_id, -1);
    vo_bind_int(s, 3, f->endpoint_id);
    vo_bind_int(s, 4, f->limit);

    lrc = VO_LEDGER_OK;

    while ((rc = vo_step(s)) == VO_ROW) {
        memset(&row, 0, sizeof(row));
        vo_ledger_copy_text(row.msg_id, sizeof(row.msg_id), s, 0);
        vo_ledger_copy_text(row.job_id, sizeof(row.job_id), s, 1);
        vo_ledger_copy_text(row.type, sizeof(row.type), s, 2);
        vo_ledger_copy_text(row.state, sizeof(row.state), s, 3);
        row.endpoint_id = vo_column_int64(s, 4);
        row.attempts = vo_column_int(s, 5);
        row.created_at = vo_column_int64(s, 6);
        row.next_attempt_at = vo_column_int64(s, 7);
        row.delivered_at = vo_ledger_int_or(s, 8, -1);
        row.last_status = vo_column_int(s, 9);
        vo_ledger_copy_text(row.last_error, sizeof(row.last_error), s, 10);

        if (cb(data, &row) != 0) {
            break;
        }
    }

    if (rc != VO_ROW && rc != VO_DONE) {
        snprintf(err, err_size, "list notifications: %s",
                 vo_ledger_errmsg(l));
        lrc = vo_ledger_rc(rc);
    }

    vo_stmt_finalize(s);

    return lrc;
}


vo_ledger_rc_t
vo_ledger_webhook_default(vo_ledger_t *l, const char *tenant, int64_t *id,
    char *err, size_t err_size)
{
    int             rc;
    vo_stmt_t      *s;
    vo_ledger_rc_t  lrc;

    s = vo_ledger_prepare(l, "SELECT endpoint_id FROM webhook_defaults"
                          " WHERE tenant = ?1", err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    vo_bind_text(s, 1, tenant, -1);

    rc = vo_step(s);
    lrc = VO_LEDGER_OK;

    if (rc == VO_ROW) {
        *id = vo_column_int64(s, 0);

    } else if (rc == VO_DONE) {
        snprintf(err, err_size, "tenant \"%s\" has no endpoint of \"webhooks "
                 "add\"", tenant);
        lrc = VO_LEDGER_NOT_FOUND;

    } else {
        snprintf(err, err_size, "tenant's endpoint: %s", vo_ledger_errmsg(l));
        lrc = vo_ledger_rc(rc);
    }

    vo_stmt_finalize(s);

    return lrc;
}


vo_ledger_rc_t
vo_ledger_webhook_add(vo_ledger_t *l, const char *tenant, const char *url,
    const char *secret, int64_t now_ms, int64_t *id, char *err,
    size_t err_size)
{
    int             rc;
    int64_t         existing;
    vo_stmt_t      *s;
    vo_ledger_rc_t  lrc;

    lrc = vo_ledger_begin(l, err, err_size);
    if (lrc != VO_LEDGER_OK) {
        return lrc;
    }

    lrc = vo_ledger_webhook_default(l, tenant, &existing, err, err_size);

    if (lrc == VO_LEDGER_OK) {
        snprintf(err, err_size, "tenant \"%s\" has endpoint %lld already: "
                 "remove it first (its secret: webhooks rotate-secret)",
                 tenant, (long long) existing);
        lrc = VO_LEDGER_NOT_READY;
        goto failed;
    }

    if (lrc != VO_LEDGER_NOT_FOUND) {
        goto failed;
    }

    /* the endpoint may exist (nginx named it): it keeps its secret then
     * only if it is the same; otherwise this is a rotation, not an add */

    s = vo_ledger_prepare(l, "INSERT INTO webhook_endpoints (tenant, url,"
                          " secret, created_at, updated_at)"
                          " VALUES (?1, ?2, ?3, ?4, ?4)"
                          " ON CONFLICT (tenant, url) DO NOTHING", err,
                          err_size);
    if (s == NULL) {
        lrc = VO_LEDGER_ERROR;
        goto failed;
    }

    vo_bind_text(s, 1, tenant, -1);
    vo_bind_text(s, 2, url, -1);
    vo_bind_text(s, 3, secret, -1);
    vo_bind_int(s, 4, now_ms);

    lrc = vo_ledger_step_done(l, s, "add endpoint", err, err_size);
    vo_stmt_finalize(s);

    if (lrc != VO_LEDGER_OK) {
        goto failed;
    }

    s = vo_ledger_prepare(l, "SELECT id, secret = ?3 FROM webhook_endpoints"
                          " WHERE tenant = ?1 AND url = ?2", err, err_size);
    if (s == NULL) {
        lrc = VO_LEDGER_ERROR;
        goto failed;
    }

    vo_bind_text(s, 1, tenant, -1);
    vo_bind_text(s, 2, url, -1);
    vo_bind_text(s, 3, secret, -1);

    rc = vo_step(s);

    if (rc != VO_ROW) {
        snprintf(err, err_size, "add endpoint: %s",
                 rc == VO_DONE ? "not found after its insert"
                               : vo_ledger_errmsg(l));
        vo_stmt_finalize(s);
        lrc = VO_LEDGER_ERROR;
        goto failed;
    }

    *id = vo_column_int64(s, 0);
    rc = vo_column_int(s, 1);
    vo_stmt_finalize(s);

    if (!rc) {
        snprintf(err, err_size, "endpoint %lld (tenant \"%s\", this URL) "
                 "exists with another secret: give that secret, or change "
                 "it with webhooks rotate-secret", (long long) *id, tenant);
        lrc = VO_LEDGER_NOT_READY;
        goto failed;
    }

    lrc = vo_hooks_run(l, "INSERT INTO webhook_defaults (tenant, endpoint_id,"
                       " created_at) VALUES (?1, ?3, ?2)", "add endpoint",
                       tenant, now_ms, *id, 0, NULL, NULL, err, err_size);

    if (lrc == VO_LEDGER_OK) {
        lrc = vo_hooks_event(l, now_ms, tenant, "webhook_added", *id, NULL,
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


vo_ledger_rc_t
vo_ledger_webhook_remove(vo_ledger_t *l, const char *tenant, int64_t now_ms,
    int64_t *id, char *err, size_t err_size)
{
    vo_ledger_rc_t  lrc;

    lrc = vo_ledger_begin(l, err, err_size);
    if (lrc != VO_LEDGER_OK) {
        return lrc;
    }

    lrc = vo_ledger_webhook_default(l, tenant, id, err, err_size);

    if (lrc == VO_LEDGER_OK) {
        lrc = vo_hooks_run(l, "DELETE FROM webhook_defaults WHERE tenant = ?1",
                           "remove endpoint", tenant, 0, 0, 0, NULL, NULL,
                           err, err_size);
    }

    if (lrc == VO_LEDGER_OK) {
        lrc = vo_hooks_event(l, now_ms, tenant, "webhook_removed", *id, NULL,
                             err, err_size);
    }

    if (lrc != VO_LEDGER_OK) {
        vo_ledger_rollback(l);
        return lrc;
    }

    return vo_ledger_commit(l, err, err_size);
}


vo_ledger_rc_t
vo_ledger_webhook_rotate(vo_ledger_t *l, int64_t id, const char *secret,
    int64_t keep_ms, int64_t now_ms, char *err, size_t err_size)
{
    char            more[64];
    int64_t         changed;
    vo_ledger_rc_t  lrc;

    lrc = vo_ledger_begin(l, err, err_size);
    if (lrc != VO_LEDGER_OK) {
        return lrc;
    }

    lrc = vo_hooks_run(l, "UPDATE webhook_endpoints SET previous_secret ="
                       " CASE WHEN ?3 > 0 THEN secret END,"
                       " previous_until = CASE WHEN ?3 > 0 THEN ?2 + ?3 END,"
                       " secret = ?5, updated_at = ?2 WHERE id = ?4",
                       "rotate secret", NULL, now_ms, keep_ms, id, secret,
                       &changed, err, err_size);

    if (lrc == VO_LEDGER_OK && changed == 0) {
        snprintf(err, err_size, "no webhook endpoint %lld", (long long) id);
        lrc = VO_LEDGER_NOT_FOUND;
    }

    if (lrc == VO_LEDGER_OK) {
        snprintf(more, sizeof(more), ",\"keep_ms\":%lld", (long long) keep_ms);
        lrc = vo_hooks_event(l, now_ms, NULL, "webhook_secret_rotated", id,
                             more, err, err_size);
    }

    if (lrc != VO_LEDGER_OK) {
        vo_ledger_rollback(l);
        return lrc;
    }

    return vo_ledger_commit(l, err, err_size);
}


vo_ledger_rc_t
vo_ledger_webhook_enable(vo_ledger_t *l, int64_t id, int64_t now_ms,
    int64_t *released, char *err, size_t err_size)
{
    char            more[64];
    int64_t         changed;
    vo_ledger_rc_t  lrc;

    *released = 0;

    lrc = vo_ledger_begin(l, err, err_size);
    if (lrc != VO_LEDGER_OK) {
        return lrc;
    }

    lrc = vo_hooks_run(l, "UPDATE webhook_endpoints SET disabled_at = NULL,"
                       " disabled_reason = NULL, updated_at = ?2"
                       " WHERE id = ?4", "enable endpoint", NULL, now_ms, 0,
                       id, NULL, &changed, err, err_size);

    if (lrc == VO_LEDGER_OK && changed == 0) {
        snprintf(err, err_size, "no webhook endpoint %lld", (long long) id);
        lrc = VO_LEDGER_NOT_FOUND;
    }

    if (lrc == VO_LEDGER_OK) {
        lrc = vo_hooks_run(l, "UPDATE notifications SET state = 'pending',"
                           " next_attempt_at = ?2, updated_at = ?2"
                           " WHERE endpoint_id = ?4 AND state = 'held'",
                           "release held notifications", NULL, now_ms, 0, id,
                           NULL, released, err, err_size);
    }

    if (lrc == VO_LEDGER_OK) {
        snprintf(more, sizeof(more), ",\"released\":%lld",
                 (long long) *released);
        lrc = vo_hooks_event(l, now_ms, NULL, "webhook_enabled", id, more,
                             err, err_size);
    }

    if (lrc != VO_LEDGER_OK) {
        vo_ledger_rollback(l);
        return lrc;
    }

    return vo_ledger_commit(l, err, err_size);
}


vo_ledger_rc_t
vo_ledger_redeliver(vo_ledger_t *l, const char *msg_id, int64_t endpoint_id,
    int64_t now_ms, int64_t *n, char *err, size_t err_size)
{
    char            more[96];
    vo_ledger_rc_t  lrc;

    *n = 0;

    lrc = vo_ledger_begin(l, err, err_size);
    if (lrc != VO_LEDGER_OK) {
        return lrc;
    }

    /* a new round of the schedule, under the same webhook-id; a held
     * one's endpoint is disabled: enable it instead */

    lrc = vo_hooks_run(l, "UPDATE notifications SET state = 'pending',"
                       " attempts_before = attempts, next_attempt_at = ?2,"
                       " updated_at = ?2"
                       " WHERE (msg_id = ?1"
                       " AND state IN ('delivered', 'failed'))"
                       " OR (?1 IS NULL AND state = 'failed'"
                       " AND (endpoint_id = ?4 OR ?4 = 0))",
                       "redeliver", msg_id, now_ms, 0, endpoint_id, NULL, n,
                       err, err_size);

    if (lrc == VO_LEDGER_OK && *n == 0 && msg_id != NULL) {
        snprintf(err, err_size, "no delivered or failed notification %s "
                 "(pending ones are being sent; held ones wait for "
                 "webhooks enable)", msg_id);
        lrc = VO_LEDGER_NOT_FOUND;
    }

    if (lrc == VO_LEDGER_OK && *n > 0) {
        snprintf(more, sizeof(more), ",\"notifications\":%lld%s%s%s",
                 (long long) *n, msg_id ? ",\"webhook_id\":\"" : "",
                 msg_id ? msg_id : "", msg_id ? "\"" : "");
        lrc = vo_hooks_event(l, now_ms, NULL, "webhook_redelivered",
                             endpoint_id, more, err, err_size);
    }

    if (lrc != VO_LEDGER_OK) {
        vo_ledger_rollback(l);
        return lrc;
    }

    return vo_ledger_commit(l, err, err_size);
}


/*
 * One statement with up to five parameters: ?1 text, ?2 ?3 ?4 integers,
 * ?5 text; *changed gets the rows it changed, when not NULL.
 */

static vo_ledger_rc_t
vo_hooks_run(vo_ledger_t *l, const char *sql, const char *what,
    const char *t1, int64_t i2, int64_t i3, int64_t i4, const char *t5,
    int64_t *changed, char *err, size_t err_size)
{
    vo_stmt_t       *s;
    vo_ledger_rc_t   lrc;

    s = vo_ledger_prepare(l, sql, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    /*
     * a parameter below the highest one named but not named itself is
     * sent as a number: PostgreSQL refuses a parameter whose type it
     * cannot infer, and infers nothing from one that is not used
     */

    vo_hooks_bind(s, sql, 1, t1, 0);
    vo_hooks_bind(s, sql, 2, NULL, i2);
    vo_hooks_bind(s, sql, 3, NULL, i3);
    vo_hooks_bind(s, sql, 4, NULL, i4);
    vo_hooks_bind(s, sql, 5, t5, 0);

    lrc = vo_ledger_step_done(l, s, what, err, err_size);

    if (lrc == VO_LEDGER_OK && changed != NULL) {
        *changed = vo_ledger_changes(l);
    }

    vo_stmt_finalize(s);

    return lrc;
}


static vo_ledger_rc_t
vo_hooks_event(vo_ledger_t *l, int64_t now_ms, const char *tenant,
    const char *kind, int64_t endpoint, const char *more, char *err,
    size_t err_size)
{
    char  detail[192];

    snprintf(detail, sizeof(detail), "{\"code\":\"operator\",\"endpoint\":"
             "%lld%s}", (long long) endpoint, more ? more : "");

    return vo_ledger_event(l, now_ms, NULL, tenant,
                           tenant ? strlen(tenant) : 0, kind, 0, detail,
                           err, err_size);
}


static void
vo_hooks_bind(vo_stmt_t *s, const char *sql, int i, const char *text,
    int64_t v)
{
    char  name[4];

    snprintf(name, sizeof(name), "?%d", i);

    if (strstr(sql, name) == NULL || (i != 1 && i != 5)) {
        vo_bind_int(s, i, strstr(sql, name) ? v : 0);
        return;
    }

    vo_bind_text(s, i, text, -1);
}
