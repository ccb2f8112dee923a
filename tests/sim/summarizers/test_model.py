"""The real-model adapter with the scripted backend: prompt rendering, max_tokens from the
budget, output normalization, budget honesty (overflow and cut outputs are re-asked, never
cut to fit) and record/replay through the cache."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from sim.errors import CompactionFailure
from sim.grading.grade import grade_text
from sim.history.constraints import prohibition_for
from sim.summarizers.base import SummaryRequest
from sim.summarizers.cache import CallCache
from sim.summarizers.model import CallStats, ModelSummarizer
from sim.summarizers.scripted import ScriptedModel
from sim.tokens import MemoCounter, get_counter
from sim.types import Fact, FactGrade
from strategies.base import CallContext, summarize_fitting

COUNTER = get_counter()
FACT = prohibition_for("rotate", "credential", 4, "f1").fact
TEMPLATE = "Compress to $budget_tokens tokens at $level.\n$input\nPins:\n$pinned_facts"


def summarizer(
    model: ScriptedModel, cache: CallCache | None = None, seed: int = 3
) -> ModelSummarizer:
    return ModelSummarizer(
        model,
        COUNTER,
        model_seed=seed,
        rng=np.random.default_rng(0),
        cache=cache,
        stats=CallStats(),
    )


def ctx(s: ModelSummarizer) -> CallContext:
    def grade(text: str, facts: Sequence[Fact]) -> tuple[FactGrade, ...]:
        return grade_text(text, facts, COUNTER)

    return CallContext("L2", None, s, COUNTER, grade, ())


def test_prompt_params_and_output_shape() -> None:
    model = ScriptedModel(
        responses=("  Do not rotate the credential after step 4.  \n\n  Deploy done. ",)
    )
    s = summarizer(model)
    result = s.summarize(SummaryRequest("line one\nline two\n", 100, TEMPLATE, (FACT,), "L2"))
    assert model.prompts == [
        "Compress to 100 tokens at L2.\nline one\nline two\n\nPins:\n- " + FACT.text + "\n"
    ]
    assert result.text == "Do not rotate the credential after step 4.\nDeploy done.\n"
    assert result.consumed_input_tokens == COUNTER.count("line one\nline two\n")
    assert not result.cut
    assert s.params_for(100).max_tokens == 158 and s.params_for(100).temperature == 0.0
    assert s.params_for(100).seed == 3


def test_overflow_is_re_asked_tighter_and_counted() -> None:
    long = " ".join(["word"] * 60)
    model = ScriptedModel(responses=(long, "Short enough."))
    s = summarizer(model)
    read = summarize_fitting("some input\n", 20, ctx(s), TEMPLATE)
    assert read.text == "Short enough.\n"
    assert (read.calls, read.budget_retries) == (2, 1)
    first, second = (p.splitlines()[0] for p in model.prompts)
    assert first == "Compress to 20 tokens at L2."
    assert second.startswith("Compress to ") and int(second.split()[2]) < 20


def test_output_cut_at_max_tokens_never_counts_as_fitting() -> None:
    # a coarse counter makes the cut text fit the budget; it is still incomplete, so the
    # strategy re-asks and then fails loudly instead of using it
    coarse = MemoCounter("chars/20", lambda s: len(s) // 20, additive_lines=False)
    model = ScriptedModel(responses=(" ".join(["w"] * 500),))
    s = ModelSummarizer(model, coarse, model_seed=0, rng=np.random.default_rng(0))
    c = CallContext("L2", None, s, coarse, lambda t, f: (), ())
    assert coarse.count(s.summarize(SummaryRequest("in\n", 100, TEMPLATE)).text) <= 100
    with pytest.raises(CompactionFailure, match="cut at the backend's output cap"):
        summarize_fitting("input\n", 100, c, TEMPLATE)
    assert model.calls == 1 + 3
    assert s.stats.cut == 4


def test_echo_script_reports_its_cut() -> None:
    s = summarizer(ScriptedModel("echo"))
    text = "".join(f"line {i} of a long session log\n" for i in range(100))
    assert s.summarize(SummaryRequest(text, 10, TEMPLATE, (), "L1")).cut


def test_replay_makes_no_model_call(tmp_path: Path) -> None:
    cache = CallCache(tmp_path / "c.sqlite")
    req = SummaryRequest(
        "Do not rotate the credential after step 4.\nChatter.\n", 50, TEMPLATE, (), "L1"
    )
    first = summarizer(ScriptedModel(), cache).summarize(req)
    model = ScriptedModel()
    again = summarizer(model, CallCache(tmp_path / "c.sqlite", "read-only")).summarize(req)
    assert again == first
    assert model.calls == 0


def test_repeats_of_one_call_are_separate_rows(tmp_path: Path) -> None:
    cache = CallCache(tmp_path / "c.sqlite")
    req = SummaryRequest("x\n", 50, TEMPLATE, (), "L1")
    s = summarizer(ScriptedModel(responses=("first", "second")), cache)
    assert [s.summarize(req).text for _ in range(2)] == ["first\n", "second\n"]
    model = ScriptedModel(responses=("first", "second"))
    replay = summarizer(model, cache)
    assert [replay.summarize(req).text for _ in range(2)] == ["first\n", "second\n"]
    assert cache.rows() == 2
    assert model.calls == 0


def test_seed_is_part_of_the_key(tmp_path: Path) -> None:
    cache = CallCache(tmp_path / "c.sqlite")
    req = SummaryRequest("x\n", 50, TEMPLATE, (), "L1")
    summarizer(ScriptedModel(), cache, seed=1).summarize(req)
    model = ScriptedModel()
    summarizer(model, cache, seed=2).summarize(req)
    assert model.calls == 1
