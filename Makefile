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

# The calculator on gunicorn (never debug) at http://localhost:$(PORT): one sync worker a
# core. Rendering is CPU-bound, so threads only queue behind the GIL: under `make load` the
# sync workers keep p99 under 50 ms at 32 connections where 2 workers x 4 threads reached
# 85-120 ms (README, "Load test"). Sync workers close each connection after its answer and
# want a buffering reverse proxy in front of them on the open internet (gunicorn's advice).
# FLASK_DEBUG is dropped: left over in a shell, it would turn Flask's debug mode on. The
# request-line limit is gunicorn's largest, so an over-long address reaches the app's own
# limit (4096) and its answer, security headers included, rather than gunicorn's bare 414.
run: $(STAMP)
	env -u FLASK_DEBUG $(BIN)/gunicorn --worker-class sync --workers 2 --bind $(HOST):$(PORT) \
		--limit-request-line 8190 --access-logfile - "app.web:create_app()"

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
