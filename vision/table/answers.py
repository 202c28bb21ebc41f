"""Answers to the camera's asks from the true record of the hands: how an offline run (a video and
the hands it shows) finishes every hand without a person, and counts the asks it took.

The answer file is a hand history in the format ``chratze replay`` reads (``docs/hand-history.md``):
its k-th hand answers the asks of the session's k-th hand. An ask for the upcard takes the record's
next upcard; an ask for a play by a player takes that player's next play in the record.
"""

from __future__ import annotations

from pathlib import Path

from engine import history
from engine.events import CardPlayed, Event, UpcardShown

from .watch import Ask, Watcher


class RecordAnswers:
    def __init__(self, hands: list[list[Event]]) -> None:
        self.hands = hands
        self.given = 0

    @classmethod
    def load(cls, path: Path) -> RecordAnswers:
        """Raises OSError, UnicodeDecodeError or history.HistoryError for a file that is no hand history."""
        session = history.loads(Path(path).read_text(encoding="utf-8"))
        return cls([hand.events for hand in session.hands])

    def __call__(self, watcher: Watcher, ask: Ask) -> str | None:
        """The true card for ``ask``, or None where the record does not say (a person must answer)."""
        hand, k = watcher.hand, len(watcher.session.hands) - 1
        if hand is None or not 0 <= k < len(self.hands):
            return None
        truth = self.hands[k]
        if ask.event == UpcardShown.type:
            cards = [ev.card.code for ev in truth if isinstance(ev, UpcardShown)]
            n = len(hand.upcards)
        else:
            cards = [ev.card.code for ev in truth if isinstance(ev, CardPlayed) and ev.player == ask.player]
            n = sum(isinstance(ev, CardPlayed) and ev.player == ask.player for ev in hand.events)
        if n >= len(cards):
            return None
        self.given += 1
        return cards[n]
