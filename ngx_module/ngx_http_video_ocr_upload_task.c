/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The thread-pool tasks of a resumable upload: its row in the ledger and
 * its partial file in the store ("uploads/<xx>/<upload id>.part"), under
 * invariants 11-13 of sql/schema.sql:
 *
 *   create   the empty partial file, then the row (a row always has its
 *            file); a retried creation finds the key's upload instead;
 *   get      the row, for HEAD;
 *   claim    writer + 1: this request becomes the upload's writer, and
 *            an append still running under the old token is ended at
 *            its next commit;
 *   stage    while the body is read, its chunk copied past the
 *            acknowledged offset (a head start for the commit, which
 *            acknowledges nothing);
 *   commit   under the file's flock and (PostgreSQL) the row's lock, and
 *            only while the token is the writer's: truncate to the
 *            offset, append, fdatasync, the offset advanced; then the
 *            completion, if it is one: the partial file linked as the
 *            job's input and admitted as a POST is
 *            (ngx_http_video_ocr_admit_group);
 *   delete   the row, then the file.
 *
 * The event loop fills a task from the request's upload
 * (ngx_http_video_ocr_upload_task_new) and reads back t->up.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE                     /* copy_file_range() */
#endif

#include <sys/file.h>

#include "ngx_http_video_ocr_resumable.h"


static int ngx_http_video_ocr_upload_write(ngx_http_video_ocr_task_t *t,
    int fd);
static void ngx_http_video_ocr_upload_sniff(ngx_http_video_ocr_task_t *t,
    int fd);
static void ngx_http_video_ocr_upload_complete(ngx_http_video_ocr_task_t *t,
    vo_ledger_t *l);


ngx_int_t
ngx_http_video_ocr_upload_post(ngx_http_request_t *r,
    ngx_http_video_ocr_run_pt run, ngx_http_event_handler_pt done)
{
    ngx_thread_task_t  *task;

    task = ngx_http_video_ocr_upload_task_new(r, run);
    if (task == NULL) {
        ngx_http_video_ocr_set_problem(r, NGX_HTTP_VIDEO_OCR_INTERNAL, NULL);
        return NGX_ERROR;
    }

    return ngx_http_video_ocr_task_post(r, task, done);
}


ngx_thread_task_t *
ngx_http_video_ocr_upload_task_new(ngx_http_request_t *r,
    ngx_http_video_ocr_run_pt run)
{
    ngx_thread_task_t               *task;
    ngx_http_video_ocr_up_t         *up;
    ngx_http_video_ocr_ctx_t        *ctx;
    ngx_http_video_ocr_task_t       *t;
    ngx_http_video_ocr_loc_conf_t   *vlcf;
    ngx_http_video_ocr_main_conf_t  *mcf;

    ctx = ngx_http_get_module_ctx(r, ngx_http_video_ocr_module);
    up = ctx->up;
    mcf = ngx_http_get_module_main_conf(r, ngx_http_video_ocr_module);
    vlcf = ngx_http_get_module_loc_conf(r, ngx_http_video_ocr_module);

    task = ngx_http_video_ocr_task_alloc(r, run);
    if (task == NULL) {
        return NULL;
    }

    t = task->ctx;
    t->up = up->row;
    t->tenant = (char *) ctx->tenant.data;
    t->tenant_len = ctx->tenant.len;
    t->now_ms = ngx_http_video_ocr_now_ms();
    t->up_offset = up->offset;
    t->up_max_open = vlcf->uploads_max;
    t->up_ttl_ms = (int64_t) mcf->upload_ttl * 1000;
    t->containers = vlcf->containers;
    t->chunk_fd = -1;

    ngx_memcpy(t->up.upload_id, up->id, VO_UPLOAD_ID_LEN + 1);
    vo_store_upload_path(up->id, t->part);

    ctx->task = t;

    return task;
}


/* In a thread-pool thread from here on: plain C only. */


void
ngx_http_video_ocr_upload_create_thread(ngx_http_video_ocr_task_t *t)
{
    char              forgot[VO_STORE_UPLOAD_REL_LEN + 1], err[64];
    vo_ledger_t      *l;
    vo_upload_row_t   row;

    t->store_rc = VO_STORE_OK;

    l = ngx_http_video_ocr_thread_ledger(t);
    if (l == NULL) {
        return;
    }

    /* the file first: a row always has its file (invariant 11) */

    t->store_rc = vo_store_create_empty(t->store, t->part, t->mcf->durable,
                                        t->err, sizeof(t->err));
    if (t->store_rc != VO_STORE_OK) {
        t->ledger_rc = VO_LEDGER_ERROR;
        return;
    }

    t->ledger_rc = vo_ledger_upload_create(l, &t->up, t->up_max_open,
                                           t->now_ms, &row,
                                           (vo_upload_create_e *)
                                               &t->up_outcome,
                                           t->up_forgot, t->err,
                                           sizeof(t->err));

    if (t->ledger_rc != VO_LEDGER_OK || t->up_outcome != VO_UPLOAD_CREATED) {
        (void) vo_store_remove(t->store, t->part, err, sizeof(err));
    }

    if (t->up_forgot[0]) {
        vo_store_upload_path(t->up_forgot, forgot);
        (void) vo_store_remove(t->store, forgot, err, sizeof(err));
    }

    if (t->ledger_rc == VO_LEDGER_OK && t->up_outcome != VO_UPLOAD_TOO_MANY) {
        t->up = row;
        ngx_http_video_ocr_upload_receipt(t, l);
    }
}


