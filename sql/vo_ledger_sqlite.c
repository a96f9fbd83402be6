/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The SQLite backend: a ledger that is one file, opened by every nginx
 * worker process and every video-ocr-worker process of one machine.
 * Opening and migrating the file, and the statement interface of
 * vo_ledger_int.h, which is SQLite's own API under other names.
 *
 * SQLite settings and why:
 *   journal_mode=WAL      readers (status, metrics, workers polling) never
 *                         block the admission writer, nor it them;
 *   synchronous=FULL      (default) a commit is on disk when COMMIT
 *                         returns, so a receipt a client saw survives a
 *                         power cut; NORMAL may lose the newest commits;
 *   busy_timeout          how long a writer waits for the lock before the
 *                         request is answered 503 + Retry-After;
 *   foreign_keys=ON       a receipt or a frame row cannot name a job that
 *                         does not exist;
 *   temp_store=MEMORY     statement journals stay in memory (see below);
 *   auto_vacuum=INCREMENTAL  (a new file) the janitor gives free pages
 *                         back (incremental_vacuum), so the file shrinks
 *                         when the retention deletes.
 *
 * A new file in a directory with the set-group-ID bit, one shared by
 * nginx's worker processes and the pool through its group (the Debian
 * package's /var/lib/video-ocr), is made mode 0660 whatever the umask
 * (vo_sqlite_create_shared); SQLite gives the -wal and -shm files it
 * makes the database file's mode, so either side, whichever came first,
 * can write all three.
 *
 * Writers take the one write lock up front (BEGIN IMMEDIATE), so what a
 * transaction reads stays true until it commits: the admission's lookup
 * and the claim's candidate are final under it.
 */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "vo_ledger.h"
#include "vo_ledger_int.h"
#include "vo_schema.h"
#include "vo_migrations.h"


typedef struct {
    vo_stmt_t      head;
    sqlite3_stmt  *stmt;
} vo_sqlite_stmt_t;


#define vo_sqlite_db(l)    ((sqlite3 *) (l)->db)
#define vo_sqlite_st(s)    (((vo_sqlite_stmt_t *) (s))->stmt)


static vo_ledger_rc_t vo_sqlite_open(vo_ledger_t *l, const char *path,
    const vo_ledger_conf_t *conf, char *err, size_t err_size);
static void vo_sqlite_create_shared(const char *path);
static void vo_sqlite_close(vo_ledger_t *l);
static vo_ledger_rc_t vo_sqlite_exec(vo_ledger_t *l, const char *sql,
    char *err, size_t err_size);
static int vo_sqlite_in_transaction(vo_ledger_t *l);
static int64_t vo_sqlite_changes(vo_ledger_t *l);
static const char *vo_sqlite_errmsg(vo_ledger_t *l);
static vo_stmt_t *vo_sqlite_prepare(vo_ledger_t *l, const char *sql,
    int cached, char *err, size_t err_size);
static void vo_sqlite_finalize(vo_stmt_t *s);
static void vo_sqlite_bind_text(vo_stmt_t *s, int i, const char *v, int len);
static void vo_sqlite_bind_int(vo_stmt_t *s, int i, int64_t v);
static void vo_sqlite_bind_double(vo_stmt_t *s, int i, double v);
static void vo_sqlite_bind_null(vo_stmt_t *s, int i);
static int vo_sqlite_step(vo_stmt_t *s);
static void vo_sqlite_reset(vo_stmt_t *s);
static int vo_sqlite_column_null(vo_stmt_t *s, int col);
static const char *vo_sqlite_column_text(vo_stmt_t *s, int col);
static int vo_sqlite_column_bytes(vo_stmt_t *s, int col);
static int64_t vo_sqlite_column_int64(vo_stmt_t *s, int col);
static double vo_sqlite_column_double(vo_stmt_t *s, int col);
static vo_ledger_rc_t vo_sqlite_rc(int rc);
static vo_ledger_rc_t vo_sqlite_migrate(vo_ledger_t *l, char *err,
    size_t err_size);
