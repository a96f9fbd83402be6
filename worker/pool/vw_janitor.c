/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The janitor: one child of the pool ("video-ocr-worker janitor") that,
 * every --janitor-interval,
 *
 *   1. forgets receipts past their expires_at (nginx's
 *      video_ocr_receipt_ttl): the same Idempotency-Key is new intent
 *      from then on;
 *   2. deletes the stored input and the frame rows of jobs finished more
 *      than --media-retention ago (their results stay);
 *   3. forgets resumable uploads past their expiry: an incomplete one
 *      (nobody appended for video_ocr_upload_ttl) loses its row, then
 *      its partial file, with an upload_expired event; a completed one,
 *      whose receipt has expired, its row;
 *   4. less often (every --orphan-age / 2), removes store files no job
 *      keeps: an upload placed by an nginx that died before its commit,
 *      or the input of a deleted job whose unlink failed; the partial
 *      files of resumable uploads no row names (a janitor or a creation
 *      that died between the row and the file); and the client
 *      body temp files an nginx worker killed outright leaves in
 *      <store>/.incoming (the recommended client_body_temp_path), which
 *      nginx itself never removes.  Only files older than --orphan-age
 *      are touched, so an upload in flight is never raced (invariant 9
 *      of sql/schema.sql).
 *
 *   5. retention: the frame rows of jobs done more than
 *      --frame-retention ago, then jobs finished more than
 *      --job-retention ago whose media is gone (results, delivered or
 *      failed notifications with them; none that a notification still
 *      waits for), then events older than --event-retention (those of
 *      the audit kinds: --audit-retention); then, on SQLite, free pages
 *      back to the filesystem (incremental_vacuum).  All in short
 *      transactions of bounded size, with a pause after each as long as
 *      it took, so the janitor holds the write lock at most half the
 *      time while admissions and claims wait for it.
 *
 * Steps 1, 2 and 5 leave audit events (the metrics count them); every
 * step leaves a log line.
 * Several janitors on one ledger are safe: every step is a transaction
 * that checks the state it changes.
 */

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vo_ledger.h"
#include "vo_store.h"
#include "vo_upload.h"
#include "core/vw_core.h"
#include "vw_pool.h"


#define VW_EXPIRE_BATCH  1000
#define VW_MEDIA_BATCH   100
#define VW_RETAIN_ROWS   1000      /* frame rows or events a transaction */
#define VW_RETAIN_JOBS   100       /* jobs a transaction */
#define VW_RECLAIM_PAGES 256       /* free pages an incremental_vacuum */


static volatile sig_atomic_t  vw_janitor_stop;


static void vw_janitor_signal(int signo);
static void vw_janitor_receipts(vo_ledger_t *l);
static void vw_janitor_media(const vw_pool_conf_t *conf, vo_ledger_t *l);
static void vw_janitor_orphans(const vw_pool_conf_t *conf, vo_ledger_t *l);
static void vw_janitor_uploads(const vw_pool_conf_t *conf, vo_ledger_t *l);
static void vw_janitor_retention(const vw_pool_conf_t *conf, vo_ledger_t *l);
static void vw_janitor_reclaim(vo_ledger_t *l);
static void vw_janitor_pause(int64_t since);
static void vw_janitor_partials(const vw_pool_conf_t *conf, vo_ledger_t *l,
    int64_t now);
static int vw_janitor_temp(const char *path, const struct stat *st,
    int type, struct FTW *ftw);


/* nftw() takes no context: the limits of the sweep under way */
static int64_t  vw_temp_before;
static int      vw_temp_removed;


