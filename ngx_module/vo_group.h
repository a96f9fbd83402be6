/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Group commit of admissions, for the threads of one nginx worker
 * process.  A thread with an admission to commit joins the group; the
 * first to find no leader becomes it, takes every admission waiting at
 * that moment and commits them in one ledger transaction (one WAL fsync
 * instead of one per request), then hands each member its own outcome.
 * Each member sleeps until its admission is done or it is first in line
 * to lead, so every reply still follows its own commit and a batch wakes
 * only the threads it concerns.  While a leader commits, the next
 * admissions queue up and form the next batch: under load batches grow,
 * at rest a batch is one admission and costs no extra wait.
 *
 * Durability: members write and rename their uploads without fsync; the
 * leader makes the whole batch durable with one syncfs() of the store's
 * filesystem before the ledger transaction, so a batch costs two flushes
 * (the store's, the WAL's) however many uploads it holds.
 *
 * Leaders of different worker processes take turns through an flock()
 * on a lock file next to the ledger: a FIFO hand-over in the kernel,
 * instead of SQLite's busy handler, whose growing sleeps would let one
 * process starve the other (seconds of tail latency under load).  A
 * leader waits for its turn before it takes its batch, so what queued
 * while another process committed joins it (batches of ~6.5 instead of
 * ~4 with two worker processes, docs/benchmarks.md).  Syncing the store
 * outside the turn, overlapping another process's commit, was slower:
 * the two flushes only compete for the disk.  A
 * PostgreSQL ledger has no lock file: its batches, from every process
 * and every host, commit concurrently, and only admissions of the same
 * key wait for each other (on the receipt's row, sql/vo_ledger_admit.c).
 *
 * Plain C and pthreads; no nginx types.
 */

#ifndef _VO_GROUP_H_INCLUDED_
#define _VO_GROUP_H_INCLUDED_


#include <pthread.h>
#include <semaphore.h>
#include <stdint.h>

#include "vo_ledger.h"


#define VO_GROUP_BATCH_MAX  VO_ADMIT_BATCH_MAX


typedef struct vo_group_member_s  vo_group_member_t;

struct vo_group_member_s {
    vo_admit_item_t       item;
    int                   done;
    sem_t                *sem;         /* its thread's: posted when its turn */
    vo_group_member_t    *next;
};


typedef struct {
    const char           *lock_path;   /* created if missing; NULL: none */
    const char           *store;       /* syncfs()'d when sync is set */
    int                   sync;
    volatile unsigned long  *batches;  /* if not NULL: batches committed */
    volatile unsigned long  *batched;  /* and the admissions in them */
} vo_group_conf_t;


typedef struct vo_group_sem_s  vo_group_sem_t;

typedef struct {
    pthread_mutex_t       mutex;
    vo_group_member_t    *head;
    vo_group_member_t    *tail;
    int                   leading;
    int                   lock_fd;     /* -1 until the first batch */
    int                   store_fd;
    vo_group_sem_t       *sems;        /* every member thread's */

} vo_group_t;


#define VO_GROUP_INITIALIZER                                                 \
    { PTHREAD_MUTEX_INITIALIZER, NULL, NULL, 0, -1, -1, NULL }


/*
 * Commits m->item through the group, using l (the process's connection
 * for group commits, used by one leader at a time) if this thread leads.
 * The caller has written the upload (not fsync'd: the leader
 * syncs the store when conf->sync).
 * Returns when m->item.rc and m->item.receipt hold the outcome.
 */
void vo_group_admit(vo_group_t *g, vo_ledger_t *l,
    const vo_group_conf_t *conf, vo_group_member_t *m);

/*
 * Frees what the group's threads leave behind (their semaphores, which
 * stay while a thread may still post one) and closes its files.  Only
 * once no thread that joined g runs any more: at a worker process's
 * exit, after its threads have gone.  A process has one group.
 */
void vo_group_release(vo_group_t *g);


#endif /* _VO_GROUP_H_INCLUDED_ */
