/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * video-ocr-worker ocr FILE [options]: the pipeline on one file without a
 * ledger.  The rows are kept in memory by the same hooks a worker
 * child implements with the ledger, and the result is written
 * by the same function that makes the job status endpoint's result.
 *
 * --debug-resume-at N (not in --help) drives the resumption hooks from
 * the command line: a first run stops after N samples (as a child whose
 * lease was lost), a second run is told those rows are known and does
 * the rest.  --stats then shows what each run did.  --debug-parts T
 * (not in --help either) reads the file as the parts of a long job are
 * read (vw_cmd_parts.c).
 */

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vw_cmd.h"
#include "vw_cmd_parts.h"
#include "vw_cmd_rows.h"
#include "result/vw_output.h"
#include "pipeline/vw_pipeline.h"
#include "ocr/vw_ocr.h"


typedef struct {
    vw_rowset_t         set;          /* the rows, as the ledger keeps them */
    uint32_t            stop_after;   /* 0: never */
    uint32_t            done;         /* row_done calls in this run */
    int                 know;         /* answer row_known */
    vw_progress_t       progress;     /* the line on a terminal */
} vw_ocr_mem_t;


static const char  vw_ocr_usage[] =
    "usage: " VW_PROG " ocr FILE [options]\n"
    "\n"
    "Reads the text burned into a video and prints it with its times.\n"
    "\n"
    "  --fps F               frames sampled per second, 0.01 to 60 "
    "(default 1)\n"
    "  --lang L              Tesseract languages, e.g. eng or eng+deu "
    "(default eng),\n"
    "                        or auto: each screen's script chooses them\n"
    "  --crop x,y,w,h        read only this rectangle, in pixels of the "
    "picture\n"
    "  --format F            json (default), vtt, srt, txt or ass\n"
    "  --frames              json: add every frame's result\n"
    "  --no-refine           cue times to the look (within 0.09 s at "
    "1 fps, 0.25 s\n"
    "                        for text that joins other text),\n"
    "                        not to the frame: B frames far from a look "
    "are not\n"
    "                        decoded (up to half the decoding)\n";

/* then vw_limits_usage, then: */
static const char  vw_ocr_usage_tail[] =
    "  --stats               print what the run did, and its CPU time by\n"
    "                        stage, as JSON on stderr\n"
    "  --verbose             let FFmpeg print its warnings on stderr\n"
    "  -h, --help            this text\n"
    "\n"
    "Exit status: 0 done, 64 usage error, 65 the video is rejected "
    "(the reason\nis on stderr), 70 internal or transient error.\n";


static const char  *vw_ocr_value_flags[] = {
    "--fps", "--lang", "--crop", "--format", "--max-duration",
    "--max-pixels", "--max-frames", "--frame-timeout-ms", "--threads",
    "--debug-resume-at", "--debug-parts", NULL
};


/* what the command line asks */
typedef struct {
    const char         *file;
    int                 stats;
    int                 verbose;
    int                 with_frames;
    int64_t             resume_at;       /* --debug-resume-at, 0: none */
    int64_t             part_ms;         /* --debug-parts, 0: none */
    vw_format_t         format;
    vo_options_t        options;
    vw_limits_t         limits;
} vw_ocr_cmd_t;


static int vw_ocr_parse(vw_ocr_cmd_t *cmd, int argc, char **argv);
static int vw_ocr_value(vw_ocr_cmd_t *cmd, const char *flag,
    const char *val);
static int vw_ocr_file(const vw_ocr_cmd_t *cmd);
static int vw_ocr_usage_error(const char *fmt, const char *a,
    const char *b);
static int vw_ocr_number(const char *flag, const char *v, int64_t min,
    int64_t max, int64_t *out);
static int vw_ocr_ready(void *data, const vw_inspection_t *in,
    const vw_plan_t *plan);
static int vw_ocr_known(void *data, uint32_t index, vw_row_t *known);
static int vw_ocr_done(void *data, const vw_row_t *f);
static void vw_ocr_stats(FILE *out, const vw_report_t *run, const char *label,
    int last);


