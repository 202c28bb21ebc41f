"""Which found card lies on which (vision.recognize.layers), and each card's part in view."""

import cv2
import numpy as np
import pytest

from vision.recognize.edges import edge_image, edge_window
from vision.recognize.geometry import box_iou
from vision.recognize.layers import REACH, edge_share, on_top, sides_shown, stacking, visible_box
from vision.recognize.recognizer import Detection, Recognizer

LOWER = np.float32([[200, 100], [320, 100], [320, 280], [200, 280]])  # clockwise from the top left
UPPER = LOWER + np.float32([60, 0])  # fanned: slid half a card to the right, over the lower one


def table(*cards: tuple[np.ndarray, int], size=(480, 640)) -> np.ndarray:
    """A dark table with cards laid in the order given (each later one on the earlier), each of its
    own shade, so an upper card's sides show over the face below as real cards' borders do."""
    grey = np.full(size, 50, np.uint8)
    for quad, shade in cards:
        cv2.fillPoly(grey, [np.round(quad * 8).astype(np.int32)], shade, shift=3)
    return np.repeat(grey[..., None], 3, axis=2)


def test_the_upper_card_s_sides_show_over_the_lower_card_and_the_lower_s_are_hidden():
    gray = edge_image(table((LOWER, 200), (UPPER, 240)))
    assert edge_share(gray, UPPER, LOWER) > 0.9
    assert edge_share(gray, LOWER, UPPER) < 0.1


def test_the_card_laid_last_lies_on_top():
    picture = table((LOWER, 200), (UPPER, 240))
    assert on_top(edge_image(picture), UPPER, LOWER) is True
    assert on_top(edge_image(picture), LOWER, UPPER) is False
    assert stacking(picture, [LOWER, UPPER]) == [(1,), ()]


def test_laid_the_other_way_round_the_other_card_lies_on_top():
    picture = table((UPPER, 240), (LOWER, 200))
    assert stacking(picture, [LOWER, UPPER]) == [(), (0,)]


def test_two_outlines_on_a_picture_that_shows_no_edges_get_no_order():
    assert stacking(np.zeros((480, 640, 3), np.uint8), [LOWER, UPPER]) == [(), ()]


def test_two_cards_of_one_shade_overlapping_get_no_order():
    # the face below is as light as the one above: no edge tells them apart, so no guess is made
    assert stacking(table((LOWER, 230), (UPPER, 230)), [LOWER, UPPER]) == [(), ()]


def test_cards_apart_are_never_compared():
    apart = LOWER + np.float32([200, 0])
    assert stacking(table((LOWER, 200), (apart, 240)), [LOWER, apart]) == [(), ()]


def test_an_outline_crossing_the_other_card_too_little_gives_no_evidence():
    touching = LOWER + np.float32([118, 0])  # 2 pixels over the lower card's right side
    assert edge_share(edge_image(table((LOWER, 200), (touching, 240))), touching, LOWER) is None


@pytest.mark.parametrize("shift", [(0, 0), (-230, -130), (370, 250), (-330, 0), (0, 450), (700, 0)])
def test_which_card_lies_on_which_is_read_from_a_window_round_them_as_from_the_whole_picture(shift):
    # a grainy picture, the two cards anywhere, partly or wholly beyond its edges: the window's shares
    # are the whole picture's, to the last bit, so greying less of a large frame changes no decision
    lower, upper = LOWER + np.float32(shift), UPPER + np.float32(shift) + np.float32([0.37, 0.61])
    noise = np.random.default_rng(7).integers(0, 60, (480, 640, 3), dtype=np.uint8)
    picture = cv2.add(table((lower, 200), (upper, 240)), noise)
    whole = edge_image(picture)
    window, origin = edge_window(picture, [lower, upper], REACH)
    assert window.shape[0] * window.shape[1] < whole.size
    for a, b in ((upper, lower), (lower, upper)):
        assert edge_share(window, a, b, origin) == edge_share(whole, a, b)


def test_the_part_in_view_of_a_fanned_card_is_the_strip_the_upper_card_leaves():
    assert visible_box(LOWER, [UPPER], 640, 480) == (200.0, 100.0, 260.0, 280.0)


