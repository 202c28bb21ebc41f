"""Detector output -> oriented boxes in image pixels: letterbox mapping and rotated NMS."""

import cv2
import numpy as np
import pytest

from vision.recognize.corners import SAME_CARD
from dataclasses import replace

from vision.recognize import FRAME, PHOTO
from vision.recognize.recognizer import Detection, Recognizer, letterbox
from vision.recognize.recognizer import cut_by_edge, frame_box, one_per_outline


class FakeSession:
    def __init__(self, out):
        self.out = out

    def get_inputs(self):
        return [type("I", (), {"name": "images", "shape": [1, 3, 320, 320]})()]

    def run(self, _names, _feeds):
        return [self.out]


def recognizer_with(out):
    r = object.__new__(Recognizer)
    r.corners = None  # the boxes as found
    r.index = None  # the classifier alone
    r.det, r.det_size = FakeSession(out), 320
    r.settings = replace(FRAME, conf=0.35, fit_input=False)
    r.fit_input = False  # the fake output is the exported square's
    return r


def test_letterbox_keeps_the_aspect_and_centres_the_picture():
    img = np.zeros((480, 640, 3), np.uint8)
    out, r, (left, top) = letterbox(img, 320)
    assert out.shape == (320, 320, 3) and r == 0.5 and (left, top) == (0, 40)


def test_a_box_the_detector_is_unsure_of_is_a_card_where_the_classifier_reads_it_surely():
    sure, unsure = [[0.9, 0.1]], [[0.6, 0.4]]
    assert [d.card for d in reads_of([(((200, 200), (60, 90), 0.0), 0.2)], sure, conf=0.35)] == ["Ad"]
    assert reads_of([(((200, 200), (60, 90), 0.0), 0.2)], unsure, conf=0.35) == []
    assert [d.card for d in reads_of([(((200, 200), (60, 90), 0.0), 0.5)], unsure, conf=0.35)] == ["Ad"]


def test_boxes_under_the_floor_are_not_looked_at():
    dets = np.array([[160, 160, 40, 60, 0.9, 0.0], [50, 100, 40, 60, 0.2, 0.0], [250, 200, 30, 50, 0.1, 0.0]],
                    np.float32)
    r = recognizer_with(dets.T[None])
    r.settings = replace(r.settings, floor=0.15)
    assert sorted(round(float(s), 2) for _, s in r.detect_cards(np.zeros((480, 640, 3), np.uint8))) == [0.2, 0.9]


def test_photos_read_boxes_under_the_threshold_and_camera_frames_do_not():
    assert PHOTO.floor < PHOTO.conf and FRAME.floor is None
    assert Recognizer(views=2).settings.low == PHOTO.floor and Recognizer().settings.low == FRAME.conf


def test_boxes_map_back_to_the_frame_and_overlaps_are_suppressed():
    # columns: cx cy w h score angle; two near-identical boxes and one below threshold
    dets = np.array([[160, 160, 40, 60, 0.9, 0.3], [161, 160, 40, 60, 0.8, 0.3],
                     [50, 100, 40, 60, 0.2, 0.0], [250, 200, 30, 50, 0.7, 0.0]], np.float32)
    r = recognizer_with(dets.T[None])
    found = r.detect_cards(np.zeros((480, 640, 3), np.uint8))
    assert len(found) == 2
    (q1, s1), (q2, s2) = sorted(found, key=lambda t: -t[1])
    assert s1 == np.float32(0.9)
    assert np.allclose(q1.mean(axis=0), [320, 240], atol=1)  # (160, 160 - 40) / 0.5
    assert np.allclose(q2.mean(axis=0), [500, 320], atol=1)


def test_in_a_photo_a_card_lying_almost_as_the_card_under_it_keeps_its_box():
    """Cards thrown into one pile lie nearly on one another: these two boxes meet at IoU 0.63, and
    at the NMS overlap of 0.5 the box of the card on top went with the bolder one of the card under
    it (on the live table's pile, seed 15, a 7d on a 6h)."""
    dets = np.array([[150, 160, 60, 90, 0.84, np.radians(10)], [160, 152, 60, 90, 0.73, np.radians(30)]], np.float32)
    r = recognizer_with(dets.T[None])
    r.settings = replace(r.settings, nms_iou=PHOTO.nms_iou)
    found = r.detect_cards(np.zeros((480, 640, 3), np.uint8))
    assert sorted(round(float(s), 2) for _, s in found) == [0.73, 0.84]


