/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The store: the directory that holds every admitted upload, one file per
 * job at "<store>/<last two hex digits of job_id>/<job_id>.video".  The
 * module places files into it from nginx's thread pool; the worker reads
 * them.  Plain C and POSIX only.
 *
 * Durability: placing a file does not sync it.  With video_ocr_durability
 * full, the group commit's leader makes every file of a batch durable,
 * data and directory entries, with one syncfs() of the store's filesystem
 * before the batch's receipts are committed (invariant 4, sql/schema.sql;
 * ngx_module/vo_group.c).
 */

#ifndef _VO_STORE_H_INCLUDED_
#define _VO_STORE_H_INCLUDED_


#include <stddef.h>
#include <sys/types.h>

#include "vo_job_id.h"


#define VO_STORE_REL_LEN   (2 + 1 + VO_JOB_ID_LEN + sizeof(".video") - 1)


typedef enum {
    VO_STORE_OK = 0,
    VO_STORE_FULL,             /* ENOSPC or EDQUOT: the client gets 507 */
    VO_STORE_ERROR
} vo_store_rc_t;


typedef struct {
    const char  *data;
    size_t       len;
} vo_chunk_t;


/*
 * A resumable upload's partial file: "uploads/<xx>/<upload_id>.part";
 * out holds VO_STORE_UPLOAD_REL_LEN + 1 bytes.
 */
#define VO_STORE_UPLOAD_REL_LEN  (8 + 3 + 32 + sizeof(".part") - 1)

void vo_store_upload_path(const char *upload_id, char *out);

/* Creates rel, empty (it must not exist), durable with sync. */
vo_store_rc_t vo_store_create_empty(const char *store, const char *rel,
    int sync, char *err, size_t err_size);

/* Opens rel with flags (no O_CREAT); -1 with errno and err on failure. */
int vo_store_open(const char *store, const char *rel, int flags, char *err,
    size_t err_size);

/*
 * Creates rel, which must not exist (its fan-out directory is made), and
 * opens it to read and write; the caller removes it on failure.  The
 * descriptor, or -1 with err set and *rc the reason.
 */
int vo_store_create(const char *store, const char *rel, vo_store_rc_t *rc,
    char *err, size_t err_size);

/*
 * Copies len bytes of from at *in to to at *out (both advanced):
 * copy_file_range(2), which a filesystem with reflinks may share rather
 * than copy, or read and write where it cannot (two filesystems).  0,
 * or -1 with errno (EIO: from ended before len).
 */
int vo_store_copy(int from, off_t *in, int to, off_t *out, off_t len);

/*
 * Gives the file at from a second name, to (a job's input): link(2), no
 * data copied; the fan-out directory of to is made if missing.  The
 * caller makes the new entry durable (the group commit's syncfs).
 */
vo_store_rc_t vo_store_link(const char *store, const char *from,
    const char *to, char *err, size_t err_size);

/* Writes the relative path of a job's input; out holds VO_STORE_REL_LEN+1. */
void vo_store_input_path(const char *job_id, char *out);

/*
 * Moves a finished upload (the client body temp file, open as fd) to rel
 * inside store.  rename(2) when both are on one filesystem; a copy when
 * rename fails with EXDEV (*copied is then set; the temp file is left for
 * its owner to delete).  Returns VO_STORE_OK, or fills err and leaves no
 * file at rel.
 */
vo_store_rc_t vo_store_place_file(const char *store, const char *rel,
    int fd, const char *temp_path, int *copied, char *err,
    size_t err_size);

/* Writes an upload held in memory to a new file at rel. Same contract. */
vo_store_rc_t vo_store_place_chunks(const char *store, const char *rel,
    const vo_chunk_t *chunks, size_t n, char *err, size_t err_size);

/* Removes rel; a missing file is not an error. */
int vo_store_remove(const char *store, const char *rel, char *err,
    size_t err_size);

/*
 * Whether user uid (primary group gid) may create files in dir, and
 * reach it (search permission on every directory above), by the
 * permission bits and the user's groups (ACLs are not consulted).
 * Returns 1 yes, 0 no (err says why), -1 when dir cannot be examined.
 */
int vo_dir_writable_by(const char *dir, uid_t uid, gid_t gid, char *err,
    size_t err_size);

/*
 * Whether user uid (primary group gid, and its other groups) may read
 * and write the file path, by the permission bits.  Returns 1 yes, 0 no
 * (err says why), -1 when path cannot be examined.
 */
int vo_file_writable_by(const char *path, uid_t uid, gid_t gid, char *err,
    size_t err_size);


#endif /* _VO_STORE_H_INCLUDED_ */
