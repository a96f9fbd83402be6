/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Fuzz target: the parsers of lib/vo_webhook.c.  The first byte of the
 * input chooses the parser (modulo 7), the rest is its text:
 *
 *   0  vo_webhook_secret_parse: an accepted secret holds 24..64 bytes,
 *      and encoding those bytes again gives the input back (the base64
 *      is canonical); the signature with that key is "v1," + 44 base64
 *      characters;
 *   1  vo_cidr_parse_list: every block has family 4 or 6 and a prefix
 *      within its width, no bit set past it, and matches its own
 *      address; printed (inet_ntop "/" prefix) and parsed again it is
 *      the same block;
 *   2  vo_retry_schedule_parse: 1..VO_RETRY_MAX delays, each 0..7 days;
 *      the input without its blanks rejoined with "ms" units parses to
 *      the same delays;
 *   3  vo_retry_after_parse: a delay is 0..VO_RETRY_AFTER_MAX_MS; an
 *      all-digit value is its seconds (capped);
 *   4  vo_http_header: a value found lies inside the line, starts and
 *      ends with no blank, and the line starts with the name and ':';
 *   5  vo_webhook_url_check: an accepted URL is http(s)://, visible
 *      ASCII, no '@' before the path, no '#', at most the maximum;
 *   6  vo_addr_class on 4 and 16 raw bytes: an IPv4 address mapped
 *      into IPv6 (::ffff:a.b.c.d) has the class of the IPv4 address.
 *
 * Every refusal leaves a non-empty NUL-terminated message that fits.
 * Each input is copied to an exactly sized buffer: ASan sees every read
 * past it.
 */

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fuzz_check.h"
#include "vo_webhook.h"


static void fuzz_secret(const char *s, size_t n);
static void fuzz_cidr(const char *s, size_t n);
static void fuzz_schedule(const char *s, size_t n);
static void fuzz_retry_after(const char *s, size_t n);
static void fuzz_header(const char *s, size_t n);
static void fuzz_url(const char *s, size_t n);
static void fuzz_class(const unsigned char *s, size_t n);
static void fuzz_err(const char *err, size_t size);


int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char  *s;

    if (size == 0) {
        return 0;
    }

    s = malloc(size - 1 ? size - 1 : 1);
    if (s == NULL) {
        return 0;
    }

    memcpy(s, data + 1, size - 1);

    switch (data[0] % 7) {
    case 0: fuzz_secret(s, size - 1); break;
    case 1: fuzz_cidr(s, size - 1); break;
    case 2: fuzz_schedule(s, size - 1); break;
    case 3: fuzz_retry_after(s, size - 1); break;
    case 4: fuzz_header(s, size - 1); break;
    case 5: fuzz_url(s, size - 1); break;
    default: fuzz_class((unsigned char *) s, size - 1); break;
    }

    free(s);

    return 0;
}


static void
fuzz_err(const char *err, size_t size)
{
    FUZZ_CHECK(memchr(err, '\0', size) != NULL);
    FUZZ_CHECK(err[0] != '\0');
}


