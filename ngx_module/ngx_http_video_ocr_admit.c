/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The admission: what makes two requests the same intent, whichever way
 * the bytes came (one POST, ngx_http_video_ocr_intake.c; the appends of
 * a resumable upload, ngx_http_video_ocr_append.c; the partial uploads a
 * tus final upload joins, ngx_http_video_ocr_concat.c), computed in one
 * place so that the ways cannot drift apart:
 *
 *   event loop: the Idempotency-Key and its hash; from the body's SHA-256
 *               and the canonical options, the input digest; a job id;
 *               the admission filled (ngx_http_video_ocr_admission);
 *   thread:     a live receipt looked up, else the upload placed in the
 *               store and the receipt committed in a group with the other
 *               threads' admissions (vo_group.h);
 *   event loop: 202 and the receipt, the same bytes on every replay.
 */


#include <openssl/rand.h>

#include "ngx_http_video_ocr.h"
#include "vo_group.h"


static void ngx_http_video_ocr_md_free(void *data);
static int ngx_http_video_ocr_temp_moved(int fd, const char *path);


/* the admissions of this worker process's threads, committed in groups */
static vo_group_t  ngx_http_video_ocr_group = VO_GROUP_INITIALIZER;


/*
 * Finds and parses the Idempotency-Key header.  One header, one key: a
 * request with two keys is ambiguous and refused.  Returns NGX_OK, or
 * NGX_HTTP_BAD_REQUEST with the reason recorded for the reply.  Its hash
 * is the caller's to compute, once the tenant is known.
 */

ngx_int_t
ngx_http_video_ocr_key(ngx_http_request_t *r, ngx_http_video_ocr_ctx_t *ctx,
    ngx_uint_t required)
{
    char              err[VO_ERR_MAX];
    ngx_uint_t        n;
    ngx_table_elt_t  *key;

    key = ngx_http_video_ocr_header_in(r, "Idempotency-Key", &n);

    if (n > 1) {
        ngx_http_video_ocr_set_problem(r, NGX_HTTP_VIDEO_OCR_BAD_KEY, NULL);
        return NGX_HTTP_BAD_REQUEST;
    }

    if (key == NULL) {
        if (!required) {
            return NGX_OK;
        }

        ngx_http_video_ocr_set_problem(r, NGX_HTTP_VIDEO_OCR_MISSING_KEY,
                                       NULL);
        return NGX_HTTP_BAD_REQUEST;
    }

    if (vo_key_parse((char *) key->value.data, key->value.len, ctx->key,
                     &ctx->key_len, err, sizeof(err))
        != 0)
    {
        ngx_log_error(NGX_LOG_INFO, r->connection->log, 0,
                      "video_ocr: bad Idempotency-Key: %s", err);
        ngx_http_video_ocr_set_problem(r, NGX_HTTP_VIDEO_OCR_BAD_KEY, err);
        return NGX_HTTP_BAD_REQUEST;
    }

    ctx->has_key = 1;

    return NGX_OK;
}


/* The first request header of that name, and how many there are. */

ngx_table_elt_t *
ngx_http_video_ocr_header_in(ngx_http_request_t *r, const char *name,
    ngx_uint_t *n)
{
    size_t            len;
    ngx_uint_t        i;
    ngx_list_part_t  *part;
    ngx_table_elt_t  *h, *first;

    len = ngx_strlen(name);
    first = NULL;
    *n = 0;

    part = &r->headers_in.headers.part;
    h = part->elts;

    for (i = 0; /* void */ ; i++) {

        if (i >= part->nelts) {
            if (part->next == NULL) {
                break;
            }

            part = part->next;
            h = part->elts;
            i = 0;
        }

        if (h[i].key.len == len
            && ngx_strncasecmp(h[i].key.data, (u_char *) name, len) == 0)
        {
            if (first == NULL) {
                first = &h[i];
            }

            (*n)++;
        }
    }

    return first;
}


/*
 * $video_ocr_key_hash: HMAC-SHA256(video_ocr_key_hash_secret,
 * tenant NUL key), first 8 bytes in hex.  Joins log lines of one intent
 * without writing the key itself anywhere.  ctx has the tenant and the
 * key.
 */

