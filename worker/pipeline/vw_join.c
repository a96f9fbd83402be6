/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Screens joined in hindsight.  Whether a look shows the reference's
 * text is decided look by look (vw_screen.c), and a look is one noisy
 * picture: where the background under a caption is as light as its
 * glyphs and strong noise eats their outline in some frames and not in
 * others, a look can differ from the reference as much as a changed
 * letter does, and the next looks then start a new screen of the same
 * text (a caption over the busy test pattern came out as three
 * segments, each a reading of the same three lines).  The mean of a
 * screen's looks has no such noise: what comes and goes averages out,
 * the glyphs stay.  So when a screen follows another screen of text
 * directly, the two means are compared before the new one is read
 * (vw_join_same), and if they show the same text the new screen joins
 * the other: it takes the other's reading when it has no more looks
 * than that reading was made from (no OCR call), and otherwise is read
 * and the more confident reading becomes the text of both
 * (vw_read_screen).  One segment, read once or twice, from the most
 * looks.  A screen whose mean is kept apart is read, and joins all the
 * same when its reading is the group's letter for letter
 * (vw_join_read_same): a mean of few looks over strong noise can differ
 * as a changed letter does; or when both readings are unsure and share
 * most of their letters (the one with fewer letters is the text of
 * both: vw_join_tighter).
 *
 * The screen read last, and the screens joined to it since, form the
 * group (p->join_*): the reading they share, the mean it came from,
 * where its lines are, and the first row of the group.  Invariants:
 *
 *   1. While the group is open, none of its rows is handed on
 *      (vw_rows_flush waits for join_first's unit): a later reading may
 *      still become their text.
 *   2. A run resumed after a row of the group that a later screen
 *      joined would lack the group's mean for that join.  So when the
 *      group closes, its rows from its first up to the first row of its
 *      last screen are flagged VO_FRAME_JOINING, and a resumed run
 *      whose last known row is so flagged starts again where the group
 *      began (vw_resume_redo): it decides as an unbroken run does, at the
 *      cost of reading the group's screens again.
 *
 * The group closes when a screen does not join it (that screen opens
 * the next; a screen of pictures turned since, or of another size,
 * never does), when a picture without text or a known row begins a
 * state, when a reading says nothing or was cut short, at the end of
 * the video, and VW_JOIN_LOOKS looks after its first row, so that the
 * rows of a long screen wait for a bounded time.
 */

#include <stdlib.h>
#include <string.h>

#include "vw_pipeline_int.h"
#include "core/vw_utf8.h"


static int vw_join_letters_alike(const char *a, const char *b);
static int vw_join_letters_overlap(const char *a, const char *b);
static size_t vw_join_letters_of(const char *s, uint32_t *out, size_t cap);
static const unsigned char *vw_join_letter(const unsigned char *s,
    size_t *len);
static int vw_join_inside(const vw_rect_t *box, const vw_rect_t *of,
    const vw_rect_t *in);
static void vw_join_box(const vw_pipe_t *p, const vw_rect_t *b,
    vw_rect_t *out);


/*
 * VW_JOIN_SAME if the pending screen's mean (p->mean, of p->region)
 * shows the text of the group's (p->join_mean, of p->join_region),
 * VW_JOIN_WITHIN if its glyphs are among the group's, 0 if neither, -1
 * when out of memory.  Each mean gets its text layer, judged by the
 * whole picture's size; the pending screen's glyphs must lie in the
 * group's region (a line that one has and the other has not is other
 * text), and the two are compared over the part the regions share.
 */
int
vw_join_same(vw_pipe_t *p, vw_err_t *err)
{
    int         dx, x1, y1;
    vw_rect_t   u, *a, *b;
    vw_text_t   ta, tb;
    vw_image_t  ia, ib;

    if (!p->join_open || p->join_turn_q != p->turn_q
        || p->join_w != p->ref.width || p->join_h != p->ref.height)
    {
        return 0;
    }

    a = &p->join_region;
    b = &p->region;

    if (vw_text_find_part(&p->framer, &p->join_mean, p->ref.width,
                           p->ref.height, &p->join_la, err) != 0
        || vw_text_find_part(&p->framer, &p->mean, p->ref.width,
                              p->ref.height, &p->join_lb, err) != 0)
    {
        return -1;
    }

    /* no glyph in either mean says nothing about the text; glyphs of
     * the pending screen's where the group's did not look are other
     * text */

    if (p->join_la.box.w == 0 || p->join_lb.box.w == 0
        || p->join_la.polarity != p->join_lb.polarity
        || !vw_join_inside(&p->join_lb.box, b, a))
    {
        return 0;
    }

    u.x = a->x > b->x ? a->x : b->x;
    u.y = a->y > b->y ? a->y : b->y;
    x1 = a->x + a->w < b->x + b->w ? a->x + a->w : b->x + b->w;
    y1 = a->y + a->h < b->y + b->h ? a->y + a->h : b->y + b->h;
    u.w = x1 - u.x;
    u.h = y1 - u.y;

    vw_image_view(&p->join_mean, a, &u, &ia);
    vw_text_view(&p->join_la, a, &u, &ta);
    vw_image_view(&p->mean, b, &u, &ib);
    vw_text_view(&p->join_lb, b, &u, &tb);

    if (vw_join_inside(&p->join_la.box, a, b)) {
        /* each has its glyphs where the other has: the same text? */
        return vw_look_same(p, &ia, &ta, &ib, &tb, &dx) ? VW_JOIN_SAME : 0;
    }

    /*
     * The group's mean has glyphs beyond the pending screen's region:
     * other text (a title over a subtitle that went), or something the
     * layer took for glyphs (the first look of a subtitle over a
     * fractal).  The pending screen's glyphs must be there, with their
     * levels; the pending screen is then read, and joins only if the
     * group read nothing beyond it (vw_join_within).
     */
    return vw_text_same(&ib, &tb, &ia, &tb, 0, NULL) ? VW_JOIN_WITHIN
                                                           : 0;
}


/*
 * VW_JOIN_SAME if every line the group read lies within the lines of
 * res, the pending screen's reading, give or take half their height
 * (the group's glyphs beyond the pending screen's were read as no
 * text), 0 if not: a word or a line the group has and the pending
 * screen has not is other text.  The lines are their words with a
 * letter or digit (a stray mark read beside them, "+ ASK the driver",
 * is no word of the text).  Across, a line must lie within them; up
 * and down, its middle (the boxes of words read over a busy background
 * take in pieces of it above and below: a line of 16-pixel glyphs read
 * 36 pixels tall over the fractal).
 */
int
vw_join_within(const vw_pipe_t *p, const vw_ocr_result_t *res)
{
    int               i, h;
    vw_rect_t         u, in;
    const vw_rect_t  *b;

    if (res->nlines == 0 || res->timed_out) {
        return 0;
    }

    memset(&u, 0, sizeof(vw_rect_t));

    for (i = 0; i < res->nlines; i++) {
        if (res->lines[i].letters.w > 0) {
            vw_box_union(&u, &res->lines[i].letters);
        }
    }

    if (u.w == 0) {
        return 0;
    }

    /* in the picture's pixels, grown by half a line */

    vw_join_box(p, &u, &in);
    h = in.h / res->nlines / 2;
    in.x -= h;
    in.y -= h;
    in.w += 2 * h;
    in.h += 2 * h;

    for (i = 0; i < p->join_nlines; i++) {
        b = &p->join_lines[i];

        if (b->x < in.x || b->x + b->w > in.x + in.w
            || b->y + b->h / 2 < in.y || b->y + b->h / 2 > in.y + in.h)
        {
            return 0;
        }
    }

    return p->join_nlines > 0 ? VW_JOIN_SAME : 0;
}


/*
 * VW_JOIN_SAME if res, the pending screen's reading, made in the
 * pictures as they were when the group was read (turn_q, the size), is
 * the group's text letter for letter: the same letters and digits in
 * the same order, whatever marks were read beside them and wherever its
 * lines break.  Over strong noise the mean of a screen of two or three
 * looks keeps noise enough to differ from the group's as a changed
 * letter does, and reads a quote mark or a dash more ("'THIS IS HOW /
 * - A SMALL TOWN" between two readings of "THIS IS HOW / A SMALL
 * TOWN"): one caption came out as three segments.  This only ever
 * joins a screen the means kept apart; it never parts one (what is a
 * screen is the text layer's to say), and only the screen directly
 * after the group's, with no picture without text between.
 * VW_JOIN_UNSURE if the two are unsure readings of the same text
 * (below).
 */
int
vw_join_read_same(const vw_pipe_t *p, int turn_q, const vw_ocr_result_t *res)
{
    if (!p->join_open || p->join_turn_q != turn_q || turn_q != p->turn_q
        || p->join_w != p->ref.width || p->join_h != p->ref.height
        || res->text == NULL || res->timed_out)
    {
        return 0;
    }

    if (vw_join_letters_alike(p->join_text, res->text)) {
        return VW_JOIN_SAME;
    }

    /*
     * Two readings both published unsure are of the same text in strong
     * noise when they share a run of most of their letters: what the
     * noise made of glyphs beside the text differs at its ends ("a!
     * Markets close higher, ; / J" at 60, then "4 / » Markets close
     * higher" at 75, on the hard set's noisy ticker).  A changed word
     * or number in the middle breaks the run (a counter's line is two
     * runs); one at either end, of up to a fifth of the letters, does
     * not.  A reading made with confidence is never joined so.
     */
    if (p->join_conf < VW_UNSURE_BELOW && res->confidence < VW_UNSURE_BELOW
        && vw_join_letters_overlap(p->join_text, res->text))
    {
        return VW_JOIN_UNSURE;
    }

    return 0;
}


/*
 * Of two readings joined as unsure (VW_JOIN_UNSURE), res is the surer
 * when it has fewer letters than the group's (fewer of the noise's
 * beside the run they share), or as many at a higher confidence.
 */
int
vw_join_tighter(const vw_pipe_t *p, const vw_ocr_result_t *res)
{
    size_t  a, b;

    /* (both at most VW_JOIN_RUN_CAP: they were compared) */
    a = vw_join_letters_of(res->text, NULL, VW_JOIN_RUN_CAP);
    b = vw_join_letters_of(p->join_text, NULL, VW_JOIN_RUN_CAP);

    return a < b || (a == b && res->confidence > p->join_conf);
}


/*
 * The pending screen joins the group with the group's reading: the
 * rows that wait for it get that text (its own row is VO_FRAME_JOINED:
 * its text is not its own reading), and it is the reference's.
 */
int
vw_join_take(vw_pipe_t *p, vw_err_t *err)
{
    int    failed;
    char  *text, *parts;

    text = strdup(p->join_text);
    parts = vw_pipe_strdup(p->join_parts, &failed);

    if (text == NULL || failed) {
        free(text);
        free(parts);
        return vw_fail(err, "no_memory", "run \"%s\": out of memory",
                       p->job->name);
    }

    p->pending = 0;
    vw_pipe_set_ref_text(p, text, parts, p->join_conf, p->join_unsure,
                         p->ref_index);
    p->join_last = p->ref_index;
    p->run->stats.screens_joined++;

    return vw_rows_fill(p, 0, VO_FRAME_JOINED, err);
}


/*
 * The pending screen was just read (res; its text is p->ref_text, its
 * mean p->mean) and its reading says something: it opens a group, or,
 * joined, its reading becomes the group's, and the group's rows that
 * have text get it.
 */
int
vw_join_keep(vw_pipe_t *p, const vw_ocr_result_t *res, int joined,
    vw_err_t *err)
{
    int           i, failed;
    char         *text, *parts;
    size_t        n;
    vw_queued_t  *r;
    vw_rect_t    *lines;

    text = strdup(p->ref_text);
    parts = vw_pipe_strdup(p->ref_parts, &failed);
    lines = p->join_lines;

    if (text != NULL && !failed && (size_t) res->nlines > p->join_lines_cap) {
        lines = realloc(p->join_lines, res->nlines * sizeof(vw_rect_t));
        if (lines != NULL) {
            p->join_lines = lines;
            p->join_lines_cap = res->nlines;
        }
    }

    if (text == NULL || failed || (res->nlines > 0 && lines == NULL)) {
        free(text);
        free(parts);
        return vw_fail(err, "no_memory", "run \"%s\": out of memory",
                       p->job->name);
    }

    /* where its lines' words are, in the picture's pixels */

    p->join_nlines = 0;

    for (i = 0; i < res->nlines; i++) {
        if (res->lines[i].letters.w > 0) {
            vw_join_box(p, &res->lines[i].letters,
                        &lines[p->join_nlines++]);
        }
    }

    free(p->join_text);
    free(p->join_parts);
    p->join_text = text;
    p->join_parts = parts;
    p->join_conf = p->ref_conf;
    p->join_unsure = p->ref_unsure;
    p->join_looks = p->mean_count;
    p->join_turn_q = p->turn_q;
    p->join_region = p->region;
    p->join_w = p->ref.width;
    p->join_h = p->ref.height;
    vw_image_swap(&p->join_mean, &p->mean);

    if (!joined) {
        vw_join_close(p);
        p->join_first = p->ref_index;
        p->join_last = p->ref_index;
        p->join_open = 1;
        return 0;
    }

    p->join_last = p->ref_index;
    p->run->stats.screens_joined++;

    /* the rows of the group: every row from its first on that has text
     * (a row without a picture is none of its screens') */

    for (n = 0; n < p->nrows; n++) {
        r = &p->rows[n];

        if (r->row.index < p->join_first || r->text == NULL
            || (r->row.flags & VO_FRAME_NO_PICTURE)
            || r->row.index == p->ref_index
            || r->row.reused_from == p->ref_index)
        {
            continue;
        }

        if (vw_rows_take_ref(p, r, err) != 0) {
            return -1;
        }
    }

    return 0;
}


/*
 * The group closes: no later screen joins it.  If screens joined it,
 * its rows from its first up to the first of its last screen are
 * VO_FRAME_JOINING: a run resumed after one of them would lack the
 * group's mean for the join that came after it, so it starts where
 * the group began (vw_pipeline.c).
 */
void
vw_join_close(vw_pipe_t *p)
{
    size_t        n;
    vw_queued_t  *r;

    if (!p->join_open) {
        return;
    }

    p->join_open = 0;

    for (n = 0; n < p->nrows && p->join_last > p->join_first; n++) {
        r = &p->rows[n];

        if (r->row.index >= p->join_first && r->row.index < p->join_last) {
            r->row.flags |= VO_FRAME_JOINING;
        }
    }
}


void
vw_join_free(vw_pipe_t *p)
{
    free(p->join_text);
    free(p->join_parts);
    free(p->join_lines);
    p->join_text = NULL;
    p->join_parts = NULL;
    p->join_lines = NULL;
    p->join_nlines = 0;
    p->join_lines_cap = 0;
    vw_image_free(&p->join_mean);
    vw_text_free(&p->join_la);
    vw_text_free(&p->join_lb);
}


/* 1 if a and b have the same letters and digits, in order, and some. */
static int
vw_join_letters_alike(const char *a, const char *b)
{
    int                   letters;
    size_t                la, lb;
    const unsigned char  *pa, *pb;

    pa = (const unsigned char *) a;
    pb = (const unsigned char *) b;
    letters = 0;

    for ( ;; ) {
        pa = vw_join_letter(pa, &la);
        pb = vw_join_letter(pb, &lb);

        if (pa == NULL || pb == NULL) {
            return pa == NULL && pb == NULL && letters > 0;
        }

        if (la != lb || memcmp(pa, pb, la) != 0) {
            return 0;
        }

        pa += la;
        pb += lb;
        letters++;
    }
}


/*
 * 1 if a and b share a run of letters and digits, in order, of at
 * least VW_JOIN_RUN letters and four fifths of each one's letters.
 */
static int
vw_join_letters_overlap(const char *a, const char *b)
{
    size_t    i, k, la, lb, best;
    uint32_t  ca[VW_JOIN_RUN_CAP], cb[VW_JOIN_RUN_CAP];
    uint16_t  run[VW_JOIN_RUN_CAP + 1], prev[VW_JOIN_RUN_CAP + 1];

    la = vw_join_letters_of(a, ca, VW_JOIN_RUN_CAP);
    lb = vw_join_letters_of(b, cb, VW_JOIN_RUN_CAP);

    if (la < VW_JOIN_RUN || lb < VW_JOIN_RUN
        || la > VW_JOIN_RUN_CAP || lb > VW_JOIN_RUN_CAP)
    {
        return 0;
    }

    /* the longest common run: run[k] ends at a's i-th and b's k-th */
    best = 0;
    memset(prev, 0, sizeof(prev));

    for (i = 0; i < la; i++) {
        run[0] = 0;

        for (k = 1; k <= lb; k++) {
            run[k] = ca[i] == cb[k - 1] ? prev[k - 1] + 1 : 0;
            best = run[k] > best ? run[k] : best;
        }

        memcpy(prev, run, (lb + 1) * sizeof(uint16_t));
    }

    return best >= VW_JOIN_RUN && 5 * best >= 4 * la && 5 * best >= 4 * lb;
}


/* The letters and digits of s (their code points in out, unless NULL), at
 * most cap; their count, cap + 1 when there are more. */
static size_t
vw_join_letters_of(const char *s, uint32_t *out, size_t cap)
{
    size_t                n, len;
    const unsigned char  *p;

    p = (const unsigned char *) s;

    for (n = 0; (p = vw_join_letter(p, &len)) != NULL; p += len) {
        if (n == cap) {
            return cap + 1;
        }

        if (out != NULL) {
            (void) vw_utf8_decode(p, len, &out[n]);
        }

        n++;
    }

    return n;
}


/*
 * The next letter or digit from s on (len: its bytes), NULL at the end:
 * as vw_ocr.c counts them, ASCII ones and every character from U+00C0
 * on but U+2000-U+2FFF (punctuation, symbols) and U+FFFD.
 */
static const unsigned char *
vw_join_letter(const unsigned char *s, size_t *len)
{
    size_t    n;
    uint32_t  cp;

    for ( ;; ) {
        n = strlen((const char *) s);

        if (n == 0) {
            return NULL;
        }

        *len = vw_utf8_decode(s, n, &cp);

        if ((cp >= '0' && cp <= '9') || (cp >= 'a' && cp <= 'z')
            || (cp >= 'A' && cp <= 'Z')
            || (cp >= 0xc0 && (cp < 0x2000 || cp > 0x2fff) && cp != 0xfffd))
        {
            return s;
        }

        s += *len;
    }
}


/* 1 if box (in the pixels of region of) lies inside region in. */
static int
vw_join_inside(const vw_rect_t *box, const vw_rect_t *of,
    const vw_rect_t *in)
{
    int  x, y;

    x = of->x + box->x;
    y = of->y + box->y;

    return x >= in->x && y >= in->y && x + box->w <= in->x + in->w
           && y + box->h <= in->y + in->h;
}


/* out: box b of the pending screen's OCR picture (its region, scaled),
 * in the picture's pixels */
static void
vw_join_box(const vw_pipe_t *p, const vw_rect_t *b, vw_rect_t *out)
{
    out->x = p->region.x + b->x / p->scale;
    out->y = p->region.y + b->y / p->scale;
    out->w = (b->w + p->scale - 1) / p->scale;
    out->h = (b->h + p->scale - 1) / p->scale;
}
