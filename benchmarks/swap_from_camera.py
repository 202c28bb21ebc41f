"""Who swapped the trump 6, seen by the camera: the upcard carried to a player's place, the 6 laid.

Plays the virtual table's hands that have a swap, with the table tapping who swapped only 3 s after
the cards changed (a person answering the page). Counts swaps the camera recorded itself (right and
wrong: a wrong one is a guess in the record, the bar is 0) and those left to the tap.

    python benchmarks/swap_from_camera.py --hands 20                       # tuning world: choose here
    python benchmarks/swap_from_camera.py --hands 20 --world held-out      # report here
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from chratze.options import model_options, recognizer_from  # noqa: E402
from datasets.held_out import HELD_OUT_SEED, WORLDS  # noqa: E402
from engine.simulate import simulate_hand  # noqa: E402
from live_table import one_hand  # noqa: E402


def swap_seeds(first: int, n: int) -> list[int]:
    """The first ``n`` seeds from ``first`` whose simulated hand has a trump 6 swap (as one_hand deals it)."""
    out, seed = [], first
    while len(out) < n:
        sim = simulate_hand(random.Random(seed), players=3 + seed % 4, illegal_rate=0.1)
        if any(ev.type == "trump_six_swap" for ev in sim.events):
            out.append(seed)
        seed += 1
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=20)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--world", choices=sorted(WORLDS), default="tuning")
    ap.add_argument("--reader", choices=["model", "truth"], default="model")
    ap.add_argument("--tap-after", type=float, default=3.0, help="seconds after the swap the table taps who")
    model_options(ap)
    args = ap.parse_args(argv)
    world = WORLDS[args.world]
    recognizer = recognizer_from(args) if args.reader == "model" else None
    first = args.first_seed + (HELD_OUT_SEED if world.held_out else 0)
    right = wrong = tapped = same = 0
    t0 = time.time()
    for seed in swap_seeds(first, args.hands):
        r = one_hand(seed, args.reader, recognizer, zones=True, world=world, swap_tap_after=args.tap_after)
        sw = r["swap"] or {}
        if sw.get("camera") and sw["recorded"] == sw["by"]:
            right += 1
            how = "camera, right"
        elif sw.get("camera"):
            wrong += 1
            how = f"camera, WRONG ({sw['recorded']})"
        else:
            tapped += 1
            how = "tapped"
        same += r["same"]
        print(f"seed {seed}  {r['players']} players  {r['size'][0]}x{r['size'][1]}@{r['fps_source']:.0f}  "
              f"swapped by {sw.get('by')}: {how}  same result: {r['same']}  wrong card events: {r['wrong']}",
              flush=True)
    n = right + wrong + tapped
    print(f"\nworld: {world.name}; reader: {args.reader}; {n} hands with a swap in {time.time() - t0:.0f} s")
    print(f"swaps the camera recorded: {right + wrong}/{n} ({right} right, {wrong} wrong; bar: 0 wrong); "
          f"left to the table's tap: {tapped}; same result as the record: {same}/{n}")


if __name__ == "__main__":
    main()
