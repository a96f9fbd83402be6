/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The pipeline room's own header (its contract is vw_pipeline.h): its
 * thresholds, the state of a run, shared by the room's files, and what
 * each of them offers the others.  Nothing outside pipeline/ includes
 * it.
 */

#ifndef _VW_PIPELINE_INT_H_INCLUDED_
#define _VW_PIPELINE_INT_H_INCLUDED_


#include "image/vw_frame.h"
#include "image/vw_orient.h"
#include "image/vw_prep.h"
#include "image/vw_stack.h"
#include "image/vw_text.h"
#include "media/vw_media.h"
#include "ocr/vw_ocr.h"
#include "vw_pipeline.h"


/*
 * The pipeline's thresholds, each with its unit.  Confidences are
 * Tesseract's, 0 to 100; glyphs, lines and components are the text
 * layer's (image/vw_text.h).  Where a value was measured, the function
 * that uses it says on what (the benchmark's sets: docs/benchmarks.md).
 */

/* confidence: a binarised reading less sure than this is read in grey
 * too, the surer kept (coloured text; vw_reading_ocr); a turned reading
 * must reach it for the turn to be taken (vw_turn.c) */
#define VW_OCR_ACCEPT       85

/* glyphs: a look with this many where there was no text is text, even
 * if the next look has none again (vw_screen_state); a screen of this
 * many that reads as nothing is read again and may be turned
 * (vw_read_unread), and one of fewer is flagged unreadable only if its
 * line stayed (below) */
#define VW_SURE_GLYPHS      10

/* glyphs: a line of this many where the reference has none is a change,
 * however few blocks it covers (vw_look_new_line) */
#define VW_NEW_LINE_GLYPHS  4

/* a look after a held one grew out of it (vw_look_grew) when each line
 * of the held look that the reference has not has VW_GREW_PERCENT % of
 * its ink within VW_GREW_NEAR pixels of the look's ink: where it was,
 * or where a line of the look within 1/VW_GREW_SIZE of its width and
 * height is; or when the picture under the line is found again, within
 * VW_GREW_LEVELS grey levels on average over VW_GREW_SAMPLES points,
 * up to VW_GREW_REACH pixels away (and two glyph heights) */
#define VW_GREW_NEAR        1
#define VW_GREW_PERCENT     75
#define VW_GREW_REACH       32
#define VW_GREW_LEVELS      12
#define VW_GREW_SAMPLES     256
#define VW_GREW_SIZE        3

/* lines: a held look with more lines of its own than this (none grown
 * into the look after it) is noise, and the look after stands in
 * (vw_look_grew) */
#define VW_GREW_OWN_LINES   2

/* percent: a line of a held look with this much of its ink the
 * reference's or the next look's shows both, at a cut (vw_look_grew) */
#define VW_GREW_BLEND       90

/* looks, and glyph heights: a line that stayed this many looks (a
 * second at fps 1), as wide as this many glyph heights (a few words),
 * and read as nothing is flagged all the same (vw_read_line_lost) */
#define VW_STAYED_LOOKS     5
#define VW_STAYED_WIDTH     5

/* confidence: a reading less sure than VW_READ_CONF says nothing
 * (vw_reading_says), unless it has about as many letters as the glyphs
 * (half to one and a half times), at VW_FIT_CONF (vw_reading_fits) */
#define VW_READ_CONF        70
#define VW_FIT_CONF         50

/* letters: a reading with fewer than 1/VW_FEW_PART of its screen's
 * glyphs, and fewer than VW_FEW_MIN, is no text (vw_reading_few) */
#define VW_FEW_PART         4
#define VW_FEW_MIN          2

/* a sure reading (VW_OCR_ACCEPT) is read again from its glyphs only
 * when the lines it lacks hold 1/VW_LACK_PART or more of the layer's
 * glyphs, or one lies between two it has (vw_read_more) */
#define VW_LACK_PART        3

/* letters: a Han character counts as this many in a reading of two or
 * more (vw_reading_letters) */
#define VW_BLOCK_LETTERS    2

/* a part of a glyph's height: a screen that read as nothing is read
 * again without the specks up to 1/VW_OCR_NOISE_SPECK of it
 * (vw_read_more) */
#define VW_OCR_NOISE_SPECK  4

/* recognitions of a screen's mean (grey and one-block readings
 * included) after which it gets no further second reading, without the
 * specks or from its glyphs alone (vw_read_more) */
