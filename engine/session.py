"""A session of many hands as one event log: dealer rotation, the pot, balances, corrections.

The raw log is append-only (every tap and every correction stays in it, for review). What is in
effect comes from it: ``Undo`` retracts the last event still in effect, ``CardCorrected``
replaces the card of an earlier event. State is then the fold of the effective events, so undo,
correction, persistence, replay and export are all the same mechanism.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Iterable

from .events import (CardCorrected, CardPlayed, Event, FlagRuled, HandStarted, PlayMoved, RulesChanged, Undo,
                     UpcardShown)
from .hand import Hand, IllegalEvent
from .reasons import refused
from .ledger import Payment, settle_up
from .rules import HouseRules
from .settlement import Settlement, settle


@dataclass(frozen=True)
class Effective:
    position: int  # index in the raw log
    event: Event


def resolve(log: list[Event]) -> list[Effective]:
    """The events in effect after undos, corrections and moves; raises IllegalEvent on a bad one.

    A moved play is in effect where its ``PlayMoved`` stands (the latest move), under its own position."""
    stack: list[int] = []
    for i, ev in enumerate(log):
        if isinstance(ev, Undo):
            if not stack:
                raise refused("nothing_to_undo")
            stack.pop()
        elif isinstance(ev, CardCorrected):
            _check_correction(log, stack, ev)
            stack.append(i)
        elif isinstance(ev, PlayMoved):
            _check_move(log, stack, ev)
            stack.append(i)
        else:
            stack.append(i)
    corrected = {log[i].target: log[i].card for i in stack if isinstance(log[i], CardCorrected)}
    moved_to = {log[i].target: i for i in stack if isinstance(log[i], PlayMoved)}  # the latest move of each
    out = []
    for i in stack:
        ev = log[i]
        if isinstance(ev, CardCorrected) or i in moved_to:
            continue
        target = i
        if isinstance(ev, PlayMoved):
            if moved_to[ev.target] != i:
                continue  # moved again later
            target, ev = ev.target, log[ev.target]
        if target in corrected:
            ev = replace(ev, card=corrected[target])
        out.append(Effective(target, ev))
    return out


def _check_move(log: list[Event], stack: list[int], ev: PlayMoved) -> None:
    if ev.target not in stack:
        raise refused("not_in_effect", target=ev.target)
    if not isinstance(log[ev.target], CardPlayed):
        raise refused("not_movable", target=ev.target, kind=log[ev.target].type)
    if any(isinstance(log[i], HandStarted) for i in stack if i > ev.target):
        raise refused("move_across_hands", target=ev.target)


def _check_correction(log: list[Event], stack: list[int], ev: CardCorrected) -> None:
    if ev.target not in stack:
        raise refused("not_in_effect", target=ev.target)
    if not isinstance(log[ev.target], (CardPlayed, UpcardShown)):
        raise refused("not_correctable", target=ev.target, kind=log[ev.target].type)


class Session:
    """Hands, pot and balances of one evening at one table."""

    def __init__(self, rules: HouseRules | None = None, meta: dict[str, Any] | None = None,
                 events: Iterable[Event] = (), opening_pot: int = 0) -> None:
        """``opening_pot``: Rappen already in the pot when the record starts (a table that starts
        recording mid-evening); it is carried into the first hand and is nobody's balance."""
        if not isinstance(opening_pot, int) or isinstance(opening_pot, bool) or opening_pot < 0:
            raise ValueError(f"the opening pot is a whole number of Rappen, 0 or more, not {opening_pot!r}")
        self.opening_rules = rules or HouseRules()  # the record's head; RulesChanged events change them later
        self.meta = dict(meta or {})
        self.opening_pot = opening_pot
        self.log: list[Event] = []
        self._reset()
        for ev in events:
            self.record(ev)

    def _reset(self) -> None:
        self.hands: list[Hand] = []
        self.positions: list[list[int]] = []  # raw log position of each event of each hand
        self._closed: list[Settlement] = []  # settlements of hands before the current one
        self._balances: dict[str, int] = {}
        self._pot = self.opening_pot
        self._ruled_late = 0  # Rappen that rulings on earlier hands put into the pot since this hand began
        self.rules = self.opening_rules

    # ------------------------------------------------------------- recording
    def record(self, event: Event) -> int:
        """Add an event; raises IllegalEvent (log unchanged) if it cannot happen now."""
        if isinstance(event, (Undo, CardCorrected, PlayMoved)):
            self._refold(self.log + [event])
        else:
            self._apply(event, len(self.log))
        self.log.append(event)
        return len(self.log) - 1

    def undo(self) -> int:
        return self.record(Undo())

    def _refold(self, log: list[Event]) -> None:
        effective = resolve(log)
        saved = (self.hands, self.positions, self._closed, self._balances, self._pot, self._ruled_late, self.rules)
        self._reset()
        try:
            for eff in effective:
                self._apply(eff.event, eff.position)
        except IllegalEvent as exc:
            self.hands, self.positions, self._closed, self._balances, self._pot, self._ruled_late, self.rules = saved
            raise refused("correction_impossible", reason=exc) from None

    def _apply(self, event: Event, position: int) -> None:
        if isinstance(event, HandStarted):
            self._start_hand(event, position)
            return
        if isinstance(event, RulesChanged):
            if self.hands and self.hands[-1].phase != "done":
                raise refused("rules_mid_hand", hand=len(self.hands))
            self.rules = event.rules
            return
        if isinstance(event, FlagRuled) and event.hand not in (None, len(self.hands)):
            self._rule_earlier(event, position)
            return
        if not self.hands:
            raise refused("no_hand")
        self.hands[-1].apply(event)
        self.positions[-1].append(position)

    def _start_hand(self, start: HandStarted, position: int) -> None:
        pot = self.pot
        if start.carried != pot:
            raise refused("carried_wrong", pot=pot, carried=start.carried)
        ante = self.ante_due(pot)
        if start.ante != ante:
            raise refused("ante_wrong", ante=ante, given=start.ante)
        hand = Hand(start, self.rules, number=len(self.hands) + 1)
        if self.hands:
            self._close(self.hands[-1])
        for name in start.seats:
            self._balances[name] = self._balances.get(name, 0) - ante
        self._pot = pot + ante * len(start.seats)
        self._ruled_late = 0  # now in the pot this hand is played for
        self.hands.append(hand)
        self.positions.append([position])

    def _rule_earlier(self, ruling: FlagRuled, position: int) -> None:
        """A ruling on an earlier hand: its settlement is made again, and what changes moves between the
        players and the pot now (the hands since were played for the pot they had)."""
        k = ruling.hand - 1
        if not 0 <= k < len(self.hands) - 1:
            raise refused("no_such_hand", hand=ruling.hand, hands=len(self.hands))
        hand, before = self.hands[k], self._closed[k]
        hand.apply(replace(ruling, hand=None))
        self.positions[k].append(position)
        after = settle(hand, abandoned=True)
        self._closed[k] = after
        self._book(self._balances, before, sign=-1)
        self._book(self._balances, after)
        self._ruled_late += after.carried_out - before.carried_out

    def _close(self, hand: Hand) -> None:
        s = settle(hand, abandoned=True)
        self._closed.append(s)
        self._book(self._balances, s)
        self._pot = s.carried_out

    @staticmethod
    def _book(balances: dict[str, int], s: Settlement, sign: int = 1) -> None:
        for name, v in s.payouts.items():
            balances[name] = balances.get(name, 0) + sign * v
        for name, v in s.penalties.items():
            balances[name] = balances.get(name, 0) - sign * v

    # ------------------------------------------------------------- state
    @property
    def current(self) -> Hand | None:
        return self.hands[-1] if self.hands else None

    def settlements(self) -> list[Settlement]:
        """One per hand; the current hand's is provisional until the next hand starts."""
        if not self.hands:
            return []
        return self._closed + [settle(self.hands[-1])]

    @property
    def balances(self) -> dict[str, int]:
        out = dict(self._balances)
        if self.hands:
            self._book(out, settle(self.hands[-1]))
        return out

    @property
    def pot(self) -> int:
        """The pot now: with the current hand's payout and penalties once it is over."""
        if not self.hands:
            return self._pot
        return settle(self.hands[-1]).carried_out + self._ruled_late

    def ante_due(self, pot: int | None = None) -> int:
        pot = self.pot if pot is None else pot
        return 0 if self.rules.ante_only_into_empty_pot and pot > 0 else self.rules.ante

    def next_dealer(self, seats: tuple[str, ...] | None = None) -> str | None:
        """Who deals next (RULES.md §2.7): the same dealer until a hand is played."""
        if not self.hands:
            return seats[0] if seats else None
        last = self.hands[-1]
        seats = seats or last.seats
        dealer = last.seats[last.dealer]
        keep = last.result in ("passed_out", None) and not self._redeal_limit_reached()
        if keep and dealer in seats:
            return dealer
        return _seat_after(dealer, last.seats, seats)

    def _redeal_limit_reached(self) -> bool:
        """Variant redeal: after the third failed deal by one dealer, the deal passes on."""
        if self.rules.no_bid != "redeal" or self.hands[-1].result != "passed_out":
            return False
        dealer = self.hands[-1].seats[self.hands[-1].dealer]
        run = 0
        for h in reversed(self.hands):
            if h.result != "passed_out" or h.seats[h.dealer] != dealer:
                break
            run += 1
        return run >= self.rules.max_redeals

    def next_hand(self, seats: Iterable[str] | None = None, dealer: str | None = None, **meta: Any) -> HandStarted:
        """The ``HandStarted`` event the table would record next."""
        if seats is None:
            if not self.hands:
                raise refused("seat_first")
            seats = self.hands[-1].seats
        seats = tuple(seats)
        dealer = dealer or self.next_dealer(seats)
        return HandStarted(seats, dealer, self.ante_due(), self.pot, meta=meta)

    def settle_up(self) -> list[Payment]:
        return settle_up(self.balances)

    def effective(self) -> list[Effective]:
        return resolve(self.log)


def _seat_after(dealer: str, old: tuple[str, ...], new: tuple[str, ...]) -> str:
    """The next seat in play order after ``dealer`` who still sits at the table."""
    i = old.index(dealer)
    for k in range(1, len(old) + 1):
        cand = old[(i + k) % len(old)]
        if cand in new:
            return cand
    return new[0]
