# Two entry points do all the set-up on a fresh machine: `make run` and `make test`.
PYTHON   ?= python3
PORT     ?= 8000
# Debian's chromium drives the browser tests (Playwright's own browser downloads are not used).
CHROMIUM := /usr/bin/chromium
VENV     := .venv
BIN      := $(VENV)/bin
STAMP    := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)
SUDO     := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run dev test bench install chromium

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

install: $(STAMP)

# The calculator on gunicorn (threads, never debug) at http://localhost:$(PORT).
run: $(STAMP)
	$(BIN)/gunicorn --workers 2 --threads 4 --bind 0.0.0.0:$(PORT) \
		--access-logfile - "app.web:create_app()"

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
