/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The OCR options and their canonical form.  The canonical form is what
 * the input digest covers, so two requests that mean the same thing must
 * produce the same bytes ("?fps=1" and no fps at all; "fps=1.50" and
 * "fps=1.5") and two that differ must not.  It is also what the ledger
 * keeps in jobs.options and what the worker reads back.
 */

#include <stdio.h>
#include <string.h>

#include "vo_edge.h"


#define VO_LANG_PARTS_MAX  8
#define VO_LANG_PART_MAX   31


static int vo_options_set_lang(vo_options_t *o, const char *v, size_t len,
    char *err, size_t err_size);
static int vo_options_set_fps(vo_options_t *o, const char *v, size_t len,
    char *err, size_t err_size);
static int vo_options_set_crop(vo_options_t *o, const char *v, size_t len,
    char *err, size_t err_size);
static int vo_options_set_refine(vo_options_t *o, const char *v, size_t len,
    char *err, size_t err_size);
static int vo_parse_uint(const char **pp, const char *last, uint32_t max,
    uint32_t *out);
static size_t vo_format_fps(uint32_t milli, char *buf);
static int vo_hex(unsigned char c);


void
vo_options_init(vo_options_t *o)
{
    memset(o, 0, sizeof(vo_options_t));
    memcpy(o->lang, "eng", sizeof("eng"));
    o->fps_milli = VO_FPS_DEFAULT_MILLI;
    o->refine = 1;
}


int
vo_options_set(vo_options_t *o, const char *name, size_t name_len,
    const char *value, size_t value_len, char *err, size_t err_size)
{
    if (name_len == 4 && memcmp(name, "lang", 4) == 0) {
        return vo_options_set_lang(o, value, value_len, err, err_size);
    }

    if (name_len == 3 && memcmp(name, "fps", 3) == 0) {
        return vo_options_set_fps(o, value, value_len, err, err_size);
    }

    if (name_len == 4 && memcmp(name, "crop", 4) == 0) {
        return vo_options_set_crop(o, value, value_len, err, err_size);
    }

    if (name_len == 6 && memcmp(name, "refine", 6) == 0) {
        return vo_options_set_refine(o, value, value_len, err, err_size);
    }

    snprintf(err, err_size, "unknown option \"%.*s\"; the options are "
             "lang, fps, crop and refine",
             (int) (name_len > 32 ? 32 : name_len),
             name);
    return -1;
}


int
vo_options_parse_query(vo_options_t *o, const char *args, size_t len,
    char *err, size_t err_size)
{
    int          seen_lang, seen_fps, seen_crop, seen_refine, *seen;
    char         name[16], value[128];
    size_t       nn, vn;
    const char  *p, *last, *end, *eq;

    seen_lang = 0;
    seen_fps = 0;
    seen_crop = 0;
    seen_refine = 0;

    if (len == 0) {
        /* no query string: nginx leaves r->args.data NULL */
        return 0;
    }

    p = args;
    last = args + len;

    while (p < last) {

        end = memchr(p, '&', last - p);
        if (end == NULL) {
            end = last;
        }

        if (end == p) {
            /* "a=1&&b=2" or a trailing '&': nothing between the '&'s */
            p = end + 1;
            continue;
        }

        eq = memchr(p, '=', end - p);
        if (eq == NULL) {
            snprintf(err, err_size, "option \"%.*s\" has no value",
                     (int) (end - p > 32 ? 32 : end - p), p);
            return -1;
        }

        /* decode the name, then the value, into bounded buffers */

        nn = 0;
        vn = 0;

        {
            const char  *s, *stop;
            char        *d;
            size_t      *n, size;
            int          pass, h1, h2;

            for (pass = 0; pass < 2; pass++) {
                s = pass ? eq + 1 : p;
                stop = pass ? end : eq;
                d = pass ? value : name;
                n = pass ? &vn : &nn;
                size = pass ? sizeof(value) : sizeof(name);

                while (s < stop) {
                    if (*n == size - 1) {
                        snprintf(err, err_size, "option %s is too long",
                                 pass ? "value" : "name");
                        return -1;
                    }

                    if (*s == '%') {
                        if (stop - s < 3
                            || (h1 = vo_hex((unsigned char) s[1])) < 0
                            || (h2 = vo_hex((unsigned char) s[2])) < 0)
                        {
                            snprintf(err, err_size, "malformed %%-escape in "
                                     "the query string");
                            return -1;
                        }

                        d[(*n)++] = (char) (h1 * 16 + h2);
                        s += 3;
                        continue;
                    }

                    d[(*n)++] = *s++;
                }

                d[*n] = '\0';
            }
        }

        if (nn == 4 && memcmp(name, "lang", 4) == 0) {
            seen = &seen_lang;

        } else if (nn == 3 && memcmp(name, "fps", 3) == 0) {
            seen = &seen_fps;

        } else if (nn == 4 && memcmp(name, "crop", 4) == 0) {
            seen = &seen_crop;

        } else if (nn == 6 && memcmp(name, "refine", 6) == 0) {
            seen = &seen_refine;

        } else {
            seen = NULL;
        }

        if (seen != NULL && (*seen)++) {
            snprintf(err, err_size, "option \"%s\" is given more than once",
                     name);
            return -1;
        }

        if (vo_options_set(o, name, nn, value, vn, err, err_size) != 0) {
            return -1;
        }

        p = end + 1;
    }

    return 0;
}


