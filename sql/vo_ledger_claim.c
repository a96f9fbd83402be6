/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The claim: which job a child takes next, in one
 * transaction of index probes whose cost does not grow with the backlog
 * (sql/schema.sql, "claims", says which index serves which probe).
 *
 *   1. Takeovers first: the running job whose lease expired first.  The
 *      attempt that died counts as a failure; a job out of attempts is
 *      failed instead (and the next one is looked at).
 *   2. Else round-robin over the tenants that have accepted jobs: from
 *      the tenant after the one the last claim served (claim_turn), in
 *      name order, wrapping around, the first whose oldest claimable job
 *      (smallest not_before) exists and who is under its running cap.
 *      A tenant keeps the turn for its weight in claims in a row.
 *
 * The claim itself is the conditional update of invariant 5 (the attempt
 * grows by one: the fencing token).  SQLite: BEGIN IMMEDIATE makes the
 * whole claim one writer's.  PostgreSQL: the turn row is taken FOR
 * UPDATE, so claims of every host take turns on it (that is what keeps
 * them round-robin), and candidates are taken FOR UPDATE SKIP LOCKED.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vo_ledger.h"
#include "vo_ledger_int.h"


/* takeovers given up in one claim; tenants looked at in one claim */
#define VO_CLAIM_ROUNDS   16
#define VO_CLAIM_TENANTS  64


const char  *vo_ledger_claim_sql[VO_STMT_COUNT] = {

    /* PostgreSQL: FOR UPDATE SKIP LOCKED */
    [VO_STMT_CLAIM_TAKEOVER] =
    VO_CLAIM_TAKEOVER_SQL,

    /* PostgreSQL: FOR UPDATE */
    [VO_STMT_CLAIM_TURN] =
    VO_CLAIM_TURN_SQL,

    /* the first entry of jobs_queued past tenant ?1 */
    [VO_STMT_CLAIM_NEXT_TENANT] =
    "SELECT tenant FROM jobs WHERE state = 'accepted' AND tenant > ?1"
    " ORDER BY tenant LIMIT 1",

    [VO_STMT_CLAIM_FIRST_TENANT] =
    "SELECT tenant FROM jobs WHERE state = 'accepted'"
    " ORDER BY tenant LIMIT 1",

    /* PostgreSQL: FOR UPDATE SKIP LOCKED */
    [VO_STMT_CLAIM_QUEUED] =
    VO_CLAIM_QUEUED_SQL,

    /* tenant ?1's running jobs, counted up to its cap ?2: those that
     * hold a lease, so a job read as parts counts its running parts */
    [VO_STMT_CLAIM_RUNNING] =
    "SELECT count(*) FROM (SELECT 1 FROM jobs"
    " WHERE state = 'running' AND tenant = ?1"
    " AND lease_expires_at IS NOT NULL LIMIT ?2) AS r",

    [VO_STMT_CLAIM_SET_TURN] =
    "INSERT INTO claim_turn (id, tenant, streak) VALUES (1, ?1, ?2)"
    " ON CONFLICT (id) DO UPDATE SET tenant = excluded.tenant,"
    " streak = excluded.streak",

    /* the conditional update; the attempt, which only grows, is the token
     * (invariant 5) */
    [VO_STMT_CLAIM] =
    "UPDATE jobs SET state = 'running', attempt = attempt + 1,"
    " failures = failures + ?3, lease_owner = ?4,"
    " lease_expires_at = ?2 + ?5, started_at = coalesce(started_at, ?2),"
    " updated_at = ?2"
    " WHERE job_id = ?1 AND ((state = 'accepted' AND not_before <= ?2)"
    " OR (state = 'running' AND lease_expires_at < ?2))"
    " RETURNING tenant, attempt, failures, max_attempts, options,"
    " input_path, input_size, container, created_at,"
    " (SELECT request_key FROM requests r"
    " WHERE r.job_id = coalesce(jobs.parent_id, jobs.job_id)),"
    " parent_id, part, first_sample, end_sample",

    /* a lost attempt was the last one allowed; it counts as a failure
     * (invariant 5) */
    [VO_STMT_GIVE_UP] =
    "UPDATE jobs SET state = 'failed', failures = failures + 1,"
    " error_code = 'worker_lost', error = 'the worker processing this job"
    " stopped responding on every attempt (' || max_attempts || ')',"
    " lease_owner = NULL, lease_expires_at = NULL, finished_at = ?2,"
    " updated_at = ?2"
    " WHERE job_id = ?1 AND state = 'running' AND lease_expires_at < ?2",

    /* the admission's queue cap (video_ocr_tenant_max_queued): tenant
     * ?1's accepted jobs (not parts), counted up to the cap ?2 */
    [VO_STMT_TENANT_QUEUED] =
    "SELECT count(*) FROM (SELECT 1 FROM jobs"
    " WHERE state = 'accepted' AND tenant = ?1 AND parent_id IS NULL"
    " LIMIT ?2) AS q",
};


