"""An evening of Kratzen: the Muss after an emptied pot, the dealer's turn, the record naming its
ruleset, replay, undo; money conserved over many random evenings."""

import random

import pytest

from engine import history
from engine.cards import card
from engine.events import CardCorrected, CardPlayed, CutShown, Undo, UpcardShown
from engine.kratzen_session import KratzenSession
from engine.kratzen_simulate import simulate_kratzen_session
from engine.reasons import IllegalEvent


def evening(hands: int = 12, seed: int = 1, players: int = 4) -> KratzenSession:
    return simulate_kratzen_session(random.Random(seed), hands, players, KratzenSession())


def test_the_first_hand_of_an_evening_is_a_muss():
    s = KratzenSession()
    assert s.next_is_muss
    s.record(s.next_hand(("Anna", "Beat", "Cla")))
    assert s.current.muss and s.current.pot == 40  # everyone antes, the dealer double


def test_a_hand_that_empties_the_pot_makes_the_next_a_muss_and_one_with_penalties_does_not():
    s = evening(40, seed=3)
    for before, after in zip(s.hands, s.hands[1:]):
        emptied = before.result == "alone" or (before.result == "played" and not before.settlement().penalties)
        assert after.muss == emptied


def test_the_deal_passes_to_the_left_of_the_last_dealer():
    s = evening(6, seed=5)
    nxt = s.next_hand()
    last = s.hands[-1]
    assert nxt.dealer == last.seats[(last.dealer + 1) % last.n] and nxt.carried == s.pot


def test_a_hand_must_carry_the_pot_the_record_says():
    s = evening(3)
    start = s.next_hand()
    with pytest.raises(IllegalEvent, match="pot carried"):
        s.record(start.__class__(start.seats, start.dealer, start.ante, start.carried + 1))


def test_the_record_names_its_ruleset_and_reads_back_the_same_evening():
    s = evening(10, seed=7)
    text = history.dumps(s)
    assert '"ruleset": "kratzen"' in text
    again = history.loads(text)
    assert isinstance(again, KratzenSession) and again.balances == s.balances and again.pot == s.pot


def test_a_record_of_an_unknown_ruleset_is_a_problem_named_as_such():
    result = history.read('{"format": "chratze-hand-history", "version": 1, "ruleset": "skat", "events": []}')
    assert any(p.where == "ruleset" and "skat" in p.message for p in result.problems)


def test_undo_takes_back_the_last_kratzen_event():
    s = evening(2)
    before = (len(s.hands), s.current.phase, len(s.current.tricks))
    last = s.log[-1]
    s.record(Undo())
    s.record(last)
    assert (len(s.hands), s.current.phase, len(s.current.tricks)) == before


def test_replay_prints_a_kratzen_evening(tmp_path, capsys):
    from chratze.cli import main

    path = tmp_path / "kratzen.json"
    path.write_text(history.dumps(evening(3, seed=2)), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "(Kratzen, Muss)" in out and "Striker" in out and "Balances:" in out


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_money_is_conserved_over_random_evenings(players):
    for seed in range(25):
        s = evening(8, seed=seed, players=players)
        assert sum(s.balances.values()) + s.pot == 0


def test_the_live_table_continues_an_evening_of_kratzen_in_its_own_game(tmp_path):
    from chratze.table_cli import _session_from

    path = tmp_path / "kratzen.json"
    path.write_text(history.dumps(evening(2)), encoding="utf-8")
    assert _session_from(path).balances == evening(2).balances
    assert isinstance(_session_from(tmp_path / "new.json", ruleset="kratzen"), KratzenSession)
    with pytest.raises(SystemExit, match="Kratzen, not Chratze"):
        _session_from(path, ruleset="chratze")


def test_each_event_of_a_hand_has_its_place_in_the_log_after_an_undo_and_a_correction():
    s = evening(2)
    s.undo()
    played = next(p for p, ev in zip(s.positions[-1], s.current.events) if ev.type == "play")
    s.record(CardCorrected(played, s.log[played].card))
    assert [s.log[p] for p in s.positions[-1]][1:] == s.current.events[1:]
    assert [len(p) for p in s.positions] == [len(h.events) for h in s.hands]


def muss_trick_one_misread(by_turn: bool) -> tuple[KratzenSession, int]:
    """A Muss (Anna strikes and leads, hearts trump) whose trick 1 has Beat's Ks misread 7s, so Doris's Ts seems
    to win it; then Doris leads trick 2 as the record says. Returns the session and the misread's position."""
    s = KratzenSession()
    s.record(s.next_hand(("Anna", "Beat", "Cla", "Doris")))
    s.record(CutShown((card("9c"),)))
    s.record(UpcardShown(card("Kh")))
    s.record(CardPlayed("Anna", card("8s")))
    misread = s.record(CardPlayed("Beat", card("7s")))
    for p, c in [("Cla", "9s"), ("Doris", "Ts"), ("Doris", "Jc"), ("Anna", "Qc")]:
        s.record(CardPlayed(p, card(c), by_turn=by_turn))
    return s, misread


def test_a_correction_that_changes_who_won_a_trick_seats_the_cards_laid_by_turn_after_it_anew():
    s, misread = muss_trick_one_misread(by_turn=True)
    s.record(CardCorrected(misread, card("Ks")))
    assert [s.current.seats[p.player] for p in s.current.trick] == ["Beat", "Cla"]


def test_a_correction_that_leaves_a_play_at_a_seats_place_out_of_turn_is_refused():
    s, misread = muss_trick_one_misread(by_turn=False)
    with pytest.raises(IllegalEvent, match="Beat's turn"):
        s.record(CardCorrected(misread, card("Ks")))
