"""RULES.md §3: blind and double blind, dealer only."""

import pytest

from engine import BidMade, IllegalEvent, card
from tests.table import Table


def test_blind_is_announced_by_the_dealer_after_the_upcard_and_makes_the_dealer_chratzer():
    t = Table(dealer="Anna").up("Ah").say("Anna blind")
    h = t.hand
    assert h.seats[h.chratzer] == "Anna" and h.blind == "blind"
    assert h.phase == "joining"
    assert h.held[h.index["Anna"]] == 5
    assert card("Ah") not in h.table_cards


def test_after_blind_the_others_may_only_say_metcho_or_weg():
    t = Table(dealer="Anna").up("Ah").say("Anna blind")
    with pytest.raises(IllegalEvent, match="only one Chratzer"):
        t.say("Beat chratze")
    t.say("Beat metcho, Cla weg, Doris metcho")
    assert t.hand.phase == "exchange"


def test_only_the_dealer_may_play_blind():
    t = Table(dealer="Anna").up("Ah")
    with pytest.raises(IllegalEvent, match="only the dealer"):
        t.say("Beat blind")


def test_blind_only_before_any_bid():
    t = Table(dealer="Anna").up("Ah").say("Beat weg")
    with pytest.raises(IllegalEvent, match="before any bid"):
        t.say("Anna blind")


def test_double_blind_is_announced_before_the_upcard_and_gives_six_cards():
    t = Table(dealer="Anna").say("Anna double_blind").up("Ah")
    h = t.hand
    assert h.blind == "double_blind" and h.held[h.index["Anna"]] == 6
    assert h.phase == "joining"
    assert h.stock == 36 - 16 - 2


def test_double_blind_after_the_upcard_is_rejected():
    t = Table(dealer="Anna").up("Ah")
    with pytest.raises(IllegalEvent, match="before the upcard"):
        t.say("Anna double_blind")


def test_no_trump_six_swap_against_a_blind():
    t = Table(dealer="Anna").up("Ah").say("Anna blind, Beat metcho, Cla weg, Doris weg")
    with pytest.raises(IllegalEvent, match="blind"):
        t.swap("Beat")


@pytest.mark.parametrize("laid, received", [(0, 0), (1, 0), (2, 1), (3, 2), (4, 3), (5, 5)])
def test_blind_exchange_refills_only_up_to_four_except_laying_all_down_gets_five(laid, received):
    t = Table(dealer="Anna").up("Ah").say("Anna blind, Beat metcho, Cla weg, Doris weg")
    t.exchange(f"Anna {laid}")
    h = t.hand
    assert h.exchanges[h.index["Anna"]] == (laid, received)
    assert h.held[h.index["Anna"]] == 4


@pytest.mark.parametrize("laid, received", [(6, 5), (4, 2), (2, 0), (0, 0)])
def test_double_blind_exchange_six_laid_down_gets_five_four_of_six_gets_two(laid, received):
    t = Table(dealer="Anna").say("Anna double_blind").up("Ah").say("Beat metcho, Cla weg, Doris weg")
    t.exchange(f"Anna {laid}")
    assert t.hand.exchanges[t.hand.index["Anna"]] == (laid, received)
    assert t.hand.held[t.hand.index["Anna"]] == 4


def test_blind_not_allowed_when_switched_off():
    t = Table(dealer="Anna", blind_allowed=False).up("Ah")
    with pytest.raises(IllegalEvent, match="not allowed"):
        t.say("Anna blind")
    t = Table(dealer="Anna", double_blind_allowed=False)
    with pytest.raises(IllegalEvent, match="not allowed"):
        t.hand.apply(BidMade("Anna", "double_blind"))
