/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Search (issue 41): the segments of a tenant's published results that
 * a query (lib/vo_query.h) matches, best first, read from the index
 * that vo_ledger_search_index.c writes (the SEARCH section of
 * sql/schema.sql), rendered as the reply of the video_ocr_search
 * endpoint (docs/http-api.md, "Search").
 *
 * Best first is by tier, then newest first: the tiers of vo_query.h one
 * after the other (exact phrase, phrase in longer words, every word,
 * every word give or take one edit), each walked up the tenant's range
 * of ids (newest job first) until the page is full; a tier excludes
 * what the ones before it found.  A cursor is where the last page
 * stopped (its tier and id).  Each tier is one index query and a test
 * of its rows: SQLite's FTS5 MATCH of the tier's words, by words or by
 * trigrams (quoted: the folded words hold no FTS5 syntax), gives
 * candidates, the test in C keeps the hits; PostgreSQL's LIKE patterns, in parameters,
 * which pg_trgm's GIN index serves, give the hits.  Both compare the
 * same folded bytes, and the test decides: the same query finds the
 * same segments on either backend.
 *
 * The search reads in one transaction (a snapshot): a job deleted
 * meanwhile is not half there.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE             /* memmem */
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vo_fold.h"
#include "vo_ledger_search_int.h"


static void vo_search_forms(vo_search_t *s);
static int vo_search_tier(vo_search_t *s, int tier, vo_buf_t *expr);
static void vo_search_named(vo_search_t *s, size_t *named, size_t *n);
static int vo_search_shorter(const vo_query_word_t *a,
    const vo_query_word_t *b);
static void vo_search_term(vo_buf_t *b, const char *t, size_t n,
    int window);
static size_t vo_search_pg_str(vo_search_t *s, const char *t, size_t n);
static void vo_search_pg_has(vo_search_t *s, vo_buf_t *b, const char *t,
    size_t n, int yes);
static void vo_search_pg_like(vo_search_t *s, vo_buf_t *b, const char *t,
    size_t n);
static void vo_search_pg_words(vo_search_t *s, vo_buf_t *b, const char *t,
    size_t n);
static void vo_search_pg_group(vo_search_t *s, vo_buf_t *b, size_t w);
static void vo_search_window(const char *t, size_t n, size_t *start,
    size_t *end);
static vo_ledger_rc_t vo_search_run(vo_search_t *s, int tier, int64_t from,
    vo_buf_t *expr);
static int vo_search_test(vo_search_t *s, int tier, const char *f,
    size_t n);
static int vo_search_has(const char *f, size_t n, const char *p,
    size_t pn);


const char *const  vo_search_tiers[VO_QUERY_TIERS] = {
    "exact", "phrase", "words", "fuzzy"
};


