"""``chratze`` subcommands. None of them loads the training stack (torch, Ultralytics), and each loads
OpenCV, ONNX Runtime or Flask only when it runs, so ``chratze replay`` starts at once. Late imports
are the command line's alone: it is the top layer, so one can step round no circle
(``tests/test_import_graph.py``)."""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Callable, Sequence

from engine import history
from engine.cards import RANKS
from engine.report import format_text, session_summary
from engine.session import Session
from engine.simulate import simulate_session

from .options import chosen_scenes, model_options, recognizer_from, scene_options
from .table_cli import add_commands as add_table_commands
from .teach_cli import add_commands as add_teach_commands

Command = Callable[[argparse.Namespace], int]


def _replay(args: argparse.Namespace) -> int:
    status = 0
    docs = []
    for path in args.files:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            print(f"{path}: cannot read: {exc.strerror}", file=sys.stderr)
            status = 2
            continue
        except UnicodeDecodeError as exc:
            print(f"{path}: not UTF-8: byte {exc.object[exc.start]:#04x} at offset {exc.start} "
                  "(save the record as UTF-8)", file=sys.stderr)
            status = max(status, 1)
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
    if args.ruleset == "kratzen":
        from engine.kratzen_session import KratzenSession  # noqa: PLC0415
        from engine.kratzen_simulate import simulate_kratzen_session  # noqa: PLC0415

        players = len(args.bots) if args.bots else args.players
        try:
            session = simulate_kratzen_session(random.Random(args.seed), args.hands, players, KratzenSession(),
                                               args.bots)
        except ValueError as exc:
            print(f"chratze simulate: {exc}", file=sys.stderr)
            return 2
    elif args.bots:
        import numpy as np  # noqa: PLC0415

        from engine.bot_evening import play_session  # noqa: PLC0415
        from engine.simulate import NAMES  # noqa: PLC0415

        try:
            session = play_session(np.random.default_rng(args.seed), args.hands, Session(),
                                   NAMES[:len(args.bots)], args.bots)
        except ValueError as exc:
            print(f"chratze simulate: {exc}", file=sys.stderr)
            return 2
    else:
        session = simulate_session(random.Random(args.seed), args.hands, args.players, Session())
    text = history.dumps(session)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


def _advise(args: argparse.Namespace) -> int:
    """Odds and expected Rappen of chratzing, coming along and passing (engine.advisor)."""
    from engine.advisor import advise  # noqa: PLC0415
    from engine.cards import CardError, card  # noqa: PLC0415
    from engine.rules import HouseRules  # noqa: PLC0415

    try:
        hand = [card(c) for c in args.hand.replace(",", " ").split()]
        up = card(args.trump)
        ante = HouseRules().ante
        advice = advise(hand, up, args.seat, args.players, args.pot - args.players * ante if args.pot else 0,
                        seed=args.seed)
    except (CardError, ValueError) as exc:
        print(f"chratze advise: {exc}", file=sys.stderr)
        return 2
    if args.json:
        json.dump(advice.to_dict(), sys.stdout, indent=2)
        print()
        return 0
    print(f"{' '.join(c.code for c in hand)} with {up.code} turned up; seat {args.seat} of {args.players} "
          f"(1: the dealer's left); the other players play as the heuristic bot")
    for c in advice.choices:
        if c.say == "weg":
            print("  weg:      nothing more to win or pay (the ante stays in the pot)")
            continue
        target = "2 tricks" if c.say == "chratze" else "1 trick"
        lay = " ".join(x.code for x in c.lay) or "nothing"
        print(f"  {c.say + ':':9s} makes {target} in {100 * c.made:.1f} % (+/- {100 * c.made_half:.1f}), "
              f"expects {c.rappen:+.1f} Rappen (+/- {c.rappen_half:.1f}); lay down {lay}  "
              f"[comes up in {100 * c.applies:.0f} % of deals, {c.hands} played out]")
    print(f"best: {advice.best.say}")
    return 0


def _detect(args: argparse.Namespace) -> int:
    from vision.recognize.recognizer import ModelMissing, read_image

    try:
        recognize = recognizer_from(args)
    except ModelMissing as exc:
        print(f"chratze detect: {exc}", file=sys.stderr)
        return 2
    status, results = 0, []
    for path in args.images:
        try:
            found = recognize(read_image(path))
        except ValueError as exc:
            print(f"{exc}", file=sys.stderr)
            results.append({"image": str(path), "error": str(exc)})
            status = 1
            continue
        results.append({"image": str(path), "cards": [d.to_dict() for d in found]})
        if not args.json:
            print(f"{path}: {len(found)} card(s)")
            for d in found:
                x1, y1, x2, y2 = d.box
                print(f"  {d.card:3s} {d.confidence:.2f}  box {x1:.0f},{y1:.0f} {x2:.0f},{y2:.0f}  "
                      f"corners {' '.join(f'{x:.0f},{y:.0f}' for x, y in d.corners)}{_under(d, found)}")
    if args.json:
        json.dump(results, sys.stdout, indent=2)
        print()
    return status


def _under(d, found) -> str:
    """What lies on a card and the part of it in view, for the text output ('' for a card under none)."""
    if not d.under:
        return ""
    x1, y1, x2, y2 = d.visible
    return f"  under {', '.join(found[k].card for k in d.under)}, in view {x1:.0f},{y1:.0f} {x2:.0f},{y2:.0f}"


