/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The supervisor, in the manner of runit's runsv and nginx's master:
 *
 *   - signal handlers only set flags; the loop sleeps in ppoll() with the
 *     signals unblocked atomically, so no signal is lost between a check
 *     and the sleep;
 *   - children are reaped with a waitpid(-1, WNOHANG) loop;
 *   - a slot is restarted no faster than once a second, and a child that
 *     keeps dying young backs off (1, 2, 4 ... 30 s);
 *   - exit code 78 (EX_CONFIG) from a child means "fatal, do not respawn":
 *     the whole pool stops, since every child shares the configuration;
 *   - SIGTERM or SIGINT: SIGTERM to every child, which releases its job
 *     and exits; SIGKILL to those still alive after --grace;
 *   - children are fork+exec'd with PR_SET_PDEATHSIG, so none outlives a
 *     supervisor that is killed outright.
 *
 * Slots: the OCR children (0 .. --workers - 1), then the janitor, then
 * the webhook deliverers (--deliverers), each restarted the same way.
 */

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "vo_ledger.h"
#include "core/vw_core.h"
#include "vw_pool.h"


#define VW_RESTART_MIN_MS   1000
#define VW_RESTART_MAX_MS   30000
#define VW_HEALTHY_MS       10000    /* a child that lived this long is ok */


typedef struct {
    pid_t     pid;                   /* 0: not running */
    int64_t   started_at;
    int64_t   restart_at;
    int64_t   backoff_ms;
} vw_slot_t;


typedef struct {
    const vw_pool_conf_t  *conf;
    int                    argc;     /* the command line the children */
    char                 **argv;     /* are exec'd with */
    vw_slot_t             *slots;
    int                    n;
    int                    workers;  /* slots 0 .. workers - 1: OCR */
    int                    fatal;    /* a child exited EX_CONFIG */
    int                    stopping;
    int                    killed;   /* SIGKILL sent */
    int64_t                deadline; /* of the grace period */
} vw_super_t;


static volatile sig_atomic_t  vw_got_child;
static volatile sig_atomic_t  vw_got_stop;


static int vw_super_prepare(const vw_pool_conf_t *conf, int *deliverers);
static void vw_super_signals(sigset_t *orig);
static void vw_super_stop(vw_super_t *s, int64_t now);
static int vw_super_spawn(vw_super_t *s, int64_t now, int64_t *wake);
static int64_t vw_super_kill(vw_super_t *s, int64_t now, int running);
static void vw_super_sleep(int64_t now, int64_t wake, const sigset_t *orig);
static void vw_super_signal(int signo);
static pid_t vw_spawn(const vw_pool_conf_t *conf, int slot, const char *cmd,
    int argc, char **argv);
static int vw_reap(vw_slot_t *slots, int n, int stopping);
static void vw_signal_all(vw_slot_t *slots, int n, int signo);


int
vw_supervise(const vw_pool_conf_t *conf, int argc, char **argv)
{
    int          i, rc, running, deliverers;
    char         ledger[256];
    int64_t      now, wake;
    sigset_t     orig;
    vw_super_t   s;

    rc = vw_super_prepare(conf, &deliverers);

    if (rc != VW_EXIT_OK) {
        return rc;
    }

    memset(&s, 0, sizeof(vw_super_t));
    s.conf = conf;
    s.argc = argc;
    s.argv = argv;
    s.workers = conf->workers;
    s.n = conf->workers + (conf->janitor ? 1 : 0) + deliverers;

    s.slots = calloc((size_t) s.n, sizeof(vw_slot_t));
    if (s.slots == NULL) {
        vw_log("supervisor: out of memory");
        return VW_EXIT_FAILED;
    }

    vw_super_signals(&orig);

    /* a URI's password stays out of the log */
    vo_ledger_redact(conf->ledger, ledger, sizeof(ledger));

    vw_log("supervisor: starting %d children%s, %d webhook deliverer%s, "
           "ledger \"%s\", store \"%s\"", conf->workers,
           conf->janitor ? " and the janitor" : "", deliverers,
           deliverers == 1 ? "" : "s", ledger, conf->store);

    now = vw_now_ms();

    for (i = 0; i < s.n; i++) {
        s.slots[i].backoff_ms = VW_RESTART_MIN_MS;
        s.slots[i].restart_at = now;
    }

    for ( ;; ) {

        if (vw_got_child) {
            vw_got_child = 0;

            if (vw_reap(s.slots, s.n, s.stopping) != 0 && !s.stopping) {
                s.fatal = 1;
                vw_got_stop = 1;
            }
        }

        now = vw_now_ms();

        if (vw_got_stop && !s.stopping) {
            vw_super_stop(&s, now);
        }

        running = vw_super_spawn(&s, now, &wake);

        if (s.stopping) {
            if (running == 0) {
                break;
            }

            wake = vw_super_kill(&s, now, running);
        }

        if (vw_got_child || (vw_got_stop && !s.stopping)) {
            continue;
        }

        vw_super_sleep(now, wake, &orig);
    }

    vw_log("supervisor: all children exited%s",
           s.fatal ? " (a child reported a fatal configuration error)" : "");

    free(s.slots);

    return s.fatal ? VW_EXIT_CONFIG : VW_EXIT_OK;
}


