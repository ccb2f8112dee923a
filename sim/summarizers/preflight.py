"""Fail fast: one probe of an HTTP endpoint before the first trial.

Without it a wrong port cost ~57 s per trial (five attempts with backoff) and the sweep went on
trial after trial. The probe asks `GET {base_url}/models` once, within the connect timeout:
a refused connection, a TLS failure, a 401/403, or a model the list does not name is one
`UserError` naming the URL and the cause (exit 2). A server without `/models` (404/405) is
asked for a one-token completion instead, which also proves the model id is accepted.
"""

from __future__ import annotations

import http.client
import json
import socket
import ssl
from collections.abc import Iterable

from sim.errors import UserError
from sim.summarizers.config import SummarizerConfig
from sim.summarizers.http import HttpChatModel
from sim.summarizers.registry import backend_for

_MAX_LISTED = 8


class EndpointError(UserError):
    """The endpoint cannot serve this run: nothing was started."""


def _served(raw: bytes) -> list[str] | None:
    try:
        data = json.loads(raw)
        return [str(m["id"]) for m in data["data"]]
    except (ValueError, KeyError, TypeError):
        return None


def check_endpoint(model: HttpChatModel) -> None:
    """Raise EndpointError unless the endpoint answers and serves the model."""
    s = model.settings
    where = f"{model.url.rsplit('/chat/completions', 1)[0]}"
    limit = s.connect_timeout_s + 5.0  # connect, then a few seconds for a small reply
    try:
        status, _, raw = model.request("GET", f"{model.base_path}/models", deadline_s=limit)
        if status in (404, 405):  # no model list here: a one-token completion instead
            body = json.dumps(
                {
                    "model": s.model,
                    "messages": [{"role": "user", "content": "Say OK."}],
                    "max_tokens": 1,
                    "temperature": 0.0,
                }
            ).encode()
            status, _, raw = model.request("POST", model.chat_path, body, deadline_s=limit)
            if status == 404:
                raise EndpointError(f"{where}: model {s.model!r} is not served (HTTP 404)")
    except ssl.SSLError as exc:
        raise EndpointError(f"{where}: TLS error: {exc}") from None
    except TimeoutError:
        raise EndpointError(f"{where}: no answer within {limit:g} s") from None
    except (ConnectionRefusedError, socket.gaierror) as exc:
        cause = exc.strerror or type(exc).__name__
        raise EndpointError(f"{where}: cannot connect ({cause})") from None
    except (OSError, http.client.HTTPException) as exc:
        raise EndpointError(f"{where}: no usable reply ({type(exc).__name__}: {exc})") from None
    if status in (401, 403):
        how = f"the key in ${s.api_key_env}" if s.api_key_env else "no API key (set api_key_env)"
        raise EndpointError(f"{where}: HTTP {status}: the server refused {how}")
    if status >= 400:
        raise EndpointError(f"{where}: HTTP {status}: {model.quote(raw, 120).strip()!r}")
    served = _served(raw)
    if served is not None and s.model not in served:
        raise EndpointError(
            f"{where}: model {s.model!r} is not served; it serves {_listed(served)}"
        )


def _listed(names: Iterable[str]) -> str:
    names = list(names)
    shown = ", ".join(repr(n) for n in names[:_MAX_LISTED])
    more = f" and {len(names) - _MAX_LISTED} more" if len(names) > _MAX_LISTED else ""
    return (shown + more) or "no model"


def check_endpoints(configs: Iterable[SummarizerConfig]) -> None:
    """Probe each distinct HTTP endpoint a run will call (not a read-only replay: that makes
    no call, and must work on a machine that cannot reach the server)."""
    seen: set[str] = set()
    for config in configs:
        if config.name != "http" or config.cache_mode == "read-only" or not config.base_url:
            continue
        key = f"{config.base_url} {config.model}"
        if key not in seen:
            seen.add(key)
            model = backend_for(config)
            assert isinstance(model, HttpChatModel)
            check_endpoint(model)
