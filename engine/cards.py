"""The 36-card Swiss pack: parsing, printing and naming cards.

Cards are interned singletons (``DECK``) so the engine compares them by identity and reads
suit and rank as plain ints on the hot path of simulation.
"""

from __future__ import annotations

from typing import Iterable

SUITS = "hdsc"
RANKS = "6789TJQKA"

FRENCH_SUIT_NAMES = {"h": "hearts", "d": "diamonds", "s": "spades", "c": "clubs"}
GERMAN_SUIT_NAMES = {"h": "Rosen", "d": "Schellen", "s": "Schilten", "c": "Eicheln"}
FRENCH_RANK_NAMES = {
    "6": "6", "7": "7", "8": "8", "9": "9", "T": "10",
    "J": "Jack", "Q": "Queen", "K": "King", "A": "Ace",
}
GERMAN_RANK_NAMES = {
    "6": "6", "7": "7", "8": "8", "9": "9", "T": "Banner",
    "J": "Under", "Q": "Ober", "K": "König", "A": "Ass",
}


class CardError(ValueError):
    """A token that is not a card of the 36-card pack; the message names the token."""


class Card:
    """One card of the pack. Use ``card("Ah")``; never construct directly."""

    __slots__ = ("code", "suit", "rank", "index")

    def __init__(self, suit: int, rank: int) -> None:
        self.suit = suit
        self.rank = rank
        self.index = suit * 9 + rank
        self.code = RANKS[rank] + SUITS[suit]

    def __copy__(self) -> "Card":
        return self  # one object per card: identity is equality

    def __deepcopy__(self, memo: dict) -> "Card":
        return self

    @property
    def suit_letter(self) -> str:
        return SUITS[self.suit]

    def name(self, pack: str = "french") -> str:
        """Spoken name, e.g. 'Ace of hearts' or 'Rosen Ass'."""
        r, s = self.code[0], self.code[1]
        if pack == "german":
            return f"{GERMAN_SUIT_NAMES[s]} {GERMAN_RANK_NAMES[r]}"
        return f"{FRENCH_RANK_NAMES[r]} of {FRENCH_SUIT_NAMES[s]}"

    def __repr__(self) -> str:
        return self.code

    __str__ = __repr__

    def __reduce__(self):  # pickling keeps identity
        return (card, (self.code,))


DECK: tuple[Card, ...] = tuple(Card(s, r) for s in range(4) for r in range(9))
_BY_CODE = {c.code: c for c in DECK}
# Accept the spoken ten and lower-case ranks as well: "10h", "ah".
for _c in DECK:
    _BY_CODE[_c.code.lower()] = _c
    if _c.code[0] == "T":
        _BY_CODE["10" + _c.code[1]] = _c


def card(token: str | Card) -> Card:
    """Parse a card in the project's notation (``Th``, also ``10h``)."""
    if isinstance(token, Card):
        return token
    if not isinstance(token, str):
        raise CardError(f"not a card: {token!r} (expected a string such as 'Ah')")
    found = _BY_CODE.get(token.strip())
    if found is None:
        raise CardError(
            f"unknown card {token!r}: expected rank 6 7 8 9 T J Q K A then suit h d s c, e.g. 'Th'"
        )
    return found


def cards(tokens: str | Iterable[str | Card]) -> list[Card]:
    """Parse several cards: a list, or one string separated by spaces or commas."""
    if isinstance(tokens, str):
        tokens = tokens.replace(",", " ").split()
    return [card(t) for t in tokens]


def suit_index(letter: str) -> int:
    if not isinstance(letter, str) or len(letter) != 1 or letter not in SUITS:
        raise CardError(f"unknown suit {letter!r}: expected one of h d s c")
    return SUITS.index(letter)


def format_cards(cs: Iterable[Card]) -> str:
    return " ".join(c.code for c in cs)
