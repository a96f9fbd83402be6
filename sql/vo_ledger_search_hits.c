/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * A search's page (vo_ledger_search_int.h): each hit's job and segment
 * (the run of ids it is in), the job's published result read once for
 * the segments of its hits, their highlights, the reply.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vo_ledger_search_int.h"
#include "vo_result.h"


/* a job's result walked for its hits' segments */
typedef struct {
    vo_search_t          *s;
    size_t                job;
    int                   failed;
} vo_search_ctx_t;


static vo_ledger_rc_t vo_search_job(vo_search_t *s, size_t j,
    vo_buf_t *out);
static int vo_search_segment(void *data, size_t index, const char *obj,
    size_t obj_len, const char *text, size_t text_len);
static void vo_search_render_hit(vo_search_t *s, vo_search_hit_t *h,
    vo_buf_t *out);


/*
 * The hits of the page: each id's job and segment (the run of ids it is
 * in), each job's result read once for its segments, then the reply.
 */

vo_ledger_rc_t
vo_search_resolve(vo_search_t *s, vo_buf_t *out)
{
    int               rc;
    char              cursor[VO_QUERY_CURSOR_MAX + 1];
    size_t            i, j, n;
    int64_t           base, segments;
    vo_buf_t          jobs;
    vo_stmt_t        *st;
    vo_search_hit_t  *h;
    vo_ledger_rc_t    lrc;

    n = s->nhit > (size_t) s->q->limit ? (size_t) s->q->limit : s->nhit;

    for (i = 0; i < n; i++) {
        h = &s->hit[i];
        h->job = (size_t) -1;

        st = vo_ledger_stmt(s->l, VO_STMT_SEARCH_JOB_OF, s->err,
                            s->err_size);
        if (st == NULL) {
            return VO_LEDGER_ERROR;
        }

        vo_bind_int(st, 1, h->id);

        rc = vo_step(st);

        if (rc != VO_ROW && rc != VO_DONE) {
            snprintf(s->err, s->err_size, "search hit %lld: %s",
                     (long long) h->id, vo_ledger_errmsg(s->l));
            vo_reset(st);
            return vo_ledger_rc(rc);
        }

        if (rc == VO_ROW) {
            base = vo_column_int64(st, 1);
            segments = vo_column_int64(st, 2);

            for (j = 0; j < s->njob; j++) {
                if (strcmp(s->job[j].job_id, vo_column_text(st, 0)) == 0) {
                    break;
                }
            }

            if (h->id < base + segments) {
                if (j == s->njob) {
                    vo_ledger_copy_text(s->job[j].job_id, VO_JOB_ID_LEN + 1,
                                        st, 0);
                    s->njob++;
                }

                h->job = j;
                h->segment = h->id - base;
            }
        }

        vo_reset(st);
    }

    vo_buf_init(&jobs);

    lrc = VO_LEDGER_OK;

    for (j = 0; j < s->njob && lrc == VO_LEDGER_OK; j++) {
        lrc = vo_search_job(s, j, &jobs);
    }

    if (lrc != VO_LEDGER_OK) {
        vo_buf_free(&jobs);
        return lrc;
    }

    vo_buf_adds(out, "{\"hits\":[");

    for (i = 0, j = 0; i < n; i++) {
        if (s->hit[i].obj != NULL) {
            vo_buf_adds(out, j++ ? "," : "");
            vo_search_render_hit(s, &s->hit[i], out);
        }
    }

    vo_buf_adds(out, "],\"jobs\":{");
    vo_buf_add(out, jobs.data, jobs.len);
    vo_buf_adds(out, "},\"next\":");

    if (s->nhit > n
        && vo_query_cursor(cursor, sizeof(cursor), s->hit[n - 1].tier,
                           s->hit[n - 1].id)
           > 0)
    {
        vo_json_strz(out, cursor);

    } else if (s->stop_tier >= 0
               && vo_query_cursor(cursor, sizeof(cursor), s->stop_tier,
                                  s->stop_id)
                  > 0)
    {
        /* the budget ran out: the next page goes on from there */
        vo_json_strz(out, cursor);

    } else {
        vo_buf_adds(out, "null");
    }

    vo_buf_adds(out, "}\n");

    vo_buf_free(&jobs);

    return VO_LEDGER_OK;
}


/*
 * Job j: what a list shows of it into jobs ("<id>":{...}), and the
 * segments its hits are, from its published result.  A job that is not
 * the tenant's, or no longer there, has no hits.
 */

