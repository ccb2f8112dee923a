"""A level's text as the grader reads it: lines, sentences (two read as one where the second
only finishes the first), a header lending its bullets its words, each sentence raw, normalized
and in lemma space; cached per line, since a kept line is the same string at every level and
under every strategy.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache
from itertools import accumulate, compress

from sim.grading import lexicon as lx
from sim.grading.clauses import (
    bullet_body,
    continues,
    continues_after,
    header_text,
    is_header,
    may_revise,
    now_line,
)
from sim.grading.notation import as_prose
from sim.grading.plans import may_hold_plan, plan_items
from sim.grading.text import lemmas, normalize, split_sentences

Unit = tuple[str, str, str]  # a sentence (or two read as one): raw, normalized, lemma space
_LINE_SENTENCES: dict[str, tuple[Unit, ...]] = {}
_MAX_LINE_SENTENCES = 32_768  # filled within the first few thousand trials of any sweep, so a
# sweep's peak memory does not depend on how many trials it runs (benchmarks/perf.py --memory)


def line_sentences(line: str) -> tuple[Unit, ...]:
    """A line's sentences, raw, normalized and in lemma space; a sentence that only finishes
    the one before (sim.grading.clauses.continues) is read with it. Lines recur across levels
    and strategies (a kept line is the same string at every level), so this is cached per line."""
    cached = _LINE_SENTENCES.get(line)
    if cached is None:
        if len(_LINE_SENTENCES) >= _MAX_LINE_SENTENCES:
            _LINE_SENTENCES.clear()
        raws: list[str] = []
        for raw in split_sentences(line):
            if raws and raws[-1].endswith("?") and (answer := _SHORT_ANSWER.match(raw)):
                # "Re-patch it after step 5? No.": the answer states the asked act's rule
                raws[-1] = asked_as_said(raws[-1], answer.group(1) is not None)
            elif raws and continues_after(raws[-1], raw):
                raws[-1] = raws[-1] + " " + raw
            else:
                raws.append(raw)
        units = []
        for raw in raws:
            norm = normalize(raw)
            units.append((raw, norm, lemmas(norm)))
        cached = tuple(units)
        _LINE_SENTENCES[line] = cached
    return cached


# a bare answer to the question before it: no (group 1 unset) or yes
def asked_as_said(asked: str, yes: bool) -> str:
    """A question as its answer says it: "Re-patch it after step 5?" and a no is "Never re-patch
    it after step 5.", with a yes "Re-patch it after step 5."."""
    asked = asked.rstrip().rstrip("?").rstrip()
    return f"{asked}." if yes else f"Never {asked[:1].lower()}{asked[1:]}."


_SHORT_ANSWER = re.compile(
    r"^(?:no|nope|never|absolutely not|definitely not|not at all|(yes|yep|yeah|sure))[.!]?$",
    re.IGNORECASE,
)
# a line that gives the consequence of a yes to the question on the line before
_ANSWER = re.compile(
    r"^\s*(?:[-*+•]\s+)?(?:→|->|=>|⇒|(?:then|if so|if yes)\b\s*[:,\-–—]?)\s*", re.IGNORECASE
)


@lru_cache(maxsize=8_192)
def line_role(line: str) -> tuple[str, str | None] | None:
    """How a line takes part in its neighbours' reading, or None for a line that stands alone
    (nearly every line: checked by its first characters before any regex runs)."""
    head = line.lstrip()[:1]
    if head in "-*+•→=⇒tTiI" and (answer := _ANSWER.match(line)) is not None:
        # "→ Drift 4 conveyor stays de-energised" under "Gas monitor above 1% methane?": the
        # answer to the line before; read as its own line where no question stands before it
        return "answers", line[answer.end() :]
    if head in "nNyYsSaAdD" and (reply := REPLY.match(line)) is not None:
        # "Solder the fittings after step 5?" / "Yes, go ahead": the question's act said or
        # denied; read as its own line where no question stands before it
        return ("replies-no" if reply.group(1) else "replies-yes"), line[reply.end() :]
    return plain_role(line)


