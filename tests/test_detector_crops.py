"""Classifier crops cut at the detector's own boxes (datasets.detector_crops)."""

import numpy as np
import pytest

import datasets.detector_crops as dc
from datasets.detector_crops import crops_of, crops_of_scene
from datasets.scenes import PlacedCard, Scene


class BoxesAt:
    """A detector that reports the given quads."""

    def __init__(self, quads):
        self.quads = quads

    def detect_cards(self, image):
        return [(np.float32(q), 0.9) for q in self.quads]

    def refine(self, image, quads):  # no corner fit
        return quads


class FittedTo(BoxesAt):
    """A detector whose boxes a corner fit moves onto the given outlines."""

    def __init__(self, quads, fitted):
        super().__init__(quads)
        self.fitted = fitted

    def refine(self, image, quads):
        return [np.float32(f) for f in self.fitted]


def card_at(code, x, y, visible=1.0):
    quad = np.float32([[x, y], [x + 60, y], [x + 60, y + 90], [x, y + 90]])
    return PlacedCard(code, "swiss-french", quad, visible)


def image_with(color_at):
    img = np.zeros((240, 320, 3), np.uint8)
    for (x, y), color in color_at.items():
        img[y:y + 90, x:x + 60] = color
    return img


def test_a_crop_is_cut_at_the_detectors_box_under_the_name_of_the_card_it_matches():
    img = image_with({(20, 20): (255, 0, 0), (200, 100): (0, 0, 255)})
    cards = [card_at("Ah", 20, 20), card_at("6s", 200, 100)]
    shifted = cards[1].quad + np.float32([6, 4])  # the detector's box is a little off
    crops = crops_of_scene(img, cards, BoxesAt([cards[0].quad, shifted]))
    assert sorted(code for code, _ in crops) == ["6s", "Ah"]
    blue = dict(crops)["6s"]
    assert blue.shape[:2] == (96, 96) and blue[..., 2].mean() > blue[..., 0].mean()


def test_with_a_corner_fit_the_crop_is_cut_at_the_fitted_outline():
    img = image_with({(200, 100): (0, 0, 255)})
    cards = [card_at("6s", 200, 100)]
    loose = cards[0].quad + np.float32([[-30, -30], [30, -30], [30, 30], [-30, 30]])  # IoU 0.35 with the card
    assert crops_of_scene(img, cards, BoxesAt([loose])) == []
    crops = crops_of_scene(img, cards, FittedTo([loose], [cards[0].quad]))
    assert [code for code, _ in crops] == ["6s"] and crops[0][1][..., 2].mean() > 220  # all card, hardly any table


def test_a_box_matching_no_card_gives_no_crop():
    cards = [card_at("Ah", 20, 20)]
    elsewhere = card_at("Ah", 200, 100).quad
    assert crops_of_scene(image_with({}), cards, BoxesAt([elsewhere])) == []


def test_a_card_less_than_half_in_view_gives_no_crop():
    cards = [card_at("Ah", 20, 20, visible=0.4)]
    assert crops_of_scene(image_with({}), cards, BoxesAt([cards[0].quad])) == []


def test_a_box_on_a_face_down_card_is_cut_under_back():
    """The detector's boxes on the stock teach the classifier's back class what it must leave out."""
    cards = [card_at("Ah", 20, 20), card_at("back", 200, 100)]
    scene = Scene(image_with({(20, 20): (255, 0, 0), (200, 100): (0, 0, 255)}), cards)
    crops = crops_of(scene, BoxesAt([c.quad for c in cards]))
    assert sorted(code for code, _ in crops) == ["Ah", "back"]


def test_the_crop_jobs_lay_their_scenes_out_in_the_shares_asked(monkeypatch, tmp_path):
    """Crops of fanned cards at the detector's boxes need scenes fanned as often as asked."""
    seen = []
    monkeypatch.setattr(dc, "packs_of", lambda groups: {})
    monkeypatch.setattr(dc, "render_scene", lambda seed, packs, opts: seen.append(opts.layouts) or Scene(
        np.zeros((240, 320, 3), np.uint8)))
    monkeypatch.setattr(dc, "_recognizer", BoxesAt([]))
    assert dc._job((str(tmp_path), "train", 0, 24, ("drawn",), (0.0, 0.0, 0.0, 1.0))) == 0
    assert seen == [(0.0, 0.0, 0.0, 1.0)]


def test_the_crop_command_refuses_layout_shares_that_are_not_four_or_five_weights(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_:
        dc.main([str(tmp_path / "out"), "--layouts", "1,2"])
    assert exit_.value.code == 2 and "four or five weights" in capsys.readouterr().err
