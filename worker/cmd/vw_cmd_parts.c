/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * ocr --debug-parts T (not in --help): the file read as the parts of a
 * long job are (docs/worker-pipeline.md, "Long videos in parts"), one
 * after another in this process, each part's rows in memory as a child
 * keeps them in the ledger: the video cut into parts about T long at its
 * keyframes (vw_report_t.cuts, whatever its length), the last part read
 * first, then each part before it, which reads on past its cut until
 * the rows of a unit are those of the part after it (vw_seam_same); the
 * rows joined at those seams make the result.  So the seam is tested
 * without a ledger or a pool: t/ocr/032-ocr-parts.t compares the result
 * with the whole run's, byte for byte.
 */

#include <stdlib.h>
#include <string.h>

#include "vw_cmd.h"
#include "vw_cmd_parts.h"
#include "vw_cmd_rows.h"
#include "result/vw_seam.h"


/* a part's rows, by index */
typedef struct {
    uint32_t            from;        /* its first sample */
    uint32_t            to;          /* the first sample of the next */
    vw_rowset_t         set;
    int                 next;        /* the part whose rows take over */
    uint32_t            upto;        /* at this sample; -1 next: none */
    vw_report_t         run;
} vw_part_mem_t;


typedef struct {
    vw_part_mem_t      *parts;
    int                 nparts;
    int                 cur;         /* the part being read */
    uint32_t            looks;
    uint32_t            indexes;
    vw_report_t        *plan_run;    /* the run that found the cuts */
} vw_parts_t;


static int vw_parts_plan(void *data, const vw_inspection_t *in,
    const vw_plan_t *plan);
static int vw_parts_done(void *data, const vw_row_t *f);
static int vw_parts_seam(vw_parts_t *ps, uint32_t u);
static size_t vw_parts_unit(const vw_part_mem_t *pm, uint32_t u,
    uint32_t looks, vw_row_t *out);
static void vw_parts_free(vw_parts_t *ps);


/*
 * Reads the file (fd, of job) in parts of part_ms; on success 0, the
 * joined rows in *rows (*n of them: copies the caller frees, texts and
 * parts too), the report of the run that found the cuts in *report;
 * -1 with err filled.
 */
int
vw_cmd_parts(const vw_job_t *job, int64_t part_ms, int stats,
    vw_row_t **rows, size_t *n, vw_report_t *report, vw_err_t *err)
{
    int           k, rc, p;
    size_t        i, cap;
    uint32_t      from, end;
    vw_job_t      j;
    vw_hooks_t    hooks;
    vw_row_t     *out, *r, *grown;
    vw_parts_t    ps;

    memset(&ps, 0, sizeof(vw_parts_t));
    *rows = NULL;
    *n = 0;
    rc = -1;

    /* the cuts: a run that stops once it knows them */

    memset(&hooks, 0, sizeof(vw_hooks_t));
    hooks.data = &ps;
    hooks.ready = vw_parts_plan;
    j = *job;
    j.hooks = &hooks;
    j.part_ms = part_ms;
    j.split_ms = 0;
    ps.plan_run = report;

    if (vw_pipeline_run(&j, report, err) == 0 || err->status != VW_STOPPED
        || ps.parts == NULL)
    {
        if (ps.parts == NULL && err->status == VW_STOPPED) {
            (void) vw_fail(err, "no_memory", "parts of \"%s\": out of memory",
                           job->name);
        }

        goto done;
    }

    /* the parts, the last first: the rows after each cut are there
     * when the part before it reads past it */

    hooks.ready = NULL;
    hooks.row_done = vw_parts_done;
    j.part_ms = 0;

    for (k = ps.nparts - 1; k >= 0; k--) {
        ps.cur = k;
        j.from = ps.parts[k].from;

        if (vw_pipeline_run(&j, &ps.parts[k].run, err) != 0
            && !(err->status == VW_STOPPED && ps.parts[k].next >= 0))
        {
            goto done;
        }

        vw_err_clear(err);
    }

    if (stats) {
        fprintf(stderr, "{\"parts\":[");

        for (k = 0; k < ps.nparts; k++) {
            fprintf(stderr, "%s{\"part\":%d,\"from\":%u,\"to\":%u,"
                    "\"next\":%d,\"upto\":%u,\"frames_done\":%u,"
                    "\"ocr_calls\":%u,\"cpu_ms\":%lld}", k ? "," : "", k,
                    ps.parts[k].from, ps.parts[k].to, ps.parts[k].next,
                    ps.parts[k].upto, ps.parts[k].run.stats.frames_done,
                    ps.parts[k].run.stats.ocr_calls,
                    (long long) ps.parts[k].run.stats.cpu_ms);
        }

        fprintf(stderr, "]}\n");
    }

    /* the rows joined: part 0's up to its seam, then the next part's */

    cap = 0;
    out = NULL;
    from = 0;

    for (p = 0; p >= 0; p = ps.parts[p].next) {
        end = ps.parts[p].next >= 0 ? ps.parts[p].upto * ps.looks
                                    : ps.indexes;

        for (i = 0; i < ps.parts[p].set.n; i++) {
            r = &ps.parts[p].set.rows[i];

            if (r->index < from || r->index >= end) {
                continue;
            }

            if (*n == cap) {
                cap = cap ? 2 * cap : 64;
                grown = realloc(out, cap * sizeof(vw_row_t));
                if (grown == NULL) {
                    (void) vw_fail(err, "no_memory", "parts of \"%s\": out "
                                   "of memory", job->name);
                    goto done;
                }

                out = grown;
                *rows = out;
            }

            out[(*n)++] = *r;
            r->text = NULL;             /* moved */
            r->parts = NULL;
        }

        from = end;
    }

    rc = 0;

done:

    vw_parts_free(&ps);

    return rc;
}


