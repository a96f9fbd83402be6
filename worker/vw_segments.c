/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Merging frame results into segments (the rules are in vw_segments.h),
 * and the U+FFFD view of the UTF-8 decoder of vw_script.c.
 */

#include <stdlib.h>
#include <string.h>

#include "vw_script.h"
#include "vw_segments.h"


static int vw_frame_cmp(const void *a, const void *b);
static int vw_exact_ok(const vw_plan_t *plan, const vw_frame_result_t *f);
static void vw_box_union(vw_rect_t *u, const vw_rect_t *b);


int
vw_segments_merge(const vw_plan_t *plan, const vw_frame_result_t *frames,
    size_t n, vw_segment_t **out, size_t *nout)
{
    int                        ret;
    size_t                     i, k, count, rows;
    int64_t                    half, sum, best, dur;
    uint32_t                   looks, next, span;
    int64_t                   *start_at, *end_at;
    vw_segment_t              *segs, *s;
    unsigned char             *exact;
    const vw_frame_result_t  **order, *f, *prev;

    ret = -1;
    segs = NULL;
    order = NULL;
    exact = NULL;
    start_at = NULL;
    count = 0;
    rows = 0;
    sum = 0;
    best = -1;
    s = NULL;

    *out = NULL;
    *nout = 0;

    if (n == 0) {
        return 0;
    }

    order = malloc(n * sizeof(*order));
    segs = malloc(n * sizeof(*segs));
    exact = malloc(n);
    start_at = malloc(2 * n * sizeof(int64_t));
    if (order == NULL || segs == NULL || exact == NULL || start_at == NULL) {
        goto done;
    }

    end_at = start_at + n;

    for (i = 0; i < n; i++) {
        order[i] = &frames[i];
    }

    qsort(order, n, sizeof(*order), vw_frame_cmp);

    looks = plan->looks > 0 ? plan->looks : 1;
    half = vw_plan_time_us(plan, 1) / 2;
    dur = plan->duration_ms * 1000;
    prev = NULL;

    for (i = 0; i < n; i++) {
        f = order[i];

        if (prev != NULL && prev->index == f->index) {
            goto done;
        }

        if (s != NULL
            && (f->text[0] == '\0' || f->index / looks > prev->index / looks + 1
                || strcmp(prev->text, f->text) != 0))
        {
            /* close the open segment where this row's look begins, or
             * at the next sample when one is missing */
            s->confidence = (int) ((sum + (int64_t) rows / 2)
                                   / (int64_t) rows);
            s->end_ms = f->index / looks > prev->index / looks + 1
                        ? (prev->index / looks + 1) * looks : f->index;
            exact[s - segs] |= f->index / looks <= prev->index / looks + 1
                               && vw_exact_ok(plan, f) ? 2 : 0;
            end_at[s - segs] = f->pts_ms;
            s = NULL;
        }

        prev = f;

        if (f->text[0] == '\0') {
            continue;
        }

        if (s == NULL) {
            s = &segs[count++];
            s->first = f->index;
            s->text = f->text;
            exact[count - 1] = vw_exact_ok(plan, f) ? 1 : 0;
            start_at[count - 1] = f->pts_ms;
            s->looks = 0;
            s->lines = 0;
            memset(&s->box, 0, sizeof(vw_rect_t));
            rows = 0;
            sum = 0;
            best = -1;
        }

        s->last = f->index;
        sum += f->confidence;
        rows++;

        if (vw_box_ok(&f->box)) {
            vw_box_union(&s->box, &f->box);
            s->lines = f->lines > s->lines ? f->lines : s->lines;
        }

        if (f->confidence > best) {
            best = f->confidence;
            s->text = f->text;
        }

        if (f->reused_from < 0 && !(f->flags & VW_FRAME_NO_PICTURE)) {
            /* an OCR'd frame: the looks up to the next change */
            for (k = i + 1; k < n && order[k]->reused_from
                                     == (int64_t) f->index; k++)
            {
                /* void */
            }

            next = k < n ? order[k]->index : plan->indexes;
            span = next > f->index ? next - f->index : 1;
            s->looks += span < VW_LOOKS_COMBINED ? span : VW_LOOKS_COMBINED;
        }
    }

    if (s != NULL) {
        s->confidence = (int) ((sum + (int64_t) rows / 2) / (int64_t) rows);
        s->end_ms = (prev->index / looks + 1) * looks;
    }

    for (k = 0; k < count; k++) {
        s = &segs[k];

        /* end_ms holds the look the segment ends at until here */
        s->start_ms = vw_plan_time_us(plan, s->first) - half;
        s->end_ms = vw_plan_time_us(plan, (uint32_t) s->end_ms) - half;

        if (s->start_ms < 0) {
            s->start_ms = 0;
        }

        if (s->end_ms > dur) {
            s->end_ms = dur;
        }

        s->start_ms = (s->start_ms + 500) / 1000;
        s->end_ms = (s->end_ms + 500) / 1000;

        /* a change found to the frame: from the frame it began on */

        if (exact[k] & 1) {
            s->start_ms = start_at[k];
        }

        /*
         * Adjacent rows b and b + 1: t_b + s/2 and t_b+1 - s/2 are the
         * same instant, but the integer times may put the second 1 us
         * before the first, which rounds to 1 ms of overlap.
         */
        if (k > 0 && s->start_ms < segs[k - 1].end_ms) {
            s->start_ms = segs[k - 1].end_ms;
        }

        if ((exact[k] & 2) && end_at[k] > s->start_ms
            && end_at[k] <= plan->duration_ms)
        {
            s->end_ms = end_at[k];
        }
    }

    if (count > 0) {
        *out = segs;
        *nout = count;
        segs = NULL;
    }

    ret = 0;

done:

    free(segs);
    free(order);
    free(exact);
    free(start_at);

    return ret;
}


