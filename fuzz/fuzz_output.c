/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Fuzz target: the segment merger and the result writers
 * (worker/result/vw_segments.c, vw_output.c).  The input describes a plan (fps,
 * duration) and up to FUZZ_FRAMES frame results (index gaps, confidence,
 * flags, text bytes of any kind), handed over in a shuffled order.
 * Invariants checked:
 *
 *   1. vw_segments_merge fails exactly when two frames share an index;
 *   2. segments are in time order and do not overlap: for each,
 *      0 <= start < end <= duration, first <= last, and the next one
 *      starts after this one's last frame and not before its end;
 *   3. a segment covers consecutive frames with text (no sample missing
 *      between two: frames are looks, plan->looks to a sample), each
 *      the same text as the one before it (rows of one screen carry its
 *      text; two readings that differ are two screens), and is closed
 *      by a gap, an empty text or a different text; every
 *      frame with text is in exactly one segment;
 *   4. its text is its frames' (the same bytes in each; the pointer is
 *      one of theirs: frames here have no parts, so none is copied),
 *      its confidence the rounded mean of its frames';
 *   5. every format is well-formed UTF-8; WebVTT starts with "WEBVTT",
 *      then one cue per segment: a blank line, "HH:MM:SS.mmm -->
 *      HH:MM:SS.mmm" with the segment's times, one or more non-empty
 *      lines with no "-->", no raw '<' and '&' only in an entity; SubRip
 *      numbers its cues 1..n with "HH:MM:SS,mmm" times; text has one
 *      line per segment; none has a control character but
 *      '\n'; JSON (with and without frames) is one valid JSON value;
 *   6. a segment's box is the union of the boxes of its frames that are
 *      boxes (w, h > 0, x, y >= 0, inside VW_MAX_SIDE: frames also get
 *      negative, empty and huge ones), its lines the most of theirs; the
 *      JSON has "box":[...] for the segments with one and "box":null for
 *      the others, and frame_size only when the inspection's display
 *      size is one (it may be 0 or too big);
 *   7. a WebVTT cue has settings exactly when its segment has a box and
 *      the frame size is known: "line:E%" (",end" when the box's middle
 *      is below the frame's), "position:M%", "size:W%", "align:center",
 *      each a WebVTT percentage (digits, at most 3 decimals) in 0..100
 *      within rounding of the box (clamped to the frame) over the frame
 *      size;
 *   8. ASS: [Script Info] with ScriptType v4.00+ and PlayResX/PlayResY
 *      the frame size (384x288 without one), a Default style, then one
 *      Dialogue per segment with its times in centiseconds, "{\an8\pos(
 *      M,T)}" or "{\an2\pos(M,B)}" from the box exactly when the cue
 *      has settings, and a text with no raw brace, every backslash
 *      starting \{, \}, \N or followed by U+2060, which, unescaped, is
 *      the SubRip cue's text (an empty one there is U+200B);
 *   9. the writers' decoder is the U+FFFD view of vw_script.c's (the one
 *      that holds the rules): at every offset of the input bytes,
 *      vw_utf8_decode takes as many bytes as vw_utf8_next, gives U+FFFD
 *      exactly where it gives -1 (else the same code point), and both
 *      agree with fuzz_utf8_seq; no bytes give 0 and U+FFFD.
 *  10. a segment's unsure lines are those its frames' VO_FRAME_UNSURE_*
 *      bits name that its text has; a segment is unsure exactly when
 *      its confidence is below VW_UNSURE_BELOW or it has an unsure
 *      line: the JSON (without frames) has ,"unsure":true once per
 *      unsure segment and no other "unsure", and ,"unsure_lines":[ once
 *      per segment with unsure lines, vw_result_count counts both,
 *      WebVTT puts a NOTE block before each unsure cue and no other:
 *      "NOTE" then a space, lines with no "-->", then a blank line, and
 *      ASS a Comment event of the segment's times, its confidence and
 *      (unless one line below the bound) its unsure lines before each
 *      unsure Dialogue and no other.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"
#include "result/vw_output.h"
#include "core/vw_utf8.h"


#define FUZZ_FRAMES     48

/* frame b follows a with no sample missing between them */
#define FUZZ_NEXT(plan, a, b)                                                \
    ((b) > (a) && (b) / (plan)->looks <= (a) / (plan)->looks + 1)
#define FUZZ_TEXT_MAX   48



/* a cue's payload in a document (SubRip: the text for invariant 8) */
typedef struct {
    const char     *p;
    size_t          n;
} fuzz_cue_t;

/* where a segment is placed, from invariants 6 and 7's definitions */
typedef struct {
    int             known;
    int             bottom;
    int             w, h;           /* the frame */
    int             x0, y0, x1, y1; /* the box clamped to it */
} fuzz_place_t;


static void fuzz_check_segments(const vw_plan_t *plan,
    const vw_row_t *frames, size_t n, const vw_segment_t *segs,
    size_t nsegs);
static void fuzz_check_cues(const char *doc, size_t len,
    const vw_result_t *r, vw_format_t f, const vw_segment_t *segs,
    size_t nsegs, fuzz_cue_t *cues);
static const char *fuzz_timestamp(const char *p, const char *last,
    char sep, int64_t *ms);
static void fuzz_check_format(const vw_result_t *r, vw_format_t f,
    const vw_segment_t *segs, size_t nsegs, vo_buf_t *out,
    fuzz_cue_t *cues);
static int fuzz_box_ok(const vw_rect_t *b);
static void fuzz_place(const vw_result_t *r, const vw_segment_t *s,
    fuzz_place_t *pl);
static const char *fuzz_pct(const char *p, const char *last,
    int64_t *milli);
static int fuzz_pct_near(int64_t milli, int64_t num, int64_t den);
static const char *fuzz_settings(const char *p, const char *last,
    const fuzz_place_t *pl);
static void fuzz_check_json_boxes(const char *doc, const vw_result_t *r,
    const vw_segment_t *segs, size_t nsegs);
static void fuzz_check_ass(const char *doc, size_t len, const vw_result_t *r,
    const vw_segment_t *segs, size_t nsegs, const fuzz_cue_t *srt);
static size_t fuzz_count(const char *doc, const char *what);
static void fuzz_unsure_words(const vw_segment_t *s, char *buf,
    size_t size);
static const char *fuzz_ass_time(const char *p, const char *last,
    int64_t *cs);
static void fuzz_check_utf8(const uint8_t *p, size_t n);


int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int                 dup, rc;
    char               *texts[FUZZ_FRAMES];
    size_t              i, j, k, n, nsegs, len, ul, ulc;
    int64_t             duration;
    uint32_t            fps, index, w;
    unsigned            b, bb, eb, gap, fs;
    vo_buf_t            srt, ass;
    fuzz_cue_t          cues[FUZZ_FRAMES];
    vw_err_t            err;
    vw_plan_t           plan;
    fuzz_in_t           in;
    vw_result_t         r;
    vo_options_t        options;
    vw_segment_t       *segs;
    vw_inspection_t     insp;
    vw_row_t            frames[FUZZ_FRAMES], tmp;

    /* 9 */

    fuzz_check_utf8(data, size);

    in.p = data;
    in.n = size;

    /* the plan: 0.01 to 60 fps, 1 ms to 3 hours */

    fps = VO_FPS_MIN_MILLI
          + (fuzz_byte(&in) << 8 | fuzz_byte(&in))
            % (VO_FPS_MAX_MILLI - VO_FPS_MIN_MILLI + 1);
    duration = 1 + (int64_t) ((uint32_t) fuzz_byte(&in) << 24
                              | fuzz_byte(&in) << 16 | fuzz_byte(&in) << 8
                              | fuzz_byte(&in))
                   % (3 * 3600 * 1000);

    if (vw_plan_make(&plan, duration, fps, NULL, "fuzz", &err) != 0) {
        FUZZ_CHECK(0);
    }

    FUZZ_CHECK(plan.samples >= 1);

    /* the frame size: none, 640x360, any, or too big to be one */

    fs = fuzz_byte(&in);

    /* the frames: index gaps (0 = the same index again), confidence,
     * flags, text */

    n = 0;
    dup = 0;
    index = 0;

    while (n < FUZZ_FRAMES && in.n > 0) {
        b = fuzz_byte(&in);
        gap = b & 0x03;

        if (n > 0) {
            if (gap == 0 && !(b & 0x80)) {
                gap = 1;
            }

            if ((uint64_t) index + gap >= plan.indexes) {
                break;
            }

            index += gap;
            dup |= gap == 0;
        }

        len = fuzz_byte(&in) % (FUZZ_TEXT_MAX + 1);
        len = len < in.n ? len : in.n;

        texts[n] = malloc(len + 1);
        if (texts[n] == NULL) {
            abort();
        }

        memcpy(texts[n], in.p, len);
        texts[n][len] = '\0';
        in.p += len;
        in.n -= len;

        frames[n].index = index;
        frames[n].t_ms = vw_plan_time_ms(&plan, index);
        frames[n].pts_ms = (b & 0x40) ? -1 : frames[n].t_ms;
        frames[n].text = texts[n];
        frames[n].confidence = (int) (fuzz_byte(&in) % 101);
        frames[n].reused_from = (b & 0x20) && index > 0 ? index - 1 : -1;
        frames[n].flags = (b >> 2) & 0x07;
        frames[n].parts = NULL;     /* one part: fuzz_parts has specs */

        /* a change found to the frame (VO_FRAME_EXACT): its time any
         * number of ms from 0.5 s before its look to one after, or any
         * 32-bit value, in or out of the window the merger trusts */

        eb = fuzz_byte(&in);

        /* lines 1-6 read unsure, whatever the text has */
        frames[n].flags |= (unsigned) (eb >> 2) << VO_FRAME_UNSURE_SHIFT;

        if (eb & 0x01) {
            frames[n].flags |= VO_FRAME_EXACT;
            frames[n].pts_ms = frames[n].t_ms - 500
                               + (int64_t) fuzz_byte(&in) * 4;

            if (eb & 0x02) {
                for (k = 0, w = 0; k < 4; k++) {
                    w = w << 8 | fuzz_byte(&in);
                }

                frames[n].pts_ms = (int64_t) (int32_t) w;
            }
        }

        /* its box: none, a small one, one of any int16 values x 4
         * (negative, empty, past VW_MAX_SIDE), or the previous frame's */

        bb = fuzz_byte(&in);
        memset(&frames[n].box, 0, sizeof(vw_rect_t));
        frames[n].lines = 0;

        switch (bb & 0x03) {

        case 1:
            frames[n].box.x = (int) fuzz_byte(&in) * 3;
            frames[n].box.y = (int) fuzz_byte(&in) * 2;
            frames[n].box.w = 1 + (int) fuzz_byte(&in) * 3;
            frames[n].box.h = 1 + (int) fuzz_byte(&in);
            frames[n].lines = 1 + (int) (bb >> 2) % 3;
            break;

        case 2:
            frames[n].box.x = 4 * (int16_t) (fuzz_byte(&in) << 8
                                             | fuzz_byte(&in));
            frames[n].box.y = 4 * (int16_t) (fuzz_byte(&in) << 8
                                             | fuzz_byte(&in));
            frames[n].box.w = 4 * (int16_t) (fuzz_byte(&in) << 8
                                             | fuzz_byte(&in));
            frames[n].box.h = 4 * (int16_t) (fuzz_byte(&in) << 8
                                             | fuzz_byte(&in));
            frames[n].lines = (int) (bb >> 2) % 5;
            break;

        case 3:
            if (n > 0) {
                frames[n].box = frames[n - 1].box;
                frames[n].lines = frames[n - 1].lines;
            }

            break;
        }

        n++;
    }

    /* any order: a shuffle driven by what is left */

    for (i = n; i > 1; i--) {
        j = fuzz_byte(&in) % i;
        tmp = frames[i - 1];
        frames[i - 1] = frames[j];
        frames[j] = tmp;
    }

    /* 1-4 */

    rc = vw_segments_merge(&plan, frames, n, &segs, &nsegs);

    FUZZ_CHECK(rc == (dup ? -1 : 0));

    if (rc == 0) {
        fuzz_check_segments(&plan, frames, n, segs, nsegs);
    }

    /* 5 */

    vo_options_init(&options);
    memset(&insp, 0, sizeof(insp));
    memcpy(insp.container, "mp4", 4);
    snprintf(insp.demuxer, sizeof(insp.demuxer), "%s",
             n > 0 ? frames[0].text : "");
    snprintf(insp.codec, sizeof(insp.codec), "%s",
             n > 1 ? frames[1].text : "h264");
    insp.width = 640;
    insp.height = 360;

    switch (fs & 0x03) {
    case 0:
        break;
    case 1:
        insp.display_width = 640;
        insp.display_height = 360;
        break;
    case 2:
        insp.display_width = 1 + (int) fuzz_byte(&in) * 7;
        insp.display_height = 1 + (int) fuzz_byte(&in) * 5;
        break;
    default:
        insp.display_width = VW_MAX_SIDE + 1;
        insp.display_height = 360;
        break;
    }

    insp.duration_ms = duration;
    insp.fps_num = (int) fps;
    insp.fps_den = 1000;

    r.plan = &plan;
    r.options = &options;
    r.inspection = &insp;
    r.rows = frames;
    r.nrows = n;
    r.with_frames = 0;

    if (rc == 0) {
        vo_buf_init(&srt);
        vo_buf_init(&ass);
        fuzz_check_format(&r, VW_FORMAT_VTT, segs, nsegs, NULL, NULL);
        fuzz_check_format(&r, VW_FORMAT_SRT, segs, nsegs, &srt, cues);
        fuzz_check_format(&r, VW_FORMAT_TXT, segs, nsegs, NULL, NULL);
        fuzz_check_format(&r, VW_FORMAT_JSON, segs, nsegs, NULL, NULL);
        fuzz_check_format(&r, VW_FORMAT_ASS, segs, nsegs, &ass, NULL);
        fuzz_check_ass(ass.data, ass.len, &r, segs, nsegs, cues);
        vo_buf_free(&srt);
        vo_buf_free(&ass);
        r.with_frames = 1;
        fuzz_check_format(&r, VW_FORMAT_JSON, segs, nsegs, NULL, NULL);

        /* 10 */

        for (i = 0, k = 0, ul = 0; i < nsegs; i++) {
            k += vw_segment_unsure(&segs[i]);
            ul += (size_t) __builtin_popcount(segs[i].unsure_lines);
        }

        FUZZ_CHECK(vw_result_count(&r, &len, &j, &ulc) == 0);
        FUZZ_CHECK(len == nsegs && j == k && ulc == ul);

    } else {
        vo_buf_t  out;

        vo_buf_init(&out);
        FUZZ_CHECK(vw_result_write(&out, VW_FORMAT_VTT, &r) == -1);
        vo_buf_free(&out);
    }

    free(segs);

    for (i = 0; i < n; i++) {
        free(texts[i]);
    }

    return 0;
}


