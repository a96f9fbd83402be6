/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The search benchmark's ledger (bench/search/run.sh): JOBS jobs of
 * SEGMENTS segments each, every result published through the ledger's
 * own publish (vo_ledger_publish, which writes the search index as the
 * worker's publish does), and the queries of each kind the benchmark
 * asks, written to DIR/<kind>.txt as request paths.
 *
 *   fill LEDGER JOBS SEGMENTS SEED DIR
 *
 * The texts: words drawn by a Zipf law (s = 1) from 146 common English
 * words then the words of Debian's wamerican (/usr/share/dict/
 * american-english, lower case, 3 letters or more: about 63000) in an
 * order the seed shuffles, 3 to 9 to a segment; one word in 20 with an
 * OCR error (a letter read as a look-alike, two letters swapped, a
 * letter lost); one segment in 12 a line of Japanese (kanji and kana by
 * a Zipf law too).  Half the jobs are tenant t0's (the one that
 * searches), the rest spread over t1..t7.  200 phrases of three rare
 * words (of the last 20000) are planted three times each in t0's
 * segments.  The queries:
 *
 *   common   one or two of the 30 most common words
 *   phrase   a planted phrase
 *   typo     a planted phrase with a word one edit away
 *   cjk      2 or 3 characters of one of t0's Japanese lines
 *
 * Jobs are inserted running (what a claim leaves), 1000 to a
 * transaction, then published one by one; the ledger is opened with
 * synchronous=NORMAL (the benchmark measures queries, not commits).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vo_ledger.h"
#include "vo_ledger_int.h"


#define BENCH_COMMON     146
#define BENCH_WORDS      (BENCH_COMMON + 70000)
#define BENCH_PLANTED    200
#define BENCH_DICT       "/usr/share/dict/american-english"
#define BENCH_QUERIES    100
#define BENCH_TENANTS    8


static const char  *bench_common[BENCH_COMMON] = {
    "the", "of", "and", "to", "in", "is", "for", "on", "with", "new",
    "price", "you", "this", "that", "are", "your", "by", "from", "at",
    "now", "all", "more", "our", "we", "can", "will", "about", "free",
    "sale", "today", "next", "time", "how", "what", "year", "per", "off",
    "only", "here", "best", "news", "live", "update", "report", "total",
    "order", "call", "video", "meeting", "team", "plan", "data", "sales",
    "market", "week", "month", "day", "product", "service", "online",
    "store", "offer", "save", "shop", "learn", "start", "watch", "click",
    "follow", "subscribe", "welcome", "thank", "thanks", "slide", "chapter",
    "lesson", "part", "step", "first", "second", "third", "final", "result",
    "results", "growth", "revenue", "cost", "costs", "budget", "project",
    "review", "summary", "agenda", "question", "questions", "answer", "note",
    "notes", "example", "figure", "table", "chart", "page", "section",
    "formula", "equation", "value", "number", "phone", "email", "address",
    "contact", "support", "help", "info", "details", "special", "limited",
    "discount", "deal", "deals", "brand", "quality", "design", "model",
    "version", "release", "launch", "event", "city", "world", "people",
    "home", "work", "life", "game", "score", "win", "goal", "match", "player",
    "season", "open", "close", "daily", "weekly"
};

/* Japanese: common kanji and kana */
static const char  *bench_cjk =
    "日本東京大阪価格円年月時分新品会社事業売上利益計画報告資料説明"
    "市場顧客商品開発技術情報管理確認予定変更目標結果会議学生授業問題"
    "のはがをにでとももうすこしあいうえおかきくけこさしすせそたちつてと"
    "アイウエオカキクケコサシスセソタチツテトナニヌネノハヒフヘホマミムメモ"
    "ーラリルレロワン";


typedef struct {
    char        *word[BENCH_WORDS];
    size_t       nwords;
    double      *cdf;              /* Zipf, over the words */
    double      *cjk_cdf;
    uint32_t     cjk[256];
    size_t       ncjk;
    uint64_t     rng;
} bench_t;


static uint64_t bench_next(bench_t *b);
static double bench_uniform(bench_t *b);
static size_t bench_zipf(bench_t *b, const double *cdf, size_t n);
static int bench_make_words(bench_t *b);
static void bench_segment(bench_t *b, vo_buf_t *t, int cjk);
static void bench_typo(bench_t *b, char *w);
static void bench_put_cp(vo_buf_t *t, uint32_t cp);
static void bench_query(FILE *f, const char *q);
static int64_t bench_ms(void);
static int bench_cmp(const void *a, const void *b);


