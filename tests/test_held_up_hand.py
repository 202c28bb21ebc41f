"""A card laid before the trick in front of it was complete holds the hand up; taking it as made now
(``PlayMoved``) lets the hand go on, and is undone like any event."""

import pytest

from engine import BidMade, CardPlayed, Exchanged, IllegalEvent, Session, UpcardShown, card
from engine.events import PlayMoved, event_from_dict
from engine.history import dumps, loads

SEATS = ("Anna", "Beat", "Cla")




def held_hand() -> tuple[Session, int]:
    s = Session()
    s.record(s.next_hand(SEATS, "Anna"))
    s.record(UpcardShown(card("Kh")))
    for p, b in (("Beat", "chratze"), ("Cla", "metcho"), ("Anna", "weg")):
        s.record(BidMade(p, b))
    s.record(Exchanged("Beat", 0))
    s.record(Exchanged("Cla", 0))
    s.record(CardPlayed("Beat", card("9h")))
    s.record(CardPlayed("Cla", card("Th")))  # Cla wins trick 1 and leads trick 2
    s.record(CardPlayed("Cla", card("7s")))
    early = s.record(CardPlayed("Cla", card("8c")))  # Cla again, before Beat answered: her trick-3 card
    s.record(CardPlayed("Beat", card("As")))  # Beat wins trick 2 and leads trick 3
    s.record(CardPlayed("Beat", card("6c")))  # now it is Cla's turn: her card lies set aside
    return s, early


def test_a_card_laid_before_the_trick_in_front_was_complete_holds_the_hand_up():
    s, early = held_hand()
    hand = s.current
    play = hand.held_up()
    assert play is not None and play.card.code == "8c" and hand.seats[play.player] == "Cla"
    assert s.positions[-1][play.position] == early
    assert hand.seats[hand.whose_turn()] == "Cla" and hand.phase == "play"


def test_taking_the_early_card_as_made_now_lets_the_hand_go_on():
    s, early = held_hand()
    s.record(PlayMoved(early))
    hand = s.current
    assert hand.held_up() is None
    assert [p.card.code for p in hand.tricks[2].plays] == ["6c", "8c"]
    assert not [f for f in hand.flags.values() if f.rule == "extra_card"]
    s.record(CardPlayed("Beat", card("Qd")))
    s.record(CardPlayed("Cla", card("Jd")))
    assert s.current.phase == "done"


def test_moving_a_play_is_undone_like_any_event():
    s, early = held_hand()
    s.record(PlayMoved(early))
    s.undo()
    assert s.current.held_up() is not None


def test_only_a_play_of_this_hand_can_be_moved():
    s, early = held_hand()
    with pytest.raises(IllegalEvent) as exc:
        s.record(PlayMoved(1))  # the upcard
    assert exc.value.code == "not_movable"


def test_a_moved_play_survives_the_hand_history():
    s, early = held_hand()
    s.record(PlayMoved(early))
    again = loads(dumps(s))
    assert again.current.held_up() is None and again.balances == s.balances
    assert event_from_dict({"type": "move_play", "target": 3}) == PlayMoved(3)
