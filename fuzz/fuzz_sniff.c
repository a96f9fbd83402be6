/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Fuzz target: the container sniffer, vo_sniff_container (vo_sniff.c).
 * The input is the start of an upload.  Invariants checked:
 *
 *   1. the answer is a value of the enum; NEED_MORE only when the body
 *      is not complete and has fewer than VO_SNIFF_BYTES bytes, and
 *      never for a complete body;
 *   2. any prefix of the input, as the module sees it while the body
 *      streams in (complete = 0), gives NEED_MORE or the answer for the
 *      whole input;
 *   3. once VO_SNIFF_BYTES bytes are there, the answer no longer
 *      depends on completeness or on the bytes after them;
 *   4. a recognised container has a name, and vo_container_by_name
 *      maps the name back to it.
 *
 * Each call sees an exactly sized copy, so ASan catches a read past n.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"
#include "vo_edge.h"


static vo_container_t fuzz_sniff(const uint8_t *data, size_t n,
    int complete);


int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t          k;
    const char     *name;
    vo_container_t  full, c;

    if (size > 2 * VO_SNIFF_BYTES) {
        return 0;
    }

    full = fuzz_sniff(data, size, 1);

    /* 1 */

    FUZZ_CHECK(full >= VO_CONTAINER_UNKNOWN && full < VO_CONTAINER_LAST);

    /* 4 */

    name = vo_container_name(full);
    FUZZ_CHECK(name != NULL);

    if (full != VO_CONTAINER_UNKNOWN) {
        FUZZ_CHECK(vo_container_by_name(name, strlen(name)) == full);
    }

    /* 2, 3 */

    for (k = 0; k <= size; k++) {
        c = fuzz_sniff(data, k, 0);

        if (k < VO_SNIFF_BYTES) {
            FUZZ_CHECK(c == VO_CONTAINER_NEED_MORE || c == full);
            continue;
        }

        FUZZ_CHECK(c == full);
        FUZZ_CHECK(fuzz_sniff(data, k, 1) == full);
    }

    return 0;
}


static vo_container_t
fuzz_sniff(const uint8_t *data, size_t n, int complete)
{
    unsigned char   *copy;
    vo_container_t   c;

    copy = malloc(n ? n : 1);
    if (copy == NULL) {
        abort();
    }

    memcpy(copy, data, n);
    c = vo_sniff_container(copy, n, complete);
    free(copy);

    return c;
}
