/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The search request parser (lib/vo_query.h).  Nothing a client sends
 * reaches SQL from here but folded words, which hold letters, digits
 * and marks only (lib/vo_fold.h): the query languages' own syntax ('"',
 * '*', ':', '%', '_', operators) folds to spaces, so a query can never
 * be a database error.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE             /* memmem */
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vo_fold.h"
#include "vo_query.h"


#define VO_QUERY_PARAM_MAX  (VO_QUERY_TEXT_MAX * 3 + 1)


static int vo_query_param(const char **p, const char *last, char *key,
    size_t key_size, char *val, size_t val_size, size_t *val_len,
    int *too_long);
static int vo_query_unescape(const char *p, size_t n, char *out,
    size_t size, size_t *out_len, int *too_long);
static int vo_query_text(vo_query_t *q, char *err, size_t err_size);
static vo_query_rc_t vo_query_words(vo_query_t *q, char *err,
    size_t err_size);
static int vo_query_add_word(vo_query_t *q, const char *w, size_t n);
static int vo_query_limit(const char *v, size_t n, int *limit);
static int vo_query_cursor_parse(const char *v, size_t n, int *tier,
    int64_t *after);
static size_t vo_query_cps(const char *s, size_t n, uint32_t *cps,
    size_t max);
static int vo_query_mark_cmp(const void *a, const void *b);


vo_query_rc_t
vo_query_parse(const char *args, size_t len, vo_query_t *q, char *err,
    size_t err_size)
{
    int          too_long, seen_q, seen_limit, seen_cursor, rc;
    char         key[16], val[VO_QUERY_PARAM_MAX];
    size_t       val_len;
    const char  *p, *last;

    memset(q, 0, sizeof(vo_query_t));
    q->limit = VO_QUERY_LIMIT_DEFAULT;

    if (len > VO_QUERY_ARGS_MAX) {
        snprintf(err, err_size, "the query string is longer than %d bytes",
                 VO_QUERY_ARGS_MAX);
        return VO_QUERY_TOO_LONG;
    }

    seen_q = 0;
    seen_limit = 0;
    seen_cursor = 0;

    p = args;
    last = args + len;

    while (p < last) {
        too_long = 0;

        rc = vo_query_param(&p, last, key, sizeof(key), val, sizeof(val),
                            &val_len, &too_long);

        if (rc == 1) {
            continue;                       /* "&&": nothing */
        }

        if (rc == -1) {
            snprintf(err, err_size, "the query string is malformed: a "
                     "%% not followed by two hex digits, or a parameter "
                     "name that is no parameter of this endpoint (q, "
                     "limit, cursor)");
            return VO_QUERY_BAD;
        }

        if (strcmp(key, "q") == 0) {
            if (seen_q++) {
                goto repeated;
            }

            if (too_long || val_len > VO_QUERY_TEXT_MAX) {
                snprintf(err, err_size, "q is longer than %d bytes",
                         VO_QUERY_TEXT_MAX);
                return VO_QUERY_TOO_LONG;
            }

            memcpy(q->q, val, val_len);
            q->q[val_len] = '\0';
            q->q_len = val_len;

        } else if (strcmp(key, "limit") == 0) {
            if (seen_limit++) {
                goto repeated;
            }

            if (too_long || vo_query_limit(val, val_len, &q->limit) != 0) {
                snprintf(err, err_size, "limit must be a number of hits "
                         "from 1 to %d", VO_QUERY_LIMIT_MAX);
                return VO_QUERY_BAD;
            }

        } else if (strcmp(key, "cursor") == 0) {
            if (seen_cursor++) {
                goto repeated;
            }

            if (too_long
                || vo_query_cursor_parse(val, val_len, &q->tier, &q->after)
                   != 0)
            {
                snprintf(err, err_size, "cursor is not one this endpoint "
                         "gave: pass the \"next\" of the previous page as "
                         "it is");
                return VO_QUERY_BAD;
            }

        } else {
            snprintf(err, err_size, "unknown parameter \"%s\": this "
                     "endpoint takes q, limit and cursor", key);
            return VO_QUERY_BAD;
        }
    }

    if (!seen_q || q->q_len == 0) {
        snprintf(err, err_size, "q is missing or empty: say what to look "
                 "for, as in ?q=new+price");
        return VO_QUERY_BAD;
    }

    if (vo_query_text(q, err, err_size) != 0) {
        return VO_QUERY_BAD;
    }

    return vo_query_words(q, err, err_size);

repeated:

    snprintf(err, err_size, "the parameter \"%s\" is given twice", key);

    return VO_QUERY_BAD;
}