void
ngx_http_video_ocr_upload_get_thread(ngx_http_video_ocr_task_t *t)
{
    vo_ledger_t  *l;

    l = ngx_http_video_ocr_thread_ledger(t);
    if (l == NULL) {
        return;
    }

    t->ledger_rc = vo_ledger_upload_get(l, t->tenant, t->tenant_len,
                                        t->up.upload_id, t->now_ms, &t->up,
                                        t->err, sizeof(t->err));
}


void
ngx_http_video_ocr_upload_claim_thread(ngx_http_video_ocr_task_t *t)
{
    vo_ledger_t  *l;

    l = ngx_http_video_ocr_thread_ledger(t);
    if (l == NULL) {
        return;
    }

    t->ledger_rc = vo_ledger_upload_claim(l, t->tenant, t->tenant_len,
                                          t->up.upload_id, t->up_offset,
                                          t->now_ms, &t->up, t->err,
                                          sizeof(t->err));
    ngx_http_video_ocr_upload_receipt(t, l);
}


void
ngx_http_video_ocr_upload_delete_thread(ngx_http_video_ocr_task_t *t)
{
    char          err[64];
    vo_ledger_t  *l;

    l = ngx_http_video_ocr_thread_ledger(t);
    if (l == NULL) {
        return;
    }

    t->ledger_rc = vo_ledger_upload_delete(l, t->tenant, t->tenant_len,
                                           t->up.upload_id, t->now_ms,
                                           &t->up, t->err, sizeof(t->err));

    if (t->ledger_rc == VO_LEDGER_OK && !t->up.completed) {
        (void) vo_store_remove(t->store, t->part, err, sizeof(err));
    }
}


/* A completed upload's receipt, for a replay (ledger_rc kept). */

void
ngx_http_video_ocr_upload_receipt(ngx_http_video_ocr_task_t *t,
    vo_ledger_t *l)
{
    char            err[VO_ERR_TEXT];
    vo_admission_t  a;

    t->receipt.outcome = VO_ADMIT_NONE;

    if (!t->up.completed || !t->up.has_key) {
        return;
    }

    ngx_memzero(&a, sizeof(a));
    a.tenant = t->up.tenant;
    a.tenant_len = ngx_strlen(t->up.tenant);
    a.key = t->up.key;
    a.key_len = ngx_strlen(t->up.key);
    a.input_digest = t->up.input_digest;
    a.now_ms = t->now_ms;

    if (vo_ledger_lookup(l, &a, &t->receipt, err, sizeof(err))
        != VO_LEDGER_OK)
    {
        t->receipt.outcome = VO_ADMIT_NONE;
    }
}


/*
 * A stage: while this request's token is still the writer's and the
 * offset the one it was given, under the locks a commit takes, the chunk
 * from chunk_staged on is copied into the partial file past the
 * acknowledged offset (the first stage of a chunk truncates to it), and
 * its writeback started.  Nothing is acknowledged.
 *
 * The event loop goes on writing the chunk meanwhile (and, busy reading,
 * sees this task's end only when the socket runs dry), so the stage also
 * takes what was written since it was posted: up to the chunk file's
 * size, which the kernel raises only over bytes already written.
 * chunk_staged comes back as far as the copy got; the commit truncates
 * whatever a failed copy left past it.
 */

