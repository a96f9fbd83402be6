/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The module's thread-pool tasks, following nginx's own thread-pool users
 * (ngx_http_file_cache.c, ngx_http_copy_filter_module.c):
 *
 *   event loop: allocate the task from the request pool, post it (a full
 *   queue is a 503), arm a timer, r->main->blocked++, r->aio = 1;
 *   thread:     the task's run function, which lives with the endpoint
 *               it serves: plain C on the task's own context, the store
 *               and the ledger, no request, no pool, no nginx logging;
 *   event loop: the completion event: blocked--, aio = 0, then the
 *               request's write handler, which is either the resume
 *               handler or, if the request was terminated meanwhile,
 *               nginx's finalizer.
 *
 * Each thread keeps its own ledger connection, opened on its first task,
 * and the process one more for its group commits (vo_group.h), opened by
 * the first admission that needs it.  The connections are closed by the
 * worker process's exit hook, not by a thread-exit destructor: nginx lets
 * the process go on (and unload this module) as soon as its threads have
 * been told to exit, so code of ours running in an exiting thread could
 * run in unmapped memory.
 *
 * For the same reason the exit hook first waits until every thread that
 * ran a task of ours has gone.  ngx_thread_pool_destroy() returns once
 * each thread has taken its exit task and cleared a flag, before that
 * thread's pthread_exit() has run its thread-specific-data destructors,
 * and some of those are code of the libraries this module brought in: a
 * thread that opened a PostgreSQL connection has one of libkrb5support's
 * (libpq asks GSSAPI for credentials at each connect).  After the exit
 * hooks the worker dlclose()s this module, which unmaps libpq and its
 * Kerberos libraries, then calls exit(): a thread still in such a
 * destructor then runs into unmapped memory, and the worker dies of
 * signal 11.
 */


#include <pthread.h>

#include "ngx_http_video_ocr.h"

#if (NGX_LINUX)
#include <sys/syscall.h>
#endif


static void ngx_http_video_ocr_task_handler(void *data, ngx_log_t *log);
static void ngx_http_video_ocr_task_event_handler(ngx_event_t *ev);
static void ngx_http_video_ocr_task_cleanup(void *data);
static vo_ledger_t *ngx_http_video_ocr_open_ledger(
    ngx_http_video_ocr_task_t *t);
static void ngx_http_video_ocr_close_ledger(vo_ledger_t *l);
static int ngx_http_video_ocr_thread_add(void);
static ngx_uint_t ngx_http_video_ocr_threads_wait(ngx_msec_t timeout);


typedef struct ngx_http_video_ocr_conn_s  ngx_http_video_ocr_conn_t;

struct ngx_http_video_ocr_conn_s {
    vo_ledger_t                *ledger;
    ngx_http_video_ocr_conn_t  *next;
};


typedef struct ngx_http_video_ocr_thread_s  ngx_http_video_ocr_thread_t;

struct ngx_http_video_ocr_thread_s {
    pid_t                         tid;
    ngx_http_video_ocr_thread_t  *next;
};


/* how long the exit hook waits for the threads to be gone */
#define NGX_HTTP_VIDEO_OCR_THREADS_EXIT  5000


/* this thread's connection, and every thread's, for the exit hook */
static __thread vo_ledger_t       *ngx_http_video_ocr_this_ledger;

/*
 * the connection the group's leaders commit through, whichever thread
 * leads: one leader at a time uses it, and its page cache stays warm
 * from batch to batch (a connection's cache is dropped whenever another
 * connection wrote, so with a connection per thread every batch began
 * by reading its pages again)
 */
static vo_ledger_t                *ngx_http_video_ocr_group_conn;
static ngx_http_video_ocr_conn_t  *ngx_http_video_ocr_conns;
static pthread_mutex_t             ngx_http_video_ocr_conns_mutex =
    PTHREAD_MUTEX_INITIALIZER;

/* every thread that ran a task of ours, for the exit hook to wait for */
static __thread ngx_uint_t          ngx_http_video_ocr_thread_known;
static ngx_http_video_ocr_thread_t *ngx_http_video_ocr_threads;


