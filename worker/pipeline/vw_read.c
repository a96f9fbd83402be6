/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * A screen read (see the top of vw_pipeline.c): the mean of its looks
 * (or of its frames, vw_between.c) read (vw_reading.c); the second
 * readings when the first says nothing (without the specks, from the
 * glyphs alone, turned); the layer's lines it lacks, read alone
 * (vw_read_line.c); what a reading must say to be published; its
 * parts (text in two places at once); and the join with the screen
 * before it (vw_join.c) decided before it is read.
 */

#include <stdlib.h>
#include <string.h>

#include "core/vw_utf8.h"
#include "result/vw_parts.h"
#include "vw_pipeline_int.h"


static int vw_read_first(vw_pipe_t *p, vw_ocr_result_t *res, vw_err_t *err);
static int vw_read_more(vw_pipe_t *p, vw_ocr_result_t *res, vw_err_t *err);
static int vw_read_verdict(vw_pipe_t *p, vw_ocr_result_t *res,
    int first_fits);
static int vw_read_settle(vw_pipe_t *p, vw_ocr_result_t *res, int joined,
    int turn_q, int unread, vw_err_t *err);
static int vw_read_again(vw_pipe_t *p, const vw_ocr_how_t *how,
    vw_ocr_result_t *res, vw_err_t *err);
static int vw_read_glyphs(vw_pipe_t *p, vw_ocr_result_t *res,
    vw_err_t *err);
static int vw_read_parts(vw_pipe_t *p, const vw_ocr_result_t *res,
    char **spec);
static int vw_read_apart(const vw_rect_t *a, const vw_rect_t *b, int w,
    int h);
static int vw_read_unread(const vw_pipe_t *p, const vw_ocr_result_t *res,
    int fit);
static int vw_read_line_lost(const vw_pipe_t *p, const vw_ocr_result_t *res);
static int vw_read_stray(const vw_pipe_t *p, const vw_ocr_result_t *res);


/*
 * Reads the pending screen from the mean of its looks and gives its
 * text to the rows that wait for it.  A screen whose mean shows the
 * text of the screen read before it (vw_join_same) joins that one: it
 * is read only if it has more looks (or to tell, when the group's mean
 * has glyphs beyond it), and the more confident reading is the text of
 * both.  So does a screen whose reading is that one's letter for letter,
 * or, both unsure, shares most of its letters (vw_join_read_same; the
 * reading with fewer letters is the text of both).
 */
