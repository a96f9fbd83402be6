/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Inside the ledger: the connection type, the statement cache, the
 * backend interface and the helpers the vo_ledger*.c files share.  Not
 * for the module or the worker, which see only vo_ledger.h.
 *
 * The ledger's logic (admission, fencing, the state machine) is written
 * once, in vo_ledger_*.c, against a small statement interface (prepare,
 * bind, step, column) that each backend implements the way SQLite's own
 * API works:
 *
 *   vo_ledger_sqlite.c    SQLite: one file, WAL (the default)
 *   vo_ledger_pg.c        PostgreSQL through libpq ("postgresql://...")
 *   vo_ledger_nopg.c      the same in a build without libpq: opens
 *                         nothing and says why
 *
 * The SQL texts are shared; a backend replaces only the few whose
 * dialect differs (its "sql" table, by statement id).  Shared texts use
 * SQLite's ?N parameters, which the PostgreSQL backend rewrites to $N.
 */

#ifndef _VO_LEDGER_INT_H_INCLUDED_
#define _VO_LEDGER_INT_H_INCLUDED_


#include "vo_ledger.h"


/*
 * Every statement the ledger prepares.  Its SQL text is in the table of
 * the file that uses it (vo_ledger.c, vo_ledger_admit.c, vo_ledger_jobs.c,
 * vo_ledger_worker.c, vo_ledger_janitor.c), by designated initializer;
 * a backend's own table replaces the few whose dialect differs.
 */
