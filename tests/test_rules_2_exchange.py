"""RULES.md §2.5: the exchange and the trump-6 swap."""

import pytest

from engine import IllegalEvent, card
from tests.table import Table, playing


def test_exchange_goes_in_auction_order_starting_with_the_chratzer():
    t = playing("Anna Beat Cla Doris", chratzer="Cla")
    assert [t.hand.seats[p] for p in t.hand.exchange_order] == ["Cla", "Doris", "Anna", "Beat"]
    with pytest.raises(IllegalEvent, match="Cla's turn"):
        t.exchange("Doris 1")


def test_a_player_gets_as_many_cards_as_laid_down():
    t = playing().exchange("Beat 3")
    assert t.hand.exchanges[t.hand.index["Beat"]] == (3, 3)
    assert t.hand.held[t.hand.index["Beat"]] == 4


def test_laying_down_all_four_gets_five_and_discards_one():
    t = playing()
    stock = t.hand.stock
    t.exchange("Beat 4")
    assert t.hand.exchanges[t.hand.index["Beat"]] == (4, 5)
    assert t.hand.stock == stock - 5
    assert t.hand.held[t.hand.index["Beat"]] == 4


def test_cannot_lay_down_more_cards_than_held():
    t = playing()
    with pytest.raises(IllegalEvent, match="0 to 4"):
        t.exchange("Beat 5")


def test_when_the_stock_runs_out_later_players_get_what_is_left():
    seats = "A B C D E F G"  # 7 players: 36 - 28 - 1 upcard = 7 cards in the stock
    t = playing(seats, chratzer="B")
    assert t.hand.stock == 7
    t.exchange("B 4, C 3")  # 5 + 2 = 7: the stock is empty
    t.exchange("D 2")
    assert t.hand.exchanges[t.hand.index["D"]] == (2, 0)
    assert t.hand.held[t.hand.index["D"]] == 2


def test_one_round_of_exchange_only():
    t = playing().exchange("Beat 1, Cla 0, Doris 0, Anna 0")
    with pytest.raises(IllegalEvent):
        t.exchange("Beat 1")


def test_trump_six_swap_puts_the_six_face_up_and_the_upcard_in_the_players_hand():
    t = playing(upcard="Ah").exchange("Beat 0, Cla 0, Doris 0, Anna 0").swap("Doris")
    assert card("6h") in t.hand.table_cards and card("Ah") not in t.hand.table_cards
    assert card("Ah") in t.hand.known_in_hand[t.hand.index["Doris"]]


def test_trump_six_swap_only_before_the_first_lead():
    t = playing(upcard="Ah").exchange("Beat 0, Cla 0, Doris 0, Anna 0").play("Beat:Ks")
    with pytest.raises(IllegalEvent, match="before the first lead"):
        t.swap("Doris")


def test_trump_six_swap_needs_an_upcard_that_is_not_the_six():
    t = playing(upcard="6h")
    with pytest.raises(IllegalEvent, match="trump 6 itself"):
        t.swap("Doris")


def test_trump_six_swap_only_by_an_active_player():
    t = playing(upcard="Ah", join="weg", **{"letzter": False})
    # everyone else said weg: Susi, the hand is over
    assert t.hand.result == "susi"
    t = Table().up("Ah").say("Beat chratze, Cla weg, Doris metcho, Anna weg")
    with pytest.raises(IllegalEvent, match="not playing"):
        t.swap("Cla")


def test_in_known_hands_the_swapper_must_hold_the_trump_six():
    t = playing(upcard="Ah").exchange("Beat 0, Cla 0, Doris 0, Anna 0")
    t.known(Beat="Ks Qs Js Ts", Cla="Kd Qd Jd Td", Doris="6h 7c 8c 9c", Anna="Kc Qc Jc Tc")
    with pytest.raises(IllegalEvent, match="does not hold the trump 6"):
        t.swap("Cla")
    t.swap("Doris")
    assert card("Ah") in t.hand.known_hands[t.hand.index["Doris"]]


def test_a_swapper_who_then_exchanges_may_have_laid_the_upcard_down():
    t = playing(upcard="Ah").swap("Beat").exchange("Beat 2")
    assert card("Ah") not in t.hand.known_in_hand[t.hand.index["Beat"]]
    assert t.hand.taken_by[card("Ah")] == t.hand.index["Beat"]
