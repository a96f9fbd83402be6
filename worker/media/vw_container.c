/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The container structure check that runs before libavformat sees an
 * upload: the top-level sizes a container declares are compared with the
 * size of the file.  An upload cut short is "truncated" with the byte it
 * ends at; bytes that only start like a container are "not_a_video".
 * libavformat would mostly read such files anyway, as far as they go,
 * and OCR a video that silently lacks its end.
 *
 *   ISO BMFF / QuickTime: the sequence of top-level boxes;
 *   Matroska / WebM: the EBML header and the Segment size;
 *   AVI: the RIFF chunk size;
 *   MXF: the header partition pack (where the header metadata ends and
 *   where the footer partition is, when the writer knew it).
 *
 * MPEG-TS/PS, FLV and Ogg declare no sizes up front: the demuxer decides.
 */

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "vo_edge.h"
#include "vw_media_int.h"


static int vw_check_isobmff(vw_media_t *m, vw_err_t *err);
static int vw_check_ebml(vw_media_t *m, vw_err_t *err);
static int vw_check_riff(vw_media_t *m, vw_err_t *err);
static int vw_check_mxf(vw_media_t *m, vw_err_t *err);
static int64_t vw_be64(const unsigned char *p);
static int vw_ebml_vint(const unsigned char *p, size_t n, int64_t *value,
    int *unknown);


int
vw_media_check_structure(vw_media_t *m, int container, vw_err_t *err)
{
    switch ((vo_container_t) container) {

    case VO_CONTAINER_MP4:
    case VO_CONTAINER_MOV:
        return vw_check_isobmff(m, err);

    case VO_CONTAINER_MATROSKA:
    case VO_CONTAINER_WEBM:
        return vw_check_ebml(m, err);

    case VO_CONTAINER_AVI:
        return vw_check_riff(m, err);

    case VO_CONTAINER_MXF:
        return vw_check_mxf(m, err);

    default:
        /* no sizes up front (MPEG-TS/PS, FLV, Ogg): the demuxer decides */
        return 0;
    }
}


/*
 * ISO BMFF / QuickTime: the top level is a sequence of boxes, each with
 * its size and a four-character type.  A box that claims more bytes than
 * the file has left means the upload was cut short; a "box" whose type
 * is not a four-character code means the bytes are not an MP4 at all.
 */
static int
vw_check_isobmff(vw_media_t *m, vw_err_t *err)
{
    int             i, moov, mdat;
    char            type[5];
    int64_t         off, bsize, hdr;
    ssize_t         n;
    unsigned        boxes;
    unsigned char   b[16], ch;

    off = 0;
    moov = 0;
    mdat = 0;

    for (boxes = 0; off < m->size && boxes < 100000; boxes++) {

        n = vw_media_pread(m, off, b, 16);
        if (n < 0) {
            return vw_fail(err, "io", "inspect \"%s\": read: %s", m->name,
                           strerror(m->io_errno));
        }

        if (n < 8 && moov && mdat) {
            break;      /* a few stray bytes after a complete movie */
        }

        if (n < 8) {
            return vw_reject(err, "truncated", "inspect \"%s\": the file "
                             "ends at byte %lld inside a box header; the "
                             "upload is incomplete, send the whole file",
                             m->name, (long long) m->size);
        }

        for (i = 0; i < 4; i++) {
            ch = b[4 + i];

            if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z')
                  || (ch >= '0' && ch <= '9') || ch == ' ' || ch == 0xa9))
            {
                if (moov && mdat) {
                    /* junk after a complete movie: players ignore it */
                    return 0;
                }

                return vw_reject(err, "not_a_video", "inspect \"%s\": the "
                                 "file starts like an MP4/MOV but its "
                                 "structure is broken at byte %lld; the "
                                 "file is damaged or not a video", m->name,
                                 (long long) off);
            }

            type[i] = (char) (ch == 0xa9 ? '@' : ch);
        }

        type[4] = '\0';

        bsize = ((int64_t) b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3];
        hdr = 8;

        if (bsize == 1) {
            if (n < 16) {
                return vw_reject(err, "truncated", "inspect \"%s\": the "
                                 "file ends inside the \"%s\" box header; "
                                 "the upload is incomplete, send the whole "
                                 "file", m->name, type);
            }

            bsize = 0;
            for (i = 8; i < 16; i++) {
                bsize = (bsize << 8) | b[i];
            }

            hdr = 16;

        } else if (bsize == 0) {
            bsize = m->size - off;      /* to the end of the file */
        }

        if (bsize < hdr) {
            return vw_reject(err, "not_a_video", "inspect \"%s\": the "
                             "\"%s\" box at byte %lld has an impossible "
                             "size; the file is damaged or not a video",
                             m->name, type, (long long) off);
        }

        if (memcmp(type, "moov", 4) == 0) {
            moov = 1;
        }

        if (memcmp(type, "mdat", 4) == 0) {
            mdat = 1;
        }

        if (bsize > m->size - off) {
            return vw_reject(err, "truncated", "inspect \"%s\": the file "
                             "ends at byte %lld, inside the \"%s\" box that "
                             "declares %lld bytes from byte %lld; the upload "
                             "is incomplete, send the whole file", m->name,
                             (long long) m->size, type, (long long) bsize,
                             (long long) off);
        }

        off += bsize;
    }

    if (!moov) {
        return vw_reject(err, "not_a_video", "inspect \"%s\": the MP4/MOV "
                         "file has no movie header (no \"moov\" box); the "
                         "file is damaged or incomplete", m->name);
    }

    return 0;
}