int
vw_cmd_ocr(int argc, char **argv)
{
    int           rc;
    vw_ocr_cmd_t  cmd;

    rc = vw_ocr_parse(&cmd, argc, argv);

    if (rc == -1) {
        vw_pipeline_init(cmd.verbose);
        rc = vw_ocr_file(&cmd);
    }

    vw_pipeline_shutdown();

    return rc;
}


/*
 * The command line into cmd.  Returns -1 when the command is to run, or
 * the exit code to end with (--help, a usage error, which it printed).
 */

static int
vw_ocr_parse(vw_ocr_cmd_t *cmd, int argc, char **argv)
{
    int          i;
    size_t       k, n;
    const char  *flag, *val, *eq;

    memset(cmd, 0, sizeof(vw_ocr_cmd_t));
    cmd->format = VW_FORMAT_JSON;
    vo_options_init(&cmd->options);
    vw_limits_init(&cmd->limits);

    for (i = 1; i < argc; i++) {
        flag = argv[i];

        if (strcmp(flag, "-h") == 0 || strcmp(flag, "--help") == 0) {
            fputs(vw_ocr_usage, stdout);
            fputs(vw_limits_usage, stdout);
            fputs(vw_ocr_usage_tail, stdout);
            return VW_EXIT_OK;
        }

        if (flag[0] != '-' || flag[1] == '\0') {
            if (cmd->file != NULL) {
                return vw_ocr_usage_error("ocr takes one FILE, not \"%s\" "
                                          "too", flag, NULL);
            }

            cmd->file = flag;
            continue;
        }

        if (strcmp(flag, "--stats") == 0) {
            cmd->stats = 1;
            continue;
        }

        if (strcmp(flag, "--verbose") == 0) {
            cmd->verbose = 1;
            continue;
        }

        if (strcmp(flag, "--frames") == 0) {
            cmd->with_frames = 1;
            continue;
        }

        if (strcmp(flag, "--no-refine") == 0) {
            cmd->options.refine = 0;        /* the option refine=0 */
            continue;
        }

        /* the flags with a value: "--flag value" or "--flag=value" */

        eq = strchr(flag, '=');

        for (k = 0; vw_ocr_value_flags[k] != NULL; k++) {
            n = strlen(vw_ocr_value_flags[k]);

            if (strncmp(flag, vw_ocr_value_flags[k], n) == 0
                && (flag[n] == '\0' || flag[n] == '='))
            {
                break;
            }
        }

        if (vw_ocr_value_flags[k] == NULL) {
            return vw_ocr_usage_error("unknown option \"%s\"", flag, NULL);
        }

        if (eq != NULL) {
            val = eq + 1;

        } else if (i + 1 < argc) {
            val = argv[++i];

        } else {
            return vw_ocr_usage_error("%s needs a value", flag, NULL);
        }

        if (vw_ocr_value(cmd, vw_ocr_value_flags[k], val) != 0) {
            return VW_EXIT_USAGE;
        }
    }

    if (cmd->file == NULL) {
        return vw_ocr_usage_error("ocr needs a FILE%s", "", NULL);
    }

    return -1;
}


/* The value of one of vw_ocr_value_flags; 0, or -1 after a message. */

static int
vw_ocr_value(vw_ocr_cmd_t *cmd, const char *flag, const char *val)
{
    int   r;
    char  msg[VO_ERR_MAX];

    if (strcmp(flag, "--fps") == 0 || strcmp(flag, "--lang") == 0
        || strcmp(flag, "--crop") == 0)
    {
        /* the HTTP API's grammar and messages */
        if (vo_options_set(&cmd->options, flag + 2, strlen(flag + 2), val,
                           strlen(val), msg, sizeof(msg))
            != 0)
        {
            (void) vw_ocr_usage_error("%s", msg, NULL);
            return -1;
        }

        return 0;
    }

    if (strcmp(flag, "--format") == 0) {
        if (vw_format_parse(val, &cmd->format) != 0) {
            (void) vw_ocr_usage_error("format must be json, vtt, srt, txt "
                                      "or ass, not \"%s\"", val, NULL);
            return -1;
        }

        return 0;
    }

    if (strcmp(flag, "--debug-resume-at") == 0) {
        return vw_ocr_number(flag, val, 1, 10000000, &cmd->resume_at);
    }

    if (strcmp(flag, "--debug-parts") == 0) {
        return vw_args_ms(flag, val, 1000, 86400000, &cmd->part_ms);
    }

    /* the limits, spelled as for "run" */
    r = vw_limits_flag(&cmd->limits, flag, val, msg, sizeof(msg));

    if (r < 0) {
        (void) vw_ocr_usage_error("%s", msg, NULL);
        return -1;
    }

    if (r == 0) {
        /* can't happen: every name of vw_ocr_value_flags is handled */
        (void) vw_ocr_usage_error("unknown option \"%s\"", flag, NULL);
        return -1;
    }

    return 0;
}


