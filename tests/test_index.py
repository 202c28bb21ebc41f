"""The index stage: a card's four corner patches, and how their reads join the classifier's."""

import numpy as np
import pytest

from datasets.index_crops import as_card, patches_of_scene
from datasets.scenes import PlacedCard, Scene
from vision.recognize.index import NONE, SIZE, combine, corner_patches

NAMES = ["Ah", "Kh", "back"]  # the classifier's classes
CORNER_NAMES = ["Ah", "Kh", NONE]  # the index network's


def corners_reading(*rows):
    return np.float32(rows)


def test_a_corner_that_shows_no_card_leaves_the_classifiers_read_as_it_is():
    whole = np.float32([0.6, 0.3, 0.1])
    covered = corners_reading(*[[0.0, 0.0, 1.0]] * 4)
    assert np.allclose(combine(whole, covered, NAMES, CORNER_NAMES), whole)


def test_a_corner_that_cannot_tell_two_cards_apart_leaves_the_read_as_it_is():
    whole = np.float32([0.6, 0.3, 0.1])
    no_index = corners_reading(*[[0.5, 0.5, 0.0]] * 4)
    assert np.allclose(combine(whole, no_index, NAMES, CORNER_NAMES), whole)


def test_one_sure_index_outweighs_an_unsure_read_of_the_whole_card():
    whole = np.float32([0.55, 0.4, 0.05])  # the classifier leans to Ah
    corners = corners_reading([0.02, 0.95, 0.03], [0.0, 0.0, 1.0], [0.0, 0.0, 1.0], [0.0, 0.0, 1.0])
    out = combine(whole, corners, NAMES, CORNER_NAMES)
    assert NAMES[int(np.argmax(out))] == "Kh"
    assert out.sum() == pytest.approx(1.0)


def test_a_sure_read_of_the_whole_card_survives_an_unsure_corner():
    whole = np.float32([0.97, 0.02, 0.01])
    corners = corners_reading([0.3, 0.6, 0.1], [0.0, 0.0, 1.0], [0.0, 0.0, 1.0], [0.0, 0.0, 1.0])
    assert NAMES[int(np.argmax(combine(whole, corners, NAMES, CORNER_NAMES)))] == "Ah"


def test_a_face_down_card_stays_a_back_when_its_corners_show_no_index():
    whole = np.float32([0.1, 0.05, 0.85])
    covered = corners_reading(*[[0.01, 0.01, 0.98]] * 4)
    assert NAMES[int(np.argmax(combine(whole, covered, NAMES, CORNER_NAMES)))] == "back"


def card_with_coloured_corners():
    """A 200 x 200 grey picture with a white card whose corners are red, green, blue, yellow
    (top left, top right, bottom right, bottom left)."""
    image = np.full((200, 200, 3), 100, np.uint8)
    image[20:140, 50:130] = 255
    for (y, x), colour in zip(((20, 50), (20, 120), (130, 120), (130, 50)),
                              ((255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0))):
        image[y:y + 10, x:x + 10] = colour
    return image, np.float32([[50, 20], [130, 20], [130, 140], [50, 140]])


def corner_colour(patch, side):
    """The colour at a patch's top left or top right."""
    x = 2 if side == "left" else SIZE - 3
    return tuple(int(v) for v in patch[2, x])


def test_each_corner_patch_has_its_corner_on_top_and_the_far_end_is_turned_half_round():
    image, quad = card_with_coloured_corners()
    patches = corner_patches(image, quad)
    assert [p.shape for p in patches] == [(SIZE, SIZE, 3)] * 4
    assert corner_colour(patches[0], "left") == (255, 0, 0)
    assert corner_colour(patches[1], "right") == (0, 255, 0)
    assert corner_colour(patches[2], "left") == (0, 0, 255)  # bottom right, turned: now top left
    assert corner_colour(patches[3], "right") == (255, 255, 0)  # bottom left, turned: now top right


def test_the_patches_of_a_card_do_not_depend_on_which_corner_its_outline_starts_at():
    image, quad = card_with_coloured_corners()
    first = corner_patches(image, quad)
    again = corner_patches(image, np.roll(quad, 1, axis=0))
    assert all(np.array_equal(a, b) for a, b in zip(first, again))


def test_training_patches_are_named_by_the_card_where_shown_none_where_covered_and_left_out_between():
    image, quad = card_with_coloured_corners()
    card = PlacedCard("Kh", "swiss-french", quad, visible=0.8, corners_shown=(1.0, 0.1, 0.45, 0.9))
    _, names = patches_of_scene(Scene(image, [card]), np.random.default_rng(0))
    assert sorted(names) == ["Kh", "Kh", NONE]


def test_a_face_down_cards_patches_are_all_named_none():
    image, quad = card_with_coloured_corners()
    _, names = patches_of_scene(Scene(image, [PlacedCard("back", "swiss-french", quad)]), np.random.default_rng(0))
    assert names == [NONE] * 4


def test_a_card_hardly_in_view_gives_no_training_patches():
    image, quad = card_with_coloured_corners()
    card = PlacedCard("Kh", "swiss-french", quad, visible=0.05)
    assert patches_of_scene(Scene(image, [card]), np.random.default_rng(0)) == ([], [])


def test_a_fitted_outline_is_started_at_the_corner_where_the_card_s_face_starts():
    _, quad = card_with_coloured_corners()
    fitted = np.roll(quad + np.float32([[2, -1], [1, 2], [-2, 1], [0, -2]]), 3, axis=0)  # starts at another corner
    started = as_card(fitted, quad)
    assert np.linalg.norm(started - quad, axis=1).max() < 3