vo_ledger_rc_t
vo_ledger_search(vo_ledger_t *l, const char *tenant, size_t tenant_len,
    const vo_query_t *q, vo_buf_t *out, int *hits, char *err,
    size_t err_size)
{
    int              tier;
    size_t           i;
    int64_t          num, from;
    vo_buf_t         expr;
    vo_stmt_t       *st;
    vo_search_t     *s;
    vo_ledger_rc_t   lrc;

    *hits = 0;

    s = calloc(1, sizeof(vo_search_t));
    if (s == NULL) {
        snprintf(err, err_size, "search: out of memory");
        return VO_LEDGER_ERROR;
    }

    s->l = l;
    s->q = q;
    s->tenant = tenant;
    s->tenant_len = tenant_len;
    s->err = err;
    s->err_size = err_size;
    s->pg = (l->be == &vo_ledger_pg);
    s->stop_tier = -1;

    vo_buf_init(&expr);

    /* one snapshot, no lock: a read transaction */

    lrc = vo_ledger_exec(l, s->pg ? "BEGIN ISOLATION LEVEL REPEATABLE READ"
                                    " READ ONLY" : "BEGIN", err, err_size);
    if (lrc != VO_LEDGER_OK) {
        goto failed;
    }

    st = vo_ledger_stmt(l, VO_STMT_SEARCH_TENANT, err, err_size);
    if (st == NULL) {
        lrc = VO_LEDGER_ERROR;
        goto failed;
    }

    vo_bind_text(st, 1, tenant, (int) tenant_len);

    lrc = VO_LEDGER_OK;
    num = 0;

    switch (vo_step(st)) {
    case VO_ROW:
        num = vo_column_int64(st, 0);
        break;
    case VO_DONE:
        break;                          /* nothing of it is indexed */
    default:
        snprintf(err, err_size, "search tenant: %s", vo_ledger_errmsg(l));
        lrc = VO_LEDGER_ERROR;
    }

    vo_reset(st);

    if (lrc != VO_LEDGER_OK) {
        goto failed;
    }

    s->lo = num << VO_SEARCH_NUM_SHIFT;
    s->hi = s->lo + (INT64_C(1) << VO_SEARCH_NUM_SHIFT) - 1;

    vo_search_forms(s);

    for (tier = q->tier;
         num > 0 && tier < VO_QUERY_TIERS && s->nhit <= (size_t) q->limit
         && s->stop_tier < 0;
         tier++)
    {
        /* tier 3's neighbours; what tier 2 names in its query by
         * trigrams: its rarest words */

        if (tier == VO_QUERY_FUZZY) {
            lrc = vo_search_variants(s);
            if (lrc != VO_LEDGER_OK) {
                goto failed;
            }
        }

        if (tier == VO_QUERY_WORDS && !s->all_words_only && q->nwords > 1) {
            lrc = vo_search_estimate(s);
            if (lrc != VO_LEDGER_OK) {
                goto failed;
            }
        }

        vo_buf_reset(&expr);

        if (!vo_search_tier(s, tier, &expr)) {
            continue;
        }

        /* a cursor goes on above its id, within the tenant's range
         * whatever it says */

        from = s->lo;

        if (tier == q->tier && q->after >= s->hi) {
            continue;
        }

        if (tier == q->tier && q->after >= from) {
            from = q->after + 1;
        }

        lrc = vo_search_run(s, tier, from, &expr);
        if (lrc != VO_LEDGER_OK) {
            goto failed;
        }
    }

    lrc = vo_search_resolve(s, out);
    if (lrc != VO_LEDGER_OK) {
        goto failed;
    }

    *hits = (int) (s->nhit > (size_t) q->limit ? (size_t) q->limit
                                                : s->nhit);

    lrc = vo_ledger_exec(l, "COMMIT", err, err_size);

    if (lrc == VO_LEDGER_OK && !vo_buf_ok(out)) {
        snprintf(err, err_size, "search: out of memory");
        lrc = VO_LEDGER_ERROR;
    }

    goto done;

failed:

    vo_ledger_rollback(l);

done:

    for (i = 0; i < s->nhit; i++) {
        free(s->hit[i].obj);
        free(s->hit[i].text);
    }

    for (i = 0; i < VO_QUERY_WORDS_MAX; i++) {
        free(s->var[i]);
    }

    free(s);
    vo_buf_free(&expr);

    return lrc;
}


/*
 * Each word's form: " w " for a word found whole only, else w; tier 1's
 * phrase, bounded where its first or last word must be whole, or is of
 * a spaced script (its characters are whole words already).
 */

static void
vo_search_forms(vo_search_t *s)
{
    size_t                  i, n, k;
    uint32_t                cp;
    const char             *p;
    const vo_query_t       *q = s->q;
    const vo_query_word_t  *w, *first, *last;

    s->all_words_only = 1;

    for (i = 0; i < q->nwords; i++) {
        w = &q->words[i];
        p = q->phrase + w->off;
        n = 0;

        if (w->whole) {
            s->form[i][n++] = ' ';
        }

        memcpy(s->form[i] + n, p, w->len);
        n += w->len;

        if (w->whole) {
            s->form[i][n++] = ' ';
        }

        s->form_len[i] = n;

        cp = vo_utf8_next((const unsigned char *) p, w->len, &k);

        s->words_only[i] = (w->whole || memchr(p, ' ', w->len) != NULL
                            || vo_fold_spaced(cp));

        s->all_words_only = s->all_words_only && s->words_only[i];

        if (w->fuzzy) {
            s->self[i].word[0] = ' ';
            memcpy(s->self[i].word + 1, p, w->len);
            s->self[i].word[w->len + 1] = ' ';
            s->self[i].len = w->len + 2;
        }
    }

    first = &q->words[0];
    last = &q->words[q->nwords - 1];

    n = 0;

    cp = vo_utf8_next((const unsigned char *) q->phrase + first->off,
                      first->len, &k);

    if (first->whole || vo_fold_spaced(cp)) {
        s->t1[n++] = ' ';
    }

    memcpy(s->t1 + n, q->phrase + 1, q->phrase_len - 2);
    n += q->phrase_len - 2;

    /* the last code point of the last word */

    p = q->phrase + last->off + last->len;

    for (k = 1; k < last->len && (p[-(int) k] & 0xc0) == 0x80; k++) {
        /* void */
    }

    cp = vo_utf8_next((const unsigned char *) p - k, k, &k);

    if (last->whole || vo_fold_spaced(cp)) {
        s->t1[n++] = ' ';
    }

    s->t1_len = n;
}


