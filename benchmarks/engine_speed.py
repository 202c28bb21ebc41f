"""Simulated complete hands per second on one core (issue: target >= 50,000 hands/s).

Prints two figures:
- simulate: shuffle, deal, random auction and exchange, random legal play, all refereed by the
  engine as it goes (known-hands mode: legality checked against every hand);
- referee only: the same hand records replayed through a fresh ``Hand`` (hidden-hands mode,
  the live-table case), with the random choices already made.

- fast path (``engine.fast``): the same hands, shuffle to settlement, a batch at a time in NumPy;
  ``--check N`` then replays N of its hands through the readable engine and compares every result
  (the issue's bar: equal on 10^5 hands; ``tests/test_fast.py`` runs a few thousand).

Run: ``python benchmarks/engine_speed.py [--hands N] [--players P] [--check N]`` (pinned to one core
where the system allows).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the checkout: tests' comparison

from engine.events import HandsKnown  # noqa: E402
from engine.fast import simulate_batch  # noqa: E402
from engine.hand import Hand  # noqa: E402
from engine.simulate import simulate_hand  # noqa: E402


def _pin_one_core() -> None:
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})


def bench_simulate(hands: int, players: int, seed: int) -> float:
    rng = random.Random(seed)
    t = time.perf_counter()
    for _ in range(hands):
        simulate_hand(rng, players)
    return hands / (time.perf_counter() - t)


def bench_referee(hands: int, players: int, seed: int) -> float:
    rng = random.Random(seed)
    records = [[e for e in simulate_hand(rng, players).events if not isinstance(e, HandsKnown)]
               for _ in range(hands)]
    t = time.perf_counter()
    for events in records:
        h = Hand(events[0])
        for ev in events[1:]:
            h.apply(ev)
    return hands / (time.perf_counter() - t)


def bench_fast(hands: int, players: int, seed: int, batch: int = 100_000) -> float:
    rng = np.random.default_rng(seed)
    t = time.perf_counter()
    done = 0
    while done < hands:
        simulate_batch(rng, min(batch, hands - done), players)
        done += batch
    return hands / (time.perf_counter() - t)


def check_fast(hands: int, players: int, seed: int = 99) -> tuple[int, int]:
    """Hands of the fast path replayed through ``Hand``: (compared, differing)."""
    from tests.test_fast import same_as_the_reference  # noqa: PLC0415 (the test's comparison, reused)

    batch, differ = simulate_batch(np.random.default_rng(seed), hands, players), 0
    for b in range(hands):
        try:
            same_as_the_reference(batch, b)
        except AssertionError:
            differ += 1
    return hands, differ


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=20000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--fast-hands", type=int, default=500_000, help="hands for the fast path's figure")
    ap.add_argument("--check", type=int, default=0, help="replay this many fast hands through the readable engine "
                                                         "(for 3 to 7 players in turn)")
    args = ap.parse_args()
    _pin_one_core()
    rates = [bench_fast(args.fast_hands, args.players, seed) for seed in range(args.repeats)]
    print(f"{'fast path (engine.fast)':24s} {statistics.median(rates):9,.0f} hands/s  (median of {args.repeats} x "
          f"{args.fast_hands} hands, {args.players} players, one core; bar: >= 50,000)")
    if args.check:
        counts = [check_fast(args.check // 5, players, seed=players) for players in range(3, 8)]
        n, differ = sum(c for c, _ in counts), sum(d for _, d in counts)
        print(f"fast path against the readable engine: {n - differ} of {n} hands equal, 3 to 7 players  "
              "(bar: all of 10^5)")
    for name, fn in (("simulate + referee", bench_simulate), ("referee only (replay)", bench_referee)):
        rates = [fn(args.hands, args.players, seed) for seed in range(args.repeats)]
        print(f"{name:24s} {statistics.median(rates):9,.0f} hands/s  "
              f"(median of {args.repeats} x {args.hands} hands, {args.players} players, one core)")


if __name__ == "__main__":
    main()