static vo_ledger_rc_t vo_sqlite_pragma_int(vo_ledger_t *l, const char *sql,
    int64_t *value, char *err, size_t err_size);


/* the statements whose SQLite text is its own */
static const char  *vo_sqlite_sql[VO_STMT_COUNT] = {

    /* the write lock up front: what the transaction reads stays true */
    [VO_STMT_BEGIN] = "BEGIN IMMEDIATE",

    /* the partial index, named (vo_ledger_int.h says why) */
    [VO_STMT_RETAIN_FRAMES_DUE] =
        VO_RETAIN_FRAMES_DUE_SQL(" INDEXED BY jobs_frames_due"),

    /* FTS5 (issue 41; PostgreSQL's are LIKE, or made per query) */
    [VO_STMT_SEARCH_MATCH] = VO_SEARCH_MATCH_SQL,
    [VO_STMT_SEARCH_TOKENS] = VO_SEARCH_TOKENS_SQL,
    [VO_STMT_SEARCH_PROBE] = VO_SEARCH_PROBE_SQL,
    [VO_STMT_SEARCH_COUNT] = VO_SEARCH_COUNT_SQL,
};


const vo_backend_t  vo_ledger_sqlite = {
    "SQLite",
    vo_sqlite_sql,
    vo_sqlite_open,
    vo_sqlite_close,
    vo_sqlite_exec,
    vo_sqlite_in_transaction,
    vo_sqlite_changes,
    vo_sqlite_errmsg,
    0,                          /* one writer: no row locks */
    0,                          /* a failed COMMIT did not commit */
    vo_sqlite_prepare,
    vo_sqlite_finalize,
    vo_sqlite_bind_text,
    vo_sqlite_bind_int,
    vo_sqlite_bind_double,
    vo_sqlite_bind_null,
    vo_sqlite_step,
    vo_sqlite_reset,
    vo_sqlite_column_null,
    vo_sqlite_column_text,
    vo_sqlite_column_bytes,
    vo_sqlite_column_int64,
    vo_sqlite_column_double
};


/*
 * Opens path.  With conf->migrate the file is created when missing, put in
 * WAL mode and brought to VO_LEDGER_SCHEMA_VERSION; without it the ledger
 * must already be at that version.  A file that is not a database, has a
 * newer schema or cannot be written is refused with a sentence in err;
 * nothing is ever reset.
 */

