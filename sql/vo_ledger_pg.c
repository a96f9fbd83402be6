/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The PostgreSQL backend (libpq): a ledger that many nginx hosts and many
 * worker hosts share.  Selected by a "postgresql://" or "postgres://" URI
 * (libpq's own syntax, every parameter libpq knows is allowed).  Opening
 * and migrating the schema (sql/schema_pg.sql), and the statement
 * interface of vo_ledger_int.h over libpq's extended protocol.
 *
 * The connection:
 *   - one per vo_ledger_t, used by one thread at a time, never across
 *     fork() (the module opens one per thread-pool thread and one per
 *     worker process for its group commits, each OCR child its own), as
 *     with SQLite;
 *   - session settings: lock_timeout = busy_timeout (a writer waits that
 *     long for a row or table lock, then the request gets 503, as SQLite
 *     waits for its write lock), default_transaction_isolation = read
 *     committed, synchronous_commit = off when durability is off;
 *   - defaults that the URI may override: connect_timeout=10,
 *     application_name=video-ocr/<program>, tcp_user_timeout=30000 (a
 *     vanished server host fails a statement in 30 s, not in minutes);
 *   - re-established after a database restart: a statement finds the
 *     connection broken, it is reset (reconnected, statements prepared
 *     again on their next use), and a statement that cannot have done
 *     anything yet (BEGIN, or a read outside a transaction) is sent
 *     again at once; any other fails with BUSY, the caller's transaction
 *     is gone and the next one uses the new connection.
 *
 * Isolation: READ COMMITTED, explicitly (BEGIN ISOLATION LEVEL READ
 * COMMITTED).  The invariants do not rest on snapshots but on the
 * database's constraints and row locks, which READ COMMITTED gives with
 * the fewest aborts:
 *   - admission: the receipt's primary key (tenant, request_key) and
 *     INSERT ... ON CONFLICT DO NOTHING.  A second admission of a key in
 *     flight waits for the first to commit, inserts nothing, and its next
 *     statement (a new snapshot) reads the winner's receipt: a replay or
 *     a 422, never a second job.  REPEATABLE READ or SERIALIZABLE would
 *     instead abort it with a serialization failure, to be retried;
 *   - claims: SELECT ... FOR UPDATE SKIP LOCKED takes the oldest
 *     claimable job no other claim holds, so workers never queue on one
 *     row;
 *   - fencing: every worker write is an UPDATE whose WHERE names job,
 *     state 'running' and attempt.  Under READ COMMITTED an UPDATE that
 *     waited for a concurrent one re-checks its WHERE on the row that
 *     committed: a stale attempt matches nothing, as with SQLite.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE             /* program_invocation_short_name */
#endif

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libpq-fe.h>

#include "vo_ledger.h"
#include "vo_ledger_int.h"
#include "vo_schema_pg.h"
#include "vo_migrations_pg.h"


#define VO_PG_PARAMS        16
#define VO_PG_INT8OID       20
#define VO_PG_TEXTOID       25
#define VO_PG_FLOAT8OID     701

/* pg_advisory_xact_lock() key of migrations: "vo-schm" */
#define VO_PG_MIGRATE_LOCK  "7021289346919021"

#define VO_PG_MIN_VERSION   110000      /* EXECUTE FUNCTION in triggers */


typedef struct {
    PGconn          *conn;
    unsigned         generation;       /* reconnects so far, from 1 */
    unsigned         statements;       /* named so far */
    int64_t          changes;
    int              sync_full;
    int              busy_timeout_ms;
    char             name[256];        /* the URI, password hidden */
    char             errmsg[VO_ERR_TEXT];
    char             sqlstate[6];      /* of the last error, "" if none */
} vo_pg_t;


typedef struct {
    vo_stmt_t        head;
    char            *sql;              /* ?N rewritten to $N */
    int              nparams;          /* the highest $N */
    int              readonly;         /* BEGIN or SELECT: safe to resend */
    int              cached;           /* a named prepared statement */
    char             name[16];
    unsigned         generation;       /* prepared on this connection */
    Oid              types[VO_PG_PARAMS];
    const char      *values[VO_PG_PARAMS];
    int              lengths[VO_PG_PARAMS];
    int              formats[VO_PG_PARAMS];
    char             text[VO_PG_PARAMS][32];   /* numbers, in decimal */
    PGresult        *res;
    int              row;
    int              rows;
} vo_pg_stmt_t;


#define vo_pg(l)           ((vo_pg_t *) (l)->db)
#define vo_pg_st(s)        ((vo_pg_stmt_t *) (s))


static int vo_pg_refusal(const char *const *keys, const char *const *values,
    char *state);
static void vo_pg_refusal_state(const char *msg, char *state);
static vo_ledger_rc_t vo_pg_open(vo_ledger_t *l, const char *uri,
    const vo_ledger_conf_t *conf, char *err, size_t err_size);
static void vo_pg_close(vo_ledger_t *l);
static vo_ledger_rc_t vo_pg_exec(vo_ledger_t *l, const char *sql, char *err,
    size_t err_size);
static int vo_pg_in_transaction(vo_ledger_t *l);
static int64_t vo_pg_changes(vo_ledger_t *l);
static const char *vo_pg_errmsg(vo_ledger_t *l);
static vo_stmt_t *vo_pg_prepare(vo_ledger_t *l, const char *sql, int cached,
    char *err, size_t err_size);
static void vo_pg_finalize(vo_stmt_t *s);
static void vo_pg_bind_text(vo_stmt_t *s, int i, const char *v, int len);
static void vo_pg_bind_int(vo_stmt_t *s, int i, int64_t v);
static void vo_pg_bind_double(vo_stmt_t *s, int i, double v);
static void vo_pg_bind_null(vo_stmt_t *s, int i);
static int vo_pg_step(vo_stmt_t *s);
static void vo_pg_reset(vo_stmt_t *s);
static int vo_pg_column_null(vo_stmt_t *s, int col);
static const char *vo_pg_column_text(vo_stmt_t *s, int col);
static int vo_pg_column_bytes(vo_stmt_t *s, int col);
static int64_t vo_pg_column_int64(vo_stmt_t *s, int col);
static double vo_pg_column_double(vo_stmt_t *s, int col);

static vo_ledger_rc_t vo_pg_execute(vo_ledger_t *l, vo_pg_stmt_t *s);
static PGresult *vo_pg_run(vo_ledger_t *l, vo_pg_stmt_t *s);
static vo_ledger_rc_t vo_pg_result(vo_ledger_t *l, PGresult *res);
static vo_ledger_rc_t vo_pg_connected(vo_ledger_t *l);
static vo_ledger_rc_t vo_pg_session(vo_ledger_t *l, char *err,
    size_t err_size);
static vo_ledger_rc_t vo_pg_migrate(vo_ledger_t *l,
    const vo_ledger_conf_t *conf, char *err, size_t err_size);
static vo_ledger_rc_t vo_pg_query_int(vo_ledger_t *l, const char *sql,
    int64_t *value, char *err, size_t err_size);
static void vo_pg_oneline(char *dst, size_t size, const char *msg);
static void vo_pg_no_trgm(vo_ledger_t *l, char *err, size_t err_size);
static void vo_pg_param(vo_pg_stmt_t *s, int i, Oid type, const char *v,
    int len, int format);


/* the statements whose PostgreSQL text is its own */
static const char  *vo_pg_sql[VO_STMT_COUNT] = {

    /* see "Isolation" above */
    [VO_STMT_BEGIN] = "BEGIN ISOLATION LEVEL READ COMMITTED",

    [VO_STMT_UPLOAD_LOCK] = VO_UPLOAD_LOCK_SQL " FOR UPDATE",
    [VO_STMT_PART_LOCK] = VO_PART_LOCK_SQL " FOR UPDATE",
    [VO_STMT_PARTS_LOCK] = VO_PARTS_LOCK_SQL " FOR UPDATE",

    /* the claim's candidates that no other claim holds, and the turn,
     * which claims take one after the other */
    [VO_STMT_CLAIM_TAKEOVER] = VO_CLAIM_TAKEOVER_SQL " FOR UPDATE SKIP LOCKED",
    [VO_STMT_CLAIM_QUEUED] = VO_CLAIM_QUEUED_SQL " FOR UPDATE SKIP LOCKED",
    [VO_STMT_CLAIM_TURN] = VO_CLAIM_TURN_SQL " FOR UPDATE",

    /* the notification due first that no other deliverer holds */
    [VO_STMT_HOOK_CANDIDATE] = VO_HOOK_CANDIDATE_SQL
                               " FOR UPDATE OF n SKIP LOCKED",

    /* the triggers' appended metric rows, one per key (schema_pg.sql) */
    [VO_STMT_FOLD_COUNTERS] =
        "WITH j AS (DELETE FROM job_counts RETURNING state, jobs),"
        " ji AS (INSERT INTO job_counts"
        " SELECT state, sum(jobs) FROM j GROUP BY state),"
        " e AS (DELETE FROM event_counts RETURNING kind, code, step, events),"
        " ei AS (INSERT INTO event_counts"
        " SELECT kind, code, step, sum(events) FROM e"
        " GROUP BY kind, code, step),"
        " c AS (DELETE FROM counters RETURNING name, value)"
        " INSERT INTO counters SELECT name, sum(value) FROM c GROUP BY name",

    /* a tenant whose queue is empty keeps no row */
    [VO_STMT_FOLD_TENANTS] =
        "WITH t AS (DELETE FROM tenant_job_counts"
        " RETURNING tenant, state, jobs)"
        " INSERT INTO tenant_job_counts SELECT tenant, state, sum(jobs)"
        " FROM t GROUP BY tenant, state HAVING sum(jobs) <> 0",

    /* the search index's rows from JSON arrays (vo_ledger_int.h) */
    [VO_STMT_SEARCH_SEGMENTS_ADD] = VO_SEARCH_SEGMENTS_ADD_PG_SQL,
    [VO_STMT_SEARCH_WORDS_ADD] = VO_SEARCH_WORDS_ADD_PG_SQL,
    [VO_STMT_SEARCH_PROBE] = VO_SEARCH_PROBE_PG_SQL,
    [VO_STMT_SEARCH_COUNT] = VO_SEARCH_COUNT_PG_SQL,
};


const char *const  vo_ledger_kinds = "sqlite, postgresql";


const vo_backend_t  vo_ledger_pg = {
    "PostgreSQL",
    vo_pg_sql,
    vo_pg_open,
    vo_pg_close,
    vo_pg_exec,
    vo_pg_in_transaction,
    vo_pg_changes,
    vo_pg_errmsg,
    1,                          /* row locks: FOR UPDATE */
    1,                          /* a server */
    vo_pg_prepare,
    vo_pg_finalize,
    vo_pg_bind_text,
    vo_pg_bind_int,
    vo_pg_bind_double,
    vo_pg_bind_null,
    vo_pg_step,
    vo_pg_reset,
    vo_pg_column_null,
    vo_pg_column_text,
    vo_pg_column_bytes,
    vo_pg_column_int64,
    vo_pg_column_double
};


/*
 * Connects to uri, sets the session up and checks the schema (with
 * conf->migrate: creates or upgrades it).  Every failure is a sentence
 * that names the URI (without its password) and what to fix.
 */

static vo_ledger_rc_t
vo_pg_open(vo_ledger_t *l, const char *uri, const vo_ledger_conf_t *conf,
    char *err, size_t err_size)
{
    int             n;
    char            app[64], msg[VO_ERR_TEXT], state[6];
    vo_pg_t        *pg;
    vo_ledger_rc_t  lrc;
    const char     *keys[5], *values[5];

    pg = calloc(1, sizeof(vo_pg_t));
    if (pg == NULL) {
        snprintf(err, err_size, "ledger: out of memory");
        return VO_LEDGER_ERROR;
    }

    l->db = pg;
    pg->generation = 1;
    pg->sync_full = conf->sync_full;
    pg->busy_timeout_ms = conf->busy_timeout_ms;

    vo_ledger_redact(uri, pg->name, sizeof(pg->name));

    snprintf(app, sizeof(app), "video-ocr/%.40s",
             program_invocation_short_name);

    /*
     * defaults first: what the URI (dbname, expanded) says wins.  A server
     * host that vanishes mid-statement would leave the thread (and the
     * admissions batched behind it) waiting for TCP to give up, minutes:
     * tcp_user_timeout (libpq 12) bounds it
     */

    n = 0;
    keys[n] = "connect_timeout";     values[n++] = "10";
    keys[n] = "application_name";    values[n++] = app;

    if (PQlibVersion() >= 120000) {
        keys[n] = "tcp_user_timeout"; values[n++] = "30000";
    }

    keys[n] = "dbname";              values[n++] = uri;
    keys[n] = NULL;                  values[n] = NULL;

    pg->conn = PQconnectdbParams(keys, values, 1);

    if (pg->conn == NULL) {
        snprintf(err, err_size, "ledger \"%s\": out of memory", pg->name);
        return VO_LEDGER_ERROR;
    }

    if (PQstatus(pg->conn) != CONNECTION_OK) {
        vo_pg_oneline(msg, sizeof(msg), PQerrorMessage(pg->conn));
        snprintf(err, err_size, "ledger \"%s\": cannot connect: %s: check "
                 "the URI, and that the server runs and lets this host in "
                 "(pg_hba.conf)", pg->name, msg);

        /*
         * a server that refuses for now may let us in later: BUSY, tried
         * again (by the client, on 503; by a worker child, every second);
         * one that refuses for good (user, password, database, pg_hba)
         * needs the URI fixed
         */

        if (vo_pg_refusal(keys, values, state) != 0) {
            return VO_LEDGER_ERROR;     /* connect_timeout is no number */
        }

        if (strcmp(state, "53300") == 0) {
            snprintf(err, err_size, "ledger \"%s\": cannot connect: %s: the "
                     "server has no connection to spare: raise its "
                     "max_connections (or the role's CONNECTION LIMIT), or "
                     "give video-ocr fewer threads (docs/scaling.md)",
                     pg->name, msg);
            return VO_LEDGER_BUSY;
        }

        if (strcmp(state, "00000") == 0) {
            snprintf(err, err_size, "ledger \"%s\": cannot connect: %s: a "
                     "second attempt got in: the server is at its limits "
                     "(docs/scaling.md)", pg->name, msg);
            return VO_LEDGER_BUSY;
        }

        if (strncmp(state, "53", 2) == 0 || strcmp(state, "57P03") == 0) {
            snprintf(err, err_size, "ledger \"%s\": cannot connect: %s "
                     "(SQLSTATE %s): the server cannot take connections for "
                     "now", pg->name, msg, state);
            return VO_LEDGER_BUSY;
        }

        if (state[0] != '\0') {
            return VO_LEDGER_ERROR;
        }

        /*
         * no answer to read a code from: a server that does not answer
         * (down, restarting) may come back; libpq itself may have given up
         * (an option it refuses, a password it lacks)
         */

        switch (PQpingParams(keys, values, 1)) {
        case PQPING_NO_RESPONSE:
        case PQPING_REJECT:
            return VO_LEDGER_BUSY;
        default:
            break;
        }

        return VO_LEDGER_ERROR;
    }

    if (PQserverVersion(pg->conn) < VO_PG_MIN_VERSION) {
        snprintf(err, err_size, "ledger \"%s\": the server is PostgreSQL "
                 "%d.%d; video-ocr needs 11 or newer", pg->name,
                 PQserverVersion(pg->conn) / 10000,
                 PQserverVersion(pg->conn) / 100 % 100);
        return VO_LEDGER_ERROR;
    }

    lrc = vo_pg_session(l, err, err_size);
    if (lrc != VO_LEDGER_OK) {
        return lrc;
    }

    return vo_pg_migrate(l, conf, err, err_size);
}


/*
 * Why the server refused a connection: state gets the SQLSTATE of the
 * refusal (vo_pg_refusal_state), "00000" when this second attempt gets
 * in (a connection was freed meanwhile), or "" when there is no code to
 * read (no server answered in time, or libpq gave up by itself).
 * Returns -1 when the URI's connect_timeout is not a number (libpq
 * checks it only in a blocking connect), else 0.
 *
 * libpq gives no SQLSTATE for a failed connection, and the server's
 * message may be translated; with verbose errors, set before the
 * connection is made, the message carries the code ("FATAL:  53300:
 * sorry, too many clients already").  Made only after a refusal, so a
 * failed open costs one attempt more: each host and address within the
 * URI's connect_timeout, as libpq allows them (10 seconds without one,
 * or with 0); when one runs out, the attempt ends with no code.
 */

static int
vo_pg_refusal(const char *const *keys, const char *const *values,
    char *state)
{
    int                        rc, ms;
    char                       at[512], was[512], *end_p;
    long                       timeout;
    PGconn                    *conn;
    struct pollfd              pfd;
    struct timespec            now, end;
    PQconninfoOption          *opts, *o;
    PostgresPollingStatusType  st;

    state[0] = '\0';

    conn = PQconnectStartParams(keys, values, 1);
    if (conn == NULL) {
        return 0;
    }

    (void) PQsetErrorVerbosity(conn, PQERRORS_VERBOSE);

    timeout = 10;
    opts = PQconninfo(conn);

    for (o = opts; o != NULL && o->keyword != NULL; o++) {
        if (strcmp(o->keyword, "connect_timeout") != 0 || o->val == NULL
            || o->val[0] == '\0')
        {
            continue;
        }

        errno = 0;
        timeout = strtol(o->val, &end_p, 10);

        if (errno != 0 || *end_p != '\0') {
            PQconninfoFree(opts);
            PQfinish(conn);
            return -1;
        }

        /* as libpq: at least 2 seconds; 0 (no limit) is ours, 10 */

        timeout = timeout <= 0 ? 10 : timeout < 2 ? 2
                  : timeout > 3600 ? 3600 : timeout;
    }

    PQconninfoFree(opts);

    was[0] = '\0';
    end.tv_sec = 0;
    end.tv_nsec = 0;

    st = PQstatus(conn) == CONNECTION_BAD ? PGRES_POLLING_FAILED
                                          : PGRES_POLLING_WRITING;

    while (st == PGRES_POLLING_READING || st == PGRES_POLLING_WRITING) {
        clock_gettime(CLOCK_MONOTONIC, &now);

        /* a new host or address has a connect_timeout of its own */

        snprintf(at, sizeof(at), "%s|%s|%s", PQhost(conn) ? PQhost(conn) : "",
                 PQhostaddr(conn) ? PQhostaddr(conn) : "",
                 PQport(conn) ? PQport(conn) : "");

        if (strcmp(at, was) != 0) {
            memcpy(was, at, sizeof(was));
            end = now;
            end.tv_sec += timeout;
        }

        ms = (int) ((end.tv_sec - now.tv_sec) * 1000
                    + (end.tv_nsec - now.tv_nsec) / 1000000);

        if (ms <= 0) {
            break;
        }

        pfd.fd = PQsocket(conn);
        pfd.events = st == PGRES_POLLING_READING ? POLLIN : POLLOUT;
        pfd.revents = 0;

        rc = poll(&pfd, 1, ms);

        if (rc == -1 && errno == EINTR) {
            continue;
        }

        if (rc <= 0) {
            break;
        }

        st = PQconnectPoll(conn);
    }

    if (st == PGRES_POLLING_OK) {
        snprintf(state, 6, "00000");

    } else if (st == PGRES_POLLING_FAILED) {
        vo_pg_refusal_state(PQerrorMessage(conn), state);
    }

    PQfinish(conn);

    return 0;
}


/*
 * The SQLSTATE in a verbose libpq message that says most about whether
 * to try again: 53300, else another of class 53, else the first of the
 * others, else 57P03 (starting up, shutting down: libpq tries the next
 * host after it, whose answer decides).  The codes follow the severities,
 * "<severity>:  <5 digits or capitals>: ", one per host or attempt that
 * answered; state stays "" when there is none.
 */

static void
vo_pg_refusal_state(const char *msg, char *state)
{
    int          rank, best;
    const char  *p;

    best = 0;

    for (p = strstr(msg, ":  "); p != NULL; p = strstr(p + 1, ":  ")) {
        p += 3;

        if (strspn(p, "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ") != 5
            || p[5] != ':')
        {
            continue;
        }

        rank = strncmp(p, "53300", 5) == 0 ? 4
               : strncmp(p, "53", 2) == 0 ? 3
               : strncmp(p, "57P03", 5) == 0 ? 1 : 2;

        if (rank > best) {
            best = rank;
            memcpy(state, p, 5);
            state[5] = '\0';
        }
    }
}


static void
vo_pg_close(vo_ledger_t *l)
{
    vo_pg_t  *pg = vo_pg(l);

    if (pg == NULL) {
        return;
    }

    if (pg->conn != NULL) {
        PQfinish(pg->conn);
    }

    free(pg);
}


/* The settings of every (re)connected session, in one round trip. */

static vo_ledger_rc_t
vo_pg_session(vo_ledger_t *l, char *err, size_t err_size)
{
    char      sql[256];
    vo_pg_t  *pg = vo_pg(l);

    snprintf(sql, sizeof(sql), "SET lock_timeout = %d;"
             " SET default_transaction_isolation = 'read committed';%s",
             pg->busy_timeout_ms > 0 ? pg->busy_timeout_ms : 1,
             pg->sync_full ? "" : " SET synchronous_commit = off;");

    return vo_pg_exec(l, sql, err, err_size);
}


/*
 * Brings the schema to VO_LEDGER_SCHEMA_VERSION, or (without migrate)
 * checks that it is there, then that the role may use every table.
 * Nginx's master and the worker supervisors of every host may migrate at
 * once: an advisory lock lets one do it, the others then find it done.
 */

static vo_ledger_rc_t
vo_pg_migrate(vo_ledger_t *l, const vo_ledger_conf_t *conf, char *err,
    size_t err_size)
{
    char            sql[128];
    int64_t         version, missing, v;
    const char     *sql_m;
    vo_pg_t        *pg = vo_pg(l);
    vo_ledger_rc_t  lrc;

    lrc = vo_pg_exec(l, "BEGIN", err, err_size);
    if (lrc != VO_LEDGER_OK) {
        return lrc;
    }

    if (conf->migrate) {
        lrc = vo_pg_exec(l, "SELECT pg_advisory_xact_lock("
                         VO_PG_MIGRATE_LOCK ")", err, err_size);
        if (lrc != VO_LEDGER_OK) {
            goto failed;
        }
    }

    lrc = vo_pg_query_int(l, "SELECT count(*) FROM pg_class"
                          " WHERE oid = to_regclass('video_ocr_schema')",
                          &missing, err, err_size);
    if (lrc != VO_LEDGER_OK) {
        goto failed;
    }

    version = 0;

    if (missing != 0) {
        lrc = vo_pg_query_int(l, "SELECT coalesce(max(version), 0)"
                              " FROM video_ocr_schema", &version, err,
                              err_size);
        if (lrc != VO_LEDGER_OK) {
            goto failed;
        }
    }

    lrc = vo_ledger_check_version(pg->name, version, conf->migrate, err,
                                  err_size);
    if (lrc != VO_LEDGER_OK) {
        goto failed;
    }

    if (version == 0) {
        /* a new ledger: the schema as it is now */
        lrc = vo_pg_exec(l, "CREATE TABLE video_ocr_schema"
                         " (version BIGINT NOT NULL)", err, err_size);

        if (lrc == VO_LEDGER_OK) {
            lrc = vo_pg_exec(l, vo_schema_pg, err, err_size);
        }

        if (lrc != VO_LEDGER_OK && strcmp(pg->sqlstate, "42501") == 0
            && strstr(pg->errmsg, "extension") != NULL)
        {
            vo_pg_no_trgm(l, err, err_size);

        } else if (lrc != VO_LEDGER_OK
                   && strcmp(pg->sqlstate, "42501") == 0)
        {
            snprintf(err, err_size, "ledger \"%s\": the role \"%s\" may "
                     "not create the ledger's tables (%s): give it a schema "
                     "of its own (CREATE SCHEMA AUTHORIZATION %s)",
                     pg->name, PQuser(pg->conn), pg->errmsg,
                     PQuser(pg->conn));
        }

        if (lrc != VO_LEDGER_OK) {
            goto failed;
        }
    }

    /* an older one: each migration after its version, in order */

    for (v = version + 1; version != 0 && v <= VO_LEDGER_SCHEMA_VERSION; v++)
    {
        sql_m = vo_ledger_migration(vo_migrations_pg,
                                    VO_LEDGER_MIGRATIONS(vo_migrations_pg),
                                    v, pg->name, err, err_size);
        if (sql_m == NULL) {
            lrc = VO_LEDGER_ERROR;
            goto failed;
        }

        lrc = vo_pg_exec(l, sql_m, err, err_size);

        if (lrc != VO_LEDGER_OK && strcmp(pg->sqlstate, "42501") == 0
            && strstr(pg->errmsg, "extension") != NULL)
        {
            vo_pg_no_trgm(l, err, err_size);
        }

        if (lrc != VO_LEDGER_OK) {
            goto failed;
        }
    }

    /* what a migration's SQL alone cannot do (issue 41) */

    lrc = vo_ledger_search_migrate(l, version, err, err_size);
    if (lrc != VO_LEDGER_OK) {
        goto failed;
    }

    if (version < VO_LEDGER_SCHEMA_VERSION) {
        snprintf(sql, sizeof(sql), "DELETE FROM video_ocr_schema;"
                 " INSERT INTO video_ocr_schema VALUES (%d)",
                 VO_LEDGER_SCHEMA_VERSION);

        lrc = vo_pg_exec(l, sql, err, err_size);
        if (lrc != VO_LEDGER_OK) {
            goto failed;
        }
    }

    /* what the role may not do fails here, not at the first upload */

    lrc = vo_pg_query_int(l, "SELECT count(*) FROM unnest(ARRAY['requests',"
                          " 'jobs', 'frames', 'results', 'events',"
                          " 'job_counts', 'event_counts', 'counters',"
                          " 'webhook_endpoints', 'webhook_defaults',"
                          " 'notifications', 'notification_attempts', 'uploads']) t"
                          " WHERE NOT (has_table_privilege(t, 'SELECT')"
                          " AND has_table_privilege(t, 'INSERT')"
                          " AND has_table_privilege(t, 'UPDATE')"
                          " AND has_table_privilege(t, 'DELETE'))",
                          &missing, err, err_size);
    if (lrc != VO_LEDGER_OK) {
        goto failed;
    }

    if (missing != 0) {
        snprintf(err, err_size, "ledger \"%s\": the role \"%s\" may not "
                 "read and write all of the ledger's tables: GRANT SELECT, "
                 "INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ... TO it",
                 pg->name, PQuser(pg->conn));
        lrc = VO_LEDGER_ERROR;
        goto failed;
    }

    return vo_pg_exec(l, "COMMIT", err, err_size);

failed:

    PQclear(PQexec(pg->conn, "ROLLBACK"));

    return lrc;
}


/* One or more statements without parameters or rows. */

static vo_ledger_rc_t
vo_pg_exec(vo_ledger_t *l, const char *sql, char *err, size_t err_size)
{
    vo_pg_t         *pg = vo_pg(l);
    PGresult        *res;
    vo_ledger_rc_t   lrc;

    lrc = vo_pg_connected(l);

    if (lrc == VO_LEDGER_OK) {
        res = PQexec(pg->conn, sql);
        lrc = vo_pg_result(l, res);
        PQclear(res);
    }

    if (lrc != VO_LEDGER_OK) {
        snprintf(err, err_size, "ledger \"%s\": %.40s...: %s", pg->name, sql,
                 pg->errmsg);
    }

    return lrc;
}


static vo_ledger_rc_t
vo_pg_query_int(vo_ledger_t *l, const char *sql, int64_t *value, char *err,
    size_t err_size)
{
    vo_pg_t         *pg = vo_pg(l);
    PGresult        *res;
    vo_ledger_rc_t   lrc;

    res = PQexec(pg->conn, sql);
    lrc = vo_pg_result(l, res);

    if (lrc == VO_LEDGER_OK && PQntuples(res) == 1) {
        *value = strtoll(PQgetvalue(res, 0, 0), NULL, 10);

    } else {
        snprintf(err, err_size, "ledger \"%s\": %.40s...: %s", pg->name, sql,
                 lrc == VO_LEDGER_OK ? "no row" : pg->errmsg);

        /* a lost server stays BUSY: a connection opened as it shuts down */

        if (lrc == VO_LEDGER_OK) {
            lrc = VO_LEDGER_ERROR;
        }
    }

    PQclear(res);

    return lrc;
}


static int
vo_pg_in_transaction(vo_ledger_t *l)
{
    return PQtransactionStatus(vo_pg(l)->conn) != PQTRANS_IDLE;
}


static int64_t
vo_pg_changes(vo_ledger_t *l)
{
    return vo_pg(l)->changes;
}


static const char *
vo_pg_errmsg(vo_ledger_t *l)
{
    return vo_pg(l)->errmsg;
}


/*
 * A statement: SQLite's ?N parameters become $N (outside quotes), and
 * the highest N is the number of parameters sent.  A cached statement is
 * prepared by name on its first run on each connection; the types of its
 * parameters are those of that run's values (a NULL lets the server
 * infer it).  Others are sent with their values each time.
 */

static vo_stmt_t *
vo_pg_prepare(vo_ledger_t *l, const char *sql, int cached, char *err,
    size_t err_size)
{
    int            n, quoted;
    char          *p;
    size_t         len;
    const char    *q;
    vo_pg_stmt_t  *s;

    len = strlen(sql);

    s = calloc(1, sizeof(vo_pg_stmt_t));
    if (s != NULL) {
        s->sql = malloc(len + 1);
    }

    if (s == NULL || s->sql == NULL) {
        free(s);
        snprintf(err, err_size, "prepare: out of memory");
        return NULL;
    }

    s->head.ledger = l;
    s->cached = cached;
    s->row = -1;

    quoted = 0;

    for (q = sql, p = s->sql; *q; q++) {

        if (*q == '\'') {
            quoted = !quoted;
        }

        if (*q == '?' && !quoted) {
            *p++ = '$';
            n = (int) strtol(q + 1, NULL, 10);

            if (n > s->nparams) {
                s->nparams = n;
            }

            continue;
        }

        *p++ = *q;
    }

    *p = '\0';

    if (s->nparams > VO_PG_PARAMS) {
        snprintf(err, err_size, "prepare \"%.40s...\": more than %d "
                 "parameters", sql, VO_PG_PARAMS);
        vo_pg_finalize(&s->head);
        return NULL;
    }

    s->readonly = (strncmp(sql, "SELECT", 6) == 0
                   || strncmp(sql, "BEGIN", 5) == 0);

    if (cached) {
        snprintf(s->name, sizeof(s->name), "vo%u", ++vo_pg(l)->statements);
    }

    return &s->head;
}


/* Cached statements are finalized only with their connection. */

static void
vo_pg_finalize(vo_stmt_t *st)
{
    vo_pg_stmt_t  *s = vo_pg_st(st);

    if (s->res != NULL) {
        PQclear(s->res);
    }

    free(s->sql);
    free(s);
}


static void
vo_pg_param(vo_pg_stmt_t *s, int i, Oid type, const char *v, int len,
    int format)
{
    if (i < 1 || i > s->nparams) {
        return;
    }

    s->types[i - 1] = type;
    s->values[i - 1] = v;
    s->lengths[i - 1] = len;
    s->formats[i - 1] = format;
}


static void
vo_pg_bind_text(vo_stmt_t *s, int i, const char *v, int len)
{
    /* binary text: the bytes as they are, no NUL needed after them */
    vo_pg_param(vo_pg_st(s), i, VO_PG_TEXTOID, v, len, 1);
}


static void
vo_pg_bind_int(vo_stmt_t *st, int i, int64_t v)
{
    vo_pg_stmt_t  *s = vo_pg_st(st);

    if (i < 1 || i > s->nparams) {
        return;
    }

    snprintf(s->text[i - 1], sizeof(s->text[0]), "%lld", (long long) v);
    vo_pg_param(s, i, VO_PG_INT8OID, s->text[i - 1], 0, 0);
}


static void
vo_pg_bind_double(vo_stmt_t *st, int i, double v)
{
    vo_pg_stmt_t  *s = vo_pg_st(st);

    if (i < 1 || i > s->nparams) {
        return;
    }

    snprintf(s->text[i - 1], sizeof(s->text[0]), "%.17g", v);
    vo_pg_param(s, i, VO_PG_FLOAT8OID, s->text[i - 1], 0, 0);
}


static void
vo_pg_bind_null(vo_stmt_t *s, int i)
{
    vo_pg_param(vo_pg_st(s), i, 0, NULL, 0, 0);
}


/*
 * The first step runs the statement and keeps its rows; each step then
 * moves to the next.
 */

static int
vo_pg_step(vo_stmt_t *st)
{
    vo_pg_stmt_t    *s = vo_pg_st(st);
    vo_ledger_rc_t   lrc;

    if (s->res == NULL) {
        lrc = vo_pg_execute(st->ledger, s);
        if (lrc != VO_LEDGER_OK) {
            return lrc;
        }

        s->row = -1;
        s->rows = PQresultStatus(s->res) == PGRES_TUPLES_OK
                  ? PQntuples(s->res) : 0;
    }

    if (++s->row < s->rows) {
        return VO_ROW;
    }

    s->row = s->rows;

    return VO_DONE;
}


/*
 * Runs s on a connection that is reset first if it broke.  A BEGIN, or a
 * read outside a transaction, cannot have done anything yet: if the
 * connection turns out to be lost (the server restarted since the last
 * statement) it is sent again on a new one.  Anything else fails, and
 * the caller's transaction with it.
 */

static vo_ledger_rc_t
vo_pg_execute(vo_ledger_t *l, vo_pg_stmt_t *s)
{
    int              resend;
    vo_pg_t         *pg = vo_pg(l);
    vo_ledger_rc_t   lrc;

    lrc = vo_pg_connected(l);
    if (lrc != VO_LEDGER_OK) {
        return lrc;
    }

    resend = s->readonly && PQtransactionStatus(pg->conn) == PQTRANS_IDLE;

    s->res = vo_pg_run(l, s);
    lrc = vo_pg_result(l, s->res);

    if (lrc != VO_LEDGER_OK && resend
        && PQstatus(pg->conn) != CONNECTION_OK)
    {
        PQclear(s->res);
        s->res = NULL;

        lrc = vo_pg_connected(l);
        if (lrc != VO_LEDGER_OK) {
            return lrc;
        }

        s->res = vo_pg_run(l, s);
        lrc = vo_pg_result(l, s->res);
    }

    if (lrc != VO_LEDGER_OK) {
        PQclear(s->res);
        s->res = NULL;
    }

    return lrc;
}


static PGresult *
vo_pg_run(vo_ledger_t *l, vo_pg_stmt_t *s)
{
    vo_pg_t   *pg = vo_pg(l);
    PGresult  *res;

    if (!s->cached) {
        return PQexecParams(pg->conn, s->sql, s->nparams, s->types,
                            s->values, s->lengths, s->formats, 0);
    }

    if (s->generation != pg->generation) {
        res = PQprepare(pg->conn, s->name, s->sql, s->nparams, s->types);

        if (PQresultStatus(res) != PGRES_COMMAND_OK) {
            return res;
        }

        PQclear(res);
        s->generation = pg->generation;
    }

    return PQexecPrepared(pg->conn, s->name, s->nparams, s->values,
                          s->lengths, s->formats, 0);
}


static void
vo_pg_reset(vo_stmt_t *st)
{
    vo_pg_stmt_t  *s = vo_pg_st(st);

    if (s->res != NULL) {
        PQclear(s->res);
        s->res = NULL;
    }

    s->row = -1;
    s->rows = 0;
}


static int
vo_pg_column_null(vo_stmt_t *st, int col)
{
    vo_pg_stmt_t  *s = vo_pg_st(st);

    return s->row < 0 || s->row >= s->rows
           || PQgetisnull(s->res, s->row, col);
}


static const char *
vo_pg_column_text(vo_stmt_t *st, int col)
{
    vo_pg_stmt_t  *s = vo_pg_st(st);

    /* as sqlite3_column_text(): NULL for an SQL NULL */

    if (vo_pg_column_null(st, col)) {
        return NULL;
    }

    return PQgetvalue(s->res, s->row, col);
}


static int
vo_pg_column_bytes(vo_stmt_t *st, int col)
{
    vo_pg_stmt_t  *s = vo_pg_st(st);

    return vo_pg_column_null(st, col) ? 0 : PQgetlength(s->res, s->row, col);
}


static int64_t
vo_pg_column_int64(vo_stmt_t *st, int col)
{
    const char  *v;

    v = vo_pg_column_text(st, col);

    if (v == NULL) {
        return 0;
    }

    /* booleans come as "t" and "f" */

    if (v[0] == 't' || v[0] == 'f') {
        return v[0] == 't';
    }

    return strtoll(v, NULL, 10);
}


static double
vo_pg_column_double(vo_stmt_t *st, int col)
{
    const char  *v;

    v = vo_pg_column_text(st, col);

    return v ? strtod(v, NULL) : 0.0;
}


/*
 * A broken connection (the server restarted, a network cut) is reset:
 * one attempt per statement, so a server that is down costs each
 * statement one refused connection, not a wait.
 */

static vo_ledger_rc_t
vo_pg_connected(vo_ledger_t *l)
{
    char      err[VO_ERR_TEXT];
    vo_pg_t  *pg = vo_pg(l);

    if (PQstatus(pg->conn) == CONNECTION_OK) {
        return VO_LEDGER_OK;
    }

    PQreset(pg->conn);

    if (PQstatus(pg->conn) != CONNECTION_OK) {
        vo_pg_oneline(err, sizeof(err), PQerrorMessage(pg->conn));
        snprintf(pg->errmsg, sizeof(pg->errmsg), "the ledger's server is "
                 "unreachable: %.200s", err);
        return VO_LEDGER_BUSY;
    }

    /* the old session's prepared statements are gone with it */

    pg->generation++;

    if (vo_pg_session(l, err, sizeof(err)) != VO_LEDGER_OK) {
        snprintf(pg->errmsg, sizeof(pg->errmsg), "%s", err);
        return VO_LEDGER_BUSY;
    }

    return VO_LEDGER_OK;
}


/*
 * The outcome of a command: the rows it changed, or its error in errmsg
 * and as an rc.  Waits the database gave up (a lock timeout, a deadlock,
 * a serialization failure, too many connections) and a lost server are
 * BUSY: the request is answered 503 + Retry-After and may simply be sent
 * again.  A full disk is FULL (507).
 */

static vo_ledger_rc_t
vo_pg_result(vo_ledger_t *l, PGresult *res)
{
    vo_pg_t         *pg = vo_pg(l);
    const char      *state, *msg;
    ExecStatusType   st;

    st = res ? PQresultStatus(res) : PGRES_FATAL_ERROR;

    if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) {
        pg->changes = strtoll(PQcmdTuples(res), NULL, 10);
        return VO_LEDGER_OK;
    }

    /* the message alone, without the statement's text and position */

    msg = res ? PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : NULL;
    if (msg == NULL || msg[0] == '\0') {
        msg = PQerrorMessage(pg->conn);
    }

    vo_pg_oneline(pg->errmsg, sizeof(pg->errmsg), msg);

    state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
    snprintf(pg->sqlstate, sizeof(pg->sqlstate), "%s", state ? state : "");

    if (PQstatus(pg->conn) != CONNECTION_OK) {
        return VO_LEDGER_BUSY;
    }

    if (state == NULL) {
        return VO_LEDGER_ERROR;
    }

    if (strcmp(state, "53100") == 0) {                 /* disk_full */
        return VO_LEDGER_FULL;
    }

    if (strncmp(state, "08", 2) == 0                  /* connection */
        || strncmp(state, "53", 2) == 0               /* resources */
        || strcmp(state, "40001") == 0                /* serialization */
        || strcmp(state, "40P01") == 0                /* deadlock */
        || strcmp(state, "55P03") == 0                /* lock_timeout */
        || strcmp(state, "57014") == 0                /* canceled */
        || strncmp(state, "57P", 3) == 0)             /* shutting down */
    {
        return VO_LEDGER_BUSY;
    }

    return VO_LEDGER_ERROR;
}


