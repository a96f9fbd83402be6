/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * A webhook deliverer: one process of the pool ("video-ocr-worker
 * deliverer", --deliverers of them) that sends the outbox.  Loop: claim
 * the notification due first (with a lease of twice --webhook-timeout,
 * sql/vo_ledger_webhooks.c), sign it (Standard Webhooks v1: the
 * endpoint's secret, and its previous one while a rotation keeps it),
 * POST it (vw_http.c), record the outcome:
 *
 *   2xx        delivered;
 *   410 Gone   the endpoint is disabled, what waits for it is held;
 *   otherwise  (another status, a timeout, a refused connection, a
 *              refused address) again after the next delay of
 *              --webhook-retry, or after Retry-After when that is later;
 *              after the schedule's last attempt, failed: it stays for
 *              the operator (webhooks redeliver).
 *
 * Killed at any point, it loses nothing: a claim whose outcome is not
 * recorded is due again when its lease ends, and the next claim sends
 * the same webhook-id and body (at least once; a receiver deduplicates
 * on webhook-id).  One line per attempt on stderr says what happened
 * and why.
 */

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "vo_ledger.h"
#include "core/vw_core.h"
#include "vw_http.h"
#include "vw_pool.h"


#define VW_DONE_TRIES  5             /* recording an outcome: BUSY again */


static volatile sig_atomic_t  vw_deliver_stop;


static void vw_deliver_signal(int signo);
static void vw_deliver_one(const vw_pool_conf_t *conf, vo_ledger_t *l,
    vw_http_t *h, vo_delivery_t *d);
static int vw_deliver_sign(const vo_delivery_t *d, int64_t ts, char *out,
    size_t size, char *err, size_t err_size);


int
vw_deliver_main(const vw_pool_conf_t *conf)
{
    int               exit_code;
    char              err[VO_ERR_TEXT], host[64], owner[128];
    int64_t           lease_ms;
    vw_http_t        *h;
    vo_ledger_t      *l;
    vo_delivery_t     d;
    vo_ledger_rc_t    rc;
    vw_http_conf_t    hconf;
    struct sigaction  sa;

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = vw_deliver_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);

    /* a receiver that closes on us must not kill the process */
    sa.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &sa, NULL);

    l = vw_pool_ledger(conf, "deliverer", &vw_deliver_stop, &exit_code);
    if (l == NULL) {
        return exit_code;
    }

    if (conf->webhook_ca_file != NULL && access(conf->webhook_ca_file, R_OK)
        != 0)
    {
        vw_log("deliverer: --webhook-ca-file \"%s\": %s: it must be readable "
               "by the pool's user (--user)", conf->webhook_ca_file,
               strerror(errno));
        vo_ledger_close(l);
        return VW_EXIT_CONFIG;
    }

    hconf.allow = conf->webhook_allow;
    hconf.nallow = conf->nwebhook_allow;
    hconf.timeout_ms = conf->webhook_timeout_ms;
    hconf.ca_file = conf->webhook_ca_file;

    h = vw_http_new(&hconf, err, sizeof(err));
    if (h == NULL) {
        vw_log("deliverer: %s", err);
        vo_ledger_close(l);
        return VW_EXIT_CONFIG;
    }

    if (gethostname(host, sizeof(host)) != 0) {
        snprintf(host, sizeof(host), "localhost");
    }

    host[sizeof(host) - 1] = '\0';
    snprintf(owner, sizeof(owner), "%s:%ld/d%d", host, (long) getpid(),
             conf->slot);

    /* a claim outlives any attempt made under it */
    lease_ms = 2 * conf->webhook_timeout_ms;

    vw_log("deliverer: ready as %s: timeout %lldms, %zu attempts, %zu "
           "allowed address blocks", owner,
           (long long) conf->webhook_timeout_ms, conf->nwebhook_retry,
           conf->nwebhook_allow);

    while (!vw_deliver_stop) {

        rc = vo_ledger_claim_delivery(l, owner, vw_wall_ms(), lease_ms,
                                      conf->webhook_retry[0], &d, err,
                                      sizeof(err));

        if (rc == VO_LEDGER_OK) {
            vw_deliver_one(conf, l, h, &d);
            vo_ledger_delivery_free(&d);
            continue;
        }

        if (rc != VO_LEDGER_NOT_FOUND) {
            vw_log("deliverer: claim failed: %s", err);
        }

        vw_sleep_ms(conf->poll_ms);
    }

    vw_log("deliverer: stopping");

    vw_http_free(h);
    vo_ledger_close(l);

    return VW_EXIT_OK;
}


static void
vw_deliver_signal(int signo)
{
    (void) signo;
    vw_deliver_stop = 1;
}


