"""Things that lie on a real table besides cards: printed paper, books and boxes, photographs.

Real photos of cards show them on letters, book covers and beside boxes. A detector that has
only ever seen cards on bare cloth boxes a white printed sheet as a card and loses the card
lying on it, so scenes carry such objects too: white rectangles with letters that are not
cards. Each maker returns an RGB float32 face (long side vertical) to be laid in the table plane.
"""

from __future__ import annotations

import string

import cv2
import numpy as np

LETTERS = string.ascii_letters + string.digits + "     "
FONTS = [cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX, cv2.FONT_HERSHEY_TRIPLEX,
         cv2.FONT_HERSHEY_PLAIN]


def words(rng: np.random.Generator, n: int) -> str:
    """``n`` random letters and spaces: print that reads as text at a glance (papers, faces' imprints)."""
    return "".join(rng.choice(list(LETTERS), n))


def text_block(img: np.ndarray, rng: np.random.Generator, x0: int, y0: int, x1: int, y1: int,
                scale: float, colour: tuple[float, float, float]) -> None:
    """Lines of random letters between (x0, y0) and (x1, y1)."""
    font = int(rng.choice(FONTS))
    (cw, ch), _ = cv2.getTextSize("a", font, scale, 1)
    y = y0 + ch
    while y < y1:
        n = max(1, int((x1 - x0) * rng.uniform(0.5, 1.0) / max(cw, 1)))
        cv2.putText(img, words(rng, n), (x0, y), font, scale, colour, 1, cv2.LINE_AA)
        y += int(ch * rng.uniform(1.6, 2.4))


def paper(rng: np.random.Generator) -> np.ndarray:
    """A printed sheet (A4-like): a heading, paragraphs, sometimes a ruled table."""
    w, h = 300, int(300 * rng.uniform(1.25, 1.45))
    tone = rng.uniform(215, 252)
    img = (np.full((h, w, 3), tone) * np.array([1.0, rng.uniform(0.97, 1.0), rng.uniform(0.9, 1.0)])).astype(np.uint8)
    ink = tuple(float(v) for v in rng.uniform(10, 90, 3))
    m = int(w * rng.uniform(0.06, 0.14))
    y = m
    if rng.random() < 0.6:
        cv2.putText(img, words(rng, int(rng.integers(4, 12))), (m, y + 18), int(rng.choice(FONTS)),
                    rng.uniform(0.6, 1.0), ink, 2, cv2.LINE_AA)
        y += 40
    if rng.random() < 0.3:  # a table of figures
        rows, cols = int(rng.integers(4, 12)), int(rng.integers(2, 6))
        th = int(rng.uniform(0.2, 0.45) * h)
        for r in range(rows + 1):
            cv2.line(img, (m, y + r * th // rows), (w - m, y + r * th // rows), ink, 1)
        for c in range(cols + 1):
            cv2.line(img, (m + c * (w - 2 * m) // cols, y), (m + c * (w - 2 * m) // cols, y + th), ink, 1)
        y += th + 12
    text_block(img, rng, m, y, w - m, h - m, rng.uniform(0.3, 0.45), ink)
    return img.astype(np.float32)


def book(rng: np.random.Generator) -> np.ndarray:
    """A book cover or a box lid: a coloured board with a title and a picture."""
    w, h = 240, int(240 * rng.uniform(1.2, 1.6))
    img = np.full((h, w, 3), rng.uniform(20, 235, 3)).astype(np.uint8)  # OpenCV writes text on 8 bits only
    if rng.random() < 0.6:  # a picture on the cover
        x0, y0 = int(w * rng.uniform(0.05, 0.3)), int(h * rng.uniform(0.3, 0.5))
        x1, y1 = int(w * rng.uniform(0.7, 0.95)), int(h * rng.uniform(0.7, 0.95))
        img[y0:y1, x0:x1] = photo(rng, (x1 - x0, y1 - y0)).astype(np.uint8)
    ink = tuple(float(v) for v in rng.uniform(0, 255, 3))
    font = int(rng.choice(FONTS))
    for k in range(int(rng.integers(1, 4))):
        cv2.putText(img, words(rng, int(rng.integers(3, 9))), (int(w * 0.08), int(h * (0.12 + 0.09 * k))), font,
                    rng.uniform(0.7, 1.4), ink, int(rng.integers(1, 4)), cv2.LINE_AA)
    return img.astype(np.float32)


def photo(rng: np.random.Generator, size: tuple[int, int] = (220, 300)) -> np.ndarray:
    """A photograph or glossy print: smooth colour blobs."""
    w, h = size
    small = rng.uniform(0, 255, (int(rng.integers(3, 9)), int(rng.integers(3, 9)), 3)).astype(np.float32)
    img = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
    img += cv2.GaussianBlur(rng.normal(0, 25, (h, w, 3)).astype(np.float32), (0, 0), 2)
    return np.clip(img, 0, 255)


MAKERS = {"paper": paper, "book": book, "photo": photo}


def object_face(rng: np.random.Generator) -> np.ndarray:
    """One of the objects, printed paper most often (the commonest false card in real photos)."""
    kind = rng.choice(list(MAKERS), p=[0.55, 0.3, 0.15])
    return MAKERS[str(kind)](rng)