/*
 * Matroska / WebM: an EBML header element, then the Segment element
 * whose size (unless "unknown", as live writers leave it) covers the
 * rest of the file.
 */
static int
vw_check_ebml(vw_media_t *m, vw_err_t *err)
{
    int             len, unknown;
    int64_t         off, size;
    ssize_t         n;
    unsigned char   b[16];

    n = vw_media_pread(m, 0, b, 12);
    if (n < 0) {
        return vw_fail(err, "io", "inspect \"%s\": read: %s", m->name,
                       strerror(m->io_errno));
    }

    len = vw_ebml_vint(b + 4, (size_t) (n > 4 ? n - 4 : 0), &size, &unknown);
    if (len <= 0 || unknown) {
        return vw_reject(err, "not_a_video", "inspect \"%s\": the "
                         "Matroska/WebM header is broken; the file is "
                         "damaged or not a video", m->name);
    }

    off = 4 + len + size;

    if (off > m->size) {
        return vw_reject(err, "truncated", "inspect \"%s\": the file ends "
                         "inside its Matroska/WebM header; the upload is "
                         "incomplete, send the whole file", m->name);
    }

    n = vw_media_pread(m, off, b, 12);
    if (n < 0) {
        return vw_fail(err, "io", "inspect \"%s\": read: %s", m->name,
                       strerror(m->io_errno));
    }

    if (n < 5 || memcmp(b, "\x18\x53\x80\x67", 4) != 0) {
        /* no Segment right after the header: libavformat will judge */
        return n < 5 && off == m->size
               ? vw_reject(err, "truncated", "inspect \"%s\": the file ends "
                           "after its Matroska/WebM header; the upload is "
                           "incomplete, send the whole file", m->name)
               : 0;
    }

    len = vw_ebml_vint(b + 4, (size_t) (n - 4), &size, &unknown);
    if (len <= 0) {
        return vw_reject(err, "not_a_video", "inspect \"%s\": the "
                         "Matroska/WebM segment size is broken; the file is "
                         "damaged or not a video", m->name);
    }

    if (!unknown && size > m->size - (off + 4 + len)) {
        return vw_reject(err, "truncated", "inspect \"%s\": the file ends at "
                         "byte %lld, %lld bytes short of the end its "
                         "Matroska/WebM segment declares; the upload is "
                         "incomplete, send the whole file", m->name,
                         (long long) m->size,
                         (long long) (size - (m->size - (off + 4 + len))));
    }

    return 0;
}


/* An EBML variable-length integer: returns its length, 0 if malformed. */
static int
vw_ebml_vint(const unsigned char *p, size_t n, int64_t *value, int *unknown)
{
    int       len, i;
    int64_t   v, ones;

    if (n == 0 || p[0] == 0) {
        return 0;
    }

    for (len = 1; !(p[0] & (0x80 >> (len - 1))); len++) {
        /* void */
    }

    if ((size_t) len > n) {
        return 0;
    }

    v = p[0] & (0xff >> len);
    ones = (v == (0xff >> len));

    for (i = 1; i < len; i++) {
        v = (v << 8) | p[i];
        ones = ones && p[i] == 0xff;
    }

    *value = v;
    *unknown = (int) ones;

    return len;
}


/* AVI: "RIFF", the chunk size, "AVI ". */
static int
vw_check_riff(vw_media_t *m, vw_err_t *err)
{
    int64_t        size;
    ssize_t        n;
    unsigned char  b[12];

    n = vw_media_pread(m, 0, b, sizeof(b));
    if (n < 0) {
        return vw_fail(err, "io", "inspect \"%s\": read: %s", m->name,
                       strerror(m->io_errno));
    }

    if (n < 12) {
        return vw_reject(err, "truncated", "inspect \"%s\": the file ends "
                         "inside its AVI header; the upload is incomplete, "
                         "send the whole file", m->name);
    }

    size = (int64_t) b[4] | (b[5] << 8) | (b[6] << 16)
           | ((int64_t) b[7] << 24);

    /* 0 is what some live writers leave; chunks are padded to 2 bytes */

    if (size != 0 && 8 + size > m->size + 1) {
        return vw_reject(err, "truncated", "inspect \"%s\": the file ends at "
                         "byte %lld but its AVI header declares %lld bytes; "
                         "the upload is incomplete, send the whole file",
                         m->name, (long long) m->size,
                         (long long) (8 + size));
    }

    return 0;
}