typedef struct {
    char        job_id[VO_JOB_ID_LEN + 1];
    char        parent_id[VO_JOB_ID_LEN + 1];   /* a part's job, or "" */
    int         takeover;
    int         failures;
    int         max_attempts;
} vo_candidate_t;


static vo_ledger_rc_t vo_claim_takeover(vo_ledger_t *l, int64_t now_ms,
    vo_candidate_t *cand, char *err, size_t err_size);
static vo_ledger_rc_t vo_claim_turn(vo_ledger_t *l,
    const vo_claim_policy_t *policy, int64_t now_ms, vo_candidate_t *cand,
    char *err, size_t err_size);
static vo_ledger_rc_t vo_claim_tenant_job(vo_ledger_t *l,
    const vo_claim_policy_t *policy, const char *tenant, int64_t now_ms,
    vo_candidate_t *cand, char *err, size_t err_size);
static vo_ledger_rc_t vo_claim_next_tenant(vo_ledger_t *l, const char *after,
    char *tenant, char *err, size_t err_size);
static vo_ledger_rc_t vo_claim_set_turn(vo_ledger_t *l, const char *tenant,
    int64_t streak, char *err, size_t err_size);
static vo_ledger_rc_t vo_claim_candidate(vo_ledger_t *l, vo_stmt_t *s,
    vo_candidate_t *cand, const char *what, char *err, size_t err_size);
static vo_ledger_rc_t vo_claim_give_up(vo_ledger_t *l,
    const vo_candidate_t *cand, int64_t now_ms, char *err, size_t err_size);
static vo_ledger_rc_t vo_claim_take(vo_ledger_t *l, const vo_candidate_t *cand,
    const char *owner, int64_t now_ms, int64_t lease_ms, vo_claim_t *c,
    char *err, size_t err_size);
static int vo_claim_weight(const vo_claim_policy_t *policy,
    const char *tenant);


vo_ledger_rc_t
vo_ledger_claim(vo_ledger_t *l, const char *owner, int64_t now_ms,
    int64_t lease_ms, const vo_claim_policy_t *policy, vo_claim_t *c,
    char *err, size_t err_size)
{
    int             round;
    vo_candidate_t  cand;
    vo_ledger_rc_t  lrc;

    lrc = vo_ledger_begin(l, err, err_size);
    if (lrc != VO_LEDGER_OK) {
        return lrc;
    }

    for (round = 0; round < VO_CLAIM_ROUNDS; round++) {

        lrc = vo_claim_takeover(l, now_ms, &cand, err, err_size);

        if (lrc == VO_LEDGER_NOT_FOUND) {
            break;
        }

        if (lrc != VO_LEDGER_OK) {
            goto failed;
        }

        if (cand.failures + 1 < cand.max_attempts) {
            goto take;
        }

        /* the attempt that died was the last one: fail the job */

        lrc = vo_claim_give_up(l, &cand, now_ms, err, err_size);
        if (lrc != VO_LEDGER_OK) {
            goto failed;
        }
    }

    if (round == VO_CLAIM_ROUNDS) {
        /* every takeover was given up: the next call looks again */
        lrc = vo_ledger_commit(l, err, err_size);
        return lrc == VO_LEDGER_OK ? VO_LEDGER_NOT_FOUND : lrc;
    }

    lrc = vo_claim_turn(l, policy, now_ms, &cand, err, err_size);

    if (lrc == VO_LEDGER_NOT_FOUND) {
        lrc = vo_ledger_commit(l, err, err_size);
        return lrc == VO_LEDGER_OK ? VO_LEDGER_NOT_FOUND : lrc;
    }

    if (lrc != VO_LEDGER_OK) {
        goto failed;
    }

take:

    lrc = vo_claim_take(l, &cand, owner, now_ms, lease_ms, c, err, err_size);
    if (lrc != VO_LEDGER_OK) {
        goto failed;
    }

    return vo_ledger_commit(l, err, err_size);

failed:

    vo_ledger_rollback(l);

    return lrc;
}


