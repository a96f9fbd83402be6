/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * lang "auto" (see vw_ocr.h): each picture is read with the installed
 * languages of the script Tesseract's orientation and script detection
 * finds in it, and a line of another script read again with that
 * script's languages (a bilingual caption, Chinese over English).
 *
 * A script's languages (vw_ocr_scripts): Latin is read with eng (and
 * the installed ones of spa, fra, deu, por, ita, at most
 * VW_OCR_AUTO_LATIN in all: 1, see vw_ocr_int.h);
 * Han with chi_sim (else chi_tra), Japanese (or kana) with jpn, Hangul
 * with kor, Cyrillic with rus (else ukr, bel), Greek ell, Arabic ara,
 * Hebrew heb, Devanagari hin, Thai tha; eng is added to each of those
 * for the Latin words among them.  A detection that is unsure (too few
 * glyphs, a confidence below VW_OCR_AUTO_SURE), or names a script with
 * none of its languages installed, changes nothing: the picture keeps
 * the job's languages (eng until the job changes them).
 *
 * The engines are those of vw_ocr_engine, one per language string,
 * loaded on first use and kept: a job of one script loads one.
 */

#include <stdio.h>
#include <string.h>

#include "core/vw_utf8.h"
#include "vw_ocr_int.h"


/* what a reading of Japanese or Korean has that one of Chinese has not */
#define VW_OCR_OWN_NONE    0
#define VW_OCR_OWN_KANA    1
#define VW_OCR_OWN_HANGUL  2

/* a script as Tesseract's OSD names it, the languages that read it in
 * the order of preference (spaces between), how many of them to use,
 * the characters of its own (VW_OCR_OWN_*) */
typedef struct {
    const char  *script;
    const char  *langs;
    int          max;
    int          own;
} vw_ocr_script_t;


static const vw_ocr_script_t  vw_ocr_scripts[] = {
    { "Latin",      "eng spa fra deu por ita", VW_OCR_AUTO_LATIN, 0 },
    { "Han",        "chi_sim chi_tra", 1, 0 },
    { "Japanese",   "jpn", 1, VW_OCR_OWN_KANA },
    { "Hiragana",   "jpn", 1, VW_OCR_OWN_KANA },
    { "Katakana",   "jpn", 1, VW_OCR_OWN_KANA },
    { "Hangul",     "kor", 1, VW_OCR_OWN_HANGUL },
    { "Korean",     "kor", 1, VW_OCR_OWN_HANGUL },
    { "Cyrillic",   "rus ukr bel", 1, 0 },
    { "Greek",      "ell", 1, 0 },
    { "Arabic",     "ara", 1, 0 },
    { "Hebrew",     "heb", 1, 0 },
    { "Devanagari", "hin", 1, 0 },
    { "Thai",       "tha", 1, 0 }
};

#define VW_OCR_NSCRIPTS                                                      \
    (int) (sizeof(vw_ocr_scripts) / sizeof(vw_ocr_scripts[0]))


/* each script's language string, made on first use ("": none
 * installed) */
static char  vw_ocr_sets[VW_OCR_NSCRIPTS][VO_LANG_MAX + 1];
static int   vw_ocr_sets_made[VW_OCR_NSCRIPTS];

/* the script whose languages read the job's pictures first (an index
 * of vw_ocr_scripts; -1: eng alone) */
static int   vw_ocr_auto_cur = -1;

/* how many times the detection named the script of the job's
 * languages (VW_OCR_AUTO_CONFIRM: known, as when a reading with another
 * script's languages was better) */
static int   vw_ocr_auto_known;

/* the confidences the detection gave each script's languages in the
 * job (at the first script of the same languages) */
static float  vw_ocr_auto_tally[VW_OCR_NSCRIPTS];

/* the size of the last picture whose script detection changed nothing:
 * the same screen read again (binarised, in grey, as one block, another
 * look) is not detected again */
static int   vw_ocr_auto_w;
static int   vw_ocr_auto_h;


static int vw_ocr_auto_script(const vw_image_t *img, vw_err_t *err);
static const char *vw_ocr_auto_set(int s);
static int vw_ocr_auto_try(int t, int merge, const vw_image_t *img,
    const vw_ocr_how_t *how, int timeout_ms, int64_t start, vw_poll_pt poll,
    void *poll_data, vw_ocr_result_t *r, vw_err_t *err);