/* Invariant 9, at every offset of p[0..n). */
static void
fuzz_check_utf8(const uint8_t *p, size_t n)
{
    size_t    i, len, want;
    int32_t   next;
    uint32_t  cp, ref;

    FUZZ_CHECK(vw_utf8_decode(p, 0, &cp) == 0 && cp == 0xfffd);

    for (i = 0; i < n; i++) {
        next = vw_utf8_next(p + i, n - i, &len);
        FUZZ_CHECK(vw_utf8_decode(p + i, n - i, &cp) == len);

        want = fuzz_utf8_seq(p + i, n - i, &ref);

        if (next == -1) {
            FUZZ_CHECK(cp == 0xfffd && len == 1 && want == 0);

        } else {
            FUZZ_CHECK(cp == (uint32_t) next && next >= 0);
            FUZZ_CHECK(want == len && ref == cp);
        }
    }
}



static void
fuzz_check_segments(const vw_plan_t *plan, const vw_row_t *frames,
    size_t n, const vw_segment_t *segs, size_t nsegs)
{
    int                       lines, nl;
    unsigned                  unsure;
    size_t                    i, k, texted, covered;
    const char               *c;
    int64_t                   sum, count, x0, y0, x1, y1;
    const vw_segment_t       *s;
    const vw_row_t           *f, *prev, *own, *by_index[FUZZ_FRAMES];

    FUZZ_CHECK(nsegs == 0 || segs != NULL);
    FUZZ_CHECK(nsegs <= n);

    /* the frames in index order (indexes are unique here) */

    for (i = 0; i < n; i++) {
        by_index[i] = &frames[i];
    }

    for (i = 1; i < n; i++) {
        for (k = i; k > 0 && by_index[k - 1]->index > by_index[k]->index;
             k--)
        {
            f = by_index[k];
            by_index[k] = by_index[k - 1];
            by_index[k - 1] = f;
        }
    }

    texted = 0;

    for (i = 0; i < n; i++) {
        texted += frames[i].text[0] != '\0';
    }

    covered = 0;
    k = 0;

    for (i = 0; i < nsegs; i++) {
        s = &segs[i];

        /* 2 */

        FUZZ_CHECK(s->start_ms >= 0);
        FUZZ_CHECK(s->start_ms < s->end_ms);
        FUZZ_CHECK(s->end_ms <= plan->duration_ms);
        FUZZ_CHECK(s->first <= s->last);

        if (i > 0) {
            FUZZ_CHECK(s->first > segs[i - 1].last);
            FUZZ_CHECK(s->start_ms >= segs[i - 1].end_ms);
        }

        /* 3, 4: walk the frames of the segment */

        while (k < n && by_index[k]->index < s->first) {
            /* a frame before the segment: no text, or it is covered */
            k++;
        }

        FUZZ_CHECK(k < n && by_index[k]->index == s->first);

        if (k > 0 && FUZZ_NEXT(plan, by_index[k - 1]->index, s->first)
            && by_index[k - 1]->text[0] != '\0')
        {
            FUZZ_CHECK(strcmp(by_index[k - 1]->text, by_index[k]->text)
                       != 0);
        }

        sum = 0;
        count = 0;
        own = NULL;
        prev = NULL;
        lines = 0;
        unsure = 0;
        x0 = -1;
        y0 = -1;
        x1 = -1;
        y1 = -1;

        for ( ;; ) {
            f = by_index[k];

            FUZZ_CHECK(f->text[0] != '\0');

            if (fuzz_box_ok(&f->box)) {
                x0 = x0 < 0 || f->box.x < x0 ? f->box.x : x0;
                y0 = y0 < 0 || f->box.y < y0 ? f->box.y : y0;
                x1 = (int64_t) f->box.x + f->box.w > x1
                     ? (int64_t) f->box.x + f->box.w : x1;
                y1 = (int64_t) f->box.y + f->box.h > y1
                     ? (int64_t) f->box.y + f->box.h : y1;
                lines = f->lines > lines ? f->lines : lines;
            }

            if (prev != NULL) {
                FUZZ_CHECK(FUZZ_NEXT(plan, prev->index, f->index));
                FUZZ_CHECK(strcmp(prev->text, f->text) == 0);
            }

            sum += f->confidence;
            count++;
            covered++;
            unsure |= (f->flags & VO_FRAME_UNSURE_MASK)
                      >> VO_FRAME_UNSURE_SHIFT;

            if (s->text == f->text) {
                own = f;
            }

            prev = f;
            k++;

            if (f->index == s->last) {
                break;
            }

            FUZZ_CHECK(k < n);
        }

        /* 10: the unsure lines its frames name that its text has */

        for (c = s->text, nl = 1; *c != '\0'; c++) {
            nl += *c == '\n';
        }

        if (nl < VO_FRAME_UNSURE_LINES) {
            unsure &= (1u << nl) - 1;
        }

        FUZZ_CHECK(s->unsure_lines == unsure);

        /* the segment ends for a reason */

        if (k < n && FUZZ_NEXT(plan, s->last, by_index[k]->index)
            && by_index[k]->text[0] != '\0')
        {
            FUZZ_CHECK(strcmp(prev->text, by_index[k]->text) != 0);
        }

        /* 6 */

        if (x0 < 0) {
            FUZZ_CHECK(s->box.w == 0 && s->lines == 0);

        } else {
            FUZZ_CHECK(s->box.x == x0 && s->box.y == y0);
            FUZZ_CHECK(s->box.w == x1 - x0 && s->box.h == y1 - y0);
            FUZZ_CHECK(s->lines == lines);
        }

        FUZZ_CHECK(own != NULL && strcmp(s->text, prev->text) == 0);
        FUZZ_CHECK(s->confidence == (int) ((sum + count / 2) / count));
        FUZZ_CHECK(s->confidence >= 0 && s->confidence <= 100);
    }

    FUZZ_CHECK(covered == texted);
}


