"""The HTML report: one self-contained file for a design review.

The run's spec (from the manifest), every table, every plot (PNG embedded as a data URI) and
the trace viewer (sim.report.viewer). Nothing is fetched: a Content-Security-Policy allows only data
images and the page's own inline style and script (by hash), so even a hostile scenario text
cannot make the page reach the network. Every piece of scenario or model text is escaped.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Iterable, Sequence
from html import escape
from pathlib import Path
from typing import Any

import pandas as pd

from sim.report.aggregate import NO_LOSS, Aggregates
from sim.report.headline import SHOWN, findings, references_seen
from sim.report.plots import CAPTIONS, Context, Rendered, context, figures, render
from sim.report.rates import pct, pct_ci
from sim.report.runview import RunLike, aggregate_run, run_view
from sim.report.tables import write_file
from sim.report.viewer import MARKUP, SCRIPT, STYLE, script_json, trace_payload

PAGE_STYLE = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:1500px;
  padding:0 1.2em 3em;color:#1f2328}
h1{margin:.8em 0 .2em}h2{border-bottom:1px solid #d0d7de;padding-bottom:.2em;margin-top:1.6em}
nav a{margin-right:1em}
table{border-collapse:collapse;margin:.5em 0 1em;font-size:.9em}
th,td{border:1px solid #d0d7de;padding:.2em .5em;text-align:left;vertical-align:top}
th{background:#f6f8fa}td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.note{color:#57606a}.warn{color:#b42318;font-weight:600}
ol.worst{margin:.2em 0 .4em;padding-left:2em}ol.worst li{font-variant-numeric:tabular-nums}
figure{margin:1em 0}figure img{max-width:100%;border:1px solid #eee}
figcaption{color:#57606a;max-width:60em}
dl.spec{display:grid;grid-template-columns:max-content 1fr;gap:.1em 1em}dl.spec dd{margin:0}
pre.manifest{max-height:30em;overflow:auto;background:#f6f8fa;padding:.5em;font-size:.8em}
"""


def _csp_hash(source: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(source.encode()).digest()).decode() + "'"


def _pct(x: float) -> str:
    return pct(x)


def _ci(r: Any, name: str) -> str:
    return pct_ci(r[f"{name}_rate"], r[f"{name}_lo"], r[f"{name}_hi"])


def table(head: Sequence[str], rows: Iterable[Sequence[object]], numeric: int | None = None) -> str:
    """An HTML table, every cell escaped; columns from `numeric` on are right-aligned. A `cell`
    column that is empty throughout (a run without a sweep) is left out."""
    rows = [list(r) for r in rows]
    if head and head[0] == "cell" and all(str(r[0]) == "" for r in rows):
        head, rows = head[1:], [r[1:] for r in rows]
        numeric = None if numeric is None else max(numeric - 1, 0)
    out = ["<table><thead><tr>", *(f"<th>{escape(str(h))}</th>" for h in head), "</tr></thead>"]
    out.append("<tbody>")
    for row in rows:
        cells = (
            f'<td class="n">{escape(str(v))}</td>'
            if numeric is not None and i >= numeric
            else f"<td>{escape(str(v))}</td>"
            for i, v in enumerate(row)
        )
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def _frame(df: pd.DataFrame, cols: Sequence[tuple[str, Any]], numeric: int) -> str:
    """Rows of `df` through per-column formatters: (header, column name or callable)."""
    if df.empty:
        return '<p class="note">(none)</p>'
    rows = [[f(r) if callable(f) else r[f] for _, f in cols] for _, r in df.iterrows()]
    return table([h for h, _ in cols], rows, numeric)


