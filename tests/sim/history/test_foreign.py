"""Foreign text as sentence units: a declared fact's ladder is derived from its anchors and
class and every rung grades as what it stands for; other sentences get a generic shortening;
and over a real transcript the simulated summarizer can abstract and invert a declared fact."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sim.grading.grade import grade_text
from sim.history.constraints import CLASSES, build_fact
from sim.history.foreign import fact_ladder, generic_ladder, sentences, shorten
from sim.history.transcript_history import transcript_history
from sim.history.transcripts import load_transcript
from sim.runtime.floor_registry import load_floor_registry
from sim.summarizers.base import SummaryRequest
from sim.summarizers.simulated import SimParams, SimulatedSummarizer
from sim.types import Grade
from tests.helpers import counter

REPO = Path(__file__).resolve().parents[3]
NEUTRAL = "Rewrite the log below in at most $budget_tokens tokens."


def _grade(text: str, fact: object) -> Grade:
    return grade_text(text + "\n", [fact], counter())[0].grade  # type: ignore[list-item]


def test_sentences_and_generic_shortening() -> None:
    assert sentences("Build ok. Tests pass (3 skipped), see the log.") == [
        "Build ok.",
        "Tests pass (3 skipped), see the log.",
    ]
    assert shorten("Tests pass (3 skipped), see the log.") == "Tests pass."
    long = "I looked at the retry logic in the client and it seems to back off far too slowly"
    assert shorten(long) == "I looked at the retry logic in the."
    assert shorten("Build ok.") is None
    assert generic_ladder("Build ok.") == ("Build ok.",)


@pytest.mark.parametrize("cls", sorted(CLASSES))
@pytest.mark.parametrize("variant", [0, 1, 2])
def test_a_fact_ladder_grades_rung_by_rung(cls: str, variant: int) -> None:
    fact = build_fact(cls, variant, np.random.default_rng(variant), "f1").fact
    renderings, inverted = fact_ladder(fact.text, fact, counter())
    assert renderings[0] == fact.text
    assert _grade(renderings[0], fact).at_floor
    if len(renderings) == 3:
        assert _grade(renderings[1], fact).at_floor  # compressed: every anchor kept
        assert _grade(renderings[2], fact) is Grade.DEGRADED  # abstracted past actionability
    if inverted is not None:
        assert _grade(inverted, fact) is Grade.INVERTED


def test_most_planted_classes_get_a_full_ladder_and_an_inversion() -> None:
    full = flipped = total = 0
    for cls in CLASSES:
        for variant in range(CLASSES[cls][1]):
            fact = build_fact(cls, variant, np.random.default_rng(variant), "f1").fact
            renderings, inverted = fact_ladder(fact.text, fact, counter())
            total += 1
            full += len(renderings) == 3
            flipped += inverted is not None
    assert full >= 0.8 * total and flipped >= 0.8 * total, (full, flipped, total)


def _deploy_history():  # type: ignore[no-untyped-def]
    facts = list(load_floor_registry(REPO / "examples" / "floors.toml").facts)
    t = load_transcript(REPO / "examples" / "transcripts" / "deploy_openai.jsonl")
    return transcript_history(t, counter(), declare=facts)


def test_over_a_transcript_a_declared_fact_can_be_abstracted_and_inverted() -> None:
    h = _deploy_history()
    fact = next(f for f in h.facts if f.fact_id == "payment-restart-needs-yes")
    unit = next(u for u in h.units if u.fact_id == fact.fact_id)
    forced = {"abstraction_max": 1.0, "abstraction_mid": 100.0, "abstraction_width": 0.01}
    written = []
    for rate in (0.0, 1.0):
        params = SimParams(inversion_rate=rate, **forced)  # type: ignore[arg-type]
        s = SimulatedSummarizer(h, np.random.default_rng(0), counter(), params)
        out = s.summarize(SummaryRequest(h.text, 10_000, NEUTRAL, (), "L1")).text.splitlines()
        written.append(next(line for line in out if line in (*unit.renderings, unit.inverted)))
    # (the transcript's own "the payment worker will need a restart" reads as inverted too,
    # so the fact's line is graded alone)
    assert written == [unit.renderings[2], unit.inverted]
    assert [_grade(line, fact) for line in written] == [Grade.DEGRADED, Grade.INVERTED]


def test_foreign_filler_is_shortened_under_pressure() -> None:
    h = _deploy_history()
    s = SimulatedSummarizer(h, np.random.default_rng(0), counter(), SimParams())
    tight = counter().count(h.text) // 2
    out = s.summarize(SummaryRequest(h.text, tight, NEUTRAL, (), "L1")).text
    shorts = {u.renderings[1] for u in h.units if len(u.renderings) == 2}
    assert any(line in shorts for line in out.splitlines())


def test_a_line_the_world_never_wrote_can_be_shortened() -> None:
    h = _deploy_history()
    s = SimulatedSummarizer(h, np.random.default_rng(0), counter(), SimParams())
    lines = [
        "The staging cluster (eu-west) was drained overnight, so deploys wait until noon.",
        "Grafana shows the p99 climbing since Tuesday, which matches the cache change.",
        "The vendor replied that the webhook retries are capped at five, per their docs.",
    ]
    text = "\n".join(lines) + "\n"
    budget = counter().count(text) - 3  # a little short: one line is written short
    out = s.summarize(SummaryRequest(text, budget, NEUTRAL, (), "L1")).text.splitlines()
    shorts = [shorten(line) for line in lines]
    assert set(out) <= set(lines) | set(shorts)
    assert any(short in out for short in shorts)
