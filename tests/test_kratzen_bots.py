"""Kratzen's heuristic bot (engine.kratzen_bots), one test per rule of its play, and hands it plays
refereed without a flag."""

import random

from engine import kratzen_bots as kb
from engine.cards import card, cards
from engine.kratzen import WELI
from engine.kratzen_simulate import simulate_kratzen

HERZ = 0


def test_it_chooses_schlagen_with_two_trumps_one_of_them_high():
    assert kb.contract(cards("Ah 7h 9s Ts"), HERZ, ["schlagen", "oder"]) == "schlagen"
    assert kb.contract([WELI, card("8h"), card("9s"), card("Ts")], HERZ, ["schlagen"]) == "schlagen"
    assert kb.contract(cards("8h 7h 9s Ts"), HERZ, ["schlagen"]) == "weiter"
    assert kb.contract(cards("Ah Kh 9s Ts"), HERZ, ["weiter_oder"]) == "weiter"  # cannot outbid with it


def test_it_plays_along_with_a_trump_or_a_plain_sau():
    assert kb.plays_along(cards("7h 8s 9s Ts"), HERZ) and kb.plays_along(cards("As 8s 9c Ts"), HERZ)
    assert not kb.plays_along(cards("Ks 8s 9c Ts"), HERZ)


def test_the_dealer_keeps_the_upcard_and_lays_down_its_weakest_card():
    assert [c.code for c in kb.keep_four(cards("7s 8c Ks 9d Jh"), HERZ)] == ["Jh", "Ks", "9d", "8c"]


def test_it_lays_down_what_is_neither_trump_nor_sau_nor_koenig():
    assert [c.code for c in kb.lay_down(cards("7h Ks As Qs"), HERZ)] == ["Qs"]


def test_it_leads_its_highest_plain_card():
    assert kb.choose(cards("Ah 9s Ks 7c"), [], HERZ).code == "Ks"


def test_following_it_heads_the_trick_with_the_cheapest_card_that_does():
    assert kb.choose(cards("Qs As"), cards("Js"), HERZ).code == "Qs"


def test_when_it_cannot_head_it_plays_the_cheapest_allowed_card():
    assert kb.choose(cards("7s 9s"), cards("As"), HERZ).code == "7s"


def test_hands_the_bot_plays_are_refereed_without_a_flag():
    for i in range(500):
        h, _ = simulate_kratzen(random.Random(i), players=3 + i % 4, muss=i % 2 == 0, bots="hrhrhr"[:3 + i % 4])
        assert not h.flags
