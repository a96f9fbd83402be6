/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * A look's picture: the frame shown at a look decoded and made grey
 * (as shown, cropped, turned as orientation detection found the text),
 * its text layer cleaned of the lines the frames beside it do not show,
 * the test the looks, the boundaries, the frames between looks and
 * the joins all use: whether a picture shows the same text as another,
 * where it is or where it slid; and whether a look grew out of the held
 * one before it (or the held look was a screen of its own).
 */

#include <stdlib.h>
#include <string.h>

#include "vw_pipeline_int.h"


static int vw_look_still(vw_pipe_t *p, vw_err_t *err);
static int vw_look_oldest(vw_pipe_t *p, const vw_kept_t *run,
    vw_err_t *err);
static int vw_look_new_line(const vw_text_t *ta, const vw_text_t *tb);
static int vw_look_line_went(const vw_text_t *tb, const vw_text_line_t *l,
    const vw_text_t *tc);
static int vw_look_tallest(const vw_text_t *t);
static int vw_look_line_near(const vw_text_t *tb, const vw_text_line_t *l,
    const vw_text_t *t, const vw_text_t *t2, int dx, int dy, int *n);
static int vw_look_moved(const vw_image_t *a, const vw_image_t *b,
    const vw_rect_t *box, int reach);
static int vw_look_ink_near(const vw_text_t *t, int x, int y);


/*
 * Decodes look j into p->grey (its text layer: vw_look_find).
 * Returns 0, or 1 when there is no picture (the video ended, the crop
 * misses this frame).
 */
int
vw_look_decode(vw_pipe_t *p, uint32_t j, int64_t *pts_ms, vw_err_t *err)
{
    int               rc;
    int64_t           pts_us;
    AVFrame          *frame;
    const vw_plan_t  *plan;

    plan = &p->run->plan;

    if (j % plan->looks == 0) {
        rc = vw_media_frame_at(p->media, vw_plan_time_us(plan, j), &frame,
                               &pts_us, err);

    } else {
        /* frames nothing depends on are skipped up to the next look */
        rc = vw_media_frame_near(p->media, vw_plan_time_us(plan, j),
                                 vw_plan_time_us(plan, j + 1),
                                 (j + 1) % plan->looks == 0, &frame,
                                 &pts_us, err);
    }
    if (rc != 0) {
        return rc;
    }

    if (vw_look_grey(p, frame, &p->grey, err) != 0) {
        return -1;
    }

    p->look_us = pts_us;
    *pts_ms = pts_us / 1000;

    if (p->grey.width == 0) {
        return 1;
    }

    return 0;
}


/* A decoded frame in grey: as a player shows it (the frame's own matrix
 * first), then as orientation detection found the text. */
int
vw_look_grey(vw_pipe_t *p, const AVFrame *frame, vw_image_t *out,
    vw_err_t *err)
{
    vw_orient_t  shown;

    shown = vw_media_shown(p->media, frame);

    return vw_frame_grey(&p->framer, frame, p->job->options, &shown,
                         &p->turn, out, err);
}


/*
 * Takes from the look's text layer (p->layer, of p->grey) the lines
 * that are in neither the frame shown just before it nor the one just
 * after: strong temporal noise makes chains of specks that one picture
 * takes for lines, a different chain in every frame, while text is on
 * screen for more than a frame (vw_text_persist).  Those frames are at
 * hand when every frame is decoded (refine), and are the same whatever
 * frame decoding began at (a resumed job cleans as an unbroken run
 * does); without refine, and for a layer with no glyph or of dark ink,
 * the layer stays as it is.  1 if it changed, 0 if not, -1 on error.
 */
