"""Record/replay cache for real-model calls: SQLite, one row per call, JSON values only.

The key is everything that can change an answer (as inspect_ai keys its model cache): backend,
base URL, model id and revision or weights hash, generation parameters, the SHA-256 of the full
rendered prompt, the level, the trial's model seed and the repeat index of an identical call.
Nothing secret is part of it: backends hand over an identity without headers or keys.

Modes: `read-write` (a miss calls the model and stores the answer), `read-only` (a miss is an
error, so CI can prove a run made zero model calls), `off` (no cache object at all).

Several worker processes (and threads: sim.runs.threaded) share one file: each opens its own
connection in WAL mode with a busy timeout and writes each row in its own short transaction
(`INSERT OR IGNORE`, rows are immutable).
Workers need their own answers at once and a sweep's executor should not have to ship cache rows
back to the driver, so writes happen where the calls happen; WAL lets readers go on meanwhile.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, Protocol

from sim.errors import UserError
from sim.summarizers.backend import Completion

CacheMode = Literal["read-write", "read-only", "off"]
MODES: tuple[CacheMode, ...] = ("read-write", "read-only", "off")
SCHEMA_VERSION = 1
BUSY_TIMEOUT_MS = 60_000

_SCHEMA = """
CREATE TABLE IF NOT EXISTS calls (
    key TEXT PRIMARY KEY,
    key_json TEXT NOT NULL,
    response TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


class CacheError(UserError):
    """A cache file that cannot be used as asked (unreadable, newer schema, read-only miss)."""


@dataclass(frozen=True, slots=True)
class CallKey:
    backend: str
    identity: tuple[tuple[str, str], ...]
    params: tuple[tuple[str, object], ...]
    prompt_sha256: str
    level: str
    trial_seed: int
    repeat: int

    def as_json(self) -> str:
        data = {
            "backend": self.backend,
            "identity": dict(self.identity),
            "params": dict(self.params),
            "prompt_sha256": self.prompt_sha256,
            "level": self.level,
            "trial_seed": self.trial_seed,
            "repeat": self.repeat,
        }
        return json.dumps(data, sort_keys=True, separators=(",", ":"))

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.as_json().encode("utf-8")).hexdigest()


@dataclass(slots=True)
class CacheStats:
    """Per process; the run driver sums the workers' stats into the manifest."""

    hits: int = 0
    misses: int = 0
    bytes_read: int = 0
    bytes_written: int = 0

    def add(self, other: CacheStats) -> None:
        self.hits += other.hits
        self.misses += other.misses
        self.bytes_read += other.bytes_read
        self.bytes_written += other.bytes_written

    def as_dict(self) -> dict[str, int]:
        return {
            "hits": self.hits,
            "misses": self.misses,
            "bytes_read": self.bytes_read,
            "bytes_written": self.bytes_written,
        }


@dataclass
class CallCache:
    path: Path
    mode: CacheMode = "read-write"
    stats: CacheStats = field(default_factory=CacheStats)
    _local: threading.local = field(default_factory=threading.local, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def __post_init__(self) -> None:
        if self.mode not in ("read-write", "read-only"):
            raise CacheError(f"cache mode {self.mode!r}: valid: read-write, read-only, off")
        if self.mode == "read-only" and not self.path.exists():
            raise CacheError(f"{self.path}: cache file does not exist (mode read-only)")
        if self.path.exists() and not self.path.is_file():  # sqlite would block on a FIFO
            raise CacheError(f"{self.path}: not a regular file; not used as a cache")
        self._connect()

    def _connect(self) -> sqlite3.Connection:
        """One connection per process and thread: a forked worker must not reuse its
        parent's, and a sqlite3 connection belongs to the thread that opened it."""
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is not None and getattr(self._local, "pid", 0) == os.getpid():
            return conn
        try:
            if self.mode == "read-only":
                conn = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, timeout=60)
            else:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                conn = sqlite3.connect(self.path, timeout=60, isolation_level=None)
                conn.execute("PRAGMA journal_mode=WAL")
                conn.executescript(_SCHEMA)
                conn.execute(
                    "INSERT OR IGNORE INTO meta VALUES ('schema_version', ?)", (SCHEMA_VERSION,)
                )
            conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            row = conn.execute("SELECT value FROM meta WHERE name='schema_version'").fetchone()
        except sqlite3.DatabaseError as exc:
            raise CacheError(f"{self.path}: not a usable cache file ({exc})") from None
        if row is None or int(row[0]) > SCHEMA_VERSION:
            version = row[0] if row else "none"
            raise CacheError(
                f"{self.path}: cache schema_version={version} is not supported "
                f"(this harness reads {SCHEMA_VERSION})"
            )
        self._local.conn, self._local.pid = conn, os.getpid()
        return conn

    def get(self, key: CallKey) -> Completion | None:
        conn = self._connect()
        row = conn.execute("SELECT response FROM calls WHERE key=?", (key.digest,)).fetchone()
        if row is None:
            with self._lock:
                self.stats.misses += 1
            if self.mode == "read-only":
                raise CacheError(
                    f"{self.path}: no cached answer for a {key.backend} call at level "
                    f"{key.level} (prompt sha256 {key.prompt_sha256[:12]}, seed "
                    f"{key.trial_seed}, repeat {key.repeat}); cache mode is read-only"
                )
            return None
        with self._lock:
            self.stats.hits += 1
            self.stats.bytes_read += len(row[0].encode("utf-8"))
        return Completion.from_json(row[0])

    def put(self, key: CallKey, completion: Completion) -> None:
        raw = completion.to_json()
        conn = self._connect()
        cur = conn.execute(
            "INSERT OR IGNORE INTO calls(key, key_json, response) VALUES (?, ?, ?)",
            (key.digest, key.as_json(), raw),
        )
        if cur.rowcount:
            with self._lock:
                self.stats.bytes_written += len(raw.encode("utf-8"))
            # fold the row into the main file now (a model call costs far more), so the
            # .sqlite file alone is complete: copied or committed without its -wal, it replays
            conn.execute("PRAGMA wal_checkpoint(PASSIVE)")

    def rows(self) -> int:
        return int(self._connect().execute("SELECT COUNT(*) FROM calls").fetchone()[0])

    def close(self) -> None:
        """Closes this thread's connection (others close with their threads)."""
        conn = getattr(self._local, "conn", None)
        if conn is not None and getattr(self._local, "pid", 0) == os.getpid():
            conn.close()
        self._local.conn = None


class CallStore(Protocol):
    """What a summarizer needs of a cache: the SQLite one, or a read-only JSONL cassette
    (sim.summarizers.cassette)."""

    path: Path
    stats: CacheStats

    def get(self, key: CallKey) -> Completion | None: ...

    def put(self, key: CallKey, completion: Completion) -> None: ...

    def rows(self) -> int: ...

    def close(self) -> None: ...


def open_cache(path: str | Path | None, mode: CacheMode) -> CallCache | None:
    """None when there is no path or the mode is `off`."""
    if path is None or mode == "off":
        return None
    if mode not in MODES:
        raise CacheError(f"cache mode {mode!r}: valid: {', '.join(MODES)}")
    return CallCache(Path(path), mode)
