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
 * every word give or take one edit), each walked down the tenant's
 * range of ids until the page is full; a tier excludes what the ones
 * before it found.  A cursor is where the last page stopped (its tier
 * and id).  Each tier is one index query: SQLite's FTS5 MATCH with the
 * tier's phrases quoted (the folded words hold no FTS5 syntax), or
 * PostgreSQL's LIKE patterns that pg_trgm's GIN index serves, in
 * parameters.  Both compare the same folded bytes: the same query finds
 * the same segments on either backend.
 *
 * The search reads in one transaction (a snapshot): a job deleted
 * meanwhile is not half there.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vo_fold.h"
#include "vo_ledger.h"
#include "vo_ledger_int.h"
#include "vo_result.h"


#define VO_SEARCH_NUM_SHIFT     40
#define VO_SEARCH_VARIANTS      32     /* per word: its neighbours kept */
#define VO_SEARCH_SCAN          500    /* words read per range of them */
#define VO_SEARCH_MARKS         32     /* highlights per hit */
#define VO_SEARCH_PAT_MAX                                                    \
    (VO_QUERY_WORDS_MAX * (VO_SEARCH_VARIANTS + 1) + 2)


/* a word one edit from a query word, or the word itself */
typedef struct {
    char            word[VO_QUERY_WORD_MAX * 4 + 3];   /* " word " */
    size_t          len;
    int64_t         jobs;
} vo_search_variant_t;


typedef struct {
    int64_t         id;
    int             tier;
    size_t          job;           /* in vo_search_t.jobs */
    int64_t         segment;
    char           *obj;           /* the segment, as published */
    size_t          obj_len;
    char           *text;
    size_t          text_len;
} vo_search_hit_t;


typedef struct {
    char            job_id[VO_JOB_ID_LEN + 1];
} vo_search_job_t;


struct vo_search_s;

/* a job's result walked for its hits' segments */
typedef struct {
    struct vo_search_s   *s;
    size_t                job;
    int                   failed;
} vo_search_ctx_t;


typedef struct vo_search_s {
    vo_ledger_t          *l;
    const vo_query_t     *q;
    const char           *tenant;
    size_t                tenant_len;
    int64_t               lo, hi;       /* the tenant's range of ids */

    /* the patterns of the tiers: pat[k] of pat_len[k] bytes */
    const char           *pat[VO_SEARCH_PAT_MAX];
    size_t                pat_len[VO_SEARCH_PAT_MAX];
    size_t                npat;

    char                  t1[VO_QUERY_FOLDED_MAX + 3];   /* tier 1's */
    size_t                t1_len;
    char                  form[VO_QUERY_WORDS_MAX][VO_QUERY_FOLDED_MAX + 3];
    size_t                form_len[VO_QUERY_WORDS_MAX];

    vo_search_variant_t  *var[VO_QUERY_WORDS_MAX];
    size_t                nvar[VO_QUERY_WORDS_MAX];
    int                   has_variants;

    vo_search_hit_t       hit[VO_QUERY_LIMIT_MAX + 1];
    size_t                nhit;
    vo_search_job_t       job[VO_QUERY_LIMIT_MAX + 1];
    size_t                njob;

    char                 *err;
    size_t                err_size;
} vo_search_t;


static void vo_search_forms(vo_search_t *s);
static int vo_search_tier(vo_search_t *s, int tier, vo_buf_t *expr,
    int pg);
static void vo_search_term(vo_search_t *s, vo_buf_t *b, int pg,
    const char *t, size_t n);
static vo_ledger_rc_t vo_search_run(vo_search_t *s, int tier, int64_t top,
    vo_buf_t *expr, int pg);
static vo_ledger_rc_t vo_search_variants(vo_search_t *s);
static vo_ledger_rc_t vo_search_near(vo_search_t *s, size_t w);
static vo_ledger_rc_t vo_search_scan(vo_search_t *s, size_t w, int id,
    int64_t len, const char *from, size_t n);
