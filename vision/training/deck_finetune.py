"""``chratze teach --whole``: the whole classifier fine-tuned on a deck's captures, in PyTorch.

The shipped classifier is recovered from its ONNX file (:mod:`vision.training.recover`), trained on
the same views of the captures the last layer learns from (drawn with the same seed), checked on the
same check views, and written as the deck's own ONNX classifier with the shipped one's input, output
and class names, so the recognizer reads it in place of the shipped one. Needs the training extra.
"""

from __future__ import annotations

import copy
import io
import time

import numpy as np

from vision.recognize import CLASSIFIER
from vision.recognize.deck import DeckProfile, classifier_digest
from vision.teach.deck import Teaching
from vision.teach.learn import Progress, Views, figures, refuse_if_worse, view_crops
from vision.teach.settings import TEACH, TeachSettings

from .recover import onnx_weights, recovered

EPOCHS = 3  # on the unseen pack: 98.0, 98.8, 99.4 % of the check views after 1, 2, 3 (18 s each here)
LR = 2e-4  # AdamW's step over every weight: a tenth of the classifier's first training's
BATCH = 64


def finetune(teaching: Teaching, recognizer, settings: TeachSettings = TEACH, epochs: int = EPOCHS,
             lr: float = LR, progress: Progress | None = None) -> DeckProfile:
    """The deck with its own whole classifier, learned and checked; refused if it reads its check views
    worse than the shipped network (:class:`vision.teach.learn.Refused`). Keeps it in the deck's folder."""
    import torch  # noqa: PLC0415 - the training extra; the table's install has none

    pack = teaching.pack
    missing = teaching.missing()
    if missing:
        raise ValueError("not every card is captured yet; missing: " + ", ".join(map(pack.card_name, missing)))
    torch.set_num_threads(2)
    model, _, size = recovered(*onnx_weights(CLASSIFIER))
    names = [model.names[i] for i in range(len(model.names))]
    captured = teaching.captured()
    rng = np.random.default_rng(settings.seed)  # the views learn() draws, in its order (view_crops)
    crops, labels = view_crops(pack, captured, settings.views, rng, settings)
    check_crops, check_labels = view_crops(pack, captured, settings.check_views, rng, settings)
    x, xc = _input(crops), _input(check_crops)
    to_class = np.array([names.index(c) for c in pack.codes])  # the pack's index -> the network's class
    y = to_class[labels]
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    loss_fn = torch.nn.CrossEntropyLoss()
    steps, step = epochs * ((len(x) + BATCH - 1) // BATCH), 0
    for epoch in range(epochs):
        model.train()
        order = np.random.default_rng((settings.seed, epoch)).permutation(len(x))
        for k in range(0, len(order), BATCH):
            idx = order[k:k + BATCH]
            loss = loss_fn(_first(model(torch.from_numpy(x[idx]))), torch.from_numpy(y[idx]))
            opt.zero_grad()
            loss.backward()
            opt.step()
            step += 1
            if progress and step % 10 == 0:
                progress("fine-tune", step, steps)
    model.eval()
    with torch.no_grad():
        probs = np.concatenate([_first(model(torch.from_numpy(xc[k:k + 128]))).numpy() for k in range(0, len(xc), 128)])
    check = Views(np.zeros((len(xc), 0), np.float32), check_labels, recognizer.classify(check_crops))
    profile = DeckProfile(teaching.name, pack.name, list(pack.codes), np.zeros(0, np.float32),
                          np.zeros(0, np.float32), classifier_digest(CLASSIFIER))
    profile.figures = {**figures(pack, probs[:, to_class], check, names), "whole": True, "epochs": epochs}
    refuse_if_worse(teaching.name, profile.figures)
    profile.save(teaching.folder, own_classifier=export(model, size))
    return profile


def _input(crops: list[np.ndarray]) -> np.ndarray:
    """Upright crops as network input (N x 3 x 96 x 96, 0..1)."""
    return np.stack(crops).transpose(0, 3, 1, 2).astype(np.float32) / 255


def _first(out):
    """The classify head's output (in eval mode it gives its probabilities with its logits)."""
    return out[0] if isinstance(out, (tuple, list)) else out


def export(model, size: int, stamp: tuple[str, str] | None = None) -> bytes:
    """The model as ONNX with the shipped classifier's input, output, batch and metadata (its names), and
    ``stamp`` (key, value) saying where it came from (default: a deck's fine-tune, dated). Exported as
    Ultralytics exports (batch norms fused, the head giving probabilities), so its weights keep their
    names and :mod:`vision.training.recover` can start a later round from it."""
    import onnx  # noqa: PLC0415
    import torch  # noqa: PLC0415

    net = copy.deepcopy(model).eval()
    net.fuse(verbose=False)
    for module in net.modules():
        if hasattr(module, "export"):
            module.export = True  # the classify head returns its probabilities alone
    buf = io.BytesIO()
    torch.onnx.export(net, torch.zeros(1, 3, size, size), buf, input_names=["images"], output_names=["output0"],
                      dynamic_axes={"images": {0: "batch"}}, opset_version=17, dynamo=False)
    out = onnx.load_from_string(buf.getvalue())
    for prop in onnx.load(str(CLASSIFIER)).metadata_props:
        if prop.key not in ("deck_finetuned", "print_round"):
            out.metadata_props.add(key=prop.key, value=prop.value)
    key, value = stamp or ("deck_finetuned", time.strftime("%Y-%m-%dT%H:%M:%S"))
    out.metadata_props.add(key=key, value=value)
    return out.SerializeToString()
