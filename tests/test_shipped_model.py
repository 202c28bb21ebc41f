"""The models shipped in models/ load with the default paths and run end to end."""

from datasets.art import CLASS_NAMES, all_packs
from datasets.scenes import SceneOptions, render_scene
from vision.recognize import Recognizer


def test_the_shipped_models_have_the_documented_inputs_and_classes():
    r = Recognizer()
    assert r.det_size == 320 and r.cls_size == 96
    assert sorted(r.names) == sorted(CLASS_NAMES)


def test_the_shipped_models_find_cards_in_a_clean_generated_scene():
    opts = SceneOptions(max_cards=4, back_rate=0.0, hand_rate=0.0, empty_rate=0.0, portrait_rate=0.0)
    scene = render_scene(2024, all_packs(), opts)
    found = Recognizer()(scene.image)
    assert len(found) >= 1
    assert all(d.card in CLASS_NAMES and 0 < d.confidence <= 1 for d in found)
