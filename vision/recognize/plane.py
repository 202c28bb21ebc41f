"""The table's plane: a covered card completed to the size of the cards in view.

All cards on a table lie in one plane and are one size, so a card under others is a rectangle the
size of the rest, in the same perspective. The corner network gets the direction of a covered card's
sides right (1.1 % of the side across it, median) but not how far the card goes on under the cards on
it (6.7 % along it), and those hidden corners cost most of what mAP50-95 loses (model card, "Where
mAP50-95 is lost"). So each hidden corner is slid along its side, from the shown corner next to it,
to the length the plane gives; a card with three corners shown gets the fourth that makes it a
rectangle there.

The plane is the picture rectified by turning the viewing rays until the table faces the camera: a
pinhole camera with its principal point at the picture's centre (true of webcams and phones), its
tilt, the direction of the tilt and its focal length fitted so that the found cards' corners are right
angles, those at hidden corners left out. The card's size there is the median of the sides whose two
corners show. A corner is hidden where the index network reads its patch as showing no card
(``vision.recognize.index``'s ``none``): that also takes the blank corners of poker cards, which then move only
as far as the plane is off.
"""

from __future__ import annotations

import numpy as np

from .geometry import best_roll, order_quad, side_lengths

# A corner whose patch the index network reads as `none` with this probability or more is hidden: flat
# from 0.1 to 0.3 on the scenes it was tuned on, worse from 0.5 up.
HIDDEN_FROM = 0.2
TILTS = np.linspace(0, 1.25, 26)  # radians from looking straight down: up to about 72 degrees
LEANS = np.linspace(0, 2 * np.pi, 36, endpoint=False)  # which way the camera is tilted
FOCALS = np.linspace(0.6, 2.2, 9)  # focal length in picture widths: wide webcams to phone zoom
REFINES = 6  # finer grids round the best, each half the last's step


