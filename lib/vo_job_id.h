/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The job id: 32 lowercase hex digits, made by the module at admission
 * (ngx_http_video_ocr_admit.c says how) and used as the name of the
 * job's ledger rows and of its file in the store.  One definition of its
 * spelling for every place that reads one from outside: a URL, a store
 * directory entry, a command line.  libc only.
 */

#ifndef _VO_JOB_ID_H_INCLUDED_
#define _VO_JOB_ID_H_INCLUDED_


#include <stddef.h>


#define VO_JOB_ID_LEN  32              /* lowercase hex digits */


/* 1 when the n bytes at s are lowercase hex digits, else 0. */
static inline int
vo_is_hex(const char *s, size_t n)
{
    size_t  i;

    for (i = 0; i < n; i++) {
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f'))) {
            return 0;
        }
    }

    return 1;
}


/* 1 when the n bytes at s spell a job id, else 0. */
static inline int
vo_job_id_valid(const char *s, size_t n)
{
    return n == VO_JOB_ID_LEN && vo_is_hex(s, n);
}


#endif /* _VO_JOB_ID_H_INCLUDED_ */
