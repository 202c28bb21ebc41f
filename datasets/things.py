"""Things that lie on top of cards: knives and pens, toys and bags, a sleeve, a wire basket.

Real photos lose cards that something covers in part: a knife across an ace, a toy on a nine, a
jacket over a corner. Flat paper (datasets.clutter) and hands are not enough to teach that a
card with an odd-shaped, coloured, shiny thing on it is still a card, so scenes carry such
things too. Each is drawn in picture space (they stand up from the table) as a colour layer and
a coverage mask; where it covers a card, that card's visible share drops.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

Layer = tuple[np.ndarray, np.ndarray]  # RGB float32 colour, float32 coverage in [0, 1]


def _shaded(mask: np.ndarray, colour: np.ndarray, rng: np.random.Generator, shine: float) -> np.ndarray:
    """A solid colour with light falling from one side and a soft highlight, as on a rounded thing."""
    h, w = mask.shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = rng.uniform(0, 2 * math.pi)
    ramp = (xx * math.cos(a) + yy * math.sin(a)) / max(h, w)
    shade = 0.65 + 0.5 * (ramp - ramp.min()) / max(float(np.ptp(ramp)), 1e-6)
    inner = cv2.GaussianBlur(mask, (0, 0), max(2.0, 0.02 * max(h, w)))
    return colour * shade[..., None] + shine * 255 * (inner ** 6)[..., None]


def stick(rng: np.random.Generator, size: tuple[int, int], at: np.ndarray, scale: float) -> Layer:
    """A knife, pen, spoon or chopstick: long, thin, grey-metal or one plain colour."""
    w, h = size
    a = rng.uniform(0, math.pi)
    length = scale * rng.uniform(1.0, 2.5)
    d = np.array([math.cos(a), math.sin(a)]) * length / 2
    shift = rng.uniform(-0.4, 0.4) * d
    p0, p1 = at + shift - d, at + shift + d
    mask = np.zeros((h, w), np.float32)
    width = max(3, int(scale * rng.uniform(0.04, 0.16)))
    cv2.line(mask, tuple(int(v) for v in p0), tuple(int(v) for v in p1), 1.0, width, cv2.LINE_AA)
    if rng.random() < 0.5:  # a handle, thicker than the blade
        cv2.line(mask, tuple(int(v) for v in p0), tuple(int(v) for v in (p0 + p1) / 2), 1.0, int(width * 1.7),
                 cv2.LINE_AA)
    metal = rng.random() < 0.5
    colour = np.full(3, rng.uniform(140, 220), np.float32) if metal else rng.uniform(20, 240, 3).astype(np.float32)
    return _shaded(mask, colour, rng, shine=rng.uniform(0.3, 0.8) if metal else rng.uniform(0, 0.4)), mask


def blob(rng: np.random.Generator, size: tuple[int, int], at: np.ndarray, scale: float) -> Layer:
    """A toy, cup, bag or ball: a rounded lump of strong colour, sometimes glittering."""
    w, h = size
    n = int(rng.integers(7, 14))
    radius = scale * rng.uniform(0.2, 0.6)
    angles = np.sort(rng.uniform(0, 2 * math.pi, n))
    r = radius * rng.uniform(0.6, 1.0, n)
    pts = at + np.stack([np.cos(angles) * r, np.sin(angles) * r * rng.uniform(0.5, 1.0)], axis=1)
    mask = np.zeros((h, w), np.float32)
    cv2.fillPoly(mask, [np.int32(cv2.convexHull(np.float32(pts)) if rng.random() < 0.5 else pts)], 1.0,
                 cv2.LINE_AA)
    mask = cv2.GaussianBlur(mask, (0, 0), 1.0)
    hsv = np.uint8([[[rng.integers(0, 180), rng.integers(120, 256), rng.integers(90, 256)]]])
    colour = cv2.cvtColor(hsv, cv2.COLOR_HSV2RGB)[0, 0].astype(np.float32)
    rgb = _shaded(mask, colour, rng, shine=rng.uniform(0, 0.6))
    if rng.random() < 0.3:  # glitter
        rgb += (rng.random((h, w)) < 0.04)[..., None] * rng.uniform(60, 160)
    return rgb, mask


def cloth(rng: np.random.Generator, size: tuple[int, int], at: np.ndarray, scale: float) -> Layer:
    """A sleeve or jacket: a large dark soft lump with folds, reaching over part of a card."""
    w, h = size
    _, mask = blob(rng, size, at, scale * rng.uniform(1.6, 2.6))  # its shape; the cloth has its own colour
    dark = rng.uniform(10, 80) * np.array([1, rng.uniform(0.9, 1.1), rng.uniform(0.9, 1.4)], np.float32)
    folds = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), scale * 0.08)
    folds = 1 + 0.4 * folds / max(float(np.abs(folds).max()), 1e-6)
    texture = 1 + 0.08 * rng.normal(0, 1, (h, w)).astype(np.float32)
    return dark * (folds * texture)[..., None] * np.ones(3, np.float32), mask


def mesh(rng: np.random.Generator, size: tuple[int, int], at: np.ndarray, scale: float) -> Layer:
    """A wire basket or grille: thin lines in a grid, through which the card shows."""
    w, h = size
    step = max(4, int(scale * rng.uniform(0.05, 0.12)))
    half = int(scale * rng.uniform(0.6, 1.2))
    grid = np.zeros((2 * half, 2 * half), np.float32)
    grid[::step, :] = 1
    grid[:, ::step] = 1
    rot = cv2.getRotationMatrix2D((half, half), rng.uniform(0, 90), 1.0)
    rot[:, 2] += at - half
    mask = cv2.warpAffine(grid, rot, (w, h), flags=cv2.INTER_LINEAR)
    colour = np.full(3, rng.uniform(60, 200), np.float32)
    return np.broadcast_to(colour, (h, w, 3)).copy(), mask


MAKERS = {"stick": stick, "blob": blob, "cloth": cloth, "mesh": mesh}


def draw_thing(img: np.ndarray, ids: np.ndarray, quads: list[np.ndarray], rng: np.random.Generator) -> None:
    """Put one thing over the picture, most often on a card, with its shadow."""
    h, w = ids.shape
    kind = str(rng.choice(list(MAKERS), p=[0.35, 0.35, 0.15, 0.15]))
    if quads and rng.random() < 0.8:
        quad = quads[int(rng.integers(len(quads)))]
        scale = float(np.linalg.norm(quad[0] - quad[3]))  # the card's height in pixels
        corner = quad[int(rng.integers(4))]  # cards are lost when their corner index is covered
        at = corner + rng.uniform(0.1, 0.7) * (quad.mean(axis=0) - corner)
    else:
        scale, at = rng.uniform(0.15, 0.5) * h, np.array([rng.uniform(0, w), rng.uniform(0, h)])
    rgb, mask = MAKERS[kind](rng, (w, h), np.asarray(at, np.float64), max(scale, 20.0))
    shift = np.float32([[1, 0, rng.uniform(-8, 8)], [0, 1, rng.uniform(2, 12)]])
    shadow = cv2.GaussianBlur(cv2.warpAffine(mask, shift, (w, h)), (0, 0), rng.uniform(3, 8))
    img *= (1 - rng.uniform(0.2, 0.5) * shadow)[..., None]
    img[:] = img * (1 - mask[..., None]) + rgb * mask[..., None]
    ids[mask > 0.5] = -1
