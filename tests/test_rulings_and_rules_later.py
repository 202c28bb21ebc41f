"""A host's evening: a flag of an earlier hand ruled on later, house rules changed between hands."""

import pytest

from engine import BidMade, CardPlayed, Exchanged, FlagRuled, HouseRules, IllegalEvent, Session, UpcardShown, card
from engine.events import RulesChanged, event_from_dict
from engine.history import dumps, loads

SEATS = ("Anna", "Beat", "Cla", "Doris")
REVOKE_HAND = ("Beat:As Cla:Ad Doris:9s Anna:8s", "Beat:Ks Cla:Qs Doris:Ts Anna:7s",  # Cla revokes spades
               "Beat:Kd Cla:Jh Doris:Qd Anna:Td", "Cla:9h Doris:8h Anna:6h Beat:Jd")


def play_revoke_hand(s: Session) -> str:
    """A hand in which Cla revokes and still makes two tricks; the revoke's flag id."""
    s.record(s.next_hand(SEATS, "Anna"))
    s.record(UpcardShown(card("7h")))
    for p, b in (("Beat", "chratze"), ("Cla", "metcho"), ("Doris", "metcho"), ("Anna", "metcho")):
        s.record(BidMade(p, b))
    for p in ("Beat", "Cla", "Doris", "Anna"):
        s.record(Exchanged(p, 0))
    for trick in REVOKE_HAND:
        for part in trick.split():
            p, c = part.split(":")
            s.record(CardPlayed(p, card(c)))
    return next(iter(s.current.flags))


def test_a_flag_of_an_earlier_hand_is_ruled_on_later_and_its_money_moves_now():
    s = Session(HouseRules(revoke_penalty=True))
    flag = play_revoke_hand(s)
    s.record(s.next_hand())  # the table moved on before ruling
    before_balances, before_pot = s.balances, s.pot
    s.record(FlagRuled(flag, upheld=False, hand=1))
    assert s.hands[0].flags[flag].status == "dismissed"
    assert "Cla" in s.settlements()[0].winners  # the dismissed revoke no longer fails Cla
    moved = {p: s.balances[p] - before_balances.get(p, 0) for p in s.balances}
    assert moved["Cla"] > 0 and sum(moved.values()) + (s.pot - before_pot) == 0  # money is conserved
    assert s.current.pot == s.hands[1].pot  # the hand being played keeps the pot it was played for


def test_the_money_a_late_ruling_moved_is_carried_into_the_next_hand():
    s = Session(HouseRules(revoke_penalty=True))
    flag = play_revoke_hand(s)
    s.record(s.next_hand())
    s.record(FlagRuled(flag, upheld=False, hand=1))
    pot_now = s.pot
    start = s.next_hand()
    assert start.carried == pot_now
    s.record(start)
    assert s.balances and sum(s.balances.values()) + s.pot == 0


def test_a_late_ruling_is_undone_like_any_event():
    s = Session(HouseRules(revoke_penalty=True))
    flag = play_revoke_hand(s)
    s.record(s.next_hand())
    balances, pot = s.balances, s.pot
    s.record(FlagRuled(flag, upheld=False, hand=1))
    s.undo()
    assert s.balances == balances and s.pot == pot and s.hands[0].flags[flag].status == "open"


def test_a_ruling_names_a_hand_that_was_played():
    s = Session()
    play_revoke_hand(s)
    s.record(s.next_hand())
    with pytest.raises(IllegalEvent) as exc:
        s.record(FlagRuled("x", upheld=True, hand=5))
    assert exc.value.code == "no_such_hand"
    with pytest.raises(IllegalEvent) as exc:
        s.record(FlagRuled("nope", upheld=True, hand=1))
    assert exc.value.code == "no_flag"


def test_house_rules_change_between_hands_and_hands_played_keep_theirs():
    s = Session(HouseRules(ante=20))
    play_revoke_hand(s)
    s.record(RulesChanged(HouseRules(ante=50, revoke_penalty=True)))
    start = s.next_hand()
    assert start.ante == 50
    s.record(start)
    assert s.hands[0].rules.ante == 20 and s.current.rules.ante == 50 and s.rules.revoke_penalty


def test_house_rules_do_not_change_during_a_hand():
    s = Session()
    s.record(s.next_hand(SEATS, "Anna"))
    with pytest.raises(IllegalEvent) as exc:
        s.record(RulesChanged(HouseRules(ante=50)))
    assert exc.value.code == "rules_mid_hand" and s.rules.ante == 20


def test_a_rule_change_and_a_late_ruling_survive_the_hand_history():
    s = Session(HouseRules(revoke_penalty=True))
    flag = play_revoke_hand(s)
    s.record(RulesChanged(HouseRules(ante=40, revoke_penalty=True)))
    s.record(s.next_hand())
    s.record(FlagRuled(flag, upheld=False, hand=1))
    again = loads(dumps(s))
    assert again.opening_rules.ante == 20 and again.rules.ante == 40
    assert again.balances == s.balances and again.pot == s.pot


def test_a_rule_change_in_a_record_is_checked_like_any_house_rule():
    with pytest.raises(ValueError, match="rules"):
        event_from_dict({"type": "rules_changed", "rules": {"ante": -5}})
    with pytest.raises(ValueError, match="hand"):
        event_from_dict({"type": "flag_ruled", "flag": "f1", "upheld": True, "hand": 0})