/*
 * One "key=value" at *p, up to the next '&': the key (decoded, at most a
 * short name) and the value (decoded).  0 with a parameter, 1 for an
 * empty one, -1 when malformed or the key is no name of ours.
 */

static int
vo_query_param(const char **p, const char *last, char *key, size_t key_size,
    char *val, size_t val_size, size_t *val_len, int *too_long)
{
    int          tl;
    size_t       key_len;
    const char  *start, *eq, *end;

    start = *p;
    end = memchr(start, '&', (size_t) (last - start));
    end = end ? end : last;

    *p = (end < last) ? end + 1 : last;

    if (end == start) {
        return 1;
    }

    eq = memchr(start, '=', (size_t) (end - start));
    eq = eq ? eq : end;

    tl = 0;

    if (vo_query_unescape(start, (size_t) (eq - start), key, key_size - 1,
                          &key_len, &tl)
        != 0 || tl || memchr(key, '\0', key_len) != NULL)
    {
        return -1;
    }

    key[key_len] = '\0';

    if (eq == end) {
        *val_len = 0;
        return 0;
    }

    return vo_query_unescape(eq + 1, (size_t) (end - eq - 1), val,
                             val_size, val_len, too_long);
}


/* Percent-decoding, '+' a space (HTML forms); -1 for a bad escape. */

static int
vo_query_unescape(const char *p, size_t n, char *out, size_t size,
    size_t *out_len, int *too_long)
{
    int            hi, lo;
    size_t         i, k;
    unsigned char  c;

    k = 0;

    for (i = 0; i < n; i++) {
        c = (unsigned char) p[i];

        if (c == '%') {
            if (i + 2 >= n) {
                return -1;
            }

#define vo_hex(ch)                                                           \
    ((ch) >= '0' && (ch) <= '9' ? (ch) - '0'                                 \
     : (ch) >= 'a' && (ch) <= 'f' ? (ch) - 'a' + 10                          \
     : (ch) >= 'A' && (ch) <= 'F' ? (ch) - 'A' + 10 : -1)

            hi = vo_hex((unsigned char) p[i + 1]);
            lo = vo_hex((unsigned char) p[i + 2]);

#undef vo_hex

            if (hi < 0 || lo < 0) {
                return -1;
            }

            c = (unsigned char) (hi * 16 + lo);
            i += 2;

        } else if (c == '+') {
            c = ' ';
        }

        if (k == size) {
            *too_long = 1;
            continue;
        }

        out[k++] = (char) c;
    }

    *out_len = k;

    return 0;
}


/* q itself: UTF-8, and no control character but tabs and line ends. */

