# The two commands a newcomer needs: `make run` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: run test lint bench clean system-deps

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.run-installed: pyproject.toml setup.py boardctl/engine/_core.c | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[display]'
	touch $@

$(VENV)/.dev-installed: pyproject.toml setup.py boardctl/engine/_core.c | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

run: $(VENV)/.run-installed
	$(BIN)/boardctl sim

lint: $(VENV)/.dev-installed
	$(BIN)/ruff check boardctl tests bench scripts
	$(BIN)/mypy --strict boardctl
	$(BIN)/lint-imports --no-cache --config pyproject.toml

# Debian packages some tests use: chromium and chromium-driver (the web page's browser
# tests), fairymax (the reference engine the XBoard client is tested against) and
# shellcheck (the Pi installer's script).  As root (a fresh machine, CI) the missing
# ones are installed; otherwise the tests that need them skip and say why.
SYSTEM_TOOLS := chromium:chromium chromedriver:chromium-driver /usr/games/fairymax:fairymax \
	shellcheck:shellcheck
system-deps:
	@missing=""; for pair in $(SYSTEM_TOOLS); do tool=$${pair%%:*}; package=$${pair##*:}; \
	  command -v $$tool >/dev/null 2>&1 || [ -x "$$tool" ] || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
	     apt-get install -y -qq $$missing >/dev/null) \
	    || echo "could not install$$missing: the tests that need them will skip"; \
	  else echo "missing (not root):$$missing: the tests that need them will skip"; \
	  fi; fi

test: lint system-deps
	$(BIN)/python -m pytest

bench: $(VENV)/.dev-installed
	$(BIN)/python bench/perft.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
