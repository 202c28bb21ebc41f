"""The demo's table: a hand of a record rendered as webcam video (by :mod:`datasets.virtual_table`),
written beside its layout, taps and truth, and a reader that reports the rendered truth imperfectly,
to test the live table without the networks. The only run-time module that reaches ``datasets``."""

from __future__ import annotations

import json
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

import numpy as np

from datasets.art import SCANNED_PACKS, scanned_pack
from datasets.virtual_table import render_hand, table_events
from engine import history
from engine.cards import DECK
from engine.kratzen import KratzenRules
from engine.kratzen_session import KratzenSession
from engine.rules import HouseRules

from vision.recognize.geometry import quad_iou_aabb

from .check import true_session
from .layout import TableLayout
from .live import Answerer
from .sources import Frame
from .taps import taps_doc
from .watch import Ask, Watcher

PAST_FRAMES = 120  # frames whose truth is kept: 4 s at 30 fps, longer than a covered card waits to be asked
EXAMPLE = Path(__file__).resolve().parent.parent.parent / "docs" / "examples" / "evening.json"


class RecordError(ValueError):
    """A hand that cannot be rendered from the record asked for."""

def render_record_hand(record: Path, hand_no: int, seed: int, pack_name: str | None = None,
                       top: str | None = "baize"):
    """The hand rendered on a green baize (``top``; None: the tuning world's random table tops), the
    events a real table records of it, the rules, and the events of the evening's hands before it (a hand
    of Kratzen is a Muss, and has its pot, by them)."""
    session = history.loads(record.read_text(encoding="utf-8"))
    if not 1 <= hand_no <= len(session.hands):
        raise RecordError(f"{record} has {len(session.hands)} hand(s), not {hand_no}")
    hand = session.hands[hand_no - 1]
    events = table_events(hand.events)
    before = [ev for h in session.hands[:hand_no - 1] for ev in table_events(h.events)]
    pack = scanned_pack(pack_name or SCANNED_PACKS[seed % 2])
    muss = getattr(hand, "muss", False)
    return render_hand(events, pack, seed, session.rules, top=top, muss=muss), events, session.rules, before


def write_virtual_table(vh, out: Path, events: list | None = None, rules: HouseRules | KratzenRules | None = None,
                        before: list | None = None) -> None:
    """The video and, beside it, the layout, the taps and the truth (taps.json last: it marks it complete);
    given the hand's ``events``, also ``answers.json``: the true hand as a hand history, from which
    ``chratze watch --answers`` answers the camera's asks. A hand of Kratzen also gets ``evening.json``, the
    evening before it, for ``chratze watch --record`` to continue (its answers hold that evening too)."""
    out.mkdir(parents=True, exist_ok=True)
    vh.write_video(str(out / "table.avi"))
    TableLayout.from_dict({"zones": vh.zones, "frame": list(vh.size)}).save(out / "layout.json")
    (out / "truth.json").write_text(json.dumps([v.__dict__ for v in vh.visuals], indent=1) + "\n")
    if events and isinstance(rules, KratzenRules):
        (out / "evening.json").write_text(history.dumps(KratzenSession(rules, events=before or [])), encoding="utf-8")
        answers = KratzenSession(rules, events=[*(before or []), *events])
        (out / "answers.json").write_text(history.dumps(answers), encoding="utf-8")
    elif events:
        (out / "answers.json").write_text(history.dumps(true_session(events, rules)), encoding="utf-8")
    (out / "taps.json").write_text(json.dumps(taps_doc(vh.taps), indent=1, ensure_ascii=False) + "\n")
    kept = ", evening.json (watch --record it)" if isinstance(rules, KratzenRules) else ""
    print(f"{out / 'table.avi'}: {vh.duration:.1f} s at {vh.fps:.0f} fps; layout.json, taps.json, truth.json{kept}")


@dataclass
class TruthRead:
    """A read made from the renderer's ground truth: a perfect detector, a noisy classifier."""

    card: str
    confidence: float
    box: tuple[float, float, float, float]
    corners: list[tuple[float, float]]
    alternatives: list[tuple[str, float]]


