/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The shared checks of the fuzz targets (see fuzz_check.h).  The JSON
 * checker is a recursive-descent recogniser of RFC 8259 with a depth
 * limit; it builds nothing.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"


#define FUZZ_JSON_DEPTH  64


typedef struct {
    const unsigned char  *p;
    const unsigned char  *last;
    int                   depth;
} fuzz_json_t;


static int fuzz_json_value(fuzz_json_t *j);
static int fuzz_json_string(fuzz_json_t *j);
static int fuzz_json_number(fuzz_json_t *j);
static void fuzz_json_ws(fuzz_json_t *j);
static int fuzz_hex4(const unsigned char *p, uint32_t *v);
static size_t fuzz_utf8_put(uint32_t cp, char *out);


void
fuzz_fail(const char *file, int line, const char *what)
{
    fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what);
    abort();
}


size_t
fuzz_utf8_seq(const unsigned char *p, size_t n, uint32_t *cp)
{
    size_t    len, i;
    uint32_t  c;

    /* the table of well-formed sequences, Unicode 15 table 3-7 */

    if (n == 0) {
        return 0;
    }

    c = p[0];

    if (c < 0x80) {
        *cp = c;
        return 1;
    }

    if (c >= 0xc2 && c <= 0xdf) {
        len = 2;

    } else if (c >= 0xe0 && c <= 0xef) {
        len = 3;

    } else if (c >= 0xf0 && c <= 0xf4) {
        len = 4;

    } else {
        return 0;
    }

    if (n < len) {
        return 0;
    }

    /* the second byte's range depends on the first */

    if ((c == 0xe0 && p[1] < 0xa0) || (c == 0xed && p[1] > 0x9f)
        || (c == 0xf0 && p[1] < 0x90) || (c == 0xf4 && p[1] > 0x8f))
    {
        return 0;
    }

    c &= len == 2 ? 0x1f : (len == 3 ? 0x0f : 0x07);

    for (i = 1; i < len; i++) {
        if (p[i] < 0x80 || p[i] > 0xbf) {
            return 0;
        }

        c = c << 6 | (p[i] & 0x3f);
    }

    *cp = c;
    return len;
}


int
fuzz_utf8_valid(const unsigned char *p, size_t n)
{
    size_t    i, k;
    uint32_t  cp;

    for (i = 0; i < n; i += k) {
        k = fuzz_utf8_seq(p + i, n - i, &cp);
        if (k == 0) {
            return 0;
        }
    }

    return 1;
}


int
fuzz_json_valid(const char *p, size_t n)
{
    fuzz_json_t  j;

    j.p = (const unsigned char *) p;
    j.last = j.p + n;
    j.depth = 0;

    fuzz_json_ws(&j);

    if (!fuzz_json_value(&j)) {
        return 0;
    }

    fuzz_json_ws(&j);

    return j.p == j.last;
}


size_t
fuzz_json_unquote(const char *p, size_t n, char *out)
{
    size_t                i, k, len;
    uint32_t              cp, lo;
    const unsigned char  *s;

    s = (const unsigned char *) p;

    if (n < 2 || s[0] != '"' || s[n - 1] != '"') {
        return (size_t) -1;
    }

    len = 0;

    for (i = 1; i < n - 1; /* void */ ) {

        if (s[i] == '"' || s[i] < 0x20) {
            return (size_t) -1;
        }

        if (s[i] != '\\') {
            k = fuzz_utf8_seq(s + i, n - 1 - i, &cp);
            if (k == 0) {
                return (size_t) -1;
            }

            memcpy(out + len, s + i, k);
            len += k;
            i += k;
            continue;
        }

        if (i + 1 >= n - 1) {
            return (size_t) -1;
        }

        switch (s[i + 1]) {
        case '"':  out[len++] = '"'; i += 2; continue;
        case '\\': out[len++] = '\\'; i += 2; continue;
        case '/':  out[len++] = '/'; i += 2; continue;
        case 'b':  out[len++] = '\b'; i += 2; continue;
        case 'f':  out[len++] = '\f'; i += 2; continue;
        case 'n':  out[len++] = '\n'; i += 2; continue;
        case 'r':  out[len++] = '\r'; i += 2; continue;
        case 't':  out[len++] = '\t'; i += 2; continue;
        case 'u':  break;
        default:   return (size_t) -1;
        }

        if (i + 6 > n - 1 || !fuzz_hex4(s + i + 2, &cp)) {
            return (size_t) -1;
        }

        i += 6;

        if (cp >= 0xdc00 && cp <= 0xdfff) {
            return (size_t) -1;
        }

        if (cp >= 0xd800 && cp <= 0xdbff) {
            if (i + 6 > n - 1 || s[i] != '\\' || s[i + 1] != 'u'
                || !fuzz_hex4(s + i + 2, &lo) || lo < 0xdc00 || lo > 0xdfff)
            {
                return (size_t) -1;
            }

            cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
            i += 6;
        }

        len += fuzz_utf8_put(cp, out + len);
    }

    return len;
}


