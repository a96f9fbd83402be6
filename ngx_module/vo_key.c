/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The Idempotency-Key parser (draft-ietf-httpapi-idempotency-key-header):
 * the header is an RFC 8941 sf-string, and clients that send a bare UUID
 * are common enough that the bare spelling is accepted as well.
 */

#include <stdio.h>

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