static void vo_search_keep(vo_search_t *s, size_t w, const char *word,
    size_t n, int64_t jobs);
static vo_ledger_rc_t vo_search_resolve(vo_search_t *s, vo_buf_t *out);
static vo_ledger_rc_t vo_search_job(vo_search_t *s, size_t j,
    vo_buf_t *out);
static int vo_search_segment(void *data, size_t index, const char *obj,
    size_t obj_len, const char *text, size_t text_len);
static void vo_search_render_hit(vo_search_t *s, vo_search_hit_t *h,
    vo_buf_t *out);
static size_t vo_search_reverse(const char *w, size_t n, char *out);
static int vo_search_variant_cmp(const void *a, const void *b);


static const char  *vo_search_tiers[VO_QUERY_TIERS] = {
    "exact", "phrase", "words", "fuzzy"
};


vo_ledger_rc_t
vo_ledger_search(vo_ledger_t *l, const char *tenant, size_t tenant_len,
    const vo_query_t *q, vo_buf_t *out, int *hits, char *err,
    size_t err_size)
{
    int              tier, pg;
    size_t           i;
    int64_t          num, top;
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

    pg = (l->be == &vo_ledger_pg);

    vo_buf_init(&expr);

    /* one snapshot, no lock: a read transaction */

    lrc = vo_ledger_exec(l, pg ? "BEGIN ISOLATION LEVEL REPEATABLE READ"
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

    for (tier = q->tier; num > 0 && tier < VO_QUERY_TIERS
                         && s->nhit <= (size_t) q->limit; tier++)
    {
        if (tier == VO_QUERY_FUZZY && !s->has_variants) {
            lrc = vo_search_variants(s);
            if (lrc != VO_LEDGER_OK) {
                goto failed;
            }
        }

        vo_buf_reset(&expr);

        if (!vo_search_tier(s, tier, &expr, pg)) {
            continue;
        }

        /* a cursor goes on below its id, within the tenant's range
         * whatever it says */

        top = s->hi;

        if (tier == q->tier && q->before > 0 && q->before - 1 < top) {
            top = q->before - 1;
        }

        if (top < s->lo) {
            continue;
        }

        lrc = vo_search_run(s, tier, top, &expr, pg);
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
 * The expression of a tier (vo_query.h) into expr: FTS5's query
 * language (SQLite), or SQL over the patterns of s->pat (PostgreSQL).
 * 0 when the tier finds nothing the tiers before it do not.
 */

static int
vo_search_tier(vo_search_t *s, int tier, vo_buf_t *expr, int pg)
{
    size_t              i, k;
    const vo_query_t   *q = s->q;

    s->npat = 0;

    switch (tier) {

    case VO_QUERY_EXACT:
        vo_search_term(s, expr, pg, q->phrase, q->phrase_len);
        return 1;

    case VO_QUERY_PHRASE:
        if (s->t1_len == q->phrase_len
            || vo_utf8_count(s->t1, s->t1_len) < 3)
        {
            return 0;                   /* it is the exact phrase */
        }

        vo_search_term(s, expr, pg, s->t1, s->t1_len);
        vo_buf_adds(expr, " NOT ");
        vo_search_term(s, expr, pg, q->phrase, q->phrase_len);
        return 1;

    case VO_QUERY_WORDS:
        if (q->nwords < 2) {
            return 0;                   /* the phrase is the word */
        }

        vo_buf_addc(expr, '(');

        for (i = 0; i < q->nwords; i++) {
            vo_buf_adds(expr, i ? " AND " : "");
            vo_search_term(s, expr, pg, s->form[i], s->form_len[i]);
        }

        vo_buf_adds(expr, ") NOT ");
        vo_search_term(s, expr, pg, s->t1, s->t1_len);
        return 1;

    default: /* VO_QUERY_FUZZY */
        if (!s->has_variants) {
            return 0;                   /* the words are all there is */
        }

        vo_buf_addc(expr, '(');

        for (i = 0; i < q->nwords; i++) {
            vo_buf_adds(expr, i ? " AND (" : "(");
            vo_search_term(s, expr, pg, s->form[i], s->form_len[i]);

            for (k = 0; k < s->nvar[i]; k++) {
                vo_buf_adds(expr, " OR ");
                vo_search_term(s, expr, pg, s->var[i][k].word,
                               s->var[i][k].len);
            }

            vo_buf_addc(expr, ')');
        }

        vo_buf_adds(expr, ") NOT (");

        for (i = 0; i < q->nwords; i++) {
            vo_buf_adds(expr, i ? " AND " : "");
            vo_search_term(s, expr, pg, s->form[i], s->form_len[i]);
        }

        vo_buf_addc(expr, ')');
        return 1;
    }
}


/*
 * One term: SQLite, an FTS5 string ("..." with '"' doubled, though a
 * folded word has none); PostgreSQL, the pattern's test, the pattern a
 * parameter (each distinct one once).
 */

static void
vo_search_term(vo_search_t *s, vo_buf_t *b, int pg, const char *t, size_t n)
{
    size_t  i;

    if (!pg) {
        vo_buf_addc(b, '"');

        for (i = 0; i < n; i++) {
            if (t[i] == '"') {
                vo_buf_addc(b, '"');
            }

            vo_buf_addc(b, t[i]);
        }

        vo_buf_addc(b, '"');
        return;
    }

    for (i = 0; i < s->npat; i++) {
        if (s->pat_len[i] == n && memcmp(s->pat[i], t, n) == 0) {
            break;
        }
    }

    if (i == s->npat && s->npat < VO_SEARCH_PAT_MAX) {
        s->pat[i] = t;
        s->pat_len[i] = n;
        s->npat++;
    }

    vo_buf_printf(b, "folded LIKE (?4::text[])[%zu]", i + 1);
}


/*
 * The tier's hits below top, newest first, to fill the page and one
 * more (which says whether there is a next page).
 */

static vo_ledger_rc_t
vo_search_run(vo_search_t *s, int tier, int64_t top, vo_buf_t *expr, int pg)
{
    int              rc;
    size_t           i, k;
    vo_buf_t         sql, arr;
    vo_stmt_t       *st;
    vo_ledger_rc_t   lrc;

    vo_buf_init(&sql);
    vo_buf_init(&arr);

    st = NULL;

    if (!vo_buf_ok(expr)) {
        snprintf(s->err, s->err_size, "search: out of memory");
        lrc = VO_LEDGER_ERROR;
        goto done;
    }

    if (!pg) {
        st = vo_ledger_stmt(s->l, VO_STMT_SEARCH_MATCH, s->err, s->err_size);
        if (st == NULL) {
            lrc = VO_LEDGER_ERROR;
            goto done;
        }

        vo_bind_text(st, 1, expr->data, (int) expr->len);

    } else {
        /* the patterns: {"%...%",...}, a folded text holds no '"', '\'
         * nor LIKE's '%' and '_' */

        vo_buf_addc(&arr, '{');

        for (i = 0; i < s->npat; i++) {
            vo_buf_adds(&arr, i ? ",\"%" : "\"%");
            vo_buf_add(&arr, s->pat[i], s->pat_len[i]);
            vo_buf_adds(&arr, "%\"");
        }

        vo_buf_addc(&arr, '}');

        /* "NOT" between terms is FTS5's; SQL's is "AND NOT" */

        vo_buf_adds(&sql, "SELECT id FROM search_segments"
                    " WHERE id BETWEEN ?1 AND ?2 AND (");

        for (i = 0; i < expr->len; i++) {
            if (expr->len - i >= 5 && memcmp(expr->data + i, " NOT ", 5) == 0)
            {
                vo_buf_adds(&sql, " AND NOT ");
                i += 4;
                continue;
            }

            vo_buf_addc(&sql, expr->data[i]);
        }

        vo_buf_adds(&sql, ") ORDER BY id DESC LIMIT ?3");

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

    k = pg ? 1 : 2;

    vo_bind_int(st, k, s->lo);
    vo_bind_int(st, k + 1, top);
    vo_bind_int(st, k + 2, (int64_t) (s->q->limit + 1 - s->nhit));

    while (s->nhit <= (size_t) s->q->limit && (rc = vo_step(st)) == VO_ROW) {
        s->hit[s->nhit].id = vo_column_int64(st, 0);
        s->hit[s->nhit].tier = tier;
        s->nhit++;
    }

    if (s->nhit <= (size_t) s->q->limit && rc != VO_DONE) {
        snprintf(s->err, s->err_size, "search (%s): %s",
                 vo_search_tiers[tier], vo_ledger_errmsg(s->l));
        lrc = vo_ledger_rc(rc);

    } else {
        lrc = VO_LEDGER_OK;
    }

    if (pg) {
        vo_stmt_finalize(st);

    } else {
        vo_reset(st);
    }

done:

    vo_buf_free(&sql);
    vo_buf_free(&arr);

    return lrc;
}


/*
 * The words one edit away from each query word that allows it, among
 * the tenant's words (search_words): by length n - 1, n and n + 1,
 * those that share the word's first half, those that share its last
 * half (an edit is in one half or the other), and the word with the two
 * letters around the middle swapped; each checked (vo_query_near).
 * The most common VO_SEARCH_VARIANTS are kept, as whole words.
 */

static vo_ledger_rc_t
vo_search_variants(vo_search_t *s)
{
    size_t          i;
    vo_ledger_rc_t  lrc;

    s->has_variants = 0;

    for (i = 0; i < s->q->nwords; i++) {
        if (!s->q->words[i].fuzzy) {
            continue;
        }

        s->var[i] = calloc(VO_SEARCH_VARIANTS + 1,
                           sizeof(vo_search_variant_t));
        if (s->var[i] == NULL) {
            snprintf(s->err, s->err_size, "search: out of memory");
            return VO_LEDGER_ERROR;
        }

        lrc = vo_search_near(s, i);
        if (lrc != VO_LEDGER_OK) {
            return lrc;
        }

        qsort(s->var[i], s->nvar[i], sizeof(vo_search_variant_t),
              vo_search_variant_cmp);

        if (s->nvar[i] > VO_SEARCH_VARIANTS) {
            s->nvar[i] = VO_SEARCH_VARIANTS;
        }

        if (s->nvar[i] > 0) {
            s->has_variants = 1;
        }
    }

    return VO_LEDGER_OK;
}


static vo_ledger_rc_t
vo_search_near(vo_search_t *s, size_t w)
{
    int                     rc;
    char                    half[VO_QUERY_WORD_MAX * 4 + 1];
    char                    swap[VO_QUERY_WORD_MAX * 4 + 1];
    size_t                  n, h, k, b, c1, c2;
    int64_t                 len;
    vo_stmt_t              *st;
    const char             *p;
    vo_ledger_rc_t          lrc;
    const vo_query_word_t  *qw = &s->q->words[w];

    p = s->q->phrase + qw->off;
    n = qw->cps;

    /* h: the byte where the second half begins, after n / 2 code points */

    for (h = 0, k = 0; k < n / 2; k++) {
        (void) vo_utf8_next((const unsigned char *) p + h, qw->len - h, &b);
        h += b;
    }

    for (len = (int64_t) n - 1; len <= (int64_t) n + 1; len++) {
        lrc = vo_search_scan(s, w, VO_STMT_SEARCH_WORDS_PREFIX, len, p, h);

        if (lrc == VO_LEDGER_OK) {
            k = vo_search_reverse(p + h, qw->len - h, half);
            lrc = vo_search_scan(s, w, VO_STMT_SEARCH_WORDS_SUFFIX, len,
                                 half, k);
        }

        if (lrc != VO_LEDGER_OK) {
            return lrc;
        }
    }

    /* the two code points around the middle swapped: in neither half */

    if (n < 2 || h == 0) {
        return VO_LEDGER_OK;
    }

    for (k = h - 1; k > 0 && (p[k] & 0xc0) == 0x80; k--) { /* void */ }

    c1 = h - k;
    (void) vo_utf8_next((const unsigned char *) p + h, qw->len - h, &c2);

    memcpy(swap, p, k);
    memcpy(swap + k, p + h, c2);
    memcpy(swap + k + c2, p + k, c1);
    memcpy(swap + k + c2 + c1, p + h + c2, qw->len - h - c2);

    st = vo_ledger_stmt(s->l, VO_STMT_SEARCH_WORD, s->err, s->err_size);
    if (st == NULL) {
        return VO_LEDGER_ERROR;
    }

    vo_bind_int(st, 1, s->lo >> VO_SEARCH_NUM_SHIFT);
    vo_bind_int(st, 2, (int64_t) n);
    vo_bind_text(st, 3, swap, (int) qw->len);

    rc = vo_step(st);

    if (rc == VO_ROW) {
        vo_search_keep(s, w, swap, qw->len, vo_column_int64(st, 0));

    } else if (rc != VO_DONE) {
        snprintf(s->err, s->err_size, "search words: %s",
                 vo_ledger_errmsg(s->l));
        vo_reset(st);
        return vo_ledger_rc(rc);
    }

    vo_reset(st);

    return VO_LEDGER_OK;
}


/* The tenant's words of a length that begin (or, reversed, end) with
 * from[0, n): BETWEEN from and from followed by the highest code point,
 * as many times as a word has code points. */

static vo_ledger_rc_t
vo_search_scan(vo_search_t *s, size_t w, int id, int64_t len,
    const char *from, size_t n)
{
    int          rc;
    char         to[VO_QUERY_WORD_MAX * 4 + VO_QUERY_WORD_MAX * 4 + 8];
    char         word[VO_QUERY_WORD_MAX * 4 + 1];
    size_t       k, wn;
    vo_stmt_t   *st;
    const char  *v;

    if (len < 3) {
        return VO_LEDGER_OK;
    }

    memcpy(to, from, n);

    for (k = 0; k < (size_t) len; k++) {
        memcpy(to + n + 4 * k, "\xf4\x8f\xbf\xbf", 4);
    }

    st = vo_ledger_stmt(s->l, id, s->err, s->err_size);
    if (st == NULL) {
        return VO_LEDGER_ERROR;
    }

    vo_bind_int(st, 1, s->lo >> VO_SEARCH_NUM_SHIFT);
    vo_bind_int(st, 2, len);
    vo_bind_text(st, 3, from, (int) n);
    vo_bind_text(st, 4, to, (int) (n + 4 * (size_t) len));
    vo_bind_int(st, 5, VO_SEARCH_SCAN);

    while ((rc = vo_step(st)) == VO_ROW) {
        v = vo_column_text(st, 0);
        wn = (size_t) vo_column_bytes(st, 0);

        if (v == NULL || wn > sizeof(word)) {
            continue;
        }

        memcpy(word, v, wn);

        if (vo_query_near(s->q->phrase + s->q->words[w].off,
                          s->q->words[w].len, word, wn))
        {
            vo_search_keep(s, w, word, wn, vo_column_int64(st, 1));
        }
    }

    vo_reset(st);

    if (rc != VO_DONE) {
        snprintf(s->err, s->err_size, "search words: %s",
                 vo_ledger_errmsg(s->l));
        return vo_ledger_rc(rc);
    }

    return VO_LEDGER_OK;
}


/*
 * A neighbour of word w, kept as " word " (found whole: it is a word of
 * the tenant's), unless it is w itself or kept already.  While there is
 * room for more than VO_SEARCH_VARIANTS, all are kept; past it, the
 * least common goes.
 */

static void
vo_search_keep(vo_search_t *s, size_t w, const char *word, size_t n,
    int64_t jobs)
{
    size_t                 i, least;
    vo_search_variant_t   *v;
    const vo_query_word_t *qw = &s->q->words[w];

    if (n == qw->len && memcmp(word, s->q->phrase + qw->off, n) == 0) {
        return;
    }

    for (i = 0; i < s->nvar[w]; i++) {
        if (s->var[w][i].len == n + 2
            && memcmp(s->var[w][i].word + 1, word, n) == 0)
        {
            return;
        }
    }

    if (s->nvar[w] <= VO_SEARCH_VARIANTS) {
        v = &s->var[w][s->nvar[w]++];

    } else {
        least = 0;

        for (i = 1; i < s->nvar[w]; i++) {
            if (s->var[w][i].jobs < s->var[w][least].jobs) {
                least = i;
            }
        }

        if (s->var[w][least].jobs >= jobs) {
            return;
        }

        v = &s->var[w][least];
    }

    v->word[0] = ' ';
    memcpy(v->word + 1, word, n);
    v->word[n + 1] = ' ';
    v->len = n + 2;
    v->jobs = jobs;
}


static int
vo_search_variant_cmp(const void *a, const void *b)
{
    const vo_search_variant_t  *x = a, *y = b;

    if (x->jobs != y->jobs) {
        return x->jobs > y->jobs ? -1 : 1;
    }

    return strcmp(x->word, y->word);
}


/* w[0, n) backwards, code point by code point, into out; its length. */

static size_t
vo_search_reverse(const char *w, size_t n, char *out)
{
    size_t  k, b, at;

    at = n;

    for (k = 0; k < n; k += b) {
        (void) vo_utf8_next((const unsigned char *) w + k, n - k, &b);
        at -= b;
        memcpy(out + at, w + k, b);
    }

    return n;
}


/*
 * The hits of the page: each id's job and segment (the run of ids it is
 * in), each job's result read once for its segments, then the reply.
 */

static vo_ledger_rc_t
vo_search_resolve(vo_search_t *s, vo_buf_t *out)
{
    int               rc;
    char              cursor[VO_QUERY_CURSOR_MAX + 1];
    size_t            i, j, n;
    int64_t           base, segments;
    vo_buf_t          jobs;
    vo_stmt_t        *st;
    vo_search_hit_t  *h;
    vo_ledger_rc_t    lrc;

    n = s->nhit > (size_t) s->q->limit ? (size_t) s->q->limit : s->nhit;

    for (i = 0; i < n; i++) {
        h = &s->hit[i];
        h->job = (size_t) -1;

        st = vo_ledger_stmt(s->l, VO_STMT_SEARCH_JOB_OF, s->err,
                            s->err_size);
        if (st == NULL) {
            return VO_LEDGER_ERROR;
        }

        vo_bind_int(st, 1, h->id);

        rc = vo_step(st);

        if (rc != VO_ROW && rc != VO_DONE) {
            snprintf(s->err, s->err_size, "search hit %lld: %s",
                     (long long) h->id, vo_ledger_errmsg(s->l));
            vo_reset(st);
            return vo_ledger_rc(rc);
        }

        if (rc == VO_ROW) {
            base = vo_column_int64(st, 1);
            segments = vo_column_int64(st, 2);

            for (j = 0; j < s->njob; j++) {
                if (strcmp(s->job[j].job_id, vo_column_text(st, 0)) == 0) {
                    break;
                }
            }

            if (h->id < base + segments) {
                if (j == s->njob) {
                    vo_ledger_copy_text(s->job[j].job_id, VO_JOB_ID_LEN + 1,
                                        st, 0);
                    s->njob++;
                }

                h->job = j;
                h->segment = base + segments - 1 - h->id;
            }
        }

        vo_reset(st);
    }

    vo_buf_init(&jobs);

    lrc = VO_LEDGER_OK;

    for (j = 0; j < s->njob && lrc == VO_LEDGER_OK; j++) {
        lrc = vo_search_job(s, j, &jobs);
    }

    if (lrc != VO_LEDGER_OK) {
        vo_buf_free(&jobs);
        return lrc;
    }

    vo_buf_adds(out, "{\"hits\":[");

    for (i = 0, j = 0; i < n; i++) {
        if (s->hit[i].obj != NULL) {
            vo_buf_adds(out, j++ ? "," : "");
            vo_search_render_hit(s, &s->hit[i], out);
        }
    }

    vo_buf_adds(out, "],\"jobs\":{");
    vo_buf_add(out, jobs.data, jobs.len);
    vo_buf_adds(out, "},\"next\":");

    if (s->nhit > n
        && vo_query_cursor(cursor, sizeof(cursor), s->hit[n - 1].tier,
                           s->hit[n - 1].id)
           > 0)
    {
        vo_json_strz(out, cursor);

    } else {
        vo_buf_adds(out, "null");
    }

    vo_buf_adds(out, "}\n");

    vo_buf_free(&jobs);

    return VO_LEDGER_OK;
}


/*
 * Job j: what a list shows of it into jobs ("<id>":{...}), and the
 * segments its hits are, from its published result.  A job that is not
 * the tenant's, or no longer there, has no hits.
 */

static vo_ledger_rc_t
vo_search_job(vo_search_t *s, size_t j, vo_buf_t *jobs)
{
    int              rc;
    char             why[VO_ERR_TEXT];
    size_t           n;
    vo_stmt_t       *st;
    const char      *body, *v;
    vo_search_ctx_t  c;

    st = vo_ledger_stmt(s->l, VO_STMT_SEARCH_JOB_INFO, s->err, s->err_size);
    if (st == NULL) {
        return VO_LEDGER_ERROR;
    }

    vo_bind_text(st, 1, s->job[j].job_id, -1);
    vo_bind_text(st, 2, s->tenant, (int) s->tenant_len);

    rc = vo_step(st);

    if (rc != VO_ROW) {
        vo_reset(st);

        if (rc == VO_DONE) {
            return VO_LEDGER_OK;
        }

        snprintf(s->err, s->err_size, "search job %s: %s", s->job[j].job_id,
                 vo_ledger_errmsg(s->l));
        return vo_ledger_rc(rc);
    }

    body = vo_column_text(st, 5);
    n = (size_t) vo_column_bytes(st, 5);

    vo_buf_adds(jobs, jobs->len ? "," : "");
    vo_json_strz(jobs, s->job[j].job_id);
    vo_buf_adds(jobs, ":{\"created_at\":");
    vo_json_time(jobs, vo_column_int64(st, 0));
    vo_buf_adds(jobs, ",\"finished_at\":");
    vo_json_time(jobs, vo_ledger_int_or(st, 1, -1));
    vo_buf_adds(jobs, ",\"options\":");
    vo_ledger_json_raw_or_null(jobs, st, 2);
    vo_buf_adds(jobs, ",\"filename\":");
    vo_json_strz(jobs, vo_column_text(st, 4));
    vo_buf_adds(jobs, ",\"frame_size\":");

    if (body != NULL && vo_result_member(body, n, "frame_size", &v, &n) == 0)
    {
        vo_buf_add(jobs, v, n);

    } else {
        vo_buf_adds(jobs, "null");
    }

    vo_buf_adds(jobs, ",\"media_deleted_at\":");
    vo_json_time(jobs, vo_ledger_int_or(st, 3, -1));
    vo_buf_addc(jobs, '}');

    /* its hits' segments */

    c.s = s;
    c.job = j;
    c.failed = 0;

    if (body != NULL
        && vo_result_segments(body, (size_t) vo_column_bytes(st, 5),
                              vo_search_segment, &c, why, sizeof(why))
           != 0)
    {
        /* a result the index was made from, unreadable now: the hits
         * it did not give are left out (unless memory ran out) */
    }

    vo_reset(st);

    if (c.failed) {
        snprintf(s->err, s->err_size, "search job %s: out of memory",
                 s->job[j].job_id);
        return VO_LEDGER_ERROR;
    }

    return VO_LEDGER_OK;
}


static int
vo_search_segment(void *data, size_t index, const char *obj, size_t obj_len,
    const char *text, size_t text_len)
{
    vo_search_ctx_t  *c = data;

    size_t            i, left;
    vo_search_t      *s = c->s;
    vo_search_hit_t  *h;

    left = 0;

    for (i = 0; i < s->nhit && i < (size_t) s->q->limit; i++) {
        h = &s->hit[i];

        if (h->job != c->job || h->obj != NULL) {
            continue;
        }

        if ((size_t) h->segment != index) {
            left++;
            continue;
        }

        h->obj = malloc(obj_len + 1);
        h->text = malloc(text_len + 1);

        if (h->obj == NULL || h->text == NULL) {
            free(h->obj);
            free(h->text);
            h->obj = NULL;
            h->text = NULL;
            c->failed = 1;
            return 1;
        }

        memcpy(h->obj, obj, obj_len);
        h->obj_len = obj_len;
        memcpy(h->text, text, text_len);
        h->text[text_len] = '\0';
        h->text_len = text_len;
    }

    /* stop once every hit of the job has its segment */
    return left == 0;
}


/*
 * A hit: its job and segment, its tier, its highlights (the tier's
 * patterns in its text), then the segment's members as published.
 */

static void
vo_search_render_hit(vo_search_t *s, vo_search_hit_t *h, vo_buf_t *out)
{
    size_t             i, k, n, npat, body;
    uint32_t           marks[VO_SEARCH_MARKS][2];
    const char        *pat[VO_SEARCH_PAT_MAX];
    size_t             len[VO_SEARCH_PAT_MAX];
    const vo_query_t  *q = s->q;

    npat = 0;

    switch (h->tier) {

    case VO_QUERY_EXACT:
        pat[npat] = q->phrase;
        len[npat++] = q->phrase_len;
        break;

    case VO_QUERY_PHRASE:
        pat[npat] = s->t1;
        len[npat++] = s->t1_len;
        break;

    default:
        for (i = 0; i < q->nwords; i++) {
            pat[npat] = s->form[i];
            len[npat++] = s->form_len[i];

            for (k = 0; h->tier == VO_QUERY_FUZZY && k < s->nvar[i]; k++) {
                pat[npat] = s->var[i][k].word;
                len[npat++] = s->var[i][k].len;
            }
        }
    }

    n = vo_query_marks(h->text, h->text_len, pat, len, npat, marks,
                       VO_SEARCH_MARKS);

    vo_buf_adds(out, "{\"job_id\":");
    vo_json_strz(out, s->job[h->job].job_id);
    vo_buf_printf(out, ",\"segment\":%lld,\"match\":\"%s\",\"highlights\":[",
                  (long long) h->segment, vo_search_tiers[h->tier]);

    for (i = 0; i < n; i++) {
        vo_buf_printf(out, "%s[%u,%u]", i ? "," : "", (unsigned) marks[i][0],
                      (unsigned) marks[i][1]);
    }

    vo_buf_addc(out, ']');

    /* the segment's own members: "{...}" without its braces */

    for (body = 1; body < h->obj_len - 1
                   && strchr(" \t\r\n", h->obj[body]) != NULL; body++)
    {
        /* void */
    }

    if (body < h->obj_len - 1) {
        vo_buf_addc(out, ',');
        vo_buf_add(out, h->obj + body, h->obj_len - 1 - body);
    }

    vo_buf_addc(out, '}');
}
