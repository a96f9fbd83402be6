/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Reading a published result (lib/vo_result.h).
 */

#include <stdio.h>
#include <string.h>

#include "vo_fold.h"
#include "vo_result.h"


/* nesting deeper than a result has is refused, not followed */
#define VO_SCAN_DEPTH  64


typedef struct {
    const char  *p;
    const char  *last;
} vo_scan_t;


/* called for each member of an object: name (quotes included), value */
typedef int (*vo_member_pt)(void *data, const char *name, size_t name_len,
    const char *val, size_t val_len);


static int vo_scan_object(vo_scan_t *s, vo_member_pt cb, void *data);
static int vo_scan_value(vo_scan_t *s, const char **val, size_t *len);
static int vo_scan_string(vo_scan_t *s);
static void vo_scan_space(vo_scan_t *s);
static int vo_name_is(const char *name, size_t len, const char *want);
static int vo_result_top(void *data, const char *name, size_t name_len,
    const char *val, size_t val_len);
static int vo_result_text(void *data, const char *name, size_t name_len,
    const char *val, size_t val_len);
static void vo_result_utf8(vo_buf_t *out, unsigned long cp);
static int vo_result_hex4(const char *p, unsigned long *v);


typedef struct {
    const char  *name;
    const char  *val;
    size_t       val_len;
} vo_find_t;


typedef struct {
    const char  *val;
    size_t       val_len;
    int          found;
} vo_text_t;


int
vo_result_member(const char *doc, size_t len, const char *name,
    const char **val, size_t *val_len)
{
    vo_scan_t  s;
    vo_find_t  f;

    s.p = doc;
    s.last = doc + len;

    f.name = name;
    f.val = NULL;
    f.val_len = 0;

    if (vo_scan_object(&s, vo_result_top, &f) < 0) {
        return -1;
    }

    if (f.val == NULL) {
        return 1;
    }

    *val = f.val;
    *val_len = f.val_len;

    return 0;
}


int
vo_result_segments(const char *doc, size_t len, vo_result_segment_pt cb,
    void *data, char *err, size_t err_size)
{
    int          rc;
    size_t       index, n;
    const char  *v, *obj;
    vo_buf_t     text;
    vo_scan_t    s, o;
    vo_text_t    t;

    rc = vo_result_member(doc, len, "segments", &v, &n);

    if (rc == 1 || (rc == 0 && n == 4 && memcmp(v, "null", 4) == 0)) {
        return 0;
    }

    if (rc != 0 || v[0] != '[') {
        snprintf(err, err_size, "the result is not an object with a "
                 "\"segments\" array");
        return -1;
    }

    vo_buf_init(&text);

    s.p = v + 1;
    s.last = v + n;
    rc = 0;

    for (index = 0; ; index++) {
        vo_scan_space(&s);

        if (s.p < s.last && *s.p == ']' && index == 0) {
            break;
        }

        o = s;

        if (s.p >= s.last || *s.p != '{'
            || vo_scan_value(&s, &obj, &n) != 0)
        {
            snprintf(err, err_size, "segment %zu of the result is not an "
                     "object", index);
            rc = -1;
            break;
        }

        /* its text */

        t.found = 0;
        o.last = obj + n;

        if (vo_scan_object(&o, vo_result_text, &t) < 0) {
            snprintf(err, err_size, "segment %zu of the result is "
                     "malformed", index);
            rc = -1;
            break;
        }

        vo_buf_reset(&text);

        if (t.found && !(t.val_len == 4 && memcmp(t.val, "null", 4) == 0)
            && vo_result_string(t.val, t.val_len, &text) != 0)
        {
            snprintf(err, err_size, "the text of segment %zu of the result "
                     "is not a string", index);
            rc = -1;
            break;
        }

        vo_buf_addc(&text, '\0');

        if (!vo_buf_ok(&text)) {
            snprintf(err, err_size, "out of memory");
            rc = -1;
            break;
        }

        if (cb(data, index, obj, n, text.data, text.len - 1) != 0) {
            break;
        }

        vo_scan_space(&s);

        if (s.p < s.last && *s.p == ',') {
            s.p++;
            continue;
        }

        if (s.p < s.last && *s.p == ']') {
            break;
        }

        snprintf(err, err_size, "the segments of the result are malformed "
                 "after segment %zu", index);
        rc = -1;
        break;
    }

    vo_buf_free(&text);

    return rc;
}


static int
vo_result_top(void *data, const char *name, size_t name_len,
    const char *val, size_t val_len)
{
    vo_find_t  *f = data;

    if (f->val == NULL && vo_name_is(name, name_len, f->name)) {
        f->val = val;
        f->val_len = val_len;
        return 1;
    }

    return 0;
}


static int
vo_result_text(void *data, const char *name, size_t name_len,
    const char *val, size_t val_len)
{
    vo_text_t  *t = data;

    if (!t->found && vo_name_is(name, name_len, "text")) {
        t->val = val;
        t->val_len = val_len;
        t->found = 1;
        return 1;
    }

    return 0;
}


/* Whether the name literal (quotes included, no escapes) is want. */

static int
vo_name_is(const char *name, size_t len, const char *want)
{
    size_t  n;

    n = strlen(want);

    return len == n + 2 && memcmp(name + 1, want, n) == 0;
}


/*
 * Walks the object at s->p, calling cb for each member until it returns
 * non-zero.  0 at the end of the object, 1 when cb stopped the walk, -1
 * when it is malformed.
 */

