/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The store operations declared in vo_store.h.  Every function runs off
 * the event loop (nginx's thread pool, its configuration check, or the
 * worker), so blocking I/O is
 * fine here.  Nothing here syncs: a placed file is durable once the group
 * commit's leader has run syncfs() on the store (ngx_module/vo_group.c),
 * which is when the ledger may point at it (invariant 4, sql/schema.sql).
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vo_store.h"


#define VO_FILE_MODE  0660
#define VO_DIR_MODE   0770
#define VO_COPY_BUF   (256 * 1024)


static int vo_store_mkdirs(const char *store, const char *rel, char *err,
    size_t err_size);
static int vo_write_all(int fd, const char *p, size_t n);
static int vo_store_path(const char *store, const char *rel, char *path,
    char *err, size_t err_size);
static vo_store_rc_t vo_store_prepare(const char *store, const char *rel,
    char *path, char *err, size_t err_size);
static vo_store_rc_t vo_store_write_new(const char *path,
    const vo_chunk_t *chunks, size_t n, int from, char *err,
    size_t err_size);
static vo_store_rc_t vo_store_errno(int err_no);
static int vo_store_sync_dir(const char *dir, char *err, size_t err_size);
static int vo_may(const struct stat *st, uid_t uid, const gid_t *groups,
    int ngroups, mode_t bits);
static int vo_user_may(const char *path, const struct stat *st, uid_t uid,
    gid_t gid, mode_t bits, gid_t *groups, int *ngroups, char *err,
    size_t err_size);
static int vo_mkdir(const char *dir);


void
vo_store_input_path(const char *job_id, char *out)
{
    /*
     * a directory named by the id's last two digits, which are random
     * (its first are the time): 256 directories, filled evenly
     */

    (void) snprintf(out, VO_STORE_REL_LEN + 1, "%.2s/%.*s.video",
                    job_id + VO_JOB_ID_LEN - 2, VO_JOB_ID_LEN, job_id);
}


void
vo_store_upload_path(const char *upload_id, char *out)
{
    (void) snprintf(out, VO_STORE_UPLOAD_REL_LEN + 1,
                    "uploads/%.2s/%.32s.part", upload_id + 30, upload_id);
}


vo_store_rc_t
vo_store_create_empty(const char *store, const char *rel, int sync,
    char *err, size_t err_size)
{
    int            fd, e;
    char           path[PATH_MAX], top[PATH_MAX], *slash;
    vo_store_rc_t  rc;

    /* "uploads/" itself first: vo_store_prepare makes the last level */

    if (snprintf(top, sizeof(top), "%s/uploads", store) >= (int) sizeof(top)
        || (vo_mkdir(top) == -1 && errno != EEXIST))
    {
        e = errno;
        snprintf(err, err_size, "mkdir(\"%s\") failed: %s", top, strerror(e));
        return vo_store_errno(e);
    }

    rc = vo_store_prepare(store, rel, path, err, err_size);
    if (rc != VO_STORE_OK) {
        return rc;
    }

    fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, VO_FILE_MODE);
    if (fd == -1) {
        e = errno;
        snprintf(err, err_size, "open(\"%s\") failed: %s", path,
                 strerror(e));
        return vo_store_errno(e);
    }

    (void) close(fd);

    if (!sync) {
        return VO_STORE_OK;
    }

    /*
     * unlike an admission's file, a partial file is not covered by a
     * group commit's syncfs(): its name and the directories above it
     * are made durable here, before a row may point at it; its data is
     * fdatasync'd by every append (invariant 11)
     */

    slash = strrchr(path, '/');
    *slash = '\0';

    if (vo_store_sync_dir(path, err, err_size) != 0
        || vo_store_sync_dir(top, err, err_size) != 0
        || vo_store_sync_dir(store, err, err_size) != 0)
    {
        *slash = '/';
        e = errno;
        (void) unlink(path);
        return vo_store_errno(e);
    }

    return VO_STORE_OK;
}


static int
vo_store_sync_dir(const char *dir, char *err, size_t err_size)
{
    int  fd, e;

    fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

    if (fd == -1 || fsync(fd) == -1) {
        e = errno;
        snprintf(err, err_size, "fsync(\"%s\") failed: %s", dir,
                 strerror(e));
        if (fd != -1) {
            (void) close(fd);
        }
        errno = e;
        return -1;
    }

    (void) close(fd);

    return 0;
}


int
vo_store_open(const char *store, const char *rel, int flags, char *err,
    size_t err_size)
{
    int   fd, e;
    char  path[PATH_MAX];

    if (vo_store_path(store, rel, path, err, err_size) != 0) {
        errno = ENAMETOOLONG;
        return -1;
    }

    fd = open(path, flags | O_CLOEXEC);

    if (fd == -1) {
        e = errno;
        snprintf(err, err_size, "open(\"%s\") failed: %s", path,
                 strerror(e));
        errno = e;
    }

    return fd;
}


