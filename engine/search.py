"""The search bot: the heuristic bot's play, with its bid, its coming along and its exchange chosen by
determinised Monte Carlo: for its own four cards and the upcard, the hidden cards are dealt at random
many times and each choice is played out (:mod:`engine.advisor`'s measure, on fewer hands).

It chratzes where chratzing is worth more than saying weg (worth what coming along is worth, in the
deals where another then chratzes), comes along where that is worth more than nothing, and lays down
the plain cards that did best (the heuristic's choice, or all of them).
"""

from __future__ import annotations

import numpy as np

from .advisor import _measure
from .cards import DECK
from .fast import Decided, Seat, simulate_batch
from .rules import HouseRules


def decide(deck: np.ndarray, seat: int, players: int, rules: HouseRules | None = None, tries: int = 250,
           seed: int = 0) -> Decided:
    """The search bot's choices at ``seat`` for each pack of ``deck`` (:func:`engine.fast.deal`)."""
    rules = rules or HouseRules()
    rng = np.random.default_rng(seed)
    B = len(deck)
    chratze, metcho, lay = np.zeros(B, bool), np.zeros(B, bool), np.zeros((B, 36), bool)
    for b in range(B):
        cards, up = tuple(int(c) for c in deck[b, 4 * seat:4 * seat + 4]), int(deck[b, 35])
        plain = [c for c in cards if c // 9 != up // 9]
        lays = {tuple(c for c in plain if c % 9 < 7), tuple(plain)}  # the heuristic's, and every plain card

        def value(say: str, lay_: tuple[int, ...]):
            given = Seat(seat, cards, up, bid="chratze" if say == "chratze" else "weg", join="metcho", lay=lay_)
            batch = simulate_batch(rng, tries, players, rules, bots="h" * players, given=given)
            return _measure(batch, seat, say, tuple(DECK[c] for c in lay_))

        best_c = max((value("chratze", x) for x in lays), key=lambda c: c.rappen)
        best_m = max((value("metcho", x) for x in lays), key=lambda c: c.rappen)
        chratze[b] = best_c.rappen > best_m.applies * max(best_m.rappen, 0.0)
        metcho[b] = best_m.rappen > 0
        chosen = best_c if chratze[b] else best_m
        lay[b, [c.index for c in chosen.lay]] = True
    return Decided(seat, chratze, metcho, lay)
