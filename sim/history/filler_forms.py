"""The surface forms of filler lines: what agent sessions are made of besides their rules.

Real sessions are not regular: tool output comes as diffs, stack traces, JSON, shell logs, test
reports and file listings, most of whose lines open with content rather than a fixed word, and
the same request or plan is put many ways. So user requests and plans are an opener times a
body (many surface forms for one intent), and tool output is many formats. Each form is a
(full, short) pair; `{name}` slots are filled from `SLOTS`, `{n}`..`{n4}` with digits 1..9,
and `{{`/`}}` are literal braces. No form starts with a space: a summarizer reads a line
without its indentation, and the budget-closure check counts what it read.
"""

from __future__ import annotations

from sim.types import UnitKind

SLOTS: dict[str, tuple[str, ...]] = {
    "res": ("orders", "invoices", "customers", "shipments", "products", "reviews", "coupons"),
    "mod": ("test_orders", "test_auth", "test_cart", "test_search", "test_export", "test_tax"),
    "svc": ("checkout", "inventory", "notifier", "gateway", "scheduler", "pricing"),
    "pkg": ("shop-core", "shop-web", "shop-api", "shop-jobs"),
    "sym": ("parse_total", "build_query", "format_price", "load_user", "apply_discount"),
    "col": ("discount_code", "shipped_at", "tax_rate", "locale", "currency_code"),
    "day": ("Monday", "Tuesday", "Thursday", "Friday"),
}

_TOOL: tuple[tuple[str, str], ...] = (
    (
        "$ pytest tests/{mod}.py -q: {n} passed, {n2} skipped in {n3}.{n4}s",
        "Tests in {mod} passed.",
    ),
    ("grep found {n} matches for '{sym}' across {n2} files in src/{pkg}.", "Found {sym} usages."),
    (
        "HTTP 200 from GET /api/{res}?page={n} in {n3}{n4} ms, {n2} items returned.",
        "GET /api/{res} ok.",
    ),
    ("Build finished: {n}{n2} modules, {n3} warnings, artifact {pkg}-1.{n4}.tar.gz.", "Build ok."),
    (
        "git diff --stat: {n} files changed, {n2}{n3} insertions(+), {n4} deletions(-).",
        "Diff: {n} files.",
    ),
    (
        "ruff: {n} issues in src/{pkg}/{sym}.py (unused import, line too long).",
        "Lint issues in {sym}.",
    ),
    (
        "Container {svc}-{n} healthy after {n2}s; memory {n3}{n4}0 MiB of 2048 MiB.",
        "{svc} healthy.",
    ),
    (
        "EXPLAIN: index scan on idx_{res}_{col}, estimated cost {n}{n2}.{n3}, rows {n4}{n}0.",
        "Query uses an index.",
    ),
    ("Log tail: {n}{n2} lines, last entry 'GET /{res} status=200 duration={n3}ms'.", "Logs clean."),
    (
        "Traceback (most recent call last): File 'src/{pkg}/{sym}.py', line {n}{n2}, "
        "KeyError: '{col}'",
        "KeyError on {col}.",
    ),
    # diffs
    ("@@ -{n}{n2},{n3} +{n}{n2},{n4} @@ def {sym}(items):", "Hunk in {sym}."),
    ("+    {col} = row.get('{col}', None)", "Added {col} lookup."),
    ("-    return {sym}(items, strict=True)", "Removed a {sym} call."),
    ("diff --git a/src/{pkg}/{res}.py b/src/{pkg}/{res}.py", "Diff of {res}.py."),
    # stack traces
    ('File "src/{pkg}/{sym}.py", line {n}{n2}, in {sym}', "Frame in {sym}."),
    ("ValueError: invalid literal for int() with base 10: '{col}'", "ValueError on {col}."),
    ("raise TimeoutError(f'{svc} did not answer in {n}{n2}s')", "{svc} timeout raised."),
    # JSON
    (
        '{{"id": {n}{n2}{n3}, "resource": "{res}", "status": "ok", "took_ms": {n4}{n}}}',
        "JSON: {res} ok.",
    ),
    (
        '{{"error": "not_found", "path": "/api/{res}/{n}{n2}", "trace_id": "{n3}{n4}a{n}"}}',
        "JSON: {res} not found.",
    ),
    ('"{col}": null, "updated_at": "2024-0{n}-1{n2}T0{n3}:00:00Z",', "JSON field {col}."),
    # shell logs
    ("npm WARN deprecated {pkg}@1.{n}.{n2}: use {pkg}@2 instead", "npm warning."),
    ("[0{n}:{n2}{n3}:1{n4}] INFO {svc}: handled GET /{res} in {n}{n2}ms", "{svc} request logged."),
    ("[0{n}:{n2}{n3}:2{n4}] WARN {svc}: retrying {res} sync (attempt {n})", "{svc} retry logged."),
    ("make: *** [{pkg}] Error {n}", "make failed in {pkg}."),
    # test reports
    ("FAILED tests/{mod}.py::test_{col} - AssertionError: assert {n} == {n2}", "{mod} failure."),
    ("PASSED tests/{mod}.py::test_{sym} [{n}{n2}%]", "{mod} passed."),
    ("collected {n}{n2} items / {n3} deselected / {n4} selected", "Tests collected."),
    ("===== {n} failed, {n2}{n3} passed, {n4} warnings in {n}.{n2}s =====", "Test summary."),
    # file listings and status
    ("src/{pkg}/{res}/{sym}.py    {n}.{n2}K    {day}", "Listing: {sym}.py."),
    ("drwxr-xr-x  {n} dev  dev  4096 {day} src/{pkg}/{res}", "Listing: {res}/."),
    ("M  src/{pkg}/{res}.py", "Modified {res}.py."),
    ("?? tests/{mod}_{col}.py", "Untracked {mod} test."),
)

