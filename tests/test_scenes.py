"""The synthetic scene generator and dataset writer."""

import multiprocessing
import threading

import numpy as np
import pytest

from datasets.art import CLASS_NAMES, CROP_CLASSES, DEFAULT_GROUPS, all_packs, drawn_pack, packs_of, scanned_pack, varied_back
from datasets import build as build_cli
from datasets.build import build, obb_label_line, scene_seed
from datasets.crops import render_card_crop
from datasets.scenes import SceneOptions, render_scene


@pytest.fixture(scope="module")
def packs():
    return all_packs()


def test_both_swiss_packs_are_read_from_shared_with_36_cards_and_a_back():
    for name in ("swiss-french", "swiss-german"):
        pack = scanned_pack(name)
        assert set(pack) == set(CLASS_NAMES) | {"back"}


def test_the_drawn_french_pack_has_36_different_faces():
    pack = drawn_pack(0)
    faces = {pack[c].tobytes() for c in CLASS_NAMES}
    assert len(faces) == 36


def test_a_scene_is_a_pure_function_of_its_seed(packs):
    a, b = render_scene(42, packs), render_scene(42, packs)
    assert np.array_equal(a.image, b.image)
    assert [c.code for c in a.cards] == [c.code for c in b.cards]
    assert not np.array_equal(a.image, render_scene(43, packs).image)


def test_labelled_cards_are_face_up_visible_and_inside_the_picture(packs):
    n = 0
    for seed in range(30):
        sc = render_scene(seed, packs)
        h, w = sc.image.shape[:2]
        assert sc.image.shape in ((480, 640, 3), (640, 480, 3)) and sc.image.dtype == np.uint8
        for c in sc.labelled():
            n += 1
            assert c.code in CLASS_NAMES and c.visible >= 0.35
            centre = c.quad.mean(axis=0)
            assert 0 <= centre[0] < w and 0 <= centre[1] < h
    assert n > 30


def test_card_backs_and_empty_tables_are_negatives(packs):
    opts = SceneOptions(back_rate=1.0)
    assert all(not render_scene(s, packs, opts).labelled() for s in range(5))
    assert not render_scene(0, packs, SceneOptions(empty_rate=1.0)).cards


def test_no_scene_is_mirrored(packs):
    """Projected card corners keep their clockwise order: a mirrored card is another card."""
    for seed in range(40):
        for c in render_scene(seed, packs).cards:
            q = c.quad
            signed = sum(q[i, 0] * q[(i + 1) % 4, 1] - q[(i + 1) % 4, 0] * q[i, 1] for i in range(4))
            assert signed > 0


def test_obb_labels_are_class_0_and_eight_normalised_coordinates():
    line = obb_label_line(np.array([[10, 20], [110, 20], [110, 170], [10, 170]], np.float32), 640, 480)
    parts = line.split()
    assert parts[0] == "0" and len(parts) == 9
    assert all(0 <= float(v) <= 1 for v in parts[1:])


def test_build_writes_an_ultralytics_dataset(tmp_path):
    data = build(tmp_path, train=6, val=2, seed=5, workers=1, progress=False)
    assert "names:\n  0: card" in data.read_text()
    images = sorted((tmp_path / "detect" / "images" / "train").glob("*.jpg"))
    labels = sorted((tmp_path / "detect" / "labels" / "train").glob("*.txt"))
    assert len(images) == len(labels) == 6
    crops = list((tmp_path / "classify" / "train").glob("*/*.jpg"))
    assert crops and {p.parent.name for p in crops} <= set(CROP_CLASSES)


def test_a_close_up_crop_is_a_pure_function_of_its_seed(packs):
    a, b = render_card_crop(0, packs, "Kc"), render_card_crop(0, packs, "Kc")
    assert a is not None and a.shape == (96, 96, 3) and a.dtype == np.uint8
    assert np.array_equal(a, b)
    assert not np.array_equal(a, render_card_crop(1, packs, "Kc"))


def test_close_up_crops_keep_the_classes_balanced(tmp_path):
    build(tmp_path, train=0, val=0, seed=5, workers=1, card_crops=74, progress=False)
    per_class = {c: len(list((tmp_path / "classify" / "train" / c).glob("closeup_*.jpg"))) for c in CROP_CLASSES}
    assert set(per_class.values()) == {2}
    assert len(list((tmp_path / "classify" / "val").glob("*/closeup_*.jpg"))) == 7


