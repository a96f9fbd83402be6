/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Standard Webhooks: secrets, URLs, signatures, webhook-ids, and the
 * parsers of the operator's lists and the receiver's headers (see
 * vo_webhook.h).  Every parser takes a pointer and a length, reads no
 * byte past them and needs no NUL.
 */

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <openssl/evp.h>
#include <openssl/rand.h>

#include "vo_webhook.h"


#define VO_WHSEC  "whsec_"


static size_t vo_b64_encode(const unsigned char *in, size_t n, char *out);
static int vo_b64_decode(const char *in, size_t n, unsigned char *out,
    size_t max, size_t *len);
static int vo_b64_value(int c);
static int vo_addr_parse(const char *s, size_t len, int *family,
    unsigned char *addr);
static const char *vo_addr4_class(const unsigned char *a);
static int vo_prefix4(const unsigned char *a, uint32_t net, int bits);
static int vo_duration_parse(const char *s, size_t len, int64_t *ms);
static int vo_http_date(const char *s, size_t len, int64_t *ms);
static int64_t vo_days_from_civil(int64_t y, unsigned m, unsigned d);


static const char  vo_b64[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";


int
vo_webhook_secret_parse(const char *s, size_t len, unsigned char *key,
    size_t *key_len, char *err, size_t err_size)
{
    size_t  n;

    if (len < sizeof(VO_WHSEC) - 1
        || memcmp(s, VO_WHSEC, sizeof(VO_WHSEC) - 1) != 0)
    {
        snprintf(err, err_size, "a webhook secret starts with \"whsec_\" "
                 "followed by the key in base64 (video-ocr-worker webhooks "
                 "add makes one)");
        return -1;
    }

    s += sizeof(VO_WHSEC) - 1;
    len -= sizeof(VO_WHSEC) - 1;

    if (vo_b64_decode(s, len, key, VO_WEBHOOK_KEY_MAX, &n) != 0) {
        if (len > 4 * ((VO_WEBHOOK_KEY_MAX + 2) / 3)) {
            snprintf(err, err_size, "a webhook secret holds at most %d "
                     "bytes", VO_WEBHOOK_KEY_MAX);

        } else {
            snprintf(err, err_size, "the webhook secret after \"whsec_\" is "
                     "not base64 (A-Z, a-z, 0-9, + and /, padded with =)");
        }

        return -1;
    }

    if (n < VO_WEBHOOK_KEY_MIN) {
        snprintf(err, err_size, "the webhook secret holds %zu bytes: it "
                 "must hold %d to %d random bytes", n, VO_WEBHOOK_KEY_MIN,
                 VO_WEBHOOK_KEY_MAX);
        return -1;
    }

    *key_len = n;

    return 0;
}


int
vo_webhook_secret_new(char *out)
{
    size_t         n;
    unsigned char  key[32];

    if (RAND_bytes(key, sizeof(key)) != 1) {
        return -1;
    }

    memcpy(out, VO_WHSEC, sizeof(VO_WHSEC) - 1);
    n = vo_b64_encode(key, sizeof(key), out + sizeof(VO_WHSEC) - 1);
    out[sizeof(VO_WHSEC) - 1 + n] = '\0';

    return 0;
}


void
vo_webhook_secret_fingerprint(const char *secret, size_t len, char *out)
{
    size_t         i;
    unsigned int   n;
    unsigned char  md[EVP_MAX_MD_SIZE];

    static const char  hex[] = "0123456789abcdef";

    if (EVP_Digest(secret, len, md, &n, EVP_sha256(), NULL) != 1) {
        memset(md, 0, sizeof(md));
    }

    for (i = 0; i < VO_WEBHOOK_FINGERPRINT / 2; i++) {
        out[2 * i] = hex[md[i] >> 4];
        out[2 * i + 1] = hex[md[i] & 0x0f];
    }

    out[VO_WEBHOOK_FINGERPRINT] = '\0';
}


int
vo_webhook_url_check(const char *s, size_t len, char *err, size_t err_size)
{
    int            family;
    size_t         i, start, hlen;
    unsigned long  port;
    unsigned char  addr[16];

    if (len > VO_WEBHOOK_URL_MAX) {
        snprintf(err, err_size, "a webhook URL is at most %d bytes",
                 VO_WEBHOOK_URL_MAX);
        return -1;
    }

    for (i = 0; i < len; i++) {
        if ((unsigned char) s[i] <= 0x20 || (unsigned char) s[i] >= 0x7f) {
            snprintf(err, err_size, "a webhook URL is visible ASCII only "
                     "(byte %zu is not): percent-encode the rest", i);
            return -1;
        }

        if (s[i] == '#') {
            snprintf(err, err_size, "a webhook URL has no #fragment");
            return -1;
        }
    }

    if (len >= 7 && strncasecmp(s, "http://", 7) == 0) {
        start = 7;

    } else if (len >= 8 && strncasecmp(s, "https://", 8) == 0) {
        start = 8;

    } else {
        snprintf(err, err_size, "a webhook URL starts with https:// (or "
                 "http://)");
        return -1;
    }

    /* the authority: up to the path or the query */

    for (i = start; i < len && s[i] != '/' && s[i] != '?'; i++) {
        if (s[i] == '@') {
            snprintf(err, err_size, "a webhook URL carries no user or "
                     "password (user@host): the signature authenticates "
                     "the sender");
            return -1;
        }
    }

    hlen = i - start;

    if (hlen > 0 && s[start] == '[') {
        /* [IPv6]:port */
        const char  *end = memchr(s + start, ']', hlen);

        if (end == NULL
            || vo_addr_parse(s + start + 1, (size_t) (end - s - start - 1),
                             &family, addr) != 0
            || family != 6)
        {
            snprintf(err, err_size, "the webhook URL's host is not a valid "
                     "[IPv6] address");
            return -1;
        }

        i = (size_t) (end - s) + 1;

    } else {
        for (i = start; i < start + hlen && s[i] != ':'; i++) {
            if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z')
                  || (s[i] >= '0' && s[i] <= '9') || s[i] == '-'
                  || s[i] == '.' || s[i] == '_'))
            {
                snprintf(err, err_size, "the webhook URL's host has a "
                         "character a host name cannot have ('%c')", s[i]);
                return -1;
            }
        }

        if (i == start) {
            snprintf(err, err_size, "the webhook URL has no host");
            return -1;
        }
    }

    if (i < start + hlen) {
        if (s[i] != ':' || i + 1 == start + hlen) {
            snprintf(err, err_size, "the webhook URL's port is not a "
                     "number");
            return -1;
        }

        port = 0;

        for (i++; i < start + hlen; i++) {
            if (s[i] < '0' || s[i] > '9' || port > 65535) {
                break;
            }

            port = port * 10 + (unsigned long) (s[i] - '0');
        }

        if (i < start + hlen || port == 0 || port > 65535) {
            snprintf(err, err_size, "the webhook URL's port must be a "
                     "number from 1 to 65535");
            return -1;
        }
    }

    return 0;
}


