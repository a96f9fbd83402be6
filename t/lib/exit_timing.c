/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * exit_timing.so: an LD_PRELOAD library for nginx in the lifecycle tests
 * (t/nginx/012-exit-threads.t).  It changes no result, only when things
 * happen at a worker process's exit, and it reports what it saw:
 *
 *   sqlite3_open_v2(),      a thread opening a ledger connection: it
 *   PQconnectdbParams()     runs code of the libraries the module brought
 *                           in, and is remembered by its thread id;
 *   pthread_exit()          a thread-pool thread leaving: nginx has
 *                           already moved on (ngx_thread_pool_destroy
 *                           waits for a flag the thread clears just
 *                           before); held EXIT_TIMING_EXIT_US first;
 *   pthread_mutex_unlock()  called by a thread in pthread_exit (a
 *                           thread-specific-data destructor that takes a
 *                           lock: libkrb5support's, after libpq used
 *                           GSSAPI): held EXIT_TIMING_UNLOCK_US after the
 *                           unlock, before the destructor returns;
 *   dlclose()               the worker unloading the module at its exit:
 *                           every remembered thread (but the caller) that
 *                           still exists is reported, then the process
 *                           is held EXIT_TIMING_DLCLOSE_US after the
 *                           unload, so that a late thread runs into it
 *                           rather than being ended by exit().
 *
 * The report, one line per event, goes to EXIT_TIMING_LOG:
 *   "held PID N"               N threads had called pthread_exit
 *   "unlock PID"               an exiting thread was held after an unlock
 *   "alive PID TID at dlclose" a thread that had opened a ledger
 *                              connection still existed
 * nginx resets the environment of its workers: the settings are read
 * once, when the master process starts.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>


#define EXIT_TIMING_MAX  4096


static unsigned      exit_us, unlock_us, dlclose_us;
static char          log_path[1024];

static pid_t         users[EXIT_TIMING_MAX];
static unsigned      nusers, nexited;
static __thread int  user, exiting;


static unsigned
env_us(const char *name)
{
    const char  *v = getenv(name);

    return v ? (unsigned) strtoul(v, NULL, 10) : 0;
}


__attribute__((constructor)) static void
exit_timing_init(void)
{
    const char  *p = getenv("EXIT_TIMING_LOG");

    exit_us = env_us("EXIT_TIMING_EXIT_US");
    unlock_us = env_us("EXIT_TIMING_UNLOCK_US");
    dlclose_us = env_us("EXIT_TIMING_DLCLOSE_US");

    if (p != NULL) {
        snprintf(log_path, sizeof(log_path), "%s", p);
    }
}


static void
report(const char *fmt, long a, long b)
{
    int   fd, n;
    char  line[128];

    if (log_path[0] == '\0') {
        return;
    }

    n = snprintf(line, sizeof(line), fmt, a, b);

    fd = open(log_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
    if (fd == -1) {
        return;
    }

    if (write(fd, line, (size_t) n) != n) {
        /* a test reads the file; nothing better to do here */
    }

    (void) close(fd);
}


static void
remember(void)
{
    unsigned  i;

    if (user) {
        return;
    }

    user = 1;

    i = __atomic_fetch_add(&nusers, 1, __ATOMIC_RELAXED);

    if (i < EXIT_TIMING_MAX) {
        __atomic_store_n(&users[i], (pid_t) syscall(SYS_gettid),
                         __ATOMIC_RELEASE);
    }
}


int
sqlite3_open_v2(const char *name, void **db, int flags, const char *vfs)
{
    int  (*real)(const char *, void **, int, const char *);

    remember();

    real = (int (*)(const char *, void **, int, const char *))
               dlsym(RTLD_NEXT, "sqlite3_open_v2");

    return real(name, db, flags, vfs);
}


void *
PQconnectdbParams(const char *const *keys, const char *const *values,
    int expand)
{
    void  *(*real)(const char *const *, const char *const *, int);

    remember();

    real = (void *(*)(const char *const *, const char *const *, int))
               dlsym(RTLD_NEXT, "PQconnectdbParams");

    return real(keys, values, expand);
}


void
pthread_exit(void *retval)
{
    void  (*real)(void *);

    real = (void (*)(void *)) dlsym(RTLD_NEXT, "pthread_exit");

    (void) __atomic_fetch_add(&nexited, 1, __ATOMIC_RELAXED);

    exiting = 1;

    if (exit_us) {
        usleep(exit_us);
    }

    real(retval);
    __builtin_unreachable();
}


int
pthread_mutex_unlock(pthread_mutex_t *m)
{
    int         rc;
    static int (*real)(pthread_mutex_t *);

    if (real == NULL) {
        real = (int (*)(pthread_mutex_t *))
                   dlsym(RTLD_NEXT, "pthread_mutex_unlock");
    }

    rc = real(m);

    if (exiting && unlock_us) {
        report("unlock %ld\n", (long) getpid(), 0);
        usleep(unlock_us);
    }

    return rc;
}


int
dlclose(void *handle)
{
    int       rc;
    pid_t     tid, self;
    unsigned  i, n;
    int     (*real)(void *);

    real = (int (*)(void *)) dlsym(RTLD_NEXT, "dlclose");

    n = __atomic_exchange_n(&nexited, 0, __ATOMIC_ACQ_REL);

    if (n > 0) {
        report("held %ld %ld\n", (long) getpid(), (long) n);
    }

    self = (pid_t) syscall(SYS_gettid);

    for (i = 0; i < nusers && i < EXIT_TIMING_MAX; i++) {
        tid = __atomic_load_n(&users[i], __ATOMIC_ACQUIRE);

        /* a thread id of the master's, in a worker, is another process's */

        if (tid != 0 && tid != self
            && syscall(SYS_tgkill, (long) getpid(), (long) tid, 0L) == 0)
        {
            report("alive %ld %ld at dlclose\n", (long) getpid(), (long) tid);
        }
    }

    rc = real(handle);

    if (dlclose_us && n > 0) {
        usleep(dlclose_us);
    }

    return rc;
}
