"""Random hands of Kratzen with real cards (known hands), for property tests: a shuffled Tell pack, a
cut, the deal, random contracts, play or drop, exchanges with the cards drawn face up shown, and
random legal play, all through :class:`engine.kratzen_hand.KratzenHand`."""

from __future__ import annotations

import random

from .events import BidMade, CardPlayed, CardsShown, CutShown, Event, Exchanged, HandsKnown, HandStarted, UpcardShown
from . import kratzen_bots as kb
from .kratzen import PACK, WELI, KratzenRules, cut_outcome, is_trump, legal_cards
from .kratzen_hand import CONTRACTS, KratzenHand
from .simulate import NAMES


def simulate_kratzen(rng: random.Random, players: int = 4, muss: bool = False, ante: int = 10, carried: int = 0,
                     rules: KratzenRules | None = None, start: HandStarted | None = None,
                     bots: str | None = None) -> tuple[KratzenHand, list[Event]]:
    """One hand (``start``: as a session starts it, else the first ``players`` names, the first dealing).
    ``bots``: one letter per seat, r random or h the heuristic bot (engine.kratzen_bots); default random."""
    seats = start.seats if start else NAMES[:players]
    smart = [b == "h" for b in (bots or "r" * len(seats))]
    players = len(seats)
    start = start or HandStarted(seats, seats[0], ante, carried)
    hand = KratzenHand(start, muss, rules)
    events: list[Event] = [start]

    def do(ev: Event) -> None:
        hand.apply(ev)
        events.append(ev)

    pack = list(PACK)
    rng.shuffle(pack)
    for _ in range(rng.choice([0, 0, 1, 2])):  # a few hops or jumps before a plain card is cut
        special = [c for c in pack if c.rank in (1, 8) and c is not WELI]
        first = rng.choice(special)
        second = rng.choice([c for c in pack if c is not first and c is not WELI])
        if cut_outcome((first, second), hand.rules).deal:  # the Weli, or a Sau and a Seven: dealt below
            break
        do(CutShown((first, second)))
    if hand.phase == "cut":
        do(CutShown((rng.choice([c for c in pack if c.rank not in (1, 8) and c is not WELI]),)))
    rng.shuffle(pack)
    n, d = players, hand.dealer
    cards = {q: pack[4 * k:4 * k + 4] for k, q in enumerate((d + 1 + j) % n for j in range(n))}
    stock = pack[4 * n:]
    while hand.phase == "deal":
        do(UpcardShown(stock.pop()))
    if hand.trump is not None:  # the upcards are the dealer's: keep four (the bot its best, else at random)
        pool = cards[d] + hand.upcards
        cards[d] = kb.keep_four(pool, hand.trump) if smart[d] else rng.sample(pool, 4)
    if hand.phase == "contract":
        for k in range(n):
            p = (hand.dealer + k) % n
            higher = [c for c in CONTRACTS[1:] if hand.contract is None or CONTRACTS.index(c) > CONTRACTS.index(hand.contract)]
            if smart[p]:
                bid = kb.contract(cards[p], hand.trump, higher)
            else:
                bid = rng.choice(higher) if higher and rng.random() < 0.4 else "weiter"
            do(BidMade(seats[p], bid))
        while hand.phase in ("oder", "weiter_oder") and stock:
            do(UpcardShown(stock.pop()))
    if hand.phase == "join":
        for k in range(1, n):
            p = (hand.striker + k) % n
            along = kb.plays_along(cards[p], hand.trump) if smart[p] else rng.random() < 0.6
            do(BidMade(seats[p], "mitgehen" if along else "verzichten"))
    if hand.phase == "exchange":
        for p in hand._exchange_order():
            held = cards[p]
            if smart[p]:
                lay = kb.lay_down(held, hand.trump)[:len(stock)]
                held = lay + [c for c in held if c not in lay]  # the ones laid down first
                count = len(lay)
            else:
                count = rng.randint(0, min(4, len(stock)))
                rng.shuffle(held)
            drawn = [stock.pop() for _ in range(count)]
            do(Exchanged(seats[p], count))
            if count > 3:
                shown = drawn[3:]
                do(CardsShown(seats[p], tuple(shown)))
                extra = sum(5 if (c.rank == 8 and c.suit == hand.trump) else 1 for c in shown if is_trump(c, hand.trump))
                drawn += [stock.pop() for _ in range(min(extra, len(stock)))]
            pool = held[count:] + drawn
            rng.shuffle(pool)
            cards[p] = kb.keep_four(pool, hand.trump) if smart[p] else pool[:4]
    if hand.phase == "play":
        do(HandsKnown({seats[q]: tuple(cards[q]) for q in range(n) if hand.active[q]}))
        while hand.phase == "play":
            p = hand.whose_turn()
            trick = [x.card for x in hand.trick]
            legal = legal_cards(cards[p], trick, hand.trump)
            c = kb.choose(legal, trick, hand.trump) if smart[p] else rng.choice(legal)
            cards[p].remove(c)
            do(CardPlayed(seats[p], c))
    return hand, events


def simulate_kratzen_session(rng: random.Random, hands: int, players: int, session, bots: str | None = None) -> object:
    """Append ``hands`` deals to a :class:`engine.kratzen_session.KratzenSession` (``bots``: one letter per
    player of the first hand's seats, r random or h heuristic; default random)."""
    if bots is not None and (len(bots) != players or set(bots) - set("rh")):
        raise ValueError(f"bots: one of r (random) or h (heuristic) per player, {players} in all, not {bots!r}")
    bot_of = dict(zip(NAMES[:players], bots or "r" * players))
    for _ in range(hands):
        start = session.next_hand(NAMES[:players] if not session.hands else None)
        _, events = simulate_kratzen(rng, rules=session.rules, start=start, muss=session.next_is_muss,
                                     bots="".join(bot_of[p] for p in start.seats))
        for ev in events:
            session.record(ev)
    return session

