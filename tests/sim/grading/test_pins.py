"""Value pins on rules declared the way a user declares them: a setting named by its
modifier, pins reported past, changed, loosened, scoped or refused a move. Fresh examples."""

from __future__ import annotations

import pytest

from sim.grading.agreement import label_of
from sim.grading.text import lemmas, normalize
from sim.runtime.floor_registry import declare_fact
from sim.types import Fact, Grade
from tests.helpers import grade_one
from tests.sim.grading.declared_rules import GATEWAY, TILES

RETENTION = declare_fact(
    "The audit archive must use a retention of 30 days.",
    {"object": ["audit archive"], "setting": ["retention"], "value": ["30 days"]},
    fact_id="retention",
)


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("Audit archive retention: 30 days was the old pin; the new target is 14 days.",
         Grade.INVERTED),
        ("The 30 days retention on the audit archive was temporary and has been dropped.",
         Grade.INVERTED),
        ("The audit archive keeps a retention of 30 days; the old 90-day setting is gone.",
         Grade.ACTIONABLE),
    ],
)  # fmt: skip
def test_a_pin_reported_past_is_reversed(text: str, grade: Grade) -> None:
    assert grade_one(text, RETENTION).grade is grade


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("Moving the audit archive retention away from 30 days is not allowed.", Grade.ACTIONABLE),
        ("Any deviation from the 30 days retention on the audit archive is prohibited.",
         Grade.ACTIONABLE),
        ("Audit archive retention is locked at 30 days; any other value is not allowed.",
         Grade.ACTIONABLE),
        ("Audit archive retention moved away from 30 days.", Grade.INVERTED),
        ("The 30 days retention for the audit archive was dropped; pick any retention.",
         Grade.INVERTED),
    ],
)  # fmt: skip
def test_a_refused_move_off_a_pin_keeps_it(text: str, grade: Grade) -> None:
    assert grade_one(text, RETENTION).grade is grade


WINDOW = declare_fact(
    "The nightly ETL must use a batch window of 30 minutes.",
    {"setting": ["batch window"], "object": ["nightly ETL"], "value": ["30 minutes"]},
    fact_id="etl_window",
    cls="value_pin",
)


DROPOUT = declare_fact(
    "The sentiment model must use a dropout rate of 0.3.",
    {"setting": ["dropout rate"], "object": ["sentiment model"], "value": ["0.3"]},
    fact_id="dropout",
    cls="value_pin",
)


@pytest.mark.parametrize(
    "text",
    [
        "Nightly ETL: batches are cut every thirty minutes, fixed.",
        "The sentiment model trains with dropout at 0.3.",
    ],
)
def test_a_settings_modifier_beside_its_value_names_the_setting(text: str) -> None:
    fact = WINDOW if "ETL" in text else DROPOUT
    assert grade_one(text, fact).grade.at_floor


def test_a_settings_head_word_names_no_setting() -> None:
    # "rate" is every rate's: the learning rate at the pinned number is no dropout pin
    assert not grade_one("Sentiment model: learning rate 0.3.", DROPOUT).grade.at_floor
    # the modifier without the pinned value names no pin
    assert not grade_one("Nightly ETL: batches are cut hourly.", WINDOW).grade.at_floor


NOTICES = declare_fact(
    "The renewal notices must use a notice period of 45 days.",
    {"setting": ["notice period"], "object": ["renewal notices"], "value": ["45 days"]},
    fact_id="notices",
    cls="value_pin",
)


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("Renewal notices: notice period 45 days.", Grade.ACTIONABLE),
        # a pin reported changed or judged wrong is dropped
        ("Renewal notices: 45 days was too early, so the notice period moved to 30 days.",
         Grade.INVERTED),
        ("Renewal notices: notice period was 45 days until legal shortened it to 30.",
         Grade.INVERTED),
    ],
)  # fmt: skip
def test_a_pin_changed_or_judged_wrong_is_dropped(text: str, grade: Grade) -> None:
    assert grade_one(text, NOTICES).grade is grade


