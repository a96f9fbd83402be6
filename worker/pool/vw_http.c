/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The deliverer's HTTP client on libcurl (see vw_http.h for its rules).
 */

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <curl/curl.h>

#include "core/vw_core.h"
#include "vw_http.h"


struct vw_http_s {
    CURL            *curl;
    vw_http_conf_t   conf;
    char             errbuf[CURL_ERROR_SIZE];

    /* the request under way */
    char             refused[200];     /* why a connection was refused */
    size_t           received;
    int              cut;
    char             excerpt[VW_HTTP_EXCERPT + 1];
    size_t           excerpt_len;
    int64_t          retry_after_ms;
};


static curl_socket_t vw_http_open(void *data, curlsocktype purpose,
    struct curl_sockaddr *address);
static int vw_http_prereq(void *data, char *primary_ip, char *local_ip,
    int primary_port, int local_port);
static int vw_http_allowed(vw_http_t *h, int family,
    const unsigned char *addr);
static size_t vw_http_header(char *buf, size_t size, size_t n, void *data);
static size_t vw_http_body(char *buf, size_t size, size_t n, void *data);
static void vw_http_classify(vw_http_t *h, CURLcode rc, vw_http_result_t *res);
static const char *vw_http_excerpt(vw_http_t *h);


vw_http_t *
vw_http_new(const vw_http_conf_t *conf, char *err, size_t err_size)
{
    CURL       *c;
    CURLcode    rc;
    vw_http_t  *h;

    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        snprintf(err, err_size, "curl_global_init() failed");
        return NULL;
    }

    h = calloc(1, sizeof(vw_http_t));
    c = curl_easy_init();

    if (h == NULL || c == NULL) {
        snprintf(err, err_size, "webhooks: cannot set up libcurl (out of "
                 "memory)");
        free(h);
        if (c != NULL) {
            curl_easy_cleanup(c);
        }
        return NULL;
    }

    h->curl = c;
    h->conf = *conf;

    /* every option is checked: one refused means a libcurl too old */

    rc = curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    if (rc == CURLE_OK) rc = curl_easy_setopt(c, CURLOPT_ERRORBUFFER,
                                              h->errbuf);
    if (rc == CURLE_OK) rc = curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR,
                                              "http,https");
    if (rc == CURLE_OK) rc = curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
    /* no proxy from http_proxy & co: it would be where we connect */
    if (rc == CURLE_OK) rc = curl_easy_setopt(c, CURLOPT_PROXY, "");
    if (rc == CURLE_OK) rc = curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 1L);
    if (rc == CURLE_OK) rc = curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 2L);
    if (rc == CURLE_OK && conf->ca_file != NULL) {
        rc = curl_easy_setopt(c, CURLOPT_CAINFO, conf->ca_file);
    }
    if (rc == CURLE_OK) rc = curl_easy_setopt(c, CURLOPT_TIMEOUT_MS,
                                              (long) conf->timeout_ms);
    if (rc == CURLE_OK) rc = curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS,
                                 (long) (conf->timeout_ms < 10000
                                         ? conf->timeout_ms : 10000));
    if (rc == CURLE_OK) rc = curl_easy_setopt(c, CURLOPT_OPENSOCKETFUNCTION,
                                              vw_http_open);
    if (rc == CURLE_OK) rc = curl_easy_setopt(c, CURLOPT_OPENSOCKETDATA, h);
    if (rc == CURLE_OK) rc = curl_easy_setopt(c, CURLOPT_PREREQFUNCTION,
                                              vw_http_prereq);
    if (rc == CURLE_OK) rc = curl_easy_setopt(c, CURLOPT_PREREQDATA, h);
    if (rc == CURLE_OK) rc = curl_easy_setopt(c, CURLOPT_HEADERFUNCTION,
                                              vw_http_header);
    if (rc == CURLE_OK) rc = curl_easy_setopt(c, CURLOPT_HEADERDATA, h);
    if (rc == CURLE_OK) rc = curl_easy_setopt(c, CURLOPT_WRITEFUNCTION,
                                              vw_http_body);
    if (rc == CURLE_OK) rc = curl_easy_setopt(c, CURLOPT_WRITEDATA, h);
    if (rc == CURLE_OK) rc = curl_easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE,
                                 (curl_off_t) VW_HTTP_BODY_MAX);
    if (rc == CURLE_OK) rc = curl_easy_setopt(c, CURLOPT_USERAGENT,
                                 "video-ocr/" VW_VERSION " (webhooks)");
    if (rc == CURLE_OK) rc = curl_easy_setopt(c, CURLOPT_POST, 1L);

    if (rc != CURLE_OK) {
        snprintf(err, err_size, "webhooks: libcurl %s refuses an option the "
                 "deliverer needs: %s (libcurl 7.85 or newer is needed)",
                 curl_version_info(CURLVERSION_NOW)->version,
                 curl_easy_strerror(rc));
        vw_http_free(h);
        return NULL;
    }

    return h;
}


