"""The virtual table: a hand record rendered as the video a webcam over the table would take.

Cards arrive one by one at the players' places, carried in by a hand; the upcard lies beside
the face-down stock; a trick is gathered by its winner's hand; a failed auction brings a new
upcard and the trump 6 can be swapped in. A hand of Kratzen (rules given as ``KratzenRules``) turns its
cards on the same spot, two at most lying at once, and the dealer takes them up before the first card is
played. Everything the camera cannot see (bids, contracts, the cut, exchanges, who swapped) comes out as
timed *taps*, what a person enters on the tablet. Each visible change
also comes out as ground truth (:class:`Visual`) with the moment the card lay still, so the
live table can be tested end to end and its latency measured.

It reuses the scene generator's camera, tables, card pasting, hands and light, so it is the
same world the recognizer was trained on, but one fixed camera over a whole hand.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterator

import cv2
import numpy as np

from engine.events import (
    BidMade,
    CardPlayed,
    Event,
    HandsKnown,
    HandStarted,
    TrumpSixSwapped,
    UpcardShown,
)
from engine.hand import Hand
from engine.kratzen import KratzenRules
from engine.kratzen_hand import KratzenHand
from engine.rules import HouseRules

from .art import BACK
from .cloths import cloth
from .held_out import TUNING, TableDraw, reprint, webcam
from .scenes import (
    SKIN,
    camera,
    card_plane_quad,
    draw_hand_at,
    light,
    paste_card,
    project,
    table,
    visible_fraction,
)

FPS = 20.0
MOVE, SETTLE, BETWEEN = 0.5, 0.35, 0.45  # seconds: a card carried in, the hand leaving, pause after
TAP_GAP = 0.4
GATHER_PAUSE, GATHER = 1.2, 0.6
SHOWN = 1.0  # seconds a double blind's upcard lies shown before the dealer takes it up
UPCARD_STEP = 0.72  # a new upcard lies beside the last one


@dataclass
class Visual:
    """Ground truth: what the camera should turn into an event, and when it became true."""

    t: float  # the card lies still (or the last card of a trick is gone)
    kind: str  # upcard | play | swap | gathered
    card: str | None = None
    player: str | None = None


@dataclass
class Tap:
    t: float
    event: Event


@dataclass
class CardOnTable:
    code: str  # card code, or "back"
    pose: tuple[float, float, float]  # plane x, y, rotation
    t_in: float  # starts being carried in (inf: never on the table)
    t_still: float
    t_out: float = math.inf  # picked up
    t_gone: float = math.inf  # off the table
    origin: tuple[float, float] = (0.0, 0.0)  # where the hand brings it from / takes it to
    exit: tuple[float, float] = (0.0, 0.0)

    def pose_at(self, t: float) -> tuple[float, float, float] | None:
        if t < self.t_in or t >= self.t_gone:
            return None
        x, y, r = self.pose
        if t < self.t_still:
            f = _ease((t - self.t_in) / max(1e-6, self.t_still - self.t_in))
            ox, oy = self.origin
            return (ox + (x - ox) * f, oy + (y - oy) * f, r + (1 - f) * 0.6)
        if t >= self.t_out:
            f = _ease((t - self.t_out) / max(1e-6, self.t_gone - self.t_out))
            ex, ey = self.exit
            return (x + (ex - x) * f, y + (ey - y) * f, r)
        return self.pose

    def still_at(self, t: float) -> bool:
        return self.t_still <= t < self.t_out


def _ease(u: float) -> float:
    u = min(1.0, max(0.0, u))
    return u * u * (3 - 2 * u)


@dataclass
class HandMotion:
    t0: float
    t1: float
    seat: tuple[float, float]  # where the arm comes from (plane)
    target: tuple[float, float]  # where the fingertips go (plane)
    skin: int

    def reach_at(self, t: float) -> float | None:
        """0 (out of view) .. 1 (at the target) .. 0, over [t0, t1]; None outside."""
        if not self.t0 <= t <= self.t1:
            return None
        u = (t - self.t0) / (self.t1 - self.t0)
        return math.sin(math.pi * u) ** 0.6


@dataclass
class VirtualHand:
    """A rendered hand: frames on demand, the taps to enter, and the ground truth."""

    size: tuple[int, int]
    hom: np.ndarray
    cards: list[CardOnTable]
    motions: list[HandMotion]
    taps: list[Tap]
    visuals: list[Visual]
    duration: float
    zones: dict[str, list[list[float]]]  # place -> polygon in image pixels ("upcard" or a player)
    pack: dict[str, np.ndarray]
    seed: int
    fps: float = FPS
    style: dict = field(default_factory=dict)
    draw: TableDraw | None = None  # the world's table (None: the tuning world's defaults)
    cloth: str | None = None  # a table top by name (datasets.cloths), over the world's: the demo's baize
    _static: tuple | None = field(default=None, repr=False)

    # ---------------------------------------------------------------- rendering
    def frames(self) -> Iterator[tuple[float, np.ndarray, list[dict]]]:
        """(t, RGB image, truth) for every frame; truth lists each visible face-up card."""
        n = int(math.ceil(self.duration * self.fps))
        for i in range(n):
            t = i / self.fps
            yield t, *self.frame(t, i)

    def frame(self, t: float, index: int = 0) -> tuple[np.ndarray, list[dict]]:
        w, h = self.size
        still = [(k, c) for k, c in enumerate(self.cards) if c.still_at(t)]
        key = tuple(k for k, _ in still)
        if self._static is None or self._static[0] != key:
            img, ids = self._background()
            for k, c in still:
                self._paste(img, ids, k, c, c.pose)
            self._static = (key, img, ids)
        img, ids = self._static[1].copy(), self._static[2].copy()
        for k, c in enumerate(self.cards):
            if c.still_at(t):
                continue
            pose = c.pose_at(t)
            if pose is not None:
                self._paste(img, ids, k, c, pose)
        rng = np.random.default_rng((self.seed, index))
        for m in self.motions:
            reach = m.reach_at(t)
            if reach is not None and reach > 0.05:
                self._draw_hand(img, ids, m, reach, rng)
        truth = []
        for k, c in enumerate(self.cards):
            pose = c.pose_at(t)
            if pose is None or c.code == BACK:
                continue
            quad = project(self.hom, card_plane_quad(*pose, self._aspect()))
            truth.append({"card": c.code, "quad": quad, "visible": visible_fraction(ids, k, quad),
                          "still": c.still_at(t)})
        return self._camera(img, rng), truth

    def _aspect(self) -> float:
        face = self.pack[next(iter(self.pack))]
        return face.shape[1] / face.shape[0]

    def _background(self) -> tuple[np.ndarray, np.ndarray]:
        w, h = self.size
        rng = np.random.default_rng((self.seed, 1))
        top = self.cloth or (self.draw.cloth if self.draw is not None else "tuning")
        if top != "tuning":
            img = cloth(top, rng, self.size)
        else:
            img = table(rng, self.size)
        ids = np.full((h, w), -2, np.int16)
        return img, ids

    def _paste(self, img: np.ndarray, ids: np.ndarray, k: int, c: CardOnTable, pose) -> None:
        face = self.pack[c.code]
        if k % 2:
            face = face[::-1, ::-1]  # cards lie either way up
        quad = project(self.hom, card_plane_quad(*pose, face.shape[1] / face.shape[0]))
        paste_card(img, ids, face, quad, k, np.random.default_rng((self.seed, 2, k)))

    def _draw_hand(self, img, ids, m: HandMotion, reach: float, rng) -> None:
        sx, sy = m.seat
        tx, ty = m.target
        tip = (sx + (tx - sx) * reach, sy + (ty - sy) * reach)
        ang = math.atan2(ty - sy, tx - sx)
        palm = (tip[0] - 0.55 * math.cos(ang), tip[1] - 0.55 * math.sin(ang))
        wrist = (palm[0] - 1.5 * math.cos(ang), palm[1] - 1.5 * math.sin(ang))
        p = project(self.hom, np.array([wrist, palm, tip]))
        img_ang = math.atan2(p[2][1] - p[1][1], p[2][0] - p[1][0])
        length = float(np.linalg.norm(p[2] - p[1]))
        fingers = [(img_ang + (j - 2) * 0.22, length * (0.8 + 0.1 * (j % 2)), 0.28) for j in range(5)]
        colour = np.array(SKIN[m.skin], np.float32)
        draw_hand_at(img, ids, (float(p[0][0]), float(p[0][1])), (float(p[1][0]), float(p[1][1])),
                     length * 0.55, img_ang, fingers, colour, rng)

    def _camera(self, img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        gain, add = self.style["light"]
        out = img * gain + add
        if self.style["blur"] > 0:
            out = cv2.GaussianBlur(out, (0, 0), self.style["blur"])
        noise = np.empty(out.shape, np.float32)
        cv2.setRNGSeed(int(rng.integers(1 << 31)))
        cv2.randn(noise, 0.0, self.style["noise"])  # a tenth of numpy's time, and seeded
        out = np.clip(out + noise, 0, 255).astype(np.uint8)
        return out if self.draw is None else webcam(out, self.draw, rng)

    def write_video(self, path: str) -> str:
        """An MJPEG AVI (what OpenCV can always write and read back)."""
        w, h = self.size
        out = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), self.fps, (w, h))
        if not out.isOpened():
            raise RuntimeError(f"cannot write video {path}")
        for _, img, _ in self.frames():
            out.write(img[..., ::-1])
        out.release()
        return str(path)


# --------------------------------------------------------------------------- building
def render_hand(events: list[Event], pack: dict[str, np.ndarray], seed: int,
                rules: HouseRules | KratzenRules | None = None, size: tuple[int, int] = (640, 480),
                max_tilt_deg: float = 35.0, fps: float = FPS, pile: bool = False, draw: TableDraw | None = None,
                top: str | None = None, muss: bool = False) -> VirtualHand:
    """Lay out one hand's effective events (``HandStarted`` first) on a virtual table. ``pile``:
    every card of a trick is played into one pile in the middle, at any angle, each over the last
    (the zones then say nothing of who played it). ``draw``: a table of a world
    (:mod:`datasets.held_out`), which then sets the size, frame rate, tilt, cloth, camera and print.
    ``top``: the table top by name (:func:`datasets.cloths.cloth`), e.g. the demo's ``"baize"``.
    ``rules`` of Kratzen render a hand of Kratzen; ``muss``: that hand is a Muss (the first of an evening)."""
    start = events[0]
    if not isinstance(start, HandStarted):
        raise ValueError("a hand's events begin with hand_started")
    rng = np.random.default_rng(seed)
    frame_in_cards = TUNING.frame_in_cards[0]
    if draw is not None:
        size, fps, max_tilt_deg = draw.size, draw.fps, draw.max_tilt_deg
        frame_in_cards = float(np.random.default_rng((seed, 3)).uniform(*draw.frame_in_cards))
        if draw.reprint:
            pack = reprint(pack, seed)
    seats = _seat_positions(start.seats, rng)
    hom = _fit_camera(rng, size, math.radians(rng.uniform(0, max_tilt_deg)), seats, frame_in_cards)
    builder = _Timeline(start, rules or HouseRules(), seats, rng, pile, muss)
    for ev in events:
        builder.add(ev)
    builder.finish()
    zones = {name: _circle(hom, pos, 0.7) for name, (pos, _) in seats.items()}
    zones["upcard"] = _rect(hom, (builder.UPCARD[0] + UPCARD_STEP, builder.UPCARD[1]), 1.15, 0.7)
    style = _style(rng, size)
    return VirtualHand(size, hom, builder.cards, builder.motions, builder.taps, builder.visuals, builder.t,
                       zones, pack, seed, fps, style, draw, top)


def _seat_positions(names: tuple[str, ...], rng: np.random.Generator) -> dict[str, tuple]:
    """Each player's card spot and arm origin round an oval table, in play order (anticlockwise)."""
    n = len(names)
    out = {}
    for i, name in enumerate(names):
        a = -math.pi / 2 + 2 * math.pi * (i + 0.5) / n + rng.normal(0, 0.05)
        spot = (2.0 * math.cos(a), 1.45 * math.sin(a))
        arm = (3.8 * math.cos(a), 3.0 * math.sin(a))
        out[name] = (spot, arm)
    return out


