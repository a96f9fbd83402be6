# video-ocr: the nginx module, the OCR worker, their tests.
#
#   make run     install what is missing, build, start nginx + workers
#   make test    install what is missing, build, run every suite
#                (the browser suite too: make test-browser runs it alone;
#                the PostgreSQL run too: make test-pg runs it alone)
#                (and a 5 s smoke of each fuzz target)
#   make fuzz    the libFuzzer targets of fuzz/, FUZZ_SECONDS each (60)
#   make asan    the nginx and worker suites with the module and the
#                worker built with ASan + UBSan (scripts/asan.sh)
#   make valgrind  the nginx suite with nginx under memcheck
#   make deb     the Debian packages, into build/deb/ (scripts/deb.sh)
#
# Everything built lands in build/; nothing is installed outside it.

SHELL      := /bin/bash
NGX_SRC    ?= /usr/share/nginx/src
NGINX_BIN  ?= /usr/sbin/nginx
BUILD      ?= $(CURDIR)/build
NGX_BUILD  := $(BUILD)/nginx
MODULE_SO  := $(NGX_BUILD)/objs/ngx_http_video_ocr_module.so
WORKER_BIN := $(BUILD)/video-ocr-worker

export NGINX_BIN MODULE_SO WORKER_BIN BUILD

.PHONY: all deps deps-browser build module worker run test test-nginx test-worker \
        test-browser test-pg soak soak-history bench fuzz asan valgrind \
        deps-sanitizers deb deps-deb clean

all: build

deps:
	@scripts/deps.sh

build: deps
	@$(MAKE) --no-print-directory module worker

# Debian's nginx-dev ships the configure scripts and headers of the exact
# nginx in /usr/sbin/nginx, with the flags it was built with: configuring
# with the same flags gives a module whose binary signature matches.
$(NGX_BUILD)/objs/Makefile: config sql/schema.sql sql/schema_pg.sql sql/embed.sh \
                          sql/migrations.sh sql/migrations \
                          $(wildcard sql/migrations/*.sql)
	rm -rf $(NGX_BUILD)
	mkdir -p $(NGX_BUILD)
	cp -a $(NGX_SRC)/. $(NGX_BUILD)/
	cd $(NGX_BUILD) && source ./conf_flags \
	    && ./configure "$${NGX_CONF_FLAGS[@]}" \
	           --add-dynamic-module=$(CURDIR) > configure.log \
	    || { cat configure.log; exit 1; }

module: $(NGX_BUILD)/objs/Makefile
	$(MAKE) --no-print-directory -C $(NGX_BUILD) -f objs/Makefile modules

worker:
	$(MAKE) --no-print-directory -C worker

run: build
	scripts/run.sh

test: build deps-browser deps-deb
	scripts/test.sh

test-nginx: build
	scripts/test.sh nginx

test-worker: build deps-browser deps-deb
	scripts/test.sh worker

# the nginx and worker suites again with PostgreSQL ledgers, on a
# throwaway server (scripts/pg.sh); make test runs them too
test-pg: build deps-browser
	scripts/test.sh pg

# the demo page in Debian's chromium (t/browser/, playwright-core from npm)
test-browser: build deps-browser
	scripts/test.sh browser

deps-browser:
	@scripts/deps.sh browser

# the libFuzzer targets of fuzz/ (docs/testing.md), each for FUZZ_SECONDS
# from the seeds in fuzz/corpus/; make test runs them for 5 s each
FUZZ_SECONDS ?= 60

fuzz: build
	fuzz/run.sh $(FUZZ_SECONDS)

# the sanitizer builds and runs (docs/testing.md); not part of make test
asan: build deps-sanitizers
	scripts/asan.sh

valgrind: build deps-sanitizers
	scripts/valgrind.sh

deps-sanitizers:
	@scripts/deps.sh sanitizers

# the Debian packages libnginx-mod-http-video-ocr and video-ocr-worker,
# made by debhelper from debian/ into build/deb/, checked by lintian;
# t/build/091-deb.t installs, upgrades and purges them (make test)
deb: deps deps-deb
	scripts/deb.sh

deps-deb:
	@scripts/deps.sh deb

# both benchmarks (docs/benchmarks.md): admission against bare nginx, the
# OCR pipeline against ffmpeg+tesseract and OpenCV+tesserocr
bench: build
	@scripts/deps.sh bench
	bench/admission/run.sh
	bench/ocr/run.sh

# one long video split across 1, 2 and 2+2 children (issue 39):
# upload-to-done against children, the CPU the split costs; ROUNDS=N (3):
# medians of N rounds (bench/parts/run.pl says more)
.PHONY: bench-parts
bench-parts: build
	bench/parts/run.pl $(if $(ROUNDS),--rounds $(ROUNDS))

# decoding in decode order (issue 37): the CPU that skipping non-reference
# frames away from changes of text could save, and an md5 check of every
# frame decoded (bench/decode/README.md).  CORPUS="dir1 dir2": those
# corpora (bench/ocr/corpus.pl's layout), else the first and real-like
# sets, made in build/bench/ocr as bench/ocr/run.sh makes them; RUNS=N (3)
DECODE_CORPUS := $(BUILD)/bench/ocr/corpus $(BUILD)/bench/ocr/corpus-real

.PHONY: bench-decode
bench-decode: deps
ifeq ($(CORPUS),)
	@scripts/deps.sh bench
	perl bench/ocr/corpus.pl $(BUILD)/bench/ocr/corpus --set first
	perl bench/ocr/corpus.pl $(BUILD)/bench/ocr/corpus-real --set real
endif
	bench/decode/run.pl $(if $(RUNS),--runs $(RUNS)) \
	    $(if $(CORPUS),$(CORPUS),$(DECODE_CORPUS))

# the storm and chaos tests at 50000 uploads and 24 videos, and the lifecycle
# tests at 1000 reloads and 20 rounds on both ledgers (docs/reliability.md)
soak: build deps-browser
	scripts/test.sh soak

# a week of ledger history at accelerated time: its size levels off
# (docs/reliability.md, "History that stays bounded"); a PostgreSQL
# ledger with SOAK_LEDGER=postgresql://...
soak-history: build
	bench/history/soak.pl --keep-all $(if $(SOAK_LEDGER),--ledger $(SOAK_LEDGER))
	bench/history/soak.pl $(if $(SOAK_LEDGER),--ledger $(SOAK_LEDGER))

clean:
	rm -rf $(BUILD) t/servroot*
