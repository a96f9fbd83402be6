/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Limits and the sampling plan (see vw_plan.h for plan version 2).  All
 * arithmetic is integer: t_j = j * 10^9 / (fps_milli * looks)
 * microseconds, so the
 * same job gives the same instants on every machine and in every
 * attempt, which is what lets frame rows from an earlier attempt be
 * trusted by a later one.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vw_plan.h"


void
vw_limits_init(vw_limits_t *l)
{
    l->max_duration_ms = VW_MAX_DURATION_MS_DEFAULT;
    l->max_pixels = VW_MAX_PIXELS_DEFAULT;
    l->max_frames = VW_MAX_FRAMES_DEFAULT;
    l->frame_timeout_ms = VW_FRAME_TIMEOUT_MS_DEFAULT;
    l->threads = 1;
}


const char  vw_limits_usage[] =
    "  --max-duration S      refuse videos longer than S seconds "
    "(default 10800)\n"
    "  --max-pixels N        refuse pictures of more than N pixels "
    "(default 8294400)\n"
    "  --max-frames N        refuse plans of more than N frames "
    "(default 20000)\n"
    "  --frame-timeout-ms N  give up on one frame's OCR after N ms, 0 = "
    "never (default 10000)\n"
    "  --threads N           decoder threads (default 1)\n";


int
vw_limits_flag(vw_limits_t *l, const char *name, const char *value,
    char *err, size_t err_size)
{
    char        *end;
    long long    n, min, max;

    if (strcmp(name, "--max-duration") == 0) {
        min = 1; max = 1000000;
    } else if (strcmp(name, "--max-pixels") == 0) {
        min = 1; max = (long long) VW_MAX_SIDE * VW_MAX_SIDE;
    } else if (strcmp(name, "--max-frames") == 0) {
        min = 1; max = 10000000;
    } else if (strcmp(name, "--frame-timeout-ms") == 0) {
        min = 0; max = 3600000;
    } else if (strcmp(name, "--threads") == 0) {
        min = 1; max = 64;
    } else {
        return 0;
    }

    errno = 0;
    n = strtoll(value, &end, 10);

    if (errno != 0 || end == value || *end != '\0' || n < min || n > max) {
        snprintf(err, err_size, "%s must be a whole number from %lld to "
                 "%lld, not \"%s\"", name, min, max, value);
        return -1;
    }

    switch (name[2]) {
    case 'f':
        l->frame_timeout_ms = (int) n;
        break;
    case 't':
        l->threads = (int) n;
        break;
    default:
        if (name[6] == 'd') {
            l->max_duration_ms = n * 1000;
        } else if (name[6] == 'p') {
            l->max_pixels = n;
        } else {
            l->max_frames = (uint32_t) n;
        }
    }

    return 1;
}


int
vw_plan_make(vw_plan_t *p, int64_t duration_ms, uint32_t fps_milli,
    const vw_limits_t *l, const char *name, vw_err_t *err)
{
    int64_t  frames, looks, indexes;

    if (fps_milli == 0) {
        return vw_fail(err, "internal", "plan \"%s\": fps is zero", name);
    }

    if (duration_ms <= 0) {
        return vw_reject(err, "empty", "plan \"%s\": the video has no "
                         "duration; upload a video at least one frame long",
                         name);
    }

    if (l != NULL && duration_ms > l->max_duration_ms) {
        return vw_reject(err, "too_long", "plan \"%s\": the video lasts "
                         "%lld s, longer than the %lld s limit; split it "
                         "into shorter parts", name,
                         (long long) ((duration_ms + 999) / 1000),
                         (long long) (l->max_duration_ms / 1000));
    }

    /* the number of i with i * 10^6 / fps_milli < duration_ms */

    frames = (duration_ms * (int64_t) fps_milli + 999999) / 1000000;

    if (l != NULL && frames > (int64_t) l->max_frames) {
        return vw_reject(err, "too_many_frames", "plan \"%s\": sampling "
                         "%lld s at %g fps makes %lld frames, more than the "
                         "%u frame limit; lower fps", name,
                         (long long) ((duration_ms + 999) / 1000),
                         fps_milli / 1000.0, (long long) frames,
                         l->max_frames);
    }

    if (frames > (int64_t) UINT32_MAX - 1) {
        return vw_reject(err, "too_many_frames", "plan \"%s\": %lld frames "
                         "is more than can be counted", name,
                         (long long) frames);
    }

    /* looks per interval: steps of at most VW_LOOK_US; indexes: the j
     * with j * 10^9 / (fps_milli * looks) < duration_ms * 1000 */

    looks = (1000000000LL / VW_LOOK_US + fps_milli - 1) / fps_milli;
    looks = looks < 1 ? 1 : looks;
    indexes = (duration_ms * (int64_t) fps_milli * looks + 999999) / 1000000;

    if (indexes > (int64_t) UINT32_MAX / 2) {
        return vw_reject(err, "too_many_frames", "plan \"%s\": %lld looks "
                         "is more than can be counted", name,
                         (long long) indexes);
    }

    p->version = VW_PLAN_VERSION;
    p->fps_milli = fps_milli;
    p->samples = (uint32_t) frames;
    p->looks = (uint32_t) looks;
    p->indexes = (uint32_t) indexes;
    p->duration_ms = duration_ms;

    return 0;
}


int64_t
vw_plan_time_us(const vw_plan_t *p, uint32_t j)
{
    return (int64_t) j * 1000000000 / ((int64_t) p->fps_milli * p->looks);
}


int64_t
vw_plan_time_ms(const vw_plan_t *p, uint32_t j)
{
    return (int64_t) j * 1000000 / ((int64_t) p->fps_milli * p->looks);
}


int64_t
vw_plan_interval_us(const vw_plan_t *p)
{
    return (1000000000LL + p->fps_milli / 2) / p->fps_milli;
}
