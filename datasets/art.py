"""Card faces for synthetic scenes: the two scanned Swiss packs and drawn French designs.

The scans ship in ``datasets/cards`` (MIT, licence and attribution beside them). The drawn designs
look like an ordinary poker pack (corner indices, standard pip layouts, busy court pictures),
which the Swiss French pack is not: its courts and aces carry no index. Training on both is
what lets the classifier name cards of a pack it never saw.
"""

from __future__ import annotations

import colorsys
import os
import random
from functools import lru_cache
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from engine.cards import DECK
from vision.recognize import BACK

from .fetched import PACKS as FETCHED
from .fetched import load as load_fetched

SCANNED_PACKS = ("swiss-french", "swiss-german")
CARD_W, CARD_H = 240, 336  # drawn designs, poker proportions (63 x 88 mm)
RED = {"h", "d"}


CARDS = Path(__file__).resolve().parent / "cards"  # the shipped scans


def shared_dir() -> Path:
    """``../shared`` beside the repo, or ``$CHRATZE_SHARED``: only the real photos that measure a detector."""
    env = os.environ.get("CHRATZE_SHARED")
    if env:
        return Path(env)
    return Path(__file__).resolve().parent.parent.parent / "shared"


@lru_cache(maxsize=None)
def scanned_pack(name: str) -> dict[str, np.ndarray]:
    """Card code (and ``back``) -> RGB image of one scanned pack."""
    folder = CARDS / name
    if not folder.is_dir():
        raise FileNotFoundError(f"no scanned pack {name!r} in {CARDS} (packs: {', '.join(SCANNED_PACKS)})")
    out = {}
    for c in list(DECK) + [BACK]:
        code = c if isinstance(c, str) else c.code
        out[code] = np.asarray(Image.open(folder / f"{code}.gif").convert("RGB"))
    return out


# --------------------------------------------------------------------------- drawn designs
PIP_LAYOUT = {  # pip centres in a unit box (x, y), y down; the lower half is drawn upside down
    "A": [(0.5, 0.5)],
    "6": [(0.25, 0.1), (0.75, 0.1), (0.25, 0.5), (0.75, 0.5), (0.25, 0.9), (0.75, 0.9)],
    "7": [(0.25, 0.1), (0.75, 0.1), (0.5, 0.3), (0.25, 0.5), (0.75, 0.5), (0.25, 0.9), (0.75, 0.9)],
    "8": [(0.25, 0.1), (0.75, 0.1), (0.5, 0.3), (0.25, 0.5), (0.75, 0.5), (0.5, 0.7), (0.25, 0.9), (0.75, 0.9)],
    "9": [(0.25, 0.1), (0.75, 0.1), (0.25, 0.37), (0.75, 0.37), (0.5, 0.5), (0.25, 0.63), (0.75, 0.63),
          (0.25, 0.9), (0.75, 0.9)],
    "T": [(0.25, 0.1), (0.75, 0.1), (0.5, 0.23), (0.25, 0.37), (0.75, 0.37), (0.25, 0.63), (0.75, 0.63),
          (0.5, 0.77), (0.25, 0.9), (0.75, 0.9)],
}
INDEX_TEXT = {"T": "10"}


def suit_polygon_mask(suit: str, size: int) -> Image.Image:
    """A suit sign as an L-mode mask, drawn at 4x and reduced for smooth edges."""
    s = size * 4
    m = Image.new("L", (s, s), 0)
    d = ImageDraw.Draw(m)
    if suit == "d":
        d.polygon([(s / 2, 0), (s * 0.88, s / 2), (s / 2, s), (s * 0.12, s / 2)], fill=255)
    elif suit == "h":
        r = s * 0.27
        d.ellipse([s * 0.02, s * 0.05, s * 0.02 + 2 * r, s * 0.05 + 2 * r], fill=255)
        d.ellipse([s * 0.98 - 2 * r, s * 0.05, s * 0.98, s * 0.05 + 2 * r], fill=255)
        d.polygon([(s * 0.04, s * 0.4), (s * 0.96, s * 0.4), (s / 2, s * 0.98)], fill=255)
    elif suit == "s":
        r = s * 0.26
        d.ellipse([s * 0.03, s * 0.38, s * 0.03 + 2 * r, s * 0.38 + 2 * r], fill=255)
        d.ellipse([s * 0.97 - 2 * r, s * 0.38, s * 0.97, s * 0.38 + 2 * r], fill=255)
        d.polygon([(s * 0.05, s * 0.58), (s * 0.95, s * 0.58), (s / 2, s * 0.0)], fill=255)
        d.polygon([(s / 2, s * 0.6), (s * 0.3, s), (s * 0.7, s)], fill=255)
    else:  # clubs
        r = s * 0.22
        for cx, cy in ((0.5, 0.25), (0.25, 0.55), (0.75, 0.55)):
            d.ellipse([s * cx - r, s * cy - r, s * cx + r, s * cy + r], fill=255)
        d.polygon([(s / 2, s * 0.45), (s * 0.3, s), (s * 0.7, s)], fill=255)
    return m.resize((size, size), Image.LANCZOS)


