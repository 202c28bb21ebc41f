"""The classifier round on other prints: a tiny run, crops to a classifier the recognizer reads."""

import numpy as np
import pytest


def test_a_print_round_fine_tunes_the_shipped_classifier_into_one_the_recognizer_reads(tmp_path):
    pytest.importorskip("torch", reason="the print round needs the training extra")
    pytest.importorskip("matplotlib", reason="indices are redrawn in Matplotlib's fonts")
    import cv2

    from datasets.art import scanned_pack
    from datasets.prints import redraw_index
    from vision.recognize.recognizer import Recognizer
    from vision.training.deck_finetune import export
    from vision.training.print_round import accuracy, finetune

    rec = Recognizer(not_card=None)
    pack = redraw_index(scanned_pack("swiss-german"), np.random.default_rng(0))
    codes = ["6h", "8h", "9s", "Ts"]
    x = np.stack([np.ascontiguousarray(pack[c][:: -1 if k % 2 else 1, :: -1 if k % 2 else 1]) for c in codes
                  for k in range(4)])
    x = np.stack([cv2.resize(c, (rec.cls_size, rec.cls_size)) for c in x])
    data = {"x": x, "y": np.array([rec.names.index(c) for c in codes for _ in range(4)]),
            "kind": np.array(["redraw"] * len(x))}
    model, size, figures = finetune(data, data, epochs=2, lr=1e-4)
    assert set(figures) == {"shipped", "epoch 1", "epoch 2"}
    assert figures["epoch 2"]["all"] == accuracy(model, data)["all"] and 0 <= figures["epoch 2"]["worn"] <= 1
    path = tmp_path / "classifier.onnx"
    path.write_bytes(export(model, size, stamp=("print_round", "{}")))
    again = Recognizer(classifier=path, not_card=None)
    assert again.names == rec.names  # the same classes, read from the copied metadata
    assert again.classify([pack["6h"]]).shape == (1, len(rec.names))


def test_a_worn_crop_keeps_its_size_and_only_the_share_asked_is_worn():
    from vision.training.print_round import worn

    x = np.random.default_rng(0).integers(0, 255, (40, 96, 96, 3), dtype=np.uint8)
    out = worn(x, np.random.default_rng(1), 0.5)
    changed = [not np.array_equal(a, b) for a, b in zip(x, out)]
    assert out.shape == x.shape and out.dtype == np.uint8 and 5 < sum(changed) < 35
    assert np.array_equal(worn(x, np.random.default_rng(1), 0.0), x)


def test_validation_crops_made_by_many_processes_take_the_printers_one_process_would():
    from vision.training.print_round import jobs

    one = jobs(530_000, 10, 1, 5, one_printer=True)
    three = jobs(530_000, 10, 3, 5, one_printer=True)
    assert one == [(530_000, 10, 5, 0)]
    assert three == [(530_000, 4, 5, 0), (530_004, 4, 5, 4), (530_008, 2, 5, 8)]
    assert [j[2] for j in jobs(540_000, 10, 3, 7)] == [7, 8, 9]  # training: each process its own printers

