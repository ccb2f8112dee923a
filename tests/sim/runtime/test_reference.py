"""Callables named by reference: what loads, and the one-line error for everything that does not."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.runtime import reference as R
from sim.runtime.reference import (
    MAX_SOURCE_BYTES,
    ReferenceLoadError,
    load_callable,
    load_reference,
    local_reference,
    reference_of,
)

ROOT = Path(__file__).resolve().parents[3]
FIXTURE = ROOT / "tests" / "fixtures" / "compactors.py"


def test_a_file_reference_loads_once_per_process() -> None:
    fn = load_callable(f"{FIXTURE}:keep_everything", 2, "compactor")
    assert fn("a b", 5) == "a b"
    again = load_reference(f"{FIXTURE}:keep_everything")
    assert again is fn


def test_a_relative_file_reference_is_relative_to_the_working_directory(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(ROOT)
    fn = load_reference("tests/fixtures/compactors.py:drop_rules")
    assert "not" not in fn("Do not rotate it.\nok\n", 10)


def test_a_module_reference_finds_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "mycompactor_ref_mod.py").write_text("def f(text, budget):\n    return 'x'\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.path", [p for p in __import__("sys").path if p not in ("", ".")])
    assert load_reference("mycompactor_ref_mod:f")("t", 1) == "x"


def test_a_dotted_attribute_path_is_followed() -> None:
    cls = load_reference(f"{FIXTURE}:FirstLines.compact")
    assert callable(cls)


@pytest.mark.parametrize(
    ("ref", "message"),
    [
        ("mine", "expected 'pkg.module:function' or 'file.py:function'"),
        ("mod:", "expected 'pkg.module:function'"),
        ("mod:1bad", "'1bad' is not a Python name"),
        ("no.such.module.anywhere:fn", "importing no.such.module.anywhere raised"),
        ("bad name:fn", "'bad name' is not a module name or a .py file"),
        ("nowhere/x.py:fn", "nowhere/x.py: no such file"),
        (f"{FIXTURE}:missing", "has no attribute 'missing'"),
        (f"{FIXTURE}:NOT_CALLABLE", "is a int, not a callable compactor"),
        (f"{FIXTURE}:one_arg", "is called with 2 positional arguments"),
        ("a\x00b:fn", "a NUL byte cannot be part of a reference"),
    ],
)
def test_bad_references_are_one_line_naming_the_reference(ref: str, message: str) -> None:
    with pytest.raises(ReferenceLoadError) as info:
        load_callable(ref, 2, "compactor")
    text = str(info.value)
    assert message in text and "\n" not in text
    assert text.startswith(repr(ref)) or "NUL" in text


def test_a_file_that_raises_on_import_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "broken.py"
    bad.write_text("import nothing_of_this_name_exists\n")
    with pytest.raises(ReferenceLoadError, match="raised ModuleNotFoundError"):
        load_reference(f"{bad}:fn")
    syntax = tmp_path / "syntax.py"
    syntax.write_text("def f(:\n")
    with pytest.raises(ReferenceLoadError, match="raised SyntaxError"):
        load_reference(f"{syntax}:f")


def test_an_oversized_or_special_file_is_refused_unread(tmp_path: Path) -> None:
    big = tmp_path / "big.py"
    big.write_bytes(b"#" * (MAX_SOURCE_BYTES + 1))
    with pytest.raises(ReferenceLoadError, match="larger than"):
        load_reference(f"{big}:f")
    with pytest.raises(ReferenceLoadError, match="no such file"):
        load_reference(f"{tmp_path}/:f")


def test_reference_of_names_module_level_functions_only() -> None:
    fn = load_reference(f"{FIXTURE}:drop_rules")
    ref = reference_of(fn)
    assert ref is not None and ref.endswith("compactors.py:drop_rules")
    assert reference_of(lambda t, b: t) is None

    def inner(t: str, b: int) -> str:
        return t

    assert reference_of(inner) is None
    assert reference_of(R.split_reference) == "sim.runtime.reference:split_reference"


def test_a_local_reference_works_in_this_process_only() -> None:
    def mine(t: str, b: int) -> str:
        return t.upper()

    ref = local_reference(mine)
    assert load_reference(ref) is mine
    R._LOADED.pop(ref)  # as a worker process sees it
    with pytest.raises(ReferenceLoadError, match="known only to the process"):
        load_reference(ref)
