/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * A test helper (VideoOCR::Test::publish_result): publishes a given
 * result for a job an upload made, through the ledger's own publish
 * (vo_ledger_publish, what video-ocr-worker calls once a video is read),
 * so that the nginx suite can search texts it chose without OCR.  The
 * job is taken as a worker's claim would leave it (running, attempt + 1)
 * and the result published under that attempt: the fence, the index,
 * the outbox row, all as the worker does.
 *
 *   publish LEDGER JOB_ID < result.json     prints "published <job>"
 *   publish LEDGER JOB_ID stale < result.json
 *                                  the same under the attempt before the
 *                                  one that holds the job: prints
 *                                  "refused <job>" when it is refused
 *
 * Built by the test from the worker's objects (build/worker).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vo_ledger.h"
#include "vo_ledger_int.h"


int
main(int argc, char **argv)
{
    int                  rc, stale;
    char                 err[VO_ERR_TEXT], *doc;
    size_t               n, cap;
    int64_t              now;
    vo_stmt_t           *s;
    vo_claim_t           c;
    vo_ledger_t         *l;
    struct timespec      ts;
    vo_ledger_conf_t     conf = { 5000, 0, 0 };
    vo_result_body_t     b[2];
    vo_attempt_stats_t   st;

    stale = (argc == 4 && strcmp(argv[3], "stale") == 0);

    if (argc != 3 && !stale) {
        fprintf(stderr, "usage: publish LEDGER JOB_ID [stale] "
                "< result.json\n");
        return 2;
    }

    cap = 1 << 16;
    n = 0;
    doc = malloc(cap);

    while (doc != NULL && (rc = (int) fread(doc + n, 1, cap - n, stdin)) > 0)
    {
        n += (size_t) rc;

        if (n == cap) {
            cap *= 2;
            doc = realloc(doc, cap);
        }
    }

    if (doc == NULL) {
        fprintf(stderr, "publish: out of memory\n");
        return 1;
    }

    clock_gettime(CLOCK_REALTIME, &ts);
    now = (int64_t) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;

    if (vo_ledger_open(argv[1], &conf, &l, err, sizeof(err))
        != VO_LEDGER_OK)
    {
        fprintf(stderr, "publish: %s\n", err);
        return 1;
    }

    /* what a claim leaves: running, the next attempt, a lease */

    s = vo_ledger_prepare(l, "UPDATE jobs SET state = 'running',"
                          " attempt = attempt + 1, lease_owner = 'test',"
                          " lease_expires_at = ?2,"
                          " started_at = coalesce(started_at, ?2),"
                          " updated_at = ?2"
                          " WHERE job_id = ?1"
                          " AND state IN ('accepted', 'running')"
                          " RETURNING attempt, tenant", err, sizeof(err));
    if (s == NULL) {
        fprintf(stderr, "publish: %s\n", err);
        return 1;
    }

    vo_bind_text(s, 1, argv[2], -1);
    vo_bind_int(s, 2, now + 60000);

    if (vo_step(s) != VO_ROW) {
        fprintf(stderr, "publish: job %s is not waiting or running: %s\n",
                argv[2], vo_ledger_errmsg(l));
        return 1;
    }

    memset(&c, 0, sizeof(c));
    snprintf(c.job_id, sizeof(c.job_id), "%s", argv[2]);
    c.attempt = (int) vo_column_int64(s, 0) - stale;
    vo_ledger_copy_text(c.tenant, sizeof(c.tenant), s, 1);

    vo_stmt_finalize(s);

    memset(&st, 0, sizeof(st));
    st.step = "publish";
    st.claim_ms = -1;

    b[0].format = "json";
    b[0].body = doc;
    b[0].len = n;
    b[1].format = "txt";
    b[1].body = "";
    b[1].len = 0;

    rc = vo_ledger_publish(l, &c, b, 2, &st, now, err, sizeof(err));

    if (stale) {
        printf("%s %s\n", rc == VO_LEDGER_STALE ? "refused" : "published",
               c.job_id);
        return rc == VO_LEDGER_STALE ? 0 : 1;
    }

    if (rc != VO_LEDGER_OK) {
        fprintf(stderr, "publish: %s\n", err);
        return 1;
    }

    printf("published %s\n", c.job_id);

    vo_ledger_close(l);
    free(doc);

    return 0;
}
