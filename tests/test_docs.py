"""The README and docs/ stay true to the code: every relative link reaches a file (and its
anchor a heading), and every `compsim ...` command shown in a code block, or as an example in
`compsim --help`, parses with the real command line: the command exists and every flag shown
is one of its own. Nothing is run. The checkers are tested on broken input too, so they can
fail."""

from __future__ import annotations

import argparse
import re
import shlex
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest

from sim.commands import guide
from sim.commands.main import build_parser

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
COMMAND = re.compile(r"^\s*(?:\$\s+|-?\s*run:\s+)?compsim\s+(.*)$")
SHELL_STOPS = {"|", "||", "&&", ";", ">", ">>", "2>&1", "&"}


def _outside_code(text: str) -> str:
    """The text with fenced blocks and inline code blanked (a link inside code is not a link)."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)
    return re.sub(r"`[^`\n]*`", "", text)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[*_`]|<[^>]+>", "", heading.strip().lower())
    kept = "".join(c for c in text if c in " -" or unicodedata.category(c)[0] in "LN")
    return kept.replace(" ", "-")


def anchors(text: str) -> set[str]:
    out: set[str] = set()
    for line in re.sub(r"^```.*?^```", "", text, flags=re.M | re.S).splitlines():
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m:
            base = slug(m.group(1))
            name, n = base, 0
            while name in out:
                n += 1
                name = f"{base}-{n}"
            out.add(name)
    return out


def broken_links(page: Path, text: str) -> list[str]:
    """Every relative link of `text` (the content of `page`) whose file or anchor is missing."""
    problems = []
    for target in LINK.findall(_outside_code(text)):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve()
        if path and not dest.is_file():
            problems.append(f"{page.name}: {target}: no such file")
            continue
        if anchor and (not path or dest.suffix == ".md"):
            there = dest.read_text() if path else text
            if anchor not in anchors(there):
                where = dest.name if path else page.name
                problems.append(f"{page.name}: {target}: no heading #{anchor} in {where}")
    return problems


def commands(text: str) -> Iterator[str]:
    """Every `compsim ...` line of every fenced block, continuation lines joined."""
    for block in re.findall(r"^```[^\n]*\n(.*?)^```", text, flags=re.M | re.S):
        lines = block.splitlines()
        i = 0
        while i < len(lines):
            m = COMMAND.match(lines[i])
            i += 1
            if not m:
                continue
            command = m.group(1)
            while command.rstrip().endswith("\\") and i < len(lines):
                command = command.rstrip()[:-1] + " " + lines[i].strip()
                i += 1
            yield command


def _words(command: str) -> list[str]:
    """The argv of a shown command: comments and anything after a shell operator cut off."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars="|&;")
    lexer.whitespace_split = True
    lexer.commenters = "#"
    out = []
    for word in lexer:
        if word in SHELL_STOPS or word.startswith(">"):
            break
        out.append(word)
    return out


