/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The request headers of the two resumable-upload protocols, parsed
 * (lib/vo_upload.c), and the running SHA-256 of an upload kept between
 * its appends:
 *
 *   IETF draft (draft-ietf-httpbis-resumable-upload, interop versions 6
 *   and 8): Upload-Draft-Interop-Version, Upload-Complete, Upload-Offset,
 *   Upload-Length (RFC 9651 structured fields: Integer, Boolean);
 *
 *   tus 1.0: Tus-Resumable, Upload-Offset, Upload-Length,
 *   Upload-Defer-Length, Upload-Metadata, Upload-Checksum, Upload-Concat,
 *   X-HTTP-Method-Override.
 *
 * Plain C and libc (and OpenSSL's SHA-256), no nginx types, so the fuzz
 * target runs exactly this code.  Like the edge parsers (vo_edge.h) every
 * function takes (pointer, length) input that need not be NUL-terminated,
 * never reads outside it, never allocates, and on failure writes one
 * sentence for the client into err.
 */

#ifndef _VO_UPLOAD_H_INCLUDED_
#define _VO_UPLOAD_H_INCLUDED_


#include <stddef.h>
#include <stdint.h>

#define OPENSSL_SUPPRESS_DEPRECATED    /* SHA256_CTX: its state is saved */
#include <openssl/sha.h>

#include "vo_edge.h"


#define VO_UPLOAD_ID_LEN         32     /* hex digits, 128 random bits */
#define VO_UPLOAD_INTEROP        8      /* the draft's interop version */
#define VO_UPLOAD_INTEROP_OLD    6      /* tus-js-client 4.x's ietf-draft-05 */
#define VO_UPLOAD_NAME_MAX       255    /* a file name kept for the job */

/* hex of h[8] and of up to 63 buffered bytes, + NUL */
#define VO_SHA256_STATE_LEN      (64 + 2 * 63 + 1)


/*
 * An RFC 9651 Integer that must be non-negative (Upload-Offset,
 * Upload-Length, Upload-Draft-Interop-Version of the IETF draft): 1 to
 * 15 digits, no sign, no parameters.  name is the header, for err.
 */
int vo_sf_offset(const char *name, const char *v, size_t len, int64_t *out,
    char *err, size_t err_size);

/* An RFC 9651 Boolean: "?0" or "?1" (Upload-Complete). */
int vo_sf_boolean(const char *name, const char *v, size_t len, int *out,
    char *err, size_t err_size);

/*
 * tus's Upload-Offset and Upload-Length: 1 to 18 decimal digits (a
 * non-negative 64-bit integer, no sign, no spaces).
 */
int vo_tus_integer(const char *name, const char *v, size_t len,
    int64_t *out, char *err, size_t err_size);

/* Tus-Resumable: 0 when it is "1.0.0", the one version spoken here. */
int vo_tus_version(const char *v, size_t len, char *err, size_t err_size);


/* What video-ocr takes from tus's Upload-Metadata. */
typedef struct {
    char          filename[VO_UPLOAD_NAME_MAX + 1];   /* "filename", "name" */
    char          key[VO_KEY_MAX + 1];                /* "idempotency-key" */
    size_t        key_len;
    int           has_key;
    vo_options_t  options;                            /* "lang", "fps",
                                                         "crop" */
    int           has_options;                        /* one of them */
} vo_upload_meta_t;

/*
 * Upload-Metadata: "key base64, key base64, key" (a key without a value
 * is allowed).  Keys are 1..64 characters of visible ASCII but comma
 * and are unique; values are standard base64, decoded.  lang, fps and
 * crop are set in m->options (which the caller initialised to the
 * defaults; m->has_options says one was given); other
 * keys (filetype, ...) are ignored.  A file name is kept when it is
 * printable UTF-8 without control characters.
 */
int vo_tus_metadata(const char *v, size_t len, vo_upload_meta_t *m,
    char *err, size_t err_size);

/* The algorithms of tus's checksum extension (Tus-Checksum-Algorithm). */
typedef enum {
    VO_CHECKSUM_SHA1 = 0,       /* the one every server must have */
    VO_CHECKSUM_SHA256
} vo_checksum_e;

#define VO_CHECKSUM_ALGORITHMS  "sha1,sha256"

/*
 * Upload-Checksum: "sha1 <base64 of 20 bytes>" or "sha256 <base64 of 32
 * bytes>"; the algorithm into *algo, the digest into out (20 or 32
 * bytes of it).
 */
int vo_tus_checksum(const char *v, size_t len, vo_checksum_e *algo,
    unsigned char out[32], char *err, size_t err_size);


/*
 * Upload-Concat: "partial", or "final;" and the partial uploads' URLs,
 * separated by spaces, in the order their bytes are joined.  A URL is a
 * path, or an absolute http(s) URL whose path is, of an upload resource
 * of this intake: base "/" and an upload id (base is the intake's URI
 * without a trailing slash, "" for "/").  Sets *final; for a final
 * upload, the ids (each VO_UPLOAD_ID_LEN + 1 bytes) into ids, at most
 * max of them, none twice, and their count into *n.
 */
int vo_tus_concat(const char *v, size_t len, const char *base,
    size_t base_len, int *final, char (*ids)[VO_UPLOAD_ID_LEN + 1],
    size_t max, size_t *n, char *err, size_t err_size);


/* The methods X-HTTP-Method-Override may name. */
typedef enum {
    VO_METHOD_GET = 0,
    VO_METHOD_HEAD,
    VO_METHOD_POST,
    VO_METHOD_PATCH,
    VO_METHOD_DELETE,
    VO_METHOD_OPTIONS
} vo_method_e;

/*
 * X-HTTP-Method-Override (tus 1.0, for clients behind proxies that pass
 * only GET and POST): one of the methods above, exactly as spelt (HTTP
 * methods are case-sensitive), into *method.
 */
int vo_method_override(const char *v, size_t len, vo_method_e *method,
    char *err, size_t err_size);


/* An upload id: exactly VO_UPLOAD_ID_LEN lowercase hex digits. */
int vo_upload_id_valid(const char *v, size_t len);


/*
 * The SHA-256 of an upload's first n bytes, between appends: h[8] and
 * the n % 64 bytes not yet hashed, as hex ("" state of n = 0 is the
 * initial one).  Restoring needs n, which the ledger keeps beside it
 * (upload_offset); a state that does not fit n is refused.  Saving and
 * restoring cost nothing next to hashing the bytes again at completion
 * (docs/benchmarks.md measures the alternative).
 */
void vo_sha256_state_save(const SHA256_CTX *c, char *out);
int vo_sha256_state_load(SHA256_CTX *c, const char *v, size_t len,
    int64_t n);


#endif /* _VO_UPLOAD_H_INCLUDED_ */