int
vo_webhook_sign(const unsigned char *key, size_t key_len,
    const char *msg_id, int64_t timestamp, const char *body, size_t body_len,
    char *out)
{
    int            rc;
    char           ts[24];
    size_t         n;
    EVP_PKEY      *pkey;
    EVP_MD_CTX    *md;
    unsigned char  mac[EVP_MAX_MD_SIZE];

    rc = -1;
    md = NULL;

    pkey = EVP_PKEY_new_raw_private_key(EVP_PKEY_HMAC, NULL, key, key_len);
    if (pkey == NULL) {
        return -1;
    }

    md = EVP_MD_CTX_new();
    if (md == NULL) {
        goto done;
    }

    snprintf(ts, sizeof(ts), ".%lld.", (long long) timestamp);
    n = sizeof(mac);

    if (EVP_DigestSignInit(md, NULL, EVP_sha256(), NULL, pkey) != 1
        || EVP_DigestSignUpdate(md, msg_id, strlen(msg_id)) != 1
        || EVP_DigestSignUpdate(md, ts, strlen(ts)) != 1
        || EVP_DigestSignUpdate(md, body, body_len) != 1
        || EVP_DigestSignFinal(md, mac, &n) != 1)
    {
        goto done;
    }

    memcpy(out, "v1,", 3);
    n = vo_b64_encode(mac, n, out + 3);
    out[3 + n] = '\0';

    rc = (int) (3 + n);

done:

    EVP_MD_CTX_free(md);
    EVP_PKEY_free(pkey);

    return rc;
}


