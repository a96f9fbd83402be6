/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * One reading of a picture of a screen (its text region, of the mean of
 * its looks or a part of it): prepared for its kind of ink and given to
 * Tesseract, read again in grey or as one block when that may say more;
 * and what a reading says: enough letters for the screen's glyphs at a
 * confidence that means it (vw_reading_says), or about as many as its
 * glyphs (vw_reading_fits).
 */

#include <string.h>

#include "core/vw_utf8.h"
#include "ocr/vw_script.h"
#include "vw_pipeline_int.h"


static int vw_reading_grey(vw_pipe_t *p, const vw_image_t *img, int ref_w,
    int ref_h, const vw_ocr_how_t *how, int block, int timeout,
    vw_ocr_result_t *res, vw_err_t *err);
static int vw_reading_left(int timeout, int64_t start);
static int vw_reading_pass(vw_pipe_t *p, const vw_ocr_how_t *how,
    int block, int timeout, int64_t start, vw_ocr_result_t *res,
    vw_err_t *err);


/*
 * OCR of img, a screen's text region (p->region of a p->ref-sized
 * picture), read as how says (vw_ocr.h), prepared for the kind of ink
 * found: bright ink binarised, dark ink in grey.  When the binarised
 * reading is unsure (confidence below VW_OCR_ACCEPT, or nothing read),
 * the grey region is read too and the more confident reading wins
 * (coloured text).  Each picture of a first reading may be read twice
 * (vw_reading_pass); a second reading's (without the specks, from the
 * glyphs alone: how->speck, p->inked) is read once.  The deadline
 * covers all of it.
 */
int
vw_reading_ocr(vw_pipe_t *p, const vw_image_t *img, int ref_w, int ref_h,
    const vw_ocr_how_t *how, vw_ocr_result_t *res, vw_err_t *err)
{
    int              chosen, timeout, mode, block;
    int64_t          start;
    vw_ocr_result_t  other;

    start = vw_now_ms();
    block = how->speck == 0 && img != &p->inked;
    timeout = p->limits.frame_timeout_ms;

    mode = p->ref_layer.polarity == VW_TEXT_DARK ? VW_PREP_GREY
                                                  : VW_PREP_BRIGHT;

    if (vw_prep_for_ocr_part(&p->framer, img, ref_w, ref_h,
                              1, p->scale, mode, &p->ocr, &chosen, err) != 0)
    {
        return -1;
    }

    if (vw_reading_pass(p, how, block, timeout, start, res, err) != 0) {
        return -1;
    }

    if (chosen != VW_PREP_BRIGHT || res->confidence >= VW_OCR_ACCEPT
        || res->timed_out)
    {
        return 0;
    }

    timeout = vw_reading_left(timeout, start);

    if (timeout < 0) {
        res->timed_out = 1;
        return 0;
    }

    if (vw_reading_grey(p, img, ref_w, ref_h, how, block, timeout, &other,
                        err)
        != 0)
    {
        vw_ocr_result_free(res);
        return -1;
    }

    if (other.confidence > res->confidence && other.text[0] != '\0') {
        other.ms += res->ms;
        vw_ocr_result_free(res);
        *res = other;

    } else {
        res->ms += other.ms;
        res->timed_out |= other.timed_out && res->text[0] == '\0';
        vw_ocr_result_free(&other);
    }

    return 0;
}


/*
 * The grey reading of img's region, as vw_reading_ocr makes it.  The
 * screen's mean is read so by its first reading and again by the one
 * without the specks, which erases none from a grey picture: that
 * second time, the first's reading is taken (a copy: Tesseract reads
 * one picture one way).  p->grey_read holds it until the mean changes
 * (vw_reading_forget).  Not with lang "auto", whose readings count
 * toward the job's scripts (vw_ocr_auto.c).
 */
