/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The subcommands of video-ocr-worker.  Each takes the arguments after
 * its name (argv[0] is the subcommand's name) and returns the process
 * exit code; vw_main.c dispatches to them.  They live in vw_cmd_*.c, a
 * file per command or family of commands: vw_cmd_ocr.c, vw_cmd_run.c (the
 * pool), vw_cmd_admin.c (the operator's), vw_cmd_webhooks.c (the
 * operator's webhook commands).
 */

#ifndef _VW_CMD_H_INCLUDED_
#define _VW_CMD_H_INCLUDED_


#include <stdio.h>

#include "core/vw_core.h"


/* ocr FILE [options]: the pipeline on one file, the result on stdout. */
int vw_cmd_ocr(int argc, char **argv);

/* languages [--format json|text]: the installed Tesseract languages
 * (vw_cmd_ocr.c). */
int vw_cmd_languages(int argc, char **argv);

/* run --ledger FILE --store DIR [options]: the supervised worker pool;
 * child and janitor: the processes it execs (vw_cmd_run.c). */
int vw_cmd_run(int argc, char **argv);
int vw_cmd_child(int argc, char **argv);
int vw_cmd_janitor(int argc, char **argv);
int vw_cmd_deliverer(int argc, char **argv);

/* The operator's webhook commands (vw_cmd_webhooks.c). */
int vw_cmd_webhooks(int argc, char **argv);

/* The operator's commands (vw_cmd_admin.c). */
int vw_cmd_jobs(int argc, char **argv);
int vw_cmd_events(int argc, char **argv);
int vw_cmd_retry(int argc, char **argv);
int vw_cmd_abandon(int argc, char **argv);
int vw_cmd_explain(int argc, char **argv);

/* An operator's command opens the ledger (never creating or migrating
 * it); NULL after printing why (vw_cmd_admin.c). */
struct vo_ledger_s *vw_cmd_ledger(const char *spec);

/*
 * Option values (vw_cmd_args.c): a time ("30s", "500ms", "2m", "1h"; a
 * bare number is seconds) of min to max ms, a whole number of min to
 * max (both print why they refuse a value, naming the option), a size
 * ("4g", "512m", "64k" or bytes).  0, or -1.
 */
int vw_args_ms(const char *name, const char *v, int64_t min, int64_t max,
    int64_t *out);
int vw_args_int(const char *name, const char *v, long min, long max,
    long *out);
int vw_args_size(const char *v, int64_t *out);

/*
 * The ocr command's progress line on stderr, when stderr is a terminal
 * (vw_cmd_progress.c): init, then the plan once it is known, a call per
 * row done (sample: 1 for a sample's row, 0 for a look's between
 * samples), and erase before printing anything else on stderr or stdout.
 */
typedef struct {
    int       on;             /* stderr is a terminal */
    int       drawn;          /* a line is on it now */
    uint32_t  samples;        /* planned */
    uint32_t  done;           /* samples' rows seen */
    int64_t   duration_ms;    /* of the video, 0 if unknown */
    int64_t   pts_ms;         /* the furthest row's time */
    int64_t   started_ms;     /* monotonic, at the plan */
    int64_t   shown_ms;       /* monotonic, when last drawn */
} vw_progress_t;

void vw_progress_init(vw_progress_t *p);
void vw_progress_plan(vw_progress_t *p, uint32_t samples, int64_t duration_ms);
void vw_progress_row(vw_progress_t *p, int sample, int64_t pts_ms);
void vw_progress_erase(vw_progress_t *p);

/* Prints "video-ocr-worker: <status>: <code>: <message>" and returns the
 * exit code for err. */
int vw_cmd_report(const vw_err_t *err);


#endif /* _VW_CMD_H_INCLUDED_ */
