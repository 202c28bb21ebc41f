"""Sessions (RULES.md §2.7, §4): dealer rotation, the pot carried, balances, corrections, settle-up."""

import random

import pytest

from engine import (BidMade, CardCorrected, CardPlayed, Exchanged, HandStarted, HouseRules, IllegalEvent,
                    Session, UpcardShown, card, settle_up)
from engine.ledger import POT, _greedy
from engine.simulate import simulate_session

SEATS = ("Anna", "Beat", "Cla", "Doris")


def passed_out(s: Session, upcards=("7h", "Ks", "9d")):
    for up in upcards:
        s.record(UpcardShown(card(up)))
        for k in range(4):
            p = s.current.seats[(s.current.dealer + 1 + k) % 4]
            s.record(BidMade(p, "weg"))


def test_the_first_hand_antes_into_an_empty_pot():
    s = Session()
    s.record(s.next_hand(SEATS, "Anna"))
    assert s.current.pot == 80
    assert s.balances == {n: -20 for n in SEATS}


def test_the_dealer_deals_again_until_a_hand_is_played():
    s = Session()
    s.record(s.next_hand(SEATS, "Anna"))
    passed_out(s)
    assert s.current.result == "passed_out"
    assert s.next_dealer() == "Anna"


def test_a_redeal_costs_every_player_a_new_ante():
    s = Session()
    s.record(s.next_hand(SEATS, "Anna"))
    passed_out(s)
    s.record(s.next_hand())
    assert s.current.pot == 160


def test_after_a_played_hand_the_deal_passes_to_the_next_seat_in_play_order():
    s = simulate_session(random.Random(2), 1, 4, Session(), chratze_rate=1.0)
    assert s.current.result in ("played", "susi")
    assert s.next_dealer() == "Beat"


def test_variant_redeal_after_the_third_failed_deal_the_deal_passes_on():
    s = Session(HouseRules(no_bid="redeal"))
    s.record(s.next_hand(SEATS, "Anna"))
    for i in range(3):
        passed_out(s, upcards=("7h",))
        assert s.next_dealer() == ("Anna" if i < 2 else "Beat")
        s.record(s.next_hand())
    assert s.current.seats[s.current.dealer] == "Beat"


def test_the_pot_carried_in_must_match_the_record():
    s = Session()
    s.record(s.next_hand(SEATS, "Anna"))
    passed_out(s)
    with pytest.raises(IllegalEvent, match="pot carried into this hand is 80"):
        s.record(HandStarted(SEATS, "Anna", 20, 0))
    with pytest.raises(IllegalEvent, match="ante for this hand is 20"):
        s.record(HandStarted(SEATS, "Anna", 50, 80))


def test_no_event_before_the_first_hand():
    with pytest.raises(IllegalEvent, match="no hand has started"):
        Session().record(UpcardShown(card("Ah")))


@pytest.mark.parametrize("seed", range(5))
def test_money_is_conserved_balances_plus_pot_is_zero(seed):
    s = Session()
    rng = random.Random(seed)
    for _ in range(15):
        simulate_session(rng, 1, rng.randint(2, 7) if not s.hands else len(s.current.seats), s)
        assert sum(s.balances.values()) + s.pot == 0


def test_undo_retracts_the_last_event_and_keeps_it_in_the_raw_log():
    s = Session()
    s.record(s.next_hand(SEATS, "Anna"))
    s.record(UpcardShown(card("7h")))
    s.record(BidMade("Beat", "chratze"))
    s.undo()
    assert s.current.chratzer is None and s.current.phase == "auction"
    assert len(s.log) == 4
    s.record(BidMade("Beat", "weg"))
    assert s.current.bid_pos == 1


def test_undo_twice_retracts_two_events_and_nothing_to_undo_is_an_error():
    s = Session()
    s.record(s.next_hand(SEATS, "Anna"))
    s.record(UpcardShown(card("7h")))
    s.undo()
    s.undo()
    assert not s.hands
    with pytest.raises(IllegalEvent, match="nothing to undo"):
        s.undo()
    assert len(s.log) == 4  # the rejected undo is not logged


def started_play(s: Session):
    s.record(s.next_hand(SEATS, "Anna"))
    s.record(UpcardShown(card("7h")))
    for p, b in [("Beat", "chratze"), ("Cla", "metcho"), ("Doris", "metcho"), ("Anna", "metcho")]:
        s.record(BidMade(p, b))
    for p in ("Beat", "Cla", "Doris", "Anna"):
        s.record(Exchanged(p, 0))


def test_a_misread_card_is_corrected_and_state_follows():
    s = Session()
    started_play(s)
    s.record(CardPlayed("Beat", card("As")))
    pos = s.record(CardPlayed("Cla", card("7h")))  # misread: the upcard itself
    assert [f.rule for f in s.current.flags.values()] == ["upcard_played"]
    s.record(CardCorrected(pos, card("7s")))
    assert not s.current.flags
    assert s.current.trick.plays[1].card is card("7s")


def test_undoing_a_correction_restores_the_card_as_read():
    s = Session()
    started_play(s)
    pos = s.record(CardPlayed("Beat", card("As")))
    s.record(CardCorrected(pos, card("Ks")))
    s.undo()
    assert s.current.trick.plays[0].card is card("As")


def test_a_correction_must_name_an_upcard_or_play_in_effect():
    s = Session()
    started_play(s)
    with pytest.raises(IllegalEvent, match="not an upcard or a play"):
        s.record(CardCorrected(2, card("Ks")))
    with pytest.raises(IllegalEvent, match="not in effect"):
        s.record(CardCorrected(99, card("Ks")))


