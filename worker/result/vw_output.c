/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The result writers (see vw_output.h).  Every writer goes through
 * vw_segments_merge, and every text through one sanitiser: invalid UTF-8
 * becomes U+FFFD, control characters become spaces, blank lines are
 * dropped (a blank line ends a cue in WebVTT and SubRip).  WebVTT cue
 * text escapes &, < and > as the spec requires; SubRip has no escapes
 * and gets the text as is; plain text puts each segment on one line.
 * ASS has no standard escape for what its override blocks use: a line
 * break is \N, a brace \{ or \} (what libass renders as a brace, and
 * what FFmpeg writes when it makes ASS of other subtitles), and a
 * backslash is followed by U+2060 WORD JOINER, an invisible character,
 * so that it starts no escape or tag with what follows it (libass's
 * advice: FFmpeg writes "\\", which libass shows as a backslash that
 * leaves the next one to start an escape: "\\N" is "\" and a line
 * break there).  An unsure segment's WebVTT cue comes after a NOTE block
 * (a comment: a cue's payload cannot hold one) of fixed text, which
 * never holds "-->"; its ASS Dialogue after a Comment event of the same
 * times and that text.
 *
 * Placement (both from the segment's box and the frame size; nothing
 * when either is unknown): the text's horizontal middle, and its top
 * edge, or its bottom edge when the box's middle lies in the lower half
 * of the picture (so that a player's font, of another size, grows
 * towards the picture's middle).  WebVTT: "line:T%" or "line:B%,end",
 * "position:M%" (align center: the cue box's middle), "size:W%" (the
 * box's width) and "align:center", percentages of the frame size with
 * at most 3 decimals.  ASS: PlayResX/PlayResY are the frame size, and
 * each event starts with {\an8\pos(M,T)} or {\an2\pos(M,B)}.
 */

#include <stdlib.h>
#include <string.h>

#include "vw_output.h"
#include "core/vw_utf8.h"
#include "vw_parts.h"


typedef enum {
    VW_TEXT_VTT,
    VW_TEXT_SRT,
    VW_TEXT_TXT,
    VW_TEXT_ASS
} vw_text_mode_t;

/* where a segment goes on the picture (vw_place) */
typedef struct {
    int      known;
    int      bottom;            /* anchored by its bottom edge */
    int      mid_x;             /* pixels of the frame */
    int      edge_y;
    int64_t  mid_pct;           /* thousandths of a percent */
    int64_t  edge_pct;
    int64_t  width_pct;
} vw_place_t;


static void vw_decimal(vo_buf_t *out, int64_t milli);
static void vw_timestamp(vo_buf_t *out, int64_t ms, char frac_sep);
static void vw_text(vo_buf_t *out, const char *s, vw_text_mode_t mode);
static void vw_result_json(vo_buf_t *out, const vw_result_t *r,
    const vw_segment_t *segs, size_t nsegs);
static int vw_result_turn(const vw_result_t *r);
static void vw_result_warnings(vo_buf_t *out, const vw_result_t *r);
static int vw_result_frame_size(const vw_result_t *r, int *w, int *h);
static void vw_place(const vw_result_t *r, const vw_segment_t *s,
    vw_place_t *pl);
static void vw_box_json(vo_buf_t *out, const vw_rect_t *box, int lines);
static void vw_unsure_lines_json(vo_buf_t *out, unsigned lines);
static void vw_line_numbers(vo_buf_t *out, unsigned lines, const char *sep);
static void vw_unsure_words(vo_buf_t *out, const vw_segment_t *s);
static void vw_parts_json(vo_buf_t *out, const vw_row_t *f);
static void vw_result_ass(vo_buf_t *out, const vw_result_t *r,
    const vw_segment_t *segs, size_t nsegs);
static void vw_ass_time(vo_buf_t *out, int64_t ms);


int
vw_format_parse(const char *name, vw_format_t *f)
{
    if (strcmp(name, "json") == 0) {
        *f = VW_FORMAT_JSON;

    } else if (strcmp(name, "vtt") == 0) {
        *f = VW_FORMAT_VTT;

    } else if (strcmp(name, "srt") == 0) {
        *f = VW_FORMAT_SRT;

    } else if (strcmp(name, "txt") == 0) {
        *f = VW_FORMAT_TXT;

    } else if (strcmp(name, "ass") == 0) {
        *f = VW_FORMAT_ASS;

    } else {
        return -1;
    }

    return 0;
}


int
vw_result_write(vo_buf_t *out, vw_format_t f, const vw_result_t *r)
{
    size_t         i, nsegs;
    vw_place_t     pl;
    vw_segment_t  *segs;

    if (vw_segments_merge(r->plan, r->rows, r->nrows, &segs, &nsegs)
        != 0)
    {
        return -1;
    }

    switch (f) {

    case VW_FORMAT_JSON:
        vw_result_json(out, r, segs, nsegs);
        break;

    case VW_FORMAT_VTT:
        vo_buf_adds(out, "WEBVTT\n");

        for (i = 0; i < nsegs; i++) {
            vo_buf_addc(out, '\n');

            if (vw_segment_unsure(&segs[i])) {
                vo_buf_adds(out, "NOTE ");
                vw_unsure_words(out, &segs[i]);
                vo_buf_adds(out, "\n\n");
            }

            vw_timestamp(out, segs[i].start_ms, '.');
            vo_buf_adds(out, " --> ");
            vw_timestamp(out, segs[i].end_ms, '.');
            vw_place(r, &segs[i], &pl);

            if (pl.known) {
                vo_buf_adds(out, " line:");
                vw_decimal(out, pl.edge_pct);
                vo_buf_adds(out, pl.bottom ? "%,end position:" : "% position:");
                vw_decimal(out, pl.mid_pct);
                vo_buf_adds(out, "% size:");
                vw_decimal(out, pl.width_pct);
                vo_buf_adds(out, "% align:center");
            }

            vo_buf_addc(out, '\n');
            vw_text(out, segs[i].text, VW_TEXT_VTT);
            vo_buf_addc(out, '\n');
        }

        break;

    case VW_FORMAT_SRT:
        for (i = 0; i < nsegs; i++) {
            vo_buf_printf(out, "%s%zu\n", i ? "\n" : "", i + 1);
            vw_timestamp(out, segs[i].start_ms, ',');
            vo_buf_adds(out, " --> ");
            vw_timestamp(out, segs[i].end_ms, ',');
            vo_buf_addc(out, '\n');
            vw_text(out, segs[i].text, VW_TEXT_SRT);
            vo_buf_addc(out, '\n');
        }

        break;

    case VW_FORMAT_TXT:
        for (i = 0; i < nsegs; i++) {
            vw_text(out, segs[i].text, VW_TEXT_TXT);
            vo_buf_addc(out, '\n');
        }

        break;

    case VW_FORMAT_ASS:
        vw_result_ass(out, r, segs, nsegs);
        break;
    }

    free(segs);

    /* an empty result is still a valid, NUL-terminated document */
    vo_buf_add(out, "", 0);

    return vo_buf_ok(out) ? 0 : -1;
}


static void
vw_result_json(vo_buf_t *out, const vw_result_t *r, const vw_segment_t *segs,
    size_t nsegs)
{
    int                       turn, w, h;
    char                      opts[VO_OPTIONS_JSON_MAX];
    size_t                    i, ocr, reused, timed_out, no_text, between;
    const vw_row_t           *f;

    ocr = 0;
    reused = 0;
    timed_out = 0;
    no_text = 0;
    between = 0;

    for (i = 0; i < r->nrows; i++) {
        f = &r->rows[i];

        between += (f->flags & VO_FRAME_BETWEEN) != 0;

        if (f->reused_from >= 0 || (f->flags & VO_FRAME_JOINED)) {
            reused++;

        } else if (f->flags & VO_FRAME_NO_TEXT) {
            no_text++;

        } else if (!(f->flags & VO_FRAME_NO_PICTURE)) {
            ocr++;
        }

        if (f->flags & VO_FRAME_TIMED_OUT) {
            timed_out++;
        }
    }

    vo_buf_printf(out, "{\"plan_version\":%u", (unsigned) r->plan->version);

    if (r->options != NULL
        && vo_options_canonical(r->options, opts, sizeof(opts)) > 0)
    {
        vo_buf_adds(out, ",\"options\":");
        vo_buf_adds(out, opts);
    }

    if (r->inspection != NULL) {
        vo_buf_adds(out, ",\"inspection\":");
        vw_inspection_json(out, r->inspection);
    }

    vo_buf_printf(out, ",\"frames_planned\":%u,\"frames_done\":%zu,"
                "\"frames_between\":%zu,"
                "\"ocr_calls\":%zu,\"frames_reused\":%zu,"
                "\"frames_timed_out\":%zu,\"frames_no_text\":%zu,"
                "\"detected_rotation\":",
                (unsigned) r->plan->samples, r->nrows - between, between,
                ocr, reused, timed_out, no_text);

    turn = vw_result_turn(r);

    if (turn >= 0) {
        vo_buf_printf(out, "%d", turn);

    } else {
        vo_buf_adds(out, "null");
    }

    vw_result_warnings(out, r);

    if (vw_result_frame_size(r, &w, &h)) {
        vo_buf_printf(out, ",\"frame_size\":[%d,%d]", w, h);

    } else {
        vo_buf_adds(out, ",\"frame_size\":null");
    }

    vo_buf_adds(out, ",\"segments\":[");

    for (i = 0; i < nsegs; i++) {
        vo_buf_adds(out, i ? ",{\"start\":" : "{\"start\":");
        vw_decimal(out, segs[i].start_ms);
        vo_buf_adds(out, ",\"end\":");
        vw_decimal(out, segs[i].end_ms);
        vo_buf_adds(out, ",\"text\":");
        vo_json_strz(out, segs[i].text);
        vo_buf_printf(out, ",\"confidence\":%d,\"looks\":%u",
                      segs[i].confidence, (unsigned) segs[i].looks);
        vw_box_json(out, &segs[i].box, segs[i].lines);
        if (vw_segment_unsure(&segs[i])) {
            vo_buf_adds(out, ",\"unsure\":true");
        }

        vw_unsure_lines_json(out, segs[i].unsure_lines);
        vo_buf_addc(out, '}');
    }

    vo_buf_addc(out, ']');

    if (r->with_frames) {
        vo_buf_adds(out, ",\"frames\":[");

        for (i = 0; i < r->nrows; i++) {
            f = &r->rows[i];

            vo_buf_printf(out, "%s{\"index\":%u,\"t\":", i ? "," : "",
                        (unsigned) f->index);
            vw_decimal(out, f->t_ms);
            vo_buf_adds(out, ",\"pts\":");

            if (f->pts_ms >= 0) {
                vw_decimal(out, f->pts_ms);

            } else {
                vo_buf_adds(out, "null");
            }

            vo_buf_adds(out, ",\"text\":");
            vo_json_strz(out, f->text);
            vo_buf_printf(out, ",\"confidence\":%d,\"reused_from\":",
                        f->confidence);

            if (f->reused_from >= 0) {
                vo_buf_printf(out, "%lld", (long long) f->reused_from);

            } else {
                vo_buf_adds(out, "null");
            }

            vw_box_json(out, &f->box, f->lines);
            vw_parts_json(out, f);
            vo_buf_printf(out, ",\"timed_out\":%s,\"no_picture\":%s,"
                        "\"no_text\":%s,\"between\":%s,\"exact\":%s,"
                        "\"joined\":%s}",
                        (f->flags & VO_FRAME_TIMED_OUT) ? "true" : "false",
                        (f->flags & VO_FRAME_NO_PICTURE) ? "true" : "false",
                        (f->flags & VO_FRAME_NO_TEXT) ? "true" : "false",
                        (f->flags & VO_FRAME_BETWEEN) ? "true" : "false",
                        (f->flags & VO_FRAME_EXACT) ? "true" : "false",
                        (f->flags & VO_FRAME_JOINED) ? "true" : "false");
        }

        vo_buf_addc(out, ']');
    }

    vo_buf_adds(out, "}\n");
}


/*
 * What orientation detection found: the turn of the last row made after
 * it ran (VO_FRAME_OSD), in degrees clockwise; -1 if it never ran.
 */
static int
vw_result_turn(const vw_result_t *r)
{
    size_t                    i;
    int64_t                   last;
    unsigned                  flags;
    const vw_row_t           *f;

    last = -1;
    flags = 0;

    for (i = 0; i < r->nrows; i++) {
        f = &r->rows[i];

        if ((f->flags & VO_FRAME_OSD) && (int64_t) f->index > last) {
            last = f->index;
            flags = f->flags;
        }
    }

    if (last < 0) {
        return -1;
    }

    return 90 * (int) ((flags & VO_FRAME_TURN_MASK) >> VO_FRAME_TURN_SHIFT);
}


int
vw_result_count(const vw_result_t *r, size_t *segments, size_t *unsure,
    size_t *unsure_lines)
{
    size_t         i, nsegs;
    unsigned       b;
    vw_segment_t  *segs;

    if (vw_segments_merge(r->plan, r->rows, r->nrows, &segs, &nsegs)
        != 0)
    {
        return -1;
    }

    *segments = nsegs;
    *unsure = 0;
    *unsure_lines = 0;

    for (i = 0; i < nsegs; i++) {
        *unsure += vw_segment_unsure(&segs[i]);

        for (b = segs[i].unsure_lines; b != 0; b &= b - 1) {
            (*unsure_lines)++;
        }
    }

    free(segs);

    return 0;
}


const char *
vw_result_warning(const vw_result_t *r)
{
    size_t  i;

    for (i = 0; i < r->nrows; i++) {
        if ((r->rows[i].flags & VO_FRAME_UNREAD)
            && r->rows[i].reused_from < 0)
        {
            return "text_unreadable";
        }
    }

    return NULL;
}


/*
 * ,"warnings":[...]: text_unreadable lists, in index order, the rows
 * whose own reading (not a reused one) found many glyphs and read
 * (almost) nothing, at most VW_WARN_FRAMES of them ("count" says how
 * many there are).
 */
static void
vw_result_warnings(vo_buf_t *out, const vw_result_t *r)
{
    size_t     i, n, k, min;
    uint32_t   prev;
    int64_t    next;

    vo_buf_adds(out, ",\"warnings\":[");

    if (vw_result_warning(r) == NULL) {
        vo_buf_addc(out, ']');
        return;
    }

    n = 0;

    for (i = 0; i < r->nrows; i++) {
        n += (r->rows[i].flags & VO_FRAME_UNREAD)
             && r->rows[i].reused_from < 0;
    }

    vo_buf_printf(out, "{\"code\":\"text_unreadable\",\"message\":\"%zu "
                  "screen%s whose glyphs read as (almost) nothing: "
                  "text in a script the language does not cover, mirrored, "
                  "or too blurred to read\",\"count\":%zu,\"frames\":[",
                  n, n == 1 ? "" : "s", n);

    /* the rows may come in any order: take them by index */

    prev = 0;

    for (k = 0; k < n && k < VW_WARN_FRAMES; k++) {
        next = -1;

        for (i = 0; i < r->nrows; i++) {
            if (!(r->rows[i].flags & VO_FRAME_UNREAD)
                || r->rows[i].reused_from >= 0
                || (k > 0 && r->rows[i].index <= prev))
            {
                continue;
            }

            if (next < 0 || r->rows[i].index < (uint32_t) next) {
                next = r->rows[i].index;
            }
        }

        min = (size_t) next;
        vo_buf_printf(out, "%s%zu", k ? "," : "", min);
        prev = (uint32_t) next;
    }

    vo_buf_adds(out, "]}]");
}


void
vw_inspection_json(vo_buf_t *out, const vw_inspection_t *in)
{
    vo_buf_adds(out, "{\"container\":");
    vo_json_strz(out, in->container);
    vo_buf_adds(out, ",\"demuxer\":");
    vo_json_strz(out, in->demuxer);
    vo_buf_adds(out, ",\"codec\":");
    vo_json_strz(out, in->codec);
    vo_buf_adds(out, ",\"pix_fmt\":");
    vo_json_strz(out, in->pix_fmt);
    vo_buf_printf(out, ",\"width\":%d,\"height\":%d,"
                "\"display_width\":%d,\"display_height\":%d,"
                "\"rotation\":%d,\"mirror\":%s,\"duration_ms\":%lld,"
                "\"frame_rate\":", in->width, in->height,
                in->display_width, in->display_height, in->rotation,
                in->mirror ? "true" : "false", (long long) in->duration_ms);

    if (in->fps_num > 0 && in->fps_den > 0) {
        vw_decimal(out, ((int64_t) in->fps_num * 1000 + in->fps_den / 2)
                        / in->fps_den);

    } else {
        vo_buf_adds(out, "null");
    }

    vo_buf_printf(out, ",\"stream_index\":%d,\"streams\":%d,\"bit_rate\":%lld,"
                "\"size\":%lld,\"duration_from\":\"%s\"}", in->stream_index,
                in->streams, (long long) in->bit_rate, (long long) in->size,
                in->duration_from == VW_DURATION_PACKETS ? "packets"
                                                         : "container");
}


/* The displayed picture's size (the inspection's), 0 when unknown. */
static int
vw_result_frame_size(const vw_result_t *r, int *w, int *h)
{
    if (r->inspection == NULL || r->inspection->display_width <= 0
        || r->inspection->display_height <= 0
        || r->inspection->display_width > VW_MAX_SIDE
        || r->inspection->display_height > VW_MAX_SIDE)
    {
        return 0;
    }

    *w = r->inspection->display_width;
    *h = r->inspection->display_height;

    return 1;
}


/* ,"parts":[{"text":...,"confidence":c,"box":[...],"lines":n},...] when
 * the row's text is in two places or more (vw_parts.h), else null */
static void
vw_parts_json(vo_buf_t *out, const vw_row_t *f)
{
    int        i, n;
    vw_part_t  parts[VW_PARTS_MAX];

    n = vw_parts_parse(f->parts, f->text, parts);

    if (n == 0) {
        vo_buf_adds(out, ",\"parts\":null");
        return;
    }

    vo_buf_adds(out, ",\"parts\":[");

    for (i = 0; i < n; i++) {
        vo_buf_adds(out, i > 0 ? ",{\"text\":" : "{\"text\":");
        vo_json_str(out, parts[i].text, parts[i].len);
        vo_buf_printf(out, ",\"confidence\":%d", parts[i].confidence);
        vw_box_json(out, &parts[i].box, parts[i].lines);
        vo_buf_addc(out, '}');
    }

    vo_buf_addc(out, ']');
}


/* ,"box":[x,y,w,h],"lines":n, or null for both when no box is known (a
 * box bounds one line at least: a row that says 0 lines has 1) */
static void
vw_box_json(vo_buf_t *out, const vw_rect_t *box, int lines)
{
    if (!vw_box_ok(box)) {
        vo_buf_adds(out, ",\"box\":null,\"lines\":null");
        return;
    }

    vo_buf_printf(out, ",\"box\":[%d,%d,%d,%d],\"lines\":%d", box->x,
                  box->y, box->w, box->h, lines > 0 ? lines : 1);
}


/* ,"unsure_lines":[n,...], the numbers of the lines (1 for the first)
 * whose bits are set; nothing when none is */
static void
vw_unsure_lines_json(vo_buf_t *out, unsigned lines)
{
    if (lines == 0) {
        return;
    }

    vo_buf_adds(out, ",\"unsure_lines\":[");
    vw_line_numbers(out, lines, ",");
    vo_buf_addc(out, ']');
}


/* the numbers (1 for the first) of the lines whose bits are set, sep
 * between them */
static void
vw_line_numbers(vo_buf_t *out, unsigned lines, const char *sep)
{
    int  k, first;

    first = 1;

    for (k = 0; k < VO_FRAME_UNSURE_LINES; k++) {
        if (lines & (1u << k)) {
            if (!first) {
                vo_buf_adds(out, sep);
            }

            vo_buf_printf(out, "%d", k + 1);
            first = 0;
        }
    }
}


/*
 * What makes unsure segment s so, in words for a WebVTT NOTE and an ASS
 * Comment: "unsure: read with confidence 61 (below 80)", and the lines
 * read below the bound unless that said it (a text of one line): "unsure:
 * read with confidence 82, line 1 below 80", "..., lines 1, 3 below 80".
 */
static void
vw_unsure_words(vo_buf_t *out, const vw_segment_t *s)
{
    unsigned  b;

    vo_buf_printf(out, "unsure: read with confidence %d", s->confidence);

    if (s->confidence < VW_UNSURE_BELOW) {
        vo_buf_printf(out, " (below %d)", VW_UNSURE_BELOW);
    }

    if (s->unsure_lines == 0
        || (strchr(s->text, '\n') == NULL
            && s->confidence < VW_UNSURE_BELOW))
    {
        return;                     /* one line: the confidence said it */
    }

    b = s->unsure_lines;
    vo_buf_adds(out, (b & (b - 1)) ? ", lines " : ", line ");
    vw_line_numbers(out, b, ", ");
    vo_buf_printf(out, " below %d", VW_UNSURE_BELOW);
}


/*
 * Where segment s goes (see the top of the file): the box clamped to the
 * frame, in pixels and in thousandths of a percent of the frame size.
 */
static void
vw_place(const vw_result_t *r, const vw_segment_t *s, vw_place_t *pl)
{
    int  w, h, x0, y0, x1, y1;

    memset(pl, 0, sizeof(vw_place_t));

    if (!vw_box_ok(&s->box) || !vw_result_frame_size(r, &w, &h)) {
        return;
    }

    x0 = s->box.x < w ? s->box.x : w;
    y0 = s->box.y < h ? s->box.y : h;
    x1 = s->box.x + s->box.w < w ? s->box.x + s->box.w : w;
    y1 = s->box.y + s->box.h < h ? s->box.y + s->box.h : h;

    pl->known = 1;
    pl->bottom = y0 + y1 > h;
    pl->mid_x = (x0 + x1) / 2;
    pl->edge_y = pl->bottom ? y1 : y0;
    pl->mid_pct = ((int64_t) (x0 + x1) * 50000 + w / 2) / w;
    pl->edge_pct = ((int64_t) pl->edge_y * 100000 + h / 2) / h;
    pl->width_pct = ((int64_t) (x1 - x0) * 100000 + w / 2) / w;
}


/*
 * Advanced SubStation Alpha (v4+): the script's resolution is the frame
 * size (libass's default, 384x288, when it is unknown), one style, and
 * an event per segment.
 */
static void
vw_result_ass(vo_buf_t *out, const vw_result_t *r, const vw_segment_t *segs,
    size_t nsegs)
{
    int         w, h;
    size_t      i;
    vw_place_t  pl;

    if (!vw_result_frame_size(r, &w, &h)) {
        w = 384;
        h = 288;
    }

    vo_buf_printf(out, "[Script Info]\n"
                  "; made by video-ocr from the text it read\n"
                  "ScriptType: v4.00+\n"
                  "WrapStyle: 0\n"
                  "ScaledBorderAndShadow: yes\n"
                  "PlayResX: %d\n"
                  "PlayResY: %d\n"
                  "\n"
                  "[V4+ Styles]\n"
                  "Format: Name, Fontname, Fontsize, PrimaryColour, "
                  "SecondaryColour, OutlineColour, BackColour, Bold, Italic, "
                  "Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, "
                  "BorderStyle, Outline, Shadow, Alignment, MarginL, "
                  "MarginR, MarginV, Encoding\n"
                  "Style: Default,Arial,%d,&H00FFFFFF,&H000000FF,&H00000000,"
                  "&H80000000,0,0,0,0,100,100,0,0,1,2,0,2,10,10,%d,1\n"
                  "\n"
                  "[Events]\n"
                  "Format: Layer, Start, End, Style, Name, MarginL, MarginR, "
                  "MarginV, Effect, Text\n",
                  w, h, h / 18 > 8 ? h / 18 : 8, h / 24);

    for (i = 0; i < nsegs; i++) {

        if (vw_segment_unsure(&segs[i])) {
            /* an event players do not show, editors do */
            vo_buf_adds(out, "Comment: 0,");
            vw_ass_time(out, segs[i].start_ms);
            vo_buf_addc(out, ',');
            vw_ass_time(out, segs[i].end_ms);
            vo_buf_adds(out, ",Default,,0,0,0,,");
            vw_unsure_words(out, &segs[i]);
            vo_buf_addc(out, '\n');
        }

        vo_buf_adds(out, "Dialogue: 0,");
        vw_ass_time(out, segs[i].start_ms);
        vo_buf_addc(out, ',');
        vw_ass_time(out, segs[i].end_ms);
        vo_buf_adds(out, ",Default,,0,0,0,,");
        vw_place(r, &segs[i], &pl);

        if (pl.known) {
            vo_buf_printf(out, "{\\an%d\\pos(%d,%d)}", pl.bottom ? 2 : 8,
                          pl.mid_x, pl.edge_y);
        }

        vw_text(out, segs[i].text, VW_TEXT_ASS);
        vo_buf_addc(out, '\n');
    }
}


/* H:MM:SS.cc, in centiseconds (rounded) */
static void
vw_ass_time(vo_buf_t *out, int64_t ms)
{
    int64_t  cs;

    cs = ms > 0 ? (ms + 5) / 10 : 0;

    vo_buf_printf(out, "%lld:%02lld:%02lld.%02lld", (long long) (cs / 360000),
                  (long long) (cs / 6000 % 60), (long long) (cs / 100 % 60),
                  (long long) (cs % 100));
}


/* milli / 1000 as a JSON number: "2", "2.5", "29.97", "0.04" */
static void
vw_decimal(vo_buf_t *out, int64_t milli)
{
    int64_t  frac;

    if (milli < 0) {
        vo_buf_addc(out, '-');
        milli = -milli;
    }

    frac = milli % 1000;

    if (frac == 0) {
        vo_buf_printf(out, "%lld", (long long) (milli / 1000));

    } else if (frac % 100 == 0) {
        vo_buf_printf(out, "%lld.%lld", (long long) (milli / 1000),
                    (long long) (frac / 100));

    } else if (frac % 10 == 0) {
        vo_buf_printf(out, "%lld.%02lld", (long long) (milli / 1000),
                    (long long) (frac / 10));

    } else {
        vo_buf_printf(out, "%lld.%03lld", (long long) (milli / 1000),
                    (long long) frac);
    }
}


/* HH:MM:SS.mmm (WebVTT) or HH:MM:SS,mmm (SubRip) */
static void
vw_timestamp(vo_buf_t *out, int64_t ms, char frac_sep)
{
    if (ms < 0) {
        ms = 0;
    }

    vo_buf_printf(out, "%02lld:%02lld:%02lld%c%03lld",
                (long long) (ms / 3600000), (long long) (ms / 60000 % 60),
                (long long) (ms / 1000 % 60), frac_sep,
                (long long) (ms % 1000));
}


static void
vw_text(vo_buf_t *out, const char *s, vw_text_mode_t mode)
{
    int                   pending_nl, any;
    size_t                n, len, i;
    uint32_t              cp;
    const unsigned char  *p;

    p = (const unsigned char *) s;
    len = strlen(s);
    pending_nl = 0;
    any = 0;

    for (i = 0; i < len; i += n) {
        n = vw_utf8_decode(p + i, len - i, &cp);

        if (cp == '\r') {
            continue;
        }

        if (cp == '\n') {
            pending_nl = any;       /* no leading or doubled newlines */
            continue;
        }

        if (pending_nl) {
            vo_buf_adds(out, mode == VW_TEXT_TXT ? " "
                             : (mode == VW_TEXT_ASS ? "\\N" : "\n"));
            pending_nl = 0;
        }

        any = 1;

        if (cp < 0x20 || cp == 0x7f) {
            vo_buf_addc(out, ' ');
            continue;
        }

        if (mode == VW_TEXT_VTT && (cp == '&' || cp == '<' || cp == '>')) {
            vo_buf_adds(out, cp == '&' ? "&amp;" : (cp == '<' ? "&lt;"
                                                              : "&gt;"));
            continue;
        }

        if (mode == VW_TEXT_ASS && (cp == '{' || cp == '}')) {
            vo_buf_adds(out, cp == '{' ? "\\{" : "\\}");
            continue;
        }

        if (mode == VW_TEXT_ASS && cp == '\\') {
            vo_buf_adds(out, "\\\xe2\x81\xa0");
            continue;
        }

        if (cp == 0xfffd) {
            vo_buf_adds(out, "\xef\xbf\xbd");
            continue;
        }

        vo_buf_add(out, p + i, n);
    }

    if (!any && mode != VW_TEXT_TXT && mode != VW_TEXT_ASS) {
        /* a cue needs a payload line; segments never have empty text */
        vo_buf_adds(out, "\xe2\x80\x8b");
    }
}
