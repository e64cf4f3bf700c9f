# The two commands a newcomer needs: `make run` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: run test lint bench clean browser-deps

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

# The web page's browser tests drive Debian's chromium through chromium-driver.  As
# root (a fresh machine, CI) they are installed when missing; otherwise those tests
# skip and say why.
browser-deps:
	@if ! command -v chromedriver >/dev/null 2>&1 || ! command -v chromium >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
	     apt-get install -y -qq chromium chromium-driver >/dev/null) \
	    || echo "could not install chromium: the browser tests will skip"; \
	  else echo "chromium or chromium-driver missing (not root): the browser tests will skip"; \
	  fi; fi

test: lint browser-deps
	$(BIN)/python -m pytest

bench: $(VENV)/.dev-installed
	$(BIN)/python bench/perft.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