#define VW_READ_PASSES      4

/* components: a sample with this many glyph-sized ones and no line of
 * them is tried turned a quarter (vw_turn_look), which must then have
 * lines of as many glyphs */
#define VW_ORIENT_COMPS     8

/* components compared at most, a way, to find them stacked as the
 * letters of a line written downwards (vw_turn_columns) */
#define VW_ORIENT_COMPS_MAX 4096

/* milliseconds of video: a detection that took no turn is forgotten at
 * the first sample of each stretch this long (vw_turn_forget), where
 * the cuts of a long video are placed too (vw_cuts.c) */
#define VW_TURN_AGAIN_MS    10000

/*
 * The region Tesseract reads around a screen's glyphs (vw_screen_open,
 * and the turned picture of vw_turn_look): VW_OCR_MARGIN pixels more
 * every way; above and below, 1/VW_REGION_DOWN_PART of the glyphs' box's
 * height; across, VW_REGION_ACROSS box heights, no more than
 * VW_REGION_ACROSS of a 1/VW_REGION_ACROSS_PART of the picture's height,
 * and VW_REGION_SMALL_ACROSS glyph heights for small glyphs (the layer
 * misses words of short letters beside them); glyphs of fewer than
 * VW_REGION_SHORT_GLYPH pixels (their mean: 13 for 18 px subtitles) a
 * glyph height and a half above and below, when that is more (with a
 * line or two of 16-18 px glyphs at 360p and 480p, that much more of a
 * noisy or sliding background was read into them: hard-noise-360p-h264
 * lost a screen).
 */
#define VW_OCR_MARGIN          8
#define VW_REGION_DOWN_PART    4
#define VW_REGION_ACROSS       2
#define VW_REGION_ACROSS_PART  10
#define VW_REGION_SMALL_ACROSS 10
#define VW_REGION_SHORT_GLYPH  15

/* a line of the layer the reading lacks is read alone (vw_read_line.c):
 * with VW_LINE_ACROSS glyph heights either way across, scaled up to
 * about VW_LINE_GLYPH_PX pixels a glyph (whole times, at most
 * VW_PREP_SCALE_MAX) */
#define VW_LINE_ACROSS      1
#define VW_LINE_GLYPH_PX    32
/* ... and one of many glyphs less tall than this is read again in grey
 * when that reads nothing (vw_read_line_fine) */
#define VW_LINE_FINE_GLYPH  12
/* ... and one the reading has a part of, less wide than NUM/DEN of it
 * (vw_read_line_short) */
#define VW_LINE_PART_NUM    2
#define VW_LINE_PART_DEN    3

/* a part of the picture: two lines of a reading more than 1/VW_APART of
 * its height apart (or of its width, side by side) are two parts of the
 * screen (vw_read_apart) */
#define VW_APART            3

/* looks: a screen may join the one before it for this many looks after
 * the first row of that one (10 s at 1 fps; vw_join.c) */
#define VW_JOIN_LOOKS       60

/* letters (each character once): two unsure readings that share a run
 * of VW_JOIN_RUN or more, and four fifths of each, are the same text
 * (vw_join_read_same); readings of more than VW_JOIN_RUN_CAP are not
 * compared so */
#define VW_JOIN_RUN         10
#define VW_JOIN_RUN_CAP     256

/* readings that said nothing, remembered by box and content
 * (vw_read_memo.c): the last screen and VW_MEMO_LINES lines read alone;
 * cells of half a glyph's height, VW_MEMO_CELL_MIN pixels at least; the
 * same content when no cell's mean moved by more than
 * VW_MEMO_CELL_DIFF grey levels and all of them by VW_MEMO_MEAN_DIFF
 * on average; a box of more than VW_MEMO_SIG_MAX cells is not
 * remembered */
#define VW_MEMO_LINES       16
#define VW_MEMO_CELL_MIN    4
#define VW_MEMO_CELL_DIFF   24
#define VW_MEMO_MEAN_DIFF   4
#define VW_MEMO_SIG_MAX     16384

/* lines that moved with the background (vw_memo_moved): the same size
 * within VW_MOVED_NEAR pixels and 1/VW_MOVED_PART of it, shifted by
 * more than VW_MOVED_NEAR and less than VW_MOVED_FAR glyph heights,
 * their pixels VW_MOVED_CLOSER times closer to the old ones shifted
 * than unshifted and within VW_MOVED_DIFF grey levels of them on
 * average (vw_memo_went), with VW_MOVED_WITH other lines shifted the
 * same way (within VW_MOVED_NEAR) */
