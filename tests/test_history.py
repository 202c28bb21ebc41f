"""The hand-history format: save, reload, replay, and a lenient reader that reports positions."""

import json
import random
from pathlib import Path

import pytest

from engine import Session, history
from engine.simulate import simulate_session

DATA = Path(__file__).parent / "data"
EXAMPLES = Path(__file__).parent.parent / "docs" / "examples"


def test_a_saved_session_reloads_to_the_same_state():
    s = simulate_session(random.Random(3), 10, 5, Session(meta={"table": "test"}))
    again = history.loads(history.dumps(s))
    assert again.log == s.log
    assert again.balances == s.balances and again.pot == s.pot
    assert [h.tricks_won for h in again.hands] == [h.tricks_won for h in s.hands]
    assert again.meta == {"table": "test"}


def test_the_raw_log_keeps_undos_and_corrections():
    text = (EXAMPLES / "evening.json").read_text()
    doc = json.loads(text)
    types = [e["type"] for e in doc["events"]]
    assert "undo" in types and "correct_card" in types
    s = history.loads(text)
    assert len(s.log) == len(doc["events"])
    assert history.dumps(s) == text


def test_the_header_names_format_and_version():
    doc = json.loads(history.dumps(Session()))
    assert doc["format"] == "chratze-hand-history" and doc["version"] == 1
    assert doc["rules"]["ante"] == 20 and doc["events"] == []


def test_a_broken_record_reports_each_problem_with_its_position_and_keeps_the_rest():
    result = history.read((DATA / "broken.json").read_text())
    wheres = [p.where for p in result.problems]
    assert wheres[0] == "rules"
    assert any(w.startswith("events[2]") and "unknown card 'Xx'" in p.message
               for w, p in zip(wheres, result.problems))
    assert any("field 'player' must be str" in p.message for p in result.problems)
    assert any("unknown event type 'teleport'" in p.message for p in result.problems)
    # the later hands are still read, and money is still conserved
    assert len(result.session.hands) == 4
    assert result.session.hands[3].result == "played"
    assert sum(result.session.balances.values()) + result.session.pot == 0


def test_not_json_is_reported_with_line_and_column():
    result = history.read('{"format": "chratze-hand-history",\n "version": 1,, }')
    assert result.problems[0].where == "line 2 column 15"


def test_an_unknown_version_is_reported():
    result = history.read(json.dumps({"format": "chratze-hand-history", "version": 99, "events": []}))
    assert any(p.where == "version" for p in result.problems)


def test_strict_loading_raises_with_every_problem():
    with pytest.raises(history.HistoryError) as err:
        history.loads((DATA / "broken.json").read_text())
    assert len(err.value.problems) > 3


def test_a_correction_whose_target_was_dropped_is_reported():
    s = history.read(json.dumps({
        "format": "chratze-hand-history", "version": 1,
        "events": [{"type": "hand_started", "seats": ["A", "B"], "dealer": "A", "ante": 20},
                   {"type": "upcard", "card": "Zz"},
                   {"type": "correct_card", "target": 1, "card": "Ah"}]}))
    assert "was not kept" in s.problems[-1].message


def test_a_play_seated_by_turn_says_so_in_its_record_and_a_play_at_a_seat_says_nothing_new():
    from engine import CardPlayed, card
    from engine.events import EventError, event_from_dict

    laid = CardPlayed("Anna", card("9s"), by_turn=True)
    assert laid.to_dict() == {"type": "play", "player": "Anna", "card": "9s", "by_turn": True}
    assert event_from_dict(laid.to_dict()) == laid
    assert CardPlayed("Anna", card("9s")).to_dict() == {"type": "play", "player": "Anna", "card": "9s"}
    with pytest.raises(EventError, match="by_turn"):
        event_from_dict({"type": "play", "player": "Anna", "card": "9s", "by_turn": "yes"})
