/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Folding (lib/vo_fold.h says what it makes).  One pass over the code
 * points: ASCII in line, the rest through the tables of
 * lib/vo_fold_table.h (a code point's folded form, the separators, the
 * kana and their voiced forms), each a binary search.
 */

#include <string.h>

#include "vo_fold.h"


typedef struct {
    uint32_t   cp;
    uint16_t   off;       /* its folded form: vo_fold_pool[off, off + len) */
    uint8_t    len;
} vo_fold_entry_t;


#include "vo_fold_table.h"


/* the combining diacritical marks folding drops (vo_fold_table.py) */
static const uint32_t  vo_fold_marks[][2] = {
    { 0x0300, 0x036F }, { 0x1AB0, 0x1AFF }, { 0x1DC0, 0x1DFF },
    { 0x20D0, 0x20FF }, { 0xFE20, 0xFE2F }
};

/* the scripts written without spaces between words */
static const uint32_t  vo_fold_spaced_ranges[][2] = {
    { 0x2E80, 0x2FDF }, { 0x3005, 0x3007 }, { 0x3021, 0x3029 },
    { 0x3031, 0x3035 }, { 0x303B, 0x303C }, { 0x3041, 0x3098 },
    { 0x309D, 0x30FF }, { 0x3100, 0x312F }, { 0x3131, 0x318F },
    { 0x31A0, 0x31BF }, { 0x31F0, 0x31FF }, { 0x3400, 0x4DBF },
    { 0x4E00, 0x9FFF }, { 0xA960, 0xA97F }, { 0xAC00, 0xD7AF },
    { 0xF900, 0xFAFF }, { 0x1B000, 0x1B16F }, { 0x20000, 0x3134F }
};


#define VO_FOLD_VOICED       0x3099
#define VO_FOLD_SEMIVOICED   0x309A


typedef struct {
    vo_buf_t        *out;
    vo_buf_t        *map;
    unsigned         flags;
    uint32_t         index;        /* of the input code point */
    uint32_t         last;         /* the last code point appended, 0:
                                      none since a space */
    size_t           last_at;      /* where it starts in out */
    unsigned         spaced:1;     /* it was a word of its own */
} vo_fold_ctx_t;


static int vo_fold_in(const uint32_t (*r)[2], size_t n, uint32_t cp);
static void vo_fold_cp(vo_fold_ctx_t *f, uint32_t cp);
static void vo_fold_put(vo_fold_ctx_t *f, const char *p, size_t n);
static void vo_fold_space(vo_fold_ctx_t *f);


void
vo_fold(vo_buf_t *out, const char *in, size_t len, unsigned flags,
    vo_buf_t *map)
{
    size_t                n, m, k, lo, hi, mid;
    uint32_t              cp, c;
    const unsigned char  *p, *last;
    vo_fold_ctx_t         f;

    f.out = out;
    f.map = map;
    f.flags = flags;
    f.index = 0;
    f.last = 0;
    f.last_at = 0;
    f.spaced = 0;

    vo_fold_put(&f, " ", 1);

    p = (const unsigned char *) in;
    last = p + len;

    for ( /* void */ ; p < last; p += n, f.index++) {
        cp = vo_utf8_next(p, (size_t) (last - p), &n);

        if (cp < 0x80) {
            vo_fold_cp(&f, (cp >= 'A' && cp <= 'Z') ? cp + 0x20 : cp);
            continue;
        }

        if (vo_fold_in(vo_fold_marks,
                       sizeof(vo_fold_marks) / sizeof(vo_fold_marks[0]), cp))
        {
            continue;
        }

        /* its folded form, if it has one of its own */

        lo = 0;
        hi = sizeof(vo_fold_map) / sizeof(vo_fold_map[0]);

        while (lo < hi) {
            mid = lo + (hi - lo) / 2;

            if (vo_fold_map[mid].cp < cp) {
                lo = mid + 1;

            } else {
                hi = mid;
            }
        }

        if (lo == sizeof(vo_fold_map) / sizeof(vo_fold_map[0])
            || vo_fold_map[lo].cp != cp)
        {
            vo_fold_cp(&f, cp);
            continue;
        }

        for (k = 0; k < vo_fold_map[lo].len; k += m) {
            c = vo_utf8_next(vo_fold_pool + vo_fold_map[lo].off + k,
                             vo_fold_map[lo].len - k, &m);
            vo_fold_cp(&f, c);
        }
    }

    vo_fold_space(&f);
}


int
vo_fold_spaced(uint32_t cp)
{
    return vo_fold_in(vo_fold_spaced_ranges,
                      sizeof(vo_fold_spaced_ranges)
                      / sizeof(vo_fold_spaced_ranges[0]), cp);
}


/* One folded code point into the output: a letter, a space, a mark. */