/*
 * A row's time is where its state began when it says so and lies where
 * the pipeline looks for it: after look j - 2's instant, at or before
 * look j's (a row from elsewhere is timed by its look).
 */
static int
vw_exact_ok(const vw_plan_t *plan, const vw_frame_result_t *f)
{
    if (!(f->flags & VW_FRAME_EXACT) || f->pts_ms < 0
        || f->pts_ms > vw_plan_time_ms(plan, f->index))
    {
        return 0;
    }

    return f->index < 2
           || f->pts_ms >= vw_plan_time_ms(plan, f->index - 2);
}


static int
vw_frame_cmp(const void *a, const void *b)
{
    const vw_frame_result_t  *fa, *fb;

    fa = *(const vw_frame_result_t * const *) a;
    fb = *(const vw_frame_result_t * const *) b;

    return fa->index < fb->index ? -1 : (fa->index > fb->index);
}


int
vw_box_ok(const vw_rect_t *b)
{
    return b->x >= 0 && b->y >= 0 && b->w > 0 && b->h > 0
           && b->x <= VW_MAX_SIDE - b->w && b->y <= VW_MAX_SIDE - b->h;
}


/* u becomes the union of u (w = 0: empty) and b, both vw_box_ok */
static void
vw_box_union(vw_rect_t *u, const vw_rect_t *b)
{
    int  x1, y1;

    if (u->w == 0) {
        *u = *b;
        return;
    }

    x1 = u->x + u->w > b->x + b->w ? u->x + u->w : b->x + b->w;
    y1 = u->y + u->h > b->y + b->h ? u->y + u->h : b->y + b->h;

    u->x = u->x < b->x ? u->x : b->x;
    u->y = u->y < b->y ? u->y : b->y;
    u->w = x1 - u->x;
    u->h = y1 - u->y;
}


size_t
vw_utf8_decode(const unsigned char *p, size_t n, uint32_t *cp)
{
    size_t   len;
    int32_t  c;

    if (n == 0) {
        *cp = 0xfffd;
        return 0;
    }

    c = vw_utf8_next(p, n, &len);
    *cp = c >= 0 ? (uint32_t) c : 0xfffd;

    return len;
}
