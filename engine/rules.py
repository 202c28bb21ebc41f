"""House rules (RULES.md §2, §4, §7) and the trick-taking rules of §2.6.

The trick functions take plain sequences of cards so that the referee, the simulator and the
live-table decoder share one definition of what is legal.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, Iterable, Sequence

from .cards import Card

SPLITS = ("two_thirds", "by_role")
NO_BID_PROCEDURES = ("new_upcard", "redeal")


class RulesError(ValueError):
    """A house-rule setting that does not exist or has a value out of range."""


@dataclass(frozen=True)
class HouseRules:
    """Settings a table can switch; defaults are RULES.md's defaults."""

    ante: int = 20
    rounding_unit: int = 20
    split: str = "two_thirds"
    no_bid: str = "new_upcard"
    max_upcards: int = 3
    max_redeals: int = 3
    blind_allowed: bool = True
    double_blind_allowed: bool = True
    letzter: bool = False
    bannerrunde: bool = False
    revoke_penalty: bool = False
    ante_only_into_empty_pot: bool = False

    def __post_init__(self) -> None:
        for name in ("ante", "rounding_unit", "max_upcards", "max_redeals"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise RulesError(f"{name} must be an integer number of Rappen/count, got {value!r}")
        if self.ante < 0:
            raise RulesError(f"ante must not be negative, got {self.ante}")
        if self.rounding_unit < 1:
            raise RulesError("rounding_unit must be at least 1 (1 means no rounding)")
        if self.max_upcards < 1 or self.max_redeals < 1:
            raise RulesError("max_upcards and max_redeals must be at least 1")
        if self.split not in SPLITS:
            raise RulesError(f"split must be one of {SPLITS}, got {self.split!r}")
        if self.no_bid not in NO_BID_PROCEDURES:
            raise RulesError(f"no_bid must be one of {NO_BID_PROCEDURES}, got {self.no_bid!r}")
        for f in fields(self):
            if f.type == "bool" and not isinstance(getattr(self, f.name), bool):
                raise RulesError(f"{f.name} must be true or false, got {getattr(self, f.name)!r}")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> "HouseRules":
        if data is not None and not isinstance(data, dict):
            raise RulesError(f"house rules are an object of rule names and values, not {type(data).__name__}")
        data = dict(data or {})
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RulesError(f"unknown house rule(s): {', '.join(unknown)}")
        return cls(**data)


def legal_cards(hand: Iterable[Card], led_suit: int | None, trump: int) -> list[Card]:
    """Cards a player holding ``hand`` may play (RULES.md §2.6)."""
    hand = list(hand)
    if led_suit is None:
        return hand
    follow = [c for c in hand if c.suit == led_suit]
    if follow:
        return follow
    if led_suit != trump:
        trumps = [c for c in hand if c.suit == trump]
        if trumps:
            return trumps
    return hand


def broken_obligation(played: Card, held: Iterable[Card], led_suit: int, trump: int) -> tuple[str, Card] | None:
    """Which obligation playing ``played`` broke, given cards known to have been held then.

    Returns ``(rule, proof)`` with the held card that proves it, or None. A revoke (held the
    led suit) is preferred over a failed trump, because it is the stronger statement.
    """
    if played.suit == led_suit:
        return None
    trump_proof = None
    for c in held:
        if c.suit == led_suit and c is not played:
            return ("revoke", c)
        if trump_proof is None and c.suit == trump and c is not played:
            trump_proof = c
    if led_suit != trump and played.suit != trump and trump_proof is not None:
        return ("failed_trump", trump_proof)
    return None


def trick_winner_index(trick: Sequence[Card], trump: int) -> int:
    """Index in ``trick`` of the winning card: highest trump, else highest of the led suit."""
    best = 0
    best_card = trick[0]
    for i in range(1, len(trick)):
        c = trick[i]
        if c.suit == best_card.suit:
            if c.rank > best_card.rank:
                best, best_card = i, c
        elif c.suit == trump:
            best, best_card = i, c
    return best


def round_up(amount: int, unit: int) -> int:
    """Round a non-negative integer up to a multiple of ``unit``."""
    return -(-amount // unit) * unit