int
vo_webhook_msg_id(int64_t now_ms, char *out)
{
    int            i;
    unsigned char  b[16];

    static const char  hex[] = "0123456789abcdef";

    /* the time first, as for job ids: ids that sort by creation */

    for (i = 0; i < 6; i++) {
        b[i] = (unsigned char) ((uint64_t) now_ms >> (40 - 8 * i));
    }

    if (RAND_bytes(b + 6, 10) != 1) {
        return -1;
    }

    memcpy(out, "msg_", 4);

    for (i = 0; i < 16; i++) {
        out[4 + 2 * i] = hex[b[i] >> 4];
        out[4 + 2 * i + 1] = hex[b[i] & 0x0f];
    }

    out[VO_WEBHOOK_MSG_ID_LEN] = '\0';

    return 0;
}


int
vo_cidr_parse_list(const char *s, size_t len, vo_cidr_t *out, size_t max,
    size_t *n, char *err, size_t err_size)
{
    int         bits, max_bits;
    size_t      i, j, end, slash;
    vo_cidr_t   c;

    i = 0;

    for ( ;; ) {
        while (i < len && s[i] == ' ') {
            i++;
        }

        for (end = i; end < len && s[end] != ','; end++) {
            /* void */
        }

        j = end;

        while (j > i && s[j - 1] == ' ') {
            j--;
        }

        if (j == i) {
            snprintf(err, err_size, "an empty address block: give "
                     "ADDRESS[/BITS], such as 127.0.0.0/8 or ::1");
            return -1;
        }

        for (slash = i; slash < j && s[slash] != '/'; slash++) {
            /* void */
        }

        memset(&c, 0, sizeof(c));

        if (vo_addr_parse(s + i, slash - i, &c.family, c.addr) != 0) {
            snprintf(err, err_size, "\"%.*s\" is not an IPv4 or IPv6 "
                     "address", (int) (slash - i > 64 ? 64 : slash - i),
                     s + i);
            return -1;
        }

        max_bits = c.family == 4 ? 32 : 128;
        bits = max_bits;

        if (slash < j) {
            bits = 0;

            if (slash + 1 == j || j - slash - 1 > 3) {
                goto bad_bits;
            }

            for (slash++; slash < j; slash++) {
                if (s[slash] < '0' || s[slash] > '9') {
                    goto bad_bits;
                }

                bits = bits * 10 + (s[slash] - '0');
            }

            if (bits > max_bits) {
                goto bad_bits;
            }
        }

        c.prefix = bits;

        /* a block is its network address: 10.1.2.3/8 is a mistake */

        for (bits = c.prefix; bits < max_bits; bits++) {
            if (c.addr[bits / 8] & (0x80 >> (bits % 8))) {
                snprintf(err, err_size, "\"%.*s\" has bits set past its "
                         "prefix: write the block's first address",
                         (int) (j - i > 64 ? 64 : j - i), s + i);
                return -1;
            }
        }

        if (*n >= max) {
            snprintf(err, err_size, "more than %zu address blocks", max);
            return -1;
        }

        out[(*n)++] = c;

        if (end == len) {
            return 0;
        }

        i = end + 1;
    }

bad_bits:

    snprintf(err, err_size, "the prefix of \"%.*s\" must be a number of "
             "bits from 0 to %d", (int) (j - i > 64 ? 64 : j - i), s + i,
             max_bits);
    return -1;
}


int
vo_cidr_match(const vo_cidr_t *c, int family, const unsigned char *addr)
{
    int  full, rest;

    if (c->family != family) {
        return 0;
    }

    full = c->prefix / 8;
    rest = c->prefix % 8;

    if (memcmp(c->addr, addr, (size_t) full) != 0) {
        return 0;
    }

    if (rest == 0) {
        return 1;
    }

    return ((c->addr[full] ^ addr[full]) & (0xff00 >> rest) & 0xff) == 0;
}


