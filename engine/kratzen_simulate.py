"""Random hands of Kratzen with real cards (known hands), for property tests: a shuffled Tell pack, a
cut, the deal, random contracts, play or drop, exchanges with the cards drawn face up shown, and
random legal play, all through :class:`engine.kratzen_hand.KratzenHand`."""

from __future__ import annotations

import random

from .events import CutShown, Event, HandStarted, UpcardShown
from .kratzen import PACK, WELI, KratzenRules, cut_outcome
from .kratzen_hand import KratzenHand
from .kratzen_play import HeuristicPlayer, RandomPlayer, play_on
from .kratzen_search import SearchPlayer
from .simulate import NAMES


def players_for(bots: str) -> list[RandomPlayer]:
    """One player per letter: r random, h the heuristic bot, s the search bot (engine.kratzen_search)."""
    kinds = {"r": RandomPlayer, "h": HeuristicPlayer, "s": SearchPlayer}
    if set(bots) - set(kinds):
        raise ValueError(f"bots: r (random), h (heuristic) or s (search) per player, not {bots!r}")
    return [kinds[b]() for b in bots]


def simulate_kratzen(rng: random.Random, players: int = 4, muss: bool = False, ante: int = 10, carried: int = 0,
                     rules: KratzenRules | None = None, start: HandStarted | None = None,
                     bots: str | list[RandomPlayer] | None = None) -> tuple[KratzenHand, list[Event]]:
    """One hand (``start``: as a session starts it, else the first ``players`` names, the first dealing).
    ``bots``: one letter per seat (:func:`players_for`) or the players themselves; default random."""
    seats = start.seats if start else NAMES[:players]
    who = players_for(bots or "r" * len(seats)) if isinstance(bots, (str, type(None))) else list(bots)
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
    if hand.trump is not None:  # the upcards are the dealer's: keep four
        cards[d] = who[d].keep_upcards(hand, cards[d] + hand.upcards, rng)
    play_on(hand, cards, stock, who, rng, do)
    return hand, events


def simulate_kratzen_session(rng: random.Random, hands: int, players: int, session, bots: str | None = None) -> object:
    """Append ``hands`` deals to a :class:`engine.kratzen_session.KratzenSession` (``bots``: one letter per
    player of the first hand's seats, r random, h heuristic or s search; default random)."""
    if bots is not None and (len(bots) != players or set(bots) - set("rhs")):
        raise ValueError(f"bots: one of r (random), h (heuristic) or s (search) per player, {players} in all, "
                         f"not {bots!r}")
    bot_of = dict(zip(NAMES[:players], bots or "r" * players))
    for _ in range(hands):
        start = session.next_hand(NAMES[:players] if not session.hands else None)
        _, events = simulate_kratzen(rng, rules=session.rules, start=start, muss=session.next_is_muss,
                                     bots="".join(bot_of[p] for p in start.seats))
        for ev in events:
            session.record(ev)
    return session

