/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Fuzz target: the spec of a screen's parts (worker/result/vw_parts.c) and the
 * merger of frames that have parts (worker/result/vw_segments.c).  The input
 * is a spec, a NUL, a text, a NUL, then bytes that drive the rest (a
 * missing NUL: the text, then the control bytes, are empty); the spec
 * and the text are exactly sized copies, so ASan sees any read past
 * their NUL.  Invariants checked:
 *
 *   1. vw_parts_parse returns 0 or 2..VW_PARTS_MAX, and n > 0 exactly
 *      when the spec is valid for the text by a reference reading of
 *      vw_parts.h (6 decimal numbers a part, 1 to 9 digits each, one
 *      space between them, ";" between parts, nothing else; lines >= 1,
 *      a box vw_box_ok takes, a confidence <= 100, the parts' lines
 *      the text's, no part empty); then each part has that reading's lines, box and
 *      confidence, its text points into the text, the parts tile it in
 *      order (joined with "\n" they are the text byte for byte) and
 *      each has exactly its lines (lines - 1 '\n' in its bytes);
 *   2. round trip: vw_parts_format of the parsed parts gives a spec
 *      that parses (over the same text) to the same parts; when no
 *      number of the input spec has a leading zero (its canonical
 *      form), that spec is the input byte for byte;
 *   3. vw_parts_format of parts made from the control bytes (lines,
 *      boxes of every kind, n from 0 to VW_PARTS_MAX + 2) refuses
 *      (-1) exactly n < 2, n > VW_PARTS_MAX, a part with lines < 1 or
 *      a box that is not one (invariant 6 of fuzz_output.c); what it
 *      accepts is at most VW_PARTS_SPEC_MAX - 1 bytes and parses back
 *      over a text of as many lines; a buffer shorter than the spec +
 *      its NUL is refused, and nothing is written past `size` (the
 *      buffers are exactly sized);
 *   4. the merger, on 2-6 frames of a small plan (consecutive looks,
 *      or a sample missing between two), each with the text and the
 *      spec, the text alone (no spec), one part's text alone, or "",
 *      some with times found to the frame (VO_FRAME_EXACT), in a
 *      rotated order: returns 0; at most one segment per text a frame
 *      contributes (its parts, or its text whole when it has no valid
 *      spec; nothing when its text is empty); segments sorted by
 *      start_ms; 0 <= start <= end <= duration, first <= last; every
 *      segment's text is non-empty and one that its first and its last
 *      frame contribute; two segments with the same text do not
 *      overlap in time, unless a frame has that text twice (in two
 *      places at once);
 *   5. for every frame and every text T it contributes m times, exactly
 *      m segments of text T span the frame's index (first <= index <=
 *      last); so no segment spans a frame without its text;
 *   6. a segment's unsure lines (VO_FRAME_UNSURE_* bits, any on every
 *      frame) are lines of its text, and hold those of each frame it
 *      spans that contributes its text, counted from that text's first
 *      line in the frame's text.
 */

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"
#include "result/vw_parts.h"
#include "result/vw_segments.h"


#define FUZZ_FRAMES   6

/* the texts a frame contributes: at most VW_PARTS_MAX */
typedef struct {
    int          n;
    const char  *text[VW_PARTS_MAX];
    size_t       len[VW_PARTS_MAX];
} fuzz_texts_t;



static char *fuzz_copy(const uint8_t *p, size_t n);
static int fuzz_box_ok(const vw_rect_t *b);
static int fuzz_ref_parse(const char *spec, const char *text,
    vw_part_t *ref);
static int fuzz_canonical(const char *spec);
static void fuzz_check_parse(const char *spec, const char *text,
    const vw_part_t *parts, int n);
static void fuzz_check_format(const char *spec, const char *text,
    const vw_part_t *parts, int n, fuzz_in_t *in);
static void fuzz_check_refusals(fuzz_in_t *in);
static void fuzz_check_merge(const char *spec, const char *text,
    const vw_part_t *parts, int n, fuzz_in_t *in);
static void fuzz_contributes(const vw_row_t *f, fuzz_texts_t *t);
static int fuzz_same(const vw_part_t *a, const vw_part_t *b, int n,
    int with_text);


