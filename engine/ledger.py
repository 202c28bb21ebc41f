"""Settle-up at the end of an evening: who pays whom, with the fewest payments.

The fewest payments for balances b is (number of non-zero balances) minus (the most groups
they split into that each sum to zero); each group then needs one payment fewer than its size.
That partition is found exactly by a subset DP for up to ``EXACT_LIMIT`` parties, which covers
any real table (7 seats and the pot); beyond it a greedy match is used.
"""

from __future__ import annotations

from dataclasses import dataclass

POT = "pot"
EXACT_LIMIT = 12


@dataclass(frozen=True)
class Payment:
    payer: str
    payee: str
    amount: int

    def to_dict(self) -> dict[str, object]:
        return {"payer": self.payer, "payee": self.payee, "amount": self.amount}


def settle_up(balances: dict[str, int], pot: int | None = None) -> list[Payment]:
    """Payments that bring every balance to zero.

    If the balances do not sum to zero, the difference is money lying in the pot: it takes part
    as the party ``"pot"`` (players who are down pay into it; it is what the next evening starts
    with).
    """
    parties = {k: v for k, v in balances.items() if v}
    missing = -sum(parties.values()) if pot is None else pot
    if missing:
        parties[POT] = parties.get(POT, 0) + missing
    if sum(parties.values()) != 0:
        raise ValueError("balances and pot do not add up to zero")
    names = sorted(parties, key=lambda k: (-abs(parties[k]), k))
    groups = _zero_sum_groups([parties[k] for k in names]) if len(names) <= EXACT_LIMIT else [list(range(len(names)))]
    payments: list[Payment] = []
    for g in groups:
        payments.extend(_greedy({names[i]: parties[names[i]] for i in g}))
    return payments


def _zero_sum_groups(values: list[int]) -> list[list[int]]:
    m = len(values)
    full = (1 << m) - 1
    total = [0] * (full + 1)
    best = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = mask & -mask
        i = low.bit_length() - 1
        total[mask] = total[mask ^ low] + values[i]
        b = 0
        rest = mask
        while rest:
            bit = rest & -rest
            rest ^= bit
            if best[mask ^ bit] > b:
                b = best[mask ^ bit]
        best[mask] = b + (total[mask] == 0)
    groups, mask, start = [], full, full
    while mask:
        bit = next(b for b in _bits(mask) if best[mask ^ b] + (total[mask] == 0) == best[mask])
        mask ^= bit
        if total[mask] == 0:
            groups.append([i for i in range(m) if (start ^ mask) >> i & 1])
            start = mask
    return groups


def _bits(mask: int):
    while mask:
        bit = mask & -mask
        yield bit
        mask ^= bit


def _greedy(group: dict[str, int]) -> list[Payment]:
    """Largest debtor pays largest creditor; a zero-sum group of k parties needs <= k-1."""
    debtors = sorted(((-v, k) for k, v in group.items() if v < 0), reverse=True)
    creditors = sorted(((v, k) for k, v in group.items() if v > 0), reverse=True)
    out = []
    while debtors and creditors:
        d, dk = debtors[0]
        c, ck = creditors[0]
        amount = min(d, c)
        out.append(Payment(dk, ck, amount))
        debtors[0] = (d - amount, dk)
        creditors[0] = (c - amount, ck)
        if debtors[0][0] == 0:
            debtors.pop(0)
        if creditors[0][0] == 0:
            creditors.pop(0)
    return out
