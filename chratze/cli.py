"""``chratze`` subcommands. Each subcommand imports its part lazily so the referee and the
page never load the training stack."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Callable, Sequence

Command = Callable[[argparse.Namespace], int]


def _replay(args: argparse.Namespace) -> int:
    from engine import history
    from engine.report import format_text, session_summary

    status = 0
    docs = []
    for path in args.files:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            print(f"{path}: cannot read: {exc.strerror}", file=sys.stderr)
            status = 2
            continue
        result = history.read(text)
        for problem in result.problems:
            print(f"{path}: {problem}", file=sys.stderr)
            status = max(status, 1)
        summary = session_summary(result.session)
        if args.json:
            docs.append({"file": str(path), "problems": [str(p) for p in result.problems], **summary})
        else:
            if len(args.files) > 1:
                print(f"== {path}")
            print(format_text(summary))
    if args.json:
        json.dump(docs if len(docs) != 1 else docs[0], sys.stdout, ensure_ascii=False, indent=2)
        print()
    return status


def _simulate(args: argparse.Namespace) -> int:
    import random

    from engine import history
    from engine.session import Session
    from engine.simulate import simulate_session

    session = simulate_session(random.Random(args.seed), args.hands, args.players, Session())
    text = history.dumps(session)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="chratze", description="A referee for the Swiss card game Chratze.")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("replay", help="replay saved sessions: tricks, flags, payouts, balances")
    p.add_argument("files", nargs="+", help="hand-history JSON files")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    p.set_defaults(run=_replay)

    p = sub.add_parser("simulate", help="write a random session (known hands) as a hand history")
    p.add_argument("--hands", type=int, default=8)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", help="file to write (default: standard output)")
    p.set_defaults(run=_simulate)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    run: Command = args.run
    try:
        return run(args)
    except KeyboardInterrupt:
        return 130
