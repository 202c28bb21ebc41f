"""Per-frame card reads -> stable events: a card laid down, a card taken away.

Each card on the table is a track, matched frame to frame by where it lies. A track becomes a
``CardLaid`` only when it was seen in ``min_hits`` of the last ``window`` frames and its best
card has enough of the confidence votes; it ends with ``CardGone`` only after ``gone_after``
frames without it, and only once its box has stopped moving (a card still carried in by a hand
is not yet played; one cut by the picture's edge must lie still longer, since its box, clipped to
the picture, hardly changes while it slides in). So a hand passing over the cloth, a glare or a
flickering second-best class neither creates nor removes a card. A decided track whose every
recent read names another card (the trump 6 laid where the upcard was) ends and starts over. Both
decisions lean on sure reads: a card half under the hand that carries it in, or under a hand
reaching past it, is read timidly and often as another card, so timid reads take longer to name or
rename a card. The decision is
rules-aware: reads the referee calls impossible (a card already played, the upcard on the table)
are skipped in favour of the next likely card, or the track waits (always, where that card was
among few of the reads: the track is a card in view found again).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field, replace
from itertools import takewhile
from math import hypot, inf
from typing import Callable, Iterable, Iterator, Protocol, Sequence

from vision.recognize.geometry import box_centre, box_cover, box_diagonal, box_iou, box_within, quad_iou, quad_within

from .settings import REFERENCE_FPS, TABLE, TrackerSettings

PACE_SLACK = 0.15  # a frame rate this near the one counted in is the same rate (webcam jitter)

# Asks a frame: (a card's outline, the outlines in view) -> the share of its sides the picture shows
# where those leave them free, or None where too little is free (vision.recognize.layers.sides_in).
Sides = Callable[[list, list], "float | None"]


class Read(Protocol):
    card: str
    confidence: float
    box: tuple[float, float, float, float]
    alternatives: list[tuple[str, float]]


@dataclass(frozen=True)
class CardLaid:
    track: int
    card: str
    box: tuple[float, float, float, float]
    t: float
    support: float  # share of the track's votes for this card
    first_seen: float = 0.0
    replaces: str | None = None  # the card this very spot was read as until now (a re-read)
    confidence: float = 1.0  # mean confidence of the reads that named this card first
    choices: tuple[tuple[str, float], ...] = ()  # the likely possible cards, best first, with their vote shares
    settled: bool = True  # False: the reads never agreed surely, the card lay still too long unnamed (ask)
    favoured: str | None = None  # the impossible card most reads named, where this card is their next best
    thrown: float | None = None  # when it was first seen coming, where it lies on a card it was thrown onto
    covered: float | None = None  # named only once a card thrown onto it hid it: when it was last seen (its picture)
    way: tuple[str, ...] = ()  # what it was read as on its way here, where that is another card (ask)


@dataclass(frozen=True)
class CardGone:
    track: int
    card: str
    t: float
    covered: bool = False  # a card thrown onto it ended its track (Stabilizer._replaced): it lies under that one


@dataclass
class Track:
    id: int
    box: tuple[float, float, float, float]
    hits: deque = field(default_factory=deque)
    votes: dict[str, float] = field(default_factory=dict)
    missing: int = 0
    card: str | None = None  # the card reported for this track
    first_seen: float = 0.0
    boxes: deque = field(default_factory=deque)  # recent boxes, to tell a card lying still
    tops: deque = field(default_factory=deque)  # recent (best read, confidence), to notice a card replaced
    unbroken: bool = True  # seen without a real gap since decided: a change of reads is then a re-read
    named_box: tuple[float, float, float, float] | None = None  # where it lay when its card was named
    named_at: float | None = None
    corners: list = field(default_factory=list)  # the last read's outline, where the reader gives one
    named_corners: list = field(default_factory=list)
    cut: bool = False  # the last read's card runs off the picture
    reads: int = 0
    mentions: dict[str, int] = field(default_factory=dict)  # reads naming the card first or next-best
    firsts: dict[str, list[float]] = field(default_factory=dict)  # card -> [reads naming it first, their confidence]
    # card -> [reads naming it first while it lay whole on top (no card on it, not cut), their class probability]
    whole: dict[str, list[float]] = field(default_factory=dict)
    whole_run: int = 0  # the last reads in a row that named its card off the whole card: it lies on top now
    fixed: bool = False  # a person named it: no re-read renames it (a card thrown onto it, or laid after a gap, still can)
    overruled: str | None = None  # what the camera named it before a person named it otherwise: its misread
    glimpsed: bool = False  # adopted from timid reads alone (Stabilizer.adopt): they keep it on the table
    came_from: tuple[float, float, float, float] | None = None  # its first read's box: was it carried in?
    on_the_way: dict[str, float] = field(default_factory=dict)  # card -> confidence of the best reads while it moved
    lain_still: bool = False  # it has lain still once: later jumps of its box are the camera's, not its way
    rest: tuple[float, float, float, float] | None = None  # where it last lay still
    glimpsed_since: float | None = None  # since when a glimpse lay where its first counted read came (_glimpsed_at)
    thrown: float | None = None  # when it was first seen coming, or read, where its reads took over a card under it
    read_at: float = 0.0  # when it was last read
    under: bool = False  # it lay whole on top, unnamed, when a card seen coming was thrown onto it: it lies under that
    # once named, reads here naming other cards: card -> [first t, last t, last box, reads] (Stabilizer._taken_at)
    others: dict[str, list] = field(default_factory=dict)
    others_from: dict[str, int] = field(default_factory=dict)  # card -> its reads so far when ``others`` began it
    taken_since: float | None = None  # its reads went first to another card's track here: since then (_taken_at)
    first_read: dict[str, float] = field(default_factory=dict)  # card -> when a read first named it
    # card -> when a read last named it (its timid reads too, if glimpsed): when its picture last showed it
    last_read: dict[str, float] = field(default_factory=dict)
    top_since: float = 0.0  # since when its reads have named the card its last read named, without a break
    lying: dict[str, int] = field(default_factory=dict)  # card -> reads naming it where the last one lay still

    def arrived(self) -> float:
        """When it came onto the table: where it was read only timidly at first (a card landing under
        the hand that threw it), since that glimpse came there, not since its reads grew sure."""
        return min(t for t in (self.first_seen, self.glimpsed_since, self.taken_since) if t is not None)

    def note_other(self, read: Read, t: float) -> None:
        """A read of its named spot naming another card: perhaps one laid onto it, read here too."""
        first, _, _, n = self.others.get(read.card, (t, t, read.box, 0))
        self.others[read.card] = [first, t, read.box, n + 1]
        self.others_from.setdefault(read.card, self.reads)

    def run(self) -> tuple[str | None, list[float]]:
        """The card its last reads name, and the confidences of those reads in a row naming it, newest first."""
        if not self.tops:
            return None, []
        new = self.tops[-1][0]
        return new, [conf for _, conf in takewhile(lambda top: top[0] == new, reversed(self.tops))]

    def step(self) -> tuple[float, float]:
        """How far its box's centre moved between its last two reads."""
        if len(self.boxes) < 2:
            return (0.0, 0.0)
        (a, b), (c, d) = box_centre(self.boxes[-2]), box_centre(self.boxes[-1])
        return (c - a, d - b)

    def ahead(self, frames: int) -> tuple[float, float, float, float]:
        """Where its box would be this frame had it kept its last step for every frame since (a
        card thrown fast is lost for a frame or two as it lands: blurred, then timidly read). A card
        lost longer has stopped or gone; it is looked for where it was last seen."""
        dx, dy = self.step()
        k = self.missing + 1 if self.missing < frames else 0
        x0, y0, x1, y1 = self.box
        return (x0 + k * dx, y0 + k * dy, x1 + k * dx, y1 + k * dy)

    def sureness(self, card: str, alternative_weight: float) -> float:
        """Mean confidence of the reads naming ``card`` first; for a card only ever next-best (the best
        read was impossible), its mean weight as the next-best (probability times the read's confidence)."""
        n, conf = self.firsts.get(card, (0, 0.0))
        if n:
            return conf / n
        return self.votes.get(card, 0.0) / (alternative_weight * max(1, self.mentions.get(card, 0)))

    @property
    def top(self) -> str:
        """The card its votes name most, possible or not."""
        return max(self.votes, key=self.votes.__getitem__)

    def named_whole(self) -> tuple[int, float]:
        """How many of the last reads in a row named its card off the whole card, nothing on it, and the
        classifier's mean probability in all such reads of it: which card it is, apart from how sure the
        detector was of the box (0, 0.0 while unnamed)."""
        n, prob = self.whole.get(self.card, (0, 0.0)) if self.card else (0, 0.0)
        return self.whole_run, (prob / n if n else 0.0)

    def vote(self, read: Read, alternative_weight: float) -> None:
        self.reads += 1
        self.votes[read.card] = self.votes.get(read.card, 0.0) + read.confidence
        self.mentions[read.card] = self.mentions.get(read.card, 0) + 1
        n, conf = self.firsts.get(read.card, (0, 0.0))
        self.firsts[read.card] = [n + 1, conf + read.confidence]
        whole = _whole(read)
        self.whole_run = self.whole_run + 1 if whole and read.card == self.card else 0
        if whole:
            m, prob = self.whole.get(read.card, (0, 0.0))
            self.whole[read.card] = [m + 1, prob + _read_prob(read)]
        for alt, p in read.alternatives:
            self.votes[alt] = self.votes.get(alt, 0.0) + alternative_weight * p * read.confidence
            self.mentions[alt] = self.mentions.get(alt, 0) + 1


