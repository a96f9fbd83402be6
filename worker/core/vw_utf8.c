/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The worker's UTF-8 decoder (see vw_utf8.h).
 */

#include "vw_utf8.h"


int32_t
vw_utf8_next(const unsigned char *p, size_t n, size_t *len)
{
    size_t   need, i;
    int32_t  cp, min;

    *len = 1;

    if (n == 0) {
        return -1;
    }

    if (p[0] < 0x80) {
        return p[0];
    }

    if (p[0] >= 0xc2 && p[0] <= 0xdf) {
        need = 1;
        cp = p[0] & 0x1f;
        min = 0x80;

    } else if (p[0] >= 0xe0 && p[0] <= 0xef) {
        need = 2;
        cp = p[0] & 0x0f;
        min = 0x800;

    } else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
        need = 3;
        cp = p[0] & 0x07;
        min = 0x10000;

    } else {
        /* a continuation byte, 0xc0/0xc1 (overlong), 0xf5+ (too large) */
        return -1;
    }

    if (n < need + 1) {
        return -1;
    }

    for (i = 1; i <= need; i++) {
        if ((p[i] & 0xc0) != 0x80) {
            return -1;
        }

        cp = (cp << 6) | (p[i] & 0x3f);
    }

    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
        return -1;
    }

    *len = need + 1;

    return cp;
}


int32_t
vw_utf8_last(const unsigned char *p, size_t n)
{
    size_t   s, len;
    int32_t  cp;

    if (n == 0) {
        return -1;
    }

    /* back over at most three continuation bytes to the lead byte */

    s = n - 1;

    while (s > 0 && n - s < 4 && (p[s] & 0xc0) == 0x80) {
        s--;
    }

    cp = vw_utf8_next(p + s, n - s, &len);

    return cp >= 0 && len == n - s ? cp : -1;
}


size_t
vw_utf8_decode(const unsigned char *p, size_t n, uint32_t *cp)
{
    size_t   len;
    int32_t  c;

    if (n == 0) {
        *cp = 0xfffd;
        return 0;
    }

    c = vw_utf8_next(p, n, &len);
    *cp = c >= 0 ? (uint32_t) c : 0xfffd;

    return len;
}
