/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The PostgreSQL backend of a build made without libpq: it opens nothing
 * and says why.  The build links this file instead of vo_ledger_pg.c when
 * the host has no libpq (config and worker/sources.mk probe for it), so
 * an SQLite-only module or worker still builds, and a postgresql:// ledger
 * gets a sentence instead of a link error or a crash.
 */

#include <stdio.h>

#include "vo_ledger.h"
#include "vo_ledger_int.h"


static vo_ledger_rc_t vo_nopg_open(vo_ledger_t *l, const char *spec,
    const vo_ledger_conf_t *conf, char *err, size_t err_size);
static void vo_nopg_close(vo_ledger_t *l);


/* only open and close are ever called: no connection, no statement */
const vo_backend_t  vo_ledger_pg = {
    .name = "PostgreSQL (not in this build)",
    .open = vo_nopg_open,
    .close = vo_nopg_close,
};


const char *const  vo_ledger_kinds = "sqlite";


static vo_ledger_rc_t
vo_nopg_open(vo_ledger_t *l, const char *spec, const vo_ledger_conf_t *conf,
    char *err, size_t err_size)
{
    char  name[256];

    (void) l;
    (void) conf;

    vo_ledger_redact(spec, name, sizeof(name));

    snprintf(err, err_size, "ledger \"%s\": this build has no PostgreSQL "
             "support (libpq was not found when it was built: install "
             "libpq-dev and build again), only SQLite ledgers", name);

    return VO_LEDGER_ERROR;
}


static void
vo_nopg_close(vo_ledger_t *l)
{
    (void) l;      /* nothing was opened */
}
