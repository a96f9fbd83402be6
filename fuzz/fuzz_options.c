/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Fuzz target: the options grammar and its canonical form (vo_options.c):
 * vo_options_parse_query, vo_options_canonical, vo_options_from_canonical.
 * The input is a raw query string, and also a candidate canonical form.
 * Invariants checked:
 *
 *   1. accepted options are in range: lang is 1..VO_LANG_MAX bytes of
 *      [a-z0-9_+], "auto" only alone (never a part joined by '+'), fps
 *      0.01..60, crop w and h at least 1, all at most VO_CROP_MAX,
 *      refine 0 or 1;
 *   2. the canonical form is non-empty, shorter than
 *      VO_OPTIONS_JSON_MAX, valid JSON;
 *   3. canonical -> from_canonical -> canonical gives the same bytes,
 *      and the same options;
 *   4. the order of the query's parts does not matter: the parts in
 *      reverse order are accepted or refused alike, with the same
 *      canonical form;
 *   5. the options written back as a query ("crop=..&fps=..&lang=..",
 *      "&refine=0" when it is off,
 *      values as the canonical form spells them) give the same
 *      canonical form;
 *   6. from_canonical accepts the raw input only if it is exactly the
 *      canonical form of what it read;
 *   7. every refusal writes a non-empty, NUL-terminated message.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"
#include "vo_edge.h"


static int fuzz_parse(const char *q, size_t n, vo_options_t *o, char *canon,
    size_t *canon_len);
static void fuzz_same(const vo_options_t *a, const vo_options_t *b);
static void fuzz_err_ok(const char *err, size_t size);


int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int           ok, ok2;
    char          canon[VO_OPTIONS_JSON_MAX], canon2[VO_OPTIONS_JSON_MAX];
    char          err[VO_ERR_MAX], fps[16], *rev, *q;
    size_t        i, n, n2, start, end, len, qlen;
    const char   *s;
    vo_options_t  o, o2;

    if (size > 4096) {
        return 0;
    }

    s = (const char *) data;

    /* 6: the input as a candidate canonical form */

    q = malloc(size ? size : 1);
    if (q == NULL) {
        return 0;
    }

    memcpy(q, data, size);
    memset(err, 'x', sizeof(err));
    vo_options_init(&o);

    if (vo_options_from_canonical(&o, q, size, err, sizeof(err)) == 0) {
        n = vo_options_canonical(&o, canon, sizeof(canon));
        FUZZ_CHECK(n == size && memcmp(canon, data, size) == 0);

    } else {
        fuzz_err_ok(err, sizeof(err));
    }

    free(q);

    /* 1-3: the input as a query string */

    ok = fuzz_parse(s, size, &o, canon, &n);

    /* 4: the same parts in reverse order */

    rev = malloc(size + 1);
    if (rev == NULL) {
        return 0;
    }

    len = 0;
    end = size;

    for ( ;; ) {
        /* the part that ends at end starts after the last '&' before */
        start = end;

        while (start > 0 && s[start - 1] != '&') {
            start--;
        }

        memcpy(rev + len, s + start, end - start);
        len += end - start;

        if (start == 0) {
            break;
        }

        rev[len++] = '&';
        end = start - 1;
    }

    FUZZ_CHECK(len == size);

    ok2 = fuzz_parse(rev, len, &o2, canon2, &n2);
    free(rev);

    FUZZ_CHECK(ok == ok2);

    if (!ok) {
        return 0;
    }

    FUZZ_CHECK(n == n2 && memcmp(canon, canon2, n) == 0);

    /* 5: the options as a query, in the canonical form's spelling */

    {
        const char  *f, *e;

        f = strstr(canon, "\"fps\":");
        FUZZ_CHECK(f != NULL);
        f += sizeof("\"fps\":") - 1;
        e = strchr(f, ',');
        FUZZ_CHECK(e != NULL && (size_t) (e - f) < sizeof(fps));
        memcpy(fps, f, e - f);
        fps[e - f] = '\0';
    }

    qlen = 256;
    q = malloc(qlen);
    if (q == NULL) {
        return 0;
    }

    if (o.has_crop) {
        i = (size_t) snprintf(q, qlen, "crop=%u%%2C%u,%u,%u&fps=%s&lang=%s",
                              (unsigned) o.crop_x, (unsigned) o.crop_y,
                              (unsigned) o.crop_w, (unsigned) o.crop_h,
                              fps, o.lang);

    } else {
        i = (size_t) snprintf(q, qlen, "fps=%s&lang=%s", fps, o.lang);
    }

    FUZZ_CHECK(i < qlen);

    if (!o.refine) {
        i += (size_t) snprintf(q + i, qlen - i, "&refine=0");
        FUZZ_CHECK(i < qlen);
    }

    FUZZ_CHECK(fuzz_parse(q, i, &o2, canon2, &n2));
    FUZZ_CHECK(n == n2 && memcmp(canon, canon2, n) == 0);
    fuzz_same(&o, &o2);

    free(q);

    return 0;
}