def test_the_classifier_also_learns_face_down_cards_as_back(tmp_path):
    """The stock beside the upcard is a card-shaped box; named ``back``, it is dropped, not read as a card."""
    assert CROP_CLASSES == CLASS_NAMES + ["back"]
    build(tmp_path, train=0, val=0, seed=5, workers=1, card_crops=6, classes=("back",), progress=False)
    assert len(list((tmp_path / "classify" / "train" / "back").glob("closeup_*.jpg"))) == 6
    assert [p.name for p in (tmp_path / "classify" / "train").iterdir()] == ["back"]  # no empty card folders


def test_back_close_ups_come_in_every_colour_not_only_the_packs_own():
    """Shown only the packs' few (mostly blue) backs, a classifier takes a blue court for a back."""
    means = [varied_back(seed).reshape(-1, 3).mean(axis=0) for seed in range(24)]
    assert np.array_equal(varied_back(3), varied_back(3))
    assert {int(np.argmax(m)) for m in means} == {0, 1, 2}  # some mostly red, some green, some blue


def test_close_ups_of_an_unknown_class_are_refused(tmp_path):
    with pytest.raises(ValueError, match="Xy"):
        build(tmp_path, train=0, val=0, seed=5, workers=1, card_crops=6, classes=("back", "Xy"), progress=False)