def _wide(df: pd.DataFrame, col: str, order: Sequence[str], cell: Any) -> str:
    if df.empty:
        return '<p class="note">(none)</p>'
    groups: dict[tuple[str, str], dict[str, str]] = {}
    for _, r in df.iterrows():
        groups.setdefault((str(r["cell"]), str(r["strategy"])), {})[str(r[col])] = cell(r)
    present = [c for c in order if any(c in g for g in groups.values())]
    rows = [[c, s, *(g.get(v, "-") for v in present)] for (c, s), g in groups.items()]
    return table(["cell", "strategy", *present], rows, 2)


def tables_html(agg: Aggregates) -> str:
    rates = [
        (h, (lambda r, n=n: _ci(r, n)))
        for h, n in (
            ("collapse [95% CI]", "collapsed"),
            ("silent [95% CI]", "silent"),
            ("loud [95% CI]", "loud"),
        )
    ]
    plain = [
        (h, (lambda r, c=c: "-" if r.get(c) is None or r[c] != r[c] else _pct(float(r[c]))))
        for h, c in (("over budget", "over_budget_rate"), ("stopped", "stopped_rate"))
    ]
    cost = [
        ("retries/trial", lambda r: f"{r['retries_per_trial']:.2f}"),
        *(
            (h, (lambda r, c=c: f"{r[c]:.0f}"))
            for h, c in (
                ("read", "tokens_read"),
                ("emitted", "tokens_emitted"),
                ("never read", "tokens_unread"),
                ("retry tokens (est.)", "retry_tokens"),
                ("pins", "pin_tokens"),
                ("cost", "token_cost"),
            )
        ),
        ("usual blame", "blame_level"),
    ]
    fact_cols = [("facts", "facts"), *rates]
    parts = [
        '<h2 id="rates">Rates, retries and tokens per trial</h2>',
        '<p class="note">Collapse: a live constraint ends below its recall floor at the leaf;'
        " every collapse is silent or loud, never both. Silent: some lost constraint's loss was"
        " never raised or flagged by any level. Loud: every lost constraint's loss was raised or"
        " flagged. Stopped (not a collapse): a level raised and the ladder stopped with nothing"
        " lost. Token columns are means per trial; cost = tokens emitted (pins included) +"
        " estimated retry tokens.</p>",
        _frame(agg.summary, [("cell", "cell"), ("strategy", "strategy"), ("trials", "trials"),
                             ("errors", "errors"), *rates, *plain, *cost], 2),
        '<h2 id="survival-table">Survival per level</h2>',
        '<p class="note">Share of live planted facts at or above their floor at each level, over'
        " the trials that reached the level (a loud stop ends a trial's ladder), with n.</p>",
        _wide(agg.survival, "level", agg.levels,
              lambda r: f"{_ci(r, 'survival')} n={int(r['facts'])}"),
        '<h2 id="blame">Blame level</h2>',
        '<p class="note">Trials whose first loss (or loud stop) happened at each level, and'
        " last the trials that lost nothing.</p>",
        _wide(agg.blame, "blame_level", [*agg.levels, NO_LOSS],
              lambda r: f"{int(r['trials_blamed'])} ({_pct(r['share'])})"),
        '<h2 id="classes">By constraint class</h2>',
        _frame(agg.by_class, [("cell", "cell"), ("strategy", "strategy"), ("class", "cls"),
                              *fact_cols], 3),
        '<h2 id="depth">By depth in the history</h2>',
        _frame(agg.by_depth, [("cell", "cell"), ("strategy", "strategy"), ("depth", "depth_bin"),
                              *fact_cols], 3),
        '<h2 id="diagnosis">Diagnosis: where lost facts went</h2>',
        '<p class="note">Lost facts by class, the level to blame, their grade there and the'
        " anchor groups missing there.</p>",
        _frame(agg.diagnosis, [("cell", "cell"), ("strategy", "strategy"), ("class", "cls"),
                               ("level", "blame_level"), ("grade", "grade"),
                               ("missing", "missing"), ("how", "how"), ("facts", "facts")], 7),
    ]  # fmt: skip
    return "\n".join(parts)


