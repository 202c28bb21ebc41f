"""``chratze teach`` and ``chratze decks``: a table's own pack taught from photos or the camera."""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

from tqdm import tqdm

from vision.recognize import PHOTO
from vision.teach.settings import TEACH

from .options import model_options, recognizer_from


def add_commands(sub) -> None:
    p = sub.add_parser("teach", help="teach the referee your own pack, from photos or the camera")
    p.add_argument("name", help="the deck's name (letters, digits, - _ .), e.g. grandpas-jass")
    p.add_argument("--pack", help="which pack it is, for a new deck: swiss-french, swiss-german, poker-36 (6 to ace), "
                                  "tell-33 (William Tell with the Weli)")
    src = p.add_mutually_exclusive_group()
    src.add_argument("--photos", type=Path, help="a folder of photos, one card each, named by code: Ah.jpg, 6d.png")
    src.add_argument("--source", help="a camera (0), video or image folder: each card is asked for in turn")
    p.add_argument("--retake", help="cards to take again, by code: 9s,Ts (with --source)")
    p.add_argument("--per-card", type=float, default=60.0, help="seconds to wait for each card (with --source)")
    p.add_argument("--relearn", action="store_true", help="learn again from the captures kept (after a model update)")
    p.add_argument("--whole", action="store_true",
                   help="fine-tune the whole classifier instead of a last layer: reads surer (on the unseen pack "
                        "99.4 against 97.4 %% of check views), needs the training extra (torch) and about 2 GB")
    p.add_argument("--teach-views", type=int, default=TEACH.views,
                   help="views learned from per capture (default %(default)s; fewer: quicker, less sure)")
    model_options(p, photos=True)
    p.set_defaults(run=_teach)

    p = sub.add_parser("decks", help="the taught decks, with how surely each reads its cards")
    p.set_defaults(run=_decks)


