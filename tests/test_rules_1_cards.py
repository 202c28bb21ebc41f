"""RULES.md §1: table and cards."""

import pytest

from engine import DECK, CardError, card, cards
from engine.cards import format_cards
from engine.rules import trick_winner_index


def test_the_pack_has_36_cards_of_four_suits_and_nine_ranks():
    assert len(DECK) == 36
    assert len({c.code for c in DECK}) == 36
    assert {c.code[1] for c in DECK} == set("hdsc")
    assert {c.code[0] for c in DECK} == set("6789TJQKA")


def test_notation_is_rank_then_suit_with_ten_written_T():
    assert format_cards(cards("6h 7h 8h 9h Th Jh Qh Kh Ah")) == "6h 7h 8h 9h Th Jh Qh Kh Ah"
    assert card("10s") is card("Ts")
    assert card("Ah") is card("Ah")  # interned


@pytest.mark.parametrize("bad", ["Xh", "5h", "Az", "", "A", "Ahh", "1h"])
def test_an_unknown_card_is_an_error_naming_the_token(bad):
    with pytest.raises(CardError, match=repr(bad)):
        card(bad)


def test_a_non_string_card_is_an_error():
    with pytest.raises(CardError):
        card(36)


def test_ace_high_six_low_in_every_suit_trump_included():
    for suit in "hdsc":
        order = cards(f"6{suit} 7{suit} 8{suit} 9{suit} T{suit} J{suit} Q{suit} K{suit} A{suit}")
        for lower, higher in zip(order, order[1:]):
            assert trick_winner_index([lower, higher], trump=0) == 1
            assert trick_winner_index([higher, lower], trump=0) == 0


def test_swiss_german_names_map_to_the_french_letters():
    assert card("Th").name("german") == "Rosen Banner"
    assert card("Jd").name("german") == "Schellen Under"
    assert card("Qs").name("german") == "Schilten Ober"
    assert card("Kc").name("german") == "Eicheln König"
    assert card("Ac").name("german") == "Eicheln Ass"
    assert card("Ah").name() == "Ace of hearts"
