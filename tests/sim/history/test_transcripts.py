"""Real transcripts as L0: each format's import, malformed lines reported with their line
number, planted and declared facts, and a whole trial run over an imported transcript."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.engine.ladder import run_trial
from sim.errors import UserError
from sim.history.generate import Placement
from sim.history.transcript_history import transcript_history
from sim.history.transcripts import TranscriptError, load_transcript, parse_transcript
from sim.runtime.floor_registry import declare_fact, load_floor_registry
from sim.runtime.validity import check_messages
from sim.seeds import rng_for
from sim.summarizers.simulated import SimulatedSummarizer
from sim.types import Fact, Ladder, LevelSpec, TrialRecord, UnitKind
from strategies import create_strategy
from tests.helpers import counter, note_fact

REPO = Path(__file__).resolve().parents[3]
EXAMPLES = REPO / "examples" / "transcripts"
FIXTURES = REPO / "tests" / "fixtures" / "transcripts"


def test_openai_jsonl_one_message_per_line_with_tool_calls() -> None:
    t = load_transcript(EXAMPLES / "deploy_openai.jsonl")
    assert (t.format, t.api, len(t.turns), t.sessions) == ("openai", "openai", 15, ("",))
    assert [t.turns[i].role for i in range(4)] == ["system", "user", "assistant", "tool"]
    assert t.turns[2].lines == (
        "Running the checkout tests first.",
        'call run_tests({"parallel": 4, "suite": "checkout"}) [call_tests_1]',
    )
    assert t.turns[3].lines == ("result [call_tests_1]: 212 passed, 3 skipped in 48.2s",)
    assert t.turns[8].line_no == 9
    assert check_messages(t.messages, api="openai", counter=counter()) == ()


def test_openai_json_document_and_conversation_per_line_jsonl() -> None:
    doc = load_transcript(FIXTURES / "short_openai.json")
    assert [t.role for t in doc.turns] == ["system", "user", "assistant", "tool", "assistant"]
    assert doc.turns[1].lines == ("How big is the orders table?",)
    conversations = load_transcript(FIXTURES / "conversations_openai.jsonl")
    assert conversations.sessions == ("conversation-1", "conversation-2")
    assert [t.session for t in conversations.turns] == ["conversation-1"] * 2 + [
        "conversation-2"
    ] * 2


def test_claude_code_session_jsonl() -> None:
    t = load_transcript(EXAMPLES / "migration_claude.jsonl")
    assert (t.format, t.api) == ("claude", "anthropic")
    assert t.sessions == ("sess-orders-1", "sess-orders-2")
    # the summary and file-history-snapshot lines are bookkeeping, not turns
    assert len(t.turns) == 12
    # one API message written as two lines (same message id) is one turn and one message
    assert t.turns[1].role == "assistant"
    assert t.turns[1].lines == (
        "I will look at the current schema and the pending migrations first.",
        'call Bash({"command": "ls migrations/ | tail -3"}) [toolu_01]',
    )
    assert t.turns[1].line_no == 3
    assert t.turns[2].role == "tool"
    assert t.turns[2].lines[0] == "result [toolu_01]: 0041_add_coupon_index.sql"
    assert check_messages(t.messages, api="anthropic", counter=counter()) == ()


def test_plain_text_speakers_and_session_breaks() -> None:
    t = load_transcript(EXAMPLES / "oncall.txt")
    assert t.format == "text" and t.sessions == ("session-1", "session-2")
    assert [x.role for x in t.turns[:5]] == ["system", "system", "user", "assistant", "tool"]
    assert t.turns[1].lines == (
        "Do not scale down the analytics cluster before the quarterly report is exported.",
    )
    assert t.turns[9].session == "session-2" and t.turns[9].line_no == 12


def test_plain_text_without_speakers_splits_on_blank_lines() -> None:
    t = load_transcript(FIXTURES / "paragraphs.txt")
    assert [x.lines for x in t.turns] == [
        ("The release is blocked on the flaky payment test.",),
        (
            "We agreed to quarantine it and ship on Thursday.",
            "Do not deploy the billing service on Friday.",
        ),
        ("Next step: write the quarantine note.",),
    ]
    assert [x.line_no for x in t.turns] == [1, 3, 6]


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("bad_json_line.jsonl", r"bad_json_line.jsonl:3: not valid JSON"),
        ("missing_role.jsonl", r"missing_role.jsonl:2: a message must be an object with a str"),
        ("tool_without_id.jsonl", r"tool_without_id.jsonl:3: a tool message needs a string"),
        ("mixed_openai.jsonl", r"mixed_openai.jsonl:2: mixes one-message lines"),
        ("bad_claude_line.jsonl", r"bad_claude_line.jsonl:4: a user/assistant line needs a"),
    ],
)
def test_malformed_lines_are_one_line_errors_with_the_line_number(name: str, message: str) -> None:
    with pytest.raises(TranscriptError, match=message) as info:
        load_transcript(FIXTURES / name)
    assert "\n" not in str(info.value)


def test_malformed_json_document_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('[\n  {"role": "user", "content": "hi"},\n  {"role": "assistant",\n]\n')
    with pytest.raises(TranscriptError, match=r"broken.json:4: not valid JSON"):
        load_transcript(path)
    with pytest.raises(TranscriptError, match=r"messages\[0\]: content must be a string"):
        parse_transcript('[{"role": "user", "content": 5}]', "openai", jsonl=False)
    with pytest.raises(TranscriptError, match="no conversation turns"):
        parse_transcript("\n\n", "text")


def test_claude_lines_are_not_mistaken_for_openai_and_format_can_be_forced(tmp_path: Path) -> None:
    path = tmp_path / "session.jsonl"
    path.write_text((EXAMPLES / "migration_claude.jsonl").read_text())
    assert load_transcript(path).format == "claude"
    with pytest.raises(TranscriptError, match=r"session.jsonl:1: a message must be an object"):
        load_transcript(path, "openai")


# --- as L0 -------------------------------------------------------------------------------


def _declared() -> list[Fact]:
    return list(load_floor_registry(REPO / "examples" / "floors.toml").facts)


def test_declared_facts_are_found_where_the_transcript_states_them() -> None:
    t = load_transcript(EXAMPLES / "deploy_openai.jsonl")
    history = transcript_history(t, counter(), declare=_declared())
    by_id = {f.fact_id: f for f in history.facts}
    assert by_id["no-force-push"].turn == 1 and by_id["payment-restart-needs-yes"].turn == 2
    assert 0 < by_id["no-force-push"].depth < by_id["payment-restart-needs-yes"].depth < 0.2
    holders = [u for u in history.units if u.fact_id]
    assert [(u.kind, u.renderings[0]) for u in holders] == [
        (UnitKind.CONSTRAINT, "Never force-push to the main branch."),
        (UnitKind.CONSTRAINT, "Do not restart the payment worker until the on-call lead says yes."),
    ]
    # each gets a ladder derived from its anchors (sim.history.foreign; tests/.../test_foreign.py)
    assert all(len(u.renderings) == 3 and u.inverted for u in holders)
    assert history.text.startswith("### turn 1 · system\nYou are the release assistant")


def test_two_declared_facts_may_share_one_transcript_line(tmp_path: Path) -> None:
    path = tmp_path / "s.txt"
    path.write_text(
        "user: Hi.\n"
        "user: Never force-push to main, and do not restart the payment worker before step 3.\n"
        "assistant: Understood.\n",
        encoding="utf-8",
    )
    push = declare_fact(
        "Never force-push to main.", {"action": ["force-push"], "object": ["main"]}, fact_id="a"
    )
    restart = declare_fact(
        "Do not restart the payment worker before step 3.",
        {"action": ["restart"], "object": ["payment worker"], "condition": ["before step 3"]},
        fact_id="b",
    )
    history = transcript_history(load_transcript(path), counter(), declare=[push, restart])
    by_id = {f.fact_id: f for f in history.facts}
    assert by_id["a"].turn == by_id["b"].turn and by_id["a"].depth == by_id["b"].depth
    assert [f.fact_id for f in history.facts] == ["a", "b"]


def test_planted_facts_go_to_the_user_turn_nearest_their_depth() -> None:
    t = load_transcript(EXAMPLES / "oncall.txt")
    shallow = Placement(note_fact("early"), depth=0.0)
    deep = Placement(note_fact("late", step=7), depth=0.95)
    chosen = Placement(note_fact("chosen", step=2), turn=5)
    history = transcript_history(t, counter(), plant=[shallow, deep, chosen])
    by_id = {f.fact_id: f for f in history.facts}
    assert history.turns[by_id["early"].turn - 1].role == "user"
    assert history.turns[by_id["late"].turn - 1].role == "user"
    assert by_id["early"].depth < by_id["late"].depth
    assert by_id["chosen"].turn == 5
    assert "### session 2 · session-2" in history.text
    planted = next(u for u in history.units if u.fact_id == "late")
    assert len(planted.renderings) == 3 and planted.inverted  # a class template's full ladder


def test_facts_the_transcript_does_not_carry_are_errors() -> None:
    t = load_transcript(EXAMPLES / "oncall.txt")
    absent = declare_fact(
        "Never force-push to the main branch.",
        {"action": ["force-push"], "object": ["main branch"]},
        fact_id="absent",
    )
    with pytest.raises(UserError, match=r"oncall.txt: fact 'absent': no line of the transcript"):
        transcript_history(t, counter(), declare=[absent])
    with pytest.raises(UserError, match=r"turn=40 is outside 1..13"):
        transcript_history(t, counter(), plant=[Placement(note_fact(), turn=40)])


LADDER = Ladder((LevelSpec("L1", 260, 3), LevelSpec("L2", 96, 0)))


def _trial(strategy: str, seed: int = 0) -> TrialRecord:
    t = load_transcript(EXAMPLES / "deploy_openai.jsonl")
    history = transcript_history(
        t, counter(), plant=[Placement(note_fact("planted"), depth=0.6)], declare=_declared()
    )
    summarizer = SimulatedSummarizer(history, rng_for(seed, 0, strategy), counter())
    return run_trial(
        history,
        LADDER,
        create_strategy(strategy),
        summarizer,
        counter(),
        trial_id=f"{seed}:{strategy}",
        seed=seed,
    )


def test_ladders_and_strategies_run_over_an_imported_transcript() -> None:
    tail = _trial("tail")
    fate = {o.fact_id: (o.lost, o.blame_level, o.exposure) for o in tail.outcomes}
    # tail never reads the opening turns: the system rule is lost at L1 without being read
    assert fate["no-force-push"] == (True, "L1", "never_read")
    assert tail.silent
    for seed in range(3):
        gated = _trial("floor_gated", seed)
        assert not gated.silent
        kept = _trial("keep_all", seed)
        assert not kept.collapsed
