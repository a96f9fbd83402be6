/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Two readings of one picture combined line by line (see vw_ocr.h):
 * each line from the better of the two, the lines only one has added
 * where they are, and a line both dropped as unsure but read alike.
 */

#include <stdlib.h>
#include <string.h>

#include "core/vw_geom.h"
#include "vw_ocr_int.h"


/* lines of a reading with their texts (vw_ocr_split) */
typedef struct {
    int          n;
    const char  *t[VW_OCR_MERGE_LINES];
    size_t       len[VW_OCR_MERGE_LINES];
} vw_ocr_lines_t;

/* a line of a combined reading: which, its text, whether it is one of
 * the first reading's kept lines */
typedef struct {
    const vw_ocr_line_t  *line;
    const char           *text;
    size_t                len;
    int                   of_a;
} vw_ocr_pick_t;


static int vw_ocr_insert(vw_ocr_pick_t *p, int n, vw_ocr_pick_t l);
static int vw_ocr_alike(const char *x, size_t nx, const char *y, size_t ny);
static int vw_ocr_better(const vw_ocr_line_t *b, const vw_ocr_line_t *a);
static int vw_ocr_wider(const vw_ocr_line_t *a, const vw_ocr_line_t *b);
static int vw_ocr_same_line(const vw_rect_t *a, const vw_rect_t *b);
static int vw_ocr_level(const vw_rect_t *a, const vw_rect_t *b);
static int vw_ocr_before(const vw_rect_t *a, const vw_rect_t *b);
static int vw_ocr_split(const char *text, const vw_ocr_line_t *lines, int n,
    vw_ocr_lines_t *out);


/*
 * The lines of two readings of one picture combined.  A line of b where
 * a line of a is (their boxes overlap across, and up and down by half
 * the lower one) is the same line, and the better reading of it is kept
 * (vw_ocr_better).  A line of b at no line of a goes in among a's where
 * it is (side by side with one, or between two by their middles): a
 * line that one reading dropped and the other kept, as a caption's line
 * over a background as light as its glyphs.  A line of b over two of a
 * says nothing.  Last, a line both dropped as unsure, where neither kept
 * one, goes in when the two read it alike (vw_ocr_alike): two readings
 * of two pictures of the glyphs agreeing are the evidence that one
 * unsure reading lacks.  *out gets the lines in order from the top, its
 * confidence the mean of theirs; 1 when it has more lines than a (with
 * replace, also as many when one of b's took the place of one of a's:
 * a line read again alone), 0 when not or when a text does not hold one
 * line per box (*out is then empty), -1 when out of memory.
 */