void
ngx_http_video_ocr_key_hash(ngx_http_request_t *r,
    ngx_http_video_ocr_ctx_t *ctx)
{
    ngx_http_video_ocr_main_conf_t  *mcf;

    mcf = ngx_http_get_module_main_conf(r, ngx_http_video_ocr_module);

    vo_key_hash((char *) mcf->key_hash_secret.data,
                mcf->key_hash_secret.len, (char *) ctx->tenant.data,
                ctx->tenant.len, ctx->key, ctx->key_len,
                (char *) ctx->key_hash);
}


/*
 * The admission of ctx's intent into t: ctx has the tenant, the key (if
 * any) and the canonical options; body_sha256 is the SHA-256 of the
 * size bytes of the body, however they came.  Computes the input digest,
 * proposes a job id and fills t->admission for the store's input name
 * t->rel.  The caller adds what only it knows: the container (the POST's
 * body filter sniffed it; an upload's is sniffed by its commit), and the
 * resumable upload that the admission completes.  A tus final upload's
 * bytes are hashed as its thread joins them: body_sha256 is NULL, and
 * that thread computes the digest with ngx_http_video_ocr_input_digest
 * and sets the size.  NGX_OK, or NGX_ERROR (logged; nothing is posted
 * then).
 */

ngx_int_t
ngx_http_video_ocr_admission(ngx_http_request_t *r,
    ngx_http_video_ocr_task_t *t, u_char *body_sha256, off_t size)
{
    vo_admission_t                  *a;
    ngx_http_video_ocr_ctx_t        *ctx;
    ngx_http_video_ocr_loc_conf_t   *vlcf;
    ngx_http_video_ocr_main_conf_t  *mcf;

    ctx = ngx_http_get_module_ctx(r, ngx_http_video_ocr_module);
    mcf = ngx_http_get_module_main_conf(r, ngx_http_video_ocr_module);
    vlcf = ngx_http_get_module_loc_conf(r, ngx_http_video_ocr_module);

    if (body_sha256 != NULL
        && ngx_http_video_ocr_input_digest(body_sha256, ctx->options_json,
                                           ctx->body_sha256,
                                           ctx->input_digest) != 0)
    {
        ngx_log_error(NGX_LOG_ALERT, r->connection->log, 0,
                      "video_ocr: input digest failed");
        return NGX_ERROR;
    }

    if (ngx_http_video_ocr_new_job_id(r, ctx->job_id) != NGX_OK) {
        return NGX_ERROR;
    }

    vo_store_input_path(ctx->job_id, t->rel);

    /* the status URL as the receipt gives it, for the notifications */

    ctx->status_url.len = vlcf->jobs_url.len + VO_JOB_ID_LEN;
    ctx->status_url.data = ngx_pnalloc(r->pool, ctx->status_url.len);
    if (ctx->status_url.data == NULL) {
        return NGX_ERROR;
    }

    ngx_memcpy(ngx_cpymem(ctx->status_url.data, vlcf->jobs_url.data,
                          vlcf->jobs_url.len),
               ctx->job_id, VO_JOB_ID_LEN);

    a = &t->admission;
    a->tenant = (char *) ctx->tenant.data;
    a->tenant_len = ctx->tenant.len;
    a->key = ctx->has_key ? ctx->key : NULL;
    a->key_len = ctx->key_len;
    a->input_digest = ctx->input_digest;
    a->job_id = ctx->job_id;
    a->options = ctx->options_json;
    a->input_path = t->rel;
    a->input_size = size;
    a->input_sha256 = ctx->body_sha256;
    a->now_ms = ngx_http_video_ocr_now_ms();
    a->receipt_ttl_ms = (int64_t) mcf->receipt_ttl * 1000;
    a->max_attempts = (int) mcf->max_attempts;
    a->status_url = (char *) ctx->status_url.data;
    a->status_url_len = ctx->status_url.len;

    if (ctx->webhook_url.len > 0) {
        a->webhook_url = (char *) ctx->webhook_url.data;
        a->webhook_url_len = ctx->webhook_url.len;
        a->webhook_secret = (char *) ctx->webhook_secret.data;
        a->webhook_secret_len = ctx->webhook_secret.len;
    }

    a->webhook_accepted = vlcf->webhook_accepted ? 1 : 0;

    /* the tenant's queue cap, checked by the admission */
    a->max_queued = vlcf->tenant_max_queued;

    return NGX_OK;
}


