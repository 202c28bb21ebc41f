"""The loop at the table: frames in, the session's record out.

:class:`LiveTable` runs recognition on a frame, keeps the mat's homography, hands the reads to
the :class:`~vision.table.watch.Watcher` and keeps the last annotated frame and a snapshot per
recorded card (the review shows them). :func:`run` drives it from a source, survives a camera
that drops out (:class:`~vision.table.sources.Resilient`), and applies timed taps (the demo's stand-in
for a person at the tablet).
"""

from __future__ import annotations

import secrets
import time
from collections import deque
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable, Iterable

import numpy as np

from engine.events import Event, HandStarted, TrumpSixSwapped
from engine.hand import IllegalEvent
from vision.recognize.layers import sides_in

from .annotate import annotate
from .drift import Drift
from .layout import MatFinder, TableLayout
from .sources import Frame
from .watch import AnswerError, Ask, CameraCheck, Notice, Watcher, save_snapshot


@dataclass
class Timing:
    frames: int = 0
    busy: float = 0.0  # seconds spent processing


MAT_UNSEEN = 5.0  # seconds the mat's markers may stay out of view (a hand over them) before the page warns
# A card covered before it was named is asked about with a frame from before: frames of the last RECALL
# seconds are kept, one every RECALL_EVERY (a card is covered within a second or two of lying still; a
# 1920x1080 frame is 6 MB, so 20 of them, not every frame).
RECALL, RECALL_EVERY = 2.0, 0.1
# asks about a card the camera never saw though it lay in plain view: each makes the camera look closer
UNSEEN = frozenset({"upcard", "gathered"})


class LiveTable:
    def __init__(self, watcher: Watcher, recognizer: Callable[[np.ndarray], list], snapshots: Path | None = None,
                 keep_annotated: bool = False) -> None:
        self.watcher, self.recognizer, self.snapshots = watcher, recognizer, snapshots
        deck = getattr(recognizer, "deck", None)  # a taught deck: the pairs it confuses are asked, not guessed
        if deck is not None:
            watcher.alikes = deck.look_alikes(watcher.stabilizer.settings.deck_weak)
        self.set_layout(watcher.layout)
        self.keep_annotated = keep_annotated
        self.annotated: np.ndarray | None = None
        # Snapshots are named by this run and a count that never starts again (a looping video's frame
        # numbers do, and so does every run's): an earlier hand's evidence is never overwritten.
        self.run, self.processed = f"{time.strftime('%Y%m%d-%H%M%S')}-{secrets.token_hex(2)}", 0
        self.timing = Timing()
        self.closer_since: float | None = None  # when the camera began to look closer (see _look_closer)
        self._recent: deque[tuple[float, np.ndarray, str]] = deque()  # (t, frame, snapshot name), oldest first

    def set_layout(self, layout: TableLayout | None) -> None:
        """Zones to use from now on (the camera screen may redraw them while the camera runs)."""
        self.watcher.layout = layout
        self.mat = MatFinder() if layout is not None and layout.space == "mat" else None
        self.mat_seen: float | None = None  # when the mat's markers were last in view
        # zones drawn on the camera's picture fit it as it is now: a move from here on is noticed
        self.drift = Drift(np.concatenate(list(layout.zones.values()))) if layout is not None and self.mat is None else None
        self.watcher.warning = None

    def process(self, frame: Frame) -> list[Notice]:
        start = time.perf_counter()
        reads = self.recognizer(frame.image)
        if self.mat is not None:
            self.watcher.to_mat = self.mat(frame.image)
            self._watch_mat(frame.t)
        elif self.drift is not None:
            self.watcher.warning = self.drift.update(frame.image, frame.t)
        meta = {"frame": frame.index}
        self.processed += 1
        if self.snapshots is not None:
            meta["snapshot"] = f"{self.run}-{self.processed:07d}.jpg"
        notices = self.watcher.reads(reads, frame.t, meta, sides_in(frame.image))
        notices += self._look_closer(notices, frame.t)
        if self.snapshots is not None:
            self._keep(frame, meta["snapshot"])
            self._picture_covered(notices)
        if self.snapshots is not None and any(n.kind in ("recorded", "ask") for n in notices):
            save_snapshot(self.snapshots, frame.image, meta["snapshot"])
        if self.keep_annotated:
            self.annotated = annotate(frame.image, reads, self.watcher)
        self.timing.frames += 1
        self.timing.busy += time.perf_counter() - start
        return notices

    def _look_closer(self, notices: list[Notice], t: float) -> list[Notice]:
        """Once the table is asked for a card the camera never saw in plain view (the upcard, lying alone, or a
        trick's card, gathered before it was seen; from the moment every card of a trick short of cards is out of
        sight, under no card seen), the camera looks closer for the rest of the evening
        (``closer_side``): at the usual size a busy cloth hid those cards from it, and the order of play then
        put the cards it did see at the wrong seats. The table and its cloth stay, so it does not go back; it
        costs frames a second."""
        closer = getattr(self.recognizer, "closer", None)
        if closer is None or self.closer_since is not None:
            return []
        if not self.watcher.trick_unseen and not any(n.kind == "ask" and n.data.get("kind") in UNSEEN for n in notices):
            return []
        looking = closer()
        if looking is self.recognizer:
            return []
        self.recognizer, self.closer_since = looking, t
        return [Notice("camera", "the camera missed a card in plain view: it looks closer at the table from now on "
                       "(fewer frames a second)", {"state": "closer"})]

    def _keep(self, frame: Frame, name: str) -> None:
        """Keep ``frame`` among the recent ones a covered card's question may need (see RECALL)."""
        if not self._recent or frame.t - self._recent[-1][0] >= RECALL_EVERY:
            self._recent.append((frame.t, frame.image, name))
        while self._recent and frame.t - self._recent[0][0] > RECALL:
            self._recent.popleft()

    def _picture_covered(self, notices: list[Notice]) -> None:
        """An ask about a card covered since it was last seen shows the last kept frame from before then, where
        one is kept: the frame now shows the card on top of it."""
        for n in notices:
            ask = self.watcher.asks.get(n.data["id"]) if n.kind == "ask" else None
            if ask is None or ask.seen_at is None:
                continue
            before = [(img, name) for t, img, name in self._recent if t <= ask.seen_at]
            if before:
                img, ask.snapshot = before[-1]
                save_snapshot(self.snapshots, img, ask.snapshot)
                n.data["snapshot"] = ask.snapshot

    def _watch_mat(self, t: float) -> None:
        """Warn when the mat's markers stay out of view: the zones then lie where the mat was last seen,
        which is wrong if the camera moved (a hand or a card over a marker for a moment is not)."""
        if self.mat.found:
            self.mat_seen, self.watcher.warning = t, None
            return
        if self.mat_seen is None:  # never in view yet: counted from the first frame
            self.mat_seen = t
        if t - self.mat_seen >= MAT_UNSEEN:
            self.watcher.warning = CameraCheck(
                "mat_unseen", f"the mat's markers have been out of view for {t - self.mat_seen:.0f} s: if the camera "
                "moved, the seats are wrong; uncover the markers or recalibrate on the camera page",
                {"seconds": round(t - self.mat_seen)})

    def tap(self, event: Event) -> list[Notice]:
        return self.watcher.tap(event)[1]