static int vw_ocr_auto_read(int s, const vw_image_t *img,
    const vw_ocr_how_t *how, int timeout_ms, vw_poll_pt poll,
    void *poll_data, vw_ocr_result_t *r, vw_err_t *err);
static int vw_ocr_auto_other(int s, const vw_image_t *img,
    const vw_ocr_result_t *r);
static int vw_ocr_auto_find(const char *script);
static int vw_ocr_auto_first(int s);
static float vw_ocr_auto_tally_of(int s);
static long vw_ocr_auto_score(const vw_ocr_result_t *r);
static int vw_ocr_auto_own(const char *text, int own);


int
vw_ocr_auto_begin(const char *name, vw_err_t *err)
{
    /* what a job begins with, and an unsure picture of a script with no
     * language installed is read with */
    if (vw_ocr_check_lang("eng", name, err) != 0) {
        return -1;
    }

    vw_ocr_auto_cur = vw_ocr_auto_find("Latin");
    vw_ocr_auto_known = 0;
    memset(vw_ocr_auto_tally, 0, sizeof(vw_ocr_auto_tally));
    vw_ocr_auto_w = 0;
    vw_ocr_auto_h = 0;

    return 0;
}


/*
 * The picture read with the job's current languages (the Latin ones
 * first).  The reading is final when it timed out, has fewer than
 * VW_OCR_AUTO_LETTERS letters (kept and dropped), is sure (lines kept,
 * none dropped, a confidence of VW_OCR_AUTO_KEEP or more) once the
 * job's script is known (VW_OCR_AUTO_CONFIRM), or is of the same
 * screen as the last picture detected to no effect (its size).  Else
 * the picture's script is detected: when its languages are others, the
 * picture is read with them, that reading replaces the first if it
 * says more surely (vw_ocr_auto_try), and its languages become the
 * job's if it did or, while the job reads with the Latin languages, if
 * the job's detections now favour them by VW_OCR_AUTO_LEAD. Last, when lines
 * were dropped as unsure and the first of them that the script detection is
 * sure of is of a script with other languages, the picture is read with those
 * and the two readings combined line by line (vw_ocr_result_merge: each line
 * from the better, the lines only one has added): a bilingual caption.
 * timeout_ms covers them all.
 */
int
vw_ocr_auto_image(const vw_image_t *img, const vw_ocr_how_t *how,
    int timeout_ms, vw_poll_pt poll, void *poll_data, vw_ocr_result_t *r,
    vw_err_t *err)
{
    int      s, t, changed;
    int64_t  start;

    start = vw_now_ms();
    s = vw_ocr_auto_cur;

    if (vw_ocr_auto_read(s, img, how, timeout_ms, poll, poll_data, r, err)
        != 0)
    {
        return -1;
    }

    if (r->timed_out
        || vw_ocr_letters(r->text, strlen(r->text))
           + (r->dropped_text != NULL
              ? vw_ocr_letters(r->dropped_text, strlen(r->dropped_text)) : 0)
           < VW_OCR_AUTO_LETTERS
        || (vw_ocr_auto_known >= VW_OCR_AUTO_CONFIRM && r->nlines > 0
            && r->ndropped == 0 && r->confidence >= VW_OCR_AUTO_KEEP)
        || (img->width == vw_ocr_auto_w && img->height == vw_ocr_auto_h))
    {
        goto done;
    }

    changed = 0;

    t = vw_ocr_auto_script(img, err);

    if (t == -2) {
        vw_ocr_result_free(r);
        return -1;
    }

    if (t >= 0 && strcmp(vw_ocr_auto_set(t), vw_ocr_auto_set(s)) == 0) {
        vw_ocr_auto_known++;

    } else if (t >= 0) {
        changed = vw_ocr_auto_try(t, 0, img, how, timeout_ms, start, poll,
                                  poll_data, r, err);
        if (changed < 0) {
            return -1;
        }

        /* the tally takes a job from the Latin languages, never back
         * to them: every other script's are read with eng too, and a
         * bilingual video's detections name Latin more often */
        if (changed
            || (s == vw_ocr_auto_find("Latin")
                && vw_ocr_auto_tally_of(t)
                   >= vw_ocr_auto_tally_of(s) + VW_OCR_AUTO_LEAD))
        {
            vw_ocr_auto_cur = t;
            vw_ocr_auto_known = VW_OCR_AUTO_CONFIRM;
            s = t;
        }
    }

    t = r->ndropped > 0 && !r->timed_out ? vw_ocr_auto_other(s, img, r) : -1;

    if (t >= 0) {
        switch (vw_ocr_auto_try(t, 1, img, how, timeout_ms, start, poll,
                                poll_data, r, err))
        {
        case -1:
            return -1;
        case 1:
            changed = 1;
        }
    }

    vw_ocr_auto_w = changed ? 0 : img->width;
    vw_ocr_auto_h = changed ? 0 : img->height;

done:

    r->ms = vw_now_ms() - start;

    return 0;
}


