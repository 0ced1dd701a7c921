# Two entry points do all the set-up on a fresh machine: `make run` and `make test`.
PYTHON   ?= python3
PORT     ?= 8000
# The address `make run` listens on; the load test uses 127.0.0.1 (loopback only).
HOST     ?= 0.0.0.0
# Debian's chromium drives the browser tests (Playwright's own browser downloads are not used).
CHROMIUM := /usr/bin/chromium
VENV     := .venv
BIN      := $(VENV)/bin
STAMP    := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)
SUDO     := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run dev test bench load install chromium

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

install: $(STAMP)

# The calculator on gunicorn (never debug) at http://localhost:$(PORT), its settings in
# app/web/serving.py: gevent workers, one a core (WEB_CONCURRENCY=n overrides), so a client
# that trickles its headers or body holds a greenlet, not a worker (README, "Serving"); a
# body past 64 KiB is refused unread (413); no control socket. The pages are CPU-bound and
# each worker renders one at a time and closes each connection after its answer, as the sync
# workers did (README, "Load test", for figures). FLASK_DEBUG is dropped: left over in a
# shell, it would turn Flask's debug mode on. MAHJONG_SERVER_NAME / MAHJONG_TRUSTED_HOSTS
# name the public host (README).
run: $(STAMP)
	env -u FLASK_DEBUG $(BIN)/gunicorn --config python:app.web.serving --bind $(HOST):$(PORT) \
		"app.web:create_app()"

# Flask's development server, reloading on every change to the code or templates.
dev: $(STAMP)
	$(BIN)/flask --app "app.web:create_app()" run --debug --reload --port $(PORT)

# Installs Debian's chromium for the browser tests unless it is already there.
chromium:
	@if [ -x "$(CHROMIUM)" ]; then \
		echo "chromium: $(CHROMIUM) is present"; \
	else \
		echo "chromium: installing Debian's chromium for the browser tests"; \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -q && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium; \
	fi

test: $(STAMP) chromium
	$(BIN)/python -m pytest

# On demand, never in CI: this core and full scoring against the `mahjong` library.
bench: $(STAMP)
	$(BIN)/pip install --quiet -e '.[bench]'
	$(BIN)/python tests/bench/bench_core.py
	$(BIN)/python tests/bench/bench_scoring.py hong-kong
	$(BIN)/python tests/bench/bench_scoring.py sichuan

# On demand, never in CI: the production command on loopback under wrk for 60 s a run at
# 32 and 128 connections (tests/load/run_load.sh; installs Debian's wrk when it is missing).
load: $(STAMP)
	bash tests/load/run_load.sh
