/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The deliverer's HTTP client: one POST of a signed notification, with
 * libcurl, held to what a webhook sender owes its receivers and itself:
 *
 *   - http and https only, TLS verification on (peer and host), no
 *     redirect followed (3xx is a failure that says where it pointed),
 *     no proxy from the environment (it would hide where we connect);
 *   - a total time limit (--webhook-timeout), a connect limit within it;
 *   - at most VW_HTTP_BODY_MAX bytes of response read: the rest is cut;
 *   - the address a connection is opened to is checked before the
 *     connect() (CURLOPT_OPENSOCKETFUNCTION: the address the resolver
 *     gave, the very one connected to, so a name that resolves once
 *     public and once private cannot slip through) and again before
 *     every request on the connection (CURLOPT_PREREQFUNCTION):
 *     loopback, private, link-local and the other special ranges of
 *     vo_addr_class() are refused unless --webhook-allow names them.
 *
 * One vw_http_t per process, reused: connections to the same receiver
 * are kept alive between deliveries.
 */

#ifndef _VW_HTTP_H_INCLUDED_
#define _VW_HTTP_H_INCLUDED_


#include <stddef.h>
#include <stdint.h>

#include "vo_webhook.h"


#define VW_HTTP_BODY_MAX     65536     /* bytes of a response read */
#define VW_HTTP_EXCERPT      200       /* of them, kept for the error */


typedef struct vw_http_s  vw_http_t;


typedef struct {
    const vo_cidr_t  *allow;           /* --webhook-allow */
    size_t            nallow;
    int64_t           timeout_ms;      /* the whole attempt */
    const char       *ca_file;         /* NULL: the system's */
} vw_http_conf_t;


typedef struct {
    int          status;               /* HTTP status, 0: none came */
    int64_t      latency_ms;
    int64_t      retry_after_ms;       /* -1: no usable Retry-After */
    const char  *reason;               /* 2xx, 3xx, 4xx, 5xx, 410,
                                          timeout, connect, address, dns,
                                          tls, too_large, http */
    char         error[512];           /* "" when delivered and nothing to
                                          add */
    char         address[64];          /* the receiver's, when known */
} vw_http_result_t;


/* NULL when libcurl cannot be set up (err says why). */
vw_http_t *vw_http_new(const vw_http_conf_t *conf, char *err,
    size_t err_size);
void vw_http_free(vw_http_t *h);

/*
 * POSTs body to url with the Standard Webhooks headers (webhook-id,
 * webhook-timestamp, webhook-signature: the one or two signatures) and
 * fills res.  Never fails otherwise: every outcome is a result.
 */
void vw_http_post(vw_http_t *h, const char *url, const char *msg_id,
    int64_t timestamp, const char *signature, const char *body, size_t len,
    vw_http_result_t *res);


#endif /* _VW_HTTP_H_INCLUDED_ */
