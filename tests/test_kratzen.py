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


# ---------------------------------------------------------------- the cut
from engine.kratzen import KratzenRules, cut_outcome, settle_tricks  # noqa: E402


def test_a_plain_card_cut_deals_at_once():
    assert cut_outcome([card("9s")]).deal


def test_a_seven_cut_hops_the_deal_to_the_right_and_the_new_dealer_antes():
    o = cut_outcome(cards("7s 9c"))
    assert (o.name, o.move, o.antes, o.deal) == ("hop right", -1, (-1,), False)


def test_one_sau_cut_hops_to_the_left_and_forehand_antes_and_deals():
    o = cut_outcome(cards("As 9c"))
    assert (o.name, o.move, o.antes, o.deal) == ("hop left", 1, (1,), False)


def test_two_saus_jump_two_places_and_forehand_and_the_new_dealer_ante():
    o = cut_outcome(cards("As Ac"))
    assert (o.name, o.move, o.antes) == ("jump", 2, (1, 2))


def test_a_sau_and_a_seven_go_there_and_back_forehand_and_the_next_ante_the_dealer_stays():
    o = cut_outcome(cards("7s Ac"))
    assert (o.name, o.move, o.antes, o.deal) == ("there and back", 0, (1, 2), True)


def test_the_weli_cut_deals_and_everyone_antes():
    o = cut_outcome([card("6d"), card("9c")])
    assert o.deal and o.everyone and o.name == "weli"


def test_choice_two_sevens_count_as_one_seven_and_the_weli_with_another_as_the_weli():
    assert cut_outcome(cards("7s 7c")).name == "hop right"
    assert cut_outcome([card("6d"), card("As")]).name == "weli"
    assert cut_outcome([card("6d"), card("As")], KratzenRules(weli_with="other")).name == "hop left"


def test_a_special_card_cut_needs_the_second_card_shown():
    import pytest

    with pytest.raises(ValueError, match="lower packet"):
        cut_outcome([card("As")])
    with pytest.raises(ValueError):
        cut_outcome(cards("9s 7c"))


# ---------------------------------------------------------------- the settlement
SEATS = ("Anna", "Beat", "Cla", "Doris")


def test_a_quarter_of_the_pot_for_each_trick_won():
    s = settle_tricks(100, SEATS, 0, [True, True, True, False], [2, 1, 1, 0])
    assert s.payouts == {"Anna": 50, "Beat": 25, "Cla": 25} and s.penalties == {} and s.carried_out == 0


def test_a_striker_short_of_two_tricks_pays_double_the_pot_a_defender_without_one_the_pot():
    s = settle_tricks(100, SEATS, 0, [True, True, True, False], [1, 3, 0, 0])
    assert s.penalties == {"Anna": 200, "Cla": 100} and s.payouts == {"Anna": 25, "Beat": 75}


def test_in_a_siebenermuss_everyone_the_striker_too_needs_one_trick():
    s = settle_tricks(100, SEATS, 0, [True] * 4, [1, 1, 1, 1], seven_muss=True)
    assert s.penalties == {}


def test_the_quarters_remainder_stays_in_the_pot_or_goes_to_the_striker():
    assert settle_tricks(102, SEATS, 0, [True, True, False, False], [2, 2, 0, 0]).carried_out == 2
    s = settle_tricks(102, SEATS, 0, [True, True, False, False], [2, 2, 0, 0], rules=KratzenRules(remainder="striker"))
    assert s.payouts["Anna"] == 52 and s.carried_out == 0


def test_money_is_conserved_in_every_kratzen_settlement():
    rng = random.Random(3)
    for _ in range(10_000):
        n = rng.randint(3, 6)
        active = [True] + [rng.random() < 0.6 for _ in range(n - 1)]
        won = [0] * n
        for _ in range(4):
            won[rng.choice([q for q in range(n) if active[q]])] += 1
        pot = rng.randint(4, 500)
        s = settle_tricks(pot, ("A", "B", "C", "D", "E", "F")[:n], 0, active, won, rules=KratzenRules(
            remainder=rng.choice(["pot", "striker"])))
        assert pot == sum(s.payouts.values()) - sum(s.penalties.values()) + s.carried_out
        assert s.carried_out >= 0 and sum(s.payouts.values()) <= pot
