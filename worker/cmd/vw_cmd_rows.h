/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * A run's rows kept in memory as the ledger keeps them (one row per
 * index, the first written stays: invariant 8 of sql/schema.sql), for
 * the ocr command's runs (vw_cmd_ocr.c) and its parts (vw_cmd_parts.c).
 */

#ifndef _VW_CMD_ROWS_H_INCLUDED_
#define _VW_CMD_ROWS_H_INCLUDED_


#include "pipeline/vw_pipeline.h"


typedef struct {
    vw_row_t           *rows;        /* in the order they came */
    size_t              n;
    size_t              cap;
    int64_t            *pos;         /* index -> rows[] slot, -1: none */
    uint32_t            npos;        /* the plan's indexes */
} vw_rowset_t;


/* Room for the indexes of a plan, none kept yet: 0, or -1 out of
 * memory. */
int vw_rowset_init(vw_rowset_t *rs, uint32_t indexes);

/* A copy of f (its text and parts too) kept: 1, or 0 when its index
 * has a row already (that one stays); -1 when out of memory or f's
 * index is not the plan's. */
int vw_rowset_put(vw_rowset_t *rs, const vw_row_t *f);

/* The row of an index, or NULL. */
const vw_row_t *vw_rowset_get(const vw_rowset_t *rs, uint32_t index);

/* Frees the rows (their texts and parts) and the index; rs is then
 * empty, and may be freed again. */
void vw_rowset_free(vw_rowset_t *rs);


#endif /* _VW_CMD_ROWS_H_INCLUDED_ */