/*
 * A task of the request, from its pool; run is what the thread does with
 * it (the endpoint's own function, in the endpoint's file).
 */

ngx_thread_task_t *
ngx_http_video_ocr_task_alloc(ngx_http_request_t *r,
    ngx_http_video_ocr_run_pt run)
{
    ngx_thread_task_t               *task;
    ngx_pool_cleanup_t              *cln;
    ngx_http_video_ocr_task_t       *t;
    ngx_http_video_ocr_main_conf_t  *mcf;

    mcf = ngx_http_get_module_main_conf(r, ngx_http_video_ocr_module);

    task = ngx_thread_task_alloc(r->pool, sizeof(ngx_http_video_ocr_task_t));
    if (task == NULL) {
        return NULL;
    }

    t = task->ctx;
    t->run = run;
    t->mcf = mcf;
    t->store = mcf->store ? (char *) mcf->store->name.data : NULL;
    t->temp_fd = -1;

    /* frees what the thread malloc'd, whenever the request ends */

    cln = ngx_pool_cleanup_add(r->pool, 0);
    if (cln == NULL) {
        return NULL;
    }

    cln->handler = ngx_http_video_ocr_task_cleanup;
    cln->data = t;

    return task;
}


ngx_int_t
ngx_http_video_ocr_task_post(ngx_http_request_t *r, ngx_thread_task_t *task,
    ngx_http_event_handler_pt resume)
{
    ngx_http_video_ocr_loc_conf_t  *vlcf;

    vlcf = ngx_http_get_module_loc_conf(r, ngx_http_video_ocr_module);

    task->handler = ngx_http_video_ocr_task_handler;
    task->event.data = r;
    task->event.handler = ngx_http_video_ocr_task_event_handler;
    task->event.log = r->connection->log;

    if (ngx_thread_task_post(vlcf->thread_pool, task) != NGX_OK) {
        /* the queue is full; nginx has logged it */
        ngx_http_video_ocr_set_problem(r, NGX_HTTP_VIDEO_OCR_BUSY,
                                       "the server is busy; retry shortly");
        return NGX_HTTP_SERVICE_UNAVAILABLE;
    }

    ngx_add_timer(&task->event, NGX_HTTP_VIDEO_OCR_TASK_TIMEOUT);

    r->main->blocked++;
    r->aio = 1;
    r->write_event_handler = resume;

    return NGX_OK;
}


static void
ngx_http_video_ocr_task_event_handler(ngx_event_t *ev)
{
    ngx_connection_t    *c;
    ngx_http_request_t  *r;

    r = ev->data;
    c = r->connection;

    ngx_http_set_log_request(c->log, r);

    if (ev->timedout) {
        /* the task is stuck in a disk or the ledger; it cannot be undone */
        ngx_log_error(NGX_LOG_ALERT, c->log, 0,
                      "video_ocr: thread task still running after %ums",
                      (ngx_uint_t) NGX_HTTP_VIDEO_OCR_TASK_TIMEOUT);
        ev->timedout = 0;
        return;
    }

    if (ev->timer_set) {
        ngx_del_timer(ev);
    }

    ngx_log_debug2(NGX_LOG_DEBUG_HTTP, c->log, 0,
                   "video_ocr thread task done: \"%V?%V\"", &r->uri, &r->args);

    r->main->blocked--;
    r->aio = 0;

    r->write_event_handler(r);

    ngx_http_run_posted_requests(c);
}


static void
ngx_http_video_ocr_task_cleanup(void *data)
{
    ngx_http_video_ocr_task_t  *t = data;

    free(t->body);
    t->body = NULL;
}


/* In a thread-pool thread from here on: plain C only. */


static void
ngx_http_video_ocr_task_handler(void *data, ngx_log_t *log)
{
    ngx_http_video_ocr_task_t  *t = data;

    if (!ngx_http_video_ocr_thread_known
        && ngx_http_video_ocr_thread_add() != 0)
    {
        /* as if the ledger could not be opened: the task did nothing */
        t->ledger_rc = VO_LEDGER_ERROR;
        snprintf(t->err, sizeof(t->err), "thread pool: out of memory");
        return;
    }

    t->run(t);
}


