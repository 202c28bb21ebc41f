"""Random complete hands with real cards, for property tests, benchmarks and the virtual table.

The simulator deals a shuffled pack, runs a random auction and exchange, makes the hands known
(``HandsKnown``) and plays random cards, legal ones unless told to slip in illegal plays. It
drives the same :class:`Hand` the referee uses, so every hand it makes is refereed as it goes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from .cards import DECK, Card
from .events import BidMade, CardPlayed, Event, Exchanged, HandsKnown, HandStarted, TrumpSixSwapped, UpcardShown
from .hand import Hand
from .rules import HouseRules, legal_cards
from .session import Session

NAMES = ("Anna", "Beat", "Cla", "Doris", "Erich", "Fränzi", "Gion")


@dataclass
class SimulatedHand:
    hand: Hand
    events: list[Event]
    illegal: list[tuple[int, str, Card]] = field(default_factory=list)  # (trick, player, card)
    dealt: dict[str, list[Card]] = field(default_factory=dict)  # hands when play began


def simulate_hand(rng: random.Random, players: int = 4, rules: HouseRules | None = None,
                  illegal_rate: float = 0.0, known: bool = True, start: HandStarted | None = None,
                  chratze_rate: float = 0.35, metcho_rate: float = 0.6,
                  blind_rate: float = 0.05, number: int = 1) -> SimulatedHand:
    """One deal from shuffle to the last trick (or a pass-out / Susi)."""
    rules = rules or HouseRules()
    if start is None:
        seats = NAMES[:players]
        start = HandStarted(seats, seats[0], rules.ante, 0)
    sim = _Sim(rng, Hand(start, rules, number), rules, illegal_rate)
    sim.events.append(start)
    sim.deal(blind_rate)
    if sim.hand.phase != "done":
        sim.auction(chratze_rate, metcho_rate, blind_rate)
    if sim.hand.phase == "exchange":
        sim.exchange()
        sim.play(known)
    return SimulatedHand(sim.hand, sim.events, sim.illegal, sim.dealt)


class _Sim:
    def __init__(self, rng: random.Random, hand: Hand, rules: HouseRules, illegal_rate: float) -> None:
        self.rng, self.hand, self.rules, self.illegal_rate = rng, hand, rules, illegal_rate
        self.events: list[Event] = []
        self.illegal: list[tuple[int, str, Card]] = []
        self.dealt: dict[str, list[Card]] = {}
        deck = list(DECK)
        rng.shuffle(deck)
        self.deck = deck
        n = hand.n
        self.cards = [deck[4 * i:4 * i + 4] for i in range(n)]
        self.stock = deck[4 * n:]

    def do(self, event: Event) -> None:
        self.hand.apply(event)
        self.events.append(event)

    def deal(self, blind_rate: float) -> None:
        h = self.hand
        if self.rules.double_blind_allowed and self.rng.random() < blind_rate / 3:
            self.do(BidMade(h.seats[h.dealer], "double_blind"))
            self.cards[h.dealer].append(self.stock.pop())
        self.turn_upcard()

    def turn_upcard(self) -> None:
        up = self.stock.pop()
        self.do(UpcardShown(up))
        if self.hand.blind == "double_blind":
            self.cards[self.hand.dealer].append(up)

    def auction(self, chratze_rate: float, metcho_rate: float, blind_rate: float) -> None:
        h, rng = self.hand, self.rng
        if self.rules.blind_allowed and h.phase == "auction" and rng.random() < blind_rate:
            self.do(BidMade(h.seats[h.dealer], "blind"))
            self.cards[h.dealer].append(h.upcards[0])
        while h.phase in ("auction", "deal", "joining"):
            if h.phase == "deal":
                self.turn_upcard()
                continue
            p = h.whose_turn()
            if h.phase == "auction":
                bid = "chratze" if rng.random() < chratze_rate or h.banner_round() else "weg"
            else:
                bid = "metcho" if h.must_come_along() or rng.random() < metcho_rate else "weg"
            self.do(BidMade(h.seats[p], bid))

    def exchange(self) -> None:
        h, rng = self.hand, self.rng
        while h.exchange_pos < len(h.exchange_order):
            p = h.exchange_order[h.exchange_pos]
            held = self.cards[p]
            count = rng.randint(0, len(held))
            rng.shuffle(held)
            stock_before = h.stock
            self.do(Exchanged(h.seats[p], count))
            got = stock_before - h.stock
            keep = held[count:] + [self.stock.pop() for _ in range(got)]
            rng.shuffle(keep)
            self.cards[p] = keep[:h.held[p]]
        self.maybe_swap()

    def maybe_swap(self) -> None:
        h = self.hand
        if h.blind:
            return
        up = h.upcards[-1]
        for p in h.exchange_order:
            six = next((c for c in self.cards[p] if c.suit == up.suit and c.rank == 0), None)
            if six is not None and six is not up and self.rng.random() < 0.8:
                self.do(TrumpSixSwapped(h.seats[p]))
                self.cards[p].remove(six)
                self.cards[p].append(up)

    def play(self, known: bool) -> None:
        h = self.hand
        self.dealt = {h.seats[p]: list(self.cards[p]) for p in h.exchange_order}
        if known:
            self.do(HandsKnown({h.seats[p]: tuple(self.cards[p]) for p in h.exchange_order}))
        while h.phase != "done":
            p = h.whose_turn()
            trick = h.trick
            led = trick.plays[0].card.suit if trick and trick.plays else None
            hand_cards = self.cards[p]
            legal = legal_cards(hand_cards, led, h.trump)
            illegal = [c for c in hand_cards if c not in legal]
            if illegal and self.rng.random() < self.illegal_rate:
                c = self.rng.choice(illegal)
                self.illegal.append((trick.number if trick else 1, h.seats[p], c))
            else:
                c = self.rng.choice(legal)
            hand_cards.remove(c)
            self.do(CardPlayed(h.seats[p], c))


def simulate_session(rng: random.Random, hands: int, players: int, session: Session,
                     **options: object) -> Session:
    """Append ``hands`` random deals to ``session``, with its dealer rotation and pot."""
    seats = NAMES[:players]
    for _ in range(hands):
        start = session.next_hand(seats if not session.hands else None)
        sim = simulate_hand(rng, rules=session.rules, start=start, number=len(session.hands) + 1, **options)
        for ev in sim.events:
            session.record(ev)
    return session