/*
 * Before any child: the user and network of the whole pool (before
 * anything is opened), the ledger migrated once and closed again (the
 * children open their own connections after exec), and how many
 * deliverers this pool can run.  VW_EXIT_OK, or the exit code.
 */
static int
vw_super_prepare(const vw_pool_conf_t *conf, int *deliverers)
{
    int               no_network;
    char              err[256];
    vo_ledger_t      *l;
    vo_ledger_conf_t  lconf;
    struct stat       st;

    if (vw_confine_pool(&conf->confine, conf->ledger, &no_network, err,
                        sizeof(err))
        != 0)
    {
        vw_log("supervisor: %s", err);
        return VW_EXIT_CONFIG;
    }

    lconf.busy_timeout_ms = conf->busy_timeout_ms;
    lconf.sync_full = 1;
    lconf.migrate = 1;

    if (vo_ledger_open(conf->ledger, &lconf, &l, err, sizeof(err))
        != VO_LEDGER_OK)
    {
        vw_log("supervisor: %s", err);
        return VW_EXIT_CONFIG;
    }

    vo_ledger_close(l);

    /* RLIMIT_FSIZE counts the ledger too: say so before it bites */

    if (conf->confine.max_file_size > 0 && stat(conf->ledger, &st) == 0
        && st.st_size > conf->confine.max_file_size / 2)
    {
        vw_log("supervisor: the ledger is %lld MiB, more than half of "
               "--max-file-size (%lld MiB): raise it before the children's "
               "writes fail with \"File too large\"",
               (long long) (st.st_size >> 20),
               (long long) (conf->confine.max_file_size >> 20));
    }

    /*
     * the OCR children, then the janitor, then the deliverers; these need
     * the network, which a pool without one cannot give them
     */

    *deliverers = conf->deliverers;

    if (*deliverers > 0 && no_network) {
        vw_log("supervisor: webhooks: no deliverer started: this pool has "
               "no network; run the deliverers in a pool of their own with "
               "the network (run --workers 0 --no-janitor --deliverers N "
               "--allow-network, docs/worker.md): meanwhile notifications "
               "wait in the ledger");
        *deliverers = 0;
    }

    if (conf->workers == 0 && *deliverers == 0 && !conf->janitor) {
        vw_log("supervisor: nothing to run (--workers 0 and no deliverer)");
        return VW_EXIT_CONFIG;
    }

    return VW_EXIT_OK;
}


/* SIGCHLD, SIGTERM and SIGINT only set flags, and are blocked but while
 * the loop sleeps (*orig: the mask it sleeps with). */
static void
vw_super_signals(sigset_t *orig)
{
    sigset_t          block;
    struct sigaction  sa;

    sigemptyset(&block);
    sigaddset(&block, SIGCHLD);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGINT);
    sigprocmask(SIG_BLOCK, &block, orig);

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = vw_super_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGCHLD, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
}


/* Shutdown begins: SIGTERM to every child, SIGKILL after the grace. */
static void
vw_super_stop(vw_super_t *s, int64_t now)
{
    s->stopping = 1;
    s->deadline = now + s->conf->grace_ms;

    vw_log("supervisor: stopping: SIGTERM to the children, SIGKILL "
           "after %lldms", (long long) s->conf->grace_ms);

    vw_signal_all(s->slots, s->n, SIGTERM);
}


/*
 * Starts the slots that are due (unless stopping); returns how many
 * children run, *wake the next restart due (in a minute at most).
 */
static int
vw_super_spawn(vw_super_t *s, int64_t now, int64_t *wake)
{
    int         i, running;
    vw_slot_t  *slot;

    running = 0;
    *wake = now + 60000;

    for (i = 0; i < s->n; i++) {
        slot = &s->slots[i];

        if (slot->pid != 0) {
            running++;
            continue;
        }

        if (s->stopping) {
            continue;
        }

        if (slot->restart_at <= now) {
            slot->pid = vw_spawn(s->conf, i,
                                 i < s->workers ? "child"
                                 : (i == s->workers && s->conf->janitor)
                                   ? "janitor" : "deliverer",
                                 s->argc, s->argv);

            /* the clock after the fork, not the loop's: a slow fork
             * must not eat into the restart throttle */
            slot->started_at = vw_now_ms();

            if (slot->pid > 0) {
                running++;
                continue;
            }

            /* fork failed: try again after the backoff */
            slot->pid = 0;
            slot->restart_at = now + slot->backoff_ms;
        }

        if (slot->restart_at < *wake) {
            *wake = slot->restart_at;
        }
    }

    return running;
}


/* While stopping: SIGKILL once the grace has passed; returns when to
 * look again. */
static int64_t
vw_super_kill(vw_super_t *s, int64_t now, int running)
{
    if (!s->killed && now >= s->deadline) {
        vw_log("supervisor: %d children still running after the "
               "grace period: SIGKILL", running);
        vw_signal_all(s->slots, s->n, SIGKILL);
        s->killed = 1;
    }

    return s->killed ? now + 1000 : s->deadline;
}