int
vw_look_clean(vw_pipe_t *p, vw_err_t *err)
{
    int               n, whole;
    const AVFrame    *beside[2];
    const vw_kept_t  *run;

    if (p->layer.box.w == 0 || !p->job->options->refine || p->media == NULL)
    {
        return 0;
    }

    if (p->layer.local) {
        return vw_look_still(p, err);
    }

    if (p->layer.polarity != VW_TEXT_BRIGHT) {
        return 0;
    }

    n = vw_media_kept(p->media, -1, p->look_us, &run, &whole);
    beside[0] = n > 0 ? run[n - 1].frame : NULL;
    beside[1] = vw_media_frame_after(p->media, p->look_us);

    if (vw_text_persist_begin(&p->layer, &p->persist, err) != 0) {
        return -1;
    }

    p->beside_decoded = -1;

    for (n = 0; n < 2; n++) {
        if (beside[n] != NULL
            && (vw_look_grey(p, beside[n], &p->beside, err) != 0
                || vw_text_persist_add(&p->framer, &p->layer, &p->beside,
                                       &p->persist, err)
                   != 0))
        {
            return -1;
        }
    }

    return vw_text_persist_end(&p->framer, &p->grey, &p->layer, &p->persist,
                               err);
}


/*
 * A layer of ink by local contrast keeps the glyphs that stand still
 * since the oldest frame kept before the look (up to two looks' steps
 * back), as captions do and the texture behind them does not
 * (vw_text_still); at the first look, since the frame after it.
 */
static int
vw_look_still(vw_pipe_t *p, vw_err_t *err)
{
    int               n, whole;
    const AVFrame    *other;
    const vw_kept_t  *run;

    n = vw_media_kept(p->media, -1, p->look_us, &run, &whole);

    if (n > 0) {
        if (vw_look_oldest(p, run, err) != 0) {
            return -1;
        }

    } else {
        other = vw_media_frame_after(p->media, p->look_us);

        if (other == NULL) {
            return 0;
        }

        p->beside_decoded = -1;

        if (vw_look_grey(p, other, &p->beside, err) != 0) {
            return -1;
        }
    }

    n = vw_text_still(&p->framer, &p->grey, &p->beside, &p->layer);

    return n < 0 ? vw_fail(err, "no_memory", "frame: out of memory") : n;
}


/*
 * The text layer of look p->grey into p->layer; one with no line, or a
 * few glyphs only, is looked for again in what stands still both since
 * the oldest frame kept before the look (as for vw_text_still) and in
 * the frame after it while the picture moves (vw_text_calm: light text
 * with no outline over texture; of a moving noise, a pixel that stays
 * by chance in one frame seldom stays in two).  Those frames are at
 * hand with refine, as for vw_look_clean; a look with one of them only
 * (the first, the last) is left as it is.
 */
int
vw_look_find(vw_pipe_t *p, vw_err_t *err)
{
    int               n, whole;
    const AVFrame    *before, *after;
    const vw_kept_t  *run;
    vw_stage_t        stage;

    if (vw_text_find(&p->framer, &p->grey, &p->layer, err) != 0) {
        return -1;
    }

    if (!vw_text_calm_wanted(&p->layer) || !p->job->options->refine
        || p->media == NULL)
    {
        return 0;
    }

    n = vw_media_kept(p->media, -1, p->look_us, &run, &whole);
    before = n > 0 ? run[0].frame : NULL;
    after = vw_media_frame_after(p->media, p->look_us);

    if (before == NULL || after == NULL) {
        return 0;
    }

    /*
     * the frame after in the plane of the mask of cand_layer, which
     * vw_text_calm leaves holding what moved: both are work space (a
     * candidate's layer is found afresh each time it is used,
     * vw_boundary_began, vw_between), never needed at once, and one
     * plane fewer is held (2 MB at 4K)
     */

    if (vw_look_oldest(p, run, err) != 0
        || vw_look_grey(p, after, &p->cand_layer.mask, err) != 0)
    {
        return -1;
    }

    stage = vw_stage_enter(VW_STAGE_TEXT_LAYER);
    n = vw_text_calm(&p->framer, &p->grey, &p->beside, &p->cand_layer.mask,
                     &p->layer);
    (void) vw_stage_enter(stage);

    return n < 0 ? vw_fail(err, "no_memory", "frame: out of memory") : 0;
}


/*
 * The oldest frame kept before the look (run[0]) in grey into
 * p->beside, unless it is there already: a layer sought in what stands
 * still (vw_look_find) is then cleaned against the same frame
 * (vw_look_still), with no frame decoded in between.
 */
