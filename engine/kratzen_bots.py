"""The heuristic bot for Kratzen, as a careful player would play (set from the rules before any hand
was played, not tuned on results):

- choose Schlagen with two trumps, one of them the Sau, the Weli or the König; else Weiter;
- play rather than drop with a trump or a plain Sau;
- the dealer keeps the upcard (a trump) and lays down its weakest card;
- lay down in the exchange every card that is neither a trump nor a Sau or König;
- lead the highest plain card (the highest trump when only trumps are left); following, head the
  trick with the cheapest card that does, else play the cheapest card the obligations allow.
"""

from __future__ import annotations

from typing import Sequence

from .cards import Card
from .kratzen import WELI, beats, is_trump, trick_winner_index

KING, SAU = 7, 8


def _value(c: Card, trump: int) -> int:
    """What a card is worth keeping: trumps above plain cards, each by its rank (the Weli below the Sau)."""
    if c is WELI:
        return 100 + 2 * SAU - 1
    return (100 if c.suit == trump else 0) + 2 * c.rank


def contract(hand: Sequence[Card], trump: int, allowed: Sequence[str]) -> str:
    trumps = [c for c in hand if is_trump(c, trump)]
    high = any(c is WELI or c.rank >= KING for c in trumps)
    return "schlagen" if "schlagen" in allowed and len(trumps) >= 2 and high else "weiter"


def plays_along(hand: Sequence[Card], trump: int) -> bool:
    return any(is_trump(c, trump) or c.rank == SAU for c in hand)


def lay_down(hand: Sequence[Card], trump: int) -> list[Card]:
    return [c for c in hand if not is_trump(c, trump) and c.rank < KING]


def keep_four(pool: Sequence[Card], trump: int) -> list[Card]:
    return sorted(pool, key=lambda c: -_value(c, trump))[:4]


def choose(legal: Sequence[Card], trick: Sequence[Card], trump: int) -> Card:
    if not trick:
        plain = [c for c in legal if not is_trump(c, trump)]
        return max(plain or legal, key=lambda c: _value(c, trump))
    best = trick[trick_winner_index(trick, trump)]
    winning = [c for c in legal if beats(c, best, trump)]
    return min(winning or legal, key=lambda c: _value(c, trump))