static int
vw_reading_grey(vw_pipe_t *p, const vw_image_t *img, int ref_w, int ref_h,
    const vw_ocr_how_t *how, int block, int timeout, vw_ocr_result_t *res,
    vw_err_t *err)
{
    int  chosen, kept;

    kept = img == &p->mean && how->layout == VW_OCR_LAYOUT_AUTO
           && strcmp(p->job->options->lang, "auto") != 0;

    if (kept && p->grey_read_ok) {
        if (vw_ocr_result_copy(res, &p->grey_read) != 0) {
            return vw_fail(err, "no_memory", "run \"%s\": out of memory",
                           p->job->name);
        }

        res->ms = 0;
        p->run->stats.readings_reused++;

        return 0;
    }

    if (vw_prep_for_ocr_part(&p->framer, img, ref_w, ref_h, 1, p->scale,
                              VW_PREP_GREY, &p->ocr, &chosen, err) != 0
        || vw_reading_pass(p, how, block, timeout, vw_now_ms(), res, err)
           != 0)
    {
        return -1;
    }

    if (!kept || !block || res->timed_out) {
        return 0;
    }

    vw_reading_forget(p);

    if (vw_ocr_result_copy(&p->grey_read, res) != 0) {
        vw_ocr_result_free(res);
        return vw_fail(err, "no_memory", "run \"%s\": out of memory",
                       p->job->name);
    }

    p->grey_read_ok = 1;

    return 0;
}


/* The grey reading kept is let go: the mean changed. */
void
vw_reading_forget(vw_pipe_t *p)
{
    if (p->grey_read_ok) {
        vw_ocr_result_free(&p->grey_read);
        p->grey_read_ok = 0;
    }
}


/* What is left of timeout ms from start: 0 for none (no deadline), -1
 * when it has passed. */
static int
vw_reading_left(int timeout, int64_t start)
{
    if (timeout <= 0) {
        return 0;
    }

    timeout -= (int) (vw_now_ms() - start);

    return timeout > 0 ? timeout : -1;
}


/*
 * One reading of p->ocr (the picture vw_reading_ocr prepared) as how says,
 * timeout ms from start.  When Tesseract's page layout found no word at
 * all in a screen of plenty of glyphs in one line (it says "Empty page"
 * for a clean line of Hangul that reads right as one block), the
 * picture is read again as one block (if block), and that reading is
 * kept if it says something.  Not for a screen of more lines: on the
 * real-like set, their block readings were texture read as junk ("vb
 * \", ". I \ \") but for one karaoke word, at 5 % of the set's CPU,
 * and the lines read alone (vw_read_line.c) read right a short line
 * that one block split ("不|< 可和外" for "不可能").  Not when the
 * layout found words, if only noise: one block reads a page of junk in
 * grain, at several times the cost.  Nor for a
 * second reading (block 0): the first reading of the screen had its
 * own; on the benchmark sets, a second's found no line of the truth,
 * at a seventh of the Tesseract time of the real-like set's tune half.
 */
static int
vw_reading_pass(vw_pipe_t *p, const vw_ocr_how_t *how, int block,
    int timeout, int64_t start, vw_ocr_result_t *res, vw_err_t *err)
{
    vw_ocr_how_t     one;
    vw_ocr_result_t  other;

    if (vw_ocr_image(p->engine, &p->ocr, how, timeout, vw_pipe_poll, p,
                     res, err)
        != 0)
    {
        return -1;
    }

    p->run->stats.ocr_passes++;
    p->screen_passes++;

    if (res->words > 0 || res->timed_out || how->layout != VW_OCR_LAYOUT_AUTO
        || p->ref_layer.glyphs < VW_SURE_GLYPHS || p->ref_layer.lines != 1
        || !block)
    {
        return 0;
    }

    timeout = vw_reading_left(timeout, start);

    if (timeout < 0) {
        res->timed_out = 1;
        return 0;
    }

    one = *how;
    one.layout = VW_OCR_LAYOUT_BLOCK;

    if (vw_ocr_image(p->engine, &p->ocr, &one, timeout, vw_pipe_poll, p,
                     &other, err)
        != 0)
    {
        vw_ocr_result_free(res);
        return -1;
    }

    p->run->stats.ocr_passes++;
    p->screen_passes++;

    vw_reading_second(p, res, &other);

    return 0;
}


/*
 * A second reading of a screen whose first said nothing: it replaces
 * *res if it says something (vw_reading_says) or fits the glyphs
 * (vw_reading_fits), else it is dropped; the time of both counts, and so
 * does a deadline it ran into.
 */
void
vw_reading_second(vw_pipe_t *p, vw_ocr_result_t *res, vw_ocr_result_t *other)
{
    vw_reading_take(res, other, vw_reading_says(other, p->ref_layer.glyphs)
                             || vw_reading_fits(other, p->ref_layer.glyphs));
}


/* *res becomes *other if take, else stays; the one let go is freed and
 * its time counted in the one kept */