def test_patches_at_fitted_outlines_are_cut_there_and_named_by_what_the_card_shows_at_each_corner():
    image, quad = card_with_coloured_corners()
    card = PlacedCard("Kh", "swiss-french", quad, visible=0.8, corners_shown=(1.0, 0.1, 0.45, 0.9))
    fitted = np.roll(quad, 2, axis=0)  # the fit found the outline, starting at the other end
    patches, names = patches_of_scene(Scene(image, [card]), np.random.default_rng(0), {0: fitted})
    assert sorted(names) == ["Kh", "Kh", NONE]
    red_on_top = [corner_colour(p, "left") == (255, 0, 0) for p in patches]
    assert red_on_top.count(True) == 1 and names[red_on_top.index(True)] == "Kh"  # the top left corner, in view


def test_a_card_no_fitted_outline_matches_gives_no_patches_at_fitted_outlines():
    image, quad = card_with_coloured_corners()
    card = PlacedCard("Kh", "swiss-french", quad, visible=0.8)
    assert patches_of_scene(Scene(image, [card]), np.random.default_rng(0), {}) == ([], [])


def test_a_corner_patch_counts_as_shown_where_its_card_is_on_top_and_not_beyond_the_picture():
    from datasets.scenes import shown_within

    ids = np.full((100, 100), -2, np.int16)
    ids[:, :50] = 0  # card 0 covers the left half
    assert shown_within(ids, 0, np.float32([[10, 10], [30, 10], [30, 30], [10, 30]])) == pytest.approx(1.0, abs=0.05)
    assert shown_within(ids, 0, np.float32([[40, 0], [60, 0], [60, 20], [40, 20]])) == pytest.approx(0.5, abs=0.1)
    assert shown_within(ids, 0, np.float32([[-30, 10], [-10, 10], [-10, 30], [-30, 30]])) == 0.0


class FakeIndex:
    """An index session answering the same read for every patch, counting its runs."""

    def __init__(self, answer) -> None:
        self.answer = np.float32(answer)
        self.runs: list[int] = []

    def get_inputs(self):
        return [type("I", (), {"name": "patches"})()]

    def run(self, _, feed):
        self.runs.append(len(feed["patches"]))
        return [np.repeat(self.answer[None], len(feed["patches"]), axis=0)]


def reader(index_answer, whole):
    from vision.recognize.recognizer import Recognizer

    r = Recognizer.__new__(Recognizer)
    r.index, r.names, r.index_names = FakeIndex(index_answer), NAMES, CORNER_NAMES
    r.read = lambda crops: np.repeat(np.float32(whole)[None], len(crops), axis=0)
    return r


def test_all_corner_patches_of_a_frames_cards_are_read_in_one_run():
    image, quad = card_with_coloured_corners()
    r = reader([0.0, 0.0, 1.0], [0.6, 0.3, 0.1])
    probs = r.read_cards(image, [quad, quad + 5, quad - 5])
    assert r.index.runs == [12]
    assert np.allclose(probs, [[0.6, 0.3, 0.1]] * 3)


def test_the_cards_corners_change_the_read_the_recognizer_gives():
    image, quad = card_with_coloured_corners()
    probs = reader([0.05, 0.9, 0.05], [0.6, 0.3, 0.1]).read_cards(image, [quad])
    assert NAMES[int(np.argmax(probs[0]))] == "Kh"


def test_a_card_the_classifier_is_sure_of_is_not_read_again_from_its_corners():
    from vision.recognize import FRAME

    image, quad = card_with_coloured_corners()
    sure = [FRAME.index_unsure, (1 - FRAME.index_unsure) / 2, (1 - FRAME.index_unsure) / 2]
    r = reader([0.05, 0.9, 0.05], sure)
    probs = r.read_cards(image, [quad, quad + 5])
    assert r.index.runs == []
    assert np.allclose(probs, [sure] * 2)


def test_only_the_cards_the_classifier_is_unsure_of_are_read_from_their_corners():
    image, quad = card_with_coloured_corners()
    r = reader([0.05, 0.9, 0.05], [0.6, 0.3, 0.1])
    r.read = lambda crops: np.float32([[0.6, 0.3, 0.1], [0.9995, 0.0004, 0.0001]])
    probs = r.read_cards(image, [quad, quad + 5])
    assert r.index.runs == [4]
    assert NAMES[int(np.argmax(probs[0]))] == "Kh" and np.allclose(probs[1], [0.9995, 0.0004, 0.0001])


def test_an_index_network_trained_on_other_patches_is_refused(monkeypatch):
    from vision.recognize import index
    from vision.recognize.models import INDEX
    from vision.recognize.recognizer import _index_session

    monkeypatch.setattr(index, "SHARE", index.SHARE + 0.05)
    with pytest.raises(ValueError, match="share"):
        _index_session(INDEX, 1)
    monkeypatch.undo()
    _index_session(INDEX, 1)


def test_a_patch_set_cut_at_the_shipped_models_fitted_outlines_is_written_with_the_cards_names(tmp_path):
    from datasets.art import CLASS_NAMES
    from datasets.index_crops import build
    from vision.recognize import CORNERS

    out = tmp_path / "patches.npz"
    n = build(out, 2, seed=5, workers=1, progress=False, corners=CORNERS)
    data = np.load(out)
    assert n == len(data["names"]) > 0
    assert data["patches"].shape == (n, SIZE, SIZE, 3)
    assert set(data["names"]) <= set(CLASS_NAMES) | {NONE} and set(data["names"]) & set(CLASS_NAMES)
