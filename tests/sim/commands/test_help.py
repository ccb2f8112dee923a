"""`compsim --version` and the help a user reads: every command says what it does for them
and shows examples, and no help text speaks of the harness's own modules."""

from __future__ import annotations

import platform
import re
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

import sim
from sim.commands import guide
from sim.commands.main import build_parser, main

INTERNALS = re.compile(r"\bsim[./]\w|\bstrategies[./]\w|\bcommands/|\bmodules?\b")
"""What help must not say: module paths of the harness or the word "module". The one
allowed spelling is the placeholder of a user's own code, `pkg.module:fn` / `file.py:fn`."""


def _help(capsys: pytest.CaptureFixture[str], *words: str) -> str:
    with pytest.raises(SystemExit) as info:
        main([*words, "--help"])
    assert info.value.code == 0
    return capsys.readouterr().out


def _commands() -> list[str]:
    return list(guide.subparsers(build_parser()))


def test_version_is_the_installed_distributions(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    where = Path(sim.__file__).resolve().parent
    expected = f"compsim {metadata.version('compaction-sim')} from {where}"
    assert out == f"{expected} (Python {platform.python_version()})\n"


def test_version_outside_an_install_says_so(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def missing(name: str) -> str:
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "version", missing)
    with pytest.raises(SystemExit):
        main(["--version"])
    root = Path(sim.__file__).resolve().parents[1]
    version = tomllib.loads((root / "pyproject.toml").read_text())["project"]["version"]
    assert capsys.readouterr().out.startswith(f"compsim {version} (not installed) from {root}")


def test_every_command_has_a_description_and_examples_that_name_it() -> None:
    commands = _commands()
    assert set(commands) == set(guide.COMMANDS), "a command without help, or help for none"
    for name, sub in guide.subparsers(build_parser()).items():
        assert sub.description and len(sub.description) > 60, name
        assert sub.epilog and sub.epilog.startswith("examples:\n"), name
        examples = [ln.strip() for ln in sub.epilog.splitlines() if ln.startswith("  compsim ")]
        assert examples and all(e.startswith(f"compsim {name}") for e in examples[-1:]), name


@pytest.mark.parametrize("words", [[], *[c.split() for c in guide.COMMANDS]], ids=str)
def test_no_help_text_speaks_of_modules(
    capsys: pytest.CaptureFixture[str], words: list[str]
) -> None:
    out = _help(capsys, *words)
    found = [m.group(0) for m in INTERNALS.finditer(out.replace("pkg.module:fn", ""))]
    assert not found, f"compsim {' '.join(words)} --help says {found}"


def test_the_internals_pattern_catches_what_it_must() -> None:
    """The check above can fail: the old top-level help and module paths are caught."""
    old = "`compsim`: the command line. Each subcommand lives in its own module (sim/commands/*)"
    assert INTERNALS.search(old)
    for text in ("see sim.runs.grid", "strategies/base.py", "the report module"):
        assert INTERNALS.search(text), text
    for text in ("pkg.module:fn or path/to/file.py:fn", "examples/my_compactor.py:keep_rules"):
        assert not INTERNALS.search(text.replace("pkg.module:fn", "")), text


def test_top_level_help_starts_with_the_problem_and_where_to_start(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = _help(capsys)
    assert out.startswith("usage: compsim [-h] [--version] COMMAND ...")
    assert "silently loses the rules" in out and "start here:" in out and "exit codes:" in out
