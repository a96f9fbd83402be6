/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Fuzz target: the JSON writers (lib/vo_json.c) that every receipt,
 * problem and result goes through.  The input is a
 * text to escape; its first 8 bytes are also a time in milliseconds.
 * Invariants checked:
 *
 *   1. vo_json_str writes one valid JSON string literal (RFC 8259) of
 *      well-formed UTF-8 with no raw control character or DEL;
 *   2. decoding that literal gives the input back, with each byte that
 *      does not start a well-formed UTF-8 sequence replaced by U+FFFD
 *      (checked against fuzz_check.c's own UTF-8 decoder);
 *   3. vo_json_strz writes the same as vo_json_str up to the first NUL;
 *   4. vo_json_time writes null for a negative time, else a quoted
 *      RFC 3339 time, "YYYY-MM-DDTHH:MM:SS.mmmZ" for years up to 9999;
 *   5. the buffer stays NUL-terminated, its length is what was written,
 *      vo_buf_detach hands over exactly those bytes.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"
#include "vo_json.h"


int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char      *text, *want, *got, *out, tail[32];
    size_t     i, k, n, wn, gn, len, z;
    int64_t    ms;
    uint32_t   cp;
    vo_buf_t   b;

    if (size > 65536) {
        return 0;
    }

    text = malloc(size ? size : 1);
    want = malloc(3 * size + 1);
    if (text == NULL || want == NULL) {
        abort();
    }

    memcpy(text, data, size);

    /* what the decoded literal must be */

    wn = 0;

    for (i = 0; i < size; i += k) {
        k = fuzz_utf8_seq(data + i, size - i, &cp);

        if (k == 0) {
            memcpy(want + wn, "\xef\xbf\xbd", 3);
            wn += 3;
            k = 1;
            continue;
        }

        memcpy(want + wn, data + i, k);
        wn += k;
    }

    /* 1, 2 */

    vo_buf_init(&b);
    vo_json_str(&b, text, size);
    FUZZ_CHECK(vo_buf_ok(&b));
    FUZZ_CHECK(b.data != NULL && b.data[b.len] == '\0');
    FUZZ_CHECK(fuzz_json_valid(b.data, b.len));
    FUZZ_CHECK(fuzz_utf8_valid((unsigned char *) b.data, b.len));

    for (i = 0; i < b.len; i++) {
        FUZZ_CHECK((unsigned char) b.data[i] >= 0x20
                   && (unsigned char) b.data[i] != 0x7f);
    }

    got = malloc(b.len);
    if (got == NULL) {
        abort();
    }

    gn = fuzz_json_unquote(b.data, b.len, got);
    FUZZ_CHECK(gn == wn && memcmp(got, want, wn) == 0);
    free(got);

    /* 3 */

    z = strnlen(text, size);

    if (z < size) {
        vo_buf_t  c;

        vo_buf_init(&c);
        vo_json_str(&c, text, z);

        vo_buf_reset(&b);
        vo_json_strz(&b, text);

        FUZZ_CHECK(vo_buf_ok(&b) && vo_buf_ok(&c));
        FUZZ_CHECK(b.len == c.len && memcmp(b.data, c.data, b.len) == 0);
        vo_buf_free(&c);
    }

    /* 4 */

    ms = 0;

    if (size >= 8) {
        memcpy(&ms, data, 8);
    }

    vo_buf_reset(&b);
    vo_json_time(&b, ms);
    FUZZ_CHECK(vo_buf_ok(&b));
    FUZZ_CHECK(fuzz_json_valid(b.data, b.len));

    if (ms < 0) {
        FUZZ_CHECK(b.len == 4 && memcmp(b.data, "null", 4) == 0);

    } else if (ms < INT64_C(253402300800000)) {
        static const char  shape[] = "\"dddd-dd-ddTdd:dd:dd.dddZ\"";

        FUZZ_CHECK(b.len == sizeof(shape) - 1);

        for (i = 0; i < b.len; i++) {
            if (shape[i] == 'd') {
                FUZZ_CHECK(b.data[i] >= '0' && b.data[i] <= '9');

            } else {
                FUZZ_CHECK(b.data[i] == shape[i]);
            }
        }
    }

    /* 5: appends after a reset, then detach */

    vo_buf_reset(&b);
    vo_buf_add(&b, text, size);
    vo_buf_printf(&b, "|%zu", size);
    len = b.len;
    n = (size_t) snprintf(tail, sizeof(tail), "|%zu", size);
    FUZZ_CHECK(vo_buf_ok(&b) && b.data[len] == '\0');
    FUZZ_CHECK(len == size + n);
    FUZZ_CHECK(memcmp(b.data, text, size) == 0);
    FUZZ_CHECK(memcmp(b.data + size, tail, n) == 0);

    out = vo_buf_detach(&b, &n);
    FUZZ_CHECK(out != NULL && n == len && out[n] == '\0');
    FUZZ_CHECK(b.data == NULL && b.len == 0);
    free(out);

    free(want);
    free(text);

    return 0;
}