def test_camera_frames_keep_the_stricter_nms_for_the_live_table():
    """At 0.7 the strip of a covered card in a trick pile is boxed, and read as a card never laid."""
    assert Recognizer().settings.nms_iou == FRAME.nms_iou < Recognizer(views=2).settings.nms_iou == PHOTO.nms_iou


def reads_of(boxes, probs, conf=0.0):
    """A recognizer whose detector finds ``boxes`` (rotated rects, score) and whose classifier
    gives the rows of ``probs`` over (Ad, Kd), in that order; boxes scoring under ``conf`` are cards
    only if read at ``read_sure`` or more."""
    r = object.__new__(Recognizer)
    r.settings = replace(FRAME, conf=conf, floor=0.0, second_look=0.0)
    r.corners = None  # the boxes as found
    r.index = None  # the classifier alone
    r.names, r.back, r._cache = ["Ad", "Kd"], None, []
    r.detect_cards = lambda rgb: [(cv2.boxPoints(rect).astype(np.float32), score) for rect, score in boxes]
    r.classify = lambda crops: np.array(probs[:len(crops)])
    return r(np.zeros((480, 640, 3), np.uint8))


def test_a_box_lying_across_a_card_and_mostly_within_it_is_no_card():
    """Beside the stock the detector may box the card's middle and a strip of the back crosswise:
    rotated NMS keeps it (crossed card boxes overlap at IoU < 0.5), and its crop reads as another card."""
    card, across = ((320, 240), (80, 128), 20.0), ((322, 246), (128, 80), 20.0)
    found = reads_of([(card, 0.8), (across, 0.6)], [[0.95, 0.05], [0.1, 0.9]])
    assert [d.card for d in found] == ["Ad"]


def test_of_two_crossed_boxes_on_one_card_the_better_read_stays_whatever_the_detector_scored():
    # a card at 45 degrees boxed along and across: the box across it scored higher, its crop reads worse
    along, across = ((320, 240), (128, 80), -45.0), ((326, 250), (80, 128), -49.0)
    found = reads_of([(across, 0.86), (along, 0.82)], [[0.45, 0.55], [0.05, 0.95]])
    assert len(found) == 1 and found[0].card == "Kd" and found[0].detector_score == pytest.approx(0.82)


def test_the_lower_of_two_crossed_cards_stays_while_much_of_it_is_in_view():
    upper, lower = ((320, 240), (80, 128), 0.0), ((370, 240), (128, 80), 0.0)  # half of the lower one sticks out
    found = reads_of([(upper, 0.8), (lower, 0.6)], [[0.95, 0.05], [0.1, 0.9]])
    assert sorted(d.card for d in found) == ["Ad", "Kd"]


def test_a_box_the_classifier_names_back_is_no_card_in_view():
    """The stock lies face down beside the upcard: its box must not become the card it looks most like."""
    r = object.__new__(Recognizer)
    r.corners = None  # the boxes as found
    r.index = None  # the classifier alone
    r.names, r.back, r._cache = ["Ad", "Ah", "back"], 2, []
    r.settings = replace(FRAME, second_look=0.0, conf=0.35)
    quad = np.array([[100, 100], [160, 100], [160, 190], [100, 190]], np.float32)
    r.detect_cards = lambda rgb: [(quad, 0.9), (quad + 200, 0.8)]
    reads = iter([np.array([0.3, 0.1, 0.6]), np.array([0.2, 0.7, 0.1])])
    r.classify = lambda crops: np.array([next(reads) for _ in crops])
    found = r(np.zeros((480, 640, 3), np.uint8))
    assert [d.card for d in found] == ["Ah"]
    assert [c for c, _ in found[0].alternatives] == ["Ad"]


def test_a_card_cut_by_the_edge_of_the_picture_is_boxed_where_it_is_in_view():
    quad = np.array([[-30, 100], [60, 100], [60, 230], [-30, 230]], np.float32)  # a third lies left of the frame
    assert frame_box(quad, 640, 480) == (0.0, 100.0, 60.0, 230.0)
    r = object.__new__(Recognizer)
    r.corners = None  # the boxes as found
    r.index = None  # the classifier alone
    r.names, r.back, r._cache = ["Ad", "Ah"], None, []
    r.settings = replace(FRAME, second_look=0.0, conf=0.35)
    r.detect_cards = lambda rgb: [(quad, 0.9)]
    r.classify = lambda crops: np.array([[0.8, 0.2]] * len(crops))
    (card,) = r(np.zeros((480, 640, 3), np.uint8))
    assert card.box == (0.0, 100.0, 60.0, 230.0)
    assert card.corners[0] == (-30.0, 100.0)  # the outline still holds the whole card
    assert card.cut  # the stabilizer waits longer before it takes such a card as lying still