int
vw_read_screen(vw_pipe_t *p, vw_err_t *err)
{
    int               unread, first_fits, turn_q, joined, known, rolled;
    int64_t           t0;
    vw_stats_t       *st;
    vw_ocr_result_t   res;

    st = &p->run->stats;
    t0 = vw_now_ms();

    vw_reading_forget(p);
    p->screen_passes = 0;

    if (vw_between_mean(p, 1) != 0) {
        return vw_fail(err, "no_memory", "run \"%s\": out of memory",
                       p->job->name);
    }

    joined = p->join_open ? vw_join_same(p, err) : 0;

    if (joined < 0) {
        return -1;
    }

    if (joined == VW_JOIN_SAME && p->mean_count <= p->join_looks) {
        /* read from fewer looks than the screen it joins: its text (no
         * reading of this screen's own for the next to roll from) */
        vw_roll_forget(p);
        return vw_join_take(p, err);
    }

    turn_q = p->turn_q;

    known = vw_memo_screen_known(p);
    rolled = 0;

    if (known) {
        /* its box, as good as the same pixels, read as nothing before
         * (vw_read_memo.c): nothing, at no cost */
        memset(&res, 0, sizeof(vw_ocr_result_t));
        res.text = strdup("");

        if (res.text == NULL) {
            return vw_fail(err, "no_memory", "run \"%s\": out of memory",
                           p->job->name);
        }

        st->readings_remembered++;
        first_fits = 0;

    } else if ((rolled = vw_roll_take(p, &res)) != 0) {
        /* the screen read last, rolled (vw_read_roll.c): its reading
         * moved, and the lines that came in since read alone */
        if (rolled < 0) {
            return vw_fail(err, "no_memory", "run \"%s\": out of memory",
                           p->job->name);
        }

        first_fits = vw_reading_fits(&res, p->ref_layer.glyphs);

        /*
         * Taken only as a screen of the group (its text letter for
         * letter, with what the lines that came in read as): a run
         * resumed within the group begins again at its first screen,
         * read whole, and rolls as this one did; one resumed after a
         * screen that is not would read that screen whole (vw_join.c,
         * invariant 2).  Else it is read whole here too.
         */

        if (p->turn_q == turn_q && vw_read_lines(p, &res, err) != 0) {
            goto failed;
        }

        if (vw_join_read_same(p, turn_q, &res) != VW_JOIN_SAME) {
            vw_ocr_result_free(&res);
            rolled = 0;

        } else {
            st->readings_rolled++;
        }
    }

    if (!known && !rolled) {
        if (vw_read_first(p, &res, err) != 0) {
            goto failed;
        }

        /* a later reading that fits reads the screen only if this one
         * did not fit (mirrored text: vw_read_unread) */
        first_fits = vw_reading_fits(&res, p->ref_layer.glyphs);

        if (vw_read_more(p, &res, err) != 0) {
            goto failed;
        }

        /* the layer's lines the reading lacks, read alone (not when
         * the pictures were turned since: the layer is of unturned
         * ones) */

        if (p->turn_q == turn_q && vw_read_lines(p, &res, err) != 0) {
            goto failed;
        }
    }

    unread = vw_read_verdict(p, &res, first_fits);

    if (unread) {
        vw_roll_forget(p);

    } else if (vw_roll_keep(p, &res) != 0) {
        vw_ocr_result_free(&res);
        return vw_fail(err, "no_memory", "run \"%s\": out of memory",
                       p->job->name);
    }

    if (turn_q == p->turn_q) {
        vw_read_lines_mark(p, &res);
    }

    if (!known && res.text[0] == '\0' && !res.timed_out && turn_q == p->turn_q
        && vw_memo_screen_fail(p) != 0)
    {
        vw_ocr_result_free(&res);
        return vw_fail(err, "no_memory", "run \"%s\": out of memory",
                       p->job->name);
    }

    if (!known && !rolled) {
        /* a remembered screen made no reading, a rolled one took one */
        st->ocr_calls++;
        st->looks_combined += (uint32_t) p->mean_count;
        st->frame_readings += p->mean_count > p->stack.count;
    }

    st->ocr_ms += vw_now_ms() - t0;

    return vw_read_settle(p, &res, joined, turn_q, unread, err);

failed:

    if (err->status == VW_STOPPED) {
        vw_stop(err, "run \"%s\": stopped during OCR of frame %u",
                p->job->name, p->ref_index);
    }

    return -1;
}


/*
 * The first reading of the pending screen: of the mean vw_between_mean
 * made; when that is of the frames between its looks and the reading
 * is unsure, of its looks, as a screen of many looks is read
 * (vw_between.c).
 */
static int
vw_read_first(vw_pipe_t *p, vw_ocr_result_t *res, vw_err_t *err)
{
    if (vw_reading_ocr(p, &p->mean, p->ref.width, p->ref.height, &vw_ocr_plain,
                    res, err)
        != 0)
    {
        return -1;
    }

    if (p->mean_count > p->stack.count && !res->timed_out
        && !vw_reading_says(res, p->ref_layer.glyphs))
    {
        vw_ocr_result_free(res);
        vw_reading_forget(p);
        p->screen_passes = 0;       /* another picture: its own count */

        if (vw_between_mean(p, 0) != 0) {
            return vw_fail(err, "no_memory", "run \"%s\": out of memory",
                           p->job->name);
        }

        if (vw_reading_ocr(p, &p->mean, p->ref.width, p->ref.height,
                        &vw_ocr_plain, res, err)
            != 0)
        {
            return -1;
        }
    }

    return 0;
}


