/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Fuzz target: the search request (lib/vo_query.c) and folding
 * (lib/vo_fold.c).  The input is a query string as a client sends it
 * (?q=...&limit=...&cursor=...), and also a text to fold.  Invariants
 * checked:
 *
 *   1. the parser answers OK, BAD or TOO_LONG; a refusal writes a
 *      non-empty, NUL-terminated sentence;
 *   2. an accepted query has 1 to VO_QUERY_WORDS_MAX words, a limit of
 *      1 to VO_QUERY_LIMIT_MAX, a cursor tier below VO_QUERY_TIERS, and
 *      a phrase " w1 w2 ... " of well-formed UTF-8 that holds no ASCII
 *      but lowercase letters, digits and single spaces (nothing of the
 *      query languages' syntax reaches SQL), whose words are exactly
 *      the spans the parser lists; a whole word is at most
 *      VO_QUERY_WHOLE_MAX code points, a fuzzy one VO_QUERY_FUZZY_MIN
 *      to VO_QUERY_WORD_MAX code points without a digit or a space;
 *   3. folding any bytes, with and without VO_FOLD_SPACED, gives
 *      well-formed UTF-8 of the same alphabet, starting and ending with
 *      a space; it is idempotent (a folded text folds to itself), and
 *      spacing a folded text is spacing the text; its map has one
 *      entry per byte, never decreasing, never past the input's code
 *      points;
 *   4. vo_query_near is symmetric, and true of a word and itself, and
 *      of a word and the word with its last code point removed;
 *   5. a cursor printed by vo_query_cursor parses back to itself;
 *   6. the highlights of an accepted query's words in any text (the
 *      input) are sorted, apart, non-empty ranges of the text's code
 *      points, and each covers a place where a word is found folded.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"
#include "vo_fold.h"
#include "vo_query.h"


static void fuzz_query_parsed(const vo_query_t *q);
static void fuzz_query_alphabet(const char *p, size_t n);
static void fuzz_query_fold(const uint8_t *data, size_t size);
static void fuzz_query_marks(const vo_query_t *q, const uint8_t *data,
    size_t size);


int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char           err[256], args[64];
    size_t         n;
    vo_query_t     q;
    vo_query_rc_t  rc;

    if (size > 8192) {
        return 0;
    }

    memset(err, 'x', sizeof(err));

    rc = vo_query_parse((const char *) data, size, &q, err, sizeof(err));

    FUZZ_CHECK(rc == VO_QUERY_OK || rc == VO_QUERY_BAD
               || rc == VO_QUERY_TOO_LONG);

    if (rc != VO_QUERY_OK) {
        FUZZ_CHECK(memchr(err, '\0', sizeof(err)) != NULL);
        FUZZ_CHECK(err[0] != '\0');

    } else {
        fuzz_query_parsed(&q);

        fuzz_query_marks(&q, data, size);

        /* 5: the cursor of where this query points, if it has one */

        if (q.after > 0) {
            n = vo_query_cursor(args, sizeof(args), q.tier, q.after);
            FUZZ_CHECK(n > 0);
        }
    }

    fuzz_query_fold(data, size);

    return 0;
}


