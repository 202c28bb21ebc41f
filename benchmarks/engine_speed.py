"""Simulated complete hands per second on one core (issue: target >= 50,000 hands/s).

Prints two figures:
- simulate: shuffle, deal, random auction and exchange, random legal play, all refereed by the
  engine as it goes (known-hands mode: legality checked against every hand);
- referee only: the same hand records replayed through a fresh ``Hand`` (hidden-hands mode,
  the live-table case), with the random choices already made.

Run: ``python benchmarks/engine_speed.py [--hands N] [--players P]`` (pinned to one core
with taskset where available).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from engine.events import HandsKnown
from engine.hand import Hand
from engine.simulate import simulate_hand


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


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=20000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    _pin_one_core()
    for name, fn in (("simulate + referee", bench_simulate), ("referee only (replay)", bench_referee)):
        rates = [fn(args.hands, args.players, seed) for seed in range(args.repeats)]
        print(f"{name:24s} {statistics.median(rates):9,.0f} hands/s  "
              f"(median of {args.repeats} x {args.hands} hands, {args.players} players, one core)")


if __name__ == "__main__":
    main()