/*
 * A tier's index query into expr (0 when the tier can find nothing the
 * tiers before it do not).
 *
 * SQLite: an FTS5 query of candidates, a superset of the tier's hits,
 * each then tested (vo_search_test): by words (search_tokens,
 * s->tokens) when the tier's hits are runs of whole words, else by
 * trigrams, which cost more the more they name (a window of each
 * pattern; tier 2 names its rarest words).
 *
 * PostgreSQL: the tier's exact condition (its rows pass the test too):
 * by words where SQLite asks search_tokens (the words of the text as an
 * array, search_segments_words), else by trigrams (LIKE, which pg_trgm's
 * GIN index serves; tier 2 one word's, its rarest), and strpos() for
 * the rest, which no index serves (a trigram index would read every
 * trigram of it: 35 ms for three rare words on the benchmark's ledger,
 * where the rarest word alone costs 2 to 16).
 *
 *   0 exact    P                                               words
 *   1 phrase   t1, not P           words: all but the first and the
 *                                  last (three words or more), else
 *                                  trigrams
 *   2 words    every word's form, not t1    words when every word is
 *                                           whole, else trigrams
 *   3 fuzzy    every word's form, a fuzzy word whole or one of its
 *              neighbours, not every word's form
 *                                           words: the whole ones
 */

