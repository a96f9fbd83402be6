/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Fuzz target: the segment merger and the result writers
 * (worker/vw_segments.c, vw_output.c).  The input describes a plan (fps,
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
 *   4. its text is that of its most confident frame (the earliest on a
 *      tie), its confidence the rounded mean of its frames';
 *   5. every format is well-formed UTF-8; WebVTT starts with "WEBVTT",
 *      then one cue per segment: a blank line, "HH:MM:SS.mmm -->
 *      HH:MM:SS.mmm" with the segment's times, one or more non-empty
 *      lines with no "-->", no raw '<' and '&' only in an entity; SubRip
 *      numbers its cues 1..n with "HH:MM:SS,mmm" times; text has one
 *      line per segment; none has a control character but
 *      '\n'; JSON (with and without frames) is one valid JSON value.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"
#include "vw_output.h"


#define FUZZ_FRAMES     48

/* frame b follows a with no sample missing between them */
#define FUZZ_NEXT(plan, a, b)                                                \
    ((b) > (a) && (b) / (plan)->looks <= (a) / (plan)->looks + 1)
#define FUZZ_TEXT_MAX   48


typedef struct {
    const uint8_t  *p;
    size_t          n;
} fuzz_in_t;


static unsigned fuzz_byte(fuzz_in_t *in);
static void fuzz_check_segments(const vw_plan_t *plan,
    const vw_frame_result_t *frames, size_t n, const vw_segment_t *segs,
    size_t nsegs);
static void fuzz_check_cues(const char *doc, size_t len, vw_format_t f,
    const vw_segment_t *segs, size_t nsegs);
static const char *fuzz_timestamp(const char *p, const char *last,
    char sep, int64_t *ms);
static void fuzz_check_format(const vw_result_t *r, vw_format_t f,
    const vw_segment_t *segs, size_t nsegs);


int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int                 dup, rc;
    char               *texts[FUZZ_FRAMES];
    size_t              i, j, n, nsegs, len;
    int64_t             duration;
    uint32_t            fps, index;
    unsigned            b, gap;
    vw_err_t            err;
    vw_plan_t           plan;
    fuzz_in_t           in;
    vw_result_t         r;
    vo_options_t        options;
    vw_segment_t       *segs;
    vw_inspection_t     insp;
    vw_frame_result_t   frames[FUZZ_FRAMES], tmp;

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

    FUZZ_CHECK(plan.frames >= 1);

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
    insp.duration_ms = duration;
    insp.fps_num = (int) fps;
    insp.fps_den = 1000;

    r.plan = &plan;
    r.options = &options;
    r.inspection = &insp;
    r.frames = frames;
    r.nframes = n;
    r.with_frames = 0;

    if (rc == 0) {
        fuzz_check_format(&r, VW_FORMAT_VTT, segs, nsegs);
        fuzz_check_format(&r, VW_FORMAT_SRT, segs, nsegs);
        fuzz_check_format(&r, VW_FORMAT_TXT, segs, nsegs);
        fuzz_check_format(&r, VW_FORMAT_JSON, segs, nsegs);
        r.with_frames = 1;
        fuzz_check_format(&r, VW_FORMAT_JSON, segs, nsegs);

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


static unsigned
fuzz_byte(fuzz_in_t *in)
{
    if (in->n == 0) {
        return 0;
    }

    in->n--;
    return *in->p++;
}


static void
fuzz_check_segments(const vw_plan_t *plan, const vw_frame_result_t *frames,
    size_t n, const vw_segment_t *segs, size_t nsegs)
{
    size_t                    i, k, texted, covered;
    int64_t                   sum, count;
    const vw_segment_t       *s;
    const vw_frame_result_t  *f, *prev, *best, *by_index[FUZZ_FRAMES];

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
        best = NULL;
        prev = NULL;

        for ( ;; ) {
            f = by_index[k];

            FUZZ_CHECK(f->text[0] != '\0');

            if (prev != NULL) {
                FUZZ_CHECK(FUZZ_NEXT(plan, prev->index, f->index));
                FUZZ_CHECK(strcmp(prev->text, f->text) == 0);
            }

            sum += f->confidence;
            count++;
            covered++;

            if (best == NULL || f->confidence > best->confidence) {
                best = f;
            }

            prev = f;
            k++;

            if (f->index == s->last) {
                break;
            }

            FUZZ_CHECK(k < n);
        }

        /* the segment ends for a reason */

        if (k < n && FUZZ_NEXT(plan, s->last, by_index[k]->index)
            && by_index[k]->text[0] != '\0')
        {
            FUZZ_CHECK(strcmp(prev->text, by_index[k]->text) != 0);
        }

        FUZZ_CHECK(s->text == best->text);
        FUZZ_CHECK(s->confidence == (int) ((sum + count / 2) / count));
        FUZZ_CHECK(s->confidence >= 0 && s->confidence <= 100);
    }

    FUZZ_CHECK(covered == texted);
}


static void
fuzz_check_format(const vw_result_t *r, vw_format_t f,
    const vw_segment_t *segs, size_t nsegs)
{
    size_t    i;
    vo_buf_t  out;

    vo_buf_init(&out);

    FUZZ_CHECK(vw_result_write(&out, f, r) == 0);
    FUZZ_CHECK(out.data != NULL && out.data[out.len] == '\0');
    FUZZ_CHECK(strlen(out.data) == out.len);
    FUZZ_CHECK(fuzz_utf8_valid((unsigned char *) out.data, out.len));

    if (f == VW_FORMAT_JSON) {
        FUZZ_CHECK(out.len > 0 && out.data[out.len - 1] == '\n');
        FUZZ_CHECK(fuzz_json_valid(out.data, out.len - 1));

    } else {
        for (i = 0; i < out.len; i++) {
            FUZZ_CHECK((unsigned char) out.data[i] >= 0x20
                       || out.data[i] == '\n');
            FUZZ_CHECK(out.data[i] != 0x7f);
        }

        fuzz_check_cues(out.data, out.len, f, segs, nsegs);
    }

    vo_buf_free(&out);
}


static void
fuzz_check_cues(const char *doc, size_t len, vw_format_t f,
    const vw_segment_t *segs, size_t nsegs)
{
    char         num[24];
    size_t       i, lines;
    int64_t      start, end;
    const char  *p, *last, *eol, *q;

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
        FUZZ_CHECK(q != NULL && q < last && *q == '\n');
        FUZZ_CHECK(start == segs[i].start_ms && end == segs[i].end_ms);
        p = q + 1;

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