/*
 * The reply body a ledger call wrote into b becomes t->body (malloc'd,
 * sent and freed by the event loop); after a failed call b is freed.
 * Running out of memory here fails the task, named by what and name.
 */

void
ngx_http_video_ocr_take_body(ngx_http_video_ocr_task_t *t, vo_buf_t *b,
    const char *what, const char *name)
{
    if (t->ledger_rc != VO_LEDGER_OK) {
        vo_buf_free(b);
        return;
    }

    t->body = vo_buf_detach(b, &t->body_len);

    if (t->body == NULL) {
        t->ledger_rc = VO_LEDGER_ERROR;
        snprintf(t->err, sizeof(t->err), "%s%s: out of memory", what, name);
    }
}


/*
 * This thread's ledger connection, opened on first use.  A failed open is
 * retried by the next task, so a ledger that comes back (permissions
 * fixed, disk remounted) is picked up without a reload.
 */

vo_ledger_t *
ngx_http_video_ocr_thread_ledger(ngx_http_video_ocr_task_t *t)
{
    if (ngx_http_video_ocr_this_ledger == NULL) {
        ngx_http_video_ocr_this_ledger = ngx_http_video_ocr_open_ledger(t);
    }

    return ngx_http_video_ocr_this_ledger;
}


/*
 * The group's connection, opened by the first thread that needs it.  The
 * open is not under a lock: while the ledger cannot be opened (a
 * database down), threads fail side by side instead of one after
 * another; when two succeed at once, one connection is kept.
 */

