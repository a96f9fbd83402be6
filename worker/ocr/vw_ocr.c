/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The OCR stage (see vw_ocr.h): the engine cache, recognition under a
 * deadline, and the text Tesseract returns turned into what a subtitle
 * is: lines of words separated by single spaces, lines joined by "\n",
 * lines Tesseract is unsure of or with no letter or digit dropped (a
 * lone "|" or a page of two-letter words is what the edge of a picture
 * or a background texture reads as).
 *
 * Threads: Tesseract parallelises with OpenMP; a worker runs one child
 * per core, so each recognition must use one thread.  libgomp reads
 * OMP_THREAD_LIMIT when it is loaded, before main(), so the variable is
 * set by whoever execs the worker (vw_main.c re-execs itself once with
 * it set); setting it again here only keeps it set for the processes
 * this one starts.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dirent.h>
#include <fcntl.h>

#include <leptonica/allheaders.h>
#include <tesseract/capi.h>

#include "vo_edge.h"
#include "vw_ocr_int.h"
#include "core/vw_geom.h"
#include "vw_script.h"



#define VW_OCR_DPI           70
#define VW_OCR_MIN_LINE_CONF 50
#define VW_OCR_SURE_WORD     90      /* a word this sure, of */
#define VW_OCR_SURE_LETTERS  4       /* this many letters, keeps its line */
#define VW_OCR_SURE_LINE     85      /* a line read this sure keeps the
                                        words only it has */
#define VW_OCR_VOTE_LETTERS  4       /* a line two readings dropped but
                                        read alike has this many letters */
#define VW_OCR_VOTE_BYTES    128     /* and is no longer */

/*
 * Specks: in a black-on-white picture (the text layer's bright ink,
 * VW_PREP_BRIGHT), black components whose width and height are both at
 * most 1/VW_OCR_SPECK_PART of the median glyph's (components at least
 * VW_OCR_GLYPH_MIN pixels tall or wide) are made white.  Strong grain
 * behind big outlined captions leaves thousands of 1-4 pixel specks
 * around 50 pixel glyphs; Tesseract then reads the lines among them
 * with junk and low confidence, and loses whole lines.  A full stop is
 * about a fifth of a glyph's height, so it stays.
 */
#define VW_OCR_SPECK_PART    8
#define VW_OCR_GLYPH_MIN     8
#define VW_OCR_SPECK_MAX     32


struct vw_engine_s {
    char          lang[VO_LANG_MAX + 1];
    TessBaseAPI  *api;
    uint64_t      used;
};

typedef struct {
    int64_t      deadline;      /* vw_now_ms(); 0 = none */
    vw_poll_pt   poll;
    void        *poll_data;
    int          timed_out;
    int          stopped;
} vw_ocr_watch_t;

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


const vw_ocr_how_t  vw_ocr_plain = { VW_OCR_LAYOUT_AUTO, 0 };

static vw_engine_t  vw_engines[VW_OCR_ENGINES_MAX];
static int          vw_nengines;
static uint64_t     vw_engine_clock;


static int vw_ocr_check_lang(const char *lang, const char *name,
    vw_err_t *err);
static int vw_ocr_strcmp(const void *a, const void *b);
static bool vw_ocr_cancel(void *data, int words);
static int vw_ocr_better(const vw_ocr_line_t *b, const vw_ocr_line_t *a);
static int vw_ocr_wider(const vw_ocr_line_t *a, const vw_ocr_line_t *b);
static int vw_ocr_same_line(const vw_rect_t *a, const vw_rect_t *b);
static int vw_ocr_level(const vw_rect_t *a, const vw_rect_t *b);
static int vw_ocr_before(const vw_rect_t *a, const vw_rect_t *b);
static int vw_ocr_insert(vw_ocr_pick_t *p, int n, vw_ocr_pick_t l);
static int vw_ocr_alike(const char *x, size_t nx, const char *y, size_t ny);
static int vw_ocr_split(const char *text, const vw_ocr_line_t *lines, int n,
    vw_ocr_lines_t *out);
static int vw_ocr_collect(TessBaseAPI *api, vo_buf_t *text,
    vo_buf_t *dropped, int *conf, vw_ocr_result_t *r);
