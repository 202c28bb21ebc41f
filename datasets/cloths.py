"""Table tops the scene generator never paints, for the held-out world (:mod:`datasets.held_out`):
stripes, plaid, dots, marble, lacquered wood with a lamp's glare along it, fine linen. And the demo's
green baize, which is no held-out cloth (not in ``CLOTHS``): it is shown, never measured on."""

from __future__ import annotations

import math

import cv2
import numpy as np

CLOTHS = ("stripes", "plaid", "dots", "marble", "lacquer", "linen")


def cloth(kind: str, rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    """A held-out table top (float32 RGB): patterns the scene generator never paints."""
    w, h = size
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a, b = (rng.integers(20, 235, 3).astype(np.float32) for _ in range(2))
    ang = rng.uniform(0, math.pi)
    u = xx * math.cos(ang) + yy * math.sin(ang)
    v = -xx * math.sin(ang) + yy * math.cos(ang)
    scale = max(w, h) / 640
    if kind == "stripes":
        band = (np.sin(u / (rng.uniform(6, 30) * scale)) > rng.uniform(-0.5, 0.5)).astype(np.float32)
        img = a * band[..., None] + b * (1 - band[..., None])
    elif kind == "plaid":
        p = rng.uniform(20, 60) * scale
        m = 0.5 * ((np.sin(u / p) > 0.3).astype(np.float32) + (np.sin(v / p) > 0.3).astype(np.float32))
        img = a * (1 - m[..., None]) + b * m[..., None]
    elif kind == "dots":
        p = rng.uniform(14, 40) * scale
        d = np.hypot((u % p) - p / 2, (v % p) - p / 2) < p * rng.uniform(0.15, 0.35)
        img = np.where(d[..., None], b, a)
    elif kind == "marble":
        n = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 25 * scale) * 60
        vein = np.abs(np.sin(u / (40 * scale) + n)) ** 0.3
        img = a * vein[..., None] + b * (1 - vein[..., None])
    elif kind == "lacquer":
        grain = np.sin(v / (rng.uniform(2, 6) * scale) + 4 * np.sin(u / (80 * scale)))
        img = a * 0.35 * (0.85 + 0.15 * grain[..., None])
        band = np.exp(-((u - rng.uniform(0, max(w, h))) / (rng.uniform(30, 90) * scale)) ** 2)
        img = img + rng.uniform(90, 180) * band[..., None]  # a lamp's glare along the lacquer
    elif kind == "baize":  # the demo's card table: green felt, its nap and a lamp's falloff
        nap = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 1.2 * scale)
        lamp = 1.0 - 0.25 * (np.hypot(xx - w * 0.45, yy - h * 0.4) / max(w, h)) ** 2
        img = np.array([34.0, 104.0, 62.0], np.float32) * lamp[..., None] + 5 * nap[..., None]
    else:  # linen: a fine weave
        weave = np.sin(xx * 1.7) * np.sin(yy * 1.7)
        img = a + 14 * weave[..., None] + 6 * rng.normal(0, 1, (h, w, 1)).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.float32)
