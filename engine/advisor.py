"""Should I chratze, come along, or pass? Odds and expected Rappen from many hands played out.

With the player's four cards and the upcard fixed, the other cards are dealt at random and the other
players are the heuristic bot (:mod:`engine.bots`); the fast path (:mod:`engine.fast`) plays each
choice out. Chratzing counts in the deals where nobody before the player chratzes; coming along in those
where another does. Each choice is tried with every way of laying down plain cards (never a trump), on a
few thousand hands each, and the best is measured again on fresh hands: its odds come with a 95 %
interval. Expected Rappen are counted from now: the ante is already in the pot.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np

from .cards import Card
from .fast import PLAYED, SUSI, Seat, simulate_batch
from .rules import HouseRules


@dataclass
class Choice:
    """One answer: what happens if the player says ``say`` and lays down ``lay``."""

    say: str  # chratze | metcho | weg
    made: float = 0.0  # share of the deals where the player makes the target (2 tricks chratzing, 1 along)
    made_half: float = 0.0  # half-width of its 95 % interval
    rappen: float = 0.0  # expected Rappen won from now (paid out less penalties)
    rappen_half: float = 0.0
    lay: tuple[Card, ...] = ()
    applies: float = 1.0  # share of the deals where the choice comes up at all
    hands: int = 0  # deals it was measured on

    def to_dict(self) -> dict:
        return {"say": self.say, "made": round(self.made, 4), "made_half": round(self.made_half, 4),
                "rappen": round(self.rappen, 1), "rappen_half": round(self.rappen_half, 1),
                "lay": [c.code for c in self.lay], "applies": round(self.applies, 3), "hands": self.hands}


@dataclass
class Advice:
    choices: list[Choice] = field(default_factory=list)

    @property
    def best(self) -> Choice:
        return max(self.choices, key=lambda c: c.rappen)

    def to_dict(self) -> dict:
        return {"choices": [c.to_dict() for c in self.choices], "best": self.best.say}


def advise(cards: list[Card], upcard: Card, seat: int, players: int = 4, carried: int = 0,
           rules: HouseRules | None = None, screen: int = 1_000, final: int = 30_000, seed: int = 0) -> Advice:
    """``seat``: 1 on the dealer's left ... ``players`` the dealer. ``carried``: Rappen in the pot before
    this hand's antes."""
    if not 1 <= seat <= players:
        raise ValueError(f"a seat is 1 (the dealer's left) to {players} (the dealer), not {seat}")
    if len(cards) != 4 or len({c.index for c in cards} | {upcard.index}) != 5:
        raise ValueError("four different cards in the hand, and the upcard a fifth")
    rules = rules or HouseRules()
    rng = np.random.default_rng(seed)
    fast_seat = seat % players  # the fast path's dealer is seat 0
    plain = [c for c in cards if c.suit != upcard.suit]
    lays = [combo for k in range(len(plain) + 1) for combo in combinations(plain, k)]
    out = []
    for say in ("chratze", "metcho"):
        def run(lay: tuple[Card, ...], hands: int, say=say) -> Choice:
            given = Seat(fast_seat, tuple(c.index for c in cards), upcard.index, bid=say if say == "chratze" else "weg",
                         join="metcho", lay=tuple(c.index for c in lay))
            batch = simulate_batch(rng, hands, players, rules, bots="h" * players, given=given, carried=carried)
            return _measure(batch, fast_seat, say, lay)
        best = max((run(lay, screen) for lay in lays), key=lambda c: c.rappen)
        out.append(run(best.lay, final))
    out.append(Choice("weg", hands=0))
    return Advice(out)


def _measure(batch, seat: int, say: str, lay: tuple[Card, ...]) -> Choice:
    rows = np.arange(len(batch))
    first = batch.upcards[:, 1] < 0 if batch.upcards.shape[1] > 1 else np.ones(len(batch), bool)  # this trump
    if say == "chratze":
        comes = first & (batch.chratzer == seat)
        made = (batch.tricks_won[rows, seat] >= 2) | (batch.result == SUSI)
    else:
        comes = first & (batch.chratzer >= 0) & (batch.chratzer != seat) & (batch.result == PLAYED) & batch.active[:, seat]
        made = batch.tricks_won[rows, seat] >= 1
    n = int(comes.sum())
    if n == 0:
        return Choice(say, lay=lay, applies=0.0)
    won = (batch.payouts[:, seat] - batch.penalties[:, seat])[comes].astype(float)
    p = float(made[comes].mean())
    return Choice(say, p, 1.96 * math.sqrt(p * (1 - p) / n), float(won.mean()),
                  1.96 * float(won.std(ddof=1)) / math.sqrt(n) if n > 1 else 0.0, lay, n / len(batch), n)
