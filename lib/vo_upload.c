/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The resumable-upload header parsers and the saved SHA-256 state
 * declared in vo_upload.h.  Every value is refused unless it is exactly
 * what its specification spells: a header that could mean two things is
 * a 400 with the reason, never a guess.
 */

#include <stdio.h>
#include <string.h>

#include "vo_upload.h"


#define VO_META_KEY_MAX  64


static int vo_b64_value(unsigned char c);
static int vo_b64_decode(const char *v, size_t len, unsigned char *out,
    size_t out_size, size_t *out_len);
static int vo_meta_pair(const char *key, size_t key_len,
    const unsigned char *val, size_t val_len, int has_val,
    vo_upload_meta_t *m, char *err, size_t err_size);
static int vo_hexval(unsigned char c);


int
vo_sf_offset(const char *name, const char *v, size_t len, int64_t *out,
    char *err, size_t err_size)
{
    size_t   i;
    int64_t  n;

    if (len == 0 || len > 15) {
        snprintf(err, err_size, "%s must be a non-negative integer of 1 to "
                 "15 digits", name);
        return -1;
    }

    n = 0;

    for (i = 0; i < len; i++) {
        if (v[i] < '0' || v[i] > '9') {
            snprintf(err, err_size, "%s must be a non-negative integer "
                     "(digits only, no sign, no parameters)", name);
            return -1;
        }

        n = n * 10 + (v[i] - '0');
    }

    *out = n;

    return 0;
}


int
vo_sf_boolean(const char *name, const char *v, size_t len, int *out,
    char *err, size_t err_size)
{
    if (len == 2 && v[0] == '?' && (v[1] == '0' || v[1] == '1')) {
        *out = v[1] == '1';
        return 0;
    }

    snprintf(err, err_size, "%s must be a structured-field boolean: ?0 or "
             "?1", name);
    return -1;
}


int
vo_tus_integer(const char *name, const char *v, size_t len, int64_t *out,
    char *err, size_t err_size)
{
    size_t   i;
    int64_t  n;

    if (len == 0 || len > 18) {
        snprintf(err, err_size, "%s must be a non-negative integer of 1 to "
                 "18 digits", name);
        return -1;
    }

    n = 0;

    for (i = 0; i < len; i++) {
        if (v[i] < '0' || v[i] > '9') {
            snprintf(err, err_size, "%s must be a non-negative integer "
                     "(digits only)", name);
            return -1;
        }

        n = n * 10 + (v[i] - '0');
    }

    *out = n;

    return 0;
}


int
vo_tus_version(const char *v, size_t len, char *err, size_t err_size)
{
    if (len == 5 && memcmp(v, "1.0.0", 5) == 0) {
        return 0;
    }

    snprintf(err, err_size, "this server speaks tus 1.0.0 only "
             "(Tus-Version: 1.0.0)");
    return -1;
}


