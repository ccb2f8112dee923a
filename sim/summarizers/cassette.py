"""Cassettes: the record/replay cache as JSONL, one call per line, for committing real outputs.

SQLite is the right file to record into (many writers, WAL), but not to commit: it is binary,
it does not diff, and a reviewer cannot read what the model wrote. A cassette line holds every
field of the call's key and the reply:

    {"backend": "llama", "identity": {...}, "level": "L1", "params": {...},
     "prompt_sha256": "...", "repeat": 0, "trial_seed": 123, "reply": {"text": "...", ...}}

`--cache FILE.jsonl` opens a cassette as a read-only cache (a miss is an error, so a replay
proves zero model calls). `compsim cache export` / `import` convert between the two; an export
keeps the recording order, so re-exporting a cassette that only grew appends lines.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from sim.summarizers.backend import Completion
from sim.summarizers.cache import CacheError, CacheStats, CallCache, CallKey

MAX_CASSETTE_BYTES = 256 << 20
MAX_LINE_BYTES = 8 << 20
SUFFIXES = (".jsonl",)


class _Reply(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    text: str
    finish_reason: str = "stop"
    prompt_tokens: int | None = None
    completion_tokens: int | None = None


class _Line(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    backend: str = Field(min_length=1)
    identity: dict[str, str]
    params: dict[str, int | float | str | bool | None]
    prompt_sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    level: str
    trial_seed: int
    repeat: int = Field(ge=0)
    reply: _Reply


def is_cassette(path: str | Path) -> bool:
    return Path(path).suffix in SUFFIXES


def line_of(key_json: str, response: str) -> str:
    """One cassette line from a cache row (the key's own JSON plus the reply)."""
    data: dict[str, Any] = json.loads(key_json)
    data["reply"] = json.loads(response)
    return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _key(line: _Line) -> CallKey:
    return CallKey(
        backend=line.backend,
        identity=tuple(sorted(line.identity.items())),
        params=tuple(sorted(line.params.items())),
        prompt_sha256=line.prompt_sha256,
        level=line.level,
        trial_seed=line.trial_seed,
        repeat=line.repeat,
    )


def read_lines(path: Path) -> Iterator[tuple[CallKey, Completion]]:
    """Every call of a cassette; a bad line is one CacheError naming the file and line."""
    if not path.is_file():
        raise CacheError(f"{path}: cassette does not exist or is not a regular file")
    if path.stat().st_size > MAX_CASSETTE_BYTES:
        raise CacheError(f"{path}: larger than {MAX_CASSETTE_BYTES} bytes; not a cassette")
    with path.open("rb") as fh:
        for no, raw in enumerate(fh, 1):
            if len(raw) > MAX_LINE_BYTES:
                raise CacheError(f"{path}:{no}: line longer than {MAX_LINE_BYTES} bytes")
            if not raw.strip():
                continue
            try:
                line = _Line.model_validate_json(raw)
            except ValidationError as exc:
                err = exc.errors()[0]
                where = ".".join(str(x) for x in err.get("loc", ())) or "line"
                raise CacheError(f"{path}:{no}: {where}: {err.get('msg', 'invalid')}") from None
            r = line.reply
            yield (
                _key(line),
                Completion(r.text, r.finish_reason, r.prompt_tokens, r.completion_tokens),
            )


@dataclass
class CassetteCache:
    """A cassette loaded whole into memory (a few MB): read-only, the CallCache interface."""

    path: Path
    mode: str = "read-only"
    stats: CacheStats = field(default_factory=CacheStats)
    _rows: dict[str, Completion] = field(default_factory=dict, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def __post_init__(self) -> None:
        if self.mode != "read-only":
            raise CacheError(
                f"{self.path}: a cassette (.jsonl) is read-only; record into a .sqlite cache "
                "and convert it with `compsim cache export`"
            )
        for key, completion in read_lines(self.path):
            self._rows[key.digest] = completion

    def get(self, key: CallKey) -> Completion | None:
        found = self._rows.get(key.digest)
        if found is None:
            with self._lock:
                self.stats.misses += 1
            raise CacheError(
                f"{self.path}: no recorded answer for a {key.backend} call at level {key.level} "
                f"(prompt sha256 {key.prompt_sha256[:12]}, seed {key.trial_seed}, repeat "
                f"{key.repeat}); a cassette is read-only"
            )
        with self._lock:
            self.stats.hits += 1
            self.stats.bytes_read += len(found.text.encode("utf-8"))
        return found

    def put(self, key: CallKey, completion: Completion) -> None:  # pragma: no cover - guarded
        raise CacheError(f"{self.path}: a cassette is read-only")

    def rows(self) -> int:
        return len(self._rows)

    def close(self) -> None:
        self._rows.clear()


def export_jsonl(db: Path, out: Path) -> int:
    """Every row of a SQLite cache as cassette lines, in recording order; written to a
    temporary file first, so an interrupted export never leaves half a cassette."""
    if not db.is_file():
        raise CacheError(f"{db}: cache file does not exist")
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=60)
        rows = conn.execute("SELECT key_json, response FROM calls ORDER BY rowid").fetchall()
        conn.close()
    except sqlite3.DatabaseError as exc:
        raise CacheError(f"{db}: not a usable cache file ({exc})") from None
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_name(out.name + ".partial")
    with partial.open("w", encoding="utf-8") as fh:
        for key_json, response in rows:
            fh.write(line_of(key_json, response) + "\n")
    partial.replace(out)
    return len(rows)


def import_jsonl(src: Path, db: Path) -> tuple[int, int]:
    """A cassette's calls into a SQLite cache: (lines read, rows new to the cache)."""
    calls = list(read_lines(src))  # validate every line before writing any row
    cache = CallCache(db, "read-write")
    before = cache.rows()
    for key, completion in calls:
        cache.put(key, completion)
    added = cache.rows() - before
    cache.close()
    return len(calls), added
