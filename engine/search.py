"""The search bot: the heuristic bot's play, with its bid, its coming along and its exchange chosen by
determinised Monte Carlo over the hidden cards.

For its own four cards and the upcard, the hidden cards are dealt at random ``tries`` times, and every
choice (chratze or weg, metcho or weg, and which plain cards to lay down) is played out on those same
deals against the heuristic bot's choice: what the seat is paid, less its penalties. It leaves the
heuristic's choice only for one that did better by more than ``z`` standard errors on those deals,
so chance alone rarely moves it off a choice that was already right. ``tries`` 1200 and ``z`` 2 were
chosen on the tuning packs of ``benchmarks/bots.py`` (seeds from 100), where 400 tries did worse.
"""

from __future__ import annotations

import math
from itertools import combinations

import numpy as np

from . import bots
from .fast import Decided, Seat, _given, simulate_batch
from .rules import HouseRules


def candidates(cards: tuple[int, ...], upcard: int) -> list[tuple[bool, bool, tuple[int, ...]]]:
    """Every (chratze, metcho, cards laid) the seat may choose, the heuristic bot's choice first."""
    hand, trump = np.array([[*cards, -1, -1]], np.int16), np.array([upcard // 9])
    own = (bool(bots.wants_to_chratze(hand, trump)[0]), bool(bots.comes_along(hand, trump)[0]),
           tuple(c for c, lay in zip(cards, bots.cards_to_lay(hand, trump)[0]) if lay))
    plain = [c for c in cards if c // 9 != upcard // 9]
    lays = [x for k in range(len(plain) + 1) for x in combinations(plain, k)]
    rest = [(c, m, x) for c in (True, False) for m in (True, False) for x in lays
            if (c, m, tuple(sorted(x))) != (own[0], own[1], tuple(sorted(own[2])))]
    return [own, *rest]


def choose(cards: tuple[int, ...], upcard: int, seat: int, players: int, rules: HouseRules,
           rng: np.random.Generator, tries: int, z: float) -> tuple[bool, bool, tuple[int, ...]]:
    """The choice for one pack: each candidate played out on the same ``tries`` deals."""
    cands = candidates(cards, upcard)
    deck, _ = _given(rng, tries, Seat(seat, cards, upcard))
    K = len(cands)
    lay = np.zeros((K, 36), bool)
    for k, (_, _, x) in enumerate(cands):
        lay[k, list(x)] = True
    decided = Decided(seat, np.repeat([c for c, _, _ in cands], tries), np.repeat([m for _, m, _ in cands], tries),
                      np.repeat(lay, tries, axis=0))
    b = simulate_batch(rng, K * tries, players, rules, bots="h" * players, deck=np.tile(deck, (K, 1)),
                       decided=decided)
    won = (b.payouts[:, seat] - b.penalties[:, seat]).reshape(K, tries).astype(float)
    diff = won - won[0]
    gain = diff.mean(axis=1)
    se = diff.std(axis=1, ddof=1) / math.sqrt(tries)
    better = (se > 0) & (gain / np.where(se > 0, se, 1.0) > z)
    return cands[int(np.argmax(np.where(better, gain, -np.inf)))] if better.any() else cands[0]


def decide(deck: np.ndarray, seat: int, players: int, rules: HouseRules | None = None, tries: int = 1200,
           z: float = 2.0, seed: int = 0) -> Decided:
    """The search bot's choices at ``seat`` for each pack of ``deck`` (:func:`engine.fast.deal`)."""
    rules = rules or HouseRules()
    rng = np.random.default_rng(seed)
    B = len(deck)
    chratze, metcho, lay = np.zeros(B, bool), np.zeros(B, bool), np.zeros((B, 36), bool)
    for b in range(B):
        cards, up = tuple(int(c) for c in deck[b, 4 * seat:4 * seat + 4]), int(deck[b, 35])
        chratze[b], metcho[b], x = choose(cards, up, seat, players, rules, rng, tries, z)
        lay[b, list(x)] = True
    return Decided(seat, chratze, metcho, lay)
