/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * What the files of the resumable uploads share, and nobody else needs
 * (ngx_http_video_ocr.h is the module's; this one sits beside it as
 * SQLite's btreeInt.h sits beside btree.h).  From the top down:
 *
 *   ngx_http_video_ocr_upload.c          the requests: creation, HEAD,
 *                                        DELETE, OPTIONS, the start of
 *                                        an append
 *   ngx_http_video_ocr_append.c          an append's body, read and
 *                                        committed; the completion
 *   ngx_http_video_ocr_concat.c          tus concatenation: a final
 *                                        upload's partial uploads joined
 *                                        and admitted
 *   ngx_http_video_ocr_upload_headers.c  the protocols' request headers
 *   ngx_http_video_ocr_upload_reply.c    the protocols' replies
 *   ngx_http_video_ocr_upload_task.c     the upload's thread-pool tasks:
 *                                        its rows and its partial file
 *
 * Calls run one way, down this list; the upload's replies and tasks
 * know no request handler.
 */

#ifndef _NGX_HTTP_VIDEO_OCR_RESUMABLE_H_INCLUDED_
#define _NGX_HTTP_VIDEO_OCR_RESUMABLE_H_INCLUDED_


#include "ngx_http_video_ocr.h"


/* an append's chunk is staged into the partial file in steps of this */
#define NGX_HTTP_VIDEO_OCR_STAGE_BYTES  (1024 * 1024)


#define NGX_HTTP_VIDEO_OCR_TUS_EXTENSIONS                                    \
    "creation,creation-with-upload,creation-defer-length,termination,"       \
    "expiration,checksum,concatenation"


/*
 * A final upload's task (tus concatenation), beside the upload's own:
 * what the thread joins and what it found.
 */
typedef struct {
    vo_upload_final_t                final;         /* the ledger's part */
    vo_upload_part_t                 part[VO_UPLOAD_PARTS_MAX];
    char                             parts[VO_UPLOAD_PARTS_MAX * 33];
    char                             body_sha256[VO_DIGEST_HEX_LEN + 1];
    char                             input_digest[VO_DIGEST_HEX_LEN + 1];
    unsigned                         refused:1;     /* not a video */
    unsigned                         gone:1;        /* a partial upload
                                                       went while joined:
                                                       final.bad names it */
} ngx_http_video_ocr_concat_t;


/*
 * A request of the resumable protocols: what its headers said, the
 * upload as the ledger has it, and, for an append, the running SHA-256
 * and the chunk file the body goes to until it is committed into the
 * partial file.
 */
struct ngx_http_video_ocr_up_s {
    char                             id[VO_UPLOAD_ID_LEN + 1];
    ngx_str_t                        base;          /* the intake's URI */
    int64_t                          offset;        /* Upload-Offset */
    int64_t                          length;        /* Upload-Length */
    u_char                           checksum[32];  /* Upload-Checksum */
    vo_checksum_e                    checksum_algo;
    vo_upload_meta_t                 meta;          /* Upload-Metadata */
    ngx_str_t                        metadata;      /* as the header has
                                                       it, for HEAD */
    char                           (*parts)[VO_UPLOAD_ID_LEN + 1];
    size_t                           nparts;        /* Upload-Concat:
                                                       final;<these> */

    vo_upload_row_t                  row;           /* the ledger's */
    SHA256_CTX                       sha;           /* [0, row.offset +
                                                       chunk_len) */
    EVP_MD_CTX                      *chunk_md;      /* this request's,
                                                       for Upload-Checksum */
    ngx_temp_file_t                 *chunk;
    int64_t                          chunk_len;     /* not committed yet */
    int64_t                          staged;        /* of those, copied
                                                       into the partial
                                                       file already */
    ngx_thread_task_t               *stage;         /* reused */
    ngx_http_video_ocr_concat_t     *concat;        /* a final upload's */
    int64_t                          received;      /* this request's */
    ngx_int_t                        error_rc;      /* the body's end */

    unsigned                         tus:1;
    unsigned                         interop:4;     /* 6 or 8; 0: tus */
    unsigned                         has_offset:1;
    unsigned                         has_complete:1;
    unsigned                         complete:1;    /* Upload-Complete ?1 */
    unsigned                         has_length:1;
    unsigned                         defer:1;       /* Upload-Defer-Length */
    unsigned                         has_checksum:1;
    unsigned                         partial:1;     /* Upload-Concat:
                                                       partial */
    unsigned                         final:1;       /* Upload-Concat:
                                                       final;... */
    unsigned                         creation:1;
    unsigned                         committing:1;
    unsigned                         body_done:1;
    unsigned                         staging:1;     /* a stage in flight */
    unsigned                         stage_wait:1;  /* the loop waits for
                                                       it */
    unsigned                         stage_off:1;   /* a stage failed */
    unsigned                         cut_drop:1;    /* the end of a cut
                                                       body is not kept */
};


/* ngx_http_video_ocr_append.c: reads an append's body once claimed */
void ngx_http_video_ocr_append_start(ngx_http_request_t *r);


/*
 * ngx_http_video_ocr_upload_headers.c: the protocols' headers into up,
 * each at most once and exactly as specified, and for a creation the key
 * and the options into ctx.  NGX_OK, or NGX_ERROR with the refusal
 * recorded (ngx_http_video_ocr_set_problem).
 */
ngx_int_t ngx_http_video_ocr_upload_parse(ngx_http_request_t *r,
    ngx_http_video_ocr_ctx_t *ctx, ngx_http_video_ocr_up_t *up);

/* Content-Type is type (parameters ignored); NULL: anything. */
ngx_int_t ngx_http_video_ocr_content_type(ngx_http_request_t *r,
    const char *type);

#define ngx_http_video_ocr_has_body(r)                                       \
    ((r)->headers_in.content_length_n > 0 || (r)->headers_in.chunked)


/*
 * ngx_http_video_ocr_upload_reply.c: every reply of the protocols: the
 * protocol's headers for the upload as the request left it, then the
 * status (no body), the receipt (a completion) or the problem.  _end
 * finalizes the request with it (from a task's completion handler).
 */
ngx_int_t ngx_http_video_ocr_upload_reply(ngx_http_request_t *r,
    ngx_uint_t outcome, const char *detail);
void ngx_http_video_ocr_upload_end(ngx_http_request_t *r,
    ngx_uint_t outcome, const char *detail);

/* The receipt of a completed upload, replayed (Idempotent-Replayed). */
ngx_int_t ngx_http_video_ocr_upload_replay(ngx_http_request_t *r);

/* 104 Upload Resumption Supported, before a creation's body is read. */
void ngx_http_video_ocr_upload_104(ngx_http_request_t *r);

/* A reply without a body (201, 204): the headers say it all. */
ngx_int_t ngx_http_video_ocr_send_empty(ngx_http_request_t *r,
    ngx_uint_t status);

/* A response header; NGX_ERROR when value is NULL (a failed copy). */
ngx_int_t ngx_http_video_ocr_add_header(ngx_http_request_t *r,
    const char *name, u_char *value, size_t len);


/*
 * ngx_http_video_ocr_upload_task.c: posts a task for the request's
 * upload that runs run in its thread; done runs in the event loop when
 * it has finished.  NGX_OK, or NGX_ERROR with the refusal recorded (a
 * full queue).
 */
ngx_int_t ngx_http_video_ocr_upload_post(ngx_http_request_t *r,
    ngx_http_video_ocr_run_pt run, ngx_http_event_handler_pt done);

/* A task for the request's upload, filled but not posted yet. */
ngx_thread_task_t *ngx_http_video_ocr_upload_task_new(ngx_http_request_t *r,
    ngx_http_video_ocr_run_pt run);

/*
 * The upload's thread functions (see ngx_http_video_ocr_upload_task.c);
 * _receipt, in a thread, looks up a completed upload's receipt.
 */
void ngx_http_video_ocr_upload_create_thread(ngx_http_video_ocr_task_t *t);
void ngx_http_video_ocr_upload_get_thread(ngx_http_video_ocr_task_t *t);
void ngx_http_video_ocr_upload_claim_thread(ngx_http_video_ocr_task_t *t);
void ngx_http_video_ocr_upload_stage_thread(ngx_http_video_ocr_task_t *t);
void ngx_http_video_ocr_upload_commit_thread(ngx_http_video_ocr_task_t *t);
void ngx_http_video_ocr_upload_delete_thread(ngx_http_video_ocr_task_t *t);
void ngx_http_video_ocr_upload_receipt(ngx_http_video_ocr_task_t *t,
    vo_ledger_t *l);
vo_container_t ngx_http_video_ocr_sniff_file(int fd, ngx_uint_t containers);


/*
 * ngx_http_video_ocr_concat.c: a tus final upload's creation (up->final):
 * its partial uploads joined and admitted.  Returns as the content
 * handler does.
 */
ngx_int_t ngx_http_video_ocr_concat_final(ngx_http_request_t *r);


#endif /* _NGX_HTTP_VIDEO_OCR_RESUMABLE_H_INCLUDED_ */
