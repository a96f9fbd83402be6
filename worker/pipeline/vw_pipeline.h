/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The pipeline: one upload in, a row for every sample and for every
 * look between samples where the text changed out, through hooks that
 * let the caller keep the rows (in memory for the ocr command, in the
 * ledger for a worker child) and resume a job whose earlier attempt
 * died.  Its words (sample, look, screen, ...) are defined once, in
 * docs/worker-pipeline.md, "Words".
 *
 *   inspect (vw_media) -> plan (vw_plan) -> OCR engine (vw_ocr)
 *   -> ready hook -> for each sample i not known yet, and the looks
 *      after it up to the next sample:
 *        decode the frame shown at the look -> crop, grey, text layer
 *        (image/) -> the same text as the state's first look? it goes
 *           on (a screen adds the look to its sum)
 *           : else, once the next look confirms it, a new state
 *             (placed on the frame it began on, among the frames kept
 *             since the look before, with refine): no glyph? empty, no
 *             OCR : a screen, read from the mean of its looks when it
 *             ends (image/vw_stack, ocr/)
 *        -> row_done hook, a unit's rows at a time
 *
 * Rows are merged into segments afterwards, from the rows alone
 * (vw_segments_merge, vw_result_write), so they need not all come from
 * one run.
 */

#ifndef _VW_PIPELINE_H_INCLUDED_
#define _VW_PIPELINE_H_INCLUDED_


#include "vo_edge.h"
#include "core/vw_core.h"
#include "core/vw_plan.h"
#include "core/vw_stage.h"
#include "result/vw_segments.h"


/* tick is called at least this often while the pipeline works */
#define VW_TICK_MS      250

/* a long video is cut into at most this many parts and one
 * (vw_report_t.cuts) */
#define VW_CUTS_MAX     127


/*
 * Every hook is optional (NULL) and gets data as its first argument.
 * All are called on the thread that called vw_pipeline_run; tick may be
 * called from inside a Tesseract recognition.
 *
 * ready(in, plan): the inspection and the plan, once, before any frame
 *     is decoded; record them (frames_planned = plan->samples, plan
 *     version = plan->version).  The report's cuts (job->part_ms) are
 *     found by then.  Non-zero stops the run.
 *
 * row_known(index, known): 1 if the look of this index is already
 *     done (the ledger has its row): it is neither decoded nor OCR'd
 *     again.  The hook fills known->text (valid until its next call),
 *     known->confidence and known->reused_from from the row; the
 *     pipeline uses them to resume exactly where a clean run would be:
 *     before the first look it must do after a known one, it decodes
 *     (without OCR) the look whose text the known one carries, so the
 *     near-identical test compares against the same picture and a
 *     resumed job makes the same OCR calls as an uninterrupted one.
 *     When the known rows are a prefix, decoding seeks past them.
 *     0 if not known; -1 on error (the run fails, VW_FAILED "hook").
 *
 * row_done(f): a row is done (f and f->text are valid during the call
 *     only).  It must be written before returning; non-zero stops the
 *     run after this row (lease lost, shutdown).
 *
 * tick(): called at least every VW_TICK_MS while work goes on (between
 *     packets, frames, and the words Tesseract recognises): renew the
 *     lease here.  Non-zero stops the run (VW_STOPPED).
 */
typedef struct {
    void  *data;
    int  (*ready)(void *data, const vw_inspection_t *in,
                  const vw_plan_t *plan);
    int  (*row_known)(void *data, uint32_t index, vw_row_t *known);
    int  (*row_done)(void *data, const vw_row_t *f);
    int  (*tick)(void *data);
} vw_hooks_t;


typedef struct {
    const char          *name;      /* for messages: "job 9f2c", a path */
    int                  fd;        /* the upload, open for reading */
    const vo_options_t  *options;
    const vw_limits_t   *limits;    /* NULL: vw_limits_init defaults */
    const vw_hooks_t    *hooks;     /* NULL: no hooks */

    /* a long video read in parts (docs/worker-pipeline.md, "Long
     * videos in parts") */
    uint32_t             from;      /* the first sample: the run begins
                                       there as if the video began there,
                                       its rows indexed as in the whole
                                       video (0: the start) */
    int64_t              part_ms;   /* > 0: a video of split_ms or more
                                       is cut into parts about this long
                                       (vw_report_t.cuts) */
    int64_t              split_ms;
} vw_job_t;


