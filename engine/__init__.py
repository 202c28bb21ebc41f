"""The Chratze rules engine: pure Python, no I/O, no camera, no HTTP.

A hand record is a list of events (:mod:`engine.events`); :class:`Hand` and :class:`Session`
compute all state from it.
"""

from .cards import DECK, Card, CardError, card, cards
from .events import (
                     BidMade,
                     CardCorrected,
                     CardPlayed,
                     Event,
                     EventError,
                     Exchanged,
                     FlagRuled,
                     HandsKnown,
                     HandStarted,
                     TrumpSixSwapped,
                     Undo,
                     UpcardShown,
                     event_from_dict,
)
from .flags import Flag
from .hand import Hand, IllegalEvent
from .ledger import Payment, settle_up
from .rules import HouseRules, RulesError
from .session import Session
from .settlement import Settlement, settle

__all__ = [
    "DECK", "Card", "CardError", "card", "cards", "BidMade", "CardCorrected", "CardPlayed", "Event",
    "EventError", "Exchanged", "FlagRuled", "HandsKnown", "HandStarted", "TrumpSixSwapped", "Undo",
    "UpcardShown", "event_from_dict", "Flag", "Hand", "IllegalEvent", "Payment", "settle_up",
    "HouseRules", "RulesError", "Session", "Settlement", "settle",
]