static vo_ledger_rc_t
vo_sqlite_open(vo_ledger_t *l, const char *path, const vo_ledger_conf_t *conf,
    char *err, size_t err_size)
{
    int            flags, rc, sys;
    char           sql[64];
    int64_t        version;
    sqlite3       *db;
    const char    *mode;
    struct stat    sb;
    sqlite3_stmt  *stmt;

    flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;

    if (conf->migrate) {
        flags |= SQLITE_OPEN_CREATE;
        vo_sqlite_create_shared(path);
    }

    db = NULL;
    rc = sqlite3_open_v2(path, &db, flags, NULL);
    l->db = db;

    if (rc != SQLITE_OK) {
        sys = db ? sqlite3_system_errno(db) : 0;

        snprintf(err, err_size, "ledger \"%s\": cannot open: %s%s%s%s",
                 path, db ? sqlite3_errmsg(db) : sqlite3_errstr(rc),
                 sys ? " (" : "", sys ? strerror(sys) : "",
                 sys == EACCES ? "): the file and its directory must be "
                 "readable and writable by this user" : sys ? ")" : "");
        return VO_LEDGER_ERROR;
    }

    (void) sqlite3_extended_result_codes(db, 1);
    (void) sqlite3_busy_timeout(db, conf->busy_timeout_ms);

    if (sqlite3_db_readonly(db, "main") == 1) {
        snprintf(err, err_size, "ledger \"%s\" is read-only for this user: "
                 "the file and its directory must be writable", path);
        return VO_LEDGER_ERROR;
    }

    /*
     * A new file gets auto_vacuum INCREMENTAL, which only a file without
     * tables can take (and only before journal_mode=WAL writes its first
     * page): the janitor then gives the pages the retention frees back
     * to the filesystem.  Only a file of no bytes is asked: on any other
     * the pragma writes the header (a VACUUM would be needed anyway),
     * and an existing ledger, or a damaged file, is never written
     * before it is known to be one (t/pool/108).
     */

    if (conf->migrate && stat(path, &sb) == 0 && sb.st_size == 0) {
        (void) sqlite3_exec(db, "PRAGMA auto_vacuum=INCREMENTAL", NULL, NULL,
                            NULL);
    }

    /* the first statement reads the header: a non-database fails here */

    rc = sqlite3_prepare_v2(db, "PRAGMA journal_mode=WAL", -1, &stmt, NULL);
    if (rc == SQLITE_OK) {
        rc = sqlite3_step(stmt);
    }

    if (rc != SQLITE_ROW) {
        /* never "fixed" by starting afresh: the receipts are the point */
        snprintf(err, err_size, "ledger \"%s\": %s%s", path,
                 sqlite3_errmsg(db),
                 (rc & 0xff) == SQLITE_NOTADB || (rc & 0xff) == SQLITE_CORRUPT
                 ? ": the file is damaged or not a video-ocr ledger, and is "
                   "left as it is; restore it from a backup "
                   "(docs/operations.md)" : "");
        (void) sqlite3_finalize(stmt);
        return vo_sqlite_rc(rc);
    }

    mode = (const char *) sqlite3_column_text(stmt, 0);

    if (mode == NULL || strcmp(mode, "wal") != 0) {
        snprintf(err, err_size, "ledger \"%s\": cannot switch to WAL mode "
                 "(journal_mode is \"%s\")", path, mode ? mode : "?");
        (void) sqlite3_finalize(stmt);
        return VO_LEDGER_ERROR;
    }

    (void) sqlite3_finalize(stmt);

    snprintf(sql, sizeof(sql), "PRAGMA synchronous=%s",
             conf->sync_full ? "FULL" : "NORMAL");

    if (vo_sqlite_exec(l, sql, err, err_size) != VO_LEDGER_OK
        || vo_sqlite_exec(l, "PRAGMA foreign_keys=ON", err, err_size)
           != VO_LEDGER_OK
        /*
         * statement journals in memory: a batch of admissions is one
         * transaction of many statements, and each statement's journal
         * (the pages it changes that earlier ones changed, for its own
         * rollback) outgrows SQLite's 64 KiB spill threshold; on disk
         * that was a temporary file created, written and unlinked per
         * statement
         */
        || vo_sqlite_exec(l, "PRAGMA temp_store=MEMORY", err, err_size)
           != VO_LEDGER_OK)
    {
        return VO_LEDGER_ERROR;
    }

    if (vo_sqlite_pragma_int(l, "PRAGMA user_version", &version, err,
                             err_size)
        != VO_LEDGER_OK)
    {
        return VO_LEDGER_ERROR;
    }

    if (vo_ledger_check_version(path, version, conf->migrate, err, err_size)
        != VO_LEDGER_OK)
    {
        return VO_LEDGER_ERROR;
    }

    if (version < VO_LEDGER_SCHEMA_VERSION) {
        return vo_sqlite_migrate(l, err, err_size);
    }

    return VO_LEDGER_OK;
}


/*
 * When path does not exist and its directory has the set-group-ID bit,
 * creates it empty with mode 0660 (SQLite would make it 0644 less the
 * umask: writable by its owner only); SQLite takes a file of no bytes
 * for a new database.  Anything else (the file exists, another process
 * made it first, an error) is left to sqlite3_open_v2, which says why.
 */

static void
vo_sqlite_create_shared(const char *path)
{
    int          fd;
    char         dir[PATH_MAX], *slash;
    struct stat  sb;

    if (snprintf(dir, sizeof(dir), "%s", path) >= (int) sizeof(dir)) {
        return;
    }

    slash = strrchr(dir, '/');

    if (slash == NULL) {
        dir[0] = '.';
        dir[1] = '\0';

    } else if (slash == dir) {
        slash[1] = '\0';

    } else {
        *slash = '\0';
    }

    if (stat(dir, &sb) == -1 || !(sb.st_mode & S_ISGID)) {
        return;
    }

    fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0660);
    if (fd == -1) {
        return;
    }

    (void) fchmod(fd, 0660);
    (void) close(fd);
}