typedef enum {
    VO_STMT_BEGIN = 0,
    VO_STMT_COMMIT,
    VO_STMT_ROLLBACK,
    VO_STMT_SAVEPOINT,
    VO_STMT_ROLLBACK_TO,
    VO_STMT_RELEASE_TO,
    VO_STMT_INSERT_EVENT,

    VO_STMT_FIND_RECEIPT,
    VO_STMT_DELETE_RECEIPT,
    VO_STMT_INSERT_JOB,
    VO_STMT_INSERT_RECEIPT,

    VO_STMT_JOB_STATUS,
    VO_STMT_JOB_RESULT,
    VO_STMT_DELETE_FIND,
    VO_STMT_DELETE_MARK,
    VO_STMT_DELETE_FRAMES,
    VO_STMT_DELETE_RESULTS,

    /* the claim (vo_ledger_claim.c) */
    VO_STMT_CLAIM_TAKEOVER,
    VO_STMT_CLAIM_TURN,
    VO_STMT_CLAIM_NEXT_TENANT,
    VO_STMT_CLAIM_FIRST_TENANT,
    VO_STMT_CLAIM_QUEUED,
    VO_STMT_CLAIM_RUNNING,
    VO_STMT_CLAIM_SET_TURN,
    VO_STMT_CLAIM,
    VO_STMT_GIVE_UP,
    VO_STMT_TENANT_QUEUED,
    VO_STMT_HEARTBEAT,
    VO_STMT_SET_PLAN,
    VO_STMT_PUT_FRAME,
    VO_STMT_PROGRESS,
    VO_STMT_FRAMES,
    VO_STMT_PUBLISH,
    VO_STMT_PUT_RESULT,
    VO_STMT_RETRY,
    VO_STMT_REJECT,
    VO_STMT_RELEASE,
    /* parts (vo_ledger_parts.c) */
    VO_STMT_PART_SPLIT,
    VO_STMT_PART_INSERT,
    VO_STMT_PARTS_OF,
    VO_STMT_FRAMES_RANGE,
    VO_STMT_PART_DONE,
    VO_STMT_PART_COUNT,
    VO_STMT_PART_JOIN,
    VO_STMT_PART_PUBLISH,
    VO_STMT_PART_LOCK,
    VO_STMT_PARTS_LOCK,
    VO_STMT_PART_END,
    VO_STMT_PARTS_DROP_FRAMES,
    VO_STMT_PARTS_DROP,

    VO_STMT_EXPIRE_RECEIPTS,
    VO_STMT_MEDIA_DUE,
    VO_STMT_MEDIA_DELETED,
    VO_STMT_MEDIA_FRAMES,
    VO_STMT_MEDIA_OF,
    VO_STMT_FOLD_COUNTERS,

    /* webhooks (vo_ledger_webhooks.c) */
    VO_STMT_HOOK_ENDPOINT_FIND,
    VO_STMT_HOOK_ENDPOINT_INSERT,
    VO_STMT_HOOK_ENDPOINT_ROTATE,
    VO_STMT_HOOK_TARGET,
    VO_STMT_HOOK_INSERT,
    VO_STMT_HOOK_PROBE,
    VO_STMT_HOOK_CANDIDATE,
    VO_STMT_HOOK_CLAIM,
    VO_STMT_HOOK_ENDPOINT_OF,
    VO_STMT_HOOK_ATTEMPT_START,
    VO_STMT_HOOK_ATTEMPT_END,
    VO_STMT_HOOK_DONE,
    VO_STMT_HOOK_DISABLE,
    VO_STMT_HOOK_HOLD,
    VO_STMT_HOOK_OF_JOB,
    /* resumable uploads (vo_ledger_upload.c) */
    VO_STMT_UPLOAD_BY_KEY,
    VO_STMT_UPLOAD_OPEN_COUNT,
    VO_STMT_UPLOAD_INSERT,
    VO_STMT_UPLOAD_FORGET,
    VO_STMT_UPLOAD_GET,
    VO_STMT_UPLOAD_CLAIM,
    VO_STMT_UPLOAD_LOCK,
    VO_STMT_UPLOAD_ADVANCE,
    VO_STMT_UPLOAD_COMPLETING,
    VO_STMT_UPLOAD_ADMITTED,
    VO_STMT_UPLOAD_DELETE,
    VO_STMT_UPLOADS_DUE,
    VO_STMT_UPLOAD_EXPIRE,
    VO_STMT_UPLOAD_EXISTS,
    VO_STMT_UPLOAD_FINAL_CLAIM,
    VO_STMT_UPLOAD_PART_TAKE,
    /* retention (vo_ledger_janitor.c) and the job it removed
     * (vo_ledger_jobs.c) */
    VO_STMT_RETAIN_FRAMES_DUE,
    VO_STMT_RETAIN_FRAMES,
    VO_STMT_RETAIN_FRAMES_MARK,
    VO_STMT_RETAIN_JOBS_DUE,
    VO_STMT_RETAIN_ATTEMPTS,
    VO_STMT_RETAIN_NOTIFICATIONS,
    VO_STMT_RETAIN_RESULTS,
    VO_STMT_RETAIN_JOB_FRAMES,
    VO_STMT_RETAIN_JOB,
    VO_STMT_RETAIN_EVENTS,
    VO_STMT_RETAIN_AUDIT,
    VO_STMT_FOLD_TENANTS,
    VO_STMT_JOB_GONE,
    /* search (vo_ledger_search_index.c, vo_ledger_search.c) */
    VO_STMT_SEARCH_TENANT,
    VO_STMT_SEARCH_TENANT_ADD,
    VO_STMT_SEARCH_NUMBER,
    VO_STMT_SEARCH_JOB_ADD,
    VO_STMT_SEARCH_JOB_FIND,
    VO_STMT_SEARCH_JOB_DEL,
    VO_STMT_SEARCH_SEGMENTS_ADD,
    VO_STMT_SEARCH_SEGMENTS_DEL,
    VO_STMT_SEARCH_WORDS_ADD,
    VO_STMT_SEARCH_WORDS_OF,
    VO_STMT_SEARCH_WORD_MOVE,
    VO_STMT_SEARCH_WORD_DROP,
    VO_STMT_SEARCH_PROBE,
    VO_STMT_SEARCH_COUNT,
    VO_STMT_SEARCH_WORD,
    VO_STMT_SEARCH_WORDS_PREFIX,
    VO_STMT_SEARCH_WORDS_SUFFIX,
    VO_STMT_SEARCH_MATCH,
    VO_STMT_SEARCH_TOKENS,
    VO_STMT_SEARCH_JOB_OF,
    VO_STMT_SEARCH_JOB_INFO,
    VO_STMT_COUNT
} vo_ledger_stmt_e;


