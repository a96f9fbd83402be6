/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The languages Tesseract can read here (see vw_ocr.h): a traineddata
 * file each in the data directory, checked before an engine is made and
 * listed for the upload page.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dirent.h>
#include <fcntl.h>

#include "vw_ocr_int.h"


static int vw_ocr_strcmp(const void *a, const void *b);


const char *
vw_ocr_datapath(void)
{
    const char  *p;

    p = getenv("TESSDATA_PREFIX");

    return p != NULL && *p != '\0' ? p : VW_TESSDATA_DEFAULT;
}


/* lang[0..len) has its traineddata file */
int
vw_ocr_installed(const char *lang, size_t len)
{
    char  path[1024];

    (void) snprintf(path, sizeof(path), "%s/%.*s.traineddata",
                    vw_ocr_datapath(), (int) len, lang);

    return access(path, R_OK) == 0;
}


/* Every part of "eng+deu" must have its traineddata file. */
int
vw_ocr_check_lang(const char *lang, const char *name, vw_err_t *err)
{
    int             i, n;
    char            part[VO_LANG_MAX + 1], have[200];
    char            langs[32][VO_LANG_MAX + 1];
    size_t          len, plen;
    const char     *p, *q;

    for (p = lang; *p != '\0'; p = *q ? q + 1 : q) {
        q = strchr(p, '+');
        if (q == NULL) {
            q = p + strlen(p);
        }

        plen = (size_t) (q - p);

        if (vw_ocr_installed(p, plen)) {
            continue;
        }

        memcpy(part, p, plen);
        part[plen] = '\0';

        /* list what is installed, for a message the user can act on */

        n = vw_ocr_languages(langs, 32);

        len = 0;
        have[0] = '\0';

        for (i = 0; i < n && len + strlen(langs[i]) + 3 < sizeof(have); i++) {
            len += (size_t) snprintf(have + len, sizeof(have) - len, "%s%s",
                                     i ? ", " : "", langs[i]);
        }

        return vw_reject(err, "unknown_language", "ocr \"%s\": language "
                         "\"%s\" is not installed (installed: %s); use lang "
                         "with installed Tesseract languages, e.g. "
                         "lang=eng", name, part, len ? have : "none");
    }

    return 0;
}


int
vw_ocr_languages(char (*langs)[VO_LANG_MAX + 1], int max)
{
    int             n;
    DIR            *dir;
    const char     *dot;
    struct dirent  *de;

    n = 0;
    dir = opendir(vw_ocr_datapath());

    while (dir != NULL && n < max && (de = readdir(dir)) != NULL) {
        dot = strstr(de->d_name, ".traineddata");
        if (dot == NULL || dot[12] != '\0' || dot == de->d_name
            || (size_t) (dot - de->d_name) > VO_LANG_MAX
            || strcmp(de->d_name, "osd.traineddata") == 0)
        {
            continue;
        }

        memcpy(langs[n], de->d_name, (size_t) (dot - de->d_name));
        langs[n++][dot - de->d_name] = '\0';
    }

    if (dir != NULL) {
        closedir(dir);
    }

    qsort(langs, (size_t) n, sizeof(langs[0]), vw_ocr_strcmp);

    return n;
}


int
vw_ocr_languages_json(char *buf, size_t size)
{
    int          i, n, shown;
    char         langs[128][VO_LANG_MAX + 1];
    size_t       len;
    const char  *c;

    n = vw_ocr_languages(langs, 128);
    shown = 0;
    len = (size_t) snprintf(buf, size, "{\"languages\":[");

    for (i = 0; i < n && len < size; i++) {
        for (c = langs[i]; *c != '\0'; c++) {
            if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9')
                  || *c == '_'))
            {
                break;
            }
        }

        if (*c != '\0') {
            /* a file name lang= could not name anyway */
            continue;
        }

        len += (size_t) snprintf(buf + len, size - len, "%s\"%s\"",
                                 shown++ ? "," : "", langs[i]);
    }

    if (len < size) {
        len += (size_t) snprintf(buf + len, size - len, "]}\n");
    }

    return len < size ? 0 : -1;
}


int
vw_ocr_languages_publish(const char *dir)
{
    int     fd, ok;
    char    json[128 * (VO_LANG_MAX + 4) + 32], tmp[4096], path[4096];
    size_t  len;

    if (vw_ocr_languages_json(json, sizeof(json)) != 0
        || (size_t) snprintf(path, sizeof(path), "%s/languages.json", dir)
           >= sizeof(path)
        || (size_t) snprintf(tmp, sizeof(tmp), "%s/.languages.json.%ld",
                             dir, (long) getpid()) >= sizeof(tmp))
    {
        return -1;
    }

    fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd == -1) {
        return -1;
    }

    len = strlen(json);
    ok = write(fd, json, len) == (ssize_t) len;
    ok = close(fd) == 0 && ok;

    /* a reader sees the old list or the new one, never half of one */
    if (!ok || rename(tmp, path) != 0) {
        (void) unlink(tmp);
        return -1;
    }

    return 0;
}


static int
vw_ocr_strcmp(const void *a, const void *b)
{
    return strcmp((const char *) a, (const char *) b);
}
