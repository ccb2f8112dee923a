"""llama.cpp against transformers on the same GGUF file, prompt and machine.

For each backend: load time, prefill tokens/s (the prompt evaluated once), decode tokens/s
(greedy steps after it) and seconds per summary (one real call through the harness's backend:
the chat template, greedy, `max_tokens` as the cassette's L1 level asks). The prompt is the
structured prompt over the first frozen cassette history. Both run on the same number of
threads, one after the other in this process. Needs the `llama` and `hf` extras.

    .venv/bin/python benchmarks/llama_vs_hf.py [--model qwen2.5-coder-0.5b] [--threads 1]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from sim.history.frozen import read_history
from sim.prompts.templates import render
from sim.summarizers.backend import GenParams
from sim.summarizers.packaged import packaged_file

ROOT = Path(__file__).resolve().parent.parent
DECODE_STEPS = 32


def _prompt() -> str:
    history = read_history(ROOT / "scenarios" / "histories" / "cassette" / "h01.json")
    template = (ROOT / "scenarios" / "prompts" / "structured.txt").read_text(encoding="utf-8")
    return render(template, text=history.text, budget_tokens=90, level="L1", pinned=())


def _llama(path: Path, threads: int, prompt: str, params: GenParams) -> dict[str, Any]:
    from sim.summarizers.llama import LlamaChatModel, LlamaSettings

    start = time.perf_counter()
    backend = LlamaChatModel(LlamaSettings(model_path=str(path), threads=threads))
    llm = backend._load()
    loaded = time.perf_counter() - start
    tokens = llm.tokenize(prompt.encode("utf-8"))
    llm.reset()
    start = time.perf_counter()
    llm.eval(tokens)
    prefill = time.perf_counter() - start
    start = time.perf_counter()
    for _ in range(DECODE_STEPS):
        llm.eval([llm.sample(top_k=1, temp=0.0)])
    decode = time.perf_counter() - start
    llm.reset()
    start = time.perf_counter()
    out = backend.complete(prompt, params, np.random.default_rng(0))
    call = time.perf_counter() - start
    return _row("llama.cpp (llama-cpp-python)", loaded, len(tokens), prefill, decode, call, out)


def _hf(path: Path, threads: int, prompt: str, params: GenParams) -> dict[str, Any]:
    import torch

    from sim.summarizers.local import HfChatModel, LocalSettings

    start = time.perf_counter()
    backend = HfChatModel(LocalSettings(model_path=str(path), threads=threads))
    backend._load()
    loaded = time.perf_counter() - start
    enc = backend._encode(prompt)
    n = int(enc["input_ids"].shape[1])
    with torch.no_grad():
        start = time.perf_counter()
        backend.model(**enc)
        prefill = time.perf_counter() - start
        start = time.perf_counter()
        backend.model.generate(
            **enc,
            max_new_tokens=DECODE_STEPS,
            min_new_tokens=DECODE_STEPS,
            do_sample=False,
            pad_token_id=backend._pad,
        )
        decode = max(time.perf_counter() - start - prefill, 1e-9)
    start = time.perf_counter()
    out = backend.complete(prompt, params, np.random.default_rng(0))
    call = time.perf_counter() - start
    return _row("transformers fp32 (local backend)", loaded, n, prefill, decode, call, out)


def _row(name: str, loaded: float, n: int, prefill: float, decode: float, call: float,
         out: Any) -> dict[str, Any]:  # fmt: skip
    return {
        "backend": name,
        "load_s": round(loaded, 1),
        "prompt_tokens": n,
        "prefill_tok_s": round(n / prefill, 1),
        "decode_tok_s": round(DECODE_STEPS / decode, 1),
        "s_per_summary": round(call, 1),
        "summary_tokens": out.completion_tokens,
        "finish": out.finish_reason,
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("--model", default="qwen2.5-coder-0.5b", help="a packaged model's name")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--only", choices=("llama", "hf"), default=None)
    args = p.parse_args()
    _, path = packaged_file(args.model)
    prompt = _prompt()
    params = GenParams(max_tokens=143, temperature=0.0, seed=1)
    rows = []
    if args.only != "hf":
        rows.append(_llama(path, args.threads, prompt, params))
    if args.only != "llama":
        rows.append(_hf(path, args.threads, prompt, params))
    print("| backend | load s | prefill tok/s | decode tok/s | s per summary (tokens) |")
    print("|---|---|---|---|---|")
    for r in rows:
        print(
            f"| {r['backend']} | {r['load_s']} | {r['prefill_tok_s']} | {r['decode_tok_s']} | "
            f"{r['s_per_summary']} ({r['summary_tokens']}, {r['finish']}) |"
        )
    print(json.dumps({"model": args.model, "threads": args.threads, "rows": rows}))


if __name__ == "__main__":
    main()