/*
 * The claim's candidates (vo_ledger_claim.c), each an index probe:
 * the running job whose lease expired first (jobs_leases), and the
 * claimable job of tenant ?1 that became claimable first (jobs_queued).
 * PostgreSQL appends FOR UPDATE SKIP LOCKED.
 */
#define VO_CLAIM_TAKEOVER_SQL                                                \
    "SELECT job_id, state, failures, max_attempts, parent_id FROM jobs"      \
    " WHERE state = 'running' AND lease_expires_at < ?1"                     \
    " ORDER BY lease_expires_at LIMIT 1"

#define VO_CLAIM_QUEUED_SQL                                                  \
    "SELECT job_id, state, failures, max_attempts, parent_id FROM jobs"      \
    " WHERE state = 'accepted' AND tenant = ?1 AND not_before <= ?2"         \
    " ORDER BY not_before, created_at LIMIT 1"

/* whose turn it is; PostgreSQL appends FOR UPDATE: claims take turns */
#define VO_CLAIM_TURN_SQL                                                    \
    "SELECT tenant, streak FROM claim_turn WHERE id = 1"


/*
 * The notification due first (vo_ledger_claim_delivery): pending, due
 * (?1 now), its first attempt not before ?2, and no earlier notification
 * of its job still waiting.  PostgreSQL appends FOR UPDATE SKIP LOCKED.
 */
#define VO_HOOK_CANDIDATE_SQL                                                \
    "SELECT n.id FROM notifications n"                                       \
    " WHERE n.state = 'pending' AND n.next_attempt_at <= ?1"                 \
    " AND (n.attempts > n.attempts_before OR n.created_at <= ?2)"            \
    " AND NOT EXISTS (SELECT 1 FROM notifications p"                         \
    " WHERE p.job_id = n.job_id AND p.id < n.id"                             \
    " AND p.state IN ('pending', 'held'))"                                   \
    " ORDER BY n.next_attempt_at, n.id LIMIT 1"


/*
 * The event kinds an operator must keep longer (--audit-retention): a
 * tenant's deletions, the operators' actions, the janitor's records of
 * what it deleted.  Word for word the list of the partial indexes
 * events_by_age and events_audit_by_age of sql/schema.sql, which the
 * retention's statements must repeat for the planner to use them.
 */
#define VO_AUDIT_KINDS                                                       \
    "('deleted', 'upload_deleted', 'operator_retry',"                        \
    " 'webhook_added', 'webhook_removed',"                                   \
    " 'webhook_secret_rotated', 'webhook_enabled',"                          \
    " 'webhook_redelivered', 'webhook_disabled',"                            \
    " 'retention')"


/*
 * Issue 17: the done jobs whose frame rows are due.  SQLite's planner,
 * without statistics, prefers jobs_by_age for the state = 'done' term
 * and sorts; its backend names the partial index (INDEXED BY fails the
 * prepare, rather than the plan, if the index cannot serve).
 */
#define VO_RETAIN_FRAMES_DUE_SQL(indexed)                                    \
    "SELECT job_id FROM jobs" indexed                                        \
    " WHERE state = 'done' AND frames_deleted_at IS NULL"                    \
    " AND finished_at <= ?1 ORDER BY finished_at LIMIT ?2"


/*
 * Issue 41: search.  The statements that take their rows as a JSON
 * array (one statement per publish, not one per row) are written in
 * SQLite's JSON functions in vo_ledger_search_index.c; PostgreSQL's
 * backend has these.  Their rows come in the array's order, which the
 * code sorts: search_words is then written in one order by every
 * writer (sql/schema_pg.sql).  The index queries are each backend's
 * own: FTS5 (SQLite) and LIKE (PostgreSQL) take their ?1 in their own
 * language; a tier's queries (VO_STMT_SEARCH_MATCH by trigrams,
 * VO_STMT_SEARCH_TOKENS by words) and the count that plans them
 * (VO_STMT_SEARCH_COUNT) are SQLite's alone, PostgreSQL's query being
 * made for each tier (vo_ledger_search.c).
 */