const char *
vo_addr_class(int family, const unsigned char *a)
{
    static const unsigned char  zero[16];

    if (family == 4) {
        return vo_addr4_class(a);
    }

    /* IPv4 inside IPv6: mapped, NAT64, IPv4-compatible; 6to4 */

    if ((memcmp(a, zero, 10) == 0 && a[10] == 0xff && a[11] == 0xff)
        || (a[0] == 0x00 && a[1] == 0x64 && a[2] == 0xff && a[3] == 0x9b
            && memcmp(a + 4, zero, 8) == 0))
    {
        return vo_addr4_class(a + 12);
    }

    if (memcmp(a, zero, 15) == 0) {
        return a[15] == 1 ? "loopback" : "unspecified";
    }

    if (memcmp(a, zero, 12) == 0) {
        return "reserved (IPv4-compatible)";
    }

    if (a[0] == 0x20 && a[1] == 0x02) {
        return vo_addr4_class(a + 2);
    }

    if ((a[0] & 0xfe) == 0xfc || (a[0] == 0xfe && (a[1] & 0xc0) == 0xc0)) {
        return "private (unique local)";
    }

    if (a[0] == 0xfe && (a[1] & 0xc0) == 0x80) {
        return "link-local";
    }

    if (a[0] == 0xff) {
        return "multicast";
    }

    if (a[0] == 0x20 && a[1] == 0x01 && a[2] == 0x0d && a[3] == 0xb8) {
        return "documentation";
    }

    if (a[0] == 0x20 && a[1] == 0x01 && a[2] == 0x00 && a[3] == 0x00) {
        return "Teredo tunnel";
    }

    if (a[0] == 0x01 && a[1] == 0x00 && memcmp(a + 2, zero, 6) == 0) {
        return "discard";
    }

    return NULL;
}


static const char *
vo_addr4_class(const unsigned char *a)
{
    static const struct {
        uint32_t     net;
        int          bits;
        const char  *name;
    } blocks[] = {
        { 0x00000000, 8, "this network (0.0.0.0/8)" },
        { 0x0a000000, 8, "private" },
        { 0x64400000, 10, "shared address space (CGNAT)" },
        { 0x7f000000, 8, "loopback" },
        { 0xa9fe0000, 16, "link-local" },
        { 0xac100000, 12, "private" },
        { 0xc0000000, 24, "IETF protocol assignments" },
        { 0xc0000200, 24, "documentation" },
        { 0xc0a80000, 16, "private" },
        { 0xc6120000, 15, "benchmarking" },
        { 0xc6336400, 24, "documentation" },
        { 0xcb007100, 24, "documentation" },
        { 0xe0000000, 4, "multicast" },
        { 0xf0000000, 4, "reserved" },
        { 0, 0, NULL }
    };

    int  i;

    for (i = 0; blocks[i].name != NULL; i++) {
        if (vo_prefix4(a, blocks[i].net, blocks[i].bits)) {
            return blocks[i].name;
        }
    }

    return NULL;
}


static int
vo_prefix4(const unsigned char *a, uint32_t net, int bits)
{
    uint32_t  v;

    v = (uint32_t) a[0] << 24 | (uint32_t) a[1] << 16 | (uint32_t) a[2] << 8
        | a[3];

    return ((v ^ net) >> (32 - bits)) == 0;
}


/* An IPv4 or IPv6 address in its usual text form (inet_pton). */

static int
vo_addr_parse(const char *s, size_t len, int *family, unsigned char *addr)
{
    char  buf[64];

    if (len == 0 || len >= sizeof(buf)) {
        return -1;
    }

    memcpy(buf, s, len);
    buf[len] = '\0';

    if (memchr(buf, ':', len) != NULL) {
        *family = 6;
        return inet_pton(AF_INET6, buf, addr) == 1 ? 0 : -1;
    }

    *family = 4;
    memset(addr, 0, 16);

    return inet_pton(AF_INET, buf, addr) == 1 ? 0 : -1;
}