size_t
vo_options_canonical(const vo_options_t *o, char *buf, size_t size)
{
    int          n;
    char         fps[16];
    const char  *refine;

    (void) vo_format_fps(o->fps_milli, fps);

    /* the default is not written: see vo_edge.h */
    refine = o->refine ? "" : ",\"refine\":false";

    if (o->has_crop) {
        n = snprintf(buf, size,
                     "{\"crop\":[%u,%u,%u,%u],\"fps\":%s,\"lang\":\"%s\"%s}",
                     (unsigned) o->crop_x, (unsigned) o->crop_y,
                     (unsigned) o->crop_w, (unsigned) o->crop_h,
                     fps, o->lang, refine);

    } else {
        n = snprintf(buf, size,
                     "{\"crop\":null,\"fps\":%s,\"lang\":\"%s\"%s}",
                     fps, o->lang, refine);
    }

    if (n < 0 || (size_t) n >= size) {
        return 0;
    }

    return (size_t) n;
}


int
vo_options_from_canonical(vo_options_t *o, const char *json, size_t len,
    char *err, size_t err_size)
{
    char          again[VO_OPTIONS_JSON_MAX];
    size_t        n;
    const char   *p, *last, *q;
    vo_options_t  tmp;

    /*
     * The canonical form has one spelling, so the reader is strict: take
     * the fields apart, set them through the same validators, and accept
     * the input only if writing the result back gives the same bytes.
     */

    vo_options_init(&tmp);

    p = json;
    last = json + len;

#define VO_EXPECT(lit)                                                        \
    if ((size_t) (last - p) < sizeof(lit) - 1                                 \
        || memcmp(p, lit, sizeof(lit) - 1) != 0)                              \
    {                                                                         \
        goto bad;                                                             \
    }                                                                         \
    p += sizeof(lit) - 1

    VO_EXPECT("{\"crop\":");

    if (p < last && *p == 'n') {
        VO_EXPECT("null");

    } else {
        VO_EXPECT("[");
        q = memchr(p, ']', last - p);
        if (q == NULL) {
            goto bad;
        }

        if (vo_options_set_crop(&tmp, p, q - p, err, err_size) != 0) {
            goto bad;
        }

        p = q;
        VO_EXPECT("]");
    }

    VO_EXPECT(",\"fps\":");
    q = memchr(p, ',', last - p);
    if (q == NULL || vo_options_set_fps(&tmp, p, q - p, err, err_size) != 0) {
        goto bad;
    }

    p = q;
    VO_EXPECT(",\"lang\":\"");
    q = memchr(p, '"', last - p);
    if (q == NULL
        || vo_options_set_lang(&tmp, p, q - p, err, err_size) != 0)
    {
        goto bad;
    }

    p = q + 1;

    if (last - p > 1) {
        VO_EXPECT(",\"refine\":false");
        tmp.refine = 0;
    }

#undef VO_EXPECT

    n = vo_options_canonical(&tmp, again, sizeof(again));

    if (n != len || memcmp(again, json, len) != 0) {
        goto bad;
    }

    *o = tmp;
    return 0;

bad:

    snprintf(err, err_size, "options are not in canonical form");
    return -1;
}


