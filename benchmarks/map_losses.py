"""Where generated-scene mAP50-95 is lost: the figure again with one kind of error taken away at a time.

    python benchmarks/map_losses.py [--scenes 200] [--seed N] [--views 2] [--detector …] [--corners …]

The scenes, matching and mAP are ``chratze eval-detector``'s (``vision.training.evaluate``). Each row puts the
scene's truth in for one kind of error of the found cards and scores again; its gain over "as found"
is what mending that alone could win (an upper bound: the truth, not a better model):

- ``no false boxes``: detections matched to no card are dropped;
- ``names right``: each found card is named as it is;
- ``hidden corners true``: the corners whose corner patch is less than half in view (covered by
  another card, a hand, the picture's edge) are put where the card's are;
- ``shown corners true``: the other corners likewise;
- ``all of these``: what is left is the cards not found (recall).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from chratze.options import model_options, recognizer_from, scene_options  # noqa: E402
from vision.training.evaluate import MAP_IOUS, detection_map, generated_scenes, greedy_match, quad_iou  # noqa: E402
from vision.recognize.geometry import best_roll  # noqa: E402

HIDDEN = 0.5  # a corner whose patch shows less than this share counts as hidden
FIXES = {"as found": (), "no false boxes": ("boxes",), "names right": ("names",),
         "hidden corners true": ("hidden",), "shown corners true": ("shown",),
         "all of these": ("boxes", "names", "hidden", "shown")}


def matches(preds: list, cards: list) -> dict[int, int]:
    """Prediction index -> index of the card it found, matched as ``eval-detector`` matches."""
    pairs = greedy_match([(q, c) for q, c, _ in preds], [(c.quad, c.code) for c in cards], quad_iou, 0.5)
    return {k: j for k, j, _ in pairs}


def mended(preds: list, cards: list, matched: dict[int, int], fixes: tuple[str, ...]) -> list:
    """A picture's predictions [(outline, confidence, card)] with the errors ``fixes`` names taken
    from the truth ``cards`` (datasets.scenes.PlacedCard) they were ``matched`` to."""
    out = []
    for k, (outline, conf, name) in enumerate(preds):
        if k not in matched:
            if "boxes" not in fixes:
                out.append((outline, conf, name))
            continue
        card = cards[matched[k]]
        roll = best_roll(card.quad, outline)  # the truth lists the face's TL, TR, BR, BL
        truth = np.roll(card.quad, roll, axis=0).astype(np.float32)
        hidden = np.roll(np.asarray(card.corners_shown) < HIDDEN, roll)
        take = (hidden & ("hidden" in fixes)) | (~hidden & ("shown" in fixes))
        outline = np.where(take[:, None], truth, outline).astype(np.float32)
        out.append((outline, conf, card.code if "names" in fixes else name))
    return out


def print_rows(frames: dict[str, list], width: int = 20) -> None:
    """Each row's mAP50, mAP50-95 and AP at every IoU threshold, from its frames [(predictions, truths)]."""
    for name, got in frames.items():
        aps = detection_map(got, MAP_IOUS)
        print(f"{name:{width}s} mAP50 {aps[MAP_IOUS[0]]:.3f}  mAP50-95 {np.mean(list(aps.values())):.3f}  "
              + " ".join(f"{v:.3f}" for v in aps.values()))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    scene_options(ap)
    model_options(ap, photos=True)
    args = ap.parse_args(argv)
    rec = recognizer_from(args)
    frames: dict[str, list] = {name: [] for name in FIXES}
    hidden = total = 0
    for scene in generated_scenes(args.scenes, args.seed):
        cards = scene.labelled()
        preds = [(np.float32(d.corners), d.confidence, d.card) for d in rec(scene.image)]
        truths, matched = [(c.quad, c.code) for c in cards], matches(preds, cards)
        for name, fixes in FIXES.items():
            frames[name].append((mended(preds, cards, matched, fixes), truths))
        hidden += sum(min(c.corners_shown) < HIDDEN for c in cards)
        total += len(cards)
    print(f"{args.scenes} scenes, {total} cards, {hidden} with a corner hidden; AP at IoU "
          + " ".join(f"{t:.2f}" for t in MAP_IOUS))
    print_rows(frames)


if __name__ == "__main__":
    main()
