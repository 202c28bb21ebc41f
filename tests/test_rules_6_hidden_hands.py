"""RULES.md §6: what a referee can prove when hands are hidden. Each flag is raised by the play
that proves it, names the trick, the player, the rule and the evidence, and never blocks play."""

from engine.settlement import settle
from tests.table import Table, playing


def started():
    """Trump hearts (upcard 7h); Beat chratzes; all four play; nobody's hand is known."""
    return playing(upcard="7h").exchange("Beat 0, Cla 0, Doris 0, Anna 0")


def only_flag(t):
    assert len(t.hand.flags) == 1, t.hand.flags
    return next(iter(t.hand.flags.values()))


def test_not_following_suit_then_later_playing_that_suit_is_a_revoke():
    t = started().play("Beat:As Cla:Kd Doris:9s Anna:8s")
    assert not t.hand.flags  # nothing proven yet: Cla may have had no spade
    t.play("Beat:Ks Cla:Qs")
    f = only_flag(t)
    assert (f.trick, f.player, f.rule, f.card) == (1, "Cla", "revoke", "Kd")
    assert "Qs" in f.evidence[0] and "trick 2" in f.evidence[0]
    assert f.raised_at == t.hand.position - 1  # raised by the proving play


def test_not_following_nor_trumping_then_later_playing_a_trump_is_a_failed_trump():
    t = started().play("Beat:As Cla:Kd Doris:9s Anna:8s")
    t.play("Beat:Ks Cla:Jh")
    f = only_flag(t)
    assert (f.trick, f.player, f.rule) == (1, "Cla", "failed_trump")


def test_a_failed_trump_becomes_a_revoke_when_the_led_suit_turns_up_later():
    t = started().play("Beat:As Cla:Kd Doris:9s Anna:8s")
    t.play("Beat:Ks Cla:Jh Doris:Ts Anna:7s")  # proves a trump: failed trump in trick 1
    assert t.rules_flagged() == [(1, "Cla", "failed_trump")]
    t.play("Cla:6s")  # Cla won trick 2 and leads a spade: held one in tricks 1 and 2
    assert t.rules_flagged() == [(1, "Cla", "revoke"), (2, "Cla", "revoke")]
    first = next(f for f in t.hand.flags.values() if f.trick == 1)
    assert len(first.evidence) == 2 and "6s" in first.evidence[1]


def test_after_a_trump_lead_a_plain_card_then_a_later_trump_is_a_revoke():
    t = started().play("Beat:Ah Cla:Kd Doris:9h Anna:8h")
    t.play("Beat:Kh Cla:Qh")
    f = only_flag(t)
    assert (f.trick, f.player, f.rule) == (1, "Cla", "revoke")


def test_a_player_known_to_hold_the_swapped_upcard_who_fails_to_trump_is_flagged_at_once():
    t = playing(upcard="Ah").exchange("Beat 0, Cla 0, Doris 0, Anna 0").swap("Cla")
    t.play("Beat:As Cla:Kd")
    f = only_flag(t)
    assert (f.player, f.rule) == ("Cla", "failed_trump") and "Ah" in f.evidence[0]


def test_a_card_seen_twice_is_flagged():
    t = started().play("Beat:As Cla:As")
    f = only_flag(t)
    assert f.rule == "card_seen_twice" and "Beat" in f.evidence[0]


def test_the_upcard_played_while_it_lies_on_the_table_is_flagged():
    t = started().play("Beat:7h")
    assert only_flag(t).rule == "upcard_played"


def test_after_a_swap_the_trump_six_lies_on_the_table_and_playing_it_is_flagged():
    t = playing(upcard="Ah").exchange("Beat 0, Cla 0, Doris 0, Anna 0").swap("Cla").play("Beat:6h")
    assert only_flag(t).rule == "upcard_played"


def test_the_swapped_upcard_played_by_another_player_is_flagged():
    t = playing(upcard="Ah").exchange("Beat 0, Cla 0, Doris 0, Anna 0").swap("Cla").play("Beat:Ah")
    f = only_flag(t)
    assert f.rule == "card_known_elsewhere" and "Cla" in f.evidence[0]