static void
vo_sqlite_close(vo_ledger_t *l)
{
    (void) sqlite3_close_v2(vo_sqlite_db(l));
}


static vo_ledger_rc_t
vo_sqlite_exec(vo_ledger_t *l, const char *sql, char *err, size_t err_size)
{
    int    rc;
    char  *msg;

    msg = NULL;

    rc = sqlite3_exec(vo_sqlite_db(l), sql, NULL, NULL, &msg);
    if (rc != SQLITE_OK) {
        snprintf(err, err_size, "%.60s: %s", sql,
                 msg ? msg : sqlite3_errstr(rc));
        sqlite3_free(msg);
        return vo_sqlite_rc(rc);
    }

    return VO_LEDGER_OK;
}


static int
vo_sqlite_in_transaction(vo_ledger_t *l)
{
    return !sqlite3_get_autocommit(vo_sqlite_db(l));
}


static int64_t
vo_sqlite_changes(vo_ledger_t *l)
{
    return sqlite3_changes(vo_sqlite_db(l));
}


static const char *
vo_sqlite_errmsg(vo_ledger_t *l)
{
    return sqlite3_errmsg(vo_sqlite_db(l));
}


static vo_stmt_t *
vo_sqlite_prepare(vo_ledger_t *l, const char *sql, int cached, char *err,
    size_t err_size)
{
    int                rc;
    vo_sqlite_stmt_t  *s;

    s = calloc(1, sizeof(vo_sqlite_stmt_t));
    if (s == NULL) {
        snprintf(err, err_size, "prepare: out of memory");
        return NULL;
    }

    s->head.ledger = l;

    rc = sqlite3_prepare_v3(vo_sqlite_db(l), sql, -1,
                            cached ? SQLITE_PREPARE_PERSISTENT : 0,
                            &s->stmt, NULL);
    if (rc != SQLITE_OK) {
        snprintf(err, err_size, "prepare \"%.40s...\": %s", sql,
                 sqlite3_errmsg(vo_sqlite_db(l)));
        (void) sqlite3_finalize(s->stmt);
        free(s);
        return NULL;
    }

    return &s->head;
}


static void
vo_sqlite_finalize(vo_stmt_t *s)
{
    (void) sqlite3_finalize(vo_sqlite_st(s));
    free(s);
}


static void
vo_sqlite_bind_text(vo_stmt_t *s, int i, const char *v, int len)
{
    (void) sqlite3_bind_text(vo_sqlite_st(s), i, v, len, SQLITE_STATIC);
}


static void
vo_sqlite_bind_int(vo_stmt_t *s, int i, int64_t v)
{
    (void) sqlite3_bind_int64(vo_sqlite_st(s), i, v);
}


static void
vo_sqlite_bind_double(vo_stmt_t *s, int i, double v)
{
    (void) sqlite3_bind_double(vo_sqlite_st(s), i, v);
}


static void
vo_sqlite_bind_null(vo_stmt_t *s, int i)
{
    (void) sqlite3_bind_null(vo_sqlite_st(s), i);
}


static int
vo_sqlite_step(vo_stmt_t *s)
{
    int  rc;

    rc = sqlite3_step(vo_sqlite_st(s));

    switch (rc) {
    case SQLITE_ROW:
        return VO_ROW;
    case SQLITE_DONE:
        return VO_DONE;
    default:
        return vo_sqlite_rc(rc);
    }
}


static void
vo_sqlite_reset(vo_stmt_t *s)
{
    (void) sqlite3_reset(vo_sqlite_st(s));
}


static int
vo_sqlite_column_null(vo_stmt_t *s, int col)
{
    return sqlite3_column_type(vo_sqlite_st(s), col) == SQLITE_NULL;
}


static const char *
vo_sqlite_column_text(vo_stmt_t *s, int col)
{
    return (const char *) sqlite3_column_text(vo_sqlite_st(s), col);
}


