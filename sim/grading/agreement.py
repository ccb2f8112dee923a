"""How often the text grader agrees with a careful reader, on a labelled corpus.

A case is one (fact, text) pair with the labels a careful reader accepts: `kept` (verbatim or
actionable), `degraded`, `dropped` or `inverted`, a failure kind and a one-line reason. A false
*kept* (a lost or inverted rule graded at or above its floor) is the silent failure the harness
exists to find, so it is counted on its own. The corpus format is JSON Lines; every bad line is
one error naming the file, the line and the field.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from sim.errors import UserError
from sim.files import read_capped
from sim.grading.grade import grade_text
from sim.tokens import Tokenizer
from sim.types import Fact, Grade

LABELS = ("kept", "degraded", "dropped", "inverted")
_FIELDS = ("id", "fact", "text", "accept", "kind", "reason", "source", "split")
MAX_CORPUS_BYTES = 16 * 1024 * 1024


class CorpusError(UserError):
    """A corpus file or line that cannot be read as cases."""


def label_of(grade: Grade) -> str:
    return "kept" if grade.at_floor else grade.label


@dataclass(frozen=True, slots=True)
class Case:
    id: str
    fact: str
    text: str
    accept: tuple[str, ...]
    kind: str
    reason: str
    source: str
    split: str


def _read(path: Path) -> str:
    """The file's text: a regular file of at most MAX_CORPUS_BYTES, UTF-8."""
    data = read_capped(path, "grader corpus", CorpusError, MAX_CORPUS_BYTES)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CorpusError(f"{path}: not UTF-8 text (byte {exc.start})") from None


def load_cases(path: Path) -> list[Case]:
    """Every case of a JSON Lines corpus file, checked."""
    raw = _read(path)
    cases, seen = [], set()
    for n, line in enumerate(raw.splitlines(), 1):
        if not line.strip():
            continue
        where = f"{path}:{n}"
        try:
            row = json.loads(line)
        except (ValueError, RecursionError) as exc:
            raise CorpusError(f"{where}: not JSON ({str(exc)[:80]})") from None
        if not isinstance(row, dict):
            raise CorpusError(f"{where}: a case is a JSON object")
        for key in _FIELDS:
            if key not in row:
                raise CorpusError(f"{where}: missing field {key!r}")
        for key in ("id", "fact", "text", "kind", "reason", "source", "split"):
            if not isinstance(row[key], str):
                raise CorpusError(f"{where}: {key}={str(row[key])[:40]!r} must be a string")
        accept = row["accept"]
        if not isinstance(accept, list) or not accept or any(a not in LABELS for a in accept):
            raise CorpusError(f"{where}: accept={str(accept)[:60]!r}: a list of {LABELS}")
        if row["split"] not in ("train", "heldout"):
            raise CorpusError(f"{where}: split={row['split'][:20]!r}: 'train' or 'heldout'")
        if row["id"] in seen:
            raise CorpusError(f"{where}: id={row['id'][:40]!r} appears twice")
        seen.add(row["id"])
        cases.append(Case(**{k: row[k] for k in _FIELDS if k != "accept"}, accept=tuple(accept)))
    return cases


@dataclass(frozen=True, slots=True)
class Graded:
    case: Case
    cls: str
    got: str
    sentence: str

    @property
    def agrees(self) -> bool:
        return self.got in self.case.accept

    @property
    def false_kept(self) -> bool:
        return self.got == "kept" and "kept" not in self.case.accept


@dataclass(slots=True)
class Agreement:
    graded: list[Graded] = field(default_factory=list)

    def rate(self, keep: Callable[[Graded], bool] = lambda g: True) -> tuple[int, int]:
        chosen = [g for g in self.graded if keep(g)]
        return sum(g.agrees for g in chosen), len(chosen)

    @property
    def false_kept(self) -> list[Graded]:
        return [g for g in self.graded if g.false_kept]

    def by(self, key: Callable[[Graded], str]) -> dict[str, tuple[int, int]]:
        groups: dict[str, list[Graded]] = defaultdict(list)
        for g in self.graded:
            groups[key(g)].append(g)
        return {k: (sum(g.agrees for g in v), len(v)) for k, v in sorted(groups.items())}

    def confusion(self) -> Counter[tuple[str, str]]:
        """(expected, got): expected is the first accepted label."""
        return Counter((g.case.accept[0], g.got) for g in self.graded)

    @property
    def disagreements(self) -> list[Graded]:
        return [g for g in self.graded if not g.agrees]


def score(
    cases: Iterable[Case], facts: Mapping[str, Fact], counter: Tokenizer, split: str | None = None
) -> Agreement:
    """Grade every case of `split` (all when None) against its fact."""
    out = Agreement()
    for case in cases:
        if split is not None and case.split != split:
            continue
        fact = facts.get(case.fact)
        if fact is None:
            raise CorpusError(f"case {case.id!r}: fact={case.fact!r} is not defined")
        g = grade_text(case.text, [fact], counter)[0]
        out.graded.append(Graded(case, fact.cls, label_of(g.grade), g.sentence))
    return out


def _pct(k: int, n: int) -> str:
    return f"{100 * k / n:5.1f}% ({k}/{n})" if n else "  n/a"


def format_agreement(result: Agreement, title: str, show: int = 40) -> str:
    """The report `benchmarks/grader_agreement.py` prints: overall, per class, per kind, the
    confusion matrix, the false kept and the disagreeing cases."""
    k, n = result.rate()
    lines = [f"== {title}: agreement {_pct(k, n)}, false kept {_pct(len(result.false_kept), n)}"]
    for name, key in (("class", lambda g: g.cls), ("kind", lambda g: g.case.kind)):
        lines.append(f"  by {name}:")
        lines += [f"    {k_:<20} {_pct(a, b)}" for k_, (a, b) in result.by(key).items()]
    lines.append("  confusion (expected -> got):")
    conf = result.confusion()
    lines.append("    " + " " * 10 + "".join(f"{g:>10}" for g in LABELS))
    for e in LABELS:
        lines.append(f"    {e:<10}" + "".join(f"{conf[(e, g)]:>10}" for g in LABELS))
    wrong: Sequence[Graded] = result.disagreements
    lines.append(f"  disagreements ({len(wrong)}; first {min(show, len(wrong))}):")
    for g in wrong[:show]:
        text = g.case.text.replace("\n", " / ")[:140]
        lines.append(f"    {g.case.id} want {'|'.join(g.case.accept)} got {g.got}: {text!r}")
    return "\n".join(lines)