#define VO_SEARCH_SEGMENTS_ADD_PG_SQL                                        \
    "INSERT INTO search_segments (id, folded)"                               \
    " SELECT ?1 + (o - 1), e"                                                \
    " FROM json_array_elements_text(?2::json) WITH ORDINALITY AS t(e, o)"

#define VO_SEARCH_WORDS_ADD_PG_SQL                                           \
    "INSERT INTO search_words (num, len, word, rev, base)"                   \
    " SELECT ?1, (e->>0)::bigint, e->>1, e->>2, ?3"                          \
    " FROM json_array_elements(?2::json) e"                                  \
    " ON CONFLICT (num, len, word) DO NOTHING"

/* a segment of the tenant's range (?2, ?3) that has the word ?1 */
#define VO_SEARCH_PROBE_SQL                                                  \
    "SELECT rowid FROM search_tokens WHERE search_tokens MATCH ?1"           \
    " AND rowid BETWEEN ?2 AND ?3 LIMIT 1"

#define VO_SEARCH_PROBE_PG_SQL                                               \
    "SELECT id FROM search_segments WHERE id BETWEEN ?2 AND ?3"              \
    " AND folded LIKE ?1 LIMIT 1"

/* how common the word ?1 is: SQLite, how many segments of the tenant's
 * range (?2, ?3) have it, up to ?4; PostgreSQL, in millionths of the
 * segments, by the statistics of search_segments_words (a word not
 * among its most common ones: 0) */
#define VO_SEARCH_COUNT_SQL                                                  \
    "SELECT count(*) FROM (SELECT 1 FROM search_tokens"                      \
    " WHERE search_tokens MATCH ?1 AND rowid BETWEEN ?2 AND ?3 LIMIT ?4)"

#define VO_SEARCH_COUNT_PG_SQL                                               \
    "SELECT (coalesce(max(u.f), 0) * 1000000)::bigint FROM pg_stats s,"      \
    " unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs)"   \
    " AS u(e, f) WHERE s.schemaname = current_schema()"                      \
    " AND s.tablename = 'search_segments_words' AND u.e = ?1"

/* a folded text's words (PostgreSQL), as search_segments_words has them */
#define VO_SEARCH_WORDS_PG  "string_to_array(btrim(folded), ' ')"

/* a tier's candidates: by trigrams (search_fts), by words
 * (search_tokens) */
#define VO_SEARCH_MATCH_SQL                                                  \
    "SELECT rowid, folded FROM search_fts WHERE search_fts MATCH ?1"         \
    " AND rowid BETWEEN ?2 AND ?3 ORDER BY rowid LIMIT ?4"

#define VO_SEARCH_TOKENS_SQL                                                 \
    "SELECT rowid, folded FROM search_tokens WHERE search_tokens MATCH ?1"   \
    " AND rowid BETWEEN ?2 AND ?3 ORDER BY rowid LIMIT ?4"


/* the shared texts, each table VO_STMT_COUNT long */
extern const char  *vo_ledger_admit_sql[VO_STMT_COUNT];
extern const char  *vo_ledger_jobs_sql[VO_STMT_COUNT];
extern const char  *vo_ledger_worker_sql[VO_STMT_COUNT];
extern const char  *vo_ledger_parts_sql[VO_STMT_COUNT];
extern const char  *vo_ledger_claim_sql[VO_STMT_COUNT];
extern const char  *vo_ledger_janitor_sql[VO_STMT_COUNT];
extern const char  *vo_ledger_webhooks_sql[VO_STMT_COUNT];
extern const char  *vo_ledger_upload_sql[VO_STMT_COUNT];
extern const char  *vo_ledger_search_sql[VO_STMT_COUNT];

