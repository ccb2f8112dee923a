"""Hypothesis profiles for the suite.

- `smoke`: a few examples per property, for a quick local check.
- `dev` (the default): a moderate number of examples, randomized.
- `ci`: chosen automatically when the `CI` environment variable is set; derandomized, so a
  CI failure reproduces exactly on a rerun.
- `full`: many examples, for a long soak (`HYPOTHESIS_PROFILE=full make test`).

`HYPOTHESIS_PROFILE` selects a profile by name and wins over `CI`. No profile has a deadline:
tests never assert a timing. Expensive properties (whole trials) take a share of the active
profile's example count through `helpers.examples(share)`.

`tests` is a package (so is every folder below it): pytest then puts the repository root on
`sys.path`, not `tests/`, and `tests/sim` cannot shadow the real `sim`. Shared builders are
imported as `from tests.helpers import ...`.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

_COMMON = {
    "deadline": None,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large],
}

settings.register_profile("smoke", max_examples=10, **_COMMON)
settings.register_profile("dev", max_examples=40, **_COMMON)
settings.register_profile(
    "ci", max_examples=40, derandomize=True, print_blob=True, database=None, **_COMMON
)
settings.register_profile("full", max_examples=400, **_COMMON)

settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")
)