def test_the_build_command_answers_an_unknown_pack_group_with_a_usage_error_and_writes_nothing(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_:
        build_cli.main([str(tmp_path / "out"), "--packs", "swiss,tarot"])
    assert exit_.value.code == 2 and "tarot" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_a_failure_while_building_is_not_passed_off_as_a_bad_option(tmp_path, monkeypatch):
    def broken(*args, **kwargs):
        raise ValueError("a bug deep in the generator")

    monkeypatch.setattr(build_cli, "build", broken)
    with pytest.raises(ValueError, match="bug deep"):  # its traceback, not a usage line
        build_cli.main([str(tmp_path / "out"), "--train", "1"])


def test_a_face_down_card_in_a_scene_gives_a_back_crop_and_no_detector_label(tmp_path):
    packs = packs_of(DEFAULT_GROUPS)
    first = next(i for i in range(200) if any(c.visible >= 0.8 for c in
                                              render_scene(scene_seed(7, "train", i), packs, SceneOptions()).backs()))
    build(tmp_path, train=first + 1, val=0, seed=7, workers=1, progress=False)
    assert list((tmp_path / "classify" / "train" / "back").glob(f"train_{first:06d}_*.jpg"))
    scene = render_scene(scene_seed(7, "train", first), packs, SceneOptions())
    labels = (tmp_path / "detect" / "labels" / "train" / f"train_{first:06d}.txt").read_text().splitlines()
    assert len(labels) == len(scene.labelled()) < len(scene.labelled()) + len(scene.backs())


def test_paper_books_and_photos_on_the_table_are_never_labelled_as_cards(packs):
    """Objects are not cards: with clutter the same seed labels the same cards, no more."""
    for seed in range(12):
        bare = render_scene(seed, packs, SceneOptions(clutter_rate=0.0))
        busy = render_scene(seed, packs, SceneOptions(clutter_rate=1.0))
        assert [c.code for c in busy.cards] == [c.code for c in bare.cards]
        assert {c.code for c in busy.labelled()} <= {c.code for c in bare.labelled()}
        assert not np.array_equal(busy.image, bare.image)


def test_an_object_laid_over_a_card_covers_it():
    from datasets.scenes import draw_clutter

    img = np.zeros((240, 320, 3), np.float32)
    ids = np.zeros((240, 320), np.int16)  # every pixel card 0
    hom = np.array([[60.0, 0, 160], [0, -60.0, 120], [0, 0, 1]])  # straight down, 60 px per card height
    draw_clutter(img, ids, hom, np.random.default_rng(3), over=True)
    assert (ids == -1).any() and (ids == 0).any()


def test_a_fanned_hand_shows_every_card_in_part():
    from datasets.scenes import fan

    cards = fan(np.random.default_rng(0), 5, np.zeros(2))
    gaps = [np.hypot(b[0] - a[0], b[1] - a[1]) for a, b in zip(cards, cards[1:])]
    assert all(0.2 < g < 0.45 for g in gaps)  # a card is about 0.65 wide: a third to two thirds shows


def test_a_set_can_lay_its_cards_mostly_fanned():
    from datasets.scenes import LAYOUTS, camera, layout

    rng = np.random.default_rng(3)
    hom = camera(rng, (640, 480), 0.3, 200)
    for seed in range(5):
        cards = layout(np.random.default_rng(seed), 4, hom, (640, 480), shares=(0, 0, 0, 1))
        gaps = [np.hypot(b[0] - a[0], b[1] - a[1]) for a, b in zip(cards, cards[1:])]
        assert np.ptp(gaps) < 1e-5 and 0.2 < gaps[0] < 0.45  # evenly spread, each card partly over the last
    assert LAYOUTS[3] == "fan"


def test_a_heap_lays_each_card_mostly_over_the_last():
    from datasets.scenes import LAYOUTS, camera, layout

    hom = camera(np.random.default_rng(3), (640, 480), 0.3, 200)
    for seed in range(5):
        cards = np.array(layout(np.random.default_rng(seed), 5, hom, (640, 480), shares=(0, 0, 0, 0, 1)))
        assert np.hypot(*(cards[:, :2] - cards[:, :2].mean(axis=0)).T).max() < 0.75  # a card is 1 tall
    assert LAYOUTS[4] == "heap"


def test_a_set_without_heaps_lays_the_cards_it_laid_before_heaps_were_drawn(packs):
    for seed in range(6):
        before = render_scene(seed, packs, SceneOptions(layouts=(0.35, 0.3, 0.2, 0.15)))
        now = render_scene(seed, packs, SceneOptions(layouts=(0.35, 0.3, 0.2, 0.15, 0.0)))
        assert [c.quad.tolist() for c in before.cards] == [c.quad.tolist() for c in now.cards]


def test_the_build_command_refuses_layout_shares_that_are_not_four_or_five_weights(tmp_path, capsys):
    for bad in ("1,2", "1,1,1,x", "0,0,0,0", "1,1,1,-1", "1,1,1,1,1,1"):
        with pytest.raises(SystemExit) as exit_:
            build_cli.main([str(tmp_path / "out"), "--layouts", bad])
        assert exit_.value.code == 2 and "four or five weights" in capsys.readouterr().err
    assert build_cli.layout_shares("1,1,1,1") == (0.25, 0.25, 0.25, 0.25)
    assert build_cli.layout_shares("1,1,1,1,4") == (0.125, 0.125, 0.125, 0.125, 0.5)


def test_knives_toys_cloth_and_mesh_over_cards_cover_them_and_are_never_cards(packs):
    """Things over the cards lower what shows of them; the same seed lays the same cards."""
    covered = 0
    for seed in range(12):
        bare = render_scene(seed, packs, SceneOptions(things_rate=0.0))
        busy = render_scene(seed, packs, SceneOptions(things_rate=1.0))
        assert [(c.code, c.quad.tolist()) for c in busy.cards] == [(c.code, c.quad.tolist()) for c in bare.cards]
        assert all(b.visible <= a.visible + 1e-9 for a, b in zip(bare.cards, busy.cards))
        covered += sum(b.visible < a.visible - 0.02 for a, b in zip(bare.cards, busy.cards))
    assert covered >= 6


def test_each_kind_of_thing_covers_part_of_the_card_it_lies_on():
    from datasets.things import MAKERS

    for kind, make in MAKERS.items():
        for seed in range(5):
            rgb, mask = make(np.random.default_rng(seed), (320, 240), np.array([140.0, 120.0]), 120.0)
            assert rgb.shape == (240, 320, 3) and mask.shape == (240, 320), kind
            assert (mask[60:180, 100:180] > 0.5).any(), kind


def test_another_print_of_a_card_keeps_its_size_and_can_leave_its_indices_out():
    import numpy as np

    from datasets.art import scanned_pack
    from datasets.prints import vary_print

    face = scanned_pack("swiss-french")["9s"]
    other = vary_print(face, np.random.default_rng(1), blank_index=1.0)
    h, w = face.shape[:2]
    assert other.shape == face.shape and other.dtype == np.uint8
    index = other[int(0.04 * h):int(0.12 * h), int(0.05 * w):int(0.15 * w)]  # where the 9 is printed
    assert index.std(axis=(0, 1)).max() < 12  # one paper colour: the index is gone


def test_a_pack_reprinted_with_its_own_index_keeps_its_pips_and_its_back():
    import numpy as np
    import pytest

    from datasets.art import BACK, scanned_pack
    from datasets.prints import index_fonts, redraw_index

    if not index_fonts():
        pytest.skip("no fonts to redraw indices in: the training extra (matplotlib) is not installed")
    pack = {code: scanned_pack("swiss-french")[code] for code in ("9s", "Ts", BACK)}
    one, again = redraw_index(pack, np.random.default_rng(3)), redraw_index(pack, np.random.default_rng(3))
    assert all((one[c] == again[c]).all() for c in pack)  # a pure function of the seed
    assert (one[BACK] == pack[BACK]).all()
    h, w = pack["9s"].shape[:2]
    corners = np.zeros((h, w), bool)
    corners[: int(0.3 * h), : int(0.3 * w)] = corners[-int(0.3 * h):, -int(0.3 * w):] = True
    changed = np.abs(one["9s"].astype(int) - pack["9s"].astype(int)).max(axis=2) > 60
    assert changed[corners].mean() > 0.02  # an index of its own in the corners
    assert changed[~corners].mean() < changed[corners].mean() / 2  # the pips stay where they were
    assert not (one["9s"] == one["Ts"]).all()


def test_an_engraved_ace_grows_its_pip_and_keeps_its_indices():
    import numpy as np

    from datasets.art import scanned_pack
    from datasets.prints import engrave_ace

    face = scanned_pack("swiss-french")["As"]
    ace = engrave_ace(face, np.random.default_rng(2))
    h, w = face.shape[:2]
    assert ace.shape == face.shape and not (ace == face).all()
    corner = (slice(0, int(0.2 * h)), slice(0, int(0.2 * w)))
    assert (ace[corner] == face[corner]).all()  # the indices stay

    def inked(img: np.ndarray) -> int:
        return int((img[int(0.28 * h):int(0.72 * h)].mean(axis=2) < 180).sum())

    assert inked(ace) > inked(face)  # grown, with lines of type around it


def test_an_ace_that_is_a_picture_is_not_engraved():
    import numpy as np

    from datasets.art import scanned_pack
    from datasets.prints import engrave_ace

    face = scanned_pack("swiss-german")["As"]
    assert (engrave_ace(face, np.random.default_rng(2)) == face).all()


def _opencv_threads(_: int) -> int:
    import cv2

    return cv2.getNumThreads()


def test_each_process_building_scenes_runs_opencv_on_one_thread(tmp_path, monkeypatch):
    """On a 16-core machine 16 processes each with a thread per core fought for the cores; the parent, which
    has used its threads (rendering here), keeps them."""
    import cv2

    before = cv2.getNumThreads()
    cv2.setNumThreads(2)  # whatever earlier tests left
    render_scene(3, packs_of(DEFAULT_GROUPS), SceneOptions())
    seen = []

    def run_jobs(job, jobs, workers, progress, desc, unit, initializer=None, initargs=()):
        seen.extend(build_cli.map_jobs(_opencv_threads, [0, 1], 2, False, desc, unit, initializer, initargs))
        return 0

    monkeypatch.setattr(build_cli, "run_jobs", run_jobs)
    try:
        build(tmp_path, train=1, val=0, seed=5, workers=1, progress=False)
        assert seen == [1, 1]
        assert cv2.getNumThreads() == 2
    finally:
        cv2.setNumThreads(before)


HELD = threading.Lock()  # as a lock some other thread of the test run holds (the web server's, a log's)


def _takes_the_lock(_: int) -> int:
    with HELD:
        return 1


def test_a_worker_never_inherits_a_lock_another_thread_of_the_parent_holds():
    """A forked worker starts with the parent's locks as they were; one held then is held for ever
    (CI hung so once, building a tiny data set after the browser tests)."""
    done: list[int] = []
    with HELD:
        run = threading.Thread(target=lambda: done.extend(
            build_cli.map_jobs(_takes_the_lock, [0, 1], 1, False, "", "")), daemon=True)
        run.start()
        run.join(120)
    if run.is_alive():
        for child in multiprocessing.active_children():  # let the pool break rather than hang the run
            child.kill()
    assert done == [1, 1]
