"""The fourth stage: each card read again from its four corners, where the indices are printed.

The classifier reads a crop of the whole outline. A card half under others fills most of that
crop with the cards on it, and it was read right only about two times in three (cards less than
60 % in view on the generated scenes), although nearly all of them show a corner: a trick pile
and a fanned hand hide the middle of a card, not its index. So a small network looks at each of a
card's four corner patches and gives the card it shows there, or ``none`` (covered, no index,
a card's back). Its reads are evidence multiplied into the classifier's
(:func:`combine`), each corner counting as far as it is sure the patch shows a card at all.

The patches and their order are defined here once, for the training crops
(:mod:`datasets.index_crops`) and for the table (:class:`vision.recognize.recognizer.Recognizer`).
"""

from __future__ import annotations

import cv2
import numpy as np

from .geometry import order_quad

SIZE = 48  # each corner patch is cut to SIZE x SIZE pixels
SHARE = 0.3  # a patch's share of the card's width and of its height: the index and some margin for the fit
NONE = "none"  # the class of a patch that shows no card's index
UNIT = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
# A patch at the card's top left or top right, in the card's own [0, 1] square.
PATCH = {side: (UNIT * SHARE + (u, 0)).astype(np.float32) for side, u in (("left", 0.0), ("right", 1 - SHARE))}


def patch(image: np.ndarray, quad: np.ndarray, side: str) -> np.ndarray:
    """The SIZE x SIZE patch at the top ``side`` corner of the card whose corners are ``quad``
    (clockwise from the top left of the face, as the card lies)."""
    to_image = cv2.getPerspectiveTransform(UNIT, np.asarray(quad, np.float32))
    corners = cv2.perspectiveTransform(PATCH[side][None], to_image)[0]
    to_patch = cv2.getPerspectiveTransform(corners, UNIT * (SIZE - 1))
    return cv2.warpPerspective(image, to_patch, (SIZE, SIZE), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


def corner_patches(image: np.ndarray, quad: np.ndarray, ordered: bool = False) -> list[np.ndarray]:
    """The card's four corner patches, each turned so its corner is on top: top left, top right,
    bottom right, bottom left (the last two turned half round, as the card's other end up).

    ``ordered``: ``quad`` is already the face's corners in order (training, from the truth); else
    it is put in :func:`order_quad`'s order, whose top end is either of the card's."""
    q = np.asarray(quad, np.float32) if ordered else order_quad(quad)
    turned = q[[2, 3, 0, 1]]
    return [patch(image, q, "left"), patch(image, q, "right"), patch(image, turned, "left"), patch(image, turned, "right")]


def combine(whole: np.ndarray, corners: np.ndarray, names: list[str], corner_names: list[str]) -> np.ndarray:
    """The classifier's probabilities (over ``names``) with four corners' reads (each over
    ``corner_names``) multiplied in.

    A corner's read, given that it shows a card, counts against a uniform guess (a factor 1 for
    a patch that tells nothing), raised to the power of how sure it is that it shows one: a covered
    corner or one without an index leaves the classifier's read as it is. Classes the corner
    network does not know (``back``) keep their probability; the result sums to 1."""
    codes = [n for n in corner_names if n != NONE]
    at = [corner_names.index(c) for c in codes]
    shown = 1.0 - corners[:, corner_names.index(NONE)]  # per corner: how sure it shows a card
    given = corners[:, at] / np.maximum(corners[:, at].sum(axis=1, keepdims=True), 1e-9)
    evidence = (shown[:, None] * np.log(np.maximum(given * len(codes), 1e-9))).sum(axis=0)
    log = np.log(np.maximum(whole, 1e-12))
    for code, e in zip(codes, evidence):
        if code in names:
            log[names.index(code)] += e
    out = np.exp(log - log.max())
    return (out / out.sum()).astype(np.float32)
