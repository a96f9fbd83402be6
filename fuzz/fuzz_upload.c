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
 *      the input is a state this code wrote.
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


int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int               rc, b;
    char              err[VO_ERR_MAX], back[32];
    char             *v;
    size_t            len, i;
    int64_t           n;
    unsigned char     sum[32];
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

    switch (data[0] % 7) {

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
        rc = vo_tus_checksum(v, len, sum, err, sizeof(err));
        fuzz_upload_err(rc, err, sizeof(err));
        break;

    case 5:
        rc = vo_tus_version(v, len, err, sizeof(err));
        fuzz_upload_err(rc, err, sizeof(err));
        (void) vo_upload_id_valid(v, len);
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