def _paste_sign(img: Image.Image, suit: str, colour: tuple[int, int, int], cx: float, cy: float,
                size: int, flip: bool = False) -> None:
    mask = suit_polygon_mask(suit, size)
    if flip:
        mask = mask.rotate(180)
    img.paste(Image.new("RGB", mask.size, colour), (int(cx - size / 2), int(cy - size / 2)), mask)


def _font(size: int) -> ImageFont.ImageFont:
    return ImageFont.load_default(size=size)  # Pillow's embedded font: no file, no download


def draw_card(code: str, style: int = 0) -> np.ndarray:
    """One card of drawn French design number ``style`` (a seed for colours and proportions)."""
    rng = random.Random(style * 1000 + 7)
    rank, suit = code[0], code[1]
    red = (rng.randint(170, 220), rng.randint(0, 40), rng.randint(20, 50))
    colour = red if suit in RED else (rng.randint(0, 30),) * 3
    paper = tuple(rng.randint(238, 255) for _ in range(3))
    img = Image.new("RGB", (CARD_W, CARD_H), paper)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle([1, 1, CARD_W - 2, CARD_H - 2], radius=14, outline=(150, 150, 150), width=2)
    _draw_indices(img, rank, suit, colour, rng)
    if rank in "JQK":
        _draw_court(img, rank, suit, colour, rng)
    else:
        _draw_pips(img, rank, suit, colour, rng)
    return np.asarray(img)


def _draw_indices(img: Image.Image, rank: str, suit: str, colour, rng: random.Random) -> None:
    text = INDEX_TEXT.get(rank, rank)
    fsize = rng.randint(30, 40)
    corner = Image.new("RGBA", (60, 80), (0, 0, 0, 0))
    cd = ImageDraw.Draw(corner)
    w = cd.textlength(text, font=_font(fsize))
    stroke = rng.choice([0, 0, 1, 2])  # index weight varies between real packs
    cd.text(((60 - w) / 2, 2), text, font=_font(fsize), fill=colour + (255,), stroke_width=stroke,
            stroke_fill=colour + (255,))
    sign = suit_polygon_mask(suit, 22)
    corner.paste(Image.new("RGBA", sign.size, colour + (255,)), (19, fsize + 6), sign)
    x, y = rng.randint(2, 8), rng.randint(4, 10)
    img.paste(corner, (x, y), corner)
    flipped = corner.rotate(180)
    img.paste(flipped, (CARD_W - 60 - x, CARD_H - 80 - y), flipped)


def _draw_pips(img: Image.Image, rank: str, suit: str, colour, rng: random.Random) -> None:
    left, top, right, bottom = 62, 52, CARD_W - 62, CARD_H - 52
    size = 110 if rank == "A" else rng.randint(32, 38) if rank in "9T" else rng.randint(38, 46)
    for x, y in PIP_LAYOUT[rank]:
        cx, cy = left + x * (right - left), top + y * (bottom - top)
        _paste_sign(img, suit, colour, cx, cy, size, flip=y > 0.55)