def _scenario(manifest: dict[str, Any]) -> dict[str, Any]:
    scenario = manifest.get("scenario")
    return scenario if isinstance(scenario, dict) else {}


def _spec(manifest: dict[str, Any]) -> str:
    scenario = _scenario(manifest)
    items: list[tuple[str, object]] = []
    for key in ("run_id", "created", "harness_version", "seed", "trials", "traces_per_cell",
                "tokenizer", "spec_hash"):  # fmt: skip
        if manifest.get(key) is not None:
            items.append((key, manifest[key]))
    git = manifest.get("git")
    if isinstance(git, dict) and git.get("commit"):
        items.append(("git", f"{git['commit']}{' (dirty)' if git.get('dirty') else ''}"))
    if manifest.get("overrides"):
        items.append(("overrides", " ".join(map(str, manifest["overrides"]))))
    strategies = [
        s if isinstance(s, str) else s.get("name") for s in scenario.get("strategies", ())
    ]
    if strategies:
        items.append(("strategies", ", ".join(map(str, strategies))))
    out = ['<dl class="spec">']
    out += [f"<dt>{escape(k)}</dt><dd>{escape(str(v))}</dd>" for k, v in items]
    out.append("</dl>")
    ladder = scenario.get("ladder") or []
    if ladder:
        out.append("<h3>Ladder</h3>")
        rows = [[lv.get("name"), lv.get("instruction") or "(strategy's)", lv.get("budget_tokens"),
                 lv.get("group_size", 0) or "all"] for lv in ladder]  # fmt: skip
        out.append(table(["level", "instruction", "budget (tokens)", "group size"], rows, 2))
    cells = [c for c in manifest.get("cells") or () if isinstance(c, dict)]
    if len(cells) > 1:
        out.append("<h3>Cells</h3>")
        out.append(
            table(["cell", "axes"], [[c.get("id"), json.dumps(c.get("axes"))] for c in cells])
        )
    full = json.dumps(manifest, indent=2, sort_keys=True, default=str)
    out.append("<details><summary>Full manifest</summary>")
    out.append(f'<pre class="manifest">{escape(full)}</pre></details>')
    return "\n".join(out)


def _scale(agg: Aggregates) -> str:
    s = agg.summary
    if s.empty:
        return "No trials."
    cells, strategies = s["cell"].nunique(), s["strategy"].nunique()
    return (
        f"{int(s['trials'].max())} trials × {strategies} strategies in {cells} cell(s): "
        f"{int(s['trials'].sum())} strategy runs, {int(s['errors'].sum())} errors."
    )


def _headline(agg: Aggregates, shown: int = SHOWN) -> str:
    """What a reviewer reads first: the worst cells × strategies by silent collapse, ranked
    (sim.report.headline), the reference baselines never among them."""
    if agg.summary.empty:
        return '<p class="note">No trials.</p>'
    found = findings(agg.summary)
    refs = references_seen(agg.summary)
    note = (
        f" Baselines ({', '.join(refs)}) are there to compare with and are not ranked."
        if refs
        else ""
    )
    errors = int(agg.summary["errors"].sum())
    if not found:
        where = " outside the baselines" if refs else ""
        line = f'<p class="note">No silent collapse{where}.{escape(note)}</p>'
    else:
        items = "".join(f"<li>{escape(f.text())}</li>" for f in found[:shown])
        more = len(found) - shown
        rest = (
            f'<p class="note">and {more} more with silent collapse: see the'
            ' <a href="#rates">rates table</a>.</p>'
            if more > 0
            else ""
        )
        many = agg.summary["cell"].nunique() > 1
        unit = "cell × strategy pair" if many else "strateg"
        plural = ("s" if many else "ies") if len(found) != 1 else ("" if many else "y")
        line = (
            f'<div class="headline"><p class="warn">Worst silent collapse, ranked'
            f" ({len(found)} {unit}{plural} in all):</p>"
            f'<ol class="worst">{items}</ol>{rest}<p class="note">{escape(note)}</p></div>'
        )
    if errors:
        line += f'<p class="warn">{errors} trial(s) raised errors; no rate counts them.</p>'
    return line