int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int              n, nref;
    char            *spec, *text;
    size_t           ls, lt;
    fuzz_in_t        in;
    vw_part_t       *parts, *ref;
    const uint8_t   *z;

    /* spec NUL text NUL control */

    z = memchr(data, '\0', size);
    ls = z != NULL ? (size_t) (z - data) : size;
    in.p = data + ls + (z != NULL);
    in.n = size - ls - (z != NULL);

    z = memchr(in.p, '\0', in.n);
    lt = z != NULL ? (size_t) (z - in.p) : in.n;

    spec = fuzz_copy(data, ls);
    text = fuzz_copy(in.p, lt);
    in.p += lt + (z != NULL);
    in.n -= lt + (z != NULL);

    /* exactly VW_PARTS_MAX: ASan sees a write past them */
    parts = malloc(VW_PARTS_MAX * sizeof(vw_part_t));
    ref = malloc(VW_PARTS_MAX * sizeof(vw_part_t));
    if (parts == NULL || ref == NULL) {
        abort();
    }

    FUZZ_CHECK(vw_parts_parse(NULL, text, parts) == 0);
    FUZZ_CHECK(vw_parts_parse(spec, NULL, parts) == 0);

    /* 1 */

    n = vw_parts_parse(spec, text, parts);
    FUZZ_CHECK(n == 0 || (n >= 2 && n <= VW_PARTS_MAX));

    nref = fuzz_ref_parse(spec, text, ref);
    FUZZ_CHECK(n == nref);

    if (n > 0) {
        fuzz_check_parse(spec, text, parts, n);
        FUZZ_CHECK(fuzz_same(parts, ref, n, 1));

        /* 2 */
        fuzz_check_format(spec, text, parts, n, &in);
    }

    /* 3 */

    fuzz_check_refusals(&in);

    /* 4, 5 */

    fuzz_check_merge(spec, text, parts, n, &in);

    free(parts);
    free(ref);
    free(spec);
    free(text);

    return 0;
}


/* 1, on what vw_parts_parse gave */
static void
fuzz_check_parse(const char *spec, const char *text, const vw_part_t *parts,
    int n)
{
    int          i, nl;
    size_t       k, len;
    const char  *p;

    (void) spec;

    len = strlen(text);
    p = text;

    for (i = 0; i < n; i++) {
        FUZZ_CHECK(parts[i].lines >= 1);
        FUZZ_CHECK(fuzz_box_ok(&parts[i].box));
        FUZZ_CHECK(vw_box_ok(&parts[i].box));
        FUZZ_CHECK(parts[i].confidence >= 0 && parts[i].confidence <= 100);

        /* in the text, where the one before it ended (after its '\n') */
        FUZZ_CHECK(parts[i].text == p);
        FUZZ_CHECK(parts[i].len <= (size_t) (text + len - p));

        for (k = 0, nl = 0; k < parts[i].len; k++) {
            nl += parts[i].text[k] == '\n';
        }

        FUZZ_CHECK(nl == parts[i].lines - 1);

        p += parts[i].len;

        if (i + 1 < n) {
            FUZZ_CHECK(*p == '\n');
            p++;
        }
    }

    FUZZ_CHECK(p == text + len);
}


/* 2: format and parse back */
static void
fuzz_check_format(const char *spec, const char *text, const vw_part_t *parts,
    int n, fuzz_in_t *in)
{
    int         len, again, m;
    char       *buf;
    size_t      sizes[6], i;
    vw_part_t   back[VW_PARTS_MAX];

    buf = malloc(VW_PARTS_SPEC_MAX);
    if (buf == NULL) {
        abort();
    }

    len = vw_parts_format(parts, n, buf, VW_PARTS_SPEC_MAX);
    FUZZ_CHECK(len > 0 && len < VW_PARTS_SPEC_MAX);
    FUZZ_CHECK(strlen(buf) == (size_t) len);

    m = vw_parts_parse(buf, text, back);
    FUZZ_CHECK(m == n && fuzz_same(parts, back, n, 1));

    if (fuzz_canonical(spec)) {
        FUZZ_CHECK(strcmp(buf, spec) == 0);
    }

    /* a buffer just too short, shorter, just long enough, exactly
     * sized so that ASan sees a byte written past it */

    sizes[0] = 0;
    sizes[1] = 1;
    sizes[2] = (size_t) len;
    sizes[3] = (size_t) len + 1;
    sizes[4] = fuzz_byte(in) % ((size_t) len + 1);
    sizes[5] = (size_t) len > 1 ? (size_t) len - 1 : 0;

    for (i = 0; i < 6; i++) {
        char  *b;

        b = malloc(sizes[i] > 0 ? sizes[i] : 1);
        if (b == NULL) {
            abort();
        }

        again = vw_parts_format(parts, n, b, sizes[i]);

        if (sizes[i] > (size_t) len) {
            FUZZ_CHECK(again == len && memcmp(b, buf, len + 1) == 0);

        } else {
            FUZZ_CHECK(again == -1);
        }

        free(b);
    }

    free(buf);
}


