"""The same card as another printer, or years of play, leave it: for training the classifier.

A real pack differs from the scans in print detail (a photographed Swiss-French pack prints its
index inside the corner pip), so the classifier must name a card by its pips and pictures, not by
reading one print's index. Here a face gets a paper tone, faded or darker ink, a colour cast, a soft
print, wear, and often its corner indices blanked out. Generic on purpose: nothing here imitates the
held-out world's reprints (:mod:`datasets.held_out`), which report and are never trained on.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from vision.recognize import BACK

from .art import INDEX_TEXT
from .clutter import FONTS, words


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


def index_fonts() -> list[Path]:
    """The faces an index is redrawn in: the TrueType fonts Matplotlib ships (DejaVu, STIX, Computer
    Modern), so every machine with the training extra draws the same; none where it is missing."""
    try:
        import matplotlib  # noqa: PLC0415 - the training extra
    except ImportError:
        return []
    folder = Path(matplotlib.get_data_path()) / "fonts" / "ttf"
    keep = ("DejaVuSans", "DejaVuSerif", "STIXGeneral", "cmr10", "cmss10", "cmtt10", "cmb10")
    return sorted(p for p in folder.glob("*.ttf") if p.stem.startswith(keep) and "Display" not in p.stem)


def redraw_index(pack: dict[str, np.ndarray], rng: np.random.Generator) -> dict[str, np.ndarray]:
    """``pack`` as a printer that prints its own index would make it: each face varied (:func:`vary_print`,
    indices kept), its corners blanked and the rank drawn again in one font, size, place and ink (or
    paper-coloured on a plate of ink) for the whole pack, in two corners or four. Real packs print
    their indices in every style; a classifier that learned one print of them misreads the next.
    Faces only: a ``back`` stays."""
    fonts = index_fonts()
    if not fonts:
        raise RuntimeError("no fonts to redraw indices in: install the training extra (matplotlib)")
    style = {"font": str(fonts[int(rng.integers(len(fonts)))]), "size": rng.uniform(0.07, 0.16),
             "x": rng.uniform(0.02, 0.12), "y": rng.uniform(0.02, 0.12), "plate": rng.random() < 0.35,
             "four": rng.random() < 0.5, "blank": (rng.uniform(0.15, 0.24), rng.uniform(0.12, 0.18)),
             "ink": None if rng.random() < 0.7 else tuple(int(v) for v in rng.integers(0, (90, 90, 120)))}
    return {code: face if code == BACK else _redrawn(code, vary_print(face, rng, blank_index=0.0), style)
            for code, face in pack.items()}


def _redrawn(code: str, face: np.ndarray, style: dict) -> np.ndarray:
    h, w = face.shape[:2]
    light = face.mean(axis=2) > 180
    paper = tuple(int(v) for v in np.median(face[light], axis=0)) if light.any() else (240, 240, 240)
    img = Image.fromarray(face)
    draw = ImageDraw.Draw(img)
    bw, bh, m = int(w * style["blank"][0]), int(h * style["blank"][1]), max(2, int(0.03 * w))
    for box in ((m, m, bw, bh), (w - bw, h - bh, w - m, h - m), (w - bw, m, w - m, bh), (m, h - bh, bw, h - m)):
        draw.rectangle(box, fill=paper)
    ink = style["ink"] or ((190, 25, 35) if code[1] in "hd" else (20, 20, 20))
    glyph = _glyph(INDEX_TEXT.get(code[0], code[0]), ImageFont.truetype(style["font"], max(8, int(style["size"] * h))),
                   ink, paper, style["plate"])
    x, y = int(style["x"] * w), int(style["y"] * h)
    turned = glyph.rotate(180)
    for spot in [(x, y)] + ([(w - x - glyph.width, y)] if style["four"] else []):
        img.paste(glyph, spot, glyph)
        img.paste(turned, (w - spot[0] - glyph.width, h - spot[1] - glyph.height), turned)
    return np.asarray(img)


def _glyph(text: str, font, ink: tuple, paper: tuple, plate: bool) -> Image.Image:
    l, t, r, b = ImageDraw.Draw(Image.new("RGBA", (1, 1))).textbbox((0, 0), text, font=font)
    pad = max(2, font.size // 6)
    img = Image.new("RGBA", (r - l + 2 * pad, b - t + 2 * pad), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    if plate:
        d.rounded_rectangle((0, 0, img.width - 1, img.height - 1), radius=2 * pad, fill=tuple(ink) + (255,))
    d.text((pad - l, pad - t), text, font=font, fill=(tuple(paper) if plate else tuple(ink)) + (255,))
    return img


def engrave_ace(face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``face``, an ace of one big centre pip, as many printers make it: the pip grown and engraved
    (paper-coloured lines and a ring inside it) and the maker's imprint in small type around it.
    Real packs do (the photos' poker aces of spades); a head that learned that print and text mean a
    coupon drops such aces as no card. Only the ace's centre is touched: its indices stay."""
    img = face.copy()
    h, w = img.shape[:2]
    centre = np.zeros((h, w), bool)
    centre[int(h * 0.28):int(h * 0.72), int(w * 0.2):int(w * 0.8)] = True
    light = img.mean(axis=2) > 180
    pip = ~light & centre
    ys, xs = np.nonzero(pip)
    if pip.sum() < 0.01 * h * w or ys.min() <= h * 0.29 or ys.max() >= h * 0.71 or xs.min() <= w * 0.21:
        return img  # no pip alone in the middle: a picture (a German-suited ace), left as it is
    paper = np.median(img[light], axis=0) if light.any() else np.full(3, 240.0)
    ink = np.median(img[pip], axis=0)
    grow = rng.uniform(1.2, 1.9)
    cy, cx = ys.mean(), xs.mean()
    m = np.float32([[grow, 0, cx * (1 - grow)], [0, grow, cy * (1 - grow)]])
    big = cv2.warpAffine(pip.astype(np.uint8), m, (w, h), flags=cv2.INTER_NEAREST) > 0
    img[pip] = paper
    img[big] = ink
    inner = cv2.erode(big.astype(np.uint8), np.ones((3, 3), np.uint8), iterations=max(2, int(w * 0.02))) > 0
    yy, xx = np.mgrid[0:h, 0:w]
    ang, gap = rng.uniform(0, np.pi), rng.uniform(3, 7) * w / 200
    lines = (np.sin((xx * np.cos(ang) + yy * np.sin(ang)) * np.pi / gap) > rng.uniform(0.3, 0.8)) & inner
    ring = inner & ~(cv2.erode(inner.astype(np.uint8), np.ones((3, 3), np.uint8),
                               iterations=max(1, int(w * 0.015))) > 0)
    img[lines | ring] = paper
    _imprint(img, rng, ys.min() - (grow - 1) * (cy - ys.min()), ys.max() + (grow - 1) * (ys.max() - cy), ink)
    return img


