"""Fine-tuning a classifier on a set with a class it lacks (``back``) keeps what it knows."""

import torch

from vision.train import widen_classifier  # imports vision.offline first: ultralytics stays offline


def tiny_classifier(path, names):
    from ultralytics.nn.tasks import ClassificationModel

    model = ClassificationModel("yolo11n-cls.yaml", nc=len(names), verbose=False).eval()
    model.names = dict(enumerate(names))
    torch.save({"model": model, "ema": None}, path)
    return model


def test_a_widened_classifier_reads_each_known_card_as_before_and_starts_the_new_class_unlikely(tmp_path):
    old = tiny_classifier(tmp_path / "old.pt", ["6c", "Ah", "Ts"])
    path = widen_classifier(tmp_path / "old.pt", ["6c", "Ah", "Ts", "back"], tmp_path / "wide.pt")
    wide = torch.load(path, weights_only=False)["model"].eval()
    assert wide.names == {0: "6c", 1: "Ah", 2: "Ts", 3: "back"} and wide.yaml["nc"] == 4
    head_old, head_new = old.model[-1].linear, wide.model[-1].linear
    assert torch.equal(head_new.weight[:3], head_old.weight) and torch.equal(head_new.bias[:3], head_old.bias)
    assert head_new.bias[3] <= head_old.bias.min()


def test_a_classifier_that_has_every_class_is_fine_tuned_as_it_is(tmp_path):
    tiny_classifier(tmp_path / "old.pt", ["6c", "back"])
    assert widen_classifier(tmp_path / "old.pt", ["6c", "back"], tmp_path / "wide.pt") == tmp_path / "old.pt"