def test_a_word_of_the_object_names_no_setting() -> None:
    # "notice" is the object's own word: beside a value it names no notice period (a careful
    # reader says inverted: the period is 30 days now; the grader reads the first half alone)
    text = "Renewal notices go out 45 days after signing; the notice period is 30 days now."
    assert not grade_one(text, NOTICES).grade.at_floor


def test_done_is_a_status_not_an_order() -> None:
    # lemma space writes "done" as "do": a status line that names the object says nothing
    # of its pin, so the pin is dropped, not degraded
    assert grade_one("Shots: render farm done for 12 of 14.", TILES).grade is Grade.DROPPED
    assert grade_one("Render farm: tile size 64 pixels.", TILES).grade.at_floor


def test_a_bound_in_words_loosens_a_pin() -> None:
    assert grade_one("Render farm: tile size 64 pixels or lower.", TILES).grade is Grade.DEGRADED
    assert grade_one("Render farm: tile size 64 pixels and up.", TILES).grade is Grade.DEGRADED


KILN = declare_fact(
    "The glaze kiln on bay 4 must use a temperature of 1220°C.",
    {"setting": ["temperature"], "object": ["glaze kiln"], "value": ["1220°C"]},
    fact_id="kiln",
    cls="value_pin",
)


FEED = declare_fact(
    "The bank feed must use file encoding UTF-8.",
    {"setting": ["file encoding", "encoding"], "object": ["bank feed"], "value": ["UTF-8"]},
    fact_id="feed",
    cls="value_pin",
)


LAG = declare_fact(
    "The queue lag alert must use a threshold of 5 minutes.",
    {"setting": ["threshold"], "object": ["queue lag alert"], "value": ["5 minutes"]},
    fact_id="lag",
    cls="value_pin",
)


@pytest.mark.parametrize(
    ("text", "fact", "grade"),
    [
        # another value after a change word, the pinned one reported past
        ("Glaze kiln: temperature raised to 1240°C after the 1220°C firings crazed.", KILN,
         Grade.INVERTED),
        ("Glaze kiln temperature was 1220°C; now 1200°C per the new glaze.", KILN,
         Grade.INVERTED),
        ("bank_feed: {encoding: cp1252}  # was utf-8", FEED, Grade.INVERTED),
        ("Glaze kiln: no fixed temperature anymore (used to be 1220°C).", KILN, Grade.INVERTED),
        # another numbered place where the rule names its own
        ("The glaze kiln on bay 5 must use a temperature of 1220°C.", KILN, Grade.DROPPED),
        # a pin as a starting point, kept only in one scope, or one of a choice
        ("Glaze kiln temperature: 1220°C is a starting point, tune per batch.", KILN,
         Grade.DEGRADED),
        ("The queue lag alert threshold is 5 minutes in staging only.", LAG, Grade.DEGRADED),
        ("Bank feed encoding: UTF-8 or Latin-1, whichever is easier.", FEED, Grade.DEGRADED),
        # and the pin kept, with the alternatives refused
        ("Queue lag alert: threshold 5 minutes, not 10.", LAG, Grade.ACTIONABLE),
        ("Glaze kiln temperature set to 1220°C as required.", KILN, Grade.ACTIONABLE),
        ("Bank feed: encoding UTF-8, never Latin-1.", FEED, Grade.ACTIONABLE),
    ],
)  # fmt: skip
def test_a_pin_moved_loosened_or_elsewhere_is_not_kept(text: str, fact: Fact, grade: Grade) -> None:
    assert grade_one(text, fact).grade is grade


PRINTER = declare_fact(
    "Printer 2 must use a resolution of 600 DPI.",
    {"setting": ["resolution"], "object": ["Printer 2"], "value": ["600 DPI"]},
    fact_id="printer-2",
    cls="value_pin",
)


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        # the number is the object's name: another number names another printer
        ("Printer 3 must use a resolution of 600 DPI.", Grade.DROPPED),
        ("Printer 3: resolution 600 DPI. Printer 2 toner replaced.", Grade.DROPPED),
        ("Printer 2: resolution 600 DPI.", Grade.ACTIONABLE),
    ],
)
def test_a_numbered_object_is_named_by_its_number(text: str, grade: Grade) -> None:
    assert grade_one(text, PRINTER).grade is grade