/* The running job whose lease expired first; NOT_FOUND if none. */

static vo_ledger_rc_t
vo_claim_takeover(vo_ledger_t *l, int64_t now_ms, vo_candidate_t *cand,
    char *err, size_t err_size)
{
    vo_stmt_t  *s;

    s = vo_ledger_stmt(l, VO_STMT_CLAIM_TAKEOVER, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    vo_bind_int(s, 1, now_ms);

    return vo_claim_candidate(l, s, cand, "claim takeover", err, err_size);
}


/*
 * The tenant whose turn it is, and its job: the turn's tenant again if
 * its streak is under its weight, else the next tenants in name order
 * (wrapping around once, back to the turn's own) until one has a
 * claimable job and room under the running cap.  The turn moves to the
 * tenant served; when none is, to the last one looked at, so that the
 * next claim goes on from there.
 */

static vo_ledger_rc_t
vo_claim_turn(vo_ledger_t *l, const vo_claim_policy_t *policy,
    int64_t now_ms, vo_candidate_t *cand, char *err, size_t err_size)
{
    int             rc, n, wrapped, tried_turn, circle;
    char            turn[VO_TENANT_MAX + 1], t[VO_TENANT_MAX + 1];
    int64_t         streak;
    vo_stmt_t      *s;
    vo_ledger_rc_t  lrc;

    s = vo_ledger_stmt(l, VO_STMT_CLAIM_TURN, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    rc = vo_step(s);

    if (rc == VO_ROW) {
        vo_ledger_copy_text(turn, sizeof(turn), s, 0);
        streak = vo_column_int64(s, 1);

    } else if (rc == VO_DONE) {
        /* can't happen (the schema inserts it): start from the first */
        turn[0] = '\0';
        streak = 0;

    } else {
        snprintf(err, err_size, "claim turn: %s", vo_ledger_errmsg(l));
        vo_reset(s);
        return vo_ledger_rc(rc);
    }

    vo_reset(s);

    tried_turn = 0;

    if (streak > 0 && streak < vo_claim_weight(policy, turn)) {
        /* the turn's tenant has claims left in its turn */
        tried_turn = 1;

        lrc = vo_claim_tenant_job(l, policy, turn, now_ms, cand, err,
                                  err_size);
        if (lrc == VO_LEDGER_OK) {
            return vo_claim_set_turn(l, turn, streak + 1, err, err_size);
        }

        if (lrc != VO_LEDGER_NOT_FOUND) {
            return lrc;
        }
    }

    /* t: the cursor, the last tenant looked at */
    memcpy(t, turn, sizeof(t));
    wrapped = 0;
    circle = 0;

    for (n = 0; n < VO_CLAIM_TENANTS; n++) {

        lrc = vo_claim_next_tenant(l, t, t, err, err_size);

        if (lrc == VO_LEDGER_NOT_FOUND && !wrapped) {
            /* past the last tenant: from the first, once */
            wrapped = 1;
            lrc = vo_claim_next_tenant(l, NULL, t, err, err_size);
        }

        if (lrc == VO_LEDGER_NOT_FOUND) {
            circle = 1;                         /* nobody (else) has work */
            break;
        }

        if (lrc != VO_LEDGER_OK) {
            return lrc;
        }

        if (wrapped
            && (strcmp(t, turn) > 0 || (strcmp(t, turn) == 0 && tried_turn)))
        {
            circle = 1;                         /* every tenant looked at */
            break;
        }

        lrc = vo_claim_tenant_job(l, policy, t, now_ms, cand, err, err_size);

        if (lrc == VO_LEDGER_OK) {
            return vo_claim_set_turn(l, t, 1, err, err_size);
        }

        if (lrc != VO_LEDGER_NOT_FOUND) {
            return lrc;
        }
    }

    if (!circle) {
        /* too many tenants without a claimable job: the next claim goes
         * on after the last one looked at */
        lrc = vo_claim_set_turn(l, t, 0, err, err_size);
        if (lrc != VO_LEDGER_OK) {
            return lrc;
        }
    }

    return VO_LEDGER_NOT_FOUND;
}


/* tenant's oldest claimable job, unless it is at its running cap */

static vo_ledger_rc_t
vo_claim_tenant_job(vo_ledger_t *l, const vo_claim_policy_t *policy,
    const char *tenant, int64_t now_ms, vo_candidate_t *cand, char *err,
    size_t err_size)
{
    int         rc;
    int64_t     running;
    vo_stmt_t  *s;

    if (policy != NULL && policy->max_running > 0) {
        s = vo_ledger_stmt(l, VO_STMT_CLAIM_RUNNING, err, err_size);
        if (s == NULL) {
            return VO_LEDGER_ERROR;
        }

        vo_bind_text(s, 1, tenant, -1);
        vo_bind_int(s, 2, policy->max_running);

        rc = vo_step(s);

        if (rc != VO_ROW) {
            snprintf(err, err_size, "claim: running jobs of tenant \"%s\": "
                     "%s", tenant, vo_ledger_errmsg(l));
            vo_reset(s);
            return vo_ledger_rc(rc);
        }

        running = vo_column_int64(s, 0);
        vo_reset(s);

        if (running >= policy->max_running) {
            return VO_LEDGER_NOT_FOUND;
        }
    }

    s = vo_ledger_stmt(l, VO_STMT_CLAIM_QUEUED, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    vo_bind_text(s, 1, tenant, -1);
    vo_bind_int(s, 2, now_ms);

    return vo_claim_candidate(l, s, cand, "claim", err, err_size);
}


/* The first tenant with accepted jobs after "after" (NULL: the first). */

static vo_ledger_rc_t
vo_claim_next_tenant(vo_ledger_t *l, const char *after, char *tenant,
    char *err, size_t err_size)
{
    int             rc;
    char            from[VO_TENANT_MAX + 1];
    vo_stmt_t      *s;
    vo_ledger_rc_t  lrc;

    /* after may be tenant itself: the bound text must outlive the step */

    s = vo_ledger_stmt(l, after ? VO_STMT_CLAIM_NEXT_TENANT
                                : VO_STMT_CLAIM_FIRST_TENANT, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    if (after != NULL) {
        snprintf(from, sizeof(from), "%s", after);
        vo_bind_text(s, 1, from, -1);
    }

    rc = vo_step(s);

    if (rc == VO_ROW) {
        vo_ledger_copy_text(tenant, VO_TENANT_MAX + 1, s, 0);
        lrc = VO_LEDGER_OK;

    } else if (rc == VO_DONE) {
        lrc = VO_LEDGER_NOT_FOUND;

    } else {
        snprintf(err, err_size, "claim: next tenant: %s", vo_ledger_errmsg(l));
        lrc = vo_ledger_rc(rc);
    }

    vo_reset(s);

    return lrc;
}


static vo_ledger_rc_t
vo_claim_set_turn(vo_ledger_t *l, const char *tenant, int64_t streak,
    char *err, size_t err_size)
{
    vo_stmt_t  *s;

    s = vo_ledger_stmt(l, VO_STMT_CLAIM_SET_TURN, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    vo_bind_text(s, 1, tenant, -1);
    vo_bind_int(s, 2, streak);

    return vo_ledger_step_done(l, s, "claim turn", err, err_size);
}


/* A candidate row (job_id, state, failures, max_attempts), or NOT_FOUND. */

static vo_ledger_rc_t
vo_claim_candidate(vo_ledger_t *l, vo_stmt_t *s, vo_candidate_t *cand,
    const char *what, char *err, size_t err_size)
{
    int          rc;
    const char  *state;

    rc = vo_step(s);

    if (rc == VO_DONE) {
        vo_reset(s);
        return VO_LEDGER_NOT_FOUND;
    }

    if (rc != VO_ROW) {
        snprintf(err, err_size, "%s: %s", what, vo_ledger_errmsg(l));
        vo_reset(s);
        return vo_ledger_rc(rc);
    }

    vo_ledger_copy_text(cand->job_id, sizeof(cand->job_id), s, 0);
    state = (const char *) vo_column_text(s, 1);
    cand->takeover = (state != NULL && strcmp(state, "running") == 0);
    cand->failures = vo_column_int(s, 2);
    cand->max_attempts = vo_column_int(s, 3);
    vo_ledger_copy_text(cand->parent_id, sizeof(cand->parent_id), s, 4);

    vo_reset(s);

    return VO_LEDGER_OK;
}


static vo_ledger_rc_t
vo_claim_give_up(vo_ledger_t *l, const vo_candidate_t *cand, int64_t now_ms,
    char *err, size_t err_size)
{
    const char      *job_id;
    vo_stmt_t       *s;
    vo_ledger_rc_t   lrc;

    job_id = cand->job_id;

    s = vo_ledger_stmt(l, VO_STMT_GIVE_UP, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    vo_bind_text(s, 1, job_id, -1);
    vo_bind_int(s, 2, now_ms);

    lrc = vo_ledger_step_done(l, s, "give up", err, err_size);
    if (lrc != VO_LEDGER_OK) {
        return lrc;
    }

    if (vo_ledger_changes(l) == 0) {
        /* can't happen: the candidate is ours until we commit */
        return VO_LEDGER_OK;
    }

    if (cand->parent_id[0] != '\0') {
        /* a part: its job fails with it (and says why), its parts go */
        return vo_ledger_parts_end(l, cand->parent_id, "failed",
                                   "worker_lost", "the worker processing a "
                                   "part of this job stopped responding on "
                                   "every attempt", now_ms, err, err_size);
    }

    /* invariant 10: the move and its notification together */
    lrc = vo_ledger_notify(l, job_id, "job.failed", NULL, now_ms, err,
                           err_size);
    if (lrc != VO_LEDGER_OK) {
        return lrc;
    }

    return vo_ledger_event(l, now_ms, job_id, NULL, 0, "failed", 0,
                           "{\"code\":\"worker_lost\"}", err, err_size);
}


/* The conditional update of invariant 5, and its audit event. */

static vo_ledger_rc_t
vo_claim_take(vo_ledger_t *l, const vo_candidate_t *cand, const char *owner,
    int64_t now_ms, int64_t lease_ms, vo_claim_t *c, char *err,
    size_t err_size)
{
    int         rc;
    char        detail[160];
    vo_stmt_t  *s;

    s = vo_ledger_stmt(l, VO_STMT_CLAIM, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    vo_bind_text(s, 1, cand->job_id, -1);
    vo_bind_int(s, 2, now_ms);
    vo_bind_int(s, 3, cand->takeover);
    vo_bind_text(s, 4, owner, -1);
    vo_bind_int(s, 5, lease_ms);

    rc = vo_step(s);

    if (rc != VO_ROW) {
        snprintf(err, err_size, "claim job %s: %s", cand->job_id,
                 rc == VO_DONE ? "not claimable" : vo_ledger_errmsg(l));
        vo_reset(s);
        return rc == VO_DONE ? VO_LEDGER_ERROR : vo_ledger_rc(rc);
    }

    memcpy(c->job_id, cand->job_id, sizeof(c->job_id));
    vo_ledger_copy_text(c->tenant, sizeof(c->tenant), s, 0);
    c->attempt = vo_column_int(s, 1);
    c->failures = vo_column_int(s, 2);
    c->max_attempts = vo_column_int(s, 3);
    vo_ledger_copy_text(c->options, sizeof(c->options), s, 4);
    vo_ledger_copy_text(c->input_path, sizeof(c->input_path), s, 5);
    c->input_size = vo_column_int64(s, 6);
    vo_ledger_copy_text(c->container, sizeof(c->container), s, 7);
    c->created_at = vo_column_int64(s, 8);
    vo_ledger_copy_text(c->key, sizeof(c->key), s, 9);
    vo_ledger_copy_text(c->parent_id, sizeof(c->parent_id), s, 10);
    c->part = (int) vo_ledger_int_or(s, 11, 0);
    c->first_sample = (uint32_t) vo_ledger_int_or(s, 12, 0);
    c->end_sample = (uint32_t) vo_ledger_int_or(s, 13, 0);
    c->takeover = cand->takeover;

    (void) vo_step(s);
    vo_reset(s);

    snprintf(detail, sizeof(detail), "{\"owner\":\"%.100s\"}", owner);

    if (c->parent_id[0] != '\0') {
        /* a part's claims are counted apart from jobs' (metrics) */
        return vo_ledger_event(l, now_ms, c->job_id, c->tenant,
                               strlen(c->tenant),
                               c->takeover ? "part_taken_over"
                                           : "part_claimed",
                               c->attempt, detail, err, err_size);
    }

    return vo_ledger_event(l, now_ms, c->job_id, c->tenant,
                           strlen(c->tenant),
                           c->takeover ? "taken_over" : "claimed",
                           c->attempt, detail, err, err_size);
}


static int
vo_claim_weight(const vo_claim_policy_t *policy, const char *tenant)
{
    size_t  i;

    if (policy == NULL) {
        return 1;
    }

    for (i = 0; i < policy->nweights; i++) {
        if (strcmp(policy->weights[i].tenant, tenant) == 0) {
            return policy->weights[i].weight;
        }
    }

    return 1;
}
