/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Fuzz target: the resumable-upload header parsers and the saved SHA-256
 * state (lib/vo_upload.c).  The first byte picks the parser, the rest is
 * the header's value.  Invariants checked:
 *
 *   1. every parser answers 0 or -1; a refusal writes a non-empty,
 *      NUL-terminated message that fits the buffer;
 *   2. an accepted integer is non-negative and prints back to the input
 *      (no sign, no leading spaces, nothing after it); a boolean is 0/1;
 *   3. accepted metadata leaves a NUL-terminated file name without
 *      control characters and, when it names a key, a valid key;
 *   4. a SHA-256 state that loads saves back to the same text, and
 *      hashing from it agrees with hashing the bytes it stands for when
 *      the input is a state this code wrote;
 *   5. an accepted Upload-Checksum names sha1 or sha256 and spells it;
 *   6. an accepted Upload-Concat is "partial", or a final upload of 1 to
 *      max valid upload ids, none twice, each of which the input holds
 *      right after the intake's path and a slash (the base is taken from
 *      the input too, so paths of any length are tried);
 *   7. an accepted X-HTTP-Method-Override is one of the six methods,
 *      spelt as the input spells it.
 *
 * ASan sees every read outside the (exactly sized) input.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"
#include "vo_upload.h"


static void fuzz_upload_err(int rc, const char *err, size_t size);
static void fuzz_upload_state(const char *v, size_t len);
static void fuzz_upload_concat(const char *v, size_t len);
static void fuzz_upload_override(const char *v, size_t len);


int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int               rc, b;
    char              err[VO_ERR_MAX], back[32];
    char             *v;
    size_t            len, i;
    int64_t           n;
    unsigned char     sum[32];
    vo_checksum_e     algo;
    vo_upload_meta_t  m;

    if (size == 0) {
        return 0;
    }

    len = size - 1;
    v = malloc(len ? len : 1);
    if (v == NULL) {
        return 0;
    }

    memcpy(v, data + 1, len);
    memset(err, 'x', sizeof(err));

    switch (data[0] % 9) {

    case 0:
        n = -1;
        rc = vo_sf_offset("Upload-Offset", v, len, &n, err, sizeof(err));
        fuzz_upload_err(rc, err, sizeof(err));
        if (rc == 0) {
            FUZZ_CHECK(n >= 0);
            snprintf(back, sizeof(back), "%lld", (long long) n);
            /* leading zeros are digits too: compare the value */
            FUZZ_CHECK(len >= strlen(back));
            FUZZ_CHECK(memcmp(v + len - strlen(back), back, strlen(back))
                       == 0);
        }
        break;

    case 1:
        n = -1;
        rc = vo_tus_integer("Upload-Length", v, len, &n, err, sizeof(err));
        fuzz_upload_err(rc, err, sizeof(err));
        if (rc == 0) {
            FUZZ_CHECK(n >= 0);
            for (i = 0; i < len; i++) {
                FUZZ_CHECK(v[i] >= '0' && v[i] <= '9');
            }
        }
        break;

    case 2:
        b = -1;
        rc = vo_sf_boolean("Upload-Complete", v, len, &b, err, sizeof(err));
        fuzz_upload_err(rc, err, sizeof(err));
        if (rc == 0) {
            FUZZ_CHECK(b == 0 || b == 1);
            FUZZ_CHECK(len == 2 && v[0] == '?');
        }
        break;

    case 3:
        memset(&m, 0, sizeof(m));
        vo_options_init(&m.options);
        rc = vo_tus_metadata(v, len, &m, err, sizeof(err));
        fuzz_upload_err(rc, err, sizeof(err));
        if (rc == 0) {
            FUZZ_CHECK(memchr(m.filename, '\0', sizeof(m.filename)) != NULL);
            for (i = 0; m.filename[i]; i++) {
                FUZZ_CHECK((unsigned char) m.filename[i] >= 0x20
                           && (unsigned char) m.filename[i] != 0x7f);
            }
            if (m.has_key) {
                FUZZ_CHECK(m.key_len >= 1 && m.key_len <= VO_KEY_MAX);
            }
        }
        break;

    case 4:
        rc = vo_tus_checksum(v, len, &algo, sum, err, sizeof(err));
        fuzz_upload_err(rc, err, sizeof(err));
        if (rc == 0) {
            FUZZ_CHECK(algo == VO_CHECKSUM_SHA1 || algo == VO_CHECKSUM_SHA256);
            FUZZ_CHECK(memcmp(v, algo == VO_CHECKSUM_SHA1 ? "sha1 " : "sha256 ",
                              algo == VO_CHECKSUM_SHA1 ? 5 : 7) == 0);
        }
        break;

    case 5:
        rc = vo_tus_version(v, len, err, sizeof(err));
        fuzz_upload_err(rc, err, sizeof(err));
        (void) vo_upload_id_valid(v, len);
        break;

    case 6:
        fuzz_upload_concat(v, len);
        break;

    case 7:
        fuzz_upload_override(v, len);
        break;

    default:
        fuzz_upload_state(v, len);
        break;
    }

    free(v);

    return 0;
}


