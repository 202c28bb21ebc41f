"""The heuristic bot: what a careful club player does, as array rules over a batch of hands
(:mod:`engine.fast`). Cards are ints ``suit * 9 + rank`` (rank 0 = 6 ... 8 = ace), -1 no card.

- bid: chratze with three trumps, or two with one of them a queen or better;
- come along with two trumps, or one high trump, or one trump and an ace;
- exchange: lay down every card that is neither a trump nor an ace or king;
- swap the trump 6 whenever it can; never play blind;
- play: lead the highest plain card (the highest trump when only trumps are left); following, win
  with the cheapest card that wins, else throw the lowest plain card (the lowest trump when only
  trumps may be played).
Every threshold was set from the rules before any hand was played, not tuned on results.
"""

from __future__ import annotations

import numpy as np

HIGH = 6  # queen, king, ace (ranks 6, 7, 8)
KING = 7


def _trumps(hand: np.ndarray, trump: np.ndarray) -> np.ndarray:
    return (hand >= 0) & (hand // 9 == trump[:, None])


def wants_to_chratze(hand: np.ndarray, trump: np.ndarray) -> np.ndarray:
    t = _trumps(hand, trump)
    n = t.sum(axis=1)
    return (n >= 3) | ((n >= 2) & (t & (hand % 9 >= HIGH)).any(axis=1))


def comes_along(hand: np.ndarray, trump: np.ndarray) -> np.ndarray:
    t = _trumps(hand, trump)
    n = t.sum(axis=1)
    aces = ((hand >= 0) & ~t & (hand % 9 == 8)).any(axis=1)
    return (n >= 2) | (t & (hand % 9 >= HIGH)).any(axis=1) | ((n >= 1) & aces)


def cards_to_lay(hand: np.ndarray, trump: np.ndarray) -> np.ndarray:
    """(B, slots) the cards laid down: neither trumps nor aces and kings."""
    return (hand >= 0) & ~_trumps(hand, trump) & (hand % 9 < KING)


def choose(hand: np.ndarray, legal: np.ndarray, trump: np.ndarray, led: np.ndarray,
           best: np.ndarray) -> np.ndarray:
    """The slot of the card played, for every hand (``led`` -1: this card leads; ``best``: the card
    winning the trick so far)."""
    suit = hand // 9
    is_trump = suit == trump[:, None]
    cost = hand % 9 + 20 * is_trump  # plain cards cheaper than trumps
    lead = np.argmax(np.where(legal, np.where(is_trump, -1, cost), -99), axis=1)  # the highest plain card
    lead_trump = np.argmax(np.where(legal, cost, -99), axis=1)  # only trumps left: the highest
    lead = np.where((legal & ~is_trump).any(axis=1), lead, lead_trump)
    best_trump = (best // 9) == trump
    beats = legal & (((suit == (best // 9)[:, None]) & (hand > best[:, None])) | (is_trump & ~best_trump[:, None]))
    cheapest_win = np.argmin(np.where(beats, cost, 99), axis=1)
    throw = np.argmin(np.where(legal, cost, 99), axis=1)
    return np.where(led < 0, lead, np.where(beats.any(axis=1), cheapest_win, throw))
