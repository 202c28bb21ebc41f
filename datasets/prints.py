"""The same card as another printer, or years of play, leave it: for training the classifier.

A real pack differs from the scans in print detail (a photographed Swiss-French pack prints its
index inside the corner pip), so the classifier must name a card by its pips and pictures, not by
reading one print's index. Here a face gets a paper tone, faded or darker ink, a colour cast, a soft
print, wear, and often its corner indices blanked out. Generic on purpose: nothing here imitates the
held-out world's reprints (:mod:`datasets.held_out`), which report and are never trained on.
"""

from __future__ import annotations

import cv2
import numpy as np


def vary_print(face: np.ndarray, rng: np.random.Generator, blank_index: float = 0.4) -> np.ndarray:
    """``face`` (RGB uint8) as another print of it; ``blank_index``: how often its indices are left out."""
    img = face.astype(np.float32)
    h, w = img.shape[:2]
    paper = np.clip(rng.uniform(220, 252) + rng.normal(0, 5, 3), 0, 255).astype(np.float32)
    img[img.mean(axis=2) > 205] = paper
    if rng.random() < blank_index:  # inside the card's edge, which stays
        m = max(2, int(0.03 * w))
        bw, bh = int(w * rng.uniform(0.16, 0.24)), int(h * rng.uniform(0.13, 0.19))
        for ys in (slice(m, bh), slice(h - bh, h - m)):
            for xs in (slice(m, bw), slice(w - bw, w - m)):
                img[ys, xs] = paper
    img = paper + (img - paper) * rng.uniform(0.6, 1.15)  # faded or darker ink
    img *= rng.uniform(0.92, 1.06, 3).astype(np.float32)  # ink and paper of another colour
    if rng.random() < 0.5:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.0))
    wear = rng.random(img.shape[:2]) < rng.uniform(0.0, 0.015)
    img[wear] = 0.4 * img[wear] + 0.6 * paper
    return np.clip(img, 0, 255).astype(np.uint8)
