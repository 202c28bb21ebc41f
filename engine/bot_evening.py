"""An evening played by bots, a bot per seat, each hand from the fast path recorded through the
session (so the dealer, the pot and the antes are the session's): ``chratze simulate --bots``."""

from __future__ import annotations

import numpy as np

from .fast import deal, simulate_batch
from .search import decide
from .session import Session


def play_session(rng: np.random.Generator, hands: int, session: Session, seats: tuple[str, ...], bots: str) -> Session:
    """Append ``hands`` deals to ``session`` with a bot per seat (``bots``, one letter per name of
    ``seats``: r random, h heuristic, s the search bot of :mod:`engine.search`, at one seat at most),
    with the session's dealer rotation, pot and antes (where the search bot sits, nobody plays blind)."""
    if len(bots) != len(seats) or set(bots) - set("rhs") or bots.count("s") > 1:
        raise ValueError(f"bots: one of r (random), h (heuristic) or s (search, one seat at most) per player, "
                         f"{len(seats)} in all, not {bots!r}")
    bot_of = dict(zip(seats, bots))
    for _ in range(hands):
        start = session.next_hand(seats if not session.hands else None)
        k = start.seats.index(start.dealer)
        order = start.seats[k:] + start.seats[:k]  # the fast path's dealer is its first seat
        letters = "".join(bot_of[p] for p in order)
        deck, decided = deal(rng, 1), None
        if "s" in letters:
            decided = decide(deck, letters.index("s"), len(order), session.rules, seed=int(rng.integers(2**31)))
        batch = simulate_batch(rng, 1, len(order), session.rules, bots=letters.replace("s", "h"),
                               carried=start.carried, ante=start.ante, deck=deck, decided=decided)
        for ev in batch.events(0, order):
            session.record(ev)
    return session