int
vw_ocr_result_merge(const vw_ocr_result_t *a, const vw_ocr_result_t *b,
    int replace, vw_ocr_result_t *out)
{
    int             i, j, k, n, at, sum, took;
    size_t          len;
    vo_buf_t        text;
    vw_ocr_pick_t  *pick;
    vw_ocr_lines_t  ka, kb, da, db;

    memset(out, 0, sizeof(vw_ocr_result_t));

    if (a->nlines == 0 || b->nlines == 0
        || vw_ocr_split(a->text, a->lines, a->nlines, &ka) != 0
        || vw_ocr_split(b->text, b->lines, b->nlines, &kb) != 0)
    {
        return 0;
    }

    /* the dropped lines, for the vote (none when they do not split) */
    if (vw_ocr_split(a->dropped_text, a->dropped, a->ndropped, &da) != 0
        || vw_ocr_split(b->dropped_text, b->dropped, b->ndropped, &db) != 0)
    {
        da.n = 0;
        db.n = 0;
    }

    pick = malloc((size_t) (ka.n + kb.n + da.n) * sizeof(vw_ocr_pick_t));
    if (pick == NULL) {
        return -1;
    }

    n = 0;
    took = 0;

    for (i = 0; i < ka.n; i++) {
        pick[n++] = (vw_ocr_pick_t) { &a->lines[i], ka.t[i], ka.len[i], 1 };
    }

    for (j = 0; j < kb.n; j++) {
        at = -1;

        for (k = 0; k < n; k++) {
            if (pick[k].of_a
                && vw_ocr_same_line(&pick[k].line->box, &b->lines[j].box))
            {
                at = at == -1 ? k : -2;
            }
        }

        if (at >= 0 && vw_ocr_better(&b->lines[j], pick[at].line)) {
            pick[at] = (vw_ocr_pick_t) { &b->lines[j], kb.t[j], kb.len[j],
                                         0 };
            took = 1;
        }

        if (at == -1) {
            /* a line a has not */
            n = vw_ocr_insert(pick, n, (vw_ocr_pick_t) { &b->lines[j],
                                            kb.t[j], kb.len[j], 0 });
        }
    }

    /* the vote: a line both readings dropped as unsure, where neither
     * kept one, read alike ("@GHANGED" at 39, "CHANGED" at 37) */

    for (i = 0; i < da.n; i++) {
        for (j = 0; j < db.n; j++) {
            if (vw_ocr_same_line(&a->dropped[i].box, &b->dropped[j].box)
                && vw_ocr_alike(da.t[i], da.len[i], db.t[j], db.len[j]))
            {
                break;
            }
        }

        for (k = 0; k < n && j < db.n; k++) {
            if (vw_ocr_same_line(&pick[k].line->box, &a->dropped[i].box)) {
                break;
            }
        }

        if (j == db.n || k < n) {
            continue;
        }

        n = a->dropped[i].confidence >= b->dropped[j].confidence
            ? vw_ocr_insert(pick, n, (vw_ocr_pick_t) { &a->dropped[i],
                                          da.t[i], da.len[i], 0 })
            : vw_ocr_insert(pick, n, (vw_ocr_pick_t) { &b->dropped[j],
                                          db.t[j], db.len[j], 0 });
    }

    if (n < a->nlines || (n == a->nlines && !(replace && took))) {
        free(pick);
        return 0;
    }

    out->lines = malloc((size_t) n * sizeof(vw_ocr_line_t));
    vo_buf_init(&text);
    sum = 0;

    for (k = 0; k < n && out->lines != NULL; k++) {
        out->lines[k] = *pick[k].line;
        sum += out->lines[k].confidence;

        if (k > 0) {
            vo_buf_addc(&text, '\n');
        }

        vo_buf_add(&text, pick[k].text, pick[k].len);
    }

    free(pick);
    out->text = out->lines != NULL ? vo_buf_detach(&text, &len) : NULL;
    vo_buf_free(&text);

    if (out->text == NULL) {
        vw_ocr_result_free(out);
        return -1;
    }

    out->nlines = n;
    out->confidence = (sum + n / 2) / n;
    out->words = a->words > b->words ? a->words : b->words;
    out->ms = a->ms + b->ms;

    return 1;
}


/* p gets line l where it is among its n lines (vw_ocr_before); n + 1. */
static int
vw_ocr_insert(vw_ocr_pick_t *p, int n, vw_ocr_pick_t l)
{
    int  k;

    for (k = 0; k < n; k++) {
        if (vw_ocr_before(&l.line->box, &p[k].line->box)) {
            break;
        }
    }

    memmove(&p[k + 1], &p[k], (size_t) (n - k) * sizeof(vw_ocr_pick_t));
    p[k] = l;

    return n + 1;
}


/*
 * Two texts of a line read alike: each has VW_OCR_VOTE_LETTERS letters
 * or digits or more, and their edit distance is at most 30% of the
 * longer (texts of up to VW_OCR_VOTE_BYTES bytes).
 */
