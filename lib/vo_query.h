/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The search request (issue 41): the query string of GET
 * <video_ocr_search location>?q=...&limit=...&cursor=... parsed,
 * checked and folded (lib/vo_fold.h) into the words the ledger looks
 * for (sql/vo_ledger_search.c).  Plain C, libc only, no nginx types:
 * the fuzz target (fuzz/fuzz_query.c) runs exactly this code.
 *
 * A query is words: the runs of letters and digits of q, folded.  Each
 * becomes a piece of the phrase; a word of a script written without
 * spaces is its characters, spaced (東京 is "東 京").  The search looks
 * for them in four tiers, best first (docs/http-api.md):
 *
 *   0 exact    the phrase as whole words: " w1 w2 "
 *   1 phrase   the phrase anywhere, inside longer words too: "w1 w2"
 *   2 words    every word, in any order
 *   3 fuzzy    every word, each possibly one edit away (a letter
 *              wrong, missing, added, or two swapped), for the words
 *              that allow it (VO_QUERY_FUZZY_MIN letters or more, no
 *              digit, not of a spaced script)
 *
 * A word shorter than a trigram (VO_QUERY_WHOLE_MAX code points) is
 * found as a whole word only: the index cannot see it inside another.
 */

#ifndef _VO_QUERY_H_INCLUDED_
#define _VO_QUERY_H_INCLUDED_


#include <stddef.h>
#include <stdint.h>


#define VO_QUERY_TEXT_MAX       256    /* bytes of q, decoded: else 414 */
#define VO_QUERY_ARGS_MAX       2048   /* bytes of the query string */
#define VO_QUERY_WORDS_MAX      32
#define VO_QUERY_FOLDED_MAX     1024   /* bytes of the folded phrase */
#define VO_QUERY_LIMIT_DEFAULT  20
#define VO_QUERY_LIMIT_MAX      100
#define VO_QUERY_FUZZY_MIN      4      /* code points */
#define VO_QUERY_WORD_MAX       32     /* code points of a fuzzy word */
#define VO_QUERY_WHOLE_MAX      2      /* code points */
#define VO_QUERY_CURSOR_MAX     32

#define VO_QUERY_EXACT   0
#define VO_QUERY_PHRASE  1
#define VO_QUERY_WORDS   2
#define VO_QUERY_FUZZY   3
#define VO_QUERY_TIERS   4


typedef enum {
    VO_QUERY_OK = 0,
    VO_QUERY_BAD,              /* 400: err says what */
    VO_QUERY_TOO_LONG          /* 414 */
} vo_query_rc_t;


typedef struct {
    uint16_t     off;          /* in vo_query_t.phrase */
    uint16_t     len;
    uint16_t     cps;          /* its code points */
    unsigned     whole:1;      /* found as a whole word only */
    unsigned     fuzzy:1;      /* may be one edit away */
} vo_query_word_t;


typedef struct {
    char              q[VO_QUERY_TEXT_MAX + 1];    /* as given, decoded */
    size_t            q_len;
    int               limit;
    int               tier;        /* the cursor: go on in this tier */
    int64_t           after;       /* with ids above this; 0: no cursor */

    /* " w1 w2 ... ": the words folded, one space apart and around */
    char              phrase[VO_QUERY_FOLDED_MAX + 1];
    size_t            phrase_len;
    vo_query_word_t   words[VO_QUERY_WORDS_MAX];
    size_t            nwords;
} vo_query_t;


/*
 * Parses the query string args[0, len) (not NUL-terminated, still
 * percent-encoded): q (required), limit (1 to VO_QUERY_LIMIT_MAX,
 * default VO_QUERY_LIMIT_DEFAULT), cursor (as a reply's "next" gave
 * it).  An unknown or repeated parameter, a malformed value, q empty, of
 * invalid UTF-8, with control characters, without a letter or a digit,
 * of more than VO_QUERY_WORDS_MAX words: VO_QUERY_BAD.  q longer than
 * VO_QUERY_TEXT_MAX bytes: VO_QUERY_TOO_LONG.  err gets a sentence for
 * the client either way.
 */
vo_query_rc_t vo_query_parse(const char *args, size_t len, vo_query_t *q,
    char *err, size_t err_size);

/* The cursor of (tier, id), for a reply's "next"; its length. */
size_t vo_query_cursor(char *buf, size_t size, int tier, int64_t id);

/*
 * Whether the UTF-8 words a and b are at most one edit apart: equal, or
 * one code point replaced, removed, added, or two neighbours swapped
 * (the optimal string alignment distance is 0 or 1).
 */
int vo_query_near(const char *a, size_t an, const char *b, size_t bn);


/*
 * Where a hit matched, for its highlights: the occurrences in text
 * (UTF-8, as published) of the folded patterns pats[i] (lens[i] bytes,
 * a space at either end meaning a word's edge), found in text folded
 * with VO_FOLD_SPACED, as ranges [from, to) of text's code points,
 * sorted and merged, at most max of them into marks.  Returns how many.
 */
size_t vo_query_marks(const char *text, size_t len, const char *const *pats,
    const size_t *lens, size_t npats, uint32_t (*marks)[2], size_t max);


#endif /* _VO_QUERY_H_INCLUDED_ */
