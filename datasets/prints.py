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
