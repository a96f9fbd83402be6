/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The values of the command line that several options share: times,
 * whole numbers, sizes (see vw_cmd.h).
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vw_cmd.h"


int
vw_args_ms(const char *name, const char *v, int64_t min, int64_t max,
    int64_t *out)
{
    char       *end;
    double      d, mul;

    errno = 0;
    d = strtod(v, &end);

    if (end == v || errno != 0 || d < 0) {
        goto bad;
    }

    if (strcmp(end, "") == 0 || strcmp(end, "s") == 0) {
        mul = 1000;

    } else if (strcmp(end, "ms") == 0) {
        mul = 1;

    } else if (strcmp(end, "m") == 0) {
        mul = 60000;

    } else if (strcmp(end, "h") == 0) {
        mul = 3600000;

    } else if (strcmp(end, "d") == 0) {
        mul = 86400000;

    } else {
        goto bad;
    }

    d *= mul;

    if (d < (double) min || d > (double) max) {
        goto bad;
    }

    *out = (int64_t) d;

    return 0;

bad:

    fprintf(stderr, "video-ocr-worker: %s \"%s\" must be a time from %lldms "
            "to %llds, such as 30s or 500ms\n", name, v, (long long) min,
            (long long) (max / 1000));
    return -1;
}


int
vw_args_int(const char *name, const char *v, long min, long max, long *out)
{
    char  *end;
    long   n;

    errno = 0;
    n = strtol(v, &end, 10);

    if (end == v || *end != '\0' || errno != 0 || n < min || n > max) {
        fprintf(stderr, "video-ocr-worker: %s \"%s\" must be a whole number "
                "from %ld to %ld\n", name, v, min, max);
        return -1;
    }

    *out = n;

    return 0;
}


int
vw_args_size(const char *v, int64_t *out)
{
    char      *end;
    double     d;

    errno = 0;
    d = strtod(v, &end);

    if (end == v || errno != 0 || d < 0) {
        return -1;
    }

    switch (*end) {
    case '\0':
        break;
    case 'k': case 'K':
        d *= 1024;
        end++;
        break;
    case 'm': case 'M':
        d *= 1024 * 1024;
        end++;
        break;
    case 'g': case 'G':
        d *= 1024.0 * 1024 * 1024;
        end++;
        break;
    default:
        return -1;
    }

    if (*end != '\0' || d > 9.0e15) {
        return -1;
    }

    *out = (int64_t) d;

    return 0;
}
