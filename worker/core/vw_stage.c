/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The stage clock (vw_stage.h).  CLOCK_THREAD_CPUTIME_ID: the decoder's
 * own threads (--threads above 1) and any other thread are not in it,
 * so the stages add up to at most the process's CPU time.
 */

#include <time.h>

#include "vw_stage.h"


static _Thread_local int64_t     vw_stage_us[VW_STAGE_N];
static _Thread_local int64_t     vw_stage_mark;     /* last switch, us */
static _Thread_local vw_stage_t  vw_stage_cur = VW_STAGE_OTHER;

static const char  *vw_stage_names[VW_STAGE_N] = {
    "inspect", "demux", "decode", "looks", "text_layer", "ocr", "merge",
    "other"
};


static int64_t
vw_stage_now_us(void)
{
    struct timespec  ts;

    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) {
        return 0;
    }

    return (int64_t) ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}


void
vw_stage_reset(void)
{
    int  s;

    for (s = 0; s < VW_STAGE_N; s++) {
        vw_stage_us[s] = 0;
    }

    vw_stage_cur = VW_STAGE_OTHER;
    vw_stage_mark = vw_stage_now_us();
}


vw_stage_t
vw_stage_enter(vw_stage_t s)
{
    int64_t     now;
    vw_stage_t  was;

    now = vw_stage_now_us();
    was = vw_stage_cur;

    /* a clock that failed reads 0: charge nothing rather than a
     * negative time */
    if (now >= vw_stage_mark) {
        vw_stage_us[was] += now - vw_stage_mark;
    }

    vw_stage_mark = now;
    vw_stage_cur = s;

    return was;
}


void
vw_stage_cpu_ms(int64_t ms[VW_STAGE_N])
{
    int  s;

    (void) vw_stage_enter(vw_stage_cur);

    for (s = 0; s < VW_STAGE_N; s++) {
        ms[s] = vw_stage_us[s] / 1000;
    }
}


const char *
vw_stage_name(vw_stage_t s)
{
    return s < VW_STAGE_N ? vw_stage_names[s] : "?";
}
