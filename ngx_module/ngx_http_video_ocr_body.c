/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The request body filter.  Every buffer of an intake upload passes
 * through here on its way to memory or to the client body temp file, so
 * the SHA-256 of the body is known the moment the last byte arrives and
 * the file is never read back.  The first bytes are kept for the
 * container sniffer: a body that is not a video is refused (415) as soon
 * as enough of it has arrived, without waiting for the rest.
 */


#include "ngx_http_video_ocr.h"


static ngx_int_t ngx_http_video_ocr_body_filter(ngx_http_request_t *r,
    ngx_chain_t *in);


static ngx_http_request_body_filter_pt   ngx_http_next_request_body_filter;


ngx_int_t
ngx_http_video_ocr_body_filter_init(ngx_conf_t *cf)
{
    ngx_http_next_request_body_filter = ngx_http_top_request_body_filter;
    ngx_http_top_request_body_filter = ngx_http_video_ocr_body_filter;

    return NGX_OK;
}


static ngx_int_t
ngx_http_video_ocr_body_filter(ngx_http_request_t *r, ngx_chain_t *in)
{
    size_t                          size, n;
    ngx_int_t                       rc;
    ngx_err_t                       err;
    ngx_buf_t                      *b;
    ngx_uint_t                      last;
    ngx_chain_t                    *cl;
    ngx_http_video_ocr_ctx_t       *ctx;
    ngx_http_video_ocr_loc_conf_t  *vlcf;

    ctx = ngx_http_get_module_ctx(r, ngx_http_video_ocr_module);

    if (ctx == NULL || ctx->md == NULL) {
        return ngx_http_next_request_body_filter(r, in);
    }

    last = 0;

    for (cl = in; cl; cl = cl->next) {
        b = cl->buf;

        if (b->last_buf) {
            last = 1;
        }

        if (b->in_file) {
            /* request body filters see memory; a file here is a bug */
            ngx_log_error(NGX_LOG_ALERT, r->connection->log, 0,
                          "video_ocr: file buffer in request body filter");
            return NGX_HTTP_INTERNAL_SERVER_ERROR;
        }

        size = b->last - b->pos;

        if (size == 0) {
            continue;
        }

        if (EVP_DigestUpdate(ctx->md, b->pos, size) != 1) {
            ngx_log_error(NGX_LOG_ALERT, r->connection->log, 0,
                          "video_ocr: EVP_DigestUpdate() failed");
            return NGX_HTTP_INTERNAL_SERVER_ERROR;
        }

        ctx->received += size;

        if (ctx->sniff_len < VO_SNIFF_BYTES) {
            n = ngx_min(size, VO_SNIFF_BYTES - ctx->sniff_len);
            ngx_memcpy(ctx->sniff + ctx->sniff_len, b->pos, n);
            ctx->sniff_len += n;
        }
    }

    if (ctx->container == VO_CONTAINER_NEED_MORE) {
        ctx->container = vo_sniff_container(ctx->sniff, ctx->sniff_len, last);

        if (ctx->container != VO_CONTAINER_NEED_MORE) {
            vlcf = ngx_http_get_module_loc_conf(r, ngx_http_video_ocr_module);

            if (ctx->received == 0) {
                /* an empty body is answered by the post handler (400) */

            } else if (ctx->container == VO_CONTAINER_UNKNOWN) {
                ngx_log_error(NGX_LOG_INFO, r->connection->log, 0,
                              "video_ocr: upload is not a known video "
                              "container");
                ngx_http_video_ocr_set_problem(r,
                        NGX_HTTP_VIDEO_OCR_NOT_A_VIDEO, NULL);
                return NGX_HTTP_UNSUPPORTED_MEDIA_TYPE;

            } else if (!(vlcf->containers & ((ngx_uint_t) 1 << ctx->container)))
            {
                ngx_log_error(NGX_LOG_INFO, r->connection->log, 0,
                              "video_ocr: container \"%s\" not accepted here",
                              vo_container_name(ctx->container));
                ngx_http_video_ocr_set_problem(r,
                        NGX_HTTP_VIDEO_OCR_NOT_A_VIDEO,
                        "this endpoint does not accept this container "
                        "format (see video_ocr_containers)");
                return NGX_HTTP_UNSUPPORTED_MEDIA_TYPE;
            }
        }
    }

    rc = ngx_http_next_request_body_filter(r, in);

    if (rc == NGX_HTTP_INTERNAL_SERVER_ERROR) {
        err = ngx_errno;

        /* the temp file write failed (logged CRIT by nginx); a full disk
         * is the client's 507, not a 500 */

        if (err == NGX_ENOSPC || err == EDQUOT) {
            ngx_http_video_ocr_set_problem(r, NGX_HTTP_VIDEO_OCR_DISK_FULL,
                                           NULL);
            return NGX_HTTP_INSUFFICIENT_STORAGE;
        }
    }

    return rc;
}
