"""Is the heuristic bot better than random play? Rappen per hand, with a 95 % interval.

Each seat in turn is played by the bot with the other seats random, against the same seat played
random (other seeds); a seat's result is what it is paid out less its penalties and its ante. The
heuristic's rules were set before any hand was played (engine/bots.py).

    python benchmarks/bots.py [--hands 100000] [--players 4]
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.fast import simulate_batch  # noqa: E402
from engine.rules import HouseRules  # noqa: E402


def seat_results(bots: str, seat: int, hands: int, seed: int) -> np.ndarray:
    """Rappen won by ``seat`` in each of ``hands`` hands (a batch of 25,000 at a time)."""
    rng, rules, out = np.random.default_rng(seed), HouseRules(), []
    for start in range(0, hands, 25_000):
        b = simulate_batch(rng, min(25_000, hands - start), len(bots), rules, bots=bots)
        out.append(b.payouts[:, seat] - b.penalties[:, seat] - rules.ante)
    return np.concatenate(out)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=100_000, help="hands per side, spread over the seats")
    ap.add_argument("--players", type=int, default=4)
    args = ap.parse_args(argv)
    n, per_seat, t0 = args.players, args.hands // args.players, time.time()
    bot, rnd = [], []
    for seat in range(n):
        bots = "".join("h" if q == seat else "r" for q in range(n))
        bot.append(seat_results(bots, seat, per_seat, seed=2 * seat + 1))
        rnd.append(seat_results("r" * n, seat, per_seat, seed=2 * seat + 2))
        diff = bot[-1].mean() - rnd[-1].mean()
        print(f"seat {seat}: bot {bot[-1].mean():+8.2f}  random {rnd[-1].mean():+8.2f}  Rappen per hand  "
              f"(difference {diff:+.2f})")
    b, r = np.concatenate(bot), np.concatenate(rnd)
    diff = b.mean() - r.mean()
    half = 1.96 * math.sqrt(b.var(ddof=1) / len(b) + r.var(ddof=1) / len(r))
    print(f"\n{n} players, {len(b)} hands a side in {time.time() - t0:.0f} s")
    print(f"heuristic bot minus random play: {diff:+.2f} Rappen per hand, 95 % interval "
          f"[{diff - half:+.2f}, {diff + half:+.2f}]  (bar: the interval excludes zero)")


if __name__ == "__main__":
    main()
