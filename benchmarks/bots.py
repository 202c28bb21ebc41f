"""Is the heuristic bot better than random play, and the search bot better than the heuristic?

Rappen per hand, each with a 95 % interval.

Each seat in turn is played by the bot with the other seats random, against the same seat played
random (other seeds); a seat's result is what it is paid out less its penalties and its ante. The
heuristic's rules were set before any hand was played (engine/bots.py).

    python benchmarks/bots.py [--hands 100000] [--players 4] [--search 6000 --tries 1200 --z 2]
                              [--kratzen 100000] [--kratzen-search 2000 --kratzen-tries 120]
                              [--first-seed 9000] [--jobs 2]

The search bots are each played against the heuristic bot on the same packs (differences pack by
pack). Their settings were chosen on the packs from seed 100; the default seeds (9000) are held out.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.fast import deal, simulate_batch  # noqa: E402
from engine.kratzen_search import SearchPlayer  # noqa: E402
from engine.kratzen_play import HeuristicPlayer  # noqa: E402
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


def _search_seat(seat: int, packs: int, players: int, tries: int, z: float, first_seed: int) -> np.ndarray:
    """Search minus heuristic at ``seat``, pack by pack: both play the same packs, the others heuristic."""
    rules = HouseRules()
    deck = deal(np.random.default_rng(first_seed + seat), packs)
    decided = decide(deck, seat, players, rules, tries=tries, z=z, seed=first_seed + 50 + seat)
    got = []
    for d in (decided, None):
        b = simulate_batch(np.random.default_rng(first_seed + 100 + seat), len(deck), players, rules,
                           bots="h" * players, deck=deck, decided=d)
        got.append(b.payouts[:, seat] - b.penalties[:, seat])
    return (got[0] - got[1]).astype(float)


def search_against_heuristic(hands: int, players: int, tries: int, z: float, first_seed: int, jobs: int) -> None:
    """The search bot at each seat in turn against the heuristic bot at that seat, on the same packs
    (the other seats the heuristic bot): differences hand by hand, so the interval is narrow."""
    t0 = time.time()
    with ProcessPoolExecutor(jobs) as pool:
        runs = [pool.submit(_search_seat, seat, hands // players, players, tries, z, first_seed)
                for seat in range(players)]
        diffs = [r.result() for r in runs]
    for seat, d in enumerate(diffs):
        print(f"seat {seat}: search minus heuristic {d.mean():+.2f} Rappen per hand, results differed in "
              f"{(d != 0).mean():.1%} of {len(d)} packs")
    d = np.concatenate(diffs)
    half = 1.96 * d.std(ddof=1) / math.sqrt(len(d))
    print(f"search bot minus heuristic bot: {d.mean():+.2f} Rappen per hand, 95 % interval "
          f"[{d.mean() - half:+.2f}, {d.mean() + half:+.2f}] over {len(d)} packs played both ways in "
          f"{time.time() - t0:.0f} s ({tries} tries a choice, z {z}, seeds from {first_seed})  "
          "(bar: the interval excludes zero)")


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


def _kratzen_search_seat(seat: int, hands: int, players: int, tries: int, z: float, first_seed: int) -> np.ndarray:
    """Kratzen: search minus heuristic at ``seat``, deal by deal (the same cut and cards both ways)."""
    out = []
    for i in range(hands):
        got = []
        for search in (True, False):
            who = [SearchPlayer(tries, z, seed=first_seed + i) if search and q == seat else HeuristicPlayer()
                   for q in range(players)]
            h, _ = simulate_kratzen(random.Random(first_seed * 100_000 + i * players + seat), players, carried=40,
                                    bots=who)
            st, name = h.settlement(), h.seats[seat]
            got.append(st.payouts.get(name, 0) - st.penalties.get(name, 0) - h.paid[seat])
        out.append(got[0] - got[1])
    return np.array(out, float)


def kratzen_search_against_heuristic(hands: int, players: int, tries: int, z: float, first_seed: int,
                                     jobs: int) -> None:
    """Kratzen's search bot at each seat in turn against the heuristic bot there, on the same deals (no
    Muss: a Muss leaves nothing to choose), the other seats the heuristic bot, 40 Rappen carried in."""
    t0 = time.time()
    with ProcessPoolExecutor(jobs) as pool:
        runs = [pool.submit(_kratzen_search_seat, seat, hands // players, players, tries, z, first_seed)
                for seat in range(players)]
        diffs = [r.result() for r in runs]
    d = np.concatenate(diffs)
    half = 1.96 * d.std(ddof=1) / math.sqrt(len(d))
    print(f"Kratzen, {players} players: search bot minus heuristic bot {d.mean():+.2f} Rappen per hand, 95 % "
          f"interval [{d.mean() - half:+.2f}, {d.mean() + half:+.2f}] over {len(d)} deals played both ways in "
          f"{time.time() - t0:.0f} s, results differed in {(d != 0).mean():.1%} ({tries} tries a choice, z {z}, "
          f"seeds from {first_seed})  (bar: the interval excludes zero)")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=100_000, help="hands per side, spread over the seats")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--search", type=int, default=0, help="also play the search bot against the heuristic on "
                                                           "this many packs (about 20 ms each)")
    ap.add_argument("--tries", type=int, default=400, help="deals the search bot plays each choice out on")
    ap.add_argument("--z", type=float, default=2.0, help="standard errors a choice must win by to leave the heuristic's")
    ap.add_argument("--first-seed", type=int, default=9000, help="packs' seeds; 100 is the tuning set the search "
                                                                 "bot's tries and z were chosen on")
    ap.add_argument("--jobs", type=int, default=2, help="processes for the search bot's packs")
    ap.add_argument("--kratzen", type=int, default=0, help="also Kratzen's heuristic bot against random play, "
                                                            "on this many hands a side")
    ap.add_argument("--kratzen-search", type=int, default=0, help="also Kratzen's search bot against its "
                                                                   "heuristic bot, on this many deals")
    ap.add_argument("--kratzen-tries", type=int, default=120, help="deals Kratzen's search bot plays each choice "
                                                                   "out on")
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
        search_against_heuristic(args.search, n, args.tries, args.z, args.first_seed, args.jobs)
    if args.kratzen:
        print()
        kratzen_against_random(args.kratzen, n)
    if args.kratzen_search:
        print()
        kratzen_search_against_heuristic(args.kratzen_search, n, args.kratzen_tries, args.z, args.first_seed,
                                         args.jobs)


if __name__ == "__main__":
    main()
