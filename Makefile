# Two entry points do all the set-up on a fresh machine: `make run` and `make test`.
PYTHON   ?= python3
PORT     ?= 8000
# The address `make run` listens on; the load test uses 127.0.0.1 (loopback only).
HOST     ?= 0.0.0.0
# Debian's chromium drives the browser tests (Playwright's own browser downloads are not used).
CHROMIUM := /usr/bin/chromium
VENV     := .venv
BIN      := $(VENV)/bin
# Installs are redone when pyproject.toml or the pinned versions change.
HASH     := $(shell cat pyproject.toml markdown-extension/pyproject.toml constraints.txt | cksum | cut -d' ' -f1)
RUN_STAMP  := $(VENV)/.run-$(HASH)
TEST_STAMP := $(VENV)/.test-$(HASH)
# The outlook's compiled solver (below), built beside recurrence.py.
SOLVER   := app/advice/_recurrence.so
SUDO     := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run dev test lint bench load load-heavy memory install chromium postgresql wordpress fonts constraints fresh-clone catalogs translations docs solver

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Running needs only the package and its dependencies, at the versions in constraints.txt.
$(RUN_STAMP): pyproject.toml constraints.txt | $(BIN)/python
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -c constraints.txt -e .
	touch $@

$(TEST_STAMP): pyproject.toml markdown-extension/pyproject.toml constraints.txt | $(BIN)/python
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -c constraints.txt -e '.[test]' -e ./markdown-extension
	touch $@

install: $(TEST_STAMP) $(SOLVER)

# The outlook's compiled solver, app/advice/_recurrence.c into app/advice/_recurrence.so beside
# recurrence.py (tools/build_solver.py; a wheel builds its own, hatch_build.py): with the C
# compiler $$CC, sysconfig's CC or cc names. Where there is none this says so and builds
# nothing, and the outlook solves with numpy (the same figures). `make install`, `make test`,
# `make run` and `make dev` build it; an editable `pip install -e .` alone does not.
$(SOLVER): app/advice/_recurrence.c tools/build_solver.py | $(BIN)/python
	$(BIN)/python tools/build_solver.py app/advice

solver: $(SOLVER)

# The production command: `mahjong-calculator serve`, i.e. gunicorn with its settings in
# app/web/serving/server.py: gevent workers, one a core (WEB_CONCURRENCY=n overrides), so a client
# that trickles its headers or body holds a greenlet, not a worker (docs/serving.md); a
# body past 64 KiB is refused unread (413); no control socket. The pages are CPU-bound and
# each worker renders one at a time and closes each connection after its answer
# (docs/performance.md, "Load test", for figures). FLASK_DEBUG is dropped: left over in a shell, it would turn
# Flask's debug mode on. MAHJONG_SERVER_NAME / MAHJONG_TRUSTED_HOSTS name the public host.
run: $(RUN_STAMP) $(SOLVER)
	$(BIN)/pybabel -q compile -d app/translations
	env -u FLASK_DEBUG HOST=$(HOST) PORT=$(PORT) $(BIN)/mahjong-calculator serve

# Flask's development server, reloading on every change to the code or templates.
dev: $(RUN_STAMP) $(SOLVER)
	$(BIN)/pybabel -q compile -d app/translations
	$(BIN)/flask --app "app.web:create_app()" run --debug --reload --port $(PORT)

# Installs Debian's chromium for the browser tests unless it is already there.
chromium:
	@if [ -x "$(CHROMIUM)" ]; then \
		echo "chromium: $(CHROMIUM) is present"; \
	else \
		echo "chromium: installing Debian's chromium for the browser tests"; \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 update -q && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -q chromium; \
	fi

# Installs Debian's PostgreSQL server for the stored-sheet tests unless it is there (the suite
# starts its own on loopback in a temporary folder: tests/postgres.py; nothing runs as a service).
postgresql:
	@if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then \
		echo "postgresql: Debian's server is present"; \
	else \
		echo "postgresql: installing Debian's postgresql for the stored-sheet tests"; \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 update -q && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -q postgresql; \
	fi

# Installs Debian's WordPress for the embedding tests unless it is there, with its default theme,
# MariaDB's server and PHP's command line (the suite starts its own database and `php -S` web
# server on loopback in a temporary folder: tests/wordpress.py; nothing runs as a service).
WP_THEME := /usr/share/wordpress/wp-content/themes/twentytwentythree
wordpress:
	@if [ -f /usr/share/wordpress/wp-settings.php ] && [ -d $(WP_THEME) ] \
			&& command -v mariadb-install-db >/dev/null && command -v php >/dev/null; then \
		echo "wordpress: Debian's wordpress, mariadb-server and php-cli are present"; \
	else \
		echo "wordpress: installing Debian's wordpress, mariadb-server and php-cli for the embedding tests"; \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 update -q && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -q \
			wordpress wordpress-theme-twentytwentythree mariadb-server php-cli php-mysql; \
	fi

