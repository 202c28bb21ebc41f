"""Views of a capture as the table will show the card: smaller, slanted, blurred, in other light,
through a webcam's JPEG, and with either end on top (a card has no fixed top)."""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.recognize.geometry import CROP_H, CROP_W, order_quad

from .captures import Capture, _height
from .settings import TEACH, TeachSettings


def views(cap: Capture, n: int, rng: np.random.Generator, settings: TeachSettings = TEACH) -> list[np.ndarray]:
    """``n`` upright crops of the card at the classifier's size, each a table's look at it."""
    return [view(cap, rng, settings) for _ in range(n)]


def view(cap: Capture, rng: np.random.Generator, settings: TeachSettings = TEACH) -> np.ndarray:
    height = _height(cap.quad)
    target = math.exp(rng.uniform(math.log(settings.min_view_px), math.log(max(height, settings.min_view_px + 1))))
    scale = min(1.0, target / height)
    img = cap.image if scale >= 1 else cv2.resize(cap.image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    quad = order_quad(cap.quad * scale)
    if rng.random() < 0.5:
        quad = np.roll(quad, 2, axis=0)  # the other end on top
    quad = quad + rng.normal(0, settings.corner_error * target, quad.shape).astype(np.float32)
    img = _blur(img.astype(np.float32), rng)
    img = _light(img, rng)
    img = _jpeg(np.clip(img, 0, 255).astype(np.uint8), rng)
    dst = np.float32([[0, 0], [CROP_W - 1, 0], [CROP_W - 1, CROP_H - 1], [0, CROP_H - 1]])
    m = cv2.getPerspectiveTransform(np.float32(quad), dst)
    return cv2.warpPerspective(img, m, (CROP_W, CROP_H), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


def _blur(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    r = rng.random()
    if r < 0.4:
        return img
    if r < 0.8:
        return cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.2))
    k = int(rng.integers(3, 7))  # a hand's motion: blur along one direction
    kernel = np.zeros((k, k), np.float32)
    kernel[k // 2] = 1 / k
    rot = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), float(rng.uniform(0, 180)), 1)
    return cv2.filter2D(img, -1, cv2.warpAffine(kernel, rot, (k, k)))


def _light(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Brighter or darker, a white balance cast, a gamma, and a soft shadow across."""
    img = img * rng.uniform(0.55, 1.25) * rng.uniform(0.85, 1.15, 3)
    img = 255 * (np.clip(img, 0, 255) / 255) ** rng.uniform(0.75, 1.35)
    if rng.random() < 0.4:
        h, w = img.shape[:2]
        a = rng.uniform(0, 2 * math.pi)
        ramp = (np.cos(a) * np.arange(w)[None, :] / w + np.sin(a) * np.arange(h)[:, None] / h)
        ramp = (ramp - ramp.min()) / max(np.ptp(ramp), 1e-6)
        img = img * (1 - rng.uniform(0.1, 0.45) * ramp)[..., None]
    return img + rng.normal(0, rng.uniform(0, 6), img.shape)


def _jpeg(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    if rng.random() < 0.3:
        return img
    ok, buf = cv2.imencode(".jpg", img[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 90))])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)[..., ::-1].copy() if ok else img
