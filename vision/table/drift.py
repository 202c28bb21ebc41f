"""A camera moved under zones drawn on its picture: noticed by comparing the picture with the one the
zones were drawn on (ORB keypoints, a RANSAC similarity), so the page can say to recalibrate.

The cards change the picture all evening, so pictures that still fit well are kept as further ones to
compare with, each with its move from the first: a move is the sum of the steps, never lost in them. On
a plain cloth the cards are most of what can be matched, and a trick gathered takes them away; the
pictures kept from earlier in the hand (the first among them) then still match the table as it is.
A printed mat needs none of this: its markers carry the zones with them (:mod:`vision.table.layout`).
"""

from __future__ import annotations

import cv2
import numpy as np

from .settings import DRIFT, DriftSettings
from .watch import CameraCheck

STILL = np.array([[1, 0, 0], [0, 1, 0]], np.float64)


class Drift:
    """How far the zones' corners have moved since the picture they fit (the first frame seen after the
    zones were set)."""

    def __init__(self, corners: np.ndarray, settings: DriftSettings = DRIFT) -> None:
        """``corners``: every zone's polygon points in image pixels, one array of (x, y)."""
        self.corners, self.settings = np.asarray(corners, np.float64).reshape(-1, 2), settings
        self.orb = cv2.ORB_create(settings.features)
        self.matcher = cv2.BFMatcher(cv2.NORM_HAMMING)
        self.first: tuple | None = None  # ((keypoints, descriptors, scale), STILL): the picture the zones fit
        self.kept: list[tuple] = []  # later pictures that fit, newest last, each with its move from the first
        self.last: float | None = None  # when it last compared
        self.kept_at = 0.0  # when a picture was last kept
        self.off = 0  # comparisons in a row that found the zones off
        self.shift: float | None = None  # the last move found, in shares of the frame's diagonal (None: none yet)

    def update(self, rgb: np.ndarray, t: float) -> CameraCheck | None:
        """The warning for the page while the zones no longer fit, else None."""
        if self.first is None:
            self.first, self.last = (self._features(rgb), STILL), t
            return None
        if t - self.last < self.settings.every:
            return self._warning()
        self.last = t
        now = self._features(rgb)
        found = self._move(now)
        if found is None:  # too few matches (a hand over the table, a plain cloth): nothing is said
            return self._warning()
        total, inliers, ratio = found
        moved = self.corners @ total[:, :2].T + total[:, 2] - self.corners
        self.shift = float(np.linalg.norm(moved, axis=1).max() / np.hypot(*rgb.shape[:2]))
        if self.shift >= self.settings.moved:
            self.off += 1
        else:
            self.off = 0
            fits = inliers >= self.settings.renew_inliers and ratio >= self.settings.keep_ratio
            if fits and self.shift < self.settings.moved / 3 and t - self.kept_at >= self.settings.keep_every:
                self.kept = [*self.kept, (now, total)][-self.settings.keep:]  # fits well: one more to compare with
                self.kept_at = t
        return self._warning()

    def _warning(self) -> CameraCheck | None:
        if self.off < self.settings.persist:
            return None
        percent = round(100 * self.shift)
        return CameraCheck("moved", f"the camera seems to have moved (the zones are off by {percent} % of the "
                                    "picture): draw the zones again on the camera page", {"percent": percent})

    def _features(self, rgb: np.ndarray) -> tuple:
        scale = self.settings.width / rgb.shape[1]
        small = cv2.resize(cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY), None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        keypoints, descriptors = self.orb.detectAndCompute(small, None)
        return keypoints, descriptors, scale

    def _move(self, now: tuple) -> tuple[np.ndarray, int, float] | None:
        """The move from the first picture to ``now`` (image pixels) through the newest kept picture that
        matches it, with how many matches bear it out and their share; None where none matches."""
        for then, to_then in reversed([self.first, *self.kept]):
            found = self._step(then, now)
            if found is not None:
                return _then(to_then, found[0]), found[1], found[2]
        return None

    def _step(self, then: tuple, now: tuple) -> tuple[np.ndarray, int, float] | None:
        """The similarity taking picture ``then`` to ``now`` (image pixels), its inliers and their share."""
        (k0, d0, scale), (k1, d1, _) = then, now
        if d0 is None or d1 is None or len(k0) < 2 or len(k1) < 2:
            return None
        pairs = [m[0] for m in self.matcher.knnMatch(d0, d1, k=2) if len(m) == 2 and m[0].distance < 0.75 * m[1].distance]
        if len(pairs) < self.settings.min_inliers:
            return None
        src = np.float32([k0[m.queryIdx].pt for m in pairs]) / scale
        dst = np.float32([k1[m.trainIdx].pt for m in pairs]) / scale
        move, inliers = cv2.estimateAffinePartial2D(src, dst, method=cv2.RANSAC, ransacReprojThreshold=3.0 / scale)
        n = int(inliers.sum()) if move is not None else 0
        if n < self.settings.min_inliers or n < self.settings.min_ratio * len(pairs):
            return None
        return move, n, n / len(pairs)


def _then(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """The 2x3 move ``second`` after ``first``."""
    return np.hstack([second[:, :2] @ first[:, :2], (second[:, :2] @ first[:, 2] + second[:, 2])[:, None]])
