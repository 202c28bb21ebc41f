"""A folder of photos, one card each, named by card code (``Ah.jpg``, ``6d.png``, ``10h.jpeg``), as a
phone takes them: each checked and captured, each problem named with its file and card."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import cv2

from engine.cards import CardError, card

from .captures import Capture, CaptureError, capture
from .packs import Pack
from .settings import TEACH, TeachSettings

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff"}


@dataclass
class PhotoRead:
    captures: list[Capture] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def code_of(stem: str, pack: Pack) -> str:
    """The engine's code a file's name gives (``ah`` and ``10h`` too; ``Weli`` in the Tell pack)."""
    if pack.name == "tell-33" and stem.lower() == "weli":
        return "6d"
    token = stem.strip()
    try:
        return card(token[:-1].upper() + token[-1:].lower()).code  # AH, ah, 10H: the rank and the suit
    except CardError:
        raise ValueError(f"{stem!r} is not a card code (name each photo by its card: Ah.jpg, 6d.png, 10h.jpg)") \
            from None


def read_photos(folder: Path, pack: Pack, recognizer, settings: TeachSettings = TEACH) -> PhotoRead:
    """Every image in ``folder`` captured or refused with its reason; a folder of another pack is refused whole."""
    if not folder.is_dir():
        raise FileNotFoundError(f"no folder {folder}")
    files = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    if not files:
        raise ValueError(f"no pictures in {folder} (looked for {', '.join(sorted(IMAGE_SUFFIXES))})")
    out, named = PhotoRead(), {}
    for path in files:
        try:
            code = code_of(path.stem, pack)
        except ValueError as exc:
            out.problems.append(f"{path.name}: {exc}")
            continue
        if code not in pack.codes:
            out.problems.append(f"{path.name}: the {pack.title} pack has no {code}")
            continue
        if code in named:
            out.problems.append(f"{path.name}: {pack.card_name(code)} ({code}) again, after {named[code]}; "
                                "one photo per card: the second is left out")
            continue
        named[code] = path.name
    outside = sum("pack has no" in p for p in out.problems)
    if outside > len(files) // 2:
        raise ValueError(f"{outside} of the {len(files)} pictures in {folder} name cards the {pack.title} pack "
                         "does not have: a folder of another pack? Nothing was taught")
    for code, name in named.items():
        bgr = cv2.imread(str(folder / name), cv2.IMREAD_COLOR)
        if bgr is None:
            out.problems.append(f"{name}: {pack.card_name(code)} ({code}): the file cannot be read as a picture")
            continue
        try:
            out.captures.append(capture(bgr[..., ::-1].copy(), code, recognizer, settings))
        except CaptureError as exc:
            out.problems.append(f"{name}: {pack.card_name(code)} ({exc})")
    return out