#define VW_MOVED_NEAR       2
#define VW_MOVED_FAR        4
#define VW_MOVED_WITH       2
#define VW_MOVED_PART       8
#define VW_MOVED_CLOSER     2
#define VW_MOVED_DIFF       24

/* looks, and frames: a screen of fewer looks than VW_FEW_LOOKS is read
 * from the frames decoded between them too, at most VW_FRAMES_MAX
 * pictures (vw_between.c) */
#define VW_FEW_LOOKS        3
#define VW_FRAMES_MAX       32


/* a screen whose read lines all moved one way since the screen read
 * before it (vw_read_roll.c): each line the same size within
 * VW_ROLL_NEAR pixels, all shifted alike within VW_ROLL_NEAR, its
 * pixels gone with it up to VW_ROLL_NEAR rows off */
#define VW_ROLL_NEAR        2


/* the reading of the screen read last, kept for the next screen if its
 * lines roll (vw_read_roll.c); its turn and picture size are those of
 * the lines and first look vw_memo_moved kept of that screen (memo_*) */
typedef struct {
    vw_ocr_result_t     res;           /* text NULL: none kept */
    vw_rect_t           region;        /* of the screen it read */
    int                 scale;
    int                 rolled;        /* the pending screen's lines are
                                          its lines moved dx, dy */
    int                 dx;
    int                 dy;
} vw_roll_t;


/* a box read as nothing and its content (vw_read_memo.c) */
typedef struct {
    vw_rect_t           box;           /* in the picture's pixels */
    int                 cell;
    int                 turn_q;
    int                 width;         /* of the picture */
    int                 height;
    int                 n;             /* cells; 0: nothing remembered */
    uint8_t            *sig;           /* their means, row by row */
    size_t              cap;
} vw_memo_t;


/*
 * A frame kept between two looks, in grey as the looks are.  Converted
 * when the look after it is held, not when the change is placed: a
 * decoded picture held until then is one more the decoder's pool has to
 * make (its luma, 8.3 MB at 4K, where its grey is 2 MB: read at half
 * size).
 */
typedef struct {
    vw_image_t          grey;
    int64_t             pts_us;
} vw_between_t;


/* a row queued until its unit is complete, or for its screen's text */
typedef struct {
    vw_row_t            row;
    char               *text;         /* owned; NULL: the screen's, later */
    char               *parts;        /* owned; NULL: none (vw_parts.h) */
    int                 known;        /* the ledger has it: not handed on */
} vw_queued_t;