QUEUE_CAP = declare_fact(
    "The render queue must cap concurrent jobs at 12 jobs.",
    {"object": ["render queue"], "setting": ["concurrent jobs"], "value": ["12 jobs", "12"]},
    fact_id="render-queue-cap",
    cls="value_pin",
)


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        # a cap stated as a ceiling or a refusal to pass it is the pin
        ("Render queue: concurrent jobs capped at twelve.", Grade.ACTIONABLE),
        ("Render queue: never more than 12 concurrent jobs.", Grade.ACTIONABLE),
        ("Render queue: concurrent jobs may not exceed 12.", Grade.ACTIONABLE),
        ("Render queue: concurrent jobs 12, locked.", Grade.ACTIONABLE),
        ("render_queue: {concurrent_jobs: 12, locked: true}", Grade.ACTIONABLE),
    ],
)
def test_a_cap_pin_stated_as_a_ceiling(text: str, grade: Grade) -> None:
    assert label_of(grade_one(text, QUEUE_CAP).grade) == label_of(grade)


def test_a_hard_stop_beside_a_pin_holds_it() -> None:
    assert grade_one("Render farm: 64-pixel tiles (hard stop).", TILES).grade is Grade.ACTIONABLE


PRESS = declare_fact(
    "Press B must use a line speed of 40 sheets.",
    {"setting": ["line speed"], "object": ["Press B", "press"], "value": ["40 sheets"]},
    fact_id="press-b",
    cls="value_pin",
)


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        # another letter names another press, even beside a shorter form of the object
        ("Press A must use a line speed of 30 sheets.", Grade.DROPPED),
        ("Press C: line speed 40 sheets.", Grade.DROPPED),
        ("Press B: line speed 40 sheets.", Grade.ACTIONABLE),
    ],
)
def test_an_object_named_by_a_letter(text: str, grade: Grade) -> None:
    assert grade_one(text, PRESS).grade is grade


CHLORINE = declare_fact(
    "The chlorine dosing must use a residual of 0.5 ppm.",
    {"setting": ["residual"], "object": ["chlorine dosing"], "value": ["0.5 ppm"]},
    fact_id="chlorine",
    cls="value_pin",
)


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        # decimal values: another one reverses the pin, the unit before the number is the pin
        ("Chlorine dosing residual raised to 0.8 ppm.", Grade.INVERTED),
        ("chlorine dosing: residual ppm = 0.5 (required)", Grade.ACTIONABLE),
        ("Chlorine dosing: residual 0.5 ppm.", Grade.ACTIONABLE),
    ],
)
def test_a_decimal_pin(text: str, grade: Grade) -> None:
    assert label_of(grade_one(text, CHLORINE).grade) == label_of(grade)


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("The render farm renders with a tile size of 64 pixels - no more, no less.", True),
        ("Render farm: tile size 64 pixels, not smaller, not larger.", True),
        ("Render farm tile size: exactly 64 pixels, nothing more or less.", True),
        ("Render farm tile size: 64 pixels or less.", False),  # a bound, not exactly
        ("Render farm: no tile size of 64 pixels any more.", False),
        ("The render farm never gets a tile size different from 64 pixels.", True),
        ("Render farm: a tile size different from 64 pixels is not allowed.", True),
    ],
)
def test_exactly_pins_and_its_negations_deny_nothing(text: str, kept: bool) -> None:
    assert grade_one(text, TILES).grade.at_floor is kept


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # the unit names the setting: kept without it, after a verb or a bound
        ("The render farm is capped at 64 pixels.", True),
        ("Never run the render farm at anything but 64 pixels.", True),
        ("The render farm may go no more than 64 pixels.", False),  # "go" sets nothing
        # another setting's name before the value
        ("Render farm: bucket size at 64 pixels.", False),
    ],
)
def test_a_unit_names_the_setting_it_belongs_to(text: str, kept: bool) -> None:
    assert grade_one(text, TILES).grade.at_floor is kept


