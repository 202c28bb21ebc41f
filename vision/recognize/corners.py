"""The third stage: where a card's four corners truly lie, from a crop around its detected box.

The detector's oriented box is a rectangle, and a card under a tilted camera is a trapezoid;
the box also fits loosely (median IoU 0.87 with the true outline for cards fully in view on
generated scenes, 0.82 over all found cards; fitted, 0.97 and 0.96). Cut
upright from that box, the classifier reads 81 % of the found cards right; cut from the true
outline it would read 93 % (``docs/recognition.md``, "Corners"). So a small network looks at
a window somewhat larger than the box and says where the card's corners are in it.

The window and the corner order are defined here once, for the training pairs
(:mod:`datasets.corner_crops`) and for the table (:class:`vision.recognize.recognizer.Recognizer`).
"""

from __future__ import annotations

import cv2
import numpy as np

from .geometry import NEXT_CORNER, order_quad

SIZE = 96  # the window is cut to SIZE x SIZE pixels (stretched, like the classifier's crop)
GROW = 1.4  # the window is the box grown by this factor about its centre: corners outside the box stay in view
# The box's own corners in the window, in [0, 1]: what the network's offsets are added to.
BASE = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32) * (1 / GROW) + (1 - 1 / GROW) / 2
# A fit meeting its box under this IoU is no card the network knew, and the box stays as found; a loose
# box (the fit's reason to be) meets its card's outline at about 0.55.
MIN_AGREEMENT = 0.3
# Two fitted outlines meeting at this IoU or more are one card boxed twice (along and across it); a
# card's two fits meet at 0.9 or more, fanned neighbours under 0.8.
SAME_CARD = 0.8


def window(quad: np.ndarray) -> np.ndarray:
    """The window around a detected box: its corners (ordered as :func:`order_quad`), grown."""
    q = order_quad(quad)
    c = q.mean(axis=0)
    return (c + (q - c) * GROW).astype(np.float32)


WINDOW = np.float32([[0, 0], [SIZE, 0], [SIZE, SIZE], [0, SIZE]])  # the window's corners, in its own pixels


def window_transform(quad: np.ndarray) -> np.ndarray:
    """Perspective map from image pixels to the window's [0, SIZE] square."""
    return cv2.getPerspectiveTransform(window(quad), WINDOW)


def cut_window(image: np.ndarray, quad: np.ndarray, transform: np.ndarray | None = None) -> np.ndarray:
    """The SIZE x SIZE window around a detected box, upright as the classifier's crop is
    (``transform``: the box's :func:`window_transform`, where the caller has it already)."""
    m = window_transform(quad) if transform is None else transform
    return cv2.warpPerspective(image, m, (SIZE, SIZE), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


def to_window(quad: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Image points in the window of box ``quad``, as fractions of its side."""
    pts = np.asarray(points, np.float32).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(pts, window_transform(quad)).reshape(-1, 2) / SIZE


def from_window(quad: np.ndarray, points: np.ndarray, transform: np.ndarray | None = None) -> np.ndarray:
    """Points given as fractions of the window of box ``quad``, back in image pixels (``transform``
    as for :func:`cut_window`)."""
    inv = np.linalg.inv(window_transform(quad) if transform is None else transform)
    pts = (np.asarray(points, np.float32) * SIZE).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(pts, inv).reshape(-1, 2)


def matched_corners(quad: np.ndarray, truth: np.ndarray) -> np.ndarray:
    """A card's true corners in the window of its box, in the box's corner order: of the four
    ways round the card (a box never mirrors it), the one nearest the box's own corners."""
    pts = to_window(quad, truth)
    rolls = [np.roll(pts, -k, axis=0) for k in range(4)]
    return min(rolls, key=lambda p: float(np.linalg.norm(p - BASE, axis=1).sum()))


def convex_quad(q: np.ndarray) -> bool:
    """Four corners going round one way (clockwise in image coordinates), with some area."""
    edges = q[NEXT_CORNER] - q
    following = edges[NEXT_CORNER]
    cross = edges[:, 0] * following[:, 1] - edges[:, 1] * following[:, 0]
    return bool((cross > 0).all())
