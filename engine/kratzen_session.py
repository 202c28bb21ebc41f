"""An evening of Kratzen as one event log, as :class:`engine.session.Session` is for Chratze: the dealer's
turn, the Muss after an emptied pot, the pot carried, balances; Undo and corrections by the same
``resolve`` as Chratze's."""

from __future__ import annotations

from typing import Any, Iterable

from .events import CardCorrected, Event, HandStarted, PlayMoved, Undo
from .kratzen import KratzenRules
from .kratzen_hand import KratzenHand
from .ledger import Payment, settle_up
from .reasons import IllegalEvent, refused
from .session import Effective, resolve


class KratzenSession:
    ruleset = "kratzen"

    def __init__(self, rules: KratzenRules | None = None, meta: dict[str, Any] | None = None,
                 events: Iterable[Event] = (), opening_pot: int = 0) -> None:
        if not isinstance(opening_pot, int) or isinstance(opening_pot, bool) or opening_pot < 0:
            raise ValueError(f"the opening pot is a whole number of Rappen, 0 or more, not {opening_pot!r}")
        self.rules = self.opening_rules = rules or KratzenRules()
        self.meta, self.opening_pot = dict(meta or {}), opening_pot
        self.log: list[Event] = []
        self.hands: list[KratzenHand] = []
        self.positions: list[list[int]] = []  # the raw log position of each event of each hand, as Session's
        for ev in events:
            self.record(ev)

    # ------------------------------------------------------------------ recording
    def record(self, event: Event) -> int:
        """Add an event; raises IllegalEvent (log unchanged) if it cannot happen now."""
        log = self.log + [event]
        if isinstance(event, (Undo, CardCorrected, PlayMoved)):
            if isinstance(event, PlayMoved):
                raise IllegalEvent("a play is not moved in Kratzen", "kratzen", {"reason": "no moves"})
            self.hands, self.positions = self._fold(resolve(log))
        else:
            self._apply(self.hands, event)
            self._place(self.positions, event, len(log) - 1)
        self.log = log
        return len(log) - 1

    def undo(self) -> int:
        return self.record(Undo())

    def _fold(self, effective: list[Effective]) -> tuple[list[KratzenHand], list[list[int]]]:
        hands: list[KratzenHand] = []
        positions: list[list[int]] = []
        for e in effective:
            self._apply(hands, e.event)
            self._place(positions, e.event, e.position)
        return hands, positions

    @staticmethod
    def _place(positions: list[list[int]], event: Event, position: int) -> None:
        if isinstance(event, HandStarted):
            positions.append([position])
        else:
            positions[-1].append(position)

    def _apply(self, hands: list[KratzenHand], event: Event) -> None:
        if isinstance(event, HandStarted):
            pot, muss = self._pot_and_muss(hands)
            if event.carried != pot:
                raise IllegalEvent(f"the pot carried into this hand is {pot}, not {event.carried}", "carried_wrong",
                                   {"pot": pot, "carried": event.carried})
            if event.ante != self.rules.ante:
                raise IllegalEvent(f"the ante is {self.rules.ante}, not {event.ante}", "ante_wrong",
                                   {"ante": self.rules.ante, "given": event.ante})
            hands.append(KratzenHand(event, muss, self.rules))
            return
        if not hands:
            raise IllegalEvent("no hand has started: seat the players and start a hand first", "no_hand", {})
        hands[-1].apply(event)

    # ------------------------------------------------------------------ state
    @staticmethod
    def _muss_after(hand: KratzenHand) -> bool:
        """The next hand is a Muss where this one emptied the pot (no penalty, or the striker alone)."""
        s = hand.settlement()
        return hand.result == "alone" or (hand.result == "played" and not s.penalties)

    def _pot_and_muss(self, hands: list[KratzenHand]) -> tuple[int, bool]:
        if not hands:
            return self.opening_pot, True
        last = hands[-1]
        return last.settlement().carried_out, self._muss_after(last)

    @property
    def current(self) -> KratzenHand | None:
        return self.hands[-1] if self.hands else None

    @property
    def pot(self) -> int:
        return self._pot_and_muss(self.hands)[0]

    @property
    def next_is_muss(self) -> bool:
        return self._pot_and_muss(self.hands)[1]

    @property
    def balances(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for h in self.hands:
            s = h.settlement()
            for q, name in enumerate(h.seats):
                out[name] = out.get(name, 0) - h.paid[q] + s.payouts.get(name, 0) - s.penalties.get(name, 0)
        return out

    def next_hand(self, seats: Iterable[str] | None = None, dealer: str | None = None) -> HandStarted:
        """The next deal: the deal passes to the left of the last hand's dealer (after its hops); the first
        hand's dealer is ``dealer``, else the first seat."""
        if seats is None:
            if not self.hands:
                raise IllegalEvent("seat the players for the first hand", "seat_first", {})
            seats = self.hands[-1].seats
        seats = tuple(seats)
        given, dealer = dealer, dealer if dealer is not None and not self.hands else seats[0]
        if self.hands:
            last = self.hands[-1]
            dealer = last.seats[(last.dealer + 1) % last.n]
            if dealer not in seats:
                dealer = seats[0]
            if given is not None and given != dealer:
                raise refused("kratzen_dealer", dealer=dealer, given=given)
        return HandStarted(seats, dealer, self.rules.ante, self.pot)

    def settle_up(self) -> list[Payment]:
        return settle_up(self.balances)
