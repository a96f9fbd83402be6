/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Reading a published result (the "json" format of docs/http-api.md, as
 * the worker writes it, or as older workers did): its segments and
 * top-level members, for the search index (sql/vo_ledger_search.c) and
 * its hits.  Not a general JSON parser: it walks one object and one
 * array of objects, takes strings apart and skips every other value by
 * its brackets, in one pass, without recursion; any input is safe (the
 * fuzz target fuzz/fuzz_result.c), a malformed one is refused.  Plain
 * C, libc only.
 */

#ifndef _VO_RESULT_H_INCLUDED_
#define _VO_RESULT_H_INCLUDED_


#include <stddef.h>

#include "vo_json.h"


/*
 * One segment: its index in "segments", the object as it is in the
 * document (from '{' to '}'), and its "text" decoded (UTF-8, NUL
 * terminated; "" when it has none).  Non-zero stops the walk.
 */
typedef int (*vo_result_segment_pt)(void *data, size_t index,
    const char *obj, size_t obj_len, const char *text, size_t text_len);


/*
 * Calls cb for each element of the top-level "segments" array of
 * doc[0, len), in order (none when the member is missing or null).  0,
 * or -1 with a sentence in err when doc is not an object of that shape
 * (a segment that is not an object, a string with a bad escape, ...) or
 * memory ran out.  What cb saw before the fault stays seen.
 */
int vo_result_segments(const char *doc, size_t len, vo_result_segment_pt cb,
    void *data, char *err, size_t err_size);

/*
 * The value of the top-level member name, as it is in doc (*val,
 * *val_len).  0 when found, 1 when doc has no such member, -1 when doc
 * is not a JSON object.
 */
int vo_result_member(const char *doc, size_t len, const char *name,
    const char **val, size_t *val_len);

/*
 * A JSON string literal p[0, n) (quotes included) decoded into out:
 * escapes resolved, a lone surrogate as U+FFFD.  0, or -1 when it is
 * not a well-formed string.
 */
int vo_result_string(const char *p, size_t n, vo_buf_t *out);


#endif /* _VO_RESULT_H_INCLUDED_ */