/* Sleeps until wake with the signals unblocked: they wake it up. */
static void
vw_super_sleep(int64_t now, int64_t wake, const sigset_t *orig)
{
    struct timespec  ts;

    if (wake < now) {
        wake = now;
    }

    ts.tv_sec = (wake - now) / 1000;
    ts.tv_nsec = ((wake - now) % 1000) * 1000000;

    (void) ppoll(NULL, 0, &ts, orig);
}


static void
vw_super_signal(int signo)
{
    if (signo == SIGCHLD) {
        vw_got_child = 1;

    } else {
        vw_got_stop = 1;
    }
}


static pid_t
vw_spawn(const vw_pool_conf_t *conf, int slot, const char *cmd, int argc,
    char **argv)
{
    int                i, n;
    char             **cargv, slot_arg[16];
    pid_t              pid, parent;
    sigset_t           none;
    struct sigaction   sa;

    /* video-ocr-worker child|janitor --slot N <the options given to run> */

    cargv = calloc((size_t) argc + 4, sizeof(char *));
    if (cargv == NULL) {
        vw_log("supervisor: out of memory");
        return -1;
    }

    snprintf(slot_arg, sizeof(slot_arg), "%d", slot);

    n = 0;
    cargv[n++] = "video-ocr-worker";
    cargv[n++] = (char *) cmd;
    cargv[n++] = "--slot";
    cargv[n++] = slot_arg;

    for (i = 1; i < argc; i++) {
        cargv[n++] = argv[i];
    }

    cargv[n] = NULL;

    parent = getpid();
    pid = fork();

    if (pid == -1) {
        vw_log("supervisor: fork() for slot %d failed: %s", slot,
               strerror(errno));
        free(cargv);
        return -1;
    }

    if (pid == 0) {
        /* die with the supervisor, whatever kills it */
        (void) prctl(PR_SET_PDEATHSIG, SIGTERM);

        if (getppid() != parent) {
            _exit(VW_EXIT_FAILED);
        }

        memset(&sa, 0, sizeof(sa));
        sa.sa_handler = SIG_DFL;
        sigaction(SIGCHLD, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
        sigaction(SIGINT, &sa, NULL);

        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);

        /* read by run as root; the children may not be able to */
        if (conf->key_hash_secret != NULL
            && setenv("VIDEO_OCR_KEY_HASH_SECRET", conf->key_hash_secret, 1)
               != 0)
        {
            _exit(VW_EXIT_FAILED);
        }

        /* the OCR children read untrusted files: limits (vw_confine.h) */
        if (slot < conf->workers && vw_confine_child(&conf->confine) != 0) {
            _exit(VW_EXIT_CONFIG);
        }

        execv("/proc/self/exe", cargv);

        vw_log("supervisor: exec for slot %d failed: %s", slot,
               strerror(errno));
        _exit(VW_EXIT_CONFIG);
    }

    free(cargv);

    vw_log("supervisor: slot %d: started %s %ld", slot, cmd, (long) pid);

    return pid;
}


/*
 * Collects every exited child and schedules its restart.  Returns -1 when
 * a child exited with VW_EXIT_CONFIG.
 */

static int
vw_reap(vw_slot_t *slots, int n, int stopping)
{
    int      i, status, rc;
    pid_t    pid;
    int64_t  now, lived;

    rc = 0;

    while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {

        now = vw_now_ms();

        for (i = 0; i < n; i++) {
            if (slots[i].pid == pid) {
                break;
            }
        }

        if (i == n) {
            continue;
        }

        slots[i].pid = 0;
        lived = now - slots[i].started_at;

        if (WIFEXITED(status)) {
            vw_log("supervisor: slot %d: child %ld exited with code %d "
                   "after %lldms", i, (long) pid, WEXITSTATUS(status),
                   (long long) lived);

            if (WEXITSTATUS(status) == VW_EXIT_CONFIG) {
                rc = -1;
            }

        } else if (WIFSIGNALED(status)) {
            vw_log("supervisor: slot %d: child %ld killed by signal %d "
                   "after %lldms", i, (long) pid, WTERMSIG(status),
                   (long long) lived);
        }

        if (stopping) {
            continue;
        }

        /* restart no sooner than a second after the last start, and
         * twice as late each time a child dies young again */

        if (lived >= VW_HEALTHY_MS) {
            slots[i].backoff_ms = VW_RESTART_MIN_MS;
        }

        slots[i].restart_at = slots[i].started_at + slots[i].backoff_ms;

        slots[i].backoff_ms *= 2;

        if (slots[i].backoff_ms > VW_RESTART_MAX_MS) {
            slots[i].backoff_ms = VW_RESTART_MAX_MS;
        }

        if (slots[i].restart_at > now) {
            vw_log("supervisor: slot %d: restart in %lldms", i,
                   (long long) (slots[i].restart_at - now));
        }
    }

    return rc;
}


static void
vw_signal_all(vw_slot_t *slots, int n, int signo)
{
    int  i;

    for (i = 0; i < n; i++) {
        if (slots[i].pid > 0) {
            (void) kill(slots[i].pid, signo);
        }
    }
}

