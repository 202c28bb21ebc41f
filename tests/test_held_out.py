"""The held-out world: tables nothing is tuned on, drawn apart from the tuning world."""

import random

import numpy as np

from datasets.art import BACK, scanned_pack
from datasets.cloths import CLOTHS, cloth
from datasets.held_out import HELD_OUT, HELD_OUT_SEED, TUNING, held_out_scenes, reprint
from datasets.virtual_table import render_hand, table_events
from engine.simulate import simulate_hand


def test_a_held_out_table_is_a_pure_function_of_its_seed():
    assert HELD_OUT.draw(HELD_OUT_SEED + 3) == HELD_OUT.draw(HELD_OUT_SEED + 3)


def test_held_out_tables_span_the_sizes_rates_and_tilts_players_meet():
    draws = [HELD_OUT.draw(HELD_OUT_SEED + k) for k in range(200)]
    assert {d.size for d in draws} == {(640, 480), (800, 600), (1280, 720), (1920, 1080)}
    assert {d.fps for d in draws} == {10.0, 15.0, 20.0, 25.0, 30.0}
    assert {d.cloth for d in draws} == set(CLOTHS)
    assert all(d.max_tilt_deg == 40 and d.reprint for d in draws)


def test_every_held_out_cloth_fills_the_frame():
    for kind in CLOTHS:
        img = cloth(kind, np.random.default_rng(1), (320, 240))
        assert img.shape == (240, 320, 3) and 0 <= img.min() and img.max() <= 255


def test_a_reprinted_pack_changes_the_faces_not_their_size_nor_the_back():
    pack = scanned_pack("swiss-french")
    again = reprint(pack, 5)
    assert again[BACK] is pack[BACK]
    assert all(again[c].shape == pack[c].shape for c in pack)
    h, w = pack["9s"].shape[:2]
    corner = (slice(0, h // 6), slice(0, w // 4))  # where the index is printed
    assert np.abs(again["9s"][corner].astype(int) - pack["9s"][corner]).mean() > 5


def test_the_tuning_world_renders_the_virtual_table_as_before():
    seed = 3
    record = table_events(simulate_hand(random.Random(seed), players=4).events)
    pack = scanned_pack("swiss-german")
    plain = render_hand(record, pack, seed=seed)
    drawn = render_hand(record, pack, seed=seed, draw=TUNING.draw(seed))
    t = plain.visuals[0].t
    assert np.array_equal(plain.frame(t)[0], drawn.frame(t)[0])


def test_held_out_stills_are_labelled_scenes_of_the_held_out_world():
    (scene,) = held_out_scenes(1, HELD_OUT_SEED + 2)
    h, w = scene.image.shape[:2]
    assert (w, h) == HELD_OUT.draw(HELD_OUT_SEED + 2).size
    assert all(len(c.quad) == 4 for c in scene.cards)
