"""The annotated camera picture: boxes, card names, zones and the referee's state."""

from __future__ import annotations

import cv2
import numpy as np

from .layout import UPCARD
from .watch import Watcher

GREEN, AMBER, RED, CYAN = (60, 200, 90), (255, 190, 40), (230, 60, 50), (80, 200, 230)


def annotate(rgb: np.ndarray, reads: list, watcher: Watcher) -> np.ndarray:
    img = rgb.copy()
    layout = watcher.layout
    if layout is not None and layout.space == "image":
        for name, poly in layout.zones.items():
            pts = poly.astype(np.int32)
            cv2.polylines(img, [pts], True, CYAN, 1, cv2.LINE_AA)
            cv2.putText(img, "upcard" if name == UPCARD else name, tuple(int(v) for v in pts[0]),
                        cv2.FONT_HERSHEY_SIMPLEX, 0.45, CYAN, 1, cv2.LINE_AA)
    settled = {s.card for s in watcher.seen.values()}
    for r in reads:
        colour = GREEN if r.card in settled else AMBER
        pts = np.array(r.corners, np.int32) if getattr(r, "corners", None) else None
        if pts is not None:
            cv2.polylines(img, [pts], True, colour, 2, cv2.LINE_AA)
        x1, y1 = int(r.box[0]), int(r.box[1])
        cv2.putText(img, f"{r.card} {r.confidence:.2f}", (x1, max(12, y1 - 4)), cv2.FONT_HERSHEY_SIMPLEX, 0.5,
                    colour, 2, cv2.LINE_AA)
    _banner(img, watcher)
    return img


def _banner(img: np.ndarray, watcher: Watcher) -> None:
    status = watcher.status()
    hand = watcher.hand
    lines = []
    if hand is not None:
        trump = hand.upcards[-1].code if hand.upcards else "-"
        now = watcher.game.trick(hand)
        trick = " ".join(f"{p}:{c}" for p, c in zip(now.players, now.cards)) if now else ""
        lines.append(f"hand {len(watcher.session.hands)}  {hand.phase}  upcard {trump}  trick {trick}")
    state = status["state"]
    if state != "watching":
        lines.append(f"{state.replace('_', ' ')}: {status['reason']}"[:90])
    for k, text in enumerate(lines):
        y = 18 + 18 * k
        colour = RED if k and state == "out_of_sync" else (255, 255, 255)
        cv2.putText(img, text, (6, y), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 0), 3, cv2.LINE_AA)
        cv2.putText(img, text, (6, y), cv2.FONT_HERSHEY_SIMPLEX, 0.5, colour, 1, cv2.LINE_AA)
