/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * One claiming child of the backlog benchmark (bench/backlog/run.sh):
 * for SECONDS it claims a job with vo_ledger_claim(), as a worker child
 * does, and finishes it at once with vo_ledger_publish() (one small
 * result), so the claim and publish statements run against whatever
 * backlog the ledger holds, without media work.  Then it prints one
 * line: claims, and the claim latency's p50, p99 and max in ms (each
 * claim timed alone: BEGIN to COMMIT), and how many claims found
 * nothing (it then waits 10 ms, as a child polls).  Between a claim and
 * its publish it waits WORK_MS (default 20), the work of a short job,
 * so that it claims at the same pace whatever the backlog.  With OUT,
 * every claim's latency (ms) is also written there, a line each.
 *
 *   make worker
 *   cc -O2 -Isql -Ilib -o build/claimer bench/backlog/claimer.c \
 *       build/worker/vo_ledger*.o build/worker/vo_json.o \
 *       build/worker/vo_webhook.o build/worker/vo_upload.o \
 *       -lsqlite3 -lpq -lcrypto -lpthread
 *   build/claimer LEDGER SECONDS NAME [OUT]
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "vo_ledger.h"


static double
now_ms(void)
{
    struct timespec  t;

    clock_gettime(CLOCK_MONOTONIC, &t);

    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}


static int64_t
wall_ms(void)
{
    struct timespec  t;

    clock_gettime(CLOCK_REALTIME, &t);

    return (int64_t) t.tv_sec * 1000 + t.tv_nsec / 1000000;
}


static int
cmp(const void *a, const void *b)
{
    double  x = *(const double *) a, y = *(const double *) b;

    return (x > y) - (x < y);
}


int
main(int argc, char **argv)
{
    int                 work_us;
    char                err[VO_ERR_TEXT], owner[64];
    FILE               *out;
    double              t0, t, end, *lat;
    size_t              n, cap, empty;
    vo_claim_t          c;
    vo_ledger_t        *l;
    vo_ledger_rc_t      lrc;
    vo_ledger_conf_t    conf = { 10000, 0, 0 };
    vo_result_body_t    body = { "json", "{\"segments\":[]}", 15 };
    vo_attempt_stats_t  st;

    if (argc != 4 && argc != 5) {
        fprintf(stderr, "usage: claimer LEDGER SECONDS NAME [OUT]\n");
        return 64;
    }

    work_us = (getenv("WORK_MS") ? atoi(getenv("WORK_MS")) : 20) * 1000;

    if (vo_ledger_open(argv[1], &conf, &l, err, sizeof(err))
        != VO_LEDGER_OK)
    {
        fprintf(stderr, "claimer: %s\n", err);
        return 1;
    }

    snprintf(owner, sizeof(owner), "bench:%d/%s", (int) getpid(), argv[3]);
    memset(&st, 0, sizeof(st));
    st.step = "publish";

    cap = 1 << 16;
    lat = malloc(cap * sizeof(double));
    n = 0;
    empty = 0;

    end = now_ms() + atof(argv[2]) * 1000;

    while ((t0 = now_ms()) < end && lat != NULL) {
        lrc = vo_ledger_claim(l, owner, wall_ms(), 60000, NULL, &c, err,
                              sizeof(err));
        t = now_ms() - t0;

        if (lrc == VO_LEDGER_NOT_FOUND) {
            empty++;
            usleep(10000);
            continue;
        }

        if (lrc != VO_LEDGER_OK) {
            fprintf(stderr, "claimer: claim: %s\n", err);
            continue;
        }

        if (n == cap) {
            cap *= 2;
            lat = realloc(lat, cap * sizeof(double));
            if (lat == NULL) {
                break;
            }
        }

        lat[n++] = t;

        if (work_us > 0) {
            usleep(work_us);
        }

        if (vo_ledger_publish(l, &c, &body, 1, &st, wall_ms(), err,
                              sizeof(err))
            != VO_LEDGER_OK)
        {
            fprintf(stderr, "claimer: publish: %s\n", err);
        }
    }

    if (lat == NULL) {
        fprintf(stderr, "claimer: out of memory\n");
        return 1;
    }

    if (argc == 5 && (out = fopen(argv[4], "w")) != NULL) {
        for (size_t i = 0; i < n; i++) {
            fprintf(out, "%.4f\n", lat[i]);
        }

        fclose(out);
    }

    qsort(lat, n, sizeof(double), cmp);

    printf("CLAIMER name=%s claims=%zu empty=%zu p50_ms=%.3f p99_ms=%.3f"
           " max_ms=%.3f\n", argv[3], n, empty,
           n ? lat[n / 2] : 0.0, n ? lat[(size_t) (n * 0.99)] : 0.0,
           n ? lat[n - 1] : 0.0);

    free(lat);
    vo_ledger_close(l);

    return 0;
}