/*
 * The second readings of a screen whose first says too little: without
 * the noise's specks, from its glyphs alone, turned.  *res becomes the
 * better one; on error it is freed.  A screen whose mean Tesseract
 * read VW_READ_PASSES times (p->screen_passes) and that still reads as
 * nothing is noise (the layer's "lines" in a busy picture, each look a
 * new screen): the first two are not made (readings_spared),
 * orientation detection still is (once per 10 s of video, vw_turn.c).
 * On the benchmark sets, those readings found no line of the truth
 * (one junk segment).
 */
static int
vw_read_more(vw_pipe_t *p, vw_ocr_result_t *res, vw_err_t *err)
{
    int           spent;
    vw_ocr_how_t  how;

    spent = p->screen_passes >= VW_READ_PASSES;

    if (spent && !res->timed_out
        && (vw_read_unread(p, res, 0)
            || res->nlines < p->ref_layer.lines - vw_memo_nmoved(p)))
    {
        p->run->stats.readings_spared++;
    }

    if (!spent && vw_read_unread(p, res, 0) && res->words > 0) {
        /*
         * Plenty of glyphs, nothing read, though Tesseract's layout
         * found words (when it found none, vw_reading_ocr read the region
         * as one block already): the noise left in the mean is what
         * hides the text.  Read again without the specks up to a
         * quarter of a glyph's height (full stops go too: this is for
         * a screen that read as nothing); res becomes the second
         * reading if it says something.
         */
        how.layout = VW_OCR_LAYOUT_AUTO;
        how.speck = p->ref_layer.glyph_h * p->scale / VW_OCR_NOISE_SPECK;

        if (vw_read_again(p, &how, res, err) != 0) {
            vw_ocr_result_free(res);
            return -1;
        }
    }

    if (!spent && !res->timed_out
        && res->nlines < p->ref_layer.lines - vw_memo_nmoved(p)
        && (res->confidence < VW_OCR_ACCEPT
            || VW_LACK_PART * vw_read_line_lacking(p, res)
               >= p->ref_layer.glyphs))
    {
        /*
         * Fewer lines read than the layer has (none, or lines Tesseract
         * was unsure of and dropped: a light bar of the background
         * against a caption's outline reads as part of its glyphs):
         * the glyphs alone, as the text layer found them in the
         * screen's first look, without the background or its noise.
         * Not when the reading is sure and the lines it lacks hold
         * less than a third of the glyphs, none between two it has:
         * those are mostly the picture's texture taken for lines,
         * which the glyphs' reading adds as junk lines ("AA", "\ es"),
         * and the lines read alone below still read a caption's line
         * it lacks.  On the real-like set, 5 % of the CPU; one word of
         * one line read worse ("Récord desyjsitantes", still found).
         */
        if (vw_read_glyphs(p, res, err) != 0) {
            vw_ocr_result_free(res);
            return -1;
        }
    }

    if (!p->osd_tried && vw_read_unread(p, res, 0)) {
        /* plenty of glyphs, nothing read for sure: is the text upside
         * down or sideways?  (res becomes the turned reading if it is;
         * a reading that fits its glyphs may be upside-down text read
         * as letters: "SPJOM UMOP apisdy" at 53) */
        if (vw_turn_read(p, res, err) != 0) {
            vw_ocr_result_free(res);
            return -1;
        }
    }

    return 0;
}


/*
 * Whether the reading leaves its screen unread (the rows get
 * VO_FRAME_UNREAD); a reading that is no text to publish is emptied.
 */
static int
vw_read_verdict(vw_pipe_t *p, vw_ocr_result_t *res, int first_fits)
{
    int  unread, stray;

    unread = vw_read_unread(p, res, !first_fits) || vw_read_line_lost(p, res);

    stray = vw_read_stray(p, res);
    unread |= stray;

    if (res->text != NULL && !res->timed_out
        && (stray || vw_reading_few(vw_reading_letters(res),
                                    vw_read_line_glyphs(p, res))))
    {
        /*
         * Fewer letters than a quarter of the glyphs (than two, for a
         * screen of a line or two), however read: what Tesseract makes
         * of noise or of filaments taken for lines ("8" from three
         * "lines" of a zooming fractal), not text to publish; nor a
         * stray reading (vw_read_stray).  The rows have no text; a
         * screen of VW_SURE_GLYPHS glyphs or more, a line that stayed
         * or a stray reading keeps its flag (unread: the
         * text_unreadable warning).
         */
        res->text[0] = '\0';
        res->confidence = 0;
        res->nlines = 0;
    }

    return unread;
}