def _fit_camera(rng: np.random.Generator, size, tilt: float, seats, frame_in_cards: float = TUNING.frame_in_cards[0]) -> np.ndarray:
    """A camera over the table that keeps every card spot inside the picture."""
    w, h = size
    pts = np.array([p for p, _ in seats.values()] + [(-0.95, 0), (1.3, 0)], np.float64)
    pts = np.concatenate([pts + d for d in ((0.6, 0.6), (-0.6, 0.6), (0.6, -0.6), (-0.6, -0.6))])
    card_px = h / frame_in_cards
    for _ in range(30):
        hom = camera(np.random.default_rng(rng.integers(1 << 30)), size, tilt, card_px)
        q = project(hom, pts)
        if np.all(np.isfinite(q)) and q[:, 0].min() > 4 and q[:, 1].min() > 4 and q[:, 0].max() < w - 4 \
                and q[:, 1].max() < h - 4:
            return hom
        card_px *= 0.95
    return hom


def _circle(hom: np.ndarray, centre: tuple[float, float], r: float) -> list[list[float]]:
    pts = np.array([[centre[0] + r * math.cos(a), centre[1] + r * math.sin(a)]
                    for a in np.linspace(0, 2 * math.pi, 12, endpoint=False)])
    return project(hom, pts).round(1).tolist()


