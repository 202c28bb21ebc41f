"""Covered cards completed from the table's plane: every card on the table is the same rectangle, in
one perspective."""

import math

import numpy as np
import pytest

from datasets.scenes import camera, card_plane_quad, project
from vision.recognize.plane import card_size, complete, fit_camera, hidden_corners, mapped, patch_order

SIZE = (640, 480)
ASPECT = 0.652  # a Swiss card's width over its height


def table_camera(tilt_deg: float = 40.0, seed: int = 3) -> np.ndarray:
    """A webcam tilted ``tilt_deg`` from looking straight down: table plane (card heights) -> pixels."""
    return camera(np.random.default_rng(seed), SIZE, math.radians(tilt_deg), 150.0)


def cards_on(hom: np.ndarray, poses: list[tuple[float, float, float]]) -> list[np.ndarray]:
    """The outlines of cards lying at ``poses`` (x, y, turn in the plane), as the picture shows them."""
    return [project(hom, card_plane_quad(x, y, rot, ASPECT)) for x, y, rot in poses]


POSES = [(-1.2, 0.3, 0.2), (0.0, 0.0, 1.1), (1.1, -0.2, 2.5), (0.3, 1.0, 0.7), (-0.4, -1.0, 1.9)]


def right_angles(m: np.ndarray, outline: np.ndarray) -> float:
    """The largest |cos| of the outline's corners in the plane ``m`` maps to (0 for a rectangle)."""
    p = mapped(m, np.float64(outline))
    side = np.roll(p, -1, 0) - p
    side /= np.linalg.norm(side, axis=1, keepdims=True)
    return float(np.abs((side * np.roll(side, 1, 0)).sum(1)).max())


def shortened(outline: np.ndarray, ends: tuple[int, int], by: float) -> np.ndarray:
    """``outline`` with the corners ``ends`` drawn back along their long sides by ``by`` of the side:
    what the corner network makes of a card whose far end lies under another."""
    q = np.float32(outline).copy()
    for k in ends:
        nb = (k - 1) % 4 if (k - 1) % 4 not in ends else (k + 1) % 4
        q[k] = q[k] + by * (q[nb] - q[k])
    return q


@pytest.mark.parametrize("tilt", [0.0, 25.0, 50.0])
def test_the_camera_is_found_from_the_right_angles_of_the_cards_in_view(tilt):
    cards = cards_on(table_camera(tilt), POSES)
    m = fit_camera(np.array(cards, float), np.zeros((len(cards), 4), bool), SIZE)
    assert max(right_angles(m, c) for c in cards) < 0.03


def test_every_card_has_the_same_size_in_the_plane():
    cards = cards_on(table_camera(45.0), POSES)
    m = fit_camera(np.array(cards, float), np.zeros((len(cards), 4), bool), SIZE)
    short, long = card_size(cards, np.zeros((len(cards), 4), bool), m)
    assert short / long == pytest.approx(ASPECT, rel=0.02)


def test_a_covered_card_s_hidden_end_is_slid_to_the_size_of_the_others():
    true = cards_on(table_camera(45.0), POSES)
    found = list(true)
    found[1] = shortened(true[1], (2, 3), 0.15)  # its far end under another card: seen 15 % short
    hidden = np.zeros((len(found), 4), bool)
    hidden[1, [2, 3]] = True
    done = complete(found, hidden, SIZE)
    assert np.abs(found[1] - true[1]).max() > 10
    assert np.abs(done[1] - true[1]).max() < 2.0


def test_a_card_with_three_corners_shown_gets_the_fourth_that_makes_it_a_rectangle():
    true = cards_on(table_camera(30.0), POSES)
    found = list(true)
    found[2] = true[2].copy()
    found[2][0] += np.float32([12, -9])  # its corner 0 under a hand, guessed off
    hidden = np.zeros((len(found), 4), bool)
    hidden[2, 0] = True
    assert np.abs(complete(found, hidden, SIZE)[2] - true[2]).max() < 2.0


def test_shown_corners_stay_where_they_are():
    true = cards_on(table_camera(45.0), POSES)
    found = list(true)
    found[1] = shortened(true[1], (2, 3), 0.15)
    hidden = np.zeros((len(found), 4), bool)
    hidden[1, [2, 3]] = True
    done = complete(found, hidden, SIZE)
    assert np.array_equal(done[1][[0, 1]], found[1][[0, 1]])
    assert all(np.array_equal(d, f) for d, f in zip(done[2:], found[2:]))