int
vw_janitor_main(const vw_pool_conf_t *conf)
{
    int               exit_code;
    char              err[VO_ERR_TEXT];
    int64_t           next_sweep;
    vo_ledger_t      *l;
    struct sigaction  sa;

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = vw_janitor_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);

    l = vw_pool_ledger(conf, "janitor", &vw_janitor_stop, &exit_code);
    if (l == NULL) {
        return exit_code;
    }

    vw_log("janitor: ready: media retention %llds, orphans after %llds, "
           "frame retention %llds, job retention %llds, event retention "
           "%llds, audit retention %llds",
           (long long) (conf->media_retention_ms / 1000),
           (long long) (conf->orphan_age_ms / 1000),
           (long long) (conf->frame_retention_ms / 1000),
           (long long) (conf->job_retention_ms / 1000),
           (long long) (conf->event_retention_ms / 1000),
           (long long) (conf->audit_retention_ms / 1000));

    next_sweep = vw_now_ms() + conf->orphan_age_ms / 2;

    while (!vw_janitor_stop) {

        vw_janitor_receipts(l);
        vw_janitor_media(conf, l);
        vw_janitor_uploads(conf, l);
        vw_janitor_retention(conf, l);
        vw_janitor_reclaim(l);

        if (vo_ledger_fold_counters(l, err, sizeof(err)) != VO_LEDGER_OK) {
            vw_log("janitor: fold counters: %s", err);
        }

        if (vw_now_ms() >= next_sweep || conf->once) {
            vw_janitor_orphans(conf, l);
            next_sweep = vw_now_ms() + conf->orphan_age_ms / 2;
        }

        if (conf->once) {
            vw_log("janitor: one pass done");
            break;
        }

        if (!vw_janitor_stop) {
            vw_sleep_ms(conf->janitor_interval_ms);
        }
    }

    vw_log("janitor: stopping");

    vo_ledger_close(l);

    return VW_EXIT_OK;
}


static void
vw_janitor_signal(int signo)
{
    (void) signo;
    vw_janitor_stop = 1;
}


static void
vw_janitor_receipts(vo_ledger_t *l)
{
    int             n, total;
    char            err[VO_ERR_TEXT];
    vo_ledger_rc_t  rc;

    total = 0;

    do {
        rc = vo_ledger_expire_receipts(l, vw_wall_ms(), VW_EXPIRE_BATCH, &n,
                                       err, sizeof(err));
        if (rc != VO_LEDGER_OK) {
            vw_log("janitor: expire receipts: %s", err);
            return;
        }

        total += n;

    } while (n == VW_EXPIRE_BATCH && !vw_janitor_stop);

    if (total > 0) {
        vw_log("janitor: event=receipts_expired receipts=%d", total);
    }
}


/* Input first, then the ledger: a job marked has no file left behind. */

static void
vw_janitor_media(const vw_pool_conf_t *conf, vo_ledger_t *l)
{
    char            err[VO_ERR_TEXT];
    size_t          i, n;
    int64_t         bytes;
    vo_media_t      rows[VW_MEDIA_BATCH];
    vo_ledger_rc_t  rc;

    do {
        rc = vo_ledger_media_due(l, vw_wall_ms() - conf->media_retention_ms,
                                 rows, VW_MEDIA_BATCH, &n, err, sizeof(err));
        if (rc != VO_LEDGER_OK) {
            vw_log("janitor: media due: %s", err);
            return;
        }

        bytes = 0;

        for (i = 0; i < n && !vw_janitor_stop; i++) {
            if (vo_store_remove(conf->store, rows[i].input_path, err,
                                sizeof(err))
                != 0)
            {
                vw_log("janitor: job=%s media: %s", rows[i].job_id, err);
                return;
            }

            rc = vo_ledger_media_deleted(l, &rows[i], vw_wall_ms(), err,
                                         sizeof(err));
            if (rc != VO_LEDGER_OK) {
                vw_log("janitor: job=%s media: %s", rows[i].job_id, err);
                return;
            }

            bytes += rows[i].input_size;
        }

        if (i > 0) {
            vw_log("janitor: event=media_deleted jobs=%zu bytes=%lld", i,
                   (long long) bytes);
        }

    } while (n == VW_MEDIA_BATCH && !vw_janitor_stop);
}


