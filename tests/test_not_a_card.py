"""The classifier's not-a-card class: boxes holding no card are left out, and cards are read as before."""

import numpy as np

from datasets.art import all_packs
from datasets.scenes import SceneOptions, render_scene
from vision.recognize.deck import classifier_digest
from vision.recognize.models import CLASSIFIER
from vision.recognize.not_card import NOT_A_CARD, NotCard
from vision.recognize.recognizer import Recognizer

CLEAN = SceneOptions(max_cards=4, back_rate=0.0, hand_rate=0.0, empty_rate=0.0, portrait_rate=0.0, things_rate=0.0,
                     clutter_rate=0.0)


def row(tmp_path, bias: float, classifier: str | None = None):
    """A not-a-card row that holds every crop no card (bias > 0) or a card (bias < 0)."""
    path = tmp_path / "not-a-card.npz"
    layer = (np.zeros((1280, 1), np.float32), np.full(1, bias, np.float32))
    NotCard([layer], classifier or classifier_digest(CLASSIFIER)).save(path)
    return path


def test_a_box_the_not_a_card_class_is_sure_of_is_left_out(tmp_path):
    image = render_scene(2024, all_packs(), CLEAN).image
    assert Recognizer(not_card=row(tmp_path, -8.0))(image)
    assert Recognizer(not_card=row(tmp_path, 8.0))(image) == []


def test_a_card_the_not_a_card_class_rules_out_is_read_as_by_the_classifier_alone(tmp_path):
    image = render_scene(2025, all_packs(), CLEAN).image
    alone = [(d.card, round(d.confidence, 3)) for d in Recognizer(not_card=None)(image)]
    folded = [(d.card, round(d.confidence, 3)) for d in Recognizer(not_card=row(tmp_path, -30.0))(image)]
    assert alone and folded == alone


def test_not_a_card_is_never_a_cards_next_best_read(tmp_path):
    rec = Recognizer(not_card=row(tmp_path, -0.5), not_card_from=0.5)  # 38 %: kept, the class often likeliest
    found = rec(render_scene(2024, all_packs(), CLEAN).image)
    assert rec.names[-1] == NOT_A_CARD
    assert found and all(NOT_A_CARD not in [c for c, _ in d.alternatives] + [d.card] for d in found)


def test_a_not_a_card_row_learned_on_another_classifier_is_not_used(tmp_path):
    rec = Recognizer(not_card=row(tmp_path, 8.0, classifier="0123456789abcdef"))
    assert NOT_A_CARD not in rec.names and rec(render_scene(2024, all_packs(), CLEAN).image)


def test_props_among_the_cards_leave_the_cards_of_a_seed_where_they_were():
    bare = render_scene(31, all_packs(), CLEAN)
    with_props = render_scene(31, all_packs(), SceneOptions(**{**CLEAN.__dict__, "props_rate": 1.0}))
    assert [c.code for c in bare.cards] == [c.code for c in with_props.cards]
    assert all(np.allclose(a.quad, b.quad) for a, b in zip(bare.cards, with_props.cards))
    assert bare.props == [] and with_props.props


def test_the_not_a_card_head_learns_crops_apart_and_its_threshold_spares_the_cards():
    from vision.training.train_not_card import DROP_CARDS, fit, threshold

    rng = np.random.default_rng(0)
    x = np.concatenate([rng.normal(0, 1, (600, 16)), rng.normal(0, 1, (300, 16)) + np.r_[3.0, -3.0, [0] * 14]])
    y = np.r_[np.zeros(600), np.ones(300)]
    row = NotCard(fit(x.astype(np.float32), y, hidden=8, epochs=300), "digest")
    scores = row.chance(x.astype(np.float32))
    tau = threshold(scores, y)
    assert (scores[y == 0] >= tau).mean() <= DROP_CARDS and (scores[y == 1] >= tau).mean() > 0.9


def test_a_frame_cut_through_a_card_leaves_it_at_the_edge_with_its_share_in_view():
    from vision.training.train_not_card import OPTIONS, cut_by_frame

    scene = render_scene(510_002, all_packs(), OPTIONS)
    h, w = scene.image.shape[:2]
    for seed in range(20):
        cut = cut_by_frame(scene, np.random.default_rng(seed))
        ch, cw = cut.image.shape[:2]
        if (ch, cw) == (h, w):
            continue  # no card to cut through where the frame would stay wide enough
        assert ch <= h and cw <= w and (ch < h or cw < w)
        shares = [c.visible / max(o.visible, 1e-9) for c, o in zip(cut.cards, scene.cards)]
        assert all(0.0 <= s <= 1.0 + 1e-6 for s in shares)
        assert any(0.2 < s < 0.8 for s in shares)  # the card the frame was cut through
        return
    raise AssertionError("no frame was cut in 20 tries")
