"""The events a hand record is made of, and their JSON form.

Everything the referee knows comes from these; state is a fold over them
(:mod:`engine.hand`, :mod:`engine.session`). Each event may carry ``meta`` (time, source,
snapshot) that the engine keeps but never reads, so nothing a recorder attached is lost.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable, ClassVar, Mapping

from .cards import Card, CardError, card
from .rules import HouseRules, RulesError

BIDS = ("chratze", "weg", "metcho", "blind", "double_blind")
KRATZEN_BIDS = ("schlagen", "oder", "weiter_oder", "weiter", "mitgehen", "verzichten")  # Kratzen's contracts, play or drop


class EventError(ValueError):
    """A record that is not a well-formed event (missing field, wrong type, unknown card)."""


@dataclass(frozen=True)
class Event:
    type: ClassVar[str] = ""
    meta: Mapping[str, Any] | None = field(default=None, kw_only=True, compare=False)

    def with_meta(self, **meta: Any) -> "Event":
        """The same event with more recorder meta (time, source, snapshot); the engine never reads it."""
        return replace(self, meta={**(self.meta or {}), **meta})

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.type}
        data.update(self._payload())
        if self.meta:
            data["meta"] = dict(self.meta)
        return data

    def _payload(self) -> dict[str, Any]:
        return {}


@dataclass(frozen=True)
class HandStarted(Event):
    """A new deal: seats in play order, the dealer, the ante paid and the pot carried in."""

    type: ClassVar[str] = "hand_started"
    seats: tuple[str, ...]
    dealer: str
    ante: int
    carried: int = 0

    def _payload(self) -> dict[str, Any]:
        return {"seats": list(self.seats), "dealer": self.dealer, "ante": self.ante, "carried": self.carried}


@dataclass(frozen=True)
class UpcardShown(Event):
    type: ClassVar[str] = "upcard"
    card: Card

    def _payload(self) -> dict[str, Any]:
        return {"card": self.card.code}


@dataclass(frozen=True)
class BidMade(Event):
    type: ClassVar[str] = "bid"
    player: str
    bid: str

    def _payload(self) -> dict[str, Any]:
        return {"player": self.player, "bid": self.bid}


@dataclass(frozen=True)
class Exchanged(Event):
    """A player laid down ``count`` cards; which ones is never known."""

    type: ClassVar[str] = "exchange"
    player: str
    count: int

    def _payload(self) -> dict[str, Any]:
        return {"player": self.player, "count": self.count}


@dataclass(frozen=True)
class TrumpSixSwapped(Event):
    type: ClassVar[str] = "trump_six_swap"
    player: str

    def _payload(self) -> dict[str, Any]:
        return {"player": self.player}


@dataclass(frozen=True)
class HandsKnown(Event):
    """Known-hands mode: each active player's hand as it stands when play begins."""

    type: ClassVar[str] = "hands_known"
    hands: Mapping[str, tuple[Card, ...]]

    def _payload(self) -> dict[str, Any]:
        return {"hands": {p: [c.code for c in cs] for p, cs in self.hands.items()}}


@dataclass(frozen=True)
class CutShown(Event):
    """Kratzen: the cards a cut showed (the bottom card of the top packet, and of the lower one where
    the first is a Seven, a Sau or the Weli): engine.kratzen.cut_outcome says what follows."""

    type: ClassVar[str] = "cut"
    cards: tuple[Card, ...]

    def _payload(self) -> dict[str, Any]:
        return {"cards": [c.code for c in self.cards]}


@dataclass(frozen=True)
class CardsShown(Event):
    """Kratzen: cards a player drew face up in the exchange (the fourth and fifth): each trump among
    them brings an extra card, the trump Sau five."""

    type: ClassVar[str] = "shown"
    player: str
    cards: tuple[Card, ...]

    def _payload(self) -> dict[str, Any]:
        return {"player": self.player, "cards": [c.code for c in self.cards]}