/*
 * The reading becomes the screen's text, or the screen joins the group
 * before it with the group's reading when that is the surer one; the
 * rows waiting for it get it, and a reading that says something may be
 * joined by the next screen.  res is freed (or owned by the reference).
 */
static int
vw_read_settle(vw_pipe_t *p, vw_ocr_result_t *res, int joined, int turn_q,
    int unread, vw_err_t *err)
{
    int        rc, surer;
    char      *parts;
    unsigned   flags;

    if (joined == VW_JOIN_WITHIN) {
        /* its glyphs are within the group's: it joins if what the
         * group read lies within what it read */
        joined = vw_join_within(p, res);
    }

    if (!joined) {
        /* the means were told apart; the readings may still be one */
        joined = vw_join_read_same(p, turn_q, res);
    }

    surer = joined == VW_JOIN_UNSURE ? vw_join_tighter(p, res)
                                     : res->confidence > p->join_conf;

    if (joined && (unread || res->timed_out || res->text[0] == '\0'
                   || turn_q != p->turn_q || !surer))
    {
        /* the reading of the screen it joins is the surer one */
        vw_ocr_result_free(res);
        return vw_join_take(p, err);
    }

    /* text in two places at once (not in a reading turned since: its
     * lines' boxes are another picture's) */
    parts = NULL;

    if (turn_q == p->turn_q && vw_read_parts(p, res, &parts) != 0) {
        vw_ocr_result_free(res);
        return vw_fail(err, "no_memory", "run \"%s\": out of memory",
                       p->job->name);
    }

    p->pending = 0;
    vw_pipe_set_ref_text(p, res->text, parts, res->confidence,
                         vw_reading_unsure(res), p->ref_index);

    flags = (unread ? VO_FRAME_UNREAD : 0)
            | (res->timed_out ? VO_FRAME_TIMED_OUT : 0);

    rc = vw_rows_fill(p, flags, 0, err);

    /* a reading that says something, in the pictures as they are now,
     * may be joined by the next screen (or is the text of those it
     * joined) */

    if (rc == 0 && flags == 0 && p->ref_text[0] != '\0'
        && turn_q == p->turn_q)
    {
        rc = vw_join_keep(p, res, joined, err);

    } else {
        vw_join_close(p);
    }

    res->text = NULL;               /* the reference's now */
    vw_ocr_result_free(res);

    return rc;
}


/*
 * The pending screen's region read again as how says: *res, an
 * unreadable reading of it, is replaced when this one is readable.
 */
static int
vw_read_again(vw_pipe_t *p, const vw_ocr_how_t *how,
    vw_ocr_result_t *res, vw_err_t *err)
{
    vw_ocr_result_t  other;

    if (vw_reading_ocr(p, &p->mean, p->ref.width, p->ref.height, how, &other,
                    err)
        != 0)
    {
        return -1;
    }

    vw_reading_second(p, res, &other);

    return 0;
}


/*
 * The pending screen's region read from its first look's text layer:
 * the glyph pixels at the level of their kind of ink, the rest at the
 * other (bright glyphs on black, dark ones on white, as the picture
 * would be prepared).  When both readings say something (each weighed
 * against the glyphs of the lines it lies on, vw_read_line_glyphs: a
 * karaoke word's 6 letters against its line's 17 glyphs, not the 29 an
 * astronaut's badge and suit add), they are combined line by line
 * (vw_ocr_result_merge) if that gives more lines than *res has; else
 * *res is replaced when this reading is readable and has more lines,
 * or *res is not readable.
 */
