/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The error record, the growable buffer and the clocks (see vw_core.h).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vw_core.h"


static int vw_err_set(vw_err_t *e, vw_status_t status, const char *code,
    const char *fmt, va_list ap);


void
vw_err_clear(vw_err_t *e)
{
    e->status = VW_OK;
    e->code[0] = '\0';
    e->msg[0] = '\0';
}


int
vw_reject(vw_err_t *e, const char *code, const char *fmt, ...)
{
    va_list  ap;

    va_start(ap, fmt);
    (void) vw_err_set(e, VW_REJECTED, code, fmt, ap);
    va_end(ap);

    return -1;
}


int
vw_fail(vw_err_t *e, const char *code, const char *fmt, ...)
{
    va_list  ap;

    va_start(ap, fmt);
    (void) vw_err_set(e, VW_FAILED, code, fmt, ap);
    va_end(ap);

    return -1;
}


int
vw_stop(vw_err_t *e, const char *fmt, ...)
{
    va_list  ap;

    va_start(ap, fmt);
    (void) vw_err_set(e, VW_STOPPED, "stopped", fmt, ap);
    va_end(ap);

    return -1;
}


const char *
vw_status_name(vw_status_t s)
{
    switch (s) {
    case VW_OK:
        return "ok";
    case VW_REJECTED:
        return "rejected";
    case VW_FAILED:
        return "failed";
    case VW_STOPPED:
        return "stopped";
    }

    return "unknown";
}


static int
vw_err_set(vw_err_t *e, vw_status_t status, const char *code,
    const char *fmt, va_list ap)
{
    e->status = status;
    snprintf(e->code, sizeof(e->code), "%s", code);
    vsnprintf(e->msg, sizeof(e->msg), fmt, ap);

    return -1;
}


void
vw_buf_init(vw_buf_t *b)
{
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
    b->oom = 0;
}


void
vw_buf_free(vw_buf_t *b)
{
    free(b->data);
    vw_buf_init(b);
}


void
vw_buf_reset(vw_buf_t *b)
{
    b->len = 0;
    b->oom = 0;

    if (b->data != NULL) {
        b->data[0] = '\0';
    }
}


static int
vw_buf_reserve(vw_buf_t *b, size_t n)
{
    size_t   cap;
    char    *p;

    if (b->oom) {
        return -1;
    }

    if (b->len + n + 1 <= b->cap) {
        return 0;
    }

    cap = b->cap ? b->cap : 256;

    while (cap < b->len + n + 1) {
        if (cap > (size_t) -1 / 2) {
            b->oom = 1;
            return -1;
        }

        cap *= 2;
    }

    p = realloc(b->data, cap);
    if (p == NULL) {
        b->oom = 1;
        return -1;
    }

    b->data = p;
    b->cap = cap;

    return 0;
}


void
vw_buf_add(vw_buf_t *b, const void *p, size_t n)
{
    if (vw_buf_reserve(b, n) != 0) {
        return;
    }

    if (n) {
        memcpy(b->data + b->len, p, n);
    }

    b->len += n;
    b->data[b->len] = '\0';
}


void
vw_buf_adds(vw_buf_t *b, const char *s)
{
    vw_buf_add(b, s, strlen(s));
}


void
vw_buf_addc(vw_buf_t *b, char c)
{
    vw_buf_add(b, &c, 1);
}


void
vw_buf_addf(vw_buf_t *b, const char *fmt, ...)
{
    int      n;
    va_list  ap;

    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);

    if (n < 0) {
        b->oom = 1;
        return;
    }

    if (vw_buf_reserve(b, (size_t) n) != 0) {
        return;
    }

    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t) n + 1, fmt, ap);
    va_end(ap);

    b->len += (size_t) n;
}


int
vw_buf_ok(const vw_buf_t *b)
{
    return !b->oom;
}


int64_t
vw_now_ms(void)
{
    struct timespec  ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);

    return (int64_t) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}


int64_t
vw_cpu_us(void)
{
    struct timespec  ts;

    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);

    return (int64_t) ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}
