/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * A screen of few looks read from the frames between them too.  A
 * screen is read from the mean of its looks (vw_stack.c), and a look
 * comes every sixth of a second: an item of a ticker on screen for half
 * a second has one or two, and one look over strong noise reads as
 * nothing (the hard set's 720p ticker lost items so).  With refine every
 * frame is decoded, and the frames shown between two looks of a screen
 * show it too.  When a change ends a screen of fewer than VW_FEW_LOOKS
 * looks, the frames kept with the look that saw the change (decoded
 * since the look two before it: tent_kept) hold every frame of such a
 * screen after its first look, up to where the change was placed; those
 * that pass the looks' own test against its first look are summed with
 * it (p->frames, vw_between_last), and the screen is read from that
 * mean (vw_between_mean), and, when that reading is unsure, from its
 * looks as any other screen (vw_read_screen: a few frames of the fractal
 * behind the hard set's small subtitles read as a page of junk letters,
 * "ra] / aA / a / a", where its look read as nothing).  A screen of
 * more looks costs nothing more (the frames are looked at only at its
 * end, if it had few); the frames are those kept for placing changes,
 * the same wherever decoding began, so a resumed job reads as an
 * unbroken one does.  Without refine no frame is kept, and a screen is
 * read from its looks.
 */

#include "vw_pipeline_int.h"


static int vw_between_frame(vw_pipe_t *p, const vw_image_t *g,
    vw_err_t *err);


/* A new screen has no frames summed yet. */
void
vw_between_start(vw_pipe_t *p)
{
    p->frames.count = 0;
}


/*
 * The change that ends the pending screen was placed: of the frames
 * kept with the look that saw it (p->tent_kept, in grey, oldest first)
 * the first n still show the screen.  If it has fewer than VW_FEW_LOOKS
 * looks, its first look and those of them shown after it that pass the
 * looks' test are summed into p->frames.  -1 when out of memory.
 */
int
vw_between_last(vw_pipe_t *p, int n, vw_err_t *err)
{
    int  i;

    if (!p->pending || p->stack.count >= VW_FEW_LOOKS || n == 0) {
        return 0;
    }

    if (vw_stack_start(&p->frames, &p->ref, &p->region, VW_FRAMES_MAX) != 0) {
        return vw_fail(err, "no_memory", "run \"%s\": out of memory",
                       p->job->name);
    }

    for (i = 0; i < n; i++) {
        if (p->tent_kept[i].pts_us > p->ref_us
            && vw_between_frame(p, &p->tent_kept[i].grey, err) != 0)
        {
            return -1;
        }
    }

    return 0;
}


/*
 * p->mean: the mean the pending screen is read from, of its frames when
 * frames is set, it has fewer than VW_FEW_LOOKS looks and more frames
 * than looks, else of its looks; p->mean_count, the pictures in it.  -1
 * when out of memory.
 */
int
vw_between_mean(vw_pipe_t *p, int frames)
{
    const vw_stack_t  *st;

    st = frames && p->stack.count < VW_FEW_LOOKS
         && p->frames.count > p->stack.count ? &p->frames : &p->stack;

    p->mean_count = st->count;

    return vw_stack_mean(st, &p->mean);
}


/*
 * Frame g (grey) is added to the pending screen's frames if it shows
 * its text: the looks' own test against its first look, where it is or
 * where it slid (vw_look_same), made over the screen's region (its
 * layer is found there alone, judged by the picture's size: over
 * strong noise the layer of a whole picture costs several times more);
 * -1 when out of memory.
 */
static int
vw_between_frame(vw_pipe_t *p, const vw_image_t *g, vw_err_t *err)
{
    int         dx;
    vw_rect_t   all;
    vw_text_t   rt;
    vw_image_t  rv, gv;

    if (g->width != p->ref.width || g->height != p->ref.height) {
        return 0;
    }

    all.x = 0;
    all.y = 0;
    all.w = g->width;
    all.h = g->height;

    vw_image_view(g, &all, &p->region, &gv);

    if (vw_text_find_part(&p->framer, &gv, g->width, g->height,
                           &p->cand_layer, err)
        != 0)
    {
        return -1;
    }

    vw_image_view(&p->ref, &all, &p->region, &rv);
    vw_text_view(&p->ref_layer, &all, &p->region, &rt);

    if (vw_look_same(p, &rv, &rt, &gv, &p->cand_layer, &dx)) {
        vw_stack_add(&p->frames, g, dx);
    }

    return 0;
}
