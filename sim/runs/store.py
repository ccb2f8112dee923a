"""The run store, write side: create or resume a run directory and stream trial units into it.

Whole files (manifest, summary) are written to a temp file and renamed into place, so a reader
never sees half of one. JSONL files are appended one trial unit per write and flushed; after a
crash only the tail can be torn, and `resume` cuts trials.jsonl back to its last complete unit
(every strategy's row present) and drops traces of units that did not finish, so a resumed run
ends with exactly the rows an uninterrupted one writes. See sim.runs.results for the layout.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import closing, contextmanager, suppress
from pathlib import Path
from typing import IO, Any

from sim.files import DataError, iter_lines, parse_json
from sim.runs.results import (
    LOCK,
    MANIFEST,
    MAX_JSONL_BYTES,
    MAX_LINE_BYTES,
    OWNED,
    TRACES,
    TRIALS,
    Manifest,
    RunStoreError,
    read_manifest,
)
from sim.runs.unit_check import UnitCheck
from sim.runs.unit_set import UnitSet


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_UMASK = _umask()


@contextmanager
def _writing(path: Path) -> Iterator[None]:
    """A full disk or a read-only directory is one line naming the file, not a traceback;
    what is already on disk stays as it was (a torn tail is cut by the next resume)."""
    try:
        yield
    except OSError as exc:
        raise RunStoreError(f"{path}: cannot write ({exc.strerror or exc})") from None


def atomic_write(path: Path, data: bytes) -> None:
    """Temp file in the same directory, fsync, rename: the old file or the new, never half."""
    with _writing(path):
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        try:
            os.chmod(tmp, 0o666 & ~_UMASK)  # mkstemp makes 0600; keep the usual permissions
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise


def dumps(row: dict[str, Any]) -> bytes:
    try:
        return json.dumps(row, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"
    except UnicodeEncodeError:  # an unpaired surrogate in some text: escape it, lose nothing
        return json.dumps(row, separators=(",", ":")).encode("ascii") + b"\n"


def _is_empty(path: Path) -> bool:
    return not path.exists() or (path.is_dir() and all(p.name == LOCK for p in path.iterdir()))


def _clear(path: Path) -> None:
    """--force: remove what the harness wrote there, nothing else."""
    for name in OWNED:
        if name == LOCK:
            continue  # held by this process
        target = path / name
        if target.is_dir() and not target.is_symlink():
            shutil.rmtree(target)
        else:
            target.unlink(missing_ok=True)


def prepare(path: Path, manifest: Manifest, force: bool) -> None:
    """Refuse a directory that holds another run unless `force`, and one that holds anything
    else always (--force must never clear a directory the harness did not create)."""
    if _is_empty(path):
        return
    if not path.is_dir():
        raise RunStoreError(f"--out {path}: exists and is not a directory")
    if not (path / MANIFEST).exists():
        raise RunStoreError(
            f"--out {path}: not empty and not a run directory (even --force only replaces a "
            "run); choose another --out"
        )
    if not force:
        old = read_manifest(path)
        if old.spec_hash != manifest.spec_hash:
            raise RunStoreError(
                f"--out {path}: holds a different run (scenario {old.scenario.get('name')!r}, "
                f"spec {old.spec_hash[:10]} != {manifest.spec_hash[:10]}); use --force to "
                "replace it, or choose another --out"
            )
        raise RunStoreError(
            f"--out {path}: already holds this run; use --resume {path} to finish it, or "
            "--force to start it over"
        )
    _clear(path)


def _lock(path: Path) -> IO[bytes]:
    """An exclusive lock on the run directory for as long as the writer lives (the kernel
    drops it when the process dies, even by SIGKILL), so two processes never append to one
    run."""
    with _writing(path / LOCK):
        fh = (path / LOCK).open("ab")
    try:
        import fcntl
    except ImportError:  # pragma: no cover - no flock on this platform; run unguarded
        return fh
    try:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        fh.close()
        raise RunStoreError(f"{path}: in use by another compsim process") from None
    return fh


class RunWriter:
    """Appends trial units to an open run directory (held under its lock)."""

    def __init__(self, path: Path, manifest: Manifest, done: UnitSet, lock: IO[bytes]) -> None:
        self.path = path
        self.manifest = manifest
        self.done = done
        self._lock = lock
        self._broken = False
        with _writing(path / TRIALS):
            self._trials: IO[bytes] = (path / TRIALS).open("ab")
        with _writing(path / TRACES):
            self._traces: IO[bytes] = (path / TRACES).open("ab")

    @classmethod
    def create(cls, path: Path, manifest: Manifest, force: bool = False) -> RunWriter:
        if path.exists() and not (path / MANIFEST).exists():
            prepare(path, manifest, force)  # not a directory, or not a run: refused unlocked
        with _writing(path):
            path.mkdir(parents=True, exist_ok=True)
        lock = _lock(path)
        try:
            prepare(path, manifest, force)  # again under the lock: another run may have begun
        except BaseException:
            lock.close()
            raise
        try:
            atomic_write(path / MANIFEST, (manifest.model_dump_json(indent=1) + "\n").encode())
            for name in (TRIALS, TRACES):
                with _writing(path / name):
                    (path / name).write_bytes(b"")
            return cls(path, manifest, UnitSet(), lock)
        except BaseException:
            lock.close()
            raise

    @classmethod
    def resume(cls, path: Path, expected: Manifest | None = None) -> RunWriter:
        """Reopen a run; `expected` (the manifest a scenario + flags would write) must match."""
        manifest = read_manifest(path)
        lock = _lock(path)
        try:
            return cls._reopen(path, manifest, expected, lock)
        except BaseException:
            lock.close()
            raise

    @classmethod
    def _reopen(
        cls, path: Path, manifest: Manifest, expected: Manifest | None, lock: IO[bytes]
    ) -> RunWriter:
        if expected is not None and expected.spec_hash != manifest.spec_hash:
            raise RunStoreError(
                f"--resume {path}: the scenario and flags given describe a different run "
                f"(spec {expected.spec_hash[:10]} != {manifest.spec_hash[:10]})"
            )
        with _writing(path):
            done = repair(path, manifest)
        return cls(path, manifest, done, lock)

    def append(self, traces: bytes, rows: bytes, unit: tuple[str, int]) -> None:
        """Traces first, then the unit's rows in one write: a unit counts as done only once
        its rows are all on disk."""
        try:
            if traces:
                with _writing(self.path / TRACES):
                    self._traces.write(traces)
                    self._traces.flush()
            with _writing(self.path / TRIALS):
                self._trials.write(rows)
                self._trials.flush()
        except RunStoreError:
            self._broken = True  # close must not fail again on the same full disk
            raise
        self.done.add(unit)

    def close(self) -> None:
        for name, fh in ((TRIALS, self._trials), (TRACES, self._traces)):
            try:
                with _writing(self.path / name):
                    fh.flush()
                    os.fsync(fh.fileno())
            except RunStoreError:
                if not self._broken:
                    raise
            finally:
                with suppress(OSError):  # its flush already failed above, or nothing is left
                    fh.close()
        self._lock.close()

    def __enter__(self) -> RunWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def repair(path: Path, manifest: Manifest) -> UnitSet:
    """Cut trials.jsonl after its last complete unit (dropping a torn line or a unit cut short
    by a crash) and keep only finished units' traces; returns the finished units."""
    trials = path / TRIALS
    check = UnitCheck(manifest, trials)
    keep = 0
    _own_file(trials)
    _own_file(path / TRACES)
    if trials.exists():
        lines = iter_lines(trials, "trials file", RunStoreError, MAX_LINE_BYTES, MAX_JSONL_BYTES)
        with closing(lines):
            offset = 0
            for lineno, raw in enumerate(lines, start=1):
                offset += len(raw)
                row = _complete_line(raw)
                if row is None:
                    if next(lines, None) is not None:
                        raise RunStoreError(f"{trials}: line {lineno}: corrupted mid-file")
                    break  # the torn tail of a crash
                if check.add(lineno, row) is not None:
                    keep = offset
        if keep < trials.stat().st_size:
            os.truncate(trials, keep)
    _filter_traces(path / TRACES, check.done)
    return check.done


