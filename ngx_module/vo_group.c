/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The group commit declared in vo_group.h.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE             /* syncfs() */
#endif

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "vo_group.h"


static void vo_group_commit(vo_group_t *g, vo_ledger_t *l,
    const vo_group_conf_t *conf, vo_admit_item_t **items, size_t n);
static int vo_group_sync(vo_group_t *g, const vo_group_conf_t *conf,
    vo_admit_item_t **items, size_t n);


void
vo_group_admit(vo_group_t *g, vo_ledger_t *l, const vo_group_conf_t *conf,
    vo_group_member_t *m)
{
    size_t              n;
    vo_admit_item_t    *items[VO_GROUP_BATCH_MAX];
    vo_group_member_t  *batch, *p, *last;

    m->done = 0;
    m->next = NULL;

    (void) pthread_mutex_lock(&g->mutex);

    if (g->tail != NULL) {
        g->tail->next = m;

    } else {
        g->head = m;
    }

    g->tail = m;

    for ( ;; ) {

        if (m->done) {
            break;
        }

        if (g->leading) {
            (void) pthread_cond_wait(&g->cond, &g->mutex);
            continue;
        }

        /*
         * lead one batch: everything waiting, up to the batch limit,
         * which includes this thread's own admission (it is not done, so
         * it is still queued)
         */

        g->leading = 1;

        batch = g->head;
        n = 0;
        last = NULL;

        for (p = batch; p != NULL && n < VO_GROUP_BATCH_MAX; p = p->next) {
            items[n++] = &p->item;
            last = p;
        }

        g->head = last->next;

        if (g->head == NULL) {
            g->tail = NULL;
        }

        last->next = NULL;

        (void) pthread_mutex_unlock(&g->mutex);

        vo_group_commit(g, l, conf, items, n);

        (void) pthread_mutex_lock(&g->mutex);

        for (p = batch; p != NULL; p = p->next) {
            p->done = 1;
        }

        if (conf->batches != NULL) {
            (void) __atomic_add_fetch(conf->batches, 1, __ATOMIC_RELAXED);
            (void) __atomic_add_fetch(conf->batched, n, __ATOMIC_RELAXED);
        }

        g->leading = 0;

        /* the members of the batch, and whoever leads the next one */
        (void) pthread_cond_broadcast(&g->cond);
    }

    (void) pthread_mutex_unlock(&g->mutex);
}


/* The leader's turn: the store, then across processes the ledger. */

static void
vo_group_commit(vo_group_t *g, vo_ledger_t *l, const vo_group_conf_t *conf,
    vo_admit_item_t **items, size_t n)
{
    int  locked;

    if (conf->sync && vo_group_sync(g, conf, items, n) != 0) {
        return;
    }

    if (conf->lock_path == NULL) {
        /* PostgreSQL: leaders of every process and host commit at once */
        (void) vo_ledger_admit_batch(l, items, n);
        return;
    }

    if (g->lock_fd == -1) {
        g->lock_fd = open(conf->lock_path, O_RDWR | O_CREAT | O_CLOEXEC,
                          0660);
    }

    /*
     * without the lock file (it could not be created) the batch still
     * commits: SQLite serialises the writers, only less fairly
     */

    locked = (g->lock_fd != -1 && flock(g->lock_fd, LOCK_EX) == 0);

    (void) vo_ledger_admit_batch(l, items, n);

    if (locked) {
        (void) flock(g->lock_fd, LOCK_UN);
    }
}


/*
 * One syncfs() for every upload of the batch: their data and directory
 * entries are on stable storage when it returns.  On failure every item
 * fails (nothing is committed: no receipt may point at a file that is
 * not durable).
 */

static int
vo_group_sync(vo_group_t *g, const vo_group_conf_t *conf,
    vo_admit_item_t **items, size_t n)
{
    int     e;
    size_t  i;

    if (g->store_fd == -1) {
        g->store_fd = open(conf->store, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    }

    if (g->store_fd != -1 && syncfs(g->store_fd) == 0) {
        return 0;
    }

    e = errno;

    for (i = 0; i < n; i++) {
        items[i]->rc = (e == ENOSPC || e == EDQUOT) ? VO_LEDGER_FULL
                                                     : VO_LEDGER_ERROR;
        items[i]->receipt->outcome = VO_ADMIT_NONE;
        snprintf(items[i]->err, items[i]->err_size, "syncfs(\"%s\") failed: "
                 "%s", conf->store, strerror(e));
    }

    return -1;
}
