/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The Idempotency-Key parser (draft-ietf-httpapi-idempotency-key-header):
 * the header is an RFC 8941 sf-string, and clients that send a bare UUID
 * are common enough that the bare spelling is accepted as well.
 */

#include <stdio.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "vo_edge.h"


int
vo_key_parse(const char *value, size_t len, char *out, size_t *out_len,
    char *err, size_t err_size)
{
    size_t         i, n;
    unsigned char  ch;

    if (len == 0) {
        snprintf(err, err_size, "the Idempotency-Key header is empty");
        return -1;
    }

    n = 0;

    if (value[0] != '"') {

        /* bare spelling: visible ASCII only, no quotes, no spaces */

        for (i = 0; i < len; i++) {
            ch = (unsigned char) value[i];

            if (ch < 0x21 || ch > 0x7e || ch == '"' || ch == '\\') {
                goto bad_char;
            }
        }

        if (len > VO_KEY_MAX) {
            goto too_long;
        }

        for (i = 0; i < len; i++) {
            out[i] = value[i];
        }

        *out_len = len;
        return 0;
    }

    /* sf-string: DQUOTE *( unescaped / "\" ( DQUOTE / "\" ) ) DQUOTE */

    for (i = 1; i < len; i++) {
        ch = (unsigned char) value[i];

        if (ch == '"') {
            break;
        }

        if (ch == '\\') {
            if (++i == len) {
                break;
            }

            ch = (unsigned char) value[i];

            if (ch != '"' && ch != '\\') {
                snprintf(err, err_size, "the Idempotency-Key string has an "
                         "invalid escape: only \\\" and \\\\ are allowed");
                return -1;
            }

        } else if (ch < 0x20 || ch > 0x7e) {
            goto bad_char;
        }

        if (n == VO_KEY_MAX) {
            goto too_long;
        }

        out[n++] = (char) ch;
    }

    if (i >= len) {
        snprintf(err, err_size,
                 "the Idempotency-Key string has no closing quote");
        return -1;
    }

    if (i != len - 1) {
        snprintf(err, err_size, "the Idempotency-Key has characters after "
                 "its closing quote; parameters are not supported");
        return -1;
    }

    if (n == 0) {
        snprintf(err, err_size, "the Idempotency-Key header is empty");
        return -1;
    }

    *out_len = n;
    return 0;

bad_char:

    snprintf(err, err_size, "the Idempotency-Key may contain only visible "
             "ASCII characters (spaces only inside a quoted string)");
    return -1;

too_long:

    snprintf(err, err_size, "the Idempotency-Key is longer than %d "
             "characters", VO_KEY_MAX);
    return -1;
}


void
vo_key_hash(const char *secret, size_t secret_len, const char *tenant,
    size_t tenant_len, const char *key, size_t key_len, char *out)
{
    size_t          i, n;
    unsigned char   msg[256 + 1 + VO_KEY_MAX], mac[EVP_MAX_MD_SIZE];
    unsigned int    mac_len;

    static const char  hex[] = "0123456789abcdef";

    tenant_len = tenant_len > 256 ? 256 : tenant_len;
    key_len = key_len > VO_KEY_MAX ? VO_KEY_MAX : key_len;

    memcpy(msg, tenant, tenant_len);
    msg[tenant_len] = '\0';
    memcpy(msg + tenant_len + 1, key, key_len);
    n = tenant_len + 1 + key_len;

    if (HMAC(EVP_sha256(), secret_len ? secret : "", (int) secret_len, msg,
             n, mac, &mac_len)
        == NULL)
    {
        memset(mac, 0, VO_KEY_HASH_LEN / 2);
    }

    for (i = 0; i < VO_KEY_HASH_LEN / 2; i++) {
        out[2 * i] = hex[mac[i] >> 4];
        out[2 * i + 1] = hex[mac[i] & 0xf];
    }

    out[VO_KEY_HASH_LEN] = '\0';
}