void
ngx_http_video_ocr_upload_stage_thread(ngx_http_video_ocr_task_t *t)
{
    int              fd, pass;
    off_t            in, out, end, start;
    ssize_t          n;
    vo_ledger_t     *l;
    struct stat      st;
    vo_upload_row_t  now;

    l = ngx_http_video_ocr_thread_ledger(t);
    if (l == NULL) {
        return;
    }

    fd = vo_store_open(t->store, t->part, O_RDWR, t->err, sizeof(t->err));
    if (fd == -1) {
        return;
    }

    while (flock(fd, LOCK_EX) == -1 && errno == EINTR) {
        /* void */
    }

    if (vo_ledger_upload_lock(l, t->up.upload_id, &now, t->err,
                              sizeof(t->err))
        != VO_LEDGER_OK)
    {
        goto done;
    }

    if (now.writer != t->up.writer || now.offset != t->up_offset
        || now.completed
        || (t->chunk_staged == 0 && ftruncate(fd, t->up_offset) == -1))
    {
        vo_ledger_upload_unlock(l);
        goto done;
    }

    in = t->chunk_staged;
    out = t->up_offset + in;
    end = t->chunk_len;

    for (pass = 0; pass < 16; pass++) {

        start = in;

        while (in < end) {
            n = copy_file_range(t->chunk_fd, &in, fd, &out,
                                (size_t) (end - in), 0);
            if (n <= 0) {
                /* another filesystem, or full: the commit copes */
                goto copied;
            }
        }

        if (t->mcf->durable) {
            (void) sync_file_range(fd, t->up_offset + start, in - start,
                                   SYNC_FILE_RANGE_WRITE);
        }

        if (fstat(t->chunk_fd, &st) == -1
            || st.st_size - in < NGX_HTTP_VIDEO_OCR_STAGE_BYTES / 4)
        {
            break;
        }

        end = st.st_size;
    }

copied:

    vo_ledger_upload_unlock(l);

    t->chunk_staged = in;

done:

    (void) flock(fd, LOCK_UN);
    (void) close(fd);
}


/*
 * The commit (invariants 11 and 12): the partial file's flock for this
 * host's processes, the row's lock for other hosts (PostgreSQL), the
 * token and the offset checked, then truncate to the offset and what was
 * staged, append the rest, fdatasync, and the offset advanced; then the
 * completion, if it is one.
 */

void
ngx_http_video_ocr_upload_commit_thread(ngx_http_video_ocr_task_t *t)
{
    int              fd;
    char             err[64];
    vo_ledger_t     *l;
    vo_upload_row_t  now;

    t->store_rc = VO_STORE_OK;

    l = ngx_http_video_ocr_thread_ledger(t);
    if (l == NULL) {
        return;
    }

    fd = vo_store_open(t->store, t->part, O_RDWR, t->err, sizeof(t->err));

    if (fd == -1) {
        if (errno == ENOENT) {
            /* deleted (DELETE, the janitor) since the claim */
            t->up_stale = 1;
            t->ledger_rc = VO_LEDGER_OK;
            return;
        }

        t->store_rc = VO_STORE_ERROR;
        t->ledger_rc = VO_LEDGER_ERROR;
        return;
    }

    while (flock(fd, LOCK_EX) == -1 && errno == EINTR) {
        /* void */
    }

    t->ledger_rc = vo_ledger_upload_lock(l, t->up.upload_id, &now, t->err,
                                         sizeof(t->err));

    if (t->ledger_rc == VO_LEDGER_NOT_FOUND) {
        t->up_stale = 1;
        t->ledger_rc = VO_LEDGER_OK;
        goto done;
    }

    if (t->ledger_rc != VO_LEDGER_OK) {
        goto done;
    }

    if (now.writer != t->up.writer || now.offset != t->up_offset
        || now.completed)
    {
        vo_ledger_upload_unlock(l);
        snprintf(t->err, sizeof(t->err), "writer %lld at %lld, this one "
                 "%lld at %lld%s", (long long) now.writer,
                 (long long) now.offset, (long long) t->up.writer,
                 (long long) t->up_offset,
                 now.completed ? ", completed" : "");
        t->up_stale = 1;

        if (now.completed) {
            t->up = now;
            ngx_http_video_ocr_upload_receipt(t, l);
        }

        goto done;
    }

    if (ngx_http_video_ocr_upload_write(t, fd) != 0) {
        vo_ledger_upload_unlock(l);
        t->ledger_rc = VO_LEDGER_ERROR;
        goto done;
    }

    if (now.container[0]) {
        ngx_memcpy(t->up.container, now.container, sizeof(now.container));

    } else {
        ngx_http_video_ocr_upload_sniff(t, fd);

        if (t->up_refused) {
            vo_ledger_upload_unlock(l);
            (void) vo_ledger_upload_delete(l, t->tenant, t->tenant_len,
                                           t->up.upload_id, t->now_ms, &now,
                                           t->err, sizeof(t->err));
            (void) vo_store_remove(t->store, t->part, err, sizeof(err));
            t->ledger_rc = VO_LEDGER_OK;
            goto done;
        }
    }

    t->ledger_rc = vo_ledger_upload_advance(l, &t->up, t->up_offset,
                                            t->now_ms, t->up_ttl_ms, t->err,
                                            sizeof(t->err));

    if (t->ledger_rc == VO_LEDGER_STALE) {
        t->up_stale = 1;
        t->ledger_rc = VO_LEDGER_OK;
        goto done;
    }

    if (t->ledger_rc == VO_LEDGER_OK && t->chunk_fd != -1) {
        /* the chunk file starts over for the next part of the body; if
         * it keeps old bytes, no stage may take them for new ones */
        t->chunk_dirty = ftruncate(t->chunk_fd, 0) == -1;
    }

done:

    (void) flock(fd, LOCK_UN);
    (void) close(fd);

    if (t->ledger_rc == VO_LEDGER_OK && !t->up_stale && t->up_complete) {
        ngx_http_video_ocr_upload_complete(t, l);
    }
}


