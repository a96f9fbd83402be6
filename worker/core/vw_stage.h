/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Where a run's CPU time goes: the calling thread's CPU clock, charged
 * to the stage it is in (ocr --stats; docs/worker-pipeline.md, "Where
 * the time goes").  A stage is entered around the work it names and the
 * one it interrupted is entered again after it, so stages nest: the
 * decoding done for a look is decode's, not the look's.
 *
 * Always on: a switch is two reads of the thread's clock.  The state is
 * the thread's own; one run at a time per thread.
 */

#ifndef _VW_STAGE_H_INCLUDED_
#define _VW_STAGE_H_INCLUDED_


#include <stdint.h>


/* The stages, in the order --stats prints them (vw_stage_name). */
typedef enum {
    VW_STAGE_INSPECT = 0,   /* the inspection, a duration measured */
    VW_STAGE_DEMUX,         /* packets read, seeks */
    VW_STAGE_DECODE,        /* libavcodec: decoder opened, frames */
    VW_STAGE_LOOKS,         /* the looks: grey, same text, states,
                               stacks, pictures prepared for OCR */
    VW_STAGE_TEXT_LAYER,    /* vw_text_find */
    VW_STAGE_OCR,           /* Tesseract: engine, recognition, OSD */
    VW_STAGE_MERGE,         /* the result made from the rows */
    VW_STAGE_OTHER,         /* the rest: planning, the rows' hooks */
    VW_STAGE_N
} vw_stage_t;


/* Every stage to 0; the thread is in VW_STAGE_OTHER from now. */
void vw_stage_reset(void);

/* The thread's CPU time since the last switch goes to the stage it was
 * in, and it is in s from now; returns the stage it was in. */
vw_stage_t vw_stage_enter(vw_stage_t s);

/* Each stage's CPU milliseconds since vw_stage_reset, up to now. */
void vw_stage_cpu_ms(int64_t ms[VW_STAGE_N]);

/* "inspect", "demux", ..., "text_layer", ...: as in --stats' keys. */
const char *vw_stage_name(vw_stage_t s);


#endif /* _VW_STAGE_H_INCLUDED_ */
