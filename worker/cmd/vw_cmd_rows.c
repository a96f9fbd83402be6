/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * A run's rows kept in memory as the ledger keeps them (vw_cmd_rows.h).
 */

#include <stdlib.h>
#include <string.h>

#include "vw_cmd_rows.h"


int
vw_rowset_init(vw_rowset_t *rs, uint32_t indexes)
{
    uint32_t  i;

    memset(rs, 0, sizeof(vw_rowset_t));

    rs->pos = malloc(((size_t) indexes + 1) * sizeof(int64_t));
    if (rs->pos == NULL) {
        return -1;
    }

    for (i = 0; i <= indexes; i++) {
        rs->pos[i] = -1;
    }

    rs->npos = indexes;

    return 0;
}


int
vw_rowset_put(vw_rowset_t *rs, const vw_row_t *f)
{
    size_t     cap;
    vw_row_t  *r;

    if (f->index >= rs->npos) {
        return -1;
    }

    if (rs->pos[f->index] >= 0) {
        return 0;
    }

    if (rs->n == rs->cap) {
        cap = rs->cap ? 2 * rs->cap : 64;
        r = realloc(rs->rows, cap * sizeof(vw_row_t));
        if (r == NULL) {
            return -1;
        }

        rs->rows = r;
        rs->cap = cap;
    }

    r = &rs->rows[rs->n];
    *r = *f;
    r->text = strdup(f->text);
    r->parts = f->parts != NULL ? strdup(f->parts) : NULL;

    if (r->text == NULL || (f->parts != NULL && r->parts == NULL)) {
        free((char *) r->text);
        free((char *) r->parts);
        return -1;
    }

    rs->pos[f->index] = (int64_t) rs->n++;

    return 1;
}


const vw_row_t *
vw_rowset_get(const vw_rowset_t *rs, uint32_t index)
{
    if (index >= rs->npos || rs->pos[index] < 0) {
        return NULL;
    }

    return &rs->rows[rs->pos[index]];
}


void
vw_rowset_free(vw_rowset_t *rs)
{
    size_t  i;

    for (i = 0; i < rs->n; i++) {
        free((char *) rs->rows[i].text);
        free((char *) rs->rows[i].parts);
    }

    free(rs->rows);
    free(rs->pos);
    memset(rs, 0, sizeof(vw_rowset_t));
}