@dataclass(frozen=True)
class CardPlayed(Event):
    """``by_turn``: the card was seen laid (on a pile), not at a seat's place, so it is the play of whoever
    is to play: ``player`` is who that was when it was recorded, and a correction earlier in the hand that
    changes who leads seats it anew."""

    type: ClassVar[str] = "play"
    player: str
    card: Card
    by_turn: bool = False

    def _payload(self) -> dict[str, Any]:
        seat = {"by_turn": True} if self.by_turn else {}
        return {"player": self.player, "card": self.card.code, **seat}


@dataclass(frozen=True)
class FlagRuled(Event):
    """The table's decision on a flag: upheld or dismissed. ``hand`` (numbered from 1) rules on a flag of
    an earlier hand, as a dispute settled later in the evening; None: the current hand."""

    type: ClassVar[str] = "flag_ruled"
    flag: str
    upheld: bool
    hand: int | None = None

    def _payload(self) -> dict[str, Any]:
        return {"flag": self.flag, "upheld": self.upheld, **({"hand": self.hand} if self.hand is not None else {})}


@dataclass(frozen=True)
class RulesChanged(Event):
    """The table's house rules from the next hand on; recorded between hands only."""

    type: ClassVar[str] = "rules_changed"
    rules: HouseRules

    def _payload(self) -> dict[str, Any]:
        return {"rules": self.rules.to_dict()}


@dataclass(frozen=True)
class Undo(Event):
    """Retract the last event still in effect (corrections included)."""

    type: ClassVar[str] = "undo"


@dataclass(frozen=True)
class CardCorrected(Event):
    """Replace the card of an earlier upcard or play event (a misread), by log position."""

    type: ClassVar[str] = "correct_card"
    target: int
    card: Card

    def _payload(self) -> dict[str, Any]:
        return {"target": self.target, "card": self.card.code}


@dataclass(frozen=True)
class PlayMoved(Event):
    """Take an earlier play (by log position) as made now: a card laid before the trick in front of it
    was complete belongs to a later trick. Undone like any event; the play keeps its log position."""

    type: ClassVar[str] = "move_play"
    target: int

    def _payload(self) -> dict[str, Any]:
        return {"target": self.target}


EVENT_TYPES: dict[str, type[Event]] = {
    cls.type: cls
    for cls in (HandStarted, UpcardShown, BidMade, Exchanged, TrumpSixSwapped, HandsKnown,
                CardPlayed, FlagRuled, RulesChanged, Undo, CardCorrected, PlayMoved, CutShown, CardsShown)
}