class TruthCamera:
    """Frames of a rendered hand, and a reader that reports what is really in the last one
    (``read``), imperfectly: for testing the live table without the model."""

    def __init__(self, frames: Iterable[tuple[float, np.ndarray, list[dict]]], rng: np.random.Generator,
                 misread: float = 0.1) -> None:
        self._frames, self.rng, self.misread = frames, rng, misread
        self._truth: list[dict] = []
        self._past: deque[tuple[float, list[dict]]] = deque(maxlen=PAST_FRAMES)  # (t, truth), for lying_at(at=)

    def frames(self) -> Iterator[Frame]:
        for i, (t, img, truth) in enumerate(self._frames):
            self._truth = truth
            self._past.append((t, truth))
            yield Frame(img, t, i)

    def read(self, img: np.ndarray) -> list[TruthRead]:
        return truth_reads(self._truth, self.rng, self.misread)

    def lying_at(self, box: tuple[float, float, float, float], min_iou: float = 0.3,
                 at: float | None = None) -> str | None:
        """The card a person sees at ``box`` in the last frame (or the last one at time ``at`` or before, of the
        last ``PAST_FRAMES``): of the rendered cards whose box meets it at ``min_iou`` or more, the one that meets
        it most, weighed by how much of it is in view; None: none."""
        truth = self._truth if at is None else next((tr for t, tr in reversed(self._past) if t <= at), self._truth)
        best, score = None, 0.0
        for c in truth:
            iou = quad_iou_aabb(c["quad"], box)
            if iou >= min_iou and iou * c["visible"] > score:
                best, score = c["card"], iou * c["visible"]
        return best


class SeenAnswers:
    """Answers as a person at the rendered table gives them: *which card lies there?* with the card that
    lies at the question's box in the frame it is answered on (the upcard being carried off for the trump 6,
    a covered card's strip), or in the one its picture shows (a card covered since: ``Ask.seen_at``), and with
    ``none`` where no rendered card meets the box at all (a cloth's pattern read as a card); every other
    question, and one whose box only touches a card, as ``record`` answers it
    (:class:`vision.table.answers.RecordAnswers`). A card asked about as the next play that is another
    player's of the trick, laid before the cards recorded since, is named with whose it is, as a person
    who saw it laid says (``RecordAnswers.seat_of``)."""

    def __init__(self, camera: TruthCamera, record: Answerer) -> None:
        self.camera, self.record = camera, record

    def __call__(self, watcher: Watcher, ask: Ask) -> str | tuple[str, str] | None:
        if ask.kind == "card":
            seen = self.camera.lying_at(ask.box, at=ask.seen_at)
            if seen is not None:
                whose = getattr(self.record, "seat_of", None)
                player = whose(watcher, seen) if whose is not None and ask.plays else None
                return seen if player in (None, ask.player) else (seen, player)
            if self.camera.lying_at(ask.box, min_iou=0.0, at=ask.seen_at) is None:
                return "none"  # no rendered card meets the box at all: a person sees none there
        return self.record(watcher, ask)


def truth_reads(truth: list[dict], rng: np.random.Generator, misread: float = 0.1,
                min_visible: float = 0.5) -> list[TruthRead]:
    """What an imperfect recognizer would report: covered cards missed, some cards misread."""
    out = []
    for c in truth:
        if c["visible"] < min_visible:
            continue
        q = c["quad"]
        box = (float(q[:, 0].min()), float(q[:, 1].min()), float(q[:, 0].max()), float(q[:, 1].max()))
        code, alts = c["card"], []
        if rng.random() < misread:
            wrong = DECK[int(rng.integers(len(DECK)))].code
            if wrong != code:
                code, alts = wrong, [(c["card"], 0.3)]
        out.append(TruthRead(code, float(rng.uniform(0.6, 0.95)), box, [tuple(map(float, p)) for p in q], alts))
    return out
