"""Card quadrilaterals: ordering corners and cutting an upright crop.

Training crops and live crops are cut by this one function, so the classifier sees at the table
what it was trained on: close-ups at the card's outline, crops at the detector's oriented boxes,
and at the table the outline the corner network (vision.recognize.corners) fitted to the box.
"""

from __future__ import annotations

from math import hypot
from typing import Callable

import cv2
import numpy as np

# The upright crop fed to the classifier is square: the card is stretched to fill it, so no
# resize or centre crop in training or at the table ever cuts off a corner index.
CROP_W, CROP_H = 96, 96


# Each corner's next round a quad: ``q[NEXT_CORNER] - q`` are its sides (``np.roll`` costs more, a
# frame orders some 30 outlines).
NEXT_CORNER = np.array([1, 2, 3, 0])


def order_quad(pts: np.ndarray) -> np.ndarray:
    """Corners clockwise from the top end's left, with the card's long side vertical.

    A card lying sideways is turned upright; which end is up stays ambiguous (the classifier
    is trained on both), and a mirrored order never occurs, so a crop is never mirrored.
    """
    pts = np.asarray(pts, dtype=np.float32).reshape(4, 2)
    d = pts - pts.mean(axis=0)
    cyc = pts[np.argsort(np.arctan2(d[:, 1], d[:, 0]))]  # clockwise in image coordinates (y down)
    sides = side_lengths(cyc)
    start = 0 if sides[0] + sides[2] <= sides[1] + sides[3] else 1  # side 0->1 is a short side
    ends_y = cyc[:, 1] + cyc[NEXT_CORNER, 1]  # twice each side's middle height
    s = start if ends_y[start] <= ends_y[start + 2] else start + 2  # the short side nearer the top of the image
    return cyc[(np.arange(4) + s) % 4]


def side_lengths(quad: np.ndarray) -> np.ndarray:
    """The length of each side, corner k to corner k + 1."""
    side = quad[NEXT_CORNER] - quad
    return np.sqrt((side * side).sum(axis=1))


def best_roll(quad: np.ndarray, onto: np.ndarray) -> int:
    """How far ``quad``'s corners are rolled (``np.roll`` along its corners) to lie nearest ``onto``'s:
    one card's outline listed from another corner."""
    return min(range(4), key=lambda s: float(np.abs(np.roll(quad, s, axis=0) - onto).sum()))


def obb_corners(cx: float, cy: float, w: float, h: float, angle_rad: float) -> np.ndarray:
    """Four corners of an oriented box (Ultralytics xywhr)."""
    return cv2.boxPoints(((cx, cy), (w, h), np.degrees(angle_rad))).astype(np.float32)


def sideways(quad: np.ndarray) -> np.ndarray:
    """:func:`order_quad`'s outline the other way round: its long sides as the card's ends. A card
    tilted away from the camera along its length is seen shorter than wide, and this is its order."""
    return np.roll(order_quad(quad), -1, axis=0)


def elongation(quad: np.ndarray) -> float:
    """How many times longer the outline's long sides are than its ends, as the picture shows it
    (a card head-on about 1.5; seen at a slant, anything down to 1)."""
    sides = side_lengths(order_quad(quad)).astype(float)
    return float((sides[1] + sides[3]) / max(sides[0] + sides[2], 1e-9))


