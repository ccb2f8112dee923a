"""Injected summarizer faults (sim.summarizers.faulty) and what the harness does with each
(sim.summarizers.retry, the strategies, the run store): transient errors and hangs are retried
with capped exponential backoff and seeded jitter and counted apart from floor and budget
retries; a call that keeps failing makes its trial an error row and the run goes on;
over-budget text is re-asked tighter, never cut; empty text is graded; bad Unicode is stored.
A sweep with faults of every kind accounts for every trial. No test sleeps."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from sim.errors import CallTimeout, ScenarioError, SummarizerUnavailable, TransientError
from sim.runs.grid import load_grid
from sim.runs.results import SUMMARY_JSON, TRACES, TRIALS, iter_jsonl
from sim.runs.runner import run_grid
from sim.runs.scenario import load_scenario
from sim.seeds import rng_for
from sim.summarizers.base import SummaryRequest, SummaryResult
from sim.summarizers.faulty import GARBAGE_HEAD, KINDS, FaultConfig, FaultySummarizer
from sim.summarizers.retry import (
    BACKOFF_BASE_S,
    BACKOFF_CAP_S,
    MAX_ATTEMPTS,
    GuardedSummarizer,
    backoff_s,
)
from sim.tokens import get_counter

ROOT = Path(__file__).resolve().parents[1]
FAULTS = ROOT / "scenarios" / "faults.toml"
COUNTER = get_counter()
TEXT = "".join(f"Line {i} of the session log, with a tool result in it.\n" for i in range(40))
REQUEST = SummaryRequest(TEXT, 60, "compress", (), "L1")
ONLY = {kind: {**{k: 0.0 for k in KINDS}, kind: 1.0} for kind in KINDS}


class Fixed:
    """A summarizer that returns one fitting line, or fails `fail` times first."""

    name = "fixed"
    max_input_tokens = 10_000

    def __init__(self, fail: int = 0, error: type[Exception] = TransientError) -> None:
        self.fail, self.error, self.calls = fail, error, 0

    def summarize(self, request: SummaryRequest) -> SummaryResult:
        self.calls += 1
        if self.calls <= self.fail:
            raise self.error(f"failure {self.calls}")
        return SummaryResult("The session ran its tools.\n", COUNTER.count(request.text))


def faulty(kind: str, seed: int = 0) -> FaultySummarizer:
    return FaultySummarizer(
        Fixed(), FaultConfig(**ONLY[kind]), np.random.default_rng(seed), COUNTER
    )


# --- the faults themselves ------------------------------------------------------------------
def test_each_fault_does_what_it_says() -> None:
    with pytest.raises(TransientError, match="L1: injected fault: HTTP 503"):
        faulty("error").summarize(REQUEST)
    with pytest.raises(CallTimeout, match="no answer within the time limit"):
        faulty("timeout").summarize(REQUEST)
    assert faulty("empty").summarize(REQUEST).text == ""
    assert faulty("echo").summarize(REQUEST).text == TEXT
    over = faulty("overlong").summarize(REQUEST)
    assert over.text.startswith("The session ran its tools.\n")
    assert COUNTER.count(over.text) >= 8 * REQUEST.budget_tokens
    assert over.consumed_input_tokens == COUNTER.count(TEXT)
    bad = faulty("garbage").summarize(REQUEST).text
    assert bad.startswith(GARBAGE_HEAD) and "\udcff" in bad
    with pytest.raises(UnicodeEncodeError):
        bad.encode("utf-8")


def test_faults_are_drawn_from_the_seed_at_the_configured_rates() -> None:
    config = FaultConfig(error=0.1, timeout=0.1, empty=0.1, overlong=0.1, garbage=0.1, echo=0.1)

    def draws(seed: int) -> list[str | None]:
        rng = np.random.default_rng(seed)
        return [config.pick(float(rng.random())) for _ in range(6000)]

    assert draws(3) == draws(3) and draws(3) != draws(4)
    counts = Counter(draws(3))
    for kind in KINDS:
        assert 480 < counts[kind] < 720, counts  # 10% of 6000, within ~5 sigma
    assert 2100 < counts[None] < 2700


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"error": 0.6, "empty": 0.6}, "the fault probabilities add up to 1.2 > 1"),
        ({"timeout": -0.1}, "summarizer.faults.timeout: Input should be greater than or equal"),
        ({"hang": 0.1}, "summarizer.faults.hang: Extra inputs are not permitted"),
        ({"overlong_factor": 1.0}, "overlong_factor: Input should be greater than or equal to 1.5"),
    ],
)
def test_bad_fault_tables_fail_at_load(
    tmp_path: Path, table: dict[str, float], message: str
) -> None:
    path = tmp_path / "s.toml"
    extra = "".join(f"{k} = {v}\n" for k, v in table.items())
    text = FAULTS.read_text().split("[summarizer.faults]")[0] + "[summarizer.faults]\n" + extra
    path.write_text(text)
    with pytest.raises(ScenarioError, match=message):
        load_scenario(path)


def test_a_scenario_without_faults_dumps_as_before() -> None:
    """No `faults` key unless set: existing runs keep their spec hash and can be resumed."""
    plain = load_scenario(ROOT / "tests" / "fixtures" / "tiny.toml")
    assert "faults" not in plain.model_dump()["summarizer"]
    assert load_scenario(FAULTS).model_dump()["summarizer"]["faults"]["error"] == 0.02


# --- the retry guard ------------------------------------------------------------------------
def guarded(inner: Any, seed: int = 5) -> tuple[GuardedSummarizer, list[float]]:
    slept: list[float] = []
    return GuardedSummarizer(inner, np.random.default_rng(seed), slept.append), slept


def test_transient_failures_are_retried_with_capped_backoff_and_jitter() -> None:
    inner = Fixed(fail=MAX_ATTEMPTS - 1, error=CallTimeout)
    guard, slept = guarded(inner)
    assert guard.summarize(REQUEST).text == "The session ran its tools.\n"
    assert inner.calls == MAX_ATTEMPTS and guard.transient_retries == MAX_ATTEMPTS - 1
    for attempt, delay in enumerate(slept):
        ceiling = min(BACKOFF_CAP_S, BACKOFF_BASE_S * 2**attempt)
        assert ceiling / 2 <= delay <= ceiling
    again, slept_again = guarded(Fixed(fail=MAX_ATTEMPTS - 1))
    again.summarize(REQUEST)
    assert slept_again == slept  # the jitter is seeded
    rng = np.random.default_rng(0)
    assert max(backoff_s(30, rng) for _ in range(100)) <= BACKOFF_CAP_S  # capped


def test_a_jitter_stream_given_as_a_function_is_made_on_the_first_retry_only() -> None:
    made: list[int] = []

    def stream() -> np.random.Generator:
        made.append(1)
        return np.random.default_rng(5)

    calm = GuardedSummarizer(Fixed(fail=0), stream, [].append)
    calm.summarize(REQUEST)
    assert made == []  # no retry, no generator seeded
    slept: list[float] = []
    lazy = GuardedSummarizer(Fixed(fail=MAX_ATTEMPTS - 1), stream, slept.append)
    lazy.summarize(REQUEST)
    eager, slept_eager = guarded(Fixed(fail=MAX_ATTEMPTS - 1), seed=5)
    eager.summarize(REQUEST)
    assert made == [1] and slept == slept_eager  # made once, and the same stream


def test_a_call_that_keeps_failing_gives_up_with_the_reason() -> None:
    inner = Fixed(fail=10**6)
    guard, slept = guarded(inner)
    with pytest.raises(SummarizerUnavailable) as info:
        guard.summarize(REQUEST)
    assert str(info.value) == (
        f"L1: summarizer call failed {MAX_ATTEMPTS} times; last: TransientError: failure 4"
    )
    assert inner.calls == MAX_ATTEMPTS and len(slept) == MAX_ATTEMPTS - 1


def test_other_errors_are_not_retried() -> None:
    inner = Fixed(fail=1, error=ValueError)
    guard, slept = guarded(inner)
    with pytest.raises(ValueError):
        guard.summarize(REQUEST)
    assert inner.calls == 1 and slept == [] and guard.transient_retries == 0


def test_unpaired_surrogates_are_replaced_before_grading_and_storing() -> None:
    guard, _ = guarded(faulty("garbage"))
    text = guard.summarize(REQUEST).text
    assert "\udcff" not in text and "\ufffd" in text and "\x00" in text  # controls are kept
    text.encode("utf-8")
    assert guard.sanitized == 1


# --- in a run -------------------------------------------------------------------------------
def run(tmp_path: Path, name: str, overrides: list[str]) -> tuple[list[dict[str, Any]], Any]:
    out = tmp_path / name
    result = run_grid(load_grid(FAULTS, overrides), out, jobs=1, progress=False)
    return sorted(iter_jsonl(out / TRIALS), key=lambda r: str(r["trial_id"])), result


def only(kind: str, trials: int = 4) -> list[str]:
    return [f"trials={trials}", *(f"summarizer.faults.{k}={v}" for k, v in ONLY[kind].items())]


def by_strategy(rows: list[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    return [r for r in rows if r["strategy"] == name]


def test_a_backend_that_always_fails_makes_error_rows_and_the_run_goes_on(tmp_path: Path) -> None:
    rows, result = run(tmp_path, "down", only("timeout"))
    for r in rows:
        if r["strategy"] == "keep_all":  # makes no summarizer call
            assert r["error"] is None
        else:
            assert r["error"] == (
                f"SummarizerUnavailable: L1: summarizer call failed {MAX_ATTEMPTS} times; "
                "last: CallTimeout: L1: injected fault: no answer within the time limit"
            )
    assert result.errors == 4 * 5
    assert result.manifest.units_total == 4 and result.summary["units"] == 4


CLOSED = ("budget_closed", "re_ranking", "floor_gated", "pinned")


def test_text_that_ignores_its_budget_is_reasked_then_fails_loudly_never_cut(
    tmp_path: Path,
) -> None:
    """An echo does not shrink when re-asked: after two tighter re-asks the level refuses."""
    rows, _ = run(tmp_path, "echo", only("echo"))
    for name in CLOSED:
        for r in by_strategy(rows, name):
            assert r["error"] is None and r["aborted_at"] == "L1" and r["stopped"]
            assert not (r["loud"] or r["collapsed"])  # it refused, and nothing was lost
            assert r["failure"].endswith("after 2 tighter re-asks; refusing to truncate")
            assert r["faults"] == {"echo": 3}  # the first call and both re-asks
    for r in by_strategy(rows, "budget_open"):  # one call: the overflow is kept, and shown
        level = r["levels"][0]
        assert not level["budget_ok"] and level["tokens_out"] > level["budget_tokens"]


def test_overlong_text_is_reasked_tighter_and_every_level_that_passes_fits(
    tmp_path: Path,
) -> None:
    """Overlong text that shrinks with the asked budget: the re-ask works, and says so."""
    rows, _ = run(tmp_path, "overlong", only("overlong"))
    for name in CLOSED:
        for r in by_strategy(rows, name):
            assert r["error"] is None
            assert r["aborted_at"] is None or "refusing to truncate" in r["failure"]
            for lv in r["levels"]:
                assert lv["tokens_out"] <= lv["budget_tokens"]  # never over, never cut
                assert lv["budget_retries"] > 0  # flagged: this level needed re-asking
    for r in by_strategy(rows, "budget_open"):
        assert not r["levels"][0]["budget_ok"]


def test_empty_text_is_graded_and_the_floor_gate_turns_it_loud(tmp_path: Path) -> None:
    rows, _ = run(tmp_path, "empty", only("empty"))
    for r in by_strategy(rows, "budget_closed"):
        assert r["error"] is None and r["aborted_at"] is None
        assert r["levels"][0]["tokens_out"] == 0
        assert {f["grades"][0] for f in r["facts"]} == {"dropped"}
        assert r["silent"]
    for r in by_strategy(rows, "floor_gated"):
        assert r["error"] is None and r["loud"] and not r["silent"]
        assert r["aborted_at"] == "L1"  # retried with pins, still empty: RecallFloorViolation
        assert len(r["violations"]) >= 1


def test_bad_unicode_is_stored_graded_and_shown(tmp_path: Path) -> None:
    rows, _ = run(tmp_path, "garbage", only("garbage"))
    assert all(r["error"] is None for r in rows)
    traces = [
        json.loads(line) for line in (tmp_path / "garbage" / TRACES).read_bytes().splitlines()
    ]
    texts = [lv["text"] for t in traces for lv in t["levels"][1:]]
    assert any("\ufffd" in t and "\x1b[2J" in t for t in texts)
    (tmp_path / "garbage" / SUMMARY_JSON).read_bytes().decode("utf-8")


def tally(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Faults injected per kind in the trials that finished, trials that errored, retries."""
    injected: Counter[str] = Counter()
    for r in rows:
        if not r["error"]:
            injected.update(r.get("faults", {}))
    return {
        "injected": dict(injected),
        "errors": sum(bool(r["error"]) for r in rows),
        "transient_retries": sum(r["transient_retries"] for r in rows),
    }


