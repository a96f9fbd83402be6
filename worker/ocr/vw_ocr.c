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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <leptonica/allheaders.h>
#include <tesseract/capi.h>

#include "vo_edge.h"
#include "core/vw_geom.h"
#include "core/vw_stage.h"
#include "vw_ocr_int.h"
#include "vw_script.h"


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


const vw_ocr_how_t  vw_ocr_plain = { VW_OCR_LAYOUT_AUTO, 0 };

/* lang "auto": no Tesseract engine of its own (vw_ocr_auto.c) */
static vw_engine_t  vw_engine_auto = { "auto", NULL, 0 };

static vw_engine_t  vw_engines[VW_OCR_ENGINES_MAX];
static int          vw_nengines;
static uint64_t     vw_engine_clock;


static bool vw_ocr_cancel(void *data, int words);
static PIX *vw_ocr_bits(const vw_image_t *img);
static int vw_ocr_collect(TessBaseAPI *api, vo_buf_t *text,
    vo_buf_t *dropped, int *conf, vw_ocr_result_t *r);
static int vw_ocr_line_keep(const char *p, size_t n, float conf_sum,
    int words, int sure);
static void vw_ocr_box_add(vw_rect_t *b, int left, int top, int right,
    int bottom);
static int vw_ocr_line_end(vw_ocr_result_t *r, vo_buf_t *text,
    size_t line_start, vo_buf_t *dropped, const vw_rect_t *box,
    const vw_rect_t *letters, float conf_sum, int words, int sure);
static int vw_ocr_line_add(vw_ocr_line_t **lines, int *n,
    const vw_rect_t *box, const vw_rect_t *letters, float conf_sum,
    int words);


int
vw_ocr_engine(const char *lang, const char *name, vw_engine_t **ep,
    vw_err_t *err)
{
    int           i, victim, rc;
    char         *names[1], *values[1];
    TessBaseAPI  *api;
    vw_engine_t  *e;

    if (strcmp(lang, "auto") == 0) {
        *ep = &vw_engine_auto;
        return vw_ocr_auto_begin(name, err);
    }

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

    vw_despeckle_free();
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
    PIX             *bits;
    vw_stage_t       stage;
    vw_ocr_watch_t   watch;

    stage = vw_stage_enter(VW_STAGE_OCR);

    if (e == &vw_engine_auto) {
        /* the detection and the readings it asks for count as OCR */
        ret = vw_ocr_auto_image(img, how, timeout_ms, poll, poll_data, r,
                                err);
        (void) vw_stage_enter(stage);
        return ret;
    }

    ret = -1;
    vo_buf_init(&text);
    vo_buf_init(&dropped);
    monitor = NULL;
    bits = NULL;

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

    img = vw_despeckle(img, how->speck);
    if (img == NULL) {
        vw_fail(err, "no_memory", "ocr: out of memory");
        goto done;
    }

    TessBaseAPISetPageSegMode(e->api,
                              how->layout == VW_OCR_LAYOUT_BLOCK
                              ? PSM_SINGLE_BLOCK
                              : how->layout == VW_OCR_LAYOUT_LINE
                              ? PSM_SINGLE_LINE : PSM_AUTO);

    /*
     * A binarised picture (ink black on white, vw_prep.c) is handed over
     * as one bit per pixel: Tesseract then neither histograms nor
     * thresholds it again, and reads the same pixels.
     */

    bits = vw_ocr_bits(img);

    if (bits != NULL) {
        TessBaseAPISetImage2(e->api, bits);

    } else {
        TessBaseAPISetImage(e->api, img->data, img->width, img->height, 1,
                            img->stride);
    }
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

    if (bits != NULL) {
        pixDestroy(&bits);
    }

    r->ms = vw_now_ms() - start;
    (void) vw_stage_enter(stage);

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


int
vw_ocr_result_copy(vw_ocr_result_t *to, const vw_ocr_result_t *from)
{
    size_t  n;

    *to = *from;
    to->text = NULL;
    to->lines = NULL;
    to->dropped = NULL;
    to->dropped_text = NULL;

    to->text = strdup(from->text != NULL ? from->text : "");

    if (from->nlines > 0) {
        n = (size_t) from->nlines * sizeof(vw_ocr_line_t);
        to->lines = malloc(n);

        if (to->lines != NULL) {
            memcpy(to->lines, from->lines, n);
        }
    }

    if (from->ndropped > 0) {
        n = (size_t) from->ndropped * sizeof(vw_ocr_line_t);
        to->dropped = malloc(n);

        if (to->dropped != NULL) {
            memcpy(to->dropped, from->dropped, n);
        }
    }

    if (from->dropped_text != NULL) {
        to->dropped_text = strdup(from->dropped_text);
    }

    if (to->text == NULL || (from->nlines > 0 && to->lines == NULL)
        || (from->ndropped > 0 && to->dropped == NULL)
        || (from->dropped_text != NULL && to->dropped_text == NULL))
    {
        vw_ocr_result_free(to);
        return -1;
    }

    return 0;
}


/*
 * img as a 1 bpp picture when each of its pixels is 0 or 255 (black,
 * ink, is 1); NULL when it is grey, or when out of memory (it is then
 * handed over as it is).
 */
static PIX *
vw_ocr_bits(const vw_image_t *img)
{
    int              x, y, wpl;
    PIX             *pix;
    l_uint32        *line;
    const uint8_t   *row;

    for (y = 0; y < img->height; y++) {
        row = img->data + (size_t) y * img->stride;

        for (x = 0; x < img->width; x++) {
            if ((uint8_t) (row[x] + 1) > 1) {
                return NULL;
            }
        }
    }

    pix = pixCreate(img->width, img->height, 1);
    if (pix == NULL) {
        return NULL;
    }

    wpl = pixGetWpl(pix);

    for (y = 0; y < img->height; y++) {
        row = img->data + (size_t) y * img->stride;
        line = pixGetData(pix) + (size_t) y * wpl;

        for (x = 0; x < img->width; x++) {
            if (row[x] == 0) {
                SET_DATA_BIT(line, x);
            }
        }
    }

    return pix;
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
int
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