def _draw_court(img: Image.Image, rank: str, suit: str, colour, rng: random.Random) -> None:
    """A busy, two-headed court picture in the usual yellow, red, blue and black."""
    d = ImageDraw.Draw(img)
    box = [48, 40, CARD_W - 48, CARD_H - 40]
    d.rectangle(box, outline=colour, width=3)
    half = Image.new("RGB", (box[2] - box[0] - 6, (box[3] - box[1]) // 2 - 3), (250, 250, 245))
    hd = ImageDraw.Draw(half)
    w, h = half.size
    palette = [(235, 190, 40), (200, 30, 40), (30, 60, 160), (20, 20, 20), (240, 240, 230)]
    rng.shuffle(palette)
    for k in range(7):  # robe bands
        hd.polygon([(0, h), (w * k / 7, h * 0.45), (w * (k + 1) / 7, h * 0.45), (w, h)][:3] +
                   [(w * (k + 1) / 7, h)], fill=palette[k % len(palette)])
    hd.ellipse([w * 0.32, h * 0.08, w * 0.68, h * 0.5], fill=(245, 215, 180), outline=(0, 0, 0), width=2)
    hat = {"K": [(w * 0.3, h * 0.15), (w * 0.35, 0), (w * 0.45, h * 0.1), (w * 0.55, 0), (w * 0.65, h * 0.1),
                 (w * 0.7, 0), (w * 0.72, h * 0.15)],
           "Q": [(w * 0.3, h * 0.18), (w * 0.5, 0), (w * 0.72, h * 0.18)],
           "J": [(w * 0.28, h * 0.18), (w * 0.3, h * 0.02), (w * 0.75, h * 0.05), (w * 0.72, h * 0.18)]}[rank]
    hd.polygon(hat, fill=palette[0], outline=(0, 0, 0))
    for _ in range(12):  # ornament
        x, y = rng.uniform(0, w), rng.uniform(h * 0.5, h)
        r = rng.uniform(3, 8)
        hd.ellipse([x - r, y - r, x + r, y + r], fill=palette[rng.randrange(len(palette))])
    img.paste(half, (box[0] + 3, box[1] + 3))
    img.paste(half.rotate(180), (box[0] + 3, box[1] + 3 + h + 1))
    _paste_sign(img, suit, colour, box[0] + 22, box[1] + 24, 26)
    _paste_sign(img, suit, colour, box[2] - 22, box[3] - 24, 26, flip=True)


def draw_back(style: int = 0) -> np.ndarray:
    rng = random.Random(style)
    base = (rng.randint(0, 200), rng.randint(0, 120), rng.randint(60, 220))
    img = Image.new("RGB", (CARD_W, CARD_H), (250, 250, 250))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle([8, 8, CARD_W - 9, CARD_H - 9], radius=10, fill=base)
    step = rng.randint(10, 18)
    for k in range(-CARD_H, CARD_W + CARD_H, step):
        d.line([(k, 0), (k + CARD_H, CARD_H)], fill=(250, 250, 250), width=2)
        d.line([(k, CARD_H), (k + CARD_H, 0)], fill=(250, 250, 250), width=2)
    return np.asarray(img)


def varied_back(seed: int) -> np.ndarray:
    """A card back of any colour and pattern (lines, dots, stripes, frames, checks, or plain with
    an emblem), with or without a white margin: the six drawn backs and the scanned ones are few
    and mostly blue, and a classifier shown only those takes "blue" for "back"."""
    rng = random.Random(seed)
    hue, sat, val = rng.random(), rng.uniform(0.35, 1.0), rng.uniform(0.25, 0.85)
    base = tuple(int(255 * v) for v in colorsys.hsv_to_rgb(hue, sat, val))
    ink = (250, 250, 250) if rng.random() < 0.6 else tuple(int(255 * v) for v in colorsys.hsv_to_rgb(
        (hue + rng.uniform(0.3, 0.7)) % 1, rng.uniform(0.3, 1), rng.uniform(0.5, 1)))
    img = Image.new("RGB", (CARD_W, CARD_H), (250, 250, 250))
    d = ImageDraw.Draw(img)
    m = rng.choice([0, 4, 8, 12, 16])
    d.rounded_rectangle([m, m, CARD_W - 1 - m, CARD_H - 1 - m], radius=rng.randint(4, 14), fill=base)
    step, width = rng.randint(6, 22), rng.randint(1, 4)
    kind = rng.choice(["lines", "dots", "stripes", "frames", "checks", "emblem"])
    if kind == "lines":
        for k in range(-CARD_H, CARD_W + CARD_H, step):
            d.line([(k, 0), (k + CARD_H, CARD_H)], fill=ink, width=width)
            d.line([(k, CARD_H), (k + CARD_H, 0)], fill=ink, width=width)
    elif kind == "dots":
        for y in range(m, CARD_H - m, step):
            for x in range(m + (step // 2) * ((y // step) % 2), CARD_W - m, step):
                d.ellipse([x - width, y - width, x + width, y + width], fill=ink)
    elif kind == "stripes":
        for y in range(m, CARD_H - m, step):
            d.rectangle([m, y, CARD_W - 1 - m, y + width], fill=ink)
    elif kind == "frames":
        for k in range(m + step, min(CARD_W, CARD_H) // 2 - step, step):
            d.rounded_rectangle([k, k, CARD_W - 1 - k, CARD_H - 1 - k], radius=8, outline=ink, width=width)
    elif kind == "checks":
        for y in range(m, CARD_H - m, step):
            for x in range(m + step * ((y // step) % 2), CARD_W - m, 2 * step):
                d.rectangle([x, y, x + step - 1, y + step - 1], fill=ink)
    else:
        cx, cy, r = CARD_W // 2, CARD_H // 2, rng.randint(30, 90)
        d.ellipse([cx - r, cy - r * 1.3, cx + r, cy + r * 1.3], outline=ink, width=width + 2)
        d.rounded_rectangle([m + 10, m + 10, CARD_W - 11 - m, CARD_H - 11 - m], radius=8, outline=ink, width=width)
    d.rounded_rectangle([m, m, CARD_W - 1 - m, CARD_H - 1 - m], radius=10, outline=(150, 150, 150), width=1)
    return np.asarray(img)


@lru_cache(maxsize=None)
def drawn_pack(style: int = 0) -> dict[str, np.ndarray]:
    out = {c.code: draw_card(c.code, style) for c in DECK}
    out[BACK] = draw_back(style)
    return out


PACK_GROUPS = ("swiss", "drawn", *FETCHED)
DEFAULT_GROUPS = ("swiss", "drawn")  # what needs nothing fetched


@lru_cache(maxsize=None)
def packs_of(groups: tuple[str, ...] = DEFAULT_GROUPS, drawn_styles: int = 6) -> dict[str, dict[str, np.ndarray]]:
    """The packs of the named groups: ``swiss`` (both scans), ``drawn`` (``drawn_styles`` drawn
    French designs), or a real poker pattern fetched once (:mod:`datasets.fetched`)."""
    unknown = set(groups) - set(PACK_GROUPS)
    if unknown or not groups:
        raise ValueError(f"unknown pack group(s) {sorted(unknown)}; choose from {', '.join(PACK_GROUPS)}")
    packs = {}
    if "swiss" in groups:
        packs.update({name: scanned_pack(name) for name in SCANNED_PACKS})
    if "drawn" in groups:
        packs.update({f"drawn-french-{s}": drawn_pack(s) for s in range(drawn_styles)})
    packs.update({g: load_fetched(g) for g in groups if g in FETCHED})
    return packs


def parse_groups(text: str) -> tuple[str, ...]:
    """``"swiss, drawn,svg-cards"`` -> the group names (a command line's ``--packs``)."""
    return tuple(g.strip() for g in text.split(",") if g.strip())


def all_packs(drawn_styles: int = 6) -> dict[str, dict[str, np.ndarray]]:
    """Both scans and ``drawn_styles`` drawn designs: the packs evaluation and benchmarks use."""
    return packs_of(DEFAULT_GROUPS, drawn_styles)


def pack_group(name: str) -> str:
    return "swiss" if name.startswith("swiss") else "drawn" if name.startswith("drawn") else name


CLASS_NAMES = [c.code for c in DECK]  # the card classes, in DECK order
CROP_CLASSES = CLASS_NAMES + [BACK]  # the classifier's classes (its crop folders); BACK: a face-down card
