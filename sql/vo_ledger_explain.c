/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The plans of the ledger's statements (every hot query is an
 * index probe; "video-ocr-worker explain", t/pool/114-query-plans.t).
 * The texts are the statement tables' own, as this backend would run
 * them (vo_ledger_sql_text), and the metrics scrape's: a test of the
 * plans never checks a copy.
 *
 * SQLite: EXPLAIN QUERY PLAN of the statement, parameters unbound (the
 * planner does not look at their values).  PostgreSQL: the statement
 * PREPAREd (its parameters' types inferred, as for the ledger's named
 * statements) and its generic plan (plan_cache_mode force_generic_plan:
 * the one that does not depend on the values) EXPLAINed with seqscans
 * discouraged, so that on a small table the plan shows what the
 * planner would do on a big one: a Seq Scan that remains means no index
 * serves the filter, a Sort that no index serves the order.  Nothing is
 * executed; the transaction is rolled back.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vo_ledger.h"
#include "vo_ledger_int.h"


#define VO_EXPLAIN_DEPTH   16
#define VO_EXPLAIN_PARAMS  16


static int vo_explain_explainable(const char *sql);
static vo_ledger_rc_t vo_explain_one(vo_ledger_t *l, int pg, const char *sql,
    vo_buf_t *out, char *err, size_t err_size);
static vo_ledger_rc_t vo_explain_sqlite(vo_ledger_t *l, const char *sql,
    vo_buf_t *out, char *err, size_t err_size);
static vo_ledger_rc_t vo_explain_pg(vo_ledger_t *l, const char *sql,
    vo_buf_t *out, char *err, size_t err_size);
static vo_ledger_rc_t vo_explain_rows(vo_ledger_t *l, const char *sql,
    int col, vo_buf_t *out, char *err, size_t err_size);


vo_ledger_rc_t
vo_ledger_explain(vo_ledger_t *l, vo_buf_t *out, char *err, size_t err_size)
{
    int             id, pg;
    const char     *sql;
    vo_ledger_rc_t  lrc;

    pg = (l->be == &vo_ledger_pg);

    if (pg) {
        lrc = vo_ledger_begin(l, err, err_size);

        if (lrc == VO_LEDGER_OK) {
            lrc = vo_ledger_exec(l, "SET LOCAL plan_cache_mode ="
                                 " force_generic_plan", err, err_size);
        }

        if (lrc == VO_LEDGER_OK) {
            lrc = vo_ledger_exec(l, "SET LOCAL enable_seqscan = off", err,
                                 err_size);
        }

        if (lrc != VO_LEDGER_OK) {
            vo_ledger_rollback(l);
            return lrc;
        }
    }

    lrc = VO_LEDGER_OK;

    for (id = 0; id <= VO_STMT_COUNT && lrc == VO_LEDGER_OK; id++) {

        /* the statement tables, then the metrics scrape */
        sql = id < VO_STMT_COUNT ? vo_ledger_sql_text(l, id)
                                 : vo_ledger_metrics_sql;

        if (sql == NULL || !vo_explain_explainable(sql)) {
            continue;
        }

        vo_buf_printf(out, "-- statement %d%s\n%s\n", id,
                      id == VO_STMT_COUNT ? " (metrics)" : "", sql);

        lrc = vo_explain_one(l, pg, sql, out, err, err_size);

        vo_buf_addc(out, '\n');
    }

    if (pg) {
        vo_ledger_rollback(l);
    }

    if (lrc == VO_LEDGER_OK && !vo_buf_ok(out)) {
        snprintf(err, err_size, "explain: out of memory");
        lrc = VO_LEDGER_ERROR;
    }

    return lrc;
}


/* Queries and writes have plans; BEGIN, SAVEPOINT and the like do not. */

static int
vo_explain_explainable(const char *sql)
{
    static const char  *verbs[] = {
        "SELECT", "INSERT", "UPDATE", "DELETE", "WITH", NULL
    };

    const char  **v;

    for (v = verbs; *v != NULL; v++) {
        if (strncmp(sql, *v, strlen(*v)) == 0) {
            return 1;
        }
    }

    return 0;
}


/*
 * One statement's plan, its lines indented by depth; a statement that
 * cannot be explained gets a line that says why ("-- cannot explain:
 * ..."), which a test of the plans counts as a failure.
 */

static vo_ledger_rc_t
vo_explain_one(vo_ledger_t *l, int pg, const char *sql, vo_buf_t *out,
    char *err, size_t err_size)
{
    char            undo[VO_ERR_TEXT];
    vo_ledger_rc_t  lrc;

    if (!pg) {
        lrc = vo_explain_sqlite(l, sql, out, err, err_size);

    } else {
        lrc = vo_ledger_exec(l, "SAVEPOINT vo_explain", err, err_size);

        if (lrc == VO_LEDGER_OK) {
            lrc = vo_explain_pg(l, sql, out, err, err_size);

            (void) vo_ledger_exec(l, lrc == VO_LEDGER_OK
                                     ? "RELEASE vo_explain"
                                     : "ROLLBACK TO vo_explain",
                                  undo, sizeof(undo));
        }
    }

    if (lrc == VO_LEDGER_ERROR) {
        vo_buf_printf(out, "-- cannot explain: %s\n", err);
        lrc = VO_LEDGER_OK;
    }

    return lrc;
}


