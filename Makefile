# `make run` and `make test` each create .venv and install the project first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck bench clean lock

# pyproject.toml's requires-python (">=3.11"), checked before pip, which refused an older
# Python late and in its own words, naming neither version.
NEEDED := $(shell sed -n 's/^requires-python = ">=\([0-9][0-9.]*\)"$$/\1/p' pyproject.toml)
CHECK_PYTHON := import sys; found = sys.version_info[:2]; \
	need = tuple(int(n) for n in "$(NEEDED)".split(".")); \
	sys.exit(None if found >= need else "make: $(PYTHON) is Python %d.%d and Junction needs \
	Python $(NEEDED) or newer (requires-python in pyproject.toml): name a newer one, \
	e.g. make test PYTHON=python$(NEEDED)." % found)

# constraints.txt pins every package to the release tested (a new ruff or mypy release can
# fail a clean tree); pyproject.toml keeps the ranges the code supports.
$(STAMP): pyproject.toml constraints.txt
	@$(PYTHON) -c '$(CHECK_PYTHON)'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -c constraints.txt -e '.[test,dev,postgres]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/junction run

lint: $(STAMP)
	$(BIN)/ruff check bot cogs tests tools
	$(BIN)/ruff format --check bot cogs tests tools

typecheck: $(STAMP)
	$(BIN)/mypy

# The tests run in as many processes as the machine has cores (pytest-xdist), four at most: a
# PostgreSQL test opens a pool of its own, and the CI server takes 200 connections.
test: lint typecheck
	$(BIN)/pytest -n auto --maxprocesses 4

bench: $(STAMP)
	$(BIN)/junction bench

clean:
	rm -rf $(VENV)

# Newest releases within pyproject.toml's ranges, installed in a throwaway venv and written to
# constraints.txt; run the tests after it, and commit both together.
lock:
	rm -rf .venv-lock
	$(PYTHON) -m venv .venv-lock
	.venv-lock/bin/pip install --quiet --upgrade pip
	.venv-lock/bin/pip install --quiet -e '.[test,dev,postgres]'
	head -n 3 constraints.txt > constraints.new
	.venv-lock/bin/pip freeze --exclude-editable >> constraints.new
	mv constraints.new constraints.txt
	rm -rf .venv-lock
