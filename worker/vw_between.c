/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * A screen of few looks read from the frames between them too.  A
 * screen is read from the mean of its looks (vw_looks.c), and a look
 * comes every sixth of a second: an item of a ticker on screen for half
 * a second has one or two, and one look over strong noise reads as
 * nothing (the hard set's 720p ticker lost items so).  With refine every
 * frame is decoded, and the frames shown between two looks of a screen
 * show it too.  So while a screen has fewer than VW_FEW_LOOKS looks,
 * its pictures are summed a second time (p->frames) with the frames
 * decoded between them, each at the shift interpolated between the
 * looks around it (text that slides moves steadily), and with the
 * frames after its last look that the change which ends it was placed
 * after (vw_between_last); such a screen is read from that mean
 * (vw_between_mean).  The frames are the ones the decoder keeps for
 * placing changes (vw_media_kept), which are the same wherever
 * decoding began: a resumed job reads as an unbroken one does.
 * Without refine no frame is kept, and a screen is read from its looks.
 */

#include "vw_media.h"
#include "vw_pipe.h"


static int vw_between_frame(vw_pipe_t *p, const vw_image_t *g,
    vw_err_t *err);
static void vw_between_add(vw_pipe_t *p, const vw_image_t *g, int64_t us,
    int dx);


/* The pending screen's frames begin with its first look (p->ref). */
int
vw_between_start(vw_pipe_t *p, vw_err_t *err)
{
    if (vw_stack_start(&p->frames, &p->ref, &p->region, VW_FRAMES_MAX) != 0) {
        return vw_fail(err, "no_memory", "run \"%s\": out of memory",
                       p->job->name);
    }

    p->frames_us[0] = p->ref_us;
    p->frames_us[1] = p->ref_us;
    p->frames_dx[0] = 0;
    p->frames_dx[1] = 0;

    return 0;
}


/*
 * Look g, shown at us, went on with the pending screen dx pixels to
 * the right of its first look (and p->stack has it): the frames decoded
 * since the picture added last, then g.
 */
int
vw_between_look(vw_pipe_t *p, const vw_image_t *g, int64_t us, int dx,
    vw_err_t *err)
{
    int               i, n, first;
    const vw_kept_t  *k;

    if (!p->pending || p->stack.count >= VW_FEW_LOOKS) {
        return 0;                   /* read from its looks alone */
    }

    n = 0;
    first = 0;

    if (p->job->options->refine && p->media != NULL && us > p->frames_us[0])
    {
        n = vw_media_kept(p->media, p->frames_us[0], us, &first);
    }

    for (i = 0; i < n; i++) {
        k = &p->media->kept[first + i];

        if (vw_pipe_grey(p, k->frame, &p->beside, err) != 0
            || vw_between_frame(p, &p->beside, err) != 0)
        {
            return -1;
        }
    }

    vw_between_add(p, g, us, dx);

    return 0;
}


/*
 * The change that ends the pending screen was placed: of the frames
 * kept with the look that saw it (p->tent_kept, in grey), the first n
 * still show the screen; those after its last look are added, at the
 * shift its last two pictures' give.
 */
int
vw_between_last(vw_pipe_t *p, int n, vw_err_t *err)
{
    int  i;

    if (!p->pending || p->stack.count >= VW_FEW_LOOKS) {
        return 0;
    }

    for (i = 0; i < n; i++) {
        if (p->tent_kept[i].pts_us > p->frames_us[0]
            && vw_between_frame(p, &p->tent_kept[i].grey, err) != 0)
        {
            return -1;
        }
    }

    return 0;
}


/*
 * Frame g (grey) is added to the pending screen's frames if it shows
 * its text: the looks' own test against its first look, where it is or
 * where it slid (vw_pipe_same), made over the screen's region (its
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

    if (vw_frame_text_part(&p->framer, &gv, g->width, g->height,
                           &p->cand_layer, err)
        != 0)
    {
        return -1;
    }

    vw_image_view(&p->ref, &all, &p->region, &rv);
    vw_text_view(&p->ref_layer, &all, &p->region, &rt);

    if (vw_pipe_same(p, &rv, &rt, &gv, &p->cand_layer, &dx)) {
        vw_stack_add(&p->frames, g, dx);
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


/* g, shown at us, dx to the right, is the picture added last. */
static void
vw_between_add(vw_pipe_t *p, const vw_image_t *g, int64_t us, int dx)
{
    vw_stack_add(&p->frames, g, dx);

    p->frames_us[1] = p->frames_us[0];
    p->frames_dx[1] = p->frames_dx[0];
    p->frames_us[0] = us;
    p->frames_dx[0] = dx;
}