/*
 * Renders format f and checks it; the document stays in *keep (an
 * initialised buffer the caller frees) when keep is not NULL, and a
 * SubRip's payloads go to cues (when not NULL).
 */
static void
fuzz_check_format(const vw_result_t *r, vw_format_t f,
    const vw_segment_t *segs, size_t nsegs, vo_buf_t *keep,
    fuzz_cue_t *cues)
{
    size_t    i;
    vo_buf_t  mine, *out;

    out = keep != NULL ? keep : &mine;

    if (keep == NULL) {
        vo_buf_init(&mine);
    }

    FUZZ_CHECK(vw_result_write(out, f, r) == 0);
    FUZZ_CHECK(out->data != NULL && out->data[out->len] == '\0');
    FUZZ_CHECK(strlen(out->data) == out->len);
    FUZZ_CHECK(fuzz_utf8_valid((unsigned char *) out->data, out->len));

    if (f == VW_FORMAT_JSON) {
        FUZZ_CHECK(out->len > 0 && out->data[out->len - 1] == '\n');
        FUZZ_CHECK(fuzz_json_valid(out->data, out->len - 1));

        if (!r->with_frames) {
            fuzz_check_json_boxes(out->data, r, segs, nsegs);
        }

    } else {
        for (i = 0; i < out->len; i++) {
            FUZZ_CHECK((unsigned char) out->data[i] >= 0x20
                       || out->data[i] == '\n');
            FUZZ_CHECK(out->data[i] != 0x7f);
        }

        if (f != VW_FORMAT_ASS) {
            fuzz_check_cues(out->data, out->len, r, f, segs, nsegs, cues);
        }
    }

    if (keep == NULL) {
        vo_buf_free(&mine);
    }
}