void
vw_http_free(vw_http_t *h)
{
    if (h == NULL) {
        return;
    }

    curl_easy_cleanup(h->curl);
    free(h);
    curl_global_cleanup();
}


void
vw_http_post(vw_http_t *h, const char *url, const char *msg_id,
    int64_t timestamp, const char *signature, const char *body, size_t len,
    vw_http_result_t *res)
{
    int                 i;
    char                line[512];
    char               *ip;
    int64_t             start;
    CURLcode            rc;
    struct curl_slist  *headers, *more;

    static const char  *fixed[] = {
        "Content-Type: application/json",
        "Expect:",                     /* no 100-continue round trip */
        NULL
    };

    memset(res, 0, sizeof(vw_http_result_t));
    res->retry_after_ms = -1;

    h->refused[0] = '\0';
    h->errbuf[0] = '\0';
    h->received = 0;
    h->cut = 0;
    h->excerpt_len = 0;
    h->retry_after_ms = -1;

    headers = NULL;
    rc = CURLE_OUT_OF_MEMORY;

    for (i = 0; fixed[i] != NULL; i++) {
        more = curl_slist_append(headers, fixed[i]);
        if (more == NULL) {
            goto done;
        }
        headers = more;
    }

    snprintf(line, sizeof(line), "webhook-id: %s", msg_id);
    if ((more = curl_slist_append(headers, line)) == NULL) {
        goto done;
    }
    headers = more;

    snprintf(line, sizeof(line), "webhook-timestamp: %lld",
             (long long) timestamp);
    if ((more = curl_slist_append(headers, line)) == NULL) {
        goto done;
    }
    headers = more;

    snprintf(line, sizeof(line), "webhook-signature: %s", signature);
    if ((more = curl_slist_append(headers, line)) == NULL) {
        goto done;
    }
    headers = more;

    (void) curl_easy_setopt(h->curl, CURLOPT_URL, url);
    (void) curl_easy_setopt(h->curl, CURLOPT_HTTPHEADER, headers);
    (void) curl_easy_setopt(h->curl, CURLOPT_POSTFIELDS, body);
    (void) curl_easy_setopt(h->curl, CURLOPT_POSTFIELDSIZE_LARGE,
                            (curl_off_t) len);

    start = vw_now_ms();
    rc = curl_easy_perform(h->curl);
    res->latency_ms = vw_now_ms() - start;

done:

    ip = NULL;

    if (curl_easy_getinfo(h->curl, CURLINFO_PRIMARY_IP, &ip) == CURLE_OK
        && ip != NULL)
    {
        snprintf(res->address, sizeof(res->address), "%s", ip);
    }

    vw_http_classify(h, rc, res);

    (void) curl_easy_setopt(h->curl, CURLOPT_HTTPHEADER, NULL);
    curl_slist_free_all(headers);
}


/* What the attempt came to, and a sentence that says why. */

