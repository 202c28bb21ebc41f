"""Which found card lies on which, and the part of each card in view.

Where two outlines overlap, one card lies on the other, and the picture says which: the upper
card's sides cross the lower card's face as edges (its border against that face, its shadow on it),
while the lower card's sides run hidden under the upper card's face. So along each card's sides,
where they pass over the other card, every profile across the side is asked whether its steepest
step lies right on the side; the card whose sides show that clearly more often lies on top. Where
neither does (a blank face, two cards of one shade), no order is decided, and each keeps its whole
outline as its part in view.

Why it matters: a card under another shows a strip, and that strip is what a person points at (the
real photos' labels box it so). The whole outline stays the card's ``corners``, which its read needs.
The constants were chosen on generated scenes, whose stacking order is known (``benchmarks/stacking.py``).

The same edges answer the live table's question whether a card still lies where it was named
(:func:`sides_shown`): its sides show round a card thrown onto it, while a card that slid and was
read anew leaves only the cloth where it lay.
"""

from __future__ import annotations

from functools import cache, partial
from typing import Callable

import cv2
import numpy as np

from .edges import edge_image, edge_window
from .geometry import quad_iou

INSET = 4.0  # pixels: only the part of a side this far inside the other card counts
REACH = 4.0  # pixels either way across the side that each profile looks
SAMPLES = 15  # samples along each profile
NEAR = 1.5  # pixels: the profile's steepest step must lie this near the side
MIN_STEP = 6.0  # grey levels per pixel: a softer step is no card's edge
POINTS = 24  # profiles along each side, spread over SPAN of its length (the rounded corners left out)
SPAN = (0.1, 0.9)
MIN_POINTS = 4  # fewer profiles over the other card: no evidence either way
SHOWN = 0.5  # the upper card's sides show an edge on at least this share of their profiles ...
LEAD = 0.35  # ... and on this share more than the lower card's
# Parts of the part in view thinner than this many pixels are opened away before it is boxed: 1 keeps
# every pixel, which the generated scenes' exact truth favours over wider openings.
SLIVER = 1
AWAY = 6.0  # pixels: a side is free (sides_shown) this far outside every card in view, clear of their edges
NO_SHIFT = np.float32([0, 0])  # a grey picture that is the whole picture, not a window of it

Box = tuple[float, float, float, float]


def edge_share(gray: np.ndarray, a: np.ndarray, b: np.ndarray, origin: np.ndarray = NO_SHIFT) -> float | None:
    """The share of ``a``'s side profiles over ``b``'s face whose steepest step lies on the side
    (an edge the picture shows there); None where too little of ``a``'s sides passes over ``b``.
    ``origin``: where ``gray``'s first pixel lies in the picture, for a window of it (:func:`edge_window`)."""
    points, normals = _side_profiles(a)
    over = _inside(points, np.float64(b), INSET)
    if over.sum() < MIN_POINTS:
        return None
    return float(_shows_edge(gray, points[over], normals[over], origin).mean())


def sides_shown(gray: np.ndarray, quad: np.ndarray, covers: list[np.ndarray]) -> float | None:
    """The share of ``quad``'s side profiles lying AWAY or more outside each of ``covers`` (and within
    the picture) whose steepest step lies on the side: whether a card still lies at ``quad`` where the
    cards in view leave its sides free. None where too little of them is free to tell."""
    points, normals = _side_profiles(quad)
    h, w = gray.shape[:2]
    free = ((points >= REACH) & (points <= np.array([w, h]) - 1 - REACH)).all(axis=1)
    for c in covers:
        free &= _depth(points, np.float64(c)) <= -AWAY
    if free.sum() < MIN_POINTS:
        return None
    return float(_shows_edge(gray, points[free], normals[free]).mean())


def sides_in(rgb: np.ndarray) -> Callable[[list, list], float | None]:
    """:func:`sides_shown` on one frame, for the stabilizer (:data:`vision.table.stable.Sides`); the frame
    is greyed at the first question (most frames ask none)."""
    gray = cache(partial(edge_image, rgb))

    def shown(quad: list, covers: list) -> float | None:
        return sides_shown(gray(), np.float32(quad), [np.float32(c) for c in covers])

    return shown