static void
fuzz_query_parsed(const vo_query_t *q)
{
    size_t                  i, k, at;
    char                    cur[64], args[96];
    vo_query_t              back;
    const vo_query_word_t  *w;

    FUZZ_CHECK(q->nwords >= 1 && q->nwords <= VO_QUERY_WORDS_MAX);
    FUZZ_CHECK(q->limit >= 1 && q->limit <= VO_QUERY_LIMIT_MAX);
    FUZZ_CHECK(q->tier >= 0 && q->tier < VO_QUERY_TIERS);
    FUZZ_CHECK(q->after >= 0);
    FUZZ_CHECK(q->q_len >= 1 && q->q_len <= VO_QUERY_TEXT_MAX);
    FUZZ_CHECK(q->phrase_len <= VO_QUERY_FOLDED_MAX);
    FUZZ_CHECK(q->phrase[q->phrase_len] == '\0');
    FUZZ_CHECK(fuzz_utf8_valid((const unsigned char *) q->phrase,
                               q->phrase_len));

    fuzz_query_alphabet(q->phrase, q->phrase_len);

    /* the words tile the phrase: " w1 w2 ... " */

    at = 1;

    for (i = 0; i < q->nwords; i++) {
        w = &q->words[i];

        FUZZ_CHECK(w->off == at && w->len > 0);
        FUZZ_CHECK(q->phrase[w->off - 1] == ' ');
        FUZZ_CHECK(q->phrase[w->off + w->len] == ' ');
        FUZZ_CHECK(w->cps == vo_utf8_count(q->phrase + w->off, w->len));

        if (w->whole) {
            FUZZ_CHECK(w->cps <= VO_QUERY_WHOLE_MAX);
            FUZZ_CHECK(memchr(q->phrase + w->off, ' ', w->len) == NULL);
        }

        if (w->fuzzy) {
            FUZZ_CHECK(w->cps >= VO_QUERY_FUZZY_MIN
                       && w->cps <= VO_QUERY_WORD_MAX);

            for (k = 0; k < w->len; k++) {
                FUZZ_CHECK(q->phrase[w->off + k] != ' ');
                FUZZ_CHECK(q->phrase[w->off + k] < '0'
                           || q->phrase[w->off + k] > '9');
            }

            /* 4: itself, and itself less its last code point */
            FUZZ_CHECK(vo_query_near(q->phrase + w->off, w->len,
                                     q->phrase + w->off, w->len));

            for (k = w->len - 1;
                 k > 0 && (q->phrase[w->off + k] & 0xc0) == 0x80;
                 k--)
            { /* void */ }

            FUZZ_CHECK(vo_query_near(q->phrase + w->off, w->len,
                                     q->phrase + w->off, k));
        }

        at = w->off + w->len + 1;
    }

    FUZZ_CHECK(at == q->phrase_len);

    /* 4: near is symmetric (the first two words, whatever they are) */

    if (q->nwords >= 2) {
        FUZZ_CHECK(vo_query_near(q->phrase + q->words[0].off,
                                 q->words[0].len,
                                 q->phrase + q->words[1].off,
                                 q->words[1].len)
                   == vo_query_near(q->phrase + q->words[1].off,
                                    q->words[1].len,
                                    q->phrase + q->words[0].off,
                                    q->words[0].len));
    }

    /* 5: a cursor of ours parses back */

    if (vo_query_cursor(cur, sizeof(cur), q->tier, q->after + 1) > 0) {
        snprintf(args, sizeof(args), "q=x&cursor=%s", cur);

        FUZZ_CHECK(vo_query_parse(args, strlen(args), &back, cur,
                                  sizeof(cur))
                   == VO_QUERY_OK);
        FUZZ_CHECK(back.tier == q->tier && back.after == q->after + 1);
    }
}


/* Only lowercase letters, digits, single spaces in ASCII; the rest any
 * code point above it (checked as UTF-8 by the caller). */

static void
fuzz_query_alphabet(const char *p, size_t n)
{
    size_t         i;
    unsigned char  c;

    FUZZ_CHECK(n >= 1 && p[0] == ' ' && p[n - 1] == ' ');

    for (i = 0; i < n; i++) {
        c = (unsigned char) p[i];

        FUZZ_CHECK(c >= 0x80 || (c >= 'a' && c <= 'z')
                   || (c >= '0' && c <= '9') || c == ' ');
        FUZZ_CHECK(!(c == ' ' && i + 1 < n && p[i + 1] == ' '));
    }
}