/*
 * img read again with script t's languages, what is left of timeout_ms
 * from start.  merge 0: the reading replaces *r when it says more
 * surely by VW_OCR_AUTO_GAIN (vw_ocr_auto_score).  merge 1: the two
 * are combined line by line (vw_ocr_result_merge, without its vote;
 * the new reading alone, as for merge 0, when *r kept none); and when
 * the new reading alone keeps every line of the two and says more
 * surely, t's languages become the job's.  1 when *r changed, 0 when
 * not, -1 on error (*r freed).
 */
static int
vw_ocr_auto_try(int t, int merge, const vw_image_t *img,
    const vw_ocr_how_t *how, int timeout_ms, int64_t start, vw_poll_pt poll,
    void *poll_data, vw_ocr_result_t *r, vw_err_t *err)
{
    int              rc, left;
    vw_ocr_result_t  other, both, a, b;

    left = 0;

    if (timeout_ms > 0) {
        left = timeout_ms - (int) (vw_now_ms() - start);
        if (left <= 0) {
            return 0;
        }
    }

    if (vw_ocr_auto_read(t, img, how, left, poll, poll_data, &other, err)
        != 0)
    {
        vw_ocr_result_free(r);
        return -1;
    }

    if (!merge || r->nlines == 0) {
        rc = vw_ocr_auto_score(&other)
             > vw_ocr_auto_score(r) + VW_OCR_AUTO_GAIN;

        if (rc) {
            vw_ocr_result_free(r);
            *r = other;

        } else {
            vw_ocr_result_free(&other);
        }

        return rc;
    }

    /* no vote: two languages read a line of a third script alike, as
     * the same junk */
    a = *r;
    b = other;
    a.ndropped = 0;
    b.ndropped = 0;

    rc = vw_ocr_result_merge(&a, &b, 0, &both);

    if (rc < 0) {
        vw_ocr_result_free(&other);
        vw_ocr_result_free(r);
        return vw_fail(err, "no_memory", "ocr: out of memory");
    }

    if (rc == 1) {
        /* t's languages alone read every line, better: the job's */
        if (other.nlines >= both.nlines
            && vw_ocr_auto_score(&other)
               > vw_ocr_auto_score(r) + VW_OCR_AUTO_GAIN)
        {
            vw_ocr_auto_cur = t;
            vw_ocr_auto_known = VW_OCR_AUTO_CONFIRM;
        }

        vw_ocr_result_free(r);
        *r = both;
    }

    vw_ocr_result_free(&other);

    return rc;
}


/*
 * The script of img: an index of vw_ocr_scripts with installed
 * languages, its confidence added to the job's tally; -1 when the
 * detection is unsure (too few glyphs, a confidence below
 * VW_OCR_AUTO_SURE) or the script has none, -2 when out of memory.
 */
static int
vw_ocr_auto_script(const vw_image_t *img, vw_err_t *err)
{
    int          i, rc;
    float        conf;
    const char  *script;

    rc = vw_osd_script(img, &script, &conf, err);
    if (rc < 0) {
        return -2;
    }

    if (rc != 0 || conf < VW_OCR_AUTO_SURE) {
        return -1;
    }

    i = vw_ocr_auto_find(script);

    if (i >= 0) {
        vw_ocr_auto_tally[vw_ocr_auto_first(i)] += conf;
    }

    return i;
}