def _eval_detector(args: argparse.Namespace) -> int:
    from vision.training.evaluate import classify_real_boxes, evaluate_generated, evaluate_real, real_photos

    recognize = recognizer_from(args)
    if args.scenes:
        scenes, title = chosen_scenes(args)
        rep = evaluate_generated(recognize, args.scenes, source=scenes)
        print("\n".join(rep.lines(title, "per-card accuracy")))
    real = Path(args.real) if args.real else real_photos()
    if real.is_dir():
        rep = evaluate_real(recognize, real, args.limit, args.half)
        which = f", the {args.half} half" if args.half else ""
        print("\n".join(rep.lines(f"real photos ({real}{which})", "rank accuracy")))
        n, acc, confusion = classify_real_boxes(recognize, real, args.limit, args.half)
        print(f"  classifier alone on the labelled boxes: rank right on {acc:.3f} of {n} cards")
        print("  per rank, right/total: " + per_rank(confusion))
    else:
        print(f"error: real photos not found at {real} (set CHRATZE_SHARED or --real)", file=sys.stderr)
        return 1
    return 0


def per_rank(confusion: dict[tuple[str, str], int]) -> str:
    """``9 64/89, T 57/82, ...`` from {(true rank, read rank): n}, in the order of the ranks."""
    ranks = [r for r in RANKS if any(t == r for t, _ in confusion)]
    right = {r: confusion.get((r, r), 0) for r in ranks}
    total = {r: sum(v for (t, _), v in confusion.items() if t == r) for r in ranks}
    return ", ".join(f"{r} {right[r]}/{total[r]}" for r in ranks)


def _serve(args: argparse.Namespace) -> int:
    from webui.serve import serve

    return serve(args)


def _add_serve(sub) -> None:
    p = sub.add_parser("serve", help="the tablet page (and the camera) for a live table")
    p.add_argument("--host", default="0.0.0.0")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--data", default="runs/table", help="folder for the table's database, snapshots and layout")
    p.add_argument("--source", help="camera: webcam index, video file, image folder, http/rtsp URL, "
                   "or 'auto' (webcam 0 if attached, else the demo)")
    p.add_argument("--layout", help="table layout JSON (zones, or a mat's layout)")
    p.add_argument("--rules", help="house rules: a JSON file or inline JSON")
    pin = p.add_mutually_exclusive_group()
    pin.add_argument("--pin", help="the table's PIN (default: a random 6-digit one, printed at start)")
    pin.add_argument("--no-pin", action="store_true", help="no PIN: anyone who reaches the page may change the record")
    p.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                   help="a name the page may be opened by besides this machine's own (its LAN address, host "
                        "name, localhost); others are refused, so no other site can reach in by DNS rebinding")
    p.add_argument("--demo", action="store_true", help="no camera: referee the built-in virtual table video")
    p.add_argument("--deck", help="read the cards with this taught deck (`chratze decks`; default: the one chosen "
                                  "on the setup page, else the shipped networks alone)")
    p.set_defaults(run=_serve)


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
    p.add_argument("--bots", help="a bot per seat, one letter each in play order: r random, h the heuristic "
                                  "bot, s the search bot (one seat at most in Chratze, about 0.3 s a hand) "
                                  "(e.g. shrr: four players; overrides --players)")
    p.add_argument("--ruleset", choices=["chratze", "kratzen"], default="chratze",
                   help="the game (kratzen: 3 to 6 players, docs/kratzen.md)")
    p.add_argument("--out", help="file to write (default: standard output)")
    p.set_defaults(run=_simulate)

    p = sub.add_parser("advise", help="should I chratze, come along or pass? odds and expected Rappen")
    p.add_argument("--trump", required=True, help="the upcard, e.g. Kh")
    p.add_argument("--hand", required=True, help='your four cards, e.g. "As 9s Jh 7c"')
    p.add_argument("--seat", type=int, required=True, help="1 on the dealer's left ... the number of players: the dealer")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--pot", type=int, help="Rappen in the pot with this hand's antes (default: the antes alone)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=_advise)

    p = sub.add_parser("detect", help="find and name the cards in images")
    p.add_argument("images", nargs="+")
    p.add_argument("--json", action="store_true")
    model_options(p, photos=True)
    p.set_defaults(run=_detect)

    p = sub.add_parser("eval-detector", help="recall, precision, accuracy and mAP of the shipped model")
    scene_options(p)
    p.add_argument("--things", type=float, default=0.0,
                   help="share of generated scenes with things over the cards (default 0: the scenes "
                        "every model round was measured on)")
    p.add_argument("--real", help="labelled real photos (default: real/poker-photos in the shared folder)")
    p.add_argument("--limit", type=int, default=None, help="at most this many real photos")
    p.add_argument("--half", choices=["tune", "report"],
                   help="only that half of the real photos (fixed by file name): choose on tune, report on report")
    model_options(p, photos=True)
    p.set_defaults(run=_eval_detector)

    add_table_commands(sub)
    add_teach_commands(sub)
    _add_serve(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    run: Command = args.run
    try:
        return run(args)
    except KeyboardInterrupt:
        return 130
