"""Train the index stage (:mod:`vision.recognize.index`) with plain PyTorch and export it to ONNX.

``python -m vision.training.train_index --data runs/index/patches.npz --out models/card-index.onnx`` reads
the patches :mod:`datasets.index_crops` wrote (and the ``-val.npz`` beside them). The network is
small (0.91 M weights): four stride-2 stages and two dense layers, one class per card and
``none``. Patches are never mirrored: a mirrored index is no card's.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from datasets.corner_crops import val_path
from vision.recognize.index import NONE, SHARE, SIZE

from .train_corners import light_and_noise, save_state, stage, training_options


def index_net(classes: int):
    """Patch (N x 3 x SIZE x SIZE, RGB / 255) -> class logits (N x classes)."""
    from torch import nn  # noqa: PLC0415

    side = SIZE // 16
    return nn.Sequential(stage(3, 24), stage(24, 48), stage(48, 96), stage(96, 160), nn.Flatten(), nn.Dropout(0.2),
                         nn.Linear(160 * side * side, 256), nn.ReLU(inplace=True), nn.Linear(256, classes))


def _tensor(patches: np.ndarray):
    import torch  # noqa: PLC0415

    return torch.from_numpy(patches).permute(0, 3, 1, 2).float() / 255.0


def evaluate(net, patches: np.ndarray, labels: np.ndarray, none: int) -> dict[str, float]:
    """Share right over all patches, over the patches showing a card, and over the ``none`` ones."""
    import torch  # noqa: PLC0415

    net.eval()
    with torch.no_grad():
        pred = np.concatenate([net(_tensor(patches[k:k + 512])).argmax(1).numpy() for k in range(0, len(patches), 512)])
    card = labels != none
    return {"all": float(np.mean(pred == labels)), "cards": float(np.mean(pred[card] == labels[card])),
            "none": float(np.mean(pred[~card] == none))}


def train(data: list[Path], epochs: int = 10, batch: int = 128, lr: float = 3e-3, seed: int = 0,
          val: Path | None = None, init: Path | None = None, log=print):
    """Train on the patches in ``data`` (from the state ``init`` if given); returns the network and
    its class names."""
    import torch  # noqa: PLC0415


    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    sets = [np.load(f) for f in data]
    patches = np.concatenate([s["patches"] for s in sets])
    names = np.concatenate([s["names"] for s in sets])
    classes = sorted(set(names.tolist()) | {NONE})
    labels = np.searchsorted(classes, names)
    val_file = val or val_path(data[0])
    held = np.load(val_file) if val_file.is_file() else None
    net = index_net(len(classes))
    if init:
        net.load_state_dict(torch.load(init))
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    steps = max(1, epochs * ((len(patches) + batch - 1) // batch))
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.1)
    loss_fn = torch.nn.CrossEntropyLoss(label_smoothing=0.05)
    for epoch in range(epochs):
        net.train()
        start, total = time.time(), 0.0
        order = rng.permutation(len(patches))
        for k in range(0, len(order), batch):
            idx = np.sort(order[k:k + batch])
            loss = loss_fn(net(light_and_noise(_tensor(patches[idx]))), torch.from_numpy(labels[idx]))
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(idx)
        line = f"epoch {epoch + 1}/{epochs}  loss {total / len(patches):.4f}  {time.time() - start:.0f} s"
        if held is not None:
            m = evaluate(net, held["patches"], np.searchsorted(classes, held["names"]), classes.index(NONE))
            line += f"  val right {m['all']:.3f} (patches showing a card {m['cards']:.3f}, none {m['none']:.3f})"
        log(line)
    return net, classes


def export(net, classes: list[str], out: Path) -> Path:
    """ONNX with a free batch size, softmax included; class names and the patch geometry go in the
    metadata (the geometry is checked at load)."""
    import onnx  # noqa: PLC0415
    import torch  # noqa: PLC0415

    net.eval()
    out.parent.mkdir(parents=True, exist_ok=True)
    model = torch.nn.Sequential(net, torch.nn.Softmax(dim=1))
    torch.onnx.export(model, torch.zeros(1, 3, SIZE, SIZE), str(out), input_names=["patches"], output_names=["probs"],
                      dynamic_axes={"patches": {0: "n"}, "probs": {0: "n"}}, opset_version=17, dynamo=False)
    onnx_model = onnx.load(str(out))
    for key, value in (("names", repr(dict(enumerate(classes)))), ("size", SIZE), ("share", SHARE)):
        onnx_model.metadata_props.add(key=key, value=str(value))
    onnx.save(onnx_model, str(out))
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    training_options(ap, "patches", "datasets.index_crops", "models/card-index.onnx", 10, "runs/index/last.pt")
    args = ap.parse_args(argv)
    import torch  # noqa: PLC0415

    torch.set_num_threads(args.threads)
    net, classes = train(args.data, args.epochs, args.batch, args.lr, val=args.val, init=args.init)
    save_state(net, args.state)
    print(f"wrote {export(net, classes, args.out)} and {args.state}")


if __name__ == "__main__":
    main()