/* 3 */
static void
fuzz_check_refusals(fuzz_in_t *in)
{
    int         n, i, len, total, want, m;
    char       *buf, *text;
    unsigned    b;
    vw_part_t   parts[VW_PARTS_MAX + 2], back[VW_PARTS_MAX];

    static const int  odd[] = { 0, -1, 1, INT_MIN, INT_MAX, VW_MAX_SIDE,
                                VW_MAX_SIDE + 1, VW_MAX_SIDE - 1 };

    n = (int) (fuzz_byte(in) % (VW_PARTS_MAX + 3));
    want = n >= 2 && n <= VW_PARTS_MAX;
    total = 0;

    for (i = 0; i < n; i++) {
        b = fuzz_byte(in);

        /* lines 1..4 mostly, sometimes 0, negative or huge */
        parts[i].lines = 1 + (int) (b & 0x03);

        if ((b & 0x1c) == 0x1c) {
            parts[i].lines = odd[fuzz_byte(in) % 8];
        }

        /* a small box, or a coordinate of an odd value */
        parts[i].box.x = (int) fuzz_byte(in) * 50;
        parts[i].box.y = (int) fuzz_byte(in) * 50;
        parts[i].box.w = 1 + (int) fuzz_byte(in) * 40;
        parts[i].box.h = 1 + (int) fuzz_byte(in) * 20;

        if (b & 0x20) {
            switch (fuzz_byte(in) & 0x03) {
            case 0:
                parts[i].box.x = odd[fuzz_byte(in) % 8];
                break;
            case 1:
                parts[i].box.y = odd[fuzz_byte(in) % 8];
                break;
            case 2:
                parts[i].box.w = odd[fuzz_byte(in) % 8];
                break;
            default:
                parts[i].box.h = odd[fuzz_byte(in) % 8];
                break;
            }
        }

        parts[i].confidence = (int) (fuzz_byte(in) % 101);
        parts[i].text = NULL;
        parts[i].len = 0;

        want = want && parts[i].lines >= 1 && fuzz_box_ok(&parts[i].box);
        total += parts[i].lines >= 1 && parts[i].lines <= 4
                 ? parts[i].lines : 1000;
    }

    buf = malloc(VW_PARTS_SPEC_MAX);
    if (buf == NULL) {
        abort();
    }

    len = vw_parts_format(parts, n, buf, VW_PARTS_SPEC_MAX);

    if (!want) {
        FUZZ_CHECK(len == -1);
        free(buf);
        return;
    }

    FUZZ_CHECK(len > 0 && len < VW_PARTS_SPEC_MAX);
    FUZZ_CHECK(strlen(buf) == (size_t) len);
    FUZZ_CHECK(fuzz_canonical(buf));

    /* too short by one: refused, nothing written past it */
    {
        char  *b;

        b = malloc((size_t) len);
        if (b == NULL) {
            abort();
        }

        FUZZ_CHECK(vw_parts_format(parts, n, b, (size_t) len) == -1);
        free(b);
    }

    /* parses back over a text of as many lines ("a\na\n...a") */

    if (total <= 4 * VW_PARTS_MAX) {
        text = malloc(2 * (size_t) total);
        if (text == NULL) {
            abort();
        }

        for (i = 0; i < total; i++) {
            text[2 * i] = 'a';
            text[2 * i + 1] = i + 1 < total ? '\n' : '\0';
        }

        m = vw_parts_parse(buf, text, back);
        FUZZ_CHECK(m == n && fuzz_same(parts, back, n, 0));
        fuzz_check_parse(buf, text, back, m);
        free(text);
    }

    free(buf);
}


