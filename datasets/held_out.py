"""Two worlds for the virtual table: the one we tune on, and a held-out one nothing is chosen on.

The *tuning* world is the scene generator's own (its cloths, light, the shipped scans as they are,
20 fps, 640x480, tilt up to 35 degrees). The *held-out* world draws everything else a user's table
may bring: cloths the generator never paints (:mod:`datasets.cloths`), white balance casts, tilts up to 40 degrees, frames from 640x480 to 1920x1080 at
10-30 fps, webcam JPEG and motion blur, and card faces reprinted (index redrawn at another place, size
and colour, a border, ink fade, wear, paper tone). No threshold, constant or special case may be
chosen on it: it only reports. Its seeds are also apart from the tuning ones (``HELD_OUT_SEED``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterator

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from .art import BACK, INDEX_TEXT, RED, SCANNED_PACKS, scanned_pack
from .cloths import CLOTHS, cloth
from .scenes import SceneOptions, camera, card_plane_quad, light, paste_face, project, render_scene

HELD_OUT_SEED = 700_000  # held-out hands are seeds from here on; tuning hands use small seeds


@dataclass(frozen=True)
class TableDraw:
    """One table of a world: what its camera and cards are like for one hand."""

    size: tuple[int, int]
    fps: float
    max_tilt_deg: float
    frame_in_cards: tuple[float, float]  # the frame's height in card heights head-on (before fitting)
    cloth: str  # "tuning": the generator's cloths; else a held-out cloth
    jpeg: int  # webcam JPEG quality, 0 for none
    motion_blur: float  # pixels of blur along one direction, 0 for none
    cast: tuple[float, float, float]  # white balance gains, R G B
    reprint: bool  # the pack's faces reprinted (index, border, ink, wear)


@dataclass(frozen=True)
class World:
    name: str
    sizes: tuple[tuple[int, int], ...]
    fps: tuple[float, ...]
    max_tilt_deg: float
    frame_in_cards: tuple[float, float]
    held_out: bool

    def draw(self, seed: int) -> TableDraw:
        """The table for hand ``seed``: a pure function of the seed."""
        rng = np.random.default_rng((seed, 77))
        size = self.sizes[int(rng.integers(len(self.sizes)))]
        fps = float(self.fps[int(rng.integers(len(self.fps)))])
        if not self.held_out:
            return TableDraw(size, fps, self.max_tilt_deg, self.frame_in_cards, "tuning", 0, 0.0, (1.0, 1.0, 1.0), False)
        cast = tuple(float(x) for x in rng.uniform(0.85, 1.12, 3))
        return TableDraw(size, fps, self.max_tilt_deg, self.frame_in_cards, str(rng.choice(CLOTHS)),
                         int(rng.integers(35, 85)), float(rng.choice([0.0, 0.0, rng.uniform(1.5, 4.0)])), cast, True)


TUNING = World("tuning", ((640, 480),), (20.0,), 35.0, (4.2, 4.2), held_out=False)
HELD_OUT = World("held-out", ((640, 480), (800, 600), (1280, 720), (1920, 1080)), (10.0, 15.0, 20.0, 25.0, 30.0),
                 40.0, (4.0, 6.0), held_out=True)
WORLDS = {w.name: w for w in (TUNING, HELD_OUT)}


# --------------------------------------------------------------------------- reprinted faces
def reprint(pack: dict[str, np.ndarray], seed: int) -> dict[str, np.ndarray]:
    """The same pack as another printer would make it: its index redrawn (another place, size, colour,
    or white in a coloured disc), perhaps a border, faded ink, a paper tone, wear. One style per pack."""
    rng = np.random.default_rng((seed, 5))
    style = {"disc": bool(rng.random() < 0.4), "size": float(rng.uniform(0.10, 0.15)),
             "x": float(rng.uniform(0.03, 0.09)), "y": float(rng.uniform(0.02, 0.10)),
             "border": bool(rng.random() < 0.5), "fade": float(rng.uniform(0.0, 0.3)),
             "paper": rng.uniform(225, 255, 3), "wear": float(rng.uniform(0.0, 0.02)),
             "border_colour": tuple(int(x) for x in rng.integers(0, 200, 3))}
    return {code: (face if code == BACK else _reprint_face(code, face, style, rng)) for code, face in pack.items()}


def _reprint_face(code: str, face: np.ndarray, style: dict, rng: np.random.Generator) -> np.ndarray:
    h, w = face.shape[:2]
    img = face.astype(np.float32)
    white = img.mean(axis=2) > 200
    img[white] = style["paper"]  # the paper's tone
    img = img + style["fade"] * (style["paper"] - img)  # faded ink
    out = Image.fromarray(np.clip(img, 0, 255).astype(np.uint8))
    d = ImageDraw.Draw(out)
    paper = tuple(int(x) for x in style["paper"])
    for flip in (False, True):
        for side in (0, 1):  # blank the printed index in each corner, then draw another
            x0 = int(w * 0.02) if side == 0 else int(w * 0.80)
            box = (x0, int(h * 0.015), x0 + int(w * 0.18), int(h * 0.15))
            if flip:
                box = (w - box[2], h - box[3], w - box[0], h - box[1])
            d.rectangle(box, fill=paper)
    ink = (200, 20, 30) if code[1] in RED else (20, 20, 20)
    corner = _index(code, int(style["size"] * h), ink, style["disc"])
    x, y = int(style["x"] * w), int(style["y"] * h)
    turned = corner.rotate(180)
    for pos in ((x, y), (w - x - corner.width, y)):  # both top corners, and turned in the bottom ones
        out.paste(corner, pos, corner)
        out.paste(turned, (w - pos[0] - corner.width, h - pos[1] - corner.height), turned)
    if style["border"]:
        d = ImageDraw.Draw(out)
        m = int(0.035 * w)
        d.rounded_rectangle((m, m, w - 1 - m, h - 1 - m), radius=m, outline=style["border_colour"], width=2)
    arr = np.asarray(out).astype(np.float32)
    if style["wear"] > 0:  # specks and scuffs
        spots = rng.random((h, w)) < style["wear"]
        arr[spots] = arr[spots] * 0.3 + 0.7 * np.array(paper, np.float32)
    return np.clip(arr, 0, 255).astype(np.uint8)


def _index(code: str, px: int, ink: tuple[int, int, int], disc: bool) -> Image.Image:
    text = INDEX_TEXT.get(code[0], code[0])
    font = ImageFont.load_default(size=max(8, px))
    probe = ImageDraw.Draw(Image.new("RGBA", (1, 1)))
    l, t, r, b = probe.textbbox((0, 0), text, font=font)
    pad = max(2, px // 6)
    img = Image.new("RGBA", (r - l + 2 * pad, b - t + 2 * pad), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    if disc:  # white index inside a coloured disc, as some packs print it in the pip
        d.ellipse((0, 0, img.width - 1, img.height - 1), fill=ink + (255,))
        d.text((pad - l, pad - t), text, font=font, fill=(255, 255, 255, 255))
    else:
        d.text((pad - l, pad - t), text, font=font, fill=ink + (255,))
    return img


# --------------------------------------------------------------------------- the camera
def webcam(img: np.ndarray, draw: TableDraw, rng: np.random.Generator) -> np.ndarray:
    """White balance, motion blur and JPEG as a cheap webcam adds them (uint8 RGB in and out)."""
    if draw.cast != (1.0, 1.0, 1.0):
        img = np.clip(img.astype(np.float32) * np.array(draw.cast, np.float32), 0, 255).astype(np.uint8)
    if draw.motion_blur > 0:
        k = max(3, int(round(draw.motion_blur)) | 1)
        kernel = np.zeros((k, k), np.float32)
        kernel[k // 2, :] = 1 / k
        rot = cv2.getRotationMatrix2D((k / 2, k / 2), float(rng.uniform(0, 180)), 1)
        img = cv2.filter2D(img, -1, cv2.warpAffine(kernel, rot, (k, k)))
    if draw.jpeg:
        ok, buf = cv2.imencode(".jpg", img[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, draw.jpeg])
        img = cv2.imdecode(buf, cv2.IMREAD_COLOR)[..., ::-1].copy()
    return img


# --------------------------------------------------------------------------- still scenes
def held_out_scenes(n: int, seed: int = HELD_OUT_SEED, props_rate: float = 0.0) -> Iterator:
    """Still scenes (datasets.scenes.Scene) of the held-out world: its cloths, frame sizes, tilts,
    webcam and reprinted Swiss packs, the cards laid as the scene generator lays them (``props_rate``:
    with props among them, datasets.props)."""
    for i in range(n):
        s = seed + i
        draw = HELD_OUT.draw(s)
        packs = {name: reprint(scanned_pack(name), s) for name in SCANNED_PACKS}
        opts = SceneOptions(size=draw.size, portrait_rate=0.0, max_tilt_deg=draw.max_tilt_deg, cloth=draw.cloth,
                            props_rate=props_rate)
        scene = render_scene(s, packs, opts)
        scene.image = webcam(scene.image, draw, np.random.default_rng((s, 9)))
        yield scene


# --------------------------------------------------------------------------- a card laid to be taught
def capture_frame(face: np.ndarray, seed: int) -> np.ndarray:
    """A frame of the held-out table ``seed`` with ``face`` alone on it near the middle, as a table
    lays a card on the trump spot when it teaches its pack: that table's camera, cloth, light and webcam."""
    draw = HELD_OUT.draw(seed)
    rng = np.random.default_rng((seed, 11))
    w, h = draw.size
    hom = camera(rng, draw.size, math.radians(rng.uniform(0, draw.max_tilt_deg)), h / rng.uniform(*draw.frame_in_cards))
    img = cloth(draw.cloth, np.random.default_rng((seed, 3)), draw.size)
    quad = project(hom, card_plane_quad(*rng.uniform(-0.6, 0.6, 2), rng.uniform(-0.4, 0.4),
                                        face.shape[1] / face.shape[0]))
    paste_face(img, face if rng.random() < 0.5 else face[::-1, ::-1], quad, rng)
    img = np.clip(light(img, rng), 0, 255).astype(np.uint8)
    return webcam(img, draw, np.random.default_rng((seed, 9)))