static int
vo_scan_object(vo_scan_t *s, vo_member_pt cb, void *data)
{
    size_t       name_len, val_len;
    const char  *name, *val;

    vo_scan_space(s);

    if (s->p >= s->last || *s->p != '{') {
        return -1;
    }

    s->p++;
    vo_scan_space(s);

    if (s->p < s->last && *s->p == '}') {
        s->p++;
        return 0;
    }

    for ( ;; ) {
        vo_scan_space(s);

        name = s->p;

        if (vo_scan_string(s) != 0) {
            return -1;
        }

        name_len = (size_t) (s->p - name);

        vo_scan_space(s);

        if (s->p >= s->last || *s->p != ':') {
            return -1;
        }

        s->p++;
        vo_scan_space(s);

        if (vo_scan_value(s, &val, &val_len) != 0) {
            return -1;
        }

        if (cb(data, name, name_len, val, val_len) != 0) {
            return 1;
        }

        vo_scan_space(s);

        if (s->p < s->last && *s->p == ',') {
            s->p++;
            continue;
        }

        if (s->p < s->last && *s->p == '}') {
            s->p++;
            return 0;
        }

        return -1;
    }
}


/*
 * Skips one value at s->p (its extent into *val, *len): a string, or
 * an object or array to its matching bracket (strings in it skipped as
 * such; nesting deeper than VO_SCAN_DEPTH refused),
 * or a scalar up to the next delimiter.
 */

static int
vo_scan_value(vo_scan_t *s, const char **val, size_t *len)
{
    char    c, open[VO_SCAN_DEPTH];
    size_t  depth;

    *val = s->p;

    if (s->p >= s->last) {
        return -1;
    }

    c = *s->p;

    if (c == '"') {
        if (vo_scan_string(s) != 0) {
            return -1;
        }

    } else if (c == '{' || c == '[') {
        depth = 0;

        while (s->p < s->last) {
            c = *s->p;

            if (c == '"') {
                if (vo_scan_string(s) != 0) {
                    return -1;
                }

                continue;
            }

            s->p++;

            if (c == '{' || c == '[') {
                if (depth == VO_SCAN_DEPTH) {
                    return -1;
                }

                open[depth++] = (c == '{') ? '}' : ']';

            } else if (c == '}' || c == ']') {
                if (open[--depth] != c) {
                    return -1;
                }

                if (depth == 0) {
                    break;
                }
            }
        }

        if (depth != 0) {
            return -1;
        }

    } else {
        while (s->p < s->last && strchr(",}] \t\r\n", *s->p) == NULL) {
            s->p++;
        }

        if (s->p == *val) {
            return -1;
        }
    }

    *len = (size_t) (s->p - *val);

    return 0;
}


static int
vo_scan_string(vo_scan_t *s)
{
    if (s->p >= s->last || *s->p != '"') {
        return -1;
    }

    for (s->p++; s->p < s->last; s->p++) {
        if (*s->p == '\\') {
            s->p++;
            continue;
        }

        if (*s->p == '"') {
            s->p++;
            return 0;
        }
    }

    return -1;
}


static void
vo_scan_space(vo_scan_t *s)
{
    while (s->p < s->last
           && (*s->p == ' ' || *s->p == '\t' || *s->p == '\r'
               || *s->p == '\n'))
    {
        s->p++;
    }
}


int
vo_result_string(const char *p, size_t n, vo_buf_t *out)
{
    size_t          i;
    unsigned long   cp, lo;

    if (n < 2 || p[0] != '"' || p[n - 1] != '"') {
        return -1;
    }

    for (i = 1; i < n - 1; i++) {

        if ((unsigned char) p[i] < 0x20) {
            return -1;
        }

        if (p[i] != '\\') {
            vo_buf_addc(out, p[i]);
            continue;
        }

        if (++i >= n - 1) {
            return -1;
        }

        switch (p[i]) {
        case '"':  vo_buf_addc(out, '"');  break;
        case '\\': vo_buf_addc(out, '\\'); break;
        case '/':  vo_buf_addc(out, '/');  break;
        case 'b':  vo_buf_addc(out, '\b'); break;
        case 'f':  vo_buf_addc(out, '\f'); break;
        case 'n':  vo_buf_addc(out, '\n'); break;
        case 'r':  vo_buf_addc(out, '\r'); break;
        case 't':  vo_buf_addc(out, '\t'); break;

        case 'u':
            if (i + 4 >= n - 1 || vo_result_hex4(p + i + 1, &cp) != 0) {
                return -1;
            }

            i += 4;

            if (cp >= 0xd800 && cp <= 0xdbff && i + 6 < n - 1
                && p[i + 1] == '\\' && p[i + 2] == 'u'
                && vo_result_hex4(p + i + 3, &lo) == 0
                && lo >= 0xdc00 && lo <= 0xdfff)
            {
                cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                i += 6;

            } else if (cp >= 0xd800 && cp <= 0xdfff) {
                cp = 0xfffd;
            }

            vo_result_utf8(out, cp);
            break;

        default:
            return -1;
        }
    }

    return 0;
}


static int
vo_result_hex4(const char *p, unsigned long *v)
{
    int  i, d;

    *v = 0;

    for (i = 0; i < 4; i++) {
        d = (p[i] >= '0' && p[i] <= '9') ? p[i] - '0'
            : (p[i] >= 'a' && p[i] <= 'f') ? p[i] - 'a' + 10
            : (p[i] >= 'A' && p[i] <= 'F') ? p[i] - 'A' + 10 : -1;

        if (d < 0) {
            return -1;
        }

        *v = *v * 16 + (unsigned long) d;
    }

    return 0;
}


static void
vo_result_utf8(vo_buf_t *out, unsigned long cp)
{
    char  u[4];

    vo_buf_add(out, u, vo_utf8_put(u, (uint32_t) cp));
}
