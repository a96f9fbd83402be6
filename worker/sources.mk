# The sources of video-ocr-worker, listed once: worker/Makefile builds
# them into the binary, fuzz/Makefile into fuzz_media (all but
# vw_main.c).  Paths are relative to a directory one below the
# repository's top.
#
#   VW_SRCS      the worker's own files (worker/)
#   VW_LEDGER    the ledger library (sql/): every statement table and
#                both backends, which vo_ledger.c reaches by name
#   VW_LIB       the libc-only code shared with the nginx module (lib/)
#   VW_PQ_PKG    libpq when the host has it (pkg-config), else nothing:
#                the ledger then has vo_ledger_nopg.c for its PostgreSQL
#                backend, and only SQLite ledgers open ("VW_PQ=no" on the
#                make command line builds that on any host)

VW_SRCS   := vw_main.c vw_core.c vw_plan.c \
             vw_inspect.c vw_container.c vw_duration.c vw_decode.c \
             vw_frame.c vw_orient.c vw_text.c vw_looks.c vw_ocr.c \
             vw_script.c vw_parts.c vw_segments.c \
             vw_output.c \
             vw_pipeline.c vw_screen.c vw_read.c vw_between.c vw_join.c \
             vw_pipe_orient.c vw_cmd_ocr.c \
             vw_cmd_run.c vw_super.c vw_child.c vw_janitor.c vw_confine.c \
             vw_cmd_admin.c vw_deliver.c vw_http.c vw_cmd_webhooks.c
VW_SRCS   := $(addprefix ../worker/,$(VW_SRCS))

VW_PQ     ?= $(shell pkg-config --exists libpq && echo yes || echo no)
VW_PQ_PKG := $(if $(filter yes,$(VW_PQ)),libpq)

VW_LEDGER := vo_ledger.c vo_ledger_sqlite.c \
             $(if $(VW_PQ_PKG),vo_ledger_pg.c,vo_ledger_nopg.c) \
             vo_ledger_admit.c vo_ledger_jobs.c vo_ledger_worker.c \
             vo_ledger_claim.c vo_ledger_explain.c \
             vo_ledger_janitor.c vo_ledger_metrics.c vo_ledger_admin.c \
             vo_ledger_webhooks.c vo_ledger_hooks_admin.c vo_ledger_upload.c \
             vo_ledger_search.c vo_ledger_search_words.c \
             vo_ledger_search_hits.c vo_ledger_search_index.c
VW_LEDGER := $(addprefix ../sql/,$(VW_LEDGER))

VW_LIB    := vo_key.c vo_options.c vo_sniff.c vo_json.c vo_store.c \
             vo_webhook.c vo_upload.c vo_fold.c vo_query.c vo_result.c
VW_LIB    := $(addprefix ../lib/,$(VW_LIB))
