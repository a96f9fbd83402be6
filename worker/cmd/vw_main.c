/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * video-ocr-worker: the subcommand dispatch.  Each subcommand is listed
 * in vw_commands below; vw_cmd.h says which vw_cmd_*.c file has it.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vo_ledger.h"
#include "vw_cmd.h"


typedef struct {
    const char  *name;
    int        (*run)(int argc, char **argv);
    const char  *summary;
} vw_command_t;


static const vw_command_t  vw_commands[] = {
    { "ocr", vw_cmd_ocr, "read the text of one video file, print it" },
    { "languages", vw_cmd_languages,
      "the installed OCR languages (what lang may name)" },
    { "run", vw_cmd_run, "run the worker pool on a ledger and a store" },
    { "child", vw_cmd_child, "one child of the pool (started by run)" },
    { "janitor", vw_cmd_janitor,
      "expiry and retention of the pool (started by run)" },
    { "deliverer", vw_cmd_deliverer,
      "webhook deliveries of the pool (started by run)" },
    { "jobs", vw_cmd_jobs, "list jobs: --state, --stuck, --tenant" },
    { "events", vw_cmd_events, "print a job's audit trail" },
    { "retry", vw_cmd_retry,
      "put a failed, rejected or stuck job back in line" },
    { "abandon", vw_cmd_abandon, "end an unfinished job as failed" },
    { "explain", vw_cmd_explain,
      "the query plan of every statement of the ledger" },
    { "webhooks", vw_cmd_webhooks,
      "endpoints and notifications: list, add, rotate-secret, ..." },
    { NULL, NULL, NULL }
};


static void vw_main_threads(char **argv);
static void vw_main_usage(FILE *out);


int
main(int argc, char **argv)
{
    const vw_command_t  *c;

    vw_main_threads(argv);

    if (argc < 2) {
        vw_main_usage(stderr);
        return VW_EXIT_USAGE;
    }

    if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0
        || strcmp(argv[1], "help") == 0)
    {
        vw_main_usage(stdout);
        return VW_EXIT_OK;
    }

    if (strcmp(argv[1], "--version") == 0) {
        printf(VW_PROG " " VW_VERSION "\n");
        return VW_EXIT_OK;
    }

    /* as nginx -V: the version, then what this build can do */
    if (strcmp(argv[1], "-V") == 0) {
        printf(VW_PROG " " VW_VERSION "\nledgers: %s\n", vo_ledger_kinds);
        return VW_EXIT_OK;
    }

    for (c = vw_commands; c->name != NULL; c++) {
        if (strcmp(argv[1], c->name) == 0) {
            return c->run(argc - 1, argv + 1);
        }
    }

    fprintf(stderr, VW_PROG ": unknown command \"%s\"\n", argv[1]);
    vw_main_usage(stderr);

    return VW_EXIT_USAGE;
}


/*
 * Tesseract's OpenMP runtime (libgomp) reads OMP_THREAD_LIMIT when it is
 * loaded, before main(): setting it now would be too late for this
 * process.  When it is unset, set it to 1 and exec ourselves once, so
 * one worker process uses one core whatever starts it.  An explicit
 * value is respected.
 */
static void
vw_main_threads(char **argv)
{
    if (getenv("OMP_THREAD_LIMIT") != NULL) {
        return;
    }

    if (setenv("OMP_THREAD_LIMIT", "1", 1) != 0) {
        return;
    }

    (void) execv("/proc/self/exe", argv);

    /* no /proc: carry on; Tesseract may use more threads */
}


static void
vw_main_usage(FILE *out)
{
    const vw_command_t  *c;

    fprintf(out, "usage: " VW_PROG " COMMAND [options]\n\ncommands:\n");

    for (c = vw_commands; c->name != NULL; c++) {
        fprintf(out, "  %-9s %s\n", c->name, c->summary);
    }

    fprintf(out, "\n" VW_PROG " COMMAND --help tells more; "
            VW_PROG " --version prints the version, -V also what the "
            "build can do.\n");
}