typedef struct {
    const vw_job_t     *job;
    const vw_hooks_t   *hooks;
    vw_report_t        *run;
    vw_limits_t         limits;
    int64_t             last_tick;

    vw_media_t         *media;
    int                 decoding;      /* vw_media_start done */
    vw_engine_t        *engine;
    vw_framer_t         framer;
    vw_image_t          grey;
    vw_text_t           layer;         /* grey's text layer */
    vw_image_t          ocr;
    vw_image_t          mean;
    vw_image_t          inked;         /* the screen's glyphs alone
                                          (vw_read_glyphs) */
    vw_ocr_result_t     grey_read;     /* p->mean's region read in grey,
                                          as p->mean is now (valid:
                                          grey_read_ok; vw_reading.c) */
    int                 grey_read_ok;
    int                 screen_passes; /* recognitions of the pending
                                          screen's region (vw_reading.c) */
    int                 scale;         /* of the OCR pictures */

    vw_image_t          prev;          /* the last look between samples */
    int                 have_prev;
    int                 loose;         /* it went on by its ink alone */
    int                 ink_same;      /* this look has the reference's
                                          ink where it was */
    vw_image_t          ref;           /* the first look of the state */
    int64_t             ref_us;        /* its time */
    vw_text_t           ref_layer;
    int                 have_ref;
    uint32_t            ref_index;
    char               *ref_text;      /* NULL while the screen is unread */
    char               *ref_parts;     /* its parts' spec, NULL: one */
    int                 ref_conf;
    unsigned            ref_unsure;    /* its lines read unsure: the
                                          rows' VO_FRAME_UNSURE_* bits */

    int                 pending;       /* the screen at ref waits */
    int                 tentative;     /* a look that differs is held */
    int                 stood_in;      /* a later look took its place */
    uint32_t            tent_index;
    int                 tent_ink;      /* it had the reference's ink */
    int64_t             tent_pts;
    int64_t             tent_us;       /* the time of the picture held */
    vw_image_t          tent;
    vw_text_t           tent_layer;
    vw_stack_t          stack;         /* its looks summed */
    vw_rect_t           region;        /* what of them is read */
    vw_stack_t          frames;        /* its first look and the frames
                                          after it, if it had few looks
                                          (vw_between.c) */
    int                 mean_count;    /* the pictures p->mean was made
                                          of */

    vw_queued_t        *rows;          /* waiting, in index order */
    size_t              nrows;
    size_t              rows_cap;
    uint32_t            units_done;    /* units whose looks are all done */

    vw_orient_t         turn;          /* found by OSD: every picture
                                          is turned so from then on */
    int                 turn_q;        /* its quarter turns, clockwise */
    int                 osd_tried;     /* once per stretch of
                                          VW_TURN_AGAIN_MS (VO_FRAME_OSD) */
    int                 osd_forgot;    /* one ran, then was forgotten */
    int                 osd_turn;      /* what OSD proposed */
    vw_image_t          spare;         /* work space of vw_pipe_orient */
    vw_text_t           spare_layer;

    int64_t             state_ms;      /* the time of the row that began
                                          the state at ref, -1: none */
    int64_t             look_us;       /* the last look's frame time */
    vw_between_t        tent_kept[VW_KEPT_MAX];   /* the frames decoded
                                          between the look before the held
                                          one and it: where the change may
                                          have begun (oldest first) */
    int                 ntent_kept;
    int                 tent_whole;    /* they reach back to a frame of
                                          the old state: a change is
                                          placed exactly among them */
    vw_text_t           cand_layer;    /* the text layer of one of them
                                          (its mask is vw_look_find's
                                          work space too) */
    vw_image_t          beside;        /* a frame shown beside a look */
    int64_t             beside_us;     /* it is the oldest frame kept
                                          before the look, shown then */
    int64_t             beside_decoded; /* when this many frames were
                                          decoded (-1: it is not) */
    vw_orient_t         beside_turn;   /* turned so */
    vw_persist_t        persist;       /* vw_look_clean's work */

    /* the screen read last, with the screens joined to it since, while
     * the next screen may still join them (vw_join.c): their rows wait */
    int                 join_open;
    uint32_t            join_first;    /* the first row of the first */
    uint32_t            join_last;     /* the first row of the last */
    int                 join_looks;    /* the looks of their reading */
    int                 join_conf;
    unsigned            join_unsure;   /* as ref_unsure */
    int                 join_turn_q;   /* the turn its pictures had */
    char               *join_text;     /* that reading */
    char               *join_parts;
    vw_rect_t          *join_lines;    /* where it read lines, their words
                                          with letters (picture's pixels) */
    int                 join_nlines;
    size_t              join_lines_cap;
    vw_image_t          join_mean;     /* the mean it was read from, */
    vw_rect_t           join_region;   /* of this region */
    int                 join_w;        /* of a picture this size */
    int                 join_h;
    vw_text_t           join_la;       /* the two means' text layers */
    vw_text_t           join_lb;

    vw_memo_t           memo_screen;   /* readings that said nothing */
    vw_memo_t           memo_line[VW_MEMO_LINES];
    int                 memo_next;     /* the line to forget next */
    vw_text_line_t      memo_lines[VW_TEXT_LINES_MAX];  /* the layer's
                                          lines of the screen read last */
    char                memo_read[VW_TEXT_LINES_MAX];  /* its reading
                                          read them (vw_read_lines_mark) */
    int                 memo_nlines;
    int                 memo_turn_q;
    vw_image_t          memo_ref;      /* the first look of that screen */
    char                moved[VW_TEXT_LINES_MAX];  /* the pending screen's
                                          lines that moved with the
                                          background (vw_memo_moved) */
    int                 nmoved;
    vw_rect_t           moved_layer;   /* the box of the layer they are
                                          of */
    vw_roll_t           roll;          /* the last reading, for a screen
                                          that rolls */

    uint32_t            restart;       /* the last unit a resumed run may
                                          start at: the unit before it
                                          ends no group cut short */
    uint32_t            redo_from;     /* known rows in [redo_from,
                                          redo_end) are done again */
    uint32_t            redo_end;

    vw_row_t            known;         /* the last known row */
    char               *known_text;
    char               *known_parts;
    int                 resume;        /* restore the reference first */
} vw_pipe_t;



