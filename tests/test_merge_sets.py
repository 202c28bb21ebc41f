"""Merging classifier sets in chosen shares (datasets.merge)."""

import pytest

from datasets.merge import merge, parse_source


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