static int vw_ocr_line_end(vw_ocr_result_t *r, vo_buf_t *text,
    size_t line_start, vo_buf_t *dropped, const vw_rect_t *box,
    const vw_rect_t *letters, float conf_sum, int words, int sure);
static int vw_ocr_line_keep(const char *p, size_t n, float conf_sum,
    int words, int sure);
static int vw_ocr_letters(const char *p, size_t n);
static int vw_ocr_line_add(vw_ocr_line_t **lines, int *n,
    const vw_rect_t *box, const vw_rect_t *letters, float conf_sum,
    int words);
static void vw_ocr_box_add(vw_rect_t *b, int left, int top, int right,
    int bottom);
static const vw_image_t *vw_ocr_despeckle(const vw_image_t *img,
    int speck);
static int vw_ocr_fill(uint8_t *pix, int w, int h, size_t seed, int limit,
    uint8_t erase);


/* the despeckled copy and the flood fill's work space, kept across calls */
static vw_image_t   vw_ocr_clean;
static uint8_t     *vw_ocr_seen;
static uint32_t    *vw_ocr_stack;
static size_t       vw_ocr_stack_cap;
static size_t       vw_ocr_work_cap;


int
vw_ocr_engine(const char *lang, const char *name, vw_engine_t **ep,
    vw_err_t *err)
{
    int           i, victim, rc;
    char         *names[1], *values[1];
    TessBaseAPI  *api;
    vw_engine_t  *e;

    for (i = 0; i < vw_nengines; i++) {
        if (strcmp(vw_engines[i].lang, lang) == 0) {
            vw_engines[i].used = ++vw_engine_clock;
            *ep = &vw_engines[i];
            return 0;
        }
    }

    if (vw_ocr_check_lang(lang, name, err) != 0) {
        return -1;
    }

    (void) setenv("OMP_THREAD_LIMIT", "1", 1);

    /* Leptonica reports to stderr on its own; errors reach us anyway */
    (void) setMsgSeverity(L_SEVERITY_NONE);

    api = TessBaseAPICreate();
    if (api == NULL) {
        return vw_fail(err, "no_memory", "ocr \"%s\": cannot create a "
                       "Tesseract engine", name);
    }

    names[0] = (char *) "debug_file";
    values[0] = (char *) "/dev/null";

    rc = TessBaseAPIInit4(api, vw_ocr_datapath(), lang, OEM_DEFAULT, NULL, 0,
                          names, values, 1, 0);
    if (rc != 0) {
        TessBaseAPIDelete(api);
        return vw_fail(err, "ocr_engine", "ocr \"%s\": Tesseract cannot "
                       "load language \"%s\" from %s", name, lang,
                       vw_ocr_datapath());
    }

    /* a free slot, or the least recently used engine */

    if (vw_nengines < VW_OCR_ENGINES_MAX) {
        e = &vw_engines[vw_nengines++];

    } else {
        victim = 0;
        for (i = 1; i < VW_OCR_ENGINES_MAX; i++) {
            if (vw_engines[i].used < vw_engines[victim].used) {
                victim = i;
            }
        }

        e = &vw_engines[victim];
        TessBaseAPIEnd(e->api);
        TessBaseAPIDelete(e->api);
    }

    snprintf(e->lang, sizeof(e->lang), "%s", lang);
    e->api = api;
    e->used = ++vw_engine_clock;

    *ep = e;

    return 0;
}


void
vw_ocr_shutdown(void)
{
    int  i;

    for (i = 0; i < vw_nengines; i++) {
        TessBaseAPIEnd(vw_engines[i].api);
        TessBaseAPIDelete(vw_engines[i].api);
        vw_engines[i].api = NULL;
    }

    vw_nengines = 0;

    free(vw_ocr_clean.data);
    free(vw_ocr_seen);
    free(vw_ocr_stack);
    memset(&vw_ocr_clean, 0, sizeof(vw_image_t));
    vw_ocr_seen = NULL;
    vw_ocr_stack = NULL;
    vw_ocr_stack_cap = 0;
    vw_ocr_work_cap = 0;
}


