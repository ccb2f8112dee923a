"""A tiny randomly initialised Llama (2 layers) with a byte-level BPE tokenizer trained in
process: a real transformers model folder (safetensors + chat template) built in well under a
second, with nothing downloaded. `quiet=True` zeroes the final norm, so every logit ties and
greedy decoding picks token 0, the end-of-sequence token: a model that stops at once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

CHAT_TEMPLATE = (
    "{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}<|eos|>{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>{% endif %}"
)

CORPUS = [
    "Do not rotate the credential after step 4.",
    "Compress the session log below to at most 64 tokens.",
    "Summarize for task continuity: keep what the agent needs.",
    "RULES: every rule or restriction, word for word. DONE: decisions. OPEN: tasks.",
    "The deploy finished, the tests passed and the export job is still running.",
    "user: please check the staging snapshots before the migration.",
    "tool: exit code 0, 14 files changed, 3 warnings.",
]


def build_tiny_model(folder: Path, quiet: bool = False, seed: int = 0) -> Path:
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=512,
        special_tokens=["<|eos|>", "<|bos|>", "<|user|>", "<|assistant|>"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tok.train_from_iterator(CORPUS * 20, trainer)
    fast = PreTrainedTokenizerFast(  # type: ignore[no-untyped-call,unused-ignore]
        tokenizer_object=tok, bos_token="<|bos|>", eos_token="<|eos|>", pad_token="<|eos|>"
    )
    fast.chat_template = CHAT_TEMPLATE
    torch.manual_seed(seed)
    config: Any = LlamaConfig(
        vocab_size=len(fast),
        hidden_size=64,
        intermediate_size=128,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=4,
        max_position_embeddings=8192,
        bos_token_id=fast.bos_token_id,
        eos_token_id=fast.eos_token_id,
        pad_token_id=fast.pad_token_id,
    )
    model = LlamaForCausalLM(config)
    if quiet:
        with torch.no_grad():
            model.model.norm.weight.zero_()
    folder.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(folder, safe_serialization=True)
    fast.save_pretrained(folder)
    return folder