static void
vw_http_classify(vw_http_t *h, CURLcode rc, vw_http_result_t *res)
{
    long         status;
    char        *location;
    const char  *why;

    status = 0;
    (void) curl_easy_getinfo(h->curl, CURLINFO_RESPONSE_CODE, &status);
    res->status = (int) status;
    res->retry_after_ms = h->retry_after_ms;

    why = h->errbuf[0] ? h->errbuf : curl_easy_strerror(rc);

    if (h->refused[0] != '\0') {
        res->reason = "address";
        snprintf(res->error, sizeof(res->error), "%s", h->refused);
        res->status = 0;
        return;
    }

    /* a status came: it decides, whatever happened to the body after */

    if (status >= 200) {
        if (status >= 200 && status < 300) {
            res->reason = "2xx";

            if (h->cut || rc == CURLE_FILESIZE_EXCEEDED) {
                snprintf(res->error, sizeof(res->error), "delivered "
                         "(%ld); the response body was longer than %d "
                         "bytes and was not read to its end", status,
                         VW_HTTP_BODY_MAX);

            } else if (rc != CURLE_OK) {
                snprintf(res->error, sizeof(res->error), "delivered "
                         "(%ld); the rest of the response was lost: %s",
                         status, why);
            }

            return;
        }

        if (status == 410) {
            res->reason = "410";
            snprintf(res->error, sizeof(res->error), "the receiver answered "
                     "410 Gone: it wants no more notifications; the "
                     "endpoint is disabled until \"video-ocr-worker "
                     "webhooks enable\"");
            return;
        }

        if (status >= 300 && status < 400) {
            location = NULL;
            (void) curl_easy_getinfo(h->curl, CURLINFO_REDIRECT_URL,
                                     &location);
            res->reason = "redirect";
            snprintf(res->error, sizeof(res->error), "the receiver answered "
                     "%ld, a redirect to %.200s: redirects are not "
                     "followed; give the endpoint its final URL", status,
                     location ? location : "(no Location)");
            return;
        }

        res->reason = status >= 500 ? "5xx" : status >= 400 ? "4xx" : "http";
        snprintf(res->error, sizeof(res->error), "the receiver answered %ld%s"
                 "%s%s", status, h->excerpt_len ? ": \"" : "",
                 vw_http_excerpt(h), h->excerpt_len ? "\"" : "");
        return;
    }

    res->status = 0;

    switch (rc) {

    case CURLE_OPERATION_TIMEDOUT:
        res->reason = "timeout";
        snprintf(res->error, sizeof(res->error), "no answer within %lld ms "
                 "(--webhook-timeout): %s", (long long) h->conf.timeout_ms,
                 why);
        return;

    case CURLE_COULDNT_RESOLVE_HOST:
        res->reason = "dns";
        break;

    case CURLE_COULDNT_CONNECT:
        res->reason = "connect";
        break;

    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
    case CURLE_SSL_INVALIDCERTSTATUS:
        res->reason = "tls";
        snprintf(res->error, sizeof(res->error), "TLS: %s (certificates are "
                 "verified: the receiver needs one a known CA signed for "
                 "its name, or --webhook-ca-file)", why);
        return;

    case CURLE_UNSUPPORTED_PROTOCOL:
        res->reason = "protocol";
        break;

    case CURLE_FILESIZE_EXCEEDED:
    case CURLE_WRITE_ERROR:
        res->reason = "too_large";
        snprintf(res->error, sizeof(res->error), "the response was longer "
                 "than %d bytes before its status", VW_HTTP_BODY_MAX);
        return;

    default:
        res->reason = "http";
        break;
    }

    snprintf(res->error, sizeof(res->error), "%s", why);
}


/*
 * The sockets curl opens: only to an address the rules allow.  This is
 * the address connect() gets, whatever a name resolved to.
 */

static curl_socket_t
vw_http_open(void *data, curlsocktype purpose, struct curl_sockaddr *address)
{
    vw_http_t            *h = data;
    unsigned char         addr[16];
    struct sockaddr_in   *sin;
    struct sockaddr_in6  *sin6;

    if (purpose != CURLSOCKTYPE_IPCXN) {
        return CURL_SOCKET_BAD;
    }

    memset(addr, 0, sizeof(addr));

    if (address->family == AF_INET) {
        sin = (struct sockaddr_in *) &address->addr;
        memcpy(addr, &sin->sin_addr, 4);

        if (vw_http_allowed(h, 4, addr) != 0) {
            return CURL_SOCKET_BAD;
        }

    } else if (address->family == AF_INET6) {
        sin6 = (struct sockaddr_in6 *) &address->addr;
        memcpy(addr, &sin6->sin6_addr, 16);

        if (vw_http_allowed(h, 6, addr) != 0) {
            return CURL_SOCKET_BAD;
        }

    } else {
        snprintf(h->refused, sizeof(h->refused), "refused to connect to an "
                 "address of family %d: only IPv4 and IPv6", address->family);
        return CURL_SOCKET_BAD;
    }

    return socket(address->family, address->socktype | SOCK_CLOEXEC,
                  address->protocol);
}