/* What a run did; the names are those of --stats' JSON (a "frame" of
 * frames_known, frames_done, ... is a sample's row). */
typedef struct {
    uint32_t  frames_known;        /* samples skipped: row_known said
                                      done */
    uint32_t  frames_done;         /* row_done calls for samples */
    uint32_t  looks;               /* looks between samples taken */
    uint32_t  looks_kept;          /* of those, rows: the text changed */
    uint32_t  looks_combined;      /* looks summed into the readings */
    uint32_t  screens_joined;      /* screens that joined the one before
                                      (vw_join.c) */
    uint32_t  frame_readings;      /* screens of few looks read from the
                                      frames between them (vw_between.c) */
    uint32_t  ocr_calls;           /* screens read by Tesseract */
    uint32_t  ocr_passes;          /* recognitions (a screen may take
                                      several) */
    uint32_t  line_readings;       /* of those, lines of a layer read
                                      alone (vw_read_line.c) */
    uint32_t  readings_remembered; /* screens and lines not read: read
                                      as nothing before, the same box
                                      and pixels (vw_read_memo.c) */
    uint32_t  readings_reused;     /* grey readings of a screen's mean
                                      taken from its first reading, not
                                      made again (vw_reading.c) */
    uint32_t  readings_rolled;     /* screens that took the reading of
                                      the screen before, its lines moved
                                      (vw_read_roll.c) */
    uint32_t  readings_spared;     /* screens that read as nothing in
                                      VW_READ_PASSES recognitions: no
                                      second reading (vw_read.c) */
    uint32_t  frames_reused;       /* samples that took the text of the
                                      screen they show */
    uint32_t  frames_timed_out;
    uint32_t  frames_no_picture;
    uint32_t  frames_no_text;      /* no glyph found: Tesseract spared */
    uint32_t  refs_restored;       /* looks decoded only to resume */
    uint32_t  boundaries;          /* changes placed among the frames
                                      decoded before the look that saw
                                      them (refine) */
    uint32_t  boundaries_moved;    /* of those, begun before that look */
    uint32_t  boundary_frames;     /* frames compared to place them */
    uint32_t  orient_probes;       /* samples tried turned a quarter */
    uint32_t  orient_tries;        /* orientation detections (OSD) */
    int       turn;                /* degrees clockwise found, -1: none */
    uint64_t  packets;
    uint64_t  frames_decoded;
    uint64_t  frames_skipped;      /* read, and dropped by the decoder
                                      (AVDISCARD: B frames far from a
                                      look) */
    uint64_t  decode_errors;
    uint64_t  seeks;
    int64_t   inspect_ms;
    int64_t   decode_ms;           /* decoding, grey, similarity */
    int64_t   ocr_ms;
    int64_t   total_ms;
    int64_t   cpu_ms;              /* process CPU time during the run */
    int64_t   cpu_stage_ms[VW_STAGE_N];   /* the run's thread's CPU time
                                             by stage (vw_stage.h);
                                             merge: set by the caller */
} vw_stats_t;


/* What a run of the pipeline found (inspection, plan) and did (stats). */
typedef struct {
    int              inspected;    /* inspection below is filled in */
    int              planned;      /* plan below is filled in */
    vw_inspection_t  inspection;
    vw_plan_t        plan;
    vw_stats_t       stats;
    uint32_t         ncuts;        /* parts after the first (part_ms) */
    uint32_t         cuts[VW_CUTS_MAX];   /* the sample each begins at,
                                            increasing */
} vw_report_t;


/*
 * Runs a job.  Returns 0 when every planned look is done (known or
 * reported through row_done); -1 otherwise, with err->status
 * REJECTED (invalid media, unknown language: do not retry), FAILED (a
 * retry may succeed) or STOPPED (a hook asked).  The report is always
 * filled as far as the run got.  The fd stays open.
 */
int vw_pipeline_run(const vw_job_t *job, vw_report_t *run, vw_err_t *err);

/* Sets up the process-wide state, once before the first run: libav*'s
 * log routed through ours (verbose: its warnings printed too). */
void vw_pipeline_init(int verbose);

/* Frees the process-wide state (the OCR engines) before exiting. */
void vw_pipeline_shutdown(void);


#endif /* _VW_PIPELINE_H_INCLUDED_ */