int
vo_store_create(const char *store, const char *rel, vo_store_rc_t *rc,
    char *err, size_t err_size)
{
    int   fd, e;
    char  path[PATH_MAX];

    *rc = vo_store_prepare(store, rel, path, err, err_size);
    if (*rc != VO_STORE_OK) {
        return -1;
    }

    fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, VO_FILE_MODE);

    if (fd == -1) {
        e = errno;
        snprintf(err, err_size, "open(\"%s\") failed: %s", path,
                 strerror(e));
        *rc = vo_store_errno(e);
        errno = e;
    }

    return fd;
}


int
vo_store_copy(int from, off_t *in, int to, off_t *out, off_t len)
{
    int       e;
    char     *buf;
    off_t     end;
    ssize_t   n, w;

    end = *in + len;

    while (*in < end) {
        n = copy_file_range(from, in, to, out, (size_t) (end - *in), 0);

        if (n > 0) {
            continue;
        }

        if (n == 0) {
            /* from is shorter than it should be */
            errno = EIO;
            return -1;
        }

        if (errno == EINTR) {
            continue;
        }

        if (errno == EXDEV || errno == ENOSYS || errno == EINVAL
            || errno == EOPNOTSUPP)
        {
            break;
        }

        return -1;
    }

    if (*in == end) {
        return 0;
    }

    /* another filesystem, or none that copies: read and write */

    buf = malloc(VO_COPY_BUF);
    if (buf == NULL) {
        errno = ENOMEM;
        return -1;
    }

    while (*in < end) {
        n = pread(from, buf, (size_t) ((end - *in) < VO_COPY_BUF
                                       ? end - *in : VO_COPY_BUF), *in);

        if (n <= 0) {
            e = (n == 0) ? EIO : errno;
            if (e == EINTR) {
                continue;
            }

            free(buf);
            errno = e;
            return -1;
        }

        w = pwrite(to, buf, (size_t) n, *out);

        if (w != n) {
            e = (w == -1) ? errno : EIO;
            free(buf);
            errno = e;
            return -1;
        }

        *in += n;
        *out += n;
    }

    free(buf);

    return 0;
}


vo_store_rc_t
vo_store_link(const char *store, const char *from, const char *to, char *err,
    size_t err_size)
{
    int            e;
    char           src[PATH_MAX], dst[PATH_MAX];
    vo_store_rc_t  rc;

    if (vo_store_path(store, from, src, err, err_size) != 0) {
        return VO_STORE_ERROR;
    }

    rc = vo_store_prepare(store, to, dst, err, err_size);
    if (rc != VO_STORE_OK) {
        return rc;
    }

    if (link(src, dst) == -1) {
        e = errno;
        snprintf(err, err_size, "link(\"%s\", \"%s\") failed: %s", src, dst,
                 strerror(e));
        return vo_store_errno(e);
    }

    return VO_STORE_OK;
}


vo_store_rc_t
vo_store_place_file(const char *store, const char *rel, int fd,
    const char *temp_path, int *copied, char *err, size_t err_size)
{
    int            e;
    char           path[PATH_MAX];
    vo_store_rc_t  rc;

    *copied = 0;

    rc = vo_store_prepare(store, rel, path, err, err_size);
    if (rc != VO_STORE_OK) {
        return rc;
    }

    if (rename(temp_path, path) == 0) {
        return VO_STORE_OK;
    }

    if (errno != EXDEV) {
        e = errno;
        snprintf(err, err_size, "rename(\"%s\", \"%s\") failed: %s",
                 temp_path, path, strerror(e));
        return vo_store_errno(e);
    }

    /* client_body_temp_path is on another filesystem: copy, documented */

    rc = vo_store_write_new(path, NULL, 0, fd, err, err_size);
    if (rc == VO_STORE_OK) {
        *copied = 1;
    }

    return rc;
}


vo_store_rc_t
vo_store_place_chunks(const char *store, const char *rel,
    const vo_chunk_t *chunks, size_t n, char *err, size_t err_size)
{
    char           path[PATH_MAX];
    vo_store_rc_t  rc;

    rc = vo_store_prepare(store, rel, path, err, err_size);
    if (rc != VO_STORE_OK) {
        return rc;
    }

    return vo_store_write_new(path, chunks, n, -1, err, err_size);
}


int
vo_store_remove(const char *store, const char *rel, char *err,
    size_t err_size)
{
    char  path[PATH_MAX];

    if (vo_store_path(store, rel, path, err, err_size) != 0) {
        return -1;
    }

    if (unlink(path) == -1 && errno != ENOENT) {
        snprintf(err, err_size, "unlink(\"%s\") failed: %s", path,
                 strerror(errno));
        return -1;
    }

    return 0;
}