/*
 * Issue 17: retention, one step after another, each in transactions of
 * at most VW_RETAIN_ROWS rows (VW_RETAIN_JOBS jobs) until nothing is due.
 */

static void
vw_janitor_retention(const vw_pool_conf_t *conf, vo_ledger_t *l)
{
    int                    k, more;
    char                   err[VO_ERR_TEXT];
    int64_t                now, t0;
    vo_ledger_rc_t         rc;
    vo_retention_stats_t   st;

    static const char  *steps[] = { "frames", "jobs", "events" };

    memset(&st, 0, sizeof(st));

    for (k = 0; k < 3 && !vw_janitor_stop; k++) {

        do {
            t0 = vw_now_ms();
            now = vw_wall_ms();

            switch (k) {

            case 0:
                rc = vo_ledger_retain_frames(l,
                         now - conf->frame_retention_ms, now, VW_RETAIN_ROWS,
                         &st, &more, err, sizeof(err));
                break;

            case 1:
                rc = vo_ledger_retain_jobs(l, now - conf->job_retention_ms,
                         now, VW_RETAIN_JOBS, &st, &more, err, sizeof(err));
                break;

            default:
                rc = vo_ledger_retain_events(l,
                         now - conf->event_retention_ms,
                         now - conf->audit_retention_ms, now, VW_RETAIN_ROWS,
                         &st, &more, err, sizeof(err));
                break;
            }

            if (rc != VO_LEDGER_OK) {
                vw_log("janitor: retention of %s: %s", steps[k], err);
                more = 0;
            }

            if (more) {
                vw_janitor_pause(t0);
            }

        } while (more && !vw_janitor_stop);
    }

    if (st.frames + st.jobs + st.events > 0) {
        vw_log("janitor: event=retention frames=%lld jobs=%lld results=%lld "
               "notifications=%lld events=%lld", (long long) st.frames,
               (long long) st.jobs, (long long) st.results,
               (long long) st.notifications, (long long) st.events);
    }
}


/*
 * SQLite: the pages the deletions freed go back to the filesystem, a
 * few at a time (auto_vacuum INCREMENTAL; a ledger made before version
 * 2 has NONE until an operator VACUUMs it, docs/operations.md: SQLite
 * then reuses its free pages for new rows, the file does not shrink).
 */

static void
vw_janitor_reclaim(vo_ledger_t *l)
{
    int             mode;
    char            err[VO_ERR_TEXT];
    int64_t         freed, left, total, t0;
    vo_ledger_rc_t  rc;

    static int  told;

    total = 0;

    do {
        t0 = vw_now_ms();

        rc = vo_ledger_reclaim(l, VW_RECLAIM_PAGES, &mode, &freed, &left,
                               err, sizeof(err));
        if (rc != VO_LEDGER_OK) {
            vw_log("janitor: reclaim: %s", err);
            return;
        }

        if (mode == 0 && !told) {
            told = 1;
            vw_log("janitor: the ledger's auto_vacuum is NONE (made before "
                   "schema version 2): free pages are reused, the file does "
                   "not shrink until it is VACUUMed (docs/operations.md)");
        }

        total += freed;

        if (freed > 0 && left > 0) {
            vw_janitor_pause(t0);
        }

    } while (freed > 0 && left > 0 && !vw_janitor_stop);

    if (total > 0) {
        vw_log("janitor: event=reclaimed pages=%lld", (long long) total);
    }
}


/* As long again as the transaction since t0 took (5 ms at least): the
 * writers that waited for the lock meanwhile get it. */

static void
vw_janitor_pause(int64_t since)
{
    int64_t  took;

    took = vw_now_ms() - since;

    vw_sleep_ms(took < 5 ? 5 : took);
}


/*
 * Uploads past their expiry: the row first (an append that commits
 * after finds none and stops), then the partial file, so no row ever
 * names a file that is gone.  A file left by a crash between the two is
 * an orphan of the sweep below.
 */

