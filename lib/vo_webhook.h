/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Standard Webhooks (https://www.standardwebhooks.com), the parts more
 * than one binary needs: the secret format ("whsec_" + base64 of 24 to 64
 * random bytes), the endpoint URL check, the v1 signature (HMAC-SHA256 of
 * "id.timestamp.body", OpenSSL), the webhook-id, and the parsers of what
 * an operator or a receiver hands us: a list of CIDR blocks
 * (--webhook-allow), a retry schedule (--webhook-retry), a response
 * header line and its Retry-After value.  The address classes that a
 * delivery refuses without --webhook-allow (loopback, private,
 * link-local, ...) are here too, so the rule is written once.
 *
 * nginx's module checks the directives' values with it, the worker's
 * deliverer and its "webhooks" commands use all of it.  libc and
 * OpenSSL only; every parser has a libFuzzer target (fuzz/fuzz_webhook.c).
 */

#ifndef _VO_WEBHOOK_H_INCLUDED_
#define _VO_WEBHOOK_H_INCLUDED_


#include <stddef.h>
#include <stdint.h>


#define VO_WEBHOOK_URL_MAX        2048
#define VO_WEBHOOK_KEY_MIN        24       /* bytes, as the spec says */
#define VO_WEBHOOK_KEY_MAX        64
/* "whsec_" + base64 of VO_WEBHOOK_KEY_MAX bytes, and a NUL */
#define VO_WEBHOOK_SECRET_MAX     (6 + 88)
#define VO_WEBHOOK_SECRET_BUF     (VO_WEBHOOK_SECRET_MAX + 1)
/* "v1," + base64 of a SHA-256 HMAC, and a NUL */
#define VO_WEBHOOK_SIG_BUF        (3 + 44 + 1)
/* "msg_" + 32 hex digits */
#define VO_WEBHOOK_MSG_ID_LEN     36
#define VO_WEBHOOK_FINGERPRINT    16       /* hex digits of a secret's id */

#define VO_CIDR_MAX               32       /* blocks of one --webhook-allow */
#define VO_RETRY_MAX              32       /* steps of a retry schedule */
#define VO_RETRY_STEP_MAX_MS      (7LL * 86400 * 1000)
#define VO_RETRY_AFTER_MAX_MS     (86400LL * 1000)


/*
 * A whsec_ secret: the key it holds into key (VO_WEBHOOK_KEY_MAX bytes).
 * Returns 0, or -1 with a sentence in err (which never repeats the
 * secret).
 */
int vo_webhook_secret_parse(const char *s, size_t len, unsigned char *key,
    size_t *key_len, char *err, size_t err_size);

/* A new random secret of 32 bytes, "whsec_..." NUL-terminated into out
 * (VO_WEBHOOK_SECRET_BUF); -1 when the random source fails. */
int vo_webhook_secret_new(char *out);

/* Sixteen hex digits that name a secret without revealing it (the start
 * of its SHA-256), for listings and logs. */
void vo_webhook_secret_fingerprint(const char *secret, size_t len,
    char *out);

/*
 * An endpoint URL as a delivery may use it: http:// or https://, a host
 * (a name, an IPv4 address or a bracketed IPv6 one), an optional port,
 * a path; visible ASCII only, no user:password@, no #fragment, at most
 * VO_WEBHOOK_URL_MAX bytes.  Returns 0, or -1 with a sentence in err.
 */
int vo_webhook_url_check(const char *s, size_t len, char *err,
    size_t err_size);

/*
 * "v1,<base64 HMAC-SHA256(key, msg_id "." timestamp "." body)>", NUL
 * terminated into out (VO_WEBHOOK_SIG_BUF).  Returns its length, or -1.
 */
int vo_webhook_sign(const unsigned char *key, size_t key_len,
    const char *msg_id, int64_t timestamp, const char *body, size_t body_len,
    char *out);

/* A new webhook-id: "msg_" + 12 hex digits of the time in ms + 20 random
 * hex digits, NUL-terminated (VO_WEBHOOK_MSG_ID_LEN + 1); -1 on failure. */
int vo_webhook_msg_id(int64_t now_ms, char *out);


/* An address block: family 4 or 6, the address, the prefix length. */
typedef struct {
    int            family;
    unsigned char  addr[16];
    int            prefix;
} vo_cidr_t;


/*
 * "127.0.0.0/8", "::1", "10.0.0.0/8,fd00::/8": one block or several,
 * comma-separated; an address without a prefix is one host.  Appends
 * the blocks to out (room for max, *n of them used, updated).  Returns
 * 0, or -1 with a sentence in err.
 */
int vo_cidr_parse_list(const char *s, size_t len, vo_cidr_t *out,
    size_t max, size_t *n, char *err, size_t err_size);

/* Whether addr (4 or 16 bytes of family 4 or 6) is inside c. */
int vo_cidr_match(const vo_cidr_t *c, int family, const unsigned char *addr);

/*
 * Why a delivery may not go to addr unless the operator allowed it:
 * "loopback", "private", "link-local", "shared address space (CGNAT)",
 * ..., or NULL for an ordinary public address.  An IPv4 address mapped
 * into IPv6 (::ffff:a.b.c.d, NAT64, 6to4) is judged as the IPv4 address.
 */
const char *vo_addr_class(int family, const unsigned char *addr);


/*
 * "0,5s,5m,30m,2h,5h,10h,10h": the delay before each attempt (the
 * first is the delay after the event, usually 0), in ms into ms[max];
 * *n the number of attempts.  Units ms, s, m, h, d; a bare number is
 * seconds.  Returns 0, or -1 with a sentence in err.
 */
int vo_retry_schedule_parse(const char *s, size_t len, int64_t *ms,
    size_t max, size_t *n, char *err, size_t err_size);

/*
 * A response header line ("Name: value\r\n", as libcurl hands it over):
 * when its name is name (case-insensitive), *value and *value_len get
 * the value without the surrounding blanks and 1 is returned; 0
 * otherwise (another header, the status line, a malformed line).
 */
int vo_http_header(const char *line, size_t len, const char *name,
    const char **value, size_t *value_len);

/*
 * Retry-After: delta-seconds or an HTTP-date (IMF-fixdate, RFC 850 or
 * asctime, RFC 9110), as a delay from now_ms into *delay_ms (0 for a
 * date in the past, at most VO_RETRY_AFTER_MAX_MS).  Returns 0, or -1
 * when the value is neither.
 */
int vo_retry_after_parse(const char *s, size_t len, int64_t now_ms,
    int64_t *delay_ms);


#endif /* _VO_WEBHOOK_H_INCLUDED_ */