static void
vo_fold_cp(vo_fold_ctx_t *f, uint32_t cp)
{
    char      utf[4];
    size_t    n, i;
    uint32_t  composed;

    if (cp < 0x80) {
        if ((cp >= 'a' && cp <= 'z') || (cp >= '0' && cp <= '9')) {
            goto letter;
        }

        vo_fold_space(f);
        return;
    }

    if (cp == VO_FOLD_VOICED || cp == VO_FOLD_SEMIVOICED) {

        /* a kana's voicing mark, apart (half-width, or decomposed):
         * the kana's composed form, as a full-width one is written */

        composed = 0;

        for (i = 0;
             f->last && i < sizeof(vo_fold_kana) / sizeof(vo_fold_kana[0]);
             i++)
        {
            if (vo_fold_kana[i][0] == f->last) {
                composed = vo_fold_kana[i][cp == VO_FOLD_VOICED ? 1 : 2];
                break;
            }
        }

        if (composed && f->out->len == f->last_at + 3 && !f->out->failed) {
            /* kana are three bytes of UTF-8, composed or not */
            (void) vo_utf8_put(f->out->data + f->last_at, composed);
            f->last = composed;
        }

        /* a mark of nothing it composes with is dropped, like an accent */
        return;
    }

    if (vo_fold_in(vo_fold_sep, sizeof(vo_fold_sep) / sizeof(vo_fold_sep[0]),
                   cp))
    {
        vo_fold_space(f);
        return;
    }

letter:

    if ((f->flags & VO_FOLD_SPACED) && (f->spaced || vo_fold_spaced(cp))) {
        vo_fold_space(f);
        f->spaced = vo_fold_spaced(cp);

    } else {
        f->spaced = 0;
    }

    n = vo_utf8_put(utf, cp);

    f->last = cp;
    f->last_at = f->out->len;

    vo_fold_put(f, utf, n);
}


/* A separator: one space, never two in a row. */

static void
vo_fold_space(vo_fold_ctx_t *f)
{
    f->last = 0;
    f->spaced = 0;

    if (f->out->len > 0 && !f->out->failed
        && f->out->data[f->out->len - 1] == ' ')
    {
        return;
    }

    vo_fold_put(f, " ", 1);
}


static void
vo_fold_put(vo_fold_ctx_t *f, const char *p, size_t n)
{
    size_t  i;

    vo_buf_add(f->out, p, n);

    if (f->map == NULL) {
        return;
    }

    for (i = 0; i < n; i++) {
        vo_buf_add(f->map, &f->index, sizeof(uint32_t));
    }
}


static int
vo_fold_in(const uint32_t (*r)[2], size_t n, uint32_t cp)
{
    size_t  lo, hi, mid;

    lo = 0;
    hi = n;

    while (lo < hi) {
        mid = lo + (hi - lo) / 2;

        if (r[mid][1] < cp) {
            lo = mid + 1;

        } else {
            hi = mid;
        }
    }

    return lo < n && r[lo][0] <= cp;
}


uint32_t
vo_utf8_next(const unsigned char *p, size_t n, size_t *len)
{
    size_t    k, i;
    uint32_t  cp, min;

    *len = 1;

    if (p[0] < 0x80) {
        return p[0];
    }

    if (p[0] >= 0xc2 && p[0] <= 0xdf) {
        k = 2;
        cp = p[0] & 0x1f;
        min = 0x80;

    } else if (p[0] >= 0xe0 && p[0] <= 0xef) {
        k = 3;
        cp = p[0] & 0x0f;
        min = 0x800;

    } else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
        k = 4;
        cp = p[0] & 0x07;
        min = 0x10000;

    } else {
        return 0xfffd;
    }

    if (n < k) {
        return 0xfffd;
    }

    for (i = 1; i < k; i++) {
        if ((p[i] & 0xc0) != 0x80) {
            return 0xfffd;
        }

        cp = (cp << 6) | (p[i] & 0x3f);
    }

    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
        return 0xfffd;
    }

    *len = k;

    return cp;
}


size_t
vo_utf8_count(const char *s, size_t n)
{
    size_t                k, count;
    const unsigned char  *p, *last;

    p = (const unsigned char *) s;
    last = p + n;

    for (count = 0; p < last; p += k, count++) {
        (void) vo_utf8_next(p, (size_t) (last - p), &k);
    }

    return count;
}


size_t
vo_utf8_put(char *p, uint32_t cp)
{
    unsigned char  *u = (unsigned char *) p;

    if (cp < 0x80) {
        u[0] = (unsigned char) cp;
        return 1;
    }

    if (cp < 0x800) {
        u[0] = (unsigned char) (0xc0 | (cp >> 6));
        u[1] = (unsigned char) (0x80 | (cp & 0x3f));
        return 2;
    }

    if (cp < 0x10000) {
        u[0] = (unsigned char) (0xe0 | (cp >> 12));
        u[1] = (unsigned char) (0x80 | ((cp >> 6) & 0x3f));
        u[2] = (unsigned char) (0x80 | (cp & 0x3f));
        return 3;
    }

    u[0] = (unsigned char) (0xf0 | (cp >> 18));
    u[1] = (unsigned char) (0x80 | ((cp >> 12) & 0x3f));
    u[2] = (unsigned char) (0x80 | ((cp >> 6) & 0x3f));
    u[3] = (unsigned char) (0x80 | (cp & 0x3f));

    return 4;
}