static int
fuzz_json_value(fuzz_json_t *j)
{
    int  first;

    if (j->p == j->last) {
        return 0;
    }

    switch (*j->p) {

    case '{':
    case '[':
        if (++j->depth > FUZZ_JSON_DEPTH) {
            return 0;
        }

        {
            unsigned char  close = *j->p == '{' ? '}' : ']';
            int            object = *j->p == '{';

            j->p++;
            first = 1;

            for ( ;; ) {
                fuzz_json_ws(j);

                if (j->p == j->last) {
                    return 0;
                }

                if (*j->p == close && first) {
                    j->p++;
                    break;
                }

                if (!first) {
                    if (*j->p == close) {
                        j->p++;
                        break;
                    }

                    if (*j->p++ != ',') {
                        return 0;
                    }

                    fuzz_json_ws(j);
                }

                first = 0;

                if (object) {
                    if (!fuzz_json_string(j)) {
                        return 0;
                    }

                    fuzz_json_ws(j);

                    if (j->p == j->last || *j->p++ != ':') {
                        return 0;
                    }

                    fuzz_json_ws(j);
                }

                if (!fuzz_json_value(j)) {
                    return 0;
                }
            }
        }

        j->depth--;
        return 1;

    case '"':
        return fuzz_json_string(j);

    case 't':
        if (j->last - j->p >= 4 && memcmp(j->p, "true", 4) == 0) {
            j->p += 4;
            return 1;
        }

        return 0;

    case 'f':
        if (j->last - j->p >= 5 && memcmp(j->p, "false", 5) == 0) {
            j->p += 5;
            return 1;
        }

        return 0;

    case 'n':
        if (j->last - j->p >= 4 && memcmp(j->p, "null", 4) == 0) {
            j->p += 4;
            return 1;
        }

        return 0;

    default:
        return fuzz_json_number(j);
    }
}


static int
fuzz_json_string(fuzz_json_t *j)
{
    size_t                k;
    uint32_t              cp;
    const unsigned char  *p;

    p = j->p;

    if (p == j->last || *p++ != '"') {
        return 0;
    }

    while (p < j->last && *p != '"') {

        if (*p < 0x20) {
            return 0;
        }

        if (*p == '\\') {
            if (j->last - p < 2) {
                return 0;
            }

            if (p[1] == 'u') {
                if (j->last - p < 6 || !fuzz_hex4(p + 2, &cp)) {
                    return 0;
                }

                p += 6;
                continue;
            }

            if (strchr("\"\\/bfnrt", p[1]) == NULL || p[1] == '\0') {
                return 0;
            }

            p += 2;
            continue;
        }

        k = fuzz_utf8_seq(p, j->last - p, &cp);
        if (k == 0) {
            return 0;
        }

        p += k;
    }

    if (p == j->last) {
        return 0;
    }

    j->p = p + 1;
    return 1;
}


static int
fuzz_json_number(fuzz_json_t *j)
{
    const unsigned char  *p, *d;

    /* -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */

    p = j->p;

    if (p < j->last && *p == '-') {
        p++;
    }

    if (p == j->last || *p < '0' || *p > '9') {
        return 0;
    }

    if (*p == '0') {
        p++;

    } else {
        while (p < j->last && *p >= '0' && *p <= '9') {
            p++;
        }
    }

    if (p < j->last && *p == '.') {
        d = ++p;

        while (p < j->last && *p >= '0' && *p <= '9') {
            p++;
        }

        if (p == d) {
            return 0;
        }
    }

    if (p < j->last && (*p == 'e' || *p == 'E')) {
        p++;

        if (p < j->last && (*p == '+' || *p == '-')) {
            p++;
        }

        d = p;

        while (p < j->last && *p >= '0' && *p <= '9') {
            p++;
        }

        if (p == d) {
            return 0;
        }
    }

    j->p = p;
    return 1;
}


static void
fuzz_json_ws(fuzz_json_t *j)
{
    while (j->p < j->last
           && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n'
               || *j->p == '\r'))
    {
        j->p++;
    }
}


static int
fuzz_hex4(const unsigned char *p, uint32_t *v)
{
    int       i;
    uint32_t  n, d;

    n = 0;

    for (i = 0; i < 4; i++) {
        if (p[i] >= '0' && p[i] <= '9') {
            d = p[i] - '0';

        } else if ((p[i] | 0x20) >= 'a' && (p[i] | 0x20) <= 'f') {
            d = (p[i] | 0x20) - 'a' + 10;

        } else {
            return 0;
        }

        n = n << 4 | d;
    }

    *v = n;
    return 1;
}


static size_t
fuzz_utf8_put(uint32_t cp, char *out)
{
    unsigned char  *o;

    o = (unsigned char *) out;

    if (cp < 0x80) {
        o[0] = (unsigned char) cp;
        return 1;
    }

    if (cp < 0x800) {
        o[0] = (unsigned char) (0xc0 | cp >> 6);
        o[1] = (unsigned char) (0x80 | (cp & 0x3f));
        return 2;
    }

    if (cp < 0x10000) {
        o[0] = (unsigned char) (0xe0 | cp >> 12);
        o[1] = (unsigned char) (0x80 | (cp >> 6 & 0x3f));
        o[2] = (unsigned char) (0x80 | (cp & 0x3f));
        return 3;
    }

    o[0] = (unsigned char) (0xf0 | cp >> 18);
    o[1] = (unsigned char) (0x80 | (cp >> 12 & 0x3f));
    o[2] = (unsigned char) (0x80 | (cp >> 6 & 0x3f));
    o[3] = (unsigned char) (0x80 | (cp & 0x3f));
    return 4;
}


int
fuzz_box_within(int x, int y, int w, int h, int max_side)
{
    return x >= 0 && y >= 0 && w > 0 && h > 0
           && (int64_t) x + w <= max_side && (int64_t) y + h <= max_side;
}


unsigned
fuzz_byte(fuzz_in_t *in)
{
    if (in->n == 0) {
        return 0;
    }

    in->n--;
    return *in->p++;
}
