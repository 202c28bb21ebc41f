"""RULES.md §7: house rules, each off by default."""

import pytest

from engine import FlagRuled, HouseRules, IllegalEvent, RulesError, settle
from tests.table import Table, playing
from tests.test_rules_4_settlement import FIVE, finished


def test_all_house_rules_are_off_by_default():
    r = HouseRules()
    assert (r.split, r.rounding_unit, r.letzter, r.bannerrunde, r.revoke_penalty,
            r.ante_only_into_empty_pot, r.no_bid) == ("two_thirds", 20, False, False, False, False, "new_upcard")


def test_split_by_role_two_for_the_chratzer_one_for_each_other_winner():
    hand = finished(FIVE, {"Beat": 2, "Cla": 1, "Doris": 1}, chratzer="Beat",
                    others_active={"Cla", "Doris"}, split="by_role")
    assert settle(hand).payouts == {"Beat": 50, "Cla": 25, "Doris": 25}


def test_split_by_role_largest_remainder_first():
    hand = finished(FIVE, {"Beat": 2, "Cla": 1, "Doris": 1}, chratzer="Beat",
                    others_active={"Cla", "Doris"}, split="by_role", carried=3)
    # P = 103: 51.5, 25.75, 25.75 -> 51, 25, 25 + 2 left: the .75s first
    assert settle(hand).payouts == {"Beat": 51, "Cla": 26, "Doris": 26}


def test_rounding_unit_ten():
    hand = finished(FIVE, {"Beat": 2, "Cla": 1, "Doris": 1}, chratzer="Beat",
                    others_active={"Cla", "Doris"}, rounding_unit=10)
    assert settle(hand).payouts == {"Beat": 70, "Cla": 15, "Doris": 15}


def test_rounding_unit_one_means_no_rounding_beyond_whole_rappen():
    hand = finished(FIVE, {"Beat": 2, "Cla": 1, "Doris": 1}, chratzer="Beat",
                    others_active={"Cla", "Doris"}, rounding_unit=1)
    # 2/3 of 100 = 66.7 -> 67; the rest 33 between two: 16 each, the odd Rappen to Beat
    assert settle(hand).payouts == {"Beat": 68, "Cla": 16, "Doris": 16}


def test_letzter_the_last_asked_must_come_along_if_nobody_else_does():
    t = Table(letzter=True).up("7h").say("Beat chratze, Cla weg, Doris weg")
    with pytest.raises(IllegalEvent, match="Letzter"):
        t.say("Anna weg")
    t.say("Anna metcho")
    assert t.hand.phase == "exchange"


def test_letzter_does_not_bind_when_someone_came_along():
    t = Table(letzter=True).up("7h").say("Beat chratze, Cla metcho, Doris weg, Anna weg")
    assert t.hand.phase == "exchange"


def test_bannerrunde_a_ten_as_upcard_the_dealer_must_chratze():
    t = Table(dealer="Anna", bannerrunde=True).up("Th")
    with pytest.raises(IllegalEvent, match="Bannerrunde"):
        t.say("Beat weg")
    with pytest.raises(IllegalEvent, match="Bannerrunde"):
        t.say("Anna weg")
    t.say("Anna chratze")
    assert t.hand.seats[t.hand.chratzer] == "Anna"


def test_bannerrunde_everyone_must_come_along():
    t = Table(dealer="Anna", bannerrunde=True).up("Th").say("Anna chratze")
    with pytest.raises(IllegalEvent, match="everyone must come along"):
        t.say("Beat weg")
    t.say("Beat metcho, Cla metcho, Doris metcho")
    assert all(t.hand.active)


def test_without_bannerrunde_a_ten_upcard_is_an_ordinary_upcard():
    t = Table(dealer="Anna").up("Th").say("Beat weg")
    assert t.hand.phase == "auction"




def test_revoke_penalty_a_proven_revoke_counts_as_a_failed_contract():
    t = playing(upcard="7h", revoke_penalty=True).exchange("Beat 0, Cla 0, Doris 0, Anna 0")
    t.play("Beat:As Cla:Ad Doris:9s Anna:8s")      # Cla does not follow spades
    t.play("Beat:Ks Cla:Qs Doris:Ts Anna:7s")      # ... and proves a revoke
    t.play("Beat:Kd Cla:Jh Doris:Qd Anna:Td")      # Cla trumps: wins trick 3
    t.play("Cla:9h Doris:8h Anna:6h Beat:Jd")      # Cla wins trick 4
    h = t.hand
    assert t.tricks_of("Cla") == 2
    s = settle(h)
    assert "Cla" in s.failed and "Cla" not in s.payouts and s.penalties["Cla"] == h.pot


def test_without_revoke_penalty_the_result_stands_and_the_revoke_is_only_flagged():
    t = playing(upcard="7h").exchange("Beat 0, Cla 0, Doris 0, Anna 0")
    t.play("Beat:As Cla:Ad Doris:9s Anna:8s")
    t.play("Beat:Ks Cla:Qs Doris:Ts Anna:7s")
    t.play("Beat:Kd Cla:Jh Doris:Qd Anna:Td")
    t.play("Cla:9h Doris:8h Anna:6h Beat:Jd")
    s = settle(t.hand)
    assert "Cla" in s.winners
    assert [f.rule for f in t.hand.flags.values()] == ["revoke"]


def test_revoke_penalty_follows_the_tables_ruling_a_dismissed_flag_does_not_count():
    t = playing(upcard="7h", revoke_penalty=True).exchange("Beat 0, Cla 0, Doris 0, Anna 0")
    t.play("Beat:As Cla:Ad Doris:9s Anna:8s")
    t.play("Beat:Ks Cla:Qs Doris:Ts Anna:7s")
    t.play("Beat:Kd Cla:Jh Doris:Qd Anna:Td")
    t.play("Cla:9h Doris:8h Anna:6h Beat:Jd")
    flag = next(iter(t.hand.flags))
    t.hand.apply(FlagRuled(flag, upheld=False))
    assert "Cla" in settle(t.hand).winners


def test_ante_only_into_an_empty_pot():
    from engine import Session
    from engine.simulate import simulate_session
    import random

    rules = HouseRules(ante_only_into_empty_pot=True)
    s = Session(rules)
    simulate_session(random.Random(5), 12, 4, s)
    for hand, before in zip(s.hands, [0] + [x.carried_out for x in s.settlements()]):
        assert hand.start.carried == before
        assert hand.start.ante == (0 if before > 0 else 20)
    assert any(h.start.ante == 0 for h in s.hands)


@pytest.mark.parametrize("bad", [{"split": "half"}, {"ante": -1}, {"rounding_unit": 0},
                                 {"ante": 0.5}, {"letzter": "yes"}, {"no_bid": "again"}, {"spam": 1}])
def test_an_impossible_house_rule_is_rejected(bad):
    with pytest.raises(RulesError):
        HouseRules.from_dict(bad)