int
vw_ocr_image(vw_engine_t *e, const vw_image_t *img,
    const vw_ocr_how_t *how, int timeout_ms, vw_poll_pt poll,
    void *poll_data, vw_ocr_result_t *r, vw_err_t *err)
{
    int              rc, ret, conf;
    int64_t          start;
    vo_buf_t         text, dropped;
    ETEXT_DESC      *monitor;
    vw_ocr_watch_t   watch;

    ret = -1;
    vo_buf_init(&text);
    vo_buf_init(&dropped);
    monitor = NULL;

    r->text = NULL;
    r->confidence = 0;
    r->timed_out = 0;
    r->ms = 0;
    r->lines = NULL;
    r->nlines = 0;
    r->words = 0;
    r->dropped = NULL;
    r->ndropped = 0;
    r->dropped_text = NULL;

    start = vw_now_ms();

    if (img->width == 0 || img->height == 0) {
        ret = 0;
        goto done;
    }

    /*
     * A fresh monitor per call: ETEXT_DESC keeps an old deadline when
     * asked for none, so reusing one would carry it over.
     */

    monitor = TessMonitorCreate();
    if (monitor == NULL) {
        vw_fail(err, "no_memory", "ocr: out of memory");
        goto done;
    }

    watch.deadline = timeout_ms > 0 ? start + timeout_ms : 0;
    watch.poll = poll;
    watch.poll_data = poll_data;
    watch.timed_out = 0;
    watch.stopped = 0;

    TessMonitorSetCancelFunc(monitor, vw_ocr_cancel);
    TessMonitorSetCancelThis(monitor, &watch);

    if (timeout_ms > 0) {
        TessMonitorSetDeadlineMSecs(monitor, timeout_ms);
    }

    img = vw_ocr_despeckle(img, how->speck);
    if (img == NULL) {
        vw_fail(err, "no_memory", "ocr: out of memory");
        goto done;
    }

    TessBaseAPISetPageSegMode(e->api, how->layout == VW_OCR_LAYOUT_BLOCK
                                      ? PSM_SINGLE_BLOCK : PSM_AUTO);
    TessBaseAPISetImage(e->api, img->data, img->width, img->height, 1,
                        img->stride);
    TessBaseAPISetSourceResolution(e->api, VW_OCR_DPI);

    rc = TessBaseAPIRecognize(e->api, monitor);

    if (watch.stopped) {
        vw_stop(err, "ocr: stopped");
        goto done;
    }

    if (watch.timed_out
        || (rc != 0 && timeout_ms > 0 && vw_now_ms() - start >= timeout_ms))
    {
        /* cancelled by the deadline: an empty frame, not a failure */
        r->timed_out = 1;
        ret = 0;
        goto done;
    }

    if (rc != 0) {
        /* nothing Tesseract could make sense of */
        ret = 0;
        goto done;
    }

    if (vw_ocr_collect(e->api, &text, &dropped, &conf, r) != 0
        || !vo_buf_ok(&text) || !vo_buf_ok(&dropped))
    {
        vw_fail(err, "no_memory", "ocr: out of memory");
        goto done;
    }

    r->dropped_text = dropped.data;
    vo_buf_init(&dropped);

    r->confidence = conf;
    ret = 0;

done:

    if (e != NULL && e->api != NULL) {
        TessBaseAPIClear(e->api);
    }

    if (monitor != NULL) {
        TessMonitorDelete(monitor);
    }

    r->ms = vw_now_ms() - start;

    if (ret == 0) {
        r->text = text.data != NULL ? text.data : strdup("");

        if (r->text == NULL) {
            vw_fail(err, "no_memory", "ocr: out of memory");
            ret = -1;
        }

    } else {
        vo_buf_free(&text);
    }

    vo_buf_free(&dropped);

    if (ret != 0 || r->text[0] == '\0') {
        free(r->lines);
        r->lines = NULL;
        r->nlines = 0;
    }

    if (ret != 0 || r->dropped_text == NULL) {
        free(r->dropped);
        r->dropped = NULL;
        r->ndropped = 0;
        free(r->dropped_text);
        r->dropped_text = NULL;
    }

    return ret;
}