/* The first script of vw_ocr_scripts read with the languages of s. */
static int
vw_ocr_auto_first(int s)
{
    int  i;

    for (i = 0; i < s; i++) {
        if (strcmp(vw_ocr_auto_set(i), vw_ocr_auto_set(s)) == 0) {
            break;
        }
    }

    return i;
}


/* What the detection gave script s's languages in the job (-1: 0). */
static float
vw_ocr_auto_tally_of(int s)
{
    return s >= 0 ? vw_ocr_auto_tally[vw_ocr_auto_first(s)] : 0;
}


/*
 * Script t (an index as vw_ocr_auto_script gives) of the first line of
 * r dropped as unsure whose own detection is sure of it, when t's
 * languages are not s's; -1 when none is.  The line is looked at with a
 * margin of half its height, inside img.
 */
static int
vw_ocr_auto_other(int s, const vw_image_t *img, const vw_ocr_result_t *r)
{
    int          i, j, m, rc;
    float        conf;
    vw_err_t     err;
    vw_rect_t    whole, b;
    vw_image_t   view;
    const char  *script;

    whole = (vw_rect_t) { 0, 0, img->width, img->height };

    for (i = 0; i < r->ndropped && i < VW_OCR_AUTO_LINES; i++) {
        b = r->dropped[i].box;
        m = b.h / 2;

        b.x = b.x - m > 0 ? b.x - m : 0;
        b.y = b.y - m > 0 ? b.y - m : 0;
        b.w = b.x + b.w + 2 * m < img->width ? b.w + 2 * m : img->width - b.x;
        b.h = b.y + b.h + 2 * m < img->height ? b.h + 2 * m
                                              : img->height - b.y;

        if (b.w <= 0 || b.h <= 0) {
            continue;
        }

        vw_image_view(img, &whole, &b, &view);

        rc = vw_osd_script(&view, &script, &conf, &err);
        if (rc != 0 || conf < VW_OCR_AUTO_SURE) {
            continue;
        }

        j = vw_ocr_auto_find(script);

        if (j >= 0 && strcmp(vw_ocr_auto_set(j),
                      s >= 0 ? vw_ocr_auto_set(s) : "eng") != 0)
        {
            return j;
        }
    }

    return -1;
}


/*
 * How much a reading says surely: over its lines, the letters of each
 * times how far its confidence is above the bound a line needs
 * (VW_OCR_MIN_LINE_CONF; a line kept under it counts against).  A
 * caption of Cyrillic read with the Latin languages ("Bonpoc 37 u3
 * 150" at 85, and "NN" from the background) says less than read with
 * rus ("Вопрос 37 из 150" at 95), though it has a line more.
 */
static long
vw_ocr_auto_score(const vw_ocr_result_t *r)
{
    int          i;
    long         score;
    const char  *p, *q;

    score = 0;
    p = r->text;

    for (i = 0; i < r->nlines && p != NULL; i++) {
        q = strchr(p, '\n');
        if (q == NULL) {
            q = p + strlen(p);
        }

        score += (long) vw_ocr_letters(p, (size_t) (q - p))
                 * (r->lines[i].confidence - VW_OCR_MIN_LINE_CONF);

        p = *q != '\0' ? q + 1 : NULL;
    }

    return score;
}


/* The index of the script Tesseract calls script, when it has
 * languages installed; -1 when not. */
static int
vw_ocr_auto_find(const char *script)
{
    int  i;

    for (i = 0; i < VW_OCR_NSCRIPTS; i++) {
        if (strcmp(script, vw_ocr_scripts[i].script) == 0) {
            return vw_ocr_auto_set(i)[0] != '\0' ? i : -1;
        }
    }

    return -1;
}


/*
 * img read with script s's languages (-1: eng).  A picture detected as
 * Japanese (or kana) whose reading has no kana, or as Korean (Hangul)
 * whose reading has no Hangul, is read again with Han's languages, and
 * the reading that says more surely kept (vw_ocr_auto_score): the
 * detection calls a line of Chinese Japanese about as often as Han, and
 * Korean now and then; jpn reads it with Japanese forms of its
 * characters (天気 for 天气) or drops it, kor drops it.
 */