int
vo_retry_schedule_parse(const char *s, size_t len, int64_t *ms, size_t max,
    size_t *n, char *err, size_t err_size)
{
    size_t  i, j, end;

    *n = 0;
    i = 0;

    for ( ;; ) {
        while (i < len && s[i] == ' ') {
            i++;
        }

        for (end = i; end < len && s[end] != ','; end++) {
            /* void */
        }

        for (j = end; j > i && s[j - 1] == ' '; j--) {
            /* void */
        }

        if (*n == max) {
            snprintf(err, err_size, "a retry schedule has at most %zu "
                     "attempts", max);
            return -1;
        }

        if (vo_duration_parse(s + i, j - i, &ms[*n]) != 0) {
            snprintf(err, err_size, "attempt %zu of the retry schedule, "
                     "\"%.*s\", is not a delay such as 0, 500ms, 5s, 5m, "
                     "2h or 1d (at most 7d)", *n + 1,
                     (int) (j - i > 32 ? 32 : j - i), s + i);
            return -1;
        }

        (*n)++;

        if (end == len) {
            return 0;
        }

        i = end + 1;
    }
}


/* "500ms", "1.5s", "5m", "2h", "1d"; a bare number is seconds. */

static int
vo_duration_parse(const char *s, size_t len, int64_t *ms)
{
    size_t   i, k;
    int64_t  whole, frac, scale, unit;

    whole = 0;
    frac = 0;
    scale = 1;

    for (i = 0; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
        if (whole > VO_RETRY_STEP_MAX_MS) {
            return -1;
        }

        whole = whole * 10 + (s[i] - '0');
    }

    if (i == 0) {
        return -1;
    }

    if (i < len && s[i] == '.') {
        for (i++, k = 0; i < len && s[i] >= '0' && s[i] <= '9'; i++, k++) {
            if (k == 3) {
                return -1;
            }

            frac = frac * 10 + (s[i] - '0');
            scale *= 10;
        }

        if (k == 0) {
            return -1;
        }
    }

    if (len - i == 2 && s[i] == 'm' && s[i + 1] == 's') {
        unit = 1;

    } else if (len - i <= 1) {
        switch (i < len ? s[i] : 's') {
        case 's': unit = 1000; break;
        case 'm': unit = 60000; break;
        case 'h': unit = 3600000; break;
        case 'd': unit = 86400000; break;
        default: return -1;
        }

    } else {
        return -1;
    }

    if (whole > VO_RETRY_STEP_MAX_MS / unit) {
        return -1;
    }

    *ms = whole * unit + frac * unit / scale;

    return *ms <= VO_RETRY_STEP_MAX_MS ? 0 : -1;
}


int
vo_http_header(const char *line, size_t len, const char *name,
    const char **value, size_t *value_len)
{
    size_t  n, i, end;

    n = strlen(name);

    if (len <= n || line[n] != ':' || strncasecmp(line, name, n) != 0) {
        return 0;
    }

    for (i = n + 1; i < len && (line[i] == ' ' || line[i] == '\t'); i++) {
        /* void */
    }

    for (end = len; end > i && (line[end - 1] == ' ' || line[end - 1] == '\t'
                                || line[end - 1] == '\r'
                                || line[end - 1] == '\n');
         end--)
    {
        /* void */
    }

    *value = line + i;
    *value_len = end - i;

    return 1;
}


int
vo_retry_after_parse(const char *s, size_t len, int64_t now_ms,
    int64_t *delay_ms)
{
    size_t   i;
    int64_t  v, at;

    if (len == 0) {
        return -1;
    }

    if (s[0] >= '0' && s[0] <= '9') {
        v = 0;

        for (i = 0; i < len; i++) {
            if (s[i] < '0' || s[i] > '9') {
                return -1;
            }

            if (v <= VO_RETRY_AFTER_MAX_MS / 1000) {
                v = v * 10 + (s[i] - '0');
            }
        }

        v *= 1000;
        *delay_ms = v > VO_RETRY_AFTER_MAX_MS ? VO_RETRY_AFTER_MAX_MS : v;

        return 0;
    }

    if (vo_http_date(s, len, &at) != 0) {
        return -1;
    }

    v = at - now_ms;
    *delay_ms = v < 0 ? 0 : v > VO_RETRY_AFTER_MAX_MS ? VO_RETRY_AFTER_MAX_MS
                                                      : v;

    return 0;
}


