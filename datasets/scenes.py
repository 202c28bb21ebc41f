"""Synthetic table scenes: cards on procedural tables, seen by a tilted webcam.

Everything is drawn in a table plane and projected by a pinhole camera tilted up to about 60°,
so cards foreshorten as they would; then shadows, lamp light, glare, hands over the cloth,
blur, noise and JPEG. Each scene is a pure function of its seed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from .art import BACK, pack_group
from .cloths import cloth
from .clutter import object_face
from .props import prop
from .things import draw_thing

SKIN = [(224, 172, 105), (198, 134, 66), (241, 194, 125), (141, 85, 36), (255, 219, 172)]


@dataclass
class PlacedCard:
    code: str  # card code, or "back"
    pack: str
    quad: np.ndarray  # 4x2 image coords: the face's TL, TR, BR, BL
    visible: float = 1.0  # fraction of the card's area not covered
    corners_shown: tuple[float, ...] = (1.0,) * 4  # share of each corner patch (where indices are printed) in view


@dataclass
class Scene:
    image: np.ndarray  # RGB uint8
    cards: list[PlacedCard] = field(default_factory=list)
    camera: np.ndarray | None = None  # table plane (1 = a card's height) -> picture, for studies of the plane
    props: list[np.ndarray] = field(default_factory=list)  # outlines of the props laid (datasets.props)

    def labelled(self, min_visible: float = 0.35) -> list[PlacedCard]:
        """Face-up cards visible enough to name."""
        return [c for c in self.cards if c.code != BACK and c.visible >= min_visible]

    def backs(self, min_visible: float = 0.35) -> list[PlacedCard]:
        """Face-down cards in view enough that a detector may box them."""
        return [c for c in self.cards if c.code == BACK and c.visible >= min_visible]


@dataclass
class SceneOptions:
    size: tuple[int, int] = (640, 480)
    portrait_rate: float = 0.25  # phone photos: the same frame turned upright
    max_cards: int = 8
    max_tilt_deg: float = 60.0
    card_px: tuple[float, float] = (0.12, 0.7)  # card height head-on, as a fraction of the frame height
    empty_rate: float = 0.05
    back_rate: float = 0.1
    hand_rate: float = 0.35
    clutter_rate: float = 0.35  # paper, books, photos on the table (datasets.clutter)
    things_rate: float = 0.3  # knives, toys, cloth, mesh over the cards (datasets.things)
    props_rate: float = 0.0  # coupons, phones, coins, chips among the cards (datasets.props): the not-a-card crops'
    layouts: tuple[float, ...] = (0.35, 0.3, 0.2, 0.15)  # shares of the LAYOUTS (the first four, or all five), summing to 1
    cloth: str | None = None  # a held-out cloth (datasets.held_out.CLOTHS) instead of the generator's tables


# ------------------------------------------------------------------------------ camera
def camera(rng: np.random.Generator, size: tuple[int, int], tilt: float, card_px: float) -> np.ndarray:
    """Homography from table-plane units (1 = a card's height) to image pixels."""
    w, h = size
    f = w * rng.uniform(0.8, 1.4)
    dist = f / card_px  # camera distance, in card heights, so a card is ~card_px tall
    c = np.array([0.0, -dist * math.sin(tilt), dist * math.cos(tilt)])
    fwd = -c / np.linalg.norm(c)
    right = np.array([1.0, 0.0, 0.0])
    down = np.cross(fwd, right)
    r = np.stack([right, down, fwd])
    k = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]])
    t = -r @ c
    hom = k @ np.column_stack([r[:, 0], r[:, 1], t])
    spin = rng.uniform(0, 2 * math.pi)
    rz = np.array([[math.cos(spin), -math.sin(spin), 0], [math.sin(spin), math.cos(spin), 0], [0, 0, 1]])
    return hom @ rz


def project(hom: np.ndarray, pts: np.ndarray) -> np.ndarray:
    p = np.column_stack([pts, np.ones(len(pts))]) @ hom.T
    return (p[:, :2] / p[:, 2:3]).astype(np.float32)