static void
vw_janitor_uploads(const vw_pool_conf_t *conf, vo_ledger_t *l)
{
    int             gone, done[VW_MEDIA_BATCH];
    char            err[VO_ERR_TEXT], rel[VO_STORE_UPLOAD_REL_LEN + 1];
    char            ids[VW_MEDIA_BATCH][33];
    size_t          i, n;
    vo_ledger_rc_t  rc;

    do {
        rc = vo_ledger_uploads_due(l, vw_wall_ms(), ids, done,
                                   VW_MEDIA_BATCH, &n, err, sizeof(err));
        if (rc != VO_LEDGER_OK) {
            vw_log("janitor: uploads due: %s", err);
            return;
        }

        for (i = 0; i < n && !vw_janitor_stop; i++) {
            rc = vo_ledger_upload_expire(l, ids[i], vw_wall_ms(), &gone, err,
                                         sizeof(err));
            if (rc != VO_LEDGER_OK) {
                vw_log("janitor: upload=%s expire: %s", ids[i], err);
                return;
            }

            if (!gone || done[i]) {
                continue;
            }

            vo_store_upload_path(ids[i], rel);

            if (vo_store_remove(conf->store, rel, err, sizeof(err)) != 0) {
                vw_log("janitor: upload=%s: %s", ids[i], err);
            }

            vw_log("janitor: event=upload_expired upload=%s", ids[i]);
        }

    } while (n == VW_MEDIA_BATCH && !vw_janitor_stop);
}


/* "uploads/<xx>/<upload_id>.part" that no row names (invariant 11). */

static void
vw_janitor_partials(const vw_pool_conf_t *conf, vo_ledger_t *l, int64_t now)
{
    int             exists, removed;
    DIR            *top, *sub;
    char            path[PATH_MAX], id[VO_UPLOAD_ID_LEN + 1];
    char            err[VO_ERR_TEXT];
    struct stat     st;
    struct dirent  *d, *e;

    snprintf(path, sizeof(path), "%s/uploads", conf->store);

    top = opendir(path);
    if (top == NULL) {
        return;
    }

    removed = 0;

    while ((d = readdir(top)) != NULL && !vw_janitor_stop) {

        if (strlen(d->d_name) != 2 || !vo_is_hex(d->d_name, 2)) {
            continue;
        }

        snprintf(path, sizeof(path), "%s/uploads/%s", conf->store,
                 d->d_name);

        sub = opendir(path);
        if (sub == NULL) {
            continue;
        }

        while ((e = readdir(sub)) != NULL) {

            if (strlen(e->d_name) != VO_UPLOAD_ID_LEN + sizeof(".part") - 1
                || strcmp(e->d_name + VO_UPLOAD_ID_LEN, ".part") != 0
                || !vo_is_hex(e->d_name, VO_UPLOAD_ID_LEN))
            {
                continue;
            }

            snprintf(path, sizeof(path), "%s/uploads/%s/%s", conf->store,
                     d->d_name, e->d_name);

            if (stat(path, &st) == -1
                || (int64_t) st.st_mtime * 1000 > now - conf->orphan_age_ms)
            {
                continue;
            }

            memcpy(id, e->d_name, VO_UPLOAD_ID_LEN);
            id[VO_UPLOAD_ID_LEN] = '\0';

            if (vo_ledger_upload_exists(l, id, &exists, err, sizeof(err))
                != VO_LEDGER_OK)
            {
                vw_log("janitor: orphans: %s", err);
                break;
            }

            if (exists) {
                continue;
            }

            if (unlink(path) == 0) {
                removed++;
                vw_log("janitor: event=orphan_removed file=uploads/%s/%s "
                       "reason=no_upload", d->d_name, e->d_name);

            } else {
                vw_log("janitor: unlink(\"%s\") failed: %s", path,
                       strerror(errno));
            }
        }

        closedir(sub);
    }

    closedir(top);

    if (removed > 0) {
        vw_log("janitor: event=orphans_removed files=%d", removed);
    }
}


