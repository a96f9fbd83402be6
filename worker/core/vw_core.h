/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * What every part of the worker may use, and nothing else: the error
 * record that says what failed, on which object and why (and whether a
 * retry can help), the clocks, and the log line.  It depends on no other
 * file of the worker.  libc only.
 */

#ifndef _VW_CORE_H_INCLUDED_
#define _VW_CORE_H_INCLUDED_


#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "vo_json.h"
#include "vo_version.h"


#define VW_VERSION        VO_VERSION

#define VW_CODE_MAX       32
#define VW_MSG_MAX        400

#define VW_PROG           "video-ocr-worker"

/* The exit codes of every process of the worker (sysexits.h values):
 * a command's result, and what the supervisor reads of a child's. */
#define VW_EXIT_OK        0
#define VW_EXIT_USAGE     64    /* bad flag or value */
#define VW_EXIT_REJECTED  65    /* invalid input: do not retry */
#define VW_EXIT_FAILED    70    /* internal or transient error */
#define VW_EXIT_CONFIG    78    /* configuration: the pool must not
                                   respawn a child that exits so */

#if defined(__GNUC__)
#define VW_PRINTF(f, a)   __attribute__((format(printf, f, a)))
#else
#define VW_PRINTF(f, a)
#endif


/*
 * The outcome of a stage.  REJECTED means the input can never succeed
 * (a job goes to "rejected", the CLI exits 65); FAILED means something
 * on our side or in the environment went wrong and a retry may succeed
 * (a job is retried, the CLI exits 70); STOPPED means a hook asked the
 * run to stop (lease lost, shutdown).
 */
typedef enum {
    VW_OK = 0,
    VW_REJECTED,
    VW_FAILED,
    VW_STOPPED
} vw_status_t;


/*
 * code is a stable machine word ("truncated", "too_large", ...; for
 * FAILED "internal", "io", "no_memory"); msg is one sentence for a
 * person: 'inspect "x.mp4": unsupported codec "prores"; re-encode ...'.
 * Both are always NUL-terminated.
 */
typedef struct {
    vw_status_t  status;
    char         code[VW_CODE_MAX];
    char         msg[VW_MSG_MAX];
} vw_err_t;


/* Resets e to VW_OK with empty code and message. */
void vw_err_clear(vw_err_t *e);

/* Fill e and return -1, so that callers can "return vw_reject(...)". */
int vw_reject(vw_err_t *e, const char *code, const char *fmt, ...)
    VW_PRINTF(3, 4);
int vw_fail(vw_err_t *e, const char *code, const char *fmt, ...)
    VW_PRINTF(3, 4);
int vw_stop(vw_err_t *e, const char *fmt, ...) VW_PRINTF(2, 3);

/* "rejected", "failed", ... */
const char *vw_status_name(vw_status_t s);


/* The growable buffer is the one the module uses too: vo_buf_t,
 * lib/vo_json.h. */


/*
 * Polled by long-running stages (between packets, between words being
 * recognised); a non-zero return asks the stage to stop.
 */
typedef int (*vw_poll_pt)(void *data);


/* Milliseconds of CLOCK_MONOTONIC. */
int64_t vw_now_ms(void);

/* Microseconds of CPU time used by this process (user + system). */
int64_t vw_cpu_us(void);

/* Wall-clock milliseconds (leases and ledger times) and an interruptible
 * sleep (a signal ends it early). */
int64_t vw_wall_ms(void);
void vw_sleep_ms(int64_t ms);

/* One log line on stderr: time, pid, then the message. */
void vw_log(const char *fmt, ...) VW_PRINTF(1, 2);


#endif /* _VW_CORE_H_INCLUDED_ */