int
main(int argc, char **argv)
{
    int                  jobs, segs, i, k, p, tenant, cjk_lines;
    char                 err[VO_ERR_TEXT], job_id[VO_JOB_ID_LEN + 1];
    char                 tname[8], path[512], *plant[BENCH_PLANTED];
    unsigned char       *tenants;
    int64_t              spot[BENCH_PLANTED * 3], t0_segs, seg_no;
    size_t               nspots, at;
    int64_t              now, t0, t_pub;
    FILE                *q[4];
    bench_t              b;
    vo_buf_t             json, txt, vtt, srt, text;
    vo_stmt_t           *s;
    vo_claim_t           c;
    vo_ledger_t         *l;
    vo_result_body_t     bodies[4];
    vo_attempt_stats_t   st;
    vo_ledger_conf_t     conf = { 60000, 0, 1 };

    static const char  *kinds[4] = { "common", "phrase", "typo", "cjk" };

    if (argc != 6) {
        fprintf(stderr, "usage: fill LEDGER JOBS SEGMENTS SEED DIR\n");
        return 2;
    }

    jobs = atoi(argv[2]);
    segs = atoi(argv[3]);

    memset(&b, 0, sizeof(b));
    b.rng = (uint64_t) strtoull(argv[4], NULL, 10) * 0x9e3779b97f4a7c15ULL
            + 1;

    if (bench_make_words(&b) != 0) {
        return 1;
    }

    for (k = 0; k < 4; k++) {
        snprintf(path, sizeof(path), "%s/%s.txt", argv[5], kinds[k]);
        q[k] = fopen(path, "w");
        if (q[k] == NULL) {
            perror(path);
            return 1;
        }
    }

    if (vo_ledger_open(argv[1], &conf, &l, err, sizeof(err))
        != VO_LEDGER_OK)
    {
        fprintf(stderr, "fill: %s\n", err);
        return 1;
    }

    /* the planted phrases: three words of the rare tail each */

    for (p = 0; p < BENCH_PLANTED; p++) {
        plant[p] = malloc(256);
        snprintf(plant[p], 256, "%s %s %s",
                 b.word[b.nwords - 1 - (bench_next(&b) % 20000)],
                 b.word[b.nwords - 1 - (bench_next(&b) % 20000)],
                 b.word[b.nwords - 1 - (bench_next(&b) % 20000)]);
    }

    /* the jobs, running (what a claim leaves) */

    now = bench_ms();
    t0 = now;

    tenants = malloc((size_t) jobs + 1);

    s = vo_ledger_prepare(l, "INSERT INTO jobs (job_id, tenant, state,"
                          " options, input_path, input_size,"
                          " input_sha256, container, attempt,"
                          " created_at, updated_at, started_at)"
                          " VALUES (?1, ?2, 'running',"
                          " '{\"crop\":null,\"fps\":1,\"lang\":\"eng\"}',"
                          " 'in/x', 1000000, '0', 'mp4', 1, ?3, ?3, ?3)",
                          err, sizeof(err));
    if (s == NULL || tenants == NULL) {
        fprintf(stderr, "fill: %s\n", s ? "out of memory" : err);
        return 1;
    }

    for (i = 0; i < jobs; i++) {
        if (i % 1000 == 0) {
            if (i > 0 && vo_ledger_commit(l, err, sizeof(err))) {
                fprintf(stderr, "fill: %s\n", err);
                return 1;
            }

            if (vo_ledger_begin(l, err, sizeof(err))) {
                fprintf(stderr, "fill: %s\n", err);
                return 1;
            }
        }

        snprintf(job_id, sizeof(job_id), "%012llx%020d",
                 (unsigned long long) (now + i), i);
        tenant = (bench_next(&b) % 2) ? 0
                 : 1 + (int) (bench_next(&b) % (BENCH_TENANTS - 1));
        tenants[i] = (unsigned char) tenant;
        snprintf(tname, sizeof(tname), "t%d", tenant);

        vo_bind_text(s, 1, job_id, -1);
        vo_bind_text(s, 2, tname, -1);
        vo_bind_int(s, 3, now + i);

        if (vo_ledger_step_done(l, s, "insert job", err, sizeof(err))) {
            fprintf(stderr, "fill: %s\n", err);
            return 1;
        }
    }

    vo_stmt_finalize(s);

    if (jobs > 0 && vo_ledger_commit(l, err, sizeof(err))) {
        fprintf(stderr, "fill: %s\n", err);
        return 1;
    }

    /* each job's result, published */

    vo_buf_init(&json);
    vo_buf_init(&txt);
    vo_buf_init(&vtt);
    vo_buf_init(&srt);
    vo_buf_init(&text);

    memset(&st, 0, sizeof(st));
    st.step = "publish";
    st.claim_ms = -1;

    /* where the planted phrases go: 3 of t0's segments each */

    for (i = 0, t0_segs = 0; i < jobs; i++) {
        t0_segs += tenants[i] == 0 ? segs : 0;
    }

    for (p = 0; p < BENCH_PLANTED * 3 && t0_segs > 0; p++) {
        spot[p] = (int64_t) (bench_next(&b) % (uint64_t) t0_segs);
    }

    nspots = p;
    qsort(spot, nspots, sizeof(int64_t), bench_cmp);
    at = 0;
    seg_no = 0;

    t_pub = bench_ms();
    cjk_lines = 0;

    for (i = 0; i < jobs; i++) {
        memset(&c, 0, sizeof(c));
        snprintf(c.job_id, sizeof(c.job_id), "%012llx%020d",
                 (unsigned long long) (now + i), i);
        snprintf(c.tenant, sizeof(c.tenant), "t%d", tenants[i]);
        c.attempt = 1;

        vo_buf_reset(&json);
        vo_buf_reset(&txt);
        vo_buf_reset(&vtt);
        vo_buf_reset(&srt);

        vo_buf_adds(&json, "{\"plan_version\":2,\"frame_size\":[1280,720],"
                    "\"segments\":[");
        vo_buf_adds(&vtt, "WEBVTT\n\n");

        for (k = 0; k < segs; k++) {
            int  is_cjk = (bench_next(&b) % 12) == 0;

            vo_buf_reset(&text);

            if (tenants[i] == 0 && at < nspots && spot[at] == seg_no) {
                vo_buf_adds(&text, plant[at % BENCH_PLANTED]);
                is_cjk = 0;

                while (at < nspots && spot[at] == seg_no) {
                    at++;
                }

            } else {
                bench_segment(&b, &text, is_cjk);
            }

            seg_no += tenants[i] == 0;

            vo_buf_addc(&text, '\0');

            /* 2 or 3 characters of one of t0's Japanese lines (of 6
             * or more, each three bytes of UTF-8), for the queries */

            if (is_cjk && tenants[i] == 0 && cjk_lines < BENCH_QUERIES
                && bench_next(&b) % 20 == 0)
            {
                size_t  n = 2 + bench_next(&b) % 2;
                size_t  off = 3 * (size_t) (bench_next(&b) % 4);
                char    piece[16];

                memcpy(piece, text.data + off, n * 3);
                piece[n * 3] = '\0';
                bench_query(q[3], piece);
                cjk_lines++;
            }

            vo_buf_printf(&json, "%s{\"start\":%d.%d,\"end\":%d.%d,\"text\":",
                          k ? "," : "", k * 4, 5, k * 4 + 3, 5);
            vo_json_strz(&json, text.data);
            vo_buf_printf(&json, ",\"confidence\":%d,\"looks\":%d,"
                          "\"box\":[%d,%d,%d,%d],\"lines\":1}",
                          80 + (int) (bench_next(&b) % 20),
                          1 + (int) (bench_next(&b) % 8),
                          100 + (int) (bench_next(&b) % 400), 600,
                          400 + (int) (bench_next(&b) % 400), 48);

            vo_buf_printf(&txt, "%s\n", text.data);
            vo_buf_printf(&vtt, "00:%02d:%02d.500 --> 00:%02d:%02d.500\n%s\n\n",
                          (k * 4) / 60, (k * 4) % 60, (k * 4 + 3) / 60,
                          (k * 4 + 3) % 60, text.data);
            vo_buf_printf(&srt, "%d\n00:%02d:%02d,500 --> 00:%02d:%02d,500\n"
                          "%s\n\n", k + 1, (k * 4) / 60, (k * 4) % 60,
                          (k * 4 + 3) / 60, (k * 4 + 3) % 60, text.data);
        }

        vo_buf_adds(&json, "]}\n");

        if (!vo_buf_ok(&json) || !vo_buf_ok(&txt) || !vo_buf_ok(&vtt)
            || !vo_buf_ok(&srt))
        {
            fprintf(stderr, "fill: out of memory\n");
            return 1;
        }

        bodies[0].format = "json";
        bodies[0].body = json.data;
        bodies[0].len = json.len;
        bodies[1].format = "vtt";
        bodies[1].body = vtt.data;
        bodies[1].len = vtt.len;
        bodies[2].format = "srt";
        bodies[2].body = srt.data;
        bodies[2].len = srt.len;
        bodies[3].format = "txt";
        bodies[3].body = txt.data;
        bodies[3].len = txt.len;

        if (vo_ledger_publish(l, &c, bodies, 4, &st, now + i, err,
                              sizeof(err))
            != VO_LEDGER_OK)
        {
            fprintf(stderr, "fill: publish %s: %s\n", c.job_id, err);
            return 1;
        }

        if ((i + 1) % 10000 == 0) {
            fprintf(stderr, "fill: %d jobs published, %.2f ms a publish\n",
                    i + 1, (double) (bench_ms() - t_pub) / (i + 1));
        }
    }

    printf("jobs=%d segments=%d publish_ms=%.3f fill_s=%.1f\n", jobs, segs,
           jobs ? (double) (bench_ms() - t_pub) / jobs : 0.0,
           (double) (bench_ms() - t0) / 1000);

    /* the queries */

    for (k = 0; k < BENCH_QUERIES; k++) {
        char  qs[256], word[64];

        /* common: one of the 30 most common words, or two */

        if (k % 2) {
            snprintf(qs, sizeof(qs), "%s", bench_common[k % 30]);
        } else {
            snprintf(qs, sizeof(qs), "%s %s", bench_common[k % 30],
                     bench_common[(k * 7 + 3) % 30]);
        }

        bench_query(q[0], qs);

        /* phrase, and the same with a typo in its longest word */

        bench_query(q[1], plant[k]);

        /* its middle word, one edit away */

        snprintf(word, sizeof(word), "%s", strchr(plant[k], ' ') + 1);
        *strchr(word, ' ') = '\0';
        bench_typo(&b, word);
        snprintf(qs, sizeof(qs), "%.*s %s%s",
                 (int) (strchr(plant[k], ' ') - plant[k]), plant[k], word,
                 strrchr(plant[k], ' '));
        bench_query(q[2], qs);
    }

    for (k = 0; k < 4; k++) {
        fclose(q[k]);
    }

    vo_ledger_close(l);

    return 0;
}