def _own_file(path: Path) -> None:
    """A file resume will cut or append to must be the run's own regular file: a link could
    make it truncate or grow a file elsewhere, a device or FIFO would never end."""
    if not path.is_symlink() and not path.exists():
        return
    if path.is_symlink() or not path.is_file():
        raise RunStoreError(f"{path}: not a regular file of this run (a link or a device?)")


def _complete_line(raw: bytes) -> dict[str, Any] | None:
    """A row the harness wrote, or None (torn, corrupted, or not a row of ours)."""
    if not raw.endswith(b"\n"):
        return None
    try:
        row = parse_json(raw)
    except DataError:
        return None
    if not isinstance(row, dict) or type(row.get("trial")) is not int:
        return None
    return row


def _filter_traces(path: Path, done: UnitSet) -> None:
    if not path.exists():
        path.write_bytes(b"")
        return
    kept: list[bytes] = []
    dropped = False
    lines = iter_lines(path, "traces file", RunStoreError, MAX_LINE_BYTES, MAX_JSONL_BYTES)
    with closing(lines):
        for raw in lines:
            row = _complete_line(raw)
            if row is not None and (str(row.get("cell") or ""), int(row["trial"])) in done:
                kept.append(raw)
            else:
                dropped = True
    if dropped:
        atomic_write(path, b"".join(kept))


def write_whole(path: Path, files: Iterable[tuple[str, bytes]]) -> None:
    for name, data in files:
        atomic_write(path / name, data)