/*
 * libpq's messages on one line, without what the caller says already:
 * "connection to server at ... failed: ", "ERROR:  ", "FATAL:  ".
 */

static void
vo_pg_oneline(char *dst, size_t size, const char *msg)
{
    size_t       n;
    const char  *p;

    if (strncmp(msg, "connection to server ", 21) == 0
        && (p = strstr(msg, " failed: ")) != NULL)
    {
        msg = p + 9;
    }

    if (strncmp(msg, "ERROR:  ", 8) == 0 || strncmp(msg, "FATAL:  ", 8) == 0)
    {
        msg += 8;
    }

    for (n = 0; *msg && n + 1 < size; msg++) {

        if (*msg == '\n' || *msg == '\t' || *msg == '\r') {
            if (n > 0 && dst[n - 1] != ' ') {
                dst[n++] = ' ';
            }

            continue;
        }

        dst[n++] = *msg;
    }

    while (n > 0 && dst[n - 1] == ' ') {
        n--;
    }

    dst[n] = '\0';
}


/*
 * Issue 41: the search index needs pg_trgm, which a role may create only
 * with CREATE on the database (it is a trusted extension); an operator
 * creates it once instead (docs/operations.md).
 */

static void
vo_pg_no_trgm(vo_ledger_t *l, char *err, size_t err_size)
{
    vo_pg_t  *pg = vo_pg(l);

    snprintf(err, err_size, "ledger \"%s\": the role \"%s\" may not create "
             "pg_trgm, which search needs: run CREATE EXTENSION pg_trgm; "
             "in the database once, as its owner or a superuser", pg->name,
             PQuser(pg->conn));
}
