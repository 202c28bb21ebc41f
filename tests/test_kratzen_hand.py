"""A hand of Kratzen (engine.kratzen_hand), one test per rule of docs/kratzen.md, and 10,000 random hands."""

import random

import pytest

from engine.cards import card
from engine.events import BidMade, CardPlayed, CardsShown, CutShown, Exchanged, HandStarted, UpcardShown
from engine.kratzen_hand import KratzenHand
from engine.kratzen_simulate import simulate_kratzen
from engine.reasons import IllegalEvent

SEATS = ("Anna", "Beat", "Cla", "Doris")


def hand(muss: bool = False, cut: str = "9c") -> KratzenHand:
    h = KratzenHand(HandStarted(SEATS, "Anna", 10, 0), muss)
    h.apply(CutShown((card(cut),)))
    return h


def say(h: KratzenHand, *bids: str) -> None:
    for part in bids:
        player, bid = part.split()
        h.apply(BidMade(player, bid))


def test_the_muss_everyone_antes_the_dealer_double():
    assert KratzenHand(HandStarted(SEATS, "Anna", 10, 0), muss=True).pot == 50


def test_after_the_muss_the_dealer_alone_antes():
    assert KratzenHand(HandStarted(SEATS, "Anna", 10, 30), muss=False).pot == 40


def test_a_seven_cut_hops_the_deal_to_the_right_and_the_new_dealer_antes_and_cuts_again():
    h = KratzenHand(HandStarted(SEATS, "Anna", 10, 0), muss=False)
    h.apply(CutShown((card("7s"), card("9c"))))
    assert h.seats[h.dealer] == "Doris" and h.paid == [10, 0, 0, 10] and h.phase == "cut"


def test_the_weli_turned_is_the_dealers_and_another_card_is_turned():
    h = hand()
    h.apply(UpcardShown(card("6d")))
    assert h.phase == "deal" and h.trump is None
    h.apply(UpcardShown(card("Kh")))
    assert h.trump == 0 and h.phase == "contract"


def test_in_the_muss_the_dealer_strikes_leads_and_everyone_plays():
    h = hand(muss=True)
    h.apply(UpcardShown(card("Kh")))
    assert h.phase == "play" and h.striker == 0 and all(h.active) and h.whose_turn() == 0


def test_contracts_are_chosen_in_turn_from_the_dealer_and_each_must_outbid_the_last():
    h = hand()
    h.apply(UpcardShown(card("Kh")))
    say(h, "Anna weiter_oder", "Beat oder")
    with pytest.raises(IllegalEvent, match="does not outbid"):
        say(h, "Cla weiter_oder")
    say(h, "Cla schlagen", "Doris weiter")
    assert h.contract == "schlagen" and h.striker == 2 and h.phase == "join"


def test_nobody_chooses_a_contract_the_hand_is_passed_and_the_pot_stays():
    h = hand()
    h.apply(UpcardShown(card("Kh")))
    say(h, "Anna weiter", "Beat weiter", "Cla weiter", "Doris weiter")
    assert h.result == "passed" and h.settlement().carried_out == h.pot


def test_oder_turns_cards_until_one_of_another_suit_decides_the_trump():
    h = hand()
    h.apply(UpcardShown(card("Kh")))
    say(h, "Anna oder", "Beat weiter", "Cla weiter", "Doris weiter")
    h.apply(UpcardShown(card("9h")))  # the same suit: turn on
    assert h.phase == "oder"
    h.apply(UpcardShown(card("Ts")))
    assert h.trump == 2 and h.striker == 0 and h.phase == "join"


def test_weiter_oder_turns_one_card_and_its_suit_is_trump():
    h = hand()
    h.apply(UpcardShown(card("Kh")))
    say(h, "Anna weiter", "Beat weiter_oder", "Cla weiter", "Doris weiter")
    h.apply(UpcardShown(card("Qh")))
    assert h.trump == 0 and h.striker == 1


def test_siebenermuss_a_seven_deciding_the_trump_makes_everyone_play_for_one_trick():
    h = hand()
    h.apply(UpcardShown(card("7h")))
    say(h, "Anna schlagen", "Beat weiter", "Cla weiter", "Doris weiter")
    assert h.seven_muss and all(h.active) and h.phase == "play"


def test_play_or_drop_in_turn_after_the_striker():
    h = hand()
    h.apply(UpcardShown(card("Kh")))
    say(h, "Anna schlagen", "Beat weiter", "Cla weiter", "Doris weiter")
    with pytest.raises(IllegalEvent, match="Beat's turn"):
        say(h, "Cla mitgehen")
    say(h, "Beat mitgehen", "Cla verzichten", "Doris mitgehen")
    assert h.active == [True, True, False, True] and h.phase == "exchange"


