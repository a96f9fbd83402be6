/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * A growable byte buffer with the few JSON writers that receipts, job
 * status, problems and results are rendered with (by the ledger, the
 * module and the worker).  Plain C, malloc'd memory:
 * usable from nginx's thread pool (where the pool allocator is off limits)
 * and from the worker.  A failed allocation latches vo_buf_t.failed, so a
 * writer can append freely and check once at the end (vo_buf_ok).  While
 * nothing failed, data is NUL-terminated once anything was added.
 */

#ifndef _VO_JSON_H_INCLUDED_
#define _VO_JSON_H_INCLUDED_


#include <stddef.h>
#include <stdint.h>


typedef struct {
    char    *data;
    size_t   len;
    size_t   cap;
    int      failed;
} vo_buf_t;


void vo_buf_init(vo_buf_t *b);
void vo_buf_free(vo_buf_t *b);

/* Empties the buffer, keeping its memory; clears a failure. */
void vo_buf_reset(vo_buf_t *b);

/* 1 when every append so far succeeded. */
int vo_buf_ok(const vo_buf_t *b);

/* Hands the bytes over to the caller (free() them); the buffer is reset. */
char *vo_buf_detach(vo_buf_t *b, size_t *len);

void vo_buf_add(vo_buf_t *b, const void *p, size_t n);
void vo_buf_adds(vo_buf_t *b, const char *s);
void vo_buf_addc(vo_buf_t *b, char c);
void vo_buf_printf(vo_buf_t *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* A JSON string literal, quotes included; invalid UTF-8 becomes U+FFFD. */
void vo_json_str(vo_buf_t *b, const char *s, size_t n);

/* A JSON string or null when s is NULL. */
void vo_json_strz(vo_buf_t *b, const char *s);

/* An RFC 3339 UTC time with milliseconds, quoted; null when ms < 0. */
void vo_json_time(vo_buf_t *b, int64_t ms);


#endif /* _VO_JSON_H_INCLUDED_ */