/*
 * input_digest = SHA-256("video-ocr/1\n" body-sha256-hex "\n"
 *                        canonical-options): what was asked, exactly.
 * Also writes the body's SHA-256 in hex.  Both out buffers hold
 * VO_DIGEST_HEX_LEN + 1 bytes.  Plain C (a final upload's thread calls
 * it too); 0, or -1 when options are too long or OpenSSL fails.
 */

int
ngx_http_video_ocr_input_digest(u_char *body_sha256, const char *options,
    char *body_hex, char *input_digest)
{
    u_char        *p, md[EVP_MAX_MD_SIZE];
    u_char         in[sizeof("video-ocr/1\n") - 1 + VO_DIGEST_HEX_LEN + 1
                      + VO_OPTIONS_JSON_MAX];
    size_t         len;
    unsigned int   n;

    ngx_http_video_ocr_hex((u_char *) body_hex, body_sha256, 32);

    len = ngx_strlen(options);

    if (len >= VO_OPTIONS_JSON_MAX) {
        return -1;
    }

    p = ngx_cpymem(in, "video-ocr/1\n", sizeof("video-ocr/1\n") - 1);
    p = ngx_cpymem(p, body_hex, VO_DIGEST_HEX_LEN);
    *p++ = '\n';
    p = ngx_cpymem(p, options, len);

    if (EVP_Digest(in, p - in, md, &n, EVP_sha256(), NULL) != 1) {
        return -1;
    }

    ngx_http_video_ocr_hex((u_char *) input_digest, md, n);

    return 0;
}


/*
 * A digest of type over bytes as they come (the body's SHA-256, a tus
 * chunk's checksum), freed with the request.  NULL on failure (logged
 * when it is OpenSSL's).
 */

EVP_MD_CTX *
ngx_http_video_ocr_md(ngx_http_request_t *r, const EVP_MD *type)
{
    EVP_MD_CTX          *md;
    ngx_pool_cleanup_t  *cln;

    cln = ngx_pool_cleanup_add(r->pool, 0);
    if (cln == NULL) {
        return NULL;
    }

    md = EVP_MD_CTX_new();
    if (md == NULL) {
        return NULL;
    }

    cln->handler = ngx_http_video_ocr_md_free;
    cln->data = md;

    if (EVP_DigestInit_ex(md, type, NULL) != 1) {
        ngx_log_error(NGX_LOG_ALERT, r->connection->log, 0,
                      "video_ocr: EVP_DigestInit_ex() failed");
        return NULL;
    }

    return md;
}


static void
ngx_http_video_ocr_md_free(void *data)
{
    EVP_MD_CTX_free(data);
}


/*
 * The job id: the admission's time in milliseconds (48 bits, big
 * endian), then 80 random bits, as in a UUIDv7.  Ids that grow with time
 * keep every index on job_id (jobs, requests, events) appending to its
 * last pages, so a batch of admissions dirties a few shared pages
 * instead of one random page per index and admission; 80 random bits
 * keep the id unguessable.  job_id holds VO_JOB_ID_LEN + 1 bytes.
 */

ngx_int_t
ngx_http_video_ocr_new_job_id(ngx_http_request_t *r, char *job_id)
{
    u_char       rnd[VO_JOB_ID_LEN / 2];
    size_t       n;
    uint64_t     ms;
    ngx_time_t  *tp;

    tp = ngx_timeofday();
    ms = (uint64_t) tp->sec * 1000 + tp->msec;

    for (n = 0; n < 6; n++) {
        rnd[n] = (u_char) (ms >> (40 - 8 * n));
    }

    if (RAND_bytes(rnd + 6, sizeof(rnd) - 6) != 1) {
        ngx_log_error(NGX_LOG_ALERT, r->connection->log, 0,
                      "video_ocr: RAND_bytes() failed");
        return NGX_ERROR;
    }

    ngx_http_video_ocr_hex((u_char *) job_id, rnd, sizeof(rnd));

    return NGX_OK;
}