static int
vw_ocr_auto_read(int s, const vw_image_t *img, const vw_ocr_how_t *how,
    int timeout_ms, vw_poll_pt poll, void *poll_data, vw_ocr_result_t *r,
    vw_err_t *err)
{
    int              h;
    int64_t          start;
    vw_engine_t     *e;
    vw_ocr_result_t  other;

    start = vw_now_ms();

    if (vw_ocr_engine(vw_ocr_auto_set(s), "auto", &e, err)
        != 0
        || vw_ocr_image(e, img, how, timeout_ms, poll, poll_data, r, err)
           != 0)
    {
        return -1;
    }

    h = vw_ocr_auto_find("Han");

    if (s < 0 || h < 0 || vw_ocr_scripts[s].own == VW_OCR_OWN_NONE
        || r->timed_out || vw_ocr_auto_own(r->text, vw_ocr_scripts[s].own))
    {
        return 0;
    }

    if (timeout_ms > 0) {
        timeout_ms -= (int) (vw_now_ms() - start);
        if (timeout_ms <= 0) {
            return 0;
        }
    }

    if (vw_ocr_engine(vw_ocr_auto_set(h), "auto", &e, err) != 0
        || vw_ocr_image(e, img, how, timeout_ms, poll, poll_data, &other,
                        err)
           != 0)
    {
        vw_ocr_result_free(r);
        return -1;
    }

    if (vw_ocr_auto_score(&other) > vw_ocr_auto_score(r)) {
        other.ms += r->ms;
        vw_ocr_result_free(r);
        *r = other;

    } else {
        r->ms += other.ms;
        vw_ocr_result_free(&other);
    }

    return 0;
}


/* 1 when text has a character of own (VW_OCR_OWN_KANA: hiragana,
 * katakana; VW_OCR_OWN_HANGUL: syllables, jamo), 0 when not */
static int
vw_ocr_auto_own(const char *text, int own)
{
    size_t    i, n, len;
    uint32_t  cp;

    len = strlen(text);

    for (i = 0; i < len; i += n) {
        n = vw_utf8_decode((const unsigned char *) text + i, len - i, &cp);

        if (own == VW_OCR_OWN_KANA ? cp >= 0x3040 && cp <= 0x30ff
                                   : (cp >= 0xac00 && cp <= 0xd7a3)
                                     || (cp >= 0x1100 && cp <= 0x11ff)
                                     || (cp >= 0x3130 && cp <= 0x318f))
        {
            return 1;
        }
    }

    return 0;
}


/*
 * Script s's language string: the first of its languages installed, up
 * to its max, eng added when it is not one of them; "" when none is
 * installed; "eng" for s -1.
 */
static const char *
vw_ocr_auto_set(int s)
{
    int          n;
    char        *set;
    size_t       len, at;
    const char  *p, *q;

    if (s < 0) {
        return "eng";
    }

    set = vw_ocr_sets[s];

    if (vw_ocr_sets_made[s]) {
        return set;
    }

    vw_ocr_sets_made[s] = 1;
    set[0] = '\0';
    at = 0;
    n = 0;

    for (p = vw_ocr_scripts[s].langs; *p != '\0' && n < vw_ocr_scripts[s].max;
         p = *q ? q + 1 : q)
    {
        q = strchr(p, ' ');
        if (q == NULL) {
            q = p + strlen(p);
        }

        len = (size_t) (q - p);

        if (vw_ocr_installed(p, len) && at + len + 1 < sizeof(vw_ocr_sets[0]))
        {
            at += (size_t) snprintf(set + at, sizeof(vw_ocr_sets[0]) - at,
                                    "%s%.*s", n ? "+" : "", (int) len, p);
            n++;
        }
    }

    if (n > 0 && strncmp(vw_ocr_scripts[s].langs, "eng ", 4) != 0
        && vw_ocr_installed("eng", 3) && at + 4 < sizeof(vw_ocr_sets[0]))
    {
        (void) snprintf(set + at, sizeof(vw_ocr_sets[0]) - at, "+eng");
    }

    return set;
}