def _side_profiles(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """POINTS points along each side of ``a`` (over SPAN of its length) and the unit normal there."""
    a = np.float64(a)
    ends = np.roll(a, -1, axis=0)
    t = np.linspace(*SPAN, POINTS)
    points = (a[:, None] + t[None, :, None] * (ends - a)[:, None]).reshape(-1, 2)
    along = ends - a
    normal = np.c_[along[:, 1], -along[:, 0]] / np.linalg.norm(along, axis=1, keepdims=True)
    return points, np.repeat(normal, POINTS, axis=0)


def _shows_edge(gray: np.ndarray, points: np.ndarray, normals: np.ndarray,
                origin: np.ndarray = NO_SHIFT) -> np.ndarray:
    """Per profile across a side: whether its steepest step is steep enough and lies on the side. The
    samples are placed in the picture, then moved by the whole pixels of ``origin``: a window samples
    exactly where the whole picture would."""
    offsets = np.linspace(-REACH, REACH, SAMPLES)
    samples = (points[:, None] + offsets[None, :, None] * normals[:, None]).astype(np.float32) - origin
    profile = cv2.remap(gray, samples[..., 0], samples[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    slope = np.abs(np.gradient(profile, axis=1)) / (offsets[1] - offsets[0])
    on_side = slope[:, np.abs(offsets) <= NEAR].max(axis=1)
    return (on_side >= MIN_STEP) & (on_side >= slope.max(axis=1))


def _inside(points: np.ndarray, quad: np.ndarray, inset: float) -> np.ndarray:
    """Which points lie at least ``inset`` pixels inside the convex outline ``quad``."""
    return _depth(points, quad) >= inset


def _depth(points: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """How far each point lies inside the convex outline ``quad`` from its nearest side's line;
    negative outside (past a side by at least that much)."""
    ends = np.roll(quad, -1, axis=0)
    along = ends - quad
    normal = np.c_[-along[:, 1], along[:, 0]] / np.linalg.norm(along, axis=1, keepdims=True)
    normal *= np.where(np.einsum("ij,ij->i", quad.mean(axis=0) - quad, normal) < 0, -1.0, 1.0)[:, None]  # inwards
    return np.einsum("pkj,kj->pk", points[:, None] - quad[None], normal).min(axis=1)


def on_top(gray: np.ndarray, a: np.ndarray, b: np.ndarray, origin: np.ndarray = NO_SHIFT) -> bool | None:
    """True where card ``a`` lies on ``b``, False where under it, None where the picture does not say
    (``origin`` as for :func:`edge_share`)."""
    return upper(edge_share(gray, a, b, origin), edge_share(gray, b, a, origin))


def upper(shown_a: float | None, shown_b: float | None, shown: float = SHOWN, lead: float = LEAD) -> bool | None:
    """The rule on two cards' edge shares (:func:`edge_share`): True where ``a`` lies on top, False
    where ``b`` does, None where neither shows its sides clearly more (``benchmarks/stacking.py``
    sweeps the gates)."""
    a, b = shown_a or 0.0, shown_b or 0.0
    if a >= shown and a - b >= lead:
        return True
    if b >= shown and b - a >= lead:
        return False
    return None


def stacking(rgb: np.ndarray, quads: list[np.ndarray]) -> list[tuple[int, ...]]:
    """For each outline, the indices of those found lying on it. The picture is turned grey
    (:func:`vision.recognize.edges.edge_window`) only round the outlines that overlap: most frames have none."""
    over: list[list[int]] = [[] for _ in quads]
    pairs = [(i, j) for i in range(len(quads)) for j in range(i + 1, len(quads)) if quad_iou(quads[i], quads[j]) > 0]
    if not pairs:
        return [()] * len(quads)
    gray, origin = edge_window(rgb, [quads[k] for k in sorted({k for pair in pairs for k in pair})], REACH)
    for i, j in pairs:
        upper = on_top(gray, quads[i], quads[j], origin)
        if upper is not None:
            over[j if upper else i].append(i if upper else j)
    return [tuple(sorted(o)) for o in over]


def visible_box(quad: np.ndarray, above: list[np.ndarray], width: int, height: int,
                sliver: int | None = None) -> Box | None:
    """The upright box round the part of ``quad`` within the picture that none of ``above`` covers,
    less any part of it thinner than ``sliver`` pixels (default SLIVER; 1 keeps every pixel); None
    where nothing of it is left."""
    sliver = SLIVER if sliver is None else sliver
    x1, y1 = np.floor(np.clip(quad.min(axis=0), 0, (width, height))).astype(int)
    x2, y2 = np.ceil(np.clip(quad.max(axis=0), 0, (width, height))).astype(int)
    if x2 <= x1 or y2 <= y1:
        return None
    canvas = np.zeros((y2 - y1, x2 - x1), np.uint8)
    origin = np.float32([x1, y1])
    cv2.fillPoly(canvas, [_fixed(quad - origin)], 1, shift=3)
    for q in above:
        cv2.fillPoly(canvas, [_fixed(np.float32(q) - origin)], 0, shift=3)
    if above and sliver > 1:
        canvas = cv2.morphologyEx(canvas, cv2.MORPH_OPEN, np.ones((sliver, sliver), np.uint8))
    ys, xs = np.nonzero(canvas)
    if not len(xs):
        return None
    return float(x1 + xs.min()), float(y1 + ys.min()), float(x1 + xs.max() + 1), float(y1 + ys.max() + 1)


def _fixed(quad: np.ndarray) -> np.ndarray:
    """Corners in OpenCV's fixed point (3 fraction bits), so a fill follows the outline to an eighth of a pixel."""
    return np.round(np.float32(quad) * 8).astype(np.int32)
