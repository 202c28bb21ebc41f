"""The corner stage: the window around a box, the corners' order in it, and fitting boxes to cards."""

import cv2
import numpy as np
import pytest

from vision.recognize import corners
from vision.recognize.corners import BASE, GROW, SIZE, convex_quad, from_window, matched_corners, to_window, window
from vision.recognize.geometry import quad_iou

BOX = cv2.boxPoints(((200.0, 150.0), (60.0, 90.0), 20.0)).astype(np.float32)


def test_a_point_goes_into_the_window_and_back_to_where_it_was():
    pts = np.float32([[190, 140], [230, 120], [205, 200]])
    assert np.allclose(from_window(BOX, to_window(BOX, pts)), pts, atol=1e-3)


def test_the_window_is_the_box_grown_about_its_centre():
    w = window(BOX)
    assert np.allclose(w.mean(axis=0), BOX.mean(axis=0), atol=1e-3)
    assert cv2.contourArea(w) == pytest.approx(cv2.contourArea(BOX) * GROW ** 2, rel=1e-3)


def test_a_card_lying_exactly_in_its_box_has_the_box_s_own_corners_in_the_window():
    assert np.allclose(matched_corners(BOX, BOX), BASE, atol=1e-4)


def test_the_card_s_corners_are_numbered_as_the_box_s_whichever_corner_the_card_starts_at():
    card = BOX + np.float32([[3, -2], [-1, 4], [2, 2], [-3, 1]])
    first = matched_corners(BOX, card)
    for k in range(1, 4):
        assert np.allclose(matched_corners(BOX, np.roll(card, k, axis=0)), first)
    assert np.linalg.norm(first - BASE, axis=1).max() < 0.05


def test_a_card_outline_goes_round_clockwise_and_a_crossed_or_mirrored_one_is_no_outline():
    square = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
    assert convex_quad(square)
    assert not convex_quad(square[::-1])  # counter-clockwise: mirrored
    assert not convex_quad(square[[0, 1, 3, 2]])  # crossed
    assert not convex_quad(np.float32([[0, 0], [1, 0], [2, 0], [0, 1]]))  # three corners in a line


class FakeCorners:
    """A corner session answering the corners it is given, for every window."""

    def __init__(self, answer: np.ndarray) -> None:
        self.answer = np.float32(answer)
        self.runs: list[int] = []

    def get_inputs(self):
        return [type("I", (), {"name": "windows"})()]

    def run(self, _, feed):
        self.runs.append(len(feed["windows"]))
        return [np.repeat(self.answer[None], len(feed["windows"]), axis=0)]


def refiner(answer: np.ndarray, passes: int = 1):
    from dataclasses import replace

    from vision.recognize import FRAME
    from vision.recognize.recognizer import Recognizer

    r = Recognizer.__new__(Recognizer)
    r.corners, r.settings = FakeCorners(answer), replace(FRAME, corner_passes=passes)
    return r


def test_a_box_is_moved_onto_the_corners_the_network_finds():
    image = np.zeros((300, 400, 3), np.uint8)
    card = BOX + np.float32([[4, -3], [-2, 5], [3, 3], [-4, 2]])
    [got] = refiner(matched_corners(BOX, card)).refine(image, [BOX])
    assert np.allclose(got, np.roll(card, -int(np.argmin(np.linalg.norm(card - got[0], axis=1))), axis=0), atol=0.05)
    assert quad_iou(got, card) > 0.99


def test_a_loose_box_is_fitted_to_the_card_although_the_fit_meets_the_box_at_only_about_half():
    image = np.zeros((300, 400, 3), np.uint8)
    centre = BOX.mean(axis=0)
    card = centre + (BOX - centre) * 0.72  # the box holds the card and as much again around it
    assert 0.45 < quad_iou(card, BOX) < 0.6
    [got] = refiner(matched_corners(BOX, card)).refine(image, [BOX])
    assert quad_iou(got, card) > 0.99


@pytest.mark.parametrize("answer", [BASE[[0, 1, 3, 2]], BASE * 0.2], ids=["crossed corners", "far from the box"])
def test_a_box_stays_as_found_where_the_network_gives_no_card_outline_near_it(answer):
    image = np.zeros((300, 400, 3), np.uint8)
    [got] = refiner(answer).refine(image, [BOX])
    assert np.array_equal(got, BOX)


def test_a_corner_network_trained_for_another_window_is_refused(tmp_path, monkeypatch):
    from vision.recognize import recognizer as recognize
    from vision.recognize.recognizer import CORNERS, _corner_session

    monkeypatch.setattr(corners, "GROW", GROW + 0.1)
    with pytest.raises(ValueError, match="grow"):
        _corner_session(CORNERS, 1)
    monkeypatch.setattr(corners, "GROW", GROW)
    assert recognize.corner_stage.SIZE == SIZE
    _corner_session(CORNERS, 1)


def test_each_look_of_the_corner_network_is_one_run_for_all_the_boxes():
    image = np.zeros((300, 400, 3), np.uint8)
    r = refiner(BASE, passes=2)
    got = r.refine(image, [BOX, BOX + 100])
    assert r.corners.runs == [2, 2]
    assert all(quad_iou(g, b) > 0.999 for g, b in zip(got, [BOX, BOX + 100]))  # answering its own box: a fixed point