def _figure_html(stem: str, cell: str, png: bytes) -> str:
    name = stem.split("-", 1)[0]
    data = base64.b64encode(png).decode()
    caption = CAPTIONS.get(name, "") + (f" Cell: {cell}." if cell else "")
    return (
        f'<figure id="plot-{escape(stem)}"><img alt="{escape(name + " " + cell)}"'
        f' src="data:image/png;base64,{data}">'
        f"<figcaption>{escape(caption)}</figcaption></figure>"
    )


def _plots(agg: Aggregates, ctx: Context, rendered: Rendered | None = None) -> tuple[str, str]:
    """(the cross-cell figure of a sweep, shown right below the headline; every other
    figure), from `rendered` when the figures were drawn already."""
    top, out = "", ['<h2 id="plots">Plots</h2>']
    pngs = (
        ((stem, cell, render(fig, "png")) for stem, cell, fig in figures(agg, ctx))
        if rendered is None
        else ((stem, cell, data["png"]) for stem, cell, data in rendered)
    )
    for stem, cell, png in pngs:
        html = _figure_html(stem, cell, png)
        if stem == "sweep":
            top = html
            out.append('<p class="note">The figure across the sweep is at the'
                       ' <a href="#plot-sweep">top</a>.</p>')  # fmt: skip
        else:
            out.append(html)
    return top, "\n".join(out)


def render_report(
    rows: Iterable[dict[str, Any]],
    traces: Iterable[dict[str, Any]],
    manifest: dict[str, Any],
    *,
    plots: bool = True,
    judge: tuple[dict[str, Any], list[dict[str, Any]]] | None = None,
    incomplete: str | None = None,
    rendered: Rendered | None = None,
) -> str:
    """The whole page as a string; `plots=False` leaves the figures out (they take most of
    the time to build); `judge` adds the judge grader's agreement and disagreements;
    `incomplete` (sim.runs.results.Run.incomplete_text) heads the page of a run cut short;
    `rendered` (sim.report.plots.render_run) supplies figures drawn already."""
    view = run_view(manifest)
    agg = aggregate_run(rows, manifest)
    payload = trace_payload(traces, view.strategies, view.cells)
    style = PAGE_STYLE + STYLE
    csp = (
        f"default-src 'none'; img-src data:; style-src {_csp_hash(style)}; "
        f"script-src {_csp_hash(SCRIPT)}; base-uri 'none'; form-action 'none'"
    )
    scenario = _scenario(manifest)
    name = str(scenario.get("name") or manifest.get("run_id") or "run")
    sweep, plot_html = _plots(agg, context(manifest), rendered) if plots else ("", "")
    viewer = (
        MARKUP
        + f'\n<script type="application/json" id="trace-data">{script_json(payload)}</script>'
        if payload["traces"]
        else '<p class="note">This run kept no trace texts (see traces_per_cell).</p>'
    )
    return "\n".join(
        [
            "<!doctype html>",
            '<html lang="en"><head><meta charset="utf-8">',
            f'<meta http-equiv="Content-Security-Policy" content="{escape(csp, quote=False)}">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>compaction-sim report: {escape(name)}</title>",
            f"<style>{style}</style></head><body>",
            f"<header><h1>compaction-sim report: {escape(name)}</h1>",
            f'<p class="note">{escape(str(scenario.get("description") or ""))}</p>',
            f'<p class="warn">{escape(incomplete)}</p>' if incomplete else "",
            f"<p>{_scale(agg)}</p>",
            _headline(agg),
            '<nav><a href="#spec">spec</a><a href="#rates">rates</a><a href="#survival-table">'
            'survival</a><a href="#blame">blame</a><a href="#diagnosis">diagnosis</a>'
            '<a href="#plots">plots</a><a href="#traces">trace viewer</a></nav></header>',
            f'<section id="sweep">{sweep}</section>' if sweep else "",
            '<section><h2 id="spec">Run spec</h2>',
            _spec(manifest),
            "</section><section>",
            tables_html(agg),
            "</section><section>",
            plot_html if plots else '<p class="note">(plots left out)</p>',
            "</section>",
            _judge(judge) if judge is not None else "",
            '<section id="traces"><h2>Trace viewer</h2>',
            '<p class="note">Pick a trial and a fact: its text at every level, side by side, with'
            " the grade, the sentence that carries it (highlighted), the budget and token counts."
            " Link to one with <code>report.html#trial=000001:re_ranking&amp;fact=f1</code>"
            " (add <code>&amp;cell=&lt;cell id&gt;</code> in a sweep); a link like that opens"
            " with the viewer first, and says so when this report holds no such trial.</p>",
            viewer,
            "</section>",
            f"<script>{SCRIPT}</script>" if payload["traces"] else "",
            "</body></html>",
            "",
        ]
    )


