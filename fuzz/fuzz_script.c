/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Fuzz target: the scripts of the OCR text (worker/ocr/vw_script.c,
 * worker/core/vw_utf8.c): vw_utf8_next, vw_utf8_last, vw_script_class,
 * vw_script_blanks, vw_script_space.  The input's first four bytes are
 * a blank count (signed 16-bit) and a start offset (unsigned 16-bit),
 * the rest is two words split at the first 0xff byte (or in the
 * middle).
 * Invariants checked:
 *
 *   1. a forward scan with vw_utf8_next moves 1-4 bytes a step and ends
 *      exactly at the end; each step agrees with fuzz_utf8_seq (the
 *      independent validator of fuzz_check.c): the same length and code
 *      point for a well-formed character, -1 and one byte otherwise;
 *   2. vw_utf8_last gives the code point of the forward scan's last
 *      step (-1 when that step was ill-formed, or for no bytes);
 *   3. vw_script_class is a known class, and OTHER for -1, ASCII and
 *      anything past U+323AF; vw_script_han is 0 or 1, and 1 only for
 *      a CJK character from U+3400 on (Han, not kana or punctuation);
 *   4. vw_script_space is 0 or 1; 1 whenever a side's boundary
 *      character is not CJK or Hangul (Latin, digits, bad UTF-8, an
 *      empty word); 0 for CJK beside CJK whatever the blanks; beside
 *      Hangul, 0 exactly when the blanks are 0;
 *   5. vw_script_blanks, the first word taken as the line and the
 *      second as the word, from the start offset: -1 with the offset
 *      unchanged when the word is empty or not in the line from there;
 *      otherwise the offset moves just past the first place the word
 *      appears from there (it is there, and nowhere earlier), inside
 *      the line, and the count is the spaces skipped.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"
#include "core/vw_utf8.h"
#include "ocr/vw_script.h"


static int32_t fuzz_scan(const unsigned char *p, size_t n);


int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int                   blanks, sp, ca, cb, han, got;
    size_t                n, alen, blen, len, at, from, i, spaces;
    int32_t               last, first;
    unsigned char        *a, *b;
    const unsigned char  *p, *cut;

    if (size < 4 || size > 4096) {
        return 0;
    }

    blanks = (int16_t) (data[0] | data[1] << 8);
    from = (size_t) (data[2] | data[3] << 8);
    p = data + 4;
    n = size - 4;

    cut = memchr(p, 0xff, n);
    alen = cut != NULL ? (size_t) (cut - p) : n / 2;
    blen = cut != NULL ? n - alen - 1 : n - alen;

    /* copies of exactly their length, so ASan sees any overread */

    a = malloc(alen ? alen : 1);
    b = malloc(blen ? blen : 1);
    FUZZ_CHECK(a != NULL && b != NULL);
    memcpy(a, p, alen);
    memcpy(b, p + (n - blen), blen);

    /* 1, 2 */

    last = fuzz_scan(a, alen);
    FUZZ_CHECK(vw_utf8_last(a, alen) == last);
    FUZZ_CHECK(vw_utf8_last(b, blen) == fuzz_scan(b, blen));

    /* 3 */

    ca = vw_script_class(last);
    FUZZ_CHECK(ca == VW_SCRIPT_OTHER || ca == VW_SCRIPT_CJK
               || ca == VW_SCRIPT_HANGUL);
    FUZZ_CHECK(last >= 0x1100 || ca == VW_SCRIPT_OTHER);
    FUZZ_CHECK(last <= 0x323af || ca == VW_SCRIPT_OTHER);
    han = vw_script_han(last);
    FUZZ_CHECK(han == 0 || (han == 1 && ca == VW_SCRIPT_CJK
                            && last >= 0x3400));

    first = blen ? vw_utf8_next(b, blen, &len) : -1;
    cb = vw_script_class(first);
    FUZZ_CHECK(first >= 0x1100 || cb == VW_SCRIPT_OTHER);

    /* 4 */

    sp = vw_script_space((char *) a, alen, (char *) b, blen, blanks);
    FUZZ_CHECK(sp == 0 || sp == 1);

    if (ca == VW_SCRIPT_OTHER || cb == VW_SCRIPT_OTHER) {
        FUZZ_CHECK(sp == 1);

    } else if (ca == VW_SCRIPT_CJK && cb == VW_SCRIPT_CJK) {
        FUZZ_CHECK(sp == 0);

    } else {
        FUZZ_CHECK(sp == (blanks != 0));
    }

    /* 5 */

    at = from;
    got = vw_script_blanks((char *) a, alen, &at, (char *) b, blen);

    if (got < 0) {
        FUZZ_CHECK(got == -1 && at == from);
        FUZZ_CHECK(blen == 0 || from > alen
                   || memmem(a + from, alen - from, b, blen) == NULL);

    } else {
        FUZZ_CHECK(blen > 0 && from <= alen && at >= from + blen
                   && at <= alen);
        FUZZ_CHECK(memcmp(a + at - blen, b, blen) == 0);
        FUZZ_CHECK(memmem(a + from, at - from - 1, b, blen) == NULL);

        spaces = 0;
        for (i = from; i < at - blen; i++) {
            spaces += a[i] == ' ';
        }
        FUZZ_CHECK((size_t) got == spaces);
    }

    free(a);
    free(b);

    return 0;
}


/* The forward scan of invariant 1; returns the last step's value. */
static int32_t
fuzz_scan(const unsigned char *p, size_t n)
{
    size_t    i, len, want;
    int32_t   cp;
    uint32_t  ref;

    cp = -1;

    for (i = 0; i < n; i += len) {
        cp = vw_utf8_next(p + i, n - i, &len);
        FUZZ_CHECK(len >= 1 && len <= 4 && len <= n - i);

        want = fuzz_utf8_seq(p + i, n - i, &ref);

        if (want == 0) {
            FUZZ_CHECK(cp == -1 && len == 1);

        } else {
            FUZZ_CHECK(cp == (int32_t) ref && len == want);
        }
    }

    return cp;
}
