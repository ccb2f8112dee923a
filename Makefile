# The two commands a new user runs: `make demo` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test test-slow check lint format clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/compsim demo scenarios/credential_rotation.toml

test: $(STAMP)
	$(BIN)/python -m pytest -m "not slow"

test-slow: $(STAMP)
	$(BIN)/python -m pytest -m slow

check: $(STAMP)
	$(BIN)/ruff check sim strategies tests benchmarks
	$(BIN)/ruff format --check sim strategies tests benchmarks
	$(BIN)/mypy

format: $(STAMP)
	$(BIN)/ruff format sim strategies tests benchmarks
	$(BIN)/ruff check --fix sim strategies tests benchmarks

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