/*
 * Truncate to the acknowledged offset and the staged part of the chunk
 * (the token check before made sure nobody else wrote since the stages),
 * append the rest of the chunk, fdatasync.
 */

static int
ngx_http_video_ocr_upload_write(ngx_http_video_ocr_task_t *t, int fd)
{
    int    e;
    off_t  in, out;

    in = t->chunk_staged;
    out = t->up_offset + t->chunk_staged;

    if (ftruncate(fd, out) == -1
        || vo_store_copy(t->chunk_fd, &in, fd, &out, t->chunk_len - in) != 0
        || (t->mcf->durable && fdatasync(fd) == -1))
    {
        e = errno;
        t->store_rc = (e == ENOSPC || e == EDQUOT) ? VO_STORE_FULL
                                                   : VO_STORE_ERROR;
        snprintf(t->err, sizeof(t->err), "upload %s: appending %lld bytes "
                 "at %lld failed: %s", t->up.upload_id,
                 (long long) t->chunk_len, (long long) t->up_offset,
                 strerror(e));
        return -1;
    }

    return 0;
}


/*
 * The container, from the upload's first bytes, once there are enough
 * of them (or the upload is complete): a refusal (415) ends the upload,
 * as a POST of those bytes would have been refused.  A partial upload
 * (tus concatenation) is a slice of a video, whose start only its final
 * upload knows: it is not sniffed.
 */

static void
ngx_http_video_ocr_upload_sniff(ngx_http_video_ocr_task_t *t, int fd)
{
    vo_container_t  c;

    if ((t->up.offset < VO_SNIFF_BYTES && !t->up_complete)
        || ngx_strcmp(t->up.concat, "partial") == 0)
    {
        return;
    }

    c = ngx_http_video_ocr_sniff_file(fd, t->containers);

    if (c <= VO_CONTAINER_UNKNOWN) {
        t->up_refused = 1;
        return;
    }

    snprintf(t->up.container, sizeof(t->up.container), "%s",
             vo_container_name(c));
}


/*
 * The container of the file open as fd, by its first bytes: a container
 * of containers (a bit each), or VO_CONTAINER_UNKNOWN.
 */

vo_container_t
ngx_http_video_ocr_sniff_file(int fd, ngx_uint_t containers)
{
    ssize_t         n;
    unsigned char   head[VO_SNIFF_BYTES];
    vo_container_t  c;

    n = pread(fd, head, sizeof(head), 0);
    if (n < 0) {
        return VO_CONTAINER_UNKNOWN;
    }

    c = vo_sniff_container(head, (size_t) n, 1);

    if (c <= VO_CONTAINER_UNKNOWN || !(containers & ((ngx_uint_t) 1 << c))) {
        return VO_CONTAINER_UNKNOWN;
    }

    return c;
}


/*
 * The completion: the partial file gets the job's input name (a link,
 * no copy) and the admission runs as for a POST, marking the upload
 * completed in its transaction (invariant 13).  A created job keeps the
 * link and the partial name goes; otherwise the link goes, and the
 * partial name too unless the admission failed or the tenant's queue
 * is full (the client completes it again).
 */

static void
ngx_http_video_ocr_upload_complete(ngx_http_video_ocr_task_t *t,
    vo_ledger_t *l)
{
    char  err[64];

    t->admission.container = t->up.container;

    t->store_rc = vo_store_link(t->store, t->part, t->rel, t->err,
                                sizeof(t->err));
    if (t->store_rc != VO_STORE_OK) {
        t->ledger_rc = VO_LEDGER_ERROR;
        return;
    }

    ngx_http_video_ocr_admit_group(t);

    if (t->ledger_rc == VO_LEDGER_STALE) {
        /* another request completed it: answer with its receipt */
        t->up_stale = 1;
        t->ledger_rc = vo_ledger_upload_get(l, t->tenant, t->tenant_len,
                                            t->up.upload_id, t->now_ms,
                                            &t->up, t->err, sizeof(t->err));
        ngx_http_video_ocr_upload_receipt(t, l);
        return;
    }

    if (t->ledger_rc != VO_LEDGER_OK
        || t->receipt.outcome == VO_ADMIT_QUEUE_FULL)
    {
        /* nothing changed: the client completes it again later */
        return;
    }

    (void) vo_store_remove(t->store, t->part, err, sizeof(err));
    t->up.completed = (t->receipt.outcome != VO_ADMIT_MISMATCH);
}
