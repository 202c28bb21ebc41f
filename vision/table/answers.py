"""Answers to the camera's asks from the true record of the hands: how an offline run (a video and
the hands it shows) finishes every hand without a person, and counts the asks it took.

The answer file is a hand history in the format ``chratze replay`` reads (``docs/hand-history.md``):
its k-th hand answers the asks of the session's k-th hand. An ask for the upcard takes the record's
next upcard; an ask which card lies at a player's place takes that player's next play in the record;
an ask whether a player's card was missed takes the record's next play where it is theirs, else
``none``. An ask about a trick gathered short is answered as a person looking at the trick would: the
first card of it the record does not hold where it was played is the card missed, named with its
player, where moving the later plays a seat on gives the trick as played; otherwise (a misread is mixed
in) the player asked is named their own card, seat by seat. An ask whether a card of the trick out of
sight lies there still is answered yes (its code) where the record holds it as played, else left open. An
ask about a play recorded again (the table named its card for another play), or about the pile's top card
read as another (misread, or a card laid on it?), takes that player's card of that trick in the record.
"""

from __future__ import annotations

from pathlib import Path

from engine import history
from engine.events import CardPlayed, Event, UpcardShown

from .watch import Ask, Watcher


class RecordAnswers:
    def __init__(self, hands: list[list[Event]]) -> None:
        self.hands = hands

    @classmethod
    def load(cls, path: Path) -> RecordAnswers:
        """Raises OSError, UnicodeDecodeError or history.HistoryError for a file that is no hand history."""
        session = history.loads(Path(path).read_text(encoding="utf-8"))  # an evening of either game
        return cls([hand.events for hand in session.hands])

    def __call__(self, watcher: Watcher, ask: Ask) -> str | tuple[str, str] | None:
        """The true card for ``ask`` (for a gathered trick, the card missed and whose it was), or None
        where the record does not say (a person must answer)."""
        hand, k = watcher.hand, len(watcher.session.hands) - 1
        if hand is None or not 0 <= k < len(self.hands):
            return None
        truth = self.hands[k]
        if ask.kind == "missed":  # did the player lay the next card of the record? else none was missed
            plays = [ev for ev in truth if isinstance(ev, CardPlayed)]
            n = sum(isinstance(ev, CardPlayed) for ev in hand.events)
            return plays[n].card.code if n < len(plays) and plays[n].player == ask.player else "none"
        if ask.kind in ("again", "laid_on"):  # a play the camera recorded, asked about: the player's card
            return self._play_in_trick(watcher, ask.player, ask.trick, truth)
        if ask.kind == "vanished":  # out of sight while the trick lies: still there, where it was played there
            return ask.read if self._play_in_trick(watcher, ask.player, ask.trick, truth) == ask.read else None
        if ask.event == UpcardShown.type:
            cards = [ev.card.code for ev in truth if isinstance(ev, UpcardShown)]
            n = len(hand.upcards)
        elif ask.trick is not None:
            missed = None if ask.late else self._missed(watcher, ask, truth)  # a chain begun goes on seat by seat
            return missed or self._play_in_trick(watcher, ask.player, ask.trick, truth)
        else:
            cards = [ev.card.code for ev in truth if isinstance(ev, CardPlayed) and ev.player == ask.player]
            n = sum(isinstance(ev, CardPlayed) and ev.player == ask.player for ev in hand.events)
        return cards[n] if n < len(cards) else None

    @staticmethod
    def _play_in_trick(watcher: Watcher, player: str, number: int, truth: list[Event]) -> str | None:
        """``player``'s true card in trick ``number``, whatever the record holds in it."""
        cards = [ev.card.code for ev in truth if isinstance(ev, CardPlayed) and ev.player == player]
        n = sum(player in t.players for t in watcher.game.tricks(watcher.hand) if t.number < number)
        return cards[n] if n < len(cards) else None

    def seat_of(self, watcher: Watcher, code: str) -> str | None:
        """Whose card ``code`` is, where the record holds another card of the trick in progress for that player
        and moving each play from theirs on a seat on makes the trick as played: the camera missed ``code`` there
        and recorded the rest a seat early (a person at the table says whose it was); None otherwise."""
        hand, k = watcher.hand, len(watcher.session.hands) - 1
        trick = watcher.game.trick(hand) if hand is not None else None
        turn = hand.whose_turn() if hand is not None else None
        if trick is None or not trick.players or turn is None or not 0 <= k < len(self.hands):
            return None
        missed = self._missed_in(watcher, tuple(zip(trick.players, trick.cards)), hand.seats[turn], trick.number,
                                 self.hands[k])
        return missed[1] if missed is not None and missed[0] == code and missed[1] in trick.players else None

    def _missed(self, watcher: Watcher, ask: Ask, truth: list[Event]) -> tuple[str, str] | None:
        return self._missed_in(watcher, ask.plays, ask.player, ask.trick, truth)

    def _missed_in(self, watcher: Watcher, plays: tuple[tuple[str, str], ...], to_play: str, number: int,
                   truth: list[Event]) -> tuple[str, str] | None:
        """The first card of trick ``number`` (``plays`` recorded, ``to_play`` next) the record does not hold where
        it was played, and its player, where moving each recorded play after it a seat on makes the trick as
        played; None otherwise (a misread is mixed in: a person answers seat by seat, each player's own card)."""
        seats = [p for p, _ in plays] + [to_play]
        recorded = [c for _, c in plays]
        true = [self._play_in_trick(watcher, p, number, truth) for p in seats]
        i = next((k for k, c in enumerate(true) if k == len(recorded) or c != recorded[k]), None)
        if i is None or true[i] is None or true[i] in recorded:
            return None
        if true[i + 1:] != recorded[i:]:
            return None  # the plays after it, a seat on, are not the trick as played
        return true[i], seats[i]


class Unhurried:
    """An answerer that lets each question stand ``after`` seconds of table time first, as a person
    takes a moment to tap (the demo shows its questions on the page before answering them)."""

    def __init__(self, answer, after: float) -> None:
        self.answer, self.after = answer, after

    def __call__(self, watcher: Watcher, ask: Ask) -> str | None:
        return self.answer(watcher, ask) if watcher.now - ask.t >= self.after else None
