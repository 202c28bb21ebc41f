"""A hand of Kratzen as a fold over its events (docs/kratzen.md), as :class:`engine.hand.Hand` is for
Chratze: each event is checked and applied, or refused with a reason and the state left as it was.

Events: ``HandStarted`` (the ante unit and the pot before this hand's antes), ``CutShown`` (again after
a hop or a jump), ``UpcardShown`` (a Weli turned is the dealer's and another is turned; Oder and
Weiter-Oder turn more), ``BidMade`` (contracts: schlagen, oder, weiter_oder, weiter; then mitgehen or
verzichten), ``Exchanged`` and ``CardsShown`` (the cards drawn face up), ``HandsKnown`` (simulations),
``CardPlayed``. The play is checked against Farbzwang, Trumpfzwang and Stichzwang where the hands are
known; with hidden hands a card that breaks them is flagged once a later card proves it.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card
from .events import (BidMade, CardPlayed, CardsShown, CutShown, Event, Exchanged, HandsKnown, HandStarted, UpcardShown,
                     seated_by_turn)
from .kratzen import (PACK, WELI, KratzenRules, KratzenSettlement, cut_outcome, is_trump, legal_cards,
                      settle_tricks, trick_winner_index)
from .reasons import IllegalEvent

CONTRACTS = ("weiter", "weiter_oder", "oder", "schlagen")  # low to high (docs/kratzen.md, "Contracts")
TRICKS = 4


def _refuse(text: str) -> IllegalEvent:
    return IllegalEvent(text, "kratzen", {"reason": text})


@dataclass
class KratzenPlay:
    player: int
    card: Card
    trick: int
    before: tuple[Card, ...]  # the trick's cards when it was played


class KratzenHand:
    """One deal of Kratzen. ``muss``: everyone plays and antes, the dealer double (the first hand, and
    the hand after a pot was emptied)."""

    def __init__(self, start: HandStarted, muss: bool, rules: KratzenRules | None = None) -> None:
        if not 3 <= len(start.seats) <= 6 or len(set(start.seats)) != len(start.seats):
            raise _refuse(f"Kratzen is played by 3 to 6 different players, not {', '.join(start.seats)}")
        if start.dealer not in start.seats or start.ante < 0 or start.carried < 0:
            raise _refuse("the dealer sits at the table, and the ante and the pot are not negative")
        self.rules, self.muss, self.start = rules or KratzenRules(), muss, start
        self.seats, self.n = start.seats, len(start.seats)
        self.dealer = start.seats.index(start.dealer)
        self.paid = [0] * self.n  # antes paid this hand
        for q in range(self.n) if muss else (self.dealer,):
            self.paid[q] += start.ante * (2 if q == self.dealer and muss else 1)
        self.phase = "cut"
        self.upcards: list[Card] = []
        self.trump: int | None = None
        self.trump_card: Card | None = None  # the card that decided the trump suit
        self.seven_muss = False
        self.contract: str | None = None
        self.declarer: int | None = None
        self.bid_pos = 0
        self.striker: int | None = None
        self.active = [muss] * self.n
        self.join_pos = 0
        self.exchange_pos = 0
        self.stock = 33 - 4 * self.n
        self.shown_by: dict[int, int] = {}  # exchange: cards owed face up, by seat
        self.known: dict[int, set[Card]] | None = None
        self.seen: set[Card] = set()
        self.tricks: list[list[KratzenPlay]] = []
        self.trick: list[KratzenPlay] = []
        self.leader: int | None = None
        self.tricks_won = [0] * self.n
        self.flags: dict[tuple[int, int], str] = {}  # (seat, trick) -> what the play broke
        self.result: str | None = None  # played | passed | alone
        self.events: list[Event] = [start]

    # ------------------------------------------------------------------ applying events
    def apply(self, event: Event) -> None:
        handler = {CutShown: self._cut, UpcardShown: self._upcard, BidMade: self._bid, Exchanged: self._exchange,
                   CardsShown: self._shown, HandsKnown: self._hands_known, CardPlayed: self._play}.get(type(event))
        if handler is None:
            raise _refuse(f"a {event.type!r} event does not belong in a hand of Kratzen")
        if self.phase == "done":
            raise _refuse("this hand is over; start the next hand")
        event = seated_by_turn(event, self.seats, self.whose_turn)
        handler(event)  # every handler refuses before it changes anything
        self.events.append(event)

    @property
    def pot(self) -> int:
        return self.start.carried + sum(self.paid)

    def _seat(self, name: str) -> int:
        if name not in self.seats:
            raise _refuse(f"{name!r} is not seated at this hand")
        return self.seats.index(name)

    def _cut(self, ev: CutShown) -> None:
        if self.phase != "cut":
            raise _refuse(f"no cut during {self.phase}")
        try:
            out = cut_outcome(ev.cards, self.rules)
        except ValueError as exc:
            raise _refuse(str(exc)) from None
        for q in range(self.n) if out.everyone else ():
            self.paid[q] += self.start.ante
        for offset in out.antes:
            self.paid[(self.dealer + offset) % self.n] += self.start.ante
        self.dealer = (self.dealer + out.move) % self.n
        if out.deal:
            self.phase = "deal"

    def _upcard(self, ev: UpcardShown) -> None:
        c = ev.card
        if c not in PACK or c in self.upcards:
            raise _refuse(f"{c} is no card of this pack, or was turned already")
        if self.phase not in ("deal", "oder", "weiter_oder") or self.stock < 1:
            raise _refuse(f"no card is turned during {self.phase}")
        self.stock -= 1
        self.upcards.append(c)
        if c is WELI:
            return  # the dealer's in the deal, set aside after: another is turned
        if self.phase == "oder" and c.suit == self.trump:
            return  # Oder turns on until a card of another suit
        self.trump, self.trump_card = c.suit, c
        if self.phase != "deal":  # Oder or Weiter-Oder decided the trump
            self.seven_muss = c.rank == 1
            self._after_contract()
        elif self.muss:  # the dealer strikes, everyone plays, the dealer leads
            self._start_play(self.dealer, everyone=True)
        else:
            self.phase = "contract"

    def _bid(self, ev: BidMade) -> None:
        p = self._seat(ev.player)
        if self.phase == "contract":
            self._contract(p, ev.bid)
        elif self.phase == "join":
            self._join(p, ev.bid)
        else:
            raise _refuse(f"no bids are taken during {self.phase}")

    def _contract(self, p: int, bid: str) -> None:
        expected = self.whose_turn()
        if p != expected:
            raise _refuse(f"it is {self.seats[expected]}'s turn to choose a contract")
        if bid not in CONTRACTS:
            raise _refuse("the contracts are schlagen, oder, weiter_oder or weiter")
        if bid != "weiter":
            if self.contract is not None and CONTRACTS.index(bid) <= CONTRACTS.index(self.contract):
                raise _refuse(f"{bid} does not outbid {self.contract}")
            self.contract, self.declarer = bid, p
        self.bid_pos += 1
        if self.bid_pos < self.n:
            return
        if self.contract is None:
            self.phase, self.result = "done", "passed"
        elif self.contract == "schlagen":
            self.seven_muss = self.trump_card.rank == 1  # the upcard, a Seven, decided the trump
            self._after_contract()
        else:
            self.phase = self.contract  # cards are turned: UpcardShown

    def _after_contract(self) -> None:
        self.striker = self.declarer
        if self.seven_muss:
            self._start_play(self.striker, everyone=True)
            return
        self.active[self.striker] = True
        self.phase, self.join_pos = "join", 1

    def _join(self, p: int, bid: str) -> None:
        expected = self.whose_turn()
        if p != expected:
            raise _refuse(f"it is {self.seats[expected]}'s turn to play or drop")
        if bid not in ("mitgehen", "verzichten"):
            raise _refuse("each player says mitgehen or verzichten")
        self.active[p] = bid == "mitgehen"
        self.join_pos += 1
        if self.join_pos < self.n:
            return
        if not any(self.active[q] for q in range(self.n) if q != self.striker):
            self.phase, self.result = "done", "alone"
            return
        self.phase, self.exchange_pos = "exchange", 0

    def _exchange_order(self) -> list[int]:
        return [q for q in ((self.striker + k) % self.n for k in range(self.n)) if self.active[q]]

    def _exchange(self, ev: Exchanged) -> None:
        p = self._seat(ev.player)
        if self.phase != "exchange" or self.shown_by:
            raise _refuse("cards are exchanged after play or drop, each player's face-up cards shown first")
        order = self._exchange_order()
        if p != order[self.exchange_pos]:
            raise _refuse(f"it is {self.seats[order[self.exchange_pos]]}'s turn to exchange")
        if not 0 <= ev.count <= 4 or ev.count > self.stock:
            raise _refuse(f"{ev.player} may exchange 0 to {min(4, self.stock)} cards, not {ev.count}")
        self.stock -= ev.count
        if ev.count > 3:
            self.shown_by[p] = ev.count - 3
        self._next_exchange()

    def _shown(self, ev: CardsShown) -> None:
        p = self._seat(ev.player)
        if self.shown_by.get(p) != len(ev.cards):
            raise _refuse(f"{ev.player} shows the cards drawn beyond the third: {self.shown_by.get(p, 0)} of them")
        extra = sum(5 if (c.rank == 8 and c.suit == self.trump) else 1 for c in ev.cards if is_trump(c, self.trump))
        self.stock -= min(extra, self.stock)
        del self.shown_by[p]
        self._next_exchange()

    def _next_exchange(self) -> None:
        if self.shown_by:
            return
        self.exchange_pos += 1
        if self.exchange_pos == len(self._exchange_order()):
            self._start_play(self.striker)

    def _start_play(self, leader: int, everyone: bool = False) -> None:
        if everyone:
            self.active = [True] * self.n
            self.striker = leader if self.striker is None else self.striker
        self.phase, self.leader = "play", leader

    def _hands_known(self, ev: HandsKnown) -> None:
        if self.phase != "play" or self.tricks or self.trick:
            raise _refuse("hands are made known before the first card")
        self.known = {self._seat(name): set(cs) for name, cs in ev.hands.items()}

    def whose_turn(self) -> int | None:
        """Seat index expected to act next, as Chratze's ``Hand`` says it: the contract, play or drop, the
        exchange (the cards bought face up first), the play; None when nobody is (the cut, cards turned)."""
        if self.phase == "contract":
            return (self.dealer + self.bid_pos) % self.n
        if self.phase == "join":
            return (self.striker + self.join_pos) % self.n
        if self.phase == "exchange":
            return next(iter(self.shown_by)) if self.shown_by else self._exchange_order()[self.exchange_pos]
        if self.phase != "play":
            return None
        order = [q for q in ((self.leader + k) % self.n for k in range(self.n)) if self.active[q]]
        return order[len(self.trick)] if len(self.trick) < len(order) else None

    def outbidding(self) -> list[str]:
        """The contracts that outbid the one standing, low to high (Weiter outbids nothing: it passes)."""
        standing = CONTRACTS.index(self.contract) if self.contract else 0
        return [c for c in CONTRACTS[1:] if CONTRACTS.index(c) > standing]

    def _play(self, ev: CardPlayed) -> None:
        p = self._seat(ev.player)
        if self.phase != "play":
            raise _refuse(f"no card is played during {self.phase}")
        turn = self.whose_turn()
        if p != turn:
            raise _refuse(f"it is {self.seats[turn]}'s turn to play")
        c = ev.card
        if c not in PACK:
            raise _refuse(f"{c} is no card of the Kratzen pack")
        if self.known is not None and c not in self.known[p]:
            raise _refuse(f"{ev.player} does not hold {c}")
        if c in self.seen:  # nothing is refused from here on: the state changes
            self.flags[(p, len(self.tricks) + 1)] = f"{ev.player} played {c}, already seen in this hand"
        cards = tuple(x.card for x in self.trick)
        if self.known is not None:
            held = self.known[p]
            if c not in legal_cards(held, cards, self.trump):
                self.flags[(p, len(self.tricks) + 1)] = f"{ev.player} played {c} against the obligations"
            held.discard(c)
        self._proofs(p, c)
        self.seen.add(c)
        self.trick.append(KratzenPlay(p, c, len(self.tricks) + 1, cards))
        if len(self.trick) == sum(self.active):
            w = self.trick[trick_winner_index([x.card for x in self.trick], self.trump)].player
            self.tricks_won[w] += 1
            self.tricks.append(self.trick)
            self.trick, self.leader = [], w
            if len(self.tricks) == TRICKS:
                self.phase, self.result = "done", "played"

    def _proofs(self, p: int, c: Card) -> None:
        """With hidden hands: ``c`` was in the player's hand at each of their earlier plays (no card is
        drawn during play), so an earlier card the obligations forbade, holding ``c``, is proven."""
        if self.known is not None:
            return
        for e in (x for t in [*self.tricks, self.trick] for x in t if x.player == p):
            if e.before and e.card not in legal_cards((e.card, c), e.before, self.trump):
                self.flags.setdefault((p, e.trick), f"{self.seats[p]} played {e.card} in trick {e.trick} against the "
                                                    f"obligations: {c}, played later, was held")

    # ------------------------------------------------------------------ queries
    def winners(self) -> list[int]:
        """The seat that won each trick played out, in order."""
        return [t[trick_winner_index([x.card for x in t], self.trump)].player for t in self.tricks]

    def settlement(self) -> KratzenSettlement:
        """The hand's money: none before it is over; the striker alone takes the pot."""
        if self.result == "played":
            return settle_tricks(self.pot, self.seats, self.striker, self.active, self.tricks_won,
                                 self.seven_muss, self.rules)
        if self.result == "alone":
            return KratzenSettlement({self.seats[self.striker]: self.pot}, {}, 0)
        return KratzenSettlement({}, {}, self.pot)

