"""Things on a card table that are not cards, about a card's size: coupons and tickets, phones, coins, chips.

A detector that boxes a card-shaped coupon, or a phone lying face up, hands the box to the classifier,
which (knowing only cards) names it a court card. Scenes lay such props flat among the cards so the
classifier can learn a class of its own for them (``vision.training.train_not_card``). Each maker returns
an RGB float32 face (long side vertical), the corner rounding its outline gets (0.5: a disc) and its long
side in card heights.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from .clutter import FONTS, photo, text_block, words

Prop = tuple[np.ndarray, float, float]  # face, corner rounding, long side in card heights


def coupon(rng: np.random.Generator) -> Prop:
    """A coupon, ticket, business card or beer mat: printed card stock of about a card's size."""
    w = 200
    h = int(w * rng.uniform(1.0, 1.9))
    tone = rng.uniform(150, 252, 3) if rng.random() < 0.4 else np.full(3, rng.uniform(215, 252))
    img = np.full((h, w, 3), tone).astype(np.uint8)
    ink = tuple(float(v) for v in rng.uniform(0, 120, 3))
    if rng.random() < 0.5:  # a picture or a logo block
        x0, y0 = int(w * rng.uniform(0.05, 0.4)), int(h * rng.uniform(0.05, 0.4))
        x1, y1 = int(x0 + w * rng.uniform(0.2, 0.5)), int(y0 + h * rng.uniform(0.15, 0.4))
        img[y0:min(y1, h), x0:min(x1, w)] = photo(rng, (min(x1, w) - x0, min(y1, h) - y0)).astype(np.uint8)
    if rng.random() < 0.4:  # a dashed cut line or a frame
        m = int(w * 0.05)
        for x in range(m, w - m, 12):
            cv2.line(img, (x, m), (x + 6, m), ink, 1)
            cv2.line(img, (x, h - m), (x + 6, h - m), ink, 1)
    cv2.putText(img, words(rng, int(rng.integers(3, 8))), (int(w * 0.08), int(h * 0.12) + 10),
                int(rng.choice(FONTS)), rng.uniform(0.6, 1.2), ink, int(rng.integers(1, 3)), cv2.LINE_AA)
    text_block(img, rng, int(w * 0.08), int(h * 0.55), int(w * 0.92), int(h * 0.95), rng.uniform(0.3, 0.5), ink)
    return img.astype(np.float32), 0.03, rng.uniform(0.6, 1.3)


def phone(rng: np.random.Generator) -> Prop:
    """A phone face up (a lit screen or a dark one) or face down (its back and camera)."""
    w = 120
    h = int(w * rng.uniform(1.9, 2.2))
    body = rng.uniform(10, 60, 3) if rng.random() < 0.7 else rng.uniform(120, 230, 3)
    img = np.full((h, w, 3), body, np.float32)
    m = int(w * 0.06)
    if rng.random() < 0.6:  # face up: the screen
        screen = photo(rng, (w - 2 * m, h - 2 * m)) * rng.uniform(0.2, 1.0)
        if rng.random() < 0.5:  # an app: white with lines of text
            screen = np.full(screen.shape, rng.uniform(200, 250), np.uint8)  # OpenCV writes text on 8 bits only
            text_block(screen, rng, 6, 10, w - 2 * m - 6, h - 2 * m - 10, 0.35, (40.0, 40.0, 40.0))
        img[m:h - m, m:w - m] = screen
    else:  # its back: a camera bump in a corner
        cv2.circle(img, (int(w * 0.25), int(w * 0.25)), int(w * 0.1), (20.0, 20.0, 25.0), -1)
        cv2.circle(img, (int(w * 0.25), int(w * 0.5)), int(w * 0.1), (20.0, 20.0, 25.0), -1)
    return img, 0.15, rng.uniform(1.1, 1.6)


def _disc(size: int, colour: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A round thing lit from one side: brighter toward the light, a rim."""
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32) / size - 0.5
    a = rng.uniform(0, 2 * math.pi)
    shade = 0.75 + 0.5 * (xx * math.cos(a) + yy * math.sin(a))
    img = np.ascontiguousarray(colour[None, None, :] * shade[..., None])
    cv2.circle(img, (size // 2, size // 2), int(size * 0.44), tuple(float(v) for v in colour * 0.7), 2)
    return img


def coin(rng: np.random.Generator) -> Prop:
    """A coin: gold or silver, a figure and a ring struck in it."""
    size = 120
    colour = np.array([200, 165, 80], np.float32) if rng.random() < 0.4 else np.array([180, 180, 185], np.float32)
    img = np.clip(_disc(size, colour * rng.uniform(0.8, 1.1), rng), 0, 255).astype(np.uint8)  # text on 8 bits only
    cv2.putText(img, str(int(rng.choice([1, 2, 5, 10, 20, 50]))), (int(size * 0.3), int(size * 0.62)),
                cv2.FONT_HERSHEY_SIMPLEX, 1.0, tuple(float(v) for v in colour * 0.55), 2, cv2.LINE_AA)
    return img.astype(np.float32), 0.5, rng.uniform(0.2, 0.35)


def chip(rng: np.random.Generator) -> Prop:
    """A poker chip: a coloured disc with white marks round its edge and an inner ring."""
    size = 120
    colour = np.array([[200, 30, 30], [30, 60, 190], [30, 140, 50], [20, 20, 20], [230, 230, 230]][rng.integers(5)],
                      np.float32)
    img = _disc(size, colour, rng)
    c, r = size // 2, int(size * 0.47)
    for k in range(6):
        a = k * math.pi / 3
        cv2.ellipse(img, (c, c), (r, r), math.degrees(a), -8, 8, (245.0, 245.0, 245.0), int(size * 0.09))
    cv2.circle(img, (c, c), int(size * 0.3), (235.0, 235.0, 235.0), 2)
    return np.clip(img, 0, 255), 0.5, rng.uniform(0.3, 0.42)


MAKERS = {"coupon": coupon, "phone": phone, "coin": coin, "chip": chip}


def prop(rng: np.random.Generator) -> Prop:
    """One prop; coupons most often (card-shaped paper is what real photos box as cards)."""
    kind = rng.choice(list(MAKERS), p=[0.4, 0.2, 0.2, 0.2])
    return MAKERS[str(kind)](rng)
