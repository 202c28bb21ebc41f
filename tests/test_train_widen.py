"""Fine-tuning a classifier on a set with a class it lacks (``back``) keeps what it knows.

The classifier is a stand-in with the parts of Ultralytics' ``ClassificationModel`` that the
widening touches (``model[-1].linear``, ``names``, ``yaml``): importing Ultralytics here, before
the offline smoke test blocks the network, would let its import-time checks go unwatched.
"""

import torch

from vision.training.train import widen_classifier


class Head(torch.nn.Module):
    def __init__(self, n):
        super().__init__()
        self.linear = torch.nn.Linear(16, n)


class Classifier(torch.nn.Module):
    def __init__(self, names):
        super().__init__()
        self.model = torch.nn.ModuleList([torch.nn.Identity(), Head(len(names))])
        self.names, self.yaml = dict(enumerate(names)), {"nc": len(names)}


def saved(path, names):
    model = Classifier(names)
    torch.save({"model": model, "ema": None}, path)
    return model


def test_a_widened_classifier_reads_each_known_card_as_before_and_starts_the_new_class_unlikely(tmp_path):
    old = saved(tmp_path / "old.pt", ["6c", "Ah", "Ts"])
    path = widen_classifier(tmp_path / "old.pt", ["6c", "Ah", "Ts", "back"], tmp_path / "wide.pt")
    wide = torch.load(path, weights_only=False)["model"]
    assert wide.names == {0: "6c", 1: "Ah", 2: "Ts", 3: "back"} and wide.yaml["nc"] == 4
    head_old, head_new = old.model[-1].linear, wide.model[-1].linear
    assert torch.equal(head_new.weight[:3], head_old.weight) and torch.equal(head_new.bias[:3], head_old.bias)
    assert head_new.bias[3] <= head_old.bias.min()


def test_a_new_class_takes_its_place_in_ultralytics_sorted_folder_order(tmp_path):
    old = saved(tmp_path / "old.pt", ["Ah", "back"])
    wide = torch.load(widen_classifier(tmp_path / "old.pt", ["6c", "Ah", "back"], tmp_path / "w.pt"),
                      weights_only=False)["model"]
    assert wide.names == {0: "6c", 1: "Ah", 2: "back"}
    assert torch.equal(wide.model[-1].linear.weight[1:], old.model[-1].linear.weight)


def test_a_classifier_that_has_every_class_is_fine_tuned_as_it_is(tmp_path):
    saved(tmp_path / "old.pt", ["6c", "back"])
    assert widen_classifier(tmp_path / "old.pt", ["6c", "back"], tmp_path / "wide.pt") == tmp_path / "old.pt"