static int
vo_search_tier(vo_search_t *s, int tier, vo_buf_t *expr)
{
    size_t              i, k, n, named[VO_SEARCH_NAMED], first, last;
    const vo_query_t   *q = s->q;

    s->npat = 0;
    s->tokens = 0;

    switch (tier) {

    case VO_QUERY_EXACT:
        if (!s->pg) {
            s->tokens = 1;
            vo_search_token(expr, q->phrase, q->phrase_len);
            return 1;
        }

        vo_search_pg_words(s, expr, q->phrase, q->phrase_len);
        vo_buf_adds(expr, " AND ");
        vo_search_pg_has(s, expr, q->phrase, q->phrase_len, 1);
        return 1;

    case VO_QUERY_PHRASE:
        if (s->t1_len == q->phrase_len
            || vo_utf8_count(s->t1, s->t1_len) < 3)
        {
            return 0;                   /* it is the exact phrase */
        }

        /* three words or more: those but the first and the last are
         * whole */

        first = q->words[1].off;
        last = q->words[q->nwords - 2].off + q->words[q->nwords - 2].len;

        if (!s->pg) {
            if (q->nwords > 2) {
                s->tokens = 1;
                vo_search_token(expr, q->phrase + first, last - first);

            } else {
                vo_search_term(expr, s->t1, s->t1_len, 1);
            }

            return 1;
        }

        if (q->nwords > 2) {
            vo_search_pg_words(s, expr, q->phrase + first, last - first);
            vo_buf_adds(expr, " AND ");
            vo_search_pg_has(s, expr, s->t1, s->t1_len, 1);

        } else {
            vo_search_pg_like(s, expr, s->t1, s->t1_len);
        }

        vo_buf_adds(expr, " AND ");
        vo_search_pg_has(s, expr, q->phrase, q->phrase_len, 0);
        return 1;

    case VO_QUERY_WORDS:
        if (q->nwords < 2) {
            return 0;                   /* the phrase is the word */
        }

        if (s->all_words_only) {
            for (i = 0; i < q->nwords; i++) {
                vo_buf_adds(expr, i ? " AND " : "");

                if (!s->pg) {
                    vo_search_token(expr, s->form[i], s->form_len[i]);

                } else {
                    vo_search_pg_words(s, expr, s->form[i], s->form_len[i]);
                    vo_buf_adds(expr, " AND ");
                    vo_search_pg_has(s, expr, s->form[i], s->form_len[i],
                                     1);
                }
            }

            s->tokens = !s->pg;

        } else {
            vo_search_named(s, named, &n);

            for (i = 0; i < n; i++) {
                vo_buf_adds(expr, i ? " AND " : "");

                if (!s->pg) {
                    vo_search_term(expr, s->form[named[i]],
                                   s->form_len[named[i]], 1);

                } else {
                    vo_search_pg_like(s, expr, s->form[named[i]],
                                      s->form_len[named[i]]);
                }
            }

            for (i = 0; s->pg && i < q->nwords; i++) {
                if (i != named[0]) {
                    vo_buf_adds(expr, " AND ");
                    vo_search_pg_has(s, expr, s->form[i], s->form_len[i],
                                     1);
                }
            }
        }

        if (s->pg) {
            vo_buf_adds(expr, " AND ");
            vo_search_pg_has(s, expr, s->t1, s->t1_len, 0);
        }

        return 1;

    default: /* VO_QUERY_FUZZY */
        if (!s->has_variants) {
            return 0;                   /* the words are all there is */
        }

        /* each fuzzy word, whole, or one of its neighbours; each run of
         * whole words; the others tested (SQLite) or found by strpos()
         * (PostgreSQL) */

        s->tokens = !s->pg;

        for (i = 0, n = 0; i < q->nwords; i++) {
            if (!q->words[i].fuzzy && !s->words_only[i] && !s->pg) {
                continue;
            }

            vo_buf_adds(expr, n++ ? " AND " : "");

            if (!s->pg && !q->words[i].fuzzy) {
                vo_search_token(expr, s->form[i], s->form_len[i]);

            } else if (!s->pg) {
                vo_buf_addc(expr, '(');
                vo_search_token(expr, s->self[i].word, s->self[i].len);

                for (k = 0; k < s->nvar[i]; k++) {
                    vo_buf_adds(expr, " OR ");
                    vo_search_token(expr, s->var[i][k].word,
                                    s->var[i][k].len);
                }

                vo_buf_addc(expr, ')');

            } else if (q->words[i].fuzzy) {
                vo_search_pg_group(s, expr, i);

            } else if (s->words_only[i]) {
                vo_search_pg_words(s, expr, s->form[i], s->form_len[i]);
                vo_buf_adds(expr, " AND ");
                vo_search_pg_has(s, expr, s->form[i], s->form_len[i], 1);

            } else {
                vo_search_pg_has(s, expr, s->form[i], s->form_len[i], 1);
            }
        }

        if (s->pg) {
            vo_buf_adds(expr, " AND NOT (");

            for (i = 0; i < q->nwords; i++) {
                vo_buf_adds(expr, i ? " AND " : "");
                vo_search_pg_has(s, expr, s->form[i], s->form_len[i], 1);
            }

            vo_buf_addc(expr, ')');
        }

        return 1;
    }
}


/*
 * The rarest words of tier 2's query by trigrams.  SQLite: by the
 * segments of the tenant's that have them whole, the rarest alone when
 * fewer than VO_SEARCH_COUNTED have it (an FTS5 AND of two phrases of
 * trigrams costs more than both: the other words are tested on its
 * candidates), else the VO_SEARCH_NAMED rarest.  PostgreSQL: the rarest
 * alone, by the index statistics' most common words (vo_search_estimate).
 * Of words as rare, the shortest of 4 code points or more (the fewer
 * trigrams, the fewer lists of rows to read), then the first.
 */

