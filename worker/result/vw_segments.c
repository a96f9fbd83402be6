/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Merging rows into segments (the rules are in vw_segments.h).
 */

#include <stdlib.h>
#include <string.h>

#include "vw_parts.h"
#include "vw_segments.h"


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


/* a merge under way */
typedef struct {
    const vw_plan_t           *plan;
    uint32_t                   looks;     /* per sample, at least 1 */
    const vw_row_t           **order;     /* the rows by index */
    size_t                     n;
    vw_segment_t              *segs;      /* then the parts' texts */
    vw_seg_aux_t              *aux;
    char                      *arena;     /* where the next text goes */
    size_t                     count;     /* segments made */
    size_t                     open[VW_PARTS_MAX];   /* those open */
    int                        nopen;
    int64_t                    closed;    /* the segment closed last */
    size_t                     recent[VW_SEG_RECENT];
    size_t                     nrecent;
} vw_merge_t;


static int vw_merge_alloc(vw_merge_t *m, const vw_row_t *rows,
    size_t n);
static int vw_merge_texts(const vw_row_t *f, vw_part_t *item,
    unsigned *unsure);
static void vw_merge_match(vw_merge_t *m, const vw_part_t *item, int nitems,
    int *match, size_t *seg_of);
static size_t vw_merge_newlines(const char *s, size_t len);
static void vw_merge_close(vw_merge_t *m, const vw_row_t *f,
    const vw_row_t  *prev, int gap, const int *match);
static void vw_merge_open(vw_merge_t *m, const vw_row_t *f,
    const vw_part_t *item, int nitems, size_t *seg_of);
static void vw_merge_add(vw_merge_t *m, size_t i, const vw_part_t *item,
    const unsigned *unsure, int nitems, const size_t *seg_of);
static void vw_merge_times(vw_merge_t *m);
static int vw_row_cmp(const void *a, const void *b);
static int vw_segment_cmp(const void *a, const void *b);
static int vw_exact_ok(const vw_plan_t *plan, const vw_row_t *f);


int
vw_segments_merge(const vw_plan_t *plan, const vw_row_t *rows,
    size_t n, vw_segment_t **out, size_t *nout)
{
    int                        ret, k, nitems, gap;
    int                        match[VW_PARTS_MAX];
    size_t                     i, seg_of[VW_PARTS_MAX];
    unsigned                   unsure[VW_PARTS_MAX];
    vw_merge_t                 m;
    vw_part_t                  item[VW_PARTS_MAX];
    vw_seg_aux_t              *a;
    vw_segment_t              *s;
    const vw_row_t            *f, *prev;

    ret = -1;

    *out = NULL;
    *nout = 0;

    if (n == 0) {
        return 0;
    }

    memset(&m, 0, sizeof(vw_merge_t));
    m.plan = plan;
    m.closed = -1;

    if (vw_merge_alloc(&m, rows, n) != 0) {
        goto done;
    }

    prev = NULL;

    for (i = 0; i < n; i++) {
        f = m.order[i];

        if (prev != NULL && prev->index == f->index) {
            goto done;
        }

        /* a sample missing since the previous row closes everything */
        gap = prev != NULL && f->index / m.looks > prev->index / m.looks + 1;

        nitems = vw_merge_texts(f, item, unsure);

        if (!gap) {
            vw_merge_match(&m, item, nitems, match, seg_of);

        } else {
            for (k = 0; k < nitems; k++) {
                seg_of[k] = (size_t) -1;
            }

            for (k = 0; k < m.nopen; k++) {
                match[k] = -1;
            }
        }

        vw_merge_close(&m, f, prev, gap, match);

        prev = f;

        vw_merge_open(&m, f, item, nitems, seg_of);

        if (nitems > 0) {
            vw_merge_add(&m, i, item, unsure, nitems, seg_of);
        }
    }

    /* the segments still open end with the last row's sample */

    for (k = 0; k < m.nopen; k++) {
        s = &m.segs[m.open[k]];
        a = &m.aux[m.open[k]];
        s->confidence = (int) ((a->sum + a->rows / 2) / a->rows);
        s->end_ms = (prev->index / m.looks + 1) * m.looks;
    }

    vw_merge_times(&m);

    /* in time order (one part's segments are already) */
    qsort(m.segs, m.count, sizeof(*m.segs), vw_segment_cmp);

    if (m.count > 0) {
        *out = m.segs;
        *nout = m.count;
        m.segs = NULL;
    }

    ret = 0;

done:

    free(m.segs);
    free(m.order);
    free(m.aux);

    return ret;
}


/*
 * Room for at most a segment per part, and for the parts' texts (after
 * the segments, NUL-terminated: freed with them); the rows in index
 * order.  -1 when out of memory.
 */
