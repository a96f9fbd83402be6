/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The ocr command's progress line: while the pipeline works, one line on
 * stderr, rewritten in place at most every VW_PROGRESS_MS,
 *
 *   frames 120/600  video 2:00/10:00  4.8x  left 1:40
 *
 * samples done of those planned, the video time reached of its
 * duration, video seconds per second of wall time so far, and the wall
 * time left at that rate.  Only when stderr is a terminal: a script that
 * captures stderr (or --stats' JSON) never sees it.  The line is erased
 * before anything else is printed, so that the result, an error or the
 * stats start on a clean line.
 */

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "vw_cmd.h"


/* a terminal's line is rewritten at most this often */
#define VW_PROGRESS_MS  200


static int64_t vw_progress_now_ms(void);
static void vw_progress_clock(char *buf, size_t size, int64_t ms);


void
vw_progress_init(vw_progress_t *p)
{
    memset(p, 0, sizeof(vw_progress_t));
    p->on = isatty(STDERR_FILENO);
}


void
vw_progress_plan(vw_progress_t *p, uint32_t samples, int64_t duration_ms)
{
    p->samples = samples;
    p->duration_ms = duration_ms;

    if (p->started_ms == 0) {
        p->started_ms = vw_progress_now_ms();
    }
}


void
vw_progress_row(vw_progress_t *p, int sample, int64_t pts_ms)
{
    int64_t  now, wall, left;
    double   rate;
    char     at[32], of[32], rest[32], eta[48], speed[32];

    if (!p->on) {
        return;
    }

    p->done += sample != 0;
    p->pts_ms = pts_ms > p->pts_ms ? pts_ms : p->pts_ms;

    now = vw_progress_now_ms();
    if (now - p->shown_ms < VW_PROGRESS_MS) {
        return;
    }

    p->shown_ms = now;
    wall = now - p->started_ms;

    vw_progress_clock(at, sizeof(at), p->pts_ms);
    vw_progress_clock(of, sizeof(of), p->duration_ms);

    /* the rate and what is left need a second of history to mean much */
    speed[0] = '\0';
    eta[0] = '\0';

    if (wall >= 1000 && p->pts_ms > 0) {
        rate = (double) p->pts_ms / (double) wall;
        (void) snprintf(speed, sizeof(speed), "  %.1fx", rate);

        if (p->duration_ms > p->pts_ms) {
            left = (int64_t) ((double) (p->duration_ms - p->pts_ms) / rate);
            vw_progress_clock(rest, sizeof(rest), left);
            (void) snprintf(eta, sizeof(eta), "  left %s", rest);
        }
    }

    /* \r to the line's start, ESC [K clears what a longer line left */
    (void) fprintf(stderr, "\r\033[Kframes %u/%u  video %s/%s%s%s",
                   p->done, p->samples, at, of, speed, eta);
    (void) fflush(stderr);
    p->drawn = 1;
}


void
vw_progress_erase(vw_progress_t *p)
{
    if (p->drawn) {
        (void) fputs("\r\033[K", stderr);
        (void) fflush(stderr);
        p->drawn = 0;
    }
}


static int64_t
vw_progress_now_ms(void)
{
    struct timespec  ts;

    (void) clock_gettime(CLOCK_MONOTONIC, &ts);

    return (int64_t) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}


/* "m:ss", or "h:mm:ss" from an hour */
static void
vw_progress_clock(char *buf, size_t size, int64_t ms)
{
    int64_t  s;

    s = ms > 0 ? ms / 1000 : 0;

    if (s >= 3600) {
        (void) snprintf(buf, size, "%lld:%02lld:%02lld",
                        (long long) (s / 3600), (long long) (s / 60 % 60),
                        (long long) (s % 60));

    } else {
        (void) snprintf(buf, size, "%lld:%02lld", (long long) (s / 60),
                        (long long) (s % 60));
    }
}