/*
 * Runs the pipeline on the file (twice with --debug-resume-at: a first
 * run stopped after N samples, then the resumed one) and prints the
 * result, then --stats.  Returns the exit code.
 */

static int
vw_ocr_file(const vw_ocr_cmd_t *cmd)
{
    int            fd, rc, runs, r, ran;
    size_t         nsegs, unsure, unsure_lines;
    int64_t        cpu[VW_STAGE_N];
    vw_stage_t     stage;
    vo_buf_t       out;
    vw_err_t       err;
    vw_report_t    run[2];
    vw_job_t       job;
    vw_hooks_t     hooks;
    vw_result_t    result;
    vw_ocr_mem_t   mem;

    rc = VW_EXIT_FAILED;
    runs = 0;
    nsegs = 0;
    unsure = 0;
    unsure_lines = 0;

    vo_buf_init(&out);
    memset(&mem, 0, sizeof(vw_ocr_mem_t));

    fd = open(cmd->file, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        fprintf(stderr, VW_PROG ": ocr: cannot open \"%s\": %s\n", cmd->file,
                strerror(errno));
        rc = errno == ENOENT || errno == EACCES || errno == EISDIR
             ? VW_EXIT_USAGE : VW_EXIT_FAILED;
        goto done;
    }

    hooks.data = &mem;
    hooks.ready = vw_ocr_ready;
    hooks.row_known = vw_ocr_known;
    hooks.row_done = vw_ocr_done;
    hooks.tick = NULL;

    memset(&job, 0, sizeof(vw_job_t));
    job.name = cmd->file;
    job.fd = fd;
    job.options = &cmd->options;
    job.limits = &cmd->limits;
    job.hooks = &hooks;

    mem.stop_after = (uint32_t) cmd->resume_at;
    vw_progress_init(&mem.progress);

    if (cmd->part_ms > 0) {
        runs = 1;

        if (vw_cmd_parts(&job, cmd->part_ms, cmd->stats, &mem.set.rows,
                         &mem.set.n, &run[0], &err)
            != 0)
        {
            rc = vw_cmd_report(&err);
            goto done;
        }
    }

    for (r = cmd->part_ms > 0 ? 2 : 0; r < 2; r++) {
        mem.done = 0;
        mem.know = r > 0;
        runs++;

        ran = vw_pipeline_run(&job, &run[r], &err);
        vw_progress_erase(&mem.progress);

        if (ran == 0) {
            break;
        }

        if (!(r == 0 && cmd->resume_at > 0 && err.status == VW_STOPPED)) {
            rc = vw_cmd_report(&err);
            goto stats;
        }

        /* the simulated crash: the second run resumes */
        mem.stop_after = 0;
    }

    memset(&result, 0, sizeof(vw_result_t));
    result.plan = &run[runs - 1].plan;
    result.options = &cmd->options;
    result.inspection = &run[runs - 1].inspection;
    result.rows = mem.set.rows;
    result.nrows = mem.set.n;
    result.with_frames = cmd->with_frames;

    /* the result's CPU time is the last run's "merge" (--stats) */
    stage = vw_stage_enter(VW_STAGE_MERGE);
    r = vw_result_write(&out, cmd->format, &result);
    (void) vw_stage_enter(stage);
    vw_stage_cpu_ms(cpu);
    run[runs - 1].stats.cpu_stage_ms[VW_STAGE_MERGE] = cpu[VW_STAGE_MERGE];

    if (r != 0
        || vw_result_count(&result, &nsegs, &unsure, &unsure_lines) != 0)
    {
        fprintf(stderr, VW_PROG ": ocr \"%s\": out of memory writing the "
                "result\n", cmd->file);
        goto stats;
    }

    if (fwrite(out.data, 1, out.len, stdout) != out.len
        || fflush(stdout) != 0)
    {
        fprintf(stderr, VW_PROG ": ocr \"%s\": writing the result: %s\n",
                cmd->file, strerror(errno));
        goto stats;
    }

    rc = VW_EXIT_OK;

stats:

    if (cmd->stats) {
        fputs("{\"runs\":[", stderr);

        for (r = 0; r < runs; r++) {
            vw_ocr_stats(stderr, &run[r], r ? "resumed" : "first",
                         r == runs - 1);
        }

        /* the result's, 0 without one */
        fprintf(stderr, "],\"segments\":%zu,\"segments_unsure\":%zu,"
                "\"lines_unsure\":%zu}\n", nsegs, unsure, unsure_lines);
    }

done:

    vw_rowset_free(&mem.set);
    vo_buf_free(&out);

    if (fd >= 0) {
        close(fd);
    }

    return rc;
}


