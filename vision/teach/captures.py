"""One picture of one card, checked: what teaching learns a card from.

A capture keeps the part of the picture round the card (so its views can be cut again at other
sizes, slants and lights) and the card's outline in it, as the recognizer's own detector and
corner fit found it: a card is read at the table from that same outline. A picture that cannot
teach (no card, two cards, blurred, too dark, too small) is refused with the reason, naming the card.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.recognize.geometry import rectify

from .settings import TEACH, TeachSettings


class CaptureError(ValueError):
    """A picture that cannot teach its card; the message says which card and why."""


@dataclass
class Capture:
    code: str
    image: np.ndarray  # RGB, the picture round the card
    quad: np.ndarray  # the card's corners in ``image``, float32 (4, 2)
    origin: np.ndarray | None = None  # its corners in the picture it was cut from (not kept on disk)

    def save(self, folder: Path, k: int) -> Path:
        """As ``<code>-<k>.png`` and its outline beside it (``.json``); written whole or not at all."""
        folder.mkdir(parents=True, exist_ok=True)
        png, meta = folder / f"{self.code}-{k}.png", folder / f"{self.code}-{k}.json"
        ok, buf = cv2.imencode(".png", self.image[..., ::-1])
        if not ok:
            raise CaptureError(f"{self.code}: the capture could not be written as PNG")
        tmp = png.with_suffix(".tmp")
        tmp.write_bytes(buf.tobytes())
        meta.write_text(json.dumps({"code": self.code, "quad": self.quad.round(2).tolist()}), encoding="utf-8")
        tmp.replace(png)
        return png

    @classmethod
    def load(cls, png: Path) -> "Capture":
        meta = json.loads(png.with_suffix(".json").read_text(encoding="utf-8"))
        image = cv2.imread(str(png), cv2.IMREAD_COLOR)
        if image is None:
            raise CaptureError(f"capture {png} cannot be read")
        return cls(meta["code"], image[..., ::-1].copy(), np.float32(meta["quad"]))

    def upright(self, size: tuple[int, int] = (120, 180)) -> np.ndarray:
        """The card cut upright, for thumbnails and the checks."""
        return rectify(self.image, self.quad, size)


def capture(rgb: np.ndarray, code: str, recognizer, settings: TeachSettings = TEACH) -> Capture:
    """The one card in ``rgb`` (a camera frame or a photo), checked; :class:`CaptureError` otherwise."""
    found = distinct([(q, s) for q, s in recognizer.detect_cards(rgb) if s >= settings.detector_score])
    if not found:
        raise CaptureError(f"{code}: no card found in the picture")
    if len(found) > 1:
        raise CaptureError(f"{code}: {len(found)} cards in the picture; lay this card alone")
    quad = recognizer.refine(rgb, found)[0]
    return checked(crop_round(rgb, quad, code, settings), settings)


def distinct(found: list[tuple[np.ndarray, float]], same: float = 0.25) -> list[np.ndarray]:
    """One box per card, boldest first: a box sharing ``same`` of the smaller one's area with a bolder
    box is that card again (a small card on a busy cloth is boxed at several angles; a court card's
    framed picture is sometimes boxed too). Cards laid apart share none."""
    keep: list[np.ndarray] = []
    for q, _ in sorted(found, key=lambda f: -f[1]):
        if all(_overlap(q, k) < same * min(_area(q), _area(k)) for k in keep):
            keep.append(q)
    return keep


def _overlap(a: np.ndarray, b: np.ndarray) -> float:
    inter, _ = cv2.intersectConvexConvex(cv2.convexHull(np.float32(a)), cv2.convexHull(np.float32(b)))
    return float(inter)


def _area(quad: np.ndarray) -> float:
    return abs(float(cv2.contourArea(np.float32(quad))))


def crop_round(rgb: np.ndarray, quad: np.ndarray, code: str, settings: TeachSettings = TEACH) -> Capture:
    """The picture round ``quad`` with ``margin`` of the card's size on each side, shrunk so the card is
    at most ``max_card_px`` tall: a phone's 12-megapixel photo teaches no more than that."""
    h, w = rgb.shape[:2]
    lo, hi = quad.min(axis=0), quad.max(axis=0)
    pad = settings.margin * float(max(hi - lo))
    x0, y0 = (int(max(0, v)) for v in lo - pad)
    x1, y1 = int(min(w, hi[0] + pad)), int(min(h, hi[1] + pad))
    image, local = rgb[y0:y1, x0:x1], np.float32(quad - [x0, y0])
    scale = settings.max_card_px / max(_height(local), 1.0)
    if scale < 1:
        image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        local = local * scale
    return Capture(code, np.ascontiguousarray(image), np.float32(local), np.float32(quad))


def checked(cap: Capture, settings: TeachSettings = TEACH) -> Capture:
    """``cap`` if it can teach its card, else why not."""
    px = _height(cap.quad)
    if px < settings.min_card_px:
        raise CaptureError(f"{cap.code}: the card is {px:.0f} pixels tall, under {settings.min_card_px}: "
                           "bring it nearer the camera")
    grey = cv2.cvtColor(cap.upright(), cv2.COLOR_RGB2GRAY)
    if grey.mean() < settings.min_brightness:
        raise CaptureError(f"{cap.code}: too dark (brightness {grey.mean():.0f} of 255); light the table")
    sharp = sharpness(grey)
    if sharp < settings.min_sharpness:
        raise CaptureError(f"{cap.code}: blurred (sharpness {sharp:.0f}, needs {settings.min_sharpness:.0f}); "
                           "hold the camera still and take it again")
    return cap


def sharpness(grey: np.ndarray) -> float:
    """The variance of the Laplacian of the upright card: a sharp print's edges give a high one."""
    return float(cv2.Laplacian(grey, cv2.CV_64F).var())


def _height(quad: np.ndarray) -> float:
    """The card's longer side in pixels."""
    sides = np.linalg.norm(np.roll(quad, -1, axis=0) - quad, axis=1)
    return float(max(sides))
