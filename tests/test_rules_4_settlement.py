"""RULES.md §4 and §5: settling the pot, in integer Rappen."""

from engine import settle
from tests.table import Table, playing

FIVE = "Anna Beat Cla Doris Erich"


def finished(seats, tricks, chratzer, others_active, carried=0, **house):
    """A played hand whose trick counts are ``tricks`` (player -> tricks), built card by card."""
    t = playing(seats, "6c", chratzer, along=others_active, carried=carried, **house)
    _play_to_counts(t, tricks)
    return t.hand


def _play_to_counts(t, tricks):
    """Each trick is led with a trump ace-down by its designated winner; others play low."""
    h = t.hand
    winners = [p for p, k in tricks.items() for _ in range(k)]
    trumps = iter(["Ac", "Kc", "Qc", "Jc"])
    low = iter(["6h", "7h", "8h", "9h", "Th", "Jh", "Qh", "Kh", "Ah", "6d", "7d", "8d", "9d",
                "Td", "Jd", "Qd", "Kd", "Ad", "6s", "7s", "8s", "9s", "Ts"])
    for w in winners:
        while h.seats[h.whose_turn()] != w:
            t.play(f"{h.seats[h.whose_turn()]}:{next(low)}")
        t.play(f"{w}:{next(trumps)}")
        while h.trick is not None and h.trick.plays:
            t.play(f"{h.seats[h.whose_turn()]}:{next(low)}")
    assert h.result == "played"


def test_worked_example_from_the_sources_exactly():
    hand = finished(FIVE, {"Beat": 1, "Cla": 2, "Doris": 1, "Erich": 0},
                    chratzer="Beat", others_active={"Cla", "Doris", "Erich"})
    s = settle(hand)
    assert hand.pot == 100
    assert s.payouts == {"Cla": 50, "Doris": 50}
    assert s.penalties == {"Beat": 200, "Erich": 100}
    assert s.carried_out == 300
    assert s.carried_out + 5 * 20 == 400  # next pot after everybody antes


def test_chratzer_alone_wins_takes_the_whole_pot():
    hand = finished(FIVE, {"Beat": 4, "Cla": 0}, chratzer="Beat", others_active={"Cla"})
    s = settle(hand)
    assert s.payouts == {"Beat": 100}
    assert s.penalties == {"Cla": 100}


def test_chratzer_takes_all_four_tricks_sweeps_the_pot():
    hand = finished(FIVE, {"Beat": 4, "Cla": 0, "Doris": 0}, chratzer="Beat", others_active={"Cla", "Doris"})
    assert settle(hand).payouts == {"Beat": 100}


def test_chratzer_and_others_win_two_thirds_rounded_up_to_twenty():
    hand = finished(FIVE, {"Beat": 2, "Cla": 1, "Doris": 1}, chratzer="Beat", others_active={"Cla", "Doris"})
    s = settle(hand)
    # 2/3 of 100 = 66.7 -> 80; the other 20 shared: 10 each
    assert s.payouts == {"Beat": 80, "Cla": 10, "Doris": 10}
    assert s.penalties == {}


def test_indivisible_remainder_of_the_others_share_goes_to_the_chratzer():
    hand = finished(FIVE, {"Beat": 2, "Cla": 1, "Doris": 1}, chratzer="Beat",
                    others_active={"Cla", "Doris"}, carried=10)
    s = settle(hand)
    # P = 110: 2/3 = 73.3 -> 80; rest 30 between two: 15 each
    assert s.payouts == {"Beat": 80, "Cla": 15, "Doris": 15}
    hand = finished(FIVE, {"Beat": 2, "Cla": 1, "Doris": 1}, chratzer="Beat",
                    others_active={"Cla", "Doris"}, carried=5)
    # P = 105: 2/3 = 70 -> 80; rest 25: 12 each, 1 Rappen to Beat
    assert settle(hand).payouts == {"Beat": 81, "Cla": 12, "Doris": 12}


def test_the_chratzers_share_is_never_more_than_the_pot():
    hand = finished("Anna Beat", {"Beat": 2, "Anna": 2}, chratzer="Beat", others_active={"Anna"}, ante=5)
    # P = 10: 2/3 rounds up to 20, capped at 10: the other winner gets nothing
    assert settle(hand).payouts == {"Beat": 10}


def test_chratzer_fails_winners_share_equally_and_the_remainder_stays_in_the_pot():
    hand = finished(FIVE, {"Beat": 1, "Cla": 1, "Doris": 1, "Erich": 1}, chratzer="Beat",
                    others_active={"Cla", "Doris", "Erich"}, carried=10)
    s = settle(hand)
    assert s.payouts == {"Cla": 36, "Doris": 36, "Erich": 36}  # 110 / 3
    assert s.penalties == {"Beat": 220}
    assert s.carried_out == 110 - 108 + 220


def test_every_failed_other_pays_the_pot_once():
    hand = finished(FIVE, {"Beat": 3, "Cla": 1, "Doris": 0, "Erich": 0}, chratzer="Beat",
                    others_active={"Cla", "Doris", "Erich"})
    assert settle(hand).penalties == {"Doris": 100, "Erich": 100}


def test_susi_nobody_comes_along_the_chratzer_takes_the_pot_without_play():
    t = Table(FIVE).up("7h").say("Beat chratze, Cla weg, Doris weg, Erich weg, Anna weg")
    s = settle(t.hand)
    assert s.outcome == "susi"
    assert s.payouts == {"Beat": 100}
    assert s.susi == "Anna"  # the last player asked
    assert not t.hand.tricks


def test_passed_out_hand_keeps_the_pot():
    t = Table(FIVE, no_bid="redeal").up("7h").say("Beat weg, Cla weg, Doris weg, Erich weg, Anna weg")
    s = settle(t.hand)
    assert s.outcome == "passed_out" and s.carried_out == 100 and not s.payouts