static void
fuzz_check_cues(const char *doc, size_t len, const vw_result_t *r,
    vw_format_t f, const vw_segment_t *segs, size_t nsegs, fuzz_cue_t *cues)
{
    char          num[24];
    size_t        i, lines;
    int64_t       start, end;
    const char   *p, *last, *eol, *q;
    fuzz_place_t  pl;

    p = doc;
    last = doc + len;

    if (f == VW_FORMAT_TXT) {
        for (i = 0; i < nsegs; i++) {
            /* one line per segment (empty when the text has nothing
             * printable: OCR never gives such a text) */
            eol = memchr(p, '\n', last - p);
            FUZZ_CHECK(eol != NULL);
            p = eol + 1;
        }

        FUZZ_CHECK(p == last);
        return;
    }

    if (f == VW_FORMAT_VTT) {
        FUZZ_CHECK(len >= 7 && memcmp(p, "WEBVTT\n", 7) == 0);
        p += 7;
    }

    for (i = 0; i < nsegs; i++) {

        /* a blank line before each WebVTT cue, between SubRip cues */

        if (f == VW_FORMAT_VTT || i > 0) {
            FUZZ_CHECK(p < last && *p == '\n');
            p++;
        }

        /* 10: a NOTE block before an unsure WebVTT cue, none before
         * another (a cue's timing line starts with a digit) */

        if (f == VW_FORMAT_VTT && vw_segment_unsure(&segs[i])) {
            FUZZ_CHECK(last - p >= 5 && memcmp(p, "NOTE ", 5) == 0);

            while (p < last && *p != '\n') {
                eol = memchr(p, '\n', last - p);
                FUZZ_CHECK(eol != NULL);
                FUZZ_CHECK(memmem(p, eol - p, "-->", 3) == NULL);
                p = eol + 1;
            }

            FUZZ_CHECK(p < last && *p == '\n');
            p++;

        } else {
            FUZZ_CHECK(p < last && *p >= '0' && *p <= '9');
        }

        if (f == VW_FORMAT_SRT) {
            snprintf(num, sizeof(num), "%zu\n", i + 1);
            FUZZ_CHECK((size_t) (last - p) > strlen(num)
                       && memcmp(p, num, strlen(num)) == 0);
            p += strlen(num);
        }

        q = fuzz_timestamp(p, last, f == VW_FORMAT_VTT ? '.' : ',', &start);
        FUZZ_CHECK(q != NULL && last - q >= 5 && memcmp(q, " --> ", 5) == 0);
        q = fuzz_timestamp(q + 5, last, f == VW_FORMAT_VTT ? '.' : ',',
                           &end);
        FUZZ_CHECK(q != NULL);

        /* 7: WebVTT's settings exactly when placed, SubRip none */

        fuzz_place(r, &segs[i], &pl);

        if (f == VW_FORMAT_VTT && pl.known) {
            q = fuzz_settings(q, last, &pl);
            FUZZ_CHECK(q != NULL);
        }

        FUZZ_CHECK(q < last && *q == '\n');
        FUZZ_CHECK(start == segs[i].start_ms && end == segs[i].end_ms);
        p = q + 1;

        if (cues != NULL) {
            cues[i].p = p;
        }

        /* the payload: non-empty lines up to a blank line or the end */

        lines = 0;

        while (p < last && *p != '\n') {
            eol = memchr(p, '\n', last - p);
            FUZZ_CHECK(eol != NULL);

            if (f == VW_FORMAT_VTT) {
                FUZZ_CHECK(memmem(p, eol - p, "-->", 3) == NULL);
                FUZZ_CHECK(memchr(p, '<', eol - p) == NULL);

                for (q = p; q < eol; q++) {
                    if (*q == '&') {
                        FUZZ_CHECK((eol - q >= 5 && memcmp(q, "&amp;", 5) == 0)
                                   || (eol - q >= 4
                                       && (memcmp(q, "&lt;", 4) == 0
                                           || memcmp(q, "&gt;", 4) == 0)));
                    }
                }
            }

            lines++;
            p = eol + 1;
        }

        FUZZ_CHECK(lines >= 1);

        if (cues != NULL) {
            /* the payload without its last newline */
            cues[i].n = (size_t) (p - 1 - cues[i].p);
        }
    }

    FUZZ_CHECK(p == last);
}