static int
vw_merge_alloc(vw_merge_t *m, const vw_row_t *rows, size_t n)
{
    int        nitems;
    size_t     i, items, bytes;
    vw_part_t  item[VW_PARTS_MAX];

    items = 0;
    bytes = 0;

    for (i = 0; i < n; i++) {
        nitems = vw_parts_parse(rows[i].parts, rows[i].text, item);
        items += nitems > 0 ? (size_t) nitems : 1;
        bytes += nitems > 0 ? strlen(rows[i].text) + (size_t) nitems : 0;
    }

    m->order = malloc(n * sizeof(*m->order));
    m->segs = malloc(items * sizeof(*m->segs) + bytes);
    m->aux = malloc(items * sizeof(*m->aux));
    if (m->order == NULL || m->segs == NULL || m->aux == NULL) {
        return -1;
    }

    m->arena = (char *) (m->segs + items);

    for (i = 0; i < n; i++) {
        m->order[i] = &rows[i];
    }

    qsort(m->order, n, sizeof(*m->order), vw_row_cmp);

    m->n = n;
    m->looks = m->plan->looks > 0 ? m->plan->looks : 1;

    return 0;
}


/* A row's texts: the parts of its screen, or its text whole (none when
 * it is empty); unsure[j], the lines of text j read unsure (the row's
 * VO_FRAME_UNSURE_* bits of the lines text j has, from its first). */
static int
vw_merge_texts(const vw_row_t *f, vw_part_t *item, unsigned *unsure)
{
    int       j, nitems, first, n;
    unsigned  bits;

    if (f->text[0] == '\0') {
        return 0;
    }

    nitems = vw_parts_parse(f->parts, f->text, item);

    if (nitems == 0) {
        item[0].text = f->text;
        item[0].len = strlen(f->text);
        item[0].lines = f->lines;
        item[0].box = f->box;
        item[0].confidence = f->confidence;
        nitems = 1;
    }

    bits = (f->flags & VO_FRAME_UNSURE_MASK) >> VO_FRAME_UNSURE_SHIFT;
    first = 0;

    for (j = 0; j < nitems; j++) {
        /* the lines of its text (a part's lines count is its spec's,
         * and a row's whole text may say another number: count) */
        n = 1 + (int) vw_merge_newlines(item[j].text, item[j].len);

        unsure[j] = first < VO_FRAME_UNSURE_LINES ? bits >> first : 0;
        unsure[j] &= n < VO_FRAME_UNSURE_LINES ? (1u << n) - 1 : 0xffu;
        first += n;
    }

    return nitems;
}


/* how many newlines the len bytes at s hold */
static size_t
vw_merge_newlines(const char *s, size_t len)
{
    size_t  i, n;

    n = 0;

    for (i = 0; i < len; i++) {
        n += s[i] == '\n';
    }

    return n;
}


/*
 * Which open segment goes on with which of the row's texts: the same
 * text.  The same text in two places is two segments, each going on in
 * its own place: a segment takes first the text of its own that covers
 * most of where it was, and only then, unmatched, any text of its own.
 * match[k]: the text open segment k goes on with (-1: none); seg_of[j]:
 * the segment text j goes on (-1: none).
 */
static void
vw_merge_match(vw_merge_t *m, const vw_part_t *item, int nitems, int *match,
    size_t *seg_of)
{
    int            j, jj, k, pass;
    int64_t        best, least, overlap;
    vw_segment_t  *s;

    for (j = 0; j < nitems; j++) {
        seg_of[j] = (size_t) -1;
    }

    for (k = 0; k < m->nopen; k++) {
        match[k] = -1;
    }

    for (pass = 0; pass < 2; pass++) {
        least = pass == 0 ? 0 : -1;     /* 0: some overlap, then any */

        for (k = 0; k < m->nopen; k++) {
            if (match[k] >= 0) {
                continue;
            }

            s = &m->segs[m->open[k]];
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
                seg_of[j] = m->open[k];
            }
        }
    }
}


/*
 * The open segments row f does not go on with close where its look
 * begins, or at the sample after prev when samples are missing (gap);
 * end_ms holds that look until vw_merge_times.
 */
static void
vw_merge_close(vw_merge_t *m, const vw_row_t *f,
    const vw_row_t *prev, int gap, const int *match)
{
    int            k;
    vw_seg_aux_t  *a;
    vw_segment_t  *s;

    for (k = 0; k < m->nopen; k++) {
        s = &m->segs[m->open[k]];

        if (match[k] >= 0) {
            continue;
        }

        a = &m->aux[m->open[k]];
        s->confidence = (int) ((a->sum + a->rows / 2) / a->rows);
        s->end_ms = gap ? (prev->index / m->looks + 1) * m->looks
                        : f->index;
        a->exact |= !gap && vw_exact_ok(m->plan, f) ? 2 : 0;
        a->end_at = f->pts_ms;
        m->closed = (int64_t) m->open[k];
        m->recent[m->nrecent++ % VW_SEG_RECENT] = m->open[k];
    }
}


/* The row's texts that no open segment goes on with open segments of
 * their own; the open ones are then those of this row. */
