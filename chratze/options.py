"""Command-line options shared by several commands (and the benchmarks): the recognizer's, built
from its settings' fields, and which generated scenes are scored."""

from __future__ import annotations

import argparse
from dataclasses import fields
from pathlib import Path
from typing import Iterator, get_type_hints

from vision.recognize import CLASSIFIER, CORNERS, DETECTOR, FRAME, INDEX, NOT_CARD, PHOTO, RecognizerSettings
from vision.recognize.settings import with_overrides
from vision.training.seeds import EVAL_SEED


def model_or_none(value: str) -> Path | None:
    return None if value.lower() == "none" else Path(value)


def _parse(kind):
    """The argparse type of a settings field's annotation (``float | None`` reads as float)."""
    for t in (bool, int, float):
        if kind is t or kind == t | None:
            return t
    raise TypeError(f"no option type for {kind}")


def model_options(p: argparse.ArgumentParser, photos: bool = False) -> None:
    """The networks and one option per recognizer setting; each default is the preset's that
    ``--views`` stands for (one look: camera frames, two: photos)."""
    p.add_argument("--detector", type=Path, default=DETECTOR)
    p.add_argument("--classifier", type=Path, default=CLASSIFIER)
    p.add_argument("--corners", type=model_or_none, default=CORNERS,
                   help="the corner network ('none': boxes as found; default %(default)s)")
    p.add_argument("--index", type=model_or_none, default=None,
                   help=f"the corner index network, e.g. {INDEX} (default: none, the classifier alone: the index "
                        "reader learned one print of the index and misreads others; docs/model-history.md)")
    p.add_argument("--not-card", type=model_or_none, default=NOT_CARD,
                   help="the classifier's not-a-card class, learned on its features ('none': every box is read "
                        "as a card or a back; default %(default)s)")
    p.add_argument("--deck", help="a taught pack's profile (`chratze decks` lists them; `chratze teach` makes one): "
                                   "its cards are named as taught; default: the shipped classifier alone")
    hints = get_type_hints(RecognizerSettings)
    for f in fields(RecognizerSettings):
        kind = _parse(hints[f.name])
        flag = "--" + f.name.replace("_", "-")
        frame, photo = getattr(FRAME, f.name), getattr(PHOTO, f.name)
        default = f"{frame}" if frame == photo else f"{frame} for camera frames, {photo} for photos"
        help_text = f"{f.metadata['why']} (default: {default})".replace("%", "%%")
        if f.name == "views":
            p.add_argument(flag, type=int, choices=(1, 2), default=2 if photos else 1, help=help_text)
        elif kind is bool:
            p.add_argument(flag, action=argparse.BooleanOptionalAction, default=None, help=help_text)
        else:
            p.add_argument(flag, type=kind, default=None, help=help_text)


def settings_from(args: argparse.Namespace, base: RecognizerSettings | None = None) -> RecognizerSettings:
    """The settings the options ask for: ``base`` (else the preset of ``--views``) with each option given."""
    return with_overrides(base, **{f.name: getattr(args, f.name, None) for f in fields(RecognizerSettings)})


def recognizer_from(args: argparse.Namespace, base: RecognizerSettings | None = None, threads: int = 2,
                    **overrides):
    """The recognizer the options of :func:`model_options` ask for, ``overrides`` on top."""
    from vision.recognize.deck import load_deck  # noqa: PLC0415 - onnx: only when a recognizer is built
    from vision.recognize.recognizer import Recognizer  # OpenCV and ONNX Runtime: only when one is built

    deck = load_deck(args.deck, args.classifier) if getattr(args, "deck", None) else None
    return Recognizer(args.detector, args.classifier, corners=args.corners, index=args.index,
                      settings=with_overrides(settings_from(args, base), **overrides), threads=threads, deck=deck,
                      not_card=getattr(args, "not_card", NOT_CARD))


def scene_options(p: argparse.ArgumentParser) -> None:
    """Which generated scenes are scored (:func:`vision.training.evaluate.generated_scenes`): eval-detector's
    and the benchmarks' alike, so a held-out set is asked for the same way everywhere."""
    p.add_argument("--scenes", type=int, default=200, help="generated validation scenes (0: skip)")
    p.add_argument("--seed", type=int, default=EVAL_SEED,
                   help="the first generated scene's seed (default: the scenes every model round was measured "
                        "on; another seed gives held-out scenes no decision was tuned on)")
    p.add_argument("--props", type=float, default=0.0,
                   help="share of scenes with props among the cards (coupons, phones, coins, chips: datasets.props), "
                        "to count the boxes named on no card; the props are the not-a-card class's own makers")
    p.add_argument("--world", choices=["tuning", "held-out"], default="tuning",
                   help="held-out: still scenes of the held-out world (datasets.held_out: other cloths, sizes, "
                        "tilts, webcam, reprinted packs), from its own seeds; nothing is ever chosen on them")


def chosen_scenes(args: argparse.Namespace) -> tuple[Iterator, str]:
    """The still scenes ``scene_options`` asked for, and a title saying which: held-out scenes start at
    ``datasets.held_out.HELD_OUT_SEED``, offset by ``--seed`` where one is given (late imports: the generator
    pulls in OpenCV)."""
    if args.world == "held-out":
        from datasets.held_out import HELD_OUT_SEED, held_out_scenes

        first = HELD_OUT_SEED + (args.seed if args.seed != EVAL_SEED else 0)
        props = f" (props in {args.props:.0%})" if args.props else ""
        return held_out_scenes(args.scenes, first, args.props), f"held-out still scenes from seed {first}{props}"
    from vision.training.evaluate import generated_scenes

    things = getattr(args, "things", 0.0)
    title = "generated validation scenes" + (f" (things over cards in {things:.0%})" if things else "")
    title += f" (props in {args.props:.0%})" if args.props else ""
    title += f" from seed {args.seed}" if args.seed != EVAL_SEED else ""
    return generated_scenes(args.scenes, args.seed, things, args.props), title