/* A box, by invariant 6's definition. */
static int
fuzz_box_ok(const vw_rect_t *b)
{
    return fuzz_box_within(b->x, b->y, b->w, b->h, VW_MAX_SIDE);
}


/* Where segment s goes: its box clamped to a known frame size. */
static void
fuzz_place(const vw_result_t *r, const vw_segment_t *s, fuzz_place_t *pl)
{
    const vw_inspection_t  *in;

    memset(pl, 0, sizeof(fuzz_place_t));
    in = r->inspection;

    if (!fuzz_box_ok(&s->box) || in == NULL || in->display_width <= 0
        || in->display_height <= 0 || in->display_width > VW_MAX_SIDE
        || in->display_height > VW_MAX_SIDE)
    {
        return;
    }

    pl->known = 1;
    pl->w = in->display_width;
    pl->h = in->display_height;
    pl->x0 = s->box.x < pl->w ? s->box.x : pl->w;
    pl->y0 = s->box.y < pl->h ? s->box.y : pl->h;
    pl->x1 = s->box.x + s->box.w < pl->w ? s->box.x + s->box.w : pl->w;
    pl->y1 = s->box.y + s->box.h < pl->h ? s->box.y + s->box.h : pl->h;
    pl->bottom = pl->y0 + pl->y1 > pl->h;
}