def test_a_sweep_with_ten_percent_faults_of_every_kind_accounts_for_every_trial(
    tmp_path: Path,
) -> None:
    rows, result = run(tmp_path, "sweep", ["trials=40"])
    planned = result.manifest.units_total * 6
    assert len(rows) == len({r["trial_id"] for r in rows}) == planned
    groups = result.summary["groups"]
    assert sum(g["trials"] + g["errors"] for g in groups) == planned
    counts = tally(rows)
    assert set(counts["injected"]) == set(KINDS), counts
    transient = counts["injected"]["error"] + counts["injected"]["timeout"]
    assert counts["transient_retries"] == transient  # every one retried, none gave up
    assert counts["errors"] == 0
    # the same seed injects the same faults: a second run is byte-identical
    run(tmp_path, "again", ["trials=40"])
    for name in (TRIALS, SUMMARY_JSON):
        assert (tmp_path / "again" / name).read_bytes() == (tmp_path / "sweep" / name).read_bytes()


def test_a_sweep_with_ten_percent_of_each_kind_completes_with_errors_accounted(
    tmp_path: Path,
) -> None:
    """Six kinds at 10% each: most calls misbehave, some calls exhaust their retries."""
    each = [f"summarizer.faults.{k}=0.1" for k in KINDS]
    rows, result = run(tmp_path, "heavy", ["trials=30", *each])
    planned = result.manifest.units_total * 6
    assert len(rows) == planned
    assert sum(g["trials"] + g["errors"] for g in result.summary["groups"]) == planned
    errors = [r for r in rows if r["error"]]
    assert errors, "no call exhausted its retries at 20% transient faults"
    assert all(r["error"].startswith("SummarizerUnavailable: L") for r in errors)
    assert result.errors == len(errors)


def test_the_fault_streams_do_not_touch_other_results(tmp_path: Path) -> None:
    """Faults at rate 0 draw from their own stream: results equal a run without the table."""
    zero = [f"summarizer.faults.{k}=0.0" for k in KINDS]
    rows_zero, _ = run(tmp_path, "zero", ["trials=3", *zero])
    data = FAULTS.read_text().split("[summarizer.faults]")[0]
    plain = tmp_path / "plain.toml"
    plain.write_text(data)
    out = tmp_path / "plain"
    run_grid(load_grid(plain, ["trials=3"]), out, jobs=1, progress=False)
    rows_plain = sorted(iter_jsonl(out / TRIALS), key=lambda r: str(r["trial_id"]))
    assert rows_zero == rows_plain
    assert rng_for(808, 0, "x:faults").random() != rng_for(808, 0, "x").random()
