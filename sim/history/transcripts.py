"""Real transcripts as L0: OpenAI chat-format message lists, Claude-Code-style session JSONL and
plain text, read into turns and sessions by the transcript's own structure.

Each message is one turn; its lines are a header (`### turn 3 · assistant`), the content lines,
and one line per tool call (`call search({"q": "x"}) [call_1]`) or tool result
(`result [call_1]: ...`). A session header line opens each session when there is more than
one (OpenAI JSONL with one `{"messages": [...]}` conversation per line; Claude Code's
`sessionId`; `---` lines in plain text). `sim.history.transcript_history` turns a `Transcript` into
a `History` so the same ladders, strategies and grader run over it. `Transcript.messages` keeps
the API-format dicts for the structural checks (sim.runtime.validity).

Plain text has no tool-call structure: its messages carry roles and content only. Every
malformed input is one `TranscriptError` line naming the file and the line number.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from sim.errors import UserError
from sim.files import DataError, parse_json, read_capped
from sim.runtime.validity import Api

Kind = Literal["openai", "claude", "text"]
Format = Literal["auto", "openai", "claude", "text"]
_SPEAKER = re.compile(r"^(system|developer|user|human|assistant|ai|agent|tool)\s*:\s*(.*)$", re.I)
_ROLE_ALIAS = {"human": "user", "ai": "assistant", "agent": "assistant"}
_SESSION_BREAK = re.compile(r"^(?:-{3,}|={3,})\s*$")
_SURROGATE = re.compile("[\ud800-\udfff]")


MAX_TRANSCRIPT_BYTES = 256 * 1024 * 1024
"""A transcript larger than this is refused unread (a real session log is a few MB)."""


class TranscriptError(UserError):
    """A transcript file that cannot be read as the format it claims."""


@dataclass(frozen=True, slots=True)
class TurnLines:
    """One message as lines of L0 text; `line_no` is where it starts in the file (1-based)."""

    role: str
    session: str
    lines: tuple[str, ...]
    line_no: int


@dataclass(frozen=True, slots=True)
class Transcript:
    source: str
    format: str
    api: Api
    turns: tuple[TurnLines, ...]
    messages: tuple[Mapping[str, Any], ...]
    sessions: tuple[str, ...]


def _lines(text: str) -> list[str]:
    return [ln.strip() for ln in text.splitlines() if ln.strip()]


def _args(raw: object) -> str:
    """Tool arguments on one line (compact JSON when they parse)."""
    if isinstance(raw, str):
        try:
            return json.dumps(json.loads(raw), sort_keys=True, ensure_ascii=False)
        except (ValueError, RecursionError):  # not JSON, too deep, a 5,000-digit integer
            return " ".join(raw.split())
    return json.dumps(raw, sort_keys=True, ensure_ascii=False)


class _Reader:
    def __init__(self, source: str) -> None:
        self.source = source
        self.turns: list[TurnLines] = []
        self.messages: list[Mapping[str, Any]] = []

    def fail(self, where: str, why: str) -> TranscriptError:
        return TranscriptError(f"{self.source}:{where}: {why}")

    def add(self, role: str, session: str, lines: list[str], line_no: int) -> None:
        if any(_SURROGATE.search(ln) for ln in lines):  # a JSON "\ud800" escape: not text
            raise self.fail(str(line_no), "text holds an unpaired surrogate (not valid Unicode)")
        self.turns.append(TurnLines(role, session, tuple(lines), line_no))

    # --- OpenAI chat format -----------------------------------------------------------------
    def openai(self, msg: object, session: str, where: str, line_no: int) -> None:
        if not isinstance(msg, dict) or not isinstance(msg.get("role"), str):
            raise self.fail(where, "a message must be an object with a string 'role'")
        role, content = msg["role"], msg.get("content")
        lines = self._parts(content, where)
        if role == "tool":
            if not isinstance(msg.get("tool_call_id"), str):
                raise self.fail(where, "a tool message needs a string 'tool_call_id'")
            lines = [f"result [{msg['tool_call_id']}]: {ln}" for ln in lines or ["(empty)"]]
        calls = msg.get("tool_calls") or []
        if not isinstance(calls, list):
            raise self.fail(where, f"tool_calls must be a list, got {calls!r:.60}")
        for c in calls:
            fn = c.get("function") if isinstance(c, dict) else None
            if not isinstance(fn, dict) or not isinstance(c.get("id"), str):
                raise self.fail(where, "each tool call needs an 'id' and a 'function' object")
            lines.append(
                f"call {fn.get('name', '?')}({_args(fn.get('arguments', ''))}) [{c['id']}]"
            )
        self.add(role, session, lines, line_no)
        self.messages.append(msg)

    def _parts(self, content: object, where: str) -> list[str]:
        if content is None:
            return []
        if isinstance(content, str):
            return _lines(content)
        if not isinstance(content, list):
            raise self.fail(where, f"content must be a string or a list, got {content!r:.60}")
        out: list[str] = []
        for part in content:
            if not isinstance(part, dict):
                raise self.fail(where, f"content part must be an object, got {part!r:.60}")
            kind = part.get("type")
            if kind == "text":
                out += _lines(str(part.get("text", "")))
            elif kind == "tool_use":
                name, call_id = part.get("name", "?"), part.get("id", "?")
                out.append(f"call {name}({_args(part.get('input', {}))}) [{call_id}]")
            elif kind == "tool_result":
                body = self._parts(part.get("content", ""), where) or ["(empty)"]
                out += [f"result [{part.get('tool_use_id', '?')}]: {ln}" for ln in body]
            elif kind in ("image", "image_url", "document", "file"):
                out.append(f"[{kind}]")
            # thinking and other private blocks are not part of the context that is compacted
        return out

    # --- Claude-Code-style session lines --------------------------------------------------
    def claude(self, event: dict[str, Any], where: str, line_no: int) -> None:
        msg = event.get("message")
        if not isinstance(msg, dict) or msg.get("role") not in ("user", "assistant"):
            raise self.fail(where, "a user/assistant line needs a 'message' with its role")
        session = str(event.get("sessionId", ""))
        lines = self._parts(msg.get("content"), where)
        content = msg.get("content")
        blocks = content if isinstance(content, list) else []
        tool_only = bool(blocks) and all(
            isinstance(b, dict) and b.get("type") == "tool_result" for b in blocks
        )
        role = "tool" if tool_only else msg["role"]
        prev = self.messages[-1] if self.messages else None
        same = msg.get("id") and prev is not None and prev.get("id") == msg.get("id")
        if same and prev is not None and self.turns[-1].session == session:
            # one API message written as several lines, one per content block
            merged = {**prev, "content": _as_blocks(prev.get("content")) + _as_blocks(content)}
            self.messages[-1] = merged
            last = self.turns[-1]
            self.turns[-1] = TurnLines(last.role, session, last.lines + tuple(lines), last.line_no)
            return
        self.add(role, session, lines, line_no)
        self.messages.append(msg)


def _as_blocks(content: object) -> list[Any]:
    if isinstance(content, list):
        return list(content)
    return [{"type": "text", "text": content}] if isinstance(content, str) and content else []


def _json_line(r: _Reader, raw: str, no: int) -> Any:
    try:
        return parse_json(raw)
    except DataError as exc:
        raise r.fail(str(no), str(exc).replace(" at line 1 column", " at column")) from None


def _read_openai(r: _Reader, text: str, jsonl: bool) -> None:
    if not jsonl:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise r.fail(str(exc.lineno), f"not valid JSON ({exc.msg})") from None
        except (RecursionError, ValueError):  # nested too deeply, a 5,000-digit integer
            try:
                data = parse_json(text)
            except DataError as exc:
                raise r.fail("1", str(exc)) from None
        msgs = data.get("messages") if isinstance(data, dict) else data
        if not isinstance(msgs, list):
            raise r.fail("1", 'expected a JSON array of messages or {"messages": [...]}')
        for i, m in enumerate(msgs):
            r.openai(m, "", f"messages[{i}]", 1)
        return
    shapes: set[str] = set()
    for no, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        item = _json_line(r, raw, no)
        if isinstance(item, dict) and isinstance(item.get("messages"), list):
            shapes.add("conversation")
            for m in item["messages"]:
                r.openai(m, f"conversation-{no}", str(no), no)
        else:
            shapes.add("message")
            r.openai(item, "", str(no), no)
        if len(shapes) > 1:
            raise r.fail(str(no), 'mixes one-message lines with {"messages": [...]} lines')


def _read_claude(r: _Reader, text: str) -> None:
    for no, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        event = _json_line(r, raw, no)
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            raise r.fail(str(no), "a session line must be an object with a string 'type'")
        if event["type"] in ("user", "assistant"):
            r.claude(event, str(no), no)
        # summary, system, snapshot and other bookkeeping lines carry no conversation turn


def _read_text(r: _Reader, text: str) -> None:
    session, role, start = 1, "", 1
    body: list[str] = []
    speakers = any(_SPEAKER.match(ln.strip()) for ln in text.splitlines())

    def flush() -> None:
        if body:
            r.add(role or "user", f"session-{session}", list(body), start)
            r.messages.append({"role": role or "user", "content": "\n".join(body)})
            body.clear()

    for no, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if _SESSION_BREAK.match(line):
            flush()
            session += 1
            continue
        m = _SPEAKER.match(line) if speakers else None
        if m or (not speakers and not line):
            flush()
            if m:
                role = _ROLE_ALIAS.get(m.group(1).lower(), m.group(1).lower())
                line = m.group(2).strip()
            start = no
        if line:
            if not body:
                start = no
            body.append(line)
    flush()


def _detect(path: Path, text: str) -> Kind:
    suffix = path.suffix.lower()
    if suffix == ".json":
        return "openai"
    if suffix != ".jsonl":
        return "text"
    first = next((ln for ln in text.splitlines() if ln.strip()), "")
    try:
        item = parse_json(first)
    except DataError:
        return "openai"  # the reader reports the line
    return (
        "claude" if isinstance(item, dict) and "type" in item and "role" not in item else "openai"
    )


def parse_transcript(
    text: str, fmt: Kind, source: str = "<string>", jsonl: bool = True
) -> Transcript:
    """Read a transcript held in memory (`jsonl=False`: one JSON document of OpenAI messages)."""
    r = _Reader(source)
    if fmt == "openai":
        _read_openai(r, text, jsonl)
    elif fmt == "claude":
        _read_claude(r, text)
    elif fmt == "text":
        _read_text(r, text)
    else:
        raise TranscriptError(f"{source}: format={fmt!r} must be openai, claude or text")
    if not r.turns:
        raise TranscriptError(f"{source}: no conversation turns found")
    sessions = tuple(dict.fromkeys(t.session for t in r.turns))
    api: Api = "anthropic" if fmt == "claude" else "openai"
    return Transcript(source, fmt, api, tuple(r.turns), tuple(r.messages), sessions)


def load_transcript(path: str | Path, fmt: Format = "auto") -> Transcript:
    """Read a transcript file: `.json` / `.jsonl` OpenAI messages, Claude-Code session `.jsonl`
    (detected by its `type` field) or plain text; `fmt` overrides the detection."""
    p = Path(path)
    raw = read_capped(p, "transcript", TranscriptError, MAX_TRANSCRIPT_BYTES)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise TranscriptError(f"{p}: not UTF-8 text (byte {exc.start})") from None
    chosen: Kind = _detect(p, text) if fmt == "auto" else fmt
    return parse_transcript(text, chosen, str(p), jsonl=p.suffix.lower() != ".json")
