/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * What every process of the pool does the same way (see vw_pool.h):
 * opening its ledger connection.
 */

#include <signal.h>

#include "vo_ledger.h"
#include "core/vw_core.h"
#include "vw_pool.h"


vo_ledger_t *
vw_pool_ledger(const vw_pool_conf_t *conf, const char *who,
    volatile sig_atomic_t *stop, int *exit_code)
{
    int               tries;
    char              err[VO_ERR_TEXT];
    vo_ledger_t      *l;
    vo_ledger_rc_t    rc;
    vo_ledger_conf_t  lconf;

    lconf.busy_timeout_ms = conf->busy_timeout_ms;
    lconf.sync_full = 1;
    lconf.migrate = 0;

    /* a database server that does not answer (restarting) may come back */

    for (tries = 0; /* void */; tries++) {
        rc = vo_ledger_open(conf->ledger, &lconf, &l, err, sizeof(err));

        if (rc == VO_LEDGER_OK) {
            return l;
        }

        if (tries == 0 || rc != VO_LEDGER_BUSY) {
            vw_log("%s: %s%s", who, err,
                   rc == VO_LEDGER_BUSY && !conf->once
                   ? "; trying again every second" : "");
        }

        if (rc != VO_LEDGER_BUSY || conf->once) {
            *exit_code = VW_EXIT_CONFIG;
            return NULL;
        }

        if (*stop) {
            *exit_code = VW_EXIT_OK;
            return NULL;
        }

        vw_sleep_ms(1000);
    }
}
