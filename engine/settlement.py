"""Settling the pot of one hand (RULES.md §4, §5, §7), in integer Rappen."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .flags import OBLIGATION_RULES
from .hand import Hand
from .rules import HouseRules, round_up


@dataclass
class Settlement:
    outcome: str  # played | susi | passed_out | abandoned | open
    pot: int  # P: the pot this hand was played for
    payouts: dict[str, int] = field(default_factory=dict)
    penalties: dict[str, int] = field(default_factory=dict)
    winners: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    susi: str | None = None

    @property
    def carried_out(self) -> int:
        """What stays in the pot for the next hand, before its antes."""
        return self.pot - sum(self.payouts.values()) + sum(self.penalties.values())

    def to_dict(self) -> dict[str, Any]:
        return {"outcome": self.outcome, "pot": self.pot, "payouts": dict(self.payouts),
                "penalties": dict(self.penalties), "winners": list(self.winners),
                "failed": list(self.failed), "susi": self.susi, "carried_out": self.carried_out}


def settle(hand: Hand, abandoned: bool = False) -> Settlement:
    """The payouts and penalties of a finished hand; an unfinished one pays nothing yet."""
    P = hand.pot
    if hand.result == "passed_out":
        return Settlement("passed_out", P)
    if hand.result is None:
        return Settlement("abandoned" if abandoned else "open", P)
    c = hand.chratzer
    assert c is not None
    name = hand.seats
    if hand.result == "susi":
        return Settlement("susi", P, {name[c]: P}, winners=[name[c]], susi=hand.susi)
    offenders = _offenders(hand)
    order = [(c + k) % hand.n for k in range(hand.n)]
    active = [q for q in order if hand.active[q]]
    winners = [q for q in active if hand.made_contract(q) and name[q] not in offenders]
    failed = [q for q in active if q not in winners]
    payouts = _payouts(P, c, winners, hand.rules)
    penalties = {name[q]: (2 * P if q == c else P) for q in failed}
    return Settlement("played", P, {name[q]: v for q, v in payouts.items() if v},
                      penalties, [name[q] for q in winners], [name[q] for q in failed])


def _offenders(hand: Hand) -> set[str]:
    if not hand.rules.revoke_penalty:
        return set()
    return {f.player for f in hand.flags.values()
            if f.rule in OBLIGATION_RULES and f.status != "dismissed"}


def _payouts(P: int, c: int, winners: list[int], rules: HouseRules) -> dict[int, int]:
    """Shares of P; ``winners`` is in play order starting with the Chratzer."""
    if not winners:
        return {}
    if c not in winners:
        each = P // len(winners)  # an indivisible remainder stays in the pot
        return {q: each for q in winners}
    others = [q for q in winners if q != c]
    if not others:
        return {c: P}
    if rules.split == "by_role":
        return _largest_remainder(P, {q: (2 if q == c else 1) for q in winners})
    c_share = min(P, round_up(2 * P, 3 * rules.rounding_unit) // 3)
    each, rest = divmod(P - c_share, len(others))
    shares = {q: each for q in others}
    shares[c] = c_share + rest
    return shares


def _largest_remainder(P: int, weights: dict[int, int]) -> dict[int, int]:
    """Split P by weights in whole Rappen; leftover Rappen go to the largest remainders first
    (ties in play order from the Chratzer, which is the dict's order)."""
    total = sum(weights.values())
    shares = {q: P * w // total for q, w in weights.items()}
    left = P - sum(shares.values())
    by_remainder = sorted(weights, key=lambda q: -(P * weights[q] % total))
    for q in by_remainder[:left]:
        shares[q] += 1
    return shares
