"""`compsim cache export DB OUT.jsonl` and `compsim cache import IN.jsonl DB`: convert between
the SQLite record/replay cache (what a run records into) and a JSONL cassette (what a
repository commits and replays read-only). Exit codes: 0, or 2 for a missing or malformed
file (one line naming it, and the line number for a cassette)."""

from __future__ import annotations

import argparse
from pathlib import Path

from sim.errors import UserError
from sim.summarizers.cassette import export_jsonl, import_jsonl, is_cassette


def register(subs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subs.add_parser("cache", help="convert the record/replay cache to and from JSONL")
    actions = p.add_subparsers(dest="action", required=True, parser_class=type(p))
    ex = actions.add_parser("export", help="SQLite cache -> JSONL cassette (recording order)")
    ex.add_argument("db", type=Path, help="the SQLite cache (--cache of a run)")
    ex.add_argument("out", type=Path, help="the cassette to write (.jsonl)")
    ex.set_defaults(func=export)
    im = actions.add_parser("import", help="JSONL cassette -> SQLite cache (rows merged)")
    im.add_argument("cassette", type=Path, help="the cassette to read (.jsonl)")
    im.add_argument("db", type=Path, help="the SQLite cache to add rows to (made if missing)")
    im.set_defaults(func=import_)


def export(args: argparse.Namespace) -> int:
    if not is_cassette(args.out):
        raise UserError(f"{args.out}: a cassette's name ends in .jsonl")
    n = export_jsonl(args.db, args.out)
    size = args.out.stat().st_size
    print(f"wrote {args.out}: {n} calls, {size / 1024:.0f} KiB")
    return 0


def import_(args: argparse.Namespace) -> int:
    if is_cassette(args.db):
        raise UserError(f"{args.db}: import writes a SQLite cache, not a .jsonl file")
    read, added = import_jsonl(args.cassette, args.db)
    print(f"{args.db}: {read} calls read from {args.cassette}, {added} new rows")
    return 0