/* the metrics scrape, one statement (vo_ledger_metrics.c) */
extern const char *const  vo_ledger_metrics_sql;


/*
 * The lock an append holds on its upload's row while it writes the
 * partial file (invariant 12).  PostgreSQL: the row, FOR UPDATE, in the
 * transaction the advance commits.  SQLite, one host: the partial file's
 * flock is the lock, and the row is read outside a transaction (holding
 * the one write lock over a copy would stall every admission).
 */
/*
 * A part's job, locked for the transaction before the part's own row
 * (vo_ledger_parts.c): every transaction that writes both takes the job
 * first, as a DELETE of the job does, so none waits on the other in a
 * circle.  PostgreSQL appends FOR UPDATE; SQLite's writer is alone.
 */
#define VO_PART_LOCK_SQL                                                     \
    "SELECT state FROM jobs WHERE job_id = ?1"

/*
 * A job's parts, locked before they are deleted with their frames: a
 * part's frame write locks the part's row first (VO_PART_LOCK_SQL on
 * its own id), so no frame of it can be inserted between the deletion
 * of its frames and of its row (the foreign key).  PostgreSQL appends
 * FOR UPDATE.
 */
#define VO_PARTS_LOCK_SQL                                                    \
    "SELECT job_id FROM jobs WHERE parent_id = ?1"

#define VO_UPLOAD_LOCK_SQL                                                   \
    "SELECT " VO_UPLOAD_COLUMNS " FROM uploads WHERE upload_id = ?1"

#define VO_UPLOAD_COLUMNS                                                    \
    "upload_id, request_key, protocol, options, filename, upload_offset,"    \
    " upload_length, sha256_state, container, writer, state, job_id,"        \
    " input_digest, created_at, updated_at, expires_at, tenant, metadata,"  \
    " concat, partial_key, parts"


/* vo_step(): a row is ready, or the statement is done */
#define VO_ROW   100
#define VO_DONE  101


typedef struct vo_stmt_s  vo_stmt_t;

/* what every backend's statement starts with */
struct vo_stmt_s {
    vo_ledger_t   *ledger;
};


/*
 * A backend.  The statement functions follow SQLite's API: bind by
 * parameter number (from 1), step for a row at a time, column by number
 * (from 0), reset to run again; text values bound are not copied and
 * must live until the statement is reset.  step returns VO_ROW, VO_DONE
 * or a vo_ledger_rc_t (BUSY, FULL, ERROR) with the reason in errmsg.
 */
typedef struct {
    const char      *name;                 /* for messages */
    const char     **sql;                  /* VO_STMT_COUNT texts, NULL:
                                              the shared one */

    vo_ledger_rc_t (*open)(vo_ledger_t *l, const char *spec,
                           const vo_ledger_conf_t *conf, char *err,
                           size_t err_size);
    void           (*close)(vo_ledger_t *l);
    vo_ledger_rc_t (*exec)(vo_ledger_t *l, const char *sql, char *err,
                           size_t err_size);
    int            (*in_transaction)(vo_ledger_t *l);
    int64_t        (*changes)(vo_ledger_t *l);
    const char    *(*errmsg)(vo_ledger_t *l);
    int              locks_rows;         /* SELECT ... FOR UPDATE holds
                                            a row against other hosts */
    int              remote;             /* a server: a COMMIT that failed
                                            BUSY may have committed, its
                                            answer lost with the
                                            connection */

    vo_stmt_t     *(*prepare)(vo_ledger_t *l, const char *sql, int cached,
                              char *err, size_t err_size);
    void           (*finalize)(vo_stmt_t *s);
    void           (*bind_text)(vo_stmt_t *s, int i, const char *v, int len);
    void           (*bind_int)(vo_stmt_t *s, int i, int64_t v);
    void           (*bind_double)(vo_stmt_t *s, int i, double v);
    void           (*bind_null)(vo_stmt_t *s, int i);
    int            (*step)(vo_stmt_t *s);
    void           (*reset)(vo_stmt_t *s);
    int            (*column_null)(vo_stmt_t *s, int col);
    const char    *(*column_text)(vo_stmt_t *s, int col);
    int            (*column_bytes)(vo_stmt_t *s, int col);
    int64_t        (*column_int64)(vo_stmt_t *s, int col);
    double         (*column_double)(vo_stmt_t *s, int col);
} vo_backend_t;