def test_a_unit_many_settings_share_names_none() -> None:
    # "20 seconds" may be any timeout, interval or delay of the gateway
    assert not grade_one("The payments gateway is capped at 20 seconds.", GATEWAY).grade.at_floor
    named = "The payments gateway timeout is capped at 20 seconds."
    assert grade_one(named, GATEWAY).grade.at_floor


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        # the pin denied outright: its own "not" is no refusal of a move
        ("The render farm tile size is not 64 pixels.", Grade.INVERTED),
        ("Render farm: tile size no longer 64 pixels.", Grade.INVERTED),
        ("Do not move the render farm tile size off 64 pixels.", Grade.ACTIONABLE),
        # a setting let go, its value named nowhere
        ("The render farm tile size is free to vary.", Grade.INVERTED),
        ("Render farm: tile size is now automatic.", Grade.INVERTED),
        ("The render farm tile size is flexible from now on.", Grade.INVERTED),
        ("Render farm tile size: never automatic.", Grade.DEGRADED),
        ("Render farm tile size: always 64 pixels, never automatic.", Grade.ACTIONABLE),
    ],
)
def test_a_pin_denied_or_let_go_is_reversed(text: str, grade: Grade) -> None:
    assert grade_one(text, TILES).grade is grade


UPLOADS = declare_fact(
    "The upload queue must use a batch limit of 50 files.",
    {"object": ["upload queue"], "setting": ["batch limit"], "value": ["50 files"]},
    fact_id="uploads",
    cls="value_pin",
)
SORTER = declare_fact(
    "The parcel sorter must use a stop delay of 5 seconds.",
    {"object": ["parcel sorter"], "setting": ["stop delay"], "value": ["5 seconds"]},
    fact_id="sorter",
    cls="value_pin",
)


@pytest.mark.parametrize(
    ("fact", "text", "kept"),
    [
        # another value than the pin, in a clause that refuses nothing
        (TILES, "Set the render farm tile size to something other than 64 pixels.", False),
        (TILES, "Render the farm's tiles at anything but 64 pixels.", False),
        (TILES, "Never give the render farm a tile size other than 64 pixels.", True),
        # a cap's own name ("batch limit of") states no ceiling
        (UPLOADS, "The upload queue must not use a batch limit of 50 files.", False),
        (UPLOADS, "The upload queue batch limit is not 50 files.", False),
        (UPLOADS, "Upload queue: batch limit of 50 files, never more.", True),
        # a cue inside the setting's name ("stop delay") refuses nothing
        (SORTER, "The parcel sorter stop delay is not 5 seconds.", False),
        (SORTER, "Parcel sorter: stop delay 5 seconds.", True),
    ],
)
def test_a_pin_named_as_what_to_avoid_is_not_kept(fact: Fact, text: str, kept: bool) -> None:
    assert grade_one(text, fact).grade.at_floor is kept