/* A WebVTT percentage: digits, optionally '.' and 1-3 more, then '%';
 * its value in thousandths into *milli. */
static const char *
fuzz_pct(const char *p, const char *last, int64_t *milli)
{
    int      digits, frac;
    int64_t  v;

    v = 0;
    digits = 0;

    while (p < last && *p >= '0' && *p <= '9' && digits < 4) {
        v = v * 10 + (*p++ - '0');
        digits++;
    }

    if (digits == 0) {
        return NULL;
    }

    v *= 1000;

    if (p < last && *p == '.') {
        p++;

        for (frac = 100; frac > 0 && p < last && *p >= '0' && *p <= '9';
             frac /= 10)
        {
            v += (*p++ - '0') * frac;
        }

        if (frac == 100 || (p < last && *p >= '0' && *p <= '9')) {
            return NULL;
        }
    }

    if (p == last || *p != '%' || v > 100000) {
        return NULL;
    }

    *milli = v;

    return p + 1;
}


/* 1 if milli thousandths of a percent is num / den percent, rounded */
static int
fuzz_pct_near(int64_t milli, int64_t num, int64_t den)
{
    int64_t  d;

    d = milli * den - num * 1000;

    return 2 * (d < 0 ? -d : d) <= den;
}


static const char *
fuzz_settings(const char *p, const char *last, const fuzz_place_t *pl)
{
    int64_t  v;

    if (last - p < 6 || memcmp(p, " line:", 6) != 0) {
        return NULL;
    }

    p = fuzz_pct(p + 6, last, &v);

    if (p == NULL
        || !fuzz_pct_near(v, 100 * (int64_t) (pl->bottom ? pl->y1 : pl->y0),
                          pl->h))
    {
        return NULL;
    }

    if (pl->bottom) {
        if (last - p < 4 || memcmp(p, ",end", 4) != 0) {
            return NULL;
        }

        p += 4;
    }

    if (last - p < 10 || memcmp(p, " position:", 10) != 0) {
        return NULL;
    }

    p = fuzz_pct(p + 10, last, &v);

    if (p == NULL || !fuzz_pct_near(v, 50 * (int64_t) (pl->x0 + pl->x1),
                                    pl->w))
    {
        return NULL;
    }

    if (last - p < 6 || memcmp(p, " size:", 6) != 0) {
        return NULL;
    }

    p = fuzz_pct(p + 6, last, &v);

    if (p == NULL || !fuzz_pct_near(v, 100 * (int64_t) (pl->x1 - pl->x0),
                                    pl->w)
        || last - p < 13 || memcmp(p, " align:center", 13) != 0)
    {
        return NULL;
    }

    return p + 13;
}


/* how many times what is in doc */
static size_t
fuzz_count(const char *doc, const char *what)
{
    size_t       n;
    const char  *p;

    n = 0;

    for (p = strstr(doc, what); p != NULL; p = strstr(p + 1, what)) {
        n++;
    }

    return n;
}


/*
 * 6, in the JSON without frames: a box for each segment that has one,
 * null for the others (no text can spell "box":[ or "box":null: a
 * quote in a string is escaped), and the frame size when known.
 */
