/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * What making data durable costs on the filesystem of DIR: the floor
 * under a batch of admissions (docs/benchmarks.md, "Where the time goes
 * at 4 KiB").  Each line is the mean over N repetitions of
 *
 *   - fdatasync() after overwriting one 4 KiB block of an existing file
 *     (the WAL commit of a ledger transaction, at its smallest);
 *   - syncfs() with that one block dirty;
 *   - syncfs() after creating 8 files of 4 KiB (a batch's uploads);
 *   - fsync() of a file with nothing dirty (the system call alone).
 *
 *   cc -O2 -o build/flushcost bench/admission/flushcost.c
 *   build/flushcost DIR [N]
 *
 * It creates DIR/flushcost.dat and 8 x N files DIR/flushcost-*, and
 * removes them at the end.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE             /* syncfs() */
#endif

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>


#define BLOCK   4096
#define BLOCKS  64
#define FILES   8


static double
now_ms(void)
{
    struct timespec  t;

    clock_gettime(CLOCK_MONOTONIC, &t);

    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}


static int
write_all(int fd, const char *b, size_t n, off_t off)
{
    return pwrite(fd, b, n, off) == (ssize_t) n ? 0 : -1;
}


/* Prints the mean time of n times: overwrite one block, then flush. */

static int
overwrite_then(int fd, const char *b, int n, int (*flush)(int),
    const char *name)
{
    int     i;
    double  t0;

    t0 = now_ms();

    for (i = 0; i < n; i++) {
        if (write_all(fd, b, BLOCK, (off_t) (i % BLOCKS) * BLOCK) != 0
            || flush(fd) != 0)
        {
            perror(name);
            return -1;
        }
    }

    printf("%s, one 4 KiB block overwritten:%*s%.3f ms\n", name,
           (int) (11 - strlen(name)), "", (now_ms() - t0) / n);

    return 0;
}


int
main(int argc, char **argv)
{
    int     fd, f, i, k, n;
    char    b[BLOCK], path[4096];
    double  t0;

    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: flushcost DIR [N]\n");
        return 2;
    }

    n = argc == 3 ? atoi(argv[2]) : 300;

    if (n <= 0) {
        fprintf(stderr, "flushcost: N must be a positive number\n");
        return 2;
    }

    memset(b, 'x', sizeof(b));

    snprintf(path, sizeof(path), "%s/flushcost.dat", argv[1]);

    fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
    if (fd == -1) {
        perror(path);
        return 1;
    }

    for (i = 0; i < BLOCKS; i++) {
        if (write_all(fd, b, BLOCK, (off_t) i * BLOCK) != 0) {
            perror("pwrite");
            return 1;
        }
    }

    if (fsync(fd) != 0) {
        perror("fsync");
        return 1;
    }

    if (overwrite_then(fd, b, n, fdatasync, "fdatasync") != 0
        || overwrite_then(fd, b, n, syncfs, "syncfs") != 0)
    {
        return 1;
    }

    t0 = now_ms();
    for (i = 0; i < n; i++) {
        for (k = 0; k < FILES; k++) {
            snprintf(path, sizeof(path), "%s/flushcost-%d-%d", argv[1], i, k);

            f = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (f == -1 || write_all(f, b, BLOCK, 0) != 0) {
                perror(path);
                return 1;
            }

            close(f);
        }

        if (syncfs(fd) != 0) {
            perror("syncfs");
            return 1;
        }
    }
    printf("syncfs, %d new files of 4 KiB:            %.3f ms\n", FILES,
           (now_ms() - t0) / n);

    t0 = now_ms();
    for (i = 0; i < n; i++) {
        if (fsync(fd) != 0) {
            perror("fsync");
            return 1;
        }
    }
    printf("fsync, nothing dirty:                    %.3f ms\n",
           (now_ms() - t0) / n);

    for (i = 0; i < n; i++) {
        for (k = 0; k < FILES; k++) {
            snprintf(path, sizeof(path), "%s/flushcost-%d-%d", argv[1], i, k);
            (void) unlink(path);
        }
    }

    snprintf(path, sizeof(path), "%s/flushcost.dat", argv[1]);
    (void) unlink(path);
    close(fd);

    return 0;
}
