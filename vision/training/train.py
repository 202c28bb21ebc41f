"""Train the two stages with Ultralytics, offline, and export them to ONNX.

``python -m vision.training.train --data runs/data --out models`` regenerates nothing by itself; the
Makefile's ``make model`` builds the data and then calls this. Both stages start from
Ultralytics' model YAMLs (no pretrained weights exist offline).
"""

from __future__ import annotations

import argparse
import shutil
from dataclasses import dataclass
from pathlib import Path

from . import offline  # noqa: F401  (must precede ultralytics)


@dataclass
class StageConfig:
    model_yaml: str
    imgsz: int
    epochs: int
    batch: int = 16
    extra: dict | None = None


DETECTOR = StageConfig("yolo11n-obb.yaml", imgsz=320, epochs=30, batch=16,
                       extra={"mosaic": 0.5, "degrees": 0.0, "scale": 0.3, "translate": 0.1})
CLASSIFIER = StageConfig("yolo11n-cls.yaml", imgsz=96, epochs=10, batch=64,
                         extra={"optimizer": "AdamW", "lr0": 0.002, "auto_augment": None, "erasing": 0.1,
                                "hsv_h": 0.01, "scale": 0.1})  # random crops keep >= 90% of the card
NO_MIRROR = {"fliplr": 0.0, "flipud": 0.0}  # a mirrored card is another card


def _yolo():
    from ultralytics import YOLO  # noqa: PLC0415
    from ultralytics.utils import torch_utils  # noqa: PLC0415

    offline.settings_offline()
    torch_utils.NUM_THREADS = max(torch_utils.NUM_THREADS, 2)
    _results_without_polars()
    return YOLO


def _results_without_polars() -> None:
    """Ultralytics' trainer needs polars only to read its own ``results.csv`` back into each
    checkpoint. The lent GPU machines lack it, and its wheel (54 MB) does not fit what travels
    there (docs/gpu-round.md), so where it is missing the csv module reads the file instead."""
    try:
        import polars  # noqa: F401, PLC0415
    except ImportError:
        from ultralytics.engine.trainer import BaseTrainer  # noqa: PLC0415

        BaseTrainer.read_results_csv = read_results_csv