extern const vo_backend_t  vo_ledger_sqlite;
extern const vo_backend_t  vo_ledger_pg;


struct vo_ledger_s {
    const vo_backend_t  *be;
    void                *db;                  /* the backend's connection */
    vo_stmt_t           *stmt[VO_STMT_COUNT]; /* prepared on first use */
    int                  sync_full;           /* conf->sync_full */
};


/* The cached statement id, prepared on first use; NULL + err on failure. */
vo_stmt_t *vo_ledger_stmt(vo_ledger_t *l, int id, char *err,
    size_t err_size);
const char *vo_ledger_sql_text(vo_ledger_t *l, int id);

/* A statement run once (vo_stmt_finalize it); NULL + err on failure. */
vo_stmt_t *vo_ledger_prepare(vo_ledger_t *l, const char *sql, char *err,
    size_t err_size);
void vo_stmt_finalize(vo_stmt_t *s);

void vo_bind_text(vo_stmt_t *s, int i, const char *v, int len);
void vo_bind_int(vo_stmt_t *s, int i, int64_t v);
void vo_bind_double(vo_stmt_t *s, int i, double v);
void vo_bind_null(vo_stmt_t *s, int i);
int vo_step(vo_stmt_t *s);
void vo_reset(vo_stmt_t *s);
int vo_column_null(vo_stmt_t *s, int col);
const char *vo_column_text(vo_stmt_t *s, int col);
int vo_column_bytes(vo_stmt_t *s, int col);
int64_t vo_column_int64(vo_stmt_t *s, int col);
int vo_column_int(vo_stmt_t *s, int col);
double vo_column_double(vo_stmt_t *s, int col);

/* The last failure's message; the rows the last statement changed. */
const char *vo_ledger_errmsg(vo_ledger_t *l);
int64_t vo_ledger_changes(vo_ledger_t *l);

/* A failed vo_step()'s result as an rc (ERROR for a stray ROW/DONE). */
vo_ledger_rc_t vo_ledger_rc(int rc);

/* Steps a statement that returns no rows and resets it. */
vo_ledger_rc_t vo_ledger_step_done(vo_ledger_t *l, vo_stmt_t *s,
    const char *what, char *err, size_t err_size);
vo_ledger_rc_t vo_ledger_exec(vo_ledger_t *l, const char *sql, char *err,
    size_t err_size);

/*
 * BEGIN (SQLite: IMMEDIATE, PostgreSQL: READ COMMITTED); COMMIT (rolls
 * back when it fails); ROLLBACK if a transaction is open.
 */
vo_ledger_rc_t vo_ledger_begin(vo_ledger_t *l, char *err, size_t err_size);
vo_ledger_rc_t vo_ledger_commit(vo_ledger_t *l, char *err, size_t err_size);
void vo_ledger_rollback(vo_ledger_t *l);

/*
 * The backends' rule for a ledger's schema version: newer than this
 * build is refused; older is refused unless the open may migrate (the
 * caller then migrates).  name is the ledger as printed in messages.
 */
vo_ledger_rc_t vo_ledger_check_version(const char *name, int64_t version,
    int migrate, char *err, size_t err_size);

/*
 * The SQL that takes a ledger from version v - 1 to v, from a backend's
 * table of migrations (sql/migrations.sh makes it: n entries, indexed by
 * version); NULL with err filled when this build has none for v.
 */
const char *vo_ledger_migration(const char *const *m, size_t n, int64_t v,
    const char *name, char *err, size_t err_size);

#define VO_LEDGER_MIGRATIONS(m)  (sizeof(m) / sizeof((m)[0]))

