"""The search bot for Kratzen: the heuristic bot, with its contract, its play-or-drop and its exchange
chosen by determinised Monte Carlo over the hidden cards.

At each of those choices the cards it cannot see are dealt at random ``tries`` times (the dealer
keeping the best four of its cards and the upcards, as the heuristic dealer does), and each choice
open to it is played out on those same deals by the readable engine, everyone the heuristic bot from
there on. It leaves the heuristic's choice only for one that did better by more than ``z`` standard
errors on those deals: what the seat is paid, less its penalties.
"""

from __future__ import annotations

import math
import random
from itertools import combinations

from . import kratzen_bots as kb
from .cards import Card
from .events import BidMade
from .kratzen import PACK, is_trump
from .kratzen_hand import KratzenHand
from .kratzen_play import HeuristicPlayer, play_on


class SearchPlayer(HeuristicPlayer):
    def __init__(self, tries: int = 120, z: float = 2.0, seed: int = 0) -> None:
        self.tries, self.z, self.rng = tries, z, random.Random(seed)  # its own: the table's deals stay the same
        self.out: tuple[int, set[Card]] = (0, set())  # the hand, and the cards it put out of play as dealer

    def keep_upcards(self, hand, pool, rng):
        kept = super().keep_upcards(hand, pool, rng)
        self.out = (id(hand), set(pool) - set(kept))
        return kept

    def contract(self, hand, p, cards, higher, rng):
        options = [super().contract(hand, p, cards, higher, rng)]
        options += [c for c in (*higher, "weiter") if c not in options]
        return self._best(hand, p, cards, options, lambda o: (BidMade(hand.seats[p], o),))

    def along(self, hand, p, cards, rng):
        own = super().along(hand, p, cards, rng)
        said = {True: "mitgehen", False: "verzichten"}
        return self._best(hand, p, cards, [own, not own], lambda o: (BidMade(hand.seats[p], said[o]),))

    def exchange(self, hand, p, held, stock, rng):
        own = super().exchange(hand, p, held, stock, rng)
        plain = [c for c in held if not is_trump(c, hand.trump)]
        lays = [tuple(own[0][:own[1]])] + [x for k in range(min(len(plain), stock) + 1) for x in combinations(plain, k)
                                           if set(x) != set(own[0][:own[1]])]
        return self._best(hand, p, held, [(list(x) + [c for c in held if c not in x], len(x)) for x in lays], None,
                          exchange=True)

    def _best(self, hand: KratzenHand, p: int, cards: list[Card], options: list, events, exchange: bool = False):
        """The heuristic's option (the first) unless another did better by more than ``z`` standard errors."""
        won = [[] for _ in options]
        for _ in range(self.tries):
            deal = self._deal(hand, p, cards)
            seed = self.rng.random()
            for k, option in enumerate(options):
                won[k].append(self._play_out(hand, p, deal, option, events, exchange, random.Random(seed)))
        best, gain = 0, 0.0
        for k in range(1, len(options)):
            diff = [a - b for a, b in zip(won[k], won[0])]
            mean = sum(diff) / len(diff)
            sd = math.sqrt(sum((x - mean) ** 2 for x in diff) / (len(diff) - 1)) if len(diff) > 1 else 0.0
            if sd > 0 and mean > self.z * sd / math.sqrt(len(diff)) and mean > gain:
                best, gain = k, mean
        return options[best]

    def _deal(self, hand: KratzenHand, p: int, cards: list[Card]) -> tuple[dict[int, list[Card]], list[Card]]:
        """The hidden cards at random: the others' hands now, then the stock."""
        dealt_up = _deal_upcards(hand)
        unseen = [c for c in PACK if c not in cards and c not in hand.upcards
                  and not (self.out[0] == id(hand) and c in self.out[1])]
        self.rng.shuffle(unseen)
        hands: dict[int, list[Card]] = {p: list(cards)}
        for q in range(hand.n):
            if q != p:
                hands[q] = [unseen.pop() for _ in range(4)]
        d = hand.dealer
        if d != p and dealt_up:
            hands[d] = kb.keep_four(hands[d] + dealt_up, hand.trump)  # what it did not keep is out of play
        return hands, unseen[:hand.stock]

    def _play_out(self, hand: KratzenHand, p: int, deal, option, events, exchange: bool, rng: random.Random) -> int:
        copy = KratzenHand(hand.start, hand.muss, hand.rules)
        for ev in hand.events[1:]:
            copy.apply(ev)
        cards = {q: list(c) for q, c in deal[0].items()}
        stock = list(deal[1])
        me = _Forced(option) if exchange else HeuristicPlayer()
        if not exchange:
            for ev in events(option):
                copy.apply(ev)
        who = [me if q == p else HeuristicPlayer() for q in range(hand.n)]
        play_on(copy, cards, stock, who, rng, copy.apply)
        s = copy.settlement()
        name = hand.seats[p]
        return s.payouts.get(name, 0) - s.penalties.get(name, 0)


class _Forced(HeuristicPlayer):
    """The heuristic bot with one exchange given."""

    def __init__(self, exchange: tuple[list[Card], int]) -> None:
        self.given = exchange

    def exchange(self, hand, p, held, stock, rng):
        return list(self.given[0]), self.given[1]


def _deal_upcards(hand: KratzenHand) -> list[Card]:
    """The cards turned in the deal, which the dealer took up (those of Oder or Weiter-Oder stay out)."""
    out: list[Card] = []
    for ev in hand.events[1:]:
        if isinstance(ev, BidMade):
            break
        if ev.type == "upcard":
            out.append(ev.card)
    return out

