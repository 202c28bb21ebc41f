"""The outline's last step: each side of a fitted card snapped to the edge the picture shows.

The corner network (:mod:`vision.recognize.corners`) looks at a card through a 96-pixel window, so on a card
200 pixels tall it cannot place a side finer than about a pixel: on the generated scenes its sides
lie a median 0.63 px from the true ones for cards in full view (outline IoU 0.970). A card's side
is a straight step from the light card to the darker table, which the picture locates to a fraction
of a pixel. So each side is searched a few pixels either way along profiles across it, the steepest
light-to-dark step of each profile is taken, and a line through the steps that agree replaces the
side. A side the picture does not show (under another card, on a table as light as the card, cut by
the picture's edge) keeps the network's line, since too few steps agree on any line near it.
"""

from __future__ import annotations

import cv2
import numpy as np

from .corners import convex_quad

REACH = 0.05  # a side is searched this share of its length either way ...
MIN_REACH, MAX_REACH = 3.0, 8.0  # ... but at least and at most this many pixels
SAMPLES = 33  # samples along each profile across a side: half a pixel apart at the greatest reach
PROFILES = 32  # profiles across each side, spread over SPAN of its length (the rounded corners left out)
SPAN = (0.12, 0.88)
MIN_STEP = 20.0  # grey levels per pixel: a softer step is no card's edge
AGREE = 1.0  # pixels: steps this near one line agree on it
MIN_SHARE = 0.35  # of a side's profiles must agree on one line for the side to move
MAX_TURN = np.cos(np.radians(4.0))  # a line turned more than this from the network's side is some other edge


BLUR = 1.0  # the smoothing's sigma (pixels); its kernel reaches 4 sigma either way


def edge_image(rgb: np.ndarray) -> np.ndarray:
    """The picture as the search reads it (grey, smoothed a pixel): made once a frame, for all cards."""
    gray = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY).astype(np.float32)
    return cv2.GaussianBlur(gray, (0, 0), BLUR)


def edge_window(rgb: np.ndarray, quads: list[np.ndarray], reach: float) -> tuple[np.ndarray, np.ndarray]:
    """:func:`edge_image` of only the box round ``quads`` grown by ``reach`` pixels (clipped to the picture),
    and where its first pixel lies in the picture: within ``reach`` of the outlines it is the whole
    picture's, pixel for pixel (the smoothing's kernel is added to the margin). A pile is a tenth of a
    1920x1080 frame, and greying the whole frame took a fifth of such a frame's time."""
    h, w = rgb.shape[:2]
    margin = reach + 1 + 4 * BLUR  # a sample's neighbours for interpolation, and the kernel's
    pts = np.concatenate([np.float64(q).reshape(-1, 2) for q in quads])
    last = (w - 1, h - 1)  # a point beyond the picture is read at its edge, so the box is clipped first
    x1, y1 = np.maximum(np.floor(np.clip(pts.min(axis=0), 0, last) - margin), 0).astype(int)
    x2, y2 = np.minimum(np.ceil(np.clip(pts.max(axis=0), 0, last) + margin) + 1, (w, h)).astype(int)
    return edge_image(rgb[y1:y2, x1:x2]), np.float32([x1, y1])


def snap_all(gray: np.ndarray, quads: list[np.ndarray]) -> list[np.ndarray]:
    """The outlines ``quads`` (each 4 x 2, going round) with each side the picture shows moved onto
    the card's edge; an outline stays as it is where its snapped sides would not make a card's
    outline near it. All sides of a frame are searched at once (its five cards in about 2 ms; one
    by one they took 8)."""
    if not quads:
        return []
    q = np.float64(quads)  # cards x 4 x 2
    a, b = q.reshape(-1, 2), np.roll(q, -1, axis=1).reshape(-1, 2)  # each side, from a to b
    length = np.linalg.norm(b - a, axis=1)
    along = (b - a) / np.maximum(length, 1e-9)[:, None]
    out = np.c_[along[:, 1], -along[:, 0]]
    centre = np.repeat(q.mean(axis=1), 4, axis=0)
    out *= np.where(np.einsum("ij,ij->i", (a + b) / 2 - centre, out) < 0, -1.0, 1.0)[:, None]
    points, found = _steps(gray, a, b, out, np.clip(REACH * length, MIN_REACH, MAX_REACH))
    agreed = _agreed_lines(points, found, along)
    own = np.cross(np.c_[a, np.ones(len(a))], np.c_[b, np.ones(len(b))])
    lines = np.where((agreed != 0).any(axis=1)[:, None], agreed, own).reshape(len(q), 4, 3)
    corners = np.cross(np.roll(lines, 1, axis=1), lines)  # corner k: where side k-1 meets side k
    with np.errstate(divide="ignore", invalid="ignore"):
        snapped = corners[..., :2] / corners[..., 2:]
    return [s.astype(np.float32) if _near_outline(s, orig) else quad
            for s, orig, quad in zip(snapped, q, quads)]


