"""The report's trace viewer: a fact's text at every level, side by side, with the grader's
evidence (grade, sentence, span) and each level's budget and token counts.

Trace rows travel as JSON inside `<script type="application/json">`, with `<`, `>` and `&`
written as `\\u003c` etc., so no text can close the script element; the inline script reads it
with `JSON.parse` and inserts every string with `textContent`, never as markup. Level texts are
stored once in a string table, because every strategy of a trial shares the same L0.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from sim.types import AT_FLOOR_LABELS as AT_FLOOR


def _grades(level: dict[str, Any]) -> dict[str, list[Any]]:
    out = {}
    for fid, g in (level.get("grades") or {}).items():
        out[str(fid)] = [
            g.get("grade"),
            g.get("sentence") or "",
            g.get("span_tokens"),
            g.get("missing") or [],
        ]
    return out


def trace_payload(
    traces: Iterable[dict[str, Any]], strategies: Sequence[str] = (), cells: Sequence[str] = ()
) -> dict[str, Any]:
    """Trace rows (sim.runs.records.trace_row + `cell`) in the viewer's compact shape, in cell,
    trial and strategy order (the manifest's, when given), with the trace and fact to open
    first: the first fact that ends below its floor, if any."""
    s_rank = {s: i for i, s in enumerate(strategies)}
    c_rank = {c: i for i, c in enumerate(cells)}

    def order(t: dict[str, Any]) -> tuple[int, str, int, int, str]:
        cell, strategy = str(t.get("cell") or ""), str(t.get("strategy", ""))
        return (
            c_rank.get(cell, len(c_rank)),
            cell,
            int(t.get("trial") or 0),
            s_rank.get(strategy, len(s_rank)),
            strategy,
        )

    texts: list[str] = []
    index: dict[str, int] = {}

    def ref(text: str) -> int:
        if text not in index:
            index[text] = len(texts)
            texts.append(text)
        return index[text]

    out: list[dict[str, Any]] = []
    first: tuple[int, str] | None = None
    for t in sorted(traces, key=order):
        levels = [
            {
                "name": str(lv.get("name", "")),
                "budget": lv.get("budget_tokens") if k else None,
                "tin": lv.get("tokens_in"),
                "tout": lv.get("tokens_out"),
                "text": ref(str(lv.get("text") or "")),
                "grades": _grades(lv),
                "flagged": list(lv.get("flagged") or ()),
                "never_read": list(lv.get("never_read") or ()),
            }
            for k, lv in enumerate(t.get("levels") or ())
        ]
        facts: list[dict[str, Any]] = [
            {
                "id": str(f.get("fact_id")),
                "text": str(f.get("text", "")),
                "cls": str(f.get("cls", "")),
                "superseded": bool(f.get("superseded")),
            }
            for f in t.get("facts") or ()
        ]
        if first is None and levels:
            leaf = levels[-1]["grades"]
            for f in facts:
                grade = leaf.get(f["id"], [None])[0]
                if not f["superseded"] and grade is not None and grade not in AT_FLOOR:
                    first = (len(out), f["id"])
                    break
        out.append(
            {
                "cell": str(t.get("cell") or ""),
                "trial_id": str(t.get("trial_id", "")),
                "strategy": str(t.get("strategy", "")),
                "aborted_at": t.get("aborted_at"),
                "failure": t.get("failure"),
                "levels": levels,
                "facts": facts,
            }
        )
    start: tuple[int, str] = first or (
        0,
        out[0]["facts"][0]["id"] if out and out[0]["facts"] else "",
    )
    return {"texts": texts, "traces": out, "start": {"trace": start[0], "fact": start[1]}}


def script_json(data: Any) -> str:
    """JSON that is safe inside a `<script>` element: `</script>` and `<!--` cannot occur."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


MARKUP = """<div class="tv-controls">
<label>Trial <select id="tv-trial"></select></label>
<label>Fact <select id="tv-fact"></select></label>
</div>
<p id="tv-missing" class="warn" role="alert" hidden></p>
<p id="tv-fact-text" class="tv-fact"></p>
<p id="tv-meta" class="note"></p>
<div id="tv-levels" class="tv-levels"></div>"""

SCRIPT = r"""(function () {
  "use strict";
  var node = document.getElementById("trace-data");
  if (!node) { return; }
  var data = JSON.parse(node.textContent);
  var texts = data.texts, traces = data.traces;
  var trialSel = document.getElementById("tv-trial");
  var factSel = document.getElementById("tv-fact");
  var box = document.getElementById("tv-levels");
  var factText = document.getElementById("tv-fact-text");
  var meta = document.getElementById("tv-meta");
  var missing = document.getElementById("tv-missing");
  var GRADES = ["verbatim", "actionable", "degraded", "dropped", "inverted"];
  if (!traces.length) { return; }

  // A sweep's trial ids are `<cell>/000001:key`; links name the trial without its cell
  // (`#trial=000001:key&cell=<cell>`, as the README shows) or with it.
  function shortId(t) {
    var pre = t.cell ? t.cell + "/" : "";
    return pre && t.trial_id.indexOf(pre) === 0 ? t.trial_id.slice(pre.length) : t.trial_id;
  }
  function label(t) { return (t.cell ? t.cell + " \u00b7 " : "") + shortId(t); }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined && text !== null) { e.textContent = String(text); }
    return e;
  }
  function clear(n) { while (n.firstChild) { n.removeChild(n.firstChild); } }
  function gradeClass(g) { return "g-" + (GRADES.indexOf(g) >= 0 ? g : "unknown"); }
  function tok(n) { return n === null || n === undefined ? "\u2014" : String(n) + " tok"; }
  function row(dl, key, value) {
    dl.appendChild(el("dt", null, key));
    dl.appendChild(el("dd", null, value));
  }

  traces.forEach(function (t, i) {
    trialSel.appendChild(new Option(label(t), String(i)));
  });

  function fillFacts(t, want) {
    clear(factSel);
    t.facts.forEach(function (f) {
      var name = f.id + " \u00b7 " + f.cls + (f.superseded ? " \u00b7 superseded" : "");
      name += " \u2014 " + f.text;
      factSel.appendChild(new Option(name, f.id));
    });
    if (want && t.facts.some(function (f) { return f.id === want; })) { factSel.value = want; }
  }

  function fill(pre, text, sentence, grade) {
    var at = sentence ? text.indexOf(sentence) : -1;
    if (at < 0) { pre.appendChild(document.createTextNode(text)); return null; }
    pre.appendChild(document.createTextNode(text.slice(0, at)));
    var mark = el("mark", gradeClass(grade), sentence);
    pre.appendChild(mark);
    pre.appendChild(document.createTextNode(text.slice(at + sentence.length)));
    return mark;
  }

  function column(lv, k, fid) {
    var g = lv.grades[fid] || null;
    var grade = g ? g[0] : "not graded";
    var col = el("div", "tv-col");
    var head = el("div", "tv-head");
    head.appendChild(el("h3", null, lv.name));
    head.appendChild(el("span", "badge " + gradeClass(grade), grade));
    col.appendChild(head);
    var dl = el("dl", "tv-nums");
    row(dl, "budget", k === 0 ? "raw turns" : tok(lv.budget));
    row(dl, "tokens in", k === 0 ? "\u2014" : tok(lv.tin));
    row(dl, "tokens out", tok(lv.tout));
    if (g) {
      row(dl, "fact span", tok(g[2]));
      if (g[3].length) { row(dl, "missing", g[3].join(", ")); }
    }
    if (lv.flagged.indexOf(fid) >= 0) { row(dl, "flag", "flagged degraded"); }
    if (lv.never_read.indexOf(fid) >= 0) { row(dl, "read", "never read (tail past the prefix)"); }
    col.appendChild(dl);
    col.appendChild(el("p", "tv-sentence", g && g[1] ? g[1] : "(no sentence carries this fact)"));
    var pre = el("pre", "tv-text");
    var text = texts[lv.text];
    var mark = null;
    if (text) {
      mark = fill(pre, text, g ? g[1] : "", grade);
    } else {
      pre.textContent = "(text not kept)";
    }
    col.appendChild(pre);
    return { pre: pre, mark: mark, col: col };
  }

  function show(i, fid, remember) {
    var t = traces[i];
    trialSel.value = String(i);
    fillFacts(t, fid);
    fid = factSel.value;
    var f = t.facts.filter(function (x) { return x.id === fid; })[0];
    factText.textContent = f ? "Fact " + f.id + " (" + f.cls + "): " + f.text : "(no facts)";
    var info = "strategy " + t.strategy + (t.cell ? " \u00b7 cell " + t.cell : "");
    if (t.aborted_at) {
      info += " \u00b7 stopped loudly at " + t.aborted_at + ": " + (t.failure || "");
    }
    meta.textContent = info;
    clear(box);
    var cols = t.levels.map(function (lv, k) { return column(lv, k, fid); });
    cols.forEach(function (c) { box.appendChild(c.col); });
    if (t.aborted_at) {
      var stop = el("div", "tv-col tv-stop");
      stop.appendChild(el("h3", null, t.aborted_at));
      stop.appendChild(el("p", null, "RecallFloorViolation / loud failure: " + (t.failure || "")));
      box.appendChild(stop);
    }
    cols.forEach(function (c) {
      if (c.mark) { c.pre.scrollTop = Math.max(0, c.mark.offsetTop - 48); }
    });
    if (remember) {
      missing.hidden = true;
      var h = "#trial=" + encodeURIComponent(shortId(t)) + "&fact=" + encodeURIComponent(fid);
      if (t.cell) { h += "&cell=" + encodeURIComponent(t.cell); }
      try { history.replaceState(null, "", h); } catch (e) { /* file:// in some browsers */ }
    }
  }

  function say(text) {
    missing.textContent = text;
    missing.hidden = false;
  }

  function firstViewer() {
    var section = document.getElementById("traces");
    var header = document.querySelector("header");
    if (section && header && header.nextElementSibling !== section) {
      // a deep link opens with its trace first: no scrolling, nothing hidden (moved
      // before filling, since moving a node resets the scroll of its text boxes)
      header.parentNode.insertBefore(section, header.nextElementSibling);
    }
  }

  function fromHash() {
    var h = location.hash.replace(/^#/, "");
    if (h.indexOf("trial=") < 0) { return false; }
    var p = new URLSearchParams(h);
    var id = p.get("trial"), cell = p.get("cell"), fact = p.get("fact");
    var hits = [];
    for (var i = 0; i < traces.length; i++) {
      var t = traces[i];
      if ((t.trial_id === id || shortId(t) === id) && (cell === null || t.cell === cell)) {
        hits.push(i);
      }
    }
    firstViewer();
    missing.hidden = true;
    var where = cell === null ? "" : " in cell " + cell;
    if (!hits.length) {
      var start = traces[data.start.trace];
      show(data.start.trace, data.start.fact, false);
      say("The link asks for trial " + id + where + ", which this report holds no trace" +
        " of (a run keeps the texts of the first trials of each cell only: traces_per_cell)." +
        " Showing " + label(start) + " instead.");
      return true;
    }
    show(hits[0], fact, false);
    var shown = traces[hits[0]];
    if (fact !== null && factSel.value !== fact) {
      say("Trial " + id + where + " has no fact " + fact + "; showing " +
        (factSel.value || "its first fact") + ".");
    } else if (hits.length > 1) {
      say("Trial " + id + " is in " + hits.length + " cells; showing cell " + shown.cell +
        " (add &cell=<cell id> to the link to choose).");
    }
    return true;
  }

  function picked() { show(Number(trialSel.value), factSel.value, true); }
  trialSel.addEventListener("change", picked);
  factSel.addEventListener("change", picked);
  window.addEventListener("hashchange", fromHash);
  if (!fromHash()) { show(data.start.trace, data.start.fact, false); }
})();
"""

STYLE = """
.tv-controls{display:flex;gap:1.5em;flex-wrap:wrap;margin:.5em 0}
.tv-controls select{max-width:44em;font:inherit}
.tv-fact{font-weight:600;margin:.4em 0}
.tv-levels{display:grid;grid-auto-flow:column;grid-auto-columns:minmax(15em,1fr);gap:.8em;
  overflow-x:auto}
.tv-col{border:1px solid #ccd;border-radius:6px;padding:.5em;background:#fbfbfd;min-width:0}
.tv-stop{background:#fff3f3;border-color:#d99}
.tv-head{display:flex;justify-content:space-between;align-items:center}
.tv-head h3{margin:0}
.tv-nums{display:grid;grid-template-columns:auto 1fr;gap:0 .8em;margin:.4em 0;font-size:.85em}
.tv-nums dt{color:#556}.tv-nums dd{margin:0;font-variant-numeric:tabular-nums}
.tv-sentence{font-size:.85em;font-style:italic;min-height:2.4em;margin:.3em 0}
.tv-text{position:relative;white-space:pre-wrap;word-break:break-word;max-height:30em;
  overflow:auto;font-size:.75em;background:#fff;border:1px solid #e2e2ea;padding:.4em;margin:0}
.badge{padding:.1em .5em;border-radius:1em;font-size:.8em;font-weight:600}
.g-verbatim{background:#1a7f37;color:#fff}.g-actionable{background:#7bc96f;color:#000}
.g-degraded{background:#f2c744;color:#000}.g-dropped{background:#d1242f;color:#fff}
.g-inverted{background:#6f42c1;color:#fff}.g-unknown{background:#ccc;color:#000}
"""
