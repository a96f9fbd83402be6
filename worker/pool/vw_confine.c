/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The user, network and resource limits of the worker pool; the rules are
 * in vw_confine.h.
 */

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "vw_confine.h"
#include "core/vw_core.h"


volatile sig_atomic_t  vw_cpu_exceeded;


static int vw_resolve_user(const char *spec, vw_user_t *u, char *err,
    size_t err_size);
static int vw_set_limit(int resource, int64_t value, const char *name);
static void vw_cpu_signal(int signo);


int
vw_confine_pool(const vw_confine_conf_t *conf, const char *ledger,
    int *no_network, char *err, size_t err_size)
{
    vw_user_t  u;

    *no_network = 0;

    if (vw_resolve_user(conf->user ? conf->user : "nobody", &u, err,
                        err_size)
        != 0)
    {
        return -1;
    }

    if (geteuid() != 0) {
        if (conf->user != NULL && getuid() != u.uid) {
            vw_log("supervisor: --user %s is ignored: only root can change "
                   "user; running as uid %ld", conf->user, (long) getuid());
        }

        vw_log("supervisor: not root: the network stays as it is; FFmpeg "
               "still opens nothing but the job's own file");
        return 0;
    }

    /*
     * A namespace of our own with nothing but a loopback that is down:
     * no connect() can succeed.  A ledger on a database server needs the
     * network, so only a ledger file gets this.
     */

    if (!conf->network && strstr(ledger, "://") == NULL) {
        if (unshare(CLONE_NEWNET) == -1) {
            vw_log("supervisor: unshare(CLONE_NEWNET) failed: %s; the pool "
                   "keeps the host's network (a container without "
                   "CAP_SYS_ADMIN?)", strerror(errno));

        } else {
            vw_log("supervisor: network: none (a namespace of its own)");
            *no_network = 1;
        }
    }

    if (setgroups((size_t) u.ngroups, u.groups) == -1
        || setgid(u.gid) == -1
        || setuid(u.uid) == -1)
    {
        snprintf(err, err_size, "switching to user \"%s\" (uid %ld, gid "
                 "%ld) failed: %s", u.name, (long) u.uid, (long) u.gid,
                 strerror(errno));
        return -1;
    }

    /* no way back: neither setuid(0) nor a set-user-ID binary */

    if (u.uid != 0 && setuid(0) != -1) {
        snprintf(err, err_size, "user \"%s\": root privileges could be "
                 "regained after setuid(); refusing to run", u.name);
        return -1;
    }

    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == -1) {
        snprintf(err, err_size, "prctl(PR_SET_NO_NEW_PRIVS) failed: %s",
                 strerror(errno));
        return -1;
    }

    vw_log("supervisor: running as user \"%s\" (uid %ld, gid %ld)", u.name,
           (long) u.uid, (long) u.gid);

    return 0;
}


int
vw_confine_child(const vw_confine_conf_t *conf)
{
    struct rlimit  rl;

    if (vw_set_limit(RLIMIT_AS, conf->max_memory, "--max-memory") != 0
        || vw_set_limit(RLIMIT_FSIZE, conf->max_file_size,
                        "--max-file-size") != 0
        || vw_set_limit(RLIMIT_NOFILE, conf->max_open_files,
                        "--max-open-files") != 0)
    {
        return -1;
    }

    /*
     * The per-job CPU budget moves the soft limit up job after job; that
     * needs a hard limit above it, which only root could raise again.
     */

    if (conf->max_cpu_ms > 0) {
        if (getrlimit(RLIMIT_CPU, &rl) == 0 && rl.rlim_max != RLIM_INFINITY) {
            vw_log("child: RLIMIT_CPU has a hard limit of %llu s: the "
                   "per-job budget (--max-cpu) stops working past it",
                   (unsigned long long) rl.rlim_max);
        }
    }

    return 0;
}


void
vw_confine_cpu_handler(void)
{
    struct sigaction  sa;

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = vw_cpu_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGXCPU, &sa, NULL);

    /* past RLIMIT_FSIZE write() fails with EFBIG instead of killing us */
    sa.sa_handler = SIG_IGN;
    sigaction(SIGXFSZ, &sa, NULL);
}