def read_results_csv(trainer) -> dict[str, list]:
    """What ``BaseTrainer.read_results_csv`` gives (each column as a list), read with the csv module."""
    import csv  # noqa: PLC0415

    try:
        with open(trainer.csv, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError:
        return {}
    return {k: [_number(r[k]) for r in rows] for k in (rows[0] if rows else {})}


def _number(text: str) -> int | float:
    return int(text) if text.strip().lstrip("-").isdigit() else float(text)


def train_stage(cfg: StageConfig, data: str, project: Path, name: str, device: str = "cpu",
                epochs: int | None = None, imgsz: int | None = None, fraction: float = 1.0,
                plots: bool = True, init: Path | None = None, overrides: dict | None = None) -> Path:
    """Train one stage (from scratch, or fine-tuning ``init``); returns the best ``.pt``.
    ``overrides`` (Ultralytics arguments) come last: a GPU round's batch, workers and time."""
    YOLO = _yolo()
    model = YOLO(str(init) if init else cfg.model_yaml)
    args = dict(data=data, epochs=epochs or cfg.epochs, imgsz=imgsz or cfg.imgsz, batch=cfg.batch,
                device=device, workers=0 if device == "cpu" else 8, project=str(project.resolve()), name=name,
                exist_ok=True, plots=plots, amp=device != "cpu", verbose=False, seed=0, deterministic=False,
                fraction=fraction, **NO_MIRROR, **(cfg.extra or {}))
    if init:  # fine-tuning: the weights are already trained, so a short warm-up and a gentler rate
        args.update(warmup_epochs=0.5, lr0=args.get("lr0", 0.01) / 2)
    model.train(**(args | (overrides or {})))
    return Path(model.trainer.best)


def widen_classifier(init: Path, classes: list[str], out: Path) -> Path:
    """A copy of classifier ``init`` whose head also has the ``classes`` it lacks (``back``).

    Ultralytics would start a head of another size from random weights, forgetting every card;
    here each known class keeps its row, so fine-tuning starts from the old model's reads and
    only the new rows are learned. Returns ``init`` itself when it already has the classes."""
    import torch  # noqa: PLC0415

    ckpt = torch.load(init, map_location="cpu", weights_only=False)
    model = ckpt.get("ema") or ckpt["model"]
    old = [model.names[i] for i in range(len(model.names))]
    new = sorted(set(old) | set(classes))  # Ultralytics numbers the class folders in sorted order
    if new == old:
        return init
    head = model.model[-1].linear
    wide = torch.nn.Linear(head.in_features, len(new)).to(head.weight.dtype)
    with torch.no_grad():
        wide.weight.mul_(0.1)
        wide.bias.fill_(float(head.bias.min()))  # a new class starts unlikely, below every known one
        for i, name in enumerate(new):
            if name in old:
                wide.weight[i] = head.weight[old.index(name)]
                wide.bias[i] = head.bias[old.index(name)]
    model.model[-1].linear = wide
    model.names = dict(enumerate(new))
    model.yaml["nc"] = len(new)
    ckpt.update(model=model, ema=None, optimizer=None)
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.save(ckpt, out)
    return out


def export_onnx(weights: Path, imgsz: int, out: Path) -> Path:
    """ONNX for ONNX Runtime; no simplifier (it would want a network install)."""
    YOLO = _yolo()
    path = YOLO(str(weights)).export(format="onnx", imgsz=imgsz, simplify=False, dynamic=False, opset=17)
    out.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(path, out)
    return out


def allow_batches(path: Path) -> Path:
    """Let an exported classifier read any number of crops in one run. Ultralytics' dynamic export
    would free the image size too (and add shape arithmetic): here only the batch axis is freed, in
    the graph's inputs, outputs and the reshapes that carry it (the attention block's), and the
    result is checked against the original on crops read one by one."""
    import onnx  # noqa: PLC0415
    from onnx import numpy_helper  # noqa: PLC0415

    model = onnx.load(str(path))
    shapes = {n.input[1] for n in model.graph.node if n.op_type == "Reshape"}
    for node in model.graph.node:
        if node.op_type == "Constant" and node.output[0] in shapes:
            shape = numpy_helper.to_array(node.attribute[0].t).copy()
            if shape.ndim == 1 and len(shape) > 1 and shape[0] == 1:
                shape[0] = -1
                node.attribute[0].t.CopyFrom(numpy_helper.from_array(shape, node.attribute[0].t.name))
    for value in list(model.graph.input) + list(model.graph.output):
        value.type.tensor_type.shape.dim[0].dim_param = "batch"
    del model.graph.value_info[:]
    onnx.checker.check_model(model)
    batched = model.SerializeToString()
    _same_reads(path.read_bytes(), batched)
    path.write_bytes(batched)
    return path


def _same_reads(single: bytes, batched: bytes, n: int = 4) -> None:
    import numpy as np  # noqa: PLC0415
    import onnxruntime as ort  # noqa: PLC0415

    one, many = (ort.InferenceSession(m, providers=["CPUExecutionProvider"]) for m in (single, batched))
    shape = [n] + list(one.get_inputs()[0].shape[1:])
    x = np.random.default_rng(0).random(shape, np.float32)
    name = one.get_inputs()[0].name
    alone = np.concatenate([one.run(None, {name: x[i:i + 1]})[0] for i in range(n)])
    together = many.run(None, {many.get_inputs()[0].name: x})[0]
    if not np.allclose(alone, together, atol=1e-5):
        raise RuntimeError("the classifier reads a batch differently from single crops: not exported batched")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description="train detector and classifier, export ONNX")
    ap.add_argument("--data", type=Path, required=True, help="folder written by datasets.build")
    ap.add_argument("--out", type=Path, default=Path("models"))
    ap.add_argument("--runs", type=Path, default=Path("runs"))
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--det-epochs", type=int, default=DETECTOR.epochs)
    ap.add_argument("--cls-epochs", type=int, default=CLASSIFIER.epochs)
    ap.add_argument("--stage", choices=["both", "detect", "classify"], default="both")
    ap.add_argument("--det-init", type=Path, help="a detector .pt to fine-tune instead of starting from scratch")
    ap.add_argument("--cls-init", type=Path, help="a classifier .pt to fine-tune instead of starting from scratch")
    args = ap.parse_args(argv)
    if args.stage in ("both", "detect"):
        best = train_stage(DETECTOR, str(args.data / "detect" / "data.yaml"), args.runs, "detect",
                           args.device, args.det_epochs, init=args.det_init)
        export_onnx(best, DETECTOR.imgsz, args.out / "card-detector.onnx")
    if args.stage in ("both", "classify"):
        init = args.cls_init
        if init:
            classes = sorted(p.name for p in (args.data / "classify" / "train").iterdir() if p.is_dir())
            init = widen_classifier(init, classes, args.runs / "classify-init.pt")
        best = train_stage(CLASSIFIER, str(args.data / "classify"), args.runs, "classify",
                           args.device, args.cls_epochs, init=init)
        allow_batches(export_onnx(best, CLASSIFIER.imgsz, args.out / "card-classifier.onnx"))


if __name__ == "__main__":
    main()