/* 4, 5 */
static void
fuzz_check_merge(const char *spec, const char *text, const vw_part_t *parts,
    int n, fuzz_in_t *in)
{
    int                  rc, j, m, c, nl, before;
    char                *own[FUZZ_FRAMES];
    unsigned             bits;
    const char          *q;
    size_t               i, k, nf, nsegs, items;
    int64_t              duration, step;
    uint32_t             fps, index, looks;
    unsigned             b, r;
    vw_plan_t            plan;
    vw_err_t             err;
    fuzz_texts_t         t[FUZZ_FRAMES], *ft;
    vw_segment_t        *segs;
    const vw_segment_t  *s;
    vw_row_t             frames[FUZZ_FRAMES], rot[FUZZ_FRAMES];

    static const uint32_t  rates[] = { 1000, 500, 2000, 6000, 30000, 10,
                                       60000, 250 };

    /* a small plan: at least a second, so at least 6 looks */

    fps = rates[fuzz_byte(in) % 8];
    duration = 1000 + (int64_t) fuzz_byte(in) * 40;

    if (vw_plan_make(&plan, duration, fps, NULL, "fuzz", &err) != 0) {
        FUZZ_CHECK(0);
    }

    looks = plan.looks > 0 ? plan.looks : 1;
    step = vw_plan_time_ms(&plan, 1) - vw_plan_time_ms(&plan, 0);

    b = fuzz_byte(in);
    nf = 2 + b % 5;
    index = (b >> 3) % looks;
    items = 0;

    for (i = 0; i < nf; i++) {
        b = fuzz_byte(in);

        if (i > 0) {
            /* the next look, the next sample, or one sample missing */
            switch ((b >> 2) & 0x03) {
            case 2:
                index += looks;
                break;
            case 3:
                index += 2 * looks + 1;
                break;
            default:
                index += 1;
                break;
            }
        }

        if (index >= plan.indexes) {
            break;
        }

        own[i] = NULL;
        frames[i].index = index;
        frames[i].t_ms = vw_plan_time_ms(&plan, index);
        frames[i].pts_ms = frames[i].t_ms;
        frames[i].reused_from = (b & 0x10) && index > 0 ? index - 1 : -1;
        frames[i].flags = (b & 0x20) ? VO_FRAME_NO_PICTURE : 0;
        frames[i].flags |= (unsigned) fuzz_byte(in) << VO_FRAME_UNSURE_SHIFT;
        frames[i].confidence = (int) (fuzz_byte(in) % 101);
        frames[i].box.x = (int) fuzz_byte(in) * 3;
        frames[i].box.y = (int) fuzz_byte(in) * 2;
        frames[i].box.w = (b & 0x80) ? 0 : 1 + (int) fuzz_byte(in) * 3;
        frames[i].box.h = (b & 0x80) ? 0 : 1 + (int) fuzz_byte(in);
        frames[i].lines = (b & 0x80) ? 0 : 1 + (int) (b & 0x01);

        /* the text and the spec, the text alone, a part's, or none */

        switch (b & 0x03) {
        case 0:
            frames[i].text = text;
            frames[i].parts = spec;
            break;
        case 1:
            frames[i].text = text;
            frames[i].parts = NULL;
            break;
        case 2:
            if (n > 0) {
                k = fuzz_byte(in) % (size_t) n;
                own[i] = fuzz_copy((const uint8_t *) parts[k].text,
                                   parts[k].len);
                frames[i].text = own[i];
                /* or with the spec, which cannot be valid for it */
                frames[i].parts = (fuzz_byte(in) & 0x80) ? spec : NULL;
            } else {
                frames[i].text = text;
                frames[i].parts = spec;
            }
            break;
        default:
            frames[i].text = "";
            frames[i].parts = (fuzz_byte(in) & 0x80) ? spec : NULL;
            break;
        }

        /* a change found to the frame: from two steps before its look
         * to one after, in and out of the window the merger trusts */

        if (b & 0x40) {
            frames[i].flags |= VO_FRAME_EXACT;
            frames[i].pts_ms = frames[i].t_ms - 2 * step
                               + (int64_t) fuzz_byte(in) * 3 * step / 255;
        }

        fuzz_contributes(&frames[i], &t[i]);
        items += (size_t) t[i].n;
    }

    nf = i;

    /* any order: rotated */

    r = nf > 0 ? fuzz_byte(in) % nf : 0;

    for (i = 0; i < nf; i++) {
        rot[i] = frames[(i + r) % nf];
    }

    rc = vw_segments_merge(&plan, rot, nf, &segs, &nsegs);
    FUZZ_CHECK(rc == 0);
    FUZZ_CHECK((nsegs == 0) == (segs == NULL));
    FUZZ_CHECK(nsegs <= items);

    for (k = 0; k < nsegs; k++) {
        s = &segs[k];

        FUZZ_CHECK(s->start_ms >= 0);
        FUZZ_CHECK(s->start_ms <= s->end_ms);
        FUZZ_CHECK(s->end_ms <= plan.duration_ms);
        FUZZ_CHECK(s->first <= s->last);
        FUZZ_CHECK(s->confidence >= 0 && s->confidence <= 100);
        FUZZ_CHECK(s->text != NULL && s->text[0] != '\0');

        if (k > 0) {
            FUZZ_CHECK(s->start_ms >= segs[k - 1].start_ms);
        }

        /* its text: one its first and its last frame contribute */

        c = 0;

        for (i = 0; i < nf; i++) {
            if (frames[i].index != s->first && frames[i].index != s->last) {
                continue;
            }

            for (j = 0; j < t[i].n; j++) {
                if (strlen(s->text) == t[i].len[j]
                    && memcmp(s->text, t[i].text[j], t[i].len[j]) == 0)
                {
                    c += (frames[i].index == s->first)
                         + 2 * (frames[i].index == s->last);
                    break;
                }
            }
        }

        FUZZ_CHECK(c == 3);

        /* 6 */

        for (q = s->text, nl = 1; *q != '\0'; q++) {
            nl += *q == '\n';
        }

        FUZZ_CHECK(nl >= VO_FRAME_UNSURE_LINES || s->unsure_lines >> nl == 0);

        for (i = 0; i < nf; i++) {
            if (frames[i].index < s->first || frames[i].index > s->last) {
                continue;
            }

            /* (a text a frame has twice is two segments' each) */

            for (j = 0, m = 0; j < t[i].n; j++) {
                m += strlen(s->text) == t[i].len[j]
                     && memcmp(s->text, t[i].text[j], t[i].len[j]) == 0;
            }

            for (j = 0; j < t[i].n && m == 1; j++) {
                if (strlen(s->text) != t[i].len[j]
                    || memcmp(s->text, t[i].text[j], t[i].len[j]) != 0)
                {
                    continue;
                }

                for (q = frames[i].text, before = 0; q < t[i].text[j]; q++) {
                    before += *q == '\n';
                }

                bits = (frames[i].flags & VO_FRAME_UNSURE_MASK)
                       >> VO_FRAME_UNSURE_SHIFT;
                bits = before < VO_FRAME_UNSURE_LINES ? bits >> before : 0;
                bits &= nl < VO_FRAME_UNSURE_LINES ? (1u << nl) - 1 : 0xffu;

                FUZZ_CHECK((s->unsure_lines & bits) == bits);
            }
        }

        /* one text's segments do not overlap, unless a frame has it in
         * two places */

        for (i = 0, c = 0; i < nf && c < 2; i++) {
            for (j = 0, c = 0; j < t[i].n; j++) {
                c += strlen(s->text) == t[i].len[j]
                     && memcmp(s->text, t[i].text[j], t[i].len[j]) == 0;
            }
        }

        for (i = 0; i < k && c < 2; i++) {
            if (strcmp(segs[i].text, s->text) == 0) {
                FUZZ_CHECK(segs[i].end_ms <= s->start_ms
                           || s->end_ms <= segs[i].start_ms);
            }
        }
    }

    /* 5 */

    for (i = 0; i < nf; i++) {
        ft = &t[i];

        for (j = 0; j < ft->n; j++) {
            for (m = 0, c = 0; m < ft->n; m++) {
                c += ft->len[m] == ft->len[j]
                     && memcmp(ft->text[m], ft->text[j], ft->len[j]) == 0;
            }

            for (k = 0; k < nsegs; k++) {
                s = &segs[k];

                if (s->first <= frames[i].index && frames[i].index <= s->last
                    && strlen(s->text) == ft->len[j]
                    && memcmp(s->text, ft->text[j], ft->len[j]) == 0)
                {
                    c--;
                }
            }

            FUZZ_CHECK(c == 0);
        }
    }

    free(segs);

    for (i = 0; i < nf; i++) {
        free(own[i]);
    }
}