static void
vo_search_named(vo_search_t *s, size_t *named, size_t *n)
{
    size_t                  i, k, j;
    int64_t                 c[VO_QUERY_WORDS_MAX];
    const vo_query_word_t  *w = s->q->words;

    for (i = 0; i < s->q->nwords; i++) {
        c[i] = s->has_est ? s->est[i] : 0;
    }

    *n = 0;

    for (k = 0; k < s->q->nwords && *n < VO_SEARCH_NAMED; k++) {

        /* the rarest left */

        for (i = 0, j = (size_t) -1; i < s->q->nwords; i++) {
            if (c[i] < 0) {
                continue;
            }

            if (j == (size_t) -1 || c[i] < c[j]
                || (c[i] == c[j] && vo_search_shorter(&w[i], &w[j])))
            {
                j = i;
            }
        }

        named[(*n)++] = j;

        if (s->pg || (s->has_est && c[j] < VO_SEARCH_COUNTED)) {
            break;
        }

        c[j] = -1;
    }
}


/* Whether word a is to be named before word b, as rare */

static int
vo_search_shorter(const vo_query_word_t *a, const vo_query_word_t *b)
{
    if ((a->cps >= 4) != (b->cps >= 4)) {
        return a->cps >= 4;
    }

    return a->cps < b->cps;
}


/*
 * A run of whole words t[0, n), spaces around it or not, as an FTS5
 * string of search_tokens: "w1 w2" ('"' doubled, though a folded text
 * has none), which its tokenizer reads as the words in a row.
 */

void
vo_search_token(vo_buf_t *b, const char *t, size_t n)
{
    while (n > 0 && *t == ' ') {
        t++;
        n--;
    }

    while (n > 0 && t[n - 1] == ' ') {
        n--;
    }

    vo_buf_addc(b, '"');

    for ( /* void */ ; n > 0; t++, n--) {
        if (*t == '"') {
            vo_buf_addc(b, '"');
        }

        vo_buf_addc(b, *t);
    }

    vo_buf_addc(b, '"');
}


/*
 * A pattern as an FTS5 string of search_fts (trigrams): the pattern ('"'
 * doubled, though a folded text has none), or a window of the
 * VO_SEARCH_WINDOW code points around its longest word.
 */

static void
vo_search_term(vo_buf_t *b, const char *t, size_t n, int window)
{
    size_t  i, start, end;

    start = 0;
    end = n;

    if (window) {
        vo_search_window(t, n, &start, &end);
    }

    vo_buf_addc(b, '"');

    for (i = start; i < end; i++) {
        if (t[i] == '"') {
            vo_buf_addc(b, '"');
        }

        vo_buf_addc(b, t[i]);
    }

    vo_buf_addc(b, '"');
}


/*
 * PostgreSQL: the strings of a tier's query are the elements of one
 * text[] parameter, ?4, each where it is used (a folded text holds no
 * '"', '\', '%' nor '_').  vo_search_pg_str() adds one and gives its
 * index (from 1), 0 when they are too many (s->npat then says so).
 */

static size_t
vo_search_pg_str(vo_search_t *s, const char *t, size_t n)
{
    if (s->npat == VO_SEARCH_PAT_MAX) {
        s->npat = VO_SEARCH_PAT_MAX + 1;        /* never: it is enough */
    }

    if (s->npat > VO_SEARCH_PAT_MAX) {
        return 0;
    }

    s->pat[s->npat] = t;
    s->pat_len[s->npat] = n;

    return ++s->npat;
}


/* the text has t (yes), or has not */

static void
vo_search_pg_has(vo_search_t *s, vo_buf_t *b, const char *t, size_t n,
    int yes)
{
    vo_buf_printf(b, "strpos(folded, (?4::text[])[%zu]) %s 0",
                  vo_search_pg_str(s, t, n), yes ? ">" : "=");
}


/* the text has t: by trigrams */

static void
vo_search_pg_like(vo_search_t *s, vo_buf_t *b, const char *t, size_t n)
{
    vo_buf_printf(b, "folded LIKE '%%' || (?4::text[])[%zu] || '%%'",
                  vo_search_pg_str(s, t, n));
}


/* the text's words include the words of t[0, n) (by words) */