/*
 * MXF (SMPTE ST 377-1): the file starts with the header partition pack
 * (the sniffer saw its key), a KLV: the 16-byte key, a BER length, then
 * fixed fields, among them ThisPartition (0: this pack is at the start),
 * FooterPartition (the byte offset of the footer partition; 0 when the
 * writer did not know it yet, as in a file written while recording) and
 * HeaderByteCount (the header metadata that follows the pack).  Header
 * metadata or a footer beyond the end of the file means the upload was
 * cut short; a footer offset that does not point at a footer partition
 * pack means the bytes are not what they claim.  The body (essence and
 * index) is the demuxer's to judge: it declares no sizes up front.
 */
static int
vw_check_mxf(vw_media_t *m, vw_err_t *err)
{
    int             i, k;
    int64_t         len, pack, end, footer, hbc;
    ssize_t         n;
    unsigned char   b[16 + 9 + 40];

    n = vw_media_pread(m, 0, b, sizeof(b));
    if (n < 0) {
        return vw_fail(err, "io", "inspect \"%s\": read: %s", m->name,
                       strerror(m->io_errno));
    }

    if (n < 17) {
        return vw_reject(err, "truncated", "inspect \"%s\": the file ends "
                         "inside its MXF header partition pack; the upload "
                         "is incomplete, send the whole file", m->name);
    }

    /* BER length: one byte below 0x80, or 0x8k and k bytes (k <= 8) */

    if (b[16] < 0x80) {
        len = b[16];
        pack = 17;

    } else {
        k = b[16] & 0x7f;

        if (k == 0 || k > 8 || (k == 8 && b[17] >= 0x80)) {
            return vw_reject(err, "not_a_video", "inspect \"%s\": the MXF "
                             "header partition pack has a broken length; "
                             "the file is damaged or not a video", m->name);
        }

        if (n < 17 + k) {
            return vw_reject(err, "truncated", "inspect \"%s\": the file "
                             "ends inside its MXF header partition pack; the "
                             "upload is incomplete, send the whole file",
                             m->name);
        }

        len = 0;
        for (i = 0; i < k; i++) {
            len = (len << 8) | b[17 + i];
        }

        pack = 17 + k;
    }

    /* MajorVersion, MinorVersion, KAGSize, ThisPartition,
     * PreviousPartition, FooterPartition, HeaderByteCount: 40 bytes (and
     * 48 more fields the demuxer reads) */

    if (len < 88) {
        return vw_reject(err, "not_a_video", "inspect \"%s\": the MXF "
                         "header partition pack is %lld bytes long, too "
                         "short for its fields; the file is damaged or not a "
                         "video", m->name, (long long) len);
    }

    if (len > m->size - pack || n < pack + 40) {
        return vw_reject(err, "truncated", "inspect \"%s\": the file ends "
                         "inside its MXF header partition pack; the upload "
                         "is incomplete, send the whole file", m->name);
    }

    end = pack + len;

    if (vw_be64(b + pack + 8) != 0) {
        return vw_reject(err, "not_a_video", "inspect \"%s\": the MXF "
                         "header partition says it is not at the start of "
                         "the file; the file is damaged or not a video",
                         m->name);
    }

    footer = vw_be64(b + pack + 24);
    hbc = vw_be64(b + pack + 32);

    if (hbc < 0 || hbc > m->size - end) {
        return vw_reject(err, "truncated", "inspect \"%s\": the file ends at "
                         "byte %lld, inside the MXF header metadata that "
                         "declares %lld bytes from byte %lld; the upload is "
                         "incomplete, send the whole file", m->name,
                         (long long) m->size, (long long) hbc,
                         (long long) end);
    }

    if (footer == 0) {
        return 0;       /* written while recording: no footer known */
    }

    if (footer < end) {
        return vw_reject(err, "not_a_video", "inspect \"%s\": the MXF "
                         "header puts its footer partition inside itself "
                         "(byte %lld); the file is damaged or not a video",
                         m->name, (long long) footer);
    }

    if (footer > m->size - 17) {
        return vw_reject(err, "truncated", "inspect \"%s\": the file ends at "
                         "byte %lld but its MXF header puts the footer "
                         "partition at byte %lld; the upload is incomplete, "
                         "send the whole file", m->name, (long long) m->size,
                         (long long) footer);
    }

    n = vw_media_pread(m, footer, b, 16);
    if (n < 0) {
        return vw_fail(err, "io", "inspect \"%s\": read: %s", m->name,
                       strerror(m->io_errno));
    }

    if (n < 16
        || memcmp(b, "\x06\x0e\x2b\x34\x02\x05\x01\x01"
                     "\x0d\x01\x02\x01\x01\x04", 14) != 0)
    {
        return vw_reject(err, "not_a_video", "inspect \"%s\": the MXF "
                         "header puts its footer partition at byte %lld, "
                         "where there is none; the file is damaged or not a "
                         "video", m->name, (long long) footer);
    }

    return 0;
}


static int64_t
vw_be64(const unsigned char *p)
{
    int       i;
    uint64_t  v;

    v = 0;
    for (i = 0; i < 8; i++) {
        v = (v << 8) | p[i];
    }

    /* a value of 2^63 or more is no offset in a file: -1 says so */
    return v > (uint64_t) INT64_MAX ? -1 : (int64_t) v;
}
