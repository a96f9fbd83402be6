/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The spec of a screen's parts (the form is in vw_parts.h): written by
 * the pipeline, kept in the ledger, split over the row's text by the
 * merger.  libc only.
 */

#include <stdio.h>
#include <string.h>

#include "vw_parts.h"


static const char *vw_parts_number(const char *s, int *v);


int
vw_parts_format(const vw_part_t *parts, int n, char *buf, size_t size)
{
    int     i, k;
    size_t  len;

    if (n < 2 || n > VW_PARTS_MAX || size == 0) {
        return -1;
    }

    len = 0;

    for (i = 0; i < n; i++) {
        if (parts[i].lines < 1 || !vw_box_ok(&parts[i].box)
            || parts[i].confidence < 0 || parts[i].confidence > 100)
        {
            return -1;
        }

        k = snprintf(buf + len, size - len, "%s%d %d %d %d %d %d",
                     i > 0 ? ";" : "", parts[i].lines, parts[i].box.x,
                     parts[i].box.y, parts[i].box.w, parts[i].box.h,
                     parts[i].confidence);

        if (k < 0 || (size_t) k >= size - len) {
            return -1;
        }

        len += (size_t) k;
    }

    return (int) len;
}


int
vw_parts_parse(const char *spec, const char *text, vw_part_t *parts)
{
    int          n, i, v[6];
    const char  *s, *line, *end;

    if (spec == NULL || text == NULL) {
        return 0;
    }

    s = spec;
    line = text;
    n = 0;

    for ( ;; ) {
        if (n == VW_PARTS_MAX) {
            return 0;
        }

        for (i = 0; i < 6; i++) {
            if (i > 0) {
                if (*s != ' ') {
                    return 0;
                }
                s++;
            }

            s = vw_parts_number(s, &v[i]);
            if (s == NULL) {
                return 0;
            }
        }

        parts[n].lines = v[0];
        parts[n].box = (vw_rect_t) { v[1], v[2], v[3], v[4] };
        parts[n].confidence = v[5];

        if (v[0] < 1 || !vw_box_ok(&parts[n].box) || v[5] > 100
            || line == NULL)
        {
            return 0;
        }

        /* its lines: up to the v[0]-th "\n" from here, or the end */

        parts[n].text = line;
        end = line;

        for (i = 0; i < v[0]; i++) {
            end = strchr(end, '\n');

            if (end == NULL) {
                break;
            }

            if (i + 1 < v[0]) {
                end++;
            }
        }

        if (end == NULL) {
            if (i + 1 < v[0]) {
                return 0;           /* fewer lines than it says */
            }

            parts[n].len = strlen(line);
            line = NULL;

        } else {
            parts[n].len = (size_t) (end - line);
            line = end + 1;
        }

        if (parts[n].len == 0) {
            return 0;               /* a part with no text */
        }

        n++;

        if (*s == '\0') {
            break;
        }

        if (*s != ';') {
            return 0;
        }

        s++;
    }

    /* every line of the text in a part, two parts at least */

    return line == NULL && n >= 2 ? n : 0;
}


/* A decimal number of 1 to 9 digits: the byte after it, NULL if none. */
static const char *
vw_parts_number(const char *s, int *v)
{
    int  k;

    *v = 0;

    for (k = 0; k < 9 && s[k] >= '0' && s[k] <= '9'; k++) {
        *v = *v * 10 + (s[k] - '0');
    }

    return k == 0 || (s[k] >= '0' && s[k] <= '9') ? NULL : s + k;
}