# a yes or a no that opens a line, set off by its punctuation ("No restarts" is no reply)
REPLY = re.compile(
    r"^\s*(?:(no|nope|never|absolutely not|definitely not|not at all)|"
    r"(yes|yep|yeah|sure|absolutely|definitely))\s*[,;:.!–—-]+\s*",
    re.IGNORECASE,
)


def plain_role(line: str) -> tuple[str, str | None] | None:
    """`line_role`, with no question on the line before: as a header, a bullet, a line that
    finishes the one before, or alone."""
    head = line.lstrip()[:1]
    if head in "#*-+•" or head.isdigit() or line.rstrip().endswith(":"):
        if is_header(line):
            return "header", header_text(line) or None
        body = bullet_body(line)
        if body is not None:
            return "bullet", body
    if (
        line[:1].isalpha()
        and (continues(line) or now_line(line))
        and not may_revise(split_sentences(line)[0])
    ):
        return "continues", None  # a line that opens by revising the one before is read on
        # its own (sim.grading.grade.revised)
    return None


@lru_cache(maxsize=8_192)  # a transcript's "### turn 3 · user" headers recur at every level
def section_title(line: str) -> str | None:
    """A markdown header that names what the plain lines under it are about ("## Dock
    scheduler"): a few words, no number (a "### turn 3 · user" or "## Step 4" header orders a
    transcript, it names no topic)."""
    if not line.startswith("#"):
        return None
    text = header_text(line)
    if not text or text.count(" ") > 5 or any(c.isdigit() for c in text):
        return None
    return text


def reading_lines(text: str) -> list[str]:
    """The lines of a text as the grader reads them: a bullet under a header that restricts or
    permits ("### Never", "Allowed now:") carries the header's cue, a sub-bullet is read with
    its bullet, and a line that only finishes the one before ("That holds until the export is
    done.") is read with it."""
    lines = text.split("\n")
    roles = list(map(line_role, lines))  # in C: the roles are cached per line
    out: list[str] = []
    cue: str | None = None
    parent: tuple[int, str] | None = None  # the bullet that sub-bullets finish: indent, text
    section: str | None = None  # "## Dock scheduler" over plain lines: what they are about
    done = 0  # lines before this one are read
    for i in compress(range(len(lines)), roles):  # the lines that take part: few of them
        if done < i:  # blank lines and lines that stand alone (nearly every line), as they are
            if section is None:
                out.extend(filter(None, lines[done:i]))
            else:
                _under(section, lines[done:i], out)
            # "Amended complaint" / "- hold until someone confirms": a short title over bullets
            last = lines[i - 1]
            cue, parent = (title(last) if last else None), None
        done = i + 1
        line, role = lines[i], roles[i]
        if role is not None and role[0] == "answers":
            asked = out[-1].rstrip() if out and i and lines[i - 1].strip() else ""
            if asked.endswith("?"):  # "Passport expiring within 6 months?" / "- then: no ticket"
                out[-1] = f"If {asked.rstrip('?').rstrip()}, {role[1]}"
                cue, parent = None, None
                continue
            role = plain_role(line)  # no question before it: as any other line
        elif role is not None and role[0].startswith("replies"):
            asked = out[-1].rstrip() if out and i and lines[i - 1].strip() else ""
            if asked.endswith("?"):
                out[-1] = asked_as_said(asked, role[0] == "replies-yes")
                if role[1]:
                    out.append(role[1])  # what follows the yes or no: a line of its own
                cue, parent = None, None
                continue
            role = plain_role(line)
        if role is None:  # a line that stands alone, as above
            if section is not None:
                _under(section, [line], out)
            elif line:
                out.append(line)
            cue, parent = (title(line) if line else None), None
            continue
        bullet = role[0] == "bullet"
        indent = len(line) - len(line.lstrip()) if bullet else 0
        if bullet and parent is not None and parent[0] < indent:
            # a sub-bullet finishes its bullet: "- merge the charts" / "  - only once ...";
            # each sub-bullet with the bullet alone, so siblings stay apart
            out.append(parent[1].rstrip(" .;:") + ", " + _LEADING_JOIN.sub("", role[1] or ""))
            continue
        parent = None
        if role[0] == "header":
            cue = role[1]
            if line.lstrip().startswith("#"):  # "Logging:" under "## Ingest service" keeps it
                section = section_title(line)
            out.append(line)
        elif bullet:
            said = f"{cue}: {role[1]}" if cue else line
            # "## Ingest service" / "Logging:" / "- level: WARN": the section names its topic
            named = section is not None and cue != section and _names_only(section)
            out.append(f"{section}: {said}" if named else said)
            parent = (indent, out[-1])
        elif out:
            cue = None
            out[-1] = out[-1] + " " + line
        else:
            out.append(line)
    if section is None:
        out.extend(filter(None, lines[done:]))
    else:
        _under(section, lines[done:], out)
    return out