int
vw_confine_job(const vw_confine_conf_t *conf)
{
    struct rlimit  rl;
    struct rusage  ru;

    if (conf->max_cpu_ms <= 0) {
        return 0;
    }

    vw_cpu_exceeded = 0;

    if (getrusage(RUSAGE_SELF, &ru) == -1 || getrlimit(RLIMIT_CPU, &rl) == -1)
    {
        vw_log("child: CPU budget: %s", strerror(errno));
        return -1;
    }

    /* whole seconds, rounded so that the job gets at least its budget */
    rl.rlim_cur = (rlim_t) ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + 1
                  + (rlim_t) ((conf->max_cpu_ms + 999) / 1000);

    if (rl.rlim_max != RLIM_INFINITY && rl.rlim_cur > rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
    }

    if (setrlimit(RLIMIT_CPU, &rl) == -1) {
        vw_log("child: setrlimit(RLIMIT_CPU) failed: %s", strerror(errno));
        return -1;
    }

    return 0;
}


void
vw_confine_job_end(const vw_confine_conf_t *conf)
{
    struct rlimit  rl;

    if (conf->max_cpu_ms <= 0 || getrlimit(RLIMIT_CPU, &rl) == -1) {
        return;
    }

    rl.rlim_cur = rl.rlim_max;
    (void) setrlimit(RLIMIT_CPU, &rl);
}


/*
 * The kernel sends SIGXCPU once a CPU second past the soft limit.  The
 * first asks the pipeline to stop at its next frame boundary; a child
 * still busy VW_CPU_GRACE_S seconds later is stuck inside one library
 * call and is killed, which the pool handles as any dead child.
 */

static void
vw_cpu_signal(int signo)
{
    (void) signo;

    if (++vw_cpu_exceeded > VW_CPU_GRACE_S) {
        raise(SIGKILL);
    }
}


static int
vw_set_limit(int resource, int64_t value, const char *name)
{
    struct rlimit  rl;

    if (value <= 0) {
        return 0;
    }

    rl.rlim_cur = (rlim_t) value;
    rl.rlim_max = (rlim_t) value;

    if (setrlimit(resource, &rl) == -1) {
        vw_log("child: %s %lld: setrlimit() failed: %s", name,
               (long long) value, strerror(errno));
        return -1;
    }

    return 0;
}


static int
vw_resolve_user(const char *spec, vw_user_t *u, char *err, size_t err_size)
{
    int             n;
    char            name[64];
    const char     *colon;
    struct group   *gr;
    struct passwd  *pw;

    memset(u, 0, sizeof(vw_user_t));

    colon = strchr(spec, ':');
    n = colon ? (int) (colon - spec) : (int) strlen(spec);

    if (n == 0 || n >= (int) sizeof(name)) {
        snprintf(err, err_size, "--user \"%s\" must be USER or USER:GROUP",
                 spec);
        return -1;
    }

    memcpy(name, spec, (size_t) n);
    name[n] = '\0';

    errno = 0;
    pw = getpwnam(name);
    if (pw == NULL) {
        snprintf(err, err_size, "--user: no user \"%s\" on this system%s%s",
                 name, errno ? ": " : "", errno ? strerror(errno) : "");
        return -1;
    }

    snprintf(u->name, sizeof(u->name), "%s", name);
    u->uid = pw->pw_uid;
    u->gid = pw->pw_gid;

    if (colon != NULL) {
        errno = 0;
        gr = getgrnam(colon + 1);
        if (gr == NULL) {
            snprintf(err, err_size, "--user: no group \"%s\" on this "
                     "system%s%s", colon + 1, errno ? ": " : "",
                     errno ? strerror(errno) : "");
            return -1;
        }

        u->gid = gr->gr_gid;
    }

    u->ngroups = (int) (sizeof(u->groups) / sizeof(u->groups[0]));

    if (getgrouplist(name, u->gid, u->groups, &u->ngroups) == -1) {
        /* more than fit: the primary group alone */
        u->groups[0] = u->gid;
        u->ngroups = 1;
    }

    return 0;
}

