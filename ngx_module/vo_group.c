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
#include <signal.h>
#include <sys/file.h>
#include <unistd.h>

#include "vo_group.h"


/*
 * The flusher: one thread per group, started by the first leader that
 * syncs, which runs the store's syncfs() when a leader asks and says
 * when it is done.  It blocks every signal (as nginx's pool threads, of
 * which one created it) and lives as long as its process; only the
 * leader of the moment talks to it.
 */

struct vo_group_flusher_s {
    sem_t                 go;
    sem_t                 done;
    int                   fd;          /* the store, for syncfs() */
    int                   err;         /* errno of the last syncfs(), or 0 */
    int                   busy;        /* asked, and not yet waited for */
};


typedef struct {
    vo_group_t              *group;
    const vo_group_conf_t   *conf;
} vo_group_batch_t;


static void vo_group_commit(vo_group_t *g, vo_ledger_t *l,
    const vo_group_conf_t *conf, vo_admit_item_t **items, size_t n);
static vo_ledger_rc_t vo_group_synced(void *data, char *err,
    size_t err_size);
static void vo_group_flush_start(vo_group_t *g);
static int vo_group_flush_wait(vo_group_t *g);
static void *vo_group_flusher(void *data);
static void vo_group_wait(sem_t *sem);
static vo_ledger_rc_t vo_group_sync_failed(const vo_group_conf_t *conf,
    const char *op, int e, char *err, size_t err_size);
static int vo_group_lock(vo_group_t *g, const vo_group_conf_t *conf);


/*
 * Each thread sleeps on a semaphore of its own: a leader posts it after
 * releasing the mutex (a woken member then finds the mutex free), and a
 * post that arrives when the thread has moved on only costs it one
 * spurious wake-up later, which the loop below absorbs.  The semaphore
 * is allocated once per thread and never freed: a late post may come
 * after its thread has exited (nginx stops its pool threads while tasks
 * still run), and must not land in a freed stack's thread-local storage.
 */

static __thread sem_t  *vo_group_sem;


void
vo_group_admit(vo_group_t *g, vo_ledger_t *l, const vo_group_conf_t *conf,
    vo_group_member_t *m)
{
    int                 locked;
    size_t              i, n;
    sem_t              *sem, *wake[VO_GROUP_BATCH_MAX + 1];
    vo_admit_item_t    *items[VO_GROUP_BATCH_MAX];
    vo_group_member_t  *batch, *p, *last;

    if (vo_group_sem == NULL) {
        sem = malloc(sizeof(sem_t));

        if (sem == NULL || sem_init(sem, 0, 0) != 0) {
            free(sem);
            m->item.rc = VO_LEDGER_ERROR;
            m->item.receipt->outcome = VO_ADMIT_NONE;
            snprintf(m->item.err, m->item.err_size,
                     "group commit: out of memory");
            return;
        }

        vo_group_sem = sem;
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

            vo_group_wait(vo_group_sem);

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


/*
 * The leader's turn, its process's turn taken: the batch's statements,
 * and meanwhile the store's syncfs() in the flusher; the COMMIT after
 * both (vo_group_synced).
 */

static void
vo_group_commit(vo_group_t *g, vo_ledger_t *l, const vo_group_conf_t *conf,
    vo_admit_item_t **items, size_t n)
{
    size_t            i;
    vo_group_batch_t  b;

    if (!conf->sync) {
        (void) vo_ledger_admit_batch(l, items, n, NULL, NULL);
        return;
    }

    if (g->store_fd == -1) {
        g->store_fd = open(conf->store, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

        if (g->store_fd == -1) {
            for (i = 0; i < n; i++) {
                items[i]->rc = vo_group_sync_failed(conf, "open", errno,
                                                    items[i]->err,
                                                    items[i]->err_size);
                items[i]->receipt->outcome = VO_ADMIT_NONE;
            }

            return;
        }
    }

    vo_group_flush_start(g);

    b.group = g;
    b.conf = conf;

    (void) vo_ledger_admit_batch(l, items, n, vo_group_synced, &b);

    /* the transaction failed before its COMMIT: the flush is still owed */

    (void) vo_group_flush_wait(g);
}


/*
 * Between the batch's last statement and its COMMIT: every upload of the
 * batch durable, or nothing is committed (no receipt may point at a file
 * that is not).
 */

static vo_ledger_rc_t
vo_group_synced(void *data, char *err, size_t err_size)
{
    int                e;
    vo_group_batch_t  *b;

    b = data;

    e = b->group->flusher != NULL ? vo_group_flush_wait(b->group)
        : syncfs(b->group->store_fd) == 0 ? 0 : errno;

    return e == 0 ? VO_LEDGER_OK
                  : vo_group_sync_failed(b->conf, "syncfs", e, err, err_size);
}


/*
 * Asks the flusher for a syncfs() of the store, starting it first if
 * needed.  Without a flusher (it could not start) vo_group_synced()
 * syncs inline, as before it: only slower.
 */

static void
vo_group_flush_start(vo_group_t *g)
{
    pthread_t            tid;
    pthread_attr_t       attr;
    vo_group_flusher_t  *f;

    if (g->flusher == NULL && !g->no_flusher) {
        g->no_flusher = 1;

        f = calloc(1, sizeof(vo_group_flusher_t));
        if (f == NULL) {
            return;
        }

        f->fd = g->store_fd;

        if (sem_init(&f->go, 0, 0) != 0 || sem_init(&f->done, 0, 0) != 0) {
            free(f);
            return;
        }

        if (pthread_attr_init(&attr) != 0) {
            free(f);
            return;
        }

        (void) pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);

        if (pthread_create(&tid, &attr, vo_group_flusher, f) != 0) {
            (void) pthread_attr_destroy(&attr);
            free(f);
            return;
        }

        (void) pthread_attr_destroy(&attr);

        g->no_flusher = 0;
        g->flusher = f;
    }

    if (g->flusher != NULL) {
        g->flusher->busy = 1;
        (void) sem_post(&g->flusher->go);
    }
}


/* Waits for the syncfs() asked for, if any: its errno, or 0. */

static int
vo_group_flush_wait(vo_group_t *g)
{
    vo_group_flusher_t  *f;

    f = g->flusher;

    if (f == NULL || !f->busy) {
        return 0;
    }

    vo_group_wait(&f->done);
    f->busy = 0;

    return f->err;
}


static void *
vo_group_flusher(void *data)
{
    sigset_t             set;
    vo_group_flusher_t  *f;

    f = data;

    (void) sigfillset(&set);
    (void) pthread_sigmask(SIG_BLOCK, &set, NULL);

    for ( ;; ) {
        vo_group_wait(&f->go);

        f->err = syncfs(f->fd) == 0 ? 0 : errno;

        (void) sem_post(&f->done);
    }

    return NULL;
}


static void
vo_group_wait(sem_t *sem)
{
    while (sem_wait(sem) == -1 && errno == EINTR) {
        /* void */
    }
}


static vo_ledger_rc_t
vo_group_sync_failed(const vo_group_conf_t *conf, const char *op, int e,
    char *err, size_t err_size)
{
    snprintf(err, err_size, "%s(\"%s\") failed: %s", op, conf->store,
             strerror(e));

    return (e == ENOSPC || e == EDQUOT) ? VO_LEDGER_FULL : VO_LEDGER_ERROR;
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
