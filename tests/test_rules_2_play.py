"""RULES.md §2.6: play obligations and who wins a trick, in known-hands mode (flag at once)."""

import pytest

from engine import IllegalEvent, cards
from engine.rules import legal_cards, trick_winner_index
from tests.table import Table, playing

H, D, S, C = 0, 1, 2, 3


def known_table(upcard="7h", **hands):
    t = playing(upcard=upcard).exchange("Beat 0, Cla 0, Doris 0, Anna 0")
    return t.known(**hands)


def test_the_chratzer_leads_the_first_trick():
    t = playing(chratzer="Cla").exchange("Cla 0, Doris 0, Anna 0, Beat 0")
    assert t.hand.seats[t.hand.whose_turn()] == "Cla"


def test_must_follow_the_led_suit():
    assert legal_cards(cards("As 6s Kh Qd"), S, H) == cards("As 6s")


def test_void_in_the_led_suit_must_trump():
    assert legal_cards(cards("Kh 7h Qd 9c"), S, H) == cards("Kh 7h")


def test_must_undertrump_rather_than_discard():
    # Spades led, a trump ace is already in the trick; holding only a low trump, it must be played.
    assert legal_cards(cards("6h Qd 9c Ad"), S, H) == cards("6h")


def test_void_in_led_suit_and_trump_any_card():
    assert legal_cards(cards("Qd 9c Ad"), S, H) == cards("Qd 9c Ad")


def test_trump_led_must_follow_trump_else_any_card():
    assert legal_cards(cards("6h As Kd"), H, H) == cards("6h")
    assert legal_cards(cards("As Kd"), H, H) == cards("As Kd")


def test_trumping_while_holding_the_led_suit_is_illegal_and_flagged_at_once():
    t = known_table(Beat="As Ks Qs Js", Cla="9s Kh Qd Jd", Doris="Ad Kd Td 9d", Anna="Ac Kc Qc Jc")
    t.play("Beat:As Cla:Kh")
    assert t.rules_flagged() == [(1, "Cla", "revoke")]
    flag = next(iter(t.hand.flags.values()))
    assert "9s" in flag.evidence[0]


def test_discarding_while_holding_a_trump_is_flagged_as_failed_trump():
    t = known_table(Beat="As Ks Qs Js", Cla="6h Qd Jd Td", Doris="Ad Kd 9d 8d", Anna="Ac Kc Qc Jc")
    t.play("Beat:As Cla:Qd")
    assert t.rules_flagged() == [(1, "Cla", "failed_trump")]


def test_legal_moves_are_listed_in_known_hands_mode():
    t = known_table(Beat="As Ks Qs Js", Cla="9s Kh Qd Jd", Doris="Ad Kd Td 9d", Anna="Ac Kc Qc Jc")
    t.play("Beat:As")
    assert t.hand.legal_moves("Cla") == cards("9s")
    assert t.hand.legal_moves("Doris") == cards("9d Td Kd Ad")


def test_the_highest_trump_wins_the_trick():
    assert trick_winner_index(cards("As 6h Ks 9h"), H) == 3


def test_without_trump_the_highest_card_of_the_led_suit_wins():
    assert trick_winner_index(cards("9s Ad Ks 6s"), H) == 2


def test_the_trick_winner_leads_the_next_and_a_hand_has_four_tricks():
    t = known_table(Beat="As Ks Qs Js", Cla="9s 8s 7s 6s", Doris="Ad Kd Td 9d", Anna="Ac Kc Qc Jc")
    t.play("Beat:Js Cla:9s Doris:9d Anna:Jc")
    assert t.winners() == ["Beat"]
    assert t.hand.seats[t.hand.whose_turn()] == "Beat"
    t.play("Beat:Qs Cla:8s Doris:Td Anna:Qc")
    t.play("Beat:Ks Cla:7s Doris:Kd Anna:Kc")
    t.play("Beat:As Cla:6s Doris:Ad Anna:Ac")
    assert t.winners() == ["Beat"] * 4
    assert t.hand.phase == "done" and t.hand.result == "played"
    assert not t.hand.flags


def test_only_active_players_play():
    t = Table().up("7h").say("Beat chratze, Cla weg, Doris metcho, Anna weg").exchange("Beat 0, Doris 0")
    t.play("Beat:As Doris:Ks")
    assert t.winners() == ["Beat"]


def test_cards_are_played_after_the_auction_only():
    t = Table().up("7h")
    with pytest.raises(IllegalEvent, match="during auction"):
        t.play("Beat:As")


def test_a_first_card_closes_an_exchange_nobody_finished_recording():
    t = playing().exchange("Beat 1")
    t.play("Beat:As")
    assert t.hand.phase == "play"