/* Store files "<xx>/<job_id>.video" that no job keeps any more. */

static void
vw_janitor_orphans(const vw_pool_conf_t *conf, vo_ledger_t *l)
{
    int             state, removed;
    DIR            *top, *sub;
    char            path[PATH_MAX], job_id[VO_JOB_ID_LEN + 1];
    char            err[VO_ERR_TEXT];
    size_t          len;
    int64_t         now;
    struct stat     st;
    struct dirent  *d, *e;

    top = opendir(conf->store);
    if (top == NULL) {
        vw_log("janitor: opendir(\"%s\") failed: %s", conf->store,
               strerror(errno));
        return;
    }

    now = vw_wall_ms();
    removed = 0;

    while ((d = readdir(top)) != NULL && !vw_janitor_stop) {

        /* the fan-out directories: two hex digits */

        if (strlen(d->d_name) != 2 || !vo_is_hex(d->d_name, 2)) {
            continue;
        }

        snprintf(path, sizeof(path), "%s/%s", conf->store, d->d_name);

        sub = opendir(path);
        if (sub == NULL) {
            continue;
        }

        while ((e = readdir(sub)) != NULL) {
            len = strlen(e->d_name);

            if (len != VO_JOB_ID_LEN + sizeof(".video") - 1
                || strcmp(e->d_name + VO_JOB_ID_LEN, ".video") != 0
                || !vo_is_hex(e->d_name, VO_JOB_ID_LEN))
            {
                continue;
            }

            snprintf(path, sizeof(path), "%s/%s/%s", conf->store, d->d_name,
                     e->d_name);

            if (stat(path, &st) == -1
                || (int64_t) st.st_mtime * 1000 > now - conf->orphan_age_ms)
            {
                continue;
            }

            memcpy(job_id, e->d_name, VO_JOB_ID_LEN);
            job_id[VO_JOB_ID_LEN] = '\0';

            if (vo_ledger_media_of(l, job_id, &state, err, sizeof(err))
                != VO_LEDGER_OK)
            {
                vw_log("janitor: orphans: %s", err);
                break;
            }

            if (state == VO_MEDIA_LIVE) {
                continue;
            }

            if (unlink(path) == 0) {
                removed++;
                vw_log("janitor: event=orphan_removed file=%s/%s reason=%s",
                       d->d_name, e->d_name,
                       state == VO_MEDIA_NO_JOB ? "no_job" : "job_deleted");

            } else {
                vw_log("janitor: unlink(\"%s\") failed: %s", path,
                       strerror(errno));
            }
        }

        closedir(sub);
    }

    closedir(top);

    if (removed > 0) {
        vw_log("janitor: event=orphans_removed files=%d", removed);
    }

    vw_janitor_partials(conf, l, now);

    /* the temp files of nginx workers that died in an upload */

    snprintf(path, sizeof(path), "%s/.incoming", conf->store);

    vw_temp_before = now - conf->orphan_age_ms;
    vw_temp_removed = 0;

    if (access(path, F_OK) == 0
        && nftw(path, vw_janitor_temp, 16, FTW_PHYS) == -1)
    {
        vw_log("janitor: walking \"%s\" failed: %s", path, strerror(errno));
    }

    if (vw_temp_removed > 0) {
        vw_log("janitor: event=temp_files_removed files=%d", vw_temp_removed);
    }
}


static int
vw_janitor_temp(const char *path, const struct stat *st, int type,
    struct FTW *ftw)
{
    (void) ftw;

    if (type == FTW_F && S_ISREG(st->st_mode)
        && (int64_t) st->st_mtime * 1000 <= vw_temp_before)
    {
        if (unlink(path) == 0) {
            vw_temp_removed++;

        } else {
            vw_log("janitor: unlink(\"%s\") failed: %s", path,
                   strerror(errno));
        }
    }

    return vw_janitor_stop ? 1 : 0;
}