/*
 * The room's files, from the bottom up: each calls only those above it
 * in this list (none calls back), and vw_pipeline.c, the last, runs
 * them.
 */

/* vw_pipe.c: the tick hook (rate-limited), the reference's reading, a
 * copy of a string that may be NULL */
int vw_pipe_poll(void *data);
void vw_pipe_set_ref_text(vw_pipe_t *p, char *text, char *parts, int conf,
    unsigned unsure, uint32_t index);
char *vw_pipe_strdup(const char *s, int *failed);

/* vw_look.c: look j decoded into p->grey; a decoded frame in grey; the
 * layer cleaned of lines the frames beside it do not show; the look's
 * layer found (vw_look_find, with what stands still when it has no
 * line); picture b shows the same text as a, where it is or where it
 * slid (*dx: how far), and with vw_look_same_lines a line that comes
 * or goes on rows of its own is a change */
int vw_look_decode(vw_pipe_t *p, uint32_t j, int64_t *pts_ms, vw_err_t *err);
int vw_look_grey(vw_pipe_t *p, const AVFrame *frame, vw_image_t *out,
    vw_err_t *err);
int vw_look_clean(vw_pipe_t *p, vw_err_t *err);
int vw_look_find(vw_pipe_t *p, vw_err_t *err);
int vw_look_same(vw_pipe_t *p, const vw_image_t *a, const vw_text_t *ta,
    const vw_image_t *b, const vw_text_t *tb, int *dx);
int vw_look_same_lines(vw_pipe_t *p, const vw_image_t *a,
    const vw_text_t *ta, const vw_image_t *b, const vw_text_t *tb, int *dx);
int vw_look_grew(const vw_text_t *tr, const vw_image_t *gb,
    const vw_text_t *tb, const vw_image_t *gc, const vw_text_t *tc);

/* vw_rows.c: a row queued (text NULL: the pending screen's, later); the
 * rows waiting for the pending screen's text get the reference's (flags
 * added, own to the screen's own row); row r gets the reference's
 * reading; the rows of the units done handed on */
int vw_rows_add(vw_pipe_t *p, uint32_t j, int64_t pts_ms, unsigned flags,
    int64_t reused_from, const char *text, int confidence, int known,
    vw_err_t *err);
int vw_rows_fill(vw_pipe_t *p, unsigned flags, unsigned own, vw_err_t *err);
int vw_rows_take_ref(vw_pipe_t *p, vw_queued_t *r, vw_err_t *err);
int vw_rows_flush(vw_pipe_t *p, vw_err_t *err);

/* vw_reading.c: a picture of a screen read as how says; whether a
 * reading says something (VO_FRAME_UNREAD when not) or fits its glyphs;
 * a second reading taken or dropped; letters and digits counted */
int vw_reading_ocr(vw_pipe_t *p, const vw_image_t *img, int ref_w, int ref_h,
    const vw_ocr_how_t *how, vw_ocr_result_t *res, vw_err_t *err);
int vw_reading_says(const vw_ocr_result_t *res, int glyphs);
int vw_reading_fits(const vw_ocr_result_t *res, int glyphs);
void vw_reading_second(vw_pipe_t *p, vw_ocr_result_t *res,
    vw_ocr_result_t *other);
void vw_reading_take(vw_ocr_result_t *res, vw_ocr_result_t *other, int take);
void vw_reading_forget(vw_pipe_t *p);
int vw_reading_few(int letters, int glyphs);
int vw_reading_letters(const vw_ocr_result_t *res);
int vw_reading_lined(const vw_ocr_result_t *res);
unsigned vw_reading_unsure(const vw_ocr_result_t *res);

/* vw_resume.c: the row_known hook; a known unit; a group cut short
 * done again; the reference restored */
int vw_resume_known(vw_pipe_t *p, uint32_t j, vw_row_t *known,
    vw_err_t *err);
int vw_resume_unit(vw_pipe_t *p, uint32_t i, vw_err_t *err);
int vw_resume_redo(vw_pipe_t *p, uint32_t *i, vw_err_t *err);
int vw_resume_restore(vw_pipe_t *p, vw_err_t *err);