static void
vw_merge_open(vw_merge_t *m, const vw_row_t *f,
    const vw_part_t *item, int nitems, size_t *seg_of)
{
    int            j;
    size_t         r, k;
    vw_seg_aux_t  *a;
    vw_segment_t  *s;

    m->nopen = 0;

    for (j = 0; j < nitems; j++) {
        if (seg_of[j] == (size_t) -1) {
            seg_of[j] = m->count;
            s = &m->segs[m->count];
            a = &m->aux[m->count++];

            if (item[j].text[item[j].len] == '\0') {
                s->text = item[j].text;     /* the row's whole text */

            } else {
                memcpy(m->arena, item[j].text, item[j].len);
                m->arena[item[j].len] = '\0';
                s->text = m->arena;
                m->arena += item[j].len + 1;
            }

            s->first = f->index;
            s->looks = 0;
            s->lines = 0;
            s->unsure_lines = 0;
            memset(&s->box, 0, sizeof(vw_rect_t));
            a->exact = vw_exact_ok(m->plan, f) ? 1 : 0;
            a->start_at = f->pts_ms;
            a->end_at = -1;
            a->rows = 0;
            a->sum = 0;
            a->pred = m->closed;
            a->same = -1;

            for (r = m->nrecent; r > 0 && r + VW_SEG_RECENT > m->nrecent;
                 r--)
            {
                k = m->recent[(r - 1) % VW_SEG_RECENT];

                if (strcmp(m->segs[k].text, s->text) == 0) {
                    a->same = (int64_t) k;
                    break;
                }
            }
        }

        m->open[m->nopen++] = seg_of[j];
    }
}


/*
 * Row i's texts counted in their segments: its last row, its
 * confidence, its box and lines, its lines read unsure (unsure[j], as
 * vw_merge_texts gives them), and, for a row read by OCR, the looks
 * its reading was made from (those up to the next change, at most
 * VW_LOOKS_COMBINED).
 */
static void
vw_merge_add(vw_merge_t *m, size_t i, const vw_part_t *item,
    const unsigned *unsure, int nitems, const size_t *seg_of)
{
    int                        j;
    size_t                     k;
    uint32_t                   next, span;
    vw_seg_aux_t              *a;
    vw_segment_t              *s;
    const vw_row_t            *f;

    f = m->order[i];
    span = 0;

    if (f->reused_from < 0
        && !(f->flags & (VO_FRAME_NO_PICTURE | VO_FRAME_JOINED)))
    {
        /* a row read by OCR: the looks up to the next change */
        for (k = i + 1; k < m->n && m->order[k]->reused_from
                                    == (int64_t) f->index; k++)
        {
            /* void */
        }

        next = k < m->n ? m->order[k]->index : m->plan->indexes;
        span = next > f->index ? next - f->index : 1;
        span = span < VW_LOOKS_COMBINED ? span : VW_LOOKS_COMBINED;
    }

    for (j = 0; j < nitems; j++) {
        s = &m->segs[seg_of[j]];
        a = &m->aux[seg_of[j]];

        s->last = f->index;
        s->looks += span;
        s->unsure_lines |= unsure[j];
        a->sum += item[j].confidence;
        a->rows++;

        if (vw_box_ok(&item[j].box)) {
            vw_box_union(&s->box, &item[j].box);
            s->lines = item[j].lines > s->lines ? item[j].lines : s->lines;
        }
    }
}


/* The segments' times, from the looks they start and end at (see
 * vw_segments.h). */
static void
vw_merge_times(vw_merge_t *m)
{
    size_t         k;
    int64_t        half, dur;
    vw_seg_aux_t  *a;
    vw_segment_t  *s;

    half = vw_plan_time_us(m->plan, 1) / 2;
    dur = m->plan->duration_ms * 1000;

    for (k = 0; k < m->count; k++) {
        s = &m->segs[k];
        a = &m->aux[k];

        /* end_ms holds the look the segment ends at until here */
        s->start_ms = vw_plan_time_us(m->plan, s->first) - half;
        s->end_ms = vw_plan_time_us(m->plan, (uint32_t) s->end_ms) - half;

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
        if (a->pred >= 0 && s->start_ms < m->segs[a->pred].end_ms) {
            s->start_ms = m->segs[a->pred].end_ms;
        }

        /* nor before a segment of its text that ends */
        if (a->same >= 0 && s->start_ms < m->segs[a->same].end_ms) {
            s->start_ms = m->segs[a->same].end_ms;
        }

        if ((a->exact & 2) && a->end_at > s->start_ms
            && a->end_at <= m->plan->duration_ms)
        {
            s->end_ms = a->end_at;
        }
    }
}


/*
 * A row's time is where its state began when it says so and lies where
 * the pipeline looks for it: after look j - 2's instant, at or before
 * look j's (a row from elsewhere is timed by its look).
 */
static int
vw_exact_ok(const vw_plan_t *plan, const vw_row_t *f)
{
    if (!(f->flags & VO_FRAME_EXACT) || f->pts_ms < 0
        || f->pts_ms > vw_plan_time_ms(plan, f->index))
    {
        return 0;
    }

    return f->index < 2
           || f->pts_ms >= vw_plan_time_ms(plan, f->index - 2);
}


static int
vw_row_cmp(const void *a, const void *b)
{
    const vw_row_t  *fa, *fb;

    fa = *(const vw_row_t * const *) a;
    fb = *(const vw_row_t * const *) b;

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
