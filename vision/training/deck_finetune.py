"""``chratze teach --whole``: the whole classifier fine-tuned on a deck's captures, in PyTorch.

The shipped classifier is recovered from its ONNX file (:mod:`vision.training.recover`), trained on
the same views of the captures the last layer learns from (drawn with the same seed), checked on the
same check views, and written as the deck's own ONNX classifier with the shipped one's input, output
and class names, so the recognizer reads it in place of the shipped one. Needs the training extra.
"""

from __future__ import annotations

import io
import time

import numpy as np

from vision.recognize import CLASSIFIER
from vision.recognize.deck import DeckProfile, classifier_digest
from vision.teach.augment import views
from vision.teach.deck import Teaching
from vision.teach.learn import Progress, Views, figures, refuse_if_worse
from vision.teach.settings import TEACH, TeachSettings

from .recover import build_model, calibrate, load_fused, onnx_weights, scene_images

EPOCHS = 3  # on the unseen pack: 98.0, 98.8, 99.4 % of the check views after 1, 2, 3 (18 s each here)
LR = 2e-4  # AdamW's step over every weight: a tenth of the classifier's first training's
BATCH = 64


def crops(teaching: Teaching, rng: np.random.Generator, per: int, names: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """``per`` views of every capture as network input (N x 3 x 96 x 96, 0..1), and each one's class,
    in the order :func:`vision.teach.learn.learn` draws them."""
    captured, xs, ys = teaching.captured(), [], []
    for code in teaching.pack.codes:
        for cap in captured[code]:
            xs += views(cap, per, rng)
            ys += [names.index(code)] * per
    return np.stack(xs).transpose(0, 3, 1, 2).astype(np.float32) / 255, np.array(ys)


def finetune(teaching: Teaching, recognizer, settings: TeachSettings = TEACH, epochs: int = EPOCHS,
             lr: float = LR, progress: Progress | None = None) -> DeckProfile:
    """The deck with its own whole classifier, learned and checked; refused if it reads its check views
    worse than the shipped network (:class:`vision.teach.learn.Refused`). Keeps it in the deck's folder."""
    import torch  # noqa: PLC0415 - the training extra; the table's install has none

    missing = teaching.missing()
    if missing:
        raise ValueError("not every card is captured yet; missing: " + ", ".join(map(teaching.pack.card_name, missing)))
    torch.set_num_threads(2)
    weights, meta = onnx_weights(CLASSIFIER)
    model, _, size = build_model(meta)
    calibrate(model, load_fused(model, weights), scene_images(128, size, "classify"))
    names = [model.names[i] for i in range(len(model.names))]
    rng = np.random.default_rng(settings.seed)
    x, y = crops(teaching, rng, settings.views, names)
    xc, yc = crops(teaching, rng, settings.check_views, names)
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
    pack_cols = [names.index(c) for c in teaching.pack.codes]
    labels = np.array([teaching.pack.codes.index(names[i]) for i in yc])
    shipped = recognizer.classify([np.ascontiguousarray((c.transpose(1, 2, 0) * 255).round().astype(np.uint8)) for c in xc])
    check = Views(np.zeros((len(xc), 0), np.float32), labels, shipped)
    profile = DeckProfile(teaching.name, teaching.pack.name, list(teaching.pack.codes), np.zeros(0, np.float32),
                          np.zeros(0, np.float32), classifier_digest(CLASSIFIER))
    profile.figures = {**figures(teaching.pack, probs[:, pack_cols], check, names), "whole": True, "epochs": epochs}
    refuse_if_worse(teaching.name, profile.figures)
    profile.save(teaching.folder, own_classifier=export(model, size))
    return profile


def _first(out):
    """The classify head's output (in eval mode it gives its probabilities with its logits)."""
    return out[0] if isinstance(out, (tuple, list)) else out


def export(model, size: int) -> bytes:
    """The model as ONNX with the shipped classifier's input, output, batch and metadata (its names)."""
    import onnx  # noqa: PLC0415
    import torch  # noqa: PLC0415

    class Probs(torch.nn.Module):
        def __init__(self, net):
            super().__init__()
            self.net = net

        def forward(self, images):
            return _first(self.net(images))

    buf = io.BytesIO()
    model.eval()
    torch.onnx.export(Probs(model), torch.zeros(1, 3, size, size), buf, input_names=["images"],
                      output_names=["output0"], dynamic_axes={"images": {0: "batch"}}, opset_version=17, dynamo=False)
    out = onnx.load_from_string(buf.getvalue())
    for prop in onnx.load(str(CLASSIFIER)).metadata_props:
        out.metadata_props.add(key=prop.key, value=prop.value)
    out.metadata_props.add(key="deck_finetuned", value=time.strftime("%Y-%m-%dT%H:%M:%S"))
    return out.SerializeToString()