/* vw_boundary.c: the frames before look j kept with it; let go; the
 * frame the change to the held look began on */
void vw_boundary_keep(vw_pipe_t *p, uint32_t j);
void vw_boundary_drop(vw_pipe_t *p);
int vw_boundary_find(vw_pipe_t *p, int64_t *pts_ms, int *exact, int *old,
    vw_err_t *err);

/* vw_between.c: a screen of few looks read from its frames too (see
 * there) */
void vw_between_start(vw_pipe_t *p);
int vw_between_last(vw_pipe_t *p, int n, vw_err_t *err);
int vw_between_mean(vw_pipe_t *p, int frames);

/* vw_turn.c: text not upright (once per stretch of video, see there);
 * a detection forgotten at sample i if a stretch begins there */
int vw_turn_look(vw_pipe_t *p, vw_err_t *err);
int vw_turn_read(vw_pipe_t *p, vw_ocr_result_t *res, vw_err_t *err);
void vw_turn_forget(vw_pipe_t *p, uint32_t i);

/* vw_join.c: a screen split by what goes on around its text, joined in
 * hindsight (see there) */
#define VW_JOIN_SAME    1       /* the pending screen shows the group's
                                   text */
#define VW_JOIN_WITHIN  2       /* its glyphs are the group's, whose mean
                                   has others beyond them */
#define VW_JOIN_UNSURE  3       /* its reading and the group's, both
                                   unsure, share most of their letters */
int vw_join_same(vw_pipe_t *p, vw_err_t *err);
int vw_join_within(const vw_pipe_t *p, const vw_ocr_result_t *res);
int vw_join_read_same(const vw_pipe_t *p, int turn_q,
    const vw_ocr_result_t *res);
int vw_join_tighter(const vw_pipe_t *p, const vw_ocr_result_t *res);
int vw_join_take(vw_pipe_t *p, vw_err_t *err);
int vw_join_keep(vw_pipe_t *p, const vw_ocr_result_t *res, int joined,
    vw_err_t *err);
void vw_join_close(vw_pipe_t *p);
void vw_join_free(vw_pipe_t *p);

/* vw_read_memo.c: readings that said nothing, remembered by box and
 * content */
int vw_memo_screen_known(const vw_pipe_t *p);
int vw_memo_screen_fail(vw_pipe_t *p);
int vw_memo_line_known(const vw_pipe_t *p, const vw_rect_t *box);
int vw_memo_line_fail(vw_pipe_t *p, const vw_rect_t *box, int glyph_h);
void vw_memo_free(vw_pipe_t *p);
int vw_memo_moved(vw_pipe_t *p);
int vw_memo_is_moved(const vw_pipe_t *p, int i);
int vw_memo_nmoved(const vw_pipe_t *p);
int vw_memo_went(const vw_pipe_t *p, const vw_rect_t *o, int dx, int dy);

/* vw_read_line.c: the layer's lines the reading lacks, read alone */
int vw_read_lines(vw_pipe_t *p, vw_ocr_result_t *res, vw_err_t *err);
int vw_read_line_glyphs(const vw_pipe_t *p, const vw_ocr_result_t *res);
int vw_read_line_lacking(const vw_pipe_t *p, const vw_ocr_result_t *res);
void vw_read_lines_mark(vw_pipe_t *p, const vw_ocr_result_t *res);
int vw_read_line_on(const vw_pipe_t *p, const vw_rect_t *b,
    const vw_text_line_t *l, int *x0, int *x1);

/* vw_read_roll.c: a screen whose lines rolled takes the last reading */
void vw_roll_find(vw_pipe_t *p);
int vw_roll_take(vw_pipe_t *p, vw_ocr_result_t *res);
int vw_roll_keep(vw_pipe_t *p, const vw_ocr_result_t *res);
void vw_roll_forget(vw_pipe_t *p);

/* vw_read.c: the pending screen read */
int vw_read_screen(vw_pipe_t *p, vw_err_t *err);

/* vw_cuts.c: where the parts of a long video begin (run->cuts) */
int vw_cuts_find(vw_pipe_t *p, vw_err_t *err);

/* vw_screen.c: look j of the unit being done; the held look committed */
int vw_screen_look(vw_pipe_t *p, uint32_t j, vw_err_t *err);
int vw_screen_commit(vw_pipe_t *p, vw_err_t *err);


#endif /* _VW_PIPELINE_INT_H_INCLUDED_ */
