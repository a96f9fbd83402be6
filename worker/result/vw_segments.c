/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Merging frame results into segments (the rules are in vw_segments.h).
 */

#include <stdlib.h>
#include <string.h>

#include "vw_parts.h"
#include "vw_segments.h"


static int vw_frame_cmp(const void *a, const void *b);
static int vw_segment_cmp(const void *a, const void *b);
static int vw_exact_ok(const vw_plan_t *plan, const vw_frame_result_t *f);


/*
 * The segments closed last, where a segment of the same text that opens
 * may begin before one ends: only with an exact start (it lies after
 * look j - 2's instant), so those closed at rows j - 2 to j, at most
 * VW_PARTS_MAX each
 */
#define VW_SEG_RECENT  (4 * VW_PARTS_MAX)


/* a segment being merged: what vw_segment_t does not keep */
typedef struct {
    int64_t   start_at;     /* the exact times of the rows that begin */
    int64_t   end_at;       /* and end it */
    int64_t   sum;          /* of its rows' confidences */
    int64_t   rows;
    int64_t   pred;         /* the segment closed last when it opened */
    int64_t   same;         /* of those closed shortly before, the last
                               of the same text (VW_SEG_RECENT) */
    unsigned  exact;        /* 1: start_at holds, 2: end_at */
} vw_seg_aux_t;


