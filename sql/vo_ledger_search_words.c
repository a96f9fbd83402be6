/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * A search's words (vo_ledger_search_int.h): how common each query word
 * is among the tenant's jobs, and the tenant's words one edit away from
 * it, both from search_words (the SEARCH section of sql/schema.sql).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vo_fold.h"
#include "vo_ledger_search_int.h"


static vo_ledger_rc_t vo_search_near(vo_search_t *s, size_t w);
static vo_ledger_rc_t vo_search_scan(vo_search_t *s, size_t w, int id,
    int64_t len, const char *from, size_t n);
static void vo_search_keep(vo_search_t *s, size_t w, const char *word,
    size_t n, int64_t jobs);
static int vo_search_variant_cmp(const void *a, const void *b);
static size_t vo_search_reverse(const char *w, size_t n, char *out);


/*
 * How common each query word is, in jobs of the tenant that have it as a
 * word (search_words): for choosing the rarest words to name in a tier's
 * index query.  A word search_words cannot know (a number, a word of
 * one or two letters, a piece of a spaced script) counts as common when
 * it is short, and as rare when it is long (an unlisted word of 4 code
 * points or more is a piece of a word, or not there).
 */

vo_ledger_rc_t
vo_search_words_jobs(vo_search_t *s)
{
    int                     rc;
    size_t                  i;
    vo_stmt_t              *st;
    const vo_query_word_t  *w;

    for (i = 0; i < s->q->nwords; i++) {
        w = &s->q->words[i];
        s->jobs[i] = w->cps <= 3 ? VO_SEARCH_COMMON : 0;

        if (w->whole || memchr(s->q->phrase + w->off, ' ', w->len) != NULL
            || w->cps < 3 || w->cps > VO_QUERY_WORD_MAX)
        {
            continue;
        }

        st = vo_ledger_stmt(s->l, VO_STMT_SEARCH_WORD, s->err, s->err_size);
        if (st == NULL) {
            return VO_LEDGER_ERROR;
        }

        vo_bind_int(st, 1, s->lo >> VO_SEARCH_NUM_SHIFT);
        vo_bind_int(st, 2, (int64_t) w->cps);
        vo_bind_text(st, 3, s->q->phrase + w->off, (int) w->len);

        rc = vo_step(st);

        if (rc == VO_ROW) {
            s->jobs[i] = vo_column_int64(st, 0);

        } else if (rc != VO_DONE) {
            snprintf(s->err, s->err_size, "search words: %s",
                     vo_ledger_errmsg(s->l));
            vo_reset(st);
            return vo_ledger_rc(rc);
        }

        vo_reset(st);
    }

    s->has_jobs = 1;

    return VO_LEDGER_OK;
}


/*
 * The words one edit away from each query word that allows it, among
 * the tenant's words (search_words): by length n - 1, n and n + 1,
 * those that share the word's first half, those that share its last
 * half (an edit is in one half or the other), and the word with the two
 * letters around the middle swapped; each checked (vo_query_near).
 * The most common VO_SEARCH_VARIANTS are kept, as whole words.
 */

vo_ledger_rc_t
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