static int
vw_ocr_alike(const char *x, size_t nx, const char *y, size_t ny)
{
    size_t  i, j, d[VW_OCR_VOTE_BYTES + 1], diag, up;

    if (nx > VW_OCR_VOTE_BYTES || ny > VW_OCR_VOTE_BYTES
        || vw_ocr_letters(x, nx) < VW_OCR_VOTE_LETTERS
        || vw_ocr_letters(y, ny) < VW_OCR_VOTE_LETTERS)
    {
        return 0;
    }

    for (j = 0; j <= ny; j++) {
        d[j] = j;
    }

    for (i = 1; i <= nx; i++) {
        diag = d[0];
        d[0] = i;

        for (j = 1; j <= ny; j++) {
            up = d[j];
            d[j] = x[i - 1] == y[j - 1] ? diag
                   : 1 + (diag < up ? (diag < d[j - 1] ? diag : d[j - 1])
                                    : (up < d[j - 1] ? up : d[j - 1]));
            diag = up;
        }
    }

    return 10 * d[ny] <= 3 * (nx > ny ? nx : ny);
}


/*
 * Reading b of a line is better than reading a: it is sure
 * (VW_OCR_SURE_LINE) and has a word more at an end (its letters reach a
 * line's height beyond a's: "THE|HARBOUR" against "HARBOUR", read at 88
 * and 96), or neither has a word the other lacks and b is the more
 * confident.
 */
static int
vw_ocr_better(const vw_ocr_line_t *b, const vw_ocr_line_t *a)
{
    if (vw_ocr_wider(b, a)) {
        return b->confidence >= VW_OCR_SURE_LINE
               || b->confidence > a->confidence;
    }

    if (vw_ocr_wider(a, b)) {
        return a->confidence < VW_OCR_SURE_LINE
               && b->confidence > a->confidence;
    }

    return b->confidence > a->confidence;
}


/* The letters of line a reach beyond b's by b's height or more, at
 * either end. */
static int
vw_ocr_wider(const vw_ocr_line_t *a, const vw_ocr_line_t *b)
{
    const vw_rect_t  *la, *lb;

    la = a->letters.w > 0 ? &a->letters : &a->box;
    lb = b->letters.w > 0 ? &b->letters : &b->box;

    return lb->x - la->x >= lb->h
           || (la->x + la->w) - (lb->x + lb->w) >= lb->h;
}


/* Two lines' boxes overlap up and down by half the lower one, and
 * across. */
static int
vw_ocr_same_line(const vw_rect_t *a, const vw_rect_t *b)
{
    return vw_ocr_level(a, b) && vw_box_overlap(a, b) > 0;
}


/* Two lines' boxes overlap up and down by half the lower one: they are
 * at one height (side by side, when they do not overlap across). */
static int
vw_ocr_level(const vw_rect_t *a, const vw_rect_t *b)
{
    int  top, bottom, low;

    top = a->y > b->y ? a->y : b->y;
    bottom = a->y + a->h < b->y + b->h ? a->y + a->h : b->y + b->h;
    low = a->h < b->h ? a->h : b->h;

    return 2 * (bottom - top) >= low;
}


/* Line a comes before line b: to its left at one height, else above it
 * by their middles. */
static int
vw_ocr_before(const vw_rect_t *a, const vw_rect_t *b)
{
    if (vw_ocr_level(a, b)) {
        return a->x < b->x;
    }

    return 2 * a->y + a->h < 2 * b->y + b->h;
}


/* The text of each of the n lines (t[i], len[i] bytes) in text, "\n"
 * between; -1 unless there are n of them (or more than
 * VW_OCR_MERGE_LINES). */
static int
vw_ocr_split(const char *text, const vw_ocr_line_t *lines, int n,
    vw_ocr_lines_t *out)
{
    int          i;
    const char  *p, *e;

    out->n = 0;

    if (n == 0) {
        return 0;
    }

    if (text == NULL || lines == NULL || n > VW_OCR_MERGE_LINES) {
        return -1;
    }

    p = text;

    for (i = 0; i < n; i++) {
        e = strchr(p, '\n');
        out->t[i] = p;
        out->len[i] = e != NULL ? (size_t) (e - p) : strlen(p);

        if ((e == NULL) != (i == n - 1)) {
            return -1;
        }

        p = e != NULL ? e + 1 : p;
    }

    out->n = n;

    return 0;
}