static int
vo_options_set_lang(vo_options_t *o, const char *v, size_t len, char *err,
    size_t err_size)
{
    size_t         i, part, parts;
    unsigned char  ch;

    /* "eng", "eng+deu", "chi_sim": lowercase Tesseract model names; or
     * "auto" */

    if (len == 0 || len > VO_LANG_MAX) {
        goto bad;
    }

    part = 0;
    parts = 1;

    for (i = 0; i < len; i++) {
        ch = (unsigned char) v[i];

        if (ch == '+') {
            if (part == 0 || ++parts > VO_LANG_PARTS_MAX) {
                goto bad;
            }

            part = 0;
            continue;
        }

        if (part == 0 ? !(ch >= 'a' && ch <= 'z')
                      : !((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9')
                          || ch == '_'))
        {
            goto bad;
        }

        if (++part > VO_LANG_PART_MAX) {
            goto bad;
        }
    }

    if (part == 0) {
        goto bad;
    }

    /*
     * "auto": the script of each screen chooses the languages (the
     * worker's vw_ocr_auto.c); a value of its own, never a part
     */

    if (parts > 1) {
        for (i = 0; i + 4 <= len; i++) {
            if ((i == 0 || v[i - 1] == '+') && memcmp(v + i, "auto", 4) == 0
                && (i + 4 == len || v[i + 4] == '+'))
            {
                snprintf(err, err_size, "lang \"auto\" chooses the "
                         "languages itself: give it alone, not joined to "
                         "others by '+'");
                return -1;
            }
        }
    }

    memcpy(o->lang, v, len);
    o->lang[len] = '\0';

    return 0;

bad:

    snprintf(err, err_size, "lang must be Tesseract language names joined "
             "by '+', such as \"eng\" or \"eng+deu\" (at most %d, "
             "%d characters in all), or \"auto\"", VO_LANG_PARTS_MAX,
             VO_LANG_MAX);
    return -1;
}


static int
vo_options_set_fps(vo_options_t *o, const char *v, size_t len, char *err,
    size_t err_size)
{
    size_t    i, digits, decimals;
    uint64_t  milli;
    int       frac;

    /* a plain decimal: digits, at most one '.', at most 3 decimals */

    milli = 0;
    digits = 0;
    decimals = 0;
    frac = 0;

    for (i = 0; i < len; i++) {
        if (v[i] == '.') {
            if (frac || digits == 0) {
                goto bad;
            }

            frac = 1;
            continue;
        }

        if (v[i] < '0' || v[i] > '9') {
            goto bad;
        }

        if (frac) {
            if (++decimals > 3) {
                goto bad;
            }
        }

        if (++digits > 9) {
            goto bad;
        }

        milli = milli * 10 + (uint64_t) (v[i] - '0');
    }

    if (digits == 0 || (frac && decimals == 0)) {
        goto bad;
    }

    for ( /* void */ ; decimals < 3; decimals++) {
        milli *= 10;
    }

    if (milli < VO_FPS_MIN_MILLI || milli > VO_FPS_MAX_MILLI) {
        goto bad;
    }

    o->fps_milli = (uint32_t) milli;

    return 0;

bad:

    snprintf(err, err_size, "fps must be a decimal number of frames per "
             "second from 0.01 to 60 with at most 3 decimals, such as "
             "\"1\" or \"0.5\"");
    return -1;
}


static int
vo_options_set_crop(vo_options_t *o, const char *v, size_t len, char *err,
    size_t err_size)
{
    uint32_t     x, y, w, h;
    const char  *p, *last;

    /* x,y,w,h in pixels of the decoded frame; w and h at least 1 */

    p = v;
    last = v + len;

    if (vo_parse_uint(&p, last, VO_CROP_MAX, &x) != 0
        || p == last || *p++ != ','
        || vo_parse_uint(&p, last, VO_CROP_MAX, &y) != 0
        || p == last || *p++ != ','
        || vo_parse_uint(&p, last, VO_CROP_MAX, &w) != 0
        || p == last || *p++ != ','
        || vo_parse_uint(&p, last, VO_CROP_MAX, &h) != 0
        || p != last || w == 0 || h == 0)
    {
        snprintf(err, err_size, "crop must be x,y,w,h in pixels, such as "
                 "\"0,600,1280,120\" (each at most %d, w and h at least 1)",
                 VO_CROP_MAX);
        return -1;
    }

    o->has_crop = 1;
    o->crop_x = x;
    o->crop_y = y;
    o->crop_w = w;
    o->crop_h = h;

    return 0;
}


/* "0" or "1": whether cue times are found to the frame (vw_screen.c) */
static int
vo_options_set_refine(vo_options_t *o, const char *v, size_t len, char *err,
    size_t err_size)
{
    if (len != 1 || (v[0] != '0' && v[0] != '1')) {
        snprintf(err, err_size, "refine must be 0 or 1");
        return -1;
    }

    o->refine = v[0] == '1';

    return 0;
}


static int
vo_parse_uint(const char **pp, const char *last, uint32_t max, uint32_t *out)
{
    uint64_t     n;
    const char  *p;

    p = *pp;
    n = 0;

    if (p == last || *p < '0' || *p > '9') {
        return -1;
    }

    while (p < last && *p >= '0' && *p <= '9') {
        n = n * 10 + (uint64_t) (*p++ - '0');

        if (n > max) {
            return -1;
        }
    }

    *pp = p;
    *out = (uint32_t) n;

    return 0;
}


static size_t
vo_format_fps(uint32_t milli, char *buf)
{
    int       n;
    uint32_t  frac;

    frac = milli % 1000;

    if (frac == 0) {
        n = sprintf(buf, "%u", (unsigned) (milli / 1000));

    } else if (frac % 100 == 0) {
        n = sprintf(buf, "%u.%u", (unsigned) (milli / 1000),
                    (unsigned) (frac / 100));

    } else if (frac % 10 == 0) {
        n = sprintf(buf, "%u.%02u", (unsigned) (milli / 1000),
                    (unsigned) (frac / 10));

    } else {
        n = sprintf(buf, "%u.%03u", (unsigned) (milli / 1000),
                    (unsigned) frac);
    }

    return (size_t) n;
}


static int
vo_hex(unsigned char c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }

    c |= 0x20;

    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }

    return -1;
}
