/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Fuzz target: the reader of published results (lib/vo_result.c) that
 * the search index reads every segment's text with.  The input is read
 * twice: as a result document as it is, and as a segment's text that
 * lib/vo_json.c (the writer every result goes through) puts into a
 * document.  Invariants checked:
 *
 *   1. vo_result_segments answers 0 or -1 (a refusal with a sentence),
 *      and its callback sees the segments in order from 0, each an
 *      object ('{' to '}') inside the document, each text
 *      NUL-terminated at its length;
 *   2. vo_result_member answers 0, 1 or -1, a value inside the
 *      document;
 *   3. a string literal that is valid JSON (fuzz_check.c's own decoder
 *      says so) decodes to the same bytes as that decoder's;
 *   4. a text written by vo_json_str into a result reads back as the
 *      text, each byte that starts no well-formed UTF-8 sequence as
 *      U+FFFD, and the segment's object is exactly what was written.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"
#include "vo_result.h"


typedef struct {
    const char  *doc;
    size_t       len;
    size_t       next;
    const char  *want;          /* 4: the text expected, or NULL */
    size_t       want_len;
    const char  *obj;           /* 4: the object expected */
    size_t       obj_len;
} fuzz_result_t;


static int fuzz_result_seen(void *data, size_t index, const char *obj,
    size_t obj_len, const char *text, size_t text_len);
static void fuzz_result_written(const uint8_t *data, size_t size);


int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int             rc;
    char            err[256], *out;
    size_t          n, got;
    vo_buf_t        b;
    const char     *v;
    fuzz_result_t   r;

    if (size > 65536) {
        return 0;
    }

    /* 1 */

    memset(&r, 0, sizeof(r));
    r.doc = (const char *) data;
    r.len = size;

    memset(err, 'x', sizeof(err));
    rc = vo_result_segments(r.doc, size, fuzz_result_seen, &r, err,
                            sizeof(err));

    FUZZ_CHECK(rc == 0 || rc == -1);

    if (rc == -1) {
        FUZZ_CHECK(memchr(err, '\0', sizeof(err)) != NULL && err[0] != '\0');
    }

    /* 2 */

    rc = vo_result_member(r.doc, size, "frame_size", &v, &n);
    FUZZ_CHECK(rc == 0 || rc == 1 || rc == -1);

    if (rc == 0) {
        FUZZ_CHECK(v >= r.doc && v + n <= r.doc + size && n > 0);
    }

    /* 3 */

    out = malloc(size ? size : 1);
    if (out == NULL) {
        abort();
    }

    got = fuzz_json_unquote(r.doc, size, out);

    if (got != (size_t) -1) {
        vo_buf_init(&b);
        FUZZ_CHECK(vo_result_string(r.doc, size, &b) == 0);
        FUZZ_CHECK(vo_buf_ok(&b));
        FUZZ_CHECK(b.len == got
                   && (got == 0 || memcmp(b.data, out, got) == 0));
        vo_buf_free(&b);
    }

    free(out);

    /* 4 */

    fuzz_result_written(data, size);

    return 0;
}


static int
fuzz_result_seen(void *data, size_t index, const char *obj, size_t obj_len,
    const char *text, size_t text_len)
{
    fuzz_result_t  *r = data;

    FUZZ_CHECK(index == r->next);
    r->next++;

    FUZZ_CHECK(obj >= r->doc && obj + obj_len <= r->doc + r->len);
    FUZZ_CHECK(obj_len >= 2 && obj[0] == '{' && obj[obj_len - 1] == '}');
    FUZZ_CHECK(text[text_len] == '\0');

    if (r->want != NULL) {
        FUZZ_CHECK(index == 0);
        FUZZ_CHECK(text_len == r->want_len
                   && memcmp(text, r->want, text_len) == 0);
        FUZZ_CHECK(obj == r->obj && obj_len == r->obj_len);
    }

    return 0;
}


static void
fuzz_result_written(const uint8_t *data, size_t size)
{
    int             rc;
    char            err[256], *want;
    size_t          i, k, wn, at;
    uint32_t        cp;
    vo_buf_t        doc;
    fuzz_result_t   r;

    want = malloc(3 * size + 1);
    if (want == NULL) {
        abort();
    }

    wn = 0;

    for (i = 0; i < size; i += k) {
        k = fuzz_utf8_seq(data + i, size - i, &cp);

        if (k == 0) {
            memcpy(want + wn, "\xef\xbf\xbd", 3);
            wn += 3;
            k = 1;

        } else {
            memcpy(want + wn, data + i, k);
            wn += k;
        }
    }

    vo_buf_init(&doc);
    vo_buf_adds(&doc, "{\"frame_size\":[2,2],\"segments\":[");
    at = doc.len;
    vo_buf_adds(&doc, "{\"start\":0,\"end\":1.5,\"text\":");
    vo_json_str(&doc, (const char *) data, size);
    vo_buf_adds(&doc, ",\"box\":null}");
    k = doc.len;
    vo_buf_adds(&doc, "]}");

    FUZZ_CHECK(vo_buf_ok(&doc));

    memset(&r, 0, sizeof(r));
    r.doc = doc.data;
    r.len = doc.len;
    r.want = want;
    r.want_len = wn;
    r.obj = doc.data + at;
    r.obj_len = k - at;

    rc = vo_result_segments(doc.data, doc.len, fuzz_result_seen, &r, err,
                            sizeof(err));

    FUZZ_CHECK(rc == 0 && r.next == 1);

    vo_buf_free(&doc);
    free(want);
}