def test_a_card_lying_inside_the_picture_is_not_cut_and_one_touching_its_edge_is():
    inside = np.array([[100, 100], [190, 100], [190, 230], [100, 230]], np.float32)
    assert not cut_by_edge(inside, 640, 480)
    assert cut_by_edge(inside + (0, 249), 640, 480)  # its lower edge 1 px above the picture's


def test_an_outline_wholly_outside_the_picture_gets_an_empty_box_on_its_edge_not_an_inverted_one():
    left = np.array([[-90, 100], [-30, 100], [-30, 190], [-90, 190]], np.float32)
    below = left + (300, 500)
    assert frame_box(left, 640, 480) == (0.0, 100.0, 0.0, 190.0)
    assert frame_box(below, 640, 480) == (210.0, 480.0, 270.0, 480.0)


def classifier_by_corner(seen):
    """A classifier that reads a crop by its top-left corner: 6h if it is white, else 9h, unsure."""
    def classify(crops):
        seen.extend(c.copy() for c in crops)
        return np.array([[0.6, 0.4] if c[0, 0, 0] == 255 else [0.2, 0.8] for c in crops])
    return classify


def test_an_unsure_read_is_read_again_with_the_card_s_other_end_up_and_the_two_averaged():
    r, seen = object.__new__(Recognizer), []
    r.settings, r.classify = replace(FRAME, second_look=0.9), classifier_by_corner(seen)
    crop = np.zeros((96, 96, 3), np.uint8)
    crop[:8, :8] = 255  # the index corner on top
    assert np.allclose(r.read([crop]), [[0.4, 0.6]])
    assert len(seen) == 2 and seen[1][-1, -1, 0] == 255  # the second look had that corner at the bottom


def test_a_sure_read_gets_no_second_look():
    r, seen = object.__new__(Recognizer), []
    r.settings = replace(FRAME, second_look=0.9)
    r.classify = lambda crops: seen.extend(crops) or np.array([[0.95, 0.05]] * len(crops))
    assert np.allclose(r.read([np.zeros((96, 96, 3), np.uint8)]), [[0.95, 0.05]]) and len(seen) == 1


def _read(card, conf, rect):
    corners = [(float(x), float(y)) for x, y in cv2.boxPoints(rect)]
    xs, ys = zip(*corners)
    return Detection(card, conf, (min(xs), min(ys), max(xs), max(ys)), corners)


def test_two_boxes_fitted_to_one_card_s_outline_are_one_card_the_surer_read():
    """A box along a card and one across it both survive the detector's NMS; the corner fit moves
    both onto the card, and the copy must not become a second card lying there."""
    along = _read("Td", 0.72, ((470, 190), (80, 110), 5.0))
    copy = _read("7h", 0.65, ((471, 191), (80, 109), 5.5))
    assert [d.card for d in one_per_outline([copy, along], SAME_CARD)] == ["Td"]


def test_cards_fanned_close_side_by_side_stay_two_cards_after_the_fit():
    """Fanned cards a quarter of a card's width apart meet at IoU 0.6, which is why the second NMS
    takes only outlines that all but coincide, unless both name the same card."""
    left = _read("Td", 0.7, ((300, 200), (80, 120), 0.0))
    right = _read("9s", 0.9, ((320, 200), (80, 120), 0.0))
    assert [d.card for d in one_per_outline([left, right], SAME_CARD, FRAME.same_read)] == ["9s", "Td"]


def test_a_box_along_part_of_a_card_read_as_that_card_is_the_same_card():
    """A pack has each card once. The detector's NMS lets a box along three quarters of a card
    through (IoU 0.75 with the card's box), and the fit leaves it short of the card's outline."""
    whole = _read("Td", 0.8, ((300, 200), (80, 120), 0.0))
    part = _read("Td", 0.5, ((300, 215), (80, 90), 0.0))
    kept = one_per_outline([part, whole], SAME_CARD, FRAME.same_read)
    assert [(d.card, d.confidence) for d in kept] == [("Td", 0.8)]
