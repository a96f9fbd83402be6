/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Fuzz target: the Idempotency-Key parser, vo_key_parse (vo_key.c).  The
 * input is the header's value.  Invariants checked:
 *
 *   1. an accepted key is 1..VO_KEY_MAX bytes, each 0x20-0x7e;
 *   2. a bare spelling (not starting with '"') is accepted as is: the
 *      key is the input, byte for byte;
 *   3. quoting the key as an sf-string (escaping '"' and '\') parses
 *      back to the same key, and so does the bare spelling when the key
 *      has no space, '"' or '\';
 *   4. a refusal writes a non-empty, NUL-terminated message that fits
 *      the buffer, and never touches *out_len;
 *   5. the key hash of an accepted key is 16 lowercase hex digits.
 *
 * ASan sees every read outside the (exactly sized) input.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"
#include "vo_edge.h"


static void fuzz_key_again(const char *spelling, size_t len, const char *key,
    size_t key_len);


int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int     rc;
    char    key[VO_KEY_MAX], err[VO_ERR_MAX], hash[VO_KEY_HASH_LEN + 1];
    char    quoted[2 * VO_KEY_MAX + 2];
    char   *value;
    size_t  i, n, len;

    /* an exact copy, so that ASan catches a read one byte past the end */

    value = malloc(size ? size : 1);
    if (value == NULL) {
        return 0;
    }

    memcpy(value, data, size);

    len = (size_t) -7;
    memset(err, 'x', sizeof(err));

    rc = vo_key_parse(value, size, key, &len, err, sizeof(err));

    if (rc != 0) {
        FUZZ_CHECK(rc == -1);
        FUZZ_CHECK(len == (size_t) -7);
        FUZZ_CHECK(memchr(err, '\0', sizeof(err)) != NULL);
        FUZZ_CHECK(err[0] != '\0');
        free(value);
        return 0;
    }

    FUZZ_CHECK(len >= 1 && len <= VO_KEY_MAX);

    for (i = 0; i < len; i++) {
        FUZZ_CHECK((unsigned char) key[i] >= 0x20
                   && (unsigned char) key[i] <= 0x7e);
    }

    if (size > 0 && value[0] != '"') {
        FUZZ_CHECK(len == size && memcmp(key, value, size) == 0);
    }

    /* the sf-string spelling of the key */

    n = 0;
    quoted[n++] = '"';

    for (i = 0; i < len; i++) {
        if (key[i] == '"' || key[i] == '\\') {
            quoted[n++] = '\\';
        }

        quoted[n++] = key[i];
    }

    quoted[n++] = '"';

    fuzz_key_again(quoted, n, key, len);

    if (memchr(key, ' ', len) == NULL && memchr(key, '"', len) == NULL
        && memchr(key, '\\', len) == NULL)
    {
        fuzz_key_again(key, len, key, len);
    }

    vo_key_hash("secret", 6, "tenant", 6, key, len, hash);

    FUZZ_CHECK(strlen(hash) == VO_KEY_HASH_LEN);
    FUZZ_CHECK(strspn(hash, "0123456789abcdef") == VO_KEY_HASH_LEN);

    free(value);

    return 0;
}


static void
fuzz_key_again(const char *spelling, size_t len, const char *key,
    size_t key_len)
{
    char    again[VO_KEY_MAX], err[VO_ERR_MAX], *copy;
    size_t  n;

    copy = malloc(len);
    if (copy == NULL) {
        return;
    }

    memcpy(copy, spelling, len);

    FUZZ_CHECK(vo_key_parse(copy, len, again, &n, err, sizeof(err)) == 0);
    FUZZ_CHECK(n == key_len && memcmp(again, key, n) == 0);

    free(copy);
}
