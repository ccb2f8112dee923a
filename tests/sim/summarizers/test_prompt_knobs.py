"""The simulated summarizer's knobs are a documented function of its prompt's features: each
feature moves its named knobs, a featureless prompt keeps the given ones, and the moves show in
what the summarizer writes."""

from __future__ import annotations

from dataclasses import fields

from hypothesis import given
from hypothesis import strategies as st

from sim.prompts.features import Feature, prompt_features
from sim.prompts.instructions import Mode
from sim.summarizers.prompt_knobs import MOVES, apply, knob_line, knobs_for
from sim.summarizers.simulated_params import RANGES, SimParams
from tests.sim.summarizers.test_simulated import NEUTRAL, ask, summarizer, world

BASE = SimParams()


def _moved(instruction: str) -> dict[str, float]:
    _, got = knobs_for(instruction, BASE)
    return {
        f.name: getattr(got, f.name)
        for f in fields(got)
        if getattr(got, f.name) != getattr(BASE, f.name)
    }


def test_a_prompt_that_asks_nothing_keeps_the_knobs() -> None:
    assert knobs_for(NEUTRAL, BASE) == (Mode.COMPRESS, BASE)


def test_each_feature_moves_its_named_knobs() -> None:
    assert _moved(NEUTRAL + "\nKeep every rule.") == {
        "abstraction_max": BASE.abstraction_max * 0.5,
        "rule_boost": 0.15,
    }
    verbatim = _moved(NEUTRAL + "\nCopy each constraint verbatim.")
    assert verbatim["abstraction_max"] == BASE.abstraction_max * 0.5 * 0.4
    assert verbatim["inversion_rate"] == BASE.inversion_rate * 0.5
    assert _moved(NEUTRAL + "\nBe concise.") == {"shorten_share": 0.6, "fill": 0.85}
    assert _moved("Rewrite the log.") == {"shorten_share": 0.2, "fill": 0.85}  # no length cap
    mode, recent = knobs_for(NEUTRAL + "\nKeep more detail about the most recent turns.", BASE)
    assert (mode, recent.recency_weight) == (Mode.RERANK, 0.3)


def test_every_move_names_a_feature_and_a_knob_in_range() -> None:
    names = {f.value for f in Feature} | {"no " + f.value for f in Feature}
    for key, knob, op, _amount in MOVES:
        assert key in names and knob in RANGES and op in ("x", "+")


@given(st.sets(st.sampled_from(list(Feature))))
def test_moved_knobs_stay_in_range(chosen: set[Feature]) -> None:
    cues = {
        Feature.KEEP_RULES: "Keep every rule.",
        Feature.KEEP_RULES_VERBATIM: "Copy the rules verbatim.",
        Feature.RULES_SECTION: "RULES:",
        Feature.PURPOSE_DIRECTED: "Write it for the next agent.",
        Feature.RANKING: "Prioritize open tasks.",
        Feature.RECENCY: "Less detail about older turns.",
        Feature.LENGTH_CAP: "At most 50 words.",
        Feature.PROGRESSIVE: "Extend the previous summary.",
        Feature.EXHAUSTIVE: "List all decisions.",
        Feature.BREVITY: "Be brief.",
    }
    feats = prompt_features("\n".join(cues[f] for f in sorted(chosen)))
    assert chosen <= feats.present
    apply(BASE, feats)  # SimParams.__post_init__ rejects a knob out of its range


def test_the_lint_line_names_the_moves() -> None:
    line = knob_line(prompt_features("Keep every rule.\nBe brief."))
    assert line.startswith("mode compress; abstraction_max x0.5 (keep_rules)")
    assert "shorten_share +0.6 (brevity)" in line


def test_brevity_shortens_filler_that_would_fit() -> None:
    h = world(subgoals=6)
    loose = 10_000
    whole = ask(summarizer(h), h.text, loose, NEUTRAL)
    brief = ask(summarizer(h), h.text, loose, NEUTRAL + "\nOne short line each.")
    assert whole == h.text
    assert len(brief) < len(whole)
    assert "Do not rotate the credential after step 4." in brief  # rules are not filler


def test_rules_section_lifts_rules_above_the_subgoals_when_re_ranking() -> None:
    h = world(subgoals=12)
    kept_plain = kept_section = 0
    for seed in range(40):
        plain = ask(summarizer(h, seed), h.text, 40, "Summarize for task continuity.")
        section = ask(
            summarizer(h, seed), h.text, 40, "Summarize for task continuity.\nRULES: each rule."
        )
        kept_plain += "rotate the credential" in plain
        kept_section += "rotate the credential" in section
    assert kept_section > kept_plain