int
vo_tus_metadata(const char *v, size_t len, vo_upload_meta_t *m, char *err,
    size_t err_size)
{
    size_t          i, j, start, key_len, val_len, nkeys, k;
    unsigned char   val[VO_UPLOAD_NAME_MAX + VO_KEY_MAX + 1];
    const char     *key;
    const char     *keys[32];
    size_t          lens[32];

    nkeys = 0;
    i = 0;

    if (len == 0) {
        snprintf(err, err_size, "Upload-Metadata is empty; leave it out "
                 "instead");
        return -1;
    }

    while (i <= len) {

        /* one pair: optional spaces, key, [space base64], spaces */

        while (i < len && v[i] == ' ') {
            i++;
        }

        start = i;

        while (i < len && v[i] != ' ' && v[i] != ',') {
            i++;
        }

        key = v + start;
        key_len = i - start;

        if (key_len == 0 || key_len > VO_META_KEY_MAX) {
            snprintf(err, err_size, "Upload-Metadata: every pair needs a "
                     "key of 1 to %d characters", VO_META_KEY_MAX);
            return -1;
        }

        for (j = 0; j < key_len; j++) {
            if ((unsigned char) key[j] < 0x21 || (unsigned char) key[j] > 0x7e)
            {
                snprintf(err, err_size, "Upload-Metadata: a key may contain "
                         "only visible ASCII characters");
                return -1;
            }
        }

        for (k = 0; k < nkeys; k++) {
            if (lens[k] == key_len && memcmp(keys[k], key, key_len) == 0) {
                snprintf(err, err_size, "Upload-Metadata: the key \"%.*s\" "
                         "is given twice", (int) key_len, key);
                return -1;
            }
        }

        if (nkeys == sizeof(keys) / sizeof(keys[0])) {
            snprintf(err, err_size, "Upload-Metadata: more than %d keys",
                     (int) (sizeof(keys) / sizeof(keys[0])));
            return -1;
        }

        keys[nkeys] = key;
        lens[nkeys++] = key_len;

        val_len = 0;

        if (i < len && v[i] == ' ') {
            while (i < len && v[i] == ' ') {
                i++;
            }

            start = i;

            while (i < len && v[i] != ' ' && v[i] != ',') {
                i++;
            }

            if (i > start
                && vo_b64_decode(v + start, i - start, val, sizeof(val),
                                 &val_len) != 0)
            {
                snprintf(err, err_size, "Upload-Metadata: the value of "
                         "\"%.*s\" is not base64 (or longer than %d bytes)",
                         (int) key_len, key, (int) sizeof(val));
                return -1;
            }

            while (i < len && v[i] == ' ') {
                i++;
            }

            if (vo_meta_pair(key, key_len, val, val_len, i > start, m, err,
                             err_size)
                != 0)
            {
                return -1;
            }

        } else if (vo_meta_pair(key, key_len, val, 0, 0, m, err, err_size)
                   != 0)
        {
            return -1;
        }

        if (i == len) {
            return 0;
        }

        if (v[i] != ',') {
            snprintf(err, err_size, "Upload-Metadata: pairs are separated "
                     "by commas");
            return -1;
        }

        i++;
    }

    return 0;
}


/* One key and its decoded value: what video-ocr takes from it. */

static int
vo_meta_pair(const char *key, size_t key_len, const unsigned char *val,
    size_t val_len, int has_val, vo_upload_meta_t *m, char *err,
    size_t err_size)
{
    size_t  i;

    if ((key_len == 8 && memcmp(key, "filename", 8) == 0)
        || (key_len == 4 && memcmp(key, "name", 4) == 0))
    {
        if (val_len > VO_UPLOAD_NAME_MAX) {
            snprintf(err, err_size, "Upload-Metadata: the file name is "
                     "longer than %d bytes", VO_UPLOAD_NAME_MAX);
            return -1;
        }

        for (i = 0; i < val_len; i++) {
            if (val[i] < 0x20 || val[i] == 0x7f) {
                snprintf(err, err_size, "Upload-Metadata: the file name "
                         "has a control character");
                return -1;
            }
        }

        if (m->filename[0] == '\0' || key_len == 8) {
            memcpy(m->filename, val, val_len);
            m->filename[val_len] = '\0';
        }

        return 0;
    }

    if (key_len == 15 && memcmp(key, "idempotency-key", 15) == 0) {
        if (!has_val
            || vo_key_parse((const char *) val, val_len, m->key, &m->key_len,
                            err, err_size) != 0)
        {
            if (!has_val) {
                snprintf(err, err_size, "Upload-Metadata: idempotency-key "
                         "has no value");
            }

            return -1;
        }

        m->has_key = 1;
        return 0;
    }

    if ((key_len == 4 && memcmp(key, "lang", 4) == 0)
        || (key_len == 3 && memcmp(key, "fps", 3) == 0)
        || (key_len == 4 && memcmp(key, "crop", 4) == 0)
        || (key_len == 6 && memcmp(key, "refine", 6) == 0))
    {
        if (vo_options_set(&m->options, key, key_len, (const char *) val,
                           val_len, err, err_size) != 0)
        {
            return -1;
        }

        m->has_options = 1;
        return 0;
    }

    return 0;
}


int
vo_tus_checksum(const char *v, size_t len, vo_checksum_e *algo,
    unsigned char out[32], char *err, size_t err_size)
{
    size_t      n, want, skip;
    const char *name;

    if (len >= 5 && memcmp(v, "sha1 ", 5) == 0) {
        *algo = VO_CHECKSUM_SHA1;
        name = "sha1";
        skip = 5;
        want = 20;

    } else if (len >= 7 && memcmp(v, "sha256 ", 7) == 0) {
        *algo = VO_CHECKSUM_SHA256;
        name = "sha256";
        skip = 7;
        want = 32;

    } else {
        snprintf(err, err_size, "Upload-Checksum: the algorithm must be "
                 "sha1 or sha256 (Tus-Checksum-Algorithm), as "
                 "\"sha1 <base64>\"");
        return -1;
    }

    if (vo_b64_decode(v + skip, len - skip, out, 32, &n) != 0 || n != want) {
        snprintf(err, err_size, "Upload-Checksum: the %s digest must be "
                 "%d bytes in base64", name, (int) want);
        return -1;
    }

    return 0;
}