static void
vo_search_pg_words(vo_search_t *s, vo_buf_t *b, const char *t, size_t n)
{
    size_t       from;
    const char  *e, *end;

    from = s->npat + 1;
    end = t + n;

    while (t < end) {
        for (e = t; e < end && *e != ' '; e++) { /* void */ }

        if (e > t) {
            (void) vo_search_pg_str(s, t, (size_t) (e - t));
        }

        t = e + 1;
    }

    vo_buf_printf(b, VO_SEARCH_WORDS_PG " @> (?4::text[])[%zu:%zu]", from,
                  s->npat);
}


/* the text has fuzzy word w whole or one of its neighbours (by words) */

static void
vo_search_pg_group(vo_search_t *s, vo_buf_t *b, size_t w)
{
    size_t  k, from;

    from = s->npat + 1;

    (void) vo_search_pg_str(s, s->self[w].word + 1, s->self[w].len - 2);

    for (k = 0; k < s->nvar[w]; k++) {
        (void) vo_search_pg_str(s, s->var[w][k].word + 1,
                                s->var[w][k].len - 2);
    }

    vo_buf_printf(b, VO_SEARCH_WORDS_PG " && (?4::text[])[%zu:%zu]", from,
                  s->npat);
}


/*
 * The window of a pattern t[0, n) an FTS5 query names, [*start, *end):
 * all of it up to VO_SEARCH_WINDOW code points, else that many from
 * its longest word (by bytes), moved back to fit.
 */

static void
vo_search_window(const char *t, size_t n, size_t *start, size_t *end)
{
    size_t       best, len, at, k;
    const char  *p, *e, *last;

    *start = 0;
    *end = n;

    if (vo_utf8_count(t, n) <= VO_SEARCH_WINDOW) {
        return;
    }

    last = t + n;
    best = 0;
    at = 0;

    for (p = t; p < last; p = e) {
        while (p < last && *p == ' ') {
            p++;
        }

        for (e = p; e < last && *e != ' '; e++) { /* void */ }

        if ((size_t) (e - p) > best) {
            best = (size_t) (e - p);
            at = (size_t) (p - t);
        }
    }

    *start = at;

    for (k = 0, *end = at; k < VO_SEARCH_WINDOW && *end < n; k++) {
        (void) vo_utf8_next((const unsigned char *) t + *end, n - *end,
                            &len);
        *end += len;
    }

    while (k < VO_SEARCH_WINDOW && *start > 0) {
        do {
            (*start)--;
        } while (*start > 0 && (t[*start] & 0xc0) == 0x80);

        k++;
    }
}


/*
 * The tier's hits from the id from up, newest first, to fill the page
 * and one more (which says whether there is a next page): each row the
 * index query gives is tested, until the page is full, the rows run
 * out, or the budget does (the page then ends where the search stopped,
 * s->stop_tier and s->stop_id, which its cursor goes on from).
 */