/* Before each request, also on a connection kept alive: the same rule. */

static int
vw_http_prereq(void *data, char *primary_ip, char *local_ip,
    int primary_port, int local_port)
{
    vw_http_t      *h = data;
    unsigned char   addr[16];

    (void) local_ip;
    (void) primary_port;
    (void) local_port;

    memset(addr, 0, sizeof(addr));

    if (inet_pton(AF_INET, primary_ip, addr) == 1) {
        return vw_http_allowed(h, 4, addr) == 0 ? CURL_PREREQFUNC_OK
                                                : CURL_PREREQFUNC_ABORT;
    }

    if (inet_pton(AF_INET6, primary_ip, addr) == 1) {
        return vw_http_allowed(h, 6, addr) == 0 ? CURL_PREREQFUNC_OK
                                                : CURL_PREREQFUNC_ABORT;
    }

    snprintf(h->refused, sizeof(h->refused), "refused to send to \"%.60s\": "
             "not an IP address", primary_ip);

    return CURL_PREREQFUNC_ABORT;
}


static int
vw_http_allowed(vw_http_t *h, int family, const unsigned char *addr)
{
    char         text[INET6_ADDRSTRLEN];
    size_t       i;
    const char  *class;

    class = vo_addr_class(family, addr);

    if (class == NULL) {
        return 0;
    }

    for (i = 0; i < h->conf.nallow; i++) {
        if (vo_cidr_match(&h->conf.allow[i], family, addr)) {
            return 0;
        }
    }

    if (inet_ntop(family == 4 ? AF_INET : AF_INET6, addr, text, sizeof(text))
        == NULL)
    {
        snprintf(text, sizeof(text), "?");
    }

    snprintf(h->refused, sizeof(h->refused), "refused to connect to %s, a "
             "%s address: only \"video-ocr-worker run --webhook-allow CIDR\" "
             "lets a delivery go there", text, class);

    return -1;
}


static size_t
vw_http_header(char *buf, size_t size, size_t n, void *data)
{
    vw_http_t    *h = data;
    size_t        vlen;
    int64_t       delay;
    const char   *v;

    n *= size;

    /* a new response (after a 100 Continue, say): start afresh */
    if (n >= 5 && memcmp(buf, "HTTP/", 5) == 0) {
        h->retry_after_ms = -1;
        return n;
    }

    if (vo_http_header(buf, n, "retry-after", &v, &vlen)
        && vo_retry_after_parse(v, vlen, vw_wall_ms(), &delay) == 0)
    {
        h->retry_after_ms = delay;
    }

    return n;
}


static size_t
vw_http_body(char *buf, size_t size, size_t n, void *data)
{
    vw_http_t  *h = data;
    size_t      k;

    n *= size;

    k = VW_HTTP_EXCERPT - h->excerpt_len;
    if (k > n) {
        k = n;
    }

    memcpy(h->excerpt + h->excerpt_len, buf, k);
    h->excerpt_len += k;

    h->received += n;

    if (h->received > VW_HTTP_BODY_MAX) {
        /* enough: what the receiver says past this is not read */
        h->cut = 1;
        return 0;
    }

    return n;
}


/* The start of the body, printable, for an error sentence. */

static const char *
vw_http_excerpt(vw_http_t *h)
{
    size_t  i;

    for (i = 0; i < h->excerpt_len; i++) {
        if ((unsigned char) h->excerpt[i] < 0x20
            || (unsigned char) h->excerpt[i] > 0x7e
            || h->excerpt[i] == '"')
        {
            h->excerpt[i] = h->excerpt[i] == '\n' ? ' ' : '?';
        }
    }

    while (h->excerpt_len > 0 && h->excerpt[h->excerpt_len - 1] == ' ') {
        h->excerpt_len--;
    }

    h->excerpt[h->excerpt_len] = '\0';

    return h->excerpt;
}