@lru_cache(maxsize=1_024)
def _names_only(title: str) -> bool:
    """Whether a section's title only names a topic ("Ingest service"), with no cue of its own
    ("Never", "Allowed now") that would reach the bullets of the header under it."""
    lem = lemmas(normalize(title))
    return not any(
        p.search(lem)
        for p in (lx.NEGATION_RE, lx.PERMISSION_RE, lx.DEFERRAL_RE, lx.DIRECTIVE_RE,
                  lx.REVOCATION_RE, lx.HEDGE_RE, lx.EXCLUSIVE_RE)
    )  # fmt: skip


def _under(section: str, lines: list[str], out: list[str]) -> None:
    """Plain lines under a section header, each led by its title ("Dock scheduler: Appointment
    slots locked at 45 minutes"), as a section runs to the next header."""
    out.extend(f"{section}: {line}" for line in lines if line.strip())


_LEADING_JOIN = re.compile(r"^(?:but|and|so)\s+", re.IGNORECASE)
_TITLE = re.compile(r"^\s*[A-Za-z0-9][^.!?,;:()\[\]{}=|]*$")


def title(line: str) -> str | None:
    """A plain line that may title the bullets below it: a few words, no sentence's stop, no
    clause break ("Mendel interview episode"). Used only where a bullet follows."""
    if len(line) > 48 or line.count(" ") > 5 or not _TITLE.match(line):
        return None
    return line.strip()


class Sentences:
    """A level's text split and normalized once, shared by every fact graded against it."""

    __slots__ = ("joined", "pairs", "plans", "starts")

    def __init__(self, text: str) -> None:
        text = as_prose(text)  # config notation and tables read as sentences
        self.plans = plan_items(text) if may_hold_plan(text) else []
        lines = text.split("\n")
        if any(
            r is not None and (r[0] != "header" or section_title(line) is not None)
            for r, line in zip(map(line_role, lines), lines, strict=True)
        ):
            lines = reading_lines(text)  # a header's bullets or a split rule: read together
        self.pairs = [p for line in lines if line for p in line_sentences(line)]
        # All sentences in lemma space in one string, with each one's offset: a fact's topic is
        # located by str.find in C instead of testing every sentence in Python.
        norms = [lem for _, _, lem in self.pairs]
        self.joined = "".join(norms)
        self.starts = list(accumulate(map(len, norms), initial=0))

    def mentioning(self, forms: tuple[str, ...]) -> list[int]:
        """Indices, in text order, of the sentences that contain any of `forms`."""
        found: set[int] = set()
        joined, starts = self.joined, self.starts
        for form in forms:
            pos = joined.find(form)
            while pos >= 0:
                i = bisect_right(starts, pos) - 1
                found.add(i)
                pos = joined.find(form, starts[i + 1])
        return sorted(found)