static void
vw_deliver_one(const vw_pool_conf_t *conf, vo_ledger_t *l, vw_http_t *h,
    vo_delivery_t *d)
{
    int                    i;
    char                   sig[2 * VO_WEBHOOK_SIG_BUF], err[VO_ERR_TEXT];
    char                   next[32];
    int64_t                now, delay;
    vo_ledger_rc_t         rc;
    vw_http_result_t       res;
    vo_delivery_result_t   r;

    now = vw_wall_ms();

    if (vw_deliver_sign(d, now / 1000, sig, sizeof(sig), res.error,
                        sizeof(res.error))
        == 0)
    {
        vw_http_post(h, d->url, d->msg_id, now / 1000, sig, d->payload,
                     d->payload_len, &res);

    } else {
        /* not sent: a secret the ledger should never hold */
        res.status = 0;
        res.latency_ms = 0;
        res.retry_after_ms = -1;
        res.reason = "secret";
        res.address[0] = '\0';
    }

    memset(&r, 0, sizeof(r));
    r.reason = res.reason;
    r.status = res.status;
    r.latency_ms = res.latency_ms;
    r.error = res.error[0] ? res.error : NULL;
    next[0] = '\0';

    if (res.status >= 200 && res.status < 300) {
        r.outcome = VO_DELIVERY_DELIVERED;

    } else if (res.status == 410) {
        r.outcome = VO_DELIVERY_GONE;

    } else if ((size_t) d->round_attempt >= conf->nwebhook_retry) {
        r.outcome = VO_DELIVERY_FAILED;

    } else {
        /* the schedule's next delay, or the receiver's, if later */

        delay = conf->webhook_retry[d->round_attempt];

        if (res.retry_after_ms > delay) {
            delay = res.retry_after_ms;
        }

        r.outcome = VO_DELIVERY_RETRY;
        r.next_attempt_at = vw_wall_ms() + delay;
        snprintf(next, sizeof(next), " next=%lldms", (long long) delay);
    }

    /* recorded, or the claim runs out and it is sent again: keep trying
     * a ledger that is busy a little while */

    for (i = 0; i < VW_DONE_TRIES; i++) {
        rc = vo_ledger_delivery_done(l, d, &r, vw_wall_ms(), err,
                                     sizeof(err));

        if (rc != VO_LEDGER_BUSY || vw_deliver_stop) {
            break;
        }

        vw_sleep_ms(200);
    }

    vw_log("deliverer: webhook=%s job=%s type=%s attempt=%d endpoint=%lld "
           "address=%s status=%d ms=%lld outcome=%s reason=%s%s%s%s%s",
           d->msg_id, d->job_id, d->type, d->attempt,
           (long long) d->endpoint_id, res.address[0] ? res.address : "-",
           res.status, (long long) res.latency_ms,
           rc == VO_LEDGER_STALE ? "stale"
           : r.outcome == VO_DELIVERY_DELIVERED ? "delivered"
           : r.outcome == VO_DELIVERY_GONE ? "endpoint_disabled"
           : r.outcome == VO_DELIVERY_FAILED ? "failed" : "retry",
           r.reason ? r.reason : "-", next,
           r.error ? " error=\"" : "", r.error ? r.error : "",
           r.error ? "\"" : "");

    if (rc != VO_LEDGER_OK && rc != VO_LEDGER_STALE) {
        vw_log("deliverer: webhook=%s: the outcome could not be recorded "
               "(%s): it is sent again once its claim runs out", d->msg_id,
               err);
    }
}


/* "v1,<sig>", and " v1,<sig>" with the previous secret while it lasts. */

static int
vw_deliver_sign(const vo_delivery_t *d, int64_t ts, char *out, size_t size,
    char *err, size_t err_size)
{
    int            n, m;
    size_t         klen;
    unsigned char  key[VO_WEBHOOK_KEY_MAX];

    if (size < 2 * VO_WEBHOOK_SIG_BUF
        || vo_webhook_secret_parse(d->secret, strlen(d->secret), key, &klen,
                                   err, err_size) != 0)
    {
        return -1;
    }

    n = vo_webhook_sign(key, klen, d->msg_id, ts, d->payload, d->payload_len,
                        out);
    if (n < 0) {
        snprintf(err, err_size, "signing failed (OpenSSL)");
        return -1;
    }

    if (d->previous_secret[0] != '\0'
        && vo_webhook_secret_parse(d->previous_secret,
                                   strlen(d->previous_secret), key, &klen,
                                   err, err_size) == 0)
    {
        out[n] = ' ';
        m = vo_webhook_sign(key, klen, d->msg_id, ts, d->payload,
                            d->payload_len, out + n + 1);
        if (m < 0) {
            out[n] = '\0';
        }
    }

    return 0;
}
