"""The one way compaction-sim reads a file it is given: capped, regular files only, one line.

Every loader (scenarios, suites, floor registries, prompt files, transcripts, baselines,
manifests, trial rows, traces) reads through here, because the failure modes are the same
everywhere: `/dev/zero` would be read until memory runs out, a FIFO blocks forever on open or
read, and an integer of 5,000 digits or JSON nested 3,000 deep raises far from the file that
held it. So a file is opened without blocking, must be a regular file (a link to one is fine),
is refused by its size before any byte is read, and at most `cap + 1` bytes are ever read.
Kept free of heavy imports: the runtime floor gate loads its registry through it.
"""

from __future__ import annotations

import json
import os
import re
import stat
import tomllib
from collections.abc import Generator
from pathlib import Path
from typing import Any

from sim.errors import UserError

DEFAULT_MAX_BYTES = 64 * 1024 * 1024
"""A file of ours with no cap of its own (suites, registries, manifests, baselines)."""
MAX_INT = 2**63 - 1
"""The largest integer any file of ours may hold: seeds, counts and token totals are int64."""
_LONG_DIGITS = re.compile(rb"\d{19}")  # a cheap pre-scan: only then are integers checked


class DataError(ValueError):
    """Data that cannot be used (not JSON, too deep, an integer out of range), in a short
    reason the caller prefixes with the file; `position` (line, column) when the text is
    broken rather than merely hostile (a truncated or corrupted file)."""

    def __init__(self, reason: str, position: tuple[int, int] | None = None) -> None:
        super().__init__(reason)
        self.position = position


def _kind(mode: int) -> str:
    for test, name in (
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return name
    return "not a regular file"


def _open_regular(path: Path, what: str, error: type[UserError]) -> tuple[int, int]:
    """An fd of a regular file and its size. O_NONBLOCK: opening a FIFO must not wait for a
    writer (it is refused a moment later by its type)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise error(f"{path}: cannot read {what} ({exc.strerror})") from None
    except ValueError:  # a NUL byte in the path
        raise error(f"{path!s:.200}: a NUL byte cannot be part of a path") from None
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        raise error(f"{path}: {_kind(st.st_mode)}, not a regular file; not read as a {what}")
    os.set_blocking(fd, True)
    return fd, st.st_size


def read_capped(
    path: Path,
    what: str,
    error: type[UserError],
    max_bytes: int = DEFAULT_MAX_BYTES,
    too_big: str = "{path}: larger than {limit} bytes; not a {what} file",
) -> bytes:
    """The file's bytes; a missing, non-regular or oversized file raises `error` in one line.
    `too_big` may use {path}, {size}, {limit} and {what}."""
    fd, size = _open_regular(path, what, error)
    try:
        if size > max_bytes:
            raise error(too_big.format(path=path, size=size, limit=max_bytes, what=what))
        chunks, total = [], 0
        while total <= max_bytes:
            chunk = os.read(fd, min(1 << 20, max_bytes + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError as exc:
        raise error(f"{path}: cannot read {what} ({exc.strerror})") from None
    finally:
        os.close(fd)
    if total > max_bytes:  # it grew while we read it
        raise error(too_big.format(path=path, size=total, limit=max_bytes, what=what))
    return b"".join(chunks)


def iter_lines(
    path: Path, what: str, error: type[UserError], max_line: int, max_bytes: int
) -> Generator[bytes, None, None]:
    """The lines of a regular file (newline kept), none longer than `max_line` bytes; for the
    append-only JSONL files a run keeps, which are read as a stream."""
    fd, size = _open_regular(path, what, error)
    if size > max_bytes:
        os.close(fd)
        raise error(f"{path}: larger than {max_bytes} bytes; not a {what} file")
    with os.fdopen(fd, "rb") as fh:
        lineno = 0
        while True:
            raw = fh.readline(max_line + 1)
            if not raw:
                return
            lineno += 1
            if len(raw) > max_line:
                raise error(f"{path}: line {lineno}: longer than {max_line} bytes")
            yield raw


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > 19:
        raise DataError(f"an integer of {len(text.lstrip('-'))} digits")
    value = int(text)
    if abs(value) > MAX_INT:
        raise DataError(f"integer {value} out of range")
    return value


def parse_json(raw: bytes | str) -> Any:
    """JSON whose integers fit in 64 bits; anything else raises DataError with a short reason
    (the caller names the file and line)."""
    try:
        if isinstance(raw, bytes):
            if _LONG_DIGITS.search(raw):
                return json.loads(raw, parse_int=_bounded_int)
        elif _LONG_DIGITS.search(raw.encode("utf-8", "surrogatepass")):
            return json.loads(raw, parse_int=_bounded_int)
        return json.loads(raw)
    except DataError:
        raise
    except UnicodeDecodeError as exc:
        raise DataError(f"not UTF-8 text (byte {exc.start})", (0, 0)) from None
    except json.JSONDecodeError as exc:
        where = (exc.lineno, exc.colno)
        msg = f"not valid JSON ({exc.msg} at line {where[0]} column {where[1]})"
        raise DataError(msg, where) from None
    except RecursionError:
        raise DataError("not valid JSON (nested too deeply)") from None
    except ValueError:  # an integer past Python's 4,300-digit conversion limit
        raise DataError("not valid JSON (an integer of more than 4300 digits)") from None


def read_json(
    path: Path, what: str, error: type[UserError], max_bytes: int = DEFAULT_MAX_BYTES
) -> Any:
    """A whole JSON file of ours, read through the cap."""
    raw = read_capped(path, what, error, max_bytes)
    try:
        return parse_json(raw)
    except DataError as exc:
        raise error(f"{path}: unreadable {what}: {exc}") from None


def parse_toml(text: str) -> dict[str, Any]:
    """TOML, with the failures tomllib leaves as bare exceptions turned into DataError
    (`position` is set only for text that is not TOML at all)."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"invalid TOML: {exc}", (0, 0)) from None
    except RecursionError:
        raise DataError("invalid TOML: nested too deeply") from None
    except ValueError:  # int() past the 4,300-digit limit
        raise DataError("invalid TOML: an integer of more than 4300 digits") from None


def read_toml(
    path: Path, what: str, error: type[UserError], max_bytes: int | None = None
) -> dict[str, Any]:
    """The parsed file; an unreadable, oversized, non-UTF-8 or invalid one raises `error`
    with one line naming the file (`what` says what the file should have been)."""
    raw = read_capped(path, what, error, DEFAULT_MAX_BYTES if max_bytes is None else max_bytes)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(f"{path}: not UTF-8 text (byte {exc.start})") from None
    try:
        return parse_toml(text)
    except DataError as exc:
        raise error(f"{path}: {exc}") from None