int
vo_tus_concat(const char *v, size_t len, const char *base, size_t base_len,
    int *final, char (*ids)[VO_UPLOAD_ID_LEN + 1], size_t max, size_t *n,
    char *err, size_t err_size)
{
    size_t       i, k, end;
    const char  *u, *path, *stop;

    *n = 0;

    if (len == 7 && memcmp(v, "partial", 7) == 0) {
        *final = 0;
        return 0;
    }

    if (len < 6 || memcmp(v, "final;", 6) != 0) {
        snprintf(err, err_size, "Upload-Concat must be \"partial\", or "
                 "\"final;\" and the partial uploads' URLs, separated by "
                 "spaces");
        return -1;
    }

    *final = 1;
    i = 6;

    while (i < len) {

        while (i < len && v[i] == ' ') {
            i++;
        }

        if (i == len) {
            break;
        }

        for (end = i; end < len && v[end] != ' '; end++) {
            /* void */
        }

        u = v + i;
        stop = v + end;
        path = u;

        /* http(s)://authority/path: the path is what names the upload */

        if ((size_t) (stop - u) > 7 && memcmp(u, "http://", 7) == 0) {
            path = memchr(u + 7, '/', stop - u - 7);

        } else if ((size_t) (stop - u) > 8 && memcmp(u, "https://", 8) == 0) {
            path = memchr(u + 8, '/', stop - u - 8);
        }

        if (path == NULL
            || (size_t) (stop - path) != base_len + 1 + VO_UPLOAD_ID_LEN
            || memcmp(path, base, base_len) != 0
            || path[base_len] != '/'
            || !vo_upload_id_valid(path + base_len + 1, VO_UPLOAD_ID_LEN))
        {
            snprintf(err, err_size, "Upload-Concat: \"%.*s\" is not an "
                     "upload of this endpoint (%.*s/<upload id>)",
                     (int) (stop - u > 100 ? 100 : stop - u), u,
                     (int) (base_len > 100 ? 100 : base_len), base);
            return -1;
        }

        if (*n == max) {
            snprintf(err, err_size, "Upload-Concat: at most %d partial "
                     "uploads make a final one", (int) max);
            return -1;
        }

        memcpy(ids[*n], path + base_len + 1, VO_UPLOAD_ID_LEN);
        ids[*n][VO_UPLOAD_ID_LEN] = '\0';

        for (k = 0; k < *n; k++) {
            if (memcmp(ids[k], ids[*n], VO_UPLOAD_ID_LEN) == 0) {
                snprintf(err, err_size, "Upload-Concat: the partial upload "
                         "%s is given twice", ids[k]);
                return -1;
            }
        }

        (*n)++;
        i = end;
    }

    if (*n == 0) {
        snprintf(err, err_size, "Upload-Concat: a final upload names its "
                 "partial uploads (final;<URL> <URL> ...)");
        return -1;
    }

    return 0;
}


int
vo_method_override(const char *v, size_t len, vo_method_e *method,
    char *err, size_t err_size)
{
    size_t  i;

    static const struct {
        const char   *name;
        vo_method_e   method;
    } methods[] = {
        { "GET", VO_METHOD_GET },
        { "HEAD", VO_METHOD_HEAD },
        { "POST", VO_METHOD_POST },
        { "PATCH", VO_METHOD_PATCH },
        { "DELETE", VO_METHOD_DELETE },
        { "OPTIONS", VO_METHOD_OPTIONS }
    };

    for (i = 0; i < sizeof(methods) / sizeof(methods[0]); i++) {
        if (len == strlen(methods[i].name)
            && memcmp(v, methods[i].name, len) == 0)
        {
            *method = methods[i].method;
            return 0;
        }
    }

    snprintf(err, err_size, "X-HTTP-Method-Override must be one of GET, "
             "HEAD, POST, PATCH, DELETE and OPTIONS");
    return -1;
}