def _judge(judge: tuple[dict[str, Any], list[dict[str, Any]]], show: int = 200) -> str:
    """The text grader against the judge model (compsim regrade RUN --grader judge)."""
    summary, disagreements = judge
    who = summary.get("judge", {})
    head = ("class", "cases", "agree", "rate [95% CI]")
    body = []
    for name, r in [("all", summary.get("overall", {})), *summary.get("by_class", {}).items()]:
        rate = r.get("rate")
        ci = pct_ci(rate, r.get("lo", 0), r.get("hi", 0))
        body.append((name, str(r.get("cases", 0)), str(r.get("agree", 0)), ci))
    rows = "".join(
        "<tr>" + "".join(f"<td>{escape(c)}</td>" for c in cells) + "</tr>" for cells in body
    )
    wrong = "".join(
        "<tr>"
        + "".join(
            f"<td>{escape(str(d.get(k, '')))}</td>"
            for k in ("trial_id", "level", "fact_id", "cls", "text_grade", "judge_grade", "reply")
        )
        + "</tr>"
        for d in disagreements[:show]
    )
    return (
        '<section id="judge"><h2>Text grader against the judge model</h2>'
        f'<p class="note">Judge: {escape(str(who.get("name", "")))} '
        f"{escape(str(who.get('model', '')))}; {summary.get('cases', 0)} fact-level verdicts, "
        f"{summary.get('unanswered', 0)} unanswered. Where the two differ, read both.</p>"
        "<table><thead><tr>" + "".join(f"<th>{h}</th>" for h in head) + "</tr></thead>"
        f"<tbody>{rows}</tbody></table>"
        f"<h3>Disagreements ({len(disagreements)}; first {min(show, len(disagreements))})</h3>"
        "<table><thead><tr><th>trial</th><th>level</th><th>fact</th><th>class</th>"
        "<th>text grader</th><th>judge</th><th>judge's reply</th></tr></thead>"
        f"<tbody>{wrong}</tbody></table></section>"
    )


def write_report(
    run: RunLike, path: str | Path, *, plots: bool = True, rendered: Rendered | None = None
) -> Path:
    """`compsim report`'s entry point: the run's report.html, written atomically
    (`rendered`: the figures, drawn once for plots/ and the page)."""
    from sim.runs.regrade import read_judgements

    where = getattr(run, "path", None)
    judge = read_judgements(Path(where)) if where is not None else None
    incomplete = getattr(run, "incomplete_text", None)
    html = render_report(
        run.rows(),
        run.traces,
        run.manifest,
        plots=plots,
        judge=judge,
        incomplete=incomplete,
        rendered=rendered,
    )
    return write_file(Path(path), html.encode("utf-8"))
