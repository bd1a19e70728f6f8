# The two commands: `make run` and `make test`. Both set up what they need.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
SOURCE ?=
REV    ?=
EXCLUDE ?=
HOST   ?= 127.0.0.1
PORT   ?= 8000

# Debian packages the test suite uses: real corpora (Rust crate sources),
# ripgrep as a baseline, and the servers and browser the tests start.
DEB_TEST_PACKAGES := ripgrep git librust-regex-dev librust-semver-dev \
	librust-anyhow-dev librust-thiserror-dev librust-clap-dev librust-bytes-dev \
	librust-regex-syntax-dev librust-log-dev librust-miniz-oxide-dev chromium \
	golang-go golang-github-pkg-errors-dev golang-github-spf13-pflag-dev \
	golang-gopkg-yaml.v3-dev golang-github-google-uuid-dev redis-server

.PHONY: run test venv deps-test lint typecheck clean

# `make run` needs the tool and its web extra; `make test` adds the test tools.
$(BIN)/errordex: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[web]'
	@touch $@

$(VENV)/.test-deps: $(BIN)/errordex
	$(BIN)/pip install -q -e '.[web,test]'
	@touch $@

venv: $(BIN)/errordex

run: venv
	@if [ -n "$(SOURCE)" ]; then \
		$(BIN)/errordex index "$(SOURCE)" $(if $(REV),--rev "$(REV)") \
			$(foreach p,$(EXCLUDE),--exclude '$(p)'); \
	else \
		$(BIN)/errordex index pkg:click && $(BIN)/errordex index . ; \
	fi
	$(BIN)/errordex list --limit 20
	@echo "errordex is $(BIN)/errordex: '. $(BIN)/activate' puts it (and its python) on PATH"
	$(BIN)/errordex serve --host $(HOST) --port $(PORT)

deps-test:
	@missing=""; for p in $(DEB_TEST_PACKAGES); do \
		dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing Debian packages:$$missing"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi

lint: $(VENV)/.test-deps
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

typecheck: $(VENV)/.test-deps
	$(BIN)/mypy

test: $(VENV)/.test-deps deps-test lint typecheck
	$(BIN)/pytest -q

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
