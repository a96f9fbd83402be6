# The sources of video-ocr-worker, listed once: worker/Makefile builds
# them into the binary, fuzz/Makefile into fuzz_media (all but
# cmd/vw_main.c).  Paths are relative to a directory one below the
# repository's top.
#
#   VW_SRCS      the worker's own files (worker/), a line or two per
#                room, from the top room (cmd/) down (worker/README.md)
#   VW_LEDGER    the ledger library (sql/): every statement table and
#                both backends, which vo_ledger.c reaches by name
#   VW_LIB       the libc-only code shared with the nginx module (lib/)
#   VW_PQ_PKG    libpq when the host has it (pkg-config), else nothing:
#                the ledger then has vo_ledger_nopg.c for its PostgreSQL
#                backend, and only SQLite ledgers open ("VW_PQ=no" on the
#                make command line builds that on any host)

VW_SRCS   := cmd/vw_main.c cmd/vw_cmd_ocr.c cmd/vw_cmd_run.c \
             cmd/vw_cmd_admin.c cmd/vw_cmd_webhooks.c cmd/vw_cmd_args.c \
             cmd/vw_cmd_parts.c cmd/vw_cmd_rows.c \
             cmd/vw_cmd_progress.c \
             pool/vw_pool.c pool/vw_super.c pool/vw_child.c \
             pool/vw_janitor.c pool/vw_deliver.c pool/vw_confine.c \
             pool/vw_http.c \
             pipeline/vw_pipeline.c pipeline/vw_screen.c pipeline/vw_read.c \
             pipeline/vw_read_line.c pipeline/vw_read_memo.c \
             pipeline/vw_read_roll.c \
             pipeline/vw_join.c pipeline/vw_turn.c pipeline/vw_between.c \
             pipeline/vw_boundary.c pipeline/vw_resume.c pipeline/vw_reading.c \
             pipeline/vw_rows.c pipeline/vw_look.c pipeline/vw_pipe.c \
             pipeline/vw_cuts.c \
             media/vw_inspect.c media/vw_media_io.c media/vw_container.c \
             media/vw_duration.c media/vw_decode.c media/vw_bframes.c \
             media/vw_keyframes.c \
             image/vw_image.c image/vw_frame.c image/vw_prep.c \
             image/vw_ink.c image/vw_bars.c image/vw_text.c \
             image/vw_text_lines.c image/vw_text_same.c \
             image/vw_text_persist.c image/vw_text_local.c \
             image/vw_text_calm.c image/vw_text_band.c image/vw_orient.c \
             image/vw_stack.c \
             ocr/vw_ocr.c ocr/vw_ocr_merge.c ocr/vw_ocr_lang.c \
             ocr/vw_despeckle.c ocr/vw_osd.c ocr/vw_script.c \
             ocr/vw_ocr_auto.c \
             result/vw_segments.c result/vw_parts.c result/vw_output.c \
             result/vw_seam.c \
             core/vw_core.c core/vw_plan.c core/vw_geom.c core/vw_utf8.c \
             core/vw_stage.c
VW_SRCS   := $(addprefix ../worker/,$(VW_SRCS))

VW_PQ     ?= $(shell pkg-config --exists libpq && echo yes || echo no)
VW_PQ_PKG := $(if $(filter yes,$(VW_PQ)),libpq)

VW_LEDGER := vo_ledger.c vo_ledger_sqlite.c \
             $(if $(VW_PQ_PKG),vo_ledger_pg.c,vo_ledger_nopg.c) \
             vo_ledger_admit.c vo_ledger_jobs.c vo_ledger_worker.c \
             vo_ledger_parts.c \
             vo_ledger_claim.c vo_ledger_explain.c \
             vo_ledger_janitor.c vo_ledger_metrics.c vo_ledger_admin.c \
             vo_ledger_webhooks.c vo_ledger_hooks_admin.c vo_ledger_upload.c \
             vo_ledger_search.c vo_ledger_search_words.c \
             vo_ledger_search_hits.c vo_ledger_search_index.c
VW_LEDGER := $(addprefix ../sql/,$(VW_LEDGER))

VW_LIB    := vo_key.c vo_options.c vo_sniff.c vo_json.c vo_store.c \
             vo_webhook.c vo_upload.c vo_fold.c vo_query.c vo_result.c
VW_LIB    := $(addprefix ../lib/,$(VW_LIB))
