"""The outline's last step: each fitted side snapped onto the card's edge where the picture shows it."""

import cv2
from dataclasses import replace

import numpy as np

from vision.recognize.edges import edge_image, snap_all

CARD = np.float32([[212.3, 101.6], [318.9, 118.2], [296.4, 262.7], [189.8, 246.1]])  # a tilted card, clockwise
UP = 8  # drawn this many times finer and shrunk, so its edges lie between pixels where CARD says


def table(*cards: np.ndarray, table_grey: int = 60, card_grey: int = 235, size=(480, 640)) -> np.ndarray:
    """A plain table with light cards on it, each edge exactly where its outline says."""
    big = np.full((size[0] * UP, size[1] * UP), table_grey, np.uint8)
    for card in cards:
        cv2.fillPoly(big, [np.round((card + 0.5) * UP - 0.5).astype(np.int32)], card_grey)
    grey = cv2.resize(big, (size[1], size[0]), interpolation=cv2.INTER_AREA)
    return np.repeat(grey[..., None], 3, axis=2)


def snap(gray: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """One outline snapped, as the recognizer snaps a frame's."""
    return snap_all(gray, [quad])[0]


def moved(quad: np.ndarray, side: int, by: float) -> np.ndarray:
    """``quad`` with one side moved outwards by ``by`` pixels (inwards if negative)."""
    q = np.float64(quad).copy()
    a, b = q[side], q[(side + 1) % 4]
    out = np.array([b[1] - a[1], a[0] - b[0]]) / np.linalg.norm(b - a)
    if np.dot((a + b) / 2 - q.mean(axis=0), out) < 0:
        out = -out
    q[side] += by * out
    q[(side + 1) % 4] += by * out
    return q.astype(np.float32)


def test_sides_fitted_a_pixel_or_two_off_are_snapped_onto_the_card_s_edges():
    fitted = moved(moved(moved(CARD, 0, 1.7), 1, -1.3), 2, 0.8)
    got = snap(edge_image(table(CARD)), fitted)
    assert np.abs(got - CARD).max() < 0.3
    assert np.abs(fitted - CARD).max() > 1.5


def test_a_side_the_picture_does_not_show_keeps_the_fitted_line():
    # a sheet as light as the card lies against its right side: no step from card to table there
    sheet = np.float32([[318.9, 118.2], [420.0, 134.0], [400.0, 280.0], [296.4, 262.7]])
    fitted = moved(moved(CARD, 1, 1.5), 3, 1.5)
    got = snap(edge_image(table(CARD, sheet)), fitted)
    right_before = fitted[[1, 2]]
    right_after = got[[1, 2]]
    # the right side stays on the fitted line (its corners slide along it as the other sides snap)
    a, b = right_before
    normal = np.array([b[1] - a[1], a[0] - b[0]]) / np.linalg.norm(b - a)
    assert np.abs((right_after - a) @ normal).max() < 0.05
    # the left side, which shows, is snapped
    assert np.abs(got[[3, 0]] - CARD[[3, 0]]).max() < 0.3


def test_an_outline_in_a_picture_with_no_edges_stays_as_it_is():
    fitted = moved(CARD, 0, 2.0)
    assert np.array_equal(snap(edge_image(np.zeros((480, 640, 3), np.uint8)), fitted), fitted)


def test_a_pen_lying_across_part_of_a_side_does_not_pull_the_side_onto_its_edge():
    a, b = CARD[0], CARD[1]
    along = (b - a) / np.linalg.norm(b - a)
    up = np.float32([along[1], -along[0]])  # outwards from the top side
    image = table(CARD)
    big = cv2.resize(image, None, fx=UP, fy=UP, interpolation=cv2.INTER_NEAREST)
    start, end = a + 0.05 * (b - a) - 6 * up, a + 0.4 * (b - a) + 4 * up  # slanting over the side
    cv2.line(big, *[tuple(int(v) for v in np.round((p + 0.5) * UP - 0.5)) for p in (start, end)], (20, 20, 20), 5 * UP)
    image = cv2.resize(big, (640, 480), interpolation=cv2.INTER_AREA)
    got = snap(edge_image(image), moved(CARD, 0, 1.5))
    assert np.abs(got[[0, 1]] - CARD[[0, 1]]).max() < 0.3


def test_the_recognizer_reports_the_snapped_outline_but_leaves_a_box_the_fit_did_not_take():
    from vision.recognize import FRAME
    from vision.recognize.recognizer import Recognizer

    r = Recognizer.__new__(Recognizer)
    r.corners, r.settings = object(), replace(FRAME, snap_edges=True)
    image = table(CARD)
    box = CARD + np.float32([[-6, -6], [6, -6], [6, 6], [-6, 6]])
    fitted = moved(CARD, 0, 1.5)
    snapped, kept = r.snap(image, [box, box], [fitted, box])
    assert np.abs(snapped - CARD).max() < 0.3
    assert np.array_equal(kept, box)
    r.settings = FRAME
    assert np.array_equal(r.snap(image, [box], [fitted])[0], fitted)


def test_a_photo_s_outlines_are_snapped_and_a_camera_frame_s_are_not_unless_asked():
    from vision.recognize.recognizer import Recognizer

    assert Recognizer(views=2).settings.snap_edges
    assert not Recognizer().settings.snap_edges
    assert Recognizer(snap_edges=True).settings.snap_edges