int
vo_upload_id_valid(const char *v, size_t len)
{
    size_t  i;

    if (len != VO_UPLOAD_ID_LEN) {
        return 0;
    }

    for (i = 0; i < len; i++) {
        if (!((v[i] >= '0' && v[i] <= '9') || (v[i] >= 'a' && v[i] <= 'f'))) {
            return 0;
        }
    }

    return 1;
}


void
vo_sha256_state_save(const SHA256_CTX *c, char *out)
{
    int                   i;
    unsigned int          k;
    const unsigned char  *data;

    static const char  hex[] = "0123456789abcdef";

    if (c->Nl == 0 && c->Nh == 0) {
        *out = '\0';
        return;
    }

    for (i = 0; i < 8; i++) {
        snprintf(out + 8 * i, 9, "%08x", (unsigned) c->h[i]);
    }

    out += 64;

    /* md32_common.h keeps the block being filled as bytes in data[] */

    data = (const unsigned char *) c->data;

    for (k = 0; k < c->num && k < 64; k++) {
        *out++ = hex[data[k] >> 4];
        *out++ = hex[data[k] & 0xf];
    }

    *out = '\0';
}


int
vo_sha256_state_load(SHA256_CTX *c, const char *v, size_t len, int64_t n)
{
    int            i, j, d;
    size_t         k, num;
    uint64_t       bits;
    unsigned int   w;
    unsigned char *data;

    if (n < 0) {
        return -1;
    }

    SHA256_Init(c);

    if (n == 0) {
        return len == 0 ? 0 : -1;
    }

    num = (size_t) (n % 64);

    if (len != 64 + 2 * num) {
        return -1;
    }

    for (i = 0; i < 8; i++) {
        w = 0;

        for (j = 0; j < 8; j++) {
            d = vo_hexval((unsigned char) v[8 * i + j]);
            if (d < 0) {
                return -1;
            }

            w = (w << 4) | (unsigned) d;
        }

        c->h[i] = w;
    }

    data = (unsigned char *) c->data;

    for (k = 0; k < num; k++) {
        i = vo_hexval((unsigned char) v[64 + 2 * k]);
        j = vo_hexval((unsigned char) v[64 + 2 * k + 1]);

        if (i < 0 || j < 0) {
            return -1;
        }

        data[k] = (unsigned char) (i << 4 | j);
    }

    bits = (uint64_t) n * 8;
    c->Nl = (SHA_LONG) (bits & 0xffffffff);
    c->Nh = (SHA_LONG) (bits >> 32);
    c->num = (unsigned int) num;

    return 0;
}


static int
vo_hexval(unsigned char c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }

    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }

    return -1;
}


static int
vo_b64_value(unsigned char c)
{
    if (c >= 'A' && c <= 'Z') {
        return c - 'A';
    }

    if (c >= 'a' && c <= 'z') {
        return c - 'a' + 26;
    }

    if (c >= '0' && c <= '9') {
        return c - '0' + 52;
    }

    if (c == '+') {
        return 62;
    }

    if (c == '/') {
        return 63;
    }

    return -1;
}


/* Standard base64 with its padding; -1 for anything else or no room. */

static int
vo_b64_decode(const char *v, size_t len, unsigned char *out, size_t out_size,
    size_t *out_len)
{
    int       d[4];
    size_t    i, k, n, pad;

    if (len % 4 != 0) {
        return -1;
    }

    pad = 0;

    if (len > 0 && v[len - 1] == '=') {
        pad++;
        if (len > 1 && v[len - 2] == '=') {
            pad++;
        }
    }

    n = 0;

    for (i = 0; i < len; i += 4) {
        for (k = 0; k < 4; k++) {
            if (i + k >= len - pad) {
                d[k] = 0;
                continue;
            }

            d[k] = vo_b64_value((unsigned char) v[i + k]);
            if (d[k] < 0) {
                return -1;
            }
        }

        if (n + 3 > out_size + (i + 4 == len ? pad : 0)) {
            return -1;
        }

        out[n++] = (unsigned char) (d[0] << 2 | d[1] >> 4);

        if (i + 4 < len || pad < 2) {
            out[n++] = (unsigned char) ((d[1] & 0xf) << 4 | d[2] >> 2);
        }

        if (i + 4 < len || pad < 1) {
            out[n++] = (unsigned char) ((d[2] & 0x3) << 6 | d[3]);
        }
    }

    *out_len = n;

    return 0;
}
