/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * What every file of the pipeline uses of its state (vw_pipeline_int.h):
 * the tick hook, rate-limited; the reference's reading; a copy of a
 * string that may be NULL.
 */

#include <stdlib.h>
#include <string.h>

#include "vw_pipeline_int.h"


/* Rate-limited tick: the media and OCR stages call this often. */
int
vw_pipe_poll(void *data)
{
    int64_t     now;
    vw_pipe_t  *p;

    p = data;
    now = vw_now_ms();

    if (now - p->last_tick < VW_TICK_MS) {
        return 0;
    }

    p->last_tick = now;

    if (p->hooks->tick != NULL && p->hooks->tick(p->hooks->data) != 0) {
        return 1;
    }

    return 0;
}


/*
 * Takes ownership of text (NULL: the screen is not read yet) and of the
 * spec of its parts (NULL: none).
 */
void
vw_pipe_set_ref_text(vw_pipe_t *p, char *text, char *parts, int conf,
    unsigned unsure, uint32_t index)
{
    free(p->ref_text);
    free(p->ref_parts);
    p->ref_text = text;
    p->ref_parts = parts;
    p->ref_conf = conf;
    p->ref_unsure = unsure & VO_FRAME_UNSURE_MASK;
    p->ref_index = index;
}


/* A copy of s, or NULL for NULL; *failed 1 when out of memory. */
char *
vw_pipe_strdup(const char *s, int *failed)
{
    char  *c;

    c = s != NULL ? strdup(s) : NULL;
    *failed = s != NULL && c == NULL;

    return c;
}