# The fonts a link preview's picture is written in (app/web/lesson/preview.py; resvg takes the
# machine's fonts): Latin and Chinese. A server without them draws the tiles and boxes unworded.
fonts:
	@if [ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] \
			&& ls /usr/share/fonts/truetype/wqy/wqy-microhei.ttc >/dev/null 2>&1; then \
		echo "fonts: DejaVu Sans and WenQuanYi Micro Hei are present"; \
	else \
		echo "fonts: installing Debian's fonts-dejavu-core and fonts-wqy-microhei for preview pictures"; \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 update -q && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -q \
			fonts-dejavu-core fonts-wqy-microhei; \
	fi

# ruff, then the layers: each package imports only those below it, no circles, Flask only in
# app/web (pyproject.toml, [tool.importlinter]; docs/code.md).
lint: $(TEST_STAMP)
	$(BIN)/ruff check .
	$(BIN)/lint-imports --no-cache

# The suite on every core (pytest-xdist): each test module runs whole on one worker, so its
# module fixtures start once; TEST_WORKERS=0 runs it in one process.
TEST_WORKERS ?= auto
test: $(TEST_STAMP) $(SOLVER) chromium postgresql wordpress fonts lint catalogs
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadscope

# The gettext catalogs (app/translations/<locale>/LC_MESSAGES/messages.po), compiled to the
# .mo files the app reads; run by `make run` and `make test`, so they are never stale. A wheel
# compiles its own (hatch_build.py).
catalogs: $(TEST_STAMP)
	$(BIN)/pybabel -q compile -d app/translations

# After changing a sentence in app/ or templates/: extract every message into messages.pot and
# merge it into each language's .po (new sentences arrive untranslated: translate them there;
# tests/test_translations.py fails until every one is). Adding a language: docs/languages.md.
translations: $(TEST_STAMP)
	$(BIN)/pybabel -q extract -F babel.cfg -k Msg -k N_ -k lazy_gettext --sort-by-file --no-wrap \
		--project=mahjong-scoring-calculator --copyright-holder= -o app/translations/messages.pot .
	$(BIN)/pybabel -q update -i app/translations/messages.pot -d app/translations \
		--no-fuzzy-matching --no-wrap --ignore-obsolete

# The documentation site (mkdocs.yml, docs/): Material for MkDocs, its hands drawn by the
# project's own `mahjong` Markdown extension; --strict fails on any warning. Into site/ (ignored).
docs: $(TEST_STAMP) catalogs
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet

# Re-pin constraints.txt to the newest releases pyproject.toml admits (then run `make test`).
constraints:
	rm -rf .venv-pin && $(PYTHON) -m venv .venv-pin
	.venv-pin/bin/pip install --quiet --upgrade pip
	.venv-pin/bin/pip install --quiet '.[test,bench]'
	{ head -2 constraints.txt; .venv-pin/bin/pip freeze --exclude-editable \
		| grep -v '^mahjong-scoring-calculator'; } > constraints.txt.new
	mv constraints.txt.new constraints.txt && rm -rf .venv-pin

# Proof that the repository stands alone: clone HEAD into an empty temporary folder (nothing
# beside it) and run `make test` there.
fresh-clone:
	bash tests/fresh_clone.sh

# On demand, never in CI: this core and full scoring against the `mahjong` library.
bench: $(TEST_STAMP)
	$(BIN)/python tests/bench/bench_core.py
	$(BIN)/python tests/bench/bench_scoring.py hong-kong
	$(BIN)/python tests/bench/bench_scoring.py sichuan
	$(BIN)/python tests/bench/bench_discard.py
	$(BIN)/python tests/bench/bench_shanten_engines.py

# On demand, never in CI: the production command on loopback under wrk for 60 s a run at
# 32 and 128 connections (tests/load/run_load.sh; installs Debian's wrk when it is missing).
load: $(RUN_STAMP)
	bash tests/load/run_load.sh

# On demand: each endpoint's heaviest accepted request (the outlook, whose answers are cached: 324
# distinct worst cases an endpoint) from 32 connections for 20 s a run, the health check's p99
# (tests/load/heavy_load.py), then the fair-turns cases (outlooks under 60-pattern variants,
# new-variant floods, all heavy) with ordinary visitors' p50/p99 printed beside health's; and
# memory after 100,000 distinct requests (BENCH_NEW_VARIANTS=1.5 make memory: 1.5 % of them new
# club variants).
load-heavy: $(TEST_STAMP)
	$(BIN)/python tests/load/heavy_load.py

memory: $(TEST_STAMP)
	$(BIN)/python tests/bench/bench_memory.py
