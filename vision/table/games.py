"""What the watcher asks of the game being refereed: the one place the live table tells Chratze from
Kratzen. The watcher (:mod:`vision.table.watch`) is the same for both; a game says which cards its pack
holds, what has been played, and what a card lying at a place becomes in the hand's phase now.

Both games record from the camera only what lies face up: the upcards turned and the cards played.
What the camera cannot see (the cut, bids and contracts, play or drop, the exchange, the cards bought
face up) is tapped in, as bids are in Chratze.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.cards import DECK, Card
from engine.events import CardPlayed, Event
from engine.hand import Hand
from engine.kratzen import PACK as KRATZEN_PACK
from engine.kratzen_hand import KratzenHand
from engine.kratzen_session import KratzenSession

from .layout import UPCARD


@dataclass(frozen=True)
class TrickView:
    """A trick as the watcher needs it, whichever game: its number, its cards and who played them in play
    order, its winner."""

    number: int
    cards: tuple[str, ...]
    players: tuple[str, ...]
    winner: str | None = None  # None while it is in progress

    def player_of(self, code: str) -> str | None:
        """Who the record says played ``code`` in this trick (None: nobody)."""
        return dict(zip(self.cards, self.players)).get(code)

    def card_of(self, player: str) -> str | None:
        """The card the record holds as ``player``'s in this trick (None: none yet)."""
        return dict(zip(self.players, self.cards)).get(player)


class ChratzeTable:
    """Chratze at the table (RULES.md): the upcard lies face up through the auction, the trump 6 may be
    swapped for it, and bids and exchanges are tapped in."""

    name = "chratze"
    pack = frozenset(c.code for c in DECK)
    swaps = True  # the trump 6 may be swapped for the upcard (the watcher follows the upcard)
    # The upcard (or the trump 6 swapped for it) lies on its spot all hand and plays lie at the players'
    # places: with zones, another card found on the spot is the upcard read again, never a play.
    upcard_stays = True

    @staticmethod
    def turning(hand: Hand) -> bool:
        """A card laid now is an upcard."""
        return hand.phase == "deal"

    @staticmethod
    def dealing(hand: Hand) -> bool:
        """Cards laid at a seat now are not played yet: they wait without holding up the upcard."""
        return hand.phase == "deal"

    @staticmethod
    def playing(hand: Hand) -> bool:
        """The record awaits plays: the exchange is all entered (a first card closes it, as the engine says)."""
        return hand.phase == "play" or (hand.phase == "exchange" and hand.exchange_pos >= len(hand.exchange_order))

    @staticmethod
    def played(hand: Hand) -> set[str]:
        return {c.code for c in hand.seen}

    @staticmethod
    def face_up(hand: Hand) -> set[str]:
        """Cards face up on the table out of play (the upcards): never a new play."""
        return {c.code for c in hand.table_cards}

    @staticmethod
    def tricks(hand: Hand) -> list[TrickView]:
        return [_view(hand, t.number, t.plays, t.winner) for t in hand.tricks]

    @staticmethod
    def trick(hand: Hand) -> TrickView | None:
        t = hand.trick
        return None if t is None else _view(hand, t.number, t.plays)

    @staticmethod
    def event_for(hand: Hand, c: Card, seat: str | None, place: str | None) -> tuple[Event | None, str]:
        """What ``c``, lying at ``seat`` (a player's place, or None), becomes after the deal."""
        if hand.phase in ("auction", "joining"):
            return None, f"{c.code} was laid during the bidding: tap in the bids"
        if hand.phase == "exchange" and hand.exchange_pos < len(hand.exchange_order):
            return None, f"{c.code} was laid before the exchange was entered: tap in the exchanges"
        return _play(hand, c, seat)


class KratzenTable:
    """Kratzen at the table (docs/kratzen.md): the cards turned (the upcard, a Weli turned and another,
    the cards Oder and Weiter-Oder turn) are the camera's; the cut, the contracts, play or drop and the
    exchange are tapped. The turned cards are the dealer's: they are taken up before the first card is
    played, so a card on the upcard spot during the play is no play."""

    name = "kratzen"
    pack = frozenset(c.code for c in KRATZEN_PACK)
    swaps = False
    upcard_stays = False  # the turned cards are taken up before the play (event_for: no play there)

    @staticmethod
    def turning(hand: KratzenHand) -> bool:
        return hand.phase in ("deal", "oder", "weiter_oder")

    @staticmethod
    def dealing(hand: KratzenHand) -> bool:
        return hand.phase in ("cut", "deal")

    @staticmethod
    def playing(hand: KratzenHand) -> bool:
        return hand.phase == "play"

    @staticmethod
    def played(hand: KratzenHand) -> set[str]:
        return {c.code for c in hand.seen}

    @staticmethod
    def face_up(hand: KratzenHand) -> set[str]:
        """The turned cards lie face up until play: a new sight of one before then is that card again."""
        return {c.code for c in hand.upcards} if hand.phase != "play" else set()

    @staticmethod
    def tricks(hand: KratzenHand) -> list[TrickView]:
        return [_view(hand, k + 1, t, w) for k, (t, w) in enumerate(zip(hand.tricks, hand.winners()))]

    @staticmethod
    def trick(hand: KratzenHand) -> TrickView | None:
        if hand.phase != "play":
            return None
        return _view(hand, len(hand.tricks) + 1, hand.trick)

    @staticmethod
    def event_for(hand: KratzenHand, c: Card, seat: str | None, place: str | None) -> tuple[Event | None, str]:
        if hand.phase == "cut":
            return None, f"{c.code} lies on the table before the cut was entered: tap in the cut"
        if hand.phase in ("contract", "join"):
            return None, f"{c.code} was laid during the contracts: tap in the contracts and who plays"
        if hand.phase == "exchange":
            return None, f"{c.code} was laid before the exchange was entered: tap in the exchanges"
        if place == UPCARD:
            return None, f"{c.code} lies on the upcard spot: the dealer takes the turned cards up before the play"
        return _play(hand, c, seat)


def _view(hand: Any, number: int, plays: list, winner: int | None = None) -> TrickView:
    """Either game's plays (each with a seat ``player`` and a ``card``) as a :class:`TrickView`."""
    return TrickView(number, tuple(p.card.code for p in plays), tuple(hand.seats[p.player] for p in plays),
                     None if winner is None else hand.seats[winner])


def _play(hand: Any, c: Card, seat: str | None) -> tuple[Event | None, str]:
    """The card is played: by the player at whose place it lies, else by the player to play (``by_turn``: a
    correction earlier in the hand that changes who leads seats it anew)."""
    if seat:
        return CardPlayed(seat, c), ""
    turn = hand.whose_turn()
    if turn is None:
        return None, f"{c.code} lies on the table but nobody is to play"
    return CardPlayed(hand.seats[turn], c, by_turn=True), ""


TableGame = type[ChratzeTable] | type[KratzenTable]


def game_of(session: Any) -> TableGame:
    """The game a session records: its class says which."""
    return KratzenTable if isinstance(session, KratzenSession) else ChratzeTable
