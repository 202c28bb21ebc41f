"""The detector run at a frame's own shape (vision.recognize.input_size): the same network, less grey padding."""

import numpy as np
import pytest

from datasets.art import all_packs
from datasets.scenes import SceneOptions, render_scene
from vision.recognize.geometry import quad_iou
from vision.recognize.input_size import anchor_points, detector_graph, fitting
from vision.recognize import CORNERS, DETECTOR
from vision.recognize.recognizer import Recognizer, letterbox


def test_a_landscape_webcam_frame_letterboxes_to_256_by_320_and_a_portrait_one_to_320_by_256():
    assert fitting(480, 640, 320) == (256, 320)
    assert fitting(640, 480, 320) == (320, 256)
    assert fitting(720, 1280, 320) == (192, 320)
    assert fitting(500, 500, 320) == (320, 320)


def test_a_frame_letterboxed_to_its_own_shape_is_centred_between_thin_bars():
    out, r, (left, top) = letterbox(np.zeros((480, 640, 3), np.uint8), (256, 320))
    assert out.shape == (256, 320, 3) and r == 0.5 and (left, top) == (0, 8)


def _table(seed: int, height: int = 480, width: int = 640, card_px: tuple[float, float] | None = None) -> np.ndarray:
    """A generated frame of up to five face-up cards and nothing else, landscape; ``card_px``: the cards'
    heights as shares of the frame's (else the generator's own range)."""
    opts = SceneOptions(size=(width, height), max_cards=5, back_rate=0.0, hand_rate=0.0, empty_rate=0.0,
                        portrait_rate=0.0, things_rate=0.0, **({"card_px": card_px} if card_px else {}))
    return render_scene(seed, all_packs(), opts).image


def _same_cards(a: list, b: list) -> None:
    """Two readings of one frame found the same cards, each named alike with outlines meeting at IoU over 0.9."""
    assert len(a) >= 1 and len(a) == len(b)
    for d in a:
        same = max(b, key=lambda e: quad_iou(np.float32(d.corners), np.float32(e.corners)))
        assert same.card == d.card and quad_iou(np.float32(d.corners), np.float32(same.corners)) > 0.9


def test_a_1080p_frame_halved_before_its_resize_shows_the_detector_the_same_cards():
    halved, one_step = Recognizer(), Recognizer(halve_large=False)
    for seed in (2024, 2025, 2026):
        image = _table(seed, 1080, 1920)
        assert not np.array_equal(letterbox(image, (256, 448), halve=True)[0], letterbox(image, (256, 448))[0])
        _same_cards(halved(image), one_step(image))


def test_a_frame_under_four_times_the_detector_s_input_is_resized_in_one_step():
    image = _table(2024, 720, 1280)
    assert np.array_equal(letterbox(image, (256, 448), halve=True)[0], letterbox(image, (256, 448))[0])


def test_the_anchor_points_are_laid_out_as_ultralytics_lays_them_out():
    import torch
    from ultralytics.utils.tal import make_anchors

    maps = [torch.zeros(1, 1, 256 // s, 320 // s) for s in (8, 16, 32)]
    points, strides = make_anchors(maps, torch.tensor([8.0, 16.0, 32.0]), 0.5)
    ours, our_strides = anchor_points(256, 320)
    assert np.array_equal(ours[0], points.numpy().T) and np.array_equal(our_strides[0], strides.numpy()[:, 0])


def test_the_detector_rewritten_for_its_own_square_is_the_shipped_file():
    assert detector_graph(str(DETECTOR), 320, 320) == DETECTOR.read_bytes()


def test_a_network_with_no_anchor_constants_is_refused():
    with pytest.raises(ValueError, match="no anchor constants"):
        detector_graph(str(CORNERS), 96, 128)


def test_a_size_that_is_no_multiple_of_32_is_refused():
    with pytest.raises(ValueError, match="multiple of 32"):
        detector_graph(str(DETECTOR), 240, 320)


def test_the_detector_at_the_frames_shape_finds_the_cards_it_finds_at_its_square():
    fitted, square = Recognizer(fit_input=True), Recognizer(fit_input=False)
    for seed in (2024, 2025, 2026):
        image = _table(seed)
        _same_cards(fitted(image), square(image))
    assert list(fitted._sized) == [(256, 320)]  # one session for the frames' shape, made once


def test_a_detector_whose_graph_cannot_be_resized_runs_at_its_square_with_a_warning(monkeypatch):
    import vision.recognize.recognizer

    def refuse(*_args):
        raise ValueError("no anchor constants")

    monkeypatch.setattr(vision.recognize.recognizer.input_size, "detector_graph", refuse)
    image = _table(2024)
    r = Recognizer(fit_input=True)
    with pytest.warns(UserWarning, match="runs at its exported square"):
        found = r(image)
    assert [d.card for d in found] == [d.card for d in Recognizer(fit_input=False)(image)]
    assert r.fit_input is False and r._sized == {}


def test_a_photos_two_views_keep_the_square():
    with pytest.raises(ValueError, match="fit_input needs views=1"):
        Recognizer(views=2, fit_input=True)
    assert Recognizer(views=2).fit_input is False and Recognizer().fit_input is True


def test_a_recognizer_looking_closer_runs_the_detector_at_twice_the_short_side_and_finds_the_same_cards():
    usual = Recognizer()
    closer = usual.closer()
    assert closer.settings.short_side == usual.settings.closer_side == 2 * usual.settings.short_side
    assert usual.settings.short_side == 240  # the one looking usually is left as it was
    assert closer._detector_for(1080, 1920)[1] == (480, 864) and usual._detector_for(1080, 1920)[1] == (256, 448)
    assert closer.det is usual.det and closer.cls is usual.cls  # the networks are not loaded twice
    for seed in (2024, 2025, 2026, 2027):  # cards as tall as on a table seen from above a player's head
        image = _table(seed, 1080, 1920, card_px=(0.15, 0.25))
        near, far = closer(image), usual(image)  # a covered card's strip may be found by one look only
        assert {d.card for d in far if d.confidence >= 0.5} == {d.card for d in near if d.confidence >= 0.5} != set()


def test_a_recognizer_at_its_square_or_already_close_has_no_closer_look():
    square = Recognizer(fit_input=False)
    assert square.closer() is square
    close = Recognizer().closer()
    assert close.closer() is close