def _rect(hom: np.ndarray, centre: tuple[float, float], half_w: float, half_h: float) -> list[list[float]]:
    pts = np.array([[-half_w, -half_h], [half_w, -half_h], [half_w, half_h], [-half_w, half_h]]) + np.array(centre)
    return project(hom, pts).round(1).tolist()


def _style(rng: np.random.Generator, size) -> dict:
    w, h = size
    seed = int(rng.integers(1 << 30))
    ones = light(np.ones((h, w, 3), np.float32), np.random.default_rng(seed))
    zero = light(np.zeros((h, w, 3), np.float32), np.random.default_rng(seed))
    return {"light": ((ones - zero).astype(np.float32), zero.astype(np.float32)),
            "blur": float(rng.choice([0.0, rng.uniform(0.3, 1.0)])), "noise": float(rng.uniform(1, 5))}


class _Timeline:
    """Turns the hand's events into card movements, hand motions, taps and ground truth."""

    UPCARD = (-0.2, 0.0)
    STOCK = (-0.95, 0.0)
    PILE = (0.5, -1.1)  # the middle of the table, clear of the row of upcards

    def __init__(self, start: HandStarted, rules: HouseRules | KratzenRules, seats: dict, rng: np.random.Generator,
                 pile: bool = False, muss: bool = False) -> None:
        self.rules, self.seats, self.rng, self.pile = rules, seats, rng, pile
        self.kratzen = isinstance(rules, KratzenRules)
        self.hand = KratzenHand(start, muss, rules) if self.kratzen else Hand(start, rules)
        self.turned: dict[int, CardOnTable] = {}  # Kratzen: the cards turned still lying, by slot on the spot
        self.t = 0.6
        self.cards: list[CardOnTable] = [CardOnTable(BACK, (*self.STOCK, 0.05), -1, -1)]
        self.motions: list[HandMotion] = []
        self.taps: list[Tap] = [Tap(0.1, start)]
        self.visuals: list[Visual] = []
        self.trick_cards: list[CardOnTable] = []
        self.upcard_obj: CardOnTable | None = None
        self.skin = {name: int(rng.integers(len(SKIN))) for name in start.seats}

    def add(self, ev: Event) -> None:
        if isinstance(ev, HandStarted):
            return
        if isinstance(ev, HandsKnown):
            return  # a real table never knows the hands
        tricks_before = len(self.hand.tricks)
        self.hand.apply(ev)
        if isinstance(ev, UpcardShown):
            self._upcard(ev.card.code)
        elif isinstance(ev, TrumpSixSwapped):
            self._swap(ev)
        elif isinstance(ev, CardPlayed):
            if self.turned:  # Kratzen: the turned cards are the dealer's, taken up before the play
                self._take_turned(list(self.turned))
            self._play(ev.player, ev.card.code)
        else:
            self._tap(ev)
            if isinstance(ev, BidMade) and ev.bid == "blind" and self.upcard_obj is not None:
                self._take_upcard(self.hand.seats[self.hand.dealer])
        if len(self.hand.tricks) > tricks_before:
            last = self.hand.winners()[-1] if self.kratzen else self.hand.tricks[-1].winner
            self._gather(self.hand.seats[last])

    def _tap(self, ev: Event) -> None:
        self.taps.append(Tap(self.t, ev))
        self.t += TAP_GAP

    def _bring(self, code: str, player: str, pose: tuple[float, float, float]) -> CardOnTable:
        arm = self.seats[player][1]
        c = CardOnTable(code, pose, self.t, self.t + MOVE, origin=(arm[0] * 0.6, arm[1] * 0.6))
        self.cards.append(c)
        self.motions.append(HandMotion(self.t - 0.1, self.t + MOVE + SETTLE, arm, pose[:2], self.skin[player]))
        self.t += MOVE + SETTLE + BETWEEN
        return c

    def _upcard(self, code: str) -> None:
        k = len(self.hand.upcards) - 1
        if self.kratzen:  # two slots on the spot: the oldest card turned is taken up to free one
            free = [j for j in (0, 1) if j not in self.turned]
            if not free:
                oldest = min(self.turned, key=lambda j: self.turned[j].t_in)
                self._take_turned([oldest])
                free = [oldest]
            k = free[0]
        pose = (self.UPCARD[0] + UPCARD_STEP * k, self.UPCARD[1] + self.rng.normal(0, 0.03), self.rng.normal(0, 0.06))
        dealer = self.hand.seats[self.hand.dealer]
        self.upcard_obj = self._bring(code, dealer, pose)
        if self.kratzen:
            self.turned[k] = self.upcard_obj
        self.visuals.append(Visual(self.upcard_obj.t_still, "upcard", code))
        if getattr(self.hand, "blind", None) == "double_blind":  # shown, then the dealer's (RULES.md: Double blind)
            self.t += SHOWN
            self._take_upcard(dealer)

    def _take_upcard(self, player: str) -> None:
        c = self.upcard_obj
        arm = self.seats[player][1]
        c.t_out, c.t_gone, c.exit = self.t + 0.3, self.t + 0.7, (arm[0] * 0.6, arm[1] * 0.6)
        self.motions.append(HandMotion(self.t, self.t + 1.0, arm, c.pose[:2], self.skin[player]))
        self.t += 1.2
        self.upcard_obj = None

    def _take_turned(self, slots: list[int]) -> None:
        """Kratzen: the dealer takes the turned cards in ``slots`` up, in one reach."""
        arm = self.seats[self.hand.seats[self.hand.dealer]][1]
        for j in slots:
            c = self.turned.pop(j)
            c.t_out, c.t_gone, c.exit = self.t + 0.3, self.t + 0.7, (arm[0] * 0.6, arm[1] * 0.6)
            target = c.pose[:2]
        self.motions.append(HandMotion(self.t, self.t + 1.0, arm, target, self.skin[self.hand.seats[self.hand.dealer]]))
        self.t += 1.2
        self.upcard_obj = None

    def _swap(self, ev: TrumpSixSwapped) -> None:
        self._tap(ev)  # the table says who; the camera sees the cards change
        old = self.upcard_obj
        pose = old.pose
        self._take_upcard(ev.player)
        six = "6" + old.code[1]
        c = CardOnTable(six, pose, old.t_gone, old.t_gone + 0.35, origin=(pose[0], pose[1] - 0.3))
        self.cards.append(c)
        self.upcard_obj = c
        self.visuals.append(Visual(c.t_still, "swap", six, ev.player))
        self.t = max(self.t, c.t_still + BETWEEN)

    def _play(self, player: str, code: str) -> None:
        spot, _ = self.seats[player]
        if self.pile:  # thrown onto the trick: anywhere on the last cards, at any angle
            pose = (self.PILE[0] + self.rng.normal(0, 0.15), self.PILE[1] + self.rng.normal(0, 0.15),
                    self.rng.uniform(0, 2 * math.pi))
        else:
            pose = (spot[0] + self.rng.normal(0, 0.06), spot[1] + self.rng.normal(0, 0.06),
                    math.atan2(spot[1], spot[0]) + math.pi / 2 + self.rng.normal(0, 0.15))
        c = self._bring(code, player, pose)
        self.trick_cards.append(c)
        self.visuals.append(Visual(c.t_still, "play", code, player))

    def _gather(self, winner: str) -> None:
        self.t += GATHER_PAUSE
        arm = self.seats[winner][1]
        end = self.t + GATHER
        for j, c in enumerate(self.trick_cards):
            c.t_out = self.t + 0.08 * j
            c.t_gone = end
            c.exit = (arm[0] * 0.7, arm[1] * 0.7)
        self.motions.append(HandMotion(self.t - 0.3, end + 0.3, arm, (0.0, 0.0), self.skin[winner]))
        self.visuals.append(Visual(end, "gathered"))
        self.trick_cards = []
        self.t = end + 0.6

    def finish(self) -> None:
        self.t += 1.0
        self.taps.sort(key=lambda tap: tap.t)


def table_events(events: list[Event]) -> list[Event]:
    """What a real table's record of the hand holds: everything but the known hands."""
    return [ev for ev in events if not isinstance(ev, HandsKnown)]