static int
vo_sqlite_column_bytes(vo_stmt_t *s, int col)
{
    return sqlite3_column_bytes(vo_sqlite_st(s), col);
}


static int64_t
vo_sqlite_column_int64(vo_stmt_t *s, int col)
{
    return sqlite3_column_int64(vo_sqlite_st(s), col);
}


static double
vo_sqlite_column_double(vo_stmt_t *s, int col)
{
    return sqlite3_column_double(vo_sqlite_st(s), col);
}


/* Maps an SQLite result code to BUSY, FULL or ERROR. */

static vo_ledger_rc_t
vo_sqlite_rc(int rc)
{
    switch (rc & 0xff) {

    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return VO_LEDGER_BUSY;

    case SQLITE_FULL:
        return VO_LEDGER_FULL;

    default:
        return VO_LEDGER_ERROR;
    }
}


/*
 * Brings the file to VO_LEDGER_SCHEMA_VERSION in one transaction.  Another
 * process (nginx's master, a worker) may be doing the same at the same
 * moment: the version is read again under the write lock.
 */

static vo_ledger_rc_t
vo_sqlite_migrate(vo_ledger_t *l, char *err, size_t err_size)
{
    char            sql[64];
    const char     *sql_m;
    int64_t         version, from;
    vo_ledger_rc_t  lrc;

    lrc = vo_sqlite_exec(l, "BEGIN IMMEDIATE", err, err_size);
    if (lrc != VO_LEDGER_OK) {
        return lrc;
    }

    lrc = vo_sqlite_pragma_int(l, "PRAGMA user_version", &version, err,
                               err_size);
    if (lrc != VO_LEDGER_OK) {
        goto failed;
    }

    if (version == 0) {
        /* a new ledger: the schema as it is now */
        lrc = vo_sqlite_exec(l, vo_schema, err, err_size);
        if (lrc != VO_LEDGER_OK) {
            goto failed;
        }

    } else {
        /* an older one: each migration after its version, in order */
        from = version;

        while (version++ < VO_LEDGER_SCHEMA_VERSION) {
            sql_m = vo_ledger_migration(vo_migrations,
                        VO_LEDGER_MIGRATIONS(vo_migrations), version,
                        sqlite3_db_filename(vo_sqlite_db(l), "main"), err,
                        err_size);
            if (sql_m == NULL) {
                lrc = VO_LEDGER_ERROR;
                goto failed;
            }

            lrc = vo_sqlite_exec(l, sql_m, err, err_size);
            if (lrc != VO_LEDGER_OK) {
                goto failed;
            }
        }

        /* what a migration's SQL alone cannot do (issue 41) */
        lrc = vo_ledger_search_migrate(l, from, err, err_size);
        if (lrc != VO_LEDGER_OK) {
            goto failed;
        }
    }

    snprintf(sql, sizeof(sql), "PRAGMA user_version=%d",
             VO_LEDGER_SCHEMA_VERSION);

    lrc = vo_sqlite_exec(l, sql, err, err_size);
    if (lrc != VO_LEDGER_OK) {
        goto failed;
    }

    return vo_sqlite_exec(l, "COMMIT", err, err_size);

failed:

    (void) sqlite3_exec(vo_sqlite_db(l), "ROLLBACK", NULL, NULL, NULL);

    return lrc;
}


static vo_ledger_rc_t
vo_sqlite_pragma_int(vo_ledger_t *l, const char *sql, int64_t *value,
    char *err, size_t err_size)
{
    int            rc;
    sqlite3_stmt  *s;

    rc = sqlite3_prepare_v2(vo_sqlite_db(l), sql, -1, &s, NULL);

    if (rc == SQLITE_OK) {
        rc = sqlite3_step(s);
    }

    if (rc != SQLITE_ROW) {
        snprintf(err, err_size, "%s: %s", sql,
                 sqlite3_errmsg(vo_sqlite_db(l)));
        (void) sqlite3_finalize(s);
        return vo_sqlite_rc(rc);
    }

    *value = sqlite3_column_int64(s, 0);

    (void) sqlite3_finalize(s);

    return VO_LEDGER_OK;
}
