# `make run` and `make test` each create .venv and install the project first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test,dev,postgres]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/junction run

lint: $(STAMP)
	$(BIN)/ruff check bot cogs tests tools
	$(BIN)/ruff format --check bot cogs tests tools

typecheck: $(STAMP)
	$(BIN)/mypy

test: lint typecheck
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/junction bench

clean:
	rm -rf $(VENV)
