"""Where every random draw comes from: a generator per (run seed, trial index, named stream).

Never global state, so results do not depend on the number of workers, the calls in flight or
the order trials finish in. The history, the summarizers and the retries each draw from their
own named stream.
"""

from __future__ import annotations

import zlib

import numpy as np


def rng_for(seed: int, trial: int, stream: str) -> np.random.Generator:
    """The generator of one stream of one trial."""
    return np.random.default_rng(np.random.SeedSequence([seed, trial, zlib.crc32(stream.encode())]))
