"""An OpenAI-compatible chat-completions backend (vLLM, llama.cpp's server, Ollama, a hosted
API), on the standard library's http.client: the one request shape needs no extra dependency,
and http.client lets us set connect and read timeouts apart and never follows a redirect by
itself (urllib would, to any host, carrying the Authorization header).

- The API key comes from the environment variable the config names, is read once, and lives only
  in the request header: never in the identity (the cache key), errors, results or logs.
- TLS is verified (the default SSL context); URLs carrying user:password are refused.
- Each request has a total deadline: `deadline_s` (default 900 s), and at most
  connect_timeout_s + read_timeout_s per attempt; a server that trickles a byte every half
  second cannot outlive it, whatever the per-read timeout says.
- Text a server sends back (a summary, an error body) is scrubbed of the key in every encoding
  it may come back in (sim.summarizers.redact) before it is kept anywhere.
- 429, 5xx, timeouts and dropped connections are retried with capped exponential backoff and
  seeded jitter (or the server's Retry-After, capped); other errors fail at once.
- A redirect is followed only to the same scheme, host and port (307/308); any other is refused.
- At most `max_concurrency` requests are in flight per process.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import socket
import ssl
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin, urlsplit

import numpy as np

from sim.errors import CompactionSimError, UserError
from sim.summarizers.backend import Completion, GenParams
from sim.summarizers.redact import Redactor

RETRY_STATUS = frozenset({429, 500, 502, 503, 504})
MAX_RESPONSE_BYTES = 8 * 1024 * 1024
MAX_REDIRECTS = 3


class BackendError(CompactionSimError):
    """A model call that failed for good: recorded as an errored trial, never as a summary."""


@dataclass(frozen=True, slots=True)
class HttpSettings:
    base_url: str
    model: str
    api_key_env: str | None = None
    connect_timeout_s: float = 10.0
    read_timeout_s: float = 600.0
    deadline_s: float = 900.0
    max_retries: int = 4
    backoff_base_s: float = 1.0
    backoff_cap_s: float = 30.0
    max_concurrency: int = 32
    context_tokens: int = 8192
    revision: str = ""
    send_seed: bool = True


def _check_url(url: str) -> tuple[str, str, int, str]:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise UserError(f"summarizer.base_url: {url!r} is not an http(s) URL")
    if parts.username or parts.password:
        raise UserError("summarizer.base_url: credentials in the URL are refused; use api_key_env")
    port = parts.port or (443 if parts.scheme == "https" else 80)
    return parts.scheme, parts.hostname, port, parts.path.rstrip("/")


class HttpChatModel:
    backend = "http"

    def __init__(self, settings: HttpSettings, sleep: Callable[[float], None] = time.sleep):
        self.settings = settings
        self.max_input_tokens = settings.context_tokens * 3 // 5
        self._scheme, self._host, self._port, path = _check_url(settings.base_url)
        self._base_path = path
        self._path = f"{path}/chat/completions"
        self._key: str | None = None
        self._redact = Redactor(None)
        if settings.api_key_env:
            key = os.environ.get(settings.api_key_env)
            if not key:
                raise UserError(
                    f"summarizer.api_key_env: environment variable {settings.api_key_env} "
                    "is not set"
                )
            if any(ord(c) < 32 or ord(c) == 127 for c in key):  # header injection
                raise UserError(
                    f"summarizer.api_key_env: the value of {settings.api_key_env} holds a "
                    "control character (not shown); an HTTP header cannot carry it"
                )
            self._key = key
        self._redact = Redactor(self._key)
        self._gate = threading.BoundedSemaphore(max(1, settings.max_concurrency))
        self._sleep = sleep
        self._count_lock = threading.Lock()
        self._local = threading.local()
        self.requests = 0

    def __repr__(self) -> str:  # never shows the key
        return f"HttpChatModel({self.settings.base_url!r}, model={self.settings.model!r})"

    def identity(self) -> dict[str, str]:
        base = f"{self._scheme}://{self._host}:{self._port}{self._base_path}"
        return {"base_url": base, "model": self.settings.model, "revision": self.settings.revision}

    @property
    def base_path(self) -> str:
        return self._base_path

    @property
    def chat_path(self) -> str:
        return self._path

    def quote(self, raw: bytes, limit: int) -> str:
        """The start of a reply, the key blanked out (for error messages)."""
        return self._quote(raw, limit)

    @property
    def url(self) -> str:
        return f"{self._scheme}://{self._host}:{self._port}{self._path}"

    def _body(self, prompt: str, params: GenParams) -> bytes:
        body: dict[str, Any] = {
            "model": self.settings.model,
            "messages": [{"role": "user", "content": prompt}],
            "max_tokens": params.max_tokens,
            "temperature": params.temperature,
            "stream": False,
        }
        if self.settings.send_seed:
            body["seed"] = params.seed
        return json.dumps(body).encode("utf-8")

    def _post(self, path: str, body: bytes) -> tuple[int, dict[str, str], bytes]:
        return self.request("POST", path, body)

    def _connection(self) -> tuple[http.client.HTTPConnection, bool]:
        """This thread's kept-alive connection (and True), or a new one (and False)."""
        conn: http.client.HTTPConnection | None = getattr(self._local, "conn", None)
        if conn is not None and conn.sock is not None:
            return conn, True
        timeout = self.settings.connect_timeout_s
        if self._scheme == "https":
            ctx = ssl.create_default_context()
            conn = http.client.HTTPSConnection(self._host, self._port, timeout=timeout, context=ctx)
        else:
            conn = http.client.HTTPConnection(self._host, self._port, timeout=timeout)
        self._local.conn = conn
        return conn, False

    def _drop(self) -> None:
        conn = getattr(self._local, "conn", None)
        self._local.conn = None
        if conn is not None:
            conn.close()

    def request(
        self, method: str, path: str, body: bytes | None = None, deadline_s: float | None = None
    ) -> tuple[int, dict[str, str], bytes]:
        """One HTTP exchange under a total deadline: the socket is shut down when it passes,
        so a server that drips a byte per read timeout cannot hold a call forever. Each
        thread keeps its connection alive between requests (no TCP or TLS handshake per
        call); one the server has closed meanwhile is replaced once, before anything was
        read from it."""
        s = self.settings
        headers: dict[str, str | bytes] = {"Accept": "application/json"}
        if body is not None:
            headers["Content-Type"] = "application/json"
        if self._key:  # UTF-8: a non-ASCII key is sent whole, not refused by http.client
            headers["Authorization"] = f"Bearer {self._key}".encode()
        limit = min(
            s.deadline_s if deadline_s is None else deadline_s,
            s.connect_timeout_s + s.read_timeout_s,
        )
        while True:
            conn, reused = self._connection()
            expired = threading.Event()

            def abort(conn: http.client.HTTPConnection = conn, expired: Any = expired) -> None:
                expired.set()
                sock = conn.sock
                if sock is not None:
                    with contextlib.suppress(OSError):
                        sock.shutdown(socket.SHUT_RDWR)

            timer = threading.Timer(limit, abort)
            timer.daemon = True
            timer.start()
            try:
                if conn.sock is None:
                    conn.connect()
                    fresh: Any = conn.sock
                    with contextlib.suppress(OSError, AttributeError):  # kept alive: no Nagle
                        fresh.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                if conn.sock is not None:
                    conn.sock.settimeout(min(s.read_timeout_s, limit))
                conn.request(method, path, body=body, headers=headers)
                resp = conn.getresponse()
                raw = resp.read(MAX_RESPONSE_BYTES + 1)
                if expired.is_set():
                    raise TimeoutError(f"no complete reply within {limit:g} s (the deadline)")
                if resp.will_close or len(raw) > MAX_RESPONSE_BYTES:
                    self._drop()
                return resp.status, {k.lower(): v for k, v in resp.getheaders()}, raw
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                self._drop()
                if reused and not expired.is_set():
                    continue  # the server closed an idle kept-alive connection: a fresh one
                if expired.is_set():
                    raise TimeoutError(
                        f"no complete reply within {limit:g} s (the deadline)"
                    ) from None
                raise
            except (OSError, http.client.HTTPException):
                self._drop()
                if expired.is_set():
                    raise TimeoutError(
                        f"no complete reply within {limit:g} s (the deadline)"
                    ) from None
                raise
            finally:
                timer.cancel()

    def _redirect(self, headers: dict[str, str], status: int, path: str) -> str:
        here = f"{self._scheme}://{self._host}:{self._port}{path}"
        target = urljoin(here, headers.get("location", ""))
        t = urlsplit(target)
        same = (t.scheme, t.hostname, t.port or (443 if t.scheme == "https" else 80)) == (
            self._scheme,
            self._host,
            self._port,
        )
        if not same:
            raise BackendError(
                self._redact.scrub(
                    f"{self.url}: refusing redirect to another host ({t.netloc[:80]})"
                )
            )
        if status not in (307, 308):
            raise BackendError(f"{self.url}: refusing HTTP {status} redirect of a POST")
        return t.path + (f"?{t.query}" if t.query else "")

    def _delay(self, attempt: int, rng: np.random.Generator, retry_after: str | None) -> float:
        s = self.settings
        if retry_after is not None:
            try:
                return min(s.backoff_cap_s, max(0.0, float(retry_after)))
            except ValueError:
                pass
        return min(s.backoff_cap_s, s.backoff_base_s * 2.0**attempt) * (0.5 + 0.5 * rng.random())

    def complete(self, prompt: str, params: GenParams, rng: np.random.Generator) -> Completion:
        body = self._body(prompt, params)
        last = ""
        for attempt in range(self.settings.max_retries + 1):
            retry_after: str | None = None
            path = self._path
            try:
                with self._gate:
                    for _ in range(MAX_REDIRECTS + 1):
                        with self._count_lock:
                            self.requests += 1
                        status, headers, raw = self._post(path, body)
                        if status not in (301, 302, 303, 307, 308):
                            break
                        path = self._redirect(headers, status, path)
                    else:
                        raise BackendError(f"{self.url}: too many redirects")
            except ssl.SSLError as exc:  # a certificate problem does not heal on retry
                raise BackendError(f"{self.url}: TLS error: {exc}") from None
            except (TimeoutError, ConnectionError, http.client.HTTPException, OSError) as exc:
                last = self._redact.scrub(f"{type(exc).__name__}: {str(exc)[:4000]}")[:240]
            else:
                if status == 200:
                    return self._parse(raw)
                snippet = self._quote(raw, 200).strip()
                last = f"HTTP {status}: {snippet}"
                if status not in RETRY_STATUS:
                    raise BackendError(f"{self.url}: {last}")
                retry_after = headers.get("retry-after")
            if attempt < self.settings.max_retries:
                self._sleep(self._delay(attempt, rng, retry_after))
        raise BackendError(
            f"{self.url}: gave up after {self.settings.max_retries + 1} attempts ({last})"
        )

    def _quote(self, raw: bytes, limit: int) -> str:
        """The start of a reply for an error message, with the API key blanked out: a server
        (or a proxy) that echoes the Authorization header must not put the key in a result."""
        text = raw[: limit + 64 + self._redact.longest].decode("utf-8", "replace")
        return self._redact.scrub(text)[:limit]

    def _parse(self, raw: bytes) -> Completion:
        if len(raw) > MAX_RESPONSE_BYTES:
            raise BackendError(f"{self.url}: response larger than {MAX_RESPONSE_BYTES} bytes")
        try:
            data = json.loads(raw)
            choice = data["choices"][0]
            text = choice["message"]["content"]
            if not isinstance(text, str):
                raise TypeError(f"content is {type(text).__name__}")
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            shown = self._quote(raw, 120)
            raise BackendError(f"{self.url}: malformed response ({exc!s}): {shown!r}") from None
        usage = data.get("usage") or {}
        text = self._redact.scrub(text)  # a proxy's debug echo: never graded, cached, kept
        return Completion(
            text,
            str(choice.get("finish_reason") or "stop"),
            _int(usage.get("prompt_tokens")),
            _int(usage.get("completion_tokens")),
        )


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None
