/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * What the worker pool may do: the user it runs as, the network it sees,
 * and the resources each OCR child may take.  The pool reads untrusted
 * video files with FFmpeg and Tesseract; whatever a hostile file makes
 * them do, it does as an unprivileged user, with no network, inside
 * these limits.
 *
 *   - started as root, the supervisor moves to a network namespace of its
 *     own (only a loopback that is down) when the ledger is a local file,
 *     then drops to --user (default nobody, like nginx's workers) before
 *     it opens anything; every child inherits both;
 *   - each OCR child gets RLIMIT_AS, RLIMIT_FSIZE and RLIMIT_NOFILE when
 *     it is forked, and an RLIMIT_CPU soft limit at the start of every
 *     job (its CPU time so far plus the job's budget): the kernel's
 *     SIGXCPU ends the job as rejected with code "cpu_limit", and a child
 *     that does not get back to a frame boundary within
 *     VW_CPU_GRACE_S more CPU seconds is killed by the hard limit.
 */

#ifndef _VW_CONFINE_H_INCLUDED_
#define _VW_CONFINE_H_INCLUDED_


#include <signal.h>
#include <stdint.h>
#include <sys/types.h>


#define VW_CPU_GRACE_S            10
#define VW_DEFAULT_MAX_MEMORY     (4LL << 30)
#define VW_DEFAULT_MAX_FILE_SIZE  (16LL << 30)


typedef struct {
    char          name[64];          /* for the logs */
    uid_t         uid;
    gid_t         gid;
    gid_t         groups[64];        /* supplementary groups */
    int           ngroups;
} vw_user_t;


typedef struct {
    const char   *user;              /* --user USER[:GROUP], NULL: nobody */
    int64_t       max_memory;        /* bytes of address space, 0: none */
    int64_t       max_file_size;     /* bytes, 0: none */
    int64_t       max_open_files;    /* 0: none */
    int64_t       max_cpu_ms;        /* CPU time per job, 0: none */
    int           network;           /* 1: keep the host's network */
} vw_confine_conf_t;


/* Set by the SIGXCPU handler of an OCR child; the tick hook reads it. */
extern volatile sig_atomic_t  vw_cpu_exceeded;


/*
 * The supervisor, first thing: when root, the network namespace (unless
 * the ledger is not a file, or conf->network) and the switch to the user.
 * Returns 0, or -1 with a sentence in err.  Not root: logs what it did not
 * do and returns 0.  *no_network is set when the pool has no network
 * (webhook deliverers would have nothing to send with).
 */
int vw_confine_pool(const vw_confine_conf_t *conf, const char *ledger,
    int *no_network, char *err, size_t err_size);

/* An OCR child between fork and exec: the resource limits. */
int vw_confine_child(const vw_confine_conf_t *conf);

/* An OCR child after exec: the SIGXCPU handler. */
void vw_confine_cpu_handler(void);

/* An OCR child at the start of each job: its CPU budget from now on;
 * at the end: no budget while it waits for the next. */
int vw_confine_job(const vw_confine_conf_t *conf);
void vw_confine_job_end(const vw_confine_conf_t *conf);


#endif /* _VW_CONFINE_H_INCLUDED_ */