static int
vw_look_oldest(vw_pipe_t *p, const vw_kept_t *run, vw_err_t *err)
{
    int64_t  decoded;

    decoded = (int64_t) vw_media_stats(p->media)->frames_decoded;

    if (p->beside_decoded == decoded && p->beside_us == run[0].pts_us
        && memcmp(&p->beside_turn, &p->turn, sizeof(vw_orient_t)) == 0)
    {
        return 0;
    }

    p->beside_decoded = -1;

    if (vw_look_grey(p, run[0].frame, &p->beside, err) != 0) {
        return -1;
    }

    p->beside_decoded = decoded;
    p->beside_us = run[0].pts_us;
    p->beside_turn = p->turn;

    return 0;
}


/* Picture b shows the same text as a, where it is or where it slid. */
int
vw_look_same(vw_pipe_t *p, const vw_image_t *a, const vw_text_t *ta,
    const vw_image_t *b, const vw_text_t *tb, int *dx)
{
    int  d;

    *dx = 0;

    if (vw_text_same(a, ta, b, tb, 0, NULL)) {
        return 1;
    }

    if (ta->box.w == 0 || tb->box.w == 0) {
        return 0;
    }

    d = vw_text_shift(ta, tb, vw_text_slide_max(b->width), &p->framer);

    if (d != 0 && vw_text_same(a, ta, b, tb, d, NULL)) {
        *dx = d;
        return 1;
    }

    return 0;
}


/*
 * The same, for two looks' cleaned layers (vw_screen.c), and neither has
 * a line on rows where the other has none, nor did a's text fade out of
 * b (b has no line, and a's glyphs stand out from the picture there by
 * less than half as much: vw_text_faded).  Not for the frames between
 * looks, the boundaries' or the means' layers, which are not cleaned as
 * the looks' are (vw_look_clean): strong temporal noise makes lines on
 * other rows in most of them (a ticker over movingnoise lost frames
 * from its mean and read "3 / .  Trains delayed in north / 5 x -",
 * t/ocr/010).
 */
int
vw_look_same_lines(vw_pipe_t *p, const vw_image_t *a, const vw_text_t *ta,
    const vw_image_t *b, const vw_text_t *tb, int *dx)
{
    return vw_look_same(p, a, ta, b, tb, dx)
           && !vw_look_new_line(ta, tb) && !vw_look_new_line(tb, ta)
           && !(tb->box.w == 0 && vw_text_faded(a, ta, b));
}


/*
 * 1 if layer tb has a line of VW_NEW_LINE_GLYPHS glyphs or more on rows
 * where ta has no line at all.  Blocks compare the whole area of both
 * layers, and a short line of a few glyphs (three Chinese characters
 * under a busy picture's "lines") is too few blocks to outweigh the
 * rest: a line of text that appears (or goes, called the other way
 * round) above or below text that stays is a change all the same.  Not
 * beside a line on its rows: a ticker's next word, and words that noise
 * splits off a line, are the blocks' to judge.  Only when ta's lines are
 * all recorded (fewer than VW_TEXT_LINES_MAX).
 */
static int
vw_look_new_line(const vw_text_t *ta, const vw_text_t *tb)
{
    int  j;

    if (ta->box.w == 0 || ta->nline >= VW_TEXT_LINES_MAX) {
        return 0;
    }

    for (j = 0; j < tb->nline; j++) {
        if (tb->line[j].glyphs >= VW_NEW_LINE_GLYPHS
            && !vw_text_on_rows(ta, &tb->line[j].box))
        {
            return 1;
        }
    }

    return 0;
}


/*
 * 1 if what look b (picture gb, layer tb) brought, its lines that the
 * reference (tr) has not at the same place, is still there in the look
 * after it (gc, tc): c grew out of b (the first frames of new text
 * blurred by the encoder, a fade or a wipe under way), or b's lines
 * moved on with the picture (texture that drifts) or on their own
 * (credits that roll, a marquee), and c may stand in for b
 * (vw_screen_state).  0 when a line or two of b are none of these: b
 * was a screen of its own, shown for one look (a word of a karaoke
 * line, a caption replaced in place within a quarter second), and it
 * is kept; more such lines are noise.
 * A line of less ink than half a glyph's box grew, and so did one of
 * glyphs less than half the height of b's tallest line (specks that
 * strong noise chains beside text) and one whose ink is the
 * reference's and c's (a cut's frame that shows both).
 */
