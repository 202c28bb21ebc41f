"""Which card lies on top (vision.recognize.layers), on generated scenes, whose stacking order is known.

A scene's cards are laid in order, each later one on the earlier ones. For every two overlapping
outlines the recognizer found on two different cards, this counts how often vision.recognize.layers decides an
order and how often that order is right; and for every face-up card at least ``--min-visible`` in
view, whether the box of its part in view (its outline less the cards laid after it) is met at IoU
0.5 by the whole box the recognizer reports (``Detection.box``) and by the box of its part in view
(``Detection.visible``). ``--sweep`` prints the order figures for other SHOWN / LEAD gates.

    PYTHONPATH=. python benchmarks/stacking.py --scenes 400
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.recognize import layers  # noqa: E402
from vision.recognize.edges import edge_image  # noqa: E402
from vision.training.evaluate import generated_scenes, greedy_match  # noqa: E402
from vision.recognize.geometry import box_iou, quad_iou  # noqa: E402
from vision.recognize import BACK  # noqa: E402
from vision.recognize.recognizer import Recognizer  # noqa: E402

SEED = 4_242_000  # away from the training seeds and from eval-detector's scenes


def truth_boxes(cards, width: int, height: int, min_visible: float) -> list[tuple[tuple, str]]:
    """Each face-up card in view enough, boxed by its part in view: its outline less the later cards'."""
    out = []
    for k, card in enumerate(cards):
        if card.code == BACK or card.visible < min_visible:
            continue
        box = layers.visible_box(card.quad, [c.quad for c in cards[k + 1:]], width, height, sliver=1)  # exact
        if box:
            out.append((box, card.code))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scenes", type=int, default=400)
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--min-visible", type=float, default=0.1)
    ap.add_argument("--views", type=int, default=2)
    ap.add_argument("--sweep", action="store_true")
    ap.add_argument("--sliver", type=int, default=layers.SLIVER,
                    help="vision.recognize.layers.SLIVER for the recognizer's parts in view (default %(default)s)")
    args = ap.parse_args()
    layers.SLIVER = args.sliver
    rec = Recognizer(views=args.views)
    shares, hits_whole, hits_visible, n_truth, t0 = [], 0, 0, 0, time.perf_counter()
    for scene in generated_scenes(args.scenes, args.seed):
        h, w = scene.image.shape[:2]
        found = rec(scene.image)
        cards = [(c.quad, c.code) for c in scene.cards]
        on = {i: j for i, j, _ in greedy_match([(np.float32(d.corners), d.confidence) for d in found], cards,
                                               quad_iou, 0.5)}
        gray, quads = edge_image(scene.image), [np.float32(d.corners) for d in found]
        for i in on:
            for j in on:
                if i < j and on[i] != on[j] and quad_iou(quads[i], quads[j]) > 0:
                    shares.append((layers.edge_share(gray, quads[i], quads[j]),
                                   layers.edge_share(gray, quads[j], quads[i]), on[i] > on[j]))
        truths = truth_boxes(scene.cards, w, h, args.min_visible)
        n_truth += len(truths)
        hits_whole += len(greedy_match([(d.box, d.confidence) for d in found], truths, box_iou, 0.5))
        hits_visible += len(greedy_match([(d.visible, d.confidence) for d in found], truths, box_iou, 0.5))
    print(f"{args.scenes} scenes (seed {args.seed}, {args.views} view(s)), {time.perf_counter() - t0:.0f} s")
    gates = [(s, l) for s in (0.3, 0.4, 0.5, 0.6, 0.7) for l in (0.1, 0.2, 0.35, 0.5)] if args.sweep else []
    for shown, lead in [(layers.SHOWN, layers.LEAD)] + gates:
        calls = [(layers.upper(a, b, shown, lead), truth) for a, b, truth in shares]
        decided = [(c, t) for c, t in calls if c is not None]
        wrong = sum(c != t for c, t in decided)
        print(f"  order, SHOWN {shown} LEAD {lead}: {len(shares)} overlapping pairs of found cards, decided "
              f"{len(decided)} ({len(decided) / max(len(shares), 1):.1%}), wrong {wrong} "
              f"({wrong / max(len(decided), 1):.1%} of those decided)")
    print(f"  part in view (cards >= {args.min_visible:.0%} in view: {n_truth}), recall@0.5 with the whole box "
          f"{hits_whole / max(n_truth, 1):.3f} ({hits_whole}), with the part in view "
          f"{hits_visible / max(n_truth, 1):.3f} ({hits_visible})")


if __name__ == "__main__":
    main()
