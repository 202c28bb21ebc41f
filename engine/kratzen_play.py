"""Playing a hand of Kratzen on from where it stands, a player object per seat choosing for it: random
play (the property tests' rates) and the heuristic bot (:mod:`engine.kratzen_bots`); the search bot
(:mod:`engine.kratzen_search`) plays hands out here to choose."""

from __future__ import annotations

import random

from . import kratzen_bots as kb
from .cards import Card
from .events import BidMade, CardPlayed, CardsShown, Exchanged, HandsKnown, UpcardShown
from .kratzen import is_trump, legal_cards
from .kratzen_hand import KratzenHand


class RandomPlayer:
    """Random choices at the rates of the property tests: a contract 40 % of the time, play 60 %."""

    def keep_upcards(self, hand: KratzenHand, pool: list[Card], rng: random.Random) -> list[Card]:
        return rng.sample(pool, 4)

    def contract(self, hand: KratzenHand, p: int, cards: list[Card], higher: list[str], rng: random.Random) -> str:
        return rng.choice(higher) if higher and rng.random() < 0.4 else "weiter"

    def along(self, hand: KratzenHand, p: int, cards: list[Card], rng: random.Random) -> bool:
        return rng.random() < 0.6

    def exchange(self, hand: KratzenHand, p: int, held: list[Card], stock: int,
                 rng: random.Random) -> tuple[list[Card], int]:
        """The cards held, those laid down first, and how many are laid down."""
        count = rng.randint(0, min(4, stock))
        rng.shuffle(held)
        return held, count

    def keep(self, hand: KratzenHand, pool: list[Card], rng: random.Random) -> list[Card]:
        return pool[:4]  # the pool comes shuffled

    def play(self, hand: KratzenHand, p: int, legal: list[Card], trick: list[Card], rng: random.Random) -> Card:
        return rng.choice(legal)


class HeuristicPlayer(RandomPlayer):
    """The heuristic bot (:mod:`engine.kratzen_bots`)."""

    def keep_upcards(self, hand, pool, rng):
        return kb.keep_four(pool, hand.trump)

    def contract(self, hand, p, cards, higher, rng):
        return kb.contract(cards, hand.trump, higher)

    def along(self, hand, p, cards, rng):
        return kb.plays_along(cards, hand.trump)

    def exchange(self, hand, p, held, stock, rng):
        lay = kb.lay_down(held, hand.trump)[:stock]
        return lay + [c for c in held if c not in lay], len(lay)

    def keep(self, hand, pool, rng):
        return kb.keep_four(pool, hand.trump)

    def play(self, hand, p, legal, trick, rng):
        return kb.choose(legal, trick, hand.trump)


def play_on(hand: KratzenHand, cards: dict[int, list[Card]], stock: list[Card], who: list[RandomPlayer],
            rng: random.Random, do) -> None:
    """Play ``hand`` on from where it stands (after the dealer kept four) to its end: ``cards`` each seat's
    hand now, ``stock`` drawn from its end, ``do`` applies and records an event."""
    seats, n = hand.seats, hand.n
    while hand.phase == "contract":
        p = hand.whose_turn()
        do(BidMade(seats[p], who[p].contract(hand, p, cards[p], hand.outbidding(), rng)))
    while hand.phase in ("oder", "weiter_oder") and stock:
        do(UpcardShown(stock.pop()))
    while hand.phase == "join":
        p = hand.whose_turn()
        do(BidMade(seats[p], "mitgehen" if who[p].along(hand, p, cards[p], rng) else "verzichten"))
    while hand.phase == "exchange":
        p = hand.whose_turn()
        held, count = who[p].exchange(hand, p, list(cards[p]), len(stock), rng)
        drawn = [stock.pop() for _ in range(count)]
        do(Exchanged(seats[p], count))
        if count > 3:
            shown = drawn[3:]
            do(CardsShown(seats[p], tuple(shown)))
            extra = sum(5 if (c.rank == 8 and c.suit == hand.trump) else 1 for c in shown if is_trump(c, hand.trump))
            drawn += [stock.pop() for _ in range(min(extra, len(stock)))]
        pool = held[count:] + drawn
        rng.shuffle(pool)
        cards[p] = who[p].keep(hand, pool, rng)
    if hand.phase == "play":
        if not hand.tricks and not hand.trick and hand.known is None:
            do(HandsKnown({seats[q]: tuple(cards[q]) for q in range(n) if hand.active[q]}))
        while hand.phase == "play":
            p = hand.whose_turn()
            trick = [x.card for x in hand.trick]
            legal = legal_cards(cards[p], trick, hand.trump)
            c = who[p].play(hand, p, legal, trick, rng)
            cards[p].remove(c)
            do(CardPlayed(seats[p], c))
