/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Fuzz target: the worker's handling of untrusted media, end to end:
 * vw_pipeline_run (what "video-ocr-worker ocr" and a worker child run)
 * on a file made of the fuzz bytes, i.e. the container sniffer, the
 * container structure check (vw_container.c, MXF's partition pack
 * included), libavformat's inspection through our AVIO and limits
 * (vw_inspect.c), the duration of a stream that declares none measured
 * from its packets (vw_duration.c), decoding and seeking
 * (vw_decode.c), the grey/crop/similarity and glyph stages (image/)
 * and Tesseract (ocr/).  The seeds are small real videos
 * (fuzz/seeds.sh): mutations of them reach the decoders.
 *
 * The limits are small so that one input costs little: 640x480 at most,
 * 30 s, 8 frames at 2 fps, 250 ms per OCR call.  The input lives in a
 * memfd, so nothing touches the disk.
 *
 * Invariants checked, besides "no crash, no sanitizer report": a run
 * either does every planned frame (0) or fails with REJECTED or FAILED
 * and a NUL-terminated code and message; a run that planned never plans
 * more frames than the limit.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz_check.h"
#include "pipeline/vw_pipeline.h"


#define FUZZ_MEDIA_MAX  (256 * 1024)


int LLVMFuzzerInitialize(int *argc, char ***argv);


int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void) argc;
    (void) argv;

    /* Tesseract's OpenMP: one thread (the worker's main() does the same
     * with an exec; here run.sh sets it before the start) */
    (void) setenv("OMP_THREAD_LIMIT", "1", 0);

    vw_pipeline_init(0);

    return 0;
}


int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int           fd, rc;
    size_t        off;
    ssize_t       n;
    vw_err_t      err;
    vw_report_t      run;
    vw_job_t      job;
    vw_limits_t   limits;
    vo_options_t  options;

    if (size > FUZZ_MEDIA_MAX) {
        return 0;
    }

    fd = memfd_create("fuzz-media", MFD_CLOEXEC);
    if (fd == -1) {
        abort();
    }

    for (off = 0; off < size; off += (size_t) n) {
        n = write(fd, data + off, size - off);
        if (n <= 0) {
            abort();
        }
    }

    vw_limits_init(&limits);
    limits.max_duration_ms = 30 * 1000;
    limits.max_pixels = 640 * 480;
    limits.max_frames = 8;
    limits.frame_timeout_ms = 250;
    limits.threads = 1;

    vo_options_init(&options);
    options.fps_milli = 2000;

    memset(&job, 0, sizeof(job));
    job.name = "fuzz";
    job.fd = fd;
    job.options = &options;
    job.limits = &limits;
    job.hooks = NULL;

    rc = vw_pipeline_run(&job, &run, &err);

    FUZZ_CHECK(memchr(err.code, '\0', sizeof(err.code)) != NULL);
    FUZZ_CHECK(memchr(err.msg, '\0', sizeof(err.msg)) != NULL);

    if (rc == 0) {
        FUZZ_CHECK(run.inspected && run.planned);
        FUZZ_CHECK(run.stats.frames_done == run.plan.samples);

    } else {
        FUZZ_CHECK(rc == -1);
        FUZZ_CHECK(err.status == VW_REJECTED || err.status == VW_FAILED);
        FUZZ_CHECK(err.code[0] != '\0' && err.msg[0] != '\0');
    }

    if (run.planned) {
        FUZZ_CHECK(run.plan.samples >= 1 && run.plan.samples <= 8);
    }

    close(fd);

    return 0;
}