/* The texts frame f contributes (vw_segments.h), by the reference
 * reading of its spec */
static void
fuzz_contributes(const vw_row_t *f, fuzz_texts_t *t)
{
    int        i;
    vw_part_t  p[VW_PARTS_MAX];

    t->n = 0;

    if (f->text[0] == '\0') {
        return;
    }

    t->n = f->parts != NULL ? fuzz_ref_parse(f->parts, f->text, p) : 0;

    for (i = 0; i < t->n; i++) {
        t->text[i] = p[i].text;
        t->len[i] = p[i].len;
    }

    if (t->n == 0) {
        t->n = 1;
        t->text[0] = f->text;
        t->len[0] = strlen(f->text);
    }
}


/*
 * The reference reading of a spec over a text (invariant 1): its parts
 * into ref, their number, or 0 if the spec is not valid for the text.
 */
static int
fuzz_ref_parse(const char *spec, const char *text, vw_part_t *ref)
{
    int          n, i, digits, lines;
    int64_t      v[6];
    const char  *s, *p, *e;

    s = spec;
    n = 0;
    lines = 0;

    for ( ;; ) {
        if (n == VW_PARTS_MAX) {
            return 0;
        }

        for (i = 0; i < 6; i++) {
            if (i > 0 && *s++ != ' ') {
                return 0;
            }

            v[i] = 0;

            for (digits = 0; *s >= '0' && *s <= '9'; digits++) {
                v[i] = v[i] * 10 + (*s++ - '0');

                if (digits == 9) {
                    return 0;
                }
            }

            if (digits == 0) {
                return 0;
            }
        }

        ref[n].lines = (int) v[0];
        ref[n].box.x = (int) v[1];
        ref[n].box.y = (int) v[2];
        ref[n].box.w = (int) v[3];
        ref[n].box.h = (int) v[4];
        ref[n].confidence = (int) v[5];

        if (v[0] < 1 || !fuzz_box_ok(&ref[n].box) || v[5] > 100) {
            return 0;
        }

        lines += (int) v[0];
        n++;

        if (*s == '\0') {
            break;
        }

        if (*s++ != ';') {
            return 0;
        }
    }

    if (n < 2) {
        return 0;
    }

    /* the text's lines: one more than its '\n' */

    for (p = text, i = 1; *p != '\0'; p++) {
        i += *p == '\n';
    }

    if (i != lines) {
        return 0;
    }

    /* the split */

    for (p = text, i = 0; i < n; i++) {
        ref[i].text = p;

        for (e = p, lines = 1; *e != '\0'; e++) {
            if (*e == '\n' && lines++ == ref[i].lines) {
                break;
            }
        }

        ref[i].len = (size_t) (e - p);
        p = *e == '\n' ? e + 1 : e;

        if (ref[i].len == 0) {
            return 0;               /* an empty part */
        }
    }

    return n;
}


