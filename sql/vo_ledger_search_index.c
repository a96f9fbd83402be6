/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Writing the search index (issue 41; the SEARCH section of
 * sql/schema.sql, invariant 15): a published result's segments, folded,
 * into search_segments (which SQLite's FTS5 and PostgreSQL's pg_trgm
 * index), their words counted in search_words; and all of it out again.
 * Every function here runs inside its caller's transaction: the publish
 * (vo_ledger_worker.c, under its fence), the DELETE (vo_ledger_jobs.c),
 * the job retention (vo_ledger_janitor.c), the migration to version 5
 * (the backends' migrate).  The index is read by vo_ledger_search.c.
 *
 * Why from the published JSON and not from a table of segments: the
 * ledger has none (the segments exist only in the result, which the
 * worker renders once), the JSON is what every format was made from,
 * and a result published before the index existed can only be indexed
 * from it.  A hit reads its segment back from the same document, so
 * the index holds nothing but the folded text.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vo_fold.h"
#include "vo_ledger.h"
#include "vo_ledger_int.h"
#include "vo_query.h"
#include "vo_result.h"


#define VO_SEARCH_NUM_MAX    ((INT64_C(1) << 23) - 1)

/* the words search_words lists: what a query word one edit away can be */
#define VO_SEARCH_WORD_MIN   3


const char  *vo_ledger_search_sql[VO_STMT_COUNT] = {

    [VO_STMT_SEARCH_TENANT] =
    "SELECT num FROM search_tenants WHERE tenant = ?1",

    [VO_STMT_SEARCH_TENANT_ADD] =
    "INSERT INTO search_tenants (tenant) VALUES (?1)"
    " ON CONFLICT (tenant) DO NOTHING",

    /* the tenant's next ?2 segment numbers */
    [VO_STMT_SEARCH_NUMBER] =
    "UPDATE search_tenants SET next = next + ?2 WHERE num = ?1"
    " RETURNING next",

    /* in the publish's transaction (invariant 15) */
    [VO_STMT_SEARCH_JOB_ADD] =
    "INSERT INTO search_jobs (job_id, base, segments) VALUES (?1, ?2, ?3)",

    [VO_STMT_SEARCH_JOB_FIND] =
    "SELECT base, segments FROM search_jobs WHERE job_id = ?1",

    /* with its result (invariant 15) */
    [VO_STMT_SEARCH_JOB_DEL] =
    "DELETE FROM search_jobs WHERE job_id = ?1",

    /* ?1 the id of the first segment; ?2 the folded texts, a JSON array
     * (PostgreSQL: VO_SEARCH_SEGMENTS_ADD_PG_SQL), inserted in the order
     * of their ids: FTS5 flushes its pending terms to a new segment of
     * its own whenever a rowid is below the one before */
    [VO_STMT_SEARCH_SEGMENTS_ADD] =
    "INSERT INTO search_segments (id, folded)"
    " SELECT ?1 + key, value FROM json_each(?2)",

    [VO_STMT_SEARCH_SEGMENTS_DEL] =
    "DELETE FROM search_segments WHERE id BETWEEN ?1 AND ?2",

    /* ?2 [[len, word, rev], ...], the words ?3 (a job's base) has: the
     * ones the tenant does not have yet (PostgreSQL:
     * VO_SEARCH_WORDS_ADD_PG_SQL) */
    [VO_STMT_SEARCH_WORDS_ADD] =
    "INSERT INTO search_words (num, len, word, rev, base)"
    " SELECT ?1, value->>0, value->>1, value->>2, ?3"
    " FROM json_each(?2) WHERE true"
    " ON CONFLICT (num, len, word) DO NOTHING",

    /* the words a job brought, when it goes (invariant 15) */
    [VO_STMT_SEARCH_WORDS_OF] =
    "SELECT len, word FROM search_words WHERE num = ?1 AND base = ?2",

    [VO_STMT_SEARCH_WORD_MOVE] =
    "UPDATE search_words SET base = ?4"
    " WHERE num = ?1 AND len = ?2 AND word = ?3",

    [VO_STMT_SEARCH_WORD_DROP] =
    "DELETE FROM search_words WHERE num = ?1 AND len = ?2 AND word = ?3",

    /* VO_STMT_SEARCH_PROBE, VO_STMT_SEARCH_COUNT: each backend's
     * (vo_ledger_int.h) */

    /* the query's side (vo_ledger_search.c): a word, the words of a
     * length by the first or the last half */
    [VO_STMT_SEARCH_WORD] =
    "SELECT 1 FROM search_words WHERE num = ?1 AND len = ?2"
    " AND word = ?3",

    [VO_STMT_SEARCH_WORDS_PREFIX] =
    "SELECT word FROM search_words WHERE num = ?1 AND len = ?2"
    " AND word BETWEEN ?3 AND ?4 LIMIT ?5",

    [VO_STMT_SEARCH_WORDS_SUFFIX] =
    "SELECT word FROM search_words WHERE num = ?1 AND len = ?2"
    " AND rev BETWEEN ?3 AND ?4 LIMIT ?5",

    /* VO_STMT_SEARCH_MATCH, VO_STMT_SEARCH_TOKENS: SQLite's
     * (vo_ledger_int.h) */

    /* the job of a segment id: the run of ids it is in */
    [VO_STMT_SEARCH_JOB_OF] =
    "SELECT job_id, base, segments FROM search_jobs WHERE base <= ?1"
    " ORDER BY base DESC LIMIT 1",

    /* what a list of hits shows of its job, and its result; the tenant
     * once more */
    [VO_STMT_SEARCH_JOB_INFO] =
    "SELECT j.created_at, j.finished_at, j.options, j.media_deleted_at,"
    " (SELECT u.filename FROM uploads u WHERE u.job_id = j.job_id"
    " AND u.filename IS NOT NULL LIMIT 1), r.body"
    " FROM jobs j LEFT JOIN results r ON r.job_id = j.job_id"
    " AND r.format = 'json'"
    " WHERE j.job_id = ?1 AND j.tenant = ?2",
};


typedef struct {
    vo_buf_t    segments;       /* the folded texts, a JSON array */
    vo_buf_t    words;          /* "word\0" each, before sorting */
    size_t      nwords;
    size_t      n;
} vo_search_doc_t;


static int vo_search_segment(void *data, size_t index, const char *obj,
    size_t obj_len, const char *text, size_t text_len);
static void vo_search_words_of(vo_buf_t *words, size_t *nwords,
    const char *folded, size_t len);
static vo_ledger_rc_t vo_search_add_words(vo_ledger_t *l, int64_t num,
    vo_buf_t *words, size_t nwords, int64_t base, char *err,
    size_t err_size);
static char **vo_search_sorted(vo_buf_t *words, size_t *nwords);
static int vo_search_word_cmp(const void *a, const void *b);
static vo_ledger_rc_t vo_search_reword(vo_ledger_t *l, int64_t num,
    const char *word, char *err, size_t err_size);
static vo_ledger_rc_t vo_search_tenant_num(vo_ledger_t *l,
    const char *tenant, size_t tenant_len, int64_t *num, char *err,
    size_t err_size);
static vo_ledger_rc_t vo_search_int(vo_ledger_t *l, vo_stmt_t *s,
    const char *what, int64_t *v, char *err, size_t err_size);


vo_ledger_rc_t
vo_ledger_search_index(vo_ledger_t *l, const char *job_id,
    const char *tenant, size_t tenant_len, const char *doc, size_t len,
    char *err, size_t err_size)
{
    char             why[VO_ERR_TEXT];
    int64_t          num, next, base;
    vo_stmt_t       *s;
    vo_ledger_rc_t   lrc;
    vo_search_doc_t  d;

    /* a job is indexed once: a second publish replaces the first */

    lrc = vo_ledger_search_forget(l, job_id, err, err_size);
    if (lrc != VO_LEDGER_OK) {
        return lrc;
    }

    memset(&d, 0, sizeof(d));
    vo_buf_init(&d.segments);
    vo_buf_init(&d.words);

    vo_buf_addc(&d.segments, '[');

    if (vo_result_segments(doc, len, vo_search_segment, &d, why,
                           sizeof(why))
        != 0)
    {
        /* the worker wrote it: a result it cannot read is a bug */
        snprintf(err, err_size, "index job %s: %s", job_id, why);
        lrc = VO_LEDGER_ERROR;
        goto done;
    }

    vo_buf_addc(&d.segments, ']');

    if (!vo_buf_ok(&d.segments) || !vo_buf_ok(&d.words)) {
        snprintf(err, err_size, "index job %s: out of memory", job_id);
        lrc = VO_LEDGER_ERROR;
        goto done;
    }

    if (d.n == 0) {
        goto done;
    }

    lrc = vo_search_tenant_num(l, tenant, tenant_len, &num, err, err_size);
    if (lrc != VO_LEDGER_OK) {
        goto done;
    }

    /* the job's run of ids, below every run before it: newest first is
     * the order of the ids */

    s = vo_ledger_stmt(l, VO_STMT_SEARCH_NUMBER, err, err_size);
    if (s != NULL) {
        vo_bind_int(s, 1, num);
        vo_bind_int(s, 2, (int64_t) d.n);
    }

    lrc = vo_search_int(l, s, "number segments", &next, err, err_size);
    if (lrc != VO_LEDGER_OK) {
        goto done;
    }

    if (next >= (INT64_C(1) << VO_SEARCH_NUM_SHIFT)) {
        snprintf(err, err_size, "index job %s: the tenant has numbered "
                 "2^40 - 1 segments", job_id);
        lrc = VO_LEDGER_ERROR;
        goto done;
    }

    base = (num << VO_SEARCH_NUM_SHIFT) + (INT64_C(1) << VO_SEARCH_NUM_SHIFT)
           - next;

    s = vo_ledger_stmt(l, VO_STMT_SEARCH_JOB_ADD, err, err_size);
    if (s != NULL) {
        vo_bind_text(s, 1, job_id, -1);
        vo_bind_int(s, 2, base);
        vo_bind_int(s, 3, (int64_t) d.n);
    }

    lrc = vo_ledger_step_done(l, s, "index job", err, err_size);

    if (lrc == VO_LEDGER_OK) {
        s = vo_ledger_stmt(l, VO_STMT_SEARCH_SEGMENTS_ADD, err, err_size);
        if (s != NULL) {
            vo_bind_int(s, 1, base);
            vo_bind_text(s, 2, d.segments.data, (int) d.segments.len);
        }

        lrc = vo_ledger_step_done(l, s, "index segments", err, err_size);
    }

    if (lrc == VO_LEDGER_OK) {
        lrc = vo_search_add_words(l, num, &d.words, d.nwords, base, err,
                                  err_size);
    }

done:

    vo_buf_free(&d.segments);
    vo_buf_free(&d.words);

    return lrc;
}


/* One segment of the result: its text folded, its words kept. */

static int
vo_search_segment(void *data, size_t index, const char *obj, size_t obj_len,
    const char *text, size_t text_len)
{
    vo_search_doc_t  *d = data;

    vo_buf_t  folded;

    (void) index;
    (void) obj;
    (void) obj_len;

    vo_buf_init(&folded);
    vo_fold(&folded, text, text_len, VO_FOLD_SPACED, NULL);

    if (!vo_buf_ok(&folded)) {
        d->segments.failed = 1;
        return 1;
    }

    if (d->n++ > 0) {
        vo_buf_addc(&d->segments, ',');
    }

    vo_json_str(&d->segments, folded.data, folded.len);

    vo_search_words_of(&d->words, &d->nwords, folded.data, folded.len);

    vo_buf_free(&folded);

    return 0;
}


/*
 * The words of a folded text that search_words lists: VO_SEARCH_WORD_MIN
 * to VO_QUERY_WORD_MAX code points, no digit (a query word with one is
 * never looked for one edit away), none of a spaced script (their
 * characters are words of one).  Appended as "word\0".
 */

static void
vo_search_words_of(vo_buf_t *words, size_t *nwords, const char *folded,
    size_t len)
{
    size_t       cps;
    const char  *p, *e, *last, *c;

    p = folded;
    last = folded + len;

    while (p < last) {
        while (p < last && *p == ' ') {
            p++;
        }

        for (e = p; e < last && *e != ' '; e++) { /* void */ }

        if (e == p) {
            break;
        }

        cps = vo_utf8_count(p, (size_t) (e - p));

        for (c = p; c < e && (*c < '0' || *c > '9'); c++) { /* void */ }

        if (c == e && cps >= VO_SEARCH_WORD_MIN && cps <= VO_QUERY_WORD_MAX) {
            vo_buf_add(words, p, (size_t) (e - p));
            vo_buf_addc(words, '\0');
            (*nwords)++;
        }

        p = e;
    }
}


/*
 * The words (nwords "word\0") the job of base has, in the tenant's list
 * unless there already: sorted and unique, as [[len, word, rev], ...].
 */

static vo_ledger_rc_t
vo_search_add_words(vo_ledger_t *l, int64_t num, vo_buf_t *words,
    size_t nwords, int64_t base, char *err, size_t err_size)
{
    char            **w, rev[VO_QUERY_WORD_MAX * 4 + 1];
    size_t            i, k, n, len, at;
    vo_buf_t          arr;
    vo_stmt_t        *s;
    vo_ledger_rc_t    lrc;

    if (nwords == 0) {
        return VO_LEDGER_OK;
    }

    w = vo_search_sorted(words, &nwords);
    if (w == NULL) {
        snprintf(err, err_size, "index words: out of memory");
        return VO_LEDGER_ERROR;
    }

    vo_buf_init(&arr);
    vo_buf_addc(&arr, '[');

    for (i = 0; i < nwords; i++) {
        len = strlen(w[i]);

        /* the word backwards, code point by code point */

        at = len;

        for (k = 0; k < len; k += n) {
            (void) vo_utf8_next((unsigned char *) w[i] + k, len - k, &n);
            at -= n;
            memcpy(rev + at, w[i] + k, n);
        }

        vo_buf_printf(&arr, "%s[%zu,", i ? "," : "",
                      vo_utf8_count(w[i], len));
        vo_json_str(&arr, w[i], len);
        vo_buf_addc(&arr, ',');
        vo_json_str(&arr, rev, len);
        vo_buf_addc(&arr, ']');
    }

    vo_buf_addc(&arr, ']');
    free(w);

    if (!vo_buf_ok(&arr)) {
        vo_buf_free(&arr);
        snprintf(err, err_size, "index words: out of memory");
        return VO_LEDGER_ERROR;
    }

    s = vo_ledger_stmt(l, VO_STMT_SEARCH_WORDS_ADD, err, err_size);
    if (s != NULL) {
        vo_bind_int(s, 1, num);
        vo_bind_text(s, 2, arr.data, (int) arr.len);
        vo_bind_int(s, 3, base);
    }

    lrc = vo_ledger_step_done(l, s, "index words", err, err_size);

    vo_buf_free(&arr);

    return lrc;
}


/* The words of words (nwords "word\0") sorted, each once: *nwords how
 * many; NULL when memory runs out.  free() it; the words stay in words. */

static char **
vo_search_sorted(vo_buf_t *words, size_t *nwords)
{
    char    **w, *p;
    size_t    i, n;

    w = malloc(*nwords * sizeof(char *));
    if (w == NULL) {
        return NULL;
    }

    for (i = 0, p = words->data; i < *nwords; i++) {
        w[i] = p;
        p += strlen(p) + 1;
    }

    qsort(w, *nwords, sizeof(char *), vo_search_word_cmp);

    for (i = 0, n = 0; i < *nwords; i++) {
        if (n == 0 || strcmp(w[i], w[n - 1]) != 0) {
            w[n++] = w[i];
        }
    }

    *nwords = n;

    return w;
}


/* By length in code points, then bytewise: search_words' key order. */

static int
vo_search_word_cmp(const void *a, const void *b)
{
    size_t       na, nb;
    const char  *x = *(const char *const *) a;
    const char  *y = *(const char *const *) b;

    na = vo_utf8_count(x, strlen(x));
    nb = vo_utf8_count(y, strlen(y));

    if (na != nb) {
        return na < nb ? -1 : 1;
    }

    return strcmp(x, y);
}


vo_ledger_rc_t
vo_ledger_search_forget(vo_ledger_t *l, const char *job_id, char *err,
    size_t err_size)
{
    int              rc;
    size_t           i, nwords;
    int64_t          base, n, num;
    char           **w;
    vo_buf_t         words;
    vo_stmt_t       *s;
    vo_ledger_rc_t   lrc;

    s = vo_ledger_stmt(l, VO_STMT_SEARCH_JOB_FIND, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    vo_bind_text(s, 1, job_id, -1);

    rc = vo_step(s);

    if (rc != VO_ROW) {
        vo_reset(s);

        if (rc == VO_DONE) {
            return VO_LEDGER_OK;            /* not indexed */
        }

        snprintf(err, err_size, "unindex job %s: %s", job_id,
                 vo_ledger_errmsg(l));
        return vo_ledger_rc(rc);
    }

    base = vo_column_int64(s, 0);
    n = vo_column_int64(s, 1);
    num = base >> VO_SEARCH_NUM_SHIFT;

    vo_reset(s);

    /* its segments (FTS5: the triggers take them out of search_fts) and
     * its run of ids */

    s = vo_ledger_stmt(l, VO_STMT_SEARCH_SEGMENTS_DEL, err, err_size);
    if (s != NULL) {
        vo_bind_int(s, 1, base);
        vo_bind_int(s, 2, base + n - 1);
    }

    lrc = vo_ledger_step_done(l, s, "unindex segments", err, err_size);

    if (lrc == VO_LEDGER_OK) {
        s = vo_ledger_stmt(l, VO_STMT_SEARCH_JOB_DEL, err, err_size);
        if (s != NULL) {
            vo_bind_text(s, 1, job_id, -1);
        }

        lrc = vo_ledger_step_done(l, s, "unindex job", err, err_size);
    }

    if (lrc != VO_LEDGER_OK) {
        return lrc;
    }

    /* the words it brought: to another job that has them, or gone */

    vo_buf_init(&words);
    nwords = 0;

    s = vo_ledger_stmt(l, VO_STMT_SEARCH_WORDS_OF, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    vo_bind_int(s, 1, num);
    vo_bind_int(s, 2, base);

    while ((rc = vo_step(s)) == VO_ROW) {
        vo_buf_add(&words, vo_column_text(s, 1),
                   (size_t) vo_column_bytes(s, 1));
        vo_buf_addc(&words, '\0');
        nwords++;
    }

    vo_reset(s);

    if (rc != VO_DONE || !vo_buf_ok(&words)) {
        snprintf(err, err_size, "unindex job %s: %s", job_id,
                 rc != VO_DONE ? vo_ledger_errmsg(l) : "out of memory");
        vo_buf_free(&words);
        return rc != VO_DONE ? vo_ledger_rc(rc) : VO_LEDGER_ERROR;
    }

    w = nwords ? vo_search_sorted(&words, &nwords) : NULL;

    if (nwords > 0 && w == NULL) {
        snprintf(err, err_size, "unindex job %s: out of memory", job_id);
        lrc = VO_LEDGER_ERROR;
    }

    for (i = 0; lrc == VO_LEDGER_OK && i < nwords; i++) {
        lrc = vo_search_reword(l, num, w[i], err, err_size);
    }

    free(w);
    vo_buf_free(&words);

    return lrc;
}


/*
 * A word whose job went: to another job of the tenant that has it as a
 * whole word, if one does (any: the first the index gives), else out of
 * the list.
 */

static vo_ledger_rc_t
vo_search_reword(vo_ledger_t *l, int64_t num, const char *word, char *err,
    size_t err_size)
{
    int              rc, pg;
    char             pat[VO_QUERY_WORD_MAX * 4 + 8];
    size_t           len, cps;
    int64_t          lo, id, other;
    vo_stmt_t       *s;
    vo_ledger_rc_t   lrc;

    pg = (l->be == &vo_ledger_pg);
    len = strlen(word);
    cps = vo_utf8_count(word, len);
    lo = num << VO_SEARCH_NUM_SHIFT;

    /* FTS5: the word, in search_tokens; LIKE: "% word %" (a folded word
     * holds neither '"' nor '%' nor '_') */

    snprintf(pat, sizeof(pat), pg ? "%% %s %%" : "\"%s\"", word);

    s = vo_ledger_stmt(l, VO_STMT_SEARCH_PROBE, err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    vo_bind_text(s, 1, pat, -1);
    vo_bind_int(s, 2, lo);
    vo_bind_int(s, 3, lo + (INT64_C(1) << VO_SEARCH_NUM_SHIFT) - 1);

    rc = vo_step(s);
    id = (rc == VO_ROW) ? vo_column_int64(s, 0) : -1;

    vo_reset(s);

    if (rc != VO_ROW && rc != VO_DONE) {
        snprintf(err, err_size, "reword \"%s\": %s", word,
                 vo_ledger_errmsg(l));
        return vo_ledger_rc(rc);
    }

    other = -1;

    if (id >= 0) {
        s = vo_ledger_stmt(l, VO_STMT_SEARCH_JOB_OF, err, err_size);
        if (s == NULL) {
            return VO_LEDGER_ERROR;
        }

        vo_bind_int(s, 1, id);

        rc = vo_step(s);

        if (rc == VO_ROW) {
            other = vo_column_int64(s, 1);
        }

        vo_reset(s);

        if (rc != VO_ROW && rc != VO_DONE) {
            snprintf(err, err_size, "reword \"%s\": %s", word,
                     vo_ledger_errmsg(l));
            return vo_ledger_rc(rc);
        }
    }

    s = vo_ledger_stmt(l, other >= 0 ? VO_STMT_SEARCH_WORD_MOVE
                                     : VO_STMT_SEARCH_WORD_DROP,
                       err, err_size);
    if (s != NULL) {
        vo_bind_int(s, 1, num);
        vo_bind_int(s, 2, (int64_t) cps);
        vo_bind_text(s, 3, word, (int) len);

        if (other >= 0) {
            vo_bind_int(s, 4, other);
        }
    }

    lrc = vo_ledger_step_done(l, s, "reword", err, err_size);

    return lrc;
}


/*
 * The migration that brought the index (from an older version): every
 * done job's published result, oldest first, so that the newer a result
 * the lower its ids, as for results published from now on.  The ids first
 * (PostgreSQL's statements hold their whole result), then one result
 * at a time.
 */

vo_ledger_rc_t
vo_ledger_search_migrate(vo_ledger_t *l, int64_t from, char *err,
    size_t err_size)
{
    int              rc;
    char            *ids, *nids;
    size_t           n, cap, i;
    vo_stmt_t       *s, *r;
    const char      *v;
    vo_ledger_rc_t   lrc;

    if (from == 0 || from >= VO_SEARCH_SCHEMA_VERSION) {
        return VO_LEDGER_OK;
    }

    s = vo_ledger_prepare(l, "SELECT job_id FROM jobs WHERE state = 'done'"
                          " ORDER BY created_at, job_id", err, err_size);
    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    ids = NULL;
    n = 0;
    cap = 0;
    lrc = VO_LEDGER_OK;

    while ((rc = vo_step(s)) == VO_ROW) {
        if (n == cap) {
            cap = cap ? cap * 2 : 1024;
            nids = realloc(ids, cap * (VO_JOB_ID_LEN + 1));
            if (nids == NULL) {
                snprintf(err, err_size, "index the results: out of memory");
                lrc = VO_LEDGER_ERROR;
                break;
            }

            ids = nids;
        }

        vo_ledger_copy_text(ids + n * (VO_JOB_ID_LEN + 1), VO_JOB_ID_LEN + 1,
                            s, 0);
        n++;
    }

    if (lrc == VO_LEDGER_OK && rc != VO_DONE) {
        snprintf(err, err_size, "index the results: %s",
                 vo_ledger_errmsg(l));
        lrc = vo_ledger_rc(rc);
    }

    vo_stmt_finalize(s);

    r = NULL;

    if (lrc == VO_LEDGER_OK && n > 0) {
        r = vo_ledger_prepare(l, "SELECT j.tenant, r.body FROM jobs j"
                              " JOIN results r ON r.job_id = j.job_id"
                              " AND r.format = 'json'"
                              " WHERE j.job_id = ?1", err, err_size);
        lrc = r ? VO_LEDGER_OK : VO_LEDGER_ERROR;
    }

    for (i = 0; lrc == VO_LEDGER_OK && i < n; i++) {
        v = ids + i * (VO_JOB_ID_LEN + 1);

        vo_bind_text(r, 1, v, -1);

        rc = vo_step(r);

        if (rc == VO_ROW) {
            lrc = vo_ledger_search_index(l, v, vo_column_text(r, 0),
                                         (size_t) vo_column_bytes(r, 0),
                                         vo_column_text(r, 1),
                                         (size_t) vo_column_bytes(r, 1),
                                         err, err_size);

        } else if (rc != VO_DONE) {
            snprintf(err, err_size, "index the result of %s: %s", v,
                     vo_ledger_errmsg(l));
            lrc = vo_ledger_rc(rc);
        }

        vo_reset(r);
    }

    if (r != NULL) {
        vo_stmt_finalize(r);
    }

    free(ids);

    return lrc;
}


/* The tenant's number, given on its first indexed job. */

static vo_ledger_rc_t
vo_search_tenant_num(vo_ledger_t *l, const char *tenant, size_t tenant_len,
    int64_t *num, char *err, size_t err_size)
{
    int              pass;
    vo_stmt_t       *s;
    vo_ledger_rc_t   lrc;

    for (pass = 0; pass < 2; pass++) {
        s = vo_ledger_stmt(l, VO_STMT_SEARCH_TENANT, err, err_size);
        if (s != NULL) {
            vo_bind_text(s, 1, tenant, (int) tenant_len);
        }

        lrc = vo_search_int(l, s, "search tenant", num, err, err_size);

        if (lrc != VO_LEDGER_NOT_FOUND) {
            break;
        }

        if (pass == 1) {
            snprintf(err, err_size, "search tenant: not found after its "
                     "insertion");
            return VO_LEDGER_ERROR;
        }

        s = vo_ledger_stmt(l, VO_STMT_SEARCH_TENANT_ADD, err, err_size);
        if (s != NULL) {
            vo_bind_text(s, 1, tenant, (int) tenant_len);
        }

        lrc = vo_ledger_step_done(l, s, "add search tenant", err, err_size);
        if (lrc != VO_LEDGER_OK) {
            return lrc;
        }
    }

    if (lrc == VO_LEDGER_OK && (*num < 1 || *num > VO_SEARCH_NUM_MAX)) {
        snprintf(err, err_size, "search tenant number %lld: more tenants "
                 "than the index numbers (2^23)", (long long) *num);
        return VO_LEDGER_ERROR;
    }

    return lrc;
}


/* The one integer of a statement's one row: NOT_FOUND when it has none. */

static vo_ledger_rc_t
vo_search_int(vo_ledger_t *l, vo_stmt_t *s, const char *what, int64_t *v,
    char *err, size_t err_size)
{
    int             rc;
    vo_ledger_rc_t  lrc;

    if (s == NULL) {
        return VO_LEDGER_ERROR;
    }

    rc = vo_step(s);

    if (rc == VO_ROW) {
        *v = vo_column_int64(s, 0);
        rc = vo_step(s);
        lrc = VO_LEDGER_OK;

    } else if (rc == VO_DONE) {
        lrc = VO_LEDGER_NOT_FOUND;

    } else {
        snprintf(err, err_size, "%s: %s", what, vo_ledger_errmsg(l));
        lrc = vo_ledger_rc(rc);
    }

    vo_reset(s);

    return lrc;
}