static vo_ledger_rc_t
vo_explain_sqlite(vo_ledger_t *l, const char *sql, vo_buf_t *out, char *err,
    size_t err_size)
{
    char            *q;
    size_t           n;
    vo_ledger_rc_t   lrc;

    n = strlen(sql) + sizeof("EXPLAIN QUERY PLAN ");

    q = malloc(n);
    if (q == NULL) {
        snprintf(err, err_size, "explain: out of memory");
        return VO_LEDGER_ERROR;
    }

    snprintf(q, n, "EXPLAIN QUERY PLAN %s", sql);

    /* rows: id, parent, notused, detail */
    lrc = vo_explain_rows(l, q, 3, out, err, err_size);

    free(q);

    return lrc;
}


/*
 * PREPARE with ?N as $N (as vo_ledger_pg.c sends it), EXPLAIN EXECUTE
 * with every parameter NULL: the generic plan ignores the values.  The
 * ledger binds numbers as bigint: a parameter whose type the server
 * cannot infer from the text alone (the value of a CASE, say) is tried
 * as bigint, one after the other, until the statement prepares.
 */

static vo_ledger_rc_t
vo_explain_pg(vo_ledger_t *l, const char *sql, vo_buf_t *out, char *err,
    size_t err_size)
{
    int              quoted, n, k, nparams;
    char            *q, *body, *p, undo[VO_ERR_TEXT];
    size_t           len;
    const char      *s;
    vo_ledger_rc_t   lrc;

    len = strlen(sql);

    body = malloc(len + 1);
    q = malloc(len + 64 + 10 * VO_EXPLAIN_PARAMS);

    if (body == NULL || q == NULL) {
        free(body);
        free(q);
        snprintf(err, err_size, "explain: out of memory");
        return VO_LEDGER_ERROR;
    }

    p = body;
    quoted = 0;
    nparams = 0;

    for (s = sql; *s; s++) {
        if (*s == '\'') {
            quoted = !quoted;
        }

        if (*s == '?' && !quoted) {
            *p++ = '$';
            n = (int) strtol(s + 1, NULL, 10);
            nparams = n > nparams ? n : nparams;
            continue;
        }

        *p++ = *s;
    }

    *p = '\0';

    if (nparams > VO_EXPLAIN_PARAMS) {
        snprintf(err, err_size, "explain: more than %d parameters",
                 VO_EXPLAIN_PARAMS);
        lrc = VO_LEDGER_ERROR;
        goto done;
    }

    /* k: the parameter tried as bigint, -1 none */

    lrc = VO_LEDGER_ERROR;

    for (k = -1; k < nparams && lrc != VO_LEDGER_OK; k++) {
        p = q + sprintf(q, "PREPARE vo_explain");

        for (n = 0; k >= 0 && n < nparams; n++) {
            p += sprintf(p, "%s%s", n ? ", " : " (",
                         n == k ? "bigint" : "unknown");
        }

        sprintf(p, "%s AS %s", k >= 0 ? ")" : "", body);

        if (vo_ledger_exec(l, "SAVEPOINT vo_explain_try", undo,
                           sizeof(undo)) != VO_LEDGER_OK)
        {
            snprintf(err, err_size, "%s", undo);
            goto done;
        }

        /* the first failure's reason is the one reported */
        lrc = vo_ledger_exec(l, q, k < 0 ? err : undo,
                             k < 0 ? err_size : sizeof(undo));

        (void) vo_ledger_exec(l, lrc == VO_LEDGER_OK
                                 ? "RELEASE vo_explain_try"
                                 : "ROLLBACK TO vo_explain_try",
                              undo, sizeof(undo));
    }

    if (lrc != VO_LEDGER_OK) {
        goto done;
    }

    p = q + sprintf(q, "EXPLAIN EXECUTE vo_explain");

    for (n = 0; n < nparams; n++) {
        p += sprintf(p, "%sNULL", n ? ", " : "(");
    }

    if (nparams > 0) {
        sprintf(p, ")");
    }

    lrc = vo_explain_rows(l, q, 0, out, err, err_size);

    (void) vo_ledger_exec(l, "DEALLOCATE vo_explain", undo, sizeof(undo));

done:

    free(body);
    free(q);

    return lrc;
}


/* Every row's column col, a line each. */

static vo_ledger_rc_t
vo_explain_rows(vo_ledger_t *l, const char *sql, int col, vo_buf_t *out,
    char *err, size_t err_size)
{
    int          rc, i, depth, id, parent;
    int          ids[VO_EXPLAIN_DEPTH];
    const char  *line;
    vo_stmt_t   *s;

    s = vo_ledger_prepare(l, sql, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    depth = 0;

    while ((rc = vo_step(s)) == VO_ROW) {
        line = (const char *) vo_column_text(s, col);

        if (col == 3) {
            /* SQLite: the depth from the parent ids */
            id = vo_column_int(s, 0);
            parent = vo_column_int(s, 1);

            while (depth > 0 && ids[depth - 1] != parent) {
                depth--;
            }

            for (i = 0; i < depth; i++) {
                vo_buf_adds(out, "  ");
            }

            if (depth < VO_EXPLAIN_DEPTH) {
                ids[depth++] = id;
            }
        }

        vo_buf_printf(out, "%s\n", line ? line : "");
    }

    if (rc != VO_DONE) {
        snprintf(err, err_size, "explain: %s", vo_ledger_errmsg(l));
        vo_stmt_finalize(s);
        return vo_ledger_rc(rc);
    }

    vo_stmt_finalize(s);

    return VO_LEDGER_OK;
}