static int
vw_read_glyphs(vw_pipe_t *p, vw_ocr_result_t *res, vw_err_t *err)
{
    int              x, y, ink, rc, said, says;
    uint8_t         *q;
    const uint8_t   *m;
    const vw_rect_t *r;
    vw_ocr_result_t  other, both;

    r = &p->region;

    if (vw_image_alloc(&p->inked, r->w, r->h) != 0) {
        return vw_fail(err, "no_memory", "run \"%s\": out of memory",
                       p->job->name);
    }

    ink = p->ref_layer.polarity == VW_TEXT_DARK ? 0 : 255;

    for (y = 0; y < r->h; y++) {
        m = p->ref_layer.mask.data + (size_t) (r->y + y)
                                     * p->ref_layer.mask.stride + r->x;
        q = p->inked.data + (size_t) y * p->inked.stride;

        for (x = 0; x < r->w; x++) {
            q[x] = (uint8_t) (m[x] != 255 ? ink : 255 - ink);
        }
    }

    if (vw_reading_ocr(p, &p->inked, p->ref.width, p->ref.height, &vw_ocr_plain,
                    &other, err)
        != 0)
    {
        return -1;
    }

    said = vw_reading_says(res, vw_read_line_glyphs(p, res));
    says = vw_reading_says(&other, vw_read_line_glyphs(p, &other));

    if (!said || !says || other.timed_out || res->timed_out) {
        vw_reading_take(res, &other,
                     says && (other.nlines > res->nlines || !said));
        return 0;
    }

    /* both say something: each line from the surer of the two, and the
     * lines only the glyphs' reading has (a caption's line that the
     * first dropped, unsure where the background is as light as its
     * glyphs) */

    rc = vw_ocr_result_merge(res, &other, 0, &both);

    if (rc < 0) {
        vw_ocr_result_free(&other);
        return vw_fail(err, "no_memory", "run \"%s\": out of memory",
                       p->job->name);
    }

    if (rc == 0) {
        vw_reading_take(res, &other, 0);
        return 0;
    }

    vw_ocr_result_free(&other);
    vw_ocr_result_free(res);
    *res = both;

    return 0;
}


/*
 * The parts of a screen's reading (vw_parts.h): its lines in runs, a
 * run ending where the next line is apart from the last (vw_read_apart),
 * each run's box the union of its lines' boxes, from the OCR picture's
 * pixels (the region, scaled) to the picture as shown.  *spec: NULL
 * when the reading is one part.  -1 when out of memory.
 */
static int
vw_read_parts(vw_pipe_t *p, const vw_ocr_result_t *res, char **spec)
{
    int          i, n, k, conf;
    char         buf[VW_PARTS_SPEC_MAX];
    vw_rect_t    box, *b;
    vw_part_t    parts[VW_PARTS_MAX];

    *spec = NULL;
    n = 0;

    for (i = 0; i < res->nlines; i++) {
        b = &res->lines[i].box;

        if (b->w <= 0 || b->h <= 0) {
            return 0;               /* a line without a box: one part */
        }

        if (i == 0 || (n < VW_PARTS_MAX
                       && vw_read_apart(&res->lines[i - 1].box, b,
                                        p->ref.width * p->scale,
                                        p->ref.height * p->scale)))
        {
            memset(&parts[n], 0, sizeof(vw_part_t));
            n++;
        }

        k = n - 1;
        vw_box_union(&parts[k].box, b);
        parts[k].lines++;
        parts[k].confidence += res->lines[i].confidence;   /* a sum, here */
    }

    if (n < 2) {
        return 0;
    }

    for (k = 0; k < n; k++) {
        conf = parts[k].confidence;
        parts[k].confidence = (conf + parts[k].lines / 2) / parts[k].lines;

        b = &parts[k].box;
        box.x = p->region.x + b->x / p->scale;
        box.y = p->region.y + b->y / p->scale;
        box.w = (b->w + p->scale - 1) / p->scale;
        box.h = (b->h + p->scale - 1) / p->scale;

        vw_orient_box_shown(p->turn, p->ref.width, p->ref.height,
                            p->framer.shrink, p->job->options, &box, b);
    }

    if (vw_parts_format(parts, n, buf, sizeof(buf)) < 0) {
        return 0;                   /* a box outside the picture */
    }

    *spec = strdup(buf);

    return *spec == NULL ? -1 : 0;
}