/* a request path: /search?q=<q, percent-encoded> */

static void
bench_query(FILE *f, const char *q)
{
    const unsigned char  *p;

    fputs("/search?q=", f);

    for (p = (const unsigned char *) q; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')) {
            fputc(*p, f);

        } else if (*p == ' ') {
            fputc('+', f);

        } else {
            fprintf(f, "%%%02X", *p);
        }
    }

    fputc('\n', f);
}


static int
bench_make_words(bench_t *b)
{
    FILE        *f;
    size_t       i, k, n;
    double       sum;
    char        *t, line[128];
    const char  *p, *dict;

    for (i = 0; i < BENCH_COMMON; i++) {
        b->word[i] = strdup(bench_common[i]);
    }

    dict = getenv("DICT") ? getenv("DICT") : BENCH_DICT;

    f = fopen(dict, "r");
    if (f == NULL) {
        perror(dict);
        fprintf(stderr, "fill: the word list of Debian's wamerican is "
                "needed (scripts/deps.sh bench)\n");
        return -1;
    }

    n = BENCH_COMMON;

    while (n < BENCH_WORDS && fgets(line, sizeof(line), f) != NULL) {
        line[strcspn(line, "\n")] = '\0';

        for (p = line; *p >= 'a' && *p <= 'z'; p++) { /* void */ }

        if (*p != '\0' || p - line < 3) {
            continue;
        }

        for (k = 0; k < BENCH_COMMON && strcmp(line, bench_common[k]); k++) {
            /* void */
        }

        if (k == BENCH_COMMON) {
            b->word[n++] = strdup(line);
        }
    }

    fclose(f);

    /* the dictionary's order, shuffled: rank is not the alphabet's */

    for (i = n - 1; i > BENCH_COMMON; i--) {
        k = BENCH_COMMON + bench_next(b) % (i - BENCH_COMMON + 1);
        t = b->word[i];
        b->word[i] = b->word[k];
        b->word[k] = t;
    }

    b->nwords = n;

    b->cdf = malloc(n * sizeof(double));

    for (i = 0, sum = 0; i < n; i++) {
        sum += 1.0 / (double) (i + 1);
        b->cdf[i] = sum;
    }

    for (i = 0; i < n; i++) {
        b->cdf[i] /= sum;
    }

    for (p = bench_cjk; *p; p += 3) {
        b->cjk[b->ncjk++] = ((uint32_t) (p[0] & 0x0f) << 12)
                            | ((uint32_t) (p[1] & 0x3f) << 6)
                            | (uint32_t) (p[2] & 0x3f);
    }

    b->cjk_cdf = malloc(b->ncjk * sizeof(double));

    for (i = 0, sum = 0; i < b->ncjk; i++) {
        sum += 1.0 / (double) (i + 1);
        b->cjk_cdf[i] = sum;
    }

    for (i = 0; i < b->ncjk; i++) {
        b->cjk_cdf[i] /= sum;
    }

    return 0;
}