int
vw_look_grew(const vw_text_t *tr, const vw_image_t *gb, const vw_text_t *tb,
    const vw_image_t *gc, const vw_text_t *tc)
{
    int                    k, n, reach, moved, tall, own;
    const vw_text_line_t  *l;

    if (tb->mask.width != tc->mask.width
        || tb->mask.height != tc->mask.height
        || gb->width != gc->width || gb->height != gc->height
        || (tr->box.w != 0
            && (tr->mask.width != tb->mask.width
                || tr->mask.height != tb->mask.height)))
    {
        return 1;
    }

    tall = vw_look_tallest(tb);

    own = 0;

    for (k = 0; k < tb->nline; k++) {
        l = &tb->line[k];

        /* not a line of specks beside a line twice its height (noise) */

        if (2 * l->glyph_h < tall
            || (tr->box.w != 0
                && vw_look_line_near(tb, l, tr, NULL, 0, 0, &n)
                   >= VW_GREW_PERCENT)
            || vw_look_line_near(tb, l, tc, NULL, 0, 0, &n)
               >= VW_GREW_PERCENT
            || n < l->glyph_h * l->glyph_h / 2
            || (tr->box.w != 0
                && vw_look_line_near(tb, l, tr, tc, 0, 0, &n)
                   >= VW_GREW_BLEND))
        {
            continue;
        }

        reach = 2 * l->glyph_h < VW_GREW_REACH ? 2 * l->glyph_h
                                               : VW_GREW_REACH;

        /* it moved with the picture, or went on as a line of its own */
        moved = vw_look_moved(gb, gc, &l->box, reach)
                || vw_look_line_went(tb, l, tc);

        own += !moved;
    }

    /* more than a caption's lines of their own: chains of specks that
     * strong noise makes all over a look */
    return own == 0 || own > VW_GREW_OWN_LINES;
}


/*
 * 1 if VW_GREW_PERCENT % of the ink of line l of layer tb is where a
 * line of layer tc of about its size is (within 1/VW_GREW_SIZE of its
 * width and height), their left or right ends or middles together,
 * give or take a pixel: the line went on (credits that roll, a marquee;
 * a glyph at an end may be lost).
 */
static int
vw_look_line_went(const vw_text_t *tb, const vw_text_line_t *l,
    const vw_text_t *tc)
{
    int                    a, i, ax, dx, dy, n;
    const vw_text_line_t  *m;

    for (i = 0; i < tc->nline; i++) {
        m = &tc->line[i];

        if (abs(m->box.w - l->box.w) * VW_GREW_SIZE > l->box.w
            || abs(m->box.h - l->box.h) * VW_GREW_SIZE > l->box.h)
        {
            continue;
        }

        for (a = 0; a < 3; a++) {
            ax = a == 0 ? m->box.x - l->box.x
                 : a == 1 ? m->box.x + m->box.w - l->box.x - l->box.w
                 : m->box.x + m->box.w / 2 - l->box.x - l->box.w / 2;

            for (dy = -1; dy <= 1; dy++) {
                for (dx = -1; dx <= 1; dx++) {
                    if (vw_look_line_near(tb, l, tc, NULL, ax + dx,
                                          m->box.y - l->box.y + dy, &n)
                        >= VW_GREW_PERCENT)
                    {
                        return 1;
                    }
                }
            }
        }
    }

    return 0;
}


/* The glyph height of the tallest line of layer t (0: none). */
static int
vw_look_tallest(const vw_text_t *t)
{
    int  k, h;

    h = 0;

    for (k = 0; t->box.w != 0 && k < t->nline; k++) {
        h = t->line[k].glyph_h > h ? t->line[k].glyph_h : h;
    }

    return h;
}


/*
 * The percentage of the ink of line l of layer tb that has ink of layer
 * t (or of t2, when not NULL) within VW_GREW_NEAR pixels, moved by
 * (dx, dy); *n: how much ink l has.
 */
