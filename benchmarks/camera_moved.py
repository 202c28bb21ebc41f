"""A camera moved under zones drawn on its picture: is it noticed, and never when it did not move?

Renders virtual-table hands (frames every 0.25 s). Each hand is watched twice by ``vision.table.drift``:
as rendered (any warning is a false alarm), and with the camera moved halfway through (shifted by 4-10 %
of the picture's diagonal in a random direction and turned by up to 4 degrees; noticed if the page is
warned within 6 s).

    python benchmarks/camera_moved.py --hands 20                    # tuning world: choose here
    python benchmarks/camera_moved.py --hands 20 --world held-out   # report here
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from datasets.art import SCANNED_PACKS, scanned_pack  # noqa: E402
from datasets.held_out import HELD_OUT_SEED, WORLDS  # noqa: E402
from datasets.virtual_table import render_hand, table_events  # noqa: E402
from engine.simulate import simulate_hand  # noqa: E402
from vision.table.drift import Drift  # noqa: E402

STEP = 0.25  # seconds between the frames looked at
NOTICE_WITHIN = 6.0  # seconds after the move


def moved(rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    """A camera bumped: a shift of 4-10 % of the diagonal and a turn of up to 4 degrees, about the centre."""
    w, h = size
    shift = rng.uniform(0.04, 0.10) * math.hypot(w, h)
    ang = rng.uniform(0, 2 * math.pi)
    m = cv2.getRotationMatrix2D((w / 2, h / 2), float(rng.uniform(-4, 4)), 1.0)
    m[:, 2] += (shift * math.cos(ang), shift * math.sin(ang))
    return m


def one_hand(seed: int, world) -> dict:
    sim = simulate_hand(random.Random(seed), players=3 + seed % 4, illegal_rate=0.1)
    draw = world.draw(seed) if world.held_out else None
    vh = render_hand(table_events(sim.events), scanned_pack(SCANNED_PACKS[seed % 2]), seed=seed, draw=draw)
    corners = np.concatenate([np.asarray(p, np.float32) for p in vh.zones.values()])
    still, bumped = Drift(corners), Drift(corners)
    m = moved(np.random.default_rng((seed, 9)), vh.size)
    t_move = vh.duration / 2
    false_alarm, noticed = None, None
    for i, t in enumerate(np.arange(0.0, vh.duration, STEP)):
        img, _ = vh.frame(float(t), i)
        if still.update(img, float(t)) and false_alarm is None:
            false_alarm = float(t)
        if t >= t_move:
            img = cv2.warpAffine(img, m, vh.size, borderMode=cv2.BORDER_REFLECT)
        if bumped.update(img, float(t)) and noticed is None and t >= t_move:
            noticed = float(t) - t_move
    return {"seed": seed, "size": vh.size, "cloth": draw.cloth if draw else "tuning", "false_alarm": false_alarm,
            "noticed": noticed if noticed is not None and noticed <= NOTICE_WITHIN else None}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=20)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--world", choices=sorted(WORLDS), default="tuning")
    args = ap.parse_args(argv)
    world = WORLDS[args.world]
    first = args.first_seed + (HELD_OUT_SEED if world.held_out else 0) + 500  # apart from the live-table hands
    rows, t0 = [], time.time()
    for seed in range(first, first + args.hands):
        r = one_hand(seed, world)
        rows.append(r)
        print(f"seed {seed}  {r['size'][0]}x{r['size'][1]}  cloth {r['cloth']:8s}  false alarm: "
              f"{'at %.1f s' % r['false_alarm'] if r['false_alarm'] is not None else 'none':9s}  moved camera: "
              f"{'noticed after %.1f s' % r['noticed'] if r['noticed'] is not None else 'NOT noticed'}", flush=True)
    n = len(rows)
    late = [r["noticed"] for r in rows if r["noticed"] is not None]
    print(f"\nworld: {world.name}; {n} hands in {time.time() - t0:.0f} s")
    print(f"unmoved hands warned (false alarms): {sum(r['false_alarm'] is not None for r in rows)}/{n}  (bar: 0)")
    print(f"moved cameras noticed within {NOTICE_WITHIN:.0f} s: {len(late)}/{n}"
          + (f"; median {statistics.median(late):.1f} s after the move" if late else ""))


if __name__ == "__main__":
    main()
