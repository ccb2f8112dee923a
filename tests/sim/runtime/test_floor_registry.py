"""Declaring facts for the runtime gate: the Python helper and the TOML registry file, with
one-line errors that name the file, the fact and the field."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from sim.runtime.floor_registry import (
    FloorRegistryError,
    declare_fact,
    load_floor_registry,
    parse_registry,
)
from sim.types import Grade, Polarity
from tests.helpers import grade_one

REPO = Path(__file__).resolve().parents[3]
RULE = "Do not rotate the credential after step 4."
ANCHORS = {
    "action": ["rotate", "rotation"],
    "object": ["credential"],
    "condition": ["after step 4"],
}


def test_declared_fact_grades_verbatim_against_its_own_text_and_infers_polarity() -> None:
    fact = declare_fact(RULE, ANCHORS, fact_id="f1", opposites={"condition": ["before step 4"]})
    assert fact.polarity is Polarity.FORBID
    assert fact.floor.required == ("action", "object", "condition")
    assert grade_one(RULE + "\n", fact).grade is Grade.VERBATIM
    assert grade_one("Credential rotation deferred.\n", fact).grade is Grade.DEGRADED
    assert grade_one("Rotate the credential before step 4.\n", fact).grade is Grade.INVERTED
    require = declare_fact(
        "Use region eu-west-1 for new buckets.",
        {"action": ["use"], "object": ["new buckets"], "value": ["eu-west-1"]},
        fact_id="f2",
        required=["object", "value"],
    )
    assert require.polarity is Polarity.REQUIRE and require.floor.required == ("object", "value")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"anchors": {"action": ["rotate"]}}, "needs an 'object' group|need an 'object' group"),
        ({"anchors": {**ANCHORS, "condition": ["after step 5"]}}, "anchors.condition=.*no form"),
        ({"anchors": {**ANCHORS, "action": []}}, "anchors.action: expected a non-empty list"),
        ({"anchors": {**ANCHORS, "action": [":"]}}, "anchors.action: ':' holds no word"),
        ({"opposites": {"condition": ["after step 4"]}}, "occurs in the fact's own text"),
        ({"opposites": {"value": ["x"]}}, "opposites.value: no anchor group"),
        ({"required": ["value"]}, "floor.required: 'value' is not an anchor group"),
        ({"polarity": "require"}, "polarity='require' but the text reads as 'forbid'"),
        ({"polarity": "maybe"}, "polarity='maybe' must be"),
        ({"min_span_tokens": 50}, "grades degraded against its own floor"),
        ({"min_span_tokens": -1}, "min_span_tokens=-1 must be >= 0"),
        ({"text": "Do not rotate the credential.\nAfter step 4."}, "must be one non-empty line"),
        ({"fact_id": " "}, "id=' ' must be a non-empty string"),
    ],
)
def test_bad_declarations_name_the_fact_and_field(kwargs: dict[str, Any], message: str) -> None:
    args: dict[str, Any] = {"text": RULE, "anchors": ANCHORS, "fact_id": "f1", **kwargs}
    text, anchors = args.pop("text"), args.pop("anchors")
    with pytest.raises(FloorRegistryError, match=message):
        declare_fact(text, anchors, **args)


def test_a_fact_may_span_two_sentences_that_read_as_one() -> None:
    """A rule split over two sentences, the second referring back, declares and grades."""
    text = "Dropping the staging table is forbidden. That holds until the export is done."
    fact = declare_fact(
        text,
        {"action": ["drop"], "object": ["staging table"], "condition": ["until the export"]},
        fact_id="split",
    )
    assert fact.polarity is Polarity.FORBID
    assert grade_one(
        "Dropping the staging table is forbidden. That holds until the export is done.", fact
    ).grade.at_floor
    assert not grade_one("Dropping the staging table is forbidden.", fact).grade.at_floor


def test_anchors_match_inflected_forms_of_the_text() -> None:
    """An anchor written in its base form finds the text's plural or participle."""
    fact = declare_fact(
        "All admin consoles must stay on port 8443.",
        {"object": ["admin console"], "value": ["8443"]},
        fact_id="pin",
        required=["object", "value"],
    )
    assert grade_one("The admin console listens on 8443.", fact).grade.at_floor
    dropped = declare_fact(
        "The staging tables must not be dropped before the export.",
        {"action": ["drop"], "object": ["staging table"], "condition": ["before the export"]},
        fact_id="drop",
    )
    assert grade_one("Never drop a staging table before the export.", dropped).grade.at_floor