void
vw_reading_take(vw_ocr_result_t *res, vw_ocr_result_t *other, int take)
{
    if (take) {
        other->ms += res->ms;
        vw_ocr_result_free(res);
        *res = *other;

    } else {
        res->ms += other->ms;
        res->timed_out |= other->timed_out;
        vw_ocr_result_free(other);
    }
}


/*
 * A reading says something when it has at least a quarter as many
 * letters or digits as the screen has glyphs (two at least), at a
 * confidence of VW_READ_CONF or more: text upside down, mirrored or in
 * a script the language does not know reads as a few stray marks at a
 * low confidence.
 */
int
vw_reading_says(const vw_ocr_result_t *res, int glyphs)
{
    return !vw_reading_few(vw_reading_letters(res), glyphs)
           && res->confidence >= VW_READ_CONF;
}


/*
 * A reading less sure than that still reads its screen when it has
 * about as many letters as the screen has glyphs (half to one and a
 * half times), at VW_FIT_CONF or more: a line in strong noise read
 * right but unsure (". Trains delayed in north'", 21 letters for 20
 * glyphs, at 60).  A first reading this unsure is read again all the
 * same (that reads better), and orientation detection runs on it
 * (text upside down reads as about as many letters).
 */
int
vw_reading_fits(const vw_ocr_result_t *res, int glyphs)
{
    int  letters;

    letters = vw_reading_letters(res);

    return res->confidence >= VW_FIT_CONF && 2 * letters >= glyphs
           && 2 * letters <= 3 * glyphs && !vw_reading_few(letters, glyphs);
}


/* Fewer letters than a quarter of the screen's glyphs (two at least). */
int
vw_reading_few(int letters, int glyphs)
{
    return letters < (glyphs / VW_FEW_PART > VW_FEW_MIN ? glyphs / VW_FEW_PART
                                                        : VW_FEW_MIN);
}


/*
 * The letters or digits of a reading; any character beyond ASCII counts
 * as a letter, and a Han character, in a reading of two or more, as
 * VW_BLOCK_LETTERS: the text layer sees its strokes and radicals apart,
 * and the breaks in its outline, as glyphs of their own ("你是谁" in
 * outlined 30 px subtitles over grass is a line of 16 glyphs, which
 * three letters would not say).  One alone still counts once: a single
 * character is what noise reads as, as often as not.
 */
int
vw_reading_letters(const vw_ocr_result_t *res)
{
    int                   letters, han;
    size_t                i, n, len;
    uint32_t              cp;
    const unsigned char  *s;

    s = (const unsigned char *) (res->text != NULL ? res->text : "");
    len = strlen((const char *) s);
    letters = 0;
    han = 0;

    for (i = 0; i < len; i += n) {
        n = vw_utf8_decode(s + i, len - i, &cp);

        if (vw_script_han((int32_t) cp)) {
            han++;
            continue;
        }

        letters += (cp >= '0' && cp <= '9') || (cp >= 'a' && cp <= 'z')
                   || (cp >= 'A' && cp <= 'Z') || (cp >= 0x80 && cp != 0xfffd);
    }

    return letters + (han > 1 ? VW_BLOCK_LETTERS * han : han);
}


/* 1 if the reading's text holds one line ("\n" between) per line read,
 * so that its lines[i] is its text's line i + 1 */
int
vw_reading_lined(const vw_ocr_result_t *res)
{
    int          n;
    const char  *c;

    if (res->text == NULL) {
        return 0;
    }

    n = 1;

    for (c = res->text; *c != '\0'; c++) {
        n += *c == '\n';
    }

    return n == res->nlines;
}


/*
 * The lines of a reading read below VW_UNSURE_BELOW, as the rows'
 * VO_FRAME_UNSURE_* bits (line k + 1 is bit VO_FRAME_UNSURE_SHIFT + k,
 * the first VO_FRAME_UNSURE_LINES): a line kept at 66 beside one at 97
 * leaves the reading at 82, sure, and is said unsure on its own.  None
 * when its text does not hold a line per line read (it cannot say
 * which).
 */
unsigned
vw_reading_unsure(const vw_ocr_result_t *res)
{
    int       i;
    unsigned  bits;

    if (res->text == NULL || res->text[0] == '\0' || !vw_reading_lined(res)) {
        return 0;
    }

    bits = 0;

    for (i = 0; i < res->nlines && i < VO_FRAME_UNSURE_LINES; i++) {
        if (res->lines[i].confidence < VW_UNSURE_BELOW) {
            bits |= 1u << (VO_FRAME_UNSURE_SHIFT + i);
        }
    }

    return bits;
}