/* Appends one row to the audit trail, inside the caller's transaction. */
vo_ledger_rc_t vo_ledger_event(vo_ledger_t *l, int64_t at,
    const char *job_id, const char *tenant, size_t tenant_len,
    const char *kind, int attempt, const char *detail, char *err,
    size_t err_size);

/*
 * Webhooks, inside the caller's transaction (vo_ledger_webhooks.c).
 *
 * vo_ledger_admit_webhook: the endpoint of (tenant, url) for a job being
 * admitted, created on first sight; a secret other than the one kept is
 * a rotation (the old one is signed with too for a day).
 *
 * vo_ledger_notify: the outbox row of a move of job_id that the caller
 * has just made, under its fencing (invariant 10): type is job.accepted,
 * job.done, job.failed, job.rejected or job.cancelled; the body says the
 * job's state, status URL and, from its row, its error; result (JSON
 * members, or NULL) is added to it.  Nothing when the job has no
 * endpoint.  A disabled endpoint's notification is held.
 *
 * vo_ledger_job_notifications: the "notifications" member of the status
 * document (",\"notifications\":[...]").
 */
vo_ledger_rc_t vo_ledger_admit_webhook(vo_ledger_t *l,
    const vo_admission_t *a, int64_t *endpoint_id, char *err,
    size_t err_size);
vo_ledger_rc_t vo_ledger_notify(vo_ledger_t *l, const char *job_id,
    const char *type, const char *result, int64_t now_ms, char *err,
    size_t err_size);
vo_ledger_rc_t vo_ledger_job_notifications(vo_ledger_t *l,
    const char *job_id, vo_buf_t *out, char *err, size_t err_size);

/* How long a previous secret is still signed with after nginx's
 * configuration changed it. */
#define VO_WEBHOOK_ROTATION_MS  (24LL * 3600 * 1000)

/* A text column into dst (NUL-terminated, cut to size; "" for NULL). */
void vo_ledger_copy_text(char *dst, size_t size, vo_stmt_t *s, int col);
/* The upload's part of the admission that completes it (invariant 13). */
vo_ledger_rc_t vo_ledger_upload_completing(vo_ledger_t *l,
    const vo_admission_t *a, char *err, size_t err_size);
vo_ledger_rc_t vo_ledger_upload_admitted(vo_ledger_t *l,
    const vo_admission_t *a, const vo_receipt_t *r, char *err,
    size_t err_size);

/*
 * The search index (vo_ledger_search_index.c; invariant 15 of
 * sql/schema.sql), inside the caller's transaction.  index: the
 * segments of the result doc (the json format) of job_id, of tenant;
 * a job indexed already is indexed again.  forget: a job's rows, none
 * when it has none.  migrate: every published result, when a ledger is
 * migrated to the version that brought the index.
 */
vo_ledger_rc_t vo_ledger_search_index(vo_ledger_t *l, const char *job_id,
    const char *tenant, size_t tenant_len, const char *doc, size_t len,
    char *err, size_t err_size);
vo_ledger_rc_t vo_ledger_search_forget(vo_ledger_t *l, const char *job_id,
    char *err, size_t err_size);
vo_ledger_rc_t vo_ledger_search_migrate(vo_ledger_t *l, int64_t from,
    char *err, size_t err_size);

/* The schema version that brought the search index. */
#define VO_SEARCH_SCHEMA_VERSION  5

/* A tenant's segment ids: (its num << VO_SEARCH_NUM_SHIFT) + 0 to
 * 2^VO_SEARCH_NUM_SHIFT - 1 (sql/schema.sql, "SEARCH") */
#define VO_SEARCH_NUM_SHIFT       40

int64_t vo_ledger_int_or(vo_stmt_t *s, int col, int64_t dflt);
void vo_ledger_json_int_or_null(vo_buf_t *b, vo_stmt_t *s, int col);
void vo_ledger_json_raw_or_null(vo_buf_t *b, vo_stmt_t *s, int col);


