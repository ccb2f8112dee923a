"""One reader for every TOML file of ours: each failure is one line naming the file."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.errors import ScenarioError
from sim.files import read_toml
from sim.regression.suite import load_suite

DEEP = b"a = " + b"[" * 5000 + b"]" * 5000


@pytest.mark.parametrize(
    ("content", "limit", "message"),
    [
        (b"name = [", None, "invalid TOML"),
        (b'name = "\xff"', None, r"not UTF-8 text \(byte 8\)"),
        (DEEP, None, "invalid TOML"),
        (b"x = 1\n" * 100, 64, "larger than 64 bytes; not a suite file"),
    ],
)
def test_bad_files_are_one_line(
    tmp_path: Path, content: bytes, limit: int | None, message: str
) -> None:
    path = tmp_path / "s.toml"
    path.write_bytes(content)
    with pytest.raises(ScenarioError, match=message) as info:
        read_toml(path, "suite", ScenarioError, max_bytes=limit)
    assert "\n" not in str(info.value) and str(path) in str(info.value)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match=r"cannot read suite \(No such file"):
        read_toml(tmp_path / "none.toml", "suite", ScenarioError)


def test_a_suite_nested_too_deeply_is_an_error_not_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "suite.toml"
    path.write_bytes(DEEP)
    with pytest.raises(ScenarioError, match="invalid TOML"):
        load_suite(path)