def host_start(session_next: Callable[..., HandStarted], ev: HandStarted) -> HandStarted:
    """The host's "next hand" button: seats and dealer as recorded, ante and pot as the session says."""
    nxt = session_next(seats=ev.seats, dealer=ev.dealer)
    return replace(nxt, meta=ev.meta)


# names the card of an ask (or, for a trick gathered short, the card missed and its player), or None to
# leave it open
Answerer = Callable[[Watcher, Ask], "str | tuple[str, str] | None"]


def run(table: LiveTable, frames: Iterable[Frame | None], taps: list[tuple[float, Event]] = (),
        on_notice: Callable[[Notice], None] = lambda n: None, on_frame: Callable[[Frame], None] | None = None,
        answer: Answerer | None = None) -> list[str]:
    """Process every frame; a ``None`` frame means the camera is lost (the record is untouched).

    A tap the record cannot take yet (the bids before the camera has seen the upcard) waits
    and is tried again each frame, as a person would; ``answer`` names the cards the camera asks
    about (:mod:`vision.table.answers`). Returns the taps never taken.
    """
    queue = sorted(taps, key=lambda x: x[0])
    k = 0
    for frame in frames:
        if frame is None:
            for n in table.watcher.camera_lost():
                on_notice(n)
            continue
        while k < len(queue) and queue[k][0] <= frame.t and _try_tap(table, queue[k][1], on_notice):
            k += 1
        for n in table.process(frame):
            on_notice(n)
        if answer is not None:
            _answer_asks(table.watcher, answer, on_notice)
        if on_frame:
            on_frame(frame)
    while k < len(queue) and _try_tap(table, queue[k][1], on_notice):
        k += 1
    return [f"{ev.type}: {ev.to_dict()}" for _, ev in queue[k:]]


def _answer_asks(watcher: Watcher, answer: Answerer, on_notice: Callable[[Notice], None]) -> None:
    for ask in list(watcher.asks.values()):
        named = answer(watcher, ask)
        if named is None:
            continue
        code, player = named if isinstance(named, tuple) else (named, None)
        try:
            notices = watcher.answer(ask.id, code, player)
        except (AnswerError, IllegalEvent) as exc:  # refused, nothing changed: the question stays for the table
            notices = [Notice("waiting", f"answer {code} to question {ask.id} not taken: {exc}")]
        for n in notices:
            on_notice(n)


def _try_tap(table: LiveTable, ev: Event, on_notice: Callable[[Notice], None]) -> bool:
    if isinstance(ev, HandStarted):
        ev = host_start(table.watcher.session.next_hand, ev)
    try:
        notices = table.tap(ev)
    except IllegalEvent as exc:
        if _camera_had_it(table.watcher, ev):  # the camera saw it first: the tap adds nothing
            return True
        table.watcher.note_refused(f"tap {ev.type} refused: {exc}", on_notice)
        return False
    for n in notices:
        on_notice(n)
    return True


def _camera_had_it(watcher: Watcher, ev: Event) -> bool:
    """A tapped swap the camera already recorded, by the same player (another player's stays refused)."""
    hand = watcher.hand
    return (isinstance(ev, TrumpSixSwapped) and hand is not None and hand.swapped_by is not None
            and hand.seats[hand.swapped_by] == ev.player)