def test_an_earlier_upcard_is_out_of_play():
    t = Table().up("7h").say("Beat weg, Cla weg, Doris weg, Anna weg").up("Ks")
    t.say("Beat chratze, Cla metcho, Doris metcho, Anna metcho").exchange("Beat 0, Cla 0, Doris 0, Anna 0")
    t.play("Beat:7h")
    assert only_flag(t).rule == "upcard_played"


def test_a_player_who_said_weg_playing_a_card_is_flagged_and_the_card_does_not_count():
    t = Table().up("7h").say("Beat chratze, Cla weg, Doris metcho, Anna metcho")
    t.exchange("Beat 0, Doris 0, Anna 0").play("Beat:As Cla:Ks")
    f = only_flag(t)
    assert (f.player, f.rule) == ("Cla", "inactive_player")
    t.play("Doris:9s Anna:8s")
    assert t.winners() == ["Beat"]


def test_a_play_out_of_turn_is_flagged_and_recorded():
    t = started().play("Beat:As Doris:9s")
    f = only_flag(t)
    assert (f.player, f.rule) == ("Doris", "out_of_turn") and "Cla" in f.evidence[0]
    t.play("Cla:8s Anna:7s")
    assert t.winners() == ["Beat"]


def test_a_fifth_card_from_one_player_is_flagged():
    t = started()
    t.play("Beat:As Cla:9s Doris:8s Anna:7s")
    t.play("Beat:Ks Cla:Qs Doris:Js Anna:6s")
    t.play("Beat:Ad Cla:Kd Doris:Qd Anna:Jd")
    t.play("Beat:Ac Cla:Kc Doris:Qc")
    t.play("Doris:9c")  # Doris's fifth card: she already played in this trick
    f = only_flag(t)
    assert (f.trick, f.player, f.rule) == (4, "Doris", "extra_card")


def test_a_card_played_after_the_last_trick_is_flagged_not_refused():
    t = started()
    t.play("Beat:As Cla:9s Doris:8s Anna:7s")
    t.play("Beat:Ks Cla:Qs Doris:Js Anna:6s")
    t.play("Beat:Ad Cla:Kd Doris:Qd Anna:Jd")
    t.play("Beat:Ac Cla:Kc Doris:Qc Anna:Jc")
    payouts = dict(settle(t.hand).payouts)
    t.play("Cla:9c")  # the hand is over: a fifth card from Cla
    f = only_flag(t)
    assert (f.trick, f.player, f.rule, f.card) == (4, "Cla", "extra_card", "9c")
    assert len(t.hand.tricks) == 4 and dict(settle(t.hand).payouts) == payouts  # the result stands


def test_flags_never_block_the_record():
    t = started().play("Beat:As Cla:Kd Doris:9s Anna:8s")
    t.play("Beat:Ks Cla:Qs Doris:Ts Anna:7s")
    t.play("Beat:Qd Cla:6s Doris:Ad Anna:Td")
    t.play("Doris:Jd Anna:9d Beat:6d Cla:7d")
    assert t.hand.result == "played" and len(t.hand.tricks) == 4
    assert t.rules_flagged() == [(1, "Cla", "revoke"), (3, "Cla", "revoke")]


def test_a_legal_hand_raises_no_flag():
    t = started().play("Beat:As Cla:Kh Doris:Js Anna:8s")
    t.play("Cla:Qh Doris:Jh Anna:9h Beat:Ks")
    assert not t.hand.flags


def test_each_flag_names_hand_trick_player_rule_and_evidence():
    t = started().play("Beat:As Cla:Kd Doris:9s Anna:8s").play("Beat:Ks Cla:Qs")
    d = only_flag(t).to_dict()
    assert d["id"].startswith("h1t1-Cla")
    assert {"trick", "player", "rule", "text", "card", "evidence", "status"} <= set(d)
    assert d["status"] == "open"