def rectify(image: np.ndarray, quad: np.ndarray, size: tuple[int, int] = (CROP_W, CROP_H),
            ordered: bool = False) -> np.ndarray:
    """An upright crop of the card at ``quad`` (any corner order, unless ``ordered``: then its
    corners are the crop's, clockwise from the top left)."""
    w, h = size
    src = np.asarray(quad, np.float32) if ordered else order_quad(quad)
    dst = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], dtype=np.float32)
    m = cv2.getPerspectiveTransform(src, dst)
    return cv2.warpPerspective(image, m, (w, h), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


def min_area_quad(quad: np.ndarray) -> np.ndarray:
    """The oriented box a detector would give for a card whose true outline is ``quad``."""
    return cv2.boxPoints(cv2.minAreaRect(np.asarray(quad, dtype=np.float32))).astype(np.float32)


def quad_iou(a: np.ndarray, b: np.ndarray) -> float:
    """IoU of two convex outlines (a card's four corners, turned any way)."""
    a, b = np.asarray(a, np.float32), np.asarray(b, np.float32)
    inter, _ = cv2.intersectConvexConvex(cv2.convexHull(a), cv2.convexHull(b))
    union = abs(cv2.contourArea(a)) + abs(cv2.contourArea(b)) - inter
    return float(inter / union) if union > 0 else 0.0


def quad_within(a: np.ndarray, b: np.ndarray) -> float:
    """Share of convex outline ``a`` that lies inside convex outline ``b``."""
    a, b = np.asarray(a, np.float32), np.asarray(b, np.float32)
    area = abs(cv2.contourArea(a))
    if area <= 0:
        return 0.0
    inter, _ = cv2.intersectConvexConvex(cv2.convexHull(a), cv2.convexHull(b))
    return float(inter / area)


def quad_iou_aabb(a: np.ndarray, b: tuple[float, float, float, float]) -> float:
    """IoU of the axis-aligned box around quad ``a`` with box ``b`` (x1, y1, x2, y2)."""
    ax1, ay1 = a.min(axis=0)
    ax2, ay2 = a.max(axis=0)
    return box_iou((ax1, ay1, ax2, ay2), b)


def _intersection(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


def _area(a: tuple[float, float, float, float]) -> float:
    return (a[2] - a[0]) * (a[3] - a[1])


def box_iou(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    inter = _intersection(a, b)
    union = _area(a) + _area(b) - inter
    return float(inter / union) if union > 0 else 0.0


def box_within(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    """Share of box ``a`` that lies inside box ``b``."""
    area = _area(a)
    return float(_intersection(a, b) / area) if area > 0 else 0.0


def box_under(a: tuple[float, float, float, float], others: list[tuple[float, float, float, float]],
              samples: int = 16) -> float:
    """Share of box ``a`` under the union of ``others`` (a card under several thrown onto it),
    measured on a ``samples`` x ``samples`` grid of points in ``a``."""
    if not others:
        return 0.0
    xs = np.linspace(a[0], a[2], samples)
    ys = np.linspace(a[1], a[3], samples)
    px, py = (v.ravel() for v in np.meshgrid(xs, ys))
    under = np.zeros(px.shape, bool)
    for x1, y1, x2, y2 in others:
        under |= (px >= x1) & (px <= x2) & (py >= y1) & (py <= y2)
    return float(under.mean())


def box_cover(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    """Share of the smaller box inside the other: 1.0 when the visible part of a half-covered
    card lies within the card's earlier box, although their IoU is low."""
    return max(box_within(a, b), box_within(b, a))


def box_diagonal(a: tuple[float, float, float, float]) -> float:
    return hypot(a[2] - a[0], a[3] - a[1])


def box_centre(a: tuple[float, float, float, float]) -> tuple[float, float]:
    return (a[0] + a[2]) / 2, (a[1] + a[3]) / 2


def centre_apart(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    """Distance between the centres of boxes ``a`` and ``b``."""
    (ax, ay), (bx, by) = box_centre(a), box_centre(b)
    return hypot(ax - bx, ay - by)


def centre_within(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    """The centre of box ``a`` lies inside box ``b`` (edges included)."""
    (x, y), (x1, y1, x2, y2) = box_centre(a), b
    return x1 <= x <= x2 and y1 <= y <= y2


Rect = tuple[tuple[float, float], tuple[float, float], float]  # OpenCV's rotated rect: centre, size, degrees


def crosswise(a: Rect, b: Rect, limit: float = 45.0) -> bool:
    """The long sides of two oriented boxes lie more than ``limit`` degrees apart."""
    d = abs(_long_axis(a) - _long_axis(b)) % 180.0
    return min(d, 180.0 - d) > limit


def _long_axis(r: Rect) -> float:
    (_, _), (w, h), angle = r
    return angle if w >= h else angle + 90.0


def rect_within(a: Rect, b: Rect) -> float:
    """Share of oriented box ``a`` that lies inside oriented box ``b``."""
    area = a[1][0] * a[1][1]
    kind, pts = cv2.rotatedRectangleIntersection(a, b)
    if kind == cv2.INTERSECT_NONE or pts is None or area <= 0:
        return 0.0
    return float(cv2.contourArea(cv2.convexHull(pts)) / area)


def greedy_match(preds: list, gts: list, iou: Callable, thr: float) -> list[tuple[int, int, float]]:
    """Greedy matching, highest confidence first: (pred index, gt index, iou)."""
    pairs, used = [], set()
    order = sorted(range(len(preds)), key=lambda i: -preds[i][1])
    for i in order:
        best, bj = thr, -1
        for j, g in enumerate(gts):
            if j in used:
                continue
            v = iou(preds[i][0], g[0])
            if v >= best:
                best, bj = v, j
        if bj >= 0:
            used.add(bj)
            pairs.append((i, bj, best))
    return pairs