def _need(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    if key not in data:
        raise EventError(f"missing field {key!r}")
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        want = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
        raise EventError(f"field {key!r} must be {want}, got {value!r}")
    return value


def _name(data: Mapping[str, Any], key: str) -> str:
    value = _need(data, key, str).strip()
    if not value:
        raise EventError(f"field {key!r} must not be empty")
    return value


def _flag(data: Mapping[str, Any], key: str) -> bool:
    """An optional true/false field, false where absent."""
    return _need(data, key, bool) if key in data else False


def seated_by_turn(event: Event, seats: tuple[str, ...], whose_turn: Callable[[], int | None]) -> Event:
    """A play recorded ``by_turn`` as the play of the seat to play now (as recorded where nobody is); any other
    event as it is. ``whose_turn`` is asked only for such a play."""
    if not (isinstance(event, CardPlayed) and event.by_turn):
        return event
    turn = whose_turn()
    return event if turn is None or seats[turn] == event.player else replace(event, player=seats[turn])


def _card(data: Mapping[str, Any], key: str) -> Card:
    try:
        return card(_need(data, key, str))
    except CardError as exc:
        raise EventError(f"field {key!r}: {exc}") from None


def event_from_dict(data: Any) -> Event:
    """Build an event from its JSON form; raises EventError naming what is wrong."""
    if not isinstance(data, Mapping):
        raise EventError(f"an event must be an object, got {type(data).__name__}")
    kind = data.get("type")
    cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise EventError(f"unknown event type {kind!r}; known: {', '.join(EVENT_TYPES)}")
    meta = data.get("meta") or {}
    if not isinstance(meta, Mapping):
        raise EventError("field 'meta' must be an object")
    return _BUILDERS[cls](data, dict(meta) or None)


def _hand_started(d: Mapping[str, Any], meta: dict) -> HandStarted:
    seats = _need(d, "seats", list)
    if not all(isinstance(s, str) and s.strip() for s in seats):
        raise EventError("field 'seats' must be a list of player names")
    ante = _need(d, "ante", int)
    carried = d.get("carried", 0)
    if not isinstance(carried, int) or isinstance(carried, bool):
        raise EventError(f"field 'carried' must be an integer (Rappen), got {carried!r}")
    return HandStarted(tuple(s.strip() for s in seats), _name(d, "dealer"), ante, carried, meta=meta)


def _hands_known(d: Mapping[str, Any], meta: dict) -> HandsKnown:
    raw = _need(d, "hands", Mapping)
    hands: dict[str, tuple[Card, ...]] = {}
    for player, tokens in raw.items():
        if not isinstance(tokens, list):
            raise EventError(f"hand of {player!r} must be a list of cards")
        try:
            hands[str(player)] = tuple(card(t) for t in tokens)
        except CardError as exc:
            raise EventError(f"hand of {player!r}: {exc}") from None
    return HandsKnown(hands, meta=meta)


def _bid(d: Mapping[str, Any], meta: dict) -> BidMade:
    bid = _need(d, "bid", str).strip().lower().replace(" ", "_")
    if bid not in BIDS + KRATZEN_BIDS:
        raise EventError(f"unknown bid {bid!r}; known: {', '.join(BIDS + KRATZEN_BIDS)}")
    return BidMade(_name(d, "player"), bid, meta=meta)


def _cards(d: Mapping[str, Any], key: str) -> tuple[Card, ...]:
    tokens = _need(d, key, list)
    try:
        return tuple(card(t) for t in tokens)
    except (CardError, TypeError) as exc:
        raise EventError(f"field {key!r}: {exc}") from None


def _hand_number(d: Mapping[str, Any]) -> int | None:
    if d.get("hand") is None:
        return None
    n = _need(d, "hand", int)
    if n < 1:
        raise EventError(f"field 'hand' is a hand's number, from 1, not {n}")
    return n


def _rules_changed(d: Mapping[str, Any], meta: dict) -> RulesChanged:
    try:
        return RulesChanged(HouseRules.from_dict(dict(_need(d, "rules", Mapping))), meta=meta)
    except (RulesError, TypeError) as exc:
        raise EventError(f"field 'rules': {exc}") from None


_BUILDERS = {
    HandStarted: _hand_started,
    UpcardShown: lambda d, m: UpcardShown(_card(d, "card"), meta=m),
    BidMade: _bid,
    Exchanged: lambda d, m: Exchanged(_name(d, "player"), _need(d, "count", int), meta=m),
    TrumpSixSwapped: lambda d, m: TrumpSixSwapped(_name(d, "player"), meta=m),
    HandsKnown: _hands_known,
    CardPlayed: lambda d, m: CardPlayed(_name(d, "player"), _card(d, "card"), _flag(d, "by_turn"), meta=m),
    FlagRuled: lambda d, m: FlagRuled(_name(d, "flag"), _need(d, "upheld", bool), _hand_number(d), meta=m),
    RulesChanged: _rules_changed,
    Undo: lambda d, m: Undo(meta=m),
    CardCorrected: lambda d, m: CardCorrected(_need(d, "target", int), _card(d, "card"), meta=m),
    PlayMoved: lambda d, m: PlayMoved(_need(d, "target", int), meta=m),
    CutShown: lambda d, m: CutShown(_cards(d, "cards"), meta=m),
    CardsShown: lambda d, m: CardsShown(_name(d, "player"), _cards(d, "cards"), meta=m),
}