int
vw_cmd_report(const vw_err_t *err)
{
    fprintf(stderr, VW_PROG ": %s: %s: %s\n", vw_status_name(err->status),
            err->code, err->msg);

    return err->status == VW_REJECTED ? VW_EXIT_REJECTED : VW_EXIT_FAILED;
}


static int
vw_ocr_usage_error(const char *fmt, const char *a, const char *b)
{
    fprintf(stderr, VW_PROG ": ocr: ");
    fprintf(stderr, fmt, a, b);
    fprintf(stderr, "\n(see \"" VW_PROG " ocr --help\")\n");

    return VW_EXIT_USAGE;
}


static int
vw_ocr_number(const char *flag, const char *v, int64_t min, int64_t max,
    int64_t *out)
{
    char       *end;
    long long   n;

    errno = 0;
    n = strtoll(v, &end, 10);

    if (errno != 0 || end == v || *end != '\0' || n < min || n > max) {
        fprintf(stderr, VW_PROG ": ocr: %s must be a whole number from %lld "
                "to %lld, not \"%s\"\n(see \"" VW_PROG " ocr --help\")\n",
                flag, (long long) min, (long long) max, v);
        return -1;
    }

    *out = n;

    return 0;
}


static int
vw_ocr_ready(void *data, const vw_inspection_t *in, const vw_plan_t *plan)
{
    vw_ocr_mem_t  *mem;

    (void) in;

    mem = data;

    vw_progress_plan(&mem->progress, plan->samples, plan->duration_ms);

    if (mem->set.pos != NULL) {
        return mem->set.npos == plan->indexes ? 0 : -1;
    }

    return vw_rowset_init(&mem->set, plan->indexes);
}


static int
vw_ocr_known(void *data, uint32_t index, vw_row_t *known)
{
    vw_ocr_mem_t    *mem;
    const vw_row_t  *r;

    mem = data;
    r = mem->know ? vw_rowset_get(&mem->set, index) : NULL;

    if (r == NULL) {
        return 0;
    }

    *known = *r;

    return 1;
}


static int
vw_ocr_done(void *data, const vw_row_t *f)
{
    int            rc;
    vw_ocr_mem_t  *mem;

    mem = data;

    /* as the ledger: the first row stays */
    rc = vw_rowset_put(&mem->set, f);
    if (rc <= 0) {
        return rc;
    }

    vw_progress_row(&mem->progress, !(f->flags & VO_FRAME_BETWEEN),
                    f->pts_ms);

    /* the simulated crash counts samples (a sample's row ends its unit) */
    return mem->stop_after && !(f->flags & VO_FRAME_BETWEEN)
           && ++mem->done >= mem->stop_after;
}