/* The ready hook of the first run: the parts, from the cuts. */
static int
vw_parts_plan(void *data, const vw_inspection_t *in, const vw_plan_t *plan)
{
    int           k;
    vw_parts_t   *ps;
    vw_report_t  *run;

    (void) in;

    ps = data;
    run = ps->plan_run;
    ps->nparts = (int) run->ncuts + 1;
    ps->looks = plan->looks;
    ps->indexes = plan->indexes;
    ps->parts = calloc((size_t) ps->nparts, sizeof(vw_part_mem_t));

    if (ps->parts == NULL) {
        return -1;
    }

    for (k = 0; k < ps->nparts; k++) {
        ps->parts[k].from = k > 0 ? run->cuts[k - 1] : 0;
        ps->parts[k].to = k < ps->nparts - 1 ? run->cuts[k] : plan->samples;
        ps->parts[k].next = -1;

        if (vw_rowset_init(&ps->parts[k].set, plan->indexes) != 0) {
            vw_parts_free(ps);
            return -1;
        }
    }

    return 1;                           /* that is all this run is for */
}


/*
 * The row_done hook of a part: the row kept; once a unit past the
 * part's cut is complete (its sample's row comes last), the seam is
 * looked for, and found stops the run.
 */
static int
vw_parts_done(void *data, const vw_row_t *f)
{
    int             rc;
    vw_parts_t     *ps;
    vw_part_mem_t  *pm;

    ps = data;
    pm = &ps->parts[ps->cur];

    rc = vw_rowset_put(&pm->set, f);
    if (rc <= 0) {
        return rc;
    }

    if ((f->flags & VO_FRAME_BETWEEN) || f->index / ps->looks < pm->to
        || ps->cur == ps->nparts - 1)
    {
        return 0;
    }

    return vw_parts_seam(ps, f->index / ps->looks);
}


/* Unit u of the part being read against the part whose range has it:
 * 1 (and the seam recorded) when that part takes over after it, -1 when
 * out of memory. */
static int
vw_parts_seam(vw_parts_t *ps, uint32_t u)
{
    int              q, same;
    size_t           na, nb;
    vw_row_t        *a, *b;
    const vw_row_t  *ra, *rb;
    vw_part_mem_t   *pa, *pb;

    pa = &ps->parts[ps->cur];

    for (q = ps->cur + 1; q < ps->nparts && ps->parts[q].to <= u; q++) {
        /* void */
    }

    if (q == ps->nparts) {
        return 0;
    }

    pb = &ps->parts[q];
    a = malloc(2 * (size_t) ps->looks * sizeof(vw_row_t));
    if (a == NULL) {
        return -1;
    }

    b = a + ps->looks;
    na = vw_parts_unit(pa, u, ps->looks, a);
    nb = vw_parts_unit(pb, u, ps->looks, b);
    same = 0;

    if (na > 0 && nb > 0) {
        ra = vw_rowset_get(&pa->set, vw_seam_ref(&a[na - 1]));
        rb = vw_rowset_get(&pb->set, vw_seam_ref(&b[nb - 1]));
        same = vw_seam_same(a, na, ra, b, nb, rb);
    }

    free(a);

    if (same) {
        pa->next = q;
        pa->upto = u + 1;
    }

    return same;
}


/* The rows of unit u a part has, in index order, into out (room for a
 * unit's looks). */
static size_t
vw_parts_unit(const vw_part_mem_t *pm, uint32_t u, uint32_t looks,
    vw_row_t *out)
{
    size_t           k;
    uint32_t         j;
    const vw_row_t  *r;

    k = 0;

    for (j = u * looks; j < (u + 1) * looks; j++) {
        r = vw_rowset_get(&pm->set, j);

        if (r != NULL) {
            out[k++] = *r;
        }
    }

    return k;
}


static void
vw_parts_free(vw_parts_t *ps)
{
    int  k;

    for (k = 0; k < ps->nparts && ps->parts != NULL; k++) {
        vw_rowset_free(&ps->parts[k].set);
    }

    free(ps->parts);
    ps->parts = NULL;
    ps->nparts = 0;
}