def _near_outline(snapped: np.ndarray, quad: np.ndarray) -> bool:
    return bool(np.isfinite(snapped).all() and (np.linalg.norm(snapped - quad, axis=1) <= 2 * MAX_REACH).all()
                and convex_quad(snapped))


def _steps(gray: np.ndarray, a: np.ndarray, b: np.ndarray, out: np.ndarray,
           reach: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each side (rows of ``a``, ``b``), where each of its profiles drops most steeply from light
    (inside) to dark (outside), to a fraction of a sample: sides x PROFILES x 2 points, and whether
    the step was steep enough to count."""
    unit = np.linspace(-1.0, 1.0, SAMPLES)
    step = reach * 2 / (SAMPLES - 1)  # pixels between samples, per side
    base = a[:, None] + np.linspace(*SPAN, PROFILES)[None, :, None] * (b - a)[:, None]  # sides x P x 2
    offsets = reach[:, None] * unit  # sides x SAMPLES
    pts = (base[:, :, None] + offsets[:, None, :, None] * out[:, None, None]).astype(np.float32)
    flat = pts.reshape(-1, SAMPLES, 2)
    profile = cv2.remap(gray, flat[..., 0], flat[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    drop = -np.gradient(profile.reshape(len(a), PROFILES, SAMPLES), axis=2) / step[:, None, None]
    peak = np.clip(drop.argmax(axis=2), 1, SAMPLES - 2)[..., None]
    left, mid, right = (np.take_along_axis(drop, peak + k, axis=2)[..., 0] for k in (-1, 0, 1))
    curve = left - 2 * mid + right
    shift = np.where(curve < 0, 0.5 * (left - right) / np.where(curve < 0, curve, -1.0), 0.0)
    offset = np.take_along_axis(offsets, peak[..., 0], axis=1) + np.clip(shift, -1, 1) * step[:, None]
    return base + offset[..., None] * out[:, None], mid >= MIN_STEP


def _agreed_lines(points: np.ndarray, found: np.ndarray, along: np.ndarray) -> np.ndarray:
    """Per side, the least-squares line (homogeneous, a x + b y + c = 0) through the largest set of
    its found points within AGREE of a line through two of them (every pair a quarter of the side or
    more apart is tried: 300 of 32 profiles), if enough agree and it runs near ``along``; zeros where
    none does."""
    i, j = np.triu_indices(PROFILES, PROFILES // 4)
    hom = np.concatenate([points, np.ones(points.shape[:2] + (1,))], axis=2)  # sides x P x 3
    lines = np.cross(hom[:, i], hom[:, j])  # sides x pairs x 3
    norm = np.hypot(lines[..., 0], lines[..., 1])
    usable = found[:, i] & found[:, j] & (norm > 1e-9)
    lines = lines / np.where(usable, norm, 1.0)[..., None]
    distance = np.abs(hom.astype(np.float32) @ lines.astype(np.float32).transpose(0, 2, 1))  # sides x P x pairs
    near = (distance <= AGREE) & found[:, :, None] & usable[:, None, :]
    best = np.take_along_axis(near, near.sum(axis=1).argmax(axis=1)[:, None, None], axis=2)[..., 0]  # sides x P
    count = best.sum(axis=1)
    w = best / np.maximum(count, 1)[:, None]
    centre = np.einsum("sp,spk->sk", w, points)
    d = points - centre[:, None]
    cov = np.einsum("sp,spk,spl->skl", w, d, d)
    direction = np.linalg.eigh(cov)[1][..., -1]  # the direction the points spread along
    ok = (count >= MIN_SHARE * PROFILES) & (np.abs(np.einsum("sk,sk->s", direction, along)) >= MAX_TURN)
    lines = np.cross(np.c_[centre, np.ones(len(centre))], np.c_[centre + direction, np.ones(len(centre))])
    return np.where(ok[:, None], lines, 0.0)