def unproject(hom: np.ndarray, pts: np.ndarray) -> np.ndarray:
    return project(np.linalg.inv(hom), pts)


# ------------------------------------------------------------------------------ tables
def table(rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    w, h = size
    kind = rng.choice(["felt", "wood", "cloth", "pattern", "carpet", "plain"])
    base = rng.integers(20, 230, 3).astype(np.float32)
    noise = lambda s: cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), s)  # noqa: E731
    if kind == "felt":
        img = base + 12 * noise(1.5)[..., None] + 8 * noise(20)[..., None]
    elif kind == "wood":
        y = np.arange(h)[:, None] + 15 * noise(30) * 40
        grain = np.sin(y / rng.uniform(3, 12) + noise(8) * 3)
        img = base * (0.8 + 0.15 * grain[..., None]) + 6 * noise(1)[..., None]
    elif kind == "cloth":
        period = rng.uniform(8, 40)
        xx, yy = np.meshgrid(np.arange(w), np.arange(h))
        check = ((xx // period + yy // period) % 2).astype(np.float32)
        other = rng.integers(20, 230, 3).astype(np.float32)
        img = base * (1 - check[..., None]) + other * check[..., None] + 6 * noise(1)[..., None]
    elif kind == "pattern":
        img = np.repeat(np.repeat(rng.integers(0, 255, (h // 16 + 1, w // 16 + 1, 3)), 16, 0), 16, 1)[:h, :w]
        img = cv2.GaussianBlur(img.astype(np.float32), (0, 0), rng.uniform(0.5, 6))
    elif kind == "carpet":
        img = base + 30 * noise(0.7)[..., None] + 10 * rng.normal(0, 1, (h, w, 3))
    else:
        img = base + 3 * noise(2)[..., None]
    return np.clip(img, 0, 255).astype(np.float32)


# ------------------------------------------------------------------------------ cards
def _rounded_mask(w: int, h: int, corner: float = 0.05) -> np.ndarray:
    m = np.zeros((h, w), np.uint8)
    r = max(2, int(corner * w))
    cv2.rectangle(m, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(m, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(m, (cx, cy), r, 255, -1)
    return m


CORNER_PATCH = 0.25  # a corner patch's share of the face's width and height: the index and some margin
LAYOUTS = ("pile", "seats", "scatter", "fan", "heap")  # shares may leave out the last (heap: none)


def layout(rng: np.random.Generator, n: int, hom: np.ndarray, size: tuple[int, int],
           shares: tuple[float, ...] = SceneOptions.layouts) -> list[tuple[float, float, float]]:
    """Card centres and rotations in the plane: a trick pile, seats round the table, scattered, fanned,
    or a heap (a trick thrown card on card into the middle, most of each covered by the next)."""
    w, h = size
    centre = unproject(hom, np.array([[w * rng.uniform(0.3, 0.7), h * rng.uniform(0.3, 0.7)]]))[0]
    mode = rng.choice(LAYOUTS[:len(shares)], p=list(shares))  # four shares draw what they drew before heaps
    if mode == "fan":  # a spread hand: each card shifted sideways over the last, turned a little more
        return fan(rng, n, centre)
    if mode == "heap":
        spread = rng.uniform(0.08, 0.22)
        return [(centre[0] + dx, centre[1] + dy, rng.uniform(0, 2 * math.pi))
                for dx, dy in rng.normal(0, spread, (n, 2))]
    out = []
    for i in range(n):
        if mode == "pile":
            off = rng.normal(0, 0.35, 2)
            rot = rng.uniform(0, 2 * math.pi)
        elif mode == "seats":
            a = 2 * math.pi * i / max(n, 1) + rng.normal(0, 0.15)
            rad = rng.uniform(0.9, 1.6)
            off = np.array([math.cos(a), math.sin(a)]) * rad
            rot = a + math.pi / 2 + rng.normal(0, 0.3)
        else:
            p = unproject(hom, np.array([[rng.uniform(0.1, 0.9) * w, rng.uniform(0.1, 0.9) * h]]))[0]
            off, rot = p - centre, rng.uniform(0, 2 * math.pi)
        out.append((centre[0] + off[0], centre[1] + off[1], rot))
    return out


def fan(rng: np.random.Generator, n: int, centre: np.ndarray) -> list[tuple[float, float, float]]:
    """Cards spread as in a hand or a fanned trick: about a third to two thirds of each shows."""
    rot0, step, turn = rng.uniform(0, 2 * math.pi), rng.uniform(0.22, 0.42), rng.uniform(-0.12, 0.12)
    out = []
    for i in range(n):
        rot = rot0 + turn * (i - (n - 1) / 2)
        along = step * (i - (n - 1) / 2)
        out.append((centre[0] + along * math.cos(rot0), centre[1] + along * math.sin(rot0), rot))
    return out


def card_plane_quad(x: float, y: float, rot: float, aspect: float) -> np.ndarray:
    """TL, TR, BR, BL of a card of height 1 centred at (x, y), turned by ``rot``.

    The camera sees the plane's +y axis pointing up the picture, so the card's top edge is at
    +y: listed the other way round, every face would be pasted mirrored.
    """
    hw, hh = aspect / 2, 0.5
    pts = np.array([[-hw, hh], [hw, hh], [hw, -hh], [-hw, -hh]])
    c, s = math.cos(rot), math.sin(rot)
    return pts @ np.array([[c, s], [-s, c]]) + np.array([x, y])


def paste_card(img: np.ndarray, ids: np.ndarray, face: np.ndarray, quad: np.ndarray, k: int,
               rng: np.random.Generator) -> None:
    """Warp ``face`` onto ``quad`` with a soft shadow; mark its pixels ``k`` in ``ids``."""
    mask = paste_face(img, face, quad, rng)
    ids[mask > 0.5] = k


def paste_face(img: np.ndarray, face: np.ndarray, quad: np.ndarray, rng: np.random.Generator,
               corner: float = 0.05) -> np.ndarray:
    """Warp a flat object's ``face`` onto ``quad`` with a soft shadow; returns its coverage mask."""
    fh, fw = face.shape[:2]
    hh, ww = img.shape[:2]
    src = np.array([[0, 0], [fw - 1, 0], [fw - 1, fh - 1], [0, fh - 1]], np.float32)
    m = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
    mask = cv2.warpPerspective(_rounded_mask(fw, fh, corner), m, (ww, hh), flags=cv2.INTER_LINEAR) / 255.0
    shift = np.float32([[1, 0, rng.uniform(-6, 6)], [0, 1, rng.uniform(1, 8)]])
    shadow = cv2.GaussianBlur(cv2.warpAffine(mask, shift, (ww, hh)), (0, 0), rng.uniform(2, 6))
    img *= (1 - rng.uniform(0.15, 0.45) * shadow)[..., None]
    warped = cv2.warpPerspective(face.astype(np.float32), m, (ww, hh), flags=cv2.INTER_AREA)
    img[:] = img * (1 - mask[..., None]) + warped * mask[..., None]
    return mask


def draw_clutter(img: np.ndarray, ids: np.ndarray, hom: np.ndarray, rng: np.random.Generator,
                 over: bool) -> None:
    """Lay one object (datasets.clutter) flat on the table; ``over`` the cards it covers them,
    like a hand (their visible share drops), else the cards lie on it."""
    h, w = ids.shape
    face = object_face(rng)
    pos = unproject(hom, np.array([[rng.uniform(0, 1) * w, rng.uniform(0, 1) * h]]))[0]
    size = rng.uniform(1.2, 3.5)  # its long side, in card heights
    lay_flat(img, ids, hom, rng, face, pos, size, 0.01, over, 4 * w * h)


def draw_prop(img: np.ndarray, ids: np.ndarray, hom: np.ndarray, rng: np.random.Generator,
              over: bool) -> np.ndarray | None:
    """Lay one prop (datasets.props) flat on the table, as :func:`draw_clutter` lays paper; returns its
    outline in the picture (None where it falls off the table's plane)."""
    h, w = ids.shape
    face, corner, size = prop(rng)
    pos = unproject(hom, np.array([[rng.uniform(0.1, 0.9) * w, rng.uniform(0.1, 0.9) * h]]))[0]
    return lay_flat(img, ids, hom, rng, face, pos, size, corner, over, w * h)


def lay_flat(img: np.ndarray, ids: np.ndarray, hom: np.ndarray, rng: np.random.Generator, face: np.ndarray,
             pos: np.ndarray, size: float, corner: float, over: bool, max_area: float) -> np.ndarray | None:
    """``face`` laid at ``pos`` on the table's plane, turned at random, its long side ``size`` card heights;
    ``over`` the cards it covers them. Its outline in the picture, or None (nothing laid) where the plane
    throws it off to infinity or larger than ``max_area`` pixels."""
    quad = project(hom, card_plane_quad(0, 0, rng.uniform(0, 2 * math.pi), face.shape[1] / face.shape[0]) * size
                   + pos)
    if not np.all(np.isfinite(quad)) or _area(quad) > max_area:
        return None
    mask = paste_face(img, face, quad, rng, corner=corner)
    if over:
        ids[mask > 0.5] = -1
    return quad


def draw_hand(img: np.ndarray, ids: np.ndarray, rng: np.random.Generator) -> None:
    """A hand with fingers reaching in from a random edge of the picture."""
    h, w = ids.shape
    colour = np.array(SKIN[rng.integers(len(SKIN))], np.float32) * rng.uniform(0.7, 1.1)
    edge = rng.integers(4)
    t = rng.uniform(0.15, 0.85)
    start = [(t * w, -20), (w + 20, t * h), (t * w, h + 20), (-20, t * h)][edge]
    reach = rng.uniform(0.15, 0.45) * min(w, h)
    ang = [math.pi / 2, math.pi, -math.pi / 2, 0][edge] + rng.normal(0, 0.4)
    palm = (start[0] + math.cos(ang) * reach * 0.4, start[1] + math.sin(ang) * reach * 0.4)
    fingers = [(ang + (k - 2) * 0.25 + rng.normal(0, 0.08), reach * rng.uniform(0.5, 0.9), rng.uniform(0.22, 0.32))
               for k in range(rng.integers(1, 6))]
    draw_hand_at(img, ids, start, palm, reach * rng.uniform(0.3, 0.45), ang, fingers, colour, rng)


def draw_hand_at(img: np.ndarray, ids: np.ndarray, wrist: tuple[float, float], palm: tuple[float, float],
                 palm_r: float, ang: float, fingers: list[tuple[float, float, float]], colour: np.ndarray,
                 rng: np.random.Generator) -> None:
    """A hand whose arm comes from ``wrist`` (may lie outside the picture); fingers as (angle, length, width)."""
    h, w = ids.shape
    layer = np.zeros((h, w), np.uint8)
    pr = int(palm_r)
    pc = (int(palm[0]), int(palm[1]))
    cv2.ellipse(layer, pc, (pr, int(pr * 1.2)), math.degrees(ang), 0, 360, 255, -1)
    cv2.line(layer, (int(wrist[0]), int(wrist[1])), pc, 255, int(pr * 1.4))
    for fa, ln, fw in fingers:
        tip = (int(palm[0] + math.cos(fa) * ln), int(palm[1] + math.sin(fa) * ln))
        cv2.line(layer, pc, tip, 255, max(4, int(pr * fw)), cv2.LINE_AA)
    alpha = cv2.GaussianBlur(layer.astype(np.float32) / 255, (0, 0), 1.2)
    shade = 0.8 + 0.2 * cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 15)
    img[:] = img * (1 - alpha[..., None]) + (colour * shade[..., None]) * alpha[..., None]
    ids[alpha > 0.5] = -1


def light(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    lx, ly = rng.uniform(-0.3, 1.3) * w, rng.uniform(-0.3, 1.3) * h
    lamp = np.exp(-((xx - lx) ** 2 + (yy - ly) ** 2) / (2 * (rng.uniform(0.4, 1.2) * max(w, h)) ** 2))
    gain = rng.uniform(0.45, 0.85) + rng.uniform(0.2, 0.6) * lamp
    tint = np.array([1.0, rng.uniform(0.92, 1.05), rng.uniform(0.75, 1.05)], np.float32)
    img = img * gain[..., None] * tint
    if rng.random() < 0.35:  # glare
        gx, gy = rng.uniform(0, w), rng.uniform(0, h)
        gs = rng.uniform(0.03, 0.12) * w
        glare = np.exp(-((xx - gx) ** 2 / (2 * gs**2) + (yy - gy) ** 2 / (2 * (gs * rng.uniform(0.3, 1)) ** 2)))
        img = img + rng.uniform(80, 220) * glare[..., None]
    return img


def camera_effects(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    if rng.random() < 0.5:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.6))
    if rng.random() < 0.2:
        k = int(rng.integers(3, 9))
        kernel = np.zeros((k, k), np.float32)
        kernel[k // 2, :] = 1 / k
        rot = cv2.getRotationMatrix2D((k / 2, k / 2), rng.uniform(0, 180), 1)
        img = cv2.filter2D(img, -1, cv2.warpAffine(kernel, rot, (k, k)))
    img = img + rng.normal(0, rng.uniform(0, 8), img.shape)
    img = np.clip(img, 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", img[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 96))])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)[..., ::-1].copy()


def render_scene(seed: int, packs: dict[str, dict[str, np.ndarray]], opts: SceneOptions | None = None) -> Scene:
    """One synthetic frame and where each card lies in it."""
    opts = opts or SceneOptions()
    rng = np.random.default_rng(seed)
    w, h = opts.size if rng.random() >= opts.portrait_rate else opts.size[::-1]
    size = (w, h)
    tilt = math.radians(rng.uniform(0, opts.max_tilt_deg))
    hom = camera(rng, size, tilt, h * math.exp(rng.uniform(*np.log(opts.card_px))))
    img = table(rng, size)
    if opts.cloth is not None:  # the cards fall as they would on the generator's table: only the cloth differs
        img = cloth(opts.cloth, np.random.default_rng([seed, 3]), size)
    ids = np.full((h, w), -2, np.int16)  # -2 table, -1 hand, k card k
    n = 0 if rng.random() < opts.empty_rate else int(rng.integers(1, opts.max_cards + 1))
    pack_name = choose_pack(rng, packs)
    pack = packs[pack_name]
    codes = rng.choice([k for k in pack if k != BACK], size=n, replace=False)
    clutter = np.random.default_rng([seed, 1])  # its own stream: with or without objects a seed lays the same cards
    objects = [clutter.random() < 0.15 for _ in range(int(clutter.integers(1, 4)))] \
        if clutter.random() < opts.clutter_rate else []
    for over in objects:
        if not over:
            draw_clutter(img, ids, hom, clutter, over=False)
    placed: list[PlacedCard] = []
    for k, ((x, y, rot), code) in enumerate(zip(layout(rng, n, hom, size, opts.layouts), codes)):
        if rng.random() < opts.back_rate:
            code = BACK
        face = pack[code]
        if rng.random() < 0.5:
            face = face[::-1, ::-1]  # upside down: a card has no fixed top
        quad = project(hom, card_plane_quad(x, y, rot, face.shape[1] / face.shape[0]))
        if not _sane(quad, w, h):
            continue
        paste_card(img, ids, face, quad, len(placed), rng)
        placed.append(PlacedCard(str(code), str(pack_name), quad))
    for over in objects:
        if over:
            draw_clutter(img, ids, hom, clutter, over=True)
    props = np.random.default_rng([seed, 4])  # its own stream: without props a seed draws what it drew before
    outlines = []
    if props.random() < opts.props_rate:
        for _ in range(int(props.integers(1, 4))):
            outlines.append(draw_prop(img, ids, hom, props, over=props.random() < 0.5))
    things = np.random.default_rng([seed, 2])  # its own stream too: without things a seed draws what it drew before
    if things.random() < opts.things_rate:
        for _ in range(int(things.integers(1, 3))):
            draw_thing(img, ids, [c.quad for c in placed], things)
    if rng.random() < opts.hand_rate:
        draw_hand(img, ids, rng)
    for k, card in enumerate(placed):
        card.visible = visible_fraction(ids, k, card.quad)
        card.corners_shown = tuple(shown_within(ids, k, patch) for patch in corner_outlines(card.quad))
    img = camera_effects(light(img, rng), rng)
    return Scene(img, placed, hom, [q for q in outlines if q is not None])


def choose_pack(rng: np.random.Generator, packs: dict[str, dict[str, np.ndarray]]) -> str:
    """A Swiss scan about 60 % of the time (what tables play with), else another design: each
    other group (the drawn designs, each fetched pattern) equally often, so a real poker pattern
    is not drowned by six drawn ones."""
    swiss = sorted(n for n in packs if pack_group(n) == "swiss")
    others = sorted(n for n in packs if pack_group(n) != "swiss")
    if swiss and (not others or rng.random() < 0.6):
        return str(rng.choice(swiss))
    groups = sorted({pack_group(n) for n in others})
    if len(groups) > 1:  # only then a draw more: sets built from one group stay as they were
        group = groups[int(rng.integers(len(groups)))]
        others = [n for n in others if pack_group(n) == group]
    return str(rng.choice(others))


def visible_fraction(ids: np.ndarray, k: int, quad: np.ndarray) -> float:
    """How much of card ``k`` (outline ``quad``) the pixels marked ``k`` in ``ids`` show."""
    return float(np.count_nonzero(ids == k)) / _area(quad)


def shown_within(ids: np.ndarray, k: int, patch: np.ndarray) -> float:
    """The share of ``patch`` (a quad in the picture) whose pixels are card ``k``'s; any part
    outside the picture counts as not shown."""
    h, w = ids.shape
    x0, y0 = np.floor(patch.min(axis=0)).astype(int)
    x1, y1 = np.ceil(patch.max(axis=0)).astype(int) + 1
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(mask, [np.round(patch - (x0, y0)).astype(np.int32)], 1)
    ya, yb, xa, xb = max(0, y0), min(h, y1), max(0, x0), min(w, x1)
    shown = (ids[ya:yb, xa:xb] == k) & (mask[ya - y0:yb - y0, xa - x0:xb - x0] > 0) if ya < yb and xa < xb else 0
    return float(np.count_nonzero(shown)) / max(1, int(np.count_nonzero(mask)))


def corner_outlines(quad: np.ndarray, share: float = CORNER_PATCH) -> list[np.ndarray]:
    """The outlines in the picture of the four corner patches of a card's face (a ``share`` of its
    width and height each): a card can be named where one of them, or most of the face, shows."""
    to_picture = cv2.getPerspectiveTransform(np.float32([[0, 0], [1, 0], [1, 1], [0, 1]]), quad.astype(np.float32))
    patches = []
    for u, v in ((0, 0), (1 - share, 0), (1 - share, 1 - share), (0, 1 - share)):
        square = np.float32([[u, v], [u + share, v], [u + share, v + share], [u, v + share]])
        patches.append(cv2.perspectiveTransform(square[None], to_picture)[0])
    return patches


def _area(quad: np.ndarray) -> float:
    return max(1.0, float(abs(cv2.contourArea(quad.astype(np.float32)))))


def _sane(quad: np.ndarray, w: int, h: int) -> bool:
    """In front of the camera, not absurdly large, mostly inside the picture."""
    if not np.all(np.isfinite(quad)):
        return False
    area = _area(quad)
    if area > 0.5 * w * h or area < 150:
        return False
    c = quad.mean(axis=0)
    return 0 <= c[0] < w and 0 <= c[1] < h
