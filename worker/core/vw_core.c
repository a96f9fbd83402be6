/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The error record, the clocks and the log line (see vw_core.h).
 */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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


void
vw_log(const char *fmt, ...)
{
    char             line[1024];
    size_t           n;
    va_list          args;
    struct tm        tm;
    struct timespec  ts;

    (void) clock_gettime(CLOCK_REALTIME, &ts);
    (void) gmtime_r(&ts.tv_sec, &tm);

    n = strftime(line, sizeof(line), "%Y-%m-%dT%H:%M:%S", &tm);
    n += (size_t) snprintf(line + n, sizeof(line) - n, ".%03ldZ [%ld] ",
                           ts.tv_nsec / 1000000, (long) getpid());

    va_start(args, fmt);
    (void) vsnprintf(line + n, sizeof(line) - n - 1, fmt, args);
    va_end(args);

    n = strlen(line);
    line[n++] = '\n';

    /*
     * one write(2) per line: lines of several processes do not mix; a
     * failed one has nowhere to be reported (a cast to void does not
     * silence glibc's warn_unused_result under _FORTIFY_SOURCE)
     */
    if (write(STDERR_FILENO, line, n) == -1) {
        return;
    }
}


/* Leases are wall-clock times in the ledger, shared by many processes. */

int64_t
vw_wall_ms(void)
{
    struct timespec  ts;

    (void) clock_gettime(CLOCK_REALTIME, &ts);

    return (int64_t) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}


void
vw_sleep_ms(int64_t ms)
{
    struct timespec  ts;

    ts.tv_sec = ms / 1000;
    ts.tv_nsec = (ms % 1000) * 1000000;

    /* a signal ends it early, which is what a stopping process wants */
    (void) nanosleep(&ts, NULL);
}