/* 1 if no number of a spec has a leading zero */
static int
fuzz_canonical(const char *spec)
{
    const char  *s;

    for (s = spec; *s != '\0'; s++) {
        if (*s == '0' && (s == spec || s[-1] < '0' || s[-1] > '9')
            && s[1] >= '0' && s[1] <= '9')
        {
            return 0;
        }
    }

    return 1;
}


/* the same lines, boxes and confidences; with_text: the same texts (the
 * same bytes of the same text) */
static int
fuzz_same(const vw_part_t *a, const vw_part_t *b, int n, int with_text)
{
    int  i;

    for (i = 0; i < n; i++) {
        if (a[i].lines != b[i].lines || a[i].confidence != b[i].confidence
            || a[i].box.x != b[i].box.x || a[i].box.y != b[i].box.y
            || a[i].box.w != b[i].box.w || a[i].box.h != b[i].box.h)
        {
            return 0;
        }

        if (with_text && (a[i].text != b[i].text || a[i].len != b[i].len)) {
            return 0;
        }
    }

    return 1;
}


/* A box: w, h > 0, x, y >= 0, inside VW_MAX_SIDE (independently of
 * vw_box_ok) */
static int
fuzz_box_ok(const vw_rect_t *b)
{
    return fuzz_box_within(b->x, b->y, b->w, b->h, VW_MAX_SIDE);
}


/* n bytes, NUL-terminated, in a block of exactly n + 1 */
static char *
fuzz_copy(const uint8_t *p, size_t n)
{
    char  *c;

    c = malloc(n + 1);
    if (c == NULL) {
        abort();
    }

    memcpy(c, p, n);
    c[n] = '\0';

    return c;
}