/* Parses a query; on success checks 1-3 and returns 1 with the
 * canonical form. */

static int
fuzz_parse(const char *q, size_t n, vo_options_t *o, char *canon,
    size_t *canon_len)
{
    char          err[VO_ERR_MAX], *copy, again[VO_OPTIONS_JSON_MAX];
    size_t        i, len, alen;
    vo_options_t  back;

    copy = malloc(n ? n : 1);
    if (copy == NULL) {
        abort();
    }

    memcpy(copy, q, n);
    memset(err, 'x', sizeof(err));
    vo_options_init(o);

    /* no query string at all: nginx passes r->args.data, NULL */

    if (vo_options_parse_query(o, n ? copy : NULL, n, err, sizeof(err))
        != 0)
    {
        fuzz_err_ok(err, sizeof(err));
        free(copy);
        return 0;
    }

    free(copy);

    /* 1 */

    len = strlen(o->lang);
    FUZZ_CHECK(len >= 1 && len <= VO_LANG_MAX);

    for (i = 0; i < len; i++) {
        FUZZ_CHECK((o->lang[i] >= 'a' && o->lang[i] <= 'z')
                   || (o->lang[i] >= '0' && o->lang[i] <= '9')
                   || o->lang[i] == '_' || o->lang[i] == '+');
    }

    for (i = 0; i + 4 <= len; i++) {
        FUZZ_CHECK(len == 4
                   || !((i == 0 || o->lang[i - 1] == '+')
                        && memcmp(o->lang + i, "auto", 4) == 0
                        && (i + 4 == len || o->lang[i + 4] == '+')));
    }

    FUZZ_CHECK(o->refine == 0 || o->refine == 1);
    FUZZ_CHECK(o->fps_milli >= VO_FPS_MIN_MILLI
               && o->fps_milli <= VO_FPS_MAX_MILLI);

    if (o->has_crop) {
        FUZZ_CHECK(o->crop_w >= 1 && o->crop_h >= 1);
        FUZZ_CHECK(o->crop_x <= VO_CROP_MAX && o->crop_y <= VO_CROP_MAX
                   && o->crop_w <= VO_CROP_MAX && o->crop_h <= VO_CROP_MAX);
    }

    /* 2 */

    *canon_len = vo_options_canonical(o, canon, VO_OPTIONS_JSON_MAX);
    FUZZ_CHECK(*canon_len > 0 && *canon_len < VO_OPTIONS_JSON_MAX);
    FUZZ_CHECK(strlen(canon) == *canon_len);
    FUZZ_CHECK(fuzz_json_valid(canon, *canon_len));

    /* 3 */

    copy = malloc(*canon_len);
    if (copy == NULL) {
        abort();
    }

    memcpy(copy, canon, *canon_len);
    vo_options_init(&back);

    FUZZ_CHECK(vo_options_from_canonical(&back, copy, *canon_len, err,
                                         sizeof(err)) == 0);
    free(copy);

    fuzz_same(o, &back);

    alen = vo_options_canonical(&back, again, sizeof(again));
    FUZZ_CHECK(alen == *canon_len && memcmp(again, canon, alen) == 0);

    return 1;
}


static void
fuzz_same(const vo_options_t *a, const vo_options_t *b)
{
    FUZZ_CHECK(strcmp(a->lang, b->lang) == 0);
    FUZZ_CHECK(a->fps_milli == b->fps_milli);
    FUZZ_CHECK(a->has_crop == b->has_crop);
    FUZZ_CHECK(a->refine == b->refine);

    if (a->has_crop) {
        FUZZ_CHECK(a->crop_x == b->crop_x && a->crop_y == b->crop_y
                   && a->crop_w == b->crop_w && a->crop_h == b->crop_h);
    }
}


static void
fuzz_err_ok(const char *err, size_t size)
{
    FUZZ_CHECK(memchr(err, '\0', size) != NULL);
    FUZZ_CHECK(err[0] != '\0');
}
