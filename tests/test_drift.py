"""A camera moved under zones drawn on its picture is noticed (vision.table.drift); a still one never."""

import cv2
import numpy as np

from vision.table.drift import Drift
from vision.table.settings import DRIFT

ZONES = np.array([[100, 100], [200, 100], [200, 200], [100, 200], [400, 250], [500, 250], [500, 350]], np.float32)


def table_picture(seed: int = 3) -> np.ndarray:
    """A table with things on it that keypoints can hold on to (a wood grain, cups, a book's edges)."""
    rng = np.random.default_rng(seed)
    img = np.full((480, 640, 3), 90, np.uint8)
    for _ in range(60):
        x, y = (int(v) for v in rng.integers(0, [640, 480]))
        cv2.rectangle(img, (x, y), (x + int(rng.integers(10, 60)), y + int(rng.integers(10, 60))),
                      tuple(int(c) for c in rng.integers(0, 255, 3)), -1)
    return cv2.GaussianBlur(img, (3, 3), 0)


def watch(frames, t0: float = 0.0):
    d, warnings = Drift(ZONES), []
    for k, img in enumerate(frames):
        warnings.append(d.update(img, t0 + k * DRIFT.every))
    return d, warnings


def test_a_still_camera_is_never_warned_of_though_a_card_is_laid_and_a_hand_passes():
    img = table_picture()
    frames = []
    for k in range(12):
        f = img.copy()
        cv2.rectangle(f, (300, 200 + 5 * k), (360, 290 + 5 * k), (250, 250, 250), -1)  # a card slid along
        if k % 3 == 0:
            cv2.circle(f, (320, 240), 90, (150, 110, 80), -1)  # a hand over the table
        frames.append(f)
    _, warnings = watch(frames)
    assert not any(warnings)


def test_a_camera_moved_is_noticed_after_a_few_looks_and_says_to_draw_the_zones_again():
    img = table_picture()
    move = np.float32([[1, 0, 30], [0, 1, 18]])  # about 4.5 % of the diagonal
    frames = [img] * 3 + [cv2.warpAffine(img, move, (640, 480), borderMode=cv2.BORDER_REFLECT)] * 6
    d, warnings = watch(frames)
    assert not any(warnings[:3 + DRIFT.persist - 1])
    assert warnings[-1] and "draw the zones again" in warnings[-1].text and 0.04 < d.shift < 0.06
    assert warnings[-1].code == "moved" and warnings[-1].values == {"percent": round(100 * d.shift)}


def test_a_camera_put_back_clears_the_warning():
    img = table_picture()
    moved = cv2.warpAffine(img, np.float32([[1, 0, 30], [0, 1, 18]]), (640, 480), borderMode=cv2.BORDER_REFLECT)
    _, warnings = watch([img] + [moved] * 5 + [img] * 2)
    assert warnings[5] and warnings[-1] is None


def test_a_plain_cloth_with_nothing_to_match_says_nothing():
    plain = np.full((480, 640, 3), (34, 104, 62), np.uint8)
    moved = plain.copy()
    _, warnings = watch([plain] * 3 + [moved] * 6)
    assert not any(warnings)