def _imprint(img: np.ndarray, rng: np.random.Generator, top: float, bottom: float, ink: np.ndarray) -> None:
    """A maker's name above ``top`` and lines of small type below ``bottom``, centred, in ``ink``."""
    h, w = img.shape[:2]
    colour = tuple(float(v) for v in ink)
    for y0, lines, scale in ((top - h * 0.04, 1, rng.uniform(0.4, 0.7)), (bottom + h * 0.06, int(rng.integers(1, 4)),
                                                                          rng.uniform(0.22, 0.35))):
        font = int(rng.choice(FONTS))
        y = int(y0)
        for _ in range(lines):
            text = words(rng, int(rng.integers(6, 22)))
            (tw, th), _ = cv2.getTextSize(text, font, scale * w / 200, 1)
            if int(h * 0.2) < y < int(h * 0.82):
                cv2.putText(img, text, (max(2, (w - tw) // 2), y), font, scale * w / 200, colour, 1, cv2.LINE_AA)
            y += int(th * 1.9)


def engraved_aces(pack: dict[str, np.ndarray], rng: np.random.Generator) -> dict[str, np.ndarray]:
    """``pack`` with its aces engraved (:func:`engrave_ace`) where they are one pip in the middle."""
    return {code: engrave_ace(face, rng) if code[0] == "A" and code != BACK else face for code, face in pack.items()}
