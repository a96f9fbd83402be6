/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * A search's words (vo_ledger_search_int.h): how common each query word
 * is among the tenant's segments (a count the index of words gives),
 * and the tenant's words one edit away from it (search_words, the SEARCH
 * section of sql/schema.sql).
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
    size_t n);
static size_t vo_search_reverse(const char *w, size_t n, char *out);


/*
 * How common each query word is (tier 2), as a whole word: SQLite, the
 * tenant's segments that have it, by the index of words (cheap: its
 * list of segments, read up to VO_SEARCH_COUNTED); PostgreSQL, the
 * share of all segments that have it, if it is one of the most common
 * words the statistics of search_segments_words name, else 0.  Tier 2
 * finds it inside longer words too: a word found only inside others
 * counts as rare, and costs its trigrams' candidates.  What picks the
 * rarest words for tier 2's query by trigrams.
 */

vo_ledger_rc_t
vo_search_estimate(vo_search_t *s)
{
    int              rc;
    size_t           i;
    vo_buf_t         expr;
    vo_stmt_t       *st;
    vo_ledger_rc_t   lrc;

    if (s->has_est) {
        return VO_LEDGER_OK;
    }

    vo_buf_init(&expr);
    lrc = VO_LEDGER_OK;

    for (i = 0; lrc == VO_LEDGER_OK && i < s->q->nwords; i++) {

        vo_buf_reset(&expr);
        vo_search_token(&expr, s->form[i], s->form_len[i]);

        if (!vo_buf_ok(&expr)) {
            snprintf(s->err, s->err_size, "search: out of memory");
            lrc = VO_LEDGER_ERROR;
            break;
        }

        st = vo_ledger_stmt(s->l, VO_STMT_SEARCH_COUNT, s->err, s->err_size);
        if (st == NULL) {
            lrc = VO_LEDGER_ERROR;
            break;
        }

        if (!s->pg) {
            vo_bind_text(st, 1, expr.data, (int) expr.len);
            vo_bind_int(st, 2, s->lo);
            vo_bind_int(st, 3, s->hi);
            vo_bind_int(st, 4, VO_SEARCH_COUNTED);

        } else {
            /* the word, unquoted (a run of a spaced script is not one
             * of the statistics' words: rare) */
            vo_bind_text(st, 1, expr.data + 1, (int) expr.len - 2);
        }

        rc = vo_step(st);

        if (rc == VO_ROW) {
            s->est[i] = vo_column_int64(st, 0);

        } else {
            snprintf(s->err, s->err_size, "search estimate: %s",
                     vo_ledger_errmsg(s->l));
            lrc = vo_ledger_rc(rc);
        }

        vo_reset(st);
    }

    vo_buf_free(&expr);

    if (lrc == VO_LEDGER_OK) {
        s->has_est = 1;
    }

    return lrc;
}


/*
 * The words one edit away from each query word that allows it, among
 * the tenant's words (search_words): by length n - 1, n and n + 1,
 * those that share the word's first half, those that share its last
 * half (an edit is in one half or the other), and the word with the two
 * letters around the middle swapped; each checked (vo_query_near).
 * The first VO_SEARCH_VARIANTS found are kept, as whole words.
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
        vo_search_keep(s, w, swap, qw->len);

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
            vo_search_keep(s, w, word, wn);
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
 * the tenant's), unless it is w itself, kept already, or one too many.
 */

static void
vo_search_keep(vo_search_t *s, size_t w, const char *word, size_t n)
{
    size_t                  i;
    vo_search_variant_t    *v;
    const vo_query_word_t  *qw = &s->q->words[w];

    if ((n == qw->len && memcmp(word, s->q->phrase + qw->off, n) == 0)
        || s->nvar[w] == VO_SEARCH_VARIANTS)
    {
        return;
    }

    for (i = 0; i < s->nvar[w]; i++) {
        if (s->var[w][i].len == n + 2
            && memcmp(s->var[w][i].word + 1, word, n) == 0)
        {
            return;
        }
    }

    v = &s->var[w][s->nvar[w]++];

    v->word[0] = ' ';
    memcpy(v->word + 1, word, n);
    v->word[n + 1] = ' ';
    v->len = n + 2;
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
