"""Two looks at one frame: as it is, and turned a quarter clockwise, with the boxes fused.

The detector is a small network trained on CPUs and is not indifferent to how a picture is turned:
the same real photos turned a quarter show it cards it missed upright, and the other way round.
A card both looks find keeps the mean of its two scores; a box one look alone sees counts at half
its score, so a stray box must be seen boldly to pass the threshold.
"""
from __future__ import annotations

import numpy as np

from .geometry import Rect, quad_iou

CANDIDATE = 0.05  # score a box needs in one view to take part in the fusion
MATCH = 0.5  # outline IoU at which boxes of the two views are one card


def turn(rgb: np.ndarray) -> np.ndarray:
    """The frame turned a quarter clockwise: pixel (x, y) lands at (h - 1 - y, x)."""
    return np.ascontiguousarray(np.rot90(rgb, -1))


def unturn(rect: Rect, height: int) -> Rect:
    """A rotated rect found in :func:`turn`'s picture, in the frame's own pixels.

    Box coordinates are continuous (a box round pixel 0 runs from 0 to 1), so a point (x, y) of
    the turned picture is (y, height - x) of the frame, not the pixel indices' height - 1 - x.
    """
    (x, y), size, angle = rect
    return (y, height - x), size, angle - 90.0


def fuse(views: list[list[tuple[np.ndarray, float]]], threshold: float,
         match: float = MATCH) -> list[tuple[np.ndarray, float]]:
    """Boxes (corners, score) of several views, each view already through NMS, as one list.

    Greedy from the boldest box: it takes at most one box of each other view lying on it (outline
    IoU >= ``match``) and scores the mean over all views, a view without one counting 0. The
    boldest member's outline is kept: averaging corners of boxes turned a half round apart would
    fold them.
    """
    items = sorted(((s, v, np.asarray(q, np.float32)) for v, boxes in enumerate(views) for q, s in boxes),
                   key=lambda t: -t[0])
    used = [False] * len(items)
    fused = []
    for i, (score, view, quad) in enumerate(items):
        if used[i]:
            continue
        total, seen = score, {view}
        for j in range(i + 1, len(items)):
            s, v, q = items[j]
            if not used[j] and v not in seen and quad_iou(quad, q) >= match:
                used[j] = True
                seen.add(v)
                total += s
        if total / len(views) >= threshold:
            fused.append((quad, total / len(views)))
    return fused