/*
 * vo_ledger_upload.c, for vo_ledger_concat.c: steps s, which returns at
 * most one upload row (into u, *found set), to its end; the audit event
 * of an upload (protocol NULL: none in the detail).
 */
vo_ledger_rc_t vo_ledger_upload_one(vo_ledger_t *l, vo_stmt_t *s,
    vo_upload_row_t *u, int *found, const char *what, char *err,
    size_t err_size);
vo_ledger_rc_t vo_ledger_upload_event(vo_ledger_t *l, int64_t at,
    const char *job_id, const char *tenant, const char *kind,
    const char *upload_id, const char *protocol, char *err,
    size_t err_size);

/*
 * vo_ledger_upload.c: the row u inserted with this length (nothing when
 * another creation of its key was first: vo_ledger_changes() is 0).
 */
vo_ledger_rc_t vo_ledger_upload_insert(vo_ledger_t *l,
    const vo_upload_row_t *u, int64_t length, int64_t now_ms, char *err,
    size_t err_size);

/*
 * vo_ledger_upload.c: the key's upload (u's tenant and key) if it lives
 * (*found); an expired one is forgotten (*forgot names it).
 */
vo_ledger_rc_t vo_ledger_upload_by_key(vo_ledger_t *l,
    const vo_upload_row_t *u, int64_t now_ms, vo_upload_row_t *row,
    int *found, char *forgot, char *err, size_t err_size);



/* vo_ledger_worker.c's, shared with vo_ledger_parts.c: the two ends of a
 * fenced write transaction, a fenced statement, an attempt's event
 * detail, a published result's rows, the rows a frames query gives */
#define VO_DETAIL_MAX  256

vo_ledger_rc_t vo_ledger_fence_begin(vo_ledger_t *l, const vo_claim_t *c,
    int id, vo_stmt_t **s, char *err, size_t err_size);
vo_ledger_rc_t vo_ledger_fence_end(vo_ledger_t *l, const vo_claim_t *c,
    vo_ledger_rc_t lrc, const char *what, const char *kind,
    const char *detail, int64_t now_ms, char *err, size_t err_size);
vo_ledger_rc_t vo_ledger_fenced(vo_ledger_t *l, const vo_claim_t *c,
    vo_stmt_t *s, const char *what, char *err, size_t err_size);
void vo_ledger_detail(char *buf, size_t size, const char *code,
    const vo_attempt_stats_t *st);
vo_ledger_rc_t vo_ledger_put_results(vo_ledger_t *l, const char *job_id,
    const char *tenant, const vo_result_body_t *bodies, size_t n,
    int64_t now_ms, char *err, size_t err_size);
vo_ledger_rc_t vo_ledger_frames_read(vo_ledger_t *l, vo_stmt_t *s,
    const char *job_id, vo_frame_row_t **rows, size_t *n, char *err,
    size_t err_size);

/*
 * vo_ledger_parts.c: job parent_id leaves 'running' for state ("failed",
 * "rejected") with code and message because one of its parts did (in
 * the caller's transaction): its notification (invariant 10), its event,
 * and its parts deleted.  Nothing if it was no longer running.
 */
vo_ledger_rc_t vo_ledger_parts_end(vo_ledger_t *l, const char *parent_id,
    const char *state, const char *code, const char *message, int64_t now_ms,
    char *err, size_t err_size);

/* vo_ledger_parts.c: locks job_id's row (VO_PART_LOCK_SQL): a part's job
 * before the part is written, or a part before a frame of it is */
vo_ledger_rc_t vo_ledger_part_lock(vo_ledger_t *l, const char *job_id,
    char *err, size_t err_size);

/* vo_ledger_parts.c: deletes the parts of job parent_id and their frames
 * (in the caller's transaction): the job left 'running' */
vo_ledger_rc_t vo_ledger_parts_drop(vo_ledger_t *l, const char *parent_id,
    char *err, size_t err_size);

#endif /* _VO_LEDGER_INT_H_INCLUDED_ */
