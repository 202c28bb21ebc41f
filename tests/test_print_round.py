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
    assert set(figures) == {"shipped", "epoch 1", "epoch 2"} and figures["epoch 2"] == accuracy(model, data)
    path = tmp_path / "classifier.onnx"
    path.write_bytes(export(model, size, stamp=("print_round", "{}")))
    again = Recognizer(classifier=path, not_card=None)
    assert again.names == rec.names  # the same classes, read from the copied metadata
    assert again.classify([pack["6h"]]).shape == (1, len(rec.names))