def test_a_band_of_the_lower_card_showing_past_the_upper_card_s_side_is_in_view():
    # the upper card's top side runs a pixel under the lower card's: a band of the lower card shows
    upper = UPPER + np.float32([[0, 1], [0, 1], [0, 0], [0, 0]])
    assert visible_box(LOWER, [upper], 640, 480) == (200.0, 100.0, 320.0, 280.0)


def test_a_band_thinner_than_the_sliver_asked_for_is_opened_away():
    upper = UPPER + np.float32([[0, 1], [0, 1], [0, 0], [0, 0]])
    assert visible_box(LOWER, [upper], 640, 480, sliver=3) == (200.0, 100.0, 260.0, 280.0)


def test_the_part_in_view_is_within_the_picture():
    cut = LOWER + np.float32([-250, 0])  # half off the left edge
    assert visible_box(cut, [], 640, 480) == (0.0, 100.0, 70.0, 280.0)


def test_a_card_wholly_covered_has_no_part_in_view():
    larger = np.float32([[190, 90], [330, 90], [330, 290], [190, 290]])
    assert visible_box(LOWER, [larger], 640, 480) is None


def test_a_detection_keeps_its_whole_box_as_its_part_in_view_unless_told_otherwise():
    d = Detection("Ah", 0.9, (1.0, 2.0, 3.0, 4.0), [(1, 2), (3, 2), (3, 4), (1, 4)])
    assert d.visible == d.box and d.under == ()
    assert d.to_dict()["visible"] == [1.0, 2.0, 3.0, 4.0] and d.to_dict()["under"] == []


@pytest.fixture(scope="module")
def recognizer():
    return Recognizer()


def fanned(lower: str, upper: str) -> list[Detection]:
    """Two reads as the recognizer makes them, surest first: ``upper`` on UPPER, ``lower`` on LOWER."""
    box = lambda q: tuple(float(v) for v in (*q.min(axis=0), *q.max(axis=0)))  # noqa: E731
    return [Detection(upper, 0.9, box(UPPER), UPPER.tolist()), Detection(lower, 0.8, box(LOWER), LOWER.tolist())]


def test_the_recognizer_boxes_a_card_under_another_by_its_strip_and_says_which_lies_on_it(recognizer):
    found = recognizer.stack(table((LOWER, 200), (UPPER, 240)), fanned("Qh", "9d"))
    upper, lower = found
    assert lower.under == (0,) and upper.under == ()
    assert lower.visible == (200.0, 100.0, 260.0, 280.0) and lower.box == (200.0, 100.0, 320.0, 280.0)
    assert upper.visible == upper.box
    # what the real photos' labels box for such a card: the strip, which the whole box misses
    strip_label = (200.0, 100.0, 258.0, 280.0)
    assert box_iou(lower.visible, strip_label) > 0.9 and box_iou(lower.box, strip_label) < 0.5


def test_the_recognizer_leaves_every_box_whole_where_the_picture_does_not_say(recognizer):
    found = recognizer.stack(table((LOWER, 230), (UPPER, 230)), fanned("Qh", "9d"))
    assert all(d.visible == d.box and d.under == () for d in found)


THROWN = LOWER + np.float32([9, 8])  # thrown onto the lower card, almost as it lay (outline IoU 0.79)


def test_a_card_under_one_thrown_onto_it_still_shows_its_free_sides():
    gray = edge_image(table((LOWER, 200), (THROWN, 240)))
    assert sides_shown(gray, LOWER, [THROWN]) > 0.9


def test_where_no_card_lies_any_more_the_outline_shows_no_sides():
    # the card was read anew after it slid: where it was named, only the table shows
    gray = edge_image(table((THROWN, 240)))
    assert sides_shown(gray, LOWER, [THROWN]) < 0.1


def test_an_outline_whose_sides_the_cards_in_view_all_but_cover_gives_no_evidence():
    settled = LOWER + np.float32([2, 1])  # the same card, a pixel or two from where it was named
    gray = edge_image(table((settled, 240)))
    assert sides_shown(gray, LOWER, [settled]) is None


def test_sides_beyond_the_picture_give_no_evidence_either_way():
    beyond = LOWER + np.float32([-260, 0])  # mostly left of the picture; only its right side is in it
    gray = edge_image(table((beyond, 200)))
    assert sides_shown(gray, beyond, []) == pytest.approx(1.0)
    assert sides_shown(edge_image(table()), beyond + np.float32([-70, 0]), []) is None
