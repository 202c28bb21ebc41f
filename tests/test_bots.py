"""The heuristic bot (engine.bots), one test per rule of its play."""

import numpy as np

from engine import bots
from engine.cards import card


def hands(*codes: str) -> np.ndarray:
    rows = [[card(c).index for c in h.split()] + [-1] * (6 - len(h.split())) for h in codes]
    return np.array(rows, np.int16)


HEARTS = np.array([0])  # trump suit index of hearts


def test_it_chratzes_with_three_trumps_or_two_with_a_queen_or_better():
    h = hands("6h 7h 8h 9s", "Qh 6h 9s Ts", "6h 7h As Ks")
    assert list(bots.wants_to_chratze(h, np.zeros(3, int))) == [True, True, False]


def test_it_comes_along_with_two_trumps_a_high_trump_or_a_trump_and_an_ace():
    h = hands("6h 7h 9s Ts", "Kh 9s Ts 6c", "6h As 9s Ts", "6h 9s Ts 6c")
    assert list(bots.comes_along(h, np.zeros(4, int))) == [True, True, True, False]


def test_it_lays_down_what_is_neither_trump_nor_ace_nor_king():
    h = hands("6h As Ks Qs")
    assert list(bots.cards_to_lay(h, HEARTS)[0][:4]) == [False, False, False, True]


def test_it_leads_its_highest_plain_card():
    h = hands("Ah 9s Ks 6c")
    legal = h >= 0
    assert bots.choose(h, legal, HEARTS, np.array([-1]), np.array([-1]))[0] == 2  # Ks, not the trump ace


def test_following_it_wins_with_the_cheapest_card_that_wins():
    h = hands("Qs Ks As 6h")
    legal = np.array([[True, True, True, False, False, False]])
    best = np.array([card("Js").index])
    assert bots.choose(h, legal, HEARTS, np.array([2]), best)[0] == 0  # Qs


def test_when_it_cannot_win_it_throws_its_lowest_card():
    h = hands("7s 9s 6h")
    legal = np.array([[True, True, False, False, False, False]])
    best = np.array([card("As").index])
    assert bots.choose(h, legal, HEARTS, np.array([2]), best)[0] == 0  # 7s


def test_the_search_bot_chratzes_a_strong_hand_and_passes_a_hopeless_one():
    from engine.fast import deal
    from engine.search import decide

    deck = deal(np.random.default_rng(0), 2)
    strong, weak = [card(c).index for c in "Ah Kh Qh Jh".split()], [card(c).index for c in "6s 7s 6c 7c".split()]
    for b, cards in enumerate((strong, weak)):
        rest = [c for c in range(36) if c not in cards + [card("9h").index]]
        deck[b] = rest[:4] + cards + rest[4:] + [card("9h").index]  # seat 1 holds them, 9h turned up
    d = decide(deck, 1, 4, tries=300)
    assert list(d.chratze) == [True, False] and list(d.metcho) == [True, False]
