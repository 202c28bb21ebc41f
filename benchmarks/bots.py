"""Is the heuristic bot better than random play, and the search bot better than the heuristic?

Rappen per hand, each with a 95 % interval.

Each seat in turn is played by the bot with the other seats random, against the same seat played
random (other seeds); a seat's result is what it is paid out less its penalties and its ante. The
heuristic's rules were set before any hand was played (engine/bots.py).

    python benchmarks/bots.py [--hands 100000] [--players 4] [--search 20000] [--kratzen 100000]
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.fast import deal, simulate_batch  # noqa: E402
from engine.kratzen_simulate import simulate_kratzen  # noqa: E402
from engine.search import decide  # noqa: E402
from engine.rules import HouseRules  # noqa: E402


def seat_results(bots: str, seat: int, hands: int, seed: int) -> np.ndarray:
    """Rappen won by ``seat`` in each of ``hands`` hands (a batch of 25,000 at a time)."""
    rng, rules, out = np.random.default_rng(seed), HouseRules(), []
    for start in range(0, hands, 25_000):
        b = simulate_batch(rng, min(25_000, hands - start), len(bots), rules, bots=bots)
        out.append(b.payouts[:, seat] - b.penalties[:, seat] - rules.ante)
    return np.concatenate(out)


def search_against_heuristic(hands: int, players: int, tries: int) -> None:
    """The search bot at each seat in turn against the heuristic bot at that seat, on the same packs
    (the other seats the heuristic bot): differences hand by hand, so the interval is narrow."""
    rules, diffs, t0 = HouseRules(), [], time.time()
    for seat in range(players):
        rng = np.random.default_rng(100 + seat)
        deck = deal(rng, hands // players)
        decided = decide(deck, seat, players, rules, tries=tries, seed=seat)
        got = []
        for d in (decided, None):
            b = simulate_batch(np.random.default_rng(200 + seat), len(deck), players, rules, bots="h" * players,
                               deck=deck, decided=d)
            got.append(b.payouts[:, seat] - b.penalties[:, seat])
        diffs.append(got[0] - got[1])
        print(f"seat {seat}: search minus heuristic {diffs[-1].mean():+.2f} Rappen per hand "
              f"({len(deck)} packs, {time.time() - t0:.0f} s)", flush=True)
    d = np.concatenate(diffs)
    half = 1.96 * d.std(ddof=1) / math.sqrt(len(d))
    print(f"search bot minus heuristic bot: {d.mean():+.2f} Rappen per hand, 95 % interval "
          f"[{d.mean() - half:+.2f}, {d.mean() + half:+.2f}] over {len(d)} packs played both ways "
          f"({tries} tries a choice)  (bar: the interval excludes zero)")


def kratzen_against_random(hands: int, players: int) -> None:
    """Kratzen: the heuristic bot (engine/kratzen_bots.py) at each seat in turn against random play there,
    hands refereed by the readable engine, every third a Muss, 40 Rappen carried in."""
    bot, rnd, t0 = [], [], time.time()
    for seat in range(players):
        for bots, out, seed in (("".join("h" if q == seat else "r" for q in range(players)), bot, 1),
                                ("r" * players, rnd, 2)):
            rng, res = random.Random(1000 * seed + seat), []
            for i in range(hands // players):
                h, _ = simulate_kratzen(rng, players, muss=i % 3 == 0, carried=40, bots=bots)
                st = h.settlement()
                name = h.seats[seat]
                res.append(st.payouts.get(name, 0) - st.penalties.get(name, 0) - h.paid[seat])
            out.append(np.array(res, float))
    b, r = np.concatenate(bot), np.concatenate(rnd)
    diff = b.mean() - r.mean()
    half = 1.96 * math.sqrt(b.var(ddof=1) / len(b) + r.var(ddof=1) / len(r))
    print(f"Kratzen, {players} players, {len(b)} hands a side in {time.time() - t0:.0f} s: heuristic bot minus random "
          f"play {diff:+.2f} Rappen per hand, 95 % interval [{diff - half:+.2f}, {diff + half:+.2f}]  "
          "(bar: the interval excludes zero)")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=100_000, help="hands per side, spread over the seats")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--search", type=int, default=0, help="also play the search bot against the heuristic on "
                                                           "this many packs (about 20 ms each)")
    ap.add_argument("--tries", type=int, default=250, help="hands the search bot plays out for each choice")
    ap.add_argument("--kratzen", type=int, default=0, help="also Kratzen's heuristic bot against random play, "
                                                            "on this many hands a side")
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
    if args.search:
        print()
        search_against_heuristic(args.search, n, args.tries)
    if args.kratzen:
        print()
        kratzen_against_random(args.kratzen, n)


if __name__ == "__main__":
    main()
