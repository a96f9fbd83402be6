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
#include <stdlib.h>
#include <string.h>
#include <semaphore.h>
#include <sys/file.h>
#include <unistd.h>

#include "vo_group.h"


static void vo_group_commit(vo_group_t *g, vo_ledger_t *l,
    const vo_group_conf_t *conf, vo_admit_item_t **items, size_t n);
static int vo_group_sync(vo_group_t *g, const vo_group_conf_t *conf,
    vo_admit_item_t **items, size_t n);
static int vo_group_lock(vo_group_t *g, const vo_group_conf_t *conf);


/*
 * Each thread sleeps on a semaphore of its own: a leader posts it after
 * releasing the mutex (a woken member then finds the mutex free), and a
 * post that arrives when the thread has moved on only costs it one
 * spurious wake-up later, which the loop below absorbs.  The semaphore
 * is allocated once per thread and kept on the group's list until
 * vo_group_release(): a late post may come after its thread has exited
 * (nginx stops its pool threads while tasks still run), and must not
 * land in a freed stack's thread-local storage.
 */

struct vo_group_sem_s {
    sem_t                 sem;
    vo_group_sem_t       *next;
};

static __thread sem_t  *vo_group_sem;


void
vo_group_admit(vo_group_t *g, vo_ledger_t *l, const vo_group_conf_t *conf,
    vo_group_member_t *m)
{
    int                 locked;
    size_t              i, n;
    sem_t              *wake[VO_GROUP_BATCH_MAX + 1];
    vo_group_sem_t     *s;
    vo_admit_item_t    *items[VO_GROUP_BATCH_MAX];
    vo_group_member_t  *batch, *p, *last;

    if (vo_group_sem == NULL) {
        s = malloc(sizeof(vo_group_sem_t));

        if (s == NULL || sem_init(&s->sem, 0, 0) != 0) {
            free(s);
            m->item.rc = VO_LEDGER_ERROR;
            m->item.receipt->outcome = VO_ADMIT_NONE;
            snprintf(m->item.err, m->item.err_size,
                     "group commit: out of memory");
            return;
        }

        (void) pthread_mutex_lock(&g->mutex);
        s->next = g->sems;
        g->sems = s;
        (void) pthread_mutex_unlock(&g->mutex);

        vo_group_sem = &s->sem;
    }

    m->done = 0;
    m->sem = vo_group_sem;
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
            (void) pthread_mutex_unlock(&g->mutex);

            while (sem_wait(vo_group_sem) == -1 && errno == EINTR) {
                /* void */
            }

            (void) pthread_mutex_lock(&g->mutex);
            continue;
        }

        /*
         * lead one batch: everything waiting, up to the batch limit,
         * which includes this thread's own admission (it is not done, so
         * it is still queued)
         */

        g->leading = 1;

        /*
         * first the turn among processes, then the batch: admissions
         * that arrive while another process commits join this batch
         */

        locked = 0;

        if (conf->lock_path != NULL) {
            (void) pthread_mutex_unlock(&g->mutex);
            locked = vo_group_lock(g, conf);
            (void) pthread_mutex_lock(&g->mutex);
        }

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

        if (locked) {
            (void) flock(g->lock_fd, LOCK_UN);
        }

        (void) pthread_mutex_lock(&g->mutex);

        /*
         * the semaphores are collected under the mutex: a member whose
         * done it sees may return and free itself at once
         */

        i = 0;

        for (p = batch; p != NULL; p = p->next) {
            p->done = 1;

            if (p != m) {
                wake[i++] = p->sem;
            }
        }

        if (conf->batches != NULL) {
            (void) __atomic_add_fetch(conf->batches, 1, __ATOMIC_RELAXED);
            (void) __atomic_add_fetch(conf->batched, n, __ATOMIC_RELAXED);
        }

        g->leading = 0;

        /*
         * the first of those who queued meanwhile leads the next batch;
         * the others sleep on until it is done: one wake-up per member
         * and batch, not one per waiting thread
         */

        if (g->head != NULL) {
            wake[i++] = g->head->sem;
        }

        (void) pthread_mutex_unlock(&g->mutex);

        while (i > 0) {
            (void) sem_post(wake[--i]);
        }

        /* done, unless the batch filled up before this thread's turn */

        (void) pthread_mutex_lock(&g->mutex);
    }

    (void) pthread_mutex_unlock(&g->mutex);
}


void
vo_group_release(vo_group_t *g)
{
    vo_group_sem_t  *s, *next;

    for (s = g->sems; s != NULL; s = next) {
        next = s->next;
        (void) sem_destroy(&s->sem);
        free(s);
    }

    g->sems = NULL;

    if (g->lock_fd != -1) {
        (void) close(g->lock_fd);
        g->lock_fd = -1;
    }

    if (g->store_fd != -1) {
        (void) close(g->store_fd);
        g->store_fd = -1;
    }
}


/* The leader's turn, its process's turn taken: the store, the ledger. */

static void
vo_group_commit(vo_group_t *g, vo_ledger_t *l, const vo_group_conf_t *conf,
    vo_admit_item_t **items, size_t n)
{
    if (conf->sync && vo_group_sync(g, conf, items, n) != 0) {
        return;
    }

    (void) vo_ledger_admit_batch(l, items, n);
}


/*
 * The ledger's turn among worker processes (SQLite).  Without the lock
 * file (it could not be created) the batch still commits: SQLite
 * serialises the writers, only less fairly.
 */

static int
vo_group_lock(vo_group_t *g, const vo_group_conf_t *conf)
{
    if (g->lock_fd == -1) {
        g->lock_fd = open(conf->lock_path, O_RDWR | O_CREAT | O_CLOEXEC,
                          0660);
    }

    return g->lock_fd != -1 && flock(g->lock_fd, LOCK_EX) == 0;
}


/*
 * One syncfs() for every upload of the batch: their data and directory
 * entries are on stable storage when it returns.  On failure every item
 * fails (nothing is committed: no receipt may point at a file that is
 * not durable, invariant 4 of sql/schema.sql).
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
