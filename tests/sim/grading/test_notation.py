"""Config-style notes (sim/grading/notation.py): a rule written as YAML, inline JSON or
key=value pairs is graded like the sentence it abbreviates, and prose passes untouched."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.grading.notation import as_prose, prose_lines, read_whole, structured
from sim.runtime.floor_registry import declare_fact
from sim.types import Grade
from tests.helpers import grade_one
from tests.sim.grading.declared_rules import PAYROLL, PROOFS

WORKERS = declare_fact(
    "The import pool must use 8 workers.",
    {"object": ["import pool"], "value": ["8 workers"], "setting": ["workers"]},
    fact_id="workers",
    required=["object", "value"],
)


def test_a_nested_key_carries_its_parents_names() -> None:
    text = "jobs:\n  payroll_batch:\n    schedule: nightly\n    owner: finance"
    assert prose_lines(text)[2:] == [
        "jobs payroll batch schedule: nightly",
        "jobs payroll batch owner: finance",
    ]


def test_a_list_item_is_named_by_its_id_and_a_comment_stays_with_its_key() -> None:
    text = (
        "limits:\n  - id: importer\n    retries: 3   # set by ops\n  - id: exporter\n    retries: 5"
    )
    assert prose_lines(text)[1:] == [
        "limits importer retries: 3 (set by ops)",
        "limits exporter retries: 5",
    ]


@pytest.mark.parametrize("key", ["job_name", "service-name", "model_id", "task"])
def test_a_list_item_is_named_by_any_key_that_names_it(key: str) -> None:
    text = f"queues:\n  - {key}: billing-sync\n    workers: 4\n  - {key}: audit-log\n    workers: 2"
    assert prose_lines(text)[1:] == [
        "queues billing-sync workers: 4",
        "queues audit-log workers: 2",
    ]


def test_booleans_say_whether_the_key_holds() -> None:
    assert prose_lines("flags: {reprocess_allowed: false, audit: true}") == [
        "flags: not reprocess allowed, audit"
    ]


def test_single_quotes_and_a_gate_key_read_as_words() -> None:
    assert prose_lines("payroll_batch: {reprocess: false, when: 'after step 3'}") == [
        "payroll_batch: not reprocess, when: after step 3"
    ]
    assert prose_lines("print_proofs: {send: blocked, gate: oksana_confirmation}") == [
        "print_proofs: send: blocked, gated until oksana_confirmation"
    ]


@pytest.mark.parametrize(
    "text",
    [
        "print_proofs:\n  send: blocked\n  unblock_on: oksana_confirmation",
        "pending:\n  - send_print_proofs:\n      gate: oksana_confirmation\n      status: waiting",
        "print_proofs: {send: blocked, gate: 'Oksana confirms'}",
    ],
)
def test_a_gate_in_notation_keeps_the_gate(text: str) -> None:
    assert grade_one(text, PROOFS).grade.at_floor


def test_a_key_ending_in_a_unit_gives_its_number_the_unit() -> None:
    assert prose_lines("pool:\n  drain_timeout_s: 30\n  max.retention_days: 14") == [
        "pool:",
        "pool drain timeout: 30 seconds",
        "pool max retention: 14 days",
    ]
    assert prose_lines("limits: window_ms=250 s=3") == [
        "limits: window: 250 milliseconds; limits: s: 3"
    ]


def test_pairs_are_led_by_the_text_before_them() -> None:
    assert prose_lines("pool: workers=8 queue=fifo (agreed)") == [
        "pool: workers: 8; pool: queue: fifo (agreed)"
    ]
    # words after a semicolon lead the pair after them, not the one before
    assert prose_lines(
        "run: step=3/9; ok=yes; rule: payroll batch reprocess_after_step=3 -> NO"
    ) == ["run: step: 3/9; run: ok; run: rule: payroll batch reprocess after step: 3 -> NO"]


@pytest.mark.parametrize(
    "text",
    ["The payroll batch ran at 02:00.\nNext: step 4.", "## Next\n- step 4: verify totals"],
)
def test_prose_passes_through(text: str) -> None:
    assert structured(text) is False or prose_lines(text) == text.split("\n")


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("constraints:\n  payroll_batch:\n    reprocess_after_step_3: forbidden", Grade.ACTIONABLE),
        ("rules: {payroll_batch: {reprocess_after_step: 3, allowed: false}}", Grade.ACTIONABLE),
        ("payroll batch: reprocess_after_step_3=allowed; owner=@li", Grade.INVERTED),
        ("import pool:\n  workers: 8   # fixed, do not change", Grade.ACTIONABLE),
        ("import pool: workers=8", Grade.ACTIONABLE),
        ("import pool: workers=12", Grade.INVERTED),
    ],
)
def test_a_rule_in_notation_grades_as_its_sentence(text: str, grade: Grade) -> None:
    fact = WORKERS if "pool" in text else PAYROLL
    assert grade_one(text, fact).grade is grade


ARCHIVE = declare_fact(
    "Archive the raw uploads before running the dedupe job.",
    {
        "action": ["archive"],
        "object": ["raw uploads"],
        "condition": ["before running the dedupe job", "before the dedupe job"],
    },
    fact_id="archive",
    required=["action", "object", "condition"],
)


def test_a_table_row_reads_as_one_line_per_cell_led_by_its_name() -> None:
    text = (
        "| job | state | rule |\n|---|:---:|---|\n| payroll batch | done | - |\n"
        "| ledger | open | x |"
    )
    assert prose_lines(text) == [
        "payroll batch: state done",
        "ledger: state open",
        "ledger: rule x",
    ]


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        (
            "| item | status | rule |\n|---|---|---|\n"
            "| payroll batch | ran (step 2) | no reprocessing after step 3 |\n"
            "| ledger | open | - |",
            Grade.ACTIONABLE,
        ),
        (
            "| item | rule |\n| --- | --- |\n| payroll batch | reprocess freely after step 3 |",
            Grade.INVERTED,
        ),
        ("| item | status |\n|---|---|\n| payroll batch | ran at 02:00 |", Grade.DROPPED),
    ],
)
def test_a_rule_in_a_table_grades_as_its_sentence(text: str, grade: Grade) -> None:
    assert grade_one(text, PAYROLL).grade is grade


@pytest.mark.parametrize(
    ("rows", "grade"),
    [
        (
            ["| 1 | archive the raw uploads | pending |", "| 2 | run the dedupe job | todo |"],
            Grade.ACTIONABLE,
        ),
        (
            ["| 1 | run the dedupe job | next |", "| 2 | archive the raw uploads | later |"],
            Grade.INVERTED,
        ),
    ],
)
def test_a_table_of_numbered_steps_is_a_plan(rows: list[str], grade: Grade) -> None:
    text = "\n".join(["| Step | Task | Status |", "|---|---|---|", *rows])
    assert grade_one(text, ARCHIVE).grade is grade


# Lines that take every part in `structured` and `_prose`: pairs, braces, keys that open a
# nesting and keys with values, list items named by an id, comments, indents, blank lines.
_LINES = st.sampled_from(
    [
        "rules:",
        "  payroll:",
        "    reprocess_after_step_3: forbidden",
        "  - id: payment-worker",
        "    replicas: 3  # pinned",
        "retries=3 timeout=30s",
        "-    return parse_total(items, strict=True)",
        "x == y",
        "a = b",
        '{"deploy": {"allowed": false}}',
        '{"id": 349, "resource": "reviews", "status": "ok", "took_ms": 93}',
        '{"error": "not_found", "path": "/api/orders/55"',
        "config {",
        "{",
        "  'cache': 'warm'}",
        '  "retries": 3,',
        "}",
        "key:  ",
        "Note: see below:",
        "Traceback (most recent call last):",
        "key:  # a comment",
        "key:\t",
        "  indented line",
        "\tstep two",
        "plain prose about the staging table.",
        "Do not drop the staging table before the export. # keep",
        "",
        "[05:11:27] WARN pricing: retrying",
        "### Rules",
        "| job | rule |",
        "|---|---|",
        "| payroll | never rerun = true |",
    ]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(_LINES, max_size=8))
def test_the_reading_by_line_marks_is_the_whole_texts(lines: list[str]) -> None:
    text = "\n".join(lines)
    assert as_prose(text) == read_whole(text)


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("strike_temp_c: 74", "mash strike temp: 74 °C"),
        ("max_load_kg: 40", "mash max load: 40 kg"),
        ("scan_dpi: 300", "mash scan: 300 DPI"),
    ],
)
def test_a_keys_unit_suffix_reads_as_the_unit(line: str, said: str) -> None:
    # under a key: a lone "key: value" line is prose ("Note: ..."), read as it is
    assert as_prose(f"mash:\n  {line}") == f"mash:\n{said}"


def test_a_settings_table_reads_each_setting_with_its_value() -> None:
    text = (
        "| Unit | Setting | Value | Note |\n|---|---|---|---|\n"
        "| Glaze kiln | Soak time | 20 minutes | fixed |\n| Bisque kiln | Vacuum | - | n/a |"
    )
    assert as_prose(text).split("\n") == [
        "Glaze kiln: Soak time 20 minutes",
        "Glaze kiln: Note fixed",
        "Bisque kiln: Vacuum",
    ]
    soak = declare_fact(
        "The glaze kiln must use a soak time of 20 minutes.",
        {"object": ["glaze kiln"], "setting": ["soak time"], "value": ["20 minutes"]},
        fact_id="soak",
    )
    assert grade_one(text, soak).grade >= Grade.ACTIONABLE


def test_a_records_first_field_names_it_for_the_fields_after_it() -> None:
    assert prose_lines("still=column B; reflux_ratio=4; status=running") == [
        "still: column B; column B: reflux ratio: 4; column B: status: running"
    ]
    assert prose_lines("lot=17-220 Ashgrove | release=HELD") == [
        "lot: 17-220 Ashgrove; lot 17-220 Ashgrove: release: HELD"
    ]
    # a number or a boolean is a setting's value, not a name
    assert prose_lines("replicas=3 region=eu-west-1") == ["replicas: 3; region: eu-west-1"]


def test_a_slug_in_a_records_first_field_names_it_for_the_keys_after_it() -> None:
    text = "pool:\n  cluster: import-eu\n  workers: 8\n  queue: default"
    assert prose_lines(text)[2:] == [
        "pool cluster import-eu workers: 8",
        "pool cluster import-eu queue: default",
    ]
    # a word or a number in the first field names nothing
    assert prose_lines("pool:\n  state: blocked\n  workers: 8")[2:] == ["pool workers: 8"]


def test_a_task_field_names_its_record_for_the_keys_after_it() -> None:
    text = "job_spec:\n  task: distillation (batch 4)\n  reflux_ratio: 4\n  cooling: on"
    assert prose_lines(text)[2:] == [
        "job spec distillation reflux ratio: 4",
        "job spec distillation cooling",
    ]


STILL = declare_fact(
    "The distillation column must use a reflux ratio of 4.",
    {"object": ["distillation column", "column"], "setting": ["reflux ratio"], "value": ["4"]},
    fact_id="still",
)


def test_a_field_of_a_named_record_keeps_its_pin() -> None:
    text = "run_spec:\n  task: distillation column\n  reflux_ratio: 4   # pinned\n  feed: tray 12"
    assert grade_one(text, STILL).grade is Grade.ACTIONABLE


PUBLISH = declare_fact(
    "Do not publish the quarterly filing until Ines confirms.",
    {"action": ["publish"], "object": ["quarterly filing"], "condition": ["Ines confirms"]},
    fact_id="publish",
    cls="confirmation",
)


@pytest.mark.parametrize(
    ("cell", "grade"),
    [
        ("Ines confirms", Grade.ACTIONABLE),
        ("none, go ahead", Grade.INVERTED),
        ("no gate", Grade.INVERTED),
    ],
)
def test_a_gate_column_names_what_the_act_waits_for(cell: str, grade: Grade) -> None:
    """A column headed "gate" says what its row's act waits for; "none" there lifts it."""
    text = f"| task | gate |\n|---|---|\n| publish quarterly filing | {cell} |"
    assert grade_one(text, PUBLISH).grade is grade
