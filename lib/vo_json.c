/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The byte buffer and JSON writers declared in vo_json.h.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vo_json.h"


static int vo_buf_reserve(vo_buf_t *b, size_t n);
static size_t vo_utf8_len(const unsigned char *p, size_t n);


void
vo_buf_init(vo_buf_t *b)
{
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
    b->failed = 0;
}


void
vo_buf_free(vo_buf_t *b)
{
    free(b->data);
    vo_buf_init(b);
}


void
vo_buf_reset(vo_buf_t *b)
{
    b->len = 0;
    b->failed = 0;

    if (b->data != NULL) {
        b->data[0] = '\0';
    }
}


int
vo_buf_ok(const vo_buf_t *b)
{
    return !b->failed;
}


char *
vo_buf_detach(vo_buf_t *b, size_t *len)
{
    char  *p;

    if (b->failed || vo_buf_reserve(b, 0) != 0) {
        vo_buf_free(b);
        return NULL;
    }

    b->data[b->len] = '\0';

    p = b->data;
    *len = b->len;
    vo_buf_init(b);

    return p;
}


void
vo_buf_add(vo_buf_t *b, const void *p, size_t n)
{
    if (vo_buf_reserve(b, n) != 0) {
        return;
    }

    memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = '\0';
}


void
vo_buf_adds(vo_buf_t *b, const char *s)
{
    vo_buf_add(b, s, strlen(s));
}


void
vo_buf_addc(vo_buf_t *b, char c)
{
    vo_buf_add(b, &c, 1);
}


void
vo_buf_printf(vo_buf_t *b, const char *fmt, ...)
{
    int      n;
    va_list  args;

    va_start(args, fmt);
    n = vsnprintf(NULL, 0, fmt, args);
    va_end(args);

    if (n < 0 || vo_buf_reserve(b, (size_t) n) != 0) {
        b->failed = 1;
        return;
    }

    va_start(args, fmt);
    (void) vsnprintf(b->data + b->len, (size_t) n + 1, fmt, args);
    va_end(args);

    b->len += (size_t) n;
}


void
vo_json_str(vo_buf_t *b, const char *s, size_t n)
{
    size_t                i, k;
    const unsigned char  *p;

    static const char  hex[] = "0123456789abcdef";

    p = (const unsigned char *) s;

    vo_buf_add(b, "\"", 1);

    for (i = 0; i < n; /* void */ ) {

        if (p[i] >= 0x80) {
            k = vo_utf8_len(p + i, n - i);

            if (k == 0) {
                vo_buf_add(b, "\xef\xbf\xbd", 3);
                i++;

            } else {
                vo_buf_add(b, s + i, k);
                i += k;
            }

            continue;
        }

        switch (p[i]) {
        case '"':  vo_buf_add(b, "\\\"", 2); break;
        case '\\': vo_buf_add(b, "\\\\", 2); break;
        case '\n': vo_buf_add(b, "\\n", 2); break;
        case '\r': vo_buf_add(b, "\\r", 2); break;
        case '\t': vo_buf_add(b, "\\t", 2); break;
        default:
            if (p[i] < 0x20 || p[i] == 0x7f) {
                char  esc[6] = { '\\', 'u', '0', '0',
                                 hex[p[i] >> 4], hex[p[i] & 0xf] };
                vo_buf_add(b, esc, 6);

            } else {
                vo_buf_add(b, s + i, 1);
            }
        }

        i++;
    }

    vo_buf_add(b, "\"", 1);
}


void
vo_json_strz(vo_buf_t *b, const char *s)
{
    if (s == NULL) {
        vo_buf_add(b, "null", 4);
        return;
    }

    vo_json_str(b, s, strlen(s));
}


void
vo_json_time(vo_buf_t *b, int64_t ms)
{
    time_t     t;
    struct tm  tm;

    if (ms < 0) {
        vo_buf_add(b, "null", 4);
        return;
    }

    t = (time_t) (ms / 1000);

    if (gmtime_r(&t, &tm) == NULL) {
        vo_buf_add(b, "null", 4);
        return;
    }

    vo_buf_printf(b, "\"%04d-%02d-%02dT%02d:%02d:%02d.%03dZ\"",
                  tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                  tm.tm_hour, tm.tm_min, tm.tm_sec, (int) (ms % 1000));
}


static int
vo_buf_reserve(vo_buf_t *b, size_t n)
{
    char    *p;
    size_t   cap;

    if (b->failed) {
        return -1;
    }

    /* room for n more bytes and the terminating NUL */

    if (b->len + n + 1 <= b->cap) {
        return 0;
    }

    cap = b->cap ? b->cap : 256;

    while (cap < b->len + n + 1) {
        if (cap > (size_t) -1 / 2) {
            b->failed = 1;
            return -1;
        }

        cap *= 2;
    }

    p = realloc(b->data, cap);
    if (p == NULL) {
        b->failed = 1;
        return -1;
    }

    b->data = p;
    b->cap = cap;

    return 0;
}


/* The length of one well-formed UTF-8 sequence at p, or 0. */

static size_t
vo_utf8_len(const unsigned char *p, size_t n)
{
    size_t    len, i;
    uint32_t  cp, min;

    if (p[0] >= 0xc2 && p[0] <= 0xdf) {
        len = 2; cp = p[0] & 0x1f; min = 0x80;

    } else if (p[0] >= 0xe0 && p[0] <= 0xef) {
        len = 3; cp = p[0] & 0x0f; min = 0x800;

    } else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
        len = 4; cp = p[0] & 0x07; min = 0x10000;

    } else {
        return 0;
    }

    if (n < len) {
        return 0;
    }

    for (i = 1; i < len; i++) {
        if ((p[i] & 0xc0) != 0x80) {
            return 0;
        }

        cp = cp << 6 | (p[i] & 0x3f);
    }

    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
        return 0;
    }

    return len;
}
