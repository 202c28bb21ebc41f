"""Ordering card corners and cutting upright crops."""

import math

import cv2
import numpy as np
import pytest

from vision.recognize.geometry import (box_cover, box_iou, box_under, crosswise, elongation, order_quad, quad_within,
                                       rect_within, rectify, sideways)


def rect(cx, cy, w, h, deg):
    return cv2.boxPoints(((cx, cy), (w, h), deg)).astype(np.float32)


@pytest.mark.parametrize("deg", [0, 17, 45, 89, 90, 133, 180, 271])
def test_corners_come_clockwise_with_the_long_side_vertical(deg):
    q = order_quad(rect(200, 150, 60, 90, deg))
    short = np.linalg.norm(q[1] - q[0])
    long = np.linalg.norm(q[2] - q[1])
    assert short < long
    signed = sum(q[i, 0] * q[(i + 1) % 4, 1] - q[(i + 1) % 4, 0] * q[i, 1] for i in range(4))
    assert signed > 0  # clockwise in image coordinates: never mirrored


@pytest.mark.parametrize("deg", [0, 17, 45, 89, 133, 271])
def test_corners_are_ordered_the_same_whichever_order_they_come_in(deg):
    q = rect(200, 150, 60, 90, deg)
    first = order_quad(q)
    for shuffled in (q[::-1], q[[2, 0, 3, 1]], np.roll(q, 1, axis=0)):
        assert np.array_equal(order_quad(shuffled), first)


def test_the_top_end_of_an_ordered_card_is_its_end_nearer_the_top_of_the_picture():
    q = order_quad(rect(200, 150, 60, 90, 10))
    assert q[0, 1] + q[1, 1] < q[2, 1] + q[3, 1]


def test_rectify_returns_the_card_upright_or_upside_down_never_mirrored():
    face = np.zeros((90, 60, 3), np.uint8)
    face[:30, :20] = (255, 0, 0)  # a red mark in the top-left corner
    canvas = np.full((300, 300, 3), 40, np.uint8)
    angle = math.radians(30)
    src = np.float32([[0, 0], [59, 0], [59, 89], [0, 89]])
    c, s = math.cos(angle), math.sin(angle)
    dst = (src - [30, 45]) @ np.float32([[c, s], [-s, c]]) + [150, 150]
    m = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
    cv2.warpPerspective(face, m, (300, 300), canvas, borderMode=cv2.BORDER_TRANSPARENT)
    crop = rectify(canvas, dst, (60, 90))
    red = crop[..., 0] > 128
    ys, xs = np.nonzero(red)
    # the mark is in the top-left (upright) or bottom-right (turned) corner, not top-right (mirrored)
    assert (xs.mean() < 30 and ys.mean() < 45) or (xs.mean() > 30 and ys.mean() > 45)


def test_the_visible_part_of_a_covered_card_lies_within_its_box():
    card, corner = (100, 100, 160, 190), (120, 150, 160, 190)
    assert box_iou(card, corner) < 0.3
    assert box_cover(card, corner) == box_cover(corner, card) == 1.0
    assert box_cover(card, (160, 100, 220, 190)) == 0.0


def test_boxes_are_crosswise_when_their_long_sides_differ_by_more_than_45_degrees():
    card = ((100.0, 100.0), (40.0, 60.0), 10.0)
    assert crosswise(card, ((100.0, 100.0), (60.0, 40.0), 20.0))  # long sides 80 degrees apart
    assert not crosswise(card, ((100.0, 100.0), (40.0, 60.0), 40.0))  # fanned 30 degrees
    assert not crosswise(card, ((100.0, 100.0), (60.0, 40.0), -80.0))  # the same box, written the other way
    assert not crosswise(card, ((100.0, 100.0), (40.0, 60.0), 170.0))  # 160 degrees apart is 20 the other way


def test_the_share_of_an_oriented_box_inside_another():
    card = ((100.0, 100.0), (40.0, 60.0), 0.0)
    assert rect_within(card, card) == pytest.approx(1.0)
    assert rect_within(((100.0, 100.0), (60.0, 40.0), 0.0), card) == pytest.approx(40 * 40 / 2400)
    assert rect_within(((300.0, 100.0), (40.0, 60.0), 0.0), card) == 0.0


def test_the_share_of_an_outline_inside_another_turned_any_way():
    """A part of a card lies wholly in its outline; the same card turned 5 degrees on it, 0.956 within."""
    card = rect(0, 0, 56, 87, 40)
    assert quad_within(rect(0, 0, 50, 70, 40), card) == pytest.approx(1.0, abs=0.01)
    assert quad_within(rect(0, 0, 56, 87, 45), card) == pytest.approx(0.956, abs=0.002)
    assert quad_within(rect(200, 0, 56, 87, 0), card) == 0.0


def test_a_box_under_several_others_is_the_share_their_union_covers():
    box = (0, 0, 10, 10)
    assert box_under(box, [(0, 0, 5, 10), (5, 0, 10, 5)]) == pytest.approx(0.75)
    assert box_under(box, [(0, 0, 5, 10), (0, 0, 5, 10)]) == pytest.approx(0.5)  # the union, not the sum
    assert box_under(box, []) == 0.0


@pytest.mark.parametrize("deg", [0, 30, 90, 145])
def test_how_much_longer_than_wide_an_outline_is_does_not_depend_on_how_it_lies(deg):
    assert elongation(rect(200, 150, 60, 90, deg)) == pytest.approx(1.5, rel=1e-3)
    assert elongation(rect(200, 150, 90, 60, deg)) == pytest.approx(1.5, rel=1e-3)


def test_an_outline_turned_sideways_starts_with_a_long_side_and_stays_clockwise():
    q = sideways(rect(200, 150, 60, 90, 20))
    assert np.linalg.norm(q[1] - q[0]) == pytest.approx(90, rel=1e-3)
    signed = sum(q[i, 0] * q[(i + 1) % 4, 1] - q[(i + 1) % 4, 0] * q[i, 1] for i in range(4))
    assert signed > 0  # never mirrored
