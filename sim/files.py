"""Reading a TOML file of ours (scenario, suite, floor registry) with one-line errors.

Kept free of heavy imports: the runtime floor gate loads its registry through it.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from sim.errors import UserError


def read_toml(
    path: Path, what: str, error: type[UserError], max_bytes: int | None = None
) -> dict[str, Any]:
    """The parsed file; an unreadable, oversized, non-UTF-8 or invalid one raises `error`
    with one line naming the file (`what` says what the file should have been)."""
    try:
        with path.open("rb") as fh:
            raw = fh.read() if max_bytes is None else fh.read(max_bytes + 1)
    except OSError as exc:
        raise error(f"{path}: cannot read {what} ({exc.strerror})") from None
    if max_bytes is not None and len(raw) > max_bytes:
        raise error(f"{path}: larger than {max_bytes} bytes; not a {what} file")
    try:
        return tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise error(f"{path}: not UTF-8 text (byte {exc.start})") from None
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{path}: invalid TOML: {exc}") from None
    except RecursionError:
        raise error(f"{path}: invalid TOML: nested too deeply") from None