/*
 * An id of len random bytes, in hex, into id (2 * len + 1 bytes): an
 * upload resource's name.
 */

ngx_int_t
ngx_http_video_ocr_random_id(ngx_http_request_t *r, char *id, size_t len)
{
    u_char  rnd[64];

    if (len > sizeof(rnd) || RAND_bytes(rnd, (int) len) != 1) {
        ngx_log_error(NGX_LOG_ALERT, r->connection->log, 0,
                      "video_ocr: RAND_bytes() failed");
        return NGX_ERROR;
    }

    ngx_http_video_ocr_hex((u_char *) id, rnd, len);

    return NGX_OK;
}


/*
 * 202 Accepted, Location of the job, and the receipt: the same bytes for
 * the first answer and every replay of it.
 */

ngx_int_t
ngx_http_video_ocr_send_receipt(ngx_http_request_t *r,
    ngx_http_video_ocr_ctx_t *ctx, ngx_uint_t replayed)
{
    u_char                         *p, *last;
    size_t                          len;
    ngx_table_elt_t                *h;
    vo_buf_t                        b;
    ngx_http_video_ocr_task_t      *t;
    ngx_http_video_ocr_loc_conf_t  *vlcf;

    vlcf = ngx_http_get_module_loc_conf(r, ngx_http_video_ocr_module);
    t = ctx->task;

    len = vlcf->jobs_url.len + VO_JOB_ID_LEN;

    p = ngx_pnalloc(r->pool, len);
    if (p == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    last = ngx_cpymem(p, vlcf->jobs_url.data, vlcf->jobs_url.len);
    (void) ngx_cpymem(last, ctx->job_id, VO_JOB_ID_LEN);

    h = ngx_list_push(&r->headers_out.headers);
    if (h == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    h->hash = 1;
    ngx_str_set(&h->key, "Location");
    h->value.data = p;
    h->value.len = len;
    r->headers_out.location = h;

    if (replayed) {
        h = ngx_list_push(&r->headers_out.headers);
        if (h == NULL) {
            return NGX_HTTP_INTERNAL_SERVER_ERROR;
        }

        h->hash = 1;
        ngx_str_set(&h->key, "Idempotent-Replayed");
        ngx_str_set(&h->value, "true");
    }

    vo_buf_init(&b);
    vo_buf_adds(&b, "{\"job_id\":");
    vo_json_str(&b, ctx->job_id, VO_JOB_ID_LEN);
    vo_buf_adds(&b, ",\"status_url\":");
    vo_json_str(&b, (char *) p, len);
    vo_buf_adds(&b, ",\"input_digest\":");
    vo_json_str(&b, ctx->input_digest, VO_DIGEST_HEX_LEN);
    vo_buf_adds(&b, ",\"options\":");
    vo_buf_adds(&b, ctx->options_json);
    vo_buf_adds(&b, ",\"created_at\":");
    vo_json_time(&b, t->receipt.created_at);
    vo_buf_adds(&b, ",\"expires_at\":");
    vo_json_time(&b, ctx->has_key ? t->receipt.expires_at : -1);
    vo_buf_adds(&b, "}\n");

    if (b.failed) {
        vo_buf_free(&b);
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    p = ngx_pnalloc(r->pool, b.len);
    if (p == NULL) {
        vo_buf_free(&b);
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    ngx_memcpy(p, b.data, b.len);
    len = b.len;
    vo_buf_free(&b);

    return ngx_http_video_ocr_send_json(r, NGX_HTTP_ACCEPTED, p, len);
}


void
ngx_http_video_ocr_hex(u_char *dst, u_char *src, size_t len)
{
    dst = ngx_hex_dump(dst, src, len);
    *dst = '\0';
}


/* In a thread-pool thread from here on: plain C only. */


/*
 * The admission of a POST: a fast look for a live receipt (a replay
 * costs no fsync and no write lock), else the upload is made durable in
 * the store and the receipt committed, in a group with the other
 * threads' admissions.  Any outcome but CREATED removes the file placed
 * here, so a refused request leaves nothing behind.
 */

void
ngx_http_video_ocr_admit_thread(ngx_http_video_ocr_task_t *t)
{
    vo_ledger_t       *l;
    vo_admission_t    *a;

    t->store_rc = VO_STORE_OK;

    l = ngx_http_video_ocr_thread_ledger(t);
    if (l == NULL) {
        return;
    }

    a = &t->admission;

    t->ledger_rc = vo_ledger_lookup(l, a, &t->receipt, t->err,
                                    sizeof(t->err));

    if (t->ledger_rc != VO_LEDGER_OK || t->receipt.outcome != VO_ADMIT_NONE)
    {
        return;
    }

    /* no fsync here: the group's leader syncs the store for the batch
     * before it commits (invariant 4) */

    if (t->temp_fd != -1) {
        t->store_rc = vo_store_place_file(t->store, t->rel, t->temp_fd,
                                          t->temp_path, &t->copied,
                                          t->err, sizeof(t->err));
        t->temp_moved = ngx_http_video_ocr_temp_moved(t->temp_fd,
                                                      t->temp_path);

    } else {
        t->store_rc = vo_store_place_chunks(t->store, t->rel, t->chunks,
                                            t->nchunks, t->err,
                                            sizeof(t->err));
    }

    if (t->store_rc != VO_STORE_OK) {
        return;
    }

    ngx_http_video_ocr_admit_group(t);
}


/*
 * Whether the body's temp file was renamed away (into the store): its
 * name then no longer names this request's file.  Compared by inode, as
 * another nginx that shares client_body_temp_path may have made a new
 * file by that name since.
 */

static int
ngx_http_video_ocr_temp_moved(int fd, const char *path)
{
    struct stat  fst, pst;

    if (fstat(fd, &fst) == -1) {
        return 0;
    }

    if (stat(path, &pst) == -1) {
        return errno == ENOENT;
    }

    return fst.st_dev != pst.st_dev || fst.st_ino != pst.st_ino;
}


/*
 * The admission of an upload placed at t->rel, through the group commit;
 * any outcome but CREATED removes the file placed there, unless the
 * commit is in doubt (vo_admit_item_t): a job may name it.
 */

void
ngx_http_video_ocr_admit_group(ngx_http_video_ocr_task_t *t)
{
    char               err[64];
    vo_ledger_t       *l;
    vo_admission_t    *a;
    vo_group_conf_t    gc;
    vo_group_member_t  m;

    a = &t->admission;

    m.item.admission = a;
    m.item.receipt = &t->receipt;
    m.item.err = t->err;
    m.item.err_size = sizeof(t->err);
    m.item.in_doubt = 0;

    gc.lock_path = t->mcf->admit_lock.len ? (char *) t->mcf->admit_lock.data
                                          : NULL;
    gc.store = t->store;
    gc.sync = t->mcf->durable ? 1 : 0;
    gc.batches = ngx_http_video_ocr_batch_counters(&gc.batched);

    l = ngx_http_video_ocr_group_ledger(t);
    if (l == NULL) {
        (void) vo_store_remove(t->store, t->rel, err, sizeof(err));
        return;
    }

    vo_group_admit(&ngx_http_video_ocr_group, l, &gc, &m);

    t->ledger_rc = m.item.rc;

    if (!m.item.in_doubt
        && (t->ledger_rc != VO_LEDGER_OK
            || t->receipt.outcome != VO_ADMIT_CREATED))
    {
        (void) vo_store_remove(t->store, t->rel, err, sizeof(err));
    }
}


/* At the worker's exit, once every thread of the group has gone. */

void
ngx_http_video_ocr_admit_exit(void)
{
    vo_group_release(&ngx_http_video_ocr_group);
}