static void
bench_segment(bench_t *b, vo_buf_t *t, int cjk)
{
    size_t  i, n;
    char    w[64];

    if (cjk) {
        n = 6 + bench_next(b) % 9;

        for (i = 0; i < n; i++) {
            bench_put_cp(t, b->cjk[bench_zipf(b, b->cjk_cdf, b->ncjk)]);
        }

        return;
    }

    n = 3 + bench_next(b) % 7;

    for (i = 0; i < n; i++) {
        snprintf(w, sizeof(w), "%s",
                 b->word[bench_zipf(b, b->cdf, b->nwords)]);

        if (bench_next(b) % 20 == 0) {
            bench_typo(b, w);            /* OCR's */
        }

        if (i == 0 && w[0] >= 'a' && w[0] <= 'z') {
            w[0] -= 32;
        }

        vo_buf_adds(t, i ? " " : "");
        vo_buf_adds(t, w);
    }
}


/*
 * One edit, inside the word: a letter read as its look-alike, two
 * letters swapped, or a letter lost.
 */

static void
bench_typo(bench_t *b, char *w)
{
    size_t       n, i;
    char         c;
    const char  *p;

    static const char  look[] = "lieconamhnuvvu";

    n = strlen(w);

    if (n < 4) {
        return;
    }

    i = 1 + bench_next(b) % (n - 2);

    switch (bench_next(b) % 3) {
    case 0:
        p = strchr(look, w[i]);
        c = (p != NULL && p[1] != '\0' && p[1] != w[i]) ? p[1]
            : (w[i] == 'e') ? 'c' : 'e';
        w[i] = c;
        break;

    case 1:
        c = w[i];
        w[i] = w[i + 1];
        w[i + 1] = c;
        break;

    default:
        memmove(w + i, w + i + 1, n - i);
    }
}


