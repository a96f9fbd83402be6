/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Inside a search (issue 41): what one vo_ledger_search() holds, for its
 * three files.  Not for any other.
 *
 *   vo_ledger_search.c        the tiers: each one's index query, the
 *                             test of its candidates, the page
 *   vo_ledger_search_words.c  the tenant's words one edit from a query
 *                             word, how common a word is
 *   vo_ledger_search_hits.c   the page's hits: their jobs, their
 *                             segments as published, the reply
 */

#ifndef _VO_LEDGER_SEARCH_INT_H_INCLUDED_
#define _VO_LEDGER_SEARCH_INT_H_INCLUDED_


#include "vo_ledger.h"
#include "vo_ledger_int.h"


#define VO_SEARCH_VARIANTS      32     /* per word: its neighbours kept */
#define VO_SEARCH_SCAN          500    /* words read per range of them */
#define VO_SEARCH_MARKS         32     /* highlights per hit */
/* a hit's patterns: each word's, its neighbours */
#define VO_SEARCH_HIT_PATS                                                   \
    (VO_QUERY_WORDS_MAX * (VO_SEARCH_VARIANTS + 1) + 2)
/* the strings of a tier's query (PostgreSQL): the words of the phrase
 * (VO_QUERY_FOLDED_MAX / 2 at most), each word's form, each fuzzy
 * word's group, the phrases */
#define VO_SEARCH_PAT_MAX                                                    \
    (VO_QUERY_WORDS_MAX * (VO_SEARCH_VARIANTS + 3) + VO_QUERY_FOLDED_MAX / 2 \
     + 4)

/*
 * SQLite's two indexes of the folded texts: by trigrams (search_fts),
 * which finds a piece of a word, and by words (search_tokens), which
 * finds a whole word or a run of them at the cost of a read of its list
 * of segments (a trigram's list is far longer, and a word of n letters
 * is n - 2 of them: on the benchmark's ledger, bench/search/, 2 to 4 ms
 * a word by trigrams, 0.02 ms by words).  A tier asks the index of
 * words whenever its hits are runs of whole words.
 *
 * The code points of a pattern the trigrams look for: a longer pattern
 * is looked for by a window of it (the cost of an FTS5 phrase is its
 * trigrams times the index's segments, and 10 code points of a phrase
 * are as selective as all of it), its candidates then tested whole.
 */
#define VO_SEARCH_WINDOW        10

/* the words (the rarest) a trigram query of tier 2 names at most; the
 * others are tested on its candidates */
#define VO_SEARCH_NAMED         2

/* candidates a search tests at most: past it, the page ends where the
 * search stopped (its cursor goes on from there) */
#define VO_SEARCH_BUDGET        20000

/* how common a word is: the segments that have it whole, counted up to
 * this */
#define VO_SEARCH_COUNTED       1000


/* a word one edit from a query word, or a fuzzy query word itself, as
 * " word " (a whole word) */
typedef struct {
    char            word[VO_QUERY_WORD_MAX * 4 + 3];
    size_t          len;
} vo_search_variant_t;


typedef struct {
    int64_t         id;
    int             tier;
    size_t          job;           /* in vo_search_t.job */
    int64_t         segment;
    char           *obj;           /* the segment, as published */
    size_t          obj_len;
    char           *text;
    size_t          text_len;
} vo_search_hit_t;


typedef struct {
    char            job_id[VO_JOB_ID_LEN + 1];
} vo_search_job_t;


typedef struct vo_search_s {
    vo_ledger_t          *l;
    const vo_query_t     *q;
    const char           *tenant;
    size_t                tenant_len;
    int64_t               lo, hi;       /* the tenant's range of ids */
    int                   pg;

    /* PostgreSQL: the strings of a tier's query, pat[k] of pat_len[k]
     * bytes, one parameter (a text[]) */
    const char           *pat[VO_SEARCH_PAT_MAX];
    size_t                pat_len[VO_SEARCH_PAT_MAX];
    size_t                npat;

    char                  t1[VO_QUERY_FOLDED_MAX + 3];   /* tier 1's */
    size_t                t1_len;
    char                  form[VO_QUERY_WORDS_MAX][VO_QUERY_FOLDED_MAX + 3];
    size_t                form_len[VO_QUERY_WORDS_MAX];

    /* tier 3: a fuzzy word is found whole, as its neighbours are */
    vo_search_variant_t   self[VO_QUERY_WORDS_MAX];

    /* SQLite: the word's form is a run of whole words (a word of one or
     * two letters, or of a spaced script): the index of words finds it */
    unsigned char         words_only[VO_QUERY_WORDS_MAX];
    int                   all_words_only;
    int                   tokens;       /* this tier asks search_tokens */

    /* tier 2 (SQLite): how common each word is, in segments that have
     * it whole counted up to VO_SEARCH_COUNTED */
    int64_t               est[VO_QUERY_WORDS_MAX];
    int                   has_est;
    vo_search_variant_t  *var[VO_QUERY_WORDS_MAX];
    size_t                nvar[VO_QUERY_WORDS_MAX];
    int                   has_variants;

    vo_search_hit_t       hit[VO_QUERY_LIMIT_MAX + 1];
    size_t                nhit;
    vo_search_job_t       job[VO_QUERY_LIMIT_MAX + 1];
    size_t                njob;

    int64_t               tested;       /* candidates, against the budget */
    int                   stop_tier;    /* where the budget ran out, or -1 */
    int64_t               stop_id;

    char                 *err;
    size_t                err_size;
} vo_search_t;


extern const char *const  vo_search_tiers[VO_QUERY_TIERS];

/* vo_ledger_search.c: a run of whole words as an FTS5 string of
 * search_tokens */
void vo_search_token(vo_buf_t *b, const char *t, size_t n);

/* vo_ledger_search_words.c */
vo_ledger_rc_t vo_search_estimate(vo_search_t *s);
vo_ledger_rc_t vo_search_variants(vo_search_t *s);

/* vo_ledger_search_hits.c */
vo_ledger_rc_t vo_search_resolve(vo_search_t *s, vo_buf_t *out);


#endif /* _VO_LEDGER_SEARCH_INT_H_INCLUDED_ */
