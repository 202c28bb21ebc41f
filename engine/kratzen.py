"""Kratzen, Chratze's Austrian relative (docs/kratzen.md): its pack, its ranks with the Weli, the
obligations of its play, what a cut decides and the settlement of the tricks (the hand that uses
them: :mod:`engine.kratzen_hand`).

Cards are the engine's (:mod:`engine.cards`): Ober ``Q``, Unter ``J``, the Weli the Schellen 6 ``6d``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Iterable, Sequence

from .cards import DECK, Card, card

WELI = card("6d")
TELL_SUIT_NAMES = {"h": "Herz", "d": "Schellen", "s": "Laub", "c": "Eichel"}  # the William Tell pack's suits
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
    ante: int = 10  # Rappen: one ante; the Muss's dealer pays two

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict | None) -> "KratzenRules":
        data = dict(data or {})
        unknown = sorted(set(data) - {f.name for f in fields(cls)})
        if unknown:
            raise ValueError(f"unknown Kratzen rule(s): {', '.join(unknown)}")
        rules = cls(**data)
        if not isinstance(rules.ante, int) or isinstance(rules.ante, bool) or rules.ante < 0:
            raise ValueError(f"the ante is a whole number of Rappen, 0 or more, not {rules.ante!r}")
        return rules


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


# --------------------------------------------------------------------------- the cut
@dataclass(frozen=True)
class CutOutcome:
    """What a cut decides (docs/kratzen.md, "The cut"): the dealer moved by ``move`` seats in play order
    (-1: a hop to the right, 1: to the left, 2: a jump), who antes (seat offsets from the dealer before
    the move; ``everyone``: all seats), and whether the cards are dealt now or the cut is made again."""

    name: str
    move: int = 0
    antes: tuple[int, ...] = ()
    everyone: bool = False
    deal: bool = False


def cut_outcome(shown: Sequence[Card], rules: KratzenRules | None = None) -> CutOutcome:
    """The outcome of a cut from the cards shown: the bottom card of the top packet and, where that is a
    Seven, a Sau or the Weli, the bottom card of the lower packet."""
    rules = rules or KratzenRules()
    if not shown or len(shown) > 2 or (len(shown) == 2 and not _special(shown[0])):
        raise ValueError("a cut shows one card, or two where the first is a Seven, a Sau or the Weli")
    if len(shown) == 1:
        if _special(shown[0]):
            raise ValueError(f"{shown[0]} was cut: the bottom card of the lower packet is shown too")
        return CutOutcome("plain", deal=True)
    kinds = sorted(_kind(c) for c in shown)
    if "weli" in kinds and (rules.weli_with == "weli" or kinds == ["plain", "weli"]):
        return CutOutcome("weli", everyone=True, deal=True)
    if kinds == ["sau", "sau"]:
        return CutOutcome("jump", move=2, antes=(1, 2))
    if kinds == ["sau", "seven"]:
        return CutOutcome("there and back", antes=(1, 2), deal=True)  # the dealer stays and deals
    if kinds in (["plain", "sau"], ["sau", "weli"]):
        return CutOutcome("hop left", move=1, antes=(1,))
    return CutOutcome("hop right", move=-1, antes=(-1,))  # a Seven (two Sevens count as one)


def _special(c: Card) -> bool:
    return _kind(c) != "plain"


def _kind(c: Card) -> str:
    if c is WELI:
        return "weli"
    return {8: "sau", 1: "seven"}.get(c.rank, "plain")


# --------------------------------------------------------------------------- the settlement
@dataclass(frozen=True)
class KratzenSettlement:
    payouts: dict[str, int]
    penalties: dict[str, int]
    carried_out: int  # what stays in the pot


def settle_tricks(pot: int, seats: Sequence[str], striker: int, active: Sequence[bool], tricks_won: Sequence[int],
                  seven_muss: bool = False, rules: KratzenRules | None = None) -> KratzenSettlement:
    """A quarter of the pot for each trick won; a player short of their target (the striker 2 tricks,
    the others 1; everyone 1 in a Siebenermuss) pays the pot, the striker double. The quarter's remainder
    stays in the pot, or goes to the striker (``KratzenRules.remainder``)."""
    rules = rules or KratzenRules()
    quarter, rest = divmod(pot, 4)
    payouts = {seats[q]: quarter * tricks_won[q] for q in range(len(seats)) if tricks_won[q]}
    if rules.remainder == "striker" and rest and sum(tricks_won) == 4:
        payouts[seats[striker]] = payouts.get(seats[striker], 0) + rest
    penalties = {}
    for q, playing in enumerate(active):
        target = 1 if seven_muss or q != striker else 2
        if playing and tricks_won[q] < target:
            penalties[seats[q]] = pot * (2 if q == striker else 1)
    carried = pot - sum(payouts.values()) + sum(penalties.values())
    return KratzenSettlement(payouts, penalties, carried)