static int
vo_query_text(vo_query_t *q, char *err, size_t err_size)
{
    size_t                n;
    uint32_t              cp;
    const unsigned char  *p, *last;

    p = (const unsigned char *) q->q;
    last = p + q->q_len;

    for ( /* void */ ; p < last; p += n) {
        cp = vo_utf8_next(p, (size_t) (last - p), &n);

        if (n == 1 && p[0] >= 0x80) {
            snprintf(err, err_size, "q is not valid UTF-8");
            return -1;
        }

        if ((cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r')
            || (cp >= 0x7f && cp <= 0x9f))
        {
            snprintf(err, err_size, "q contains a control character "
                     "(U+%04X)", (unsigned) cp);
            return -1;
        }
    }

    return 0;
}


/*
 * The words: the runs of letters and digits of q folded without spacing
 * (the words as the client wrote them), each folded again with spacing
 * into its piece of the phrase.
 */

static vo_query_rc_t
vo_query_words(vo_query_t *q, char *err, size_t err_size)
{
    char            *s, *e, *last;
    vo_buf_t         plain;
    vo_query_rc_t    rc;

    vo_buf_init(&plain);
    vo_fold(&plain, q->q, q->q_len, 0, NULL);

    rc = VO_QUERY_OK;

    if (!vo_buf_ok(&plain)) {
        snprintf(err, err_size, "out of memory");
        rc = VO_QUERY_BAD;
        goto done;
    }

    q->phrase[0] = ' ';
    q->phrase_len = 1;

    s = plain.data;
    last = plain.data + plain.len;

    while (s < last) {
        while (s < last && *s == ' ') {
            s++;
        }

        for (e = s; e < last && *e != ' '; e++) { /* void */ }

        if (e == s) {
            break;
        }

        if (q->nwords == VO_QUERY_WORDS_MAX) {
            snprintf(err, err_size, "q has more than %d words",
                     VO_QUERY_WORDS_MAX);
            rc = VO_QUERY_BAD;
            goto done;
        }

        if (vo_query_add_word(q, s, (size_t) (e - s)) != 0) {
            snprintf(err, err_size, "q is too long once folded (more than "
                     "%d bytes)", VO_QUERY_FOLDED_MAX);
            rc = VO_QUERY_TOO_LONG;
            goto done;
        }

        s = e;
    }

    if (q->nwords == 0) {
        snprintf(err, err_size, "q has no letter or digit to look for");
        rc = VO_QUERY_BAD;
    }

done:

    vo_buf_free(&plain);

    return rc;
}


static int
vo_query_add_word(vo_query_t *q, const char *w, size_t n)
{
    int               rc;
    char             *p, *e;
    size_t            i, len;
    uint32_t          cps[VO_QUERY_WORD_MAX + 1];
    vo_buf_t          piece;
    vo_query_word_t  *qw;

    vo_buf_init(&piece);
    vo_fold(&piece, w, n, VO_FOLD_SPACED, NULL);

    rc = -1;

    if (!vo_buf_ok(&piece) || piece.len < 3) {
        goto done;
    }

    /* " piece ": without the spaces around it */

    p = piece.data + 1;
    e = piece.data + piece.len - 1;
    len = (size_t) (e - p);

    if (q->phrase_len + len + 1 > VO_QUERY_FOLDED_MAX) {
        goto done;
    }

    qw = &q->words[q->nwords++];
    qw->off = (uint16_t) q->phrase_len;
    qw->len = (uint16_t) len;
    qw->cps = (uint16_t) vo_utf8_count(p, len);
    qw->whole = (memchr(p, ' ', len) == NULL
                 && qw->cps <= VO_QUERY_WHOLE_MAX);
    qw->fuzzy = (memchr(p, ' ', len) == NULL
                 && qw->cps >= VO_QUERY_FUZZY_MIN
                 && qw->cps <= VO_QUERY_WORD_MAX);

    if (qw->fuzzy) {
        /* a number with a digit wrong is another number */

        (void) vo_query_cps(p, len, cps, VO_QUERY_WORD_MAX + 1);

        for (i = 0; i < qw->cps; i++) {
            if ((cps[i] >= '0' && cps[i] <= '9') || vo_fold_spaced(cps[i])) {
                qw->fuzzy = 0;
                break;
            }
        }
    }

    memcpy(q->phrase + q->phrase_len, p, len);
    q->phrase_len += len;
    q->phrase[q->phrase_len++] = ' ';
    q->phrase[q->phrase_len] = '\0';

    rc = 0;

done:

    vo_buf_free(&piece);

    return rc;
}


static int
vo_query_limit(const char *v, size_t n, int *limit)
{
    int     x;
    size_t  i;

    if (n == 0 || n > 3) {
        return -1;
    }

    x = 0;

    for (i = 0; i < n; i++) {
        if (v[i] < '0' || v[i] > '9') {
            return -1;
        }

        x = x * 10 + (v[i] - '0');
    }

    if (x < 1 || x > VO_QUERY_LIMIT_MAX) {
        return -1;
    }

    *limit = x;

    return 0;
}


/* "<tier>.<id>": a tier digit, a dot, the id in decimal, no sign. */

size_t
vo_query_cursor(char *buf, size_t size, int tier, int64_t id)
{
    int  n;

    n = snprintf(buf, size, "%d.%lld", tier, (long long) id);

    return (n > 0 && (size_t) n < size) ? (size_t) n : 0;
}


static int
vo_query_cursor_parse(const char *v, size_t n, int *tier, int64_t *after)
{
    size_t    i;
    uint64_t  id;

    if (n < 3 || n > VO_QUERY_CURSOR_MAX || v[1] != '.' || v[0] < '0'
        || v[0] >= '0' + VO_QUERY_TIERS)
    {
        return -1;
    }

    id = 0;

    for (i = 2; i < n; i++) {
        if (v[i] < '0' || v[i] > '9' || id > (uint64_t) INT64_MAX / 10) {
            return -1;
        }

        id = id * 10 + (uint64_t) (v[i] - '0');

        if (id > (uint64_t) INT64_MAX) {
            return -1;
        }
    }

    if (id == 0) {
        return -1;
    }

    *tier = v[0] - '0';
    *after = (int64_t) id;

    return 0;
}


int
vo_query_near(const char *a, size_t an, const char *b, size_t bn)
{
    size_t    i, n, m, k;
    uint32_t  x[VO_QUERY_WORD_MAX + 2], y[VO_QUERY_WORD_MAX + 2];

    n = vo_query_cps(a, an, x, VO_QUERY_WORD_MAX + 2);
    m = vo_query_cps(b, bn, y, VO_QUERY_WORD_MAX + 2);

    if (n > VO_QUERY_WORD_MAX + 1 || m > VO_QUERY_WORD_MAX + 1) {
        return an == bn && memcmp(a, b, an) == 0;
    }

    if (n + 1 < m || m + 1 < n) {
        return 0;
    }

    /* the common prefix, then what is left must be one edit */

    for (i = 0; i < n && i < m && x[i] == y[i]; i++) { /* void */ }

    if (n == m) {
        if (i == n) {
            return 1;
        }

        /* a swap of i, i + 1, else a replacement of i */

        k = (i + 1 < n && x[i] == y[i + 1] && x[i + 1] == y[i]) ? i + 2 : i + 1;

        for ( /* void */ ; k < n; k++) {
            if (x[k] != y[k]) {
                return 0;
            }
        }

        return 1;
    }

    /* one code point more in the longer one, at i */

    if (n < m) {
        for (k = i; k < n; k++) {
            if (x[k] != y[k + 1]) {
                return 0;
            }
        }

    } else {
        for (k = i; k < m; k++) {
            if (y[k] != x[k + 1]) {
                return 0;
            }
        }
    }

    return 1;
}


/* Up to max code points of s[0, n) into cps; how many s has. */

static size_t
vo_query_cps(const char *s, size_t n, uint32_t *cps, size_t max)
{
    size_t                k, count;
    uint32_t              cp;
    const unsigned char  *p, *last;

    p = (const unsigned char *) s;
    last = p + n;

    for (count = 0; p < last; p += k, count++) {
        cp = vo_utf8_next(p, (size_t) (last - p), &k);

        if (count < max) {
            cps[count] = cp;
        }
    }

    return count;
}


size_t
vo_query_marks(const char *text, size_t len, const char *const *pats,
    const size_t *lens, size_t npats, uint32_t (*marks)[2], size_t max)
{
    size_t       i, n, k, a, b, plen;
    vo_buf_t     folded, map;
    uint32_t    *m;
    const char  *p, *hit, *pat;

    vo_buf_init(&folded);
    vo_buf_init(&map);

    vo_fold(&folded, text, len, VO_FOLD_SPACED, &map);

    n = 0;

    if (!vo_buf_ok(&folded) || !vo_buf_ok(&map)) {
        goto done;
    }

    m = (uint32_t *) map.data;

    for (i = 0; i < npats && n < max; i++) {
        pat = pats[i];
        plen = lens[i];

        /* the match, less the word edges the pattern asks for */

        for (a = 0; a < plen && pat[a] == ' '; a++) { /* void */ }
        for (b = plen; b > a && pat[b - 1] == ' '; b--) { /* void */ }

        if (a == b) {
            continue;
        }

        p = folded.data;

        while (n < max && plen <= (size_t) (folded.data + folded.len - p)) {
            hit = memmem(p, (size_t) (folded.data + folded.len - p), pat,
                         plen);
            if (hit == NULL) {
                break;
            }

            k = (size_t) (hit - folded.data);

            marks[n][0] = m[k + a];
            marks[n][1] = m[k + b - 1] + 1;
            n++;

            /* a word's edge is the next one's too: step to it */
            p = hit + (b > a ? b : 1);
        }
    }

    qsort(marks, n, sizeof(marks[0]), vo_query_mark_cmp);

    for (i = 1, k = 0; i < n; i++) {
        if (marks[i][0] <= marks[k][1]) {
            if (marks[i][1] > marks[k][1]) {
                marks[k][1] = marks[i][1];
            }

            continue;
        }

        k++;
        marks[k][0] = marks[i][0];
        marks[k][1] = marks[i][1];
    }

    n = n ? k + 1 : 0;

done:

    vo_buf_free(&folded);
    vo_buf_free(&map);

    return n;
}


static int
vo_query_mark_cmp(const void *a, const void *b)
{
    const uint32_t  *x = a, *y = b;

    if (x[0] != y[0]) {
        return x[0] < y[0] ? -1 : 1;
    }

    return x[1] < y[1] ? -1 : (x[1] > y[1]);
}
