"""Kratzen's cards and play (docs/kratzen.md), one test per rule."""

import random

from engine.cards import card, cards
from engine.kratzen import PACK, WELI, beats, is_trump, legal_cards, trick_winner_index

HERZ, SCHELLEN, LAUB, EICHEL = 0, 1, 2, 3  # h d s c


def codes(cs):
    return sorted(c.code for c in cs)


def test_the_pack_has_33_cards_the_sixes_gone_but_the_weli():
    assert len(PACK) == 33 and len(set(PACK)) == 33
    assert [c.code for c in PACK if c.rank == 0] == ["6d"] and WELI.code == "6d"


def test_the_ranks_run_sau_koenig_ober_unter_ten_nine_eight_seven():
    order = cards("As Ks Qs Js Ts 9s 8s 7s")
    assert all(beats(order[i], order[i + 1], HERZ) for i in range(len(order) - 1))


def test_the_weli_is_the_second_highest_trump_just_below_the_trump_sau():
    for trump in (HERZ, SCHELLEN, LAUB, EICHEL):
        sau, koenig = card("A" + "hdsc"[trump]), card("K" + "hdsc"[trump])
        assert beats(sau, WELI, trump) and beats(WELI, koenig, trump) and is_trump(WELI, trump)


def test_the_weli_follows_trump_not_schellen():
    hand = [WELI, card("9s")]
    assert legal_cards(hand, [card("Kd")], HERZ) == [WELI]  # Schellen led plain: the Weli is a trump here
    assert codes(legal_cards(hand, [card("7h")], HERZ)) == ["6d"]  # a trump led: the Weli follows it


def test_farbzwang_follow_the_suit_led():
    assert codes(legal_cards(cards("9s 7s Ah"), [card("8s")], EICHEL)) == ["9s"]  # and head it (Stichzwang)


def test_trumpfzwang_unable_to_follow_play_a_trump():
    assert codes(legal_cards(cards("7c 9d Kd"), [card("8s")], EICHEL)) == ["7c"]


def test_stichzwang_head_the_trick_when_you_can():
    assert codes(legal_cards(cards("7s Qs As"), [card("9s"), card("Ts")], HERZ)) == ["As", "Qs"]


def test_stichzwang_a_card_that_cannot_head_it_may_be_any_the_rules_allow():
    assert codes(legal_cards(cards("7s 8s Ah"), [card("Ks")], HERZ)) == ["7s", "8s"]


def test_following_a_plain_suit_already_trumped_any_card_of_the_suit():
    assert codes(legal_cards(cards("7s As Kh"), [card("9s"), card("7h")], HERZ)) == ["7s", "As"]


def test_unable_to_follow_overtrump_a_trump_in_the_trick_when_you_can():
    assert codes(legal_cards(cards("8h Ah 9c"), [card("9s"), card("Th")], HERZ)) == ["Ah"]
    assert codes(legal_cards(cards("8h 9h 9c"), [card("9s"), card("Th")], HERZ)) == ["8h", "9h"]


def test_unable_to_follow_or_trump_any_card():
    assert codes(legal_cards(cards("7c 9d"), [card("8s")], HERZ)) == ["7c", "9d"]


def test_the_highest_trump_wins_else_the_highest_of_the_suit_led():
    assert trick_winner_index(cards("9s As 7h"), HERZ) == 2
    assert trick_winner_index(cards("9s As 7c"), HERZ) == 1
    assert trick_winner_index([card("Ah"), WELI, card("Kh")], HERZ) == 0
    assert trick_winner_index([card("Kh"), WELI], HERZ) == 1


def test_a_legal_card_is_always_left_and_always_one_of_the_hand():
    rng = random.Random(7)
    for _ in range(10_000):
        dealt = rng.sample(PACK, 9)
        hand, trick, trump = dealt[:4], dealt[4:4 + rng.randint(0, 5)], rng.randrange(4)
        legal = legal_cards(hand, trick, trump)
        assert legal and set(legal) <= set(hand)