def rectifiers(tilt: np.ndarray, lean: np.ndarray, focal: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """(M, 3, 3) maps picture -> plane, up to a similarity: K^-1, then the turn taking the plane's
    normal (``tilt`` from the optical axis, towards ``lean``) onto the axis (Rodrigues)."""
    w, h = size
    axis = np.stack([np.sin(lean), -np.cos(lean), np.zeros_like(lean)], -1)
    cross = np.zeros(tilt.shape + (3, 3))
    cross[..., 0, 2], cross[..., 1, 2] = axis[..., 1], -axis[..., 0]
    cross[..., 2, 0], cross[..., 2, 1] = -axis[..., 1], axis[..., 0]
    sin, cos = np.sin(tilt)[..., None, None], np.cos(tilt)[..., None, None]
    turn = np.eye(3) + sin * cross + (1 - cos) * cross @ cross
    inv_k = np.zeros(tilt.shape + (3, 3))
    inv_k[..., 0, 0] = inv_k[..., 1, 1] = 1 / focal
    inv_k[..., 0, 2], inv_k[..., 1, 2], inv_k[..., 2, 2] = -w / (2 * focal), -h / (2 * focal), 1
    return turn @ inv_k


def mapped(m: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Points through the homography ``m``."""
    p = np.column_stack([pts, np.ones(len(pts))]) @ m.T
    return p[:, :2] / p[:, 2:3]


def angle_costs(ms: np.ndarray, outlines: np.ndarray, weights: np.ndarray, scale: float = 0.08) -> np.ndarray:
    """Per candidate map, how far the cards' corners are from right angles: soft L1 of the cosines,
    so that one badly fitted card does not tilt the table."""
    x = np.concatenate([outlines.reshape(-1, 2), np.ones((outlines.size // 2, 1))], 1)
    p = np.einsum("mij,nj->mni", ms, x)
    p = (p[..., :2] / p[..., 2:3]).reshape(len(ms), -1, 4, 2)
    side = np.roll(p, -1, 2) - p
    side /= np.linalg.norm(side, axis=-1, keepdims=True) + 1e-12
    cos = (side * np.roll(side, 1, 2)).sum(-1)
    return (weights * (np.sqrt(1 + (cos / scale) ** 2) - 1)).sum((1, 2))


def fit_camera(outlines: np.ndarray, hidden: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The picture -> plane map under which the cards' shown corners are straightest: a coarse grid
    over tilt, lean and focal length, then finer ones round the best (about 15 ms a picture)."""
    weights = (~hidden).astype(float)
    cand = np.stack([g.ravel() for g in np.meshgrid(TILTS, LEANS, np.log(FOCALS), indexing="ij")], 1)
    step = np.array([TILTS[1] - TILTS[0], LEANS[1] - LEANS[0], np.log(FOCALS[1] / FOCALS[0])])
    for _ in range(REFINES + 1):
        costs = angle_costs(rectifiers(cand[:, 0], cand[:, 1], np.exp(cand[:, 2]) * size[0], size), outlines, weights)
        best = cand[int(np.argmin(costs))]
        grids = np.meshgrid(*[best[i] + step[i] * np.linspace(-1, 1, 5) for i in range(3)], indexing="ij")
        cand = np.stack([g.ravel() for g in grids], 1)
        cand[:, 0] = np.clip(cand[:, 0], 0, TILTS[-1])
        step /= 2
    return rectifiers(best[:1], best[1:2], np.exp(best[2:]) * size[0], size)[0]


def card_size(outlines: list[np.ndarray], hidden: np.ndarray, m: np.ndarray) -> tuple[float, float] | None:
    """(short, long) side in the plane: the medians of the sides whose two corners show, each told
    short or long by the sides beside it; None where no side of either kind shows whole."""
    short, long = [], []
    for outline, hid in zip(outlines, hidden):
        p = mapped(m, np.asarray(outline, float))
        sides = side_lengths(p)
        for k in range(4):
            if not hid[k] and not hid[(k + 1) % 4]:
                (short if sides[k] < (sides[(k + 1) % 4] + sides[k - 1]) / 2 else long).append(sides[k])
    return (float(np.median(short)), float(np.median(long))) if short and long else None


def slid(outline: np.ndarray, hidden: np.ndarray, m: np.ndarray, size: tuple[float, float]) -> np.ndarray:
    """``outline`` with each hidden corner slid along its side, from a shown neighbour, to the
    plane's length; with three corners shown, the fourth makes a rectangle in the plane."""
    shown = ~hidden
    if shown.all() or not shown.any():
        return outline
    p = mapped(m, np.asarray(outline, float))
    sides = side_lengths(p)
    even_short = sides[0] + sides[2] < sides[1] + sides[3]  # side k runs from corner k to k + 1
    length = (size[0], size[1]) if even_short else (size[1], size[0])  # by side k % 2
    q = p.copy()
    if shown.sum() == 3:
        k = int(np.flatnonzero(hidden)[0])
        q[k] = p[k - 1] + p[(k + 1) % 4] - p[(k + 2) % 4]
    else:
        for k in np.flatnonzero(hidden):
            for nb, side in (((k - 1) % 4, (k - 1) % 2), ((k + 1) % 4, k % 2)):
                if shown[nb]:
                    d = p[k] - p[nb]
                    q[k] = p[nb] + length[side] * d / (np.linalg.norm(d) + 1e-12)
                    break
    out = np.array(outline, np.float32)
    out[hidden] = mapped(np.linalg.inv(m), q)[hidden]
    return out


def complete(outlines: list[np.ndarray], hidden: np.ndarray, size: tuple[int, int]) -> list[np.ndarray]:
    """The outlines of one picture's cards with their hidden corners (``hidden``: cards x 4) where the
    plane puts them; as they are where no side of each kind shows whole to give the card's size."""
    if not outlines or not hidden.any():
        return outlines
    m = fit_camera(np.array(outlines, float), hidden, size)
    wanted = card_size(outlines, hidden, m)
    if wanted is None:
        return outlines
    return [slid(q, h, m, wanted) for q, h in zip(outlines, hidden)]


def patch_order(outline: np.ndarray) -> int:
    """How far :func:`vision.recognize.geometry.order_quad` rolls ``outline``: the index network's corner
    patch i is of ``outline``'s corner i + this."""
    return best_roll(order_quad(outline), outline)


def hidden_corners(outlines: list[np.ndarray], none: np.ndarray, threshold: float = HIDDEN_FROM) -> np.ndarray:
    """cards x 4: where each outline's corner is hidden, from the index network's p(`none`) of its
    patches (cards x 4, in :func:`vision.recognize.index.corner_patches`' order)."""
    return np.stack([np.roll(p >= threshold, patch_order(np.asarray(q, np.float32))) for q, p in zip(outlines, none)]) \
        if len(outlines) else np.zeros((0, 4), bool)
