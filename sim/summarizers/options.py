"""Command-line flags that pick a real summarizer: `compsim run --summarizer http --base-url
... --model ... --cache results/cache.sqlite`.

The flags become `-S summarizer.<field>=<value>` overrides, so they go through the scenario's own
validation (an error names the flag's field and value) and land in the run manifest like any
other setting. `--summarizer local` also counts tokens with the model's own tokenizer
(`tokenizer = "model"`) unless a `-S tokenizer=...` says otherwise.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence

from sim.summarizers.cache import MODES
from sim.summarizers.registry import MODEL_TOKENIZER

# flag dest -> summarizer field
_FIELDS = {
    "summarizer": "name",
    "base_url": "base_url",
    "model": "model",
    "api_key_env": "api_key_env",
    "model_path": "model_path",
    "cache": "cache",
    "cache_mode": "cache_mode",
}


def add_summarizer_args(parser: argparse.ArgumentParser) -> None:
    g = parser.add_argument_group("summarizer (real models; default: the scenario's)")
    g.add_argument(
        "--summarizer",
        metavar="NAME",
        help="simulated | scripted | http | local, or pkg.module:fn / file.py:fn: your own "
        "model call fn(text, budget_tokens) driven by the built-in strategies",
    )
    g.add_argument("--base-url", metavar="URL", help="http: OpenAI-compatible base URL (.../v1)")
    g.add_argument("--model", metavar="ID", help="http: model id the server expects")
    g.add_argument(
        "--api-key-env", metavar="NAME", help="http: environment variable holding the API key"
    )
    g.add_argument("--model-path", metavar="PATH", help="local: model folder or .gguf file")
    g.add_argument("--cache", metavar="FILE", help="record/replay cache (SQLite)")
    g.add_argument(
        "--cache-mode",
        choices=MODES,
        help="read-write (default with --cache), read-only (a miss is an error), off",
    )
    g.add_argument(
        "--probe", action="store_true", help="ask a forced-choice question per fact at the leaf"
    )


def summarizer_overrides(args: argparse.Namespace, given: Sequence[str] = ()) -> list[str]:
    """`-S` strings for the flags that were given; `given` are the user's own -S overrides."""
    out = []
    for dest, name in _FIELDS.items():
        value = getattr(args, dest, None)
        if dest == "summarizer" and value is not None and ":" in str(value):
            # a reference to the user's own model call (sim.summarizers.from_callable)
            out.append('summarizer.name="callable"')
            out.append(f"summarizer.callable={json.dumps(str(value), ensure_ascii=False)}")
            continue
        if value is not None:
            out.append(f"summarizer.{name}={json.dumps(str(value), ensure_ascii=False)}")
    if getattr(args, "probe", False):
        out.append("summarizer.probe=true")
    own_tokenizer = any(o.split("=", 1)[0].strip() == "tokenizer" for o in given)
    if getattr(args, "summarizer", None) == "local" and not own_tokenizer:
        out.append(f"tokenizer={json.dumps(MODEL_TOKENIZER)}")
    return out
