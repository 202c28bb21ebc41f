"""The models shipped in models/ load with the default paths and run end to end."""

from datasets.art import CLASS_NAMES, CROP_CLASSES, all_packs
from datasets.scenes import SceneOptions, render_scene
from vision.recognize import Recognizer


def test_the_shipped_models_have_the_documented_inputs_and_classes():
    r = Recognizer()
    assert r.det_size == 320 and r.cls_size == 96
    assert sorted(r.names) == sorted(CROP_CLASSES)  # the 36 cards and back (a face-down card)


def test_the_shipped_models_see_no_card_in_a_table_of_face_down_cards():
    """The stock beside the upcard must not become a card (classifier v3 read it as Ad)."""
    opts = SceneOptions(max_cards=4, back_rate=1.0, hand_rate=0.0, empty_rate=0.0, portrait_rate=0.0, clutter_rate=0.0, things_rate=0.0)
    r = Recognizer()
    assert [d.card for seed in range(2024, 2030) for d in r(render_scene(seed, all_packs(), opts).image)] == []


def test_the_shipped_models_find_cards_in_a_clean_generated_scene():
    opts = SceneOptions(max_cards=4, back_rate=0.0, hand_rate=0.0, empty_rate=0.0, portrait_rate=0.0, things_rate=0.0)
    scene = render_scene(2024, all_packs(), opts)
    found = Recognizer()(scene.image)
    assert len(found) >= 1
    assert all(d.card in CLASS_NAMES and 0 < d.confidence <= 1 for d in found)


def test_on_video_a_card_lying_still_is_classified_once_every_few_frames():
    opts = SceneOptions(max_cards=4, back_rate=0.0, hand_rate=0.0, empty_rate=0.0, portrait_rate=0.0, things_rate=0.0)
    image = render_scene(2024, all_packs(), opts).image
    rec = Recognizer(reuse_frames=2)
    calls = []
    classify = rec.classify
    rec.classify = lambda crops: calls.extend(crops) or classify(crops)
    reads = [rec(image) for _ in range(6)]
    boxes = len(rec.detect_cards(image))
    assert boxes >= 1 and len(calls) == 2 * boxes  # frames 1 and 4 classify each box; 2, 3, 5, 6 reuse
    assert [d.card for d in reads[5]] == [d.card for d in reads[0]]
