"""The advisor: how long an answer takes, and whether its odds agree with 100,000 hands played out.

For situations dealt at random (four cards, an upcard, a seat), times ``engine.advisor.advise`` and
plays its chosen exchange out again on 100,000 hands (other seeds); the bar is 0.01 on the chance of
making the target, and 1 s an answer for 4 players.

    python benchmarks/advisor.py [--situations 20] [--players 4]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.advisor import _measure, advise  # noqa: E402
from engine.cards import DECK  # noqa: E402
from engine.fast import Seat, simulate_batch  # noqa: E402


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--situations", type=int, default=20)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--check", type=int, default=100_000)
    args = ap.parse_args(argv)
    rng, n = random.Random(5), args.players
    times, gaps = [], []
    for k in range(args.situations):
        dealt = rng.sample(DECK, 5)
        cards, up, seat = dealt[:4], dealt[4], rng.randint(1, n)
        t = time.perf_counter()
        advice = advise(cards, up, seat, n, seed=k)
        times.append(time.perf_counter() - t)
        line = []
        for c in advice.choices[:2]:
            given = Seat(seat % n, tuple(x.index for x in cards), up.index, bid="chratze" if c.say == "chratze" else "weg",
                         join="metcho", lay=tuple(x.index for x in c.lay))
            check = _measure(simulate_batch(np.random.default_rng(1000 + k), args.check, n, bots="h" * n, given=given),
                             seat % n, c.say, c.lay)
            gap = abs(check.made - c.made)
            gaps.append(gap)
            line.append(f"{c.say} {100 * c.made:5.1f} % vs {100 * check.made:5.1f} %")
        print(f"{' '.join(x.code for x in cards)} up {up.code} seat {seat}: {times[-1]:.2f} s; {'; '.join(line)}; "
              f"best {advice.best.say}", flush=True)
    print(f"\n{args.situations} situations, {n} players: answer in median {statistics.median(times):.2f} s, "
          f"slowest {max(times):.2f} s (bar: < 1 s)")
    print(f"odds against {args.check} hands played out: largest gap {max(gaps):.4f}, median {statistics.median(gaps):.4f} "
          f"(bar: 0.01)")


if __name__ == "__main__":
    main()