def test_a_correction_that_makes_the_record_impossible_is_rejected_and_nothing_changes():
    s = Session()
    s.record(s.next_hand(SEATS, "Anna"))
    s.record(UpcardShown(card("7h")))
    for p in ("Beat", "Cla", "Doris", "Anna"):
        s.record(BidMade(p, "weg"))
    s.record(UpcardShown(card("Ks")))
    log_before = list(s.log)
    with pytest.raises(IllegalEvent, match="impossible"):
        s.record(CardCorrected(6, card("7h")))  # the second upcard cannot be the first again
    assert s.log == log_before and s.current.upcards == [card("7h"), card("Ks")]


def test_a_new_hand_before_the_last_is_over_abandons_it_and_keeps_the_pot():
    s = Session()
    started_play(s)
    s.record(s.next_hand())
    assert s.settlements()[0].outcome == "abandoned"
    assert s.current.pot == 160


def test_settle_up_uses_the_fewest_payments():
    # Two independent pairs: 2 payments, where a naive chain would need 3.
    pays = settle_up({"A": 50, "B": -50, "C": 30, "D": -30})
    assert len(pays) == 2
    assert {(p.payer, p.payee, p.amount) for p in pays} == {("B", "A", 50), ("D", "C", 30)}


def test_settle_up_pays_off_a_cancelling_pair_apart_where_largest_to_largest_needs_a_payment_more():
    """Balances 40, 50, 70, -80, -70, -10: largest debtor to largest creditor makes 5 payments; 70 and
    -70 cancel, and the other four settle in 3, so 4 suffice."""
    bal = {"A": 40, "B": 50, "C": 70, "D": -80, "E": -70, "F": -10}
    assert len(_greedy(bal)) == 5  # the plain greedy match this test must tell apart
    pays = settle_up(bal)
    assert len(pays) == 4
    assert ("E", "C", 70) in {(p.payer, p.payee, p.amount) for p in pays}


def test_settle_up_brings_every_balance_to_zero():
    rng = random.Random(7)
    for _ in range(50):
        names = [f"P{i}" for i in range(rng.randint(2, 8))]
        vals = [rng.randrange(-500, 500, 10) for _ in names[:-1]]
        bal = dict(zip(names, vals + [-sum(vals)]))
        left = dict(bal)
        for p in settle_up(bal):
            assert p.amount > 0
            left[p.payer] += p.amount
            left[p.payee] -= p.amount
        assert all(v == 0 for v in left.values())


def test_settle_up_never_needs_more_than_parties_minus_one():
    bal = {"A": 70, "B": -20, "C": -20, "D": -30}
    assert len(settle_up(bal)) == 3


def test_money_left_in_the_pot_takes_part_in_the_settle_up():
    pays = settle_up({"A": -100, "B": 40})
    assert {(p.payer, p.payee, p.amount) for p in pays} == {("A", "B", 40), ("A", POT, 60)}


def test_an_evening_recorded_from_mid_evening_starts_with_the_pot_already_there():
    from engine import history

    s = Session(opening_pot=340)
    start = s.next_hand(("Anna", "Beat", "Cla"), "Anna")
    assert start.carried == 340 and s.pot == 340
    s.record(start)
    assert s.pot == 340 + 3 * s.rules.ante
    assert sum(s.balances.values()) + s.pot == 340  # the carried money is nobody's balance
    again = history.loads(history.dumps(s))
    assert again.opening_pot == 340 and again.pot == s.pot


def test_an_opening_pot_is_whole_rappen_and_never_negative():
    for bad in (-5, 2.5, "340", True):
        with pytest.raises(ValueError, match="opening pot"):
            Session(opening_pot=bad)


def trick_one_misread(s: Session, by_turn: bool) -> int:
    """Trick 1 with Cla's Ks misread 7s (so Anna's 9s seems to win it), then trick 2 as laid, led by whoever
    the record says; returns the misread play's log position."""
    started_play(s)
    s.record(CardPlayed("Beat", card("6s")))
    misread = s.record(CardPlayed("Cla", card("7s")))
    for p, c in [("Doris", "8s"), ("Anna", "9s"), ("Anna", "Ts"), ("Beat", "Js"), ("Cla", "Qs"), ("Doris", "As")]:
        s.record(CardPlayed(p, card(c), by_turn=by_turn))
    return misread


def test_a_correction_that_changes_who_won_a_trick_seats_the_cards_laid_by_turn_after_it_anew():
    s = Session()
    misread = trick_one_misread(s, by_turn=True)
    s.record(CardCorrected(misread, card("Ks")))
    first, second = s.current.tricks[:2]
    assert s.current.seats[first.winner] == "Cla"
    assert [s.current.seats[p.player] for p in second.plays] == ["Cla", "Doris", "Anna", "Beat"]
    assert not s.current.flags


def test_a_play_at_a_seats_place_keeps_its_player_after_a_correction_and_is_flagged_out_of_turn():
    s = Session()
    misread = trick_one_misread(s, by_turn=False)
    s.record(CardCorrected(misread, card("Ks")))
    second = s.current.tricks[1]
    assert [s.current.seats[p.player] for p in second.plays] == ["Anna", "Beat", "Cla", "Doris"]
    assert "out_of_turn" in {f.rule for f in s.current.flags.values()}