static int
vw_look_line_near(const vw_text_t *tb, const vw_text_line_t *l,
    const vw_text_t *t, const vw_text_t *t2, int dx, int dy, int *n)
{
    int              x, y, ink, kept;
    const uint8_t   *row;

    ink = 0;
    kept = 0;

    for (y = l->box.y; y < l->box.y + l->box.h; y++) {
        row = tb->mask.data + (size_t) y * tb->mask.stride;

        for (x = l->box.x; x < l->box.x + l->box.w; x++) {
            if (row[x] == 0) {
                ink++;
                kept += vw_look_ink_near(t, x + dx, y + dy)
                        || (t2 != NULL
                            && vw_look_ink_near(t2, x + dx, y + dy));
            }
        }
    }

    *n = ink;

    return ink > 0 ? (int) ((int64_t) kept * 100 / ink) : 0;
}


/*
 * 1 if the picture a shows over box is in picture b moved by at most
 * reach pixels either way, within VW_GREW_LEVELS grey levels on average
 * over VW_GREW_SAMPLES points of a grid over the box: what was there
 * moved on with the picture (texture that drifts).  Text replaced by
 * other text, or gone, matches nowhere.
 */
static int
vw_look_moved(const vw_image_t *a, const vw_image_t *b, const vw_rect_t *box,
    int reach)
{
    int       i, k, nx, ny, n, dx, dy, x, y, sum, most;
    int       px[VW_GREW_SAMPLES], py[VW_GREW_SAMPLES];
    uint8_t   va[VW_GREW_SAMPLES];

    if (box->w <= 0 || box->h <= 0) {
        return 1;
    }

    /* a grid of about VW_GREW_SAMPLES points, as dense across as down */

    nx = 1;

    while ((nx + 1) * (nx + 1) * box->h / box->w <= VW_GREW_SAMPLES
           && nx < box->w && nx < VW_GREW_SAMPLES)
    {
        nx++;
    }

    ny = VW_GREW_SAMPLES / nx;
    ny = ny < box->h ? ny : box->h;
    ny = ny > 0 ? ny : 1;

    n = 0;

    for (k = 0; k < ny; k++) {
        for (i = 0; i < nx && n < VW_GREW_SAMPLES; i++) {
            px[n] = box->x + (2 * i + 1) * box->w / (2 * nx);
            py[n] = box->y + (2 * k + 1) * box->h / (2 * ny);
            va[n] = a->data[(size_t) py[n] * a->stride + px[n]];
            n++;
        }
    }

    most = n * VW_GREW_LEVELS;

    for (dy = -reach; dy <= reach; dy++) {
        for (dx = -reach; dx <= reach; dx++) {
            sum = 0;

            for (i = 0; i < n && sum <= most; i++) {
                x = px[i] + dx;
                y = py[i] + dy;

                if (x < 0 || y < 0 || x >= b->width || y >= b->height) {
                    sum = most + 1;
                    break;
                }

                sum += abs((int) va[i]
                           - (int) b->data[(size_t) y * b->stride + x]);
            }

            if (sum <= most) {
                return 1;
            }
        }
    }

    return 0;
}


/* 1 if layer t has ink within VW_GREW_NEAR pixels of (x, y). */
static int
vw_look_ink_near(const vw_text_t *t, int x, int y)
{
    int              i, j, x0, x1, y0, y1;
    const uint8_t   *row;

    x0 = x - VW_GREW_NEAR > 0 ? x - VW_GREW_NEAR : 0;
    y0 = y - VW_GREW_NEAR > 0 ? y - VW_GREW_NEAR : 0;
    x1 = x + VW_GREW_NEAR < t->mask.width - 1
         ? x + VW_GREW_NEAR : t->mask.width - 1;
    y1 = y + VW_GREW_NEAR < t->mask.height - 1
         ? y + VW_GREW_NEAR : t->mask.height - 1;

    for (j = y0; j <= y1; j++) {
        row = t->mask.data + (size_t) j * t->mask.stride;

        for (i = x0; i <= x1; i++) {
            if (row[i] == 0) {
                return 1;
            }
        }
    }

    return 0;
}
