"""Class 1 of the hostile-input round two: a key echoed back in any encoding a server may use
is blanked out, and text that still reveals it is dropped whole."""

from __future__ import annotations

import base64
import html
import json
import re
from collections.abc import Callable
from urllib.parse import quote, quote_plus

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sim.summarizers.redact import DROPPED, REDACTED, Redactor

KEY = "sk-T/e+s=t%2F-é-ключ-SENTINEL-9f1c"
MOJIBAKE = KEY.encode("utf-8").decode("latin-1")


def _b64(text: str, prefix: str = "Bearer ") -> str:
    return base64.b64encode((prefix + text).encode("utf-8")).decode("ascii")


# Every encoding a server (or a proxy's debug page) may send the key back in.
ECHOES: dict[str, Callable[[str], str]] = {
    "raw": lambda k: k,
    "json ascii": lambda k: json.dumps(k)[1:-1],
    "json ascii, escaped slash": lambda k: json.dumps(k)[1:-1].replace("/", "\\/"),
    "json utf-8, escaped slash": lambda k: json.dumps(k, ensure_ascii=False)[1:-1].replace(
        "/", "\\/"
    ),
    "json upper-case hex": lambda k: json.dumps(k)[1:-1].replace("\\u00e9", "\\u00E9"),
    "percent": lambda k: quote(k, safe=""),
    "percent, slash kept": lambda k: quote(k, safe="/"),
    "percent lower-case": lambda k: re.sub("%[0-9A-F]{2}", lambda m: m[0].lower(), quote(k)),
    "form encoding": lambda k: quote_plus(k),
    "base64 of the header": _b64,
    "base64, shifted one byte": lambda k: _b64(k, "xBearer "),
    "base64, shifted two bytes": lambda k: _b64(k, "xyBearer "),
    "base64url": lambda k: base64.urlsafe_b64encode(k.encode()).decode(),
    "html": lambda k: html.escape(k),
    "html numeric": lambda k: "".join(f"&#{ord(c)};" for c in k),
    "hex": lambda k: k.encode().hex(),
}


def readable(text: str, key: str) -> bool:
    """An oracle apart from the code under test: can the key be read back out of `text`?"""
    moj = key.encode("utf-8").decode("latin-1")
    return any(enc(base) in text for enc in ECHOES.values() for base in (key, moj)) or any(
        base in html.unescape(text) for base in (key, moj)
    )


@pytest.mark.parametrize("name", ECHOES)
@pytest.mark.parametrize("base", [KEY, MOJIBAKE], ids=["utf-8", "latin-1 server"])
def test_every_echoed_encoding_is_blanked(name: str, base: str) -> None:
    text = f"Summary: keep the log. (debug: Authorization: Bearer {ECHOES[name](base)})\nEnd."
    out = Redactor(KEY).scrub(text)
    assert not readable(out, KEY), out
    assert out.startswith("Summary: keep the log.") or out == DROPPED
    assert REDACTED in out or out == DROPPED


def test_text_without_the_key_is_left_alone() -> None:
    text = "Do not rotate the credential after step 4. c2stVC9lK3M9 %2F \\/ &amp;"
    assert Redactor(KEY).scrub(text) == text
    assert Redactor(None).scrub(KEY) == KEY


def test_the_redactor_never_shows_its_key() -> None:
    assert KEY not in repr(Redactor(KEY)) and KEY not in str(Redactor(KEY))


KEYS = st.text(alphabet=st.sampled_from("abcXYZ019/+=%-_é€ключ"), min_size=12, max_size=40).map(
    lambda s: "sk-" + s
)


@given(key=KEYS, name=st.sampled_from(sorted(ECHOES)), before=st.text(max_size=20))
def test_any_key_in_any_encoding_never_survives(key: str, name: str, before: str) -> None:
    text = f"{before} token={ECHOES[name](key)} after"
    assert not readable(Redactor(key).scrub(text), key)