static vo_ledger_rc_t
vo_search_job(vo_search_t *s, size_t j, vo_buf_t *jobs)
{
    int              rc;
    char             why[VO_ERR_TEXT];
    size_t           n;
    vo_stmt_t       *st;
    const char      *body, *v;
    vo_search_ctx_t  c;

    st = vo_ledger_stmt(s->l, VO_STMT_SEARCH_JOB_INFO, s->err, s->err_size);
    if (st == NULL) {
        return VO_LEDGER_ERROR;
    }

    vo_bind_text(st, 1, s->job[j].job_id, -1);
    vo_bind_text(st, 2, s->tenant, (int) s->tenant_len);

    rc = vo_step(st);

    if (rc != VO_ROW) {
        vo_reset(st);

        if (rc == VO_DONE) {
            return VO_LEDGER_OK;
        }

        snprintf(s->err, s->err_size, "search job %s: %s", s->job[j].job_id,
                 vo_ledger_errmsg(s->l));
        return vo_ledger_rc(rc);
    }

    body = vo_column_text(st, 5);
    n = (size_t) vo_column_bytes(st, 5);

    vo_buf_adds(jobs, jobs->len ? "," : "");
    vo_json_strz(jobs, s->job[j].job_id);
    vo_buf_adds(jobs, ":{\"created_at\":");
    vo_json_time(jobs, vo_column_int64(st, 0));
    vo_buf_adds(jobs, ",\"finished_at\":");
    vo_json_time(jobs, vo_ledger_int_or(st, 1, -1));
    vo_buf_adds(jobs, ",\"options\":");
    vo_ledger_json_raw_or_null(jobs, st, 2);
    vo_buf_adds(jobs, ",\"filename\":");
    vo_json_strz(jobs, vo_column_text(st, 4));
    vo_buf_adds(jobs, ",\"frame_size\":");

    if (body != NULL && vo_result_member(body, n, "frame_size", &v, &n) == 0)
    {
        vo_buf_add(jobs, v, n);

    } else {
        vo_buf_adds(jobs, "null");
    }

    vo_buf_adds(jobs, ",\"media_deleted_at\":");
    vo_json_time(jobs, vo_ledger_int_or(st, 3, -1));
    vo_buf_addc(jobs, '}');

    /* its hits' segments */

    c.s = s;
    c.job = j;
    c.failed = 0;

    if (body != NULL
        && vo_result_segments(body, (size_t) vo_column_bytes(st, 5),
                              vo_search_segment, &c, why, sizeof(why))
           != 0)
    {
        /* a result the index was made from, unreadable now: the hits
         * it did not give are left out (unless memory ran out) */
    }

    vo_reset(st);

    if (c.failed) {
        snprintf(s->err, s->err_size, "search job %s: out of memory",
                 s->job[j].job_id);
        return VO_LEDGER_ERROR;
    }

    return VO_LEDGER_OK;
}


static int
vo_search_segment(void *data, size_t index, const char *obj, size_t obj_len,
    const char *text, size_t text_len)
{
    vo_search_ctx_t  *c = data;

    size_t            i, left;
    vo_search_t      *s = c->s;
    vo_search_hit_t  *h;

    left = 0;

    for (i = 0; i < s->nhit && i < (size_t) s->q->limit; i++) {
        h = &s->hit[i];

        if (h->job != c->job || h->obj != NULL) {
            continue;
        }

        if ((size_t) h->segment != index) {
            left++;
            continue;
        }

        h->obj = malloc(obj_len + 1);
        h->text = malloc(text_len + 1);

        if (h->obj == NULL || h->text == NULL) {
            free(h->obj);
            free(h->text);
            h->obj = NULL;
            h->text = NULL;
            c->failed = 1;
            return 1;
        }

        memcpy(h->obj, obj, obj_len);
        h->obj_len = obj_len;
        memcpy(h->text, text, text_len);
        h->text[text_len] = '\0';
        h->text_len = text_len;
    }

    /* stop once every hit of the job has its segment */
    return left == 0;
}


/*
 * A hit: its job and segment, its tier, its highlights (the tier's
 * patterns in its text), then the segment's members as published.
 */

static void
vo_search_render_hit(vo_search_t *s, vo_search_hit_t *h, vo_buf_t *out)
{
    size_t             i, k, n, npat, body;
    uint32_t           marks[VO_SEARCH_MARKS][2];
    const char        *pat[VO_SEARCH_HIT_PATS];
    size_t             len[VO_SEARCH_HIT_PATS];
    const vo_query_t  *q = s->q;

    npat = 0;

    switch (h->tier) {

    case VO_QUERY_EXACT:
        pat[npat] = q->phrase;
        len[npat++] = q->phrase_len;
        break;

    case VO_QUERY_PHRASE:
        pat[npat] = s->t1;
        len[npat++] = s->t1_len;
        break;

    default:
        for (i = 0; i < q->nwords; i++) {
            if (h->tier == VO_QUERY_FUZZY && q->words[i].fuzzy) {
                pat[npat] = s->self[i].word;        /* found whole */
                len[npat++] = s->self[i].len;

            } else {
                pat[npat] = s->form[i];
                len[npat++] = s->form_len[i];
            }

            for (k = 0; h->tier == VO_QUERY_FUZZY && k < s->nvar[i]; k++) {
                pat[npat] = s->var[i][k].word;
                len[npat++] = s->var[i][k].len;
            }
        }
    }

    n = vo_query_marks(h->text, h->text_len, pat, len, npat, marks,
                       VO_SEARCH_MARKS);

    vo_buf_adds(out, "{\"job_id\":");
    vo_json_strz(out, s->job[h->job].job_id);
    vo_buf_printf(out, ",\"segment\":%lld,\"match\":\"%s\",\"highlights\":[",
                  (long long) h->segment, vo_search_tiers[h->tier]);

    for (i = 0; i < n; i++) {
        vo_buf_printf(out, "%s[%u,%u]", i ? "," : "", (unsigned) marks[i][0],
                      (unsigned) marks[i][1]);
    }

    vo_buf_addc(out, ']');

    /* the segment's own members: "{...}" without its braces */

    for (body = 1; body < h->obj_len - 1
                   && strchr(" \t\r\n", h->obj[body]) != NULL; body++)
    {
        /* void */
    }

    if (body < h->obj_len - 1) {
        vo_buf_addc(out, ',');
        vo_buf_add(out, h->obj + body, h->obj_len - 1 - body);
    }

    vo_buf_addc(out, '}');
}