static void
fuzz_check_json_boxes(const char *doc, const vw_result_t *r,
    const vw_segment_t *segs, size_t nsegs)
{
    char                    want[64];
    size_t                  i, boxed, unsure, lined;
    const vw_inspection_t  *in;

    boxed = 0;

    for (i = 0; i < nsegs; i++) {
        boxed += fuzz_box_ok(&segs[i].box);

        if (fuzz_box_ok(&segs[i].box)) {
            snprintf(want, sizeof(want), "\"box\":[%d,%d,%d,%d],\"lines\":",
                     segs[i].box.x, segs[i].box.y, segs[i].box.w,
                     segs[i].box.h);
            FUZZ_CHECK(strstr(doc, want) != NULL);
        }
    }

    /* 10 */

    for (i = 0, unsure = 0, lined = 0; i < nsegs; i++) {
        unsure += vw_segment_unsure(&segs[i]);
        lined += segs[i].unsure_lines != 0;
    }

    FUZZ_CHECK(fuzz_count(doc, ",\"unsure\":true") == unsure);
    FUZZ_CHECK(fuzz_count(doc, "\"unsure\":") == unsure);
    FUZZ_CHECK(fuzz_count(doc, ",\"unsure_lines\":[") == lined);

    FUZZ_CHECK(fuzz_count(doc, "\"box\":[") == boxed);
    FUZZ_CHECK(fuzz_count(doc, "\"box\":null,\"lines\":null")
               == nsegs - boxed);

    in = r->inspection;

    if (in->display_width > 0 && in->display_height > 0
        && in->display_width <= VW_MAX_SIDE
        && in->display_height <= VW_MAX_SIDE)
    {
        snprintf(want, sizeof(want), ",\"frame_size\":[%d,%d],",
                 in->display_width, in->display_height);
        FUZZ_CHECK(strstr(doc, want) != NULL);

    } else {
        FUZZ_CHECK(strstr(doc, ",\"frame_size\":null,") != NULL);
    }
}


/* H:MM:SS.cc into centiseconds */
static const char *
fuzz_ass_time(const char *p, const char *last, int64_t *cs)
{
    int64_t  h;

    h = 0;

    if (p == last || *p < '0' || *p > '9') {
        return NULL;
    }

    while (p < last && *p >= '0' && *p <= '9') {
        h = h * 10 + (*p++ - '0');
    }

    if (last - p < 9 || p[0] != ':' || p[3] != ':' || p[6] != '.'
        || p[1] < '0' || p[1] > '5' || p[4] < '0' || p[4] > '5')
    {
        return NULL;
    }

    if (p[2] < '0' || p[2] > '9' || p[5] < '0' || p[5] > '9'
        || p[7] < '0' || p[7] > '9' || p[8] < '0' || p[8] > '9')
    {
        return NULL;
    }

    *cs = h * 360000 + ((p[1] - '0') * 10 + (p[2] - '0')) * 6000
          + ((p[4] - '0') * 10 + (p[5] - '0')) * 100
          + (p[7] - '0') * 10 + (p[8] - '0');

    return p + 9;
}


