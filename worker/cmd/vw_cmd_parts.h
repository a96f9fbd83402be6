/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The ocr command's reading in parts (vw_cmd_parts.c), apart from
 * vw_cmd.h so that only the ocr command sees the pipeline's types.
 */

#ifndef _VW_CMD_PARTS_H_INCLUDED_
#define _VW_CMD_PARTS_H_INCLUDED_


#include "pipeline/vw_pipeline.h"


/*
 * ocr --debug-parts T (vw_cmd_parts.c): job's file read in parts of
 * about part_ms, one after another; 0 with the rows joined at their
 * seams in *rows (copies: the caller frees them, their texts and
 * parts), the report of the run that found the cuts in *report; -1
 * with err filled.  stats: each part's run on stderr.
 */
int vw_cmd_parts(const vw_job_t *job, int64_t part_ms, int stats,
    vw_row_t **rows, size_t *n, vw_report_t *report, vw_err_t *err);


#endif /* _VW_CMD_PARTS_H_INCLUDED_ */
