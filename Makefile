# The two commands a newcomer needs: `make run` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: run test lint bench clean

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

test: lint
	$(BIN)/python -m pytest

bench: $(VENV)/.dev-installed
	$(BIN)/python bench/perft.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