def _parser_for(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.ArgumentParser:
    """The (sub)parser the leading command words select."""
    for word in argv:
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if not subs or word not in subs[0].choices:
            break
        parser = subs[0].choices[word]
    return parser


def command_problem(command: str) -> str | None:
    """Why `compsim <command>` would not parse, or None. Flags are matched exactly, not by the
    prefixes argparse would also accept, so a shortened or misspelt flag in the docs fails."""
    argv = _words(command)
    parser = build_parser()
    target = _parser_for(parser, argv)
    known = {s for a in target._actions for s in a.option_strings}
    for word in argv:
        if word == "--":
            break
        flag = word.split("=", 1)[0]
        if flag.startswith("-") and not re.fullmatch(r"-\d+(\.\d+)?", flag) and flag not in known:
            return f"compsim {command}: {flag} is not a flag of `{target.prog}`"
    try:
        parser.parse_args(argv)
    except SystemExit as exc:
        if exc.code != 0:
            return f"compsim {command}: does not parse (exit {exc.code})"
    return None


def _shown_commands() -> list[tuple[str, str]]:
    found = [(p.name, c) for p in PAGES for c in commands(p.read_text())]
    for name, (_, epilog) in guide.COMMANDS.items():
        text = "```\n" + "\n".join(ln.strip() for ln in epilog.splitlines()) + "\n```\n"
        found += [(f"compsim {name} --help", c) for c in commands(text)]
    top = "```\n" + "\n".join(ln.strip() for ln in guide.START.splitlines()) + "\n```\n"
    found += [("compsim --help", c.split("  ")[0]) for c in commands(top)]
    return found


def test_every_page_is_linked_from_the_readme() -> None:
    readme = (ROOT / "README.md").read_text()
    linked = {Path(t.partition("#")[0]).name for t in LINK.findall(readme)}
    for page in PAGES[1:]:
        assert page.name in linked, f"docs/{page.name} is not linked from the README"


def test_every_relative_link_resolves() -> None:
    problems = [p for page in PAGES for p in broken_links(page, page.read_text())]
    assert not problems, "\n".join(problems)


def test_every_command_shown_parses(capsys: pytest.CaptureFixture[str]) -> None:
    shown = _shown_commands()
    assert len(shown) > 40, "the extractor found too few commands: it is broken"
    problems = [f"{where}: {p}" for where, c in shown if (p := command_problem(c))]
    capsys.readouterr()
    assert not problems, "\n".join(problems)


def test_the_readme_opens_with_the_two_commands_then_the_problem() -> None:
    readme = (ROOT / "README.md").read_text()
    first = readme.split("\n## ", 1)[0]
    assert first.index("make demo") < first.index("make test") < first.index("silent truncation")
    assert readme.count("\n## What you can do with it\n") == 1
    assert "\n## Exit codes\n" in readme


# The checkers can fail.


def test_a_broken_link_and_a_missing_anchor_are_caught(tmp_path: Path) -> None:
    (tmp_path / "there.md").write_text("# A title\n\n## Second part: more\n")
    page = tmp_path / "page.md"
    text = (
        "[ok](there.md) [ok too](there.md#second-part-more) [self](#top)\n"
        "[gone](missing.md) [bad anchor](there.md#nope) ![img](img/none.png)\n"
        "[web](https://example.com/x) `[code](ignored.md)`\n\n# Top\n"
    )
    problems = broken_links(page, text)
    assert problems == [
        "page.md: missing.md: no such file",
        "page.md: there.md#nope: no heading #nope in there.md",
        "page.md: img/none.png: no such file",
    ]


def test_slugs_follow_github() -> None:
    assert slug("Recipe: a summarization hook in an agent framework") == (
        "recipe-a-summarization-hook-in-an-agent-framework"
    )
    assert slug("Which prompt keeps constraints, on a real 1.5B model: the committed cassette") == (
        "which-prompt-keeps-constraints-on-a-real-15b-model-the-committed-cassette"
    )
    assert anchors("# Exit codes\n## Exit codes\n") == {"exit-codes", "exit-codes-1"}


@pytest.mark.parametrize(
    ("command", "problem"),
    [
        ("run scenarios/x.toml --trails 5", "--trails is not a flag of `compsim run`"),
        ("run scenarios/x.toml --tri 5", "--tri is not a flag of `compsim run`"),
        ("check bench-run --wide-open", "--wide-open is not a flag of `compsim check`"),
        ("baseline update run --out x", "--out is not a flag of `compsim baseline update`"),
        ("frobnicate results/runs/x", "does not parse"),
        ("list colours", "does not parse"),
    ],
)
def test_an_unknown_flag_or_command_is_caught(
    capsys: pytest.CaptureFixture[str], command: str, problem: str
) -> None:
    found = command_problem(command)
    capsys.readouterr()
    assert found is not None and problem in found


def test_commands_are_read_as_shown() -> None:
    text = (
        "```\n"
        "compsim run a.toml --jobs 2   # a comment --bogus\n"
        "compsim check r --fail 'x[*]:+0.00' \\\n"
        "    --format markdown > gate.md\n"
        "$ compsim list strategies | head\n"
        "- run: compsim bench --jobs 2\n"
        "```\n"
        "compsim outside a block is prose\n"
    )
    shown = list(commands(text))
    assert [_words(c) for c in shown] == [
        ["run", "a.toml", "--jobs", "2"],
        ["check", "r", "--fail", "x[*]:+0.00", "--format", "markdown"],
        ["list", "strategies"],
        ["bench", "--jobs", "2"],
    ]