vo_ledger_t *
ngx_http_video_ocr_group_ledger(ngx_http_video_ocr_task_t *t)
{
    vo_ledger_t  *l, *kept;

    kept = __atomic_load_n(&ngx_http_video_ocr_group_conn, __ATOMIC_ACQUIRE);
    if (kept != NULL) {
        return kept;
    }

    l = ngx_http_video_ocr_open_ledger(t);
    if (l == NULL) {
        return NULL;
    }

    if (__atomic_compare_exchange_n(&ngx_http_video_ocr_group_conn, &kept, l,
                                    0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    {
        return l;
    }

    /* another thread's came first */

    ngx_http_video_ocr_close_ledger(l);

    return kept;
}


/* Closes a connection of the exit hook's list, and takes it off. */

static void
ngx_http_video_ocr_close_ledger(vo_ledger_t *l)
{
    ngx_http_video_ocr_conn_t  *conn, **prev;

    (void) pthread_mutex_lock(&ngx_http_video_ocr_conns_mutex);

    for (prev = &ngx_http_video_ocr_conns; *prev; prev = &(*prev)->next) {
        conn = *prev;

        if (conn->ledger == l) {
            *prev = conn->next;
            free(conn);
            break;
        }
    }

    (void) pthread_mutex_unlock(&ngx_http_video_ocr_conns_mutex);

    vo_ledger_close(l);
}


/* A new connection, on the list that the exit hook closes. */

static vo_ledger_t *
ngx_http_video_ocr_open_ledger(ngx_http_video_ocr_task_t *t)
{
    vo_ledger_t                *l;
    ngx_http_video_ocr_conn_t  *conn;

    conn = malloc(sizeof(ngx_http_video_ocr_conn_t));
    if (conn == NULL) {
        t->ledger_rc = VO_LEDGER_ERROR;
        snprintf(t->err, sizeof(t->err), "ledger connection: out of memory");
        return NULL;
    }

    t->ledger_rc = vo_ledger_open((char *) t->mcf->ledger.data,
                                  &t->mcf->ledger_conf, &l, t->err,
                                  sizeof(t->err));
    if (t->ledger_rc != VO_LEDGER_OK) {
        free(conn);
        return NULL;
    }

    conn->ledger = l;

    (void) pthread_mutex_lock(&ngx_http_video_ocr_conns_mutex);
    conn->next = ngx_http_video_ocr_conns;
    ngx_http_video_ocr_conns = conn;
    (void) pthread_mutex_unlock(&ngx_http_video_ocr_conns_mutex);

    return l;
}


/*
 * This thread, on the list of those the exit hook waits for: 0, or -1
 * when out of memory (the task is then not run).
 */

static int
ngx_http_video_ocr_thread_add(void)
{
    ngx_http_video_ocr_thread_t  *th;

    th = malloc(sizeof(ngx_http_video_ocr_thread_t));
    if (th == NULL) {
        return -1;
    }

#if (NGX_LINUX)
    th->tid = (pid_t) syscall(SYS_gettid);
#else
    th->tid = 0;
#endif

    (void) pthread_mutex_lock(&ngx_http_video_ocr_conns_mutex);
    th->next = ngx_http_video_ocr_threads;
    ngx_http_video_ocr_threads = th;
    (void) pthread_mutex_unlock(&ngx_http_video_ocr_conns_mutex);

    ngx_http_video_ocr_thread_known = 1;

    return 0;
}


/*
 * Back in the event loop, at worker process exit, after the thread pool
 * module's exit hook has stopped the pools (its module comes first):
 * waits until the threads that ran our tasks have gone, then closes
 * every connection (the last close checkpoints SQLite's WAL): NGX_OK,
 * and the caller frees what the threads shared.  A thread still
 * there after the wait (nginx could not post its exit task, so it may
 * still run a task) keeps the connections open, and NGX_AGAIN says so:
 * the process exits with them.
 */

ngx_int_t
ngx_http_video_ocr_exit_threads(ngx_log_t *log)
{
    ngx_uint_t                   left;
    ngx_http_video_ocr_conn_t   *conn, *next;

    left = ngx_http_video_ocr_threads_wait(NGX_HTTP_VIDEO_OCR_THREADS_EXIT);

    if (left) {
        ngx_log_error(NGX_LOG_ALERT, log, 0,
                      "video_ocr: %ui thread(s) of the thread pool still "
                      "running %ums after the pool was stopped; their "
                      "ledger connections are left open",
                      left, (ngx_uint_t) NGX_HTTP_VIDEO_OCR_THREADS_EXIT);
        return NGX_AGAIN;
    }

    (void) pthread_mutex_lock(&ngx_http_video_ocr_conns_mutex);

    for (conn = ngx_http_video_ocr_conns; conn; conn = next) {
        next = conn->next;
        vo_ledger_close(conn->ledger);
        free(conn);
    }

    ngx_http_video_ocr_conns = NULL;
    ngx_http_video_ocr_group_conn = NULL;

    (void) pthread_mutex_unlock(&ngx_http_video_ocr_conns_mutex);

    return NGX_OK;
}


/*
 * Waits until no thread of the list is left in the process (a thread's
 * id answers tgkill() until the kernel has released the thread, after
 * its last instruction), polling every millisecond, at most timeout ms.
 * Returns how many are left.
 */

static ngx_uint_t
ngx_http_video_ocr_threads_wait(ngx_msec_t timeout)
{
    ngx_uint_t                    left;
    ngx_msec_t                    waited;
    ngx_http_video_ocr_thread_t  *th, *next;

    left = 0;

#if (NGX_LINUX)

    for (waited = 0; /* void */; waited++) {
        left = 0;

        for (th = ngx_http_video_ocr_threads; th; th = th->next) {
            if (th->tid != 0
                && syscall(SYS_tgkill, (long) ngx_pid, (long) th->tid, 0L)
                   == 0)
            {
                left++;
            }
        }

        if (left == 0 || waited == timeout) {
            break;
        }

        ngx_msleep(1);
    }

#else

    (void) waited;

#endif

    if (left) {
        return left;
    }

    for (th = ngx_http_video_ocr_threads; th; th = next) {
        next = th->next;
        free(th);
    }

    ngx_http_video_ocr_threads = NULL;

    return 0;
}