@pytest.mark.parametrize(
    ("fact", "text", "grade"),
    [
        # moved off the pin, said as a change or a comparison
        (TILES, "The render farm tile size was raised from 64 pixels.", Grade.INVERTED),
        (TILES, "Use a larger tile size than 64 pixels on the render farm.", Grade.INVERTED),
        (
            TILES,
            "The render farm tile size was raised from 32 pixels to 64 pixels.",
            Grade.ACTIONABLE,
        ),
        # a negated bound is a bound, not a refusal: a range for a pin, the pin for a cap
        (TILES, "Render farm: tile size no higher than 64 pixels.", Grade.DEGRADED),
        (UPLOADS, "Upload queue: batch limit no higher than 50 files.", Grade.ACTIONABLE),
    ],
)
def test_a_pin_changed_compared_or_bounded(fact: Fact, text: str, grade: Grade) -> None:
    assert grade_one(text, fact).grade is grade


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        # what the clause names and nothing more: the pin, not a ban
        ("Audit archive: retention 30 days, nothing higher.", None),
        ("Audit archive retention: 30 days and nothing else.", None),
        ("Audit archive retention is 30 days; nothing else is acceptable.", None),
        ("Audit archive: retention 45 days, nothing lower.", Grade.INVERTED),
        # "anything but" names the exception, whatever clause follows it
        (
            "Never set the audit archive retention to anything but 30 days, whatever legal says.",
            None,
        ),
        (
            "Never set the audit archive retention to anything but 45 days, whatever legal says.",
            Grade.INVERTED,
        ),
    ],
)
def test_a_pin_with_nothing_else_or_anything_but(text: str, grade: Grade | None) -> None:
    got = grade_one(text, RETENTION).grade
    assert got is grade if grade is not None else got >= Grade.ACTIONABLE


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        # another setting of the same object, with its own amount: another rule
        ("The audit archive must use a compression level of 6 for now.", Grade.DROPPED),
        ("Audit archive: snapshot interval 30 days; storage tier cold.", Grade.DROPPED),
        ("Audit archive replication lag: 0.5 while the link is slow.", Grade.DROPPED),
        ("Audit archive: 30 days of write lock after each export.", Grade.DROPPED),
        # the pin's own setting, or a verb's amount, is no other setting
        ("Audit archive: retention 30 days.", Grade.ACTIONABLE),
        ("The audit archive retention was cut to 14 days.", Grade.INVERTED),
        ("Audit archive, retention update.\nNew value: 14 days.", Grade.INVERTED),
    ],
)
def test_another_setting_of_the_object_is_another_rule(text: str, grade: Grade) -> None:
    assert grade_one(text, RETENTION).grade is grade


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        # the setting as the label of the next sentence, the object named just before
        ("Audit archive settings were reviewed with legal.\nRetention: 30 days, fixed.", None),
        (
            "Audit archive settings were reviewed with legal.\nRetention: 14 days from now on.",
            Grade.INVERTED,
        ),
        # another thing's setting under its own name is not the archive's
        (
            "Audit archive settings were reviewed.\nBackup bucket retention: 30 days.",
            Grade.DROPPED,
        ),
    ],
)
def test_a_setting_label_after_the_object_states_its_pin(text: str, grade: Grade | None) -> None:
    got = grade_one(text, RETENTION).grade
    assert got is grade if grade is not None else got >= Grade.ACTIONABLE


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("Sentiment model dropout rate: 0.5.", Grade.INVERTED),
        ("The sentiment model's dropout rate was changed from 0.3 to 0.5.", Grade.INVERTED),
        ("Sentiment model: dropout rate 0.3, not 0.5.", Grade.ACTIONABLE),
    ],
)
def test_another_bare_number_as_the_settings_value_moves_the_pin(text: str, grade: Grade) -> None:
    assert grade_one(text, DROPOUT).grade is grade


def test_the_old_value_after_was_moves_the_pin_however_it_is_spaced() -> None:
    # the user wrote "1220°C"; a summary writes the old value "1220 °C"
    text = "Glaze kiln: temperature 1180 °C (was 1220 °C)."
    assert grade_one(text, KILN).grade is Grade.INVERTED


def test_a_thousands_separator_is_part_of_the_number() -> None:
    ttl = declare_fact(
        "The asset CDN must use a cache TTL of 3600 seconds.",
        {"object": ["asset CDN"], "setting": ["cache TTL"], "value": ["3600 seconds"]},
        fact_id="ttl",
        cls="value_pin",
    )
    assert grade_one("The asset CDN is set to a cache TTL of 3,600 seconds.", ttl).grade.at_floor
    text = "The asset CDN cache TTL was raised to 86,400 seconds."
    assert grade_one(text, ttl).grade is Grade.INVERTED


def test_a_list_of_ports_is_no_thousands() -> None:
    assert lemmas(normalize("open ports 80,443 only")).split() == [
        "open",
        "port",
        "80",
        "443",
        "only",
    ]


