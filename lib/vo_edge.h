/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The edge parsers: the three checks the module makes on a request before
 * any ledger work (the Idempotency-Key, the OCR options, the container
 * magic bytes).  Plain C99 and libc only, no nginx types, so that the
 * worker's CLI and the fuzz targets use exactly the code nginx runs.
 *
 * Every parser takes (pointer, length) input that need not be
 * NUL-terminated, never reads outside it, never allocates, and on failure
 * writes a short sentence for the client into err (always NUL-terminated).
 * The key hash (vo_key_hash) needs OpenSSL's libcrypto; nothing else here
 * does.
 */

#ifndef _VO_EDGE_H_INCLUDED_
#define _VO_EDGE_H_INCLUDED_


#include <stddef.h>
#include <stdint.h>


#define VO_KEY_MAX            255

#define VO_LANG_MAX           63       /* "eng+deu+..." as given */
#define VO_FPS_MIN_MILLI      10       /* 0.01 frames per second */
#define VO_FPS_MAX_MILLI      60000    /* 60 frames per second */
#define VO_FPS_DEFAULT_MILLI  1000
#define VO_CROP_MAX           32768
#define VO_OPTIONS_JSON_MAX   160      /* longest canonical JSON + NUL */

#define VO_ERR_MAX            160


/*
 * Idempotency-Key: an RFC 8941 sf-string ("...", with \" and \\ escapes)
 * or a bare value of visible ASCII.  Both spellings of one key are the
 * same key: the unquoted value is what identifies the intent.
 *
 * On success copies the unquoted key (1..VO_KEY_MAX bytes of 0x20-0x7e)
 * into out, which must hold VO_KEY_MAX bytes, sets *out_len, returns 0.
 * Returns -1 and fills err otherwise.
 */
int vo_key_parse(const char *value, size_t len, char *out, size_t *out_len,
    char *err, size_t err_size);


#define VO_KEY_HASH_LEN       16      /* hex digits, + NUL in buffers */

/*
 * The keyed hash that joins log lines of one intent without writing the
 * key: HMAC-SHA256(secret, tenant NUL key), its first 8 bytes in hex, the
 * same in nginx's $video_ocr_key_hash and in video-ocr-worker's logs.
 * out holds VO_KEY_HASH_LEN + 1 bytes.
 */
void vo_key_hash(const char *secret, size_t secret_len, const char *tenant,
    size_t tenant_len, const char *key, size_t key_len, char *out);


/* The OCR options a request carries, with their defaults filled in. */
typedef struct {
    char      lang[VO_LANG_MAX + 1];   /* Tesseract languages, "eng+deu";
                                          "auto": by each screen's script */
    uint32_t  fps_milli;               /* samples per second x 1000 */
    int       has_crop;
    uint32_t  crop_x;
    uint32_t  crop_y;
    uint32_t  crop_w;
    uint32_t  crop_h;
    int       refine;                  /* cue times to the frame */
} vo_options_t;


/* Sets every option to its default: lang=eng, fps=1, no crop, refine=1. */
void vo_options_init(vo_options_t *o);

/*
 * Sets one option from its already decoded value.  Unknown names, values
 * out of range and malformed numbers are refused (-1, err filled).
 */
int vo_options_set(vo_options_t *o, const char *name, size_t name_len,
    const char *value, size_t value_len, char *err, size_t err_size);

/*
 * Parses a raw query string ("lang=eng&fps=0.5"): splits on '&', decodes
 * %XX escapes ('+' stays a plus, as Tesseract spells "eng+deu"), refuses
 * an option given twice, then calls vo_options_set for each.  args may
 * be NULL when len is 0 (a request without a query string).
 */
int vo_options_parse_query(vo_options_t *o, const char *args, size_t len,
    char *err, size_t err_size);

/*
 * Writes the canonical form: a JSON object with the keys sorted, every
 * default filled in and numbers in one spelling, e.g.
 * {"crop":null,"fps":1,"lang":"eng"} or
 * {"crop":[0,360,1280,120],"fps":0.5,"lang":"eng+deu"}; refine, which
 * came later, only when it is off ({"crop":null,"fps":1,"lang":"eng",
 * "refine":false}), so that a request admitted before it existed keeps
 * its digest and its jobs.options still read back.
 * size must be at least VO_OPTIONS_JSON_MAX.  Returns the length.
 */
size_t vo_options_canonical(const vo_options_t *o, char *buf, size_t size);

/*
 * Reads back exactly what vo_options_canonical writes (the worker reads
 * jobs.options with it).  Anything else is refused.
 */
int vo_options_from_canonical(vo_options_t *o, const char *json, size_t len,
    char *err, size_t err_size);


/* Containers recognised by their first bytes. */
typedef enum {
    VO_CONTAINER_NEED_MORE = -1,       /* not enough bytes to decide yet */
    VO_CONTAINER_UNKNOWN = 0,
    VO_CONTAINER_MP4,                  /* ISO BMFF: mp4, m4v, 3gp */
    VO_CONTAINER_MOV,                  /* QuickTime */
    VO_CONTAINER_MATROSKA,
    VO_CONTAINER_WEBM,
    VO_CONTAINER_AVI,
    VO_CONTAINER_MPEGTS,
    VO_CONTAINER_MPEGPS,
    VO_CONTAINER_FLV,
    VO_CONTAINER_OGG,
    VO_CONTAINER_ASF,
    VO_CONTAINER_MXF,                  /* SMPTE 377 Material eXchange */
    VO_CONTAINER_LAST
} vo_container_t;

/* How many leading bytes vo_sniff_container may want to see. */
#define VO_SNIFF_BYTES  400

/*
 * Looks at the first n bytes of a body.  complete says the body has no
 * more bytes than these.  Returns VO_CONTAINER_NEED_MORE only when
 * complete is 0 and n < VO_SNIFF_BYTES.
 */
vo_container_t vo_sniff_container(const unsigned char *p, size_t n,
    int complete);

/* "mp4", "mov", ...; NULL for values outside the enum. */
const char *vo_container_name(vo_container_t c);

/* The enum value for a name, or VO_CONTAINER_UNKNOWN. */
vo_container_t vo_container_by_name(const char *name, size_t len);


#endif /* _VO_EDGE_H_INCLUDED_ */