static vo_ledger_rc_t
vo_search_run(vo_search_t *s, int tier, int64_t from, vo_buf_t *expr)
{
    int              rc, k;
    size_t           i, n;
    int64_t          id;
    vo_buf_t         sql, arr;
    vo_stmt_t       *st;
    const char      *f;
    vo_ledger_rc_t   lrc;

    vo_buf_init(&sql);
    vo_buf_init(&arr);

    st = NULL;
    rc = VO_DONE;

    if (!vo_buf_ok(expr)) {
        snprintf(s->err, s->err_size, "search: out of memory");
        lrc = VO_LEDGER_ERROR;
        goto done;
    }

    if (!s->pg) {
        st = vo_ledger_stmt(s->l, s->tokens ? VO_STMT_SEARCH_TOKENS
                                            : VO_STMT_SEARCH_MATCH,
                            s->err, s->err_size);
        if (st == NULL) {
            lrc = VO_LEDGER_ERROR;
            goto done;
        }

        vo_bind_text(st, 1, expr->data, (int) expr->len);

    } else {
        /* the strings: {"...",...}; a folded text holds no '"', '\'
         * nor LIKE's '%' and '_' */

        if (s->npat > VO_SEARCH_PAT_MAX) {
            snprintf(s->err, s->err_size, "search: too many strings");
            lrc = VO_LEDGER_ERROR;
            goto done;
        }

        vo_buf_addc(&arr, '{');

        for (i = 0; i < s->npat; i++) {
            vo_buf_adds(&arr, i ? ",\"" : "\"");
            vo_buf_add(&arr, s->pat[i], s->pat_len[i]);
            vo_buf_addc(&arr, '"');
        }

        vo_buf_addc(&arr, '}');

        vo_buf_adds(&sql, "SELECT id, folded FROM search_segments"
                    " WHERE id BETWEEN ?1 AND ?2 AND (");
        vo_buf_add(&sql, expr->data, expr->len);
        vo_buf_adds(&sql, ") ORDER BY id LIMIT ?3");

        if (!vo_buf_ok(&sql) || !vo_buf_ok(&arr)) {
            snprintf(s->err, s->err_size, "search: out of memory");
            lrc = VO_LEDGER_ERROR;
            goto done;
        }

        st = vo_ledger_prepare(s->l, sql.data, s->err, s->err_size);
        if (st == NULL) {
            lrc = VO_LEDGER_ERROR;
            goto done;
        }

        vo_bind_text(st, 4, arr.data, (int) arr.len);
    }

    k = s->pg ? 1 : 2;

    vo_bind_int(st, k, from);
    vo_bind_int(st, k + 1, s->hi);
    vo_bind_int(st, k + 2, s->pg ? (int64_t) (s->q->limit + 1 - s->nhit)
                                 : VO_SEARCH_BUDGET + 1);

    while (s->nhit <= (size_t) s->q->limit && (rc = vo_step(st)) == VO_ROW)
    {
        id = vo_column_int64(st, 0);
        f = vo_column_text(st, 1);
        n = (size_t) vo_column_bytes(st, 1);

        if (++s->tested > VO_SEARCH_BUDGET) {
            /* the page ends here: the cursor goes on with this row */
            s->stop_tier = tier;
            s->stop_id = id - 1;
            break;
        }

        if (f != NULL && vo_search_test(s, tier, f, n)) {
            s->hit[s->nhit].id = id;
            s->hit[s->nhit].tier = tier;
            s->nhit++;
        }
    }

    if (s->nhit <= (size_t) s->q->limit && s->stop_tier < 0
        && rc != VO_DONE)
    {
        snprintf(s->err, s->err_size, "search (%s): %s",
                 vo_search_tiers[tier], vo_ledger_errmsg(s->l));
        lrc = vo_ledger_rc(rc);

    } else {
        lrc = VO_LEDGER_OK;
    }

    if (s->pg) {
        vo_stmt_finalize(st);

    } else {
        vo_reset(st);
    }

done:

    vo_buf_free(&sql);
    vo_buf_free(&arr);

    return lrc;
}


/* Whether the folded text f[0, n) is a hit of the tier (vo_search_tier). */

static int
vo_search_test(vo_search_t *s, int tier, const char *f, size_t n)
{
    int                 all, any;
    size_t              i, k;
    const vo_query_t   *q = s->q;

    switch (tier) {

    case VO_QUERY_EXACT:
        return vo_search_has(f, n, q->phrase, q->phrase_len);

    case VO_QUERY_PHRASE:
        return vo_search_has(f, n, s->t1, s->t1_len)
               && !vo_search_has(f, n, q->phrase, q->phrase_len);

    case VO_QUERY_WORDS:
        for (i = 0; i < q->nwords; i++) {
            if (!vo_search_has(f, n, s->form[i], s->form_len[i])) {
                return 0;
            }
        }

        return !vo_search_has(f, n, s->t1, s->t1_len);

    default: /* VO_QUERY_FUZZY */
        all = 1;

        for (i = 0; i < q->nwords; i++) {
            any = vo_search_has(f, n, s->form[i], s->form_len[i]);
            all = all && any;

            if (q->words[i].fuzzy) {
                any = vo_search_has(f, n, s->self[i].word, s->self[i].len);
            }

            for (k = 0; !any && k < s->nvar[i]; k++) {
                any = vo_search_has(f, n, s->var[i][k].word,
                                    s->var[i][k].len);
            }

            if (!any) {
                return 0;
            }
        }

        return !all;
    }
}


static int
vo_search_has(const char *f, size_t n, const char *p, size_t pn)
{
    return pn <= n && memmem(f, n, p, pn) != NULL;
}