FREEZER = declare_fact(
    "The vaccine freezer must use a temperature setpoint of -20 °C.",
    {
        "object": ["vaccine freezer", "freezer"],
        "setting": ["temperature setpoint", "setpoint"],
        "value": ["-20 °C", "-20°C"],
    },
    fact_id="freezer",
    cls="value_pin",
)


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        # what a gauge reads is no setting
        ("Vaccine freezer reading -18.5 °C at 06:10, door seal checked.", Grade.DROPPED),
        ("Vaccine freezer temperature measured at -19 °C.", Grade.DROPPED),
        # a verb that gives the amount under the object's label moves the pin
        ("Vaccine freezer: set it to -15 °C.", Grade.INVERTED),
        ("Vaccine freezer: set it to -15 °C, it was reading -20 °C.", Grade.INVERTED),
        ("Vaccine freezer: set it to -20 °C.", Grade.ACTIONABLE),
        ("Vaccine freezer setpoint changed to -15 °C.", Grade.INVERTED),
        # the sign is part of the value
        ("Vaccine freezer setpoint changed to 20 °C.", Grade.INVERTED),
        ("Vaccine freezer setpoint -20 °C (was -18 °C).", Grade.ACTIONABLE),
    ],
)  # fmt: skip
def test_a_reading_is_no_setting_and_a_set_verb_is_no_other_setting(
    text: str, grade: Grade
) -> None:
    assert grade_one(text, FREEZER).grade is grade


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        # a hedged range that holds the pinned amount guesses at it; a permitted one lets it go
        ("Vaccine freezer setpoint: ideally somewhere between -25 and -15 °C.", Grade.DEGRADED),
        ("Vaccine freezer setpoint can be set anywhere between -25 and -15 °C.", Grade.INVERTED),
        ("Vaccine freezer setpoint: probably around -10 to -5 °C.", Grade.INVERTED),
    ],
)  # fmt: skip
def test_a_hedged_range_around_the_pin_is_degraded(text: str, grade: Grade) -> None:
    assert grade_one(text, FREEZER).grade is grade


RUNTIME = declare_fact(
    "The billing worker must use the runtime Python 3.11.",
    {"object": ["billing worker"], "setting": ["runtime"], "value": ["Python 3.11"]},
    fact_id="runtime",
    cls="value_pin",
)


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        # a named version: the same name with another number is another value
        ("Move the billing worker runtime to Python 3.12.", Grade.INVERTED),
        ("Billing worker runtime: Python 3.11; never 3.12.", Grade.ACTIONABLE),
        ("Billing worker runtime stays Python 3.11.", Grade.ACTIONABLE),
        # a wildcard names no other value
        ("Billing worker runtime: some Python 3.x.", Grade.DEGRADED),
    ],
)  # fmt: skip
def test_a_named_versions_other_number_is_another_value(text: str, grade: Grade) -> None:
    assert grade_one(text, RUNTIME).grade is grade


LISTENER = declare_fact(
    "The public API listener must use a minimum TLS version of TLS 1.2.",
    {"object": ["public API listener"], "setting": ["minimum TLS version"], "value": ["TLS 1.2"]},
    fact_id="listener",
    cls="value_pin",
)


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        # a bound word inside the setting's own name bounds nothing, wherever the value stands
        ("Use TLS 1.2 as the minimum TLS version of the public API listener.", Grade.ACTIONABLE),
        ("Public API listener: TLS 1.2 or higher.", Grade.DEGRADED),
    ],
)
def test_a_bound_in_the_settings_name_is_no_bound(text: str, grade: Grade) -> None:
    assert grade_one(text, LISTENER).grade is grade


HUMIDITY = declare_fact(
    "The drying room must hold a humidity of 40 percent.",
    {"object": ["drying room"], "setting": ["humidity"], "value": ["40 percent"]},
    fact_id="humidity",
)


@pytest.mark.parametrize(
    "text",
    [
        # a percentage's sign stands for the unit the rule spells out
        "Set the drying room humidity to 55%.",
        "Bump the drying room up to a 55% humidity.",
        "Drying room: humidity 55 %, per the new spec.",
    ],
)
def test_another_percentage_moves_a_pin_spelled_in_words(text: str) -> None:
    assert grade_one(text, HUMIDITY).grade is Grade.INVERTED


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # "no matter what" stresses the pin; it lifts it only where the clause lets it go
        ("The drying room humidity stays at 40 percent no matter what.", True),
        ("Keep the drying room at a humidity of 40 percent, no matter what anyone says.", True),
        ("Use any humidity in the drying room, no matter what.", False),
    ],
)  # fmt: skip
def test_no_matter_what_stresses_a_pin(text: str, kept: bool) -> None:
    assert grade_one(text, HUMIDITY).grade.at_floor is kept


def test_a_ceiling_removed_takes_the_pin_back() -> None:
    text = "The 40 percent humidity cap on the drying room has been removed; it's unlimited now."
    assert grade_one(text, HUMIDITY).grade is Grade.INVERTED