def test_everyone_drops_and_the_striker_takes_the_pot():
    h = hand()
    h.apply(UpcardShown(card("Kh")))
    say(h, "Anna schlagen", "Beat weiter", "Cla weiter", "Doris weiter")
    say(h, "Beat verzichten", "Cla verzichten", "Doris verzichten")
    assert h.result == "alone" and h.settlement().payouts == {"Anna": h.pot}


def test_cards_drawn_beyond_the_third_are_shown_and_each_trump_brings_an_extra_card():
    h = hand()
    h.apply(UpcardShown(card("Kh")))
    say(h, "Anna schlagen", "Beat weiter", "Cla weiter", "Doris weiter", "Beat mitgehen", "Cla verzichten",
        "Doris verzichten")
    before = h.stock
    h.apply(Exchanged("Anna", 4))
    with pytest.raises(IllegalEvent):
        h.apply(Exchanged("Beat", 0))  # Anna's fourth card is shown first
    h.apply(CardsShown("Anna", (card("Ah"),)))  # the trump Sau face up: five extra cards
    assert before - h.stock == 4 + 5


def test_the_striker_leads_the_first_trick():
    h = hand()
    h.apply(UpcardShown(card("Kh")))
    say(h, "Anna weiter", "Beat schlagen", "Cla weiter", "Doris weiter", "Cla mitgehen", "Doris verzichten",
        "Anna verzichten")
    h.apply(Exchanged("Beat", 0))
    h.apply(Exchanged("Cla", 0))
    assert h.phase == "play" and h.seats[h.whose_turn()] == "Beat"


def test_with_hidden_hands_a_card_against_stichzwang_is_flagged_once_a_later_card_proves_it():
    h = hand(muss=True)
    h.apply(UpcardShown(card("Kh")))
    for p, c in (("Anna", "9s"), ("Beat", "7s"), ("Cla", "Ts"), ("Doris", "8s")):  # Beat did not head the 9s
        h.apply(CardPlayed(p, card(c)))
    for p, c in (("Cla", "7c"), ("Doris", "8c"), ("Anna", "9c"), ("Beat", "As")):  # ... yet held the As
        h.apply(CardPlayed(p, card(c)))
    assert list(h.flags) == [(1, 1)] and "7s" in h.flags[(1, 1)]


def test_the_tricks_are_paid_a_quarter_of_the_pot_each():
    h, _ = simulate_kratzen(random.Random(5), players=4, muss=True)
    s = h.settlement()
    quarter = h.pot // 4
    assert all(s.payouts.get(h.seats[q], 0) == quarter * h.tricks_won[q] for q in range(h.n))


def test_ten_thousand_random_hands_conserve_money_and_pay_exactly_for_missed_targets():
    for i in range(10_000):
        h, _ = simulate_kratzen(random.Random(i), players=3 + i % 4, muss=i % 3 == 0, carried=(i % 7) * 10)
        s = h.settlement()
        assert not h.flags, (i, h.flags)
        assert h.pot == sum(s.payouts.values()) - sum(s.penalties.values()) + s.carried_out
        if h.result == "played":
            assert sum(h.tricks_won) == 4
            for q in range(h.n):
                target = 1 if h.seven_muss or q != h.striker else 2
                owes = h.active[q] and h.tricks_won[q] < target
                assert (h.seats[q] in s.penalties) == owes, i
                if owes:
                    assert s.penalties[h.seats[q]] == h.pot * (2 if q == h.striker else 1)


def test_a_refused_event_leaves_the_hand_as_it_was():
    import copy

    from engine.kratzen import PACK

    names = ("Anna", "Beat", "Cla", "Doris", "Erich", "Fränzi")
    rng = random.Random(9)
    refused = 0
    for i in range(300):
        _, events = simulate_kratzen(random.Random(i), players=3 + i % 4, muss=i % 3 == 0)
        h = KratzenHand(events[0], muss=i % 3 == 0)
        for ev in events[1:]:
            for _ in range(3):  # something that may not happen now, tried before the true event
                wrong = rng.choice([
                    CardPlayed(rng.choice(names[:h.n]), rng.choice(PACK)), BidMade(rng.choice(names[:h.n]), "schlagen"),
                    BidMade(rng.choice(names[:h.n]), "mitgehen"), Exchanged(rng.choice(names[:h.n]), rng.randint(0, 6)),
                    UpcardShown(rng.choice(PACK)), CutShown((rng.choice(PACK),)),
                    CardsShown(rng.choice(names[:h.n]), (rng.choice(PACK),))])
                before = copy.deepcopy(h.__dict__)
                try:
                    copy.deepcopy(h).apply(wrong)
                except IllegalEvent:
                    pass
                try:
                    h.apply(wrong)
                except IllegalEvent:
                    refused += 1
                    assert h.__dict__ == before, (i, wrong)
                else:
                    h = KratzenHand(events[0], muss=i % 3 == 0)  # it was possible: start the hand again
                    for done in events[1:events.index(ev)]:
                        h.apply(done)
            h.apply(ev)
    assert refused > 1000