def _teach(args: argparse.Namespace) -> int:
    from vision.recognize.deck import DeckError
    from vision.recognize.recognizer import ModelMissing
    from vision.teach.deck import Teaching
    from vision.teach.learn import Refused

    try:
        teaching = Teaching(args.name, args.pack)
        args.deck = None  # the captures are found with the shipped networks alone
        recognizer = recognizer_from(args, PHOTO)
    except (DeckError, ValueError, ModelMissing) as exc:
        print(f"chratze teach: {exc}", file=sys.stderr)
        return 2
    try:
        if args.photos:
            _from_photos(teaching, args.photos, recognizer)
        elif args.source is not None:
            _from_camera(teaching, args, recognizer)
        elif not args.relearn:
            print("chratze teach: say where the cards come from: --photos DIR or --source CAMERA "
                  "(or --relearn to learn again from the captures kept)", file=sys.stderr)
            return 2
    except (OSError, ValueError) as exc:
        print(f"chratze teach: {exc}", file=sys.stderr)
        return 2
    missing = teaching.missing()
    if missing:
        print(f"not learned yet: {len(missing)} of {len(teaching.pack.codes)} cards still to capture: "
              + ", ".join(f"{teaching.pack.card_name(c)} ({c})" for c in missing))
        print(f"what is captured is kept in {teaching.folder}; run `chratze teach {args.name}` again with the rest")
        return 1
    bars: dict[str, tqdm] = {}

    def progress(stage: str, done: int, of: int) -> None:
        bar = bars.get(stage) or bars.setdefault(stage, tqdm(total=of, desc=_STAGES.get(stage, stage), unit=""))
        bar.update(done - bar.n)

    if args.whole:
        try:
            import torch  # noqa: F401
        except ImportError:
            print("chratze teach: --whole needs the training extra (pip install -e '.[train]'); without it, "
                  "leave --whole out: the last layer needs no torch", file=sys.stderr)
            return 2
    t0 = time.time()
    try:
        views = max(1, args.teach_views)
        settings = replace(TEACH, views=views, check_views=max(1, min(TEACH.check_views, views // 4)))
        if args.whole:
            from vision.training.deck_finetune import finetune

            profile = finetune(teaching, recognizer, settings, progress=progress)
        else:
            profile = teaching.learn(recognizer, settings, progress=progress)
    except Refused as exc:
        for bar in bars.values():
            bar.close()
        print(f"chratze teach: {exc}", file=sys.stderr)
        _print_figures(exc.figures, teaching.pack)
        return 1
    for bar in bars.values():
        bar.close()
    print(f"deck {args.name!r} learned in {time.time() - t0:.0f} s; use it with --deck {args.name}")
    _print_figures(profile.figures, teaching.pack)
    return 0


_STAGES = {"views": "views of the captures", "check": "check views", "learn": "learning",
           "fine-tune": "fine-tuning the classifier"}


def _from_photos(teaching, folder: Path, recognizer) -> None:
    from vision.teach.photos import read_photos

    read = read_photos(folder, teaching.pack, recognizer)
    for cap in read.captures:
        teaching.add(cap)
    print(f"{len(read.captures)} card(s) captured from {folder}")
    for problem in read.problems:
        print(f"  not taken: {problem}")


def _from_camera(teaching, args: argparse.Namespace, recognizer) -> None:
    """Asks for each card still to capture (or ``--retake``'s) and takes it once it lies still and passes."""
    from vision.table.sources import SourceError, open_source
    from vision.teach.camera import CardTaker
    from vision.teach.photos import code_of

    codes = [code_of(c.strip(), teaching.pack) for c in args.retake.split(",")] if args.retake else teaching.missing()
    try:
        source = open_source(args.source)
    except SourceError as exc:
        raise ValueError(str(exc)) from exc
    try:
        for code in codes:
            print(f"lay the {teaching.pack.card_name(code)} ({code}) alone on the trump spot", flush=True)
            taker, deadline = CardTaker(code, recognizer), time.monotonic() + args.per_card
            while True:
                frame = source.read()
                if frame is None and not source.live:
                    print("  the source has no more frames")
                    return
                cap = taker.offer(frame.image) if frame is not None else None
                if cap is not None:
                    teaching.add(cap)
                    print(f"  taken: {teaching.pack.card_name(code)}", flush=True)
                    break
                if time.monotonic() > deadline:
                    print(f"  not taken in {args.per_card:.0f} s: {taker.problem or 'no card lay still'}")
                    break
    finally:
        source.close()


def _print_figures(figures: dict, pack) -> None:
    print(f"on {figures['views']} check views of the captures: the deck reads {figures['profile_right']:.1%} right, "
          f"the shipped network {figures['shipped_right']:.1%}"
          + (f" (the nearest taught card's features: {figures['nearest_right']:.1%})" if "nearest_right" in figures else ""))
    weak = [(c, v) for c, v in figures["cards"].items() if v["right"] < 0.95]
    if weak:
        print("cards to retake (read right under 95 %): " + ", ".join(
            f"{pack.card_name(c)} {v['right']:.0%} (taken for {pack.card_name(v['look_alike'])})" for c, v in weak))
    print("look-alikes most often confused: " + ", ".join(
        f"{pack.card_name(a)} / {pack.card_name(b)} {p:.1%}" for a, b, p in figures["confusable"][:5]))


def _decks(args: argparse.Namespace) -> int:
    from vision.recognize.deck import decks_dir
    from vision.teach.deck import summaries

    rows = summaries()
    if not rows:
        print(f"no decks taught yet (in {decks_dir()}); `chratze teach NAME --pack swiss-french --photos DIR`")
        return 0
    for r in rows:
        if r["learned"]:
            print(f"{r['name']:20s} {r['title']:32s} reads {r['right']:.1%} of its check views right "
                  f"(shipped {r['shipped_right']:.1%})")
        else:
            print(f"{r['name']:20s} {r['problem']}")
    return 0