static void
fuzz_query_fold(const uint8_t *data, size_t size)
{
    size_t     i, cps;
    uint32_t  *m, prev;
    unsigned   flags;
    vo_buf_t   out, again, map, spaced;

    cps = vo_utf8_count((const char *) data, size);

    for (flags = 0; flags <= VO_FOLD_SPACED; flags++) {
        vo_buf_init(&out);
        vo_buf_init(&again);
        vo_buf_init(&map);

        vo_fold(&out, (const char *) data, size, flags, &map);
        FUZZ_CHECK(vo_buf_ok(&out) && vo_buf_ok(&map));

        FUZZ_CHECK(fuzz_utf8_valid((unsigned char *) out.data, out.len));
        fuzz_query_alphabet(out.data, out.len);

        /* 3: the map */

        FUZZ_CHECK(map.len == out.len * sizeof(uint32_t));

        m = (uint32_t *) map.data;
        prev = 0;

        for (i = 0; i < out.len; i++) {
            FUZZ_CHECK(m[i] >= prev && m[i] <= cps);
            prev = m[i];
        }

        /* 3: idempotent */

        vo_fold(&again, out.data, out.len, flags, NULL);
        FUZZ_CHECK(vo_buf_ok(&again));
        FUZZ_CHECK(again.len == out.len
                   && memcmp(again.data, out.data, out.len) == 0);

        if (flags == 0) {
            /* 3: spacing the folded text is spacing the text */

            vo_buf_init(&spaced);
            vo_buf_reset(&again);

            vo_fold(&spaced, out.data, out.len, VO_FOLD_SPACED, NULL);
            vo_fold(&again, (const char *) data, size, VO_FOLD_SPACED, NULL);

            FUZZ_CHECK(vo_buf_ok(&spaced) && vo_buf_ok(&again));
            FUZZ_CHECK(spaced.len == again.len
                       && memcmp(spaced.data, again.data, again.len) == 0);

            vo_buf_free(&spaced);
        }

        vo_buf_free(&out);
        vo_buf_free(&again);
        vo_buf_free(&map);
    }
}


static void
fuzz_query_marks(const vo_query_t *q, const uint8_t *data, size_t size)
{
    size_t       i, n, cps, k;
    size_t       lens[VO_QUERY_WORDS_MAX];
    uint32_t     marks[16][2];
    vo_buf_t     part;
    const char  *pats[VO_QUERY_WORDS_MAX];

    for (i = 0; i < q->nwords; i++) {
        pats[i] = q->phrase + q->words[i].off;
        lens[i] = q->words[i].len;
    }

    n = vo_query_marks((const char *) data, size, pats, lens, q->nwords,
                       marks, 16);

    FUZZ_CHECK(n <= 16);

    cps = vo_utf8_count((const char *) data, size);

    for (i = 0; i < n; i++) {
        FUZZ_CHECK(marks[i][0] < marks[i][1] && marks[i][1] <= cps);
        FUZZ_CHECK(i == 0 || marks[i - 1][1] < marks[i][0]);
    }

    /* a mark covers a word: the code points it covers, folded, hold
     * one of the words */

    for (i = 0; i < n; i++) {
        const unsigned char  *p = data, *last = data + size, *from = NULL;
        size_t                len, cp;

        for (cp = 0; p < last; p += len, cp++) {
            (void) vo_utf8_next(p, (size_t) (last - p), &len);

            if (cp == marks[i][0]) {
                from = p;
            }

            if (cp == marks[i][1]) {
                break;
            }
        }

        FUZZ_CHECK(from != NULL);

        vo_buf_init(&part);
        vo_fold(&part, (const char *) from, (size_t) (p - from),
                VO_FOLD_SPACED, NULL);
        FUZZ_CHECK(vo_buf_ok(&part));

        for (k = 0; k < q->nwords; k++) {
            if (lens[k] <= part.len
                && memmem(part.data, part.len, pats[k], lens[k]) != NULL)
            {
                break;
            }
        }

        FUZZ_CHECK(k < q->nwords);
        vo_buf_free(&part);
    }
}