/*
 * An HTTP-date (RFC 9110, 5.6.7) as ms since the epoch:
 *   IMF-fixdate  Sun, 06 Nov 1994 08:49:37 GMT
 *   RFC 850      Sunday, 06-Nov-94 08:49:37 GMT
 *   asctime      Sun Nov  6 08:49:37 1994
 */

typedef struct {
    const char  *p;
    const char  *end;
} vo_cursor_t;


static int
vo_cur_num(vo_cursor_t *c, int min_digits, int max_digits, int64_t *v)
{
    int  k;

    *v = 0;

    for (k = 0; c->p < c->end && *c->p >= '0' && *c->p <= '9'
                && k < max_digits; k++, c->p++)
    {
        *v = *v * 10 + (*c->p - '0');
    }

    return k >= min_digits ? 0 : -1;
}


static int
vo_cur_lit(vo_cursor_t *c, const char *lit)
{
    size_t  n = strlen(lit);

    if ((size_t) (c->end - c->p) < n || memcmp(c->p, lit, n) != 0) {
        return -1;
    }

    c->p += n;

    return 0;
}


static int
vo_cur_month(vo_cursor_t *c, unsigned *m)
{
    static const char  months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";

    unsigned  i;

    if (c->end - c->p < 3) {
        return -1;
    }

    for (i = 0; i < 12; i++) {
        if (memcmp(c->p, months + 3 * i, 3) == 0) {
            *m = i + 1;
            c->p += 3;
            return 0;
        }
    }

    return -1;
}


static int
vo_cur_time(vo_cursor_t *c, int64_t *secs)
{
    int64_t  h, mi, s;

    if (vo_cur_num(c, 2, 2, &h) != 0 || vo_cur_lit(c, ":") != 0
        || vo_cur_num(c, 2, 2, &mi) != 0 || vo_cur_lit(c, ":") != 0
        || vo_cur_num(c, 2, 2, &s) != 0 || h > 23 || mi > 59 || s > 60)
    {
        return -1;
    }

    *secs = h * 3600 + mi * 60 + s;

    return 0;
}


static int
vo_http_date(const char *s, size_t len, int64_t *ms)
{
    int64_t      day, year, secs;
    unsigned     month, mdays;
    vo_cursor_t  c;

    static const unsigned  days[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30,
                                      31, 30, 31 };

    c.p = s;
    c.end = s + len;

    /* the day name: letters, then ", " (IMF, RFC 850) or " " (asctime) */

    while (c.p < c.end && ((*c.p >= 'A' && *c.p <= 'Z')
                           || (*c.p >= 'a' && *c.p <= 'z')))
    {
        c.p++;
    }

    if (c.p - s < 3) {
        return -1;
    }

    if (vo_cur_lit(&c, ", ") == 0) {

        if (vo_cur_num(&c, 2, 2, &day) != 0) {
            return -1;
        }

        if (vo_cur_lit(&c, " ") == 0) {
            /* IMF-fixdate */
            if (vo_cur_month(&c, &month) != 0 || vo_cur_lit(&c, " ") != 0
                || vo_cur_num(&c, 4, 4, &year) != 0)
            {
                return -1;
            }

        } else if (vo_cur_lit(&c, "-") == 0) {
            /* RFC 850: a two-digit year, in the last hundred years */
            if (vo_cur_month(&c, &month) != 0 || vo_cur_lit(&c, "-") != 0
                || vo_cur_num(&c, 2, 2, &year) != 0)
            {
                return -1;
            }

            year += year < 70 ? 2000 : 1900;

        } else {
            return -1;
        }

        if (vo_cur_lit(&c, " ") != 0 || vo_cur_time(&c, &secs) != 0
            || vo_cur_lit(&c, " GMT") != 0)
        {
            return -1;
        }

    } else {
        /* asctime: "Sun Nov  6 08:49:37 1994" */
        if (vo_cur_lit(&c, " ") != 0 || vo_cur_month(&c, &month) != 0
            || vo_cur_lit(&c, " ") != 0)
        {
            return -1;
        }

        (void) vo_cur_lit(&c, " ");

        if (vo_cur_num(&c, 1, 2, &day) != 0 || vo_cur_lit(&c, " ") != 0
            || vo_cur_time(&c, &secs) != 0 || vo_cur_lit(&c, " ") != 0
            || vo_cur_num(&c, 4, 4, &year) != 0)
        {
            return -1;
        }
    }

    if (c.p != c.end) {
        return -1;
    }

    mdays = days[month - 1];

    if (month == 2 && !(year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)))
    {
        mdays = 28;
    }

    if (day < 1 || day > mdays || year < 1970) {
        return -1;
    }

    *ms = (vo_days_from_civil(year, month, (unsigned) day) * 86400 + secs)
          * 1000;

    return 0;
}


