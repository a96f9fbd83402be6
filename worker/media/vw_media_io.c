/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * How the media room reads an upload and hears from libav* (see
 * vw_media_int.h): the bytes only through pread on the descriptor the
 * caller opened, behind an AVIOContext of ours (read and seek
 * callbacks); every other resource a demuxer asks to open refused; and
 * libav*'s log routed through ours, its last error kept so that a
 * rejection can quote it ("moov atom not found").
 */

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "vw_media_int.h"


static pthread_mutex_t  vw_log_lock = PTHREAD_MUTEX_INITIALIZER;
static char             vw_log_last[200];
static int              vw_log_verbose;


static void vw_media_log(void *avcl, int level, const char *fmt, va_list ap);


void
vw_media_log_init(int verbose)
{
    vw_log_verbose = verbose;
    av_log_set_level(verbose ? AV_LOG_INFO : AV_LOG_ERROR);
    av_log_set_callback(vw_media_log);
}


static void
vw_media_log(void *avcl, int level, const char *fmt, va_list ap)
{
    char            msg[sizeof(vw_log_last)];
    size_t          n;
    va_list         copy;
    const AVClass  *cls;

    if (level <= AV_LOG_ERROR) {
        va_copy(copy, ap);
        vsnprintf(msg, sizeof(msg), fmt, copy);
        va_end(copy);

        n = strlen(msg);
        while (n > 0 && (msg[n - 1] == '\n' || msg[n - 1] == ' '
                         || msg[n - 1] == '.'))
        {
            msg[--n] = '\0';
        }

        pthread_mutex_lock(&vw_log_lock);
        memcpy(vw_log_last, msg, n + 1);
        pthread_mutex_unlock(&vw_log_lock);
    }

    if (vw_log_verbose && level <= av_log_get_level()) {
        /* one line of ours, with the time and pid of every other */
        va_copy(copy, ap);
        vsnprintf(msg, sizeof(msg), fmt, copy);
        va_end(copy);

        n = strlen(msg);
        while (n > 0 && msg[n - 1] == '\n') {
            msg[--n] = '\0';
        }

        if (n > 0) {
            cls = avcl ? *(const AVClass **) avcl : NULL;
            vw_log("ffmpeg: %s%s%s", cls ? cls->item_name(avcl) : "",
                   cls ? ": " : "", msg);
        }
    }
}


void
vw_media_log_take(char *buf, size_t size)
{
    pthread_mutex_lock(&vw_log_lock);
    snprintf(buf, size, "%s", vw_log_last);
    vw_log_last[0] = '\0';
    pthread_mutex_unlock(&vw_log_lock);
}


void
vw_media_av_error(int rc, char *buf, size_t size)
{
    char  last[sizeof(vw_log_last)];

    vw_media_log_take(last, sizeof(last));

    if (last[0] != '\0') {
        snprintf(buf, size, "%s", last);
        return;
    }

    if (av_strerror(rc, buf, size) != 0) {
        snprintf(buf, size, "error %d", rc);
    }
}


/* Reads up to n bytes at off; fewer only at the end of the file. */
ssize_t
vw_media_pread(vw_media_t *m, int64_t off, void *buf, size_t n)
{
    size_t   got;
    ssize_t  r;

    got = 0;

    while (got < n) {
        r = pread(m->fd, (char *) buf + got, n - got, (off_t) off + got);

        if (r < 0) {
            if (errno == EINTR) {
                continue;
            }

            m->io_errno = errno;
            return -1;
        }

        if (r == 0) {
            break;
        }

        got += (size_t) r;
    }

    return (ssize_t) got;
}


int
vw_media_avio_read(void *reader, uint8_t *buf, int size)
{
    ssize_t             n;
    vw_media_reader_t  *r;

    r = reader;

    n = vw_media_pread(r->m, r->pos, buf, (size_t) size);
    if (n < 0) {
        return AVERROR(r->m->io_errno);
    }

    if (n == 0) {
        return AVERROR_EOF;
    }

    r->pos += n;

    return (int) n;
}


int64_t
vw_media_avio_seek(void *reader, int64_t offset, int whence)
{
    int64_t             pos;
    vw_media_reader_t  *r;

    r = reader;

    switch (whence & ~AVSEEK_FORCE) {

    case AVSEEK_SIZE:
        return r->m->size;

    case SEEK_SET:
        pos = offset;
        break;

    case SEEK_CUR:
        pos = r->pos + offset;
        break;

    case SEEK_END:
        pos = r->m->size + offset;
        break;

    default:
        return AVERROR(EINVAL);
    }

    if (pos < 0) {
        return AVERROR(EINVAL);
    }

    r->pos = pos;

    return pos;
}


int
vw_media_io_open_refuse(AVFormatContext *s, AVIOContext **pb, const char *url,
    int flags, AVDictionary **options)
{
    (void) flags;
    (void) options;

    *pb = NULL;

    av_log(s, AV_LOG_ERROR, "refusing to open \"%s\": only the uploaded "
           "file may be read", url ? url : "");

    return AVERROR(EPERM);
}