static void
fuzz_secret(const char *s, size_t n)
{
    int            len;
    char           err[256], again[VO_WEBHOOK_SECRET_BUF + 8];
    char           sig[VO_WEBHOOK_SIG_BUF];
    size_t         klen, k2;
    unsigned char  key[VO_WEBHOOK_KEY_MAX], key2[VO_WEBHOOK_KEY_MAX];

    static const char  b64[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

    memset(err, 'x', sizeof(err));

    if (vo_webhook_secret_parse(s, n, key, &klen, err, sizeof(err)) != 0) {
        fuzz_err(err, sizeof(err));
        return;
    }

    FUZZ_CHECK(klen >= VO_WEBHOOK_KEY_MIN && klen <= VO_WEBHOOK_KEY_MAX);
    FUZZ_CHECK(n <= VO_WEBHOOK_SECRET_MAX);

    /* encoded again by a second, plain encoder: the same text */
    {
        size_t    i, o;
        uint32_t  v;

        memcpy(again, "whsec_", 6);
        o = 6;

        for (i = 0; i < klen; i += 3) {
            v = (uint32_t) key[i] << 16;
            v |= i + 1 < klen ? (uint32_t) key[i + 1] << 8 : 0;
            v |= i + 2 < klen ? key[i + 2] : 0;
            again[o++] = b64[v >> 18];
            again[o++] = b64[(v >> 12) & 63];
            again[o++] = i + 1 < klen ? b64[(v >> 6) & 63] : '=';
            again[o++] = i + 2 < klen ? b64[v & 63] : '=';
        }

        FUZZ_CHECK(o == n && memcmp(again, s, n) == 0);
    }

    FUZZ_CHECK(vo_webhook_secret_parse(again, n, key2, &k2, err,
                                       sizeof(err)) == 0);
    FUZZ_CHECK(k2 == klen && memcmp(key, key2, klen) == 0);

    len = vo_webhook_sign(key, klen, "msg_x", 1674087231, s, n, sig);
    FUZZ_CHECK(len == 47 && strlen(sig) == 47);
    FUZZ_CHECK(memcmp(sig, "v1,", 3) == 0 && sig[46] == '=');
}


static void
fuzz_cidr(const char *s, size_t n)
{
    char       err[256], text[80], buf[INET6_ADDRSTRLEN];
    size_t     i, count, k;
    vo_cidr_t  c[VO_CIDR_MAX], d[1];
    int        b;

    memset(err, 'x', sizeof(err));
    count = 0;

    if (vo_cidr_parse_list(s, n, c, VO_CIDR_MAX, &count, err, sizeof(err))
        != 0)
    {
        fuzz_err(err, sizeof(err));
        return;
    }

    FUZZ_CHECK(count >= 1 && count <= VO_CIDR_MAX);

    for (i = 0; i < count; i++) {
        FUZZ_CHECK(c[i].family == 4 || c[i].family == 6);
        FUZZ_CHECK(c[i].prefix >= 0
                   && c[i].prefix <= (c[i].family == 4 ? 32 : 128));

        for (b = c[i].prefix; b < (c[i].family == 4 ? 32 : 128); b++) {
            FUZZ_CHECK(!(c[i].addr[b / 8] & (0x80 >> (b % 8))));
        }

        FUZZ_CHECK(vo_cidr_match(&c[i], c[i].family, c[i].addr));
        FUZZ_CHECK(!vo_cidr_match(&c[i], c[i].family == 4 ? 6 : 4,
                                  c[i].addr));

        FUZZ_CHECK(inet_ntop(c[i].family == 4 ? AF_INET : AF_INET6,
                             c[i].addr, buf, sizeof(buf)) != NULL);
        snprintf(text, sizeof(text), "%s/%d", buf, c[i].prefix);

        k = 0;
        FUZZ_CHECK(vo_cidr_parse_list(text, strlen(text), d, 1, &k, err,
                                      sizeof(err)) == 0);
        FUZZ_CHECK(k == 1 && d[0].family == c[i].family
                   && d[0].prefix == c[i].prefix
                   && memcmp(d[0].addr, c[i].addr, 16) == 0);
    }
}


static void
fuzz_schedule(const char *s, size_t n)
{
    char     err[256], *text;
    size_t   i, count, k, o;
    int64_t  ms[VO_RETRY_MAX], ms2[VO_RETRY_MAX];

    memset(err, 'x', sizeof(err));

    if (vo_retry_schedule_parse(s, n, ms, VO_RETRY_MAX, &count, err,
                                sizeof(err)) != 0)
    {
        fuzz_err(err, sizeof(err));
        return;
    }

    FUZZ_CHECK(count >= 1 && count <= VO_RETRY_MAX);

    text = malloc(count * 24 + 1);
    if (text == NULL) {
        return;
    }

    for (i = 0, o = 0; i < count; i++) {
        FUZZ_CHECK(ms[i] >= 0 && ms[i] <= VO_RETRY_STEP_MAX_MS);
        o += (size_t) sprintf(text + o, "%s%lldms", i ? "," : "",
                              (long long) ms[i]);
    }

    FUZZ_CHECK(vo_retry_schedule_parse(text, o, ms2, VO_RETRY_MAX, &k, err,
                                       sizeof(err)) == 0);
    FUZZ_CHECK(k == count && memcmp(ms, ms2, count * sizeof(int64_t)) == 0);

    free(text);
}


static void
fuzz_retry_after(const char *s, size_t n)
{
    size_t   i;
    int64_t  delay, secs;

    if (vo_retry_after_parse(s, n, 1700000000000LL, &delay) != 0) {
        return;
    }

    FUZZ_CHECK(delay >= 0 && delay <= VO_RETRY_AFTER_MAX_MS);

    for (i = 0, secs = 0; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
        if (secs < VO_RETRY_AFTER_MAX_MS) {
            secs = secs * 10 + (s[i] - '0');
        }
    }

    if (n > 0 && i == n) {
        secs *= 1000;
        FUZZ_CHECK(delay == (secs > VO_RETRY_AFTER_MAX_MS
                             ? VO_RETRY_AFTER_MAX_MS : secs));
    }
}


static void
fuzz_header(const char *s, size_t n)
{
    size_t       vlen;
    const char  *v;

    if (!vo_http_header(s, n, "retry-after", &v, &vlen)) {
        return;
    }

    FUZZ_CHECK(n >= 12 && strncasecmp(s, "retry-after:", 12) == 0);
    FUZZ_CHECK(v >= s + 12 && v + vlen <= s + n);

    if (vlen > 0) {
        FUZZ_CHECK(v[0] != ' ' && v[0] != '\t');
        FUZZ_CHECK(v[vlen - 1] != ' ' && v[vlen - 1] != '\t'
                   && v[vlen - 1] != '\r' && v[vlen - 1] != '\n');
    }
}


static void
fuzz_url(const char *s, size_t n)
{
    char         err[256];
    size_t       i;
    const char  *auth;

    memset(err, 'x', sizeof(err));

    if (vo_webhook_url_check(s, n, err, sizeof(err)) != 0) {
        fuzz_err(err, sizeof(err));
        return;
    }

    FUZZ_CHECK(n <= VO_WEBHOOK_URL_MAX);
    FUZZ_CHECK((n > 7 && strncasecmp(s, "http://", 7) == 0)
               || (n > 8 && strncasecmp(s, "https://", 8) == 0));

    auth = s + (s[4] == ':' ? 7 : 8);

    for (i = 0; i < n; i++) {
        FUZZ_CHECK((unsigned char) s[i] > 0x20
                   && (unsigned char) s[i] < 0x7f && s[i] != '#');
    }

    for (i = (size_t) (auth - s); i < n && s[i] != '/' && s[i] != '?'; i++) {
        FUZZ_CHECK(s[i] != '@');
    }
}


static void
fuzz_class(const unsigned char *s, size_t n)
{
    const char     *c4, *c6;
    unsigned char   a4[4], a6[16];

    if (n < 4) {
        return;
    }

    memcpy(a4, s, 4);
    memset(a6, 0, 16);
    a6[10] = 0xff;
    a6[11] = 0xff;
    memcpy(a6 + 12, a4, 4);

    c4 = vo_addr_class(4, a4);
    c6 = vo_addr_class(6, a6);

    FUZZ_CHECK((c4 == NULL) == (c6 == NULL));
    FUZZ_CHECK(c4 == NULL || strcmp(c4, c6) == 0);

    if (n >= 16) {
        (void) vo_addr_class(6, s);
    }
}