/*
 * Two lines of a reading are apart when the gap between them is more
 * than a third of the picture's height, one above the other, or of its
 * width, side by side (w, h: the OCR picture's scale of them): a title
 * at the top and a subtitle at the bottom, a name in a corner and a
 * line; not the lines of one caption, nor a slide's heading and its
 * points (a fifth of the height apart in the benchmark's slides).
 */
static int
vw_read_apart(const vw_rect_t *a, const vw_rect_t *b, int w, int h)
{
    int  vgap, hgap;

    vgap = b->y > a->y ? b->y - (a->y + a->h) : a->y - (b->y + b->h);
    hgap = b->x > a->x ? b->x - (a->x + a->w) : a->x - (b->x + b->w);

    return VW_APART * vgap > h || (vgap < 0 && VW_APART * hgap > w);
}


/*
 * The pending screen's reading res leaves it unread: plenty of glyphs,
 * a reading that says nothing, and no deadline that cut it short.
 * Such a screen gets a second reading and orientation detection (fit
 * 0); once they are done, with fit, a reading that fits its glyphs
 * reads it (whether its rows get VO_FRAME_UNREAD).  vw_read_screen
 * allows that only when the first reading did not fit: text mirrored
 * reads as about as many letters at once ("ebiow spsmi 1ONIM" at 60
 * for "Mirror image words", t/pool/100-run-e2e.t), a line in noise
 * as nothing.
 */
static int
vw_read_unread(const vw_pipe_t *p, const vw_ocr_result_t *res, int fit)
{
    return !vw_reading_says(res, p->ref_layer.glyphs)
           && !(fit && vw_reading_fits(res, p->ref_layer.glyphs))
           && p->ref_layer.glyphs >= VW_SURE_GLYPHS && !res->timed_out;
}


/*
 * A line, of however few glyphs, that stayed for VW_STAYED_LOOKS looks,
 * is VW_STAYED_WIDTH glyph heights wide or more, and read as (almost)
 * nothing: small outlined text glues each word's letters into one glyph
 * ("The school burned down in May.", light yellow at 18 px over a
 * fractal, is 7 glyphs in a box 267 pixels wide for 16-pixel glyphs,
 * and reads as nothing at 44); a screen that long is not noise, which
 * changes from look to look, and one that wide is not a few specks of
 * a still pattern (4 "glyphs" in "2 lines" of 23 x 20 pixels, for 7
 * looks, on the hard set's busy test pattern).  It is flagged
 * (VO_FRAME_UNREAD), not read again: the second readings and
 * orientation detection stay for screens of many glyphs
 * (vw_read_unread).
 */
static int
vw_read_line_lost(const vw_pipe_t *p, const vw_ocr_result_t *res)
{
    return p->ref_layer.lines > 0 && p->stack.count >= VW_STAYED_LOOKS
           && p->ref_layer.box.w >= VW_STAYED_WIDTH * p->ref_layer.glyph_h
           && !res->timed_out
           && vw_reading_few(vw_reading_letters(res), p->ref_layer.glyphs);
}


/*
 * A stray reading: unsure (not vw_reading_says, its letters weighed
 * against the glyphs of the lines it lies on, as vw_read_verdict weighs
 * them: "road", one karaoke word read alone at 97 beside an astronaut's
 * badge and patches that made 7 "lines" of 43 glyphs, is not few for
 * its line's 8) and of one picture alone (a screen of one look, not
 * read from the frames between), with fewer than half the lines its
 * layer found.  Such a layer is mostly a
 * busy background taken for lines, and the line read a piece of the
 * caption among them that the screens around it read whole: 7 "lines"
 * of 30 "glyphs" over 926 x 503 pixels of a zooming fractal read as
 * "' The schvel burned dewe in May" at 55, between looks that find
 * nothing but the fractal and the screen that reads "school burned
 * down in May." at 91 (the hard set's hard-small-720p-h264 at 1.72 s;
 * over every benchmark set, the only reading this drops).
 */
static int
vw_read_stray(const vw_pipe_t *p, const vw_ocr_result_t *res)
{
    return res->text != NULL && res->text[0] != '\0' && !res->timed_out
           && p->mean_count == 1
           && 2 * res->nlines < p->ref_layer.lines
           && !vw_reading_says(res, vw_read_line_glyphs(p, res));
}
