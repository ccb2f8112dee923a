"""Blanking an API key out of text a server sent back, in whatever encoding it came back in.

A server or proxy that echoes the Authorization header rarely echoes its exact bytes: a JSON
body escapes `/` as `\\/` and non-ASCII as `\\u00e9`, a URL percent-encodes it, a debug page
shows base64 of the header, and a server that decodes headers as Latin-1 (most do) returns
the UTF-8 bytes of a non-ASCII key as mojibake. Redacting only the key's own bytes lets every
one of those into trial rows, the cache and stderr. So `Redactor.scrub` replaces every literal
encoding it knows, then every base64 run holding the key at any byte alignment, then decodes
what is left in each of those ways; if the key still shows, the whole text is dropped: a
summary lost to redaction is an error we can see, a key in a results file is not.
"""

from __future__ import annotations

import base64
import html
import json
import re
from dataclasses import dataclass, field
from urllib.parse import quote, quote_plus, unquote, unquote_plus

REDACTED = "[redacted]"
DROPPED = "[redacted: the reply echoed the API key in an encoding that cannot be blanked out]"
_B64_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_=")
_JSON_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|[\\/\"bfnrt])")
_CHAR_REF = re.compile(r"&#(?:([0-9]{1,7})|[xX]([0-9a-fA-F]{1,6}));?")
_SIMPLE = {"\\": "\\", "/": "/", '"': '"', "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


def _json_unescape(text: str) -> str:
    def one(m: re.Match[str]) -> str:
        code = m.group(1)
        return chr(int(code[1:], 16)) if code[0] == "u" else _SIMPLE[code]

    out = _JSON_ESCAPE.sub(one, text)
    return out.encode("utf-16", "surrogatepass").decode("utf-16", "replace")  # join pairs


def _char_refs(text: str) -> str:
    """Numeric character references read literally (html.unescape maps &#128;-&#159; to
    cp1252, which would hide a Latin-1 server's echo)."""

    def one(m: re.Match[str]) -> str:
        code = int(m[1]) if m[1] else int(m[2], 16)
        return chr(code) if code < 0x110000 else m[0]

    return _CHAR_REF.sub(one, text)


def _bases(key: str) -> list[str]:
    """The key, and the key as a server that read its UTF-8 bytes as Latin-1 sees it."""
    mojibake = key.encode("utf-8").decode("latin-1")
    return list(dict.fromkeys([key, mojibake]))


def _literal_forms(key: str) -> list[str]:
    forms: list[str] = []
    for base in _bases(key):
        for js in (json.dumps(base)[1:-1], json.dumps(base, ensure_ascii=False)[1:-1]):
            upper = re.sub(r"\\u[0-9a-f]{4}", lambda m: "\\u" + m[0][2:].upper(), js)
            forms += [js, js.replace("/", "\\/"), upper, upper.replace("/", "\\/")]
        for enc in ("utf-8", "latin-1"):
            try:
                pct = [quote(base, safe="", encoding=enc), quote(base, safe="/", encoding=enc)]
                pct += [quote_plus(base, safe="", encoding=enc)]
            except UnicodeEncodeError:
                continue
            forms += pct + [re.sub("%[0-9A-F]{2}", lambda m: m[0].lower(), p) for p in pct]
        forms += [html.escape(base), base.encode("utf-8").hex(), base.encode("utf-8").hex().upper()]
    return sorted({f for f in forms if f}, key=len, reverse=True)


def _b64_cores(key: str) -> list[str]:
    """For each byte alignment of the key inside a longer base64'd text (three in all), the
    base64 characters that only the key's own bytes decide: present in any encoding of a text
    that holds the key, whatever surrounds it."""
    cores: set[str] = set()
    for base in _bases(key):
        raw = base.encode("utf-8")
        for start in range(3):
            part = raw[start:]
            part = part[: len(part) - len(part) % 3]
            if len(part) >= 3:
                core = base64.b64encode(part).decode("ascii")
                cores |= {core, core.replace("+", "-").replace("/", "_")}
    return sorted(cores, key=len, reverse=True)


@dataclass(frozen=True, slots=True)
class Redactor:
    """Scrubs one secret; `Redactor(None)` leaves text alone."""

    secret: str | None
    forms: tuple[str, ...] = field(init=False, repr=False)
    cores: tuple[str, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "forms", tuple(_literal_forms(self.secret or "")))
        object.__setattr__(self, "cores", tuple(_b64_cores(self.secret or "")))

    def __repr__(self) -> str:  # never shows the key
        return f"Redactor({'set' if self.secret else 'unset'})"

    @property
    def longest(self) -> int:
        """How many characters one encoded occurrence of the key can take (an error message
        shows a prefix of a reply: read this much more before cutting, so no part is left)."""
        return max((len(f) for f in self.forms), default=0) * 2

    def _blank_base64(self, text: str) -> str:
        for core in self.cores:
            while (at := text.find(core)) >= 0:
                lo, hi = at, at + len(core)
                while lo > 0 and text[lo - 1] in _B64_CHARS:
                    lo -= 1
                while hi < len(text) and text[hi] in _B64_CHARS:
                    hi += 1
                text = text[:lo] + REDACTED + text[hi:]
        return text

    def _views(self, text: str) -> list[str]:
        unjson = _json_unescape(text)
        views = [text, unjson, html.unescape(text), _char_refs(text)]
        for v in (text, unjson):
            views += [unquote(v), unquote_plus(v), unquote(v, encoding="latin-1")]
        return views

    def leaks(self, text: str) -> bool:
        """Whether the key can still be read out of `text` by any decoding we know."""
        if not self.secret:
            return False
        bases = _bases(self.secret)
        if any(b in v for v in self._views(text) for b in bases):
            return True
        return any(c in text for c in self.cores)

    def scrub(self, text: str) -> str:
        if not self.secret:
            return text
        for form in self.forms:
            text = text.replace(form, REDACTED)
        text = self._blank_base64(text)
        return DROPPED if self.leaks(text) else text
