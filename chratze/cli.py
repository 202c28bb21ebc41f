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


def _model_or_none(value: str) -> Path | None:
    return None if value.lower() == "none" else Path(value)


def recognizer_from(args: argparse.Namespace, **extra):
    """The recognizer the options of :func:`model_options` ask for (the benchmarks take them too)."""
    from vision.recognize import Recognizer

    return Recognizer(args.detector, args.classifier, conf=args.conf, iou=args.nms_iou, same_read=args.same_read,
                      second_look=args.second_look,
                      cross_cover=args.cross_cover, views=args.views, corners=args.corners,
                      corner_passes=args.corner_passes, index=args.index,
                      snap_edges=args.snap_edges, plane=args.plane, floor=args.floor, read_sure=args.read_sure,
                      fit_input=args.fit_input, **extra)


def _detect(args: argparse.Namespace) -> int:
    from vision.recognize import ModelMissing, read_image

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
    from vision.evaluate import EVAL_SEED, classify_real_boxes, evaluate_generated, evaluate_real, real_photos

    recognize = recognizer_from(args)
    if args.scenes:
        rep = evaluate_generated(recognize, args.scenes, args.seed, args.things)
        title = "generated validation scenes" + (f" (things over cards in {args.things:.0%})" if args.things else "")
        title += f" from seed {args.seed}" if args.seed != EVAL_SEED else ""
        print("\n".join(rep.lines(title, "per-card accuracy")))
    real = Path(args.real) if args.real else real_photos()
    if real.is_dir():
        rep = evaluate_real(recognize, real, args.limit)
        print("\n".join(rep.lines(f"real photos ({real})", "rank accuracy")))
        n, acc, confusion = classify_real_boxes(recognize, real, args.limit)
        print(f"  classifier alone on the labelled boxes: rank right on {acc:.3f} of {n} cards")
        print("  per rank, right/total: " + per_rank(confusion))
    else:
        print(f"error: real photos not found at {real} (set CHRATZE_SHARED or --real)", file=sys.stderr)
        return 1
    return 0


def per_rank(confusion: dict[tuple[str, str], int]) -> str:
    """``9 64/89, T 57/82, ...`` from {(true rank, read rank): n}, in the order of the ranks."""
    from engine.cards import RANKS

    ranks = [r for r in RANKS if any(t == r for t, _ in confusion)]
    right = {r: confusion.get((r, r), 0) for r in ranks}
    total = {r: sum(v for (t, _), v in confusion.items() if t == r) for r in ranks}
    return ", ".join(f"{r} {right[r]}/{total[r]}" for r in ranks)


def _by_views(table: dict[int, float]) -> str:
    """A default that depends on the detector's views, for a help text: '0.35 with 1 view, ...'."""
    return ", ".join(f"{value} with {views} view{'s' * (views > 1)}" for views, value in sorted(table.items()))


def scene_options(p: argparse.ArgumentParser) -> None:
    """Which generated scenes are scored (vision.evaluate.generated_scenes): eval-detector's and the
    benchmarks' alike, so a held-out set is asked for the same way everywhere."""
    from vision.evaluate import EVAL_SEED

    p.add_argument("--scenes", type=int, default=200, help="generated validation scenes (0: skip)")
    p.add_argument("--seed", type=int, default=EVAL_SEED,
                   help="the first generated scene's seed (default: the scenes every model round was measured "
                        "on; another seed gives held-out scenes no decision was tuned on)")


def model_options(p: argparse.ArgumentParser, photos: bool = False) -> None:
    """The recognizer's options; for ``photos`` the detector looks twice by default (vision.views)."""
    from vision.recognize import (CLASSIFIER, CONF, CORNER_PASSES, CORNERS, CROSS_COVER, DETECTOR, FLOOR, INDEX,
                                  NMS_IOU, PHOTO_VIEWS, READ_SURE, SAME_READ, SECOND_LOOK, VIEWS)

    p.add_argument("--detector", type=Path, default=DETECTOR)
    p.add_argument("--classifier", type=Path, default=CLASSIFIER)
    p.add_argument("--corners", type=_model_or_none, default=CORNERS,
                   help="the corner network that fits each box to its card (vision.corners); 'none': boxes as "
                        "found (default %(default)s)")
    p.add_argument("--corner-passes", type=int, default=CORNER_PASSES, metavar="N",
                   help="looks of the corner network, each around the corners the last found (default %(default)s)")
    p.add_argument("--snap-edges", action=argparse.BooleanOptionalAction, default=None,
                   help="move each fitted side onto the card's edge where the picture shows it (vision.edges; "
                        "default: with two views, as for photos)")
    p.add_argument("--plane", action=argparse.BooleanOptionalAction, default=None,
                   help="move the hidden corners of covered cards to where the table's plane puts them, the size "
                        "of the others (vision.plane; default: with two views, as for photos)")
    p.add_argument("--index", type=_model_or_none, default=INDEX,
                   help="the index network that reads each card again from its four corners (vision.index); "
                        "'none': the classifier alone (default %(default)s)")
    p.add_argument("--views", type=int, choices=sorted(CONF), default=PHOTO_VIEWS if photos else VIEWS,
                   help="detector looks per picture: 2 = as it is and turned a quarter, boxes fused "
                        "(default %(default)s)")
    p.add_argument("--fit-input", action=argparse.BooleanOptionalAction, default=None,
                   help="run the detector at the picture's own shape, letterboxed to a multiple of 32, not at its "
                        "exported square (vision.input_size; one view only; default: with one view)")
    p.add_argument("--conf", type=float, default=None,
                   help=f"detector score threshold (default: {_by_views(CONF)})")
    p.add_argument("--floor", type=float, default=None, metavar="S",
                   help="boxes scoring from S up to the threshold are cards where read at --read-sure or more "
                        f"(default: {_by_views(FLOOR)}; else the threshold itself: none)")
    p.add_argument("--read-sure", type=float, default=READ_SURE, metavar="P",
                   help="how sure the read of a box under the threshold must be (default %(default)s)")
    p.add_argument("--second-look", type=float, default=SECOND_LOOK, metavar="P",
                   help="a card read with a best class less probable than P is read again with its "
                        "other end up and the two averaged (0: never)")
    p.add_argument("--nms-iou", type=float, default=None, metavar="IOU",
                   help="rotated NMS keeps a box meeting a bolder one at less than IOU "
                        f"(default: {_by_views(NMS_IOU)})")
    p.add_argument("--same-read", type=float, default=SAME_READ, metavar="IOU",
                   help="two fitted outlines read as the same card and meeting at IOU or more are one card "
                        "(above 1: never; default %(default)s)")
    p.add_argument("--cross-cover", type=float, default=CROSS_COVER, metavar="S",
                   help="a box lying crosswise to a better-read one with this share of it inside that one's "
                        "box is dropped (above 1: never)")


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
    model_options(p, photos=True)
    p.set_defaults(run=_eval_detector)

    from .table_cli import add_commands

    add_commands(sub, model_options)
    from webui.serve import add_command

    add_command(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    run: Command = args.run
    try:
        return run(args)
    except KeyboardInterrupt:
        return 130