void
vw_ocr_result_free(vw_ocr_result_t *r)
{
    free(r->text);
    r->text = NULL;
    free(r->lines);
    r->lines = NULL;
    r->nlines = 0;
    free(r->dropped);
    r->dropped = NULL;
    r->ndropped = 0;
    free(r->dropped_text);
    r->dropped_text = NULL;
}


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
 * confidence the mean of theirs; 1 when it has more lines than a, 0
 * when not or when a text does not hold one line per box (*out is then
 * empty), -1 when out of memory.
 */
int
vw_ocr_result_merge(const vw_ocr_result_t *a, const vw_ocr_result_t *b,
    vw_ocr_result_t *out)
{
    int             i, j, k, n, at, sum;
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

    if (n <= a->nlines) {
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


static bool
vw_ocr_cancel(void *data, int words)
{
    vw_ocr_watch_t  *w;

    (void) words;

    w = data;

    if (w->deadline && vw_now_ms() >= w->deadline) {
        w->timed_out = 1;
        return true;
    }

    if (w->poll != NULL && w->poll(w->poll_data) != 0) {
        w->stopped = 1;
        return true;
    }

    return false;
}


/*
 * Walks the words of the last recognition: words joined by one space
 * (none between CJK words nor where Tesseract's own line text has none
 * between Hangul words: vw_script_space), lines by "\n", lines
 * vw_ocr_line_keep refuses dropped.  *conf is the mean confidence of
 * the words kept; r->lines gets each line kept, in the text's order.
 */
static int
vw_ocr_collect(TessBaseAPI *api, vo_buf_t *text, vo_buf_t *dropped,
    int *conf, vw_ocr_result_t *r)
{
    int                  words, nline, left, top, right, bottom, blanks;
    int                  sure, kept;
    vw_rect_t            line_box, letters_box;
    char                *w, *line;
    float                c, sum, line_sum;
    size_t               line_start, prev_start, line_len, line_at, wlen;
    TessPageIterator    *pit;
    TessResultIterator  *it;

    *conf = 0;
    words = 0;
    sum = 0;
    memset(&line_box, 0, sizeof(vw_rect_t));
    memset(&letters_box, 0, sizeof(vw_rect_t));

    it = TessBaseAPIGetIterator(api);
    if (it == NULL) {
        return 0;
    }

    pit = TessResultIteratorGetPageIterator(it);
    line_start = 0;
    line_sum = 0;
    nline = 0;
    sure = 0;
    prev_start = 0;
    line = NULL;
    line_len = 0;
    line_at = 0;

    do {
        w = TessResultIteratorGetUTF8Text(it, RIL_WORD);
        if (w == NULL) {
            continue;
        }

        c = TessResultIteratorConfidence(it, RIL_WORD);

        if (TessPageIteratorIsAtBeginningOf(pit, RIL_TEXTLINE)
            && text->len > line_start)
        {
            /* close the previous line */
            kept = vw_ocr_line_end(r, text, line_start, dropped, &line_box,
                                   &letters_box, line_sum, nline, sure);

            if (kept < 0) {
                TessDeleteText(w);
                TessDeleteText(line);
                TessResultIteratorDelete(it);
                return -1;
            }

            if (kept) {
                vo_buf_addc(text, '\n');
                sum += line_sum;
                words += nline;
            }

            line_start = text->len;
            line_sum = 0;
            nline = 0;
            sure = 0;
        }

        if (TessPageIteratorIsAtBeginningOf(pit, RIL_TEXTLINE)) {
            memset(&line_box, 0, sizeof(vw_rect_t));
            memset(&letters_box, 0, sizeof(vw_rect_t));
            TessDeleteText(line);
            line = TessResultIteratorGetUTF8Text(it, RIL_TEXTLINE);
            line_len = line != NULL ? strlen(line) : 0;
            line_at = 0;
        }

        if (!TessPageIteratorBoundingBox(pit, RIL_WORD, &left, &top, &right,
                                         &bottom))
        {
            left = right = 0;
        }

        if (*w != '\0') {
            r->words++;
            wlen = strlen(w);
            blanks = line != NULL ? vw_script_blanks(line, line_len, &line_at,
                                                     w, wlen)
                                  : -1;

            if (text->len > line_start
                && vw_script_space(text->data + prev_start,
                                   text->len - prev_start, w, wlen, blanks))
            {
                vo_buf_addc(text, ' ');
            }

            prev_start = text->len;

            /* a lone vertical bar is a capital I that lost its serifs */
            vo_buf_adds(text, strcmp(w, "|") == 0 ? "I" : w);

            /* the line's box: its words' (a line's own reaches above
             * and below its glyphs) */
            vw_ocr_box_add(&line_box, left, top, right, bottom);

            if (vw_ocr_letters(w, wlen) > 0) {
                vw_ocr_box_add(&letters_box, left, top, right, bottom);
            }

            line_sum += c;
            sure |= c >= VW_OCR_SURE_WORD
                    && vw_ocr_letters(w, wlen) >= VW_OCR_SURE_LETTERS;
            nline++;

        }

        TessDeleteText(w);

    } while (TessResultIteratorNext(it, RIL_WORD));

    TessDeleteText(line);
    TessResultIteratorDelete(it);

    kept = text->len > line_start
           ? vw_ocr_line_end(r, text, line_start, dropped, &line_box,
                             &letters_box, line_sum, nline, sure)
           : 0;

    if (kept < 0) {
        return -1;
    }

    if (kept) {
        sum += line_sum;
        words += nline;
    }

    /* no trailing "\n" */

    while (text->len > 0 && text->data[text->len - 1] == '\n') {
        text->len--;
    }

    if (text->data != NULL) {
        text->data[text->len] = '\0';
    }

    if (dropped->data != NULL) {
        dropped->data[dropped->len] = '\0';
    }

    if (words > 0) {
        *conf = (int) (sum / words + 0.5f);
        *conf = *conf < 0 ? 0 : (*conf > 100 ? 100 : *conf);
    }

    return 0;
}


/*
 * A line is kept if Tesseract is fairly sure of it (the mean confidence
 * of its words is at least VW_OCR_MIN_LINE_CONF: textures and noise read
 * as text score 10-30, real text 60-97), or sure of one real word in it
 * (sure: a word of VW_OCR_SURE_LETTERS letters or more read at
 * VW_OCR_SURE_WORD or more), and it has a letter or a digit (any
 * non-ASCII character counts).  The word saves lines where a speck of
 * the background glued two words into one junk word: "Library
 * hours'extended", 93 and 5, a mean of 49, went whole.
 */
static int
vw_ocr_line_keep(const char *p, size_t n, float conf_sum, int words,
    int sure)
{
    if (words == 0
        || (conf_sum < (float) VW_OCR_MIN_LINE_CONF * words && !sure))
    {
        return 0;
    }

    return vw_ocr_letters(p, n) > 0;
}


/*
 * The letters and digits in p[0..n): ASCII ones, and a non-ASCII
 * character counts as one (its lead byte; not those of U+2000-U+2FFF,
 * punctuation and symbols).
 */
static int
vw_ocr_letters(const char *p, size_t n)
{
    int            letters;
    size_t         i;
    unsigned char  ch;

    letters = 0;

    for (i = 0; i < n; i++) {
        ch = (unsigned char) p[i];

        letters += (ch >= '0' && ch <= '9')
                   || ((ch | 0x20) >= 'a' && (ch | 0x20) <= 'z')
                   || (ch >= 0xc3 && ch < 0xf5 && ch != 0xe2);
    }

    return letters;
}


/* b (w = 0: empty) becomes the union of b and the box given */
static void
vw_ocr_box_add(vw_rect_t *b, int left, int top, int right, int bottom)
{
    vw_rect_t  w;

    if (right > left && bottom > top) {
        w = (vw_rect_t) { left, top, right - left, bottom - top };
        vw_box_union(b, &w);
    }
}


/*
 * The line that ends at text->len, begun at line_start: kept (1, added
 * to r->lines), or dropped (0, cut from text; added to r->dropped and
 * its text to dropped when it has a letter or digit).  -1 when out of
 * memory.
 */
static int
vw_ocr_line_end(vw_ocr_result_t *r, vo_buf_t *text, size_t line_start,
    vo_buf_t *dropped, const vw_rect_t *box, const vw_rect_t *letters,
    float conf_sum, int words, int sure)
{
    const char  *p;
    size_t       n;

    p = text->data + line_start;
    n = text->len - line_start;

    if (vw_ocr_line_keep(p, n, conf_sum, words, sure)) {
        return vw_ocr_line_add(&r->lines, &r->nlines, box, letters,
                               conf_sum, words);
    }

    if (words > 0 && vw_ocr_letters(p, n) > 0) {
        if (vw_ocr_line_add(&r->dropped, &r->ndropped, box, letters,
                            conf_sum, words)
            < 0)
        {
            return -1;
        }

        if (dropped->len > 0) {
            vo_buf_addc(dropped, '\n');
        }

        vo_buf_add(dropped, p, n);
    }

    text->len = line_start;

    return 0;
}


/* Appends a line (its boxes, the mean of its words' confidences) to
 * the n lines of *lines; 1, or -1 when out of memory. */
static int
vw_ocr_line_add(vw_ocr_line_t **lines, int *n, const vw_rect_t *box,
    const vw_rect_t *letters, float conf_sum, int words)
{
    int             c;
    vw_ocr_line_t  *l;

    if ((*n & (*n - 1)) == 0) {
        /* 0, 1, 2, 4, ...: the array is full */
        l = realloc(*lines, (size_t) (*n ? 2 * *n : 1)
                            * sizeof(vw_ocr_line_t));
        if (l == NULL) {
            return -1;
        }

        *lines = l;
    }

    c = (int) (conf_sum / (float) words + 0.5f);

    (*lines)[*n].box = *box;
    (*lines)[*n].letters = *letters;
    (*lines)[*n].confidence = c < 0 ? 0 : (c > 100 ? 100 : c);
    (*n)++;

    return 1;
}


/*
 * img itself when it is not a black and white picture or has no specks
 * (VW_OCR_SPECK_PART above, or components of extent speck or less);
 * else a copy without them, valid until the next call.  NULL when out
 * of memory.
 */
static const vw_image_t *
vw_ocr_despeckle(const vw_image_t *img, int speck)
{
    int             x, y, w, h, ext, limit, glyphs, half;
    size_t          n, i, specks;
    uint8_t        *pix;
    uint32_t        hist[VW_OCR_SPECK_MAX * VW_OCR_SPECK_PART + 1];
    const uint8_t  *row;

    w = img->width;
    h = img->height;
    n = (size_t) w * (size_t) h;

    for (y = 0; y < h; y++) {
        row = img->data + (size_t) y * (size_t) img->stride;

        for (x = 0; x < w; x++) {
            if (row[x] != 0 && row[x] != 255) {
                return img;
            }
        }
    }

    if (n > vw_ocr_work_cap) {
        free(vw_ocr_clean.data);
        free(vw_ocr_seen);
        vw_ocr_clean.data = malloc(n);
        vw_ocr_seen = malloc(n);
        vw_ocr_work_cap = vw_ocr_clean.data && vw_ocr_seen ? n : 0;

        if (vw_ocr_work_cap == 0) {
            return NULL;
        }
    }

    pix = vw_ocr_clean.data;

    for (y = 0; y < h; y++) {
        memcpy(pix + (size_t) y * (size_t) w,
               img->data + (size_t) y * (size_t) img->stride, (size_t) w);
    }

    /* the extents of the black components: the median glyph's */

    memset(vw_ocr_seen, 0, n);
    memset(hist, 0, sizeof(hist));
    specks = 0;
    glyphs = 0;

    for (i = 0; i < n; i++) {
        if (pix[i] != 0 || vw_ocr_seen[i]) {
            continue;
        }

        ext = vw_ocr_fill(pix, w, h, i, 0, 0);
        if (ext < 0) {
            return NULL;
        }

        if (ext >= VW_OCR_GLYPH_MIN) {
            glyphs++;
            ext = ext < VW_OCR_SPECK_MAX * VW_OCR_SPECK_PART
                  ? ext : VW_OCR_SPECK_MAX * VW_OCR_SPECK_PART;
            hist[ext]++;

        } else {
            specks++;
        }
    }

    if (speck == 0 && (glyphs == 0 || specks == 0)) {
        return img;
    }

    limit = 0;

    if (glyphs > 0) {
        half = 0;
        for (ext = 0; ext <= VW_OCR_SPECK_MAX * VW_OCR_SPECK_PART; ext++) {
            half += (int) hist[ext];
            if (2 * half >= glyphs) {
                break;
            }
        }

        limit = ext / VW_OCR_SPECK_PART;
    }

    limit = limit > speck ? limit : speck;

    if (limit < 1) {
        return img;
    }

    /* again, erasing the components no larger than limit */

    memset(vw_ocr_seen, 0, n);

    for (i = 0; i < n; i++) {
        if (pix[i] == 0 && !vw_ocr_seen[i]
            && vw_ocr_fill(pix, w, h, i, limit, 1) < 0)
        {
            return NULL;
        }
    }

    vw_ocr_clean.width = w;
    vw_ocr_clean.height = h;
    vw_ocr_clean.stride = w;

    return &vw_ocr_clean;
}


/*
 * Marks the black 8-connected component of pix at seed as seen and
 * returns its extent (the larger of its width and height), -1 when out
 * of memory.  erase: when the extent is at most limit, the component is
 * made white.
 */
static int
vw_ocr_fill(uint8_t *pix, int w, int h, size_t seed, int limit,
    uint8_t erase)
{
    int        x, y, dx, dy, x0, x1, y0, y1, nx, ny;
    size_t     top, k, all, j;
    uint32_t  *grown;

    top = 0;
    all = 0;
    x0 = x1 = (int) (seed % (size_t) w);
    y0 = y1 = (int) (seed / (size_t) w);

    /* a queue that keeps what it served: each pixel is pushed once, so
     * the whole component is vw_ocr_stack[0..all) when the fill ends */

    if (vw_ocr_stack_cap == 0) {
        vw_ocr_stack = malloc(4096 * sizeof(uint32_t));
        if (vw_ocr_stack == NULL) {
            return -1;
        }
        vw_ocr_stack_cap = 4096;
    }

    vw_ocr_seen[seed] = 1;
    vw_ocr_stack[all++] = (uint32_t) seed;

    while (top < all) {
        k = vw_ocr_stack[top++];
        x = (int) (k % (size_t) w);
        y = (int) (k / (size_t) w);

        x0 = x < x0 ? x : x0;
        x1 = x > x1 ? x : x1;
        y0 = y < y0 ? y : y0;
        y1 = y > y1 ? y : y1;

        for (dy = -1; dy <= 1; dy++) {
            for (dx = -1; dx <= 1; dx++) {
                nx = x + dx;
                ny = y + dy;

                if (nx < 0 || ny < 0 || nx >= w || ny >= h) {
                    continue;
                }

                j = (size_t) ny * (size_t) w + (size_t) nx;

                if (pix[j] != 0 || vw_ocr_seen[j]) {
                    continue;
                }

                if (all == vw_ocr_stack_cap) {
                    grown = realloc(vw_ocr_stack,
                                    2 * vw_ocr_stack_cap * sizeof(uint32_t));
                    if (grown == NULL) {
                        return -1;
                    }
                    vw_ocr_stack = grown;
                    vw_ocr_stack_cap *= 2;
                }

                vw_ocr_seen[j] = 1;
                vw_ocr_stack[all++] = (uint32_t) j;
            }
        }
    }

    x = x1 - x0 + 1;
    y = y1 - y0 + 1;
    x = x > y ? x : y;

    if (erase && x <= limit) {
        for (k = 0; k < all; k++) {
            pix[vw_ocr_stack[k]] = 255;
        }
    }

    return x;
}


const char *
vw_ocr_datapath(void)
{
    const char  *p;

    p = getenv("TESSDATA_PREFIX");

    return p != NULL && *p != '\0' ? p : VW_TESSDATA_DEFAULT;
}


/* Every part of "eng+deu" must have its traineddata file. */
static int
vw_ocr_check_lang(const char *lang, const char *name, vw_err_t *err)
{
    int             i, n;
    char            path[1024], part[VO_LANG_MAX + 1], have[200];
    char            langs[32][VO_LANG_MAX + 1];
    size_t          len, plen;
    const char     *p, *q;

    for (p = lang; *p != '\0'; p = *q ? q + 1 : q) {
        q = strchr(p, '+');
        if (q == NULL) {
            q = p + strlen(p);
        }

        plen = (size_t) (q - p);
        memcpy(part, p, plen);
        part[plen] = '\0';

        snprintf(path, sizeof(path), "%s/%s.traineddata", vw_ocr_datapath(),
                 part);

        if (access(path, R_OK) == 0) {
            continue;
        }

        /* list what is installed, for a message the user can act on */

        n = vw_ocr_languages(langs, 32);

        len = 0;
        have[0] = '\0';

        for (i = 0; i < n && len + strlen(langs[i]) + 3 < sizeof(have); i++) {
            len += (size_t) snprintf(have + len, sizeof(have) - len, "%s%s",
                                     i ? ", " : "", langs[i]);
        }

        return vw_reject(err, "unknown_language", "ocr \"%s\": language "
                         "\"%s\" is not installed (installed: %s); use lang "
                         "with installed Tesseract languages, e.g. "
                         "lang=eng", name, part, len ? have : "none");
    }

    return 0;
}


int
vw_ocr_languages(char (*langs)[VO_LANG_MAX + 1], int max)
{
    int             n;
    DIR            *dir;
    const char     *dot;
    struct dirent  *de;

    n = 0;
    dir = opendir(vw_ocr_datapath());

    while (dir != NULL && n < max && (de = readdir(dir)) != NULL) {
        dot = strstr(de->d_name, ".traineddata");
        if (dot == NULL || dot[12] != '\0' || dot == de->d_name
            || (size_t) (dot - de->d_name) > VO_LANG_MAX
            || strcmp(de->d_name, "osd.traineddata") == 0)
        {
            continue;
        }

        memcpy(langs[n], de->d_name, (size_t) (dot - de->d_name));
        langs[n++][dot - de->d_name] = '\0';
    }

    if (dir != NULL) {
        closedir(dir);
    }

    qsort(langs, (size_t) n, sizeof(langs[0]), vw_ocr_strcmp);

    return n;
}


int
vw_ocr_languages_json(char *buf, size_t size)
{
    int          i, n, shown;
    char         langs[128][VO_LANG_MAX + 1];
    size_t       len;
    const char  *c;

    n = vw_ocr_languages(langs, 128);
    shown = 0;
    len = (size_t) snprintf(buf, size, "{\"languages\":[");

    for (i = 0; i < n && len < size; i++) {
        for (c = langs[i]; *c != '\0'; c++) {
            if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9')
                  || *c == '_'))
            {
                break;
            }
        }

        if (*c != '\0') {
            /* a file name lang= could not name anyway */
            continue;
        }

        len += (size_t) snprintf(buf + len, size - len, "%s\"%s\"",
                                 shown++ ? "," : "", langs[i]);
    }

    if (len < size) {
        len += (size_t) snprintf(buf + len, size - len, "]}\n");
    }

    return len < size ? 0 : -1;
}


int
vw_ocr_languages_publish(const char *dir)
{
    int     fd, ok;
    char    json[128 * (VO_LANG_MAX + 4) + 32], tmp[4096], path[4096];
    size_t  len;

    if (vw_ocr_languages_json(json, sizeof(json)) != 0
        || (size_t) snprintf(path, sizeof(path), "%s/languages.json", dir)
           >= sizeof(path)
        || (size_t) snprintf(tmp, sizeof(tmp), "%s/.languages.json.%ld",
                             dir, (long) getpid()) >= sizeof(tmp))
    {
        return -1;
    }

    fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd == -1) {
        return -1;
    }

    len = strlen(json);
    ok = write(fd, json, len) == (ssize_t) len;
    ok = close(fd) == 0 && ok;

    /* a reader sees the old list or the new one, never half of one */
    if (!ok || rename(tmp, path) != 0) {
        (void) unlink(tmp);
        return -1;
    }

    return 0;
}


static int
vw_ocr_strcmp(const void *a, const void *b)
{
    return strcmp((const char *) a, (const char *) b);
}