int
vo_dir_writable_by(const char *dir, uid_t uid, gid_t gid, char *err,
    size_t err_size)
{
    int             ngroups;
    char            path[PATH_MAX], *slash;
    gid_t           groups[256];
    struct stat     st;
    struct passwd  *pw;

    if (stat(dir, &st) == -1) {
        snprintf(err, err_size, "stat(\"%s\") failed: %s", dir,
                 strerror(errno));
        return -1;
    }

    if (!S_ISDIR(st.st_mode)) {
        snprintf(err, err_size, "\"%s\" is not a directory", dir);
        return 0;
    }

    if (uid == 0) {
        return 1;
    }

    ngroups = (int) (sizeof(groups) / sizeof(groups[0]));

    if (!vo_user_may(dir, &st, uid, gid, S_IWUSR | S_IXUSR, groups,
                     &ngroups, err, err_size))
    {
        return 0;
    }

    pw = getpwuid(uid);

    /* and every directory above it must let the user through */

    if (snprintf(path, sizeof(path), "%s", dir) >= (int) sizeof(path)) {
        snprintf(err, err_size, "path too long: \"%s\"", dir);
        return -1;
    }

    while ((slash = strrchr(path, '/')) != NULL) {
        if (slash == path) {
            slash[1] = '\0';

        } else {
            *slash = '\0';
        }

        if (stat(path, &st) == -1) {
            snprintf(err, err_size, "stat(\"%s\") failed: %s", path,
                     strerror(errno));
            return -1;
        }

        if (!vo_may(&st, uid, groups, ngroups, S_IXUSR)) {
            snprintf(err, err_size, "\"%s\" (owner %ld, group %ld, mode "
                     "%04o) cannot be entered by user %s (uid %ld)", path,
                     (long) st.st_uid, (long) st.st_gid,
                     (unsigned) (st.st_mode & 07777),
                     pw ? pw->pw_name : "?", (long) uid);
            return 0;
        }

        if (slash == path) {
            break;
        }
    }

    return 1;
}


/*
 * Whether the user may do what bits (given as owner bits, S_I?USR) on a
 * file with these stat results, by the owner, group or other class it
 * falls in.
 */

static int
vo_may(const struct stat *st, uid_t uid, const gid_t *groups, int ngroups,
    mode_t bits)
{
    int  i;

    if (st->st_uid == uid) {
        return (st->st_mode & bits) == bits;
    }

    for (i = 0; i < ngroups; i++) {
        if (groups[i] == st->st_gid) {
            return (st->st_mode & (bits >> 3)) == (bits >> 3);
        }
    }

    return (st->st_mode & (bits >> 6)) == (bits >> 6);
}


int
vo_file_writable_by(const char *path, uid_t uid, gid_t gid, char *err,
    size_t err_size)
{
    int          ngroups;
    gid_t        groups[256];
    struct stat  st;

    if (stat(path, &st) == -1) {
        snprintf(err, err_size, "stat(\"%s\") failed: %s", path,
                 strerror(errno));
        return -1;
    }

    if (uid == 0) {
        return 1;
    }

    ngroups = (int) (sizeof(groups) / sizeof(groups[0]));

    return vo_user_may(path, &st, uid, gid, S_IRUSR | S_IWUSR, groups,
                       &ngroups, err, err_size);
}


/*
 * Whether user uid may do what bits (owner bits) says on path, of stat
 * results st, as a member of gid and of the groups /etc/group gives its
 * name (those initgroups() gives nginx's worker processes).  Fills
 * groups (at most *ngroups of them) and sets *ngroups.  Returns 1 yes,
 * 0 no (err says why).
 */

static int
vo_user_may(const char *path, const struct stat *st, uid_t uid, gid_t gid,
    mode_t bits, gid_t *groups, int *ngroups, char *err, size_t err_size)
{
    struct passwd  *pw;

    pw = getpwuid(uid);

    if (pw == NULL || getgrouplist(pw->pw_name, gid, groups, ngroups) == -1)
    {
        groups[0] = gid;
        *ngroups = 1;
    }

    if (vo_may(st, uid, groups, *ngroups, bits)) {
        return 1;
    }

    snprintf(err, err_size, "\"%s\" (owner %ld, group %ld, mode %04o) is not "
             "writable by user %s (uid %ld)", path, (long) st->st_uid,
             (long) st->st_gid, (unsigned) (st->st_mode & 07777),
             pw ? pw->pw_name : "?", (long) uid);

    return 0;
}


/*
 * mkdir(2) with VO_DIR_MODE.  In a directory with the set-group-ID bit,
 * a store shared by two users through its group (the Debian package's
 * /var/lib/video-ocr/store, of nginx's workers and the pool), the new
 * directory gets the group's write permission whatever the umask: under
 * nginx's (022) the pool's janitor could not remove what nginx placed.
 * Returns mkdir's result; errno is mkdir's.
 */