/* 8 */
static void
fuzz_check_ass(const char *doc, size_t len, const vw_result_t *r,
    const vw_segment_t *segs, size_t nsegs, const fuzz_cue_t *srt)
{
    int           w, h;
    char          want[160], text[4 * FUZZ_TEXT_MAX + 8];
    size_t        i, n;
    int64_t       cs;
    const char   *p, *last, *q;
    fuzz_place_t  pl;

    static const char  events[] = "\n[Events]\nFormat: Layer, Start, End, "
                                  "Style, Name, MarginL, MarginR, MarginV, "
                                  "Effect, Text\n";

    p = doc;
    last = doc + len;

    FUZZ_CHECK(len > 14 && memcmp(p, "[Script Info]\n", 14) == 0);
    FUZZ_CHECK(strstr(doc, "\nScriptType: v4.00+\n") != NULL);

    w = 384;
    h = 288;

    if (r->inspection->display_width > 0 && r->inspection->display_height > 0
        && r->inspection->display_width <= VW_MAX_SIDE
        && r->inspection->display_height <= VW_MAX_SIDE)
    {
        w = r->inspection->display_width;
        h = r->inspection->display_height;
    }

    snprintf(want, sizeof(want), "\nPlayResX: %d\nPlayResY: %d\n", w, h);
    FUZZ_CHECK(strstr(doc, want) != NULL);

    q = strstr(doc, "\n[V4+ Styles]\nFormat: Name, ");
    FUZZ_CHECK(q != NULL);
    q = strstr(q, "\nStyle: Default,");
    FUZZ_CHECK(q != NULL);
    q = strstr(q, events);
    FUZZ_CHECK(q != NULL);
    p = q + sizeof(events) - 1;

    for (i = 0; i < nsegs; i++) {

        /* 10: a Comment event before an unsure segment's, none before
         * another's */

        if (vw_segment_unsure(&segs[i])) {
            FUZZ_CHECK(last - p > 11 && memcmp(p, "Comment: 0,", 11) == 0);
            q = fuzz_ass_time(p + 11, last, &cs);
            FUZZ_CHECK(q != NULL && q < last && *q == ',');
            FUZZ_CHECK(2 * (cs * 10 - segs[i].start_ms) <= 10
                       && 2 * (segs[i].start_ms - cs * 10) <= 10);
            q = fuzz_ass_time(q + 1, last, &cs);
            FUZZ_CHECK(q != NULL && 2 * (cs * 10 - segs[i].end_ms) <= 10
                       && 2 * (segs[i].end_ms - cs * 10) <= 10);
            fuzz_unsure_words(&segs[i], want, sizeof(want));
            FUZZ_CHECK((size_t) (last - q) >= strlen(want)
                       && memcmp(q, want, strlen(want)) == 0);
            p = q + strlen(want);
        }

        FUZZ_CHECK(last - p > 12 && memcmp(p, "Dialogue: 0,", 12) == 0);
        p = fuzz_ass_time(p + 12, last, &cs);
        FUZZ_CHECK(p != NULL && 2 * (cs * 10 - segs[i].start_ms) <= 10
                   && 2 * (segs[i].start_ms - cs * 10) <= 10);
        FUZZ_CHECK(p < last && *p == ',');
        p = fuzz_ass_time(p + 1, last, &cs);
        FUZZ_CHECK(p != NULL && 2 * (cs * 10 - segs[i].end_ms) <= 10
                   && 2 * (segs[i].end_ms - cs * 10) <= 10);
        FUZZ_CHECK(last - p >= 18 && memcmp(p, ",Default,,0,0,0,,", 17) == 0);
        p += 17;

        fuzz_place(r, &segs[i], &pl);

        if (pl.known) {
            snprintf(want, sizeof(want), "{\\an%d\\pos(%d,%d)}",
                     pl.bottom ? 2 : 8, (pl.x0 + pl.x1) / 2,
                     pl.bottom ? pl.y1 : pl.y0);
            FUZZ_CHECK((size_t) (last - p) >= strlen(want)
                       && memcmp(p, want, strlen(want)) == 0);
            p += strlen(want);
        }

        /* the text, unescaped, up to the end of the line */

        n = 0;

        while (p < last && *p != '\n') {
            FUZZ_CHECK(*p != '{' && *p != '}');
            FUZZ_CHECK(n + 4 < sizeof(text));

            if (*p != '\\') {
                text[n++] = *p++;
                continue;
            }

            FUZZ_CHECK(last - p >= 2);

            if (p[1] == '{' || p[1] == '}') {
                text[n++] = p[1];
                p += 2;

            } else if (p[1] == 'N') {
                text[n++] = '\n';
                p += 2;

            } else {
                FUZZ_CHECK(last - p >= 4
                           && memcmp(p + 1, "\xe2\x81\xa0", 3) == 0);
                text[n++] = '\\';
                p += 4;
            }
        }

        FUZZ_CHECK(p < last);
        p++;

        /* the same text as the SubRip cue's (which cannot be empty) */

        if (n == 0) {
            FUZZ_CHECK(srt[i].n == 3 && memcmp(srt[i].p, "\xe2\x80\x8b", 3)
                                        == 0);

        } else {
            FUZZ_CHECK(srt[i].n == n && memcmp(srt[i].p, text, n) == 0);
        }
    }

    FUZZ_CHECK(p == last);
}


/* HH:MM:SS<sep>mmm */

static const char *
fuzz_timestamp(const char *p, const char *last, char sep, int64_t *ms)
{
    int      i;
    int64_t  v[4];

    static const char  shape[] = "dd:dd:ddsddd";

    if (last - p < (ptrdiff_t) sizeof(shape) - 1) {
        return NULL;
    }

    for (i = 0; shape[i]; i++) {
        if (shape[i] == 'd' ? (p[i] < '0' || p[i] > '9')
                            : p[i] != (shape[i] == 's' ? sep : shape[i]))
        {
            return NULL;
        }
    }

    v[0] = (p[0] - '0') * 10 + (p[1] - '0');
    v[1] = (p[3] - '0') * 10 + (p[4] - '0');
    v[2] = (p[6] - '0') * 10 + (p[7] - '0');
    v[3] = (p[9] - '0') * 100 + (p[10] - '0') * 10 + (p[11] - '0');

    if (v[1] > 59 || v[2] > 59) {
        return NULL;
    }

    *ms = v[0] * 3600000 + v[1] * 60000 + v[2] * 1000 + v[3];

    return p + sizeof(shape) - 1;
}


/*
 * 10: what an unsure segment's ASS Comment says after its times
 * (vw_output.c's words, written out here as the oracle): its
 * confidence, "(below 80)" when that is, and the numbers of its unsure
 * lines unless its text is one line and that said it.
 */
static void
fuzz_unsure_words(const vw_segment_t *s, char *buf, size_t size)
{
    int     k, n;
    size_t  len;

    len = (size_t) snprintf(buf, size, ",Default,,0,0,0,,unsure: read with "
                            "confidence %d", s->confidence);

    if (s->confidence < VW_UNSURE_BELOW) {
        len += (size_t) snprintf(buf + len, size - len, " (below %d)",
                                 VW_UNSURE_BELOW);
    }

    if (s->unsure_lines != 0
        && (strchr(s->text, '\n') != NULL
            || s->confidence >= VW_UNSURE_BELOW))
    {
        len += (size_t) snprintf(buf + len, size - len, ", line%s",
                                 __builtin_popcount(s->unsure_lines) > 1
                                 ? "s" : "");

        for (k = 0, n = 0; k < VO_FRAME_UNSURE_LINES; k++) {
            if (s->unsure_lines & (1u << k)) {
                len += (size_t) snprintf(buf + len, size - len,
                                         n++ ? ", %d" : " %d", k + 1);
            }
        }

        len += (size_t) snprintf(buf + len, size - len, " below %d",
                                 VW_UNSURE_BELOW);
    }

    snprintf(buf + len, size - len, "\n");
}