static void
vw_ocr_stats(FILE *out, const vw_report_t *run, const char *label, int last)
{
    vw_stage_t         k;
    const vw_stats_t  *s;

    s = &run->stats;

    fprintf(out, "{\"run\":\"%s\",\"video_ms\":%lld,\"frames_planned\":%u,"
            "\"frames_known\":%u,\"frames_done\":%u,\"looks\":%u,"
            "\"looks_kept\":%u,\"ocr_calls\":%u,\"looks_combined\":%u,"
            "\"looks_per_reading\":%.2f,\"frame_readings\":%u,"
            "\"screens_joined\":%u,"
            "\"ocr_passes\":%u,\"line_readings\":%u,"
            "\"readings_remembered\":%u,\"readings_reused\":%u,"
            "\"readings_rolled\":%u,\"readings_spared\":%u,"
            "\"frames_reused\":%u,\"frames_timed_out\":%u,"
            "\"frames_no_picture\":%u,\"frames_no_text\":%u,"
            "\"refs_restored\":%u,\"boundaries\":%u,"
            "\"boundaries_moved\":%u,\"boundary_frames\":%u,"
            "\"orient_probes\":%u,\"orient_tries\":%u,\"turn\":%d,"
            "\"packets\":%llu,\"frames_decoded\":%llu,"
            "\"frames_skipped\":%llu,"
            "\"decode_errors\":%llu,\"seeks\":%llu,\"inspect_ms\":%lld,"
            "\"decode_ms\":%lld,\"ocr_ms\":%lld,\"total_ms\":%lld,"
            "\"cpu_ms\":%lld",
            label,
            (long long) (run->inspected ? run->inspection.duration_ms : 0),
            run->planned ? run->plan.samples : 0,
            s->frames_known, s->frames_done, s->looks, s->looks_kept,
            s->ocr_calls, s->looks_combined,
            s->ocr_calls ? (double) s->looks_combined / s->ocr_calls : 0.0,
            s->frame_readings, s->screens_joined, s->ocr_passes,
            s->line_readings, s->readings_remembered, s->readings_reused,
            s->readings_rolled, s->readings_spared, s->frames_reused,
            s->frames_timed_out, s->frames_no_picture, s->frames_no_text,
            s->refs_restored, s->boundaries, s->boundaries_moved,
            s->boundary_frames, s->orient_probes, s->orient_tries, s->turn,
            (unsigned long long) s->packets,
            (unsigned long long) s->frames_decoded,
            (unsigned long long) s->frames_skipped,
            (unsigned long long) s->decode_errors,
            (unsigned long long) s->seeks, (long long) s->inspect_ms,
            (long long) s->decode_ms, (long long) s->ocr_ms,
            (long long) s->total_ms, (long long) s->cpu_ms);

    for (k = 0; k < VW_STAGE_N; k++) {
        fprintf(out, ",\"cpu_%s_ms\":%lld", vw_stage_name(k),
                (long long) s->cpu_stage_ms[k]);
    }

    fprintf(out, "}%s", last ? "" : ",");
}


/*
 * languages [--format json|text]: what the Tesseract data directory
 * holds, one name a line, or {"languages":["deu","eng",...]} (what a
 * page or a client offers as lang; the names are [a-z0-9_] as
 * vo_options accepts them, so they need no JSON escaping beyond what
 * the check below refuses).
 */
int
vw_cmd_languages(int argc, char **argv)
{
    int          i, json;
    char         buf[128 * (VO_LANG_MAX + 4) + 32];
    const char  *p, *q, *e;

    json = 0;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--format") == 0 && i + 1 < argc
            && (strcmp(argv[i + 1], "json") == 0
                || strcmp(argv[i + 1], "text") == 0))
        {
            json = strcmp(argv[++i], "json") == 0;
            continue;
        }

        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            printf("usage: " VW_PROG " languages [--format json|text]\n");
            return VW_EXIT_OK;
        }

        fprintf(stderr, VW_PROG " languages: unknown option \"%s\"; usage: "
                VW_PROG " languages [--format json|text]\n", argv[i]);
        return VW_EXIT_USAGE;
    }

    if (vw_ocr_languages_json(buf, sizeof(buf)) != 0) {
        fprintf(stderr, VW_PROG " languages: too many languages\n");
        return VW_EXIT_FAILED;
    }

    if (json) {
        fputs(buf, stdout);
        return VW_EXIT_OK;
    }

    /* text: the names of the JSON list, one a line */

    for (p = strchr(buf, '[') + 1; (q = strchr(p, '"')) != NULL; p = e + 1) {
        e = strchr(q + 1, '"');
        printf("%.*s\n", (int) (e - q - 1), q + 1);
    }

    return VW_EXIT_OK;
}