def test_the_shipped_example_registry_loads() -> None:
    registry = load_floor_registry(REPO / "examples" / "floors.toml")
    assert [f.fact_id for f in registry.facts] == ["no-force-push", "payment-restart-needs-yes"]
    assert registry.budget("L2") == 48
    # the class floor applies to facts of that class, the default floor to the others
    assert registry.facts[1].floor.min_span_tokens == 4
    assert registry.facts[0].floor.required == ("action", "object")
    with pytest.raises(FloorRegistryError, match="budgets: no level 'L9'"):
        registry.budget("L9")


GOOD = """
version = 1
[classes.prohibition]
min_span_tokens = 5
[[fact]]
id = "f1"
class = "prohibition"
text = "Do not rotate the credential after step 4."
anchors = { action = ["rotate"], object = ["credential"], condition = ["after step 4"] }
floor = { min_span_tokens = 6 }
"""


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "floors.toml"
    path.write_text(text)
    return path


def test_a_fact_floor_overrides_its_class_floor(tmp_path: Path) -> None:
    registry = load_floor_registry(_write(tmp_path, GOOD))
    assert registry.facts[0].floor.min_span_tokens == 6
    assert registry.facts[0].cls == "prohibition"


ONE_FACT = "[[fact]]\nid = 'f1'\ntext = 'Never force-push to the main branch.'\n"
DUPLICATE = GOOD + "[[fact]]" + GOOD.split("[[fact]]")[1]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("version = 1\n[[fact]\n", r"floors.toml: invalid TOML: .*line 2"),
        ("version = 2\n", "version=2: this harness reads version 1"),
        ("colour = 'red'\n", "unknown key 'colour'; valid: version"),
        ("[budgets]\nL1 = 0\n", r"budgets.L1=0 must be an int > 0"),
        (ONE_FACT, r"fact\[0\] \(id 'f1'\): missing required key 'anchors'"),
        (GOOD.replace('id = "f1"', 'id = "f1"\ncolor = 1'), r"\(id 'f1'\): unknown key 'color'"),
        (GOOD.replace('step 4"]', 'step 9"]'), r"fact\[0\]: fact 'f1': anchors.condition"),
        (DUPLICATE, "id 'f1' is declared twice"),
        (GOOD.replace("min_span_tokens = 6", "min_tokens = 6"), "unknown key 'min_tokens'"),
    ],
)
def test_bad_registry_files_are_one_line_errors(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(FloorRegistryError, match=message) as info:
        load_floor_registry(_write(tmp_path, text))
    assert "\n" not in str(info.value)
    assert str(info.value).startswith(str(tmp_path / "floors.toml"))


def test_a_missing_registry_file_is_a_user_error(tmp_path: Path) -> None:
    with pytest.raises(FloorRegistryError, match="cannot read floor registry"):
        load_floor_registry(tmp_path / "nope.toml")


def test_the_documented_registry_sample_loads() -> None:
    page = (REPO / "docs" / "floor-gate.md").read_text()
    sample = page.split("**1. Declare the facts", 1)[1].split("```toml\n", 1)[1].split("```")[0]
    registry = parse_registry(tomllib.loads(sample), "docs/floor-gate.md")
    assert [f.fact_id for f in registry.facts] == ["payment-restart-needs-yes"]
    assert registry.facts[0].floor.min_span_tokens == 4


@pytest.mark.parametrize(
    ("text", "anchors"),
    [
        (
            "The randomization must use a block size of 6.",
            {"setting": ["block size"], "object": ["randomization"], "value": ["6"]},
        ),
        (
            "The no-reply inbox must use the shared signature.",
            {"object": ["no-reply inbox"], "value": ["shared signature"]},
        ),
    ],
)
def test_a_cue_word_inside_a_name_is_no_restriction(
    text: str, anchors: dict[str, list[str]]
) -> None:
    fact = declare_fact(text, anchors, fact_id="named")  # raised "grades inverted" before
    assert fact.polarity is Polarity.REQUIRE


def test_a_rule_stated_as_an_exclusive_permission_declares_and_grades() -> None:
    # refused before as "grades inverted against its own floor": its condition's "after" was
    # read as where the act is forbidden
    fact = declare_fact(
        "Only deploy the API after the tests pass.",
        {"action": ["deploy"], "object": ["API"], "condition": ["after the tests pass"]},
        fact_id="gate",
    )
    assert fact.polarity is Polarity.FORBID
    graded = {
        text: grade_one(text, fact).grade
        for text in (
            "Deploy the API only once the tests pass.",
            "Don't deploy the API before the tests pass.",
            "Deploy the API before the tests pass.",
        )
    }
    assert list(graded.values()) == [Grade.ACTIONABLE, Grade.ACTIONABLE, Grade.INVERTED]


@pytest.mark.parametrize(
    ("text", "action", "obj", "reversed_text"),
    [
        ("Do not lift the boil-water advisory after step 3.", "lift", "boil-water advisory",
         "Lift the boil-water advisory after step 3."),
        ("Do not waive the late fee after step 3.", "waive", "late fee",
         "The late fee can be waived after step 3."),
        ("Do not pause the ingest worker after step 3.", "pause", "ingest worker",
         "Pause the ingest worker after step 3."),
        ("Do not hold the outbound shipment after step 3.", "hold", "outbound shipment",
         "Hold the outbound shipment after step 3."),
    ],
)  # fmt: skip
def test_a_rule_whose_own_verb_is_a_cue_declares_and_grades(
    text: str, action: str, obj: str, reversed_text: str
) -> None:
    # "lift" and "waive" revoke, "pause" and "hold" defer: as the rule's own act they are
    # neither ("do not lift ..." was refused as grading inverted against its own text, and
    # "Pause the ingest worker after step 3." was read as keeping the ban)
    fact = declare_fact(
        text, {"action": [action], "object": [obj], "condition": ["after step 3"]}, fact_id="verb"
    )
    assert fact.polarity is Polarity.FORBID
    assert grade_one(reversed_text, fact).grade is Grade.INVERTED


def test_an_opposite_on_the_rules_own_side_states_the_condition(tmp_path: Path) -> None:
    # "without Okafor's confirmation" is declared as the opposite of "until Okafor confirms",
    # but both are before the yes: filing without it reverses the rule, and was read as kept
    registry = load_floor_registry(
        _write(
            tmp_path,
            """
version = 1
[[fact]]
id = "brief"
class = "confirmation"
text = "Do not file the appeal brief until Okafor confirms."
[fact.anchors]
action = ["file"]
object = ["appeal brief"]
condition = ["until Okafor confirms", "Okafor confirms"]
[fact.opposites]
condition = ["without Okafor's confirmation"]
""",
        )
    )
    (fact,) = registry.facts
    assert grade_one("File the appeal brief now, without Okafor's confirmation.", fact).grade is (
        Grade.INVERTED
    )
    assert grade_one("Never file the appeal brief without Okafor's confirmation.", fact).grade is (
        Grade.ACTIONABLE
    )


def test_a_bound_word_inside_a_setting_is_a_name() -> None:
    # "max" in "max stop count" was read as a bound beside the value, and the registry refused
    # the rule as degraded against its own text
    fact = declare_fact(
        "The dispatch optimizer must use a max stop count of 18.",
        {"setting": ["max stop count"], "object": ["dispatch optimizer"], "value": ["18"]},
        fact_id="stops",
        cls="value_pin",
    )
    assert grade_one("Dispatch optimizer: max stop count 18.", fact).grade.at_floor


def test_a_pin_held_at_a_value_requires_it() -> None:
    # "hold" defers an act; a value pin's "must hold a salinity of 32 ppt" keeps a value
    fact = declare_fact(
        "The oyster depuration tanks must hold a salinity of 32 ppt.",
        {"object": ["oyster depuration tanks"], "setting": ["salinity"], "value": ["32 ppt"]},
        fact_id="salinity",
        cls="value_pin",
    )
    assert fact.polarity is Polarity.REQUIRE
    assert grade_one("Oyster depuration tanks: salinity 28 ppt.", fact).grade is Grade.INVERTED


def test_the_words_a_rule_names_its_object_by_are_its_own() -> None:
    # "PagerDuty" before the shorter form "escalation policy" was read as another kind of
    # policy, so the rule graded dropped against itself and could not be declared
    fact = declare_fact(
        "Wait for Ines's approval before editing the payments-primary PagerDuty escalation policy.",
        {
            "action": ["edit", "editing"],
            "object": ["payments-primary escalation policy", "escalation policy"],
            "condition": ["Ines's approval", "Ines approves"],
        },
        fact_id="paging",
        cls="confirmation",
    )
    other = (
        "Wait for Ines's approval before editing the search-primary PagerDuty escalation policy."
    )
    assert grade_one(fact.text, fact).grade.at_floor
    assert not grade_one(other, fact).grade.at_floor


def test_a_case_about_pending_things_is_no_wait() -> None:
    # "pending pods" are pods that wait: the case, not a hold on the act; the rule could not
    # be declared (graded inverted against itself)
    fact = declare_fact(
        "If pending pods are above 200, do not consolidate the batch-spot provisioner.",
        {
            "action": ["consolidate"],
            "object": ["batch-spot provisioner", "provisioner"],
            "condition": ["above 200", "over 200"],
        },
        fact_id="consolidate",
        cls="conditional",
    )
    assert grade_one(fact.text, fact).grade.at_floor
    assert not grade_one(
        "Consolidate the batch-spot provisioner even if pending pods are above 200.", fact
    ).grade.at_floor