static void
bench_put_cp(vo_buf_t *t, uint32_t cp)
{
    char  u[3];

    u[0] = (char) (0xe0 | (cp >> 12));
    u[1] = (char) (0x80 | ((cp >> 6) & 0x3f));
    u[2] = (char) (0x80 | (cp & 0x3f));

    vo_buf_add(t, u, 3);
}


static size_t
bench_zipf(bench_t *b, const double *cdf, size_t n)
{
    size_t  lo, hi, mid;
    double  u;

    u = bench_uniform(b);
    lo = 0;
    hi = n - 1;

    while (lo < hi) {
        mid = lo + (hi - lo) / 2;

        if (cdf[mid] < u) {
            lo = mid + 1;

        } else {
            hi = mid;
        }
    }

    return lo;
}


/* splitmix64 */

static uint64_t
bench_next(bench_t *b)
{
    uint64_t  z;

    z = (b->rng += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;

    return z ^ (z >> 31);
}


static double
bench_uniform(bench_t *b)
{
    return (double) (bench_next(b) >> 11) / (double) (1ULL << 53);
}


static int64_t
bench_ms(void)
{
    struct timespec  ts;

    clock_gettime(CLOCK_REALTIME, &ts);

    return (int64_t) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}


static int
bench_cmp(const void *a, const void *b)
{
    int64_t  x = *(const int64_t *) a, y = *(const int64_t *) b;

    return (x > y) - (x < y);
}
