"""The live table: stable card events from the camera become the referee's events.

One direction of flow: frames -> reads (:mod:`vision.recognize`) -> stable cards
(:mod:`vision.table.stable`) -> this module -> :class:`engine.session.Session` (Chratze) or
:class:`engine.kratzen_session.KratzenSession`; what differs between the two games is asked of
:mod:`vision.table.games`. What the camera cannot see (bids, contracts, exchanges, the cut, who swapped
the trump 6) is *tapped* in by a person; the watcher records both into the one session log.

What the watcher knows is derived from two things only: the cards the stabilizer says are lying
on the table now, and the record. A card on the table that the record does not account for is
*pending*: it becomes an upcard or a play as soon as the record is ready for it (the bids may
not be tapped in yet: it waits). A card of the trick in progress that vanishes puts the table
*out of sync*: nothing more is recorded until it is back, the play is undone or corrected, or a
person excuses it; one that vanished under cards laid on it later is *covered*, not gone (a
trick played into a pile in the middle). So a card is never recorded twice and never lost.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np

from engine.cards import DECK, card
from engine.events import (BidMade, CardCorrected, CardPlayed, Event, Exchanged, HandsKnown, HandStarted,
                           TrumpSixSwapped, Undo, UpcardShown)
from engine.hand import Hand, IllegalEvent
from engine.kratzen_hand import KratzenHand
from engine.kratzen_session import KratzenSession
from engine.session import Session
from vision.recognize.geometry import box_diagonal, box_iou, box_under, box_within, centre_apart, centre_within

from .games import TableGame, TrickView, game_of
from .layout import UPCARD, TableLayout
from .stable import CardGone, CardLaid, Glimpse, Sides, Stabilizer, Track

ALL_CODES = frozenset(c.code for c in DECK)  # every card a network names; a game's pack may be fewer

UNSEEN_UPCARD = -1  # the key of the ask for an upcard the camera never saw (no track of its own)
ASKED_AGAIN = -100_000  # keys from here down: a recorded play asked again, ASKED_AGAIN - its log position

# Taps that only come once a card is turned up (but double blind, said before it): one the record refuses for
# want of an upcard shows the camera missed it (read too timidly, then taken up for a blind bid: held-out hand
# 701118 waited for good).
AFTER_THE_TURN = (BidMade, Exchanged, TrumpSixSwapped, HandsKnown, CardPlayed)
BEFORE_THE_TURN = "double_blind"


@dataclass
class Notice:
    """Something the page should show now; ``kind`` is recorded | gathered | out_of_sync |
    in_sync | waiting | asking | ask | camera | ignored."""

    kind: str
    text: str
    data: dict[str, Any] = field(default_factory=dict)


# Why a card read is asked about, not recorded (``Watcher._doubt``, in its order): its best read was overruled
# by the rules; a card was thrown onto it first; it was seen coming as another; no read was clear and sure; the
# reads were split; read only timidly; a pair this deck confuses; a card moved; a covered card's strip.
DOUBTS = ("overruled", "covered", "way", "unsettled", "split", "timid", "alike", "twin", "strip")


@dataclass
class Ask:
    """A card the camera is not sure of. The record waits until the table names it (a tap on the
    page, or an answer file offline): a referee never records a guess."""

    id: int
    track: int
    read: str  # the camera's best read
    choices: list[tuple[str, float]]  # the likely cards, best first, with their vote shares
    box: tuple[float, float, float, float]  # where it lies in the frame
    place: str | None
    event: str  # the event it will become: upcard or play
    player: str | None  # who plays it, where known
    why: str
    t: float
    snapshot: str | None = None  # the frame it was asked on (the page shows the crop)
    seen_at: float | None = None  # when its picture should be: a card covered since, last seen then (else ``t``)
    # card: which card lies there; missed: did ``player`` lay a card the camera did not see; gathered: the
    # trick was taken in before the camera saw ``player``'s card: which was it; upcard: play began at a
    # player's place, but the camera never saw the upcard turned: which is it; vanished: does ``read``, a card
    # of the trick out of sight while the rest lies, lie there still; again: the camera recorded ``read`` as
    # ``player``'s card of ``trick``, and the table has named it since for another play: which was ``player``'s;
    # laid_on: the camera recorded ``read`` as ``player``'s card of ``trick``, the pile's top card, and now reads
    # it as another, ``plays[0]``'s card (the next player's): was ``read`` misread, or that card laid on it?
    kind: str = "card"
    cause: str = ""  # a card ask: the rule that doubted the camera's read (one of ``DOUBTS``)
    trick: int | None = None  # a gathered ask: the trick whose card it asks for
    # a gathered ask: the card recorded for ``player`` in that trick, which the table said was the next seat's
    late: str | None = None
    # a gathered ask: the trick's plays as recorded, (player, card) in play order; the card missed may be
    # any of these players' (the plays after it were then recorded a seat early) or ``player``'s own; so may a
    # card ask's for a play, laid before the cards thrown onto it; a laid_on ask: the card that may lie on
    # ``read``, with the player it would be
    plays: tuple[tuple[str, str], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "read": self.read, "choices": [c for c, _ in self.choices],
                "shares": [s for _, s in self.choices], "box": [round(x, 1) for x in self.box],
                "place": self.place, "event": self.event, "player": self.player, "why": self.why,
                "t": round(self.t, 3), "snapshot": self.snapshot,
                "seen_at": None if self.seen_at is None else round(self.seen_at, 3), "cause": self.cause,
                "trick": self.trick, "late": self.late, "plays": [list(p) for p in self.plays]}


@dataclass(frozen=True)
class CameraCheck:
    """Something about the camera the table should check (the mat out of view, the camera moved): the
    English text, and a code with values for a page in another language."""

    code: str  # mat_unseen | moved
    text: str
    values: dict[str, Any] = field(default_factory=dict)


class AnswerError(ValueError):
    """An answer to an ask that cannot be taken (no such ask, an unknown card)."""


@dataclass
class Seen:
    """A card the stabilizer says lies on the table."""

    track: int
    card: str
    box: tuple[float, float, float, float]
    place: str | None  # upcard, a player, or None (outside the zones, or no zones)
    first_seen: float
    t: float
    support: float
    claimed: str = ""  # why the record already accounts for it ("" = pending)
    replaces: str | None = None  # what this spot was read as before (the stabilizer re-read it)
    confidence: float = 1.0  # mean confidence of the reads naming it
    choices: tuple[tuple[str, float], ...] = ()
    settled: bool = True  # the reads agreed surely (see CardLaid.settled)
    # the table said it was played out of turn, no card of another missed: (that ask's id, whose turn it was)
    out_of_turn: tuple[int, str] | None = None
    named_by: str = "camera"  # "table" once a person named it in answer to an ask
    favoured: str | None = None  # the impossible card the reads named most (see CardLaid.favoured)
    came: tuple[float, ...] = ()  # when it came onto the table: first seen, and before that (Watcher._arrivals)
    thrown: float | None = None  # when it was first seen coming, where it took over the reads of a card under it
    covered: float | None = None  # named only once covered: when it was last seen (see CardLaid.covered)
    way: tuple[str, ...] = ()  # what it was read as on its way, where that is another card (see CardLaid.way)
    held: bool = False  # read surely, it waited only for its turn: a player before it may not have been seen
    gone: float | None = None  # when it was taken away, held and unrecorded (see Watcher.left)
    read_anew: bool = False  # gone, its spot read since as another card: it was never itself (Watcher._laid)
    thrown_in: tuple[str, float] | None = None  # read as a card played already where this card, first seen coming
    # then, was thrown: asked which (Watcher._thrown_there)

    @property
    def played_at(self) -> float:
        """When it was played, for the order of play: a card thrown onto another is read there only some frames
        after it lands, and a card thrown after it may be read sooner (held-out pile hands 701506, 701561: the
        later card was asked for as the seat in turn's, and every play after it went to the wrong seat)."""
        return self.first_seen if self.thrown is None else min(self.thrown, self.first_seen)


class Watcher:
    def __init__(self, session: Session | KratzenSession, layout: TableLayout | None = None,
                 stabilizer: Stabilizer | None = None,
                 on_record: Callable[[int, Event], None] | None = None) -> None:
        self.session = session
        self.layout = layout
        self.stabilizer = stabilizer or Stabilizer()
        self.on_record = on_record
        self.seen: dict[int, Seen] = {}
        # cards held for their turn that were taken away unrecorded: the trick may have been gathered before
        # the camera saw the card of the player to play (held-out 701740), so they are still to be accounted for;
        # and cards not yet recorded that a card thrown onto them covered (held-out pile 702455)
        self.left: dict[int, Seen] = {}
        self.vanished: dict[str, Seen] = {}  # the last sight of each card that left the table
        self.excused: set[str] = set()  # vanished cards a person said to let go
        self.no_card: set[int] = set()  # tracks the table said hold no card (an ask answered none)
        self.gathered: set[tuple[int, int]] = set()  # (hand number, trick number) announced
        self.hand_number = len(session.hands)
        self.state, self.reason = "watching", ""
        self.refused = ""  # a tap the record could not take yet (the caller tries it again)
        self.camera = "ok"
        self.to_mat: np.ndarray | None = None
        self.warning: CameraCheck | None = None  # what the table should check, shown on the page
        self.now = 0.0  # the time of the last frame
        self.asks: dict[int, Ask] = {}  # open asks by id
        self.asked = 0  # asks made so far (a figure beside wrong card events)
        self._ask_of: dict[int, int] = {}  # track -> its open ask
        self._upcard_trail: list[tuple[float, str]] = []  # (t, place) of reads of the upcard while it may be swapped
        # when a tap AFTER_THE_TURN was refused for want of an upcard, and how many upcards the record held then
        self._tapped_unturned: tuple[float, int] | None = None
        self.alikes: dict[str, set[str]] = {}  # a taught deck's pairs it confuses: {code: its look-alikes}
        self._gone_at: dict[str, float] = {}  # when each vanished card's track ended
        self._timid_at: dict[str, float] = {}  # when each vanished card was last read timidly where it lay (_sighted)
        # a gathered trick recorded a seat late: {trick number: [(player, card the table named), ...]}
        self._late: dict[int, list[tuple[str, str]]] = {}
        # every card recorded on the trick in progress, short of cards, is out of sight and under no card seen:
        # the camera missed a card thrown onto them, or the trick was gathered before it saw one (live.py looks
        # closer at once, not only once the gathered question is asked)
        self.trick_unseen = False
        self._play_from: float | None = None  # when the record of this hand came to await plays
        self._kept: set[int] = set()  # plays asked again that the table said the camera read right (log positions)
        self._twice_at: tuple[int, ...] = ()  # the record and table as _ask_again last looked at them
        hand = self.hand  # a record continued: a hand already over was gathered before this camera looked
        if hand is not None and hand.phase == "done":
            self.gathered = {(len(session.hands), t.number) for t in self.game.tricks(hand)}

    # ------------------------------------------------------------------ inputs
    def reads(self, reads: list, t: float, meta: dict[str, Any] | None = None, sides: Sides | None = None) -> list[Notice]:
        """One frame's card reads (time ``t``; ``sides``: see :meth:`Stabilizer.update`); returns what changed."""
        notices = self._camera_state("ok") if self.camera != "ok" else []
        self.now = t
        self._new_hand_check()
        self._follow_upcard(reads, t)
        for ev in self.stabilizer.update(reads, t, self.impossible(), sides):
            if isinstance(ev, CardLaid):
                self._laid(ev)
            elif isinstance(ev, CardGone) and ev.track in self.seen:
                gone = self.seen.pop(ev.track)
                self.vanished[gone.card] = gone
                self._gone_at[gone.card] = ev.t
                if (gone.held or ev.covered) and not gone.claimed:  # waiting for its turn, or under a card
                    gone.gone = None if ev.covered else ev.t  # thrown onto it: it lies there still
                    self.left[ev.track] = gone  # its question, if one is open, stands
                else:
                    notices += self._unask(ev.track)
        self._sighted(t)
        if self._play_from is None and self.hand is not None and self.game.playing(self.hand):
            self._play_from = t
        for ev in self._unread_over(t) + self._unread_upcard(t) + self._unread_lead(t):
            self._laid(ev)
        notices += self._sync(meta or {})
        return notices

    def tap(self, event: Event) -> tuple[int, list[Notice]]:
        """An event a person entered; raises IllegalEvent (nothing changes) when it cannot happen."""
        try:
            pos = self._record(event)
        except IllegalEvent:
            self._note_unturned(event)
            raise
        self.refused = ""
        self._new_hand_check()
        return pos, self._sync({})

    def answer(self, ask_id: int, code: str, player: str | None = None) -> list[Notice]:
        """The table names the card of an ask; it is recorded as named. To a ``missed`` ask, ``none``
        says no card was missed (the card at the other place was played out of turn), and to a ``card`` one
        that no card lies there (:meth:`_no_card`); to a ``gathered`` one, ``player`` says whose card the camera
        missed (one of the trick's players: the plays after theirs move a seat on), or else a card the record
        holds as another player's of that trick asks that player next; to an ``upcard`` one, the card is recorded
        as the upcard the camera never saw; to a ``vanished`` one, naming its card says it lies there still; to an
        ``again`` one, another card than the camera's corrects the play, the camera's own keeps it.
        Raises AnswerError (or IllegalEvent for a card the record cannot take), nothing changed, for an
        ask that is not open, a code that is no card, or a player the ask cannot take."""
        ask = self.asks.get(ask_id)
        if ask is None:
            raise AnswerError(f"no open question {ask_id} (open: {sorted(self.asks) or 'none'})")
        named = None if ask.kind in ("missed", "card") and code.strip().lower() == "none" else _code(code)
        seen = self.seen.get(ask.track) or self.left.get(ask.track)  # closed when it leaves, unless held (left)
        if player not in (None, ask.player):  # a card of another seat: one the camera missed in this trick
            if ask.kind == "gathered":
                return self._answer_missed_at(ask, named, player)
            if ask.kind == "card" and ask.plays and named is not None:  # the seats the question offered
                return self._answer_seat_before(ask, named, player, seen)
            raise AnswerError(f"question {ask_id} asks for {ask.player or 'the upcard'}'s card, not {player}'s")
        if ask.kind == "gathered":
            return self._answer_gathered(ask, named)
        if ask.kind == "again":
            return self._answer_again(ask, named)
        if ask.kind == "laid_on":
            return self._answer_laid_on(ask, named, seen)
        if ask.kind == "vanished":  # it lies there still: the page's "carry on without" it, asked for
            if named != ask.read:
                raise AnswerError(f"question {ask_id} asks whether {ask.read} still lies on the trick: answer "
                                  f"{ask.read}, or put it back, or correct the record")
            self.excused.add(named)
            self._close(ask.track)
            return self._sync({})
        if ask.kind == "upcard":  # no trick card: nothing to excuse (swapped and played, it is watched as any)
            self._record(UpcardShown(card(named)).with_meta(source="table", asked=ask.id, t=round(self.now, 3)))
            self._close(ask.track)
            return self._sync({})
        if ask.kind == "card" and named is None:
            return self._no_card(ask)
        if ask.kind == "missed" and named is not None:  # the card the camera did not see
            self._record(CardPlayed(ask.player, card(named)).with_meta(source="table", asked=ask.id,
                                                                      t=round(self.now, 3)))
            self.excused.add(named)  # never seen on the table, so never missing from it
        elif ask.kind == "missed":
            seen.out_of_turn = (ask.id, ask.player)  # the table says so: recorded (and flagged) as played
        else:
            if seen.thrown_in is not None and seen.thrown_in[0] == named:  # it came then, onto the card it was read as
                seen.came, seen.thrown = (seen.thrown_in[1],), seen.thrown_in[1]
            seen.card, seen.named_by = named, "table"
            self.stabilizer.rename(ask.track, named)
        self._close(ask.track)
        return self._sync({})

    def _no_card(self, ask: Ask) -> list[Notice]:
        """No card lies where the camera read one (the cloth, a hand, a shadow): its reads are no card for as
        long as the tracker follows them, so they hold up nothing and make no card impossible elsewhere."""
        self.no_card.add(ask.track)
        self.seen.pop(ask.track, None)
        self.left.pop(ask.track, None)
        self._close(ask.track)
        return [Notice("no_card", f"no card lies where the camera read {ask.read}: the table says so",
                       {"id": ask.id, "read": ask.read})] + self._sync({})

    def _answer_gathered(self, ask: Ask, named: str) -> list[Notice]:
        """The card ``ask.player`` laid on a trick gathered short. Where the record holds it as another
        player's card of that trick, the camera missed a card earlier in the trick and recorded each one
        after it a seat late: that player is asked next, until a card the record does not hold names the
        one missed; then the plays are moved up a seat (corrections) and the last one is recorded."""
        trick = self.game.trick(self.hand)
        chain = self._late.get(trick.number, [])
        earlier = next((p for p, c in chain if c == named), None)
        if earlier is not None:
            raise AnswerError(f"{named} was named already, as {earlier}'s card of trick {trick.number}")
        chain = [*chain, (ask.player, named)]
        holder = trick.player_of(named)
        if holder is not None and holder not in {p for p, _ in chain}:
            self._close(ask.track)
            self._late[trick.number] = chain  # ask the holder which card was theirs
            return self._sync({})
        return self._settle(trick, chain, ask)

    def _answer_again(self, ask: Ask, named: str) -> list[Notice]:
        """The card ``ask.player`` played in ``ask.trick``: another than the camera's read corrects the play (and
        all after it is derived anew); the camera's read kept leaves the table's other naming to the review,
        where it stands flagged as a card played twice."""
        position = ASKED_AGAIN - ask.track
        if named == ask.read:
            self._kept.add(position)
        else:
            self._record(CardCorrected(position, card(named)).with_meta(source="table", asked=ask.id,
                                                                        t=round(self.now, 3)))
        self._close(ask.track)
        return self._sync({})

    def _answer_laid_on(self, ask: Ask, named: str, seen: Seen | None) -> list[Notice]:
        """``ask.player``'s card, asked where the pile's top card reads as another: named as it reads now, it was
        misread (the correction is recorded); named otherwise, it stands (or is corrected to the card named), and
        what reads there now is the card the question named as laid on it, the next play."""
        if seen is not None:
            seen.named_by = "table"  # the table chose between the two: either card is its word
        if seen is None or named != seen.card:
            if named != ask.read:
                target = self._recorded_at(ask.read)
                if target is None:
                    raise AnswerError(f"{ask.read} is no longer recorded as {ask.player}'s card")
                self._record(CardCorrected(target, card(named)).with_meta(source="table", asked=ask.id,
                                                                          t=round(self.now, 3)))
            if seen is not None:
                was = self.vanished.get(seen.replaces or "")
                if was is not None:
                    was.read_anew = False  # it lies under the card read there now
                seen.replaces = None  # a new card: a play
        self._close(ask.track)
        return self._sync({})

    def _answer_missed_at(self, ask: Ask, named: str, player: str) -> list[Notice]:
        """The table says the camera missed ``named``, laid by ``player`` (who has a card recorded in the
        trick gathered short): each play recorded from ``player``'s on was the next seat's. One answer
        sets the trick right, where asking seat by seat took one question a seat."""
        trick, chain = self._missed_chain(ask, named, player)
        return self._settle(trick, chain, ask)

    def _answer_seat_before(self, ask: Ask, named: str, player: str, seen: Seen | None) -> list[Notice]:
        """The card asked about as ``ask.player``'s is ``named``, ``player``'s, whose card the record holds in the
        trick in progress: the camera never named it where it lay before the cards thrown onto it, and recorded
        each play from ``player``'s on a seat early. The plays move a seat on, as for a trick gathered short
        (held-out pile hand 705363: Doris's Kc, covered by Anna's Ac before it was read, was asked about as a
        strip of the 7c under them; named for Anna, it swapped the trick's order and every later play's seat)."""
        hand = self.hand
        trick = self.game.trick(hand) if hand is not None else None
        turn = hand.whose_turn() if trick is not None else None
        if turn is None or player not in trick.players or ask.player != hand.seats[turn]:
            raise AnswerError(f"question {ask.id} asks for {ask.player}'s card, not {player}'s: only a player with "
                              "a card recorded in this trick may have laid it before the cards recorded since")
        trick, chain = self._missed_chain(ask, named, player)
        self._relay(trick, chain, ask.id)
        if seen is not None:
            seen.card, seen.named_by = named, "table"  # recorded now: claimed as played when next looked at
            self.stabilizer.rename(ask.track, named)
        self._close(ask.track)
        return self._sync({})

    def _missed_chain(self, ask: Ask, named: str, player: str) -> tuple[TrickView, list[tuple[str, str]]]:
        """The trick in progress and the seats ``named``, missed at ``player``'s seat, sets right (the order
        :meth:`_relay` takes); raises AnswerError where the record or the seats named so far refuse it."""
        trick = self.game.trick(self.hand)
        if player not in trick.players:
            raise AnswerError(f"{player} has no card recorded in trick {trick.number} "
                              f"(its players: {', '.join(trick.players)}, and {ask.player} to play)")
        holder = trick.player_of(named)
        if holder is not None:
            raise AnswerError(f"{named} is recorded as {holder}'s card of trick {trick.number}: "
                              "name the card the camera missed")
        i = trick.players.index(player)
        moved = list(zip([*trick.players[i + 1:], self._to_play()], trick.cards[i:]))  # each a seat on
        chain = [*reversed(moved), (player, named)]  # the order _relay takes: the missed card last
        said = dict(chain)
        for p, c in self._late.get(trick.number, []):
            if said.get(p) != c:
                raise AnswerError(f"{c} was named as {p}'s card of trick {trick.number}; "
                                  f"a card missed at {player}'s seat makes it {said.get(p) or 'no card'}")
        return trick, chain

    def _settle(self, trick: TrickView, chain: list[tuple[str, str]], ask: Ask) -> list[Notice]:
        """The trick gathered short set right as ``chain`` says; only then is ``ask`` closed and its chain
        of seats let go: a chain the record refuses leaves the question, and the seats named, as they were."""
        self._relay(trick, chain, ask.id)
        self._close(ask.track)
        self._late.pop(trick.number, None)
        return self._sync({})

    def _to_play(self) -> str:
        hand = self.hand
        return hand.seats[hand.whose_turn()]

    def _relay(self, trick: TrickView, chain: list[tuple[str, str]], asked: int) -> None:
        """Record what the table named for a trick gathered short, the missed card first: a player whose
        card the record holds gets a correction, the last one a play. All or nothing: a step the record
        refuses undoes the steps before it."""
        meta = {"source": "table", "asked": asked, "t": round(self.now, 3)}
        done = 0
        try:
            for player, code in reversed(chain):
                held = trick.card_of(player)
                if held is not None:
                    self._record(CardCorrected(self._recorded_at(held), card(code)).with_meta(**meta))
                else:
                    self._record(CardPlayed(player, card(code)).with_meta(**meta))
                done += 1
        except IllegalEvent:
            for _ in range(done):
                self._record(Undo())
            raise
        self.excused.add(chain[-1][1])  # never seen on the table, so never missing from it

    def _note_unturned(self, event: Event) -> None:
        """Remember the first refused tap that shows a card was turned while the record awaits one."""
        hand = self.hand
        if not isinstance(event, AFTER_THE_TURN) or getattr(event, "bid", None) == BEFORE_THE_TURN:
            return
        if hand is not None and self.game.turning(hand) and not self._tapped_for(hand):
            self._tapped_unturned = (self.now, len(hand.upcards))

    def _tapped_for(self, hand: Hand | KratzenHand) -> float | None:
        """When a tap was refused for want of the upcard the record awaits now (None: none was)."""
        if self._tapped_unturned is None or self._tapped_unturned[1] != len(hand.upcards):
            return None  # none, or one refused before an upcard that has been recorded since
        return self._tapped_unturned[0]

    def excuse(self, code: str) -> list[Notice]:
        """A person says a vanished card of the trick is fine (e.g. it was knocked under another)."""
        self.excused.add(card(code).code)
        return self._sync({})

    def note_refused(self, text: str, on_notice: Callable[[Notice], None]) -> None:
        """Say once that an entry was refused (it is retried by the caller, frame after frame)."""
        if self.refused != text:
            self.refused = text
            on_notice(Notice("waiting", text))

    def camera_lost(self) -> list[Notice]:
        return self._camera_state("lost") if self.camera != "lost" else []

    # ------------------------------------------------------------------ derived state
    @property
    def hand(self) -> Hand | KratzenHand | None:
        return self.session.current

    @property
    def game(self) -> TableGame:
        """The game the session records (the page may replace the session by one of the other game)."""
        return game_of(self.session)

    def _tricks_now(self, hand: Hand | KratzenHand) -> list[TrickView]:
        """The last trick played out and the one in progress (those whose cards may still lie)."""
        current = self.game.trick(hand)
        return [*self.game.tricks(hand)[-1:], *([current] if current else [])]

    def impossible(self) -> set[str]:
        """Cards a newly seen card cannot be: none of the game's pack, lying elsewhere in view, or played
        earlier this hand (unless it vanished from the trick in progress, or lies under cards thrown onto it: then it may
        be coming back; so may one under the cards of the trick just played out, while that trick still lies)."""
        out = self._in_view() | (ALL_CODES - self.game.pack)
        hand = self.hand
        if hand is not None and hand.phase != "done":
            out |= self.game.played(hand)
            out -= self._out_of_sight() | self._under_last_trick()  # missing or covered: either may show again
        return out

    def _under_last_trick(self) -> set[str]:
        """Cards of the trick just played out that are out of sight while another of it lies in view: a strip of
        one, under the cards thrown onto it, may be read again (tuning pile hands 126, 128, 129: the last card,
        recorded in its turn, closed the trick while a strip under it was still read; its reads named a card
        played already, and their next-best was asked about as the next lead)."""
        played = self.game.tricks(self.hand)[-1:]
        if not played:
            return set()
        codes, on_table = set(played[0].cards), self._in_view()
        return codes - on_table if codes & on_table else set()

    def missing(self) -> set[str]:
        """Cards of the trick in progress that are no longer on the table, nor under cards on it."""
        return self._missing_and_covered()[0]

    def _missing_and_covered(self) -> tuple[set[str], dict[str, str]]:
        """:meth:`missing` and :meth:`covered` from one look at the cards out of sight."""
        gone = self._out_of_sight()
        covered = self.covered(gone)
        return gone - set(covered), covered

    def covered(self, codes: set[str] | None = None) -> dict[str, str]:
        """Which of ``codes`` (default: the trick's cards out of sight) lie under cards laid on them
        since, in view or themselves covered: {card: the card in view on top}. Played into a pile, a
        card vanishes under the next ones; lifting them without it showing again makes it missing
        once more."""
        codes = self._out_of_sight() if codes is None else codes
        gone = sorted((self.vanished[c] for c in codes if c in self.vanished), key=lambda s: -s.first_seen)
        out: dict[str, str] = {}
        under: list[Seen] = []  # cards out of sight found covered: they cover the ones laid before them
        for last in gone:  # latest first
            # a card covers this one if it came after it and was in view before this one was gone (its track
            # ended, or a timid read of it lapsed): a card laid where a gathered trick lay came after the trick had gone
            ended = self._lay_until(last.card)
            over = [s for s in [*self.seen.values(), *under]
                    if any(last.first_seen < came <= ended for came in s.came)]
            if over and box_under(last.box, [s.box for s in over]) >= self.stabilizer.settings.covered:
                out[last.card] = max(over, key=lambda s: (s not in under, s.first_seen)).card  # in view, on top
                under.append(last)
        return out

    def _lay_until(self, code: str) -> float:
        """Until when vanished ``code`` may have lain where it was last seen: its track's end, or a timid read of it
        there ``gone_span`` on, as a counted read keeps a track that long (held-out pile hand 703339: the 6d, landing
        a frame after the Jd's last timid read, was taken to have come after the Jd had gone)."""
        ended = self._gone_at.get(code, float("inf"))
        timid = self._timid_at.get(code)
        return ended if timid is None else max(ended, timid + self.stabilizer.gone_span)

    def _arrivals(self, code: str, first_seen: float, box: tuple[float, float, float, float]) -> tuple[float, ...]:
        """When a card first seen at ``first_seen`` came onto the table: one found again where it lay, by a track
        of its own, as its last track ended (a card thrown onto it took its reads for a moment) came when that
        track came too, so it covers what it covered then as well as what lay there before it was found
        again; and so on, however often it is found again (a tuning pile hand, seed 103). A spot re-read as
        another card since was that card misread: a card of this name near it came only now (held-out pile hand
        702821: the upcard misread as the trump 6 under the gathering hand lent its arrival to the real 6d, laid
        beside it 1 s later, which so covered the trick just gathered)."""
        before = self.vanished.get(code)
        if before is None or before.read_anew:
            return (first_seen,)
        if first_seen - self._gone_at.get(code, -1e9) > self.stabilizer.settings.carried_for:
            return (first_seen,)  # it left the table before: the upcard taken up, played later
        return (*before.came, first_seen) if self._near(before.box, box) else (first_seen,)

    def _near(self, box: tuple[float, float, float, float], other: tuple[float, float, float, float]) -> bool:
        """``other`` lies within ``carried_near`` of the card last seen at ``box``: where it may have come to
        rest, carried on a little."""
        return centre_apart(box, other) <= self.stabilizer.settings.carried_near * box_diagonal(box)

    def _sighted(self, t: float) -> None:
        """A card of the trick in progress out of sight, read again where it lay under its own name but only
        timidly this frame (a strip showing under the cards thrown onto it): it still lay there then, so cards laid
        until now cover it as they would have before its track ended."""
        st = self.stabilizer
        timid = [r for r in st.timid if r.card in self.vanished]
        trick = self._out_of_sight() if timid else set()
        for r in timid:
            if r.card in trick and st.lies_on(self.vanished[r.card].box, r.box):
                self._gone_at[r.card] = max(self._gone_at.get(r.card, t), t)
                self._timid_at[r.card] = t

    def _unread_over(self, t: float) -> list[CardLaid]:
        """Something read only timidly lying over cards of the trick in progress out of sight, that came
        after each of them and before one's track ended and has lain there still for ``cover_rest``: a card
        thrown onto the pile the camera cannot read. It is laid unsettled, so the table is asked which card
        it is before the next card thrown onto it is recorded in its turn (the table stayed out of sync
        before). One read since before a card it lies over came is that card or a strip under it (held-out
        Kratzen pile 701682: a strip read while a hand hid the pile was asked about as a new card)."""
        st = self.stabilizer
        if not st.glimpses:
            return []  # the usual frame: no need to work out what is missing twice
        gone = [self.vanished[c] for c in sorted(self.missing()) if c in self.vanished]
        for g in st.resting(t, st.settings.cover_rest):
            under = [s for s in gone if box_under(s.box, [g.box]) >= st.settings.covered]
            if any(s.first_seen >= g.since for s in under):
                continue  # there before a card it lies over: not thrown onto it
            if any(g.named == s.card for s in under):
                continue  # read as the card it lies over: that card, read timidly where it lies (_sighted)
            if any(g.since <= self._gone_at.get(s.card, float("inf")) for s in under):
                laid = st.adopt(g, t, self.impossible())
                if laid:
                    return laid
        return []

    def _unread_upcard(self, t: float) -> list[CardLaid]:
        """While the record awaits an upcard (the deal, or a new one after everyone passed), something read
        only timidly that has lain still for ``ask_after`` on the upcard spot (anywhere without zones), on
        no card in view: an upcard the camera cannot read. It is laid unsettled, so the table is asked
        which card it is; the bids on it were refused for good before."""
        hand, st = self.hand, self.stabilizer
        if hand is None or not st.glimpses or not self.game.turning(hand):
            return []
        for g in st.resting(t):
            if self.layout is not None and self._place(g.box) != UPCARD:
                continue
            if any(st.lies_on(s.box, g.box) for s in self.seen.values()):
                continue  # a card in view read timidly for a while
            laid = st.adopt(g, t, self.impossible())
            if laid:
                return laid
        return []

    def _unread_lead(self, t: float) -> list[CardLaid]:
        """While the record awaits the lead of a trick and no card of the last trick lies in view, something
        read only timidly that came after they all went out of sight, on no card in view and no card the record
        holds, lying still for ``cover_rest`` (at a player's place, with zones): a lead the camera cannot read.
        It is laid unsettled, so the table is asked which card it is. A lead on the bare cloth gets no
        ``whole_conf`` help (Stabilizer.counts): held-out Kratzen pile 703511 read a whole trick only timidly, asked
        nothing, and recorded the next trick's lead as its lead (six wrong card events)."""
        hand, st = self.hand, self.stabilizer
        resting = st.resting(t, st.settings.cover_rest) if hand is not None else []
        cleared = self._cleared_for_lead(hand) if resting else None  # most frames have nothing resting
        if cleared is None:
            return []
        impossible = self.impossible()
        for g in resting:
            if g.since <= cleared or g.named in impossible:
                continue  # there before the last trick went, or a card the record holds read timidly
            if self.layout is not None and self._place(g.box) in (None, UPCARD):
                continue
            if any(st.lies_on(s.box, g.box) for s in self.seen.values()):
                continue  # a card in view read timidly where it lies
            laid = st.adopt(g, t, impossible)
            if laid:
                return laid
        return []

    def _cleared_for_lead(self, hand: Hand | KratzenHand) -> float | None:
        """When the record came to await a lead with the table clear of the play: the last trick's cards out
        of sight (the latest of them to go, or the play's start); None while it awaits no lead or one lies."""
        if self._play_from is None or hand.whose_turn() is None:
            return None
        current = self.game.trick(hand)
        if current is not None and current.cards:
            return None
        tricks = self.game.tricks(hand)
        last = set(tricks[-1].cards) if tricks else set()
        if last & self._in_view():
            return None
        return max([self._play_from, *(self._gone_at[c] for c in last if c in self._gone_at)])

    def _in_view(self) -> set[str]:
        """The cards the tracker says lie on the table now."""
        return {s.card for s in self.seen.values()}

    def _out_of_sight(self) -> set[str]:
        """Cards of the trick in progress not on the table, less those about to be corrected by a
        re-read and those a person excused."""
        trick = self.game.trick(self.hand) if self.hand is not None else None
        if trick is None:
            return set()
        on_table = self._in_view()
        rereads = {s.replaces for s in self.seen.values() if s.replaces and not s.claimed}
        return set(trick.cards) - on_table - rereads - self.excused

    def pending(self) -> list[Seen]:
        return sorted((s for s in [*self.seen.values(), *self.left.values()] if not s.claimed),
                      key=lambda s: (s.played_at, s.track))

    def status(self) -> dict[str, Any]:
        state, reason = self.state, self.reason
        if state == "watching" and self.refused:
            state, reason = "waiting", self.refused
        missing, covered = self._missing_and_covered()
        return {"state": "camera_lost" if self.camera == "lost" else state, "reason": reason,
                "warning": self.warning.text if self.warning else None,
                "warning_code": self.warning.code if self.warning else None,
                "warning_values": self.warning.values if self.warning else {},
                "asks": [a.to_dict() for a in self.asks.values()], "asked": self.asked,
                "on_table": sorted(s.card for s in self.seen.values()),
                "pending": [s.card for s in self.pending()], "missing": sorted(missing), "covered": covered}

    # ------------------------------------------------------------------ internals
    def _place(self, box: tuple[float, float, float, float]) -> str | None:
        """Where a card's centre lies: "upcard", a player, or None (outside the zones, or no layout)."""
        if self.layout is None:
            return None
        centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
        return self.layout.place(centre, self.hand.seats if self.hand else (), self.to_mat)

    def _laid(self, ev: CardLaid) -> None:
        if ev.track in self.no_card:
            return
        was = self.vanished.get(ev.replaces) if ev.replaces else None
        if was is not None and self.stabilizer.lies_on(was.box, ev.box):
            was.read_anew = True
        place = self._place(ev.box)
        s = Seen(ev.track, ev.card, ev.box, place, ev.first_seen, ev.t, ev.support, replaces=ev.replaces,
                 confidence=ev.confidence, choices=ev.choices, settled=ev.settled, favoured=ev.favoured,
                 came=self._arrivals(ev.card, ev.first_seen, ev.box), thrown=ev.thrown, covered=ev.covered, way=ev.way)
        if self.layout is not None and place is None:
            s.claimed = "outside every zone"
        self.seen[ev.track] = s

    def _follow_upcard(self, reads: list, t: float) -> None:
        """Where the upcard is read while the trump 6 may still be swapped for it: carried off to a
        player's place, it says who took it (:meth:`_swapper`)."""
        hand = self.hand
        if hand is None or not hand.upcards or not self._may_swap(hand):
            return
        up = hand.upcards[-1].code
        for r in reads:
            if r.card == up and self.stabilizer.counts(r, reads):
                place = self._place(r.box)
                if place is not None:
                    self._upcard_trail.append((t, place))

    def _swapper(self, hand: Hand) -> str | None:
        """The one player the upcard was carried to since it last lay on its spot, read there at least
        ``swap_reads`` times and at no other place; None (the table is asked) otherwise."""
        left = max((t for t, place in self._upcard_trail if place == UPCARD), default=-1.0)
        places = {place for t, place in self._upcard_trail if t > left}
        if len(places) != 1:
            return None
        (place,) = places
        seen = sum(1 for t, p in self._upcard_trail if t > left and p == place)
        if seen < self.stabilizer.settings.swap_reads or hand.refusal(TrumpSixSwapped(place)) is not None:
            return None
        return place

    def _may_swap(self, hand: Hand) -> bool:
        """The trump 6 may still be swapped for the upcard: a game that has the swap, before the play."""
        return self.game.swaps and not (hand.swapped_by is not None or hand.blind or hand.tricks or (hand.trick and hand.trick.plays)
                    or hand.phase == "done")

    def _new_hand_check(self) -> None:
        """Cards still lying from the last hand belong to it, not to the new one."""
        if len(self.session.hands) != self.hand_number:
            self.hand_number = len(self.session.hands)
            self._upcard_trail.clear()
            self._tapped_unturned = None
            self.excused.clear()
            self.vanished.clear()
            self._gone_at.clear()
            self._timid_at.clear()
            self._late.clear()
            self._play_from = None
            self._close(UNSEEN_UPCARD)  # the last hand's upcard is no question of this one
            for track in self.left:
                self._close(track)
            self.left.clear()
            for s in self.seen.values():
                s.claimed = s.claimed or "left from the last hand"

    def _sync(self, meta: dict[str, Any]) -> list[Notice]:
        notices = self._gathered()
        notices += self._ask_again()
        missing = self.missing()
        self.trick_unseen = self._whole_trick_missing(missing)
        if missing:
            unseen = self._gathered_short(missing)
            if unseen is not None:
                return notices + self._unask_vanished(set()) + self._ask_gathered(unseen, missing)
            notices += self._unask_vanished(missing)
            notices += self._set("out_of_sync", f"{', '.join(sorted(missing))} vanished from the trick "
                                 "in progress: put it back, or correct the record")
            return notices + self._ask_vanished(missing, meta)
        notices += self._unask_vanished(set())
        notices += self._unask_gathered() + self._unask_upcard()
        if self.state == "out_of_sync":
            notices += self._set("watching", "")
        aside = ""  # why a card laid at a seat during the deal waits (it does not hold up the upcard)
        early: Seen | None = None  # the first such card
        for s in self.pending():
            claim = self._accounted(s.card, s.named_by)
            thrown = self._thrown_there(s) if claim == "already played" else None
            if thrown is not None:
                return notices + self._ask_thrown_there(s, thrown, meta)
            if claim:
                s.claimed = claim
                continue
            if self._earlier_card_unread(s):
                break  # keep the order of play: record this one after the card laid before it
            event, why = self._event_for(s)
            if s.claimed:
                continue
            if event is None and self._at_seat_while_dealing(s):
                aside, early = aside or why, early or s
                continue
            if event is None:
                return notices + self._set("waiting", why)
            top = self._top_read_anew(s, event)
            if top is not None:
                return notices + self._ask_laid_on(s, top, meta)
            if s.named_by == "camera" and not isinstance(event, CardCorrected) and s.gone is None:
                if self._firming(s):
                    return notices  # read on for a moment: the order of play waits on it
                doubt = self._doubt(s)
                if doubt:
                    return notices + self._ask(s, event, doubt, meta)
            skipped = self._turn_skipped(s, event)
            if skipped and self.now - s.t < self.stabilizer.settings.ask_after:
                s.held = True  # sure of it, so its read is not judged again once it is taken away
                continue  # the card of the player to play may yet be read: it goes first if it is
            if skipped:
                return notices + self._ask_missed(s, skipped, meta)
            event = event.with_meta(**meta, source="camera" if s.named_by == "camera" else "camera+table",
                                    t=round(s.t, 3), track=s.track, support=round(s.support, 3),
                                    confidence=round(s.confidence, 3), **_said(s))
            try:
                pos = self._record(event)
            except IllegalEvent as exc:
                if isinstance(event, CardCorrected):  # the record stands; a person can still correct it
                    s.claimed = f"re-read of a recorded card, not taken: {exc}"
                    continue
                return notices + self._set("waiting", f"the camera saw {s.card} but {exc}")
            s.claimed = "recorded"
            if self.left.pop(s.track, None) is not None and s.gone is not None:
                self.excused.add(s.card)  # taken away before its turn: never missing from the trick
            self._taken_back(s)
            notices.append(Notice("recorded", _describe(event), {"position": pos, "event": event.to_dict()}))
            notices += self._gathered()
        if early is not None and self._upcard_unseen(early):
            why = f"{early.card} lies at {early.place}'s place, but the camera never saw the upcard"
            return notices + self._ask_upcard(why, meta)
        if self._upcard_tapped_past():
            return notices + self._ask_upcard("the bidding began, but the camera never saw the upcard", meta)
        if aside:
            return notices + self._set("waiting", aside)
        if self.state in ("waiting", "asking"):
            notices += self._set("watching", "")
        return notices

    def _taken_back(self, s: Seen) -> None:
        """Cards held for their turn and taken away before ``s``, just recorded, came: they never lay with it,
        so they were played out of turn and taken back, not gathered with it; their player plays again."""
        for held in self.left.values():
            if not held.claimed and held.gone is not None and s.played_at > held.gone:
                held.claimed = f"taken away before its turn, and {s.card} came after: taken back"
                self._close(held.track)

    def _doubt(self, s: Seen) -> tuple[str, str] | None:
        """Why the camera is not sure enough of ``s`` to record it: the rule that doubts it (its cause, one of
        ``DOUBTS``) and the words the table reads; None = sure."""
        st = self.stabilizer.settings
        if s.favoured:
            why = "no card of this pack" if s.favoured not in self.game.pack else "played already, or lying elsewhere"
            return "overruled", f"it was read as {s.favoured}, which cannot be new here ({why}); " \
                                f"{s.card} is only its next read"
        if s.covered is not None:
            reads = " / ".join(c for c, _ in s.choices)
            return "covered", f"a card was thrown onto it before its reads were sure ({reads}); " \
                              f"the picture is from {self.now - s.covered:.1f} s ago"
        if s.way:
            return "way", f"it was seen coming as {' / '.join(s.way)}, and reads {s.card} where it lies"
        if not s.settled:
            return "unsettled", f"no read of it was clear and sure ({' / '.join(c for c, _ in s.choices)})"
        if s.support < st.ask_support:
            others = ", ".join(c for c, _ in s.choices if c != s.card)
            return "split", f"the reads were split ({s.card} {s.support:.0%}{'; also ' + others if others else ''})"
        if self._timid(s):
            return "timid", f"it was read only timidly ({s.card} at {s.confidence:.2f})"
        rivals = [c for c, share in s.choices if c in self.alikes.get(s.card, ()) and share >= st.deck_alike_share]
        if rivals:
            return "alike", f"this deck confuses {s.card} and {rivals[0]}, and the reads named both"
        twin = self._twin(s)
        if twin:
            return "twin", f"{twin} went out of sight just as {s.card} appeared beside it: it may be {twin}, moved"
        strip = self._strip_of(s)
        if strip:
            return "strip", f"it lies within where {strip} lies under the cards laid since, and was never seen " \
                            f"coming: it may be {strip}, partly covered"
        return None

    def _firming(self, s: Seen) -> bool:
        """Whether ``s`` waits for more reads: a card whose only doubt is timid reads has its sureness taken
        again from every read of it so far (those of it lying still count too), and waits while still
        timid, named less than ``firm_for`` ago and in view. Called before :meth:`_doubt`, which then
        judges the sureness taken again."""
        st = self.stabilizer.settings
        if s.favoured or not s.settled or s.support < st.ask_support or s.confidence >= st.ask_conf:
            return False
        track = self._track(s)
        if track is None:
            return False
        s.confidence = track.sureness(s.card, st.alternative_weight)
        return self._timid(s) and track.missing == 0 and self.now - s.t < st.firm_for

    def _timid(self, s: Seen) -> bool:
        """The reads naming ``s`` were too timid to record it: less sure than ``ask_conf`` on average, and
        not read surely (``whole_conf``) off the whole card, lying on top in its last ``min_hits`` reads.
        On a pile the detector scores a card lying on others timidly (0.55-0.65) while the classifier
        names it at 0.9 or more; a strip of a covered card is never whole, and is asked."""
        st = self.stabilizer.settings
        if s.confidence >= st.ask_conf:
            return False
        track = self._track(s)
        n, prob = track.named_whole() if track is not None else (0, 0.0)
        return n < st.min_hits or prob < st.whole_conf

    def _track(self, s: Seen) -> Track | None:
        """The stabilizer's track of ``s`` while it still follows that card."""
        return next((tr for tr in self.stabilizer.tracks if tr.id == s.track and tr.card == s.card), None)

    def _twin(self, s: Seen) -> str | None:
        """A recorded card of the last or the current trick that went out of sight shortly before ``s``
        appeared near it, while the rest of its trick still lies: ``s`` may be that card, named while it
        still moved and found again where it came to rest by a track of its own. A trick gathered goes
        out of sight whole, so the next lead is no such card; nor is a card seen thrown there, read as itself
        on its way (a pile: the card it covered goes out of sight as it lands)."""
        hand, st = self.hand, self.stabilizer.settings
        if hand is None:
            return None
        lost = {tr.id for tr in self.stabilizer.tracks if tr.missing > 0}
        on_view = {x.card for x in self.seen.values() if x.track not in lost and x is not s}
        for trick in self._tricks_now(hand):
            codes = set(trick.cards)
            if not codes & on_view:
                continue  # gathered, or not yet laid
            under = {code for code, top in self.covered(codes - on_view).items() if top != s.card}
            for code in codes - on_view - under:  # one under a card laid before ``s`` was no card moved
                other = next((x for x in self.seen.values() if x.card == code and x.track in lost), None)
                since = 0.0  # its track is lost this moment
                if other is None:
                    other, since = self.vanished.get(code), s.first_seen - self._gone_at.get(code, -1e9)
                if other is None or since > st.carried_for or s.first_seen < other.first_seen:
                    continue
                if self._near(other.box, s.box) and not self._came_apart(s, other.box) \
                        and not self.stabilizer.seen_coming(s.card, s.box, other.first_seen, s.first_seen):
                    return code
        return None

    def _came_apart(self, s: Seen, box: tuple[float, float, float, float]) -> bool:
        """``s``'s own track was first read off ``box`` (its centre outside it) and moved towards it: a card
        carried in from elsewhere and thrown onto the card last seen there, which it covers (tuning pile hands
        103, 110, 114, 118). That card moved on would be found again by a track taking up where its own ended,
        moving away from there if at all; one lifted and laid again is first read over where it lay."""
        track = self._track(s)
        if track is None or track.came_from is None:
            return False
        if box_iou(track.came_from, track.box) >= self.stabilizer.settings.still_iou:
            return False  # first read where it lies: found there, not carried in
        if centre_within(track.came_from, box):
            return False
        return centre_apart(track.came_from, box) > centre_apart(track.box, box)

    def _strip_of(self, s: Seen) -> str | None:
        """A card of the trick in progress out of sight, or of the trick just played out while it lies
        (:meth:`_under_last_trick`), whose last box holds ``s``'s (``match_cover``), where ``s`` appeared in place,
        never seen carried in: ``s`` may be what shows of that card under the cards thrown onto it, misread
        (held-out pile hand 701297: an 8d's edge read 9d under the 9h laid on it; tuning pile 113: a Qs's edge
        read Qc under the Ts, as the Ah closed the trick); or whose last boxes together hold it: the outline of
        the pile under the card on top, boxed whole and read through that card (held-out pile hand 703787: the
        Kd on the Ac, Jc and Tc, and their outline read Kh as a card of its own, recorded as the next lead). A
        card thrown onto the pile is seen coming, or lands apart from the cards under it."""
        hand, st, track = self.hand, self.stabilizer.settings, self._track(s)
        if hand is None or track is None or track.came_from is None:
            return None
        if box_iou(track.came_from, track.box) < st.still_iou:
            return None  # carried in: a card thrown there
        lasts = [(code, last) for code in sorted(self._out_of_sight() | self._under_last_trick())
                 if (last := self.vanished.get(code)) is not None
                 and not self.stabilizer.seen_coming(s.card, s.box, last.first_seen, s.t)]
        within = [(box_within(s.box, last.box), code) for code, last in lasts]
        held = next((code for share, code in within if share >= st.match_cover), None)
        if held is None and box_under(s.box, [last.box for _, last in lasts]) >= st.match_cover:
            held = max(within)[1]  # the pile's outline, read whole: named for the card most of it is
        return held

    def _turn_skipped(self, s: Seen, event: Event) -> str | None:
        """The player whose turn it is, where ``s`` lies at another player's place: the camera may have
        missed their card (or the other played out of turn). None where nothing was skipped."""
        hand = self.hand
        if not isinstance(event, CardPlayed) or s.place is None or s.out_of_turn is not None or hand is None:
            return None
        turn = hand.whose_turn()
        if turn is None or hand.seats[turn] == event.player:
            return None
        return hand.seats[turn]

    def _gathered_short(self, missing: set[str]) -> str | None:
        """The player to play, where every card of the trick in progress (the lead alone, too) went out of
        sight together at least ``ask_after`` seconds ago: the trick was gathered before the camera saw
        that player's card (cards thrown onto the pile and never read, or taken for the card under them).
        None otherwise: some of the cards knocked away, or a hand held over the pile for a moment, is out
        of sync as before; a question whose cards show again is withdrawn."""
        if not self.trick_unseen:  # set from ``missing`` by _sync this frame
            return None
        hand = self.hand
        trick, turn = self.game.trick(hand), hand.whose_turn()
        went = max(self._gone_at.get(c, self.now) for c in missing)
        if self.now - went < self.stabilizer.settings.ask_after:
            return None
        chain = self._late.get(trick.number)
        if chain:  # the table named a card the record holds as another's: ask that player next
            return trick.player_of(chain[-1][1])
        return hand.seats[turn]

    def _whole_trick_missing(self, missing: set[str]) -> bool:
        """``missing`` is every card recorded on the trick in progress, which still awaits a play."""
        hand = self.hand
        trick = self.game.trick(hand) if hand is not None else None
        if not missing or trick is None or hand.whose_turn() is None or not trick.cards:
            return False
        return missing == set(trick.cards) - self.excused

    def _ask_gathered(self, player: str, missing: set[str]) -> list[Notice]:
        """Hold the record and ask which card ``player`` laid on the trick gathered before it was seen."""
        trick = self.game.trick(self.hand)
        cards = ", ".join(sorted(missing))
        chain = self._late.get(trick.number, [])
        late = trick.card_of(player) if chain else None
        if late is None:
            why = (f"trick {trick.number} ({cards}) was gathered before the camera saw every card: "
                   f"{player} is still to play")
        else:
            by, named = chain[-1]
            why = (f"trick {trick.number} was gathered short, and {named}, recorded as {player}'s card, was {by}'s: "
                   f"the camera missed a card before it")
        plays = tuple(zip(trick.players, trick.cards))
        notices = self._open(-trick.number, lambda n: (
            Ask(n, -trick.number, "", [], (0.0, 0.0, 0.0, 0.0), None, CardPlayed.type, player, why, self.now,
                kind="gathered", trick=trick.number, late=late, plays=plays),
            f"which card of trick {trick.number} did the camera miss, and whose? {why}"))
        return notices + self._set("asking", f"tap the card of trick {trick.number} the camera missed, and whose")

    def _unask_gathered(self) -> list[Notice]:
        """No card of the trick is out of sight any more (a hand had been over them, or the play was tapped
        in): the question about a gathered trick is void."""
        out = []
        self._late.clear()  # the trick was not gathered short: what the table named of it no longer stands
        for ask in [a for a in self.asks.values() if a.kind == "gathered"]:
            self._close(ask.track)
            out.append(Notice("ask_void", f"trick {-ask.track} is in step with the table again: no card to name",
                              {"id": ask.id}))
        return out

    def _ask_vanished(self, missing: set[str], meta: dict[str, Any]) -> list[Notice]:
        """Ask whether the first card of the trick out of sight for ``lost_after`` lies there still, where
        other cards of the trick do (all gone at once is a trick gathered, :meth:`_gathered_short`'s). A card
        under one whose box the picture's edge cuts is not taken to be covered, and nothing else ends the
        wait: a referee that waits with no question hangs."""
        trick = self.game.trick(self.hand)
        if missing == set(trick.cards) - self.excused:
            return []
        code = min(missing, key=trick.cards.index)
        last, went = self.vanished.get(code), self._gone_at.get(code, self.now)
        if last is None or self.now - went < self.stabilizer.settings.lost_after:
            return []
        player = trick.player_of(code)
        why = (f"{code}, {player}'s card, went out of sight {self.now - went:.0f} s ago while the rest of trick "
               f"{trick.number} still lies")
        return self._open(last.track, lambda n: (
            Ask(n, last.track, code, [(code, 1.0)], last.box, last.place, CardPlayed.type, player, why, self.now,
                meta.get("snapshot"), kind="vanished", trick=trick.number),
            f"does {code} still lie on trick {trick.number}, under a card? {why} (else put it back, or correct "
            "the record)"))

    def _unask_vanished(self, missing: set[str]) -> list[Notice]:
        """A card asked about as out of sight that is no longer missing (in view again, covered, excused, or
        the trick gathered): the question is void."""
        out = []
        for ask in [a for a in self.asks.values() if a.kind == "vanished" and a.read not in missing]:
            self._close(ask.track)
            out.append(Notice("ask_void", f"{ask.read} is accounted for again: no question", {"id": ask.id}))
        return out

    def _ask_again(self) -> list[Notice]:
        """Ask again about a play the camera recorded as a card the table has named since for another play of
        the hand: a card is played once, so one of the two is wrong, and the camera's is the one in doubt
        (held-out pile hand 703698: Cla's 8c, read surely as 8d, stood after the table named Doris's 8d, never
        seen, for a trick gathered short). The record goes on meanwhile: the answer corrects the play and
        derives all after it anew. A question is void once the record no longer holds the card twice, or the
        next hand begins (the review still shows the card played twice)."""
        looked = (len(self.session.log), len(self.gathered), len(self._kept), len(self.session.hands))
        if looked == self._twice_at:
            return []
        self._twice_at = looked
        twice = self._named_twice()
        out = []
        for ask in [a for a in self.asks.values() if a.kind == "again" and ASKED_AGAIN - a.track not in twice]:
            self._close(ask.track)
            out.append(Notice("ask_void", f"{ask.read} is no longer recorded twice: no question", {"id": ask.id}))
        for position, (code, player, number) in twice.items():
            meta = self.session.log[position].meta or {}
            last = self.vanished.get(code)  # the camera's last sight of the play, where it is that track's
            last = last if last is not None and last.track == meta.get("track") else None
            box = last.box if last is not None else (0.0, 0.0, 0.0, 0.0)
            choices = [(c, v) for c, v in (last.choices if last is not None else ()) if c != code]
            why = (f"the camera recorded {code} as {player}'s card of trick {number}, but the table named {code} "
                   "for another play since")
            out += self._open(ASKED_AGAIN - position, lambda n: (
                Ask(n, ASKED_AGAIN - position, code, [(code, 1.0), *choices[:2]], box, None, CardPlayed.type,
                    player, why, self.now, meta.get("snapshot"), kind="again", trick=number),
                f"which card did {player} play to trick {number}? {why}"))
        return out

    def _named_twice(self) -> dict[int, tuple[str, str, int]]:
        """This hand's plays the camera recorded as a card the table has named since for another of its plays,
        where their trick is gathered (a card in view is still read) and the table did not keep the camera's
        read: {log position: (card, player, trick number)}."""
        hand = self.hand
        if hand is None:
            return {}
        plays = [(ev, pos) for ev, pos in zip(hand.events, self.session.positions[-1]) if isinstance(ev, CardPlayed)]
        times = Counter(ev.card.code for ev, _ in plays)
        named = {ev.card.code for ev, pos in plays if times[ev.card.code] > 1 and self._named_by_table(pos)}
        out = {}
        for ev, pos in plays:
            code = ev.card.code
            if code not in named or pos in self._kept or self._named_by_table(pos):
                continue
            number = self._gathered_with(code, ev.player)
            if number is not None:
                out[pos] = (code, ev.player, number)
        return out

    def _gathered_with(self, code: str, player: str | None = None) -> int | None:
        """The number of this hand's gathered trick that holds ``code`` (as ``player``'s card, where given)."""
        hand = self.hand
        for t in self.game.tricks(hand) if hand is not None else ():
            if code in t.cards and player in (None, t.player_of(code)):
                return t.number if (len(self.session.hands), t.number) in self.gathered else None
        return None

    def _ask_missed(self, s: Seen, player: str, meta: dict[str, Any]) -> list[Notice]:
        """Hold the record at ``s`` and ask whether ``player`` laid a card the camera did not see; for a card
        taken away since, with a picture from when it still lay there (its track ends ``gone_after`` after its
        last read)."""
        left = s.gone is not None
        seen_at = s.gone - self.stabilizer.gone_span if left else None
        notices = self._open(s.track, lambda n: (
            Ask(n, s.track, "", [], s.box, s.place, CardPlayed.type, player,
                f"{s.card} {'lay' if left else 'lies'} at {s.place}'s place, but it is {player}'s "
                f"turn{' (it was taken away since)' if left else ''}", self.now, meta.get("snapshot"), seen_at,
                kind="missed"),
            f"did {player} lay a card the camera did not see? (or {s.place} played out of turn: answer none)"))
        return notices + self._set("asking", f"tap {player}'s card, or none if {s.place} played out of turn")

    def _upcard_unseen(self, s: Seen) -> bool:
        """``s`` has lain at a player's place for ``ask_after`` while the record awaits the upcard, and
        nothing lies on the upcard spot, not even read timidly: play began, and the camera never saw the
        upcard turned (too far, too small, covered). Only with zones: without them a card anywhere may
        be the upcard."""
        hand, st = self.hand, self.stabilizer
        if self.layout is None or hand is None or not self.game.turning(hand):
            return False
        if self.now - s.t < st.settings.ask_after:
            return False
        on_spot = [x.box for x in self.seen.values() if x.place == UPCARD] + [g.box for g in st.glimpses]
        return not any(self._place(box) == UPCARD for box in on_spot)

    def _ask_upcard(self, why: str, meta: dict[str, Any]) -> list[Notice]:
        """Hold the record and ask the table which card was turned up; what waits on it (the card at a player's
        place, the taps) is taken after the answer. The page shows the upcard spot cut from the frame (the
        whole frame without zones)."""
        box = self.layout.bounds(UPCARD, self.to_mat) if self.layout is not None else None
        notices = self._open(UNSEEN_UPCARD, lambda n: (
            Ask(n, UNSEEN_UPCARD, "", [], box or (0.0, 0.0, 0.0, 0.0), UPCARD, UpcardShown.type, None, why,
                self.now, meta.get("snapshot"), kind="upcard"),
            f"which card was turned up? {why}"))
        return notices + self._set("asking", "tap the upcard")

    def _upcard_tapped_past(self) -> bool:
        """A tap that comes only after the turn was refused ``ask_after`` ago for want of an upcard, and no card
        that may be the upcard is pending (on the upcard spot with zones; anywhere without them): the table
        bids on a card the camera never named."""
        hand = self.hand
        if hand is None or not self.game.turning(hand):
            return False
        tapped = self._tapped_for(hand)
        if tapped is None or self.now - tapped < self.stabilizer.settings.ask_after:
            return False
        return not any(self.layout is None or s.place == UPCARD for s in self.pending())

    def _unask_upcard(self) -> list[Notice]:
        """The upcard is in the record (read at last, or tapped): the question for it is void."""
        hand = self.hand
        if UNSEEN_UPCARD not in self._ask_of or (hand is not None and self.game.turning(hand)):
            return []
        ask = self._close(UNSEEN_UPCARD)
        return [Notice("ask_void", "the upcard is in the record: the question for it is void", {"id": ask.id})]

    def _ask(self, s: Seen, event: Event, doubt: tuple[str, str], meta: dict[str, Any]) -> list[Notice]:
        """Hold the record at ``s`` and ask the table which card it is, for ``doubt`` (cause, why)."""
        cause, why = doubt
        choices = list(s.choices) or [(s.card, s.support)]
        if all(c != s.card for c, _ in choices):
            choices.insert(0, (s.card, s.support))
        where = f"at {event.player}'s place" if isinstance(event, CardPlayed) else "on the upcard spot"
        notices = self._open(s.track, lambda n: (
            Ask(n, s.track, s.card, choices[:3], s.box, s.place, event.type, getattr(event, "player", None), why,
                self.now, meta.get("snapshot"), self._last_shown(s), cause=cause, plays=self._plays_for(event)),
            f"which card lies {where}? the camera reads {s.card}, not surely: {why}"))
        ask = self.asks[self._ask_of[s.track]]
        return notices + self._set("asking", f"tap the card lying {'at ' + ask.player if ask.player else 'there'}: "
                                   f"{' / '.join(c for c, _ in ask.choices)}, another, or none if no card lies there")

    def _plays_for(self, event: Event) -> tuple[tuple[str, str], ...]:
        """The trick in progress as recorded, (player, card), where ``event`` is a play: the seats a card asked
        about may be one of, laid before the cards on it (:meth:`_answer_seat_before`). None with zones: each
        card lies at its player's place, none under another's."""
        trick = self.game.trick(self.hand) if isinstance(event, CardPlayed) and self.layout is None else None
        return tuple(zip(trick.players, trick.cards)) if trick is not None else ()

    def _top_read_anew(self, s: Seen, event: Event) -> TrickView | None:
        """The trick whose top card on a pile the camera re-reads, still short of cards, as a card that could be
        the next play (None: no such re-read): a card laid squarely on it and not seen coming reads just the same,
        so the table is asked (held-out pile hand 704303, 10 fps: Erich's Kd on Doris's Ts corrected the Ts to Kd,
        and the record held the wrong card until the trick was gathered short). A card that slid as it settled
        reads the same too: the picture cannot tell them apart, as the sides of a card on a pile show no edge
        against the cards under it."""
        if self.layout is not None or not isinstance(event, CardCorrected) or s.named_by != "camera":
            return None  # the correction ``_event_for`` made targets the play recorded as ``s.replaces``
        hand = self.hand
        trick = self.game.trick(hand) if hand is not None and self.game.playing(hand) else None
        if trick is None or not trick.cards or trick.cards[-1] != s.replaces or hand.whose_turn() is None:
            return None
        return trick

    def _thrown_there(self, s: Seen) -> tuple[str, float] | None:
        """A card seen thrown where ``s``, a card played already, is found again, since that card was named,
        and not named since (none of the camera's cards), with when it was first seen coming: the thrown card
        may lie there, read as the card under it (held-out Kratzen pile 704935: the 9d, read 0.6-0.8 on its
        way, landed squarely on the 8d and read 8d; the 8d was taken as found again, the Qh after it took the
        9d's turn, and every later play went a seat on). None where no such card came, or no one is to play."""
        hand = self.hand
        if s.named_by != "camera" or hand is None or hand.whose_turn() is None:
            return None
        if s.thrown_in is not None:
            return s.thrown_in  # asked: the question holds until answered, however long ago the card came
        was = self.vanished.get(s.card)
        since = was.t if was is not None else s.first_seen  # since it was named: its own way is no other card
        new = self.game.pack - self.game.played(hand) - self.game.face_up(hand) - self._in_view() \
            - {x.card for x in self.left.values()}
        thrown = self.stabilizer.thrown_to(s.box, since, self.now)
        return min(((c, at) for c, at in thrown.items() if c in new), default=None)

    def _ask_thrown_there(self, s: Seen, thrown: tuple[str, float], meta: dict[str, Any]) -> list[Notice]:
        """Hold the record at ``s`` and ask which card lies there: the card thrown there, the next play (it came
        when first seen coming, onto the card it was read as), or ``s``'s card found again (then claimed)."""
        rival = thrown[0]
        s.choices, s.way, s.thrown_in = ((s.card, s.support), (rival, 0.0)), (rival,), thrown
        why = f"{rival} was seen thrown there, and the camera reads {s.card}, played already, where it landed"
        return self._ask(s, CardPlayed(self._to_play(), card(rival)), ("way", why), meta)

    def _ask_laid_on(self, s: Seen, trick: TrickView, meta: dict[str, Any]) -> list[Notice]:
        """Hold the record at ``s`` and ask whose card it is: the top card's player's, misread, or the next
        player's, laid on it."""
        player, nxt = trick.player_of(s.replaces), self._to_play()
        why = (f"the camera recorded {s.replaces} as {player}'s card and now reads {s.card} where it lies: "
               f"{nxt}'s {s.card} laid on it, or {player}'s card misread")
        notices = self._open(s.track, lambda n: (
            Ask(n, s.track, s.replaces, [(s.replaces, 0.5), (s.card, 0.5)], s.box, None, CardPlayed.type, player,
                why, self.now, meta.get("snapshot"), kind="laid_on", cause="laid_on", trick=trick.number,
                plays=((nxt, s.card),)),
            f"which card did {player} play to trick {trick.number}? {why}"))
        return notices + self._set("asking", f"tap {player}'s card: {s.replaces}, or {s.card} if misread")

    def _last_shown(self, s: Seen) -> float | None:
        """When the picture last showed ``s`` as its card, where this frame does not (a card thrown onto it, a hand
        over it): its question shows it as it lay then, not what lies there now; None where it is read now.
        Held-out pile hand 701986: Beat's 7c, asked about once Cla's 8s lay on it, was answered 8s."""
        if s.covered is not None:
            return s.covered
        track = self._track(s)
        last = track.last_read.get(s.card) if track is not None else None
        return last if last is not None and last < self.now else None

    def _open(self, track: int, make: Callable[[int], tuple[Ask, str]]) -> list[Notice]:
        """Ask about ``track`` once, however many frames it holds the record: ``make(number)`` gives the
        question and its notice's text; the notice the first time, nothing after."""
        if track in self._ask_of:
            return []
        self.asked += 1
        ask, text = make(self.asked)
        self.asks[ask.id] = ask
        self._ask_of[track] = ask.id
        return [Notice("ask", text, ask.to_dict())]

    def _close(self, track: int) -> Ask | None:
        """The open question about ``track``, taken off the list (None: there was none)."""
        ask_id = self._ask_of.pop(track, None)
        return None if ask_id is None else self.asks.pop(ask_id)

    def _unask(self, track: int) -> list[Notice]:
        """A card asked about left the table unnamed: the question is void (tap the play in if it counted)."""
        ask = self._close(track)
        if ask is None:
            return []
        return [Notice("ask_void", f"the card asked about ({ask.read}?) was taken away before it was named",
                       {"id": ask.id})]

    def _at_seat_while_dealing(self, s: Seen) -> bool:
        hand = self.hand
        return hand is not None and self.game.dealing(hand) and s.place not in (None, UPCARD)

    def _earlier_card_unread(self, s: Seen, patience: float = 3.0) -> bool:
        """A card laid before ``s`` (at a place that counts) is still being read, for a little while: a track
        not yet named, unless its reads name a card named where it lies (a second box of that card), or a glimpse
        clear of the cards that lay before it (a card read only timidly as it landed, half under the hand that
        threw it). A glimpse on a card the record holds face up (the upcard, its track ended as its reads grew
        timid) is that card, not one still being read, unless another card was thrown onto it
        (``_thrown_onto``: seen coming, or lying across its edge)."""
        st = self.stabilizer
        for tr in st.tracks:
            if tr.card is not None or st.arrival(tr) >= s.played_at:
                continue
            if sum(tr.hits) < st.settings.min_hits and not tr.lain_still and tr.glimpsed_since is None \
                    and tr.taken_since is None:
                continue  # a flicker, unless it lay still or was read there before (timidly, or by a card under it)
            if self.now - tr.first_seen > patience:
                continue
            if tr.votes and st.second_box_of(tr.top, tr.box):
                continue  # a second box of a card named where it lies (held-out pile 704531: the upcard's)
            if self.layout is not None and self._place(tr.box) is None:
                continue
            return True
        if any(self._read_over(tr, s, patience) for tr in st.tracks):
            return True
        face_up = self.game.face_up(self.hand) if self.hand is not None else set()
        known = [*self.seen.values(),
                 *(self.vanished[c] for c in self._out_of_sight() | face_up if c in self.vanished)]
        for g in st.glimpses:
            lay = g.lay()
            if lay is None or lay >= s.played_at or self.now - lay > patience:
                continue
            if any(self._reads_of(g, k) for k in known):
                continue  # a card the table knows of, read timidly where it lies
            if any(k.first_seen <= lay and box_within(g.box, k.box) > 0 and not self._thrown_onto(g, k, s, known)
                   for k in known):
                continue  # on a card that lay there before: a part of it read timidly
            if self.layout is not None and self._place(g.box) is None:
                continue
            return True
        return False

    def _read_over(self, tr: Track, s: Seen, patience: float) -> bool:
        """Named ``tr``'s last ``window`` reads all name another card that may be new here, first read there
        before ``s`` came: a card laid squarely on it, read timidly, that ``Stabilizer._replaced`` has not yet
        renamed the spot for (held-out hand 704202: a 7s on the lead Jc, read 0.50-0.64 with a break, renamed
        only after the Jd laid later was recorded, and the two plays were swapped). For a little while only."""
        if tr.card is None or tr.card == s.card or self.now - tr.top_since > patience:
            return False
        new, run = tr.run()
        if len(run) < self.stabilizer.settings.window or new in (tr.card, s.card):
            return False
        read_here = tr.others.get(new)  # [first t, last t, last box, reads]
        if read_here is None or read_here[0] >= s.played_at or new in self.impossible():
            return False
        return self.layout is None or self._place(tr.box) is not None

    def _reads_of(self, g: Glimpse, k: Seen) -> bool:
        """Glimpse ``g`` names ``k``'s card and lies within it: ``k``'s own timid reads (its first as it landed,
        those since its reads sagged), however its track began since, not a card laid before the one waiting.
        Held-out pile hand 701754: the Qc, read at 0.37 a frame before its track began, held itself back until
        it was covered, never recorded; Kratzen 701785: the Ac, found again by a new track, held back the Jd."""
        return g.named == k.card and self._within(g, k)

    def _within(self, g: Glimpse, k: Seen) -> bool:
        """Glimpse ``g`` lies within ``k``'s box, as a part of ``k`` does (``match_cover``)."""
        return box_within(g.box, k.box) >= self.stabilizer.settings.match_cover

    def _thrown_onto(self, g: Glimpse, k: Seen, s: Seen, known: list[Seen]) -> bool:
        """Glimpse ``g`` over ``k`` names a card seen carried there after ``k`` lay and before ``s`` came, and is
        still read once ``s`` is (in that frame too): a card thrown onto ``k``; not a part of ``k`` or of another
        card the table holds, nor ``s``'s own first reads (held-out pile hand 701446: a 9s thrown half onto the
        Qs, read at 0.3-0.5, let the 6c thrown after it take its turn; tuning pile hand 130: a Ts misread 6s as
        it landed held itself back; 127: the 8h's own timid strip held back the 7h). A part of ``k`` lies within
        it: a glimpse across its edge is thrown onto it, seen coming or not (held-out pile 704674: the hand
        throwing the 9c hid the pile, and the 9c, read timidly across the 8c, the Js and the upcard's corner,
        let the Qs thrown after it take its turn)."""
        named = g.named
        if g.last < s.first_seen or named == s.card or any(named == o.card for o in known):
            return False
        if not self._within(g, k):
            return True  # lying across ``k``'s edge, not within it: no part of ``k``, though never seen coming
        return self.stabilizer.seen_coming(named, g.box, k.first_seen, self.now, before=s.first_seen)

    def _accounted(self, code: str, named_by: str = "camera") -> str:
        """Why the record already holds ``code`` ("" where it does not). A card the table names that the
        camera recorded as a play of a trick gathered since is not: that card is off the table, so the table's
        word is recorded and the camera's play asked again (:meth:`_ask_again`). Named for a card of the trick
        lying (a strip of a covered card), it is that card."""
        hand = self.hand
        if hand is None:
            return ""
        if code in self.game.played(hand):
            if named_by == "table" and (at := self._recorded_at(code)) is not None \
                    and not self._named_by_table(at) and self._gathered_with(code) is not None:
                return ""
            return "already played"
        if code in self.game.face_up(hand):
            return "already on the table"
        return ""

    def _event_for(self, s: Seen) -> tuple[Event | None, str]:
        hand = self.hand
        idle = f"{s.card} is on the table but no hand is in progress: start the hand"
        if hand is None:
            return None, idle
        c = card(s.card)
        seat_place = s.place if s.place not in (None, UPCARD) else None
        if self.game.turning(hand):
            if seat_place:
                return None, f"{s.card} lies at {seat_place}'s place, but the upcard is not turned yet"
            return UpcardShown(c), ""
        swapped_six = self._is_swapped_six(hand, s)
        if s.replaces and not swapped_six:
            target = self._recorded_at(s.replaces)
            if target is not None and self._named_by_table(target):
                s.claimed = f"re-read as {s.card}, but the table named it {s.replaces}"
                return None, ""
            over = self._laid_over(s.replaces, s)
            if target is not None and over:
                s.claimed = f"re-read as {s.card} under {over}, laid on it since: no better sight of {s.replaces}"
                return None, ""
            if target is not None:  # the first read was wrong: correct it; it is no new card
                return CardCorrected(target, c), ""  # also the last card of a hand over, until gathered
        if hand.phase == "done":
            return None, idle
        if swapped_six:
            taker = None if self._doubt(s) else self._swapper(hand)
            if taker is not None:  # the upcard was carried to the taker's place: no tap needed
                return TrumpSixSwapped(taker), ""
            return None, f"{s.card} lies where the upcard was: tap who swapped the trump 6"
        if s.place == UPCARD and self.game.upcard_stays and hand.upcards:
            s.claimed = f"{s.card} lies on the upcard spot: the upcard found again, no play"
            return None, ""
        return self.game.event_for(hand, c, seat_place, s.place)

    def _laid_over(self, code: str, s: Seen) -> str | None:
        """A card laid after ``code`` that lies over it (``covered``), where ``s`` now reads the spot anew: the
        reads are of a card half under another, no better than those it was named by (held-out pile hand
        701313: a Qd read surely for seconds, re-read as Kd once the Td lay on it)."""
        last = self.vanished.get(code)
        if last is None:
            return None
        over = [x for x in self.seen.values() if x is not s and x.first_seen > last.first_seen]
        if over and box_under(last.box, [x.box for x in over]) >= self.stabilizer.settings.covered:
            return max(over, key=lambda x: x.first_seen).card
        return None

    def _named_by_table(self, position: int) -> bool:
        """The card in effect at log ``position`` is the table's word: its last correction's source, else its
        own (a play the table set right for a trick gathered short is no longer the camera's read)."""
        log = self.session.log
        fix = next((ev for ev in reversed(log[position + 1:])
                    if isinstance(ev, CardCorrected) and ev.target == position), None)
        meta = (fix or log[position]).meta or {}
        return meta.get("source") not in (None, "camera")

    def _recorded_at(self, code: str) -> int | None:
        """Log position of this hand's upcard or play recorded as ``code`` (None: there is none).
        A card lying still whose reads all turn to another was misread: that event is corrected."""
        events, positions = self.hand.events, self.session.positions[-1]  # the hand's events and their log places
        for ev, pos in zip(reversed(events), reversed(positions)):
            if isinstance(ev, (UpcardShown, CardPlayed)) and ev.card.code == code:
                return pos
        return None

    def _is_swapped_six(self, hand: Hand, s: Seen) -> bool:
        if not self._may_swap(hand):
            return False
        up = hand.upcards[-1] if hand.upcards else None
        return (up is not None and s.card == "6" + up.suit_letter and s.card != up.code
                and self._in_upcards_place(s, up.code))

    def _in_upcards_place(self, s: Seen, up: str) -> bool:
        """``s`` lies where the upcard lies or lay (RULES.md: a swapped 6 "lies face up in its place"): on
        the upcard spot with zones; without them, its centre within the upcard's last box. A trump 6 led
        beside the upcard, onto a pile, is a play: taken for a swap, it waited for a tap until the next card
        thrown onto it was recorded first (held-out pile hand 700873, every later play a seat wrong)."""
        if self.layout is not None:
            return s.place in (None, UPCARD)
        last = next((x for x in self.seen.values() if x.card == up), None) or self.vanished.get(up)
        if last is None:
            return True  # never seen: nothing says where it lay
        return centre_within(s.box, last.box)

    def _gathered(self) -> list[Notice]:
        hand = self.hand
        if hand is None:
            return []
        on_table = self._in_view()
        out = []
        for trick in self.game.tricks(hand):
            key = (len(self.session.hands), trick.number)
            if key in self.gathered or on_table & set(trick.cards):
                continue
            self.gathered.add(key)
            out.append(Notice("gathered", f"trick {trick.number} gathered by {trick.winner}",
                              {"trick": trick.number, "winner": trick.winner}))
        return out

    def _record(self, event: Event) -> int:
        pos = self.session.record(event)
        if self.on_record:
            self.on_record(pos, event)
        return pos

    def _set(self, state: str, reason: str) -> list[Notice]:
        if (state, reason) == (self.state, self.reason):
            return []
        self.state, self.reason = state, reason
        return [Notice(state, reason or "back in step with the table")]

    def _camera_state(self, state: str) -> list[Notice]:
        self.camera = state
        return [Notice("camera", "camera lost: retrying" if state == "lost" else "camera back", {"state": state})]


def _code(text: str) -> str:
    try:
        return card(text).code
    except ValueError as exc:
        raise AnswerError(str(exc)) from None


def _said(s: Seen) -> dict[str, Any]:
    """What the table said of ``s`` that the record should keep for the review: a card the camera read at a
    place out of turn, recorded as played because the table answered that no card of the player to play was
    missed (else that answer would be nowhere in the hand's history)."""
    if s.out_of_turn is None:
        return {}
    asked, turn = s.out_of_turn
    return {"out_of_turn": {"asked": asked, "turn": turn}}


def _describe(event: Event) -> str:
    if isinstance(event, UpcardShown):
        return f"upcard {event.card.code}"
    if isinstance(event, CardPlayed):
        return f"{event.player} plays {event.card.code}"
    if isinstance(event, HandStarted):
        return f"hand started, {event.dealer} deals"
    if isinstance(event, CardCorrected):
        return f"event {event.target} corrected to {event.card.code}"
    if isinstance(event, TrumpSixSwapped):
        return f"{event.player} swapped the trump 6 for the upcard"
    return event.type


def save_snapshot(folder: Path, rgb: np.ndarray, name: str) -> str:
    """A JPEG of the frame, for the review of a disputed play; returns its file name."""
    import cv2  # noqa: PLC0415

    folder.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(folder / name), rgb[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, 80])
    return name
