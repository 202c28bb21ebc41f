"""Taking a card from a live picture: the card must lie still for a few frames and pass every check;
the sharpest of those frames is kept (a hand just leaving blurs the first ones)."""

from __future__ import annotations

import numpy as np

from .captures import Capture, CaptureError, _height, capture, sharpness
from .settings import TEACH, TeachSettings

STILL_FRAMES = 3  # frames the card must pass in a row, unmoved
STILL_MOVE = 0.03  # share of the card's height its corners may move between them


class CardTaker:
    """Feed frames with :meth:`offer`; the capture comes once the card has lain still."""

    def __init__(self, code: str, recognizer, settings: TeachSettings = TEACH) -> None:
        self.code, self.recognizer, self.settings = code, recognizer, settings
        self.run: list[tuple[Capture, np.ndarray]] = []  # the frames in a row, and their outlines in the frame
        self.problem: str | None = None  # why the last frame was not taken

    def offer(self, rgb: np.ndarray) -> Capture | None:
        try:
            cap = capture(rgb, self.code, self.recognizer, self.settings)
        except CaptureError as exc:
            self.problem, self.run = str(exc), []
            return None
        self.problem = None
        where = cap.origin
        if self.run and np.abs(where - self.run[-1][1]).max() > STILL_MOVE * _height(where):
            self.run = []
        self.run.append((cap, where))
        if len(self.run) < STILL_FRAMES:
            return None
        best = max((c for c, _ in self.run), key=lambda c: sharpness(c.upright().mean(axis=2)))
        self.run = []
        return best
