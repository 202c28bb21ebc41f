"""Two cards laid crosswise, one on the other (a trick played into a pile): is each still named?

    python benchmarks/crossed_cards.py [--pairs 30] [--shift 0,0.2,0.35] [--detector …] [--classifier …]

Each pair is rendered with the scene generator's camera, table, light and camera effects (Swiss
packs and the drawn designs, camera tilted 0-35 degrees): the lower card, then the upper one turned
a quarter round (± a few degrees), its centre shifted along the lower card by ``shift`` card heights.
Counted: pairs whose lower / upper card is among the recognizer's reads, with crossed boxes dropped
(as shipped) and kept (``--cross-cover 1.01``), and reads naming neither card.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from chratze.options import model_options, recognizer_from  # noqa: E402
from datasets.art import BACK, packs_of  # noqa: E402
from datasets.scenes import camera, camera_effects, card_plane_quad, light, paste_card, project, table  # noqa: E402

SIZE = (640, 480)


def crossed_pair(seed: int, packs: dict, shift: float) -> tuple[np.ndarray, str, str]:
    """An RGB frame of two crossed cards, and the lower and upper card's codes."""
    rng = np.random.default_rng(seed)
    hom = camera(rng, SIZE, math.radians(rng.uniform(0, 35)), SIZE[1] * rng.uniform(0.25, 0.45))
    img = table(rng, SIZE)
    ids = np.full(SIZE[::-1], -2, np.int16)
    names = sorted(packs)
    pack = packs[names[rng.integers(len(names))]]
    lower, upper = rng.choice([k for k in pack if k != BACK], 2, replace=False)
    rot = rng.uniform(0, 2 * math.pi)
    for k, (code, angle, along) in enumerate(((lower, rot, 0.0), (upper, rot + math.pi / 2 + rng.normal(0, 0.1), shift))):
        face = pack[code]
        centre = (along * -math.sin(rot), along * math.cos(rot))  # along the lower card's length
        paste_card(img, ids, face, project(hom, card_plane_quad(*centre, angle, face.shape[1] / face.shape[0])), k, rng)
    return camera_effects(light(img, rng), rng), str(lower), str(upper)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=30)
    ap.add_argument("--shift", default="0,0.2,0.35", help="comma-separated shifts, in card heights")
    ap.add_argument("--seed", type=int, default=1000)
    model_options(ap)
    args = ap.parse_args(argv)
    packs = packs_of(("swiss", "drawn"))
    dropped = recognizer_from(args)
    args.cross_cover = 1.01
    kept = recognizer_from(args)
    for shift in (float(s) for s in args.shift.split(",")):
        tally = {"dropped": [0, 0, 0], "kept": [0, 0, 0]}  # lower named, upper named, other reads
        for i in range(args.pairs):
            img, lower, upper = crossed_pair(args.seed + i, packs, shift)
            for name, rec in (("dropped", dropped), ("kept", kept)):
                reads = [d.card for d in rec(img)]
                tally[name][0] += lower in reads
                tally[name][1] += upper in reads
                tally[name][2] += sum(r not in (lower, upper) for r in reads)
        for name, (lo, up, other) in tally.items():
            print(f"shift {shift:.2f}, crossed boxes {name:7s}: lower card named {lo:3d}/{args.pairs}, "
                  f"upper {up:3d}/{args.pairs}, reads naming neither {other}")


if __name__ == "__main__":
    main()
