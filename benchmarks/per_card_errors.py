"""Where generated-scene per-card accuracy is lost: found and read right, by how much of the card
is in view, by how tall it is in the picture and by how tightly its box fits (with the median IoU of
the found cards' outlines and, for comparison, of the tightest rectangle round each true outline: a
tilted card is no rectangle).

    python benchmarks/per_card_errors.py [--scenes 200] [--seed N] [--world held-out] [--truth-outline] [--detector …]

The scenes are ``chratze eval-detector``'s (``chratze.options.chosen_scenes``: either world), matched the
same way (oriented boxes, IoU >= 0.5, highest confidence first); "right" is over the found cards.
``--truth-outline`` names each found card from its true outline instead (crop and corner patches:
what the classifier and the index reader could do with perfect corners, the bound the corner fit
works towards).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from chratze.options import chosen_scenes, model_options, recognizer_from, scene_options  # noqa: E402
from vision.training.evaluate import greedy_match, quad_iou  # noqa: E402
from vision.recognize.geometry import min_area_quad, side_lengths  # noqa: E402

IN_VIEW = ((0.6, "in view < 60 %"), (0.9, "in view 60-90 %"), (float("inf"), "in view >= 90 %"))
FIT = ((0.7, "box IoU 0.5-0.7"), (0.85, "box IoU 0.7-0.85"), (float("inf"), "box IoU >= 0.85"))
TALL = ((60, "< 60 px tall"), (100, "60-100 px tall"), (float("inf"), ">= 100 px tall"))  # the card's long side


def band(value: float, bands: tuple) -> str:
    return next(name for upper, name in bands if value < upper)


def long_side(quad: np.ndarray) -> float:
    """How long the card is in the picture: the mean of its two long sides, in pixels."""
    sides = side_lengths(quad)
    return float(max(sides[0] + sides[2], sides[1] + sides[3]) / 2)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    scene_options(ap)
    ap.add_argument("--truth-outline", action="store_true", help="read found cards from their true outline")
    model_options(ap)
    args = ap.parse_args(argv)
    rec = recognizer_from(args)
    tally: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])  # cards, found, right
    confused: Counter = Counter()
    fits: dict[str, list[tuple[float, float]]] = defaultdict(list)  # (found outline IoU, best rectangle IoU)
    sure: list[float] = []  # the confidence of each misread
    scenes, title = chosen_scenes(args)
    print(title)
    for scene in scenes:
        cards = scene.labelled()
        dets = rec(scene.image)
        preds = [(np.array(d.corners, np.float32), d.confidence) for d in dets]
        found = {j: (k, iou) for k, j, iou in greedy_match(preds, [(c.quad, c.code) for c in cards], quad_iou, 0.5)}
        names = {j: dets[k].card for j, (k, _) in found.items()}
        if args.truth_outline and found:
            probs = rec.read_cards(scene.image, [cards[j].quad for j in found])
            names = {j: rec.names[int(np.argmax(p))] for j, p in zip(found, probs)}
        for j, card in enumerate(cards):
            keys = ["all", band(card.visible, IN_VIEW), band(long_side(card.quad), TALL)]
            if j in found:
                keys.append(band(found[j][1], FIT))
                fit = (found[j][1], quad_iou(min_area_quad(card.quad), card.quad))
            for key in keys:
                row = tally[key]
                row[0] += 1
                if j in found:
                    row[1] += 1
                    row[2] += names[j] == card.code
                    fits[key].append(fit)
            if j in found and names[j] != card.code:
                confused[(card.code, names[j])] += 1
                sure.append(dets[found[j][0]].confidence)
    for key in ["all"] + [name for _, name in IN_VIEW + TALL + FIT]:
        n, f, r = tally[key]
        if n:
            iou, rect = np.median(fits[key], axis=0) if fits[key] else (float("nan"),) * 2
            print(f"{key:18s} cards {n:4d}  found {f / n:.3f}  right of found {r / max(f, 1):.3f}  "
                  f"median IoU {iou:.3f} (rectangle {rect:.3f})")
    print("most frequent misreads (true -> read): "
          + ", ".join(f"{a}->{b} {n}" for (a, b), n in confused.most_common(10)))
    if sure:
        print("misreads by confidence: " + ", ".join(
            f"{lo:.1f}-{hi:.1f} {sum(lo <= c < hi for c in sure)}" for lo, hi in ((0, .5), (.5, .7), (.7, .9), (.9, 1.01))))


if __name__ == "__main__":
    main()