int
vw_segments_merge(const vw_plan_t *plan, const vw_frame_result_t *frames,
    size_t n, vw_segment_t **out, size_t *nout)
{
    int                        ret, nitems, k, j, jj, nopen, gap, pass;
    int                        match[VW_PARTS_MAX];
    int64_t                    best, least, overlap;
    char                      *arena;
    size_t                     i, m, count, items, bytes;
    int64_t                    half, dur, closed;
    uint32_t                   looks, next, span;
    size_t                     open[VW_PARTS_MAX], seg_of[VW_PARTS_MAX];
    size_t                     recent[VW_SEG_RECENT], nrecent, r;
    vw_part_t                  item[VW_PARTS_MAX];
    vw_seg_aux_t              *aux, *a;
    vw_segment_t              *segs, *s;
    const vw_frame_result_t  **order, *f, *prev;

    ret = -1;
    segs = NULL;
    order = NULL;
    aux = NULL;
    count = 0;
    nopen = 0;
    closed = -1;
    nrecent = 0;

    *out = NULL;
    *nout = 0;

    if (n == 0) {
        return 0;
    }

    /* at most a segment per part, and room for the parts' texts */

    items = 0;
    bytes = 0;

    for (i = 0; i < n; i++) {
        nitems = vw_parts_parse(frames[i].parts, frames[i].text, item);
        items += nitems > 0 ? (size_t) nitems : 1;
        bytes += nitems > 0 ? strlen(frames[i].text) + (size_t) nitems : 0;
    }

    order = malloc(n * sizeof(*order));
    segs = malloc(items * sizeof(*segs) + bytes);
    aux = malloc(items * sizeof(*aux));
    if (order == NULL || segs == NULL || aux == NULL) {
        goto done;
    }

    /* the parts' texts, NUL-terminated, after the segments: freed with
     * them */
    arena = (char *) (segs + items);

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

        gap = prev != NULL && f->index / looks > prev->index / looks + 1;

        /* its texts: the parts of its screen, or its text whole */

        nitems = 0;

        if (f->text[0] != '\0') {
            nitems = vw_parts_parse(f->parts, f->text, item);

            if (nitems == 0) {
                item[0].text = f->text;
                item[0].len = strlen(f->text);
                item[0].lines = f->lines;
                item[0].box = f->box;
                item[0].confidence = f->confidence;
                nitems = 1;
            }
        }

        for (j = 0; j < nitems; j++) {
            seg_of[j] = (size_t) -1;
        }

        /* an open segment goes on with the same text, or is closed
         * where this row's look begins, at the next sample when one is
         * missing.  The same text in two places is two segments, each
         * going on in its own place: a segment takes first the part of
         * its text that covers most of where it was, and only then,
         * unmatched, any part of its text */

        for (k = 0; k < nopen; k++) {
            match[k] = -1;
        }

        for (pass = 0; !gap && pass < 2; pass++) {
            least = pass == 0 ? 0 : -1;     /* 0: some overlap, then any */

            for (k = 0; k < nopen; k++) {
                if (match[k] >= 0) {
                    continue;
                }

                s = &segs[open[k]];
                best = least;
                j = -1;

                for (jj = 0; jj < nitems; jj++) {
                    if (seg_of[jj] != (size_t) -1
                        || item[jj].len != strlen(s->text)
                        || memcmp(item[jj].text, s->text, item[jj].len) != 0)
                    {
                        continue;
                    }

                    overlap = vw_box_overlap(&s->box, &item[jj].box);

                    if (overlap > best) {
                        best = overlap;
                        j = jj;
                    }
                }

                if (j >= 0) {
                    match[k] = j;
                    seg_of[j] = open[k];
                }
            }
        }

        for (k = 0; k < nopen; k++) {
            s = &segs[open[k]];

            if (match[k] >= 0) {
                continue;
            }

            a = &aux[open[k]];
            s->confidence = (int) ((a->sum + a->rows / 2) / a->rows);
            s->end_ms = gap ? (prev->index / looks + 1) * looks : f->index;
            a->exact |= !gap && vw_exact_ok(plan, f) ? 2 : 0;
            a->end_at = f->pts_ms;
            closed = (int64_t) open[k];
            recent[nrecent++ % VW_SEG_RECENT] = open[k];
        }

        prev = f;

        /* the others open segments of their own */

        nopen = 0;

        for (j = 0; j < nitems; j++) {
            if (seg_of[j] == (size_t) -1) {
                seg_of[j] = count;
                s = &segs[count];
                a = &aux[count++];

                if (item[j].text[item[j].len] == '\0') {
                    s->text = item[j].text;     /* the row's whole text */

                } else {
                    memcpy(arena, item[j].text, item[j].len);
                    arena[item[j].len] = '\0';
                    s->text = arena;
                    arena += item[j].len + 1;
                }

                s->first = f->index;
                s->looks = 0;
                s->lines = 0;
                memset(&s->box, 0, sizeof(vw_rect_t));
                a->exact = vw_exact_ok(plan, f) ? 1 : 0;
                a->start_at = f->pts_ms;
                a->end_at = -1;
                a->rows = 0;
                a->sum = 0;
                a->pred = closed;
                a->same = -1;

                for (r = nrecent; r > 0 && r + VW_SEG_RECENT > nrecent; r--) {
                    m = recent[(r - 1) % VW_SEG_RECENT];

                    if (strcmp(segs[m].text, s->text) == 0) {
                        a->same = (int64_t) m;
                        break;
                    }
                }
            }

            open[nopen++] = seg_of[j];
        }

        if (nitems == 0) {
            continue;
        }

        span = 0;

        if (f->reused_from < 0
            && !(f->flags & (VW_FRAME_NO_PICTURE | VW_FRAME_JOINED)))
        {
            /* an OCR'd frame: the looks up to the next change */
            for (m = i + 1; m < n && order[m]->reused_from
                                     == (int64_t) f->index; m++)
            {
                /* void */
            }

            next = m < n ? order[m]->index : plan->indexes;
            span = next > f->index ? next - f->index : 1;
            span = span < VW_LOOKS_COMBINED ? span : VW_LOOKS_COMBINED;
        }

        for (j = 0; j < nitems; j++) {
            s = &segs[seg_of[j]];
            a = &aux[seg_of[j]];

            s->last = f->index;
            s->looks += span;
            a->sum += item[j].confidence;
            a->rows++;

            if (vw_box_ok(&item[j].box)) {
                vw_box_union(&s->box, &item[j].box);
                s->lines = item[j].lines > s->lines ? item[j].lines
                                                    : s->lines;
            }
        }
    }

    for (k = 0; k < nopen; k++) {
        s = &segs[open[k]];
        a = &aux[open[k]];
        s->confidence = (int) ((a->sum + a->rows / 2) / a->rows);
        s->end_ms = (prev->index / looks + 1) * looks;
    }

    for (m = 0; m < count; m++) {
        s = &segs[m];
        a = &aux[m];

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

        if (a->exact & 1) {
            s->start_ms = a->start_at;
        }

        /*
         * A segment that opens where another closed: t_b + s/2 and
         * t_b+1 - s/2 are the same instant, but the integer times may
         * put the second 1 us before the first, which rounds to 1 ms of
         * overlap.  (Segments of other texts may overlap it: they are
         * elsewhere on the screen.)
         */
        if (a->pred >= 0 && s->start_ms < segs[a->pred].end_ms) {
            s->start_ms = segs[a->pred].end_ms;
        }

        /* nor before a segment of its text that ends */
        if (a->same >= 0 && s->start_ms < segs[a->same].end_ms) {
            s->start_ms = segs[a->same].end_ms;
        }

        if ((a->exact & 2) && a->end_at > s->start_ms
            && a->end_at <= plan->duration_ms)
        {
            s->end_ms = a->end_at;
        }
    }

    /* in time order (one part's segments are already) */
    qsort(segs, count, sizeof(*segs), vw_segment_cmp);

    if (count > 0) {
        *out = segs;
        *nout = count;
        segs = NULL;
    }

    ret = 0;

done:

    free(segs);
    free(order);
    free(aux);

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


/* by start, then first row, then place: top to bottom, left to right */
static int
vw_segment_cmp(const void *a, const void *b)
{
    const vw_segment_t  *sa, *sb;

    sa = a;
    sb = b;

    if (sa->start_ms != sb->start_ms) {
        return sa->start_ms < sb->start_ms ? -1 : 1;
    }

    if (sa->first != sb->first) {
        return sa->first < sb->first ? -1 : 1;
    }

    if (sa->box.y != sb->box.y) {
        return sa->box.y < sb->box.y ? -1 : 1;
    }

    return sa->box.x < sb->box.x ? -1 : (sa->box.x > sb->box.x);
}
