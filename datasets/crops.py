"""Close-up classifier crops: one card rendered as the table camera would see it, cut out as
the detector would cut it.

A whole scene yields about three usable crops in 0.2 s; a close-up yields one in a few
milliseconds, from the same table, camera, lamp, shadow, finger and JPEG model
(:mod:`datasets.scenes`), so the classifier can see tens of thousands of cards on a CPU. The
card is often partly under or over its neighbours, as in a trick pile.
"""

from __future__ import annotations

import math

import numpy as np

from vision.recognize import BACK
from vision.recognize.geometry import min_area_quad, rectify

from .art import varied_back
from .prints import vary_print
from .scenes import (
    _area,
    _sane,
    camera,
    camera_effects,
    card_plane_quad,
    choose_pack,
    draw_hand,
    light,
    paste_card,
    project,
    table,
    visible_fraction,
)

MIN_VISIBLE = 0.75  # a crop of a mostly covered card would teach the classifier to guess


def render_card_crop(seed: int, packs: dict[str, dict[str, np.ndarray]], code: str,
                     max_tilt_deg: float = 60.0, print_rate: float = 0.0) -> np.ndarray | None:
    """The upright classifier crop of card ``code`` from a random pack, or None if it came out
    covered beyond :data:`MIN_VISIBLE` (the caller draws again). ``print_rate``: how often the card
    is another print of it (:func:`datasets.prints.vary_print`)."""
    rng = np.random.default_rng(seed)
    prints = np.random.default_rng([seed, 5])  # its own stream: without prints a seed draws what it drew before
    pack = packs[choose_pack(rng, packs)]
    card_px = float(np.exp(rng.uniform(np.log(45), np.log(260))))
    side = int(min(640, max(160, card_px * rng.uniform(1.8, 2.6))))
    size = (side, side)
    hom = camera(rng, size, math.radians(rng.uniform(0, max_tilt_deg)), card_px)
    img = table(rng, size)
    ids = np.full((side, side), -2, np.int16)
    others = [c for c in pack if c not in (BACK, code)]
    n_under, n_over = int(rng.integers(0, 3)), int(rng.choice([0, 0, 1, 2]))
    target = None
    for k in range(n_under + 1 + n_over):
        is_target = k == n_under
        name = code if is_target else (BACK if rng.random() < 0.1 else str(rng.choice(others)))
        art = pack[name]
        if is_target and name == BACK and rng.random() < 0.5:
            art = varied_back(int(rng.integers(2**31)))  # backs of every colour, not just this pack's
        elif is_target and name != BACK and prints.random() < print_rate:
            art = vary_print(art, prints)
        face = art[::-1, ::-1] if rng.random() < 0.5 else art  # a card has no fixed top
        off = (0.0, 0.0) if is_target else tuple(rng.normal(0, 0.45, 2))
        quad = project(hom, card_plane_quad(off[0], off[1], rng.uniform(0, 2 * math.pi),
                                            face.shape[1] / face.shape[0]))
        if not _sane(quad, side, side):
            if is_target:
                return None
            continue
        paste_card(img, ids, face, quad, k, rng)
        if is_target:
            target = (k, quad)
    if target is None:
        return None
    if rng.random() < 0.25:
        draw_hand(img, ids, rng)
    k, quad = target
    if visible_fraction(ids, k, quad) < MIN_VISIBLE:
        return None
    return detector_crop(camera_effects(light(img, rng), rng), quad, rng)


def detector_crop(image: np.ndarray, quad: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The classifier crop of the card outlined by ``quad``, cut as the detector would: its
    minimum-area box, the corners jittered by 2 % of the card's size."""
    jitter = rng.normal(0, 0.02 * math.sqrt(_area(quad)), (4, 2))
    return rectify(image, (min_area_quad(quad) + jitter).astype(np.float32))