_REQUEST_OPENERS = (
    "Open task:", "Still open:", "Remaining work:", "Todo:", "Outstanding:", "Can you",
    "Please", "Could you", "We still need to", "Next up:", "When you get a chance,",
    "I'd like you to", "Go ahead and", "Priority for today:", "Ticket {n}{n2}{n3}:",
)  # fmt: skip
_REQUEST_BODIES = (
    ("finish the CSV export for {res} before the {day} demo", "Open: {res} CSV export."),
    ("add pagination to the /api/{res} endpoint", "Open: {res} pagination."),
    ("make the {res} search case-insensitive", "Open: {res} search."),
    ("add retry with backoff to the {svc} client", "Open: {svc} retries."),
    ("fix the flaky {mod} test that times out in CI", "Open: flaky {mod}."),
    ("show {col} on the {res} detail page", "Open: {col} on {res} page."),
    ("speed up the {res} list view, it takes {n} seconds", "Open: {res} list speed."),
    ("sort the {res} table by {col} by default", "Open: sort {res} by {col}."),
)
_PLAN_OPENERS = (
    "Next I will", "I'm going to", "Now I'll", "Let me", "My plan is to", "First I'll",
    "Then I will", "After that I will", "Plan:", "Step {n}:", "Going to", "I'll",
)  # fmt: skip
_PLAN_BODIES = (
    ("update the {res} handler and rerun the {mod} tests", "Update {res} handler."),
    ("move {sym} into a helper so the {res} view can reuse it", "Refactor {sym}."),
    (
        "add the {col} column to the {res} model, then backfill the existing rows",
        "Add {col} column.",
    ),
    ("add a regression test for the {col} bug before touching {sym}", "Test {col} bug."),
    ("profile the {svc} endpoint because p95 latency doubled", "Profile {svc}."),
    ("clean up the {pkg} imports and update the changelog", "Clean {pkg}."),
    ("read {sym} once more and trace where {col} gets lost", "Trace {col} in {sym}."),
)
_CHATTER: tuple[tuple[str, str], ...] = (
    ("Thanks, that looks good so far.", "Looks good."),
    ("I pushed a small fix to {pkg} earlier, pull before you continue.", "Pull {pkg}."),
    ("The design review is on {day}, so keep the diff readable.", "Review on {day}."),
    ("Can you explain why {sym} was written that way?", "Question on {sym}."),
    ("Nice, the {res} page feels faster already.", "{res} page faster."),
    ("I am in meetings until noon, keep going on your own.", "User away."),
    ("ok", "ok"),
    ("hmm, that {svc} error again?", "{svc} error again."),
    ("lgtm, ship it once CI is green", "LGTM."),
    ("fwiw the {res} numbers on staging look off by {n}%", "{res} numbers off."),
    ("Sorry, I was away. Where are we with {res}?", "Status of {res}?"),
    ("Great work on {sym}, much easier to read now.", "Praise for {sym}."),
)  # fmt: skip


def _cross(
    openers: tuple[str, ...], bodies: tuple[tuple[str, str], ...]
) -> tuple[tuple[str, str], ...]:
    return tuple(
        (f"{opener} {body}{'?' if opener in ('Can you', 'Could you') else '.'}", short)
        for body, short in bodies
        for opener in openers
    )


TEMPLATES: dict[UnitKind, tuple[tuple[str, str], ...]] = {
    UnitKind.TOOL: _TOOL,
    UnitKind.CHATTER: _CHATTER,
    UnitKind.PLAN: _cross(_PLAN_OPENERS, _PLAN_BODIES),
    UnitKind.SUBGOAL: _cross(_REQUEST_OPENERS, _REQUEST_BODIES),
}

REQUEST_FORMS: tuple[str, ...] = tuple(
    f"{opener} {body}"
    for body, _ in _REQUEST_BODIES
    if not any(w in body.split() for w in ("before", "after", "then", "until", "by"))
    and not any(slot in body for slot in ("{mod}", "{col}", "{sym}"))
    for opener in _REQUEST_OPENERS
    if opener not in ("Can you", "Could you") and not opener.endswith(":")
)
"""User requests without their closing mark: the heads a rule may be stated after ("Please
add retry to the gateway client, and never rotate the API key after step 3."); temporal words
are left out of them, so a rule's own condition is the only one in its sentence, and so are
labelled openers and identifiers with underscores (a rule never reads as a labelled line)."""

RULE_LEADS: tuple[str, ...] = ("Also,", "And", "Oh, and", "Just so you know,", "By the way,")
"""Short leads a rule may be stated after."""