/* Days since 1970-01-01 of a date of the proleptic Gregorian calendar
 * (H. Hinnant's days_from_civil). */

static int64_t
vo_days_from_civil(int64_t y, unsigned m, unsigned d)
{
    int64_t   era;
    unsigned  yoe, doy, doe;

    y -= m <= 2;
    era = (y >= 0 ? y : y - 399) / 400;
    yoe = (unsigned) (y - era * 400);
    doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;

    return era * 146097 + (int64_t) doe - 719468;
}


/* Standard base64 with padding (RFC 4648, 4). */

static size_t
vo_b64_encode(const unsigned char *in, size_t n, char *out)
{
    size_t    i, o;
    uint32_t  v;

    for (i = 0, o = 0; i + 2 < n; i += 3) {
        v = (uint32_t) in[i] << 16 | (uint32_t) in[i + 1] << 8 | in[i + 2];
        out[o++] = vo_b64[v >> 18];
        out[o++] = vo_b64[(v >> 12) & 63];
        out[o++] = vo_b64[(v >> 6) & 63];
        out[o++] = vo_b64[v & 63];
    }

    if (i < n) {
        v = (uint32_t) in[i] << 16 | (i + 1 < n ? (uint32_t) in[i + 1] << 8
                                                : 0);
        out[o++] = vo_b64[v >> 18];
        out[o++] = vo_b64[(v >> 12) & 63];
        out[o++] = i + 1 < n ? vo_b64[(v >> 6) & 63] : '=';
        out[o++] = '=';
    }

    return o;
}


static int
vo_b64_value(int c)
{
    const char  *p;

    if (c == '\0' || (p = strchr(vo_b64, c)) == NULL) {
        return -1;
    }

    return (int) (p - vo_b64);
}


static int
vo_b64_decode(const char *in, size_t n, unsigned char *out, size_t max,
    size_t *len)
{
    int       k, pad, v[4];
    size_t    i, o;
    uint32_t  w;

    if (n == 0 || n % 4 != 0) {
        return -1;
    }

    for (i = 0, o = 0; i < n; i += 4) {
        pad = 0;

        for (k = 0; k < 4; k++) {
            if (in[i + k] == '=' && i + 4 == n && k >= 2) {
                pad++;
                v[k] = 0;
                continue;
            }

            if (pad > 0 || (v[k] = vo_b64_value(in[i + k])) < 0) {
                return -1;
            }
        }

        w = (uint32_t) v[0] << 18 | (uint32_t) v[1] << 12
            | (uint32_t) v[2] << 6 | (uint32_t) v[3];

        /* the bits padding leaves unused are zero in a canonical text */
        if ((pad == 1 && (w & 0xff)) || (pad == 2 && (w & 0xffff))) {
            return -1;
        }

        if (o + 3 - (size_t) pad > max) {
            return -1;
        }

        out[o++] = (unsigned char) (w >> 16);

        if (pad < 2) {
            out[o++] = (unsigned char) (w >> 8);
        }

        if (pad < 1) {
            out[o++] = (unsigned char) w;
        }
    }

    *len = o;

    return 0;
}