static int
vo_mkdir(const char *dir)
{
    struct stat  st;

    if (mkdir(dir, VO_DIR_MODE) == -1) {
        return -1;
    }

    if (stat(dir, &st) == 0 && (st.st_mode & S_ISGID)
        && (st.st_mode & VO_DIR_MODE) != VO_DIR_MODE)
    {
        (void) chmod(dir, (st.st_mode & 07000) | VO_DIR_MODE);
    }

    return 0;
}


/* Creates the fan-out directory of rel if it is missing. */

static int
vo_store_mkdirs(const char *store, const char *rel, char *err,
    size_t err_size)
{
    char         dir[PATH_MAX];
    const char  *slash;

    slash = strrchr(rel, '/');

    if (snprintf(dir, PATH_MAX, "%s/%.*s", store,
                 (int) (slash ? slash - rel : 0), rel) >= PATH_MAX)
    {
        errno = ENAMETOOLONG;
        snprintf(err, err_size, "store path too long: \"%s\"", store);
        return -1;
    }

    if (vo_mkdir(dir) == 0 || errno == EEXIST) {
        return 0;
    }

    snprintf(err, err_size, "mkdir(\"%s\") failed: %s", dir, strerror(errno));
    return -1;
}


static int
vo_write_all(int fd, const char *p, size_t n)
{
    ssize_t  w;

    while (n > 0) {
        w = write(fd, p, n);

        if (w == -1) {
            if (errno == EINTR) {
                continue;
            }

            return -1;
        }

        p += w;
        n -= (size_t) w;
    }

    return 0;
}


/* "<store>/<rel>" into path (PATH_MAX bytes). */

static int
vo_store_path(const char *store, const char *rel, char *path, char *err,
    size_t err_size)
{
    if (snprintf(path, PATH_MAX, "%s/%s", store, rel) >= PATH_MAX) {
        snprintf(err, err_size, "store path too long: \"%s/%s\"", store, rel);
        return -1;
    }

    return 0;
}


/* The file's path, whose directory exists when this returns. */

static vo_store_rc_t
vo_store_prepare(const char *store, const char *rel, char *path, char *err,
    size_t err_size)
{
    if (vo_store_path(store, rel, path, err, err_size) != 0) {
        return VO_STORE_ERROR;
    }

    if (vo_store_mkdirs(store, rel, err, err_size) != 0) {
        return vo_store_errno(errno);
    }

    return VO_STORE_OK;
}


/*
 * Creates path (it must not exist) with the bytes of the n chunks, or
 * those of the file open as from when chunks is NULL.  On failure no file
 * is left at path.
 */

static vo_store_rc_t
vo_store_write_new(const char *path, const vo_chunk_t *chunks, size_t n,
    int from, char *err, size_t err_size)
{
    int            to, e;
    char          *buf;
    off_t          off;
    size_t         i;
    ssize_t        got;
    const char    *op;

    buf = NULL;
    e = 0;
    op = "write";

    to = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, VO_FILE_MODE);
    if (to == -1) {
        e = errno;
        snprintf(err, err_size, "open(\"%s\") failed: %s", path, strerror(e));
        return vo_store_errno(e);
    }

    if (chunks != NULL) {
        for (i = 0; i < n; i++) {
            if (vo_write_all(to, chunks[i].data, chunks[i].len) != 0) {
                goto failed;
            }
        }

    } else {
        buf = malloc(VO_COPY_BUF);
        if (buf == NULL) {
            e = ENOMEM;
            op = "copy";
            goto failed;
        }

        for (off = 0; /* void */ ; off += got) {
            got = pread(from, buf, VO_COPY_BUF, off);

            if (got == -1 && errno == EINTR) {
                got = 0;
                continue;
            }

            if (got == -1) {
                op = "copy: read";
                goto failed;
            }

            if (got == 0) {
                break;
            }

            if (vo_write_all(to, buf, (size_t) got) != 0) {
                goto failed;
            }
        }
    }

    op = "close";

    if (close(to) == -1) {
        to = -1;
        goto failed;
    }

    free(buf);

    return VO_STORE_OK;

failed:

    if (e == 0) {
        e = errno;
    }

    snprintf(err, err_size, "%s(\"%s\") failed: %s", op, path, strerror(e));

    if (to != -1) {
        (void) close(to);
    }

    (void) unlink(path);
    free(buf);

    return vo_store_errno(e);
}


static vo_store_rc_t
vo_store_errno(int err_no)
{
    return (err_no == ENOSPC || err_no == EDQUOT) ? VO_STORE_FULL
                                                  : VO_STORE_ERROR;
}
