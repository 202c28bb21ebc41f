"""Kratzen, Chratze's Austrian relative (docs/kratzen.md): its pack, its ranks with the Weli, and the
obligations of its play. The hand, the cut, the contracts and the settlement are not built yet.

Cards are the engine's (:mod:`engine.cards`): Ober ``Q``, Unter ``J``, the Weli the Schellen 6 ``6d``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from .cards import DECK, Card, card

WELI = card("6d")
PACK: tuple[Card, ...] = tuple(c for c in DECK if c.rank > 0) + (WELI,)  # 32 cards and the Weli


@dataclass(frozen=True)
class KratzenRules:
    """Where the source text is silent or ambiguous (docs/kratzen.md), the referee's choice."""

    overtrump_when_following: bool = False  # following a plain suit already trumped: any card of the suit
    oder_striker: str = "announcer"  # Oder: whoever announced it is the striker
    remainder: str = "pot"  # the quarter-pot's indivisible remainder stays in the pot (or "striker")
    announce_last: bool = False  # the variant right to announce last, claimed first
    two_sevens: str = "seven"  # two Sevens cut count as one Seven
    weli_with: str = "weli"  # the Weli cut with a Seven or a Sau counts as the Weli


def is_trump(c: Card, trump: int) -> bool:
    """The Weli is a trump whatever the trump suit."""
    return c is WELI or c.suit == trump


def suit_of(c: Card, trump: int) -> int:
    """The suit a card follows: the trump suit for every trump, the Weli included."""
    return trump if is_trump(c, trump) else c.suit


def _strength(c: Card, trump: int) -> int:
    """Trumps above every plain card; among trumps the Sau, then the Weli, then König down to Seven."""
    if c is WELI:
        return 100 + 2 * 8 - 1
    return (100 if c.suit == trump else 0) + 2 * c.rank


def beats(c: Card, best: Card, trump: int) -> bool:
    """Whether ``c`` takes the trick from ``best`` (the card winning it so far)."""
    if is_trump(c, trump) or is_trump(best, trump):
        return _strength(c, trump) > _strength(best, trump)
    return c.suit == best.suit and c.rank > best.rank


def trick_winner_index(trick: Sequence[Card], trump: int) -> int:
    best = 0
    for i in range(1, len(trick)):
        if beats(trick[i], trick[best], trump):
            best = i
    return best


def legal_cards(hand: Iterable[Card], trick: Sequence[Card], trump: int) -> list[Card]:
    """The cards a player holding ``hand`` may play on ``trick`` (the cards so far, led first):
    Farbzwang, then Trumpfzwang, then Stichzwang among what those allow."""
    hand = list(hand)
    if not trick:
        return hand
    led = suit_of(trick[0], trump)
    best = trick[trick_winner_index(trick, trump)]
    allowed = [c for c in hand if suit_of(c, trump) == led]  # Farbzwang
    if not allowed:
        allowed = [c for c in hand if is_trump(c, trump)] or hand  # Trumpfzwang, else anything
    heads = [c for c in allowed if beats(c, best, trump)]  # Stichzwang
    return heads or allowed
