/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * What the ledger's work for one admission costs in CPU, without the
 * disk's flushes: BATCHES batches of SIZE new admissions (distinct keys,
 * time-ordered job ids, as the module makes them) committed through
 * vo_ledger_admit_batch() into a new SQLite ledger at PATH, with
 * synchronous=NORMAL (the WAL is written, not fsync'd).  Prints the
 * process's CPU time and the wall time per admission over the second
 * half of the batches (the first half fills the B-trees).
 *
 * SQL, if given, runs on the new ledger before the batches: a change to
 * the schema to measure, e.g. "DROP TRIGGER events_counted"
 * (docs/benchmarks.md, "Where the time goes at 4 KiB").
 *
 *   make worker
 *   cc -O2 -Isql -Ilib -o build/sqlcost bench/admission/sqlcost.c \
 *       build/worker/vo_ledger*.o build/worker/vo_json.o \
 *       build/worker/vo_webhook.o -lsqlite3 -lpq -lcrypto -lpthread
 *   build/sqlcost PATH [BATCHES [SIZE [SQL]]]
 *
 * PATH must not exist; it is removed (with its -wal and -shm) at the end.
 *
 * SQLCOST_WEBHOOK=URL gives every job a webhook endpoint, as
 * video_ocr_webhook does (one endpoint row, looked up per admission);
 * SQLCOST_ACCEPTED=1 also writes its job.accepted notification, as
 * video_ocr_webhook_accepted on does (docs/benchmarks.md).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "vo_ledger.h"


#define DIGEST                                                               \
    "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"


static double
clock_ms(clockid_t id)
{
    struct timespec  t;

    clock_gettime(id, &t);

    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}


static int
open_ledger(const char *path, vo_ledger_t **l)
{
    char              err[VO_ERR_TEXT];
    vo_ledger_conf_t  conf = { 5000, 0, 1 };

    if (vo_ledger_open(path, &conf, l, err, sizeof(err)) != VO_LEDGER_OK) {
        fprintf(stderr, "sqlcost: %s\n", err);
        return -1;
    }

    return 0;
}


static int
run_sql(const char *path, const char *sql)
{
    int       rc;
    char     *msg;
    sqlite3  *db;

    msg = NULL;
    rc = sqlite3_open(path, &db);

    if (rc == SQLITE_OK) {
        rc = sqlite3_exec(db, sql, NULL, NULL, &msg);
    }

    if (rc != SQLITE_OK) {
        fprintf(stderr, "sqlcost: %s: %s\n", sql,
                msg ? msg : sqlite3_errmsg(db));
    }

    sqlite3_free(msg);
    (void) sqlite3_close(db);

    return rc == SQLITE_OK ? 0 : -1;
}


static void
remove_ledger(const char *path)
{
    char  p[4096];

    (void) unlink(path);
    snprintf(p, sizeof(p), "%s-wal", path);
    (void) unlink(p);
    snprintf(p, sizeof(p), "%s-shm", path);
    (void) unlink(p);
}


int
main(int argc, char **argv)
{
    int               b, i, batches, size, half, accepted;
    char              keys[VO_ADMIT_BATCH_MAX][40];
    const char       *hook;
    char              ids[VO_ADMIT_BATCH_MAX][40];
    char              paths[VO_ADMIT_BATCH_MAX][64];
    char              errs[VO_ADMIT_BATCH_MAX][VO_ERR_TEXT];
    double            cpu0, wall0, cpu, wall;
    int64_t           now;
    vo_ledger_t      *l;
    vo_receipt_t      receipts[VO_ADMIT_BATCH_MAX];
    vo_admission_t    a[VO_ADMIT_BATCH_MAX];
    vo_admit_item_t   items[VO_ADMIT_BATCH_MAX], *batch[VO_ADMIT_BATCH_MAX];
    unsigned long     seq;

    if (argc < 2) {
        fprintf(stderr, "usage: sqlcost PATH [BATCHES [SIZE [SQL]]]\n");
        return 2;
    }

    hook = getenv("SQLCOST_WEBHOOK");
    accepted = getenv("SQLCOST_ACCEPTED") != NULL;

    batches = argc > 2 ? atoi(argv[2]) : 10000;
    size = argc > 3 ? atoi(argv[3]) : 6;

    if (batches < 2 || size < 1 || size > VO_ADMIT_BATCH_MAX) {
        fprintf(stderr, "sqlcost: BATCHES must be at least 2, SIZE 1 to "
                "%d\n", VO_ADMIT_BATCH_MAX);
        return 2;
    }

    if (access(argv[1], F_OK) == 0) {
        fprintf(stderr, "sqlcost: %s exists: give a new path\n", argv[1]);
        return 2;
    }

    if (open_ledger(argv[1], &l) != 0) {
        return 1;
    }

    if (argc > 4) {
        vo_ledger_close(l);

        if (run_sql(argv[1], argv[4]) != 0 || open_ledger(argv[1], &l) != 0)
        {
            remove_ledger(argv[1]);
            return 1;
        }
    }

    srandom(42);
    seq = 0;
    half = batches / 2;
    cpu0 = wall0 = 0;

    for (b = 0; b < batches; b++) {

        if (b == half) {
            cpu0 = clock_ms(CLOCK_PROCESS_CPUTIME_ID);
            wall0 = clock_ms(CLOCK_MONOTONIC);
        }

        now = (int64_t) clock_ms(CLOCK_REALTIME);

        for (i = 0; i < size; i++) {
            seq++;

            snprintf(keys[i], sizeof(keys[i]), "%08lx%08lx%08lx%08lx",
                     random(), random(), random(), random());
            snprintf(ids[i], sizeof(ids[i]), "%012llx%08lx%012lx",
                     (unsigned long long) now, random(), seq);
            snprintf(paths[i], sizeof(paths[i]), "%.2s/%s.video",
                     ids[i] + VO_JOB_ID_LEN - 2, ids[i]);

            memset(&a[i], 0, sizeof(vo_admission_t));
            a[i].tenant = "anonymous";
            a[i].tenant_len = 9;
            a[i].key = keys[i];
            a[i].key_len = 32;
            a[i].input_digest = DIGEST;
            a[i].job_id = ids[i];
            a[i].options = "{\"crop\":null,\"fps\":1,\"lang\":\"eng\"}";
            a[i].input_path = paths[i];
            a[i].input_size = 4096;
            a[i].input_sha256 = DIGEST;
            a[i].container = "mp4";
            a[i].now_ms = now;
            a[i].receipt_ttl_ms = 86400000;
            a[i].max_attempts = 3;

            if (hook != NULL) {
                a[i].webhook_url = hook;
                a[i].webhook_url_len = strlen(hook);
                a[i].webhook_secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
                a[i].webhook_secret_len = 38;
                a[i].webhook_accepted = accepted;
                a[i].status_url = paths[i];
                a[i].status_url_len = strlen(paths[i]);
            }

            items[i].admission = &a[i];
            items[i].receipt = &receipts[i];
            items[i].err = errs[i];
            items[i].err_size = sizeof(errs[i]);
            batch[i] = &items[i];
        }

        if (vo_ledger_admit_batch(l, batch, size) != VO_LEDGER_OK) {
            fprintf(stderr, "sqlcost: batch %d: %s\n", b, errs[0]);
            goto failed;
        }

        for (i = 0; i < size; i++) {
            if (items[i].rc != VO_LEDGER_OK
                || receipts[i].outcome != VO_ADMIT_CREATED)
            {
                fprintf(stderr, "sqlcost: batch %d, item %d not created: "
                        "%s\n", b, i, errs[i]);
                goto failed;
            }
        }
    }

    cpu = clock_ms(CLOCK_PROCESS_CPUTIME_ID) - cpu0;
    wall = clock_ms(CLOCK_MONOTONIC) - wall0;
    i = (batches - half) * size;

    printf("%d admissions in batches of %d: %.1f us CPU, %.1f us wall "
           "each\n", i, size, cpu * 1e3 / i, wall * 1e3 / i);

    vo_ledger_close(l);
    remove_ledger(argv[1]);

    return 0;

failed:

    vo_ledger_close(l);
    remove_ledger(argv[1]);

    return 1;
}