static void
fuzz_upload_err(int rc, const char *err, size_t size)
{
    FUZZ_CHECK(rc == 0 || rc == -1);

    if (rc != 0) {
        FUZZ_CHECK(memchr(err, '\0', size) != NULL);
        FUZZ_CHECK(err[0] != '\0');
    }
}


/*
 * The input: bytes hashed in two parts; the state after the first is
 * saved, loaded, and the second part hashed from it.
 */

static void
fuzz_upload_state(const char *v, size_t len)
{
    char           state[VO_SHA256_STATE_LEN], again[VO_SHA256_STATE_LEN];
    size_t         cut;
    SHA256_CTX     whole, part, loaded;
    unsigned char  d1[32], d2[32];

    cut = len ? (unsigned char) v[0] % (len + 1) : 0;

    SHA256_Init(&whole);
    SHA256_Update(&whole, v, len);
    SHA256_Final(d1, &whole);

    SHA256_Init(&part);
    SHA256_Update(&part, v, cut);
    vo_sha256_state_save(&part, state);

    FUZZ_CHECK(vo_sha256_state_load(&loaded, state, strlen(state),
                                    (int64_t) cut) == 0);
    vo_sha256_state_save(&loaded, again);
    FUZZ_CHECK(strcmp(state, again) == 0);

    SHA256_Update(&loaded, v + cut, len - cut);
    SHA256_Final(d2, &loaded);
    FUZZ_CHECK(memcmp(d1, d2, 32) == 0);

    /* and the input itself as a state: refused, or it saves back */

    if (vo_sha256_state_load(&loaded, v, len, (int64_t) len * 3) == 0) {
        vo_sha256_state_save(&loaded, again);
        FUZZ_CHECK(strlen(again) == len && memcmp(again, v, len) == 0);
    }
}


/*
 * The input: a base length (first byte), the base (the intake's path),
 * then the header's value.
 */

static void
fuzz_upload_concat(const char *v, size_t len)
{
    int          rc, final;
    char         err[VO_ERR_MAX];
    char         ids[4][VO_UPLOAD_ID_LEN + 1];
    size_t       blen, n, i, k;
    const char  *base, *h;

    if (len == 0) {
        return;
    }

    blen = (unsigned char) v[0] % 16;
    if (blen > len - 1) {
        blen = len - 1;
    }

    base = v + 1;
    h = base + blen;

    memset(err, 'x', sizeof(err));
    memset(ids, 'y', sizeof(ids));
    final = -1;

    rc = vo_tus_concat(h, len - 1 - blen, base, blen, &final, ids, 4, &n,
                       err, sizeof(err));
    fuzz_upload_err(rc, err, sizeof(err));

    if (rc != 0) {
        return;
    }

    FUZZ_CHECK(final == 0 || final == 1);

    if (!final) {
        FUZZ_CHECK(n == 0 && len - 1 - blen == 7);
        return;
    }

    FUZZ_CHECK(n >= 1 && n <= 4);

    for (i = 0; i < n; i++) {
        FUZZ_CHECK(ids[i][VO_UPLOAD_ID_LEN] == '\0');
        FUZZ_CHECK(vo_upload_id_valid(ids[i], VO_UPLOAD_ID_LEN));

        for (k = 0; k < i; k++) {
            FUZZ_CHECK(memcmp(ids[i], ids[k], VO_UPLOAD_ID_LEN) != 0);
        }
    }
}


static void
fuzz_upload_override(const char *v, size_t len)
{
    int          rc;
    char         err[VO_ERR_MAX];
    vo_method_e  m;

    static const char  *names[] = {
        "GET", "HEAD", "POST", "PATCH", "DELETE", "OPTIONS"
    };

    memset(err, 'x', sizeof(err));
    m = (vo_method_e) -1;

    rc = vo_method_override(v, len, &m, err, sizeof(err));
    fuzz_upload_err(rc, err, sizeof(err));

    if (rc == 0) {
        FUZZ_CHECK((int) m >= 0 && (int) m <= VO_METHOD_OPTIONS);
        FUZZ_CHECK(strlen(names[m]) == len && memcmp(names[m], v, len) == 0);
    }
}
