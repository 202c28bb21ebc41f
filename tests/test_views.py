"""Two detector views of one frame, as it is and turned a quarter, fused into one list of boxes."""

import cv2
import numpy as np
import pytest

from vision.recognize.geometry import order_quad
from vision.recognize import RecognizerSettings
from vision.recognize.recognizer import Recognizer
from vision.recognize.views import fuse, turn, unturn


def quad(rect):
    return order_quad(cv2.boxPoints(rect))


def test_turning_a_frame_puts_each_pixel_a_quarter_round_clockwise():
    frame = np.arange(4 * 6 * 3, dtype=np.uint8).reshape(4, 6, 3)
    turned = turn(frame)
    assert turned.shape == (6, 4, 3)
    for y, x in [(0, 0), (1, 5), (3, 2)]:
        assert (turned[x, 4 - 1 - y] == frame[y, x]).all()


def test_a_box_found_in_the_turned_frame_lies_where_the_card_lies_in_the_frame():
    # a card 20 wide and 40 high with its centre at (30, 10) of a frame 50 high: turned, its centre
    # is at (50 - 10, 30) and it is 40 wide and 20 high
    rect = unturn(((40.0, 30.0), (40.0, 20.0), 0.0), 50)
    assert np.allclose(quad(rect), quad(((30.0, 10.0), (20.0, 40.0), 0.0)))


def test_a_card_both_views_find_scores_the_mean_of_its_two_scores():
    card = quad(((100, 100), (40, 60), 10.0))
    [(kept, score)] = fuse([[(card, 0.8)], [(card + 1.0, 0.6)]], threshold=0.25)
    assert score == pytest.approx(0.7)
    assert np.allclose(kept, card)  # the bolder view's outline


def test_a_box_one_view_alone_finds_counts_at_half_its_score():
    bold, faint = quad(((100, 100), (40, 60), 0.0)), quad(((300, 100), (40, 60), 0.0))
    found = fuse([[(bold, 0.6)], [(faint, 0.4)]], threshold=0.25)
    assert [s for _, s in found] == [pytest.approx(0.3)]


def test_two_boxes_of_one_view_are_never_fused_into_one_card():
    card = quad(((100, 100), (40, 60), 0.0))
    found = fuse([[(card, 0.9), (card + 2.0, 0.8)], []], threshold=0.25)
    assert len(found) == 2


def test_boxes_of_the_two_views_on_different_cards_stay_two_cards():
    a, b = quad(((100, 100), (40, 60), 0.0)), quad(((130, 100), (40, 60), 0.0))  # IoU 0.14
    found = fuse([[(a, 0.9)], [(b, 0.9)]], threshold=0.25)
    assert len(found) == 2


class TwoRuns:
    """A detector session whose output depends on the picture: a card upright or turned."""

    def __init__(self, upright, turned):
        self.upright, self.turned = upright, turned

    def get_inputs(self):
        return [type("I", (), {"name": "images", "shape": [1, 3, 320, 320]})()]

    def run(self, _names, feeds):
        x = feeds["images"]
        return [self.turned if x[0, 0, 0, 0] > 0.5 else self.upright]  # the test marks the turned picture


def test_a_recognizer_with_two_views_finds_a_card_once_in_frame_pixels(monkeypatch):
    # the card at (160, 160) of the 320 letterboxed square (frame (320, 240), scale 0.5, 40 px bars
    # above and below) lies at (160, 160) of the turned square too
    upright = np.array([[160, 160, 40, 60, 0.8, 0.0]], np.float32).T[None]
    turned = np.array([[160, 160, 60, 40, 0.6, 0.0]], np.float32).T[None]
    r = object.__new__(Recognizer)
    r.det, r.det_size = TwoRuns(upright, turned), 320
    r.settings = RecognizerSettings(views=2, conf=0.25, nms_iou=0.5, fit_input=False)

    def marked_turn(img):
        out = np.ascontiguousarray(np.rot90(img, -1))
        out[0, 0] = 255
        return out

    monkeypatch.setattr("vision.recognize.recognizer.turn", marked_turn)
    [(corners, score)] = r.detect_cards(np.zeros((480, 640, 3), np.uint8))
    assert score == pytest.approx(0.7)
    assert np.allclose(corners.mean(axis=0), [320, 240], atol=1)
    assert np.allclose(sorted(np.ptp(corners, axis=0)), [80, 120], atol=1)


def test_a_recognizer_takes_one_or_two_views_only():
    with pytest.raises(ValueError, match="views"):
        Recognizer(views=3)
