"""RULES.md §2.1-2.4: ante, deal, auction, nobody chratzes."""

import pytest

from engine import IllegalEvent
from tests.table import Table


def test_every_seated_player_antes_into_the_pot():
    t = Table("Anna Beat Cla Doris Erich", carried=40)
    assert t.hand.pot == 40 + 5 * 20


@pytest.mark.parametrize("n", range(2, 8))
def test_four_cards_each_and_the_upcard_leave_the_rest_as_the_stock(n):
    t = Table(" ".join(f"P{i}" for i in range(n))).up("Ah")
    assert t.hand.held == [4] * n
    assert t.hand.stock == 36 - 4 * n - 1


def test_the_upcard_sets_trump():
    t = Table().up("Qs")
    assert t.hand.trump == 2  # spades
    assert t.hand.phase == "auction"


def test_auction_starts_with_forehand_and_ends_with_the_dealer():
    t = Table("Anna Beat Cla Doris", dealer="Anna").up("7h")
    with pytest.raises(IllegalEvent, match="Beat's turn"):
        t.say("Anna weg")
    t.say("Beat weg, Cla weg, Doris weg")
    assert t.hand.seats[t.hand.whose_turn()] == "Anna"


def test_first_chratze_makes_the_chratzer_and_everyone_else_is_asked_from_the_next_seat():
    t = Table("Anna Beat Cla Doris").up("7h").say("Beat weg, Cla chratze")
    assert t.hand.seats[t.hand.chratzer] == "Cla"
    assert [t.hand.seats[p] for p in t.hand.join_order] == ["Doris", "Anna", "Beat"]


def test_a_player_who_said_weg_before_the_chratze_is_asked_again():
    t = Table().up("7h").say("Beat weg, Cla chratze, Doris weg, Anna weg, Beat metcho")
    assert t.hand.active[t.hand.index["Beat"]]


def test_only_one_chratzer_per_hand():
    t = Table().up("7h").say("Beat chratze")
    with pytest.raises(IllegalEvent, match="only one Chratzer"):
        t.say("Cla chratze")


def test_metcho_before_anyone_chratzes_is_rejected_and_the_log_is_unchanged():
    t = Table().up("7h")
    before = (t.hand.position, t.hand.bid_pos, len(t.hand.events))
    with pytest.raises(IllegalEvent, match="chratze or weg"):
        t.say("Beat metcho")
    assert (t.hand.position, t.hand.bid_pos, len(t.hand.events)) == before


def test_a_bid_out_of_turn_is_rejected():
    t = Table().up("7h").say("Beat chratze")
    with pytest.raises(IllegalEvent, match="Cla's turn"):
        t.say("Doris metcho")


def test_weg_players_are_out_of_the_hand():
    t = Table().up("7h").say("Beat chratze, Cla weg, Doris metcho, Anna weg")
    assert [t.hand.seats[q] for q in range(4) if t.hand.active[q]] == ["Beat", "Doris"]
    assert t.hand.phase == "exchange"


def test_nobody_chratzes_the_dealer_turns_a_new_upcard_that_sets_a_new_trump():
    t = Table().up("7h").say("Beat weg, Cla weg, Doris weg, Anna weg")
    assert t.hand.phase == "deal"
    t.up("Ks")
    assert t.hand.trump == 2 and t.hand.phase == "auction"


def test_nobody_chratzes_on_the_third_upcard_the_hand_is_passed_out():
    t = Table()
    for up in ("7h", "Ks", "9d"):
        t.up(up).say("Beat weg, Cla weg, Doris weg, Anna weg")
    assert t.hand.phase == "done" and t.hand.result == "passed_out"
    with pytest.raises(IllegalEvent, match="over"):
        t.up("Ac")


def test_a_card_cannot_be_turned_up_twice():
    t = Table().up("7h").say("Beat weg, Cla weg, Doris weg, Anna weg")
    with pytest.raises(IllegalEvent, match="already turned up"):
        t.up("7h")


def test_variant_redeal_has_no_new_upcard():
    t = Table(no_bid="redeal").up("7h").say("Beat weg, Cla weg, Doris weg, Anna weg")
    assert t.hand.result == "passed_out"


def test_two_to_seven_players():
    Table("A B")
    Table("A B C D E F G")
    with pytest.raises(IllegalEvent, match="2 to 7"):
        Table("A")
    with pytest.raises(IllegalEvent, match="2 to 7"):
        Table("A B C D E F G H")


def test_an_unknown_player_is_rejected_by_name():
    t = Table().up("7h")
    with pytest.raises(IllegalEvent, match="'Zora' is not seated"):
        t.say("Zora weg")
