/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The container sniffer: a cheap look at the first bytes of an upload so
 * that a text file or a PNG renamed .mp4 is refused at the edge (415)
 * before it costs a ledger row.  It proves nothing about the media inside;
 * the worker inspects that with libavformat, away from nginx.
 */

#include <string.h>

#include "vo_edge.h"


static const char  *vo_container_names[] = {
    "unknown", "mp4", "mov", "matroska", "webm", "avi", "mpegts", "mpegps",
    "flv", "ogg", "asf", "mxf"
};


static int vo_sniff_isobmff(const unsigned char *p, size_t n,
    vo_container_t *c);
static int vo_sniff_mpegts(const unsigned char *p, size_t n, size_t packet,
    size_t offset);


vo_container_t
vo_sniff_container(const unsigned char *p, size_t n, int complete)
{
    size_t          i, end;
    vo_container_t  c;

    if (n < VO_SNIFF_BYTES && !complete) {
        return VO_CONTAINER_NEED_MORE;
    }

    if (n >= 12 && vo_sniff_isobmff(p, n, &c)) {
        return c;
    }

    /* EBML header; the DocType string says matroska or webm */

    if (n >= 4 && p[0] == 0x1a && p[1] == 0x45 && p[2] == 0xdf
        && p[3] == 0xa3)
    {
        end = n < 64 ? n : 64;

        for (i = 4; i + 6 <= end; i++) {
            /* DocType element id 0x4282, a one-byte size, the string */

            if (p[i] == 0x42 && p[i + 1] == 0x82) {
                if (p[i + 2] == 0x84 && i + 7 <= end
                    && memcmp(&p[i + 3], "webm", 4) == 0)
                {
                    return VO_CONTAINER_WEBM;
                }

                if (p[i + 2] == 0x88 && i + 11 <= end
                    && memcmp(&p[i + 3], "matroska", 8) == 0)
                {
                    return VO_CONTAINER_MATROSKA;
                }
            }
        }

        return VO_CONTAINER_UNKNOWN;
    }

    if (n >= 12 && memcmp(p, "RIFF", 4) == 0 && memcmp(p + 8, "AVI ", 4) == 0)
    {
        return VO_CONTAINER_AVI;
    }

    if (n >= 4 && memcmp(p, "FLV\x01", 4) == 0) {
        return VO_CONTAINER_FLV;
    }

    if (n >= 4 && memcmp(p, "OggS", 4) == 0) {
        return VO_CONTAINER_OGG;
    }

    if (n >= 16
        && memcmp(p, "\x30\x26\xb2\x75\x8e\x66\xcf\x11"
                     "\xa6\xd9\x00\xaa\x00\x62\xce\x6c", 16) == 0)
    {
        return VO_CONTAINER_ASF;
    }

    /*
     * MXF (SMPTE ST 377-1): the file starts with the header partition
     * pack, a KLV whose 16-byte key is the partition pack label with
     * byte 13 = 0x02 (header), byte 14 = its status (1-4: open/closed,
     * incomplete/complete) and byte 15 = 0.  The standard allows a
     * "run-in" of up to 64 KiB before it; no writer in use makes one, and
     * looking that far would mean holding 64 KiB per request, so a file
     * with a run-in is refused here (remux it, the run-in is dropped).
     */

    if (n >= 16
        && memcmp(p, "\x06\x0e\x2b\x34\x02\x05\x01\x01"
                     "\x0d\x01\x02\x01\x01\x02", 14) == 0
        && p[14] >= 0x01 && p[14] <= 0x04 && p[15] == 0x00)
    {
        return VO_CONTAINER_MXF;
    }

    if (n >= 4 && p[0] == 0 && p[1] == 0 && p[2] == 1 && p[3] == 0xba) {
        return VO_CONTAINER_MPEGPS;
    }

    /* transport streams: 188-byte packets, or 192 with a 4-byte prefix */

    if (vo_sniff_mpegts(p, n, 188, 0) || vo_sniff_mpegts(p, n, 192, 4)) {
        return VO_CONTAINER_MPEGTS;
    }

    return VO_CONTAINER_UNKNOWN;
}


const char *
vo_container_name(vo_container_t c)
{
    if (c < VO_CONTAINER_UNKNOWN || c >= VO_CONTAINER_LAST) {
        return NULL;
    }

    return vo_container_names[c];
}


vo_container_t
vo_container_by_name(const char *name, size_t len)
{
    int  c;

    for (c = VO_CONTAINER_UNKNOWN + 1; c < VO_CONTAINER_LAST; c++) {
        if (strlen(vo_container_names[c]) == len
            && memcmp(vo_container_names[c], name, len) == 0)
        {
            return (vo_container_t) c;
        }
    }

    return VO_CONTAINER_UNKNOWN;
}


static int
vo_sniff_isobmff(const unsigned char *p, size_t n, vo_container_t *c)
{
    uint32_t  size;

    /* a box: 32-bit big-endian size (1 means a 64-bit size follows), type */

    size = (uint32_t) p[0] << 24 | (uint32_t) p[1] << 16
           | (uint32_t) p[2] << 8 | p[3];

    if (memcmp(p + 4, "ftyp", 4) == 0) {
        if (size < 16 && size != 1) {
            return 0;
        }

        *c = memcmp(p + 8, "qt  ", 4) == 0 ? VO_CONTAINER_MOV
                                            : VO_CONTAINER_MP4;
        return 1;
    }

    /* old QuickTime files start with a movie or data atom, no ftyp */

    if ((memcmp(p + 4, "moov", 4) == 0 || memcmp(p + 4, "mdat", 4) == 0
         || memcmp(p + 4, "wide", 4) == 0 || memcmp(p + 4, "free", 4) == 0
         || memcmp(p + 4, "skip", 4) == 0 || memcmp(p + 4, "pnot", 4) == 0)
        && (size >= 8 || size == 1 || size == 0))
    {
        *c = VO_CONTAINER_MOV;
        return 1;
    }

    (void) n;

    return 0;
}


static int
vo_sniff_mpegts(const unsigned char *p, size_t n, size_t packet,
    size_t offset)
{
    size_t  i, found;

    /* a sync byte at the start of three packets in a row */

    found = 0;

    for (i = offset; i < n && found < 3; i += packet) {
        if (p[i] != 0x47) {
            return 0;
        }

        found++;
    }

    return found == 3;
}
