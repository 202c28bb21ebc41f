"""Merging classifier and detector sets in chosen shares (datasets.merge)."""

import pytest
import yaml

from datasets.merge import main, merge, merge_scenes, parse_source


def crop_set(root, name, per_class, codes=("Ah", "6s")):
    for split in ("train", "val"):
        for code in codes:
            folder = root / name / "classify" / split / code
            folder.mkdir(parents=True)
            for i in range(per_class):
                (folder / f"{i}.jpg").write_bytes(b"jpg")
    return root / name


def count(root, split, code):
    return len(list((root / "classify" / split / code).iterdir()))


def test_a_share_below_one_takes_that_part_of_each_class(tmp_path):
    old = crop_set(tmp_path, "old", 10)
    merge(tmp_path / "out", [(old, 0.4)])
    assert count(tmp_path / "out", "train", "Ah") == 4 and count(tmp_path / "out", "train", "6s") == 4


def test_a_share_of_two_repeats_training_crops_but_never_validation_crops(tmp_path):
    new = crop_set(tmp_path, "new", 3)
    counts = merge(tmp_path / "out", [(new, 2)])
    assert count(tmp_path / "out", "train", "Ah") == 6 and count(tmp_path / "out", "val", "Ah") == 3
    assert counts == {"train": 12, "val": 6}


def test_a_set_of_face_down_cards_joins_the_cards_as_the_back_class(tmp_path):
    cards, backs = crop_set(tmp_path, "cards", 3), crop_set(tmp_path, "backs", 5, codes=("back",))
    merge(tmp_path / "out", [(cards, 1), (backs, 1)])
    assert count(tmp_path / "out", "train", "back") == 5 and count(tmp_path / "out", "train", "Ah") == 3


def test_a_class_no_set_has_gets_no_empty_folder(tmp_path):
    """An empty class folder would give the classifier an output it never learns (sets from before ``back``)."""
    merge(tmp_path / "out", [(crop_set(tmp_path, "old", 2), 1)])
    assert sorted(p.name for p in (tmp_path / "out" / "classify" / "train").iterdir()) == ["6s", "Ah"]


def test_sets_are_linked_not_copied(tmp_path):
    old = crop_set(tmp_path, "old", 2)
    merge(tmp_path / "out", [(old, 1)])
    links = list((tmp_path / "out" / "classify" / "train" / "Ah").iterdir())
    assert links and all(p.is_symlink() and p.resolve().parent == old / "classify" / "train" / "Ah" for p in links)


def test_a_set_without_crops_is_named(tmp_path):
    with pytest.raises(ValueError, match="no classify"):
        parse_source(str(tmp_path / "nothing"))


def test_a_share_of_zero_is_refused(tmp_path):
    crop_set(tmp_path, "old", 1)
    with pytest.raises(ValueError, match="above 0"):
        parse_source(f"{tmp_path / 'old'}:0")


def scene_set(root, name, train, val):
    for split, n in (("train", train), ("val", val)):
        for folder in ("images", "labels"):
            (root / name / "detect" / folder / split).mkdir(parents=True)
        for i in range(n):
            (root / name / "detect" / "images" / split / f"{i}.jpg").write_bytes(b"jpg")
            (root / name / "detect" / "labels" / split / f"{i}.txt").write_text("0 0 0 1 0 1 1 0 1\n")
    return root / name


def listed(root, split):
    return (root / "detect" / f"{split}.txt").read_text().split()


def test_a_share_may_be_written_as_a_fraction(tmp_path):
    crop_set(tmp_path, "old", 1)
    assert parse_source(f"{tmp_path / 'old'}:1/3")[1] == pytest.approx(1 / 3)


def test_a_share_that_is_not_a_number_is_named(tmp_path):
    crop_set(tmp_path, "old", 1)
    with pytest.raises(ValueError, match="1/3"):
        parse_source(f"{tmp_path / 'old'}:a third")


def test_detector_scenes_are_listed_by_path_in_their_shares(tmp_path):
    new, old = scene_set(tmp_path, "new", 6, 2), scene_set(tmp_path, "old", 9, 3)
    counts = merge_scenes(tmp_path / "out", [(new, 1), (old, 1 / 3)])
    train = listed(tmp_path / "out", "train")
    assert counts == {"train": 9, "val": 3} and len(train) == 9
    assert sum("/old/" in f for f in train) == 3 and all(f.endswith(".jpg") and f.startswith("/") for f in train)


def test_detector_validation_may_be_one_set_in_full(tmp_path):
    new, old = scene_set(tmp_path, "new", 4, 0), scene_set(tmp_path, "old", 4, 5)
    counts = merge_scenes(tmp_path / "out", [(new, 1), (old, 0.5)], val=old)
    assert counts["val"] == 5 and all("/old/detect/images/val/" in f for f in listed(tmp_path / "out", "val"))


def test_the_merged_detector_set_names_its_lists_and_the_one_class(tmp_path):
    merge_scenes(tmp_path / "out", [(scene_set(tmp_path, "new", 2, 1), 1)])
    spec = yaml.safe_load((tmp_path / "out" / "detect" / "data.yaml").read_text())
    assert spec["train"] == "train.txt" and spec["val"] == "val.txt" and spec["names"] == {0: "card"}


def test_the_same_seed_lists_the_same_scenes(tmp_path):
    old = scene_set(tmp_path, "old", 20, 0)
    merge_scenes(tmp_path / "a", [(old, 0.3)], seed=4)
    merge_scenes(tmp_path / "b", [(old, 0.3)], seed=4)
    assert listed(tmp_path / "a", "train") == listed(tmp_path / "b", "train")


def test_a_set_without_scenes_is_named(tmp_path):
    crop_set(tmp_path, "crops", 1)
    with pytest.raises(ValueError, match="no detect"):
        parse_source(str(tmp_path / "crops"), "detect")


def test_a_validation_set_for_classifier_crops_is_refused(tmp_path):
    crop_set(tmp_path, "old", 1)
    with pytest.raises(SystemExit, match="--detect"):
        main([str(tmp_path / "out"), str(tmp_path / "old"), "--val", str(tmp_path / "old")])