@dataclass(frozen=True)
class Lie:
    """Where a glimpse lay still, read about there from ``since`` to ``until``: a card lying on the pile that
    the camera reads only timidly, if it lay long enough, whole (``whole`` reads with nothing on it)."""

    box: tuple[float, float, float, float]
    since: float
    until: float
    votes: tuple[tuple[str, float], ...]  # what its reads there named, weighed by confidence
    reads: int
    whole: int
    source: int  # the glimpse it is of (``id``): a glimpse taken over by a card read surely takes its lies along

    @property
    def named(self) -> str:
        """The card its reads there named most, possible or not."""
        return max(self.votes, key=lambda cv: cv[1])[0]


@dataclass
class Glimpse:
    """Where reads too timid to count (under ``min_conf``) keep coming: no card is named from them, yet
    something card-like lies there since ``since`` (a card thrown onto the pile, read at 0.4)."""

    box: tuple[float, float, float, float]
    since: float
    last: float
    rest_box: tuple[float, float, float, float]  # where it came to rest: a card lying still stays there
    rest_since: float  # when it came there (a card read timidly as it was carried in, too, comes to rest)
    votes: dict[str, float] = field(default_factory=dict)  # what the timid reads named, weighed by confidence
    reads: int = 0
    lay_box: tuple[float, float, float, float] | None = None  # where it has been read about since ``lay_since``
    lay_since: float = 0.0  # timid boxes jitter more than ``still_iou`` allows: this only asks "about there"
    came_from: tuple[float, float, float, float] | None = None  # its first read's box (``box`` where not given)
    lay_votes: dict[str, float] = field(default_factory=dict)  # what its reads named since ``lay_since``
    lay_first: dict[str, float] = field(default_factory=dict)  # card -> when a read first named it since then
    lay_reads: int = 0  # reads since ``lay_since``
    lay_whole: int = 0  # of those reads, how many saw a card whole (not cut, nothing on it)
    lain: list[Lie] = field(default_factory=list)  # where it lay before its box jumped (the stabilizer takes them)
    first_box: dict[str, tuple[float, float, float, float]] = field(default_factory=dict)  # card -> its first read's box

    def __post_init__(self) -> None:
        if self.came_from is None:
            self.came_from = self.box

    @property
    def named(self) -> str:
        """The card its timid reads named most."""
        return max(self.votes, key=self.votes.__getitem__)

    def carried(self, still_iou: float) -> bool:
        """Read more than once, and moved from where a read first named the card it names most: a card on its
        way, read timidly (blurred, half under the hand that throws it), as a track's card is seen passing. A
        glimpse that moved only while its reads named another card is no such card carried in (held-out 704267:
        a glimpse began with the Kd landing, then took the 6h's strip under it, read 7h where it lay; a 7h was
        taken for thrown there and recorded)."""
        return self.reads > 1 and box_iou(self.first_box[self.named], self.box) < still_iou

    def still(self) -> bool:
        """It was read again where it came to rest: a card lying, not a hand passing."""
        return self.rest_since < self.last

    def lay(self) -> float | None:
        """Since when it has been read about where it is, read more than once there; None while not."""
        return self.lay_since if self.lay_since < self.last else None

    def lie(self) -> Lie | None:
        """Where it lies about now, read there since ``lay_since``; None before its first read there."""
        if self.lay_box is None or not self.lay_votes:
            return None
        return Lie(self.lay_box, self.lay_since, self.last, tuple(self.lay_votes.items()), self.lay_reads,
                   self.lay_whole, id(self))

    def see(self, read: Read, t: float, still_iou: float, about_iou: float) -> None:
        if box_iou(self.rest_box, read.box) < still_iou:
            self.rest_box, self.rest_since = read.box, t
        if self.lay_box is None or box_iou(self.lay_box, read.box) < about_iou:
            lie = self.lie()
            if lie is not None:
                self.lain.append(lie)
            self.lay_box, self.lay_since, self.lay_votes, self.lay_reads, self.lay_whole = read.box, t, {}, 0, 0
            self.lay_first = {}
        self.box, self.last, self.reads = read.box, t, self.reads + 1
        self.first_box.setdefault(read.card, read.box)
        self.votes[read.card] = self.votes.get(read.card, 0.0) + read.confidence
        self.lay_votes[read.card] = self.lay_votes.get(read.card, 0.0) + read.confidence
        self.lay_first.setdefault(read.card, t)
        self.lay_reads += 1
        self.lay_whole += _whole(read)