def test_with_no_corner_hidden_nothing_moves():
    found = [shortened(c, (2, 3), 0.1) for c in cards_on(table_camera(45.0), POSES)]
    done = complete(found, np.zeros((len(found), 4), bool), SIZE)
    assert all(np.array_equal(d, f) for d, f in zip(done, found))


def test_without_a_whole_short_and_long_side_in_view_the_size_is_unknown_and_nothing_moves():
    found = [shortened(cards_on(table_camera(45.0), POSES[:1])[0], (2, 3), 0.15)]
    hidden = np.array([[False, False, True, True]])  # only the short side 0-1 shows whole
    assert np.array_equal(complete(found, hidden, SIZE)[0], found[0])


def test_a_corner_is_hidden_where_the_index_network_sees_no_card_in_its_patch():
    card = cards_on(table_camera(20.0), POSES[:1])[0]
    roll = patch_order(card)
    none = np.array([[0.9, 0.1, 0.05, 0.3]])  # by patch: the first patch is of corner roll, and so on
    hidden = hidden_corners([card], none, threshold=0.2)[0]
    assert hidden.tolist() == np.roll([True, False, False, True], roll).tolist()
    turned = np.roll(card, 1, axis=0)  # the same outline listed from another corner
    assert np.roll(hidden_corners([turned], none, threshold=0.2)[0], -1).tolist() == hidden.tolist()


def test_a_photo_s_covered_cards_are_completed_and_a_camera_frame_s_are_not_unless_asked():
    from vision.recognize.recognizer import Recognizer

    assert Recognizer(views=2).settings.plane
    assert not Recognizer().settings.plane
    assert Recognizer(plane=True).settings.plane


def plane_reader(monkeypatch, second_read: list[float], moved: set[int]):
    """A recognizer without networks whose plane stage moves the cards ``moved`` by 5 px and whose
    second read of a card is ``second_read`` (over Ah, Kh, back)."""
    from vision.recognize import PHOTO, recognizer

    r = recognizer.Recognizer.__new__(recognizer.Recognizer)
    r.corners = r.index = object()
    r.settings = PHOTO
    r.names, r.index_names, r.back = ["Ah", "Kh", "back"], ["Ah", "Kh", "none"], 2
    r.read_corners = lambda rgb, outlines: np.zeros((len(outlines), 4, 3), np.float32)
    r.reread = []

    def read_cards(rgb, outlines):
        r.reread.extend(outlines)
        return np.float32([second_read] * len(outlines))

    r.read_cards = read_cards
    monkeypatch.setattr(recognizer.plane_stage, "complete",
                        lambda outlines, hidden, size: [o + 5 * (i in moved) for i, o in enumerate(outlines)])
    return r


def card_read(card: str, read: float, score: float = 0.8):
    from vision.recognize.recognizer import Detection

    return Detection(card, score * read, (10, 10, 60, 80), [(10, 10), (60, 10), (60, 80), (10, 80)], score,
                     [("Kh" if card == "Ah" else "Ah", 1 - read)])


def test_a_covered_card_the_plane_completed_is_read_again_there_and_takes_the_surer_read(monkeypatch):
    r = plane_reader(monkeypatch, [0.1, 0.9, 0.0], moved={0})
    first, other = card_read("Ah", 0.6), card_read("Ah", 0.6)
    r.complete(np.zeros((100, 100, 3), np.uint8), [first, other])
    assert len(r.reread) == 1 and np.allclose(r.reread[0][0], (15, 15))  # read at the completed outline
    assert first.card == "Kh" and first.confidence == pytest.approx(0.8 * 0.9)
    assert first.alternatives[0] == ("Ah", pytest.approx(0.1))
    assert other.card == "Ah"  # not moved: not read again


def test_a_second_read_less_sure_than_the_first_leaves_the_card_as_it_was_read(monkeypatch):
    r = plane_reader(monkeypatch, [0.3, 0.7, 0.0], moved={0})
    card = card_read("Ah", 0.8)
    r.complete(np.zeros((100, 100, 3), np.uint8), [card])
    assert card.card == "Ah" and card.confidence == pytest.approx(0.64)


def test_a_second_read_that_sees_a_card_s_back_names_the_likeliest_face_or_keeps_the_first():
    from vision.recognize.recognizer import Recognizer

    r = Recognizer.__new__(Recognizer)
    r.names, r.back, r.top_k = ["Ah", "Kh", "back"], 2, 3
    card = card_read("Ah", 0.5)
    r.take_surer(card, np.float32([0.1, 0.2, 0.7]))  # no face surer than the first read's
    assert card.card == "Ah"