class Stabilizer:
    def __init__(self, settings: TrackerSettings = TABLE, **overrides) -> None:
        """A tracker with ``settings`` and ``overrides`` of its fields, in frames of a source at
        ``REFERENCE_FPS``; it measures the rate frames really come at and counts the same spans of time."""
        self.base = replace(settings, **overrides) if overrides else settings
        self.settings = self.base
        self.fps = REFERENCE_FPS
        self._times: deque[float] = deque(maxlen=16)
        self._carried: deque[Carried] = deque(maxlen=self.settings.carried_memory)  # lost while carried in, unnamed
        self.tracks: list[Track] = []
        self._next = 1
        self._sides: Sides | None = None  # this frame's, and its reads: asked only of a re-read
        self._reads: list[Read] = []
        self._kept: set[int] = set()  # tracks whose own spot was read this frame while a read of another card lay on them
        self.timid: list[Read] = []  # this frame's reads too unsure to count (:meth:`counts`)
        self.glimpses: list[Glimpse] = []
        self._others: deque[tuple[str, list]] = deque(maxlen=self.settings.carried_memory)  # of ended tracks
        self._lain: deque[Lie] = deque(maxlen=self.settings.carried_memory)  # where glimpses lay still (_covered_lies)
        self._ended: dict[str, float] = {}  # card -> when its last named track ended
        self._ended_named: deque[Track] = deque(maxlen=self.settings.carried_memory)  # named, ended (_covered_since_named)

    @property
    def gone_span(self) -> float:
        """Seconds unseen before a card counts as taken away (``gone_after`` frames at the measured rate)."""
        return self.settings.gone_after / self.fps

    def update(self, reads: Iterable[Read], t: float, impossible: frozenset[str] | set[str] = frozenset(),
               sides: Sides | None = None) -> list:
        """Feed one frame's reads; returns the events this frame makes certain. ``sides`` asks the frame
        whether a card's sides still show where the cards in view leave them free
        (:func:`vision.recognize.layers.sides_in`): how a card thrown onto a pile is told from a re-read."""
        self._pace(t)
        reads = list(reads)
        counts = [self.counts(r, reads) for r in reads]
        self.timid = timid = [r for r, c in zip(reads, counts) if not c]
        reads = [r for r, c in zip(reads, counts) if c]
        self._glimpse([r for r in timid if not any(tr.glimpsed and self._on(tr, r) for tr in self.tracks)
                       and not self._part_of(r, reads)], t)
        self._sides, self._reads = sides, reads
        matched = self._match(reads, t)
        events: list = []
        for track in list(self.tracks):
            read = matched.get(track.id)
            track.hits.append(read is not None)
            if len(track.hits) > self.settings.window:
                track.hits.popleft()
            if read is not None:
                self._leave_reads(track, read, t)
                track.box, track.missing, track.read_at = read.box, 0, t
                track.corners = list(getattr(read, "corners", None) or [])
                track.cut = bool(getattr(read, "cut", False))
                moved = self._moving(track, read)
                track.vote(read, self.settings.alternative_weight)
                track.first_read.setdefault(read.card, t)
                track.last_read[read.card] = t
                if not moved:
                    track.lying[read.card] = track.lying.get(read.card, 0) + 1
                if track.card is not None and read.card != track.card:
                    track.note_other(read, t)
                if track.card is None and not track.lain_still and moved:  # an unnamed card's way
                    track.on_the_way[read.card] = track.on_the_way.get(read.card, 0.0) + read.confidence
                _push(track.boxes, read.box, self._edge_hits)
                if not track.tops or track.tops[-1][0] != read.card:
                    track.top_since = t
                _push(track.tops, (read.card, read.confidence), 3 * self.settings.window)
                if self._still(track):
                    track.rest = read.box
            elif track.id in self._kept:
                pass  # a card thrown onto it was read; it is read where it lies, if only timidly: it lies there still
            elif self._waits_in_view(track, timid):
                pass  # it still lies there, waiting to be named: its start stays its own
            elif track.glimpsed and any(self._on(track, r) for r in timid):
                # a card only ever read timidly is still there while its timid reads keep coming; one read where
                # it lies, not one across it (a card thrown onto it, misread), shows it
                here = [r for r in timid if box_iou(track.box, r.box) >= self.settings.still_iou]
                track.last_read.update((r.card, t) for r in here)
            else:
                track.missing += 1
                # only a gap after the card was named can hide a swap; one while it was carried in cannot
                track.unbroken = track.unbroken and (track.card is None or track.missing < self.settings.gap_frames)
            events.extend(self._decide(track, t, impossible))
        return events

    def _waits_in_view(self, track: Track, timid: list[Read]) -> bool:
        """A card that lay whole on top, named or waiting for surer reads, is read this frame only timidly, as itself
        and where it lies: a hand or a card passing left it dimmer, not gone (held-out Kratzen pile 703107: the As,
        read 0.5-0.6 for a second, read 0.2-0.4 after the hand that threw the 7c passed; its track ended, and
        found again it went after the 7c and the 9d thrown after it; held-out pile 704031: the 9s, named, not yet
        recorded, read 0.3-0.4 with the 9d half on it, went after the 9d)."""
        if not track.votes or not self._lay_on_top(track):
            return False
        lying, card = self._lying(track), track.card or track.top
        return any(r.card == card and box_iou(lying, r.box) >= self.settings.still_iou for r in timid)

    def counts(self, read: Read, frame: Sequence[Read] = ()) -> bool:
        """``read`` is sure enough to follow and vote with: confident (``min_conf``), or a card lying whole on a
        card (on a pile) that the classifier names at ``whole_conf`` or more, however low the detector scored its
        box, where no confident read of ``frame`` (its frame's reads) with nothing on it lies there too. On a pile
        the detector doubts a card lying whole on others, not which card it is; two cards never lie on top in one
        place, so such a box on a confident one is that card boxed again. On the bare cloth the detector's doubt
        is whether it is a card at all (a dotted cloth's pips read as an 8h: held-out Kratzen 703171)."""
        if read.confidence >= self.settings.min_conf:
            return True
        if not _whole(read):
            return False
        if _read_prob(read) < self.settings.whole_conf:
            return False
        if not self._on_a_card(read, frame):
            return False
        return not any(r.confidence >= self.settings.min_conf and not getattr(r, "under", ())
                       and self.lies_on(r.box, read.box) for r in frame)

    def _part_of(self, read: Read, sure: Sequence[Read]) -> bool:
        """``read``'s outline lies within that of a sure read of its frame that saw its card whole
        (``part_within``): a part of that card boxed again, no glimpse of a card of its own (held-out pile
        703894: a box over three quarters of the upcard, read Tc at 0.37 now and then, was taken for a card the
        trump 6 covered, and the answer, the upcard, for the lead). Reads without an outline are not judged: a
        card lies within the upright box of one turned under it."""
        part = _outline(read)
        if not part:
            return False
        wholes = [outline for r in sure if _whole(r) and (outline := _outline(r))]
        return any(quad_within(part, outline) >= self.settings.part_within for outline in wholes)

    def _on_a_card(self, read: Read, frame: Sequence[Read]) -> bool:
        """``read`` lies on a card: the frame shows one under it, or a card named from reads of its own (not
        a glimpse) lies where it is, in view or covered."""
        at = next((i for i, r in enumerate(frame) if r is read), None)
        if at is not None and any(at in getattr(r, "under", ()) for r in frame):
            return True
        return any(tr.card is not None and not tr.glimpsed and self._on(tr, read) for tr in self.tracks)

    def _on(self, track: Track, read: Read) -> bool:
        """``read`` lies where ``track`` is, as a read matching it would."""
        return self.lies_on(track.box, read.box)

    def lies_on(self, box: tuple[float, float, float, float], other: tuple[float, float, float, float]) -> bool:
        """Something seen at ``other`` lies where a card last seen at ``box`` is, as a read matching its
        track would."""
        return box_iou(box, other) >= self.settings.match_iou or box_cover(box, other) >= self.settings.match_cover

    def _moving(self, track: Track, read: Read) -> bool:
        """``read`` finds ``track``'s card moved since its last read (or is its first)."""
        return not track.boxes or box_iou(track.boxes[-1], read.box) < self.settings.still_iou

    def resting(self, t: float, rest: float | None = None) -> list[Glimpse]:
        """Glimpses read this frame that have lain still where they came to rest for ``rest`` seconds
        (``ask_after`` by default): what the watcher may adopt where the table needs a card."""
        rest = self.settings.ask_after if rest is None else rest
        return [g for g in self.glimpses if g.last >= t and t - g.rest_since >= rest]

    def _glimpse(self, timid: list[Read], t: float) -> None:
        """Follow where timid reads come, frame to frame, as tracks follow counted reads: each glimpse takes
        at most one read a frame, the nearest; one unseen for ``gone_after`` frames is forgotten."""
        span = self.gone_span
        for g in self.glimpses:
            if t - g.last > span and g.carried(self.settings.still_iou):
                self._carried.append(Carried.of_glimpse(g))
            if t - g.last > span:
                self._keep_lie(g.lie())
        self.glimpses = [g for g in self.glimpses if t - g.last <= span]
        pairs = [(box_iou(g.box, r.box), i, j) for i, g in enumerate(self.glimpses) for j, r in enumerate(timid)]
        # one read each, best overlap first: two cards read on each other stay two glimpses
        paired = _best_first(pairs, lambda iou, i, j: iou >= self.settings.match_iou)
        for i, j in paired.items():
            self.glimpses[i].see(timid[j], t, self.settings.still_iou, self.settings.match_iou)
        seen = set(paired.values())
        for j, r in enumerate(timid):
            if j not in seen:
                g = Glimpse(r.box, t, t, r.box, t)
                g.see(r, t, self.settings.still_iou, self.settings.match_iou)
                self.glimpses.append(g)
        for g in self.glimpses:
            for lie in g.lain:
                self._keep_lie(lie)
            g.lain.clear()

    def _keep_lie(self, lie: Lie | None) -> None:
        """Remember where a glimpse lay, if it lay still there for ``cover_rest`` and was seen whole in
        ``min_hits`` reads: a card lying on top, perhaps covered later (:meth:`_covered_lies`)."""
        if lie is not None and self._lay_whole(lie):
            self._lain.append(lie)

    def _lay_whole(self, lie: Lie) -> bool:
        """``lie`` lay still for ``cover_rest``, seen whole in ``min_hits`` reads: not a hand passing, nor a strip
        of a card under others."""
        return lie.until - lie.since >= self.settings.cover_rest and lie.whole >= self.settings.min_hits

    def adopt(self, glimpse: Glimpse, t: float, impossible: frozenset[str] | set[str] = frozenset()) -> list[CardLaid]:
        """A card read only timidly, lying still where the table needs a card (a watcher's call): a track
        named unsettled from its timid reads, so the table is asked which card it is. Its timid reads
        keep it on the table, as counted reads keep any other; none where it moved or named no possible card.
        Cards it lies on that waited for surer reads are named first, as under a card thrown onto them."""
        if not _options(glimpse.votes, impossible) or not glimpse.still() \
                or self.second_box_of(glimpse.named, glimpse.box):
            return []
        self.glimpses.remove(glimpse)
        under: list[CardLaid] = []
        for tr in self._waiting_under(glimpse):
            tr.under = True
            under += self._name_under(tr, t, impossible)
        # its last timid read came this frame
        return under + [self._timid_track(glimpse.box, glimpse.since, glimpse.last, glimpse.votes, glimpse.reads, t,
                                          impossible, glimpsed=True)]

    def second_box_of(self, card: str, box: tuple[float, float, float, float]) -> bool:
        """A track lying where ``box`` is has named ``card``: reads of ``card`` there are a second box of that card
        (a part of it, or the whole boxed twice), not another card laid there. Held-out piles: 704031, the part of
        the 8s showing beside the Qs on it, read 8s timidly, was adopted as the next card (:meth:`adopt`); 704363,
        the 9s's duplicate box lent its start to the Ts thrown there (:meth:`_glimpse_start`); 704531, the upcard's
        second box held the next card back (``Watcher._earlier_card_unread``)."""
        return any(tr.card == card and self.lies_on(tr.box, box) for tr in self.tracks)

    def _waiting_under(self, glimpse: Glimpse) -> list[Track]:
        """Unnamed cards that lay whole on top, waiting for surer reads, before ``glimpse`` came to lie on them read
        as another card: each came first and lies under it now (held-out pile 704031: the 8s, read 0.55 for a
        second, was covered by the Qs, read only timidly; the Qs was adopted as the lead, the 8s's track ended
        unnamed, and every play of the trick went a seat wrong)."""
        return [tr for tr in self.tracks if tr.card is None and not tr.under and tr.votes and self._lay_on_top(tr)
                and tr.first_seen < glimpse.since and tr.top != glimpse.named and self.lies_on(tr.box, glimpse.box)]

    def _timid_track(self, box: tuple[float, float, float, float], since: float, last: float, votes: dict[str, float],
                     reads: int, t: float, impossible, covered: float | None = None, **fields) -> CardLaid:
        """A track named now, unsettled, the first possible card of ``votes`` (timid reads, ``reads`` of them, from
        ``since`` to ``last``), so the table is asked which card it is; ``fields``: the track's own (glimpsed, under)."""
        options = _options(votes, impossible)
        possible = sum(v for v, _ in options)
        track = Track(self._next, box, first_seen=since, card=options[0][1], named_box=box, named_at=t, reads=reads,
                      **fields)
        self._next += 1
        track.votes = dict(votes)
        track.last_read = {track.card: last}
        self.tracks.append(track)
        return CardLaid(track.id, track.card, track.box, t, options[0][0] / possible, since,
                        confidence=options[0][0] / max(1, reads), choices=_choices(options), settled=False,
                        covered=covered)

    def _pace(self, t: float) -> None:
        """Follow the rate frames come at (a webcam's nominal rate, or a slow machine's): the median gap of
        the last frames, from the second frame on; the counts change only when it moves by more than
        ``PACE_SLACK``."""
        self._times.append(t)
        gaps = sorted(b - a for a, b in zip(self._times, list(self._times)[1:]) if b > a)
        if not gaps:
            return
        fps = 1.0 / gaps[len(gaps) // 2]
        if abs(fps - self.fps) > PACE_SLACK * self.fps:
            self.fps, self.settings = fps, self.base.at_fps(fps)

    def rename(self, track_id: int, card: str) -> None:
        """A person named the card of a track: it keeps that name, whatever the reads say after; the camera's
        own name for it, so overruled, names no card laid there unless one is seen coming."""
        for track in self.tracks:
            if track.id == track_id:
                track.overruled = track.card if track.card != card else None
                track.card, track.fixed = card, True

    def _match(self, reads: list[Read], t: float) -> dict[int, Read]:
        """Greedy IoU matching of reads to tracks; unmatched reads start new tracks.

        A card being carried is matched where its last step takes it as well as where it was last
        seen, the card seen there first where both fit: a card thrown onto another is often lost for
        a few frames as it lands and found again nearer the card under it than the spot it was lost
        at, and must not take over that card's track. A hand over part of a card shrinks its box
        below the IoU threshold while the box stays within the card's: such a pair still matches
        (after every IoU match), so the visible part's misreads vote on the card instead of starting
        a phantom card of their own; and the card is looked for where it lay whole as well (:meth:`_lying`)."""
        boxes = {tr.id: tr.box for tr in self.tracks}
        ahead = {tr.id: tr.ahead(self.settings.ahead_frames) for tr in self.tracks}
        lay = {tr.id: self._lying(tr) for tr in self.tracks}
        trust = self.settings.ahead_trust
        kept_off = {(tr.id, i) for tr in self.tracks if not tr.under for i, r in enumerate(reads)
                    if self._stays_under(tr, r)}
        self._kept = {tid for tid, _ in kept_off}
        pairs = [(max(box_iou(tr.box, r.box), box_iou(lay[tr.id], r.box), trust * box_iou(ahead[tr.id], r.box)),
                  tr.id, i) for tr in self.tracks if not tr.under for i, r in enumerate(reads)
                 if (tr.id, i) not in kept_off and not self._hidden_off(tr, r, t)]
        paired = _best_first(pairs, lambda iou, tid, i: iou >= self.settings.match_iou or
                             box_cover(boxes[tid], reads[i].box) >= self.settings.match_cover)
        by_id = {tr.id: tr for tr in self.tracks}
        over = {tid for tid, i in paired.items() if self._thrown_over(by_id[tid], reads[i], t)}
        for tid in over:  # one that lay whole on top lies under the thrown card, to be named; any other ends unnamed
            by_id[tid].under = self._lay_on_top(by_id[tid])
        self.tracks = [tr for tr in self.tracks if tr.id not in over or tr.under]  # the read starts its own
        paired = {tid: i for tid, i in paired.items() if tid not in over}
        out: dict[int, Read] = {tid: reads[i] for tid, i in paired.items()}
        used = set(paired.values())
        for i, r in enumerate(reads):
            if i not in used:
                tr = Track(self._next, r.box, first_seen=t, came_from=r.box,
                           glimpsed_since=self._glimpsed_at(r.box, r.card), taken_since=self._taken_at(r, t))
                self._next += 1
                self.tracks.append(tr)
                out[tr.id] = r
        return out

    def _stays_under(self, track: Track, read: Read) -> bool:
        """``read`` names another card than ``track``'s, which has lain still and is read where it lies this very
        frame, if only timidly: the card thrown onto it, not it moved (held-out Kratzen pile 702838: Anna's Th,
        landing half on the Ad, took the Ad's track, and the Ad, read Ah under it, was recorded as a new card)."""
        if track.card is None or not track.lain_still or track.rest is None or read.card == track.card:
            return False
        if box_iou(track.rest, read.box) >= self.settings.still_iou or not self.lies_on(track.box, read.box):
            return False  # read where it lies (the card itself, misread), or elsewhere
        return any(box_iou(track.rest, r.box) >= self.settings.still_iou for r in [*self.timid, *self._reads])

    def _hidden_off(self, track: Track, read: Read, t: float) -> bool:
        """``read`` names a card seen carried in towards ``track``'s, which lay still where it was last seen and is
        hidden now (a hand over it), and lies off that spot: a card does not move while hidden, so it is the card
        being laid beside or half on it (held-out Kratzen pile 703995: the 8d laid half onto the turned Js took
        its track, and the Js, read again where it lay, became a second Js, recorded as the lead). A covered
        card's own part, boxed anew and misread, was never seen coming (tuning pile 126: a 9s under the 7s, read 8s);
        one boxed within the spot is no card laid off it, whatever was glimpsed (held-out Kratzen pile 704874: the 8d's
        uncovered part under the As, glimpsed as 7d while the hand came, began a 7d of its own, recorded)."""
        if track.card is None or read.card in track.first_read or track.missing == 0 or track.rest is None:
            return False
        still = self.settings.still_iou
        if box_iou(track.box, track.rest) < still or box_iou(track.rest, read.box) >= still:
            return False
        if box_within(read.box, track.rest) >= self.settings.match_cover:
            return False  # within the spot: what shows of its card, or a card squarely on it (``_replaced`` tells)
        return self.seen_coming(read.card, track.box, track.first_seen, t)

    def _thrown_over(self, track: Track, read: Read, t: float) -> bool:
        """``read`` is of a card seen carried onto a spot whose unnamed track had read as another card until
        now: what lay there (the edge of a covered card, read otherwise) is not this card, nor did this card
        come when that track began, so that track ends (or lies under it: :meth:`_lay_on_top`) and the read
        starts the thrown card's own (held-out pile hand 701430: Erich's Qs, thrown onto a strip read Qd, took
        the strip's start and was recorded before Doris's Ks). That track came when it arrived, its glimpse
        included (held-out pile 702956: the Jc, seen in the air after the Qs's glimpse began but before the
        Qs's first sure read, took the Qs's track and start). A card read where it lies this very frame, lying whole
        on top, is not the read off its spot either, seen coming or not (:meth:`_still_read_there`)."""
        if track.card is not None or track.glimpsed or not track.firsts or read.card in track.firsts:
            return False
        return self.seen_coming(read.card, track.box, track.arrived(), t) or self._still_read_there(track, read)

    def _still_read_there(self, track: Track, read: Read) -> bool:
        """``track``'s card, lying whole on top and still, is read as itself where it lies this very frame, if only
        timidly, while ``read`` lies off that spot, not within it: a card does not lie in two places, so ``read`` is
        a card thrown onto it (held-out Kratzen pile 705003: Cla's Qc, seen coming only in single glimpses that named
        other cards, landed half on Beat's Ah, waiting for surer reads and read 0.36 where it lay; the Qc took the
        Ah's track, the question showed the Qc, and the Ah and Qc were recorded for each other's players). A read
        within the spot may be a part of the card boxed again, misread: it stays the card's to vote on."""
        if track.rest is None or not self._lay_on_top(track) or box_iou(track.rest, read.box) >= self.settings.still_iou:
            return False
        if box_within(read.box, track.rest) >= self.settings.match_cover:
            return False
        return any(r.card == track.top and box_iou(track.rest, r.box) >= self.settings.still_iou
                   for r in [*self.timid, *self._reads])

    def _lay_on_top(self, track: Track) -> bool:
        """``track``'s card lay still, seen whole with nothing on it in ``min_hits`` reads: a card laid on top of the
        pile. A strip showing under the cards on it (tuning pile 11: a 7d's edge read 6d) never is."""
        return track.lain_still and sum(n for n, _ in track.whole.values()) >= self.settings.min_hits

    def _glimpsed_at(self, box: tuple[float, float, float, float], card: str) -> float | None:
        """Since when a glimpse has lain within ``box``, where ``card`` is first read surely: that card, its
        timid reads turned sure (a card that landed half under the hand that threw it). It is taken over,
        so it stands for no other card; None where no glimpse lies there, or none tells (:meth:`_glimpse_start`;
        held-out pile 702527: a glimpse of the spot, read as six cards since 37.1 s, lent that start to the Th
        thrown at 39.6 s, and the Th went before the 7c lying there)."""
        here = [g for g in self.glimpses if g.lay() is not None and box_within(g.box, box) >= self.settings.match_cover]
        if not here:
            return None
        self.glimpses = [g for g in self.glimpses if g not in here]
        taken = {id(g) for g in here}
        self._lain = deque((lie for lie in self._lain if lie.source not in taken), maxlen=self._lain.maxlen)
        starts = [self._glimpse_start(g, card) for g in here]
        return min((since for since in starts if since is not None), default=None)

    def _glimpse_start(self, glimpse: Glimpse, card: str) -> float | None:
        """When ``card`` came, as ``glimpse`` lying where it is first read surely tells it: when the glimpse came
        there, where its reads name ``card`` most or agree on one card (``min_support`` of them: that card read
        timidly, perhaps misread; tuning pile 113: a Qc landing, read Qc, Qs and Jd); else when they first named
        ``card``, if ever. Reads scattered over other cards are of the spot, the parts of the cards lying there;
        reads agreeing on a card a track named there are of that card, a second box of it (:meth:`second_box_of`)."""
        lie = glimpse.lie()
        if lie is not None and (lie.named == card or _majority(lie.votes, lie.named, self.settings.min_support)
                                and not self.second_box_of(lie.named, glimpse.box)):
            return lie.since
        return glimpse.lay_first.get(card)

    def _lying(self, track: Track) -> tuple[float, float, float, float]:
        """Where ``track``'s card lies whole: where it last lay still, while its last read showed only a part
        of it there (a card thrown across it, a hand over it). Looked for only where that part was last seen,
        it lost its reads to a card flying past, whose expected box was nearer (held-out pile hand 700729)."""
        rest = track.rest
        if rest is not None and box_within(track.box, rest) >= self.settings.match_cover:
            return rest
        return track.box

    def _decide(self, track: Track, t: float, impossible) -> list:
        if track.missing >= self.settings.gone_after and not (track.under and self._lain_on(track)):
            self.tracks.remove(track)
            self._retire(track, t)
            if track.card is None and _passing(track, self.settings.still_iou):
                self._carried.append(Carried.of(track, self._sure_weight))
            return [CardGone(track.id, track.card, t)] if track.card else []
        if track.card is not None:
            return self._replaced(track, t, impossible)
        if track.under:
            return self._name_under(track, t, impossible)
        if sum(track.hits) < self.settings.min_hits or not self._still(track):
            return []
        track.lain_still = True
        total = sum(track.votes.values())
        options = _options(track.votes, impossible)
        if not options:
            return []
        possible = sum(v for v, _ in options)
        best = options[0][0]
        unclear = best < self.settings.min_support * possible or best < self.settings.min_share * total
        timid = best / possible * total < self._sure_weight  # a hand half over it
        if (unclear or timid or self._doubtful(track, options[0][1], best / possible)) and \
                t - track.first_seen < self.settings.ask_after:
            return []  # wait for a clear, sure majority, or for a carried card's reads lying still
        # the reads favour a card that cannot be new here: the next-best is a guess, for the table to confirm
        guess = track.top in impossible
        if self._stray(track, options[0][1], impossible):
            return self._replaced(track, t, impossible)  # a card laid onto the one found again is a card
        laid = self._name(track, t, options, not (unclear or timid or guess), favoured=track.top if guess else None)
        came = track.arrived() if track.thrown is None else min(track.thrown, track.arrived())
        return self._covered_lies(track, came, t, impossible) + [laid]

    def _name_under(self, track: Track, t: float, impossible) -> list:
        """A card that lay whole on top waiting for surer reads, covered by one thrown onto it: named now from the
        reads it had, unsettled, so the table is asked with the picture of it last seen (held-out pile hand 701565:
        a Kc read timidly for a second, covered by the 7d, was never recorded, and every later play went a seat
        on). Ended where its reads favour a card that cannot be new here: a card in view found again. The picture and
        box are where it lay still when last read as that card, not a read of the card coming onto it (held-out pile
        704574: the 8c's question showed the 8s landing on it, was answered 8s, and every later play went wrong)."""
        options = _options(track.votes, impossible)
        if not options or track.top in impossible:
            self.tracks.remove(track)
            return []
        track.box = track.rest or track.box
        return [self._name(track, t, options, False, covered=track.last_read.get(options[0][1], track.read_at))]

    def _name(self, track: Track, t: float, options: list[tuple[float, str]], settled: bool, **more) -> CardLaid:
        """Name ``track`` the first of its possible ``options`` (votes, card), here and now."""
        possible = sum(v for v, _ in options)
        track.card, track.named_box, track.named_corners, track.named_at = options[0][1], track.box, track.corners, t
        return CardLaid(track.id, track.card, track.box, t, options[0][0] / possible, self.arrival(track),
                        confidence=track.sureness(track.card, self.settings.alternative_weight),
                        choices=_choices(options), settled=settled, thrown=track.thrown, **more)

    def _lain_on(self, track: Track) -> bool:
        """A card still on the table (a track not ended, nor itself under one) lies on ``track``'s: a card under
        it is still on the table, though out of sight."""
        return any(self._lying_on(track))

    def _lying_on(self, track: Track) -> Iterator[Track]:
        """The other tracks whose cards lie on ``track``'s, each not itself under a card."""
        return (o for o in self.tracks if o is not track and not o.under and self.lies_on(track.box, o.box))

    def _doubtful(self, track: Track, card: str, support: float) -> bool:
        """``card`` was seen carried in, named mostly so on its way too, and, named now, would be asked
        (split or timid reads): the reads of a card on its way (blurred, half under the hand) scatter
        over its neighbours, and those of it lying still outvote them within ``ask_after``, so it waits
        for them as an unclear card does. Where the way named another card mostly, the two disagree
        (a reprinted card read surely wrong lying still): no wait, it is asked."""
        st = self.settings
        if track.came_from is None or box_iou(track.came_from, track.box) >= st.still_iou:
            return False  # it appeared where it lies: more reads of it are no better
        if max(track.on_the_way, key=track.on_the_way.__getitem__, default=card) != card:
            return False
        return support < st.ask_support or track.sureness(card, st.alternative_weight) < st.ask_conf

    def _stray(self, track: Track, card: str, impossible) -> bool:
        """The reads favour a card that cannot be new here, and ``card`` was among only a few of them:
        a card already in view found again by a track of its own (its first track slid onto a card
        passing over it), its rare misreads no new card. A card the reader mistakes for one already
        played has itself among the next-best reads of most frames."""
        return track.top in impossible and 2 * track.mentions.get(card, 0) < track.reads

    @property
    def _sure_weight(self) -> float:
        """What the reads naming a card must weigh to name it surely, lying or on its way: ``min_hits`` reads
        at ``sure_conf``."""
        return self.settings.min_hits * self.settings.sure_conf

    @property
    def _edge_hits(self) -> int:
        return max(self.settings.edge_hits, self.settings.min_hits)

    def _still(self, track: Track) -> bool:
        n = self._edge_hits if track.cut else self.settings.min_hits
        return len(track.boxes) >= n and box_iou(track.boxes[-n], track.boxes[-1]) >= self.settings.still_iou

    def _replaced(self, track: Track, t: float, impossible) -> list:
        """The recent reads all name one other possible card, surely enough: a new card lies here. A
        card seen coming (``_carried_in``) and read here since needs only ``window`` reads, however
        timid: a card thrown onto the pile lies half on cards much like it and is read at 0.6-0.65. Where
        the card seen coming was read as another on its way, surely or landing where the last was named,
        the two reads disagree and the table is asked (held-out pile hand 701513: a 7d read surely on its
        way, read 9d at 0.8 lying on the Kc); so too where the spot reads the new card only timidly, since
        then neither read outweighs the other (held-out pile hand 702094: a 9h read 0.6-0.75 on its way,
        read Th at 0.6 lying on the Jc); and where other cards were seen coming too, none as this one surely,
        and the spot reads it only timidly while one of them lies still across it, read as itself (held-out
        Kratzen pile 702367: a 7d thrown onto the Jd was seen coming as 7d and as 6d, and a box across it read
        6d at 0.6 where it lay; the 6d took its turn); and where the spot reads the new card only timidly, seen
        coming only in a glimpse (reads too timid to count), and another card came in reads that count: a glimpse
        of the spot jittering in place looks just like a card landing (held-out Kratzen pile 704239: boxes of the
        pile read Kd at 0.1-0.45 slid across the Kh, the 9h was thrown there, and the spot was recorded Kd).
        An unnamed track whose reads favour a card already named
        (a card in view found again, :meth:`_stray`) holds that card here: one laid onto it is tested the same way
        (held-out pile hand 702455: the 9d landed squarely on the Jd, found again, and its reads never outweighed
        the Jd's; the Kd after it took its turn). A named card hidden a moment and then read as another where it
        was named, with none seen coming, must hold the new reads as long as timid ones: a card laid squarely in
        the gap (the trump 6 swapped in) holds, a misread as the hand leaves does not (held-out pile hand 702700:
        the upcard 9c, hidden by the hand carrying the 8d past it, read Tc for three frames).
        A piece of a way naming a card that cannot be new here is no rival: it is that card, read as the hand
        passed over it (tuning pile hands 102, 125, 127: the upcard, or the trump 6 swapped for it, beside the
        pile, read timidly in a jumping box as the thrown card went by)."""
        if not track.tops or not self._still(track):
            return []  # a card being swept off the table is not a new card
        new, run = track.run()
        if new == (track.card or track.top) or new in impossible:
            return []
        if len(run) < self.settings.window:
            return []
        sure = sum(run[:self.settings.window]) >= self.settings.window * self.settings.sure_conf
        came = self._carried_in(track, t)  # thrown here: a new card, not this one read better
        names = {c.card for c in came}
        coming = new in names
        patient = len(run) >= self.settings.timid_factor * self.settings.window
        if not (sure or coming or patient):
            return []
        where_named = track.card is not None and self._where_named(track)
        in_place = where_named and track.unbroken  # read anew where named
        own = [c for c in came if not self._claimed(c, track)]  # the pieces of its way, not an earlier card's
        if where_named and not in_place and not patient and not any(c.card == new for c in own):
            return []  # a misread as the hand leaves, or a card laid squarely in the gap: only time tells
        if (where_named or self._within_named(track)) and self._covered_since_named(track):
            return []  # what shows of the named card under the card laid on it, misread: that card is the new one
        reread = in_place and all(self._landed_elsewhere(c, track) for c in came)
        if track.fixed and (reread or (new == track.overruled and not self._from_off(came, new, track))):
            return []  # the card the table named, read anew or read as the misread it overruled, slid a little
        gone = [CardGone(track.id, track.card, t, covered=not reread)] if track.card else []
        self.tracks.remove(track)
        self._retire(track, t)
        thrown = min((c.first_seen for c in own if c.card == new), default=None)  # when it was first seen coming
        if not reread:  # or when the spot's reads turned to it, if sooner (held-out Kratzen pile hand 701774: the
            # Jh, laid half on the 8h and read there at 0.6, renamed the spot a second later, after the 8s came)
            thrown = track.top_since if thrown is None else min(thrown, track.top_since)
            thrown = min(thrown, self._read_here_since(track, new))
        fresh = Track(self._next, track.box, first_seen=t, thrown=thrown)
        self._next += 1
        fresh.votes = {new: float(self.settings.window)}
        fresh.firsts = {new: [len(run), sum(run)]}  # how surely the spot now reads as the new card
        fresh.hits = deque([True] * self.settings.window)
        fresh.boxes = deque(track.boxes)
        fresh.corners, fresh.cut = track.corners, track.cut  # this frame's read: where the new card is named
        self.tracks.append(fresh)
        was = track.card if reread else None
        laid = [replace(e, replaces=was) if isinstance(e, CardLaid) else e for e in self._decide(fresh, t, impossible)]
        under = [e for e in laid if e.track != fresh.id]  # cards that lay there, covered by it (_covered_lies)
        laid = [e for e in laid if e.track == fresh.id]
        # a card that lay there came on its own; one that cannot be new here is that card, read as the hand passed
        rivals = {c.card for c in own} - {new} - {e.card for e in under} - set(impossible)
        doubted = not coming and (in_place or any(c.sure for c in came))
        # seen coming only in a glimpse, against a rival seen coming in reads that count
        glimpsed = not any(c.card == new and not c.glimpsed for c in came) \
            and any(c.card in rivals and not c.glimpsed for c in own)
        timid = not sure and not any(c.sure for c in came if c.card == new) \
            and (not coming or glimpsed or self._lying_across(rivals, track, t))  # neither read outweighs the other
        if rivals and (doubted or timid):  # read as another on its way: which?
            way = tuple(sorted(rivals))
            others = tuple((c, 0.0) for c in way)
            laid = [replace(e, settled=False, choices=e.choices + others, way=way) if isinstance(e, CardLaid) else e
                    for e in laid]
        return gone + under + laid

    def _covered_lies(self, over: Track, came: float, t: float, impossible) -> list[CardLaid]:
        """Cards read only timidly that lay on the pile until the card of ``over``, thrown there, came (at ``came``)
        to lie on them (:meth:`_covered`): each is a card of its own, thrown before it. Waiting for surer reads is
        over, so each is named now from its timid reads, unsettled, and the table is asked with the picture of it
        last seen before the card on it is recorded, as a card read surely but not yet named is
        (:meth:`_name_under`; held-out Kratzen pile 702359: an As lying rotated on the 8s, read at 0.2 for 0.7 s,
        was covered by the Qs, the Qs took its turn, and every later play went a seat on)."""
        lies = [*self._lain, *(lie for g in self.glimpses if (lie := g.lie()) is not None)]
        shown = [lie for g in self.glimpses if g.last >= t and (lie := g.lie()) is not None]
        known = {tr.card for tr in self.tracks if tr.card} | {over.card}
        out: list[CardLaid] = []
        for lie in lies:
            if lie.named not in known and self._covered(lie, over, came, t, impossible, shown):
                out.append(self._adopt_lie(lie, t, impossible))
                known.add(lie.named)
        named = {e.card for e in out}
        used = {(lie.source, lie.since) for lie in lies if lie.named in named}
        self._lain = deque((lie for lie in self._lain if (lie.source, lie.since) not in used), maxlen=self._lain.maxlen)
        return out

    def _covered(self, lie: Lie, over: Track, came: float, t: float, impossible, shown: list[Lie]) -> bool:
        """``lie`` is a card lying on top, covered by ``over``'s: its reads agree on a possible card, it lay still and
        whole for ``cover_rest`` after every card it lies on came and before ``over``'s came, and it was read there
        until then (within ``gone_after``), not since. One read there before a card it lies on came is a part of
        that card or of one under it; nothing seen coming there, the card there may be it, read better."""
        st, named = self.settings, lie.named
        if named in impossible or not self.lies_on(over.box, lie.box):
            return False
        if self._ended.get(named, float("-inf")) >= lie.since:
            return False  # that card named, its reads grown timid as it was covered: a card in view, not a new one
        if not self._lay_whole(lie):
            return False
        if not _majority(lie.votes, named, st.min_support, impossible):
            return False  # no clear majority of the possible reads (a played card's are of the card under)
        if not (lie.since + st.cover_rest <= came and came - self.gone_span <= lie.until < t):
            return False  # came with or after the card on it, or left before that came
        if any(o is not over and o.card is not None and o.arrived() >= lie.since and box_iou(o.box, lie.box) > 0
               for o in self.tracks):
            return False  # read there before a card it lies on came
        if any(s.named == named and self.lies_on(lie.box, s.box) for s in shown):
            return False  # still in view
        return self._thrown(over, lie.since, t)

    def _thrown(self, track: Track, since: float, t: float) -> bool:
        """``track``'s card came onto the spot since ``since``: thrown there (its spot renamed to a card seen
        coming), carried in on its own track, or some card was seen carried there since."""
        if track.thrown is not None:
            return True
        if track.came_from is not None and box_iou(track.came_from, track.box) < self.settings.still_iou:
            return True
        return bool(self._carried_near(track.box, since, t))

    def _adopt_lie(self, lie: Lie, t: float, impossible) -> CardLaid:
        """A track for ``lie``'s card, lying under the card on it (kept while that card lies there), named
        unsettled from its timid reads, its picture from when it was last read."""
        return self._timid_track(lie.box, lie.since, lie.until, dict(lie.votes), lie.reads, t, impossible,
                                 covered=lie.until, under=True, read_at=lie.until)

    def _lying_across(self, cards: set[str], track: Track, t: float) -> bool:
        """One of ``cards`` is read this frame, timidly, lying still across ``track``'s box: a card seen coming
        as itself that came to rest here, so the spot's own timid reads may be of a part of it."""
        return any(g.named in cards and g.last >= t and g.still() and box_iou(g.box, track.box) > 0
                   for g in self.glimpses)

    def _claimed(self, piece: Carried, track: Track) -> bool:
        """Another card came moving and lay still near where ``piece`` was lost, after it was lost and before
        ``track``'s spot turned to its new card: ``piece`` was that card's way, however it was read (held-out
        pile hand 702619: the 8s, read 9s for two frames on its way, landed by the Ad; the 9s thrown onto the
        Ad a second later took that misread's start and went before the 8s)."""
        return any(o.on_the_way and o.lain_still and o.first_seen < track.top_since
                   for o in self._found_near(piece, track))

    def _landed_elsewhere(self, piece: Carried, track: Track) -> bool:
        """``piece`` was a card that came to lie beside ``track``'s, named as itself by a track found after the
        piece was lost near it: no card came to ``track``'s spot (held-out Kratzen pile 702838: the Th, carried
        over the Ad, made it read Ah, then landed beside it; the Ad was taken for a new card thrown there)."""
        return any(o.card == piece.card for o in self._found_near(piece, track))

    def _found_near(self, piece: Carried, track: Track) -> Iterator[Track]:
        """The tracks other than ``track`` found after ``piece`` was lost, near where it was lost: where the card it
        was may lie now."""
        return (o for o in self.tracks
                if o is not track and piece.lost < o.first_seen and self._lost_near(piece, o.box))

    def _from_off(self, came: list[Carried], card: str, track: Track) -> bool:
        """A piece naming ``card`` was first read off ``track``'s spot (where its card was named, and where it lies): a
        card carried there, not the spot glimpsed as it is misread while a hand passes over it (held-out Kratzen pile
        702838: the Ad the table had named, read Ah in a box jumping about within its spot as the Jd went by, was
        taken for an Ah thrown there)."""
        spots = [b for b in (track.box, track.named_box) if b is not None]
        return any(c.card == card and (c.came_from is None or
                                       all(box_within(c.came_from, b) < self.settings.match_cover for b in spots))
                   for c in came)

    def _lost_near(self, piece: Carried, box: tuple[float, float, float, float]) -> bool:
        """``piece`` was lost within ``carried_near`` box diagonals of ``box``, or heading for it."""
        return piece.apart(box, self.settings.carried_ahead) <= self.settings.carried_near * box_diagonal(box)

    def _covered_since_named(self, track: Track) -> bool:
        """A card first seen after ``track``'s was named lies on it now, seen on a track of its own, in view or read
        since the spot's new reads began: the card thrown there is that one, and the spot's reads where its card
        was named are of what still shows of it (held-out Kratzen pile hand 702250: the Ac landed on the 8d,
        nudged it, and the 8d's uncovered part, read 7d, was taken for a 7d thrown onto it, since a glimpse of that
        part grew with the Ac's edge; 703052: the As under the Tc read Ac while the next card's hand hid both a
        moment, and an Ac was recorded). It lies on it too where the boxes meet less than a match would, but
        ``covered`` of it lies over where the card was named: a card thrown onto the spot since would have hidden that
        part of it (held-out pile 705354, 10 fps: the 8c, half of it over Cla's 6s, stayed read whole while the 6s's
        free part read 7s at 0.66 for 0.9 s, and a 7s was recorded for Anna). A named card read on it since the new
        reads began lies on it still once its own track ended, hidden by a card laid over it in turn (held-out Kratzen
        pile 705466: the Kh over the Ac covered 0.349 of the 7h alone, and the 7h was corrected to 8h)."""
        since, spot = track.named_at or 0.0, track.named_box or track.box
        return any(o.first_seen > since and (not o.missing or o.read_at > track.top_since)
                   and (self.lies_on(track.box, o.box) or box_within(o.box, spot) >= self.settings.covered)
                   for o in [*self.tracks, *self._ended_named] if o is not track and not o.under)

    def _within_named(self, track: Track) -> bool:
        """The spot's new reads lie within where its card was named (``match_cover``): what shows of that card, its
        outline cut by the card lying on it, where the outline alone says a card lies elsewhere (held-out Kratzen
        pile 704874: the 8d's lower part under the As, outline IoU 0.58 with the 8d, box 0.86 within it)."""
        return track.named_box is not None and box_within(track.box, track.named_box) >= self.settings.match_cover

    def _where_named(self, track: Track) -> bool:
        """The card read anew lies about as the one named there lay: the same card read better. One
        thrown onto it lies elsewhere or turned (on a pile, often with much the same upright box; two
        cards crossed on one centre meet at IoU 0.5 at most). A card named while it settled moves a
        little after (outline IoU 0.65 seen). One thrown almost as the last lay
        is told by the picture, where the frame can be asked: the last card's sides still show round it."""
        if len(track.named_corners) == 4 and len(track.corners) == 4:
            if quad_iou(track.named_corners, track.corners) < self.settings.same_outline:
                return False
            return not self._still_under(track)
        return track.named_box is not None and box_iou(track.named_box, track.box) >= self.settings.same_outline

    def _carried_in(self, track: Track, t: float) -> list[Carried]:
        """The cards carried in after the card here was named (a found-again card's track: since it began),
        moving, and lost from view near here: one was
        thrown onto that card (a re-read has no card coming). On the virtual table's pile the thrown card is
        read on its way and lost as it lands; the spot's reads turn to it some frames later, however exactly
        it covers the last card."""
        return self._carried_near(track.box, track.named_at or track.first_seen, t)

    def seen_coming(self, card: str, box: tuple[float, float, float, float], since: float, t: float,
                    before: float = float("inf")) -> bool:
        """A card read as ``card``, first seen since ``since`` (and before ``before``) and within ``carried_for``
        of ``t``, was carried in moving and lost from view near ``box`` (or heading for it): a card thrown
        there, not one lying near it read anew or moved a little."""
        return card in self.carried_to(box, since, t, before)

    def carried_to(self, box: tuple[float, float, float, float], since: float, t: float,
                   before: float = float("inf")) -> set[str]:
        """The cards (as last read) first seen since ``since`` (and before ``before``) and within ``carried_for``
        of ``t`` that were carried in moving and lost from view near ``box``, or heading for it; read surely or
        only timidly on their way (a glimpse that moved: held-out pile hand 701426, a 9h thrown onto the Ah read at
        0.3-0.5 and then Th, corrected the Ah). Only cards not yet named count: a card carried off is one
        named where it lay."""
        return {c.card for c in self._carried_near(box, since, t, before)}

    def thrown_to(self, box: tuple[float, float, float, float], since: float, t: float) -> dict[str, float]:
        """The cards :meth:`carried_to` names that were read surely on their way (not a glimpse), each with when
        it was first seen coming: a card seen thrown there, whatever the spot reads since."""
        out: dict[str, float] = {}
        for c in self._carried_near(box, since, t):
            if c.sure and not c.glimpsed:
                out[c.card] = min(out.get(c.card, c.first_seen), c.first_seen)
        return out

    def arrival(self, track: Track) -> float:
        """When ``track``'s card (named, or its reads' best so far) came: where the spot lay still read as
        other cards ``min_hits`` times before a read named it, when that read came; those were of what lay
        there before (held-out pile hand 701738: a strip of the 7c under the Th, misread 8c, lent its start to
        the Ac thrown onto it later, and the Ac went before the Th)."""
        came = track.arrived()
        card = track.card or (track.top if track.votes else None)
        since = track.first_read.get(card)
        if since is None or since <= came:
            return came
        before = sum(n for c, n in track.lying.items() if c != card and track.first_read[c] < since)
        return since if before >= self.settings.min_hits else came

    def _taken_at(self, read: Read, t: float) -> float | None:
        """Since when ``read``'s card has been read here by the track of a card named here, where that track
        read it ``min_hits`` times and until ``gone_after`` ago: a card thrown onto a named one whose reads
        that track took, found by a track of its own only when a card thrown after it ended that one. It
        came when those reads began (held-out pile hand 701734: the Jh's reads went to the 6c's track under
        it for 1.5 s, and the Kh thrown onto it 0.9 s later was recorded first, every later play a seat on)."""
        span = self.gone_span
        spots = [tr.others[read.card] for tr in self.tracks if read.card in tr.others]
        spots += [o for c, o in self._others if c == read.card]
        return min((first for first, last, box, n in spots if n >= self.settings.min_hits and t - last <= span
                    and self.lies_on(box, read.box)), default=None)

    def _read_here_since(self, track: Track, card: str) -> float:
        """Since when named ``track``'s spot has read ``card``, where most of its reads since named it: a card laid
        there read only timidly, its reads broken by the card under it, came when they began, as a card whose
        reads that track took (:meth:`_taken_at`; held-out hand 704202: a 7s on the lead Jc, read for 0.2 s, then
        the Jc for 0.6 s, then the 7s again until it renamed the spot, went after the Jd thrown in the gap). Stray
        misreads of the spot long before are no start (tuning pile 118: the upcard, read 7d now and then)."""
        first, _, _, n = track.others.get(card, (inf, 0.0, None, 0))
        since = track.reads - track.others_from.get(card, track.reads) + 1
        return first if n >= self.settings.min_hits and 2 * n > since else inf

    def _leave_reads(self, track: Track, read: Read, t: float) -> None:
        """An unnamed card that lay whole on top, its track now taken by a read of another card off where it lay (a
        card thrown half onto it): its reads there stay there until now, for a track that finds it again
        (:meth:`_taken_at`; held-out pile 702877: the 8s, waiting for surer reads, lost its track to the 9s thrown
        onto it, was found again as a card come after the 9s, and each card went to the other player)."""
        rest, still = track.rest, self.settings.still_iou
        if track.card is not None or rest is None or read.card == track.top or not self._lay_on_top(track):
            return
        if box_iou(rest, track.box) >= still > box_iou(rest, read.box):
            card = track.top
            since = track.first_read.get(card, track.first_seen)
            self._others.append((card, [since, t, rest, track.lying.get(card, 0)]))

    def _retire(self, track: Track, t: float) -> None:
        """Keep what an ending track read of other cards, for :meth:`_taken_at`, and when its card left view."""
        self._others.extend(track.others.items())
        if track.card is not None:
            self._ended[track.card] = t
            self._ended_named.append(track)

    def _carried_near(self, box: tuple[float, float, float, float], since: float, t: float,
                      before: float = float("inf")) -> list[Carried]:
        """The cards :meth:`carried_to` names, as they were seen carried."""
        # a card that has lain still is no card on its way, however its box jumped since (held-out pile hand 702619:
        # the Kc waiting to be named, lent a read of the Ah landing by it, lent the Ah its start)
        coming = [Carried.of(o, self._sure_weight) for o in self.tracks if o.card is None and not o.lain_still
                  and o.missing and o.tops and _passing(o, self.settings.still_iou)]
        coming += [Carried.of_glimpse(g) for g in self.glimpses if g.last < t and g.carried(self.settings.still_iou)]
        return [c for c in list(self._carried) + coming if since <= c.first_seen < before
                and self._lost_near(c, box) and t - c.first_seen <= self.settings.carried_for
                and not c.shrank_within(box, self.settings.match_cover)]

    def _still_under(self, track: Track) -> bool:
        """The card named here still shows its sides round the card now read here: one was thrown onto it. The
        card read here lies where it was last read, in view or not this frame: unread a moment, what it covers
        is no free side (held-out pile 704786: the Qs under the Ts read 8s at 0.6, unread for three frames, its
        own sides then showed round the Ts, and an 8s was recorded as the next lead)."""
        if self._sides is None:
            return False
        in_view = [outline for r in self._reads if (outline := _outline(r))]
        if len(track.corners) == 4:
            in_view.append(track.corners)
        shown = self._sides(track.named_corners, in_view)
        return shown is not None and shown >= self.settings.still_shown


@dataclass(frozen=True)
class Carried:
    card: str  # what it was last read as
    box: tuple[float, float, float, float]  # where it was last seen
    first_seen: float
    step: tuple[float, float] = (0.0, 0.0)  # how far it moved between its last two reads
    sure: bool = False  # its reads on its way named it as surely as reads of a card lying name one
    came_from: tuple[float, float, float, float] | None = None  # where it was first read
    last_seen: float | None = None  # when it was last read: lost from view then
    glimpsed: bool = False  # seen only in reads too timid to count (a glimpse): perhaps the spot's own box jittering

    @classmethod
    def of(cls, track: Track, sure_weight: float) -> Carried:
        card = track.tops[-1][0]
        return cls(card, track.box, track.first_seen, track.step(), track.on_the_way.get(card, 0.0) >= sure_weight,
                   track.came_from, track.read_at)

    @classmethod
    def of_glimpse(cls, glimpse: Glimpse) -> Carried:
        """A card carried in read only timidly, as its reads named it most, heading on as it went on average:
        lost short of where it lands, as a card read surely is (tuning pile hand 122: a Qs read timidly on its
        way was lost 1.5 box diagonals short of the 7s it landed on exactly, and was taken for the 7s read anew)."""
        (a, b), (c, d) = box_centre(glimpse.came_from), box_centre(glimpse.box)
        n = max(1, glimpse.reads - 1)
        return cls(glimpse.named, glimpse.box, glimpse.since, ((c - a) / n, (d - b) / n), came_from=glimpse.came_from,
                   last_seen=glimpse.last, glimpsed=True)

    @property
    def lost(self) -> float:
        return self.first_seen if self.last_seen is None else self.last_seen

    def shrank_within(self, box: tuple[float, float, float, float], cover: float) -> bool:
        """First read within ``box``, its box since only shrank within that first read: no card carried in, but
        what shows of the card lying there as a card is laid across it (held-out pile hand 701766: the 7c's
        strip under the Jh, read 6c and then Ah, was taken for a 6c thrown onto the pile and recorded)."""
        return (self.came_from is not None and box_within(self.came_from, box) >= cover
                and box_within(self.box, self.came_from) >= cover)

    def apart(self, box: tuple[float, float, float, float], ahead: float) -> float:
        """How near ``box`` the card came or was heading: a card thrown fast is lost from view (blurred)
        short of where it lands, so the way it was going counts for ``ahead`` more of its steps."""
        (x, y), (px, py) = box_centre(self.box), box_centre(box)
        dx, dy = self.step
        length = dx * dx + dy * dy
        k = 0.0 if length == 0 else min(max(((px - x) * dx + (py - y) * dy) / length, 0.0), ahead)
        return hypot(px - x - k * dx, py - y - k * dy)


def _whole(read: Read) -> bool:
    """``read`` saw its card whole: not cut by the picture's edge, no card on it."""
    return not getattr(read, "cut", False) and not getattr(read, "under", ())


def _outline(read: Read) -> list:
    """``read``'s outline, its four corners, where the reader gave one; else empty."""
    corners = list(getattr(read, "corners", None) or [])
    return corners if len(corners) == 4 else []


def _read_prob(read: Read) -> float:
    """The classifier's probability of ``read``'s card: its confidence less the detector's share."""
    return read.confidence / max(getattr(read, "detector_score", 1.0), 1e-6)


def _options(votes: dict[str, float], impossible) -> list[tuple[float, str]]:
    """The possible cards ``votes`` name, as (votes, card), most first."""
    return sorted(((v, c) for c, v in votes.items() if c not in impossible), reverse=True)


def _majority(votes: Iterable[tuple[str, float]], card: str, share: float, impossible=frozenset()) -> bool:
    """``card`` has ``share`` or more of the possible cards' ``votes`` (card, weight): a clear majority."""
    votes = list(votes)
    return dict(votes)[card] >= share * sum(v for c, v in votes if c not in impossible)


def _choices(options: list[tuple[float, str]]) -> tuple[tuple[str, float], ...]:
    """The likely cards of ``options`` (see :func:`_options`), at most three, with their shares of its votes."""
    possible = sum(v for v, _ in options)
    return tuple((c, round(v / possible, 3)) for v, c in options[:3])


def _passing(track: Track, still_iou: float) -> bool:
    """A card on its way: seen moving, or read once only (a card thrown fast is read once in flight, then
    blurs; one lying still is read again where it lies)."""
    return len(track.boxes) == 1 or _moved(track, still_iou)


def _moved(track: Track, still_iou: float) -> bool:
    return len(track.boxes) >= 2 and box_iou(track.boxes[0], track.boxes[-1]) < still_iou


def _best_first(pairs: list[tuple[float, int, int]], ok: Callable[[float, int, int], bool]) -> dict[int, int]:
    """Greedy one-to-one pairing of (score, a, b), highest score first, of pairs ``ok`` accepts: {a: b}."""
    out: dict[int, int] = {}
    used: set[int] = set()
    for score, a, b in sorted(pairs, reverse=True):
        if a not in out and b not in used and ok(score, a, b):
            out[a] = b
            used.add(b)
    return out


def _push(q: deque, item, size: int) -> None:
    q.append(item)
    if len(q) > size:
        q.popleft()
